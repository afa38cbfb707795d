// getrf of real types for 32 < n <= 64 by the lane-per-row design of the register kernels (lu_registers.cuh)
// with a matrix spread over two warps: declarations for the dispatch (lib/cuda/dispatch.cuh).
#pragma once

#include <cuda_runtime.h>

#include "backend.hpp"
#include "common/scalar.hpp"

namespace smallla {
namespace cuda_kernels {

// The largest order the two-warp getrf serves for T (a row per thread, 64 threads per matrix).
constexpr int two_warp_max_n_double_complex = 64;
template <class T> constexpr int two_warp_max_n() {
    return scalar_traits<T>::is_complex && sizeof(real_t<T>) == 8 ? two_warp_max_n_double_complex : 64;
}

// Whether the two-warp getrf serves getrf of order n for T: 32 < n <= two_warp_max_n<T>(), unless
// SMALLLA_CUDA_TWO_WARP=0 (two_warp_override).
template <class T> bool two_warp_getrf_serves(int n);

// Launches the two-warp getrf (with pivoting when a.ipiv.base is set) on the stream; orders are rounded up to a
// multiple of 4 and the matrix padded with the identity in registers (lu_two_warps.cu).
template <class T> void launch_getrf_two_warps(const getrf_args<T> &a, cudaStream_t stream);

// SMALLLA_CUDA_TWO_WARP from the environment: 0 turns the two-warp getrf off (n > 32 then takes the blocked
// path), -1 when unset (read once; for the benchmarks). Defined in backend.cpp.
int two_warp_override();

}  // namespace cuda_kernels
}  // namespace smallla
