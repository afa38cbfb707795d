// Scalar helpers of the Cholesky family's CUDA kernels (chol.cuh, chol_thread.cuh).
#pragma once

#include "device_common.cuh"

namespace smallla {
namespace cuda_kernels {

template <class R> __device__ __forceinline__ R real_of(R x) { return x; }
template <class R> __device__ __forceinline__ R real_of(complex<R> x) { return x.re; }
template <class R> __device__ __forceinline__ R times_real(R x, R r) { return x * r; }
template <class R> __device__ __forceinline__ complex<R> times_real(complex<R> x, R r) { return {x.re * r, x.im * r}; }
template <class R> __device__ __forceinline__ R over_real(R x, R d) { return x / d; }
template <class R> __device__ __forceinline__ complex<R> over_real(complex<R> x, R d) { return {x.re / d, x.im / d}; }
template <class T> __device__ __forceinline__ T real_only(T x) { return T(real_of(x)); }

// Element (i, j), i >= j, of the lower form of a matrix stored with leading dimension ld (upper: the conjugate of
// the stored (j, i)).
template <class T> __device__ __forceinline__ T lower_form_at(const T *m, long long ld, bool upper, int i, int j) {
    return upper ? conj(m[j + (long long)i * ld]) : m[i + (long long)j * ld];
}

}  // namespace cuda_kernels
}  // namespace smallla
