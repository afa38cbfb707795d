// The CUDA backend's handle life cycle, pointer checks and launch checks (host code only; the kernels and
// the dispatch are in kernels/cuda and dispatch_*.cu).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

#include "backend.hpp"
#include "context.hpp"
#include "cuda_backend.hpp"
#include "replay.hpp"

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
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
        cudaGetLastError();
        return fail(&ctx, SMALLLA_NOT_SUPPORTED, "cannot read the compute capability of CUDA device " + std::to_string(device));
    }
    cudaDeviceProp prop{};
    const std::string name = cudaGetDeviceProperties(&prop, device) == cudaSuccess ? prop.name : "?";
    cudaGetLastError();
    const std::string which = "CUDA device " + std::to_string(device) + " (" + name + ", compute capability " +
                              std::to_string(major) + "." + std::to_string(minor) + ")";
    if (major < 8)
        return fail(&ctx, SMALLLA_NOT_SUPPORTED, which + " is older than compute capability 8.0, which smallla needs");
    if (!device_code_available())
        return fail(&ctx, SMALLLA_NOT_SUPPORTED,
                    "this build of smallla has no code for " + which + "; it was built for CUDA architectures " +
                        built_architectures() + " (configure with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(major) +
                        std::to_string(minor) + "-real to build for it)");
    ctx.cuda_routes = &cuda_kernels::table_for_device(major, minor);
    return SMALLLA_SUCCESS;
}

// The vendor route's side streams and their handles.
struct vendor_lane {
    cudaStream_t stream = nullptr;
    cudaEvent_t done = nullptr;
    cusolverDnHandle_t solver = nullptr;
    cublasHandle_t blas = nullptr;
};
struct vendor_state {
    cudaEvent_t forked = nullptr;
    int made = 0;
    vendor_lane lane[vendor_lanes_max];
};


void destroy_vendor(context &ctx) {
    if (auto *v = static_cast<vendor_state *>(ctx.vendor)) {
        for (int l = 0; l < v->made; ++l) {
            cusolverDnDestroy(v->lane[l].solver);
            cublasDestroy(v->lane[l].blas);
            cudaEventDestroy(v->lane[l].done);
            cudaStreamDestroy(v->lane[l].stream);  // work queued on it still completes
        }
        if (v->forked) cudaEventDestroy(v->forked);
        delete v;
        ctx.vendor = nullptr;
    }
}

smallla_status_t check_solver(context &ctx, const char *routine, cusolverStatus_t s) {
    if (s == CUSOLVER_STATUS_SUCCESS) return SMALLLA_SUCCESS;
    cudaGetLastError();
    return fail(&ctx, s == CUSOLVER_STATUS_ALLOC_FAILED ? SMALLLA_ALLOC_FAILED : SMALLLA_EXECUTION_FAILED,
                std::string("smallla ") + routine + " (CUDA backend): cuSOLVER failed with status " +
                    std::to_string((int)s));
}

smallla_status_t vendor_lanes_ready(context &ctx, const char *routine, int lanes) {
    auto *v = static_cast<vendor_state *>(ctx.vendor);
    if (v == nullptr) {
        v = new vendor_state();
        ctx.vendor = v;
        if (cudaEventCreateWithFlags(&v->forked, cudaEventDisableTiming) != cudaSuccess) {
            cudaGetLastError();
            v->forked = nullptr;
            return fail(&ctx, SMALLLA_EXECUTION_FAILED, std::string("smallla ") + routine + " (CUDA backend): cudaEventCreate failed");
        }
    }
    auto failed = [&](const char *what) {
        cudaGetLastError();
        return fail(&ctx, SMALLLA_EXECUTION_FAILED, std::string("smallla ") + routine + " (CUDA backend): " + what + " failed");
    };
    while (v->made < lanes) {
        vendor_lane &l = v->lane[v->made];
        if (cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking) != cudaSuccess) return failed("cudaStreamCreate");
        if (cudaEventCreateWithFlags(&l.done, cudaEventDisableTiming) != cudaSuccess) {
            cudaStreamDestroy(l.stream);
            return failed("cudaEventCreate");
        }
        if (cusolverDnCreate(&l.solver) != CUSOLVER_STATUS_SUCCESS) {
            cudaEventDestroy(l.done);
            cudaStreamDestroy(l.stream);
            return failed("cusolverDnCreate");
        }
        if (cublasCreate(&l.blas) != CUBLAS_STATUS_SUCCESS) {
            cusolverDnDestroy(l.solver);
            cudaEventDestroy(l.done);
            cudaStreamDestroy(l.stream);
            return failed("cublasCreate");
        }
        cusolverDnSetStream(l.solver, l.stream);
        cublasSetStream(l.blas, l.stream);
        ++v->made;
    }
    return SMALLLA_SUCCESS;
}

cusolverDnHandle_t vendor_solver(const context &ctx, int lane) {
    return static_cast<vendor_state *>(ctx.vendor)->lane[lane].solver;
}
cublasHandle_t vendor_blas(const context &ctx, int lane) {
    return static_cast<vendor_state *>(ctx.vendor)->lane[lane].blas;
}

smallla_status_t vendor_fork(context &ctx, const char *routine, int lanes) {
    auto *v = static_cast<vendor_state *>(ctx.vendor);
    // One lane works on the handle's stream itself: no events, no wait between streams.
    const cudaStream_t main_stream = static_cast<cudaStream_t>(ctx.stream);
    cusolverDnSetStream(v->lane[0].solver, lanes == 1 ? main_stream : v->lane[0].stream);
    cublasSetStream(v->lane[0].blas, lanes == 1 ? main_stream : v->lane[0].stream);
    if (lanes == 1) return SMALLLA_SUCCESS;
    if (cudaEventRecord(v->forked, static_cast<cudaStream_t>(ctx.stream)) != cudaSuccess) {
        cudaGetLastError();
        return fail(&ctx, SMALLLA_EXECUTION_FAILED, std::string("smallla ") + routine + " (CUDA backend): cudaEventRecord failed");
    }
    for (int l = 0; l < lanes; ++l) cudaStreamWaitEvent(v->lane[l].stream, v->forked, 0);
    return SMALLLA_SUCCESS;
}

smallla_status_t vendor_join(context &ctx, int lanes) {
    auto *v = static_cast<vendor_state *>(ctx.vendor);
    if (lanes == 1) return SMALLLA_SUCCESS;
    cudaError_t e = cudaSuccess;
    for (int l = 0; l < lanes; ++l) {
        if (cudaEventRecord(v->lane[l].done, v->lane[l].stream) != cudaSuccess) e = cudaErrorUnknown;
        if (cudaStreamWaitEvent(static_cast<cudaStream_t>(ctx.stream), v->lane[l].done, 0) != cudaSuccess) e = cudaErrorUnknown;
    }
    if (e == cudaSuccess) return SMALLLA_SUCCESS;
    cudaGetLastError();
    return fail(&ctx, SMALLLA_EXECUTION_FAILED, "smallla (CUDA backend): joining the side streams failed");
}

void destroy(context &ctx) {
    if (ctx.blas != nullptr) cublasDestroy(static_cast<cublasHandle_t>(ctx.blas));
    ctx.blas = nullptr;
    replay_destroy(ctx);
    destroy_vendor(ctx);
    // Memory still allocated from the pool (frees queued on the stream) is released when those complete.
    if (ctx.pool != nullptr) cudaMemPoolDestroy(static_cast<cudaMemPool_t>(ctx.pool));
    ctx.pool = nullptr;
}

void stream_changing(context &ctx, void *next) { replay_stream_changing(ctx, next); }

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

// The handle's memory pool: it keeps up to scratch_pool_keep_bytes across the synchronizations between calls (the
// default pool returns everything at each one, and mapping it again cost small calls tens of microseconds). When
// it cannot be made, scratch comes from the device's default pool.
constexpr unsigned long long scratch_pool_keep_bytes = 64ull << 20;
static cudaMemPool_t scratch_pool(context &ctx) {
    if (ctx.pool == nullptr) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = ctx.device;
        cudaMemPool_t pool = nullptr;
        if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
            cudaGetLastError();
            return nullptr;
        }
        unsigned long long keep = scratch_pool_keep_bytes;
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
        cudaGetLastError();
        ctx.pool = pool;
    }
    return static_cast<cudaMemPool_t>(ctx.pool);
}

cudaError_t scratch::attempt(context &ctx, size_t bytes) {
    stream = static_cast<cudaStream_t>(ctx.stream);
    const cudaMemPool_t pool = scratch_pool(ctx);
    kept_by_graph = replay_capturing(ctx);
    const cudaError_t e = kept_by_graph                ? replay_allocate(ctx, &ptr, bytes, pool)
                          : pool != nullptr ? cudaMallocFromPoolAsync(&ptr, bytes, pool, stream)
                                            : cudaMallocAsync(&ptr, bytes, stream);
    if (e != cudaSuccess) {
        ptr = nullptr;
        cudaGetLastError();  // not sticky: clear it so that later checks do not report it again
    }
    return e;
}

size_t matinv_workspace_target(const context &ctx) {
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
    if (ptr != nullptr && !kept_by_graph) cudaFreeAsync(ptr, stream);
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

const char *route_table_name(const context &ctx) {
    return static_cast<const cuda_kernels::route_table *>(ctx.cuda_routes)->name;
}

#if defined(SMALLLA_TUNING)
namespace {
// SMALLLA_ROUTE's entries, parsed once: "routine:precisions:n_from-n_to=family", comma-separated.
struct forced_route {
    cuda_kernels::routine r;
    std::string precisions;
    int n_from, n_to;
    cuda_kernels::family f;
};
std::vector<forced_route> forced_routes() {
    using cuda_kernels::family;
    using cuda_kernels::routine;
    const auto &routines = cuda_kernels::routine_names;
    const auto &families = cuda_kernels::family_names;
    std::vector<forced_route> out;
    const char *v = std::getenv("SMALLLA_ROUTE");
    if (v == nullptr) return out;
    const std::string all(v);
    size_t start = 0;
    while (start < all.size()) {
        size_t end = all.find(',', start);
        if (end == std::string::npos) end = all.size();
        const std::string item = all.substr(start, end - start);
        start = end + 1;
        char rname[32] = {0}, precs[8] = {0}, fname[32] = {0};
        int n0 = 0, n1 = 0;
        if (std::sscanf(item.c_str(), "%31[a-z_]:%7[sdcz]:%d-%d=%31[a-z_]", rname, precs, &n0, &n1, fname) != 5) continue;
        forced_route fr{routine::getrf, precs, n0, n1, family::one_block};
        bool known_routine = false, known_family = false;
        for (int i = 0; i < cuda_kernels::routine_count; ++i)
            if (std::strcmp(rname, routines[i]) == 0) fr.r = static_cast<routine>(i), known_routine = true;
        for (int i = 0; i < cuda_kernels::family_count; ++i)
            if (std::strcmp(fname, families[i]) == 0) fr.f = static_cast<family>(i), known_family = true;
        if (known_routine && known_family) out.push_back(fr);
    }
    return out;
}
}  // namespace
#endif

cuda_kernels::family route(const context &ctx, cuda_kernels::routine r, char precision, int n, long long batch) {
#if defined(SMALLLA_TUNING)
    static const std::vector<forced_route> forced = forced_routes();
    for (const forced_route &fr : forced)
        if (fr.r == r && n >= fr.n_from && n <= fr.n_to && fr.precisions.find(precision) != std::string::npos &&
            cuda_kernels::family_exists(r, fr.f, precision, n))
            return fr.f;
#endif
    return cuda_kernels::find_route(*static_cast<const cuda_kernels::route_table *>(ctx.cuda_routes), r, precision, n,
                                    batch);
}

}  // namespace cuda
}  // namespace smallla
