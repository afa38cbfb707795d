// getrf for 32 < n <= 64 by the lane-per-row design of the register kernels (lu_registers.cuh) with a matrix
// spread over two warps: declarations for the dispatch (lib/cuda/dispatch.cuh).
#pragma once

#include <cuda_runtime.h>

#include "backend.hpp"
#include "common/scalar.hpp"

namespace smallla {
namespace cuda_kernels {

// The largest order the two-warp getrf serves for T, with or without pivoting (a row per thread, 64 threads per
// matrix), where it measured faster than the blocked path on the H100 (perf/NOTES.md, sixteenth and seventeenth
// rounds): real types 64, double without pivoting 60; single complex 64 with pivoting (1.10-2.8x), 44 without;
// double complex 36 (1.00-1.22x; from N = 40 on 210-255 registers leave two warps per sub-partition, 0.5-0.9x,
// and N = 56-64 spill). Without pivoting the blocked path's panel compiles its search out and is faster from
// single complex 45 (1.34-1.47x) and double 61 (1.09-1.22x; N = 64 takes 168 registers) on (run 87).
template <class T> constexpr int two_warp_max_n(bool pivoting) {
    if (!scalar_traits<T>::is_complex) return pivoting || sizeof(T) == 4 ? 64 : 60;
    if (sizeof(real_t<T>) == 4) return pivoting ? 64 : 44;
    return 36;
}

// Whether the two-warp getrf serves getrf of order n for T, with pivoting or without: 32 < n <=
// two_warp_max_n<T>(pivoting), unless SMALLLA_CUDA_TWO_WARP=0 (two_warp_override).
template <class T> bool two_warp_getrf_serves(int n, bool pivoting);

// Launches the two-warp getrf (with pivoting when a.ipiv.base is set) on the stream; orders are rounded up to a
// multiple of 4 and the matrix padded with the identity in registers (lu_two_warps.cu).
template <class T> void launch_getrf_two_warps(const getrf_args<T> &a, cudaStream_t stream);

// SMALLLA_CUDA_TWO_WARP from the environment: 0 turns the two-warp getrf off (n > 32 then takes the blocked
// path), -1 when unset (read once; for the benchmarks). Defined in backend.cpp.
int two_warp_override();

}  // namespace cuda_kernels
}  // namespace smallla
