// The CUDA backend's dispatch: each routine asks the handle's routing table (kernels/cuda/routing: one per GPU
// architecture, chosen at smallla_create) which kernel family serves the call, and runs it on the handle's stream.
// Nothing else decides between kernels; nothing here synchronizes the device. dispatch_{s,d,c,z}.cu instantiate it
// once per precision.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "backend.hpp"
#include "blocked.cuh"
#include "context.hpp"
#include "cuda/batch_copy.cuh"
#include "cuda/chol.hpp"
#include "cuda/getrf_iter.hpp"
#include "cuda/getri_columns.hpp"
#include "cuda/lu_general.cuh"
#include "cuda/lu_registers.hpp"
#include "cuda/lu_two_warps.hpp"
#include "cuda_backend.hpp"
#include "vendor.cuh"  // cuSOLVER: potrf and posv of a few large matrices; LU in measurement builds only (routes.hpp)

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
    if (allow_dynamic_shared(kernel, bytes) != cudaSuccess) return false;
    return true;
}

inline bool register_family(family f) {
    return f == family::thread || f == family::lane || f == family::lane_rolled || f == family::two_rows ||
           f == family::prefetch;
}

// An internal error for a route that the kernels cannot serve (a table that routing/routes.hpp's checks let by).
inline smallla_status_t no_kernel(context &ctx, const char *routine_name, int n) {
    return fail(&ctx, SMALLLA_INTERNAL_ERROR,
                std::string("smallla ") + routine_name + " (CUDA backend): the routing table has no kernel for n = " +
                    std::to_string(n));
}

template <class T> smallla_status_t getrf_routed(context &ctx, const getrf_args<T> &a);
template <class T> smallla_status_t getri_routed(context &ctx, const getri_args<T> &a);
template <class T> smallla_status_t matinv_routed(context &ctx, const matinv_args<T> &a);
template <class T> smallla_status_t getrs_routed(context &ctx, const getrs_args<T> &a);

// NULL entries of pointer arrays: the matrix is skipped (its matrices neither read nor written, info[b] = -argno).
// The kernels never see a NULL: in a call with a pointer array, every array of the call is handed to them as a
// pointer array in which each matrix with a NULL entry in any of the call's arrays is replaced by a stand-in (one
// scratch matrix that all of them share, and compute garbage on), and info is marked after the routine's work. A
// strided call takes none of this.
template <class T> struct stand_ins {
    scratch ws;
    // x and y (the call's two arrays; y may be x) as arrays with the stand-in for every matrix missing in either.
    template <class X, class Y>
    smallla_status_t make(context &ctx, const char *routine, matrix_batch<X> &x, matrix_batch<Y> &y, int batch,
                          size_t stand_in_elems) {
        if (!x.is_pointer_array() && !y.is_pointer_array()) return SMALLLA_SUCCESS;
        const size_t arrays = (2 * (size_t)batch * sizeof(void *) + 255) / 256 * 256;
        if (smallla_status_t s = ws.allocate(ctx, routine, arrays + stand_in_elems * sizeof(T)); s != SMALLLA_SUCCESS)
            return s;
        X **x_eff = static_cast<X **>(ws.ptr);
        Y **y_eff = reinterpret_cast<Y **>(static_cast<char *>(ws.ptr) + (size_t)batch * sizeof(void *));
        T *stand_in = reinterpret_cast<T *>(static_cast<char *>(ws.ptr) + arrays);
        stand_in_for_missing<<<grid_for(batch, 256), 256, 0, static_cast<cudaStream_t>(ctx.stream)>>>(
            make_batch_ref(x), make_batch_ref(y), batch, stand_in, x_eff, y_eff);
        x.ptrs = x_eff, x.base = nullptr;
        y.ptrs = y_eff, y.base = nullptr;
        return check_launch(ctx, routine);
    }
};
template <class X, class Y>
smallla_status_t mark_missing_after(context &ctx, const char *routine, smallla_status_t done, const matrix_batch<X> &x,
                                    const matrix_batch<Y> &y, int *info, int batch) {
    if (done != SMALLLA_SUCCESS || (!x.is_pointer_array() && !y.is_pointer_array())) return done;
    mark_missing<<<grid_for(batch, 256), 256, 0, stream_of(ctx)>>>(make_batch_ref(x), x.argno, make_batch_ref(y),
                                                                    y.argno, info, batch);
    return check_launch(ctx, routine);
}
inline size_t matrix_elems(long long ld, int cols) { return (size_t)ld * (size_t)(cols > 0 ? cols : 1); }

template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &given) {
    getrf_args<T> a = given;
    stand_ins<T> s;
    matrix_batch<T> same = a.A;
    if (smallla_status_t st = s.make(ctx, "getrf", a.A, same, a.batch, matrix_elems(a.A.ld, a.n)); st != SMALLLA_SUCCESS)
        return st;
    return mark_missing_after(ctx, "getrf", getrf_routed(ctx, a), given.A, given.A, a.info, a.batch);
}
template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &given) {
    getri_args<T> a = given;
    stand_ins<T> s;
    if (smallla_status_t st = s.make(ctx, "getri", a.A, a.C, a.batch, matrix_elems(std::max(a.A.ld, a.C.ld), a.n));
        st != SMALLLA_SUCCESS)
        return st;
    return mark_missing_after(ctx, "getri", getri_routed(ctx, a), given.A, given.C, a.info, a.batch);
}
template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &given) {
    matinv_args<T> a = given;
    stand_ins<T> s;
    if (smallla_status_t st = s.make(ctx, "matinv", a.A, a.C, a.batch, matrix_elems(std::max(a.A.ld, a.C.ld), a.n));
        st != SMALLLA_SUCCESS)
        return st;
    return mark_missing_after(ctx, "matinv", matinv_routed(ctx, a), given.A, given.C, a.info, a.batch);
}
template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &given) {
    getrs_args<T> a = given;
    stand_ins<T> s;
    const size_t elems = std::max(matrix_elems(a.A.ld, a.n), matrix_elems(a.B.ld, a.nrhs));
    if (smallla_status_t st = s.make(ctx, "getrs", a.A, a.B, a.batch, elems); st != SMALLLA_SUCCESS) return st;
    return getrs_routed(ctx, a);
}

template <class T> smallla_status_t getrf_routed(context &ctx, const getrf_args<T> &a) {
    clear_stale_error();
    const bool pivoting = a.ipiv.base != nullptr;
    const family f = route(ctx, pivoting ? routine::getrf : routine::getrf_nopiv, scalar_traits<T>::letter, a.n, a.batch);
    if (register_family(f)) {
        if (a.n > register_max_n) return no_kernel(ctx, "getrf", a.n);
        with_register_order(a.n, [&](auto N) { launch_getrf_registers<T, decltype(N)::value>(a, f, stream_of(ctx)); });
    } else if (f == family::two_warps || f == family::blocked || f == family::wide) {
        return getrf_above_registers<T>(ctx, "getrf", a.n, a.A, a.ipiv, a.info, a.batch);
    } else if (f == family::large) {
        return getrf_blocked<T>(ctx, "getrf", a.n, a.A, a.ipiv, a.info, a.batch);
#if defined(SMALLLA_TUNING)
    } else if (f == family::vendor) {
        return getrf_vendor<T>(ctx, "getrf", a);
#endif
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, getrf_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "getrf", a.n);
        getrf_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, in_shared);
    }
    return check_launch(ctx, "getrf");
}

template <class T> smallla_status_t getri_routed(context &ctx, const getri_args<T> &a) {
    clear_stale_error();
    const family f = route(ctx, routine::getri, scalar_traits<T>::letter, a.n, a.batch);
    if (register_family(f)) {
        if (a.n > register_max_n) return no_kernel(ctx, "getri", a.n);
        with_register_order(a.n, [&](auto N) { launch_getri_registers<T, decltype(N)::value>(a, f, stream_of(ctx)); });
    } else if (f == family::columns) {
        launch_getri_columns<T>(a, stream_of(ctx));
    } else if (f == family::blocked || f == family::large) {
        return getri_blocked<T>(ctx, "getri", a.n, a.A, a.ipiv, a.C, a.info, a.batch, nullptr, f == family::large);
#if defined(SMALLLA_TUNING)
    } else if (f == family::vendor) {
        return getri_vendor<T>(ctx, "getri", a);
#endif
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, getri_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "getri", a.n);
        getri_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.C), a.info, in_shared);
    }
    return check_launch(ctx, "getri");
}

template <class T> smallla_status_t matinv_routed(context &ctx, const matinv_args<T> &a) {
    clear_stale_error();
    const family f = route(ctx, routine::matinv, scalar_traits<T>::letter, a.n, a.batch);
    if (register_family(f)) {
        if (a.n > register_max_n) return no_kernel(ctx, "matinv", a.n);
        with_register_order(a.n, [&](auto N) { launch_matinv_registers<T, decltype(N)::value>(a, f, stream_of(ctx)); });
    } else if (f == family::columns) {
        return matinv_by_columns<T>(ctx, "matinv", a.n, a.A, a.C, a.info, a.batch);
    } else if (f == family::blocked || f == family::large) {
        return matinv_blocked<T>(ctx, "matinv", a.n, a.A, a.C, a.info, a.batch, f == family::large);
#if defined(SMALLLA_TUNING)
    } else if (f == family::vendor) {
        return matinv_vendor<T>(ctx, "matinv", a);
#endif
    } else {
        bool in_shared;
        size_t bytes;
        if (!general_launch_config<T>(ctx, matinv_general<T>, a.n, in_shared, bytes)) return too_large(ctx, "matinv", a.n);
        matinv_general<T><<<a.batch, general_threads, bytes, stream_of(ctx)>>>(
            a.n, make_batch_ref(a.A), make_batch_ref(a.C), a.info, in_shared);
    }
    return check_launch(ctx, "matinv");
}

template <class T> smallla_status_t getrs_routed(context &ctx, const getrs_args<T> &a) {
    clear_stale_error();
    const family f = route(ctx, routine::getrs, scalar_traits<T>::letter, a.n, a.batch);
    if (register_family(f)) {
        if (a.n > register_max_n) return no_kernel(ctx, "getrs", a.n);
        with_register_order(a.n, [&](auto N) { launch_getrs_registers<T, decltype(N)::value>(a, f, stream_of(ctx)); });
    } else if (f == family::large) {
        return getrs_large<T>(ctx, "getrs", a);
#if defined(SMALLLA_TUNING)
    } else if (f == family::vendor) {
        return getrs_vendor<T>(ctx, "getrs", a);
#endif
    } else {
        // One warp per (matrix, right-hand side), its right-hand side staged in shared memory.
        const size_t limit = max_dynamic_shared_bytes(ctx), per_warp = (size_t)a.n * sizeof(T);
        int warps = 4;
        while (warps > 1 && warps * per_warp > limit) --warps;
        const size_t bytes = warps * per_warp;
        if (bytes > limit) return too_large(ctx, "getrs", a.n);
        if (allow_dynamic_shared(getrs_general<T>, bytes) != cudaSuccess) return too_large(ctx, "getrs", a.n);
        const long long jobs = (long long)a.batch * a.nrhs;
        const long long blocks = groups_for(jobs, warps);
        getrs_general<T><<<(unsigned)blocks, warps * 32, bytes, stream_of(ctx)>>>(
            a.trans, a.n, a.nrhs, make_batch_ref(a.A), make_pivots_ref(a.ipiv), make_batch_ref(a.B), jobs);
    }
    return check_launch(ctx, "getrs");
}

// The iterative Crout LU: one kernel (getrf_iter.cu) for every order, its arrays in shared memory or, for large
// orders, in a stream-ordered scratch.
template <class T> smallla_status_t getrf_iter(context &ctx, const getrf_iter_args<T> &a) {
    const char *fname = "smallla_getrf_iter (CUDA)";
    if (a.A.is_pointer_array() || a.LU.is_pointer_array())
        return fail(&ctx, SMALLLA_NOT_SUPPORTED, std::string(fname) + ": pointer arrays are not supported");
    clear_stale_error();
    const iter_layout l = getrf_iter_layout<T>(a.n, a.batch, max_dynamic_shared_bytes(ctx));
    scratch arrays;
    if (l.scratch_bytes > 0)
        if (smallla_status_t s = arrays.allocate(ctx, "getrf_iter", l.scratch_bytes); s != SMALLLA_SUCCESS) return s;
    const cudaError_t e = launch_getrf_iter<T>(a, l, arrays.ptr, stream_of(ctx));
    if (e != cudaSuccess)
        return fail(&ctx, SMALLLA_EXECUTION_FAILED, std::string(fname) + ": kernel launch failed: " + cudaGetErrorString(e));
    return SMALLLA_SUCCESS;
}

// ---- the Cholesky family (kernels/cuda/chol.cuh): lane kernels or one block per matrix, as the table routes ----
// A batch as the kernels take it (the read-only ones too: a kernel does not write what the routine only reads).
template <class T> batch_ref<T> chol_ref(const matrix_batch<T> &m) { return make_batch_ref(m); }
template <class T> batch_ref<T> chol_ref(const matrix_batch<const T> &m) {
    return {const_cast<T *>(m.base), const_cast<T *const *>(m.ptrs), m.stride, m.ld};
}

// The blocked left-looking factorization: per step of chol_step_nb columns, S = the product of the columns to their
// left (cuBLAS's GEMM into scratch: lower, L(k:n, 0:k) L(k:k+w, 0:k)^H; upper, U(0:k, k:n)^H U(0:k, k:k+w)), then
// the step kernel. The batch in chunks of at most 256 MiB of scratch.
template <class T> smallla_status_t chol_blocked(context &ctx, const char *name, const chol_launch<T> &l) {
    using B = typename blas_types<T>::B;
    cublasHandle_t h = nullptr;
    if (smallla_status_t st = blas_on_stream(ctx, name, h); st != SMALLLA_SUCCESS) return st;
    const cudaStream_t stream = stream_of(ctx);
    const int n = l.n, nb = chol_step_nb, ld = l.A.ld;
    const long long s_stride = (long long)n * nb;
    const size_t per_matrix = (size_t)s_stride * sizeof(T) + 3 * sizeof(void *);
    const long long chunk =
        balanced_chunk(l.batch, std::max<long long>(1, (long long)((size_t(256) << 20) / per_matrix)));
    scratch ws;
    if (n > nb)
        if (smallla_status_t st = ws.allocate(ctx, name, (size_t)chunk * per_matrix); st != SMALLLA_SUCCESS) return st;
    T *S = static_cast<T *>(ws.ptr);
    void **arrays = n > nb ? static_cast<void **>(static_cast<void *>(S + chunk * s_stride)) : nullptr;
    const B one = blas_types<T>::one(), zero = blas_types<T>::zero();
    const cublasOperation_t herm = scalar_traits<T>::is_complex ? CUBLAS_OP_C : CUBLAS_OP_T;
    for (long long first = 0; first < l.batch; first += chunk) {
        chol_launch<T> c = l;
        c.batch = std::min(chunk, l.batch - first);
        if (c.A.ptrs) c.A.ptrs += first;
        else c.A.base += first * c.A.stride;
        c.info = l.info + first;
        const int cb = (int)c.batch;
        for (int k = 0; k < n; k += nb) {
            const int m = n - k, w = std::min(nb, m);
            if (k > 0) {
                const long long row = l.upper ? 0 : k, col = l.upper ? k : 0;
                const cublasOperation_t ta = l.upper ? herm : CUBLAS_OP_N, tb = l.upper ? CUBLAS_OP_N : herm;
                cublasStatus_t bs;
                if (!c.A.ptrs) {
                    const B *a = reinterpret_cast<const B *>(c.A.base + row + col * ld);
                    bs = blas_gemm_strided(h, ta, tb, m, w, k, &one, a, ld, c.A.stride, a, ld, c.A.stride, &zero,
                                           reinterpret_cast<B *>(S), m, s_stride, cb);
                } else {
                    const T **pa = static_cast<const T **>(static_cast<void *>(arrays));
                    T **ps = static_cast<T **>(static_cast<void *>(arrays)) + cb;
                    element_pointers<const T><<<grid_for(cb, 256), 256, 0, stream>>>(as_const(c.A), row, col, cb, pa);
                    element_pointers<T><<<grid_for(cb, 256), 256, 0, stream>>>(batch_ref<T>{S, nullptr, s_stride, m}, 0,
                                                                               0, cb, ps);
                    if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
                    bs = blas_gemm_pointers(h, ta, tb, m, w, k, &one, reinterpret_cast<const B *const *>(pa), ld,
                                            reinterpret_cast<const B *const *>(pa), ld, &zero,
                                            reinterpret_cast<B *const *>(ps), m, cb);
                }
                if (smallla_status_t st = check_blas(ctx, name, bs); st != SMALLLA_SUCCESS) return st;
            }
            launch_chol_step<T>(c, k, k > 0 ? S : nullptr, s_stride, stream);
            if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
        }
    }
    return SMALLLA_SUCCESS;
}

// potrs and posv's solve by cuBLAS's TRSM (family blocked): two triangular solves of every matrix, at most 2^20
// matrices a call; the matrices whose info is not 0 solve into a scratch stand-in instead of their B.
template <class T> smallla_status_t chol_solve_blocked(context &ctx, const char *name, const chol_launch<T> &l) {
    using B = typename blas_types<T>::B;
    if (l.nrhs == 0 || l.batch == 0) return SMALLLA_SUCCESS;
    cublasHandle_t h = nullptr;
    if (smallla_status_t st = blas_on_stream(ctx, name, h); st != SMALLLA_SUCCESS) return st;
    const long long chunk = balanced_chunk(l.batch, 1LL << 20);
    const size_t standin_bytes = l.info ? (size_t)l.B.ld * (size_t)l.nrhs * sizeof(T) : 0;  // ld x nrhs, as cuBLAS reads it
    scratch ws;
    if (smallla_status_t st = ws.allocate(ctx, name, standin_bytes + 2 * (size_t)chunk * sizeof(void *));
        st != SMALLLA_SUCCESS)
        return st;
    void **arrays = static_cast<void **>(ws.ptr);  // the pointers first: the stand-in's size keeps no alignment
    T *standin = l.info ? static_cast<T *>(static_cast<void *>(arrays + 2 * chunk)) : nullptr;
    const T **pa = static_cast<const T **>(static_cast<void *>(arrays));
    T **pb = static_cast<T **>(static_cast<void *>(arrays + chunk));
    const B one = blas_types<T>::one();
    const cublasOperation_t herm = scalar_traits<T>::is_complex ? CUBLAS_OP_C : CUBLAS_OP_T;
    const cublasFillMode_t fill = l.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    // lower: L y = b, then L^H x = y; upper: U^H y = b, then U x = y
    const cublasOperation_t first_op = l.upper ? herm : CUBLAS_OP_N, second_op = l.upper ? CUBLAS_OP_N : herm;
    for (long long first = 0; first < l.batch; first += chunk) {
        const int count = (int)std::min(chunk, l.batch - first);
        launch_chol_solve_pointers<T>(l, first, count, standin, pa, pb, stream_of(ctx));
        if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
        for (const cublasOperation_t op : {first_op, second_op})
            if (smallla_status_t st = check_blas(ctx, name,
                                                 blas_trsm_pointers(h, fill, op, CUBLAS_DIAG_NON_UNIT, l.n, l.nrhs, &one,
                                                                    reinterpret_cast<const B *const *>(pa), l.A.ld,
                                                                    reinterpret_cast<B *const *>(pb), l.B.ld, count));
                st != SMALLLA_SUCCESS)
                return st;
    }
    return SMALLLA_SUCCESS;
}

// potri by cuBLAS's TRSM (family blocked), in chunks of at most 256 MiB of scratch: F = the lower form (info from
// its zero diagonal), W = I, W = inv(L) W, W = inv(L)^H W = inv(A), then the result stored where info is 0 (the
// others solve into a stand-in).
template <class T> smallla_status_t chol_inverse_blocked(context &ctx, const char *name, const chol_launch<T> &l) {
    using B = typename blas_types<T>::B;
    cublasHandle_t h = nullptr;
    if (smallla_status_t st = blas_on_stream(ctx, name, h); st != SMALLLA_SUCCESS) return st;
    const cudaStream_t stream = stream_of(ctx);
    const int n = l.n;
    const long long nn = (long long)n * n;
    const size_t per_matrix = 2 * (size_t)nn * sizeof(T) + 2 * sizeof(void *);
    const long long chunk =
        balanced_chunk(l.batch, std::max<long long>(1, (long long)((size_t(256) << 20) / per_matrix)));
    scratch ws;
    if (smallla_status_t st = ws.allocate(ctx, name, 2 * (size_t)chunk * sizeof(void *) + (2 * chunk + 1) * (size_t)nn * sizeof(T));
        st != SMALLLA_SUCCESS)
        return st;
    void **arrays = static_cast<void **>(ws.ptr);
    const T **pa = static_cast<const T **>(static_cast<void *>(arrays));
    T **pw = static_cast<T **>(static_cast<void *>(arrays + chunk));
    T *F = static_cast<T *>(static_cast<void *>(arrays + 2 * chunk));
    T *W = F + chunk * nn, *standin = W + chunk * nn;
    const B one = blas_types<T>::one();
    const cublasOperation_t herm = scalar_traits<T>::is_complex ? CUBLAS_OP_C : CUBLAS_OP_T;
    for (long long first = 0; first < l.batch; first += chunk) {
        const int count = (int)std::min(chunk, l.batch - first);
        launch_chol_inverse_part<T>(l, 0, first, count, F, nn, stream);
        if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
        chol_launch<T> f{chol_op::factor, false, n, 0, batch_ref<T>{F, nullptr, nn, n}, batch_ref<T>{}, l.info + first,
                         count};
        launch_chol_inverse_part<T>(l, 1, first, count, W, nn, stream);
        f.B = batch_ref<T>{W, nullptr, nn, n};
        launch_chol_solve_pointers<T>(f, 0, count, standin, pa, pw, stream);
        if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
        for (const cublasOperation_t op : {CUBLAS_OP_N, herm})  // inv(L) W, then inv(L)^H W
            if (smallla_status_t st = check_blas(ctx, name,
                                                 blas_trsm_pointers(h, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, n,
                                                                    n, &one, reinterpret_cast<const B *const *>(pa), n,
                                                                    reinterpret_cast<B *const *>(pw), n, count));
                st != SMALLLA_SUCCESS)
                return st;
        launch_chol_inverse_part<T>(l, 2, first, count, W, nn, stream);
        if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
    }
    return SMALLLA_SUCCESS;
}

template <class T> smallla_status_t chol_routed(context &ctx, const char *name, routine r, const chol_launch<T> &l);

// poinv beyond the lane kernels (family blocked): C = A's triangle, potrf and potri on C as their tables route them
// (potri's info, which would report the factor's zero diagonal, to scratch: poinv's info is potrf's), then C's
// other triangle from its uplo triangle. Where potrf failed, C is left as potri left it (not meaningful). The
// scratch is had before C is written, so that ALLOC_FAILED leaves it untouched: potri's info, and, unless both
// routes take none (potrf's panels or one block and potri's one block, in shared memory), as much as they take at
// most (256 MiB chunks), freed into the handle's pool, whose stream-ordered allocations then reuse it.
template <class T> smallla_status_t poinv_by_parts(context &ctx, const char *name, const chol_launch<T> &l) {
    const cudaStream_t stream = stream_of(ctx);
    scratch potri_info;
    if (smallla_status_t st = potri_info.allocate(ctx, name, (size_t)l.batch * sizeof(int)); st != SMALLLA_SUCCESS)
        return st;
    const char p = scalar_traits<T>::letter;
    const family factor_route = route(ctx, routine::potrf, p, l.n, l.batch);
    const bool no_scratch = (factor_route == family::panels || factor_route == family::one_block) &&
                            route(ctx, routine::potri, p, l.n, l.batch) == family::one_block &&
                            chol_block_bytes<T>(l.n, true) <= max_dynamic_shared_bytes(ctx);
    if (!no_scratch) {
        const size_t nn_bytes = (size_t)l.n * (size_t)l.n * sizeof(T), per_matrix = 2 * nn_bytes + 2 * sizeof(void *);
        const size_t routes_take = std::min((size_t)l.batch * per_matrix, size_t(256) << 20) + nn_bytes + 4096;
        scratch reserve;
        if (smallla_status_t st = reserve.allocate(ctx, name, routes_take); st != SMALLLA_SUCCESS) return st;
    }
    launch_chol_poinv_part<T>(l, 0, stream);
    if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
    const chol_launch<T> factor{chol_op::factor, l.upper, l.n, 0, l.B, batch_ref<T>{}, l.info, l.batch};
    if (smallla_status_t st = chol_routed(ctx, name, routine::potrf, factor); st != SMALLLA_SUCCESS) return st;
    const chol_launch<T> inverse{chol_op::inverse, l.upper, l.n, 0, l.B, batch_ref<T>{},
                                 static_cast<int *>(potri_info.ptr), l.batch};
    if (smallla_status_t st = chol_routed(ctx, name, routine::potri, inverse); st != SMALLLA_SUCCESS) return st;
    launch_chol_poinv_part<T>(l, 1, stream);
    return check_launch(ctx, name);
}

template <class T> smallla_status_t chol_routed(context &ctx, const char *name, routine r, const chol_launch<T> &l) {
    clear_stale_error();
    // posv beyond the lane kernels factors as potrf is routed (its solve is routed as potrs, below).
    const routine table_routine = r == routine::posv && l.n > lane_max_order ? routine::potrf : r;
    const family f = route(ctx, table_routine, scalar_traits<T>::letter, l.n, l.batch);
    if (f == family::thread) {
        if (launch_chol_thread<T>(l, stream_of(ctx)) != cudaSuccess) return no_kernel(ctx, name, l.n);
        return check_launch(ctx, name);
    }
    if (f == family::lane && l.n <= chol_lanes_max_order) {
        if (launch_chol_lanes<T>(l, stream_of(ctx)) != cudaSuccess) return no_kernel(ctx, name, l.n);
        return check_launch(ctx, name);
    }
    if (l.op == chol_op::solve && f == family::blocked) return chol_solve_blocked<T>(ctx, name, l);
    if (l.op == chol_op::inverse && f == family::blocked) return chol_inverse_blocked<T>(ctx, name, l);
    if (l.op == chol_op::full_inverse && f == family::blocked) return poinv_by_parts<T>(ctx, name, l);
    if ((f == family::panels && l.n <= chol_panel_max_order) || f == family::blocked || f == family::vendor ||
        f == family::vendor_batched || f == family::block_registers) {
        if (l.op != chol_op::factor) return no_kernel(ctx, name, l.n);
        if (f == family::block_registers) {
            if (launch_chol_registers<T>(l, stream_of(ctx)) != cudaSuccess) return no_kernel(ctx, name, l.n);
            if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS || l.nrhs == 0) return st;
        } else if (f == family::blocked) {
            if (smallla_status_t st = chol_blocked<T>(ctx, name, l); st != SMALLLA_SUCCESS || l.nrhs == 0) return st;
        } else if (f == family::vendor || f == family::vendor_batched) {
            if (smallla_status_t st = potrf_vendor_replayed<T>(ctx, name, f, l); st != SMALLLA_SUCCESS || l.nrhs == 0)
                return st;
        } else {
            if (launch_chol_panels<T>(l, stream_of(ctx)) != cudaSuccess) return too_large(ctx, name, l.n);
            if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS || l.nrhs == 0) return st;
        }
        chol_launch<T> solve = l;  // posv: the solve where the factorization succeeded (info is read)
        solve.op = chol_op::solve;
        return chol_routed(ctx, name, routine::potrs, solve);
    }
    if (l.op == chol_op::solve) {  // potrs, posv's solve: a warp per right-hand side
        if (launch_chol_solve<T>(l, max_dynamic_shared_bytes(ctx), stream_of(ctx)) != cudaSuccess)
            return too_large(ctx, name, l.n);
        return check_launch(ctx, name);
    }
    // One block per matrix; the lower form in shared memory, else in scratch, at most 256 MiB of it at a time.
    const size_t limit = max_dynamic_shared_bytes(ctx);
    const bool in_shared = chol_block_bytes<T>(l.n, true) <= limit;
    if (chol_block_bytes<T>(l.n, false) > limit) return too_large(ctx, name, l.n);
    scratch ws;
    long long chunk = l.batch;
    if (!in_shared) {
        const size_t per_matrix = (size_t)l.n * (size_t)l.n * sizeof(T);
        chunk = balanced_chunk(l.batch, std::max<long long>(1, (long long)((size_t(256) << 20) / per_matrix)));
        if (smallla_status_t st = ws.allocate(ctx, name, (size_t)chunk * per_matrix); st != SMALLLA_SUCCESS) return st;
    }
    for (long long first = 0; first < l.batch; first += chunk) {
        const cudaError_t e = launch_chol_block<T>(l, in_shared, static_cast<T *>(ws.ptr), first,
                                                   std::min(chunk, l.batch - first), stream_of(ctx));
        if (e != cudaSuccess) return too_large(ctx, name, l.n);
        if (smallla_status_t st = check_launch(ctx, name); st != SMALLLA_SUCCESS) return st;
    }
    if (l.op != chol_op::factor || l.nrhs == 0) return SMALLLA_SUCCESS;
    chol_launch<T> solve = l;  // posv: the solve where the factorization succeeded (info is read)
    solve.op = chol_op::solve;
    return chol_routed(ctx, name, routine::potrs, solve);
}

template <class T> smallla_status_t potrf(context &ctx, const potrf_args<T> &given) {
    potrf_args<T> a = given;
    stand_ins<T> s;
    matrix_batch<T> same = a.A;
    if (smallla_status_t st = s.make(ctx, "potrf", a.A, same, a.batch, matrix_elems(a.A.ld, a.n)); st != SMALLLA_SUCCESS)
        return st;
    const chol_launch<T> l{chol_op::factor, a.uplo == SMALLLA_FILL_UPPER, a.n, 0, chol_ref(a.A), batch_ref<T>{}, a.info,
                           a.batch};
    return mark_missing_after(ctx, "potrf", chol_routed(ctx, "potrf", routine::potrf, l), given.A, given.A, a.info,
                              a.batch);
}
template <class T> smallla_status_t posv(context &ctx, const posv_args<T> &given) {
    posv_args<T> a = given;
    stand_ins<T> s;
    const size_t elems = std::max(matrix_elems(a.A.ld, a.n), matrix_elems(a.B.ld, a.nrhs));
    if (smallla_status_t st = s.make(ctx, "posv", a.A, a.B, a.batch, elems); st != SMALLLA_SUCCESS) return st;
    const chol_launch<T> l{chol_op::factor, a.uplo == SMALLLA_FILL_UPPER, a.n, a.nrhs, chol_ref(a.A), chol_ref(a.B),
                           a.info, a.batch};
    return mark_missing_after(ctx, "posv", chol_routed(ctx, "posv", routine::posv, l), given.A, given.B, a.info, a.batch);
}
template <class T> smallla_status_t potrs(context &ctx, const potrs_args<T> &given) {
    potrs_args<T> a = given;
    stand_ins<T> s;
    const size_t elems = std::max(matrix_elems(a.A.ld, a.n), matrix_elems(a.B.ld, a.nrhs));
    if (smallla_status_t st = s.make(ctx, "potrs", a.A, a.B, a.batch, elems); st != SMALLLA_SUCCESS) return st;
    const chol_launch<T> l{chol_op::solve, a.uplo == SMALLLA_FILL_UPPER, a.n, a.nrhs, chol_ref(a.A), chol_ref(a.B),
                           nullptr, a.batch};
    return chol_routed(ctx, "potrs", routine::potrs, l);
}
template <class T> smallla_status_t potri(context &ctx, const potrf_args<T> &given) {
    potrf_args<T> a = given;
    stand_ins<T> s;
    matrix_batch<T> same = a.A;
    if (smallla_status_t st = s.make(ctx, "potri", a.A, same, a.batch, matrix_elems(a.A.ld, a.n)); st != SMALLLA_SUCCESS)
        return st;
    const chol_launch<T> l{chol_op::inverse, a.uplo == SMALLLA_FILL_UPPER, a.n, 0, chol_ref(a.A), batch_ref<T>{},
                           a.info, a.batch};
    return mark_missing_after(ctx, "potri", chol_routed(ctx, "potri", routine::potri, l), given.A, given.A, a.info,
                              a.batch);
}
template <class T> smallla_status_t poinv(context &ctx, const poinv_args<T> &given) {
    poinv_args<T> a = given;
    stand_ins<T> s;
    if (smallla_status_t st = s.make(ctx, "poinv", a.A, a.C, a.batch, matrix_elems(std::max(a.A.ld, a.C.ld), a.n));
        st != SMALLLA_SUCCESS)
        return st;
    const chol_launch<T> l{chol_op::full_inverse, a.uplo == SMALLLA_FILL_UPPER, a.n, 0, chol_ref(a.A), chol_ref(a.C),
                           a.info, a.batch};
    return mark_missing_after(ctx, "poinv", chol_routed(ctx, "poinv", routine::poinv, l), given.A, given.C, a.info,
                              a.batch);
}

#define SMALLLA_CUDA_DISPATCH_INSTANTIATE(T)                                     \
    template smallla_status_t getrf<T>(context &, const getrf_args<T> &);        \
    template smallla_status_t getri<T>(context &, const getri_args<T> &);        \
    template smallla_status_t matinv<T>(context &, const matinv_args<T> &);      \
    template smallla_status_t getrs<T>(context &, const getrs_args<T> &);        \
    template smallla_status_t getrf_iter<T>(context &, const getrf_iter_args<T> &); \
    template smallla_status_t potrf<T>(context &, const potrf_args<T> &);           \
    template smallla_status_t potrs<T>(context &, const potrs_args<T> &);           \
    template smallla_status_t posv<T>(context &, const posv_args<T> &);             \
    template smallla_status_t potri<T>(context &, const potrf_args<T> &);           \
    template smallla_status_t poinv<T>(context &, const poinv_args<T> &);

}  // namespace cuda
}  // namespace smallla
