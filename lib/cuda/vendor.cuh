// The vendor route (routing family `vendor`): cuSOLVER's single-matrix potrf, getrf and getrs, and cuBLAS's TRSM, on
// each matrix of the batch, spread over a few side streams of the handle (forked from and joined back into the
// handle's stream by events, so the call stays asynchronous). It serves large orders with few matrices, where one
// matrix must use the whole GPU. Pointer-array batches are copied to a packed workspace chunk by chunk (their device
// pointers are not visible to the host without a synchronization) and back. potrf (and posv's factorization) is
// routed in every build; the LU routes only in measurement builds (routes.hpp).
// getri and matinv solve A X = I with getrs (X = inv(U) inv(L) P); a matrix with an exactly zero U(j,j) gets
// info = j and the factors in C, as the other routes leave them.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <string>

#include "backend.hpp"
#include "context.hpp"
#include "blocked.cuh"
#include "cuda/batch_copy.cuh"
#include "cuda/chol.hpp"
#include "cuda/lu_blocked.cuh"
#include "cuda_backend.hpp"
#include "replay.hpp"

namespace smallla {
namespace cuda {

using namespace cuda_kernels;

// cuSOLVER's and cuBLAS's single-matrix routines, typed.
#define SMALLLA_VENDOR_OVERLOADS(B, X)                                                                             \
    inline cusolverStatus_t vendor_getrf_work(cusolverDnHandle_t h, int n, B *a, int lda, int *lwork) {          \
        return cusolverDn##X##getrf_bufferSize(h, n, n, a, lda, lwork);                                           \
    }                                                                                                             \
    inline cusolverStatus_t vendor_getrf(cusolverDnHandle_t h, int n, B *a, int lda, B *work, int *ipiv,         \
                                         int *info) {                                                             \
        return cusolverDn##X##getrf(h, n, n, a, lda, work, ipiv, info);                                          \
    }                                                                                                             \
    inline cusolverStatus_t vendor_getrs(cusolverDnHandle_t h, cublasOperation_t op, int n, int nrhs, const B *a, \
                                         int lda, const int *ipiv, B *b, int ldb, int *info) {                    \
        return cusolverDn##X##getrs(h, op, n, nrhs, a, lda, ipiv, b, ldb, info);                                 \
    }                                                                                                             \
    inline cusolverStatus_t vendor_potrf_work(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, B *a, int lda, \
                                              int *lwork) {                                                       \
        return cusolverDn##X##potrf_bufferSize(h, uplo, n, a, lda, lwork);                                        \
    }                                                                                                             \
    inline cusolverStatus_t vendor_potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, B *a, int lda,      \
                                         B *work, int lwork, int *info) {                                         \
        return cusolverDn##X##potrf(h, uplo, n, a, lda, work, lwork, info);                                       \
    }                                                                                                             \
    inline cusolverStatus_t vendor_potrf_batched(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, B **a,      \
                                                 int lda, int *info, int batch) {                                 \
        return cusolverDn##X##potrfBatched(h, uplo, n, a, lda, info, batch);                                      \
    }                                                                                                             \
    inline cublasStatus_t vendor_trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op,             \
                                      cublasDiagType_t diag, int n, int nrhs, const B *one, const B *a, int lda,  \
                                      B *b, int ldb) {                                                            \
        return cublas##X##trsm(h, CUBLAS_SIDE_LEFT, uplo, op, diag, n, nrhs, one, a, lda, b, ldb);                \
    }
SMALLLA_VENDOR_OVERLOADS(float, S)
SMALLLA_VENDOR_OVERLOADS(double, D)
SMALLLA_VENDOR_OVERLOADS(cuComplex, C)
SMALLLA_VENDOR_OVERLOADS(cuDoubleComplex, Z)
#undef SMALLLA_VENDOR_OVERLOADS

inline cublasOperation_t blas_op(smallla_operation_t t) {
    return t == SMALLLA_OP_N ? CUBLAS_OP_N : (t == SMALLLA_OP_T ? CUBLAS_OP_T : CUBLAS_OP_C);
}

// A batch chunk as the host sees it: matrix b at base + b * stride (the caller's strided batch, or a packed
// workspace holding a pointer-array chunk).
template <class T> struct host_view {
    T *base;
    int ld;
    long long stride;
    T *operator[](long long b) const { return base + b * stride; }
};
template <class T> batch_ref<T> as_ref(const host_view<T> &v) { return {v.base, nullptr, v.stride, v.ld}; }

// The work of one call: how many matrices a chunk holds (all of a strided batch), the side streams, the scratch
// (per lane: cuSOLVER's workspace and an info word; then the packed chunks).
struct vendor_plan {
    int lanes = 1;
    long long chunk = 1;
    size_t lane_bytes = 0;
    scratch ws;
    char *lane_area(int l) const { return static_cast<char *>(ws.ptr) + (size_t)l * lane_bytes; }
    char *packed_area() const { return static_cast<char *>(ws.ptr) + (size_t)lanes * lane_bytes; }
};

// Bytes of packed matrices a pointer-array chunk aims at (halved while they cannot be had): fixed, so that a
// call asks the device nothing about its free memory.
constexpr size_t vendor_chunk_bytes = size_t(256) << 20;

// Sets up a call: the side streams and handles for min(batch, vendor_lanes_max) lanes, one allocation of
// `work_elems` scalars per lane plus `packed_per_matrix` bytes per matrix of a chunk (0: nothing packed).
template <class T>
smallla_status_t vendor_prepare(context &ctx, const char *routine, int batch, size_t work_elems,
                                size_t packed_per_matrix, vendor_plan &plan) {
    plan.lanes = std::max(1, std::min(batch, vendor_lanes_max));
    if (smallla_status_t s = vendor_lanes_ready(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
    plan.lane_bytes = (work_elems * sizeof(T) + sizeof(int) + 255) / 256 * 256;
    plan.chunk = batch;
    if (packed_per_matrix > 0)
        plan.chunk = balanced_chunk(batch, std::max<long long>(1, (long long)(vendor_chunk_bytes / packed_per_matrix)));
    auto bytes = [&] { return (size_t)plan.lanes * plan.lane_bytes + (size_t)plan.chunk * packed_per_matrix; };
    while (plan.chunk > 1 && !plan.ws.try_allocate(ctx, bytes())) plan.chunk = (plan.chunk + 1) / 2;
    if (plan.ws.ptr == nullptr) return plan.ws.allocate(ctx, routine, bytes());
    return SMALLLA_SUCCESS;
}

// The lane that matrix b of a chunk goes to.
inline int lane_of(long long b, int lanes) { return (int)(b % lanes); }

template <class T>
smallla_status_t getrf_vendor(context &ctx, const char *routine, const getrf_args<T> &a) {
    using B = typename blas_types<T>::B;
    const int n = a.n;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const bool packed = a.A.is_pointer_array();
    int lwork = 0;
    if (smallla_status_t s = vendor_lanes_ready(ctx, routine, 1); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s = check_solver(ctx, routine, vendor_getrf_work(vendor_solver(ctx, 0), n, (B *)nullptr, n, &lwork));
        s != SMALLLA_SUCCESS)
        return s;
    vendor_plan plan;
    if (smallla_status_t s = vendor_prepare<T>(ctx, routine, a.batch, (size_t)lwork, packed ? (size_t)n * n * sizeof(T) : 0, plan);
        s != SMALLLA_SUCCESS)
        return s;
    for (long long first = 0; first < a.batch; first += plan.chunk) {
        const int count = (int)std::min<long long>(plan.chunk, a.batch - first);
        host_view<T> m{a.A.base + (packed ? 0 : first * a.A.stride), a.A.ld, a.A.stride};
        if (packed) {
            m = host_view<T>{reinterpret_cast<T *>(plan.packed_area()), n, (long long)n * n};
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, as_const(make_batch_ref(sub_batch(a.A, first))),
                                                                     as_ref(m));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
        if (smallla_status_t s = vendor_fork(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
        for (int b = 0; b < count; ++b) {
            const int l = lane_of(b, plan.lanes);
            int *piv = a.ipiv.base ? a.ipiv.base + (first + b) * a.ipiv.stride : nullptr;
            const cusolverStatus_t st = vendor_getrf(vendor_solver(ctx, l), n, reinterpret_cast<B *>(m[b]), m.ld,
                                                     reinterpret_cast<B *>(plan.lane_area(l)), piv, a.info + first + b);
            if (st != CUSOLVER_STATUS_SUCCESS) {
                vendor_join(ctx, plan.lanes);
                return check_solver(ctx, routine, st);
            }
        }
        if (smallla_status_t s = vendor_join(ctx, plan.lanes); s != SMALLLA_SUCCESS) return s;
        if (packed) {
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, as_const(as_ref(m)),
                                                                     make_batch_ref(sub_batch(a.A, first)));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
    }
    return SMALLLA_SUCCESS;
}

// potrf, and posv's factorization, by cuSOLVER's potrf on each matrix. cuSOLVER does not take a NaN pivot for a
// failure, so a kernel after it sets info where the factor's diagonal holds the first NaN (LAPACK's rule).
// Pointer-array chunks are factored in a packed copy of their uplo triangles (a kernel before makes it).
template <class T> smallla_status_t potrf_vendor(context &ctx, const char *routine, const chol_launch<T> &l) {
    using B = typename blas_types<T>::B;
    const int n = l.n;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const cublasFillMode_t uplo = l.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const bool packed = l.A.ptrs != nullptr;
    int lwork = 0;
    if (smallla_status_t s = vendor_lanes_ready(ctx, routine, 1); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s = check_solver(ctx, routine, vendor_potrf_work(vendor_solver(ctx, 0), uplo, n, (B *)nullptr,
                                                                           packed ? n : l.A.ld, &lwork));
        s != SMALLLA_SUCCESS)
        return s;
    vendor_plan plan;
    if (smallla_status_t s = vendor_prepare<T>(ctx, routine, (int)l.batch, (size_t)lwork,
                                               packed ? (size_t)n * n * sizeof(T) : 0, plan);
        s != SMALLLA_SUCCESS)
        return s;
    const long long nn = (long long)n * n;
    T *area = packed ? reinterpret_cast<T *>(plan.packed_area()) : nullptr;
    for (long long first = 0; first < l.batch; first += plan.chunk) {
        const int count = (int)std::min<long long>(plan.chunk, l.batch - first);
        launch_chol_vendor_part<T>(l, 0, first, count, area, nn, stream);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        if (smallla_status_t s = vendor_fork(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
        for (int b = 0; b < count; ++b) {
            const int lane = lane_of(b, plan.lanes);
            T *m = packed ? area + b * nn : l.A.base + (first + b) * l.A.stride;
            const cusolverStatus_t st =
                vendor_potrf(vendor_solver(ctx, lane), uplo, n, reinterpret_cast<B *>(m), packed ? n : l.A.ld,
                             reinterpret_cast<B *>(plan.lane_area(lane)), lwork, l.info + first + b);
            if (st != CUSOLVER_STATUS_SUCCESS) {
                vendor_join(ctx, plan.lanes);
                return check_solver(ctx, routine, st);
            }
        }
        if (smallla_status_t s = vendor_join(ctx, plan.lanes); s != SMALLLA_SUCCESS) return s;
        launch_chol_vendor_part<T>(l, 1, first, count, area, nn, stream);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    }
    return SMALLLA_SUCCESS;
}

// potrf, and posv's factorization, by cuSOLVER's batched potrf (family vendor_batched), with the same kernels before
// and after it as potrf_vendor's. cuSOLVER's batched potrf takes the lower triangle for workspace when it factors
// the upper one, so the upper case works on a packed copy of its triangle (at most 256 MiB of it at a time); the
// lower case works in place, through a pointer array in scratch for a strided batch.
template <class T> smallla_status_t potrf_vendor_batched(context &ctx, const char *routine, const chol_launch<T> &l) {
    using B = typename blas_types<T>::B;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const cublasFillMode_t uplo = l.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const int n = l.n;
    const long long nn = (long long)n * n;
    const bool packed = l.upper, need_pointers = packed || l.A.ptrs == nullptr;
    const size_t per_matrix = sizeof(T *) + (packed ? (size_t)nn * sizeof(T) : 0);
    long long chunk = packed ? balanced_chunk(l.batch, std::max<long long>(1, (long long)(vendor_chunk_bytes / per_matrix)))
                             : l.batch;
    const auto pointer_bytes = [&](long long c) { return ((size_t)c * sizeof(T *) + 255) / 256 * 256; };
    scratch ws;
    if (need_pointers) {
        while (chunk > 1 && !ws.try_allocate(ctx, pointer_bytes(chunk) + (size_t)chunk * (per_matrix - sizeof(T *))))
            chunk = (chunk + 1) / 2;
        if (ws.ptr == nullptr)
            if (smallla_status_t s = ws.allocate(ctx, routine, pointer_bytes(1) + per_matrix); s != SMALLLA_SUCCESS) return s;
    }
    T **const made = static_cast<T **>(ws.ptr);
    T *const M = packed ? reinterpret_cast<T *>(static_cast<char *>(ws.ptr) + pointer_bytes(chunk)) : nullptr;
    if (smallla_status_t s = vendor_lanes_ready(ctx, routine, 1); s != SMALLLA_SUCCESS) return s;
    for (long long first = 0; first < l.batch; first += chunk) {
        const int count = (int)std::min<long long>(chunk, l.batch - first);
        T **ptrs = made;
        if (packed) {
            element_pointers<T><<<grid_for(count, 256), 256, 0, stream>>>(batch_ref<T>{M, nullptr, nn, n}, 0, 0, count, made);
        } else if (l.A.ptrs == nullptr) {
            const batch_ref<T> part{l.A.base + first * l.A.stride, nullptr, l.A.stride, l.A.ld};
            element_pointers<T><<<grid_for(count, 256), 256, 0, stream>>>(part, 0, 0, count, made);
        } else {
            ptrs = const_cast<T **>(l.A.ptrs) + first;
        }
        launch_chol_vendor_part<T>(l, 0, first, count, M, nn, stream);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        if (smallla_status_t s = vendor_fork(ctx, routine, 1); s != SMALLLA_SUCCESS) return s;
        const cusolverStatus_t st = vendor_potrf_batched(vendor_solver(ctx, 0), uplo, n, reinterpret_cast<B **>(ptrs),
                                                         packed ? n : l.A.ld, l.info + first, count);
        vendor_join(ctx, 1);
        if (st != CUSOLVER_STATUS_SUCCESS) return check_solver(ctx, routine, st);
        launch_chol_vendor_part<T>(l, 1, first, count, M, nn, stream);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    }
    return SMALLLA_SUCCESS;
}

// potrf's factorization by a vendor route (family vendor or vendor_batched), from a graph when the same call repeats
// (replay.hpp) and the packed copies and pointer array it keeps with the graph fit replay_memory_max.
template <class T>
smallla_status_t potrf_vendor_replayed(context &ctx, const char *routine, family f, const chol_launch<T> &l) {
    auto queue = [&] {
        return f == family::vendor ? potrf_vendor<T>(ctx, routine, l) : potrf_vendor_batched<T>(ctx, routine, l);
    };
    const size_t matrices = (size_t)l.batch * (size_t)l.n * (size_t)l.n * sizeof(T);
    const size_t kept = f == family::vendor ? (l.A.ptrs != nullptr ? matrices : 0)
                                            : (size_t)l.batch * sizeof(T *) + (l.upper ? matrices : 0);
    if (kept > replay_memory_max) return queue();
    replay_key key;
    const std::uintptr_t words[8] = {
        (std::uintptr_t)routine::potrf | (std::uintptr_t)f << 8 | (std::uintptr_t)scalar_traits<T>::letter << 16 |
            (std::uintptr_t)l.upper << 24,
        (std::uintptr_t)l.n,
        reinterpret_cast<std::uintptr_t>(l.A.base),
        reinterpret_cast<std::uintptr_t>(l.A.ptrs),
        (std::uintptr_t)l.A.ld,
        (std::uintptr_t)l.A.stride,
        reinterpret_cast<std::uintptr_t>(l.info),
        (std::uintptr_t)l.batch};
    std::copy(words, words + 8, key.word);
    return replayed(ctx, routine, key, queue);
}

// X := op(A)^{-1} X for matrices b of a chunk on their lanes (cuSOLVER's getrs with pivots, two TRSMs without).
template <class T>
smallla_status_t vendor_solve(context &ctx, const char *routine, const vendor_plan &plan, smallla_operation_t trans,
                              int n, int nrhs, const host_view<T> &factors, const int *ipiv, long long piv_stride,
                              const host_view<T> &x, int count) {
    using B = typename blas_types<T>::B;
    const B one = blas_types<T>::one();
    const cublasOperation_t op = blas_op(trans);
    for (int b = 0; b < count; ++b) {
        const int l = lane_of(b, plan.lanes);
        const B *f = reinterpret_cast<const B *>(factors[b]);
        B *xb = reinterpret_cast<B *>(x[b]);
        if (ipiv != nullptr) {
            int *dinfo = reinterpret_cast<int *>(plan.lane_area(l) + plan.lane_bytes - sizeof(int));
            if (smallla_status_t s = check_solver(ctx, routine, vendor_getrs(vendor_solver(ctx, l), op, n, nrhs, f,
                                                                             factors.ld, ipiv + b * piv_stride, xb,
                                                                             x.ld, dinfo));
                s != SMALLLA_SUCCESS)
                return s;
        } else {
            // op N: L (unit lower) then U; op T/C: op(U) (lower) then op(L).
            const bool n_op = trans == SMALLLA_OP_N;
            cublasHandle_t h = vendor_blas(ctx, l);
            const cublasFillMode_t first_uplo = n_op ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
            const cublasFillMode_t second_uplo = n_op ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
            const cublasDiagType_t first_diag = n_op ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
            const cublasDiagType_t second_diag = n_op ? CUBLAS_DIAG_NON_UNIT : CUBLAS_DIAG_UNIT;
            if (smallla_status_t s = check_blas(ctx, routine, vendor_trsm(h, first_uplo, op, first_diag, n, nrhs, &one, f,
                                                                          factors.ld, xb, x.ld));
                s != SMALLLA_SUCCESS)
                return s;
            if (smallla_status_t s = check_blas(ctx, routine, vendor_trsm(h, second_uplo, op, second_diag, n, nrhs, &one,
                                                                          f, factors.ld, xb, x.ld));
                s != SMALLLA_SUCCESS)
                return s;
        }
    }
    return SMALLLA_SUCCESS;
}

template <class T>
smallla_status_t getrs_vendor(context &ctx, const char *routine, const getrs_args<T> &a) {
    const int n = a.n;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const bool packed = a.A.is_pointer_array() || a.B.is_pointer_array();
    const size_t per_matrix = packed ? ((size_t)n * n + (size_t)n * a.nrhs) * sizeof(T) : 0;
    vendor_plan plan;
    if (smallla_status_t s = vendor_prepare<T>(ctx, routine, a.batch, 0, per_matrix, plan); s != SMALLLA_SUCCESS) return s;
    for (long long first = 0; first < a.batch; first += plan.chunk) {
        const int count = (int)std::min<long long>(plan.chunk, a.batch - first);
        host_view<T> f{const_cast<T *>(a.A.base) + first * a.A.stride, a.A.ld, a.A.stride};
        host_view<T> x{a.B.base + first * a.B.stride, a.B.ld, a.B.stride};
        if (packed) {
            T *area = reinterpret_cast<T *>(plan.packed_area());
            f = host_view<T>{area, n, (long long)n * n};
            x = host_view<T>{area + (size_t)plan.chunk * n * n, n, (long long)n * a.nrhs};
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, make_batch_ref(sub_batch(a.A, first)), as_ref(f));
            copy_block<T><<<count, copy_threads, 0, stream>>>(n, a.nrhs, as_const(make_batch_ref(sub_batch(a.B, first))),
                                                               as_ref(x));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
        if (smallla_status_t s = vendor_fork(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
        const int *ipiv = a.ipiv.base ? a.ipiv.base + first * a.ipiv.stride : nullptr;
        const smallla_status_t solved = vendor_solve<T>(ctx, routine, plan, a.trans, n, a.nrhs, f, ipiv, a.ipiv.stride, x, count);
        const smallla_status_t joined = vendor_join(ctx, plan.lanes);
        if (solved != SMALLLA_SUCCESS) return solved;
        if (joined != SMALLLA_SUCCESS) return joined;
        if (packed) {
            copy_block<T><<<count, copy_threads, 0, stream>>>(n, a.nrhs, as_const(as_ref(x)),
                                                               make_batch_ref(sub_batch(a.B, first)));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
    }
    return SMALLLA_SUCCESS;
}

// inv(A) into C from the factors F (F and C distinct): C = I and info (the first zero U(j,j)), C = inv(A) by
// getrs, then C = F where info is nonzero. F and C are a chunk of `count` matrices as the host sees them.
template <class T>
smallla_status_t vendor_inverse(context &ctx, const char *routine, const vendor_plan &plan, int n,
                                const host_view<T> &f, const int *ipiv, long long piv_stride, const host_view<T> &c,
                                int *info, int count) {
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    getri_blocked_prepare<T><<<count, copy_threads, 0, stream>>>(n, as_const(as_ref(f)), as_ref(c), info);
    if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s = vendor_fork(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
    const smallla_status_t solved = vendor_solve<T>(ctx, routine, plan, SMALLLA_OP_N, n, n, f, ipiv, piv_stride, c, count);
    const smallla_status_t joined = vendor_join(ctx, plan.lanes);
    if (solved != SMALLLA_SUCCESS) return solved;
    if (joined != SMALLLA_SUCCESS) return joined;
    factors_where_singular<T><<<count, copy_threads, 0, stream>>>(n, as_const(as_ref(f)), as_ref(c), info);
    return check_launch(ctx, routine);
}

template <class T>
smallla_status_t getri_vendor(context &ctx, const char *routine, const getri_args<T> &a) {
    const int n = a.n;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const bool packed = a.A.is_pointer_array() || a.C.is_pointer_array();
    vendor_plan plan;
    if (smallla_status_t s = vendor_prepare<T>(ctx, routine, a.batch, 0, packed ? 2 * (size_t)n * n * sizeof(T) : 0, plan);
        s != SMALLLA_SUCCESS)
        return s;
    for (long long first = 0; first < a.batch; first += plan.chunk) {
        const int count = (int)std::min<long long>(plan.chunk, a.batch - first);
        host_view<T> f{const_cast<T *>(a.A.base) + first * a.A.stride, a.A.ld, a.A.stride};
        host_view<T> c{a.C.base + first * a.C.stride, a.C.ld, a.C.stride};
        if (packed) {
            T *area = reinterpret_cast<T *>(plan.packed_area());
            f = host_view<T>{area, n, (long long)n * n};
            c = host_view<T>{area + (size_t)plan.chunk * n * n, n, (long long)n * n};
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, make_batch_ref(sub_batch(a.A, first)), as_ref(f));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
        const int *ipiv = a.ipiv.base ? a.ipiv.base + first * a.ipiv.stride : nullptr;
        if (smallla_status_t s = vendor_inverse<T>(ctx, routine, plan, n, f, ipiv, a.ipiv.stride, c, a.info + first, count);
            s != SMALLLA_SUCCESS)
            return s;
        if (packed) {
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, as_const(as_ref(c)),
                                                                     make_batch_ref(sub_batch(a.C, first)));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
    }
    return SMALLLA_SUCCESS;
}

// matinv: the factors of each chunk in a packed workspace (C may be A), then vendor_inverse into C.
template <class T>
smallla_status_t matinv_vendor(context &ctx, const char *routine, const matinv_args<T> &a) {
    using B = typename blas_types<T>::B;
    const int n = a.n;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const bool packed_c = a.C.is_pointer_array();
    int lwork = 0;
    if (smallla_status_t s = vendor_lanes_ready(ctx, routine, 1); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s = check_solver(ctx, routine, vendor_getrf_work(vendor_solver(ctx, 0), n, (B *)nullptr, n, &lwork));
        s != SMALLLA_SUCCESS)
        return s;
    const size_t per_matrix = ((size_t)n * n * (packed_c ? 2 : 1)) * sizeof(T) + (size_t)n * sizeof(int);
    vendor_plan plan;
    if (smallla_status_t s = vendor_prepare<T>(ctx, routine, a.batch, (size_t)lwork, per_matrix, plan); s != SMALLLA_SUCCESS)
        return s;
    T *area = reinterpret_cast<T *>(plan.packed_area());
    const host_view<T> f{area, n, (long long)n * n};
    int *piv = reinterpret_cast<int *>(area + (size_t)plan.chunk * n * n * (packed_c ? 2 : 1));
    for (long long first = 0; first < a.batch; first += plan.chunk) {
        const int count = (int)std::min<long long>(plan.chunk, a.batch - first);
        host_view<T> c{a.C.base + first * a.C.stride, a.C.ld, a.C.stride};
        if (packed_c) c = host_view<T>{area + (size_t)plan.chunk * n * n, n, (long long)n * n};
        copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, make_batch_ref(sub_batch(a.A, first)), as_ref(f));
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        if (smallla_status_t s = vendor_fork(ctx, routine, plan.lanes); s != SMALLLA_SUCCESS) return s;
        for (int b = 0; b < count; ++b) {
            const int l = lane_of(b, plan.lanes);
            const cusolverStatus_t st = vendor_getrf(vendor_solver(ctx, l), n, reinterpret_cast<B *>(f[b]), n,
                                                     reinterpret_cast<B *>(plan.lane_area(l)), piv + (size_t)b * n,
                                                     a.info + first + b);
            if (st != CUSOLVER_STATUS_SUCCESS) {
                vendor_join(ctx, plan.lanes);
                return check_solver(ctx, routine, st);
            }
        }
        if (smallla_status_t s = vendor_join(ctx, plan.lanes); s != SMALLLA_SUCCESS) return s;
        if (smallla_status_t s = vendor_inverse<T>(ctx, routine, plan, n, f, piv, n, c, a.info + first, count);
            s != SMALLLA_SUCCESS)
            return s;
        if (packed_c) {
            copy_unless_same<T><<<count, copy_threads, 0, stream>>>(n, as_const(as_ref(c)),
                                                                     make_batch_ref(sub_batch(a.C, first)));
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        }
    }
    return SMALLLA_SUCCESS;
}

}  // namespace cuda
}  // namespace smallla
