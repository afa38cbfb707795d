// Declarations of getri by columns (getri_columns.cuh) for the CUDA dispatch. The instances are compiled once per
// precision in getri_columns_*.cu.
#pragma once

#include <cuda_runtime.h>

#include "common/args.hpp"
#include "routing/routes.hpp"

namespace smallla {
namespace cuda_kernels {

// Instances: N = 24, 28, ..., up to columns_max_order (routes.hpp: double complex stops at 48, where a thread's
// column of 4N registers still fits); order n runs on the smallest N >= n (at most (N / n)^2 of the flops wasted
// on padding). An instance is compiled where a routing table takes getri or matinv by columns to it.
constexpr int columns_first_instance = columns_min_order + columns_step - 1;

// inv(A) from the factors into C for columns_min_order <= a.n <= columns_max_order; one block per matrix.
template <class T> void launch_getri_columns(const getri_args<T> &a, cudaStream_t stream);

}  // namespace cuda_kernels
}  // namespace smallla
