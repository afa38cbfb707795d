// Register-resident kernels of the LU family for n <= 32 (the seed paper's design): one matrix per group of
// N lanes of a warp, one row per lane held in registers, 32/N matrices per warp and several warps per block.
// N is a template parameter so that every loop over rows and columns unrolls and the register arrays are
// indexed only by compile-time constants. Each matrix is read once and written once; the loads and stores
// of one column are contiguous across the lanes of a group.
//
// Pivoting uses a LAZY SWAP: rows never move between lanes. Each lane tracks the position of its row in
// LAPACK's swapped order (pos), so that ties are broken exactly as LAPACK does, and writes its row once, at
// the end, to its final position. The pivot row is broadcast through a small shared-memory buffer per group
// (one store per element by the pivot lane, one broadcast load per element by the others).
//
// Only definitions live here; lu_registers_*.cu instantiate them per precision and order range.
#pragma once

#include "common/grid.hpp"
#include "device_common.cuh"
#include "lu_registers.hpp"
#include "lu_thread.cuh"

namespace smallla {
namespace cuda_kernels {

template <int N> struct group_shape {
    static constexpr int per_warp = 32 / N;  // matrices per warp
    static constexpr unsigned lanes = N == 32 ? 0xffffffffu : ((1u << N) - 1u);
    // Warp-synchronous operations (reductions, ballots, shuffles, __syncwarp) given a run-time mask, such as one
    // group's lanes, compile (ptxas, sm_90) to a test of the mask's uniformity and convergence with a fallback
    // path that runs the operation per distinct mask: with several groups per warp the masks differ, so every
    // such operation took the fallback; with one group the test alone was ~3 instructions and a reduction more
    // per operation. Given a compile-time mask they compile to the bare instruction (perf/NOTES.md, "The step's
    // chain"). So with one group per warp the mask is the constant `lanes`, and with 2-5 groups ("together")
    // every group slot of a warp steps together under the full mask, a reduction being one full-mask
    // reduction per slot; more groups (n <= 5, where the thread-per-matrix kernels serve by default) keep the
    // group's own mask.
    // A constant mask alone is not enough where the group code sits in a branch that some lanes skip and a
    // barrier follows: ptxas then keeps the convergence test and the fallback on every warp operation (about a
    // third of the code of s n = 12's getrf). So there the whole warp runs the group code (group_place's Whole),
    // the lanes past the last slot (32 mod N of them, the "spare" lanes) included, every operation under the full
    // mask. getrf and matinv took this form while a staging tile's barrier followed their group code; the tiles
    // are gone, and the form was measured with them. Where no barrier follows, the lanes without a matrix may
    // leave instead (getrs), which ptxas takes as convergence of the rest.
    static constexpr bool together = per_warp >= 2 && per_warp <= 5;
    static constexpr unsigned slots = per_warp * N == 32 ? 0xffffffffu : ((1u << (per_warp * N)) - 1u);
};

// Where a thread sits: its matrix b, its row i in the group, the group's lane mask. valid: the group has a
// matrix (b < batch); runs: the lane takes part in the group code. With group_shape's `together`, a group slot
// without a matrix in a warp that has one runs too (on zeros, its loads and stores skipped), so that the
// warp's slots reach every warp-synchronous operation together; with Whole as well, every lane of the warp
// runs, the spare lanes included (group_shape).
template <int N, int Warps, bool Together = group_shape<N>::together, bool Whole = Together> struct group_place {
    using shape = group_shape<N>;
    int warp, g, i, base_lane;
    int slot;  // the group slot whose pivot-row buffer the lane reads
    unsigned mask;
    long long b;
    bool valid, runs;
    __device__ __forceinline__ group_place(int batch)
        : group_place(batch, ((long long)blockIdx.x * Warps + (threadIdx.x >> 5)) * shape::per_warp) {}
    // first: the matrix of the warp's first group slot (a persistent kernel steps it through the batch).
    __device__ __forceinline__ group_place(int batch, long long first) {
        const int lane = threadIdx.x & 31;
        warp = threadIdx.x >> 5;
        g = lane / N;
        i = lane - g * N;
        base_lane = g * N;
        mask = shape::per_warp == 1 ? shape::lanes : shape::lanes << base_lane;
        b = first + g;
        valid = g < shape::per_warp && b < batch;
        runs = Together ? Whole || (g < shape::per_warp && first < batch) : valid;
        // With Whole, the spare lanes (g == per_warp) hold no row (i = -1: their pos never takes part in a pivot
        // search, never meets a step, their rows are never updated) and read slot 0's pivot rows: on zeros of
        // their own every step's scaler divided by zero, a slow path of the division that the rest of the warp
        // waited for.
        slot = g;
        if (Whole && g >= shape::per_warp) {
            i = -1;
            slot = 0;
        }
    }
    // The mask given to warp-synchronous operations: a compile-time constant except for more than 5 groups.
    __device__ __forceinline__ unsigned sync_mask() const {
        if constexpr (Whole) return 0xffffffffu;
        else if constexpr (shape::per_warp == 1) return shape::lanes;
        else if constexpr (Together) return shape::slots;
        else return mask;
    }
    __device__ __forceinline__ void sync() const { __syncwarp(sync_mask()); }
    // The group's lanes where p holds, as bits of the warp's lanes.
    __device__ __forceinline__ unsigned ballot(bool p) const { return __ballot_sync(sync_mask(), p) & mask; }
    template <class V> __device__ __forceinline__ V shfl_from(V v, int lane) const { return shfl(sync_mask(), v, lane); }
    // A reduction over the group's lanes: op(mask, v) reduces over mask's lanes, id is its identity.
    template <class Op> __device__ __forceinline__ unsigned reduce(unsigned v, unsigned id, Op op) const {
        if constexpr (Together) {
            unsigned r = 0;
#pragma unroll
            for (int q = 0; q < shape::per_warp; ++q) {
                const unsigned t = op(sync_mask(), g == q ? v : id);
                if (g == q) r = t;
            }
            return r;
        } else {
            return op(sync_mask(), v);
        }
    }
    __device__ __forceinline__ unsigned max(unsigned v) const {
        return reduce(v, 0u, [](unsigned m, unsigned x) { return group_max(m, x); });
    }
    __device__ __forceinline__ unsigned min(unsigned v) const {
        return reduce(v, 0xffffffffu, [](unsigned m, unsigned x) { return group_min(m, x); });
    }
};

// Row i of a group's matrix into registers: zeros in a slot without a matrix (group_place::runs).
template <class T, int N, class Place, class S>
__device__ __forceinline__ void load_row(const Place &at, const S *m, long long ld, T (&a)[N]) {
    if (at.valid) {
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = m[at.i + j * ld];
    } else {
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = T(real_t<T>(0));
    }
}

// A group's pivot-row buffer holds N entries rounded up to whole 16-byte chunks, so that every buffer starts
// 16-byte aligned at every order and the pivot row's stores and broadcast loads can be 16 bytes wide (packed
// back to back, the odd orders' buffers were 4- or 8-byte aligned: scalar accesses, and those orders ran below
// both even neighbours; perf/NOTES.md, "The step's chain").
template <class T, int N> constexpr int row_buffer_length() {
    return int((N * sizeof(T) + 15) / 16 * 16 / sizeof(T));
}

// The lane-per-row getrf and matinv choose the tiny-pivot scale by a select, not a branch (pivot_scaler).
template <class T> using lane_scaler = pivot_scaler<T, tiny_scale::select>;

// Pivot search and the lazy swap of one step k: returns the position (in LAPACK's order) of the pivot row,
// and updates pos: the pivot row takes position k, the row that was at position k takes the pivot's.
template <class T, int N, int Warps, bool Together, bool Whole>
__device__ __forceinline__ int lazy_pivot_step(const group_place<N, Warps, Together, Whole> &at, T akk, int k, int &pos,
                                               bool &is_piv) {
    const int ppos = select_pivot(at, abs1(akk), pos >= k, pos == k, pos);
    is_piv = pos == ppos;
    if (is_piv) pos = k;
    else if (pos == k) pos = ppos;
    return ppos;
}

// ---- getrf ---------------------------------------------------------------------------------------------------
// Pivot: whether the kernel can pivot at all. Without pivoting (getrf with a null pivot array) the pivot search
// and the lazy swap are compiled out rather than skipped by a uniform branch: fewer registers and instructions
// per step. The rolled form keeps the run-time test.
// The elimination of one group's matrix held a row per lane in a (LAPACK's getf2 steps, lazy swap): on return
// the lane's row belongs at position pos of the factors, my_piv is the pivot position of step at.i (0-based),
// inf the first zero pivot (1-based; 0 when none).
template <class T, int N, int Warps, bool Pivot, bool Together, bool Whole>
__device__ __forceinline__ void getrf_eliminate(const group_place<N, Warps, Together, Whole> &at, T (&a)[N], int &pos,
                                                int &my_piv, int &inf, T (&bcast)[2][row_buffer_length<T, N>()]) {
    pos = at.i;
    my_piv = at.i;
    inf = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        bool is_piv = at.i == k;
        int ppos = k;
        if constexpr (Pivot) ppos = lazy_pivot_step(at, a[k], k, pos, is_piv);
        if (at.i == k) my_piv = ppos;
        T *buf = bcast[k & 1];
        if (is_piv) {
#pragma unroll
            for (int j = k; j < N; ++j) buf[j] = a[j];
        }
        at.sync();
        const lane_scaler<T> s(buf[k]);
        if (s.zero && inf == 0) inf = k + 1;
        if (pos > k) {  // rows below the pivot in LAPACK's order: multiplier and rank-1 update
            const T l = s.multiplier(a[k]);
            a[k] = l;
#pragma unroll
            for (int j = k + 1; j < N; ++j) a[j] = minus_product(a[j], l, buf[j]);
        }
    }
}

// One group's matrix read from m, eliminated (getrf_eliminate; Pivot as there) and written back with its pivots.
template <class T, int N, int Warps, bool Pivot>
__device__ __forceinline__ void getrf_group(const group_place<N, Warps> &at, T *m, long long ld, int *piv, int *info,
                                            T (&bcast)[2][row_buffer_length<T, N>()]) {
    T a[N];
    load_row(at, m, ld, a);
    int pos, my_piv, inf;
    getrf_eliminate<T, N, Warps, Pivot>(at, a, pos, my_piv, inf, bcast);
    if (!at.valid) return;
#pragma unroll
    for (int j = 0; j < N; ++j) m[pos + j * ld] = a[j];
    if constexpr (Pivot) piv[at.i] = my_piv + 1;
    if (at.i == 0) *info = inf;
}

// The register cap of a kernel instance (routing table, SMALLLA_CAP): where a few registers over a threshold of
// resident warps cost more than the spills of a cap (on the H100 a kernel keeps floor(512 / ceil8(registers))
// warps per sub-partition, so the thresholds are 64, 72, 80, 96, 128 and 168 registers).
template <class T, int N> constexpr int cap_of(routine r, family f) {
    return min_blocks_of(r, f, scalar_traits<T>::letter, N);
}

template <class T, int N, int Warps, bool Pivot>
__global__ void __launch_bounds__(Warps * 32, cap_of<T, N>(Pivot ? routine::getrf : routine::getrf_nopiv, family::lane))
getrf_small_registers(batch_ref<T> A, pivots_ref<int> P, int *info, int batch) {
    constexpr int G = group_shape<N>::per_warp;
    __shared__ __align__(16) T bcast[Warps][G][2][row_buffer_length<T, N>()];
    const group_place<N, Warps> at(batch);
    if (at.runs)
        // P.base, not Pivot, decides (the same for the kernels' results): with Pivot ptxas schedules the pivot row's
        // shared-memory loads one at a time in some orders (perf/NOTES.md, the consolidation of issue 29).
        getrf_group<T, N, Warps, Pivot>(at, at.valid ? A[at.b] : nullptr, A.ld, P.base ? P[at.b] : nullptr,
                                        info + at.b, bcast[at.warp][at.slot]);
}

// ---- matinv: Gauss-Jordan in registers -----------------------------------------------------------------------
// inv(A) in one pass with only n registers per row: the in-place Gauss-Jordan sweep with LAPACK's partial
// pivoting. The rows not yet pivoted see exactly getrf's arithmetic (multiplier = a(i,k)/pivot the way getf2
// forms it, then a(i,j) -= multiplier * pivot row), so pivots and info are getrf's. After the sweep of the
// pivot (r_k, k) for every k, the row that was pivot at step k holds row k of inv(A) with its column k'
// belonging to column r_k' of inv(A).
// The pivot row's scaling is deferred: the textbook sweep scales the pivot row by -1/p at its step (entry k
// set to 1/p), a path of its own that a warp executes besides the other rows' update whenever its lanes
// differ (every step). Here the pivot row is kept unscaled, u, with u(k) = -1, and its scaler f; for such a
// row the later update a(j) -= l p(j) with l = a(k) / p' is f u(j) - f (u(k) / p') p(j), so u takes the
// ordinary update with the multiplier u(k) / p', and every row is scaled once, by -f, at the store. Only
// rounding differs from the textbook order. The deferred scaling pays most at the larger orders; double complex
// n <= 8 keeps the textbook order, where the kept scaler's registers cost more than the second path.
template <class T, int N> constexpr bool deferred_pivot_row_scaling() { return !(sizeof(T) == 16 && N <= 8); }
// The update by FMAs (minus_product), faster than the operators' form for complex types; double complex n = 6, 8
// and 12 keep the operators, where the FMA form ran slower (n = 12: 140 registers instead of 128, a resident
// block fewer; perf/NOTES.md, "The step's chain").
template <class T, int N> constexpr bool matinv_fused_update() {
    return !(sizeof(T) == 16 && (N == 6 || N == 8 || N == 12));
}

// The steps unrolled in the body of matinv's rolled sweep (matinv_group): 8 keeps double complex n = 32 at ~57 KB
// of code (unrolled: ~150 KB; one step per pass: ~28 KB but a select per column twice a step).
constexpr int matinv_rolled_stride = 8;

// The pivot of Gauss-Jordan step k (both forms of matinv_group): the search and lazy swap, the pivot lane's row
// into the step's buffer, the sync, and the scaler of the broadcast pivot; inf takes the first zero pivot.
template <class T, int N, int Warps, bool Together, bool Whole>
__device__ __forceinline__ lane_scaler<T> matinv_pivot(const group_place<N, Warps, Together, Whole> &at,
                                                       const T (&a)[N], T akk, int k, T *buf, int &pos,
                                                       bool &is_piv, int &my_step, int &inf) {
    lazy_pivot_step(at, akk, k, pos, is_piv);
    if (is_piv) {
        my_step = k;
#pragma unroll
        for (int j = 0; j < N; ++j) buf[j] = a[j];
    }
    at.sync();
    const lane_scaler<T> sc(buf[k]);  // a zero pivot gives Inf/NaN here, never a trap
    if (sc.zero && inf == 0) inf = k + 1;
    return sc;
}

// The column order r of a Gauss-Jordan sweep (r_j: the row that was pivot at step j), which every row's lane has
// stored into a pivot-row buffer (rows), read by each lane 16 bytes at a time into r.
template <int N> constexpr int column_order_length() { return (N + 3) / 4 * 4; }
template <class T, int N>
__device__ __forceinline__ void read_column_order(const int *rows, int (&r)[column_order_length<N>()]) {
    constexpr int chunks = column_order_length<N>() / 4;  // within the buffer: its length is whole 16-byte chunks
    static_assert(chunks * 16 <= row_buffer_length<T, N>() * (int)sizeof(T), "the buffer holds r");
#pragma unroll
    for (int q = 0; q < chunks; ++q) {
        const int4 v = reinterpret_cast<const int4 *>(rows)[q];
        r[4 * q] = v.x, r[4 * q + 1] = v.y, r[4 * q + 2] = v.z, r[4 * q + 3] = v.w;
    }
}

template <class T, int N, int Warps, bool Rolled, bool Together, bool Whole>
__device__ __forceinline__ void matinv_group(const group_place<N, Warps, Together, Whole> &at, const T *m,
                                             long long lda, T *c, long long ldc, int *info,
                                             T (&bcast)[2][row_buffer_length<T, N>()]) {

    T a[N];
    load_row(at, m, lda, a);

    int pos = at.i, my_step = 0, inf = 0;  // my_step: the step where this lane's row was the pivot
    lane_scaler<T> f;  // the scaler of the step where this lane's row was the pivot (deferred scaling)
    constexpr bool Deferred = Rolled || deferred_pivot_row_scaling<T, N>();
    if constexpr (Rolled) {
        // The same sweep with k = q S + t (S = matinv_rolled_stride): the loop over q is not unrolled, its S steps
        // t are, so the code is S steps' bodies. Every step touches every column anyway; a[k] is selected and
        // written back among the N / S columns j = t (mod S), the others' indices are compile-time constants.
        constexpr int S = matinv_rolled_stride;
#pragma unroll 1
        for (int q = 0; q * S < N; ++q) {
#pragma unroll
            for (int t = 0; t < S; ++t) {
                const int k = q * S + t;
                if (N % S != 0 && k >= N) break;  // the last pass of an order that S does not divide
                T akk = a[t];
#pragma unroll
                for (int j = t + S; j < N; j += S)
                    if (j / S == q) akk = a[j];
                bool is_piv;
                T *buf = bcast[k & 1];
                const lane_scaler<T> sc = matinv_pivot(at, a, akk, k, buf, pos, is_piv, my_step, inf);
                if (is_piv) {
                    f = sc;
#pragma unroll
                    for (int j = t; j < N; j += S)
                        if (j / S == q) a[j] = T(real_t<T>(-1));
                } else {
                    const T l = sc.divide(akk);
#pragma unroll
                    for (int j = 0; j < N; ++j) {
                        const T u = subtract_product<matinv_fused_update<T, N>()>(a[j], l, buf[j]);
                        a[j] = j % S == t && j / S == q ? l : u;
                    }
                }
            }
        }
    } else {
#pragma unroll
        for (int k = 0; k < N; ++k) {
            bool is_piv;
            T *buf = bcast[k & 1];
            const lane_scaler<T> sc = matinv_pivot(at, a, a[k], k, buf, pos, is_piv, my_step, inf);
            if (is_piv) {
                if constexpr (Deferred) {  // only the scaler is kept: the pivot lane skips the update
                    f = sc;
                    a[k] = T(real_t<T>(-1));
                } else {
#pragma unroll
                    for (int j = 0; j < N; ++j)
                        if (j != k) a[j] = -sc.divide(a[j]);
                    a[k] = sc.divide(T(real_t<T>(1)));
                }
            } else {
                const T l = sc.divide(a[k]);
#pragma unroll
                for (int j = 0; j < N; ++j)
                    if (j != k) a[j] = subtract_product<matinv_fused_update<T, N>()>(a[j], l, buf[j]);
                a[k] = l;
            }
        }
    }
    // Column j of the sweep's result is column r_j of inv(A), r_j the row that was pivot at step j: each row's
    // lane stores its own (one store), all read the N entries after one sync, 16 bytes at a time. Tracking r_j
    // during the sweep instead (a ballot and its lowest bit, packed 8 bits per step) cost ~6 instructions per
    // step and n/4 registers. The buffer is the one that step N - 1 did not read, free since that step's sync; a
    // lane without a row (group_place's Whole) stores nothing.
    int *const rows = reinterpret_cast<int *>(bcast[N & 1]);
    if (at.i >= 0) rows[my_step] = at.i;
    at.sync();
    if (!at.valid) return;
    int r[column_order_length<N>()];
    read_column_order<T, N>(rows, r);
#pragma unroll
    for (int j = 0; j < N; ++j) {
        if constexpr (Deferred) c[my_step + r[j] * ldc] = -f.divide(a[j]);
        else c[my_step + r[j] * ldc] = a[j];
    }
    if (at.i == 0) *info = inf;
}

// The whole warp runs the group code (group_shape) only where no lane is spare, n = 8 and 16; with spare lanes
// this kernel took more registers (d 12, 14, c 12, z 12 lost a resident block) or ran slower (s, d 15), so there
// it keeps the slots' mask and the convergence tests (perf/NOTES.md, "The step's chain").
template <int N> constexpr bool matinv_whole_warp() {
    return group_shape<N>::together && group_shape<N>::per_warp * N == 32;
}
template <class T, int N, int Warps, bool Rolled>
__global__ void __launch_bounds__(Warps * 32, cap_of<T, N>(routine::matinv, Rolled ? family::lane_rolled : family::lane))
matinv_small_registers(batch_ref<const T> A, batch_ref<T> C, int *info, int batch) {
    constexpr int G = group_shape<N>::per_warp;
    __shared__ __align__(16) T bcast[Warps][G][2][row_buffer_length<T, N>()];
    const group_place<N, Warps, group_shape<N>::together, matinv_whole_warp<N>()> at(batch);
    if (at.runs)
        matinv_group<T, N, Warps, Rolled>(at, at.valid ? A[at.b] : nullptr, A.ld, at.valid ? C[at.b] : nullptr, C.ld,
                                          info + at.b, bcast[at.warp][at.slot]);
}

// ---- several rows per lane: getrf and matinv at n = 17-20 and float 11-12 ------------------------------------
// With a row per lane, a warp at n = 17-32 holds one matrix and 32 - n lanes idle. Here a group of L = ceil(n / R)
// lanes holds a matrix, lane i its rows i, i + L, ..., i + (R - 1) L (those below n): R = 2 at n = 17-20, three
// matrices a warp, 27-30 lanes busy instead of 17-20. Each row sees the one-row kernels' arithmetic in the same
// order (the same results and pivots), so what a step costs per row (key, bookkeeping, multiplier, update) is
// issued R times per warp; only the scaler, the sync and the pivot row's loads are shared. So these kernels pay
// only through the lanes they fill, and where their registers leave enough warps: two rows per lane at 21-32 (two
// matrices a warp, no lane gained) and three rows at 21-24 in float (four matrices a warp, 142-148 registers) ran
// slower (perf/NOTES.md, "Layouts and kernel families"). Not double complex (two rows of n = 17 are 136 registers
// of data).
constexpr int rows_per_lane = 2;
template <int N> constexpr int multirow_lanes() { return (N + rows_per_lane - 1) / rows_per_lane; }
// At n = 9-16 a warp holds 4-6 matrices against the one-row kernels' 2-3, but their registers (s 12: getrf 64
// against 40, matinv 72 against 53; d, c 12: 98-122) cost resident warps; they ran faster only at single precision
// n = 11-12, so they exist only there.

// Lane i's rows: row[r] = i + r L (-1: no row, for the spare lanes and past n), read from m (leading dimension
// ld), zeros in a group slot without a matrix.
template <class T, int N, int R, class Place, class S>
__device__ __forceinline__ void load_lane_rows(const Place &at, const S *m, long long ld, int (&row)[R],
                                               T (&a)[R][N]) {
    constexpr int L = multirow_lanes<N>();
#pragma unroll
    for (int r = 0; r < R; ++r) row[r] = at.i >= 0 && at.i + r * L < N ? at.i + r * L : -1;
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
        for (int j = 0; j < N; ++j) a[r][j] = at.valid && row[r] >= 0 ? T(m[row[r] + j * ld]) : T(real_t<T>(0));
    }
}
// lazy_pivot_step over a lane's R rows: the pivot's position; piv[r] whether row r is the pivot row.
template <class T, int N, int R, class Place>
__device__ __forceinline__ int lazy_pivot_step_of_rows(const Place &at, const T (&a)[R][N], int k, int (&pos)[R],
                                                       bool (&piv)[R]) {
    real_t<T> v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = abs1(a[r][k]);
    const int ppos = select_pivot_of_rows(at, v, pos, k);
#pragma unroll
    for (int r = 0; r < R; ++r) {
        piv[r] = pos[r] == ppos;
        if (piv[r]) pos[r] = k;
        else if (pos[r] == k) pos[r] = ppos;
    }
    return ppos;
}
// Whether the warp has any matrix: a warp past the batch leaves as a whole (no barrier follows in these kernels).
template <int N, int Warps> __device__ __forceinline__ bool multirow_warp_has_work(int batch) {
    constexpr int G = group_shape<multirow_lanes<N>()>::per_warp;
    return ((long long)blockIdx.x * Warps + (threadIdx.x >> 5)) * G < batch;
}

// getrf (getrf_group's steps, Pivot as there) with R rows per lane.
template <class T, int N, int Warps, bool Pivot>
__global__ void __launch_bounds__(Warps * 32, cap_of<T, N>(Pivot ? routine::getrf : routine::getrf_nopiv, family::two_rows))
getrf_multirow_registers(batch_ref<T> A, pivots_ref<int> P, int *info, int batch) {
    constexpr int R = rows_per_lane, L = multirow_lanes<N>();
    constexpr int G = group_shape<L>::per_warp;
    __shared__ __align__(16) T bcast[Warps][G][2][row_buffer_length<T, N>()];
    if (!multirow_warp_has_work<N, Warps>(batch)) return;
    const group_place<L, Warps, true, true> at(batch);  // the whole warp runs; spare lanes hold no row
    T *const m = at.valid ? A[at.b] : nullptr;
    const long long ld = A.ld;
    int row[R];
    T a[R][N];
    load_lane_rows(at, m, ld, row, a);
    int pos[R], my_piv[R], inf = 0;  // my_piv[r]: the pivot of step row[r]
#pragma unroll
    for (int r = 0; r < R; ++r) pos[r] = my_piv[r] = row[r];
#pragma unroll
    for (int k = 0; k < N; ++k) {
        bool piv[R];
#pragma unroll
        for (int r = 0; r < R; ++r) piv[r] = pos[r] == k;
        int ppos = k;
        if constexpr (Pivot) ppos = lazy_pivot_step_of_rows(at, a, k, pos, piv);
        T *const buf = bcast[at.warp][at.slot][k & 1];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (row[r] == k) my_piv[r] = ppos;
            if (piv[r]) {
#pragma unroll
                for (int j = k; j < N; ++j) buf[j] = a[r][j];
            }
        }
        at.sync();
        const lane_scaler<T> sc(buf[k]);
        if (sc.zero && inf == 0) inf = k + 1;
        T p[N];  // the pivot row, loaded once for every row's update
#pragma unroll
        for (int j = k + 1; j < N; ++j) p[j] = buf[j];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (pos[r] > k) {
                const T l = sc.multiplier(a[r][k]);
                a[r][k] = l;
#pragma unroll
                for (int j = k + 1; j < N; ++j) a[r][j] = minus_product(a[r][j], l, p[j]);
            }
        }
    }
    if (!at.valid) return;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        if (row[r] >= 0) {
#pragma unroll
            for (int j = 0; j < N; ++j) m[pos[r] + j * ld] = a[r][j];
        }
    }
    if (Pivot && P.base != nullptr) {
        int *const piv = P[at.b];
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (row[r] >= 0) piv[row[r]] = my_piv[r] + 1;
    }
    if (at.i == 0) info[at.b] = inf;
}

// matinv (matinv_group's deferred Gauss-Jordan sweep) with R rows per lane.
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32, cap_of<T, N>(routine::matinv, family::two_rows))
matinv_multirow_registers(batch_ref<const T> A, batch_ref<T> C, int *info, int batch) {
    constexpr int R = rows_per_lane, L = multirow_lanes<N>();
    constexpr int G = group_shape<L>::per_warp;
    __shared__ __align__(16) T bcast[Warps][G][2][row_buffer_length<T, N>()];
    if (!multirow_warp_has_work<N, Warps>(batch)) return;
    const group_place<L, Warps, true, true> at(batch);
    int row[R];
    T a[R][N];
    load_lane_rows(at, at.valid ? A[at.b] : nullptr, A.ld, row, a);
    // Per row: its position in LAPACK's swapped order (-1: no row, never a candidate), the step where it was the
    // pivot and that step's scaler.
    int pos[R], step[R], inf = 0;
    lane_scaler<T> f[R];
#pragma unroll
    for (int r = 0; r < R; ++r) pos[r] = row[r], step[r] = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        T *const buf = bcast[at.warp][at.slot][k & 1];
        bool piv[R];  // at most one row of the group
        lazy_pivot_step_of_rows(at, a, k, pos, piv);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (piv[r]) {
                step[r] = k;
#pragma unroll
                for (int j = 0; j < N; ++j) buf[j] = a[r][j];
            }
        }
        at.sync();
        const lane_scaler<T> sc(buf[k]);  // a zero pivot gives Inf/NaN here, never a trap
        if (sc.zero && inf == 0) inf = k + 1;
        T p[N];  // the pivot row, loaded once for every row's update
#pragma unroll
        for (int j = 0; j < N; ++j)
            if (j != k) p[j] = buf[j];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (piv[r]) {
                f[r] = sc;
                a[r][k] = T(real_t<T>(-1));
            } else {
                const T l = sc.divide(a[r][k]);
#pragma unroll
                for (int j = 0; j < N; ++j)
                    if (j != k) a[r][j] = subtract_product<matinv_fused_update<T, N>()>(a[r][j], l, p[j]);
                a[r][k] = l;
            }
        }
    }
    // The column order and the store as matinv_group's: the buffer step N - 1 did not read holds r.
    int *const rows = reinterpret_cast<int *>(bcast[at.warp][at.slot][N & 1]);
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (row[r] >= 0) rows[step[r]] = row[r];
    at.sync();
    if (!at.valid) return;
    int col[column_order_length<N>()];
    read_column_order<T, N>(rows, col);
    T *const c = C[at.b];
    const long long ldc = C.ld;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        if (row[r] >= 0) {
#pragma unroll
            for (int j = 0; j < N; ++j) c[step[r] + col[j] * ldc] = -f[r].divide(a[r][j]);
        }
    }
    if (at.i == 0) info[at.b] = inf;
}

// ---- getri: inverse from the factors -------------------------------------------------------------------------
// Lane k holds row k of the factors. inv(U) row by row from the bottom (xTRTI2's arithmetic), then
// inv(A) L = inv(U) column by column from the right (xGETRI), then the column interchanges, applied as a
// scatter of each column to its final place. A singular U leaves C = the factors, as the host backend does.
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
getri_small_registers(batch_ref<const T> A, pivots_ref<const int> P, batch_ref<T> C, int *info, int batch) {
    constexpr int G = group_shape<N>::per_warp;
    // Padded only with one group per warp: with two, single precision n = 13 and 15 ran slower padded
    // (perf/NOTES.md, "The step's chain").
    constexpr int L = G == 1 ? row_buffer_length<T, N>() : N;
    __shared__ __align__(16) T bcast[Warps][G][2][L];
    __shared__ int dest[Warps][G][N];
    // Each group on its own (not `together`): a singular group returns early (ptxas -v: the together form
    // spilled at d 9-11).
    const group_place<N, Warps, false> at(batch);
    if (!at.valid) return;
    const int i = at.i;
    const T *m = A[at.b];
    const long long lda = A.ld;
    T a[N];
#pragma unroll
    for (int j = 0; j < N; ++j) a[j] = m[i + j * lda];

    T diag = a[0];
#pragma unroll
    for (int j = 1; j < N; ++j)
        if (j == i) diag = a[j];
    const bool zero_diag = is_zero(diag);
    const unsigned zeros = at.ballot(zero_diag) >> at.base_lane;
    if (zeros != 0) {
        T *c = C[at.b];
        const long long ldc = C.ld;
#pragma unroll
        for (int j = 0; j < N; ++j) c[i + j * ldc] = a[j];
        if (i == 0) info[at.b] = __ffs(zeros);
        return;
    }

    const T diag_inv = T(real_t<T>(1)) / diag;  // xTRTI2's 1/U(j,j), one division per lane
    // The updates below keep the operators' form: with minus_product and its sum counterpart here, ptxas (CUDA
    // 13.0, sm_90) built a complex n = 11 kernel whose inv(U)(0,1) came out wrong from PTX that was right
    // (perf/NOTES.md, "Lessons that still hold").
    // inv(U): step s finalizes row s (reciprocal of the diagonal, scaling as xTRTI2), then the rows above
    // accumulate it. Row k keeps U(k, s) until step s consumes it, so the accumulation is in place.
#pragma unroll
    for (int s = N - 1; s >= 0; --s) {
        T *buf = bcast[at.warp][at.g][s & 1];
        if (i == s) {
            const T r = diag_inv;
            a[s] = r;
#pragma unroll
            for (int j = s + 1; j < N; ++j) a[j] = a[j] * (-r);
#pragma unroll
            for (int j = s; j < N; ++j) buf[j] = a[j];
        }
        at.sync();
        if (i < s) {
            const T u = a[s];
            a[s] = u * buf[s];
#pragma unroll
            for (int j = s + 1; j < N; ++j) a[j] += u * buf[j];
        }
    }
    // inv(A) L = inv(U): column s of inv(A) = column s of inv(U) - inv(A)(:, s+1:) * L(s+1:, s).
#pragma unroll
    for (int s = N - 2; s >= 0; --s) {
        T *buf = bcast[at.warp][at.g][s & 1];
        if (i > s) buf[i] = a[s];  // L(i, s), the column that step s needs
        at.sync();
        T x = i <= s ? a[s] : T(real_t<T>(0));
#pragma unroll
        for (int j = s + 1; j < N; ++j) x -= a[j] * buf[j];
        a[s] = x;
    }
    // Column interchanges in reverse order: where column i of the product ends up. C is taken only now (not
    // held through the sweeps: two registers, and double complex n = 27 fits without spilling).
    T *c = C[at.b];
    const long long ldc = C.ld;
    int d = i;
    if (P.base != nullptr) {
        const int *piv = P[at.b];
        int *mine = dest[at.warp][at.g];
        mine[i] = piv[i] - 1;
        at.sync();
#pragma unroll
        for (int j = N - 2; j >= 0; --j) {
            const int p = mine[j];
            if (valid_interchange(j, p, N)) d = swap_position(d, j, p);
        }
        at.sync();
        mine[i] = d;
        at.sync();
#pragma unroll
        for (int j = 0; j < N; ++j) c[i + mine[j] * ldc] = a[j];
    } else {
#pragma unroll
        for (int j = 0; j < N; ++j) c[i + j * ldc] = a[j];
    }
    if (i == 0) info[at.b] = 0;
}

// ---- getrs: solve from the factors ---------------------------------------------------------------------------
// Lane t holds row t of M, where M = LU for op N and M = (LU)^T (conjugated for op C) for op T/C, and the
// t-th entry of one right-hand side at a time. Both cases are a forward substitution with the lower part of M
// then a backward one with its upper part; the unit diagonal is L's (lower for N, upper for T/C). The row
// interchanges are applied before (N) or after (T/C) as one scatter through shared memory.
// The solve of one group's right-hand sides from the factors held in a (row t of M), as described above.
// my_piv() gives entry t of the pivot vector, 0-based (called only with pivoting), rhs() the right-hand sides'
// column-major storage (called once the interchanges are known, as late as the registers want it); x0: the first
// right-hand side's entry t when the caller has it already (have_x0), else it is read from rhs().
template <class T, int N, class Place, class Piv, class Rhs>
__device__ __forceinline__ void getrs_rows(const Place &at, bool notrans, bool pivoting, int nrhs, const T (&a)[N],
                                           Piv my_piv, Rhs rhs, long long ldb, bool have_x0, T x0, T *xs, int *piv) {
    const int t = at.i;
    T diag = a[0];
#pragma unroll
    for (int j = 1; j < N; ++j)
        if (j == t) diag = a[j];
    const pivot_scaler<T> dsc(diag);  // x / U(t,t) without a division per step
    // Where entry t goes under the interchanges: forward order before the N solve, reverse after T/C.
    int d = t;
    if (pivoting) {
        piv[t] = my_piv();
        at.sync();
        if (notrans) {
#pragma unroll
            for (int k = 0; k < N; ++k) {
                const int p = piv[k];
                if (p != k && p >= 0 && p < N) d = d == k ? p : (d == p ? k : d);
            }
        } else {
#pragma unroll
            for (int k = N - 1; k >= 0; --k) {
                const int p = piv[k];
                if (p != k && p >= 0 && p < N) d = d == k ? p : (d == p ? k : d);
            }
        }
    }
    T *bm = rhs();
    for (int r = 0; r < nrhs; ++r) {
        T x = have_x0 && r == 0 ? x0 : at.valid ? bm[t + r * ldb] : T(real_t<T>(0));
        if (notrans && pivoting) {
            at.sync();
            xs[d] = x;
            at.sync();
            x = xs[t];
        }
#pragma unroll
        for (int j = 0; j < N; ++j) {  // lower part of M, unit for op N
            if (!notrans && t == j) x = dsc.divide(x);
            const T xj = at.shfl_from(x, at.base_lane + j);
            if (t > j) x = minus_product(x, a[j], xj);
        }
#pragma unroll
        for (int j = N - 1; j >= 0; --j) {  // upper part of M, unit for op T/C
            if (notrans && t == j) x = dsc.divide(x);
            const T xj = at.shfl_from(x, at.base_lane + j);
            if (t < j) x = minus_product(x, a[j], xj);
        }
        if (!notrans && pivoting) {
            at.sync();
            xs[d] = x;
            at.sync();
            x = xs[t];
        }
        if (at.valid) bm[t + r * ldb] = x;
    }
}

template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32, cap_of<T, N>(routine::getrs, family::lane))
getrs_small_registers(smallla_operation_t trans, int nrhs, batch_ref<const T> A, pivots_ref<const int> P,
                      batch_ref<T> B, int batch) {
    constexpr int G = group_shape<N>::per_warp;
    __shared__ T xbuf[Warps][G][N];
    __shared__ int pbuf[Warps][G][N];
    const group_place<N, Warps, group_shape<N>::together, false> at(batch);  // lanes without a matrix leave
    if (!at.runs) return;
    const int t = at.i;
    const bool notrans = trans == SMALLLA_OP_N, conjugate = trans == SMALLLA_OP_C;
    const T *m = at.valid ? A[at.b] : nullptr;
    const long long lda = A.ld;
    T a[N];
    if (!at.valid) {  // a slot without a matrix (group_place::runs): zeros, nothing stored
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = T(real_t<T>(0));
    } else if (notrans) {
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = m[t + j * lda];
    } else {
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = maybe_conj(m[j + t * lda], conjugate);
    }
    getrs_rows<T, N>(
        at, notrans, P.base != nullptr, nrhs, a, [&] { return at.valid ? P[at.b][t] - 1 : t; },
        [&] { return at.valid ? B[at.b] : nullptr; }, B.ld, false, T(real_t<T>(0)), xbuf[at.warp][at.g],
        pbuf[at.warp][at.g]);
}

// ---- getrs's persistent form: the next matrix's factors copied while this one is solved -----------------------
// getrs with one matrix per warp (n >= 17) waits on global memory: ncu on the H100 puts long_scoreboard
// first, 4.8-7.2 stall cycles per issue at n = 17-32, with the shared-memory pipe little used (short_scoreboard
// ~1). Here the grid is the blocks that reside at once; each warp steps through the batch, and each lane copies
// its row (op N) or column (op T/C) of the next matrix's factors, its pivot and its entry of the first
// right-hand side into shared memory by asynchronous copies (cp.async) while it solves the current one. A lane
// reads back only what it copied itself, so the buffer needs no warp synchronization.
template <int N> constexpr bool prefetch_capable() { return group_shape<N>::per_warp == 1; }
// Per warp: N x N factors and N right-hand-side entries (T), then N pivots (int), for every warp of the block.
template <class T, int N, int Warps> constexpr size_t getrs_prefetch_bytes() {
    return (size_t)Warps * ((N * N + N) * sizeof(T) + N * sizeof(int));
}
// One element from global to shared memory, in pieces of its alignment (complex types part by part).
template <class S> __device__ __forceinline__ void copy_async(S *dst, const S *src) {
    constexpr int part = alignof(S) < 16 ? (int)alignof(S) : 16;
    static_assert(part == 4 || part == 8 || part == 16, "cp.async copies 4, 8 or 16 bytes");
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    const char *s = reinterpret_cast<const char *>(src);
#pragma unroll
    for (int q = 0; q < (int)(sizeof(S) / part); ++q)
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d + q * part), "l"(s + q * part), "n"(part)
                     : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }
// v, as a value the compiler cannot see through: what is computed from it stays inside the loop that asks for it.
__device__ __forceinline__ int opaque(int v) {
    asm volatile("" : "+r"(v));
    return v;
}

// Not capped as getrs_small_registers is: the copies ahead, not resident warps, hide the loads here, and at the
// caps ptxas spilled 36-128 bytes (d 17-31).
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
getrs_small_registers_prefetch(smallla_operation_t trans, int nrhs, batch_ref<const T> A, pivots_ref<const int> P,
                               batch_ref<T> B, int batch) {
    static_assert(prefetch_capable<N>(), "one matrix per warp");
    __shared__ T xbuf[Warps][N];
    __shared__ int pbuf[Warps][N];
    extern __shared__ __align__(16) unsigned char prefetch_smem[];
    const int warp = threadIdx.x >> 5;
    T *const next = reinterpret_cast<T *>(prefetch_smem) + warp * (N * N + N);
    int *const next_piv = reinterpret_cast<int *>(reinterpret_cast<T *>(prefetch_smem) + Warps * (N * N + N)) + warp * N;
    const bool notrans = trans == SMALLLA_OP_N, conjugate = trans == SMALLLA_OP_C;
    const bool pivoting = P.base != nullptr;
    const long long step = (long long)gridDim.x * Warps;
    group_place<N, Warps> at(batch, (long long)blockIdx.x * Warps + warp);
    if (!at.valid) return;  // the lanes past n, and the warps past the batch
    const int t = at.i;
    const auto copy = [&](long long b) {
        const T *m = A[b];
        const int lda = opaque(A.ld);
        const long long rs = notrans ? 1 : lda, cs = notrans ? lda : 1;  // entry j of row/column t: t rs + j cs
#pragma unroll
        for (int j = 0; j < N; ++j) copy_async(next + j * N + t, m + t * rs + j * cs);
        if (nrhs > 0) copy_async(next + N * N + t, B[b] + t);
        if (pivoting) copy_async(next_piv + t, P[b] + t);
        commit_copies();
    };
    copy(at.b);
    while (true) {
        wait_copies();
        T a[N];
#pragma unroll
        for (int j = 0; j < N; ++j) a[j] = notrans ? next[j * N + t] : maybe_conj(next[j * N + t], conjugate);
        const T x0 = next[N * N + t];
        const int my_piv = pivoting ? next_piv[t] - 1 : t;
        const long long b_next = at.b + step;
        if (b_next < batch) copy(b_next);
        getrs_rows<T, N>(
            at, notrans, pivoting, nrhs, a, [&] { return my_piv; }, [&] { return B[at.b]; }, opaque(B.ld), true, x0,
            xbuf[warp], pbuf[warp]);
        if (b_next >= batch) break;
        at.b = b_next;
        at.sync();  // the last reads of xbuf and pbuf before the next matrix's first stores
    }
}

// ---- launchers -----------------------------------------------------------------------------------------------
// Warps per block: enough matrices per block to keep blocks few, small enough for many resident blocks.
template <int N> constexpr int warps_per_block() { return N <= 8 ? 2 : 4; }

// Blocks for a batch at `per_block` matrices per block (common/grid.hpp: no overflow at a batch near INT_MAX).
inline unsigned blocks_for_matrices(int batch, long long per_block) { return (unsigned)groups_for(batch, per_block); }
template <int N> inline unsigned blocks_for(int batch, int warps) {
    return blocks_for_matrices(batch, (long long)warps * group_shape<N>::per_warp);
}

// A contiguous batch (strided, ld == n, stride == n*n; the stride is irrelevant for one matrix): the thread
// kernels move it through their warp tile with coalesced accesses.
template <class T> inline bool contiguous(const matrix_batch<T> &m, int n, int batch) {
    return !m.is_pointer_array() && m.ld == n && (batch <= 1 || m.stride == (long long)n * n);
}

// Whether the instance of family f for routine r at (T, N) is compiled: where a routing table takes it.
template <class T, int N> constexpr bool compiled(routine r, family f) {
    return family_exists(r, f, scalar_traits<T>::letter, N) && routed(r, scalar_traits<T>::letter, N, f);
}

// The persistent form's grid: the blocks that reside at once (per_sm on each multiprocessor), at most `wanted`.
// per_sm is asked once per kernel (on the device of the first launch; elsewhere only the grid's size is off).
template <class K> int resident_blocks_per_sm(K kernel, int threads, size_t smem) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem) != cudaSuccess) {
        cudaGetLastError();  // the launch reports what is wrong with the kernel
        per_sm = 0;
    }
    return per_sm > 0 ? per_sm : 1;
}
inline unsigned persistent_grid(int per_sm, unsigned wanted) {
    int device = 0, sms = 1;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        cudaGetLastError();
        sms = 1;
    }
    const long long resident = (long long)per_sm * (sms > 0 ? sms : 1);
    return (unsigned)(wanted < resident ? wanted : resident);
}

template <class T, int N> void launch_getrf_registers(const getrf_args<T> &a, family f, cudaStream_t stream) {
    const bool pivoting = a.ipiv.base != nullptr;
    if constexpr (compiled<T, N>(routine::getrf, family::thread) || compiled<T, N>(routine::getrf_nopiv, family::thread)) {
        if (f == family::thread) {
            constexpr int W = thread_warps_per_block<T, N * N>();
            getrf_thread_per_matrix<T, N, W><<<thread_blocks_for<W>(a.batch), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch, contiguous(a.A, N, a.batch));
            return;
        }
    }
    constexpr int W = warps_per_block<N>();
    if (f == family::two_rows) {
        if constexpr (compiled<T, N>(routine::getrf, family::two_rows)) {
            if (pivoting) {
                getrf_multirow_registers<T, N, W, true>
                    <<<blocks_for<multirow_lanes<N>()>(a.batch, W), W * 32, 0, stream>>>(
                        make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
                return;
            }
        }
        if constexpr (compiled<T, N>(routine::getrf_nopiv, family::two_rows)) {
            if (!pivoting) {
                getrf_multirow_registers<T, N, W, false>
                    <<<blocks_for<multirow_lanes<N>()>(a.batch, W), W * 32, 0, stream>>>(
                        make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
                return;
            }
        }
    }
    if constexpr (compiled<T, N>(routine::getrf, family::lane)) {
        if (pivoting) {
            getrf_small_registers<T, N, W, true><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
            return;
        }
    }
    if constexpr (compiled<T, N>(routine::getrf_nopiv, family::lane)) {
        if (!pivoting) {
            getrf_small_registers<T, N, W, false><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
            return;
        }
    }
}
template <class T, int N> void launch_matinv_registers(const matinv_args<T> &a, family f, cudaStream_t stream) {
    if constexpr (compiled<T, N>(routine::matinv, family::thread)) {
        if (f == family::thread) {
            constexpr int W = thread_warps_per_block<T, N * N>();
            matinv_thread_per_matrix<T, N, W><<<thread_blocks_for<W>(a.batch), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_batch_ref(a.C), a.info, a.batch, contiguous(a.A, N, a.batch),
                contiguous(a.C, N, a.batch));
            return;
        }
    }
    constexpr int W = warps_per_block<N>();
    if constexpr (compiled<T, N>(routine::matinv, family::two_rows)) {
        if (f == family::two_rows) {
            matinv_multirow_registers<T, N, W><<<blocks_for<multirow_lanes<N>()>(a.batch, W), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_batch_ref(a.C), a.info, a.batch);
            return;
        }
    }
    if constexpr (compiled<T, N>(routine::matinv, family::lane_rolled)) {
        if (f == family::lane_rolled) {
            matinv_small_registers<T, N, W, true><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_batch_ref(a.C), a.info, a.batch);
            return;
        }
    }
    if constexpr (compiled<T, N>(routine::matinv, family::lane)) {
        matinv_small_registers<T, N, W, false><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
            make_batch_ref(a.A), make_batch_ref(a.C), a.info, a.batch);
    }
}
template <class T, int N> void launch_getri_registers(const getri_args<T> &a, family f, cudaStream_t stream) {
    if constexpr (compiled<T, N>(routine::getri, family::thread)) {
        if (f == family::thread) {
            constexpr int W = thread_warps_per_block<T, N * N>();
            getri_thread_per_matrix<T, N, W><<<thread_blocks_for<W>(a.batch), W * 32, 0, stream>>>(
                make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.C), a.info, a.batch,
                contiguous(a.A, N, a.batch), contiguous(a.C, N, a.batch));
            return;
        }
    }
    if constexpr (compiled<T, N>(routine::getri, family::lane)) {
        constexpr int W = warps_per_block<N>();
        getri_small_registers<T, N, W><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
            make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.C), a.info, a.batch);
    }
}
template <class T, int N> void launch_getrs_registers(const getrs_args<T> &a, family f, cudaStream_t stream) {
    if constexpr (compiled<T, N>(routine::getrs, family::thread)) {
        if (f == family::thread) {
            constexpr int W = thread_warps_per_block<T, N * N>();
            const bool b_contiguous = !a.B.is_pointer_array() && a.B.ld == N &&
                                      (a.batch <= 1 || a.B.stride == (long long)N * a.nrhs);
            getrs_thread_per_matrix<T, N, W><<<thread_blocks_for<W>(a.batch), W * 32, 0, stream>>>(
                a.trans, a.nrhs, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.B), a.batch,
                contiguous(a.A, N, a.batch), b_contiguous);
            return;
        }
    }
    constexpr int W = warps_per_block<N>();
    if constexpr (compiled<T, N>(routine::getrs, family::prefetch)) {
        if (f == family::prefetch) {
            constexpr size_t smem = getrs_prefetch_bytes<T, N, W>();
            allow_dynamic_shared(getrs_small_registers_prefetch<T, N, W>, smem);
            static const int per_sm = resident_blocks_per_sm(getrs_small_registers_prefetch<T, N, W>, W * 32, smem);
            getrs_small_registers_prefetch<T, N, W><<<persistent_grid(per_sm, blocks_for<N>(a.batch, W)), W * 32, smem,
                                                      stream>>>(a.trans, a.nrhs, make_batch_ref(a.A),
                                                                make_pivots_ref(a.ipiv), make_batch_ref(a.B), a.batch);
            return;
        }
    }
    if constexpr (compiled<T, N>(routine::getrs, family::lane)) {
        getrs_small_registers<T, N, W><<<blocks_for<N>(a.batch, W), W * 32, 0, stream>>>(
            a.trans, a.nrhs, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.B), a.batch);
    }
}

// Explicit instantiation of the four launchers for one (T, N): the table in lu_registers_*.cu uses it.
#define SMALLLA_REGISTER_KERNELS(T, N)                                                             \
    template void launch_getrf_registers<T, N>(const getrf_args<T> &, family, cudaStream_t);       \
    template void launch_matinv_registers<T, N>(const matinv_args<T> &, family, cudaStream_t);     \
    template void launch_getri_registers<T, N>(const getri_args<T> &, family, cudaStream_t);       \
    template void launch_getrs_registers<T, N>(const getrs_args<T> &, family, cudaStream_t);

}  // namespace cuda_kernels
}  // namespace smallla
