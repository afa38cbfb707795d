// The CUDA backend's handle life cycle, pointer checks and launch checks (host code only; the kernels and
// the dispatch are in kernels/cuda and dispatch_*.cu).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend.hpp"
#include "context.hpp"
#include "cuda/getri_columns.hpp"
#include "cuda/lu_registers.hpp"
#include "cuda/lu_two_warps.hpp"
#include "cuda_backend.hpp"

namespace smallla {
namespace cuda {

smallla_status_t create(context &ctx) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        cudaGetLastError();  // leave no error behind
        return fail(&ctx, SMALLLA_NOT_SUPPORTED,
                    std::string("no usable CUDA device (") +
                        (e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found none") + ")");
    }
    int device = 0;
    e = cudaGetDevice(&device);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return fail(&ctx, SMALLLA_NOT_SUPPORTED, std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")");
    }
    ctx.device = device;
    ctx.stream = nullptr;
    return SMALLLA_SUCCESS;
}

void destroy(context &ctx) {
    if (ctx.blas != nullptr) cublasDestroy(static_cast<cublasHandle_t>(ctx.blas));
    ctx.blas = nullptr;
}

smallla_status_t blas_on_stream(context &ctx, const char *routine, cublasHandle_t &h) {
    if (ctx.blas == nullptr) {
        cublasHandle_t made = nullptr;
        const cublasStatus_t s = cublasCreate(&made);
        if (s != CUBLAS_STATUS_SUCCESS) {
            cudaGetLastError();
            return fail(&ctx, s == CUBLAS_STATUS_ALLOC_FAILED ? SMALLLA_ALLOC_FAILED : SMALLLA_EXECUTION_FAILED,
                        std::string("smallla ") + routine + " (CUDA backend): cublasCreate failed: " +
                            cublasGetStatusString(s));
        }
        ctx.blas = made;
    }
    h = static_cast<cublasHandle_t>(ctx.blas);
    const cublasStatus_t s = cublasSetStream(h, static_cast<cudaStream_t>(ctx.stream));
    if (s != CUBLAS_STATUS_SUCCESS)
        return fail(&ctx, SMALLLA_EXECUTION_FAILED,
                    std::string("smallla ") + routine + " (CUDA backend): cublasSetStream failed: " +
                        cublasGetStatusString(s));
    return SMALLLA_SUCCESS;
}

smallla_status_t check_blas(context &ctx, const char *routine, cublasStatus_t s) {
    if (s == CUBLAS_STATUS_SUCCESS) return SMALLLA_SUCCESS;
    cudaGetLastError();
    return fail(&ctx, SMALLLA_EXECUTION_FAILED,
                std::string("smallla ") + routine + " (CUDA backend): cuBLAS failed: " + cublasGetStatusString(s));
}

bool scratch::try_allocate(context &ctx, size_t bytes) { return attempt(ctx, bytes) == cudaSuccess; }

smallla_status_t scratch::allocate(context &ctx, const char *routine, size_t bytes) {
    const cudaError_t e = attempt(ctx, bytes);
    if (e == cudaSuccess) return SMALLLA_SUCCESS;
    return fail(&ctx, SMALLLA_ALLOC_FAILED,
                std::string("smallla ") + routine + " (CUDA backend): no device memory for " + std::to_string(bytes) +
                    " bytes of workspace: " + cudaGetErrorString(e));
}

cudaError_t scratch::attempt(context &ctx, size_t bytes) {
    stream = static_cast<cudaStream_t>(ctx.stream);
    const cudaError_t e = cudaMallocAsync(&ptr, bytes, stream);
    if (e != cudaSuccess) {
        ptr = nullptr;
        cudaGetLastError();  // not sticky: clear it so that later checks do not report it again
    }
    return e;
}

size_t matinv_workspace_target(const context &ctx) {
    static const long long forced_mib = [] {
        const char *v = std::getenv("SMALLLA_CUDA_MATINV_WORKSPACE_MIB");
        const long long m = v != nullptr ? std::atoll(v) : 0;
        return m > 0 ? m : 0;
    }();
    if (forced_mib > 0) return (size_t)forced_mib << 20;
    constexpr size_t low = size_t(256) << 20, high = size_t(2) << 30;
    size_t free_bytes = 0, total = 0;
    int current = -1;
    // cudaMemGetInfo reports on the current device; when that is not the handle's, the lower bound is taken.
    if (cudaGetDevice(&current) != cudaSuccess || current != ctx.device ||
        cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return low;
    }
    return std::min(high, std::max(low, free_bytes / 8));
}

scratch::~scratch() {
    if (ptr != nullptr) cudaFreeAsync(ptr, stream);
}

int blocked_min_n_override() {
    static const int n = [] {
        const char *v = std::getenv("SMALLLA_CUDA_BLOCKED_MIN_N");
        const int parsed = v != nullptr ? std::atoi(v) : 0;
        return parsed > 0 ? parsed : 0;
    }();
    return n;
}

smallla_status_t check_device_pointer(context &ctx, const char *fname, int argno, const char *argname,
                                      const void *p) {
    if (p == nullptr) return SMALLLA_SUCCESS;
    cudaPointerAttributes attr{};
    const cudaError_t e = cudaPointerGetAttributes(&attr, p);
    bool device_accessible = false;
    if (e == cudaSuccess) {
        switch (attr.type) {
        case cudaMemoryTypeDevice:
        case cudaMemoryTypeManaged: device_accessible = true; break;
        case cudaMemoryTypeHost: device_accessible = attr.devicePointer != nullptr; break;  // mapped pinned memory
        default: device_accessible = false;
        }
    } else {
        cudaGetLastError();  // the query's own error must not stick to the caller's next CUDA call
    }
    if (device_accessible) return SMALLLA_SUCCESS;
    return fail(&ctx, SMALLLA_INVALID_VALUE,
                std::string(fname) + ": argument " + std::to_string(argno) + " (" + argname +
                    ") must be device memory");
}

void clear_stale_error() { (void)cudaGetLastError(); }

smallla_status_t check_launch(context &ctx, const char *routine) {
    const cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return SMALLLA_SUCCESS;
    return fail(&ctx, SMALLLA_EXECUTION_FAILED,
                std::string("smallla ") + routine + " (CUDA backend): kernel launch failed: " + cudaGetErrorString(e));
}

smallla_status_t too_large(context &ctx, const char *routine, int n) {
    return fail(&ctx, SMALLLA_NOT_SUPPORTED,
                std::string("smallla ") + routine + " (CUDA backend): n = " + std::to_string(n) +
                    " needs more shared memory per block than the device has");
}

size_t max_dynamic_shared_bytes(const context &ctx) {
    int bytes = 0;
    if (cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx.device) != cudaSuccess) {
        cudaGetLastError();
        return 48 * 1024;
    }
    return (size_t)bytes;
}

}  // namespace cuda

namespace cuda_kernels {
bool staging_allowed() {
    static const bool allowed = [] {
        const char *v = std::getenv("SMALLLA_CUDA_STAGING");
        return v != nullptr && std::strcmp(v, "1") == 0;
    }();
    return allowed;
}

// An on/off knob from the environment: 1 or 0 when set to "1" or "0", else -1.
static int on_off_knob(const char *name) {
    const char *v = std::getenv(name);
    if (v == nullptr) return -1;
    return std::strcmp(v, "1") == 0 ? 1 : (std::strcmp(v, "0") == 0 ? 0 : -1);
}

int prefetch_override() {
    static const int forced = on_off_knob("SMALLLA_CUDA_PREFETCH");
    return forced;
}

int prefetch_max_blocks() {
    static const int blocks = [] {
        const char *v = std::getenv("SMALLLA_CUDA_PREFETCH_BLOCKS");
        const int k = v == nullptr ? 0 : std::atoi(v);
        return k > 0 ? k : 0;
    }();
    return blocks;
}

int rolled_override() {
    static const int forced = on_off_knob("SMALLLA_CUDA_ROLLED");
    return forced;
}

int multirow_override() {
    static const int forced = on_off_knob("SMALLLA_CUDA_MULTIROW");
    return forced;
}

int two_warp_override() {
    static const int forced = on_off_knob("SMALLLA_CUDA_TWO_WARP");
    return forced;
}

int getri_columns_from_override() {
    static const int from = [] {
        const char *v = std::getenv("SMALLLA_CUDA_GETRI_COLUMNS_FROM");
        if (v == nullptr) return 0;
        if (std::strcmp(v, "off") == 0) return -1;
        const int k = std::atoi(v);
        return k > 0 ? k : 0;
    }();
    return from;
}

int thread_per_matrix_max_n() {
    static const int n = [] {
        const char *v = std::getenv("SMALLLA_CUDA_THREAD_MAX_N");
        if (v == nullptr || *v == '\0') return -1;
        const int n = std::atoi(v);
        return n < 0 ? 0 : n;
    }();
    return n;
}
}  // namespace cuda_kernels
}  // namespace smallla
