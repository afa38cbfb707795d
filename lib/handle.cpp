// Handles, streams, messages and version: the parts of the C layer that are not a routine family.
#include <mutex>
#include <new>
#include <unordered_set>

#include "backend.hpp"
#include "context.hpp"

namespace smallla {
namespace {
std::mutex registry_mutex;
std::unordered_set<const void *> &registry() {
    static std::unordered_set<const void *> live;
    return live;
}
thread_local std::string thread_last_error;
}  // namespace

bool handle_is_live(smallla_handle_t h) {
    if (h == nullptr) return false;
    std::lock_guard<std::mutex> lock(registry_mutex);
    return registry().count(h) != 0;
}

smallla_status_t fail(context *ctx, smallla_status_t status, const std::string &message) {
    (ctx ? ctx->last_error : thread_last_error) = message;
    return status;
}

smallla_status_t invalid_handle(const char *fname) {
    return fail(nullptr, SMALLLA_INVALID_HANDLE,
                std::string(fname) + ": argument 1 (handle) is NULL or was destroyed");
}

}  // namespace smallla

using namespace smallla;

extern "C" {

SMALLLA_API smallla_status_t smallla_create(smallla_handle_t *handle, smallla_backend_t backend) {
    static const char *fname = "smallla_create";
    if (handle == nullptr) return fail(nullptr, SMALLLA_INVALID_VALUE, std::string(fname) + ": argument 1 (handle = NULL) must not be NULL");
    *handle = nullptr;
    if (backend != SMALLLA_BACKEND_HOST && backend != SMALLLA_BACKEND_CUDA)
        return fail(nullptr, SMALLLA_INVALID_VALUE,
                    std::string(fname) + ": argument 2 (backend = " + std::to_string((int)backend) +
                        ") must be SMALLLA_BACKEND_HOST or SMALLLA_BACKEND_CUDA");
    context *ctx = new (std::nothrow) context();
    if (!ctx) return fail(nullptr, SMALLLA_ALLOC_FAILED, std::string(fname) + ": out of host memory");
    ctx->backend = backend;
    if (backend == SMALLLA_BACKEND_HOST) ctx->host_isa = host::choose_isa();
    if (backend == SMALLLA_BACKEND_CUDA) {
        smallla_status_t st = cuda::create(*ctx);
        if (st != SMALLLA_SUCCESS) {
            fail(nullptr, st, std::string(fname) + ": " + ctx->last_error);
            delete ctx;
            return st;
        }
    }
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        registry().insert(ctx);
    }
    thread_last_error.clear();
    *handle = ctx;
    return SMALLLA_SUCCESS;
}

SMALLLA_API smallla_status_t smallla_destroy(smallla_handle_t handle) {
    {
        std::lock_guard<std::mutex> lock(registry_mutex);
        if (handle == nullptr || registry().erase(handle) == 0) {
            return fail(nullptr, SMALLLA_INVALID_HANDLE, "smallla_destroy: argument 1 (handle) is NULL or was destroyed");
        }
    }
    if (handle->backend == SMALLLA_BACKEND_CUDA) cuda::destroy(*handle);
    delete handle;
    return SMALLLA_SUCCESS;
}

SMALLLA_API smallla_status_t smallla_set_stream(smallla_handle_t handle, void *cuda_stream) {
    if (!handle_is_live(handle)) return invalid_handle("smallla_set_stream");
    if (handle->backend == SMALLLA_BACKEND_CUDA) cuda::stream_changing(*handle, cuda_stream);
    handle->stream = cuda_stream;
    return SMALLLA_SUCCESS;
}

SMALLLA_API smallla_status_t smallla_get_stream(smallla_handle_t handle, void **cuda_stream) {
    if (!handle_is_live(handle)) return invalid_handle("smallla_get_stream");
    // A query leaves the last message alone, so that a caller (or a test) may look up the stream between a
    // failed call and reading its message.
    if (cuda_stream == nullptr)
        return fail(handle, SMALLLA_INVALID_VALUE, "smallla_get_stream: argument 2 (cuda_stream = NULL) must not be NULL");
    *cuda_stream = handle->stream;
    return SMALLLA_SUCCESS;
}

SMALLLA_API int smallla_get_backend(smallla_handle_t handle) {
    if (!handle_is_live(handle)) return -1;
    return (int)handle->backend;
}

SMALLLA_API const char *smallla_status_string(smallla_status_t status) {
    switch (status) {
    case SMALLLA_SUCCESS: return "SMALLLA_SUCCESS";
    case SMALLLA_INVALID_HANDLE: return "SMALLLA_INVALID_HANDLE";
    case SMALLLA_INVALID_VALUE: return "SMALLLA_INVALID_VALUE";
    case SMALLLA_ALLOC_FAILED: return "SMALLLA_ALLOC_FAILED";
    case SMALLLA_EXECUTION_FAILED: return "SMALLLA_EXECUTION_FAILED";
    case SMALLLA_NOT_SUPPORTED: return "SMALLLA_NOT_SUPPORTED";
    case SMALLLA_INTERNAL_ERROR: return "SMALLLA_INTERNAL_ERROR";
    }
    return "unknown status";
}

SMALLLA_API const char *smallla_last_error(smallla_handle_t handle) {
    if (handle == nullptr || !handle_is_live(handle)) return thread_last_error.c_str();
    return handle->last_error.c_str();
}

SMALLLA_API void smallla_get_version(int *major, int *minor, int *patch) {
    if (major) *major = SMALLLA_VERSION_MAJOR;
    if (minor) *minor = SMALLLA_VERSION_MINOR;
    if (patch) *patch = SMALLLA_VERSION_PATCH;
}

}  // extern "C"
