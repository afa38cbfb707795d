// Declarations of the launchers of the kernels for n <= 32 (thread per matrix, lane per row, two rows per lane,
// getrs's persistent form), for the CUDA dispatch. The definitions (lu_registers.cuh) are instantiated per
// precision and order range in lu_registers_*.cu, so the dispatch does not compile them again.
#pragma once

#include <cuda_runtime.h>

#include "common/args.hpp"
#include "routing/routes.hpp"

namespace smallla {
namespace cuda_kernels {

// The largest order served by the register kernels.
constexpr int register_max_n = lane_max_order;

// Each launches the kernel of family f (the routing table's choice; f exists at order N) on the stream.
template <class T, int N> void launch_getrf_registers(const getrf_args<T> &a, family f, cudaStream_t stream);
template <class T, int N> void launch_matinv_registers(const matinv_args<T> &a, family f, cudaStream_t stream);
template <class T, int N> void launch_getri_registers(const getri_args<T> &a, family f, cudaStream_t stream);
template <class T, int N> void launch_getrs_registers(const getrs_args<T> &a, family f, cudaStream_t stream);

// The orders instantiated, in three ranges per precision (the later ones are the expensive ones to compile).
#define SMALLLA_ORDERS_1_16(M, T)                                                                               \
    M(T, 1) M(T, 2) M(T, 3) M(T, 4) M(T, 5) M(T, 6) M(T, 7) M(T, 8) M(T, 9) M(T, 10) M(T, 11) M(T, 12) M(T, 13) \
    M(T, 14) M(T, 15) M(T, 16)
#define SMALLLA_ORDERS_17_24(M, T) \
    M(T, 17) M(T, 18) M(T, 19) M(T, 20) M(T, 21) M(T, 22) M(T, 23) M(T, 24)
#define SMALLLA_ORDERS_25_32(M, T) \
    M(T, 25) M(T, 26) M(T, 27) M(T, 28) M(T, 29) M(T, 30) M(T, 31) M(T, 32)

}  // namespace cuda_kernels
}  // namespace smallla
