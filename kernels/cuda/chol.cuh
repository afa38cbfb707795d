// The Cholesky family's CUDA kernels (potrf, posv, potrs, potri, poinv), on the "lower form" of each matrix as on
// the host (kernels/host/chol_host.hpp): its lower triangle is A's lower one, or the conjugate transpose of A's
// upper one, so one text serves both triangles and the other triangle is never read or written.
//  - Thread kernels, the smallest orders (chol_thread.cuh): a whole matrix per thread.
//  - Lane kernels, n <= 32: a group of W = 4, 8, 16 or 32 lanes per matrix (several matrices per warp below 17),
//    lane i holding row i in registers, the steps unrolled to n rounded up to a multiple of 4. There is no pivot
//    search: each step, every lane puts its entry of the column into shared memory, and every lane reads the
//    pivot and the column back in 16-byte chunks. potrf: right-looking; posv and potrs then solve with the
//    factor's rows (forward) and a transposed copy of it in shared memory (backward); poinv: the sweep operator
//    on the whole matrix; potri: the rows of inv(L) in place of L's, then inv(L)^H inv(L) by shuffles.
//  - The seed paper's fused left-looking kernel (loop-exclusive: a launch per panel of 8 columns) for potrf and
//    posv's factorization at 33 <= n <= 1024.
//  - The blocked left-looking factorization for larger orders: per block of 32 columns, cuBLAS's GEMM for the
//    update from the columns to the left, then a step kernel that factors the diagonal block and solves the rows
//    below it.
//  - One thread block per matrix, the factorization alone to n = 128: the lower form in registers, right-looking a
//    column a step, one barrier each (chol_registers_kernel).
//  - One thread block per matrix, any order: the lower form in shared memory when it fits, else in global
//    scratch; the factorization right-looking by panels of 16 columns (block_factor), the inverse of L column by
//    column into the unused upper part and then the product into the lower part.
// info is LAPACK's: the first pivot that is not > 0 (NaN included) stops the factorization (the lane kernels go
// on computing the later columns, which LAPACK leaves unspecified); potri reports the first zero diagonal element
// of the factor and then writes nothing.
#pragma once

#include "chol_thread.cuh"
#include "cuda/chol.hpp"

namespace smallla {
namespace cuda_kernels {

// Shuffles within a group of W lanes (src and the xor offset relative to the group).
template <int W, class R> __device__ __forceinline__ R group_shfl(unsigned mask, R v, int src) {
    return __shfl_sync(mask, v, src, W);
}
template <int W, class R> __device__ __forceinline__ complex<R> group_shfl(unsigned mask, complex<R> v, int src) {
    return {__shfl_sync(mask, v.re, src, W), __shfl_sync(mask, v.im, src, W)};
}
template <int W, class R> __device__ __forceinline__ R group_xor(unsigned mask, R v, int offset) {
    return __shfl_xor_sync(mask, v, offset, W);
}
template <int W, class R> __device__ __forceinline__ complex<R> group_xor(unsigned mask, complex<R> v, int offset) {
    return {__shfl_xor_sync(mask, v.re, offset, W), __shfl_xor_sync(mask, v.im, offset, W)};
}

constexpr int chol_lanes_threads = 128;

// The 16 / sizeof(T) entries at p (16-byte aligned) in one shared-memory load.
// Element by element (through memcpy the chunk kept a copy in local memory), but for complex float, where element
// by element ptxas kept every chunk of a step live (registers past 255, spills).
template <class T> __device__ __forceinline__ void load_chunk(const T *p, T (&v)[16 / sizeof(T)]) {
    if constexpr (sizeof(real_t<T>) == 4) {
        const float4 q = *reinterpret_cast<const float4 *>(p);
        if constexpr (scalar_traits<T>::is_complex) memcpy(v, &q, 16);
        else v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
        const double2 q = *reinterpret_cast<const double2 *>(p);
        if constexpr (scalar_traits<T>::is_complex) v[0] = T{q.x, q.y};
        else v[0] = q.x, v[1] = q.y;
    }
}

// ---- lane kernels -------------------------------------------------------------------------------------------------
// Step k's broadcast (factorization and sweep): every lane of the group puts its entry of column k into the
// group's buffer of that step (two by turns, so one barrier a step), and reads back the 16-byte chunk holding the
// pivot, left in v; returns the pivot d = real part of entry k, and sets info at the first that is not > 0 (NaN
// included: LAPACK's test).
template <class T, int W, int V>
__device__ __forceinline__ real_t<T> broadcast_column(T (&columns)[2][chol_lanes_threads], int k, T mine,
                                                      unsigned mask, T (&v)[V], int &info) {
    T *column = columns[k & 1] + threadIdx.x / W * W;  // the group's W entries
    column[threadIdx.x % W] = mine;
    __syncwarp(mask);
    load_chunk(column + k / V * V, v);
    const real_t<T> d = real_of(v[k % V]);
    if (!(d > real_t<T>(0)) && info == 0) info = k + 1;
    return d;
}
template <chol_op Op> constexpr routine chol_routine_of() {
    return Op == chol_op::factor ? routine::potrf
           : Op == chol_op::solve   ? routine::potrs
           : Op == chol_op::inverse ? routine::potri
                                    : routine::poinv;
}

// W lanes a matrix; NP, the order the steps are unrolled to: n rounded up to a multiple of 4 (rows n..NP-1 of the
// identity pad the matrix, so that no step tests n). The register cap: the routing table's for order NP.
template <class T, int W, int NP, chol_op Op>
__global__ void __launch_bounds__(chol_lanes_threads,
                                  min_blocks_of(chol_routine_of<Op>(), family::lane, scalar_traits<T>::letter, NP))
chol_lanes_kernel(chol_launch<T> a) {
    using R = real_t<T>;
    const long long g = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / W;
    if (g >= a.batch) return;  // whole groups leave together
    const int lane = threadIdx.x % W, n = a.n;
    const int first_lane = (threadIdx.x % 32) / W * W;
    const unsigned mask = W == 32 ? 0xffffffffu : (((1u << W) - 1u) << first_lane);
    const bool row = lane < n;

    constexpr int V = 16 / (int)sizeof(T);  // entries per 16-byte chunk
    // Row `lane` of the lower form (the diagonal real); lanes beyond n hold a row of the identity.
    T r[NP];
    {
        const T *m = a.A[g];
        const long long ld = a.A.ld;
#pragma unroll
        for (int j = 0; j < NP; ++j) {
            T v = T(R(j == lane ? 1 : 0));
            if (row && j <= lane) v = lower_form_at(m, ld, a.upper, lane, j);
            r[j] = j == lane ? real_only(v) : v;
        }
    }
    int info = 0;

    if constexpr (Op == chol_op::full_inverse) {
        // poinv: inv(A) from the whole Hermitian matrix by the sweep operator, a row per lane (the other triangle
        // read as the conjugate of the stored one). Sweeping pivot k (d = S(k,k)) takes S(i,j) to
        // S(i,j) - S(i,k) S(k,j) / d for i, j != k, S(i,k) and S(k,j) to S(i,k) / d and S(k,j) / d, and S(k,k) to
        // -1 / d. S stays Hermitian, so row k is the conjugate of column k, which is broadcast as in the
        // factorization below; after every pivot S = -inv(A). The pivots are the factorization's, so is info.
        {
            const T *m = a.A[g];
            const long long ld = a.A.ld;
#pragma unroll
            for (int j = 0; j < NP; ++j)
                if (row && j > lane && j < n) r[j] = conj(lower_form_at(m, ld, a.upper, j, lane));
        }
        __shared__ __align__(16) T columns[2][chol_lanes_threads];
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            const T *column = columns[k & 1] + threadIdx.x / W * W;
            T v[V];
            const R dinv = R(1) / broadcast_column<T, W>(columns, k, r[k], mask, v, info);
            // Row k becomes conj(column k) / d: its old entries are kept times 0 (one code for every lane).
            const bool pivot_row = lane == k;
            const T f = pivot_row ? T(-dinv) : times_real(r[k], dinv);
            const R keep = pivot_row ? R(0) : R(1);
#pragma unroll
            for (int c = 0; c < NP / V; ++c) {
                load_chunk(column + c * V, v);
#pragma unroll
                for (int e = 0; e < V; ++e)
                    if (c * V + e != k) r[c * V + e] = times_real(r[c * V + e], keep) - f * conj(v[e]);
            }
            r[k] = f;
        }
        if (lane == 0) a.info[g] = info;
        if (info != 0) return;
        __syncwarp(mask);  // in place: every lane's loads are done before any store
        if (!row) return;
        T *c = a.B[g];
        const long long ldc = a.B.ld;
#pragma unroll
        for (int j = 0; j < NP; ++j)
            if (j <= lane) {  // the lower triangle, mirrored: C exactly Hermitian
                const T v = j == lane ? real_only(-r[j]) : -r[j];
                c[lane + j * ldc] = v;
                if (j < lane) c[j + lane * ldc] = conj(v);
            }
        return;
    }

    if constexpr (Op == chol_op::factor) {
        // Right-looking steps. Step k: every lane puts its entry of column k, not yet scaled, into shared memory
        // (one store each, two buffers by turns: one barrier a step); each lane reads the pivot d and the column
        // back in 16-byte chunks and updates its row with the multiplier A(i,k) / d = L(i,k) / sqrt(d), so the
        // scaled column is never broadcast. Entries right of a lane's diagonal take updates too, and are never
        // read or stored. A failed pivot (<= 0 or NaN: LAPACK's test) sets info; the later columns are then
        // unspecified, the earlier ones untouched.
        __shared__ __align__(16) T columns[2][chol_lanes_threads];
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            const T *column = columns[k & 1] + threadIdx.x / W * W;
            T v[V];
            const R d = broadcast_column<T, W>(columns, k, r[k], mask, v, info);
            const R rl = rsqrt(d);
            const R l = d < R(INFINITY) ? d * rl : d;  // sqrt(d); +inf as LAPACK's sqrt gives it
            const T lik = times_real(r[k], rl);
            const T m = times_real(lik, rl);
            r[k] = lane == k ? T(l) : lik;
#pragma unroll
            for (int c = k / V; c < NP / V; ++c) {
                if (c > k / V) load_chunk(column + c * V, v);
#pragma unroll
                for (int e = 0; e < V; ++e)
                    if (c * V + e > k) r[c * V + e] -= m * conj(v[e]);
            }
        }
    }

    if constexpr (Op == chol_op::factor) {
        if (lane == 0) a.info[g] = info;
        T *m = a.A[g];
        const long long ld = a.A.ld;
        if (row)
#pragma unroll
            for (int j = 0; j < NP; ++j)
                if (j <= lane) {
                    if (a.upper) m[j + lane * ld] = conj(r[j]);
                    else m[lane + j * ld] = r[j];
                }
        if (info != 0) return;
    }

    if constexpr (Op == chol_op::factor || Op == chol_op::solve) {
        // inv(L L^H) x for each right-hand side, x in lane i's register: L y = x by columns (lane i's row of L
        // times the broadcast y_k), then L^H x = y by columns of L^H, i.e. rows of L: lane j reads L(k, j) from
        // a transposed copy of the factor in shared memory (double complex, which it would not fit: by reductions
        // over the lanes). The diagonal's reciprocals are multiplied, not divided by.
        R dinv = R(1);
#pragma unroll
        for (int k = 0; k < NP; ++k)
            if (lane == k) dinv = R(1) / real_of(r[k]);
        constexpr bool transposed = sizeof(T) <= 8;
        __shared__ T lt_all[transposed ? chol_lanes_threads / W : 1][transposed ? NP : 1][W + 1];
        auto &lt = lt_all[transposed ? threadIdx.x / W : 0];  // lt[j][i] = L(i, j)
        if constexpr (transposed) {
#pragma unroll
            for (int j = 0; j < NP; ++j) lt[j][lane] = r[j];
            __syncwarp(mask);
        }
        T *bm = a.B[g];
        const long long ldb = a.B.ld;
        for (int c = 0; c < a.nrhs; ++c) {
            T *col = bm + c * ldb;
            T x = row ? col[lane] : T(R(0));  // rows beyond n: zero, and the padding's L(i, k) = 0
#pragma unroll
            for (int k = 0; k < NP; ++k) {
                if (lane == k) x = times_real(x, dinv);
                const T xk = group_shfl<W>(mask, x, k);
                if (lane > k) x -= r[k] * xk;
            }
#pragma unroll
            for (int k = NP - 1; k >= 0; --k) {
                if constexpr (transposed) {
                    if (lane == k) x = times_real(x, dinv);
                    const T xk = group_shfl<W>(mask, x, k);
                    if (lane < k) x -= conj(lt[lane][k]) * xk;
                } else {
                    T s = lane > k ? conj(r[k]) * x : T(R(0));
#pragma unroll
                    for (int offset = W / 2; offset > 0; offset /= 2) s += group_xor<W>(mask, s, offset);
                    if (lane == k) x = times_real(x - s, dinv);
                }
            }
            if (row) col[lane] = x;
        }
        return;
    }

    if constexpr (Op == chol_op::inverse) {
        {  // xTRTRI's test, before anything is written
#pragma unroll
            for (int k = 0; k < NP; ++k) {
                if (k >= n) break;
                if (real_of(group_shfl<W>(mask, r[k], k)) == R(0)) {
                    info = k + 1;
                    break;
                }
            }
        }
        if (lane == 0) a.info[g] = info;
        if (info != 0) return;
        // Rows of X = inv(L) in place: lane i > m keeps sum_p L(i,p) X(p,j) in r[j] (j <= m) until its own step.
#pragma unroll
        for (int m = 0; m < NP; ++m) {
            if (m >= n) break;
            if (lane == m) {
                const R dinv = R(1) / real_of(r[m]);
#pragma unroll
                for (int j = 0; j < NP; ++j)
                    if (j < m) r[j] = times_real(-r[j], dinv);
                r[m] = T(dinv);
            }
            const T lim = r[m];
#pragma unroll
            for (int j = 0; j < NP; ++j) {
                if (j > m) break;
                const T xmj = group_shfl<W>(mask, r[j], m);
                if (lane > m) r[j] = j == m ? lim * xmj : r[j] + lim * xmj;
            }
        }
        // Row i of inv(A) = X^H X, j <= i: sum over k >= i of conj(X(k,i)) X(k,j); row k of X is broadcast from
        // the last column down, so that X(k,i) is known before the columns j < i that need it.
#pragma unroll
        for (int k = 0; k < NP; ++k) {
            if (k >= n) break;
            T xki = T(R(0));
#pragma unroll
            for (int j = NP - 1; j >= 0; --j) {
                if (j > k) continue;
                const T v = group_shfl<W>(mask, r[j], k);
                if (j == lane) xki = v;
                if (j <= lane && lane <= k) r[j] = lane == k ? conj(xki) * v : r[j] + conj(xki) * v;
            }
        }
        if (!row) return;
        T *m = a.A[g];
        const long long ld = a.A.ld;
#pragma unroll
        for (int j = 0; j < NP; ++j)
            if (j <= lane) {
                const T v = j == lane ? real_only(r[j]) : r[j];
                if (a.upper) m[j + lane * ld] = conj(v);
                else m[lane + j * ld] = v;
            }
    }
}

// The padded order NP of order n (chol_lanes_kernel) and the lanes a matrix.
constexpr int chol_lanes_padded(int n) { return (n + 3) / 4 * 4; }
constexpr int chol_lanes_width(int np) { return np <= 4 ? 4 : np <= 8 ? 8 : np <= 16 ? 16 : 32; }

// Whether some routing table sends an order of padded order NP of routine r to the lane kernels in T (only those
// instances are compiled).
template <class T, int NP> constexpr bool chol_lanes_compiled(routine r) {
    for (int n = NP - 3; n <= NP; ++n)
        if (n >= 1 && family_exists(r, family::lane, scalar_traits<T>::letter, n) &&
            routed(r, scalar_traits<T>::letter, n, family::lane))
            return true;
    return false;
}

template <class T, int NP, chol_op Op> bool launch_chol_lanes_op(const chol_launch<T> &a, cudaStream_t stream) {
    constexpr bool compiled = Op == chol_op::factor ? chol_lanes_compiled<T, NP>(routine::potrf) ||
                                                          chol_lanes_compiled<T, NP>(routine::posv)
                              : Op == chol_op::solve   ? chol_lanes_compiled<T, NP>(routine::potrs)
                              : Op == chol_op::inverse ? chol_lanes_compiled<T, NP>(routine::potri)
                                                       : chol_lanes_compiled<T, NP>(routine::poinv);
    if constexpr (!compiled) {
        return false;
    } else {
        constexpr int W = chol_lanes_width(NP), per_block = chol_lanes_threads / W;
        const unsigned blocks = (unsigned)((a.batch + per_block - 1) / per_block);
        chol_lanes_kernel<T, W, NP, Op><<<blocks, chol_lanes_threads, 0, stream>>>(a);
        return true;
    }
}

template <class T, int NP> bool launch_chol_lanes_order(const chol_launch<T> &a, cudaStream_t stream) {
    switch (a.op) {
    case chol_op::factor: return launch_chol_lanes_op<T, NP, chol_op::factor>(a, stream);
    case chol_op::solve: return launch_chol_lanes_op<T, NP, chol_op::solve>(a, stream);
    case chol_op::inverse: return launch_chol_lanes_op<T, NP, chol_op::inverse>(a, stream);
    case chol_op::full_inverse: return launch_chol_lanes_op<T, NP, chol_op::full_inverse>(a, stream);
    }
    return false;
}

template <class T, int NP = 4> bool launch_chol_lanes_from(const chol_launch<T> &a, cudaStream_t stream) {
    if constexpr (NP <= chol_lanes_max_order) {
        if (chol_lanes_padded(a.n) == NP) return launch_chol_lanes_order<T, NP>(a, stream);
        return launch_chol_lanes_from<T, NP + 4>(a, stream);
    } else {
        return false;
    }
}

template <class T> cudaError_t launch_chol_lanes(const chol_launch<T> &a, cudaStream_t stream) {
    // No instance for this order and op (the table routes none there): the dispatch's "no kernel".
    if (!launch_chol_lanes_from<T>(a, stream)) return cudaErrorInvalidValue;
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- one block per matrix -----------------------------------------------------------------------------------------
constexpr int chol_block_threads = 256;  // block_factor's update: 16 x 16 threads, a 4 x 4 tile each
constexpr int chol_block_nb = 16;        // block_factor's panel width

// The dynamic shared memory of a block: block_factor's two column buffers (64 entries), 1 / the diagonal or the
// inverse's diagonal (n), and the lower form (n * n) when in shared memory.
template <class T> std::size_t chol_block_bytes(int n, bool in_shared) {
    return ((std::size_t)64 + n + (in_shared ? (std::size_t)n * n : 0)) * sizeof(T);
}

// The right-looking blocked factorization of the lower form L (leading dimension n) by a block of
// chol_block_threads, panels of NB columns: one warp factors the diagonal block as the lane kernels do (lane i
// holding row i; each step the unscaled column through shared memory, the multiplier A(i,k) / d), a thread per row
// below solves that row's NB entries against it, then the whole block updates the trailing lower triangle in
// 64 x 64 blocks, each thread a tile of rows 16 apart and 4 adjacent columns (conflict-free loads). Three barriers
// a panel. rdiag: n entries of scratch (1 / the diagonal); columns: 64. Returns LAPACK's info, the same in every
// thread; after a failure at column j the columns before j's panel and the diagonal block's columns before j are
// final, the rest partly updated.
template <class T, int NB> __device__ int block_factor(T *L, int n, T *rdiag, T (*columns)[32], int &failed) {
    using R = real_t<T>;
    const int tid = threadIdx.x, lane = tid & 31, tx = tid & 15, ty = tid >> 4;
    for (int k0 = 0; k0 < n; k0 += NB) {
        const int w = min(NB, n - k0);
        if (tid < 32) {  // the diagonal block
            T d[NB];
            const int i = k0 + lane;
#pragma unroll
            for (int p = 0; p < NB; ++p) d[p] = lane < w && p <= lane ? L[i + (k0 + p) * n] : T(R(0));
            int fail = 0;
#pragma unroll
            for (int j = 0; j < NB; ++j) {
                if (j >= w || fail != 0) continue;  // the same in every lane
                columns[j & 1][lane] = d[j];
                __syncwarp();
                const R piv = real_of(columns[j & 1][j]);
                if (!(piv > R(0))) {  // also NaN
                    fail = k0 + j + 1;
                    continue;
                }
                const R rl = rsqrt(piv);
                const T lij = times_real(d[j], rl), mult = times_real(lij, rl);
                if (lane == 0) rdiag[k0 + j] = T(rl);
#pragma unroll
                for (int p = j + 1; p < NB; ++p)
                    if (lane >= p && lane < w) d[p] -= mult * conj(columns[j & 1][p]);
                d[j] = lane == j ? T(piv < R(INFINITY) ? piv * rl : piv) : lij;  // sqrt(piv); +inf as LAPACK's
            }
            if (lane < w) {
#pragma unroll
                for (int p = 0; p < NB; ++p)
                    if (p <= lane) L[i + (k0 + p) * n] = d[p];
            }
            if (lane == 0) failed = fail;
        }
        __syncthreads();
        if (failed) return failed;
        const int r0 = k0 + w;
        if (r0 >= n) break;
        for (int row = r0 + tid; row < n; row += chol_block_threads) {  // the rows below: x L11^H = a
            T x[NB];
#pragma unroll
            for (int p = 0; p < NB; ++p) x[p] = p < w ? L[row + (k0 + p) * n] : T(R(0));
#pragma unroll
            for (int j = 0; j < NB; ++j) {
                if (j >= w) break;
                x[j] = times_real(x[j], real_of(rdiag[k0 + j]));
#pragma unroll
                for (int p = j + 1; p < NB; ++p)
                    if (p < w) x[p] -= x[j] * conj(L[k0 + p + (k0 + j) * n]);
            }
#pragma unroll
            for (int p = 0; p < NB; ++p)
                if (p < w) L[row + (k0 + p) * n] = x[p];
        }
        __syncthreads();
        // The trailing lower triangle, rows and columns r0 .. n - 1, less the panel's product with itself.
        const int m = n - r0, blocks = (m + 63) / 64;
        for (int bi = 0; bi < blocks; ++bi)
            for (int bj = 0; bj <= bi; ++bj) {
                const int ib = r0 + 64 * bi + tx, jb = r0 + 64 * bj + 4 * ty;
                if (ib >= n || jb >= n) continue;
                const int rows = min(4, (n - 1 - ib) / 16 + 1);  // this thread's rows ib + 16*ii below n
                if (jb > ib + 16 * (rows - 1)) continue;       // all above the diagonal
                T acc[4][4];
#pragma unroll
                for (int ii = 0; ii < 4; ++ii)
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj) acc[ii][jj] = T(R(0));
#pragma unroll 4
                for (int p = 0; p < w; ++p) {
                    const T *col = L + (k0 + p) * n;
                    T a[4], b[4];
#pragma unroll
                    for (int ii = 0; ii < 4; ++ii) a[ii] = ii < rows ? col[ib + 16 * ii] : T(R(0));
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj) b[jj] = conj(col[min(jb + jj, n - 1)]);
#pragma unroll
                    for (int ii = 0; ii < 4; ++ii)
#pragma unroll
                        for (int jj = 0; jj < 4; ++jj) acc[ii][jj] += a[ii] * b[jj];
                }
#pragma unroll
                for (int ii = 0; ii < 4; ++ii)
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj) {
                        const int i = ib + 16 * ii, j = jb + jj;
                        if (ii < rows && j <= i) L[i + j * n] -= acc[ii][jj];
                    }
            }
        __syncthreads();
    }
    return 0;
}

// Factors: the kernel of potrf (and posv's factorization) and poinv (the factorization, then the inverse), else of
// potri; two kernels, so that potri's does not take the factorization's registers. InShared: the lower form in
// shared memory (known at compile time: shared loads and stores, not generic ones), else in scratch.
template <class T, bool Factors, bool InShared>
__global__ void __launch_bounds__(chol_block_threads) chol_block_kernel(chol_launch<T> a, T *scratch, long long first) {
    using R = real_t<T>;
    extern __shared__ __align__(16) unsigned char chol_block_smem[];
    __shared__ int failed;
    const long long b = first + blockIdx.x;
    const int n = a.n, tid = threadIdx.x, nt = blockDim.x, nn = n * n;
    T(*columns)[32] = reinterpret_cast<T(*)[32]>(chol_block_smem);
    T *dinv = reinterpret_cast<T *>(chol_block_smem) + 64;
    T *L = InShared ? dinv + n : scratch + (long long)blockIdx.x * nn;

    {  // the lower form (element (i, j), i >= j, at L[i + j*n]), 8 loads a thread in flight
        constexpr int U = 8;
        const T *m = a.A[b];
        const long long lda = a.A.ld;
        for (int base = tid; base < nn; base += U * nt) {
            T v[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int idx = base + u * nt, i = idx % n, j = idx / n;
                if (idx < nn && i >= j) v[u] = lower_form_at(m, lda, a.upper, i, j);
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int idx = base + u * nt, i = idx % n, j = idx / n;
                if (idx < nn && i >= j) L[idx] = v[u];
            }
        }
    }
    if (tid == 0) failed = 0;
    __syncthreads();

    const chol_op op = a.op;  // factor (potrf; posv's factorization) or full_inverse; else inverse
    if constexpr (Factors) {
        block_factor<T, chol_block_nb>(L, n, dinv, columns, failed);
    } else {
        if (tid == 0)
            for (int k = 0; k < n; ++k)
                if (real_of(L[k + k * n]) == R(0)) {
                    failed = k + 1;
                    break;
                }
        __syncthreads();
    }
    if (tid == 0) a.info[b] = failed;

    if (op == chol_op::factor) {  // the factor (also the part a failure leaves)
        T *m = a.A[b];
        const long long lda = a.A.ld;
#pragma unroll 4
        for (int idx = tid; idx < nn; idx += nt) {
            const int i = idx % n, j = idx / n;
            if (i < j) continue;
            if (a.upper) m[j + i * lda] = conj(L[idx]);
            else m[i + j * lda] = L[idx];
        }
        return;
    }
    if (failed) return;  // potri: A unchanged; poinv: C not written

    // X = inv(L), a column per thread: X(j,j) in dinv, X(i,j) (i > j) in the unused upper part at L[j + i*n].
    for (int j = tid; j < n; j += nt) {
        const R dj = R(1) / real_of(L[j + j * n]);
        dinv[j] = T(dj);
        for (int i = j + 1; i < n; ++i) {
            T s = times_real(L[i + j * n], dj);
            for (int p = j + 1; p < i; ++p) s += L[i + p * n] * L[j + p * n];
            L[j + i * n] = over_real(-s, real_of(L[i + i * n]));
        }
    }
    __syncthreads();
    // inv(A)(i, j) = sum over k >= i of conj(X(k,i)) X(k,j), i >= j, into the lower part.
    for (int idx = tid; idx < nn; idx += nt) {
        const int i = idx % n, j = idx / n;
        if (i < j) continue;
        T s = conj(dinv[i]) * (i == j ? dinv[j] : L[j + i * n]);
        for (int k = i + 1; k < n; ++k) s += conj(L[i + k * n]) * L[j + k * n];
        L[idx] = i == j ? real_only(s) : s;
    }
    __syncthreads();
    if (op == chol_op::inverse) {
        T *m = a.A[b];
        const long long lda = a.A.ld;
        for (int idx = tid; idx < nn; idx += nt) {
            const int i = idx % n, j = idx / n;
            if (i < j) continue;
            if (a.upper) m[j + i * lda] = conj(L[idx]);
            else m[i + j * lda] = L[idx];
        }
    } else {
        T *c = a.B[b];
        const long long ldc = a.B.ld;
        for (int idx = tid; idx < nn; idx += nt) {
            const int i = idx % n, j = idx / n;
            if (i < j) continue;
            c[i + j * ldc] = L[idx];
            if (i > j) c[j + i * ldc] = conj(L[idx]);
        }
    }
}

// The factorization alone (potrf, posv's factorization) at n <= block_registers_max_order: the lower form in
// registers, warp w of W holding columns j = w + W c (c < 32 R / W) and lane l rows i = l + 32 r (r < R, n <= 32 R),
// only the (c, r) where a row of the block can lie on or below the diagonal. Right-looking by single columns, one
// barrier a step: step k reads column k (unscaled) from shared memory, all its loads at once, updates the columns
// j > k by A(i,j) -= A(i,k) conj(A(j,k)) / A(k,k), and the owner of column k + 1 puts it in shared memory for step
// k + 1. The columns are scaled at the end (L(i,j) = A(i,j) / sqrt(A(j,j)), the pivots kept in shared memory), so
// that a step's chain is a barrier, a load, a reciprocal, a multiply-add and a store. Entries above the diagonal
// hold junk, never stored.
// W = 16 warps a block (32 from 65 measured no faster at one matrix and slower at hundreds).
constexpr int chol_registers_warps = 16;
constexpr bool chol_registers_held(int c, int r) { return 32 * r + 31 >= chol_registers_warps * c; }
// 1 / d correctly rounded (the same bits as the division, without its slow path in the chain).
__device__ __forceinline__ float reciprocal_rn(float d) { return __frcp_rn(d); }
__device__ __forceinline__ double reciprocal_rn(double d) { return __drcp_rn(d); }

template <class T, int R>
__global__ void __launch_bounds__(chol_registers_warps * 32, 1)
    chol_registers_kernel(chol_launch<T> a, long long first) {
    using Re = real_t<T>;
    constexpr int W = chol_registers_warps, C = 32 * R / W;
    __shared__ __align__(16) T column[2][32 * R];
    __shared__ Re pivot[32 * R];
    const long long b = first + blockIdx.x;
    const int n = a.n, lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    T *m = a.A[b];
    const long long lda = a.A.ld;
    T x[C][R];
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (chol_registers_held(c, r)) {
                const int i = lane + 32 * r, j = w + W * c;
                const T v = i < n && j < n && i >= j ? lower_form_at(m, lda, a.upper, i, j) : T(Re(0));
                x[c][r] = i == j ? real_only(v) : v;
            }
    if (w == 0) {
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (chol_registers_held(0, r)) column[0][lane + 32 * r] = x[0][r];
    }
    __syncthreads();
    int info = 0;
    for (int k = 0; k < n; ++k) {
        const T *col = column[k & 1];
        // Column k's entries in this thread's rows and columns (those of the columns loaded where used, in double
        // complex at 97-128, whose registers they would spill).
        constexpr bool preload = !(sizeof(T) == 16 && R == 4);
        T ck[R], cj[C];
#pragma unroll
        for (int r = 0; r < R; ++r) ck[r] = col[lane + 32 * r];
#pragma unroll
        for (int c = 0; c < C; ++c)
            if (preload) cj[c] = col[w + W * c];
        const Re d = real_of(col[k]);
        if (!(d > Re(0))) {  // also NaN; the same in every thread
            info = k + 1;
            break;
        }
        if (threadIdx.x == 0) pivot[k] = d;
        const Re rd = reciprocal_rn(d);
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const int j = w + W * c;
            if (j > k && j < n) {
                const T s = times_real(conj(preload ? cj[c] : col[j]), rd);
#pragma unroll
                for (int r = 0; r < R; ++r)  // entries above the diagonal too (junk, never stored): no test
                    if (chol_registers_held(c, r)) x[c][r] -= ck[r] * s;
                if (j == k + 1) {
#pragma unroll
                    for (int r = 0; r < R; ++r)
                        if (chol_registers_held(c, r)) column[(k + 1) & 1][lane + 32 * r] = x[c][r];
                }
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) a.info[b] = info;
    const int done = info == 0 ? n : info - 1;  // the columns factored: scaled and stored as L
#pragma unroll
    for (int c = 0; c < C; ++c) {
        const int j = w + W * c;
        if (j >= n) continue;
        const Re d = j < done ? pivot[j] : Re(1), rl = j < done ? rsqrt(d) : Re(1);
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (chol_registers_held(c, r)) {
                const int i = lane + 32 * r;
                if (i >= n || i < j) continue;
                // sqrt(d) as d / sqrt(d), +inf kept (as LAPACK's)
                const T v = j >= done ? x[c][r] : i == j ? T(d < Re(INFINITY) ? d * rl : d) : times_real(x[c][r], rl);
                if (a.upper) m[j + (long long)i * lda] = conj(v);
                else m[i + (long long)j * lda] = v;
            }
    }
}

template <class T, int R> void launch_chol_registers_of(const chol_launch<T> &a, cudaStream_t stream) {
    static_assert(R >= 1 && 32 * R <= block_registers_max_order, "the register kernel's orders");
    constexpr long long most = 0x7fffffff;  // blocks a launch
    for (long long first = 0; first < a.batch; first += most)
        chol_registers_kernel<T, R>
            <<<(unsigned)(a.batch - first < most ? a.batch - first : most), chol_registers_warps * 32, 0, stream>>>(
                a, first);
}

template <class T> cudaError_t launch_chol_registers(const chol_launch<T> &a, cudaStream_t stream) {
    if (a.op != chol_op::factor || a.n < 1 || a.n > block_registers_max_order) return cudaErrorInvalidValue;
    const int R = (a.n + 31) / 32;
    if (R == 1) launch_chol_registers_of<T, 1>(a, stream);
    else if (R == 2) launch_chol_registers_of<T, 2>(a, stream);
    else if (R == 3) launch_chol_registers_of<T, 3>(a, stream);
    else launch_chol_registers_of<T, 4>(a, stream);
    return cudaSuccess;
}

template <class T>
cudaError_t launch_chol_block(const chol_launch<T> &a, bool in_shared, T *scratch, long long first, long long count,
                              cudaStream_t stream) {
    const std::size_t bytes = chol_block_bytes<T>(a.n, in_shared);
    const bool factors = a.op != chol_op::inverse;
    const auto kernel = factors ? (in_shared ? chol_block_kernel<T, true, true> : chol_block_kernel<T, true, false>)
                                : (in_shared ? chol_block_kernel<T, false, true> : chol_block_kernel<T, false, false>);
    if (const cudaError_t e = allow_dynamic_shared(kernel, bytes); e != cudaSuccess) return e;
    kernel<<<(unsigned)count, chol_block_threads, bytes, stream>>>(a, scratch, first);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- the seed paper's fused left-looking factorization, loop-exclusive: one launch per panel of ib columns ------
// Launch i0 updates columns i0 .. i0 + ib - 1 of the lower form from the columns to their left (each thread one row,
// its ib entries in registers: the GEMM and SYRK of the left-looking step), keeps the panel in shared memory and
// factors it there (POTF2 and TRSM fused), then writes it back. A matrix whose factorization failed in an earlier
// launch is skipped (its info is set); launch 0 also initialises info. n - i0 <= 1024 rows, one thread each.
constexpr int chol_panel_ib = 8;

template <class T> std::size_t chol_panel_bytes(int n, int i0) { return (std::size_t)(n - i0) * chol_panel_ib * sizeof(T); }

template <class T> __global__ void __launch_bounds__(1024) chol_panel_kernel(chol_launch<T> a, int i0) {
    using R = real_t<T>;
    constexpr int IB = chol_panel_ib;
    extern __shared__ __align__(16) unsigned char chol_panel_smem[];
    T *sC = reinterpret_cast<T *>(chol_panel_smem);  // the panel, (n - i0) x w, leading dimension n - i0
    __shared__ int stop;
    const long long b = blockIdx.x;
    const int n = a.n, m = n - i0, r = threadIdx.x, row = i0 + r, w = m < IB ? m : IB;
    if (r == 0) stop = i0 > 0 ? a.info[b] : 0;
    __syncthreads();
    if (stop != 0) return;  // failed in an earlier panel: LAPACK stops there
    T *mat = a.A[b];
    const long long ld = a.A.ld;
    const bool upper = a.upper;
    auto at = [&](int i, int j) { return lower_form_at(mat, ld, upper, i, j); };
    if (r < m) {
        T c[IB];
#pragma unroll
        for (int j = 0; j < IB; ++j) c[j] = j < w && r >= j ? at(row, i0 + j) : T(R(0));
        for (int k = 0; k < i0; ++k) {
            const T lrk = at(row, k);
#pragma unroll
            for (int j = 0; j < IB; ++j)
                if (j < w && r >= j) c[j] -= lrk * conj(at(i0 + j, k));
        }
#pragma unroll
        for (int j = 0; j < IB; ++j)
            if (j < w) sC[r + j * m] = c[j];
    }
    __syncthreads();
    for (int k = 0; k < w; ++k) {
        if (r == k) {
            const R d = real_of(sC[k + k * m]);
            if (!(d > R(0))) stop = i0 + k + 1;  // also NaN
            else sC[k + k * m] = T(sqrt(d));
        }
        __syncthreads();
        if (stop != 0) break;
        if (r > k && r < m) sC[r + k * m] = times_real(sC[r + k * m], R(1) / real_of(sC[k + k * m]));
        __syncthreads();
        if (r > k && r < m)
            for (int j = k + 1; j < w; ++j)
                if (r >= j) sC[r + j * m] -= sC[r + k * m] * conj(sC[j + k * m]);
        __syncthreads();
    }
    if (r < m)  // the panel (also what a failure leaves)
        for (int j = 0; j < w; ++j)
            if (r >= j) {
                const T v = sC[r + j * m];
                if (upper) mat[i0 + j + (long long)row * ld] = conj(v);
                else mat[row + (long long)(i0 + j) * ld] = v;
            }
    if (r == 0) a.info[b] = stop;
}

template <class T> cudaError_t launch_chol_panels(const chol_launch<T> &a, cudaStream_t stream) {
    // The first panel is the largest.
    if (const cudaError_t e = allow_dynamic_shared(chol_panel_kernel<T>, chol_panel_bytes<T>(a.n, 0)); e != cudaSuccess)
        return e;
    for (int i0 = 0; i0 < a.n; i0 += chol_panel_ib) {
        const int m = a.n - i0, threads = (m + 31) / 32 * 32;
        chol_panel_kernel<T><<<(unsigned)a.batch, threads, chol_panel_bytes<T>(a.n, i0), stream>>>(a, i0);
    }
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- the blocked left-looking factorization: cuBLAS's GEMM for the update, then this step kernel -----------------
// Step k works on columns k .. k + w - 1 of the lower form (w = min(NB, n - k)), less S = L(k:n, 0:k) L(k:k+w, 0:k)^H
// (cuBLAS's GEMM into scratch, leading dimension n - k; none at k = 0): one warp factors the diagonal block in
// shared memory (POTF2, lane i owning row i), then the rows below are solved against it (TRSM), a thread per row
// with its w entries in registers. blockIdx.x: the matrix; blockIdx.y: a block of rows below (each block factors
// the diagonal block for itself). parts: 1 the diagonal block is written back and info set, 2 the rows below,
// 3 both; a launch with several blocks of rows writes no diagonal block (another block may still be reading it),
// the launch of part 1 that follows does. Matrices whose info an earlier step set are skipped; a failure at
// column j of the step leaves the rows below solved in the columns before j only (LAPACK's columns 1 .. j - 1).
template <class T>
__global__ void __launch_bounds__(chol_step_threads) chol_step_kernel(chol_launch<T> a, int k, const T *S,
                                                                      long long s_stride, int parts) {
    using R = real_t<T>;
    constexpr int NB = chol_step_nb, LD = NB + 1;
    __shared__ T D[NB * LD];
    __shared__ int stop;
    const long long b = blockIdx.x;
    const int n = a.n, m = n - k, w = m < NB ? m : NB, tid = threadIdx.x;
    if (tid == 0) stop = k > 0 ? a.info[b] : 0;
    __syncthreads();
    if (stop != 0) return;  // failed in an earlier step: LAPACK stops there
    T *mat = a.A[b];
    const long long ld = a.A.ld;
    const bool upper = a.upper;
    const T *s = S != nullptr ? S + b * s_stride : nullptr;
    auto at = [&](int i, int j) { return lower_form_at(mat, ld, upper, i, j); };
    for (int idx = tid; idx < NB * NB; idx += blockDim.x) {  // beyond w: zeros (the solve below reads them)
        const int i = idx % NB, j = idx / NB;
        if (i >= j) D[i * LD + j] = i >= w ? T(R(0)) : s ? at(k + i, k + j) - s[i + (long long)j * m] : at(k + i, k + j);
    }
    __syncthreads();
    if (tid < 32) {  // POTF2, lane i owning row i
        const int i = tid;
        for (int j = 0; j < w; ++j) {
            const R d = real_of(D[j * LD + j]);  // the same for every lane: the warp leaves together
            if (!(d > R(0))) {                   // also NaN
                if (i == 0) stop = k + j + 1;
                break;
            }
            const R sd = sqrt(d);
            __syncwarp();
            if (i == j) D[j * LD + j] = T(sd);
            if (i > j && i < w) D[i * LD + j] = times_real(D[i * LD + j], R(1) / sd);
            __syncwarp();
            if (i > j && i < w) {
                const T lij = D[i * LD + j];
                // Eight entries of the row at a time, all loaded before any is stored, so that the loads overlap
                // (entry by entry, each load waits for the store before it: the compiler cannot tell they differ).
                for (int c0 = j + 1; c0 <= i; c0 += 8) {
                    T l[8], v[8];
#pragma unroll
                    for (int q = 0; q < 8; ++q)
                        if (c0 + q <= i) {
                            l[q] = D[(c0 + q) * LD + j];
                            v[q] = D[i * LD + c0 + q];
                        }
#pragma unroll
                    for (int q = 0; q < 8; ++q)
                        if (c0 + q <= i) {
                            v[q] -= lij * conj(l[q]);
                            D[i * LD + c0 + q] = v[q];
                        }
                }
            }
            __syncwarp();
        }
    }
    __syncthreads();
    const int f = stop != 0 ? stop - 1 - k : w;  // the step's columns that are the factor's
    // One row below the diagonal block per thread (a loop over rows would let the compiler keep the block's
    // entries in registers across the rows, and spill them).
    const int r = (int)blockIdx.y * blockDim.x + tid, row = k + w + r;
    if ((parts & 2) && row < n) {
        T x[NB];
#pragma unroll
        for (int j = 0; j < NB; ++j)
            x[j] = j >= w ? T(R(0)) : s ? at(row, k + j) - s[w + r + (long long)j * m] : at(row, k + j);
#pragma unroll
        for (int j = 0; j < NB; ++j)
            if (j < f) {
                x[j] = over_real(x[j], real_of(D[j * LD + j]));
#pragma unroll
                for (int q = j + 1; q < NB; ++q) x[q] -= x[j] * conj(D[q * LD + j]);
            }
#pragma unroll
        for (int j = 0; j < NB; ++j)
            if (j < f) {
                if (upper) mat[k + j + (long long)row * ld] = conj(x[j]);
                else mat[row + (long long)(k + j) * ld] = x[j];
            }
    }
    if (parts & 1) {
        for (int idx = tid; idx < w * w; idx += blockDim.x) {
            const int i = idx % w, j = idx / w;
            if (i < j) continue;
            if (upper) mat[k + j + (long long)(k + i) * ld] = conj(D[i * LD + j]);
            else mat[k + i + (long long)(k + j) * ld] = D[i * LD + j];
        }
        if (tid == 0) a.info[b] = stop;  // step 0 also initialises it
    }
}

// ---- potrs and posv's solve beyond the lane kernels: a warp per (matrix, right-hand side) ------------------------
// The right-hand side in shared memory; each triangle is walked by the columns of the matrix as stored (coalesced):
// lower, L y = b by columns of L (axpy) and L^H x = y by dot products with them; upper, U^H y = b by dot products
// with the columns of U and U x = y by columns of U (axpy), as LAPACK's xTRSM takes the same triangles. Matrices
// whose info is set (posv after a failed factorization) are skipped; potrs passes no info.
template <class T>
__global__ void __launch_bounds__(chol_solve_warps * 32) chol_solve_kernel(chol_launch<T> a, long long jobs) {
    using R = real_t<T>;
    extern __shared__ __align__(16) unsigned char chol_solve_smem[];
    const int n = a.n, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long job = (long long)blockIdx.x * (blockDim.x / 32) + warp;
    if (job >= jobs) return;  // no block-wide barrier below
    const long long b = job / a.nrhs;
    const int c = (int)(job % a.nrhs);
    if (a.info != nullptr && a.info[b] != 0) return;
    T *x = reinterpret_cast<T *>(chol_solve_smem) + (long long)warp * n;
    const T *m = a.A[b];
    const long long lda = a.A.ld;
    T *rhs = a.B[b] + (long long)c * a.B.ld;
    for (int i = lane; i < n; i += 32) x[i] = rhs[i];
    __syncwarp();
    auto diag = [&](int k) { return real_of(m[k + k * lda]); };
    auto by_columns = [&](int k) {  // x_k /= d_k, then x_i -= col_k(i) x_k below (lower: L) or above (upper: U)
        const T xk = over_real(x[k], diag(k));
        __syncwarp();
        if (lane == 0) x[k] = xk;
        const T *col = m + k * lda;
        if (a.upper)
            for (int i = lane; i < k; i += 32) x[i] -= col[i] * xk;
        else
            for (int i = k + 1 + lane; i < n; i += 32) x[i] -= col[i] * xk;
        __syncwarp();
    };
    auto by_dots = [&](int k) {  // x_k = (x_k - conj(col_k) . x over the solved part) / d_k
        const T *col = m + k * lda;
        T sum = T(R(0));
        if (a.upper)
            for (int i = lane; i < k; i += 32) sum += conj(col[i]) * x[i];
        else
            for (int i = k + 1 + lane; i < n; i += 32) sum += conj(col[i]) * x[i];
#pragma unroll
        for (int o = 16; o > 0; o /= 2) sum += group_xor<32>(0xffffffffu, sum, o);
        if (lane == 0) x[k] = over_real(x[k] - sum, diag(k));
        __syncwarp();
    };
    if (a.upper) {
        for (int k = 0; k < n; ++k) by_dots(k);           // U^H y = b
        for (int k = n - 1; k >= 0; --k) by_columns(k);   // U x = y
    } else {
        for (int k = 0; k < n; ++k) by_columns(k);        // L y = b
        for (int k = n - 1; k >= 0; --k) by_dots(k);      // L^H x = y
    }
    for (int i = lane; i < n; i += 32) rhs[i] = x[i];
}

template <class T> cudaError_t launch_chol_solve(const chol_launch<T> &a, std::size_t max_shared, cudaStream_t stream) {
    int warps = chol_solve_warps;
    const std::size_t per_warp = (std::size_t)a.n * sizeof(T);
    while (warps > 1 && warps * per_warp > max_shared) --warps;
    if (warps * per_warp > max_shared) return cudaErrorInvalidValue;
    if (const cudaError_t e = allow_dynamic_shared(chol_solve_kernel<T>, warps * per_warp); e != cudaSuccess) return e;
    const long long jobs = a.batch * a.nrhs;
    if (jobs == 0) return cudaSuccess;
    chol_solve_kernel<T><<<(unsigned)((jobs + warps - 1) / warps), warps * 32, warps * per_warp, stream>>>(a, jobs);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// Pointer arrays for cuBLAS's TRSM over matrices first .. first + count - 1: pa[b] = the factor, pb[b] = the
// right-hand sides, or the stand-in where info[b] != 0 (posv after a failed factorization: B is not written).
template <class T>
__global__ void chol_solve_pointers(chol_launch<T> a, long long first, long long count, T *standin, const T **pa,
                                    T **pb) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const long long b = first + i;
    pa[i] = a.A[b];
    pb[i] = a.info != nullptr && a.info[b] != 0 ? standin : a.B[b];
}

template <class T>
cudaError_t launch_chol_solve_pointers(const chol_launch<T> &a, long long first, long long count, T *standin,
                                       const T **pa, T **pb, cudaStream_t stream) {
    if (count > 0)
        chol_solve_pointers<T><<<(unsigned)((count + 255) / 256), 256, 0, stream>>>(a, first, count, standin, pa, pb);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- potri by cuBLAS's TRSM (the dispatch's): the lower form in scratch, the identity, the result -------------------
// F = the lower form of matrix first + b (its upper part zero), and info = the first zero diagonal entry of the
// factor, as xTRTRI's. blockIdx.x: the matrix, blockIdx.y: a group of columns.
template <class T>
__global__ void chol_lower_form(chol_launch<T> a, long long first, T *F, long long f_stride) {
    using R = real_t<T>;
    const long long b = first + blockIdx.x;
    const int n = a.n;
    const T *m = a.A[b];
    const long long ld = a.A.ld;
    T *f = F + blockIdx.x * f_stride;
    for (int j = blockIdx.y; j < n; j += gridDim.y)
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            f[i + (long long)j * n] = i < j ? T(R(0)) : lower_form_at(m, ld, a.upper, i, j);
    if (blockIdx.y == 0) {
        __shared__ int first_zero;
        if (threadIdx.x == 0) first_zero = 0x7fffffff;
        __syncthreads();
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            if (real_of(m[k + (long long)k * ld]) == R(0)) atomicMin(&first_zero, k + 1);
        __syncthreads();
        if (threadIdx.x == 0) a.info[b] = first_zero == 0x7fffffff ? 0 : first_zero;
    }
}

// W = I for the matrices whose info is 0.
template <class T> __global__ void chol_identity(chol_launch<T> a, long long first, T *W, long long w_stride) {
    using R = real_t<T>;
    const long long b = first + blockIdx.x;
    if (a.info[b] != 0) return;
    const int n = a.n;
    T *w = W + blockIdx.x * w_stride;
    for (int j = blockIdx.y; j < n; j += gridDim.y)
        for (int i = threadIdx.x; i < n; i += blockDim.x) w[i + (long long)j * n] = T(R(i == j ? 1 : 0));
}

// The result from W = inv(A) (its lower triangle; the diagonal's imaginary part dropped) into A's uplo triangle.
// The matrices whose info is not 0 are not written.
template <class T> __global__ void chol_store_inverse(chol_launch<T> a, long long first, const T *W, long long w_stride) {
    const long long b = first + blockIdx.x;
    if (a.info[b] != 0) return;
    const int n = a.n;
    const T *w = W + blockIdx.x * w_stride;
    T *out = a.A[b];
    const long long ld = a.A.ld;
    for (int j = blockIdx.y; j < n; j += gridDim.y)
        for (int i = j + threadIdx.x; i < n; i += blockDim.x) {
            const T v = i == j ? real_only(w[i + (long long)j * n]) : w[i + (long long)j * n];
            if (a.upper) out[j + (long long)i * ld] = conj(v);
            else out[i + (long long)j * ld] = v;
        }
}

template <class T>
cudaError_t launch_chol_inverse_part(const chol_launch<T> &a, int part, long long first, long long count, T *M,
                                     long long stride, cudaStream_t stream) {
    if (count <= 0) return cudaSuccess;
    const unsigned groups = (unsigned)(a.n < 64 ? a.n : 64);
    const dim3 grid((unsigned)count, groups);
    if (part == 0) chol_lower_form<T><<<grid, 128, 0, stream>>>(a, first, M, stride);
    else if (part == 1) chol_identity<T><<<grid, 128, 0, stream>>>(a, first, M, stride);
    else chol_store_inverse<T><<<grid, 128, 0, stream>>>(a, first, M, stride);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- poinv beyond the lane kernels (the dispatch's poinv_by_parts: potrf and potri as routed, on C) -----------------
// Part 0: C's uplo triangle := A's (nothing where C is A). Part 1: C's other triangle := the conjugate transpose of
// its uplo triangle, by 32 x 32 tiles through shared memory so that reads and writes are both coalesced.
// blockIdx.x: the matrix, blockIdx.y: a group of columns (part 0) or of tile pairs (part 1).
constexpr int chol_poinv_threads = 256;

template <class T> __global__ void __launch_bounds__(chol_poinv_threads) chol_poinv_part(chol_launch<T> a, int part) {
    const long long b = blockIdx.x;
    const int n = a.n;
    T *const c = a.B[b];
    const long long ldc = a.B.ld;
    if (part == 0) {
        const T *m = a.A[b];
        if (m == c) return;  // C is A (then ldc == lda)
        const long long lda = a.A.ld;
        for (int j = blockIdx.y; j < n; j += gridDim.y) {
            const int i0 = a.upper ? 0 : j, i1 = a.upper ? j + 1 : n;
            for (int i = i0 + (int)threadIdx.x; i < i1; i += blockDim.x) c[i + j * ldc] = m[i + j * lda];
        }
        return;
    }
    __shared__ T tile[32][33];  // tile[col][row] of the source tile
    const int tiles = (n + 31) / 32, pairs = tiles * (tiles + 1) / 2;
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    for (int t = blockIdx.y; t < pairs; t += gridDim.y) {
        int ti = 0;  // the pair (ti, tj), ti >= tj, of the lower form's tiles
        while ((ti + 1) * (ti + 2) / 2 <= t) ++ti;
        const int tj = t - ti * (ti + 1) / 2;
        // The source tile in the uplo triangle: rows from i0, columns from j0.
        const int i0 = 32 * (a.upper ? tj : ti), j0 = 32 * (a.upper ? ti : tj);
        for (int q = ty; q < 32; q += chol_poinv_threads / 32) {
            const int i = i0 + tx, j = j0 + q;
            if (i < n && j < n && (a.upper ? i < j : i > j)) tile[q][tx] = c[i + (long long)j * ldc];
        }
        __syncthreads();
        for (int q = ty; q < 32; q += chol_poinv_threads / 32) {
            const int i = i0 + q, j = j0 + tx;  // source (i, j) -> C(j, i)
            if (i < n && j < n && (a.upper ? i < j : i > j)) c[j + (long long)i * ldc] = conj(tile[tx][q]);
        }
        __syncthreads();
    }
}

template <class T> cudaError_t launch_chol_poinv_part(const chol_launch<T> &a, int part, cudaStream_t stream) {
    if (a.batch <= 0 || a.n <= 0) return cudaSuccess;
    const int tiles = (a.n + 31) / 32, pairs = tiles * (tiles + 1) / 2;
    const int work = part == 0 ? a.n : pairs;
    const unsigned groups = (unsigned)(work < 64 ? work : 64);
    chol_poinv_part<T><<<dim3((unsigned)a.batch, groups), chol_poinv_threads, 0, stream>>>(a, part);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

// ---- around cuSOLVER's potrf (the vendor route, lib/cuda/vendor.cuh) ----------------------------------------
// Before (part 0, only where M is given): the uplo triangle of matrices first .. first + count - 1 into M (ld n;
// matrix i at M + i*stride), the diagonal's imaginary parts as zero. cuSOLVER, like LAPACK, does not read those
// parts (the tests put junk there), so a matrix factored in place needs nothing before.
// After (part 1): info = the first j whose factor diagonal is NaN where that comes before cuSOLVER's info (a NaN
// pivot is no "<= 0" to cuSOLVER, and it fails no step there), and the triangle back from M when M is given.
template <class T>
__global__ void chol_vendor_part(chol_launch<T> a, int part, long long first, T *M, long long stride) {
    const long long b = first + blockIdx.x;
    const int n = a.n;
    T *const m = a.A[b];
    const long long ld = a.A.ld;
    T *const w = M ? M + blockIdx.x * stride : m;  // cuSOLVER's copy
    const long long wld = M ? n : ld;
    if (part == 1 && blockIdx.y == 0) {
        __shared__ int first_nan;
        if (threadIdx.x == 0) first_nan = 0x7fffffff;
        __syncthreads();
        for (int k = threadIdx.x; k < n; k += blockDim.x) {
            const T d = w[k + (long long)k * wld];
            if (real_of(d) != real_of(d)) atomicMin(&first_nan, k + 1);
            if (!M && scalar_traits<T>::is_complex) m[k + (long long)k * ld] = real_only(d);
        }
        __syncthreads();
        if (threadIdx.x == 0 && first_nan != 0x7fffffff && (a.info[b] == 0 || first_nan < a.info[b]))
            a.info[b] = first_nan;
    }
    if (!M) return;
    const T *src = part == 0 ? m : w;
    T *dst = part == 0 ? w : m;
    const long long sld = part == 0 ? ld : wld, dld = part == 0 ? wld : ld;
    for (int j = blockIdx.y; j < n; j += gridDim.y) {
        const int i0 = a.upper ? 0 : j, i1 = a.upper ? j + 1 : n;
        for (int i = i0 + threadIdx.x; i < i1; i += blockDim.x) {
            const T v = src[i + (long long)j * sld];
            dst[i + (long long)j * dld] = i == j ? real_only(v) : v;
        }
    }
}

template <class T>
cudaError_t launch_chol_vendor_part(const chol_launch<T> &a, int part, long long first, long long count, T *M,
                                    long long stride, cudaStream_t stream) {
    if (count <= 0) return cudaSuccess;
    if (M == nullptr && part == 0) return cudaSuccess;  // nothing to do in place
    const unsigned groups = M ? (unsigned)(a.n < 65535 ? a.n : 65535) : 1u;
    chol_vendor_part<T><<<dim3((unsigned)count, groups), 128, 0, stream>>>(a, part, first, M, stride);
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

template <class T>
cudaError_t launch_chol_step(const chol_launch<T> &a, int k, const T *S, long long s_stride, cudaStream_t stream) {
    const int w = a.n - k < chol_step_nb ? a.n - k : chol_step_nb, rows = a.n - k - w;
    // A thread per row below the diagonal block; the threads of a block rounded up to whole warps (one at least:
    // the diagonal block's warp).
    const int threads = rows >= chol_step_threads ? chol_step_threads : (rows + 31) / 32 * 32 > 32 ? (rows + 31) / 32 * 32 : 32;
    const long long groups = (rows + threads - 1) / threads;
    if (groups > 65535) return cudaErrorInvalidValue;
    if (groups <= 1) {
        chol_step_kernel<T><<<dim3((unsigned)a.batch, 1), threads, 0, stream>>>(a, k, S, s_stride, 3);
    } else {
        chol_step_kernel<T><<<dim3((unsigned)a.batch, (unsigned)groups), threads, 0, stream>>>(a, k, S, s_stride, 2);
        chol_step_kernel<T><<<dim3((unsigned)a.batch, 1), 32, 0, stream>>>(a, k, S, s_stride, 1);
    }
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

#define SMALLLA_CHOL_INSTANTIATE(T)                                                                             \
    template cudaError_t launch_chol_lanes<T>(const chol_launch<T> &, cudaStream_t);                          \
    template cudaError_t launch_chol_panels<T>(const chol_launch<T> &, cudaStream_t);                         \
    template cudaError_t launch_chol_step<T>(const chol_launch<T> &, int, const T *, long long, cudaStream_t); \
    template cudaError_t launch_chol_solve<T>(const chol_launch<T> &, std::size_t, cudaStream_t);             \
    template cudaError_t launch_chol_inverse_part<T>(const chol_launch<T> &, int, long long, long long, T *,   \
                                                     long long, cudaStream_t);                                 \
    template cudaError_t launch_chol_poinv_part<T>(const chol_launch<T> &, int, cudaStream_t);                \
    template cudaError_t launch_chol_solve_pointers<T>(const chol_launch<T> &, long long, long long, T *,      \
                                                       const T **, T **, cudaStream_t);                        \
    template cudaError_t launch_chol_thread<T>(const chol_launch<T> &, cudaStream_t);                         \
    template cudaError_t launch_chol_vendor_part<T>(const chol_launch<T> &, int, long long, long long, T *,    \
                                                    long long, cudaStream_t);                                  \
    template std::size_t chol_block_bytes<T>(int, bool);                                                      \
    template cudaError_t launch_chol_registers<T>(const chol_launch<T> &, cudaStream_t);                      \
    template cudaError_t launch_chol_block<T>(const chol_launch<T> &, bool, T *, long long, long long, cudaStream_t);

}  // namespace cuda_kernels
}  // namespace smallla
