// getri by columns: the inverse from the factors with one thread per column of inv(A), for orders 21-64 (where the
// routing table takes it: above the lane-per-row getri's reach in double complex, and ahead of the blocked getri
// and the one-block kernel at moderate orders); matinv there finishes in place with it (lib/cuda/blocked.cuh).
//
// A block holds one matrix's factors in shared memory. Thread j computes column j of
//   inv(A) = inv(U) inv(L) P^T   as   inv(U) (inv(L) e_s),   s = the column of P^T's j-th column,
// so xGETRI's column interchanges are folded into which unit vector a thread starts from, and no pass over C
// moves columns afterwards. Both triangular solves run in the thread's registers; the factors' entries are
// read from shared memory as broadcasts (every thread of a step reads the same column), 16 bytes at a time.
// The order is a template parameter N with every loop unrolled; a matrix of order n <= N is solved as the
// leading part of an order-N problem whose steps k >= n are skipped (a uniform branch) and whose padding rows
// are zero, so that a few instances serve every order (the padding costs (N / n)^2 of the flops).
// info: the first exactly zero U(k,k), 1-based; then C = the factors, as the host backend leaves it.
#pragma once

#include "device_common.cuh"
#include "getri_columns.hpp"

namespace smallla {
namespace cuda_kernels {

template <int N> constexpr int columns_warps() { return (N + 31) / 32; }
// Leading dimension of the factors in shared memory: a whole number of 16-byte chunks, plus one chunk so that
// the threads storing their columns (N apart) do not all fall in one bank.
template <class T, int N> constexpr int columns_ld() {
    constexpr int E = chunk16<T>::size;
    return (N + E - 1) / E * E + E;
}

// C's n x n block from S (column-major, leading dimension LD), coalesced: warp w of the block's Warps writes
// columns w, w + Warps, ...
template <class T, int LD, int Warps>
__device__ __forceinline__ void store_from_shared(int n, const T *S, T *c, long long ldc) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int k = warp; k < n; k += Warps)
        for (int i = lane; i < n; i += 32) c[i + k * ldc] = S[i + k * LD];
}

// inv(A) into C from the factors in S (order n <= N, zero outside n x n), the pivots piv (0-based) and
// dinv(k) = 1 / U(k,k) (none zero): thread j < n computes column j of inv(U) (inv(L) e_s) in registers, then S
// receives the inverse and C is written from it. It has barriers: every thread of the block calls it.
template <class T, int N, int LD, int Warps>
__device__ __forceinline__ void invert_by_columns_from_shared(int n, T *S, const int *piv, const T *dinv, T *c,
                                                              long long ldc) {
    using R = real_t<T>;
    const int tid = threadIdx.x;
    T x[N];
    if (tid < n) {
        // The column of P^T that this thread's column of inv(A) needs: xGETRI swaps columns j and ipiv(j) of
        // inv(U) inv(L) for j = n-2 down to 0; undoing those swaps in the opposite order from position tid
        // gives the column that ends up there.
        int s = tid;
        for (int j = 0; j < n - 1; ++j)
            if (valid_interchange(j, piv[j], n)) s = swap_position(s, j, piv[j]);
#pragma unroll
        for (int i = 0; i < N; ++i) x[i] = T(R(i == s ? 1 : 0));
        solve_unit_lower_in_shared<T, N, LD>(x, S, n);  // x = inv(L) x
        solve_upper_in_shared<T, N, LD>(x, S, dinv, n);  // x = inv(U) x
    }
    __syncthreads();  // every thread is done with the factors: S now receives the columns of inv(A)
    if (tid < n) {
#pragma unroll
        for (int i = 0; i < N; ++i)
            if (i < n) S[i + tid * LD] = x[i];
    }
    __syncthreads();
    store_from_shared<T, LD, Warps>(n, S, c, ldc);
}

template <class T, int N>
__global__ void __launch_bounds__(columns_warps<N>() * 32)
getri_columns(int n, batch_ref<const T> A, pivots_ref<const int> P, batch_ref<T> C, int *info) {
    constexpr int LD = columns_ld<T, N>();
    __shared__ __align__(16) unsigned char raw[N * LD * sizeof(T)];
    __shared__ T dinv[N];
    __shared__ int piv[N];
    __shared__ int first_zero;
    T *const S = reinterpret_cast<T *>(raw);  // S[i + k LD] = factor (i, k), zero outside n x n
    const long long b = blockIdx.x;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, warps = blockDim.x >> 5;
    using R = real_t<T>;

    const T *a = A[b];
    const long long lda = A.ld;
    if (tid == 0) first_zero = INT_MAX;
    for (int k = warp; k < N; k += warps)
        for (int i = lane; i < N; i += 32) S[i + k * LD] = (i < n && k < n) ? a[i + k * lda] : T(R(0));
    if (tid < n) piv[tid] = P.base ? P[b][tid] - 1 : tid;
    __syncthreads();
    if (tid < n) {
        const T d = S[tid + tid * LD];
        if (is_zero(d)) atomicMin(&first_zero, tid + 1);
        else dinv[tid] = T(R(1)) / d;
    }
    __syncthreads();
    T *c = C[b];
    if (first_zero != INT_MAX) {  // singular: C = the factors
        store_from_shared<T, LD, columns_warps<N>()>(n, S, c, C.ld);
        if (tid == 0) info[b] = first_zero;
        return;
    }
    invert_by_columns_from_shared<T, N, LD, columns_warps<N>()>(n, S, piv, dinv, c, C.ld);
    if (tid == 0) info[b] = 0;
}

// The instance for order a.n: the first N = 24, 28, ... with a.n <= N.
template <class T> constexpr bool columns_routed(int N) {
    for (int n = N - columns_step + 1; n <= N; ++n)
        if (routed(routine::getri, scalar_traits<T>::letter, n, family::columns) ||
            routed(routine::matinv, scalar_traits<T>::letter, n, family::columns))
            return true;
    return false;
}
template <class T, int N = columns_first_instance>
void launch_getri_columns_at_least(const getri_args<T> &a, cudaStream_t stream) {
    if constexpr (N <= columns_max_order(scalar_traits<T>::letter)) {
        if (a.n <= N) {
            if constexpr (columns_routed<T>(N))
                getri_columns<T, N><<<a.batch, columns_warps<N>() * 32, 0, stream>>>(
                    a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.C), a.info);
        } else {
            launch_getri_columns_at_least<T, N + columns_step>(a, stream);
        }
    }
}
template <class T> void launch_getri_columns(const getri_args<T> &a, cudaStream_t stream) {
    launch_getri_columns_at_least<T>(a, stream);
}
#define SMALLLA_GETRI_COLUMNS_LAUNCHER(T) template void launch_getri_columns<T>(const getri_args<T> &, cudaStream_t);

}  // namespace cuda_kernels
}  // namespace smallla
