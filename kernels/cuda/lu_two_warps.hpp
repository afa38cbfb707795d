// getrf for 32 < n <= 64 by the lane-per-row design of the register kernels (lu_registers.cuh) with a matrix
// spread over two warps: the launcher, for the dispatch (lib/cuda/dispatch.cuh).
#pragma once

#include <cuda_runtime.h>

#include "common/args.hpp"
#include "routing/routes.hpp"

namespace smallla {
namespace cuda_kernels {

// Launches the two-warp getrf (with pivoting when a.ipiv.base is set) on the stream, for the orders where a
// routing table takes it (two_warps_min_order <= n <= two_warps_max_order); orders are rounded up to a multiple
// of 4 and the matrix padded with the identity in registers (lu_two_warps.cu).
template <class T> void launch_getrf_two_warps(const getrf_args<T> &a, cudaStream_t stream);

}  // namespace cuda_kernels
}  // namespace smallla
