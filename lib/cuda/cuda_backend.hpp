// Helpers of the CUDA backend's C-layer side (backend.cpp): launch checks, device limits, the cuBLAS handle
// and stream-ordered scratch memory of the blocked path.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "context.hpp"
#include "cuda/routing/routes.hpp"

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
// nothing synchronizes. While a call is captured into a graph (replay.hpp) the graph keeps it instead.
struct scratch {
    void *ptr = nullptr;
    cudaStream_t stream = nullptr;
    bool kept_by_graph = false;
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

// How many bytes of packed matrices matinv's blocked path works on at a time: an eighth of the device's free
// memory, clamped to [256 MiB, 2 GiB] (large enough chunks keep the panel kernels' grids full).
size_t matinv_workspace_target(const context &ctx);

// The kernel family that serves a call, from the handle's routing table (chosen at smallla_create from the
// device's architecture). A measurement build (SMALLLA_TUNING) first applies SMALLLA_ROUTE from the environment:
// "routine:precisions:n_from-n_to=family[,...]" (e.g. "getrf:d:17-20=two_rows"), where the family exists.
cuda_kernels::family route(const context &ctx, cuda_kernels::routine r, char precision, int n, long long batch);

// The vendor route's side streams (vendor.cuh): at most vendor_lanes_max per handle, each with its own cuSOLVER
// and cuBLAS handle bound to it, made on first use and destroyed with the handle.
constexpr int vendor_lanes_max = 4;
smallla_status_t vendor_lanes_ready(context &ctx, const char *routine, int lanes);
cusolverDnHandle_t vendor_solver(const context &ctx, int lane);
cublasHandle_t vendor_blas(const context &ctx, int lane);
// The first `lanes` side streams wait for the work queued so far on the handle's stream (fork), and the handle's
// stream waits for what was queued on them (join). One lane works on the handle's stream itself (no events).
smallla_status_t vendor_fork(context &ctx, const char *routine, int lanes);
smallla_status_t vendor_join(context &ctx, int lanes);
// SMALLLA_EXECUTION_FAILED (or ALLOC_FAILED) with a message unless s is CUSOLVER_STATUS_SUCCESS.
smallla_status_t check_solver(context &ctx, const char *routine, cusolverStatus_t s);

// Whether the library holds code that runs on the current device (probe.cu), and the architectures it was built
// for (CMake's CUDA_ARCHITECTURES).
bool device_code_available();
const char *built_architectures();

// The name of the handle's routing table ("sm90", "generic").
const char *route_table_name(const context &ctx);

}  // namespace cuda
}  // namespace smallla
