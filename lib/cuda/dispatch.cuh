// The CUDA backend's dispatch: the ONE place that knows the CUDA crossovers.
//   n <= 32 (cuda_kernels::register_max_n): register-resident kernels, one template instance per order
//   (getri of double complex: n <= 27); in their launchers, the smallest orders take the thread-per-matrix
//   kernels (lu_thread.cuh);
//   getri of complex types 27..32 and of every type for 32 < n <= columns_serve_max<T>() (64; double
//   complex 45): getri by columns (getri_columns.cuh), one thread per column of the inverse; matinv at those
//   orders = the blocked getrf on C (a copy of A), then getri by columns in place;
//   getrf for 32 < n <= two_warp_max_n (64; without pivoting double 60, single complex 44; double complex 36):
//   the two-warp lane-per-row kernel (lu_two_warps.cu; getrf+getrs and matinv by columns take it for their
//   factorization);
//   n > 32 from blocked_from() up: the blocked algorithm (lu_blocked.cuh, blocked.cuh): panel kernels and
//   cuBLAS's batched GEMM (getrf and so getrf+getrs, getri, matinv: up to blocked_max_n = 512);
//   other n > 32: one block per matrix, the matrix in shared memory when it fits, in place in global memory
//   otherwise (lu_general.cuh).
// dispatch_{s,d,c,z}.cu instantiate it once per precision. Work goes on the handle's stream; nothing here
// synchronizes the device.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "backend.hpp"
#include "context.hpp"
#include "blocked.cuh"
#include "cuda/getri_columns.hpp"
#include "cuda/lu_general.cuh"
#include "cuda/lu_registers.hpp"
#include "cuda/lu_two_warps.hpp"
#include "cuda_backend.hpp"

namespace smallla {
namespace cuda {

using namespace cuda_kernels;

inline cudaStream_t stream_of(const context &ctx) { return static_cast<cudaStream_t>(ctx.stream); }

// Calls f(std::integral_constant<int, n>) for 1 <= n <= register_max_n: the table of register kernels.
template <int N = 1, class F> inline void with_register_order(int n, F &&f) {
    if constexpr (N <= register_max_n) {
        if (n == N) f(std::integral_constant<int, N>{});
        else with_register_order<N + 1>(n, f);
    }
}

// Shared memory for a one-block-per-matrix kernel: the matrix too when it fits. Returns false when not even
// the vectors fit (orders far beyond what a batched library serves: n of about 10^4).
template <class T, class Kernel>
inline bool general_launch_config(context &ctx, Kernel kernel, int n, bool &in_shared, size_t &bytes) {
    const size_t limit = max_dynamic_shared_bytes(ctx);
    in_shared = general_shared_bytes<T>(n, true) <= limit;
    bytes = general_shared_bytes<T>(n, in_shared);
    if (bytes > limit) return false;
    if (bytes > 48 * 1024 && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) != cudaSuccess)
        return false;
    return true;
}

// From which order the blocked path serves a routine (up to blocked_max_n), measured on the H100 against the
// one-block kernel on the same data (perf/NOTES.md, second round, run 5): the factorization wins from 33 on
// (1.2-18x); the blocked inverses from 33 (s), 40 (matinv d/c/z, getri d), 48 (getri c); getri z from 46
// since its diagonal-block solves run a thread per column (fifth round: 1.05-1.4x the one-block kernel at
// 53-63, 0.9-0.95x at 49-52, where both are above cuBLAS). Where getri by columns serves, it comes first.
enum class blocked_routine { getrf, getri, matinv };
template <class T> int blocked_from(blocked_routine r) {
    if (const int n = blocked_min_n_override(); n > 0) return n;
    constexpr bool cplx = scalar_traits<T>::is_complex, dbl = sizeof(real_t<T>) == 8;
    switch (r) {
    case blocked_routine::getrf: return register_max_n + 1;
    case blocked_routine::matinv: return !cplx && !dbl ? 33 : 40;
    case blocked_routine::getri: return cplx ? (dbl ? 46 : 48) : (dbl ? 40 : 33);
    }
    return register_max_n + 1;
}

template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &a) {
    clear_stale_error();
    if (a.n <= register_max_n) {
        with_register_order(a.n, [&](auto N) { launch_getrf_registers<T, decltype(N)::value>(a, stream_of(ctx)); });
    } else if (two_warp_getrf_chosen<T>(a.n, a.ipiv.base != nullptr) ||
               (a.n >= blocked_from<T>(blocked_routine::getrf) && a.n <= blocked_max_n)) {
        return getrf_above_registers<T>(ctx, "getrf", a.n, a.A, a.ipiv, a.info, a.batch);
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, getrf_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "getrf", a.n);
        getrf_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, in_shared);
    }
    return check_launch(ctx, "getrf");
}

// True when getri of order n runs in registers (n <= 32, except double complex beyond 27: see
// getri_in_registers).
template <class T> inline bool getri_registers_serve(int n) {
    bool yes = false;
    with_register_order(n, [&](auto N) { yes = getri_in_registers<T, decltype(N)::value>(); });
    return yes;
}

// True when getri of order n runs by columns: by default from columns_from_default<T>() (complex 27, real 33)
// to columns_serve_max<T>() (64; double complex 45), where it measured faster than the lane-per-row getri below
// 33 and 1.1-6x faster than the blocked and one-block kernels above (perf/NOTES.md, fifth round).
// SMALLLA_CUDA_GETRI_COLUMNS_FROM moves the lower end (up to the last instance), or turns it off, for
// measurements.
template <class T> inline bool getri_columns_serve(int n) {
    const int from = getri_columns_from_override();
    if (n < columns_min_order || n > (from > 0 ? columns_max_order<T>() : columns_serve_max<T>())) return false;
    if (from < 0) return false;
    return n >= (from > 0 ? from : columns_from_default<T>());
}

template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &a) {
    clear_stale_error();
    if (getri_columns_serve<T>(a.n)) {
        launch_getri_columns<T>(a, stream_of(ctx));
    } else if (getri_registers_serve<T>(a.n)) {
        with_register_order(a.n, [&](auto N) { launch_getri_registers<T, decltype(N)::value>(a, stream_of(ctx)); });
    } else if (a.n > register_max_n && a.n >= blocked_from<T>(blocked_routine::getri) && a.n <= blocked_max_n) {
        return getri_blocked<T>(ctx, "getri", a.n, a.A, a.ipiv, a.C, a.info, a.batch);
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, getri_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "getri", a.n);
        getri_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.C), a.info, in_shared);
    }
    return check_launch(ctx, "getri");
}

template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &a) {
    clear_stale_error();
    if (a.n <= register_max_n) {
        with_register_order(a.n, [&](auto N) { launch_matinv_registers<T, decltype(N)::value>(a, stream_of(ctx)); });
    } else if (getri_columns_serve<T>(a.n)) {
        return matinv_by_columns<T>(ctx, "matinv", a.n, a.A, a.C, a.info, a.batch);
    } else if (a.n >= blocked_from<T>(blocked_routine::matinv) && a.n <= blocked_max_n) {
        return matinv_blocked<T>(ctx, "matinv", a.n, a.A, a.C, a.info, a.batch);
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, matinv_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "matinv", a.n);
        matinv_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_batch_ref(a.C), a.info, in_shared);
    }
    return check_launch(ctx, "matinv");
}

template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &a) {
    clear_stale_error();
    if (a.n <= register_max_n) {
        with_register_order(a.n, [&](auto N) { launch_getrs_registers<T, decltype(N)::value>(a, stream_of(ctx)); });
    } else {
        // One warp per (matrix, right-hand side), its right-hand side staged in shared memory.
        const size_t limit = max_dynamic_shared_bytes(ctx), per_warp = (size_t)a.n * sizeof(T);
        int warps = 4;
        while (warps > 1 && warps * per_warp > limit) --warps;
        const size_t bytes = warps * per_warp;
        if (bytes > limit) return too_large(ctx, "getrs", a.n);
        if (bytes > 48 * 1024 &&
            cudaFuncSetAttribute(getrs_general<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) != cudaSuccess)
            return too_large(ctx, "getrs", a.n);
        const long long jobs = (long long)a.batch * a.nrhs;
        const long long blocks = (jobs + warps - 1) / warps;
        getrs_general<T><<<(unsigned)blocks, warps * 32, bytes, stream_of(ctx)>>>(
            a.trans, a.n, a.nrhs, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.B), jobs);
    }
    return check_launch(ctx, "getrs");
}

#define SMALLLA_CUDA_DISPATCH_INSTANTIATE(T)                                     \
    template smallla_status_t getrf<T>(context &, const getrf_args<T> &);        \
    template smallla_status_t getri<T>(context &, const getri_args<T> &);        \
    template smallla_status_t matinv<T>(context &, const matinv_args<T> &);      \
    template smallla_status_t getrs<T>(context &, const getrs_args<T> &);

}  // namespace cuda
}  // namespace smallla
