// Declarations of getri by columns (getri_columns.cuh): which orders it has an instance for, and its launcher,
// for the CUDA dispatch. The instances are compiled once per precision in getri_columns_*.cu.
#pragma once

#include <cuda_runtime.h>

#include "backend.hpp"
#include "common/scalar.hpp"

namespace smallla {
namespace cuda_kernels {

// Instances: N = 24, 28, ..., columns_max_order<T>(); order n runs on the smallest N >= n (at most
// (N / n)^2 of the flops wasted on padding). Double complex stops at 48: its thread holds a column of N
// complex doubles (4N registers) and at N = 52 ptxas spills (nvcc 13.0, sm_90: 255 registers, 16 bytes
// spilled; 251 at N = 48 without spills).
constexpr int columns_step = 4;
constexpr int columns_first_instance = 24;
constexpr int columns_min_order = columns_first_instance - columns_step + 1;  // 21: the first instance's lowest
template <class T> constexpr int columns_max_order() { return sizeof(T) == 16 ? 48 : 64; }
// Where the dispatch takes getri by columns (H100, fifth round in perf/NOTES.md): complex types from 27, where
// it ran 1.2-2.2x faster than the lane-per-row getri (0.66-1.0x at 21-26); real types only beyond 32
// (0.44-1.07x of the lane-per-row getri at 21-32). Up to the last instance, except double complex: from 46 on
// its 251 registers leave it no faster than the blocked getri (0.96-1.05x cuBLAS at 46-48, the blocked one
// 1.01-1.13x).
template <class T> constexpr int columns_from_default() { return scalar_traits<T>::is_complex ? 27 : 33; }
template <class T> constexpr int columns_serve_max() { return sizeof(T) == 16 ? 45 : columns_max_order<T>(); }

// inv(A) from the factors into C for columns_min_order <= a.n <= columns_max_order<T>(); one block per matrix.
template <class T> void launch_getri_columns(const getri_args<T> &a, cudaStream_t stream);

// SMALLLA_CUDA_GETRI_COLUMNS_FROM from the environment (read once; a knob for the benchmarks' crossover
// measurements): 0 when unset; k > 0 makes getri by columns serve every order from k to its largest instance
// (k <= columns_min_order: from there), -1 ("off") never. Defined in backend.cpp.
int getri_columns_from_override();

}  // namespace cuda_kernels
}  // namespace smallla
