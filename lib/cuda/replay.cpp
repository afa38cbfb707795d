// Repeated calls replayed from CUDA graphs (replay.hpp): the handle's graphs, the keys seen once, the capture.
#include "replay.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace smallla {
namespace cuda {

namespace {

constexpr int graphs_max = 8;   // graphs a handle keeps (the least recently launched is dropped)
constexpr int seen_max = 32;    // keys of calls made once, remembered
constexpr long long captures_over_replays_max = 32;  // then the calls never repeat often enough: graphs off

struct replay_graph {
    replay_key key;
    cudaGraphExec_t exec = nullptr;
    std::vector<void *> memory;
    unsigned long long used = 0;
};

struct replay_state {
    bool off = false;
    cudaStream_t capture_stream = nullptr;
    bool capturing = false;
    cudaStream_t caller_stream = nullptr;  // while capturing: the handle's stream
    std::vector<void *> captured_memory;
    std::vector<replay_graph> graphs;
    replay_key seen[seen_max];
    int seen_count = 0, seen_next = 0;
    std::vector<cudaEvent_t> left;  // recorded on the streams the handle left since the last launch
    unsigned long long clock = 0;
    long long captures = 0, replays = 0;
};

bool same(const replay_key &a, const replay_key &b) { return std::memcmp(a.word, b.word, sizeof a.word) == 0; }

replay_state *state(context &ctx) {
    if (ctx.replay == nullptr) {
        auto *s = new replay_state();
        const char *env = std::getenv("SMALLLA_CUDA_GRAPHS");
        s->off = env != nullptr && std::strcmp(env, "0") == 0;
        ctx.replay = s;
    }
    return static_cast<replay_state *>(ctx.replay);
}

// The stream waits for what was queued on the streams the handle left.
void wait_for_left(replay_state &s, cudaStream_t stream) {
    for (cudaEvent_t e : s.left) {
        cudaStreamWaitEvent(stream, e, 0);
        cudaEventDestroy(e);  // released once the device has passed it
    }
    s.left.clear();
    cudaGetLastError();
}

void release(replay_graph &g, cudaStream_t stream) {
    if (g.exec != nullptr) cudaGraphExecDestroy(g.exec);  // a graph still running is freed when it completes
    for (void *p : g.memory) cudaFreeAsync(p, stream);
    g.exec = nullptr;
    g.memory.clear();
    cudaGetLastError();
}

smallla_status_t launch(context &ctx, replay_state &s, const char *routine, cudaGraphExec_t exec) {
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    wait_for_left(s, stream);
    const cudaError_t e = cudaGraphLaunch(exec, stream);
    if (e == cudaSuccess) return SMALLLA_SUCCESS;
    cudaGetLastError();
    return fail(&ctx, SMALLLA_EXECUTION_FAILED,
                std::string("smallla ") + routine + " (CUDA backend): cudaGraphLaunch failed: " + cudaGetErrorString(e));
}

}  // namespace

replay_action replay_begin(context &ctx, const char *routine, const replay_key &key, smallla_status_t &st) {
    replay_state &s = *state(ctx);
    if (s.off || s.capturing) return replay_action::direct;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
        cudaGetLastError();
        return replay_action::direct;
    }
    if (capture != cudaStreamCaptureStatusNone) return replay_action::direct;  // the caller's graph takes our work
    for (replay_graph &g : s.graphs)
        if (same(g.key, key)) {
            g.used = ++s.clock;
            ++s.replays;
            st = launch(ctx, s, routine, g.exec);
            return replay_action::replayed;
        }
    bool seen = false;
    for (int i = 0; i < s.seen_count && !seen; ++i) seen = same(s.seen[i], key);
    if (!seen) {
        s.seen[s.seen_next] = key;
        s.seen_next = (s.seen_next + 1) % seen_max;
        if (s.seen_count < seen_max) ++s.seen_count;
        return replay_action::direct;
    }
    if (s.captures - s.replays > captures_over_replays_max) s.off = true;
    if (!s.off && s.capture_stream == nullptr &&
        cudaStreamCreateWithFlags(&s.capture_stream, cudaStreamNonBlocking) != cudaSuccess)
        s.off = true;
    // Relaxed: the capture may allocate (scratch comes from the pool on the caller's stream) and query cuSOLVER.
    if (!s.off && cudaStreamBeginCapture(s.capture_stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) s.off = true;
    if (s.off) {
        cudaGetLastError();
        return replay_action::direct;
    }
    s.capturing = true;
    s.caller_stream = stream;
    ctx.stream = s.capture_stream;
    return replay_action::capture;
}

bool replay_end(context &ctx, const char *routine, const replay_key &key, smallla_status_t queued, smallla_status_t &st) {
    replay_state &s = *state(ctx);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(s.capture_stream, &graph);
    ctx.stream = s.caller_stream;
    s.capturing = false;
    replay_graph made;
    made.key = key;
    made.memory.swap(s.captured_memory);
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    bool ok = ended == cudaSuccess && graph != nullptr && queued == SMALLLA_SUCCESS;
    if (ok && cudaGraphInstantiate(&made.exec, graph, 0) != cudaSuccess) {
        made.exec = nullptr;
        ok = false;
    }
    if (graph != nullptr) cudaGraphDestroy(graph);
    cudaGetLastError();
    if (!ok) {  // whatever failed would fail again: this handle queues its calls directly from now on
        s.off = true;
        release(made, stream);
        return false;
    }
    ++s.captures;
    if ((int)s.graphs.size() == graphs_max) {
        size_t oldest = 0;
        for (size_t i = 1; i < s.graphs.size(); ++i)
            if (s.graphs[i].used < s.graphs[oldest].used) oldest = i;
        wait_for_left(s, stream);
        release(s.graphs[oldest], stream);
        s.graphs.erase(s.graphs.begin() + (long)oldest);
    }
    made.used = ++s.clock;
    s.graphs.push_back(std::move(made));
    st = launch(ctx, s, routine, s.graphs.back().exec);
    return true;
}

bool replay_capturing(const context &ctx) {
    return ctx.replay != nullptr && static_cast<const replay_state *>(ctx.replay)->capturing;
}

cudaError_t replay_allocate(context &ctx, void **ptr, std::size_t bytes, cudaMemPool_t pool) {
    replay_state &s = *state(ctx);
    const cudaError_t e = pool != nullptr ? cudaMallocFromPoolAsync(ptr, bytes, pool, s.caller_stream)
                                          : cudaMallocAsync(ptr, bytes, s.caller_stream);
    if (e == cudaSuccess) s.captured_memory.push_back(*ptr);
    return e;
}

void replay_stream_changing(context &ctx, void *next) {
    auto *s = static_cast<replay_state *>(ctx.replay);
    if (s == nullptr || s->graphs.empty() || next == ctx.stream) return;
    cudaEvent_t e = nullptr;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess &&
        cudaEventRecord(e, static_cast<cudaStream_t>(ctx.stream)) == cudaSuccess) {
        s->left.push_back(e);
    } else {
        if (e != nullptr) cudaEventDestroy(e);
        cudaStreamSynchronize(static_cast<cudaStream_t>(ctx.stream));  // no event: wait here instead
    }
    cudaGetLastError();
}

void replay_destroy(context &ctx) {
    auto *s = static_cast<replay_state *>(ctx.replay);
    if (s == nullptr) return;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    wait_for_left(*s, stream);
    for (replay_graph &g : s->graphs) release(g, stream);
    if (s->capture_stream != nullptr) cudaStreamDestroy(s->capture_stream);
    cudaGetLastError();
    delete s;
    ctx.replay = nullptr;
}

}  // namespace cuda
}  // namespace smallla
