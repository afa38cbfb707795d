// Small kernels over a batch that the routes share: copies between a batch and a packed workspace, and the
// bookkeeping of NULL entries of pointer arrays (a matrix whose entry is NULL is skipped: nothing of it is read
// or written, info[b] = -argno).
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
    if (info[b] == 0 || !A.present(b) || !C.present(b)) return;
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
    if (!A.present(b) || !B.present(b)) return;
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

// eff[b] = out[b] where matrix b is present in out and in, else NULL: the output of the routes whose stages read
// and write a matrix apart (blocked, by columns, vendor), so that no stage writes the output of a skipped matrix.
template <class O, class X>
__global__ void present_outputs(batch_ref<O> out, batch_ref<X> in, int batch, O **eff) {
    const long long b = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch) eff[b] = in.present(b) && out.present(b) ? out[b] : nullptr;
}

// ipiv of matrix b := the n pivots at from + b n, for the present matrices of A (cuSOLVER's pivots of a packed
// chunk, where a skipped matrix's are not to be written).
template <class T>
__global__ void pivots_where_present(int n, batch_ref<T> A, const int *from, int *ipiv, long long stride, int batch) {
    const long long b = blockIdx.x;
    if (b >= batch || !A.present(b)) return;
    for (int k = threadIdx.x; k < n; k += blockDim.x) ipiv[b * stride + k] = from[b * (long long)n + k];
}

}  // namespace cuda_kernels
}  // namespace smallla
