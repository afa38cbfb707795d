// The iterative Crout LU on the GPU (getrf_iter.cu): the layout of a launch and the launcher, for the dispatch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "common/args.hpp"

namespace smallla {
namespace cuda_kernels {

// One launch: teams of `team` threads, `groups` teams (one matrix each) per block, smem_bytes of dynamic shared
// memory per block, and scratch_bytes of global memory for the teams' arrays when they do not fit in shared
// memory (0: none needed).
struct iter_layout {
    int team, groups;
    size_t smem_bytes, scratch_bytes;
};
template <class T> iter_layout getrf_iter_layout(int n, int batch, size_t optin_bytes);

// Launches the iteration of a strided batch with the layout l (scratch: scratch_bytes of device memory, or null
// when none is needed) on the stream; returns the launch's error.
template <class T>
cudaError_t launch_getrf_iter(const getrf_iter_args<T> &a, const iter_layout &l, void *scratch, cudaStream_t stream);

}  // namespace cuda_kernels
}  // namespace smallla
