// Declarations of the launchers of the Cholesky family's CUDA kernels (chol.cuh), for the dispatch. The
// definitions are instantiated once per precision in chol_{s,d,c,z}.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/device_common.cuh"

namespace smallla {
namespace cuda_kernels {

// What a kernel does with its matrix. factor: potrf, and posv when nrhs > 0. solve: potrs (info nullptr), or
// posv's solve after the panel kernels (info given: the matrices with info != 0 are skipped).
enum class chol_op : int { factor, solve, inverse, full_inverse };

// One call as the kernels see it. A: the matrices (read only for solve and full_inverse, whose const-ness the
// dispatch drops); B: posv's and potrs's right-hand sides, or poinv's C (may be A itself); info: nullptr for
// potrs.
template <class T> struct chol_launch {
    chol_op op;
    bool upper;
    int n, nrhs;
    batch_ref<T> A, B;
    int *info;
    long long batch;
};

// The largest order of the lane kernels (a row of the matrix per lane of a group of lanes).
constexpr int chol_lanes_max_order = 32;

// Lane kernels: groups of 4, 8, 16 or 32 lanes (the order rounded up), one matrix per group. n <= 32. A launch
// error is left for cudaGetLastError.
template <class T> cudaError_t launch_chol_lanes(const chol_launch<T> &a, cudaStream_t stream);

// The fused left-looking factorization (the seed paper's loop-exclusive kernel): a launch per panel of 8 columns,
// a thread per row, the panel in shared memory; the factor op only (posv's solve then runs as the solve op of
// launch_chol_block with info set, which skips the matrices that failed). n <= chol_panel_max_order.
constexpr int chol_panel_max_order = 1024;  // a thread per row of the panel, at most 1024 per block
template <class T> cudaError_t launch_chol_panels(const chol_launch<T> &a, cudaStream_t stream);

// One thread block per matrix, any order: the lower form of the matrix in shared memory when it fits
// (chol_block_bytes(n, true) <= the device's limit), else in scratch (n*n elements per matrix of the launch:
// matrices first .. first + count - 1). Returns an error of setting the kernel's shared memory size; a launch
// error is left for cudaGetLastError.
template <class T> std::size_t chol_block_bytes(int n, bool in_shared);
template <class T>
cudaError_t launch_chol_block(const chol_launch<T> &a, bool in_shared, T *scratch, long long first, long long count,
                              cudaStream_t stream);

}  // namespace cuda_kernels
}  // namespace smallla
