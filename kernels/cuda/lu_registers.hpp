// Declarations of the register-resident kernels' launchers (n <= 32), for the CUDA dispatch. The definitions
// (lu_registers.cuh) are instantiated per precision and order range in lu_registers_*.cu, so the dispatch does
// not compile them again.
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

#include "backend.hpp"

namespace smallla {
namespace cuda_kernels {

// The largest order served by the register kernels.
constexpr int register_max_n = 32;

template <class T, int N> void launch_getrf_registers(const getrf_args<T> &a, cudaStream_t stream);
template <class T, int N> void launch_matinv_registers(const matinv_args<T> &a, cudaStream_t stream);
template <class T, int N> void launch_getri_registers(const getri_args<T> &a, cudaStream_t stream);
template <class T, int N> void launch_getrs_registers(const getrs_args<T> &a, cudaStream_t stream);

// getri in registers holds a row of the factors, accumulated in place into a row of inv(A); for double complex
// beyond n = 27 that takes more than 255 registers (ptxas, nvcc 13.0: 20-160 bytes spilled at 28-31, and the
// spilled kernel gives wrong results at n = 31), so those orders take the one-block-per-matrix kernel. A rolled
// register getri for them measured no faster than that kernel (perf/NOTES.md, fourth round).
template <class T, int N> constexpr bool getri_in_registers() { return !(sizeof(T) == 16 && N > 27); }

// Whether the register kernels may stage contiguous batches through shared memory (default no:
// measured slower on the H100, see perf/NOTES.md; SMALLLA_CUDA_STAGING=1 in the environment turns it on, a knob for the benchmarks). Defined in backend.cpp.
bool staging_allowed();

// SMALLLA_CUDA_THREAD_MAX_N from the environment: when set, the thread-per-matrix kernels (lu_thread.cuh) serve
// every routine up to that order wherever they exist, in place of the per-routine crossovers of lu_thread.cuh
// (thread_route); -1 when unset (read once; a knob for the benchmarks' crossover measurements). Defined in
// backend.cpp.
int thread_per_matrix_max_n();

// SMALLLA_CUDA_ROLLED from the environment: 1 or 0 forces the rolled elimination of the lane-per-row getrf and
// matinv on or off (lu_registers.cuh, rolled_elimination), -1 when unset (read once; for the benchmarks).
// Defined in backend.cpp.
int rolled_override();

// SMALLLA_CUDA_MULTIROW from the environment: 1 or 0 forces the several-rows-per-lane getrf and matinv
// (lu_registers.cuh, getrf_multirow_registers, matinv_multirow_registers) on or off at every order where they
// exist, -1 when unset (read once; for the benchmarks). Defined in backend.cpp.
int multirow_override();

// SMALLLA_CUDA_PREFETCH from the environment: 1 or 0 forces the persistent form of the lane-per-row getrs
// (lu_registers.cuh, getrs_prefetch_by_default) on or off at every order where it exists, -1 when unset (read
// once; a knob for the benchmarks). Defined in backend.cpp.
int prefetch_override();
// SMALLLA_CUDA_PREFETCH_BLOCKS from the environment: at most that many blocks for getrs's persistent form (0 when
// unset: as many as reside at once). A test knob: a small grid makes every warp step through many matrices.
int prefetch_max_blocks();

// The orders instantiated, in two halves per precision (the second half is the expensive one to compile).
#define SMALLLA_ORDERS_1_16(M, T)                                                                               \
    M(T, 1) M(T, 2) M(T, 3) M(T, 4) M(T, 5) M(T, 6) M(T, 7) M(T, 8) M(T, 9) M(T, 10) M(T, 11) M(T, 12) M(T, 13) \
    M(T, 14) M(T, 15) M(T, 16)
#define SMALLLA_ORDERS_17_24(M, T) \
    M(T, 17) M(T, 18) M(T, 19) M(T, 20) M(T, 21) M(T, 22) M(T, 23) M(T, 24)
#define SMALLLA_ORDERS_25_32(M, T) \
    M(T, 25) M(T, 26) M(T, 27) M(T, 28) M(T, 29) M(T, 30) M(T, 31) M(T, 32)

}  // namespace cuda_kernels
}  // namespace smallla
