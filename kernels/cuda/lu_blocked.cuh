// The blocked LU family for moderate and large orders (the CUDA path for n > 32 from the dispatch's
// blocked_from() up):
// LAPACK's right-looking xGETRF with panels of panel_width<T>() columns,
//   1. getrf_panel: the panel A(j0:n, j0:j0+nb) factored by one thread block per matrix, one row per thread
//      held in registers (two rows per thread beyond 256 rows), the pivot found by a block-wide reduction and
//      rows never moved: each thread tracks its row's position in LAPACK's swapped order (the lazy swap of
//      the register kernels) and writes it once, to its final place;
//   2. getrf_panel_apply: the panel's interchanges applied to the columns left and right of it (xLASWP) and
//      U12 = inv(L11) A12 (xTRSM), one warp per column, L11 in shared memory; for many matrices of order > 128 the
//      swaps left of the panels wait for one pass at the end (getrf_left_interchanges);
//   3. the trailing update A22 -= L21 U12 by cuBLAS's batched GEMM (the one part with O(n^3) work).
// Pivots are LAPACK's: the panel sees exactly the columns getf2 would (up to the rounding of the GEMM
// updates), the first maximum of |Re| + |Im| wins, a NaN at the diagonal position wins and elsewhere never.
// getri (and matinv's second half) forms inv(A) = inv(U) inv(L) P^T: two blocked triangular solves on an
// identity (diagonal blocks by trsm_diagonal_block, the rest by GEMMs), then xGETRI's column interchanges.
// Large orders (the `large` family, n > blocked_max_n): the same right-looking loop, each panel taller than one
// block's registers spread over a thread-block cluster (getrf_panel_cluster, sm_90), the interchanges and U12 over
// many blocks per matrix, and the triangular solves of getri and getrs by cuBLAS's TRSM.
#pragma once

#include <cooperative_groups.h>
#include <cublas_v2.h>

#include "device_common.cuh"

namespace smallla {
namespace cuda_kernels {

// Panel width: 32 columns (a warp's worth, so that the TRSM of a column is one warp's shuffles); 16 for
// double complex, whose 32 columns would take 128 registers per row.
template <class T> constexpr int panel_width() { return sizeof(T) == 16 ? 16 : 32; }
// The routing family `wide`: double complex panels of 32 columns (one row a thread, 128 registers) for a few matrices
// of order <= 256, where the launches of the applies and GEMMs cost more than the wider rows (0 where none exists).
template <class T> constexpr int wide_panel_width() { return sizeof(T) == 16 ? 32 : 0; }
constexpr int panel_threads_max = 256;
constexpr int panel_rows_per_thread_max = 2;
// The largest order the blocked factorization serves: the first panel's rows must fit in one block's
// registers (256 threads x 2 rows). Beyond it the one-block-per-matrix kernel (lu_general.cuh) runs.
constexpr int blocked_max_n = panel_threads_max * panel_rows_per_thread_max;
constexpr int apply_threads = 256;
constexpr size_t finish_tile_bytes = 32 * 1024;  // getri_blocked_finish's row tile

// ---- 1. the panel ----------------------------------------------------------------------------------------------
// 16 bytes of a row, stored with one instruction.
template <class T> struct alignas(16) row_chunk {
    T v[16 / sizeof(T)];
};

// The panel's update by FMAs (minus_product) except for double complex, where it ran slower than the operators' form
// (perf/NOTES.md, "Layouts and kernel families").
template <class T> constexpr bool panel_fused_update() { return !(scalar_traits<T>::is_complex && sizeof(T) == 16); }
// Block: blockDim.x threads (a multiple of 32, at most 256); thread t owns rows t + r * blockDim.x (r < R) of
// the panel, rows counted from j0. ipiv[j0 + k] and info are written as LAPACK's xGETRF would. Pivot: false
// compiles the search and its barrier out, as the register kernels do without pivoting; the pivoting instance
// keeps its run-time test of the pivot array, since compiled straight it ran double complex getrf slower (not
// examined further).
template <class T, int NB, int R, bool Pivot>
__global__ void __launch_bounds__(panel_threads_max)
getrf_panel(int n, int j0, batch_ref<T> A, pivots_ref<int> P, int *info) {
    // With two rows a thread (five to eight warps), one barrier a step: each warp's best candidate leaves its key,
    // position and row in the warp's slot, and after the barrier every thread picks the block's best among the
    // slots. With one row a thread, two barriers: the block's best first, then only its row (fewer stores, which
    // matter when many panels share a multiprocessor). Two sets of slots, alternating by step, so that one step's
    // writes never meet the previous step's reads.
    constexpr bool OneBarrier = R > 1;
    constexpr int W = panel_threads_max / 32, E = 16 / (int)sizeof(T);  // E: entries in 16 bytes
    __shared__ __align__(16) T row_slots[2][W][NB];
    __shared__ unsigned long long red_key_slots[2][W];
    __shared__ int red_pos_slots[2][W];
    const long long b = blockIdx.x;
    const int m = n - j0, nb = min(NB, m), tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warps = blockDim.x >> 5;
    const long long ld = A.ld;
    T *const a0 = A[b] + j0 + (long long)j0 * ld;  // the panel's top-left corner
    int *const piv = Pivot && P.base ? P[b] + j0 : nullptr;
    using R_t = real_t<T>;

    T a[R][NB];
    int pos[R];
    bool valid[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int row = tid + r * blockDim.x;
        valid[r] = row < m;
        pos[r] = row;
#pragma unroll
        for (int j = 0; j < NB; ++j) a[r][j] = (valid[r] && j < nb) ? a0[row + j * ld] : T(R_t(0));
    }

    int local_info = 0;
#pragma unroll
    for (int k = 0; k < NB; ++k) {
        if (k >= nb) break;
        unsigned long long *const red_key = red_key_slots[k & 1];
        int *const red_pos = red_pos_slots[k & 1];
        // The row at `position` into slot `slot`, in 16-byte stores from the chunk holding column k (the entries left
        // of k go along, never read).
        auto leave_row = [&](int position, int slot) {
#pragma unroll
            for (int r = 0; r < R; ++r)
                if (valid[r] && pos[r] == position) {
                    row_chunk<T> *const out = reinterpret_cast<row_chunk<T> *>(row_slots[k & 1][slot]);
#pragma unroll
                    for (int c = k / E; c < NB / E; ++c) {
                        row_chunk<T> chunk;
#pragma unroll
                        for (int e = 0; e < E; ++e) chunk.v[e] = a[r][c * E + e];
                        out[c] = chunk;
                    }
                }
        };
        // The block's best of the warps' candidates: its position (ppos), and the warp that had it (returned). Every
        // slot is loaded at once and reduced as a tree (the order (key, position) is total, so any tree picks the
        // same): at a few matrices the step's latency is the cost, and a loop waited on one load after another.
        auto block_best = [&](int &ppos) {
            unsigned long long key[W];
            int where[W], who[W];
#pragma unroll
            for (int w = 0; w < W; ++w) {
                key[w] = w < warps ? red_key[w] : 0ull;
                where[w] = w < warps ? red_pos[w] : INT_MAX;
                who[w] = w;
            }
#pragma unroll
            for (int step = 1; step < W; step *= 2)
#pragma unroll
                for (int w = 0; w + step < W; w += 2 * step)
                    if (pivot_better(key[w + step], where[w + step], key[w], where[w])) {
                        key[w] = key[w + step];
                        where[w] = where[w + step];
                        who[w] = who[w + step];
                    }
            ppos = where[0];
            return who[0];
        };
        int ppos = k, slot = 0;  // the pivot row's position, and the slot that holds it
        if (Pivot && piv) {
            // LAPACK's choice (common/pivot.hpp) over the warp's rows at positions >= k, then over the warps.
            unsigned long long key = 0ull;
            int where = INT_MAX;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const unsigned long long kr = pivot_key(abs1(a[r][k]), valid[r] && pos[r] >= k, pos[r] == k);
                if (pivot_better(kr, pos[r], key, where)) { key = kr; where = pos[r]; }
            }
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                const unsigned long long ok = __shfl_xor_sync(0xffffffffu, key, off);
                const int ow = __shfl_xor_sync(0xffffffffu, where, off);
                if (pivot_better(ok, ow, key, where)) { key = ok; where = ow; }
            }
            if (lane == 0) { red_key[warp] = key; red_pos[warp] = where; }
            if (OneBarrier) {
                leave_row(where, warp);
            } else {
                __syncthreads();
                block_best(ppos);  // then only the pivot row is left, in slot 0
            }
        }
        if (!(Pivot && piv) || !OneBarrier) leave_row(ppos, 0);
        __syncthreads();
        if (Pivot && piv && OneBarrier) slot = block_best(ppos);
        const T *const prow = row_slots[k & 1][slot];
        // The row at position k takes the pivot's position.
        bool mine[R];
#pragma unroll
        for (int r = 0; r < R; ++r) mine[r] = valid[r] && pos[r] == ppos;
        const pivot_scaler<T> s(prow[k]);
        if (s.zero && local_info == 0) local_info = k + 1;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if (mine[r]) pos[r] = k;
            else if (pos[r] == k) pos[r] = ppos;  // the row the pivot displaced: now below it
            if (valid[r] && pos[r] > k) {  // below the pivot in LAPACK's order: multiplier, rank-1 update
                const T l = s.multiplier(a[r][k]);
                a[r][k] = l;
#pragma unroll
                for (int j = k + 1; j < NB; ++j)
                    a[r][j] = subtract_product<panel_fused_update<T>()>(a[r][j], l, prow[j]);
            }
        }
        if (Pivot && tid == 0 && piv) piv[k] = j0 + ppos + 1;
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (valid[r])
#pragma unroll
            for (int j = 0; j < NB; ++j)
                if (j < nb) a0[pos[r] + j * ld] = a[r][j];
    if (tid == 0) {
        if (j0 == 0) info[b] = local_info;
        else if (local_info != 0 && info[b] == 0) info[b] = j0 + local_info;
    }
}

// ---- 1b. a panel taller than one block's registers: spread over a thread-block cluster (sm_90) ------------------
// The same steps as getrf_panel, the panel's rows dealt to the cluster's blocks (block q, thread t holds rows
// q * blockDim.x + t + r * (blocks * blockDim.x)). Each step has one block barrier and one wait: the block's best
// candidate (key, position and its row right of the step) is pushed into every block's shared memory by stores that
// count their bytes on the receiver's mbarrier, so that once its bytes are in each block reduces the cluster's
// candidates from its own shared memory, the same way everywhere, and reads the pivot row there. Candidates alternate
// between two slots (and mbarriers) by step parity. Without pivoting the candidate is the row at position k.
constexpr int cluster_blocks_max = 16;  // H100's largest cluster (non-portable beyond 8)
// The large orders' outer block: panels of NB columns update only the outer block's columns, then its U12 (cuBLAS's
// TRSM) and one GEMM of depth large_outer_width update the rest, a quarter of the traffic of rank-32 updates.
constexpr int large_outer_width = 128;
constexpr int large_max_n = cluster_blocks_max * blocked_max_n;
// The best (key, position) of the pairs that lanes 0..Lanes-1 hold (Lanes a power of two <= 32; other lanes hold
// key 0, position INT_MAX), with the lane that held it, in every lane of the warp.
template <int Lanes>
__device__ __forceinline__ void best_of_lanes(unsigned long long &key, int &where, int &from) {
#pragma unroll
    for (int off = Lanes / 2; off > 0; off >>= 1) {
        const unsigned long long ok = __shfl_xor_sync(0xffffffffu, key, off);
        const int ow = __shfl_xor_sync(0xffffffffu, where, off);
        const int of = __shfl_xor_sync(0xffffffffu, from, off);
        if (pivot_better(ok, ow, key, where)) { key = ok; where = ow; from = of; }
    }
    if constexpr (Lanes < 32) {
        key = __shfl_sync(0xffffffffu, key, 0);
        where = __shfl_sync(0xffffffffu, where, 0);
        from = __shfl_sync(0xffffffffu, from, 0);
    }
}
// Distributed shared memory signalled by an mbarrier (sm_90): a block stores into another's shared memory with
// st.async, each store counting its bytes on the receiver's mbarrier, so that the receiver waits for exactly the bytes
// it expects instead of a cluster barrier (which also waits for every block's arrival and fences its stores).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// The address of `local` (this block's shared memory) in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ unsigned cluster_address(const void *local, int rank) {
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(r)
                 : "r"((unsigned)__cvta_generic_to_shared(local)), "r"(rank));
    return r;
}
template <class V> __device__ __forceinline__ void store_signalled(unsigned dst, const V &v, unsigned barrier) {
    static_assert(sizeof(V) % 4 == 0 && sizeof(V) <= 16, "st.async stores words of 4 or 8 bytes");
    if constexpr (sizeof(V) == 4) {
        unsigned w;
        memcpy(&w, &v, 4);
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     ::"r"(dst), "r"(w), "r"(barrier)
                     : "memory");
    } else {
#pragma unroll
        for (int i = 0; i < (int)sizeof(V) / 8; ++i) {
            unsigned long long w;
            memcpy(&w, reinterpret_cast<const char *>(&v) + 8 * i, 8);
            asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];"
                         ::"r"(dst + 8 * i), "l"(w), "r"(barrier)
                         : "memory");
        }
    }
}
__device__ __forceinline__ void barrier_init(unsigned long long *b) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(b)) : "memory");
}
// This block's one arrival for the phase, and the bytes the phase waits for.
__device__ __forceinline__ void barrier_expect(unsigned long long *b, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;"
                 ::"r"((unsigned)__cvta_generic_to_shared(b)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void barrier_wait(unsigned long long *b, unsigned parity) {
    asm volatile(
        "{\n\t.reg .pred done;\n"
        "WAIT_%=:\n\t"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n\t"
        "@!done bra WAIT_%=;\n}" ::"r"((unsigned)__cvta_generic_to_shared(b)),
        "r"(parity)
        : "memory");
}
#endif

template <class T, int NB, bool Pivot>
__global__ void __launch_bounds__(panel_threads_max)
getrf_panel_cluster(int n, int j0, batch_ref<T> A, pivots_ref<int> P, int *info) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    constexpr int R = panel_rows_per_thread_max, W = panel_threads_max / 32, Q = cluster_blocks_max;
    __shared__ T warp_row[2][W][NB];  // each warp's best row, this block's
    __shared__ unsigned long long warp_key[2][W];
    __shared__ int warp_pos[2][W];
    __shared__ __align__(16) T block_row[2][Q][NB];  // each block's best row, pushed here by that block
    __shared__ unsigned long long block_key[2][Q];
    __shared__ int block_pos[2][Q];
    __shared__ __align__(8) unsigned long long arrived[2];  // the candidates of a step in, by slot
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = (int)cluster.block_rank(), blocks = (int)cluster.num_blocks();
    const long long b = blockIdx.y;
    const int m = n - j0, nb = min(NB, m), tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warps = blockDim.x >> 5, row_step = blocks * blockDim.x;
    const long long ld = A.ld;
    T *const a0 = A[b] + j0 + (long long)j0 * ld;
    int *const piv = Pivot && P.base ? P[b] + j0 : nullptr;
    const bool search = Pivot && piv;
    using R_t = real_t<T>;

    T a[R][NB];
    int pos[R];
    bool valid[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int row = rank * blockDim.x + tid + r * row_step;
        valid[r] = row < m;
        pos[r] = row;
#pragma unroll
        for (int j = 0; j < NB; ++j) a[r][j] = (valid[r] && j < nb) ? a0[row + j * ld] : T(R_t(0));
    }

    int local_info = 0;
    if (tid == 0) {
        barrier_init(&arrived[0]);
        barrier_init(&arrived[1]);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster.sync();  // every block's barriers are set before any writes into another's shared memory
#pragma unroll
    for (int k = 0; k < NB; ++k) {
        if (k >= nb) break;
        const int slot = k & 1;
        // Every block's key, position and row entries k..NB-1.
        if (tid == 0) barrier_expect(&arrived[slot], (unsigned)(blocks * (12 + (NB - k) * (int)sizeof(T))));
        unsigned long long key = 0ull;
        int where = INT_MAX, from = 0;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const unsigned long long kr = search ? pivot_key(abs1(a[r][k]), valid[r] && pos[r] >= k, pos[r] == k)
                                                 : (valid[r] && pos[r] == k ? 1ull : 0ull);
            if (pivot_better(kr, pos[r], key, where)) { key = kr; where = pos[r]; }
        }
        best_of_lanes<32>(key, where, from);
        if (lane == 0) { warp_key[slot][warp] = key; warp_pos[slot][warp] = where; }
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (valid[r] && pos[r] == where) {
#pragma unroll
                for (int j = 0; j < NB; ++j)
                    if (j >= k) warp_row[slot][warp][j] = a[r][j];
            }
        __syncthreads();
        // The block's best (every warp alike), pushed to every block of the cluster.
        key = lane < warps ? warp_key[slot][lane] : 0ull;
        where = lane < warps ? warp_pos[slot][lane] : INT_MAX;
        from = lane;
        best_of_lanes<W>(key, where, from);
        for (int e = tid; e < blocks * NB; e += blockDim.x) {
            const int q = e / NB, j = e % NB;
            if (j >= k)
                store_signalled(cluster_address(&block_row[slot][rank][j], q), warp_row[slot][from][j],
                                cluster_address(&arrived[slot], q));
        }
        if (tid < blocks) {
            const unsigned there = cluster_address(&arrived[slot], tid);
            store_signalled(cluster_address(&block_key[slot][rank], tid), key, there);
            store_signalled(cluster_address(&block_pos[slot][rank], tid), where, there);
        }
        // A slot is written again two steps on, only by a block that has every block's candidate of the step between,
        // which each block sends after its reads of this step.
        barrier_wait(&arrived[slot], (unsigned)(k >> 1) & 1u);
        // The cluster's best, from this block's copy of every block's candidate.
        key = lane < blocks ? block_key[slot][lane] : 0ull;
        where = lane < blocks ? block_pos[slot][lane] : INT_MAX;
        from = lane;
        best_of_lanes<Q>(key, where, from);
        const int ppos = where;
        const T *const prow = block_row[slot][from];
        const pivot_scaler<T> s(prow[k]);
        if (s.zero && local_info == 0) local_info = k + 1;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const bool mine = valid[r] && pos[r] == ppos;
            if (mine) pos[r] = k;
            else if (pos[r] == k) pos[r] = ppos;
            if (valid[r] && pos[r] > k) {
                const T l = s.multiplier(a[r][k]);
                a[r][k] = l;
#pragma unroll
                for (int j = k + 1; j < NB; ++j)
                    a[r][j] = subtract_product<panel_fused_update<T>()>(a[r][j], l, prow[j]);
            }
        }
        if (search && rank == 0 && tid == 0) piv[k] = j0 + ppos + 1;
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (valid[r])
#pragma unroll
            for (int j = 0; j < NB; ++j)
                if (j < nb) a0[pos[r] + j * ld] = a[r][j];
    if (rank == 0 && tid == 0) {
        if (j0 == 0) info[b] = local_info;
        else if (local_info != 0 && info[b] == 0) info[b] = j0 + local_info;
    }
    cluster.sync();  // no block leaves while another may still write into its shared memory
#else
    __trap();  // routed only on sm_90 (routing/sm90.def)
#endif
}

// ---- 2. interchanges and U12 -------------------------------------------------------------------------------
// A warp per column of A outside the panel, the columns dealt to blocks. The panel's nb interchanges move at most
// 2 nb rows: rows j0..j0+nb-1 and the pivot rows below them; their sources are found once per block by
// replaying the interchanges on a row map in shared memory. Lane l then moves (at most) two entries of the
// column: the one of row j0+l and the one of the pivot row taken at step l, all reads before all writes.
// Right of the panel, row j0+l then takes part in the forward substitution with unit-lower L11.
// Blocks: blockIdx.x the matrix, blockIdx.y one of gridDim.y groups of columns (the host's column_groups); dynamic
// shared memory: m ints (the row map). The substitution stops at column solve_end (n, or the end of the large
// orders' outer block, whose U12 is cuBLAS's TRSM); the interchanges take the columns from left_begin (0, or where
// getrf_left_interchanges does those left of it after the last panel).
template <class T, int NB>
__global__ void __launch_bounds__(apply_threads)
getrf_panel_apply(int n, int j0, batch_ref<T> A, pivots_ref<const int> P, int solve_end, int left_begin) {
    __shared__ T L[NB][NB + 1];
    extern __shared__ int source[];
    const long long b = blockIdx.x;
    const int m = n - j0, nb = min(NB, m), tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int warps = blockDim.x >> 5;
    const long long ld = A.ld;
    T *const top = A[b] + j0;  // row j0 of column 0
    const int *const piv = P.base ? P[b] + j0 : nullptr;
    using R_t = real_t<T>;

    for (int e = tid; e < nb * nb; e += blockDim.x) {
        const int i = e % nb, k = e / nb;
        L[i][k] = top[i + (long long)(j0 + k) * ld];
    }
    bool has_low = false;
    int src0 = lane, dst1 = 0, src1 = 0;
    if (piv) {
        for (int i = tid; i < m; i += blockDim.x) source[i] = i;
        __syncthreads();
        if (tid == 0)
            for (int k = 0; k < nb; ++k) {
                const int p = piv[k] - 1 - j0;
                const int t = source[k];
                source[k] = source[p];
                source[p] = t;
            }
        __syncthreads();
        if (lane < nb) {
            src0 = source[lane];
            dst1 = piv[lane] - 1 - j0;
            has_low = dst1 >= nb;  // a pivot row below the panel's top rows
            src1 = has_low ? source[dst1] : 0;
        }
    } else {
        __syncthreads();
    }

    // Without pivoting only the columns right of the panel change; with it, those left of it from left_begin too.
    const int c_end = piv ? n - nb : solve_end - nb;
    for (int c = (piv ? left_begin : j0) + (int)blockIdx.y * warps + warp; c < c_end; c += (int)gridDim.y * warps) {
        const int col = c < j0 ? c : c + nb;
        T *const x = top + (long long)col * ld;
        T v0 = T(R_t(0)), v1 = T(R_t(0));
        if (lane < nb) v0 = x[src0];
        if (has_low) v1 = x[src1];
        __syncwarp();
        if (col > j0 && col < solve_end) {
#pragma unroll
            for (int k = 0; k < NB - 1; ++k) {
                const T vk = shfl(0xffffffffu, v0, k);
                if (lane > k && lane < nb) v0 -= L[lane][k] * vk;
            }
        }
        // The pivot row's store last, after v0's (v0 often holds that row's old entry): issued while that load was
        // still in flight, it missed L1, and the kernel took 1.4x as long (s; perf/NOTES.md).
        if (lane < nb && (piv || col > j0)) x[lane] = v0;
        if (has_low) x[dst1] = v1;
    }
}

// ---- 2b. the interchanges left of each panel, deferred to the end (orders <= blocked_max_n) --------------------
// Columns left of a panel are never read again by the factorization (nor, left of an outer block, by its TRSM and
// GEMM), so xLASWP's row swaps on them can wait: after the last panel, the columns of each block of `width` columns
// (a panel, or an outer block whose panels swapped its own columns as they went) take the composite of the swaps
// of all later blocks at once, a gather of their rows below the block (read once and written once, where each
// panel's swaps moved scattered rows a pass). The composite map is built from the last block backwards: src[i] (the
// row whose entry ends in row i) takes the next earlier block's swaps by tracing each entry back through them, a
// thread per row.
// Blocks: blockIdx.x the matrix, blockIdx.y one of gridDim.y groups, which takes the column blocks q = blockIdx.y mod
// gridDim.y; a warp per column, its rows in registers (n <= 32 * RowsPerLane); width <= large_outer_width.
// Dynamic shared memory: n ints.
template <class T, int RowsPerLane>
__global__ void __launch_bounds__(apply_threads)
getrf_left_interchanges(int n, int width, batch_ref<T> A, pivots_ref<const int> P) {
    extern __shared__ int src[];
    __shared__ int block_piv[large_outer_width];
    const long long b = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, warps = blockDim.x >> 5;
    const int blocks = (n + width - 1) / width;
    const int *const piv = P[b];
    T *const a = A[b];
    const long long ld = A.ld;
    for (int i = tid; i < n; i += blockDim.x) src[i] = i;
    for (int q = blocks - 2; q >= 0; --q) {
        const int k0 = (q + 1) * width, count = min(width, n - k0);
        for (int k = tid; k < count; k += blockDim.x) block_piv[k] = piv[k0 + k] - 1;
        __syncthreads();  // block_piv written; the previous block's columns done with src
        for (int i = k0 + tid; i < n; i += blockDim.x) {
            int pos = src[i];
            for (int k = count - 1; k >= 0; --k) {
                const int p = block_piv[k];
                pos = pos == k0 + k ? p : pos == p ? k0 + k : pos;
            }
            src[i] = pos;
        }
        __syncthreads();  // src is block q's map
        if (q % (int)gridDim.y != (int)blockIdx.y) continue;
        for (int c = q * width + warp; c < k0; c += warps) {
            T *const x = a + (long long)c * ld;
            T v[RowsPerLane];
            int from[RowsPerLane];
#pragma unroll
            for (int t = 0; t < RowsPerLane; ++t) {
                const int i = k0 + lane + 32 * t;
                from[t] = i < n ? src[i] : i;
                if (from[t] != i) v[t] = x[from[t]];
            }
            __syncwarp();
#pragma unroll
            for (int t = 0; t < RowsPerLane; ++t) {
                const int i = k0 + lane + 32 * t;
                if (from[t] != i) x[i] = v[t];
            }
        }
    }
}

// ---- getri's triangular solves, one diagonal block at a time --------------------------------------------------
// C(j0:j0+nb, c) = inv(T11) C(j0:j0+nb, c) for the columns c in [c_begin, c_end), T11 the diagonal block of
// A at j0: unit lower (L) or upper (U, times 1 / U(k,k) computed once per block). One thread per column, the
// column's nb entries in its registers and T11 in shared memory, read as 16-byte broadcasts: each step's
// updates are independent multiply-adds. The columns move through a shared tile so that global accesses are
// coalesced. The first version (a warp per column, lane l holding row j0+l, a shuffle per step) was a chain of
// nb dependent shuffles per column: ncu, s n = 40, 71% of the blocked getri's time.
// The off-diagonal blocks are cuBLAS GEMMs (blocked.cuh).
template <class T> constexpr int trsm_columns_max() { return sizeof(T) == 4 ? 256 : 128; }  // tile <= 35 KiB
template <class T, int NB, bool Lower>
__global__ void __launch_bounds__(trsm_columns_max<T>())
trsm_diagonal_block(int n, int j0, batch_ref<const T> A, batch_ref<T> C, int c_begin, int c_end) {
    constexpr int TLD = NB + 1;  // odd: a thread's column and its neighbours' fall in different banks
    __shared__ __align__(16) unsigned char d_raw[NB * NB * sizeof(T)];
    __shared__ T dinv[NB];
    extern __shared__ __align__(16) unsigned char tile_raw[];  // blockDim.x columns: trsm_tile_bytes
    T *const tile = reinterpret_cast<T *>(tile_raw);
    T *const D = reinterpret_cast<T *>(d_raw);  // D[i + k NB] = T11(i, k), zero outside nb x nb
    const long long b = blockIdx.x;
    const int nb = min(NB, n - j0), tid = threadIdx.x, chunk = blockDim.x;
    const T *a = A[b] + j0 + (long long)j0 * A.ld;
    using R_t = real_t<T>;
    for (int e = tid; e < NB * NB; e += chunk) {
        const int i = e % NB, k = e / NB;
        const T v = (i < nb && k < nb) ? a[i + (long long)k * A.ld] : T(R_t(0));
        D[e] = v;
        if (!Lower && i == k && k < nb) dinv[k] = T(R_t(1)) / v;
    }
    T *const top = C[b] + j0;
    const long long ldc = C.ld;
    for (int c0 = c_begin; c0 < c_end; c0 += chunk) {
        const int cols = min(chunk, c_end - c0);
        __syncthreads();  // D is complete; the previous chunk's tile has been stored
        for (int e = tid; e < cols * NB; e += chunk) {
            const int r = e % NB, c = e / NB;
            if (r < nb) tile[r + c * TLD] = top[r + (c0 + c) * ldc];
        }
        __syncthreads();
        if (tid < cols) {
            T x[NB];
#pragma unroll
            for (int r = 0; r < NB; ++r) x[r] = r < nb ? tile[r + tid * TLD] : T(R_t(0));
            if constexpr (Lower) solve_unit_lower_in_shared<T, NB, NB>(x, D, nb);
            else solve_upper_in_shared<T, NB, NB>(x, D, dinv, nb);
#pragma unroll
            for (int r = 0; r < NB; ++r)
                if (r < nb) tile[r + tid * TLD] = x[r];
        }
        __syncthreads();
        for (int e = tid; e < cols * NB; e += chunk) {
            const int r = e % NB, c = e / NB;
            if (r < nb) top[r + (c0 + c) * ldc] = tile[r + c * TLD];
        }
    }
}
// Threads for a trsm_diagonal_block launch over `cols` columns: one per column, whole warps, at most
// trsm_columns_max<T>() (more columns are done in chunks); and its dynamic shared memory, the column tile
// (sized by the launch, so that narrow launches keep many blocks per multiprocessor).
template <class T> inline int trsm_threads(int cols) {
    const int t = (cols + 31) / 32 * 32;
    return t < trsm_columns_max<T>() ? t : trsm_columns_max<T>();
}
template <class T, int NB> inline size_t trsm_tile_bytes(int threads) { return (size_t)threads * (NB + 1) * sizeof(T); }

// ---- 3. the trailing updates: cuBLAS's GEMM, typed ------------------------------------------------------
template <class T> struct blas_types;
template <> struct blas_types<float> {
    using B = float;
    static B one() { return 1.0f; }
    static B minus_one() { return -1.0f; }
    static B zero() { return 0.0f; }
};
template <> struct blas_types<double> {
    using B = double;
    static B one() { return 1.0; }
    static B minus_one() { return -1.0; }
    static B zero() { return 0.0; }
};
template <> struct blas_types<complex<float>> {
    using B = cuComplex;
    static B one() { return make_cuComplex(1.0f, 0.0f); }
    static B minus_one() { return make_cuComplex(-1.0f, 0.0f); }
    static B zero() { return make_cuComplex(0.0f, 0.0f); }
};
template <> struct blas_types<complex<double>> {
    using B = cuDoubleComplex;
    static B one() { return make_cuDoubleComplex(1.0, 0.0); }
    static B minus_one() { return make_cuDoubleComplex(-1.0, 0.0); }
    static B zero() { return make_cuDoubleComplex(0.0, 0.0); }
};

#define SMALLLA_BLAS_OVERLOADS(B, X)                                                                               \
    inline cublasStatus_t blas_gemm_strided(cublasHandle_t h, int m, int n, int k, const B *alpha, const B *a,     \
                                            int lda, long long sa, const B *b, int ldb, long long sb,             \
                                            const B *beta, B *c, int ldc, long long sc, int batch) {              \
        return cublas##X##gemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, a, lda, sa, b, ldb, sb, \
                                             beta, c, ldc, sc, batch);                                           \
    }                                                                                                             \
    inline cublasStatus_t blas_gemm_pointers(cublasHandle_t h, int m, int n, int k, const B *alpha,              \
                                             const B *const *a, int lda, const B *const *b, int ldb,             \
                                             const B *beta, B *const *c, int ldc, int batch) {                   \
        return cublas##X##gemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,  \
                                      batch);                                                                     \
    }                                                                                                             \
    inline cublasStatus_t blas_gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,  \
                                            int n, int k, const B *alpha, const B *a, int lda, long long sa,      \
                                            const B *b, int ldb, long long sb, const B *beta, B *c, int ldc,      \
                                            long long sc, int batch) {                                            \
        return cublas##X##gemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, \
                                             batch);                                                             \
    }                                                                                                             \
    inline cublasStatus_t blas_gemm_pointers(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                                             int n, int k, const B *alpha, const B *const *a, int lda,            \
                                             const B *const *b, int ldb, const B *beta, B *const *c, int ldc,     \
                                             int batch) {                                                         \
        return cublas##X##gemmBatched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch);             \
    }
#define SMALLLA_TRSM_OVERLOADS(B, X)                                                                                \
    inline cublasStatus_t blas_trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op,               \
                                    cublasDiagType_t diag, int m, int n, const B *alpha, const B *a, int lda, B *b, \
                                    int ldb) {                                                                    \
        return cublas##X##trsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, a, lda, b, ldb);                  \
    }                                                                                                             \
    inline cublasStatus_t blas_trsm_pointers(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op,      \
                                             cublasDiagType_t diag, int m, int n, const B *alpha,                 \
                                             const B *const *a, int lda, B *const *b, int ldb, int batch) {       \
        return cublas##X##trsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, a, lda, b, ldb, batch);    \
    }
SMALLLA_TRSM_OVERLOADS(float, S)
SMALLLA_TRSM_OVERLOADS(double, D)
SMALLLA_TRSM_OVERLOADS(cuComplex, C)
SMALLLA_TRSM_OVERLOADS(cuDoubleComplex, Z)
#undef SMALLLA_TRSM_OVERLOADS
SMALLLA_BLAS_OVERLOADS(float, S)
SMALLLA_BLAS_OVERLOADS(double, D)
SMALLLA_BLAS_OVERLOADS(cuComplex, C)
SMALLLA_BLAS_OVERLOADS(cuDoubleComplex, Z)
#undef SMALLLA_BLAS_OVERLOADS

// Pointer arrays for cuBLAS's pointer-array calls: out[b] = the address of entry (row, col) of matrix b.
template <class T>
__global__ void element_pointers(batch_ref<T> A, long long row, long long col, int batch, T **out) {
    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch) out[b] = A[b] + row + col * A.ld;
}

// ---- getri's first and last steps ----------------------------------------------------------------------------
// info = the first exactly zero diagonal entry of U (1-based; 0 if none) and C = I. Blocks: blockIdx.x the
// matrix, blockIdx.y one of gridDim.y groups of columns of C (block y = 0 also sets info).
template <class T>
__global__ void __launch_bounds__(apply_threads)
getri_blocked_prepare(int n, batch_ref<const T> A, batch_ref<T> C, int *info) {
    __shared__ int first_zero;
    const long long b = blockIdx.x;
    const T *a = A[b];
    T *c = C[b];
    using R_t = real_t<T>;
    const int warps = blockDim.x / 32;
    for (int j = (int)blockIdx.y * warps + threadIdx.x / 32; j < n; j += (int)gridDim.y * warps)
        for (int i = threadIdx.x % 32; i < n; i += 32) c[i + (long long)j * C.ld] = T(R_t(i == j ? 1 : 0));
    if (blockIdx.y != 0) return;
    if (threadIdx.x == 0) first_zero = INT_MAX;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (is_zero(a[i + (long long)i * A.ld])) atomicMin(&first_zero, i + 1);
    __syncthreads();
    if (threadIdx.x == 0) info[b] = first_zero == INT_MAX ? 0 : first_zero;
}

// After the TRSMs: a singular matrix gets the factors in C (what the host backend leaves there); otherwise
// xGETRI's column interchanges. Their product is one permutation, C(:, j) := C(:, source[j]), built once in
// shared memory by replaying the interchanges in reverse on an index map; it is then applied to tiles of
// finish_rows(n) rows staged in shared memory (read coalesced along the rows of a column, written back
// permuted); blockIdx.y takes every gridDim.y-th tile. The first version swapped column pairs in place, one thread per row, n dependent global
// read/write pairs per row with only n of the block's threads busy (ncu, d n = 64: 1.8 ms per 0.5 GiB,
// 30% of the blocked getri).
template <class T> inline int finish_rows(int n) {
    const int r = (int)(finish_tile_bytes / ((size_t)n * sizeof(T)));
    return r < 1 ? 1 : (r > n ? n : r);
}
template <class T> inline size_t finish_shared_bytes(int n) {
    return (size_t)finish_rows<T>(n) * n * sizeof(T) + (size_t)n * sizeof(int);
}
template <class T>
__global__ void __launch_bounds__(apply_threads)
getri_blocked_finish(int n, int rows, batch_ref<const T> A, pivots_ref<const int> P, batch_ref<T> C, const int *info) {
    extern __shared__ __align__(16) unsigned char finish_shared[];
    T *tile = reinterpret_cast<T *>(finish_shared);  // rows x n, row-major by column: tile[i + j * rows]
    int *source = reinterpret_cast<int *>(tile + (size_t)rows * n);
    const long long b = blockIdx.x;
    const T *a = A[b];
    T *c = C[b];
    const long long ldc = C.ld;
    const int warps = blockDim.x / 32;
    if (info[b] != 0) {
        for (int j = (int)blockIdx.y * warps + threadIdx.x / 32; j < n; j += (int)gridDim.y * warps)
            for (int i = threadIdx.x % 32; i < n; i += 32) c[i + j * ldc] = a[i + (long long)j * A.ld];
        return;
    }
    if (!P.base) return;
    if (threadIdx.x == 0) {
        const int *piv = P[b];
        for (int j = 0; j < n; ++j) source[j] = j;
        for (int j = n - 2; j >= 0; --j) {  // xGETRI: swap columns j and piv(j), j from n-1 down to 1
            const int p = piv[j] - 1;
            if (p != j && p >= 0 && p < n) {
                const int t = source[j];
                source[j] = source[p];
                source[p] = t;
            }
        }
    }
    __syncthreads();
    for (int r0 = (int)blockIdx.y * rows; r0 < n; r0 += (int)gridDim.y * rows) {
        const int nr = min(rows, n - r0);
        for (int e = threadIdx.x; e < nr * n; e += blockDim.x) {
            const int i = e % nr, j = e / nr;
            tile[i + j * rows] = c[r0 + i + j * ldc];
        }
        __syncthreads();
        for (int e = threadIdx.x; e < nr * n; e += blockDim.x) {
            const int i = e % nr, j = e / nr;
            c[r0 + i + j * ldc] = tile[i + source[j] * rows];
        }
        __syncthreads();
    }
}

// ---- getrs of large orders: B's rows in LAPACK's interchange order -------------------------------------------
// xLASWP on B: forward (i = 0 .. n-1: rows i and ipiv(i) swapped) before the solves of trans = N, backward after
// those of trans = T or C. The interchanges are a chain, so one thread replays them once per block on a row map in
// shared memory; each column of B is then gathered through a shared copy. Blocks: blockIdx.x the matrix,
// blockIdx.y one of gridDim.y groups of columns; dynamic shared memory: permute_rows_bytes.
template <class T> inline size_t permute_rows_bytes(int n) { return (size_t)n * (sizeof(T) + 2 * sizeof(int)); }
template <class T>
__global__ void __launch_bounds__(apply_threads)
permute_rows(int n, int nrhs, pivots_ref<const int> P, batch_ref<T> B, bool forward) {
    extern __shared__ __align__(16) unsigned char permute_shared[];
    T *const col = reinterpret_cast<T *>(permute_shared);
    int *const source = reinterpret_cast<int *>(col + n);
    int *const piv = source + n;
    const long long b = blockIdx.x;
    const int *const p = P[b];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        source[i] = i;
        piv[i] = p[i] - 1;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int s = 0; s < n; ++s) {
            const int i = forward ? s : n - 1 - s, q = piv[i];
            if (q != i && q >= 0 && q < n) {
                const int t = source[i];
                source[i] = source[q];
                source[q] = t;
            }
        }
    }
    __syncthreads();
    T *const x0 = B[b];
    for (int c = blockIdx.y; c < nrhs; c += gridDim.y) {
        T *const x = x0 + (long long)c * B.ld;
        for (int i = threadIdx.x; i < n; i += blockDim.x) col[i] = x[i];
        __syncthreads();
        for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = col[source[i]];
        __syncthreads();
    }
}

// matinv's copy of A into C, matrix by matrix: C is the packed workspace, or the output where getri by
// columns finishes in place (skipped where C is A). Blocks: blockIdx.x the matrix, blockIdx.y a group of columns.
template <class T>
__global__ void __launch_bounds__(apply_threads)
copy_unless_same(int n, batch_ref<const T> A, batch_ref<T> C) {
    const long long b = blockIdx.x;
    const T *a = A[b];
    T *c = C[b];
    if (static_cast<const void *>(a) == static_cast<const void *>(c) && A.ld == C.ld) return;
    const int warps = blockDim.x / 32;
    for (int j = (int)blockIdx.y * warps + threadIdx.x / 32; j < n; j += (int)gridDim.y * warps)
        for (int i = threadIdx.x % 32; i < n; i += 32) c[i + (long long)j * C.ld] = a[i + (long long)j * A.ld];
}

}  // namespace cuda_kernels
}  // namespace smallla
