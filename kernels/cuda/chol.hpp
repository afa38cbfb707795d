// Declarations of the launchers of the Cholesky family's CUDA kernels (chol.cuh), for the dispatch. The
// definitions are instantiated once per precision in chol_{s,d,c,z}.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/device_common.cuh"

namespace smallla {
namespace cuda_kernels {

// What a kernel does with its matrix. factor: potrf, and posv when nrhs > 0. solve: potrs (info nullptr), or
// posv's solve after its factorization (info given: the matrices with info != 0 are skipped); the lane, warp and
// TRSM solves take it. The lane and thread kernels factor and solve posv in one launch; the one-block kernel
// factors only (the dispatch then solves as potrs is routed).
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

// Thread kernels: a whole matrix per thread, n <= chol_thread_max_order (routes.hpp), every op; only the orders
// and ops that a routing table sends to family::thread are compiled (cudaErrorInvalidValue for the others). A
// launch error is left for cudaGetLastError.
template <class T> cudaError_t launch_chol_thread(const chol_launch<T> &a, cudaStream_t stream);

// The fused left-looking factorization (the seed paper's loop-exclusive kernel): a launch per panel of 8 columns,
// a thread per row, the panel in shared memory; the factor op only (posv's solve then runs as the solve op of
// launch_chol_block with info set, which skips the matrices that failed). n <= chol_panel_max_order.
constexpr int chol_panel_max_order = 1024;  // a thread per row of the panel, at most 1024 per block
template <class T> cudaError_t launch_chol_panels(const chol_launch<T> &a, cudaStream_t stream);

// The blocked left-looking factorization, one step: columns k .. k + chol_step_nb - 1 of every matrix, less S
// (the product of the columns to their left, L(k:n, 0:k) L(k:k+nb, 0:k)^H, ld n - k, matrix b at S + b*s_stride;
// nullptr at k = 0): the diagonal block factored, the rows below solved, info set (step 0 initialises it);
// matrices that failed in an earlier step are skipped. The factor op only. A launch error is left for
// cudaGetLastError.
constexpr int chol_step_nb = 32, chol_step_threads = 256;
template <class T>
cudaError_t launch_chol_step(const chol_launch<T> &a, int k, const T *S, long long s_stride, cudaStream_t stream);

// potrs, and posv's solve, beyond the lane kernels: a warp per (matrix, right-hand side), the right-hand side in
// shared memory (n elements a warp, at most max_shared bytes a block: cudaErrorInvalidValue when one warp's do not
// fit). The solve op; with info given, the matrices whose info is not 0 are skipped. A launch error is left for
// cudaGetLastError.
constexpr int chol_solve_warps = 4;
template <class T> cudaError_t launch_chol_solve(const chol_launch<T> &a, std::size_t max_shared, cudaStream_t stream);

// potrs and posv's solve by cuBLAS's TRSM (the dispatch's): the pointer arrays of matrices first .. first + count - 1,
// pa[i] the factor of matrix first + i and pb[i] its right-hand sides, or `standin` where info is given and not 0.
template <class T>
cudaError_t launch_chol_solve_pointers(const chol_launch<T> &a, long long first, long long count, T *standin,
                                       const T **pa, T **pb, cudaStream_t stream);

// potri by cuBLAS's TRSM (the dispatch's), over matrices first .. first + count - 1 with M one n x n scratch matrix
// each (matrix i at M + i*stride): part 0, M = the lower form and info, xTRTRI's zero diagonal; part 1, M = I where
// info is 0; part 2, inv(A) into A's uplo triangle where info is 0. A launch error is left for cudaGetLastError.
template <class T>
cudaError_t launch_chol_inverse_part(const chol_launch<T> &a, int part, long long first, long long count, T *M,
                                     long long stride, cudaStream_t stream);

// poinv beyond the lane kernels (the dispatch's, around potrf and potri as routed on C = a.B): part 0, C's uplo
// triangle := A's (nothing where C is A); part 1, C's other triangle := the conjugate transpose of its uplo triangle.
// A launch error is left for cudaGetLastError.
template <class T> cudaError_t launch_chol_poinv_part(const chol_launch<T> &a, int part, cudaStream_t stream);

// Around cuSOLVER's potrf of matrices first .. first + count - 1 (the vendor route's), M nullptr (in place) or n x n
// scratch per matrix (at M + i*stride, ld n): part 0 before it, the uplo triangle into M, the diagonal's imaginary
// parts zeroed (LAPACK does not read them); part 1 after it, info = the first NaN on the factor's diagonal where
// that precedes cuSOLVER's info (LAPACK's "<= 0 or NaN"), the triangle back from M. A launch error is left for
// cudaGetLastError.
template <class T>
cudaError_t launch_chol_vendor_part(const chol_launch<T> &a, int part, long long first, long long count, T *M,
                                    long long stride, cudaStream_t stream);

// The factor op by one block a matrix with the lower form in registers, a column a step (family block_registers),
// n <= block_registers_max_order; no scratch. A launch error is left for cudaGetLastError.
template <class T> cudaError_t launch_chol_registers(const chol_launch<T> &a, cudaStream_t stream);

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
