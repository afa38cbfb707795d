// The blocked path's drivers: the sequence of panel kernels and cuBLAS calls on the handle's stream
// (kernels/cuda/lu_blocked.cuh has the kernels and the reasons). Nothing here synchronizes the device.
#pragma once

#include <algorithm>
#include <string>

#include "backend.hpp"
#include "common/grid.hpp"
#include "context.hpp"
#include "cuda/getri_columns.hpp"
#include "cuda/lu_blocked.cuh"
#include "cuda/lu_two_warps.hpp"
#include "cuda/routing/routes.hpp"
#include "cuda_backend.hpp"

namespace smallla {
namespace cuda {

using namespace cuda_kernels;

// Matrices first .. of a batch, as a batch of their own.
template <class T> matrix_batch<T> sub_batch(const matrix_batch<T> &m, long long first) {
    matrix_batch<T> s = m;
    if (m.is_pointer_array()) s.ptrs = m.ptrs + first;
    else s.base = m.base + first * m.stride;
    return s;
}

inline unsigned grid_for(long long items, int threads) { return (unsigned)groups_for(items, threads); }

template <class T> batch_ref<const T> as_const(const batch_ref<T> &r) { return {r.base, r.ptrs, r.stride, r.ld}; }

// C(cr:cr+m, cc:cc+n) -= A(ar:ar+m, ac:ac+k) B(br:br+k, bc:bc+n) in every matrix of the batch, by cuBLAS:
// the strided-batched GEMM when all three batches are strided, else the pointer-array GEMM with the
// shifted pointers written into arrays (3 * batch pointers of scratch, reused call after call: the stream
// orders them).
template <class T>
smallla_status_t gemm_minus(context &ctx, const char *routine, cublasHandle_t h, int m, int n, int k,
                            batch_ref<const T> a, long long ar, long long ac, batch_ref<const T> b, long long br,
                            long long bc, batch_ref<T> c, long long cr, long long cc, int batch, void **arrays) {
    using B = typename blas_types<T>::B;
    if (m <= 0 || n <= 0 || k <= 0) return SMALLLA_SUCCESS;
    const B one = blas_types<T>::one(), minus_one = blas_types<T>::minus_one();
    cublasStatus_t bs;
    if (!a.ptrs && !b.ptrs && !c.ptrs) {
        bs = blas_gemm_strided(h, m, n, k, &minus_one, reinterpret_cast<const B *>(a.base + ar + ac * a.ld), a.ld,
                               a.stride, reinterpret_cast<const B *>(b.base + br + bc * b.ld), b.ld, b.stride, &one,
                               reinterpret_cast<B *>(c.base + cr + cc * c.ld), c.ld, c.stride, batch);
    } else {
        const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
        const T **pa = static_cast<const T **>(static_cast<void *>(arrays));
        const T **pb = pa + batch;
        T **pc = static_cast<T **>(static_cast<void *>(arrays)) + 2 * (long long)batch;
        element_pointers<const T><<<grid_for(batch, 256), 256, 0, stream>>>(a, ar, ac, batch, pa);
        element_pointers<const T><<<grid_for(batch, 256), 256, 0, stream>>>(b, br, bc, batch, pb);
        element_pointers<T><<<grid_for(batch, 256), 256, 0, stream>>>(c, cr, cc, batch, pc);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        bs = blas_gemm_pointers(h, m, n, k, &minus_one, reinterpret_cast<const B *const *>(pa), a.ld,
                                reinterpret_cast<const B *const *>(pb), b.ld, &one, reinterpret_cast<B *const *>(pc),
                                c.ld, batch);
    }
    return check_blas(ctx, routine, bs);
}

static_assert(large_max_n == large_max_order, "the large family's orders are what one cluster's panel holds");
static_assert(wide_max_order <= panel_threads_max, "the wide family's panels hold one row a thread");

// A panel of m = n - j0 > blocked_max_n rows: getrf_panel_cluster on clusters of ceil(m / blocked_max_n) blocks
// (more than 8 is a non-portable cluster size, which H100 allows), one cluster per matrix, at most 65535 matrices
// per launch (the grid's y).
template <class T, int NB, bool Pivot>
smallla_status_t launch_panel_cluster(context &ctx, const char *routine, int n, int j0, batch_ref<T> a,
                                      pivots_ref<int> p, int *info, int batch) {
    const int blocks = (n - j0 + blocked_max_n - 1) / blocked_max_n;
    auto kernel = getrf_panel_cluster<T, NB, Pivot>;
    if (blocks > 8 && cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess)
        return check_launch(ctx, routine);
    cudaLaunchAttribute cluster_dims[1];
    cluster_dims[0].id = cudaLaunchAttributeClusterDimension;
    cluster_dims[0].val.clusterDim.x = (unsigned)blocks;
    cluster_dims[0].val.clusterDim.y = 1;
    cluster_dims[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(panel_threads_max);
    cfg.stream = static_cast<cudaStream_t>(ctx.stream);
    cfg.attrs = cluster_dims;
    cfg.numAttrs = 1;
    for (long long first = 0; first < batch; first += 65535) {
        const int count = (int)std::min<long long>(65535, batch - first);
        cfg.gridDim = dim3((unsigned)blocks, (unsigned)count);
        batch_ref<T> part = a;
        if (a.ptrs) part.ptrs = a.ptrs + first;
        else part.base = a.base + first * a.stride;
        pivots_ref<int> pp = p;
        if (p.base) pp.base = p.base + first * p.stride;
        if (cudaLaunchKernelEx(&cfg, kernel, n, j0, part, pp, info + first) != cudaSuccess) return check_launch(ctx, routine);
    }
    return check_launch(ctx, routine);
}

// X := op(T)^-1 X for each matrix, T the unit-lower or upper triangle of A (n x n), X of B (n x nrhs), by cuBLAS's
// TRSM: called per matrix for a few strided matrices, else the pointer-array TRSM over the batch, its arrays
// (2 * batch pointers) written into `arrays`.
// The largest batch that calls the TRSM per matrix, by use: getrf's U12 of each outer block, getri's two n x n
// solves, getrs's right-hand sides (measured on an H100 at orders 600-2048: perf/NOTES.md, "Large orders").
enum class trsm_use { getrf, getri, getrs };
template <class T> constexpr int trsm_loop_max(trsm_use use) {
    constexpr bool single = sizeof(real_t<T>) == 4;
    return use == trsm_use::getrs ? 8 : use == trsm_use::getrf ? (single ? 4 : 2) : (single ? 2 : 1);
}
// Whether trsm_left runs the pointer-array TRSM over the batch (and so needs its arrays) rather than a loop.
template <class T> constexpr bool trsm_over_batch(trsm_use use, bool pointer_arrays, long long batch) {
    return pointer_arrays || batch > trsm_loop_max<T>(use);
}
// (ar, ac) and (xr, xc): where T and X start in their matrices.
template <class T>
smallla_status_t trsm_left(context &ctx, const char *routine, trsm_use use, cublasHandle_t h, cublasFillMode_t uplo,
                           cublasOperation_t op, int n, int nrhs, batch_ref<const T> a, batch_ref<T> x, int batch,
                           void **arrays, long long ar = 0, long long ac = 0, long long xr = 0, long long xc = 0) {
    using B = typename blas_types<T>::B;
    if (n <= 0 || nrhs <= 0 || batch <= 0) return SMALLLA_SUCCESS;
    const B one = blas_types<T>::one();
    const cublasDiagType_t diag = uplo == CUBLAS_FILL_MODE_LOWER ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    if (!trsm_over_batch<T>(use, a.ptrs || x.ptrs, batch)) {
        for (int b = 0; b < batch; ++b)
            if (smallla_status_t s = check_blas(ctx, routine,
                                                blas_trsm(h, uplo, op, diag, n, nrhs, &one,
                                                          reinterpret_cast<const B *>(a.base + b * a.stride + ar + ac * a.ld),
                                                          a.ld, reinterpret_cast<B *>(x.base + b * x.stride + xr + xc * x.ld),
                                                          x.ld));
                s != SMALLLA_SUCCESS)
                return s;
        return SMALLLA_SUCCESS;
    }
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const T **pa = static_cast<const T **>(static_cast<void *>(arrays));
    T **px = static_cast<T **>(static_cast<void *>(arrays)) + batch;
    element_pointers<const T><<<grid_for(batch, 256), 256, 0, stream>>>(a, ar, ac, batch, pa);
    element_pointers<T><<<grid_for(batch, 256), 256, 0, stream>>>(x, xr, xc, batch, px);
    if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    return check_blas(ctx, routine,
                      blas_trsm_pointers(h, uplo, op, diag, n, nrhs, &one, reinterpret_cast<const B *const *>(pa),
                                         a.ld, reinterpret_cast<B *const *>(px), x.ld, batch));
}

// Column groups of the per-matrix kernels (panel apply, getri's first and last steps, matinv's copy): blocks of at
// least columns_per_group columns, enough of them per matrix to fill the GPU when the batch is small.
inline unsigned column_groups(int n, int columns_per_group, long long batch) {
    const long long want = std::max<long long>(1, 1024 / std::max<long long>(1, batch));
    return (unsigned)std::max<long long>(1, std::min<long long>({want, (n + columns_per_group - 1) / columns_per_group, 65535}));
}

// Whether getrf of order n (> 32), with or without pivoting, runs the two-warp kernel (lu_two_warps.cu) rather than
// the blocked path: the routing table's choice for that order and batch.
template <class T> bool two_warps_route(context &ctx, int n, bool pivoting, int batch) {
    return route(ctx, pivoting ? routine::getrf : routine::getrf_nopiv, scalar_traits<T>::letter, n, batch) ==
           family::two_warps;
}

// LU with (ipiv.base != nullptr) or without partial pivoting, in place, for 32 < n <= large_max_n (panels of more
// than blocked_max_n rows over a cluster: sm_90 only, which the routing tables see to).
// NB: panel_width<T>(), or wide_panel_width<T>() (then n <= wide_max_order: every panel one row a thread).
// outer_blocks: outer blocks of large_outer_width columns also at n <= blocked_max_n (the routing table's `large`).
template <class T, int NB>
smallla_status_t getrf_blocked_panels(context &ctx, const char *routine, int n, const matrix_batch<T> &A,
                                      const pivot_batch<int> &ipiv, int *info, int batch, void **given_arrays,
                                      bool outer_blocks) {
    constexpr bool wide = NB != panel_width<T>();
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    cublasHandle_t h = nullptr;
    if (smallla_status_t s = blas_on_stream(ctx, routine, h); s != SMALLLA_SUCCESS) return s;
    const batch_ref<T> a = make_batch_ref(A);
    const pivots_ref<int> p = make_pivots_ref(ipiv);
    const pivots_ref<const int> pc{p.base, p.stride};
    const long long ld = A.ld;
    // Large orders work in outer blocks of large_outer_width columns (lu_blocked.cuh); up to blocked_max_n the outer
    // block is the whole matrix unless the route asks for outer blocks.
    const int OB = n > blocked_max_n || outer_blocks ? large_outer_width : n;
    scratch arrays;  // pointer arrays for cuBLAS when the batch is one (or the outer TRSM's), unless given
    const bool need_arrays = A.is_pointer_array() || (OB < n && trsm_over_batch<T>(trsm_use::getrf, false, batch));
    if (need_arrays && n > NB && given_arrays == nullptr)
        if (smallla_status_t s = arrays.allocate(ctx, routine, 3 * (size_t)batch * sizeof(T *)); s != SMALLLA_SUCCESS)
            return s;
    void **ptrs = given_arrays != nullptr ? given_arrays : static_cast<void **>(arrays.ptr);
    // From deferred_swaps_min_order to blocked_max_n, at deferred_swaps_min_batch matrices and more, the swaps left of
    // each panel (of each outer block, if any) wait for one pass after the last panel.
    constexpr int left_rows_per_lane = blocked_max_n / 32;
    const bool left_deferred = p.base != nullptr && n >= deferred_swaps_min_order && n <= blocked_max_n &&
                               batch >= deferred_swaps_min_batch;
    for (int J0 = 0; J0 < n; J0 += OB) {
        const int J1 = std::min(n, J0 + OB);
        for (int j0 = J0; j0 < J1; j0 += NB) {
            const int m = n - j0, nb = std::min(NB, m), rest = m - nb, cols = J1 - j0 - nb;
            const unsigned one_row = (m + 31) / 32 * 32, two_rows = ((m + 1) / 2 + 31) / 32 * 32;
            if constexpr (wide) {
                if (p.base != nullptr) getrf_panel<T, NB, 1, true><<<batch, one_row, 0, stream>>>(n, j0, a, p, info);
                else getrf_panel<T, NB, 1, false><<<batch, one_row, 0, stream>>>(n, j0, a, p, info);
            } else if (m > blocked_max_n) {
                const smallla_status_t s = p.base != nullptr
                                               ? launch_panel_cluster<T, NB, true>(ctx, routine, n, j0, a, p, info, batch)
                                               : launch_panel_cluster<T, NB, false>(ctx, routine, n, j0, a, p, info, batch);
                if (s != SMALLLA_SUCCESS) return s;
            } else if (p.base != nullptr) {
                if (m <= panel_threads_max) getrf_panel<T, NB, 1, true><<<batch, one_row, 0, stream>>>(n, j0, a, p, info);
                else getrf_panel<T, NB, 2, true><<<batch, two_rows, 0, stream>>>(n, j0, a, p, info);
            } else {
                if (m <= panel_threads_max) getrf_panel<T, NB, 1, false><<<batch, one_row, 0, stream>>>(n, j0, a, p, info);
                else getrf_panel<T, NB, 2, false><<<batch, two_rows, 0, stream>>>(n, j0, a, p, info);
            }
            if (p.base != nullptr || rest > 0)
                getrf_panel_apply<T, NB><<<dim3(batch, column_groups(n, apply_threads / 32, batch)), apply_threads, m * sizeof(int), stream>>>(
                    n, j0, a, pc, J1, !left_deferred ? 0 : OB < n ? J0 : j0);
            if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
            if (rest == 0) break;
            // A22 -= L21 U12 within the outer block: A22 at (r1, r1), L21 at (r1, j0), U12 at (j0, r1)
            const long long r1 = j0 + nb;
            if (smallla_status_t s = gemm_minus<T>(ctx, routine, h, rest, cols, nb, as_const(a), r1, j0, as_const(a), j0,
                                                   r1, a, r1, r1, batch, ptrs);
                s != SMALLLA_SUCCESS)
                return s;
        }
        if (J1 == n) break;
        // The rest right of the outer block: U12 = inv(L11) A12 (rows J0..J1), then A22 -= L21 U12 of depth J1 - J0.
        if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getrf, h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                              J1 - J0, n - J1, as_const(a), a, batch, ptrs, J0, J0, J0, J1);
            s != SMALLLA_SUCCESS)
            return s;
        if (smallla_status_t s = gemm_minus<T>(ctx, routine, h, n - J1, n - J1, J1 - J0, as_const(a), J1, J0, as_const(a),
                                               J0, J1, a, J1, J1, batch, ptrs);
            s != SMALLLA_SUCCESS)
            return s;
    }
    if (left_deferred && n > NB) {
        const int width = OB < n ? OB : NB;
        getrf_left_interchanges<T, left_rows_per_lane>
            <<<dim3(batch, column_groups(n, width, batch)), apply_threads, n * sizeof(int), stream>>>(n, width, a, pc);
        return check_launch(ctx, routine);
    }
    return SMALLLA_SUCCESS;
}
template <class T>
smallla_status_t getrf_blocked(context &ctx, const char *routine, int n, const matrix_batch<T> &A,
                               const pivot_batch<int> &ipiv, int *info, int batch, void **given_arrays = nullptr) {
    static_assert(wide_exists(scalar_traits<T>::letter) == (wide_panel_width<T>() > 0),
                  "the routing tables' wide family and its panel width name the same precisions");
    const auto r = ipiv.base != nullptr ? cuda_kernels::routine::getrf : cuda_kernels::routine::getrf_nopiv;
    const family f = route(ctx, r, scalar_traits<T>::letter, n, batch);
    if constexpr (wide_panel_width<T>() > 0) {
        if (n <= wide_max_order && f == family::wide)
            return getrf_blocked_panels<T, wide_panel_width<T>()>(ctx, routine, n, A, ipiv, info, batch, given_arrays,
                                                                  false);
    }
    return getrf_blocked_panels<T, panel_width<T>()>(ctx, routine, n, A, ipiv, info, batch, given_arrays,
                                                      f == family::large);
}

// getri_blocked's form for large orders (and the large family's at any order: a few matrices, where one block per
// matrix for the diagonal blocks leaves the GPU idle): C = I, C = inv(L) C and C = inv(U) C by cuBLAS's TRSM (2 n^3 flops where the
// blocked form's GEMMs take 4/3 n^3, but at TRSM's rate), then the same finish (a singular matrix: its factors).
template <class T>
smallla_status_t getri_large(context &ctx, const char *routine, int n, batch_ref<const T> a,
                             const pivot_batch<const int> &ipiv, batch_ref<T> c, int *info, int batch, cublasHandle_t h,
                             void **arrays) {
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const unsigned groups = column_groups(n, 32, batch);
    getri_blocked_prepare<T><<<dim3(batch, groups), apply_threads, 0, stream>>>(n, a, c, info);
    if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getri, h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, n,
                                          a, c, batch, arrays);
        s != SMALLLA_SUCCESS)
        return s;
    if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getri, h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n,
                                          a, c, batch, arrays);
        s != SMALLLA_SUCCESS)
        return s;
    // One row of the tile passes 32 KiB beyond n = 2048 (z) or 4096 (d, c): up to 128 KiB + 32 KiB (z, n = 8192),
    // above the 48 KiB a launch may take without opting in.
    const size_t finish_bytes = finish_shared_bytes<T>(n);
    if (allow_dynamic_shared(getri_blocked_finish<T>, finish_bytes) != cudaSuccess) return check_launch(ctx, routine);
    getri_blocked_finish<T><<<dim3(batch, groups), apply_threads, finish_bytes, stream>>>(n, finish_rows<T>(n), a,
                                                                                         make_pivots_ref(ipiv), c, info);
    return check_launch(ctx, routine);
}

// inv(A) from the factors into C (C must not overlap A), as xGETRI's result: C = I, C = inv(L) C, C = inv(U) C
// by blocks of panel_width<T>() rows (a diagonal-block kernel, then a cuBLAS GEMM for the rest), then the
// column interchanges; info = the first zero diagonal entry of U, and then C = the factors.
// inv(L) is lower triangular, so the forward solve touches only the columns left of the current block's end
// (n^3 / 3 GEMM flops); the backward solve is dense (n^3).
template <class T>
smallla_status_t getri_blocked(context &ctx, const char *routine, int n, const matrix_batch<const T> &A,
                               const pivot_batch<const int> &ipiv, const matrix_batch<T> &C, int *info, int batch,
                               void **given_arrays = nullptr, bool by_trsm = false) {
    constexpr int NB = panel_width<T>();
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    cublasHandle_t h = nullptr;
    if (smallla_status_t s = blas_on_stream(ctx, routine, h); s != SMALLLA_SUCCESS) return s;
    const batch_ref<const T> a = make_batch_ref(A);
    const batch_ref<T> c = make_batch_ref(C);
    scratch arrays;  // pointer arrays for cuBLAS, unless the caller gives them (3 * batch pointers)
    by_trsm = by_trsm || n > blocked_max_n;  // getri_large: the large family's form
    const bool large_arrays = by_trsm && trsm_over_batch<T>(trsm_use::getri, false, batch);  // its TRSM over the batch
    if ((A.is_pointer_array() || C.is_pointer_array() || large_arrays) && n > NB && given_arrays == nullptr)
        if (smallla_status_t s = arrays.allocate(ctx, routine, 3 * (size_t)batch * sizeof(void *)); s != SMALLLA_SUCCESS)
            return s;
    void **ptrs = given_arrays != nullptr ? given_arrays : static_cast<void **>(arrays.ptr);
    if (by_trsm) return getri_large<T>(ctx, routine, n, a, ipiv, c, info, batch, h, ptrs);
    getri_blocked_prepare<T><<<batch, apply_threads, 0, stream>>>(n, a, c, info);
    for (int j0 = 0; j0 < n; j0 += NB) {  // C = inv(L) C
        const int nb = std::min(NB, n - j0), r1 = j0 + nb;
        const int threads = trsm_threads<T>(r1);
        trsm_diagonal_block<T, NB, true><<<batch, threads, trsm_tile_bytes<T, NB>(threads), stream>>>(n, j0, a, c, 0, r1);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        // C(r1:n, 0:r1) -= L(r1:n, j0:r1) C(j0:r1, 0:r1)
        if (smallla_status_t s = gemm_minus<T>(ctx, routine, h, n - r1, r1, nb, a, r1, j0, as_const(c), j0, 0, c, r1, 0,
                                               batch, ptrs);
            s != SMALLLA_SUCCESS)
            return s;
    }
    for (int j0 = (n - 1) / NB * NB; j0 >= 0; j0 -= NB) {  // C = inv(U) C
        const int nb = std::min(NB, n - j0);
        const int threads = trsm_threads<T>(n);
        trsm_diagonal_block<T, NB, false><<<batch, threads, trsm_tile_bytes<T, NB>(threads), stream>>>(n, j0, a, c, 0, n);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        // C(0:j0, :) -= U(0:j0, j0:j0+nb) C(j0:j0+nb, :)
        if (smallla_status_t s = gemm_minus<T>(ctx, routine, h, j0, n, nb, a, 0, j0, as_const(c), j0, 0, c, 0, 0, batch,
                                               ptrs);
            s != SMALLLA_SUCCESS)
            return s;
    }
    const size_t finish_bytes = finish_shared_bytes<T>(n);  // <= 32 KiB + 2 KiB: no opt-in needed
    getri_blocked_finish<T><<<batch, apply_threads, finish_bytes, stream>>>(n, finish_rows<T>(n), a,
                                                                            make_pivots_ref(ipiv), c, info);
    return check_launch(ctx, routine);
}

// getrf of order n > 32 in place: the two-warp kernel where it is chosen (no workspace, no cuBLAS), else the
// blocked path (given_arrays as getrf_blocked's). getrf and matinv by columns both factor through here.
template <class T>
smallla_status_t getrf_above_registers(context &ctx, const char *routine, int n, const matrix_batch<T> &A,
                                       const pivot_batch<int> &ipiv, int *info, int batch,
                                       void **given_arrays = nullptr) {
    if (two_warps_route<T>(ctx, n, ipiv.base != nullptr, batch)) {
        launch_getrf_two_warps<T>(getrf_args<T>{n, A, ipiv, info, batch}, static_cast<cudaStream_t>(ctx.stream));
        return check_launch(ctx, routine);
    }
    return getrf_blocked<T>(ctx, routine, n, A, ipiv, info, batch, given_arrays);
}

// inv(A) into C (C may be A itself) at the orders getri by columns serves: C receives a copy of A (unless C
// is A), is factored in place (getrf_above_registers) and inverted in place by getri by columns, which reads a
// matrix's factors into shared memory before it writes any of it. No packed copy of the batch (its allocation
// and copy would cost more than the inverse at these orders). The scratch (the pivots; cuBLAS's pointer
// arrays for a pointer-array C) is one allocation made before anything is queued, so a call that cannot get
// it writes nothing.
template <class T>
smallla_status_t matinv_by_columns(context &ctx, const char *routine, int n, const matrix_batch<const T> &A,
                                   const matrix_batch<T> &C, int *info, int batch) {
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const size_t piv_bytes = ((size_t)batch * n * sizeof(int) + 255) / 256 * 256;
    // cuBLAS's pointer arrays, for the blocked getrf of a pointer-array C only.
    const size_t ptr_bytes =
        C.is_pointer_array() && !two_warps_route<T>(ctx, n, true, batch) ? 3 * (size_t)batch * sizeof(void *) : 0;
    scratch ws;
    if (smallla_status_t s = ws.allocate(ctx, routine, piv_bytes + ptr_bytes); s != SMALLLA_SUCCESS) return s;
    int *const piv = static_cast<int *>(ws.ptr);
    void **const arrays = ptr_bytes ? reinterpret_cast<void **>(static_cast<char *>(ws.ptr) + piv_bytes) : nullptr;
    copy_unless_same<T><<<batch, apply_threads, 0, stream>>>(n, make_batch_ref(A), make_batch_ref(C));
    if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
    if (smallla_status_t s =
            getrf_above_registers<T>(ctx, routine, n, C, pivot_batch<int>{piv, n}, info, batch, arrays);
        s != SMALLLA_SUCCESS)
        return s;
    matrix_batch<const T> factors;
    factors.base = C.base;
    factors.ptrs = C.ptrs;
    factors.ld = C.ld;
    factors.stride = C.stride;
    launch_getri_columns<T>(getri_args<T>{n, factors, pivot_batch<const int>{piv, n}, C, info, batch}, stream);
    return check_launch(ctx, routine);
}

// inv(A) into C (C may be A itself): chunks of the batch are copied to a packed workspace, factored there
// and inverted from there into C by getri_blocked, so the workspace stays bounded whatever the batch
// (matinv_workspace_target: up to 2 GiB, halved while it cannot be had). All the scratch memory (the packed matrices, their pivots,
// cuBLAS's pointer arrays for a pointer-array C) is one allocation made before anything is queued, so a call
// that cannot get it writes nothing.
template <class T>
smallla_status_t matinv_blocked(context &ctx, const char *routine, int n, const matrix_batch<const T> &A,
                                const matrix_batch<T> &C, int *info, int batch, bool by_trsm = false) {
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    const size_t pointers = C.is_pointer_array() ? 3 : 0;  // per matrix
    const size_t per_matrix = (size_t)n * n * sizeof(T) + pointers * sizeof(void *) + (size_t)n * sizeof(int);
    long long chunk =
        balanced_chunk(batch, std::max<long long>(1, (long long)(matinv_workspace_target(ctx) / per_matrix)));
    // Layout: the matrices, the pointer arrays, the pivots, each section starting on a 256-byte boundary.
    auto up = [](size_t bytes) { return (bytes + 255) / 256 * 256; };
    auto mat_bytes = [&] { return up((size_t)chunk * n * n * sizeof(T)); };
    auto ptr_bytes = [&] { return up((size_t)chunk * pointers * sizeof(void *)); };
    auto all_bytes = [&] { return mat_bytes() + ptr_bytes() + (size_t)chunk * n * sizeof(int); };
    scratch ws;
    // Smaller chunks while the memory cannot be had; only when not even one matrix fits does the call fail.
    while (chunk > 1 && !ws.try_allocate(ctx, all_bytes())) chunk = (chunk + 1) / 2;
    if (ws.ptr == nullptr)
        if (smallla_status_t s = ws.allocate(ctx, routine, all_bytes()); s != SMALLLA_SUCCESS) return s;
    char *const bytes = static_cast<char *>(ws.ptr);
    T *w = reinterpret_cast<T *>(bytes);
    void **arrays = pointers ? reinterpret_cast<void **>(bytes + mat_bytes()) : nullptr;
    int *wpiv = reinterpret_cast<int *>(bytes + mat_bytes() + ptr_bytes());
    const batch_ref<const T> a = make_batch_ref(A);
    const batch_ref<T> w_ref{w, nullptr, (long long)n * n, n};  // the packed chunk as copy_unless_same's C
    for (long long first = 0; first < batch; first += chunk) {
        const int count = (int)std::min<long long>(chunk, batch - first);
        batch_ref<const T> a_part = a;
        if (a.ptrs) a_part.ptrs = a.ptrs + first;
        else a_part.base = a.base + first * a.stride;
        copy_unless_same<T><<<dim3(count, column_groups(n, 32, count)), apply_threads, 0, stream>>>(n, a_part, w_ref);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        matrix_batch<T> packed;
        packed.base = w;
        packed.ld = n;
        packed.stride = (long long)n * n;
        const pivot_batch<int> piv{wpiv, n};
        if (smallla_status_t s = getrf_blocked<T>(ctx, routine, n, packed, piv, info + first, count); s != SMALLLA_SUCCESS)
            return s;
        matrix_batch<const T> factors;
        factors.base = w;
        factors.ld = n;
        factors.stride = (long long)n * n;
        const pivot_batch<const int> pivc{wpiv, n};
        if (smallla_status_t s = getri_blocked<T>(ctx, routine, n, factors, pivc, sub_batch(C, first), info + first, count,
                                                   arrays, by_trsm);
            s != SMALLLA_SUCCESS)
            return s;
    }
    return SMALLLA_SUCCESS;
}

// getrs of large orders (the `large` family): B's rows interchanged (permute_rows) and two TRSMs by cuBLAS, in
// xGETRS's order for each trans. The scratch: cuBLAS's pointer arrays when the TRSM runs over the batch.
template <class T> smallla_status_t getrs_large(context &ctx, const char *routine, const getrs_args<T> &g) {
    const int n = g.n, nrhs = g.nrhs, batch = g.batch;
    if (n == 0 || nrhs == 0 || batch == 0) return SMALLLA_SUCCESS;
    const cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream);
    cublasHandle_t h = nullptr;
    if (smallla_status_t s = blas_on_stream(ctx, routine, h); s != SMALLLA_SUCCESS) return s;
    const batch_ref<const T> a = make_batch_ref(g.A);
    const batch_ref<T> x = make_batch_ref(g.B);
    scratch arrays;
    if (trsm_over_batch<T>(trsm_use::getrs, g.A.is_pointer_array() || g.B.is_pointer_array(), batch))
        if (smallla_status_t s = arrays.allocate(ctx, routine, 2 * (size_t)batch * sizeof(void *)); s != SMALLLA_SUCCESS)
            return s;
    void **ptrs = static_cast<void **>(arrays.ptr);
    const size_t bytes = permute_rows_bytes<T>(n);
    if (bytes > max_dynamic_shared_bytes(ctx)) return fail(&ctx, SMALLLA_INTERNAL_ERROR, std::string("smallla ") + routine + ": the row map does not fit");
    if (allow_dynamic_shared(permute_rows<T>, bytes) != cudaSuccess) return check_launch(ctx, routine);
    const dim3 grid((unsigned)batch, (unsigned)std::max(1, std::min({nrhs, 65535, 1024 / std::max(1, batch)})));
    const pivots_ref<const int> p = make_pivots_ref(g.ipiv);
    const cublasOperation_t op =
        g.trans == SMALLLA_OP_N ? CUBLAS_OP_N : g.trans == SMALLLA_OP_T ? CUBLAS_OP_T : CUBLAS_OP_C;
    const bool pivoted = p.base != nullptr;  // NULL: factors of getrf without pivoting
    if (op == CUBLAS_OP_N) {
        if (pivoted) permute_rows<T><<<grid, apply_threads, bytes, stream>>>(n, nrhs, p, x, true);
        if (smallla_status_t s = check_launch(ctx, routine); s != SMALLLA_SUCCESS) return s;
        if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getrs, h, CUBLAS_FILL_MODE_LOWER, op, n, nrhs, a, x,
                                              batch, ptrs);
            s != SMALLLA_SUCCESS)
            return s;
        return trsm_left<T>(ctx, routine, trsm_use::getrs, h, CUBLAS_FILL_MODE_UPPER, op, n, nrhs, a, x, batch,
                            ptrs);
    }
    if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getrs, h, CUBLAS_FILL_MODE_UPPER, op, n, nrhs, a, x,
                                              batch, ptrs);
        s != SMALLLA_SUCCESS)
        return s;
    if (smallla_status_t s = trsm_left<T>(ctx, routine, trsm_use::getrs, h, CUBLAS_FILL_MODE_LOWER, op, n, nrhs, a, x,
                                              batch, ptrs);
        s != SMALLLA_SUCCESS)
        return s;
    if (pivoted) permute_rows<T><<<grid, apply_threads, bytes, stream>>>(n, nrhs, p, x, false);
    return check_launch(ctx, routine);
}

}  // namespace cuda
}  // namespace smallla
