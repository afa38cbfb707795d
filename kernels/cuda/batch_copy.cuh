// Small kernels over a batch that the routes share: copies between a batch and a packed workspace, and the
// bookkeeping of NULL entries of pointer arrays (a matrix whose entry is NULL is skipped: info[b] = -argno;
// lib/cuda/dispatch.cuh).
#pragma once

#include "device_common.cuh"

namespace smallla {
namespace cuda_kernels {

constexpr int copy_threads = 256;

// C := A for the matrices whose info is nonzero (a singular U: C receives the factors).
template <class T>
__global__ void __launch_bounds__(copy_threads)
factors_where_singular(int n, batch_ref<const T> A, batch_ref<T> C, const int *info) {
    const long long b = blockIdx.x;
    if (info[b] == 0) return;
    const T *a = A[b];
    T *c = C[b];
    for (int j = threadIdx.x / 32; j < n; j += blockDim.x / 32)
        for (int i = threadIdx.x % 32; i < n; i += 32) c[i + (long long)j * C.ld] = a[i + (long long)j * A.ld];
}

// B := A for a rows x cols block of every matrix (the right-hand sides of a pointer-array getrs, to and from the
// packed workspace).
template <class T>
__global__ void __launch_bounds__(copy_threads)
copy_block(int rows, int cols, batch_ref<const T> A, batch_ref<T> B) {
    const long long b = blockIdx.x;
    const T *a = A[b];
    T *c = B[b];
    for (int j = threadIdx.x / 32; j < cols; j += blockDim.x / 32)
        for (int i = threadIdx.x % 32; i < rows; i += 32) c[i + (long long)j * B.ld] = a[i + (long long)j * A.ld];
}

// info[b] = -argno for the matrices whose entry in a pointer array (x, or else y) is NULL: queued after a routine's
// kernels, which skip those matrices (or, through cuBLAS and cuSOLVER, work on a stand-in).
template <class X, class Y>
__global__ void mark_missing(batch_ref<X> x, int x_argno, batch_ref<Y> y, int y_argno, int *info, int batch) {
    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    if (!x.present(b)) info[b] = -x_argno;
    else if (!y.present(b)) info[b] = -y_argno;
}

// x_eff[b] = x[b] and y_eff[b] = y[b] where both are there, else both the stand-in: the arrays the kernels work on
// in a call with a NULL entry (lib/cuda/dispatch.cuh), so that no kernel meets a NULL.
template <class X, class Y, class T>
__global__ void stand_in_for_missing(batch_ref<X> x, batch_ref<Y> y, int batch, T *stand_in, X **x_eff, Y **y_eff) {
    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    const bool here = x.present(b) && y.present(b);
    x_eff[b] = here ? x[b] : stand_in;
    y_eff[b] = here ? y[b] : stand_in;
}

}  // namespace cuda_kernels
}  // namespace smallla
