// Kernels of the LU family for any order (the CUDA path for n > 32): one thread block per matrix. The matrix
// is copied to shared memory when it fits (work_in_shared) and factored or inverted there; otherwise the
// same code runs in place in global memory. The arithmetic follows LAPACK's unblocked algorithms (getf2,
// trti2 + getri, getrs) with explicit row interchanges, so pivots and info agree with LAPACK.
#pragma once

#include "device_common.cuh"

namespace smallla {
namespace cuda_kernels {

constexpr int general_threads = 256;

// Copies an n x n matrix (leading dimensions lds, ldd) with all threads of the block.
template <class T, class S>
__device__ void block_copy(int n, T *dst, long long ldd, const S *src, long long lds) {
    for (int j = threadIdx.x / 32; j < n; j += blockDim.x / 32)
        for (int i = threadIdx.x % 32; i < n; i += 32) dst[i + j * ldd] = src[i + j * lds];
}

// LAPACK's choice (common/pivot.hpp) over a(k:n-1) by the 32 lanes of one warp: each lane's running search over its
// rows, then the lanes' (key, position) pairs reduced. Returns the row index in every lane.
template <class T> __device__ int warp_iamax(const T *col, int k, int n) {
    unsigned long long key = 0ull;
    int where = INT_MAX;
    for (int r = k + (int)(threadIdx.x % 32); r < n; r += 32) {
        const unsigned long long kr = pivot_key(abs1(col[r]), true, r == k);
        if (pivot_better(kr, r, key, where)) key = kr, where = r;
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const unsigned long long ok = __shfl_xor_sync(0xffffffffu, key, off);
        const int ow = __shfl_xor_sync(0xffffffffu, where, off);
        if (pivot_better(ok, ow, key, where)) key = ok, where = ow;
    }
    return where;
}

// getf2 on an n x n matrix at a (leading dimension ld) by the whole block; piv (shared) receives the 0-based
// pivot rows, or nullptr for no pivoting. Returns info (the first zero pivot, 1-based) in every thread.
template <class T> __device__ int block_getf2(int n, T *a, long long ld, int *piv, int *shared_p) {
    int info = 0;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = blockDim.x / 32;
    for (int k = 0; k < n; ++k) {
        if (warp == 0) {
            const int p = piv ? warp_iamax(a + k * ld, k, n) : k;
            if (lane == 0) {
                *shared_p = p;
                if (piv) piv[k] = p;
            }
        }
        __syncthreads();
        const int p = *shared_p;
        const pivot_scaler<T> s(a[p + k * ld]);
        __syncthreads();  // every thread has read the pivot before the interchange moves it
        if (s.zero) {
            if (info == 0) info = k + 1;
        } else if (p != k) {
            for (int j = tid; j < n; j += blockDim.x) {
                const T t = a[k + j * ld];
                a[k + j * ld] = a[p + j * ld];
                a[p + j * ld] = t;
            }
        }
        __syncthreads();
        for (int i = k + 1 + tid; i < n; i += blockDim.x) a[i + k * ld] = s.multiplier(a[i + k * ld]);
        __syncthreads();
        for (int j = k + 1 + warp; j < n; j += warps) {
            const T u = a[k + j * ld];
            for (int i = k + 1 + lane; i < n; i += 32) a[i + j * ld] -= a[i + k * ld] * u;
        }
        __syncthreads();
    }
    return info;
}

// inv(A) from the factors at a, in place (xTRTI2 on U, then xGETRI's solve inv(A) L = inv(U) and the
// column interchanges). work holds n scalars; piv holds 0-based pivots or is nullptr. U is nonsingular.
template <class T> __device__ void block_getri(int n, T *a, long long ld, const int *piv, T *work) {
    const int tid = threadIdx.x;
    using R = real_t<T>;
    // inv(U), column by column: column j = -inv(U(j,j)) * inv(U(0:j,0:j)) * U(0:j, j).
    for (int j = 0; j < n; ++j) {
        T *aj = a + j * ld;
        for (int i = tid; i < j; i += blockDim.x) {  // x = triu(inv(U)(0:j,0:j)) * aj(0:j)
            T x = T(R(0));
            for (int m = i; m < j; ++m) x += a[i + m * ld] * aj[m];
            work[i] = x;
        }
        __syncthreads();
        const T ajj = T(R(1)) / aj[j];
        for (int i = tid; i < j; i += blockDim.x) aj[i] = work[i] * (-ajj);
        __syncthreads();
        if (tid == 0) aj[j] = ajj;
        __syncthreads();
    }
    // inv(A) L = inv(U), from the last column to the first.
    for (int j = n - 2; j >= 0; --j) {
        T *aj = a + j * ld;
        for (int i = j + 1 + tid; i < n; i += blockDim.x) {
            work[i] = aj[i];
            aj[i] = T(R(0));
        }
        __syncthreads();
        for (int i = tid; i < n; i += blockDim.x) {
            T x = aj[i];
            for (int m = j + 1; m < n; ++m) x -= a[i + m * ld] * work[m];
            aj[i] = x;
        }
        __syncthreads();
    }
    // Column interchanges in reverse order; each thread owns whole rows, so no barrier is needed.
    if (piv != nullptr) {
        for (int i = tid; i < n; i += blockDim.x)
            for (int j = n - 2; j >= 0; --j) {
                const int p = piv[j];
                if (p != j && p >= 0 && p < n) {
                    const T t = a[i + j * ld];
                    a[i + j * ld] = a[i + p * ld];
                    a[i + p * ld] = t;
                }
            }
    }
    __syncthreads();
}

// Dynamic shared memory: [matrix if in shared | work n | pivots n | one int]
template <class T> inline size_t general_shared_bytes(int n, bool matrix_in_shared) {
    size_t bytes = (size_t)n * sizeof(T) + (size_t)n * sizeof(int) + 16;
    if (matrix_in_shared) bytes += (size_t)n * n * sizeof(T);
    return bytes;
}
template <class T> struct general_shared {
    T *matrix, *work;
    int *piv, *p;
    __device__ general_shared(int n, bool matrix_in_shared) {
        extern __shared__ __align__(16) unsigned char raw[];
        T *base = reinterpret_cast<T *>(raw);
        matrix = matrix_in_shared ? base : nullptr;
        work = base + (matrix_in_shared ? (long long)n * n : 0);
        piv = reinterpret_cast<int *>(work + n);
        p = piv + n;
    }
};

template <class T>
__global__ void __launch_bounds__(general_threads)
getrf_general(int n, batch_ref<T> A, pivots_ref<int> P, int *info, bool in_shared) {
    const long long b = blockIdx.x;
    general_shared<T> sh(n, in_shared);
    T *m = A[b];
    T *a = in_shared ? sh.matrix : m;
    const long long ld = in_shared ? n : A.ld;
    if (in_shared) block_copy(n, a, ld, m, A.ld);
    __syncthreads();
    const int inf = block_getf2(n, a, ld, P.base ? sh.piv : nullptr, sh.p);
    if (in_shared) block_copy(n, m, A.ld, a, ld);
    if (P.base)
        for (int i = threadIdx.x; i < n; i += blockDim.x) P[b][i] = sh.piv[i] + 1;
    if (threadIdx.x == 0) info[b] = inf;
}

template <class T>
__global__ void __launch_bounds__(general_threads)
getri_general(int n, batch_ref<const T> A, pivots_ref<const int> P, batch_ref<T> C, int *info, bool in_shared) {
    const long long b = blockIdx.x;
    general_shared<T> sh(n, in_shared);
    T *c = C[b];
    T *a = in_shared ? sh.matrix : c;
    const long long ld = in_shared ? n : C.ld;
    block_copy(n, a, ld, A[b], A.ld);
    for (int i = threadIdx.x; i < n; i += blockDim.x) sh.piv[i] = P.base ? P[b][i] - 1 : i;
    if (threadIdx.x == 0) *sh.p = INT_MAX;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (is_zero(a[i + i * ld])) atomicMin(sh.p, i + 1);
    __syncthreads();
    const int inf = *sh.p == INT_MAX ? 0 : *sh.p;
    if (inf == 0) block_getri(n, a, ld, P.base ? sh.piv : nullptr, sh.work);
    if (in_shared) block_copy(n, c, C.ld, a, ld);  // singular: C = the factors, as the host backend
    if (threadIdx.x == 0) info[b] = inf;
}

template <class T>
__global__ void __launch_bounds__(general_threads)
matinv_general(int n, batch_ref<const T> A, batch_ref<T> C, int *info, bool in_shared) {
    const long long b = blockIdx.x;
    general_shared<T> sh(n, in_shared);
    T *c = C[b];
    const T *m = A[b];
    T *a = in_shared ? sh.matrix : c;
    const long long ld = in_shared ? n : C.ld;
    if (in_shared || static_cast<const void *>(m) != static_cast<const void *>(c)) block_copy(n, a, ld, m, A.ld);
    __syncthreads();
    const int inf = block_getf2(n, a, ld, sh.piv, sh.p);
    if (inf == 0) block_getri(n, a, ld, sh.piv, sh.work);
    __syncthreads();
    if (in_shared) block_copy(n, c, C.ld, a, ld);  // singular: C = the factors, as the host backend
    if (threadIdx.x == 0) info[b] = inf;
}

// getrs: one warp per (matrix, right-hand side). The right-hand side is staged in shared memory (n scalars
// per warp), the factors are read from global memory one column at a time (coalesced across the lanes).
template <class T>
__global__ void __launch_bounds__(128)
getrs_general(smallla_operation_t trans, int n, int nrhs, batch_ref<const T> A, pivots_ref<const int> P,
              batch_ref<T> B, long long jobs) {
    using R = real_t<T>;
    extern __shared__ __align__(16) unsigned char raw[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long job = (long long)blockIdx.x * (blockDim.x / 32) + warp;
    if (job >= jobs) return;
    const long long b = job / nrhs;
    const int r = (int)(job % nrhs);
    T *x = reinterpret_cast<T *>(raw) + (long long)warp * n;
    const T *a = A[b];
    const long long lda = A.ld;
    const int *piv = P.base ? P[b] : nullptr;
    T *bcol = B[b] + (long long)r * B.ld;
    for (int i = lane; i < n; i += 32) x[i] = bcol[i];
    __syncwarp();
    auto swaps = [&](bool forward) {
        if (lane == 0 && piv)
            for (int s = 0; s < n; ++s) {
                const int k = forward ? s : n - 1 - s, p = piv[k] - 1;
                if (p != k && p >= 0 && p < n) {
                    const T t = x[k];
                    x[k] = x[p];
                    x[p] = t;
                }
            }
        __syncwarp();
    };
    if (trans == SMALLLA_OP_N) {
        swaps(true);
        for (int j = 0; j < n; ++j) {  // L y = P b
            const T xj = x[j];
            for (int i = j + 1 + lane; i < n; i += 32) x[i] -= a[i + j * lda] * xj;
            __syncwarp();
        }
        for (int j = n - 1; j >= 0; --j) {  // U x = y
            if (lane == 0) x[j] = x[j] / a[j + j * lda];
            __syncwarp();
            const T xj = x[j];
            for (int i = lane; i < j; i += 32) x[i] -= a[i + j * lda] * xj;
            __syncwarp();
        }
    } else {
        const bool c = trans == SMALLLA_OP_C;
        for (int j = 0; j < n; ++j) {  // op(U) y = b
            T s = T(R(0));
            for (int i = lane; i < j; i += 32) s += maybe_conj(a[i + j * lda], c) * x[i];
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                T o;
                if constexpr (scalar_traits<T>::is_complex) {
                    o = T(__shfl_xor_sync(0xffffffffu, s.re, off), __shfl_xor_sync(0xffffffffu, s.im, off));
                } else {
                    o = __shfl_xor_sync(0xffffffffu, s, off);
                }
                s += o;
            }
            if (lane == 0) x[j] = (x[j] - s) / maybe_conj(a[j + j * lda], c);
            __syncwarp();
        }
        for (int j = n - 1; j >= 0; --j) {  // op(L) z = y
            T s = T(R(0));
            for (int i = j + 1 + lane; i < n; i += 32) s += maybe_conj(a[i + j * lda], c) * x[i];
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                T o;
                if constexpr (scalar_traits<T>::is_complex) {
                    o = T(__shfl_xor_sync(0xffffffffu, s.re, off), __shfl_xor_sync(0xffffffffu, s.im, off));
                } else {
                    o = __shfl_xor_sync(0xffffffffu, s, off);
                }
                s += o;
            }
            if (lane == 0) x[j] = x[j] - s;
            __syncwarp();
        }
        swaps(false);
    }
    for (int i = lane; i < n; i += 32) bcol[i] = x[i];
}

}  // namespace cuda_kernels
}  // namespace smallla
