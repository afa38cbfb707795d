// Repeated calls replayed from CUDA graphs. At a few matrices a vendor route's call costs cuSOLVER's own launches
// plus ours around them (the workspace, the NaN rule's kernel), and the GPU waits on that host work. The second
// call with the same key is captured into a graph on a stream of the handle; it and later ones launch the graph.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "context.hpp"

namespace smallla {
namespace cuda {

// What the work a call queues depends on: its path, precision and sizes, and the addresses of its arguments. What
// lies at those addresses may change between calls: a graph reads it when it runs, as a direct call would.
struct replay_key {
    std::uintptr_t word[8] = {};
};

// At most this many bytes of scratch memory a graph keeps (calls needing more are never captured).
constexpr std::size_t replay_memory_max = std::size_t(32) << 20;

enum class replay_action { direct, replayed, capture };

// Before a call of `key`: replayed (its graph was launched on the handle's stream; st says whether the launch
// failed), capture (the caller queues its work, which is captured, then calls replay_end) or direct (the caller
// queues its work as usual: the first call of a key, graphs off, or the handle's stream is itself being captured).
replay_action replay_begin(context &ctx, const char *routine, const replay_key &key, smallla_status_t &st);

// After a captured call whose queueing returned `queued`: keeps the graph and launches it (true; st the launch's
// status) or drops it and turns graphs off for the handle (false: nothing ran, the caller queues its work directly).
bool replay_end(context &ctx, const char *routine, const replay_key &key, smallla_status_t queued, smallla_status_t &st);

// queue() queues a call's work on ctx.stream and returns its status; run through a graph where replay_begin says so.
template <class Queue>
smallla_status_t replayed(context &ctx, const char *routine, const replay_key &key, Queue &&queue) {
    smallla_status_t st = SMALLLA_SUCCESS;
    switch (replay_begin(ctx, routine, key, st)) {
    case replay_action::replayed: return st;
    case replay_action::direct: return queue();
    case replay_action::capture: break;
    }
    const smallla_status_t queued = queue();
    if (replay_end(ctx, routine, key, queued, st)) return st;
    ctx.last_error.clear();
    return queue();
}

// During a capture, scratch memory (scratch::attempt) is allocated on the caller's stream, outside the graph, and
// kept with the graph: replay_allocate, when replay_capturing.
bool replay_capturing(const context &ctx);
cudaError_t replay_allocate(context &ctx, void **ptr, std::size_t bytes, cudaMemPool_t pool);

// smallla_set_stream's part: graphs launched on the next stream wait for the work queued so far on the one left
// (a graph's scratch memory is not shared by two of its runs at once).
void replay_stream_changing(context &ctx, void *next);

// The handle's graphs and their memory, freed in order on its stream.
void replay_destroy(context &ctx);

}  // namespace cuda
}  // namespace smallla
