// The handle behind smallla_handle_t, and the error-message plumbing of the C layer.
#pragma once

#include <string>

#include "smallla.h"

struct smallla_context {
    smallla_backend_t backend = SMALLLA_BACKEND_HOST;
    void *stream = nullptr;    // cudaStream_t; nullptr = default stream
    int device = 0;            // CUDA device current at creation
    void *blas = nullptr;      // CUDA backend: the cuBLAS handle of the blocked path (owned), made on first use
    int host_isa = 0;          // host backend: the instruction set of its kernels (host_kernels::isa_level)
    const void *cuda_routes = nullptr;  // CUDA backend: the device's routing table (cuda_kernels::route_table)
    void *vendor = nullptr;    // CUDA backend: the vendor route's side streams and handles (owned), made on first use
    void *pool = nullptr;      // CUDA backend: the cudaMemPool_t of its scratch memory (owned), made on first use
    void *replay = nullptr;    // CUDA backend: the graphs of repeated calls (owned; lib/cuda/replay.hpp), made on first use
    std::string last_error;
};

namespace smallla {

using context = ::smallla_context;

// True when h is a live handle made by smallla_create (destroyed or foreign pointers are never
// dereferenced: live handles are kept in a registry).
bool handle_is_live(smallla_handle_t h);

// Records the failure of a call with an invalid handle (readable through smallla_last_error(NULL)).
smallla_status_t invalid_handle(const char *fname);

// Sets the message of the handle (or the thread's message when ctx is null) and returns status.
smallla_status_t fail(context *ctx, smallla_status_t status, const std::string &message);

// Marks the start of a call: clears the handle's last message.
inline void begin_call(context &ctx) { ctx.last_error.clear(); }

}  // namespace smallla
