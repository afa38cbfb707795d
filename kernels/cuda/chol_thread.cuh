// Thread-per-matrix kernels of the Cholesky family for the smallest orders: the lower form of a whole matrix in
// one thread's registers (no cross-lane traffic), a warp's 32 matrices staged through a per-warp tile of their
// triangles (thread_tile.cuh). The arithmetic is the lane kernels' (chol.cuh): right-looking steps, the pivot's
// square root and its reciprocal, LAPACK's info; only the uplo triangle of A is read or written.
#pragma once

#include "chol_common.cuh"
#include "cuda/chol.hpp"
#include "routing/routes.hpp"
#include "thread_tile.cuh"

namespace smallla {
namespace cuda_kernels {

// Entry (i, j), i >= j, of a lower triangle packed by rows.
__device__ __forceinline__ int packed_at(int i, int j) { return i * (i + 1) / 2 + j; }
template <int N> constexpr int chol_tile_rows() { return N * (N + 1) / 2; }

// Where entry e of a warp's contiguous run of matrices (e < total) goes in the tile (the offset from tile[0][0]),
// or -1 when it is beyond the run or outside the stored triangle.
template <int N> __device__ __forceinline__ int tile_slot(int e, int total, bool upper) {
    const int m = e / (N * N), at = e % (N * N), r = at % N, c = at / N;
    if (e >= total || (upper ? r > c : r < c)) return -1;
    return (upper ? packed_at(c, r) : packed_at(r, c)) * 33 + m;
}

// A contiguous batch (strided, ld == n, stride == n*n) moves through the tile with coalesced accesses, only the
// entries of its stored triangle; other batches load and store element by element from the thread's matrix.
template <class T, int N>
__device__ __forceinline__ void load_lower_form(const warp_span &w, batch_ref<T> M, bool upper, bool contiguous,
                                                T (*tile)[33], T (&l)[N][N]) {
    if (contiguous) {
        // Rounds of U entries a lane, all of a round's loads issued before its stores to the tile; a full warp's
        // N*N entries a lane split into equal rounds of at most 16 (slots past the end cost their index math).
        constexpr int rounds = (N * N + 15) / 16, U = (N * N + rounds - 1) / rounds;
        const T *src = M.base + w.first * (N * N);
        const int total = w.count * (N * N);
        for (int e0 = w.lane; e0 < total; e0 += 32 * U) {
            int to[U];
            T v[U];
#pragma unroll
            for (int u = 0; u < U; ++u) to[u] = tile_slot<N>(e0 + 32 * u, total, upper);
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (to[u] >= 0) v[u] = src[e0 + 32 * u];
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (to[u] >= 0) (&tile[0][0])[to[u]] = v[u];
        }
        __syncwarp();
        if (w.mine()) {
#pragma unroll
            for (int i = 0; i < N; ++i)
#pragma unroll
                for (int j = 0; j <= i; ++j) {
                    const T v = tile[packed_at(i, j)][w.lane];
                    l[i][j] = upper ? conj(v) : v;
                }
        }
        __syncwarp();  // the tile may be reused next
    } else if (w.mine()) {
        const T *m = M[w.first + w.lane];
#pragma unroll
        for (int i = 0; i < N; ++i)
#pragma unroll
            for (int j = 0; j <= i; ++j) l[i][j] = lower_form_at(m, M.ld, upper, i, j);
    }
}

// Stores the lower form l as the uplo triangle (full: as the whole Hermitian matrix) of the matrices whose bit in
// `skip` is clear.
template <class T, int N>
__device__ __forceinline__ void store_lower_form(const warp_span &w, batch_ref<T> M, bool upper, bool full,
                                                 bool contiguous, unsigned skip, T (*tile)[33], const T (&l)[N][N]) {
    const bool mine = w.mine() && !(skip >> w.lane & 1u);
    if (contiguous) {
        if (mine) {
#pragma unroll
            for (int i = 0; i < N; ++i)
#pragma unroll
                for (int j = 0; j <= i; ++j) tile[packed_at(i, j)][w.lane] = l[i][j];
        }
        __syncwarp();
        T *dst = M.base + w.first * (N * N);
        for (int e = w.lane; e < w.count * (N * N); e += 32) {
            const int m = e / (N * N), at = e % (N * N), r = at % N, c = at / N;
            if (skip >> m & 1u) continue;
            // Global (r, c) is lower-form (max, min), conjugated where it comes from an upper triangle.
            if (!(full || (upper ? r <= c : r >= c))) continue;
            const T v = tile[r >= c ? packed_at(r, c) : packed_at(c, r)][m];
            dst[e] = (full ? r < c : upper) ? conj(v) : v;
        }
        __syncwarp();
    } else if (mine) {
        T *m = M[w.first + w.lane];
#pragma unroll
        for (int i = 0; i < N; ++i)
#pragma unroll
            for (int j = 0; j <= i; ++j) {
                if (full) {
                    m[i + (long long)j * M.ld] = l[i][j];
                    if (j < i) m[j + (long long)i * M.ld] = conj(l[i][j]);
                } else if (upper) {
                    m[j + (long long)i * M.ld] = conj(l[i][j]);
                } else {
                    m[i + (long long)j * M.ld] = l[i][j];
                }
            }
    }
}

// L L^H = the lower form, in place; returns LAPACK's info (the first pivot that is not > 0, NaN included).
template <class T, int N> __device__ __forceinline__ int chol_factor_thread(T (&l)[N][N]) {
    using R = real_t<T>;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        const R d = real_of(l[k][k]);
        if (!(d > R(0))) return k + 1;
        const R s = sqrt(d), rs = R(1) / s;
        l[k][k] = T(s);
#pragma unroll
        for (int i = k + 1; i < N; ++i) l[i][k] = times_real(l[i][k], rs);
#pragma unroll
        for (int j = k + 1; j < N; ++j)
#pragma unroll
            for (int i = j; i < N; ++i) l[i][j] -= l[i][k] * conj(l[j][k]);
    }
    return 0;
}

// x := inv(L L^H) x: L y = x, then L^H x = y.
template <class T, int N> __device__ __forceinline__ void chol_solve_thread(const T (&l)[N][N], T (&x)[N]) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
        x[k] = over_real(x[k], real_of(l[k][k]));
#pragma unroll
        for (int i = k + 1; i < N; ++i) x[i] -= l[i][k] * x[k];
    }
#pragma unroll
    for (int k = N - 1; k >= 0; --k) {
        T s = x[k];
#pragma unroll
        for (int i = k + 1; i < N; ++i) s -= conj(l[i][k]) * x[i];
        x[k] = over_real(s, real_of(l[k][k]));
    }
}

// The lower form of inv(A) = inv(L)^H inv(L) from L, in place: the rows of X = inv(L) from the top (row m of X
// needs L's row m and X's rows above it), then entry (i, j) of X^H X = sum over k >= i of conj(X(k,i)) X(k,j),
// rows from the top and j upwards, so that no entry is overwritten before its last use. The diagonal is made real.
template <class T, int N> __device__ __forceinline__ void chol_inverse_thread(T (&l)[N][N]) {
    using R = real_t<T>;
#pragma unroll
    for (int m = 0; m < N; ++m) {
        const R dinv = R(1) / real_of(l[m][m]);
#pragma unroll
        for (int j = 0; j < m; ++j) {
            T s = T(R(0));
#pragma unroll
            for (int p = j; p < m; ++p) s += l[m][p] * l[p][j];
            l[m][j] = times_real(-s, dinv);
        }
        l[m][m] = T(dinv);
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
        for (int j = 0; j <= i; ++j) {
            T s = T(R(0));
#pragma unroll
            for (int k = i; k < N; ++k) s += conj(l[k][i]) * l[k][j];
            l[i][j] = i == j ? real_only(s) : s;
        }
}

// The right-hand sides of the thread's matrix solved with its factor, where `solving`; a strided B moves through
// the tile a column at a time, each matrix's column a contiguous run, and the columns of matrices in `skip` are
// not written.
template <class T, int N>
__device__ __forceinline__ void chol_solve_columns(const warp_span &w, batch_ref<T> B, int nrhs, unsigned skip,
                                                   T (*tile)[33], const T (&l)[N][N]) {
    const bool solving = w.mine() && !(skip >> w.lane & 1u);
    if (B.ptrs == nullptr) {
        for (int c = 0; c < nrhs; ++c) {
            T *col = B.base + w.first * B.stride + (long long)c * B.ld;
            for (int e = w.lane; e < w.count * N; e += 32) tile[e % N][e / N] = col[(e / N) * B.stride + e % N];
            __syncwarp();
            if (solving) {
                T x[N];
#pragma unroll
                for (int i = 0; i < N; ++i) x[i] = tile[i][w.lane];
                chol_solve_thread<T, N>(l, x);
#pragma unroll
                for (int i = 0; i < N; ++i) tile[i][w.lane] = x[i];
            }
            __syncwarp();
            for (int e = w.lane; e < w.count * N; e += 32)
                if (!(skip >> (e / N) & 1u)) col[(e / N) * B.stride + e % N] = tile[e % N][e / N];
            __syncwarp();
        }
    } else if (solving) {
        T *m = B[w.first + w.lane];
        for (int c = 0; c < nrhs; ++c) {
            T x[N];
#pragma unroll
            for (int i = 0; i < N; ++i) x[i] = m[i + (long long)c * B.ld];
            chol_solve_thread<T, N>(l, x);
#pragma unroll
            for (int i = 0; i < N; ++i) m[i + (long long)c * B.ld] = x[i];
        }
    }
}

// WithSolve: posv (the factor op with right-hand sides), compiled apart from potrf, whose registers it would raise.
template <class T, int N, int Warps, chol_op Op, bool WithSolve>
__global__ void __launch_bounds__(Warps * 32)
chol_thread_kernel(chol_launch<T> a, bool a_contiguous, bool c_contiguous) {
    __shared__ warp_tile<T, chol_tile_rows<N>()> tiles[Warps];
    const warp_span w = warp_span::of<Warps>((int)a.batch);
    if (w.count == 0) return;
    T(*tile)[33] = tiles[threadIdx.x >> 5].at;
    const long long b = w.first + w.lane;
    T l[N][N];
    load_lower_form<T, N>(w, a.A, a.upper, a_contiguous, tile, l);

    if constexpr (Op == chol_op::factor) {  // potrf; posv with nrhs > 0
        const int info = w.mine() ? chol_factor_thread<T, N>(l) : 0;
        if (w.mine()) a.info[b] = info;
        store_lower_form<T, N>(w, a.A, a.upper, false, a_contiguous, 0u, tile, l);
        if constexpr (WithSolve)
            chol_solve_columns<T, N>(w, a.B, a.nrhs, __ballot_sync(0xffffffffu, info != 0), tile, l);
    } else if constexpr (Op == chol_op::solve) {  // potrs; posv's solve (info given: the failed matrices skipped)
        const bool failed = w.mine() && a.info != nullptr && a.info[b] != 0;
        chol_solve_columns<T, N>(w, a.B, a.nrhs, __ballot_sync(0xffffffffu, failed), tile, l);
    } else {  // potri (from the factor: xTRTRI's zero-diagonal info, then nothing written); poinv
        int info = 0;
        if (w.mine()) {
            if constexpr (Op == chol_op::inverse) {
#pragma unroll
                for (int k = N - 1; k >= 0; --k)
                    if (real_of(l[k][k]) == real_t<T>(0)) info = k + 1;
            } else {
                info = chol_factor_thread<T, N>(l);
            }
            if (info == 0) chol_inverse_thread<T, N>(l);
            a.info[b] = info;
        }
        const unsigned skip = __ballot_sync(0xffffffffu, info != 0);
        if constexpr (Op == chol_op::inverse) store_lower_form<T, N>(w, a.A, a.upper, false, a_contiguous, skip, tile, l);
        else store_lower_form<T, N>(w, a.B, false, true, c_contiguous, skip, tile, l);
    }
}

// Whether the thread kernel of order N serves routine r in T (only those are compiled).
template <class T, int N> constexpr bool chol_thread_compiled(routine r) {
    return family_exists(r, family::thread, scalar_traits<T>::letter, N) &&
           routed(r, scalar_traits<T>::letter, N, family::thread);
}

template <class T, int N, chol_op Op, bool WithSolve>
bool launch_chol_thread_op(const chol_launch<T> &a, cudaStream_t stream) {
    constexpr routine r = Op == chol_op::factor ? (WithSolve ? routine::posv : routine::potrf)
                          : Op == chol_op::solve ? routine::potrs
                          : Op == chol_op::inverse ? routine::potri
                                                   : routine::poinv;
    if constexpr (!chol_thread_compiled<T, N>(r)) {
        return false;
    } else {
        constexpr int Warps = thread_warps_per_block<T, chol_tile_rows<N>()>();
        auto contiguous = [&](const batch_ref<T> &m) {
            return m.ptrs == nullptr && m.ld == N && (a.batch <= 1 || m.stride == (long long)N * N);
        };
        chol_thread_kernel<T, N, Warps, Op, WithSolve>
            <<<thread_blocks_for<Warps>((int)a.batch), Warps * 32, 0, stream>>>(
                a, contiguous(a.A), Op == chol_op::full_inverse && contiguous(a.B));
        return true;
    }
}

template <class T, int N> bool launch_chol_thread_order(const chol_launch<T> &a, cudaStream_t stream) {
    switch (a.op) {
    case chol_op::factor:
        // posv with nrhs = 0 takes potrf's instance where there is one.
        if (a.nrhs == 0 && launch_chol_thread_op<T, N, chol_op::factor, false>(a, stream)) return true;
        return launch_chol_thread_op<T, N, chol_op::factor, true>(a, stream);
    case chol_op::solve: return launch_chol_thread_op<T, N, chol_op::solve, false>(a, stream);
    case chol_op::inverse: return launch_chol_thread_op<T, N, chol_op::inverse, false>(a, stream);
    case chol_op::full_inverse: return launch_chol_thread_op<T, N, chol_op::full_inverse, false>(a, stream);
    }
    return false;
}

template <class T, int N = 1> bool launch_chol_thread_from(const chol_launch<T> &a, cudaStream_t stream) {
    if constexpr (N <= chol_thread_max_order(scalar_traits<T>::letter)) {
        if (a.n == N) return launch_chol_thread_order<T, N>(a, stream);
        return launch_chol_thread_from<T, N + 1>(a, stream);
    } else {
        return false;
    }
}

template <class T> cudaError_t launch_chol_thread(const chol_launch<T> &a, cudaStream_t stream) {
    // No instance for this order and op (the table routes none there): the dispatch's "no kernel".
    if (!launch_chol_thread_from<T>(a, stream)) return cudaErrorInvalidValue;
    return cudaSuccess;  // a launch error is the dispatch's check_launch's to find
}

}  // namespace cuda_kernels
}  // namespace smallla
