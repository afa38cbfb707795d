// Thread-per-matrix kernels for the smallest orders: getrf, matinv, getri and getrs with one whole matrix in one
// thread's registers. Below n = 8 the lane-per-row kernels (lu_registers.cuh) are bound by instruction issue,
// not by memory (ncu, s n = 2: 98% occupancy, 15% of DRAM bandwidth): every step of a few-byte matrix pays
// for cross-lane reductions, a shared-memory broadcast and per-lane addressing. Here a thread does the whole
// factorization alone, with no cross-lane traffic at all, and a warp moves its 32 matrices between global
// memory and registers through a per-warp shared-memory tile, so that every global access is coalesced.
//
// Rows are swapped for real (LAPACK's order, not the lazy swap): the pivot row's index is a run-time value,
// so a swap is a predicated exchange with each candidate row, which keeps every register array indexed by
// compile-time constants (no local memory). At these orders that costs a few dozen selects per matrix.
// Arithmetic is getf2's, as in the lane-per-row kernels: the pivot is LAPACK's first maximum of |Re| + |Im|
// (a NaN at the diagonal position wins, elsewhere never), multipliers through pivot_scaler.
#pragma once

#include "device_common.cuh"
#include "lu_registers.hpp"
#include "thread_tile.cuh"

namespace smallla {
namespace cuda_kernels {

// LAPACK's choice (common/pivot.hpp) on column k, rows k..N-1.
template <class T, int N> __device__ __forceinline__ int pivot_row(const T (&a)[N][N], int k) {
    real_t<T> best = abs1(a[k][k]);
    int p = k;
#pragma unroll
    for (int i = k + 1; i < N; ++i) take_if_larger(abs1(a[i][k]), i, best, p);
    return p;
}

// x and y exchanged when s, by predicated moves (no branch, no run-time register index).
template <class V> __device__ __forceinline__ void exchange_if(bool s, V &x, V &y) {
    const V t = x;
    x = s ? y : t;
    y = s ? t : y;
}
// Entries k and p (p >= k, a run-time value) of x exchanged.
template <class V, int N> __device__ __forceinline__ void exchange_entries(V (&x)[N], int k, int p) {
#pragma unroll
    for (int i = k + 1; i < N; ++i) exchange_if(p == i, x[k], x[i]);
}
// Rows k and p (p >= k, a run-time value) exchanged.
template <class T, int N, int C> __device__ __forceinline__ void swap_rows(T (&a)[N][C], int k, int p) {
#pragma unroll
    for (int i = k + 1; i < N; ++i)
#pragma unroll
        for (int j = 0; j < C; ++j) exchange_if(p == i, a[k][j], a[i][j]);
}

// ---- getrf ---------------------------------------------------------------------------------------------------
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
getrf_thread_per_matrix(batch_ref<T> A, pivots_ref<int> P, int *info, int batch, bool contiguous) {
    __shared__ warp_tile<T, N * N> tiles[Warps];
    const warp_span w = warp_span::of<Warps>(batch);
    if (w.count == 0) return;
    T(*tile)[33] = tiles[threadIdx.x >> 5].at;
    T a[N][N];
    load_block<T, N, N>(w, A, contiguous, tile, a);
    if (w.mine()) {
        const bool pivoting = P.base != nullptr;
        int piv[N];
        int inf = 0;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            int p = k;
            if (pivoting) {
                p = pivot_row<T, N>(a, k);
                swap_rows<T, N, N>(a, k, p);
            }
            piv[k] = p;
            const pivot_scaler<T> s(a[k][k]);
            if (s.zero && inf == 0) inf = k + 1;
#pragma unroll
            for (int i = k + 1; i < N; ++i) {
                const T l = s.multiplier(a[i][k]);
                a[i][k] = l;
#pragma unroll
                for (int j = k + 1; j < N; ++j)  // the operators: minus_product ran slower here at complex n = 8
                    a[i][j] -= l * a[k][j];
            }
        }
        const long long b = w.first + w.lane;
        if (pivoting) {
            int *pv = P[b];
#pragma unroll
            for (int k = 0; k < N; ++k) pv[k] = piv[k] + 1;
        }
        info[b] = inf;
    }
    // A 1 x 1 matrix is its own LU factorization (getf2 swaps it with itself and scales no rows): it is not
    // written back: the pivot and info are the only stores (z n = 1: 24 bytes moved per matrix instead of 40).
    if constexpr (N > 1) store_block<T, N, N>(w, A, contiguous, tile, a, identity_columns{});
}

// ---- matinv: Gauss-Jordan in one thread ---------------------------------------------------------------------
// The sweep of matinv_group (lu_registers.cuh) with real row swaps: after step k, row k is the pivot row of
// step k and stays there; its original row index r_k names the column of inv(A) that column k of the swept
// array belongs to, so the store writes column j to column r_j. The rows not yet pivoted see getrf's
// arithmetic, so pivots and info are getrf's.
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
matinv_thread_per_matrix(batch_ref<const T> A, batch_ref<T> C, int *info, int batch, bool a_contiguous,
                         bool c_contiguous) {
    __shared__ warp_tile<T, N * N> tiles[Warps];
    const warp_span w = warp_span::of<Warps>(batch);
    if (w.count == 0) return;
    T(*tile)[33] = tiles[threadIdx.x >> 5].at;
    T a[N][N];
    load_block<T, N, N>(w, A, a_contiguous, tile, a);
    int orig[N];  // orig[i]: the original index of the row now at i
#pragma unroll
    for (int i = 0; i < N; ++i) orig[i] = i;
    if (w.mine()) {
        int inf = 0;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            const int p = pivot_row<T, N>(a, k);
            swap_rows<T, N, N>(a, k, p);
            exchange_entries(orig, k, p);
            const pivot_scaler<T> sc(a[k][k]);  // a zero pivot gives Inf/NaN here, never a trap
            if (sc.zero && inf == 0) inf = k + 1;
#pragma unroll
            for (int i = 0; i < N; ++i) {
                if (i == k) continue;
                const T l = sc.divide(a[i][k]);
#pragma unroll
                for (int j = 0; j < N; ++j)  // by FMAs: faster than the operators at complex n = 6-8
                    if (j != k) a[i][j] = minus_product(a[i][j], l, a[k][j]);
                a[i][k] = l;
            }
#pragma unroll
            for (int j = 0; j < N; ++j)
                if (j != k) a[k][j] = -sc.divide(a[k][j]);
            a[k][k] = sc.divide(T(real_t<T>(1)));
        }
        info[w.first + w.lane] = inf;
    }
    store_block<T, N, N>(w, C, c_contiguous, tile, a, [&](int j) { return orig[j]; });
}

// ---- getri: inverse from the factors -------------------------------------------------------------------------
// The arithmetic of getri_small_registers (lu_registers.cuh) in one thread: inv(U) row by row from the bottom,
// then inv(A) L = inv(U) column by column from the right, then xGETRI's column interchanges, applied as the
// final place of each column on the store. A zero on U's diagonal leaves C = the factors and info = its index
// (xTRTRI's check, as the host backend does).
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
getri_thread_per_matrix(batch_ref<const T> A, pivots_ref<const int> P, batch_ref<T> C, int *info, int batch,
                        bool a_contiguous, bool c_contiguous) {
    __shared__ warp_tile<T, N * N> tiles[Warps];
    const warp_span w = warp_span::of<Warps>(batch);
    if (w.count == 0) return;
    T(*tile)[33] = tiles[threadIdx.x >> 5].at;
    T a[N][N];
    load_block<T, N, N>(w, A, a_contiguous, tile, a);
    int dest[N];  // where column j of inv(A) (before the interchanges) ends up
#pragma unroll
    for (int j = 0; j < N; ++j) dest[j] = j;
    if (w.mine()) {
        const long long b = w.first + w.lane;
        int inf = 0;
#pragma unroll
        for (int k = N - 1; k >= 0; --k)
            if (is_zero(a[k][k])) inf = k + 1;
        if (inf == 0) {
#pragma unroll
            for (int s = N - 1; s >= 0; --s) {  // row s of inv(U), then its contribution to the rows above
                const T r = T(real_t<T>(1)) / a[s][s];
                a[s][s] = r;
#pragma unroll
                for (int j = s + 1; j < N; ++j) a[s][j] = a[s][j] * (-r);
#pragma unroll
                for (int i = 0; i < s; ++i) {
                    const T u = a[i][s];
                    a[i][s] = u * r;
#pragma unroll
                    for (int j = s + 1; j < N; ++j) a[i][j] += u * a[s][j];
                }
            }
#pragma unroll
            for (int s = N - 2; s >= 0; --s) {  // column s of inv(A) = column s of inv(U) - inv(A)(:, s+1:) L(s+1:, s)
                T l[N];
#pragma unroll
                for (int j = s + 1; j < N; ++j) l[j] = a[j][s];
#pragma unroll
                for (int i = 0; i < N; ++i) {
                    T x = i <= s ? a[i][s] : T(real_t<T>(0));
#pragma unroll
                    for (int j = s + 1; j < N; ++j) x -= a[i][j] * l[j];
                    a[i][s] = x;
                }
            }
            if (P.base != nullptr) {  // column interchanges in reverse order, as final places of the columns
                const int *pv = P[b];
#pragma unroll
                for (int j = N - 2; j >= 0; --j) {
                    const int p = pv[j] - 1;
                    if (valid_interchange(j, p, N)) {
#pragma unroll
                        for (int c = 0; c < N; ++c) dest[c] = swap_position(dest[c], j, p);
                    }
                }
            }
        }
        info[b] = inf;
    }
    store_block<T, N, N>(w, C, c_contiguous, tile, a, [&](int j) { return dest[j]; });
}

// ---- getrs ---------------------------------------------------------------------------------------------------
// op N: x = P b, L y = x, U x = y; op T/C: U^T y = b, L^T z = y, x = P^T z (conjugated for C). One right-hand
// side at a time; B goes through the tile when it is contiguous and one matrix's B fits the tile's N x N.
template <class T, int N, int Warps>
__global__ void __launch_bounds__(Warps * 32)
getrs_thread_per_matrix(smallla_operation_t trans, int nrhs, batch_ref<const T> A, pivots_ref<const int> P,
                        batch_ref<T> B, int batch, bool a_contiguous, bool b_contiguous) {
    __shared__ warp_tile<T, N * N> tiles[Warps];
    const warp_span w = warp_span::of<Warps>(batch);
    if (w.count == 0) return;
    T(*tile)[33] = tiles[threadIdx.x >> 5].at;
    T a[N][N];
    load_block<T, N, N>(w, A, a_contiguous, tile, a);
    const bool notrans = trans == SMALLLA_OP_N, conjugate = trans == SMALLLA_OP_C;
    int piv[N];
    const long long b = w.first + w.lane;
#pragma unroll
    for (int k = 0; k < N; ++k) piv[k] = k;
    if (w.mine() && P.base != nullptr) {
        const int *pv = P[b];
#pragma unroll
        for (int k = 0; k < N; ++k) piv[k] = pv[k] - 1;
    }
    // The diagonal of U, scaled once (x / U(k,k) without a division per right-hand side).
    pivot_scaler<T> diag[N];
#pragma unroll
    for (int k = 0; k < N; ++k) diag[k] = pivot_scaler<T>(maybe_conj(a[k][k], conjugate));

    auto solve = [&](T(&x)[N]) {
        if (notrans) {
#pragma unroll
            for (int k = 0; k < N; ++k) exchange_entries(x, k, piv[k]);  // x = P b, LAPACK's forward order
#pragma unroll
            for (int j = 0; j < N; ++j)
#pragma unroll
                for (int i = j + 1; i < N; ++i) x[i] -= a[i][j] * x[j];
#pragma unroll
            for (int j = N - 1; j >= 0; --j) {
                x[j] = diag[j].divide(x[j]);
#pragma unroll
                for (int i = 0; i < j; ++i) x[i] -= a[i][j] * x[j];
            }
        } else {
#pragma unroll
            for (int j = 0; j < N; ++j) {  // U^T: row j of U^T is column j of U
                x[j] = diag[j].divide(x[j]);
#pragma unroll
                for (int i = j + 1; i < N; ++i) x[i] -= maybe_conj(a[j][i], conjugate) * x[j];
            }
#pragma unroll
            for (int j = N - 1; j >= 0; --j)
#pragma unroll
                for (int i = 0; i < j; ++i) x[i] -= maybe_conj(a[j][i], conjugate) * x[j];
#pragma unroll
            for (int k = N - 1; k >= 0; --k) exchange_entries(x, k, piv[k]);  // x = P^T z, reverse order
        }
    };

    if (b_contiguous && nrhs <= N) {
        // The warp's right-hand sides through the tile: N x nrhs per matrix, as an N x nrhs block.
        const int per = N * nrhs;
        const T *src = B.base + w.first * per;
        for (int e = w.lane; e < w.count * per; e += 32) tile[e % per][e / per] = src[e];
        __syncwarp();
        if (w.mine()) {
            for (int r = 0; r < nrhs; ++r) {
                T x[N];
#pragma unroll
                for (int i = 0; i < N; ++i) x[i] = tile[i + r * N][w.lane];
                solve(x);
#pragma unroll
                for (int i = 0; i < N; ++i) tile[i + r * N][w.lane] = x[i];
            }
        }
        __syncwarp();
        T *dst = B.base + w.first * per;
        for (int e = w.lane; e < w.count * per; e += 32) dst[e] = tile[e % per][e / per];
    } else if (w.mine()) {
        T *m = B[b];
        for (int r = 0; r < nrhs; ++r) {
            T x[N];
#pragma unroll
            for (int i = 0; i < N; ++i) x[i] = m[i + (long long)r * B.ld];
            solve(x);
#pragma unroll
            for (int i = 0; i < N; ++i) m[i + (long long)r * B.ld] = x[i];
        }
    }
}

}  // namespace cuda_kernels
}  // namespace smallla
