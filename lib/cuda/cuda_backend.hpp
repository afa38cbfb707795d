// Helpers of the CUDA backend's C-layer side (backend.cpp): launch checks and device limits.
#pragma once

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

}  // namespace cuda
}  // namespace smallla
