// Helpers of the CUDA backend's C-layer side (backend.cpp): launch checks, device limits, the cuBLAS handle
// and stream-ordered scratch memory of the blocked path.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "context.hpp"

namespace smallla {
namespace cuda {

// Clears a pending, non-sticky CUDA error left by earlier unrelated calls, so that the check after our
// launch reports only our own failure.
void clear_stale_error();

// SMALLLA_EXECUTION_FAILED with a message when the last launch failed, else SMALLLA_SUCCESS.
smallla_status_t check_launch(context &ctx, const char *routine);

// SMALLLA_NOT_SUPPORTED with a message: the order needs more shared memory than a block can have.
smallla_status_t too_large(context &ctx, const char *routine, int n);

// The most dynamic shared memory one block of the handle's device may use (opt-in limit).
size_t max_dynamic_shared_bytes(const context &ctx);

// The handle's cuBLAS handle (made on first use, destroyed with the handle), set to the handle's stream.
smallla_status_t blas_on_stream(context &ctx, const char *routine, cublasHandle_t &h);

// SMALLLA_EXECUTION_FAILED with a message unless s is CUBLAS_STATUS_SUCCESS.
smallla_status_t check_blas(context &ctx, const char *routine, cublasStatus_t s);

// Device memory for one call, ordered on the handle's stream: allocated before the call's kernels are
// queued and freed after them (cudaMallocAsync / cudaFreeAsync), so nothing is shared between calls and
// nothing synchronizes.
struct scratch {
    void *ptr = nullptr;
    cudaStream_t stream = nullptr;
    scratch() = default;
    scratch(const scratch &) = delete;
    scratch &operator=(const scratch &) = delete;
    smallla_status_t allocate(context &ctx, const char *routine, size_t bytes);
    // As allocate, but a failure records no error (the caller tries a smaller size).
    bool try_allocate(context &ctx, size_t bytes);
    ~scratch();

  private:
    cudaError_t attempt(context &ctx, size_t bytes);  // cudaMallocAsync on the context's stream
};

// How many bytes of packed matrices matinv's blocked path works on at a time: SMALLLA_CUDA_MATINV_WORKSPACE_MIB
// from the environment when set (a knob for the benchmarks), else an eighth of the device's free memory,
// clamped to [256 MiB, 2 GiB] (perf/NOTES.md, fifth round: chunks of 256 MiB left the panel kernels 256
// blocks at n = 256 in double complex; the larger target ran matinv 1.0-1.26x faster at n = 72-256).
size_t matinv_workspace_target(const context &ctx);

// SMALLLA_CUDA_BLOCKED_MIN_N from the environment (read once; a knob for the benchmarks' crossover
// measurements): when set (> 0), the order from which every routine takes the blocked path; 0 when unset.
int blocked_min_n_override();

}  // namespace cuda
}  // namespace smallla
