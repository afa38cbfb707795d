// Entry points of the Cholesky family (potrf, potrs, posv, potri, poinv): argument checks in LAPACK order
// (xERRPO's), the overlap rules of the LU family (B must not overlap A; poinv's C may only be A exactly), then
// the backend.
#include "api_common.hpp"

namespace smallla {
namespace {

bool valid_uplo(smallla_fill_t u) { return u == SMALLLA_FILL_LOWER || u == SMALLLA_FILL_UPPER; }
const char *const uplo_rule = "SMALLLA_FILL_LOWER or SMALLLA_FILL_UPPER";

// Host backend, pointer arrays: no B[b] may overlap A[b], nor (pointer_arrays_disjoint) an A[b'] of another index.
template <class C>
void pointer_b_not_over_a(arg_check &chk, context &ctx, int argno, const C *const A[], int n, int lda, C *const B[],
                          int nrhs, int ldb, int batch) {
    if (!chk.ok() || ctx.backend != SMALLLA_BACKEND_HOST) return;
    for (int b = 0; b < batch; ++b) {
        if (matrix_range(A[b], n, n, lda, 0, 1).overlaps(matrix_range<C>(B[b], n, nrhs, ldb, 0, 1))) {
            chk.custom(false, argno, "B[" + std::to_string(b) + "] = " + pointer_text(B[b]),
                       "not overlap A[" + std::to_string(b) + "] (B is overwritten by X)");
            return;
        }
    }
    pointer_arrays_disjoint(chk, ctx, argno, "B", A, n, n, lda, B, n, nrhs, ldb, batch, "B is overwritten by X");
}

// ---- potrf and potri: the same arguments ---------------------------------------------------------------------
enum class in_place_routine { potrf, potri };

template <class T> smallla_status_t run_in_place(context &ctx, const char *fname, in_place_routine r,
                                                 const potrf_args<T> &a) {
    if (r == in_place_routine::potrf)
        return run_backend(ctx, fname, [&] { return host::potrf<T>(ctx, a); }, [&] { return cuda::potrf<T>(ctx, a); });
    return run_backend(ctx, fname, [&] { return host::potri<T>(ctx, a); }, [&] { return cuda::potri<T>(ctx, a); });
}

template <class C>
smallla_status_t in_place_batched_impl(const char *fname, in_place_routine r, smallla_handle_t h, smallla_fill_t uplo,
                                       int n, C *const A[], int lda, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule).nonneg(3, "n", n).not_null(4, "A", A, work);
    chk.leading_dim(5, "lda", lda, "n", n).not_null(6, "info", info, work).nonneg(7, "batch", batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{4, "A", A}, {6, "info", info}})) return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    return run_in_place<T>(ctx, fname, r, potrf_args<T>{uplo, n, pointer_matrices(to_internal(A), lda, 4), info, batch});
}

template <class C>
smallla_status_t in_place_strided_impl(const char *fname, in_place_routine r, smallla_handle_t h, smallla_fill_t uplo,
                                       int n, C *A, int lda, long long strideA, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .not_null(4, "A", A, work)
        .leading_dim(5, "lda", lda, "n", n)
        .stride(6, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(7, "info", info, work)
        .nonneg(8, "batch", batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{4, "A", A}, {7, "info", info}})) return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    return run_in_place<T>(ctx, fname, r,
                           potrf_args<T>{uplo, n, strided_matrices(to_internal(A), lda, strideA), info, batch});
}

// ---- potrs ----------------------------------------------------------------------------------------------------
template <class C>
smallla_status_t potrs_batched_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n, int nrhs,
                                    const C *const A[], int lda, C *const B[], int ldb, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && nrhs > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work);
    chk.leading_dim(6, "lda", lda, "n", n).not_null(7, "B", B, work);
    chk.leading_dim(8, "ldb", ldb, "n", n).nonneg(9, "batch", batch);
    if (chk.ok() && work) pointer_b_not_over_a(chk, ctx, 7, A, n, lda, B, nrhs, ldb, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {7, "B", B}})) return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    potrs_args<T> a{uplo, n, nrhs, pointer_matrices(to_internal(A), lda, 5), pointer_matrices(to_internal(B), ldb, 7),
                    batch};
    return run_backend(ctx, fname, [&] { return host::potrs<T>(ctx, a); }, [&] { return cuda::potrs<T>(ctx, a); });
}

template <class C>
smallla_status_t potrs_strided_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n, int nrhs,
                                    const C *A, int lda, long long strideA, C *B, int ldb, long long strideB,
                                    int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && nrhs > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work)
        .leading_dim(6, "lda", lda, "n", n)
        .stride(7, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(8, "B", B, work)
        .leading_dim(9, "ldb", ldb, "n", n)
        .stride(10, "strideB", strideB, "ldb*nrhs", (long long)ldb * nrhs, batch)
        .nonneg(11, "batch", batch);
    if (chk.ok() && work)
        chk.custom(!matrix_range(A, n, n, lda, strideA, batch).overlaps(matrix_range(B, n, nrhs, ldb, strideB, batch)),
                   8, "B = " + pointer_text(B), "not overlap A (B is overwritten by X)");
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {8, "B", B}})) return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    potrs_args<T> a{uplo, n, nrhs, strided_matrices(to_internal(A), lda, strideA),
                    strided_matrices(to_internal(B), ldb, strideB), batch};
    return run_backend(ctx, fname, [&] { return host::potrs<T>(ctx, a); }, [&] { return cuda::potrs<T>(ctx, a); });
}

// ---- posv: A is factored even when nrhs = 0 (LAPACK's xPOSV), so B may then be NULL -----------------------------
template <class C>
smallla_status_t posv_batched_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n, int nrhs,
                                   C *const A[], int lda, C *const B[], int ldb, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0, solve = work && nrhs > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work);
    chk.leading_dim(6, "lda", lda, "n", n).not_null(7, "B", B, solve);
    chk.leading_dim(8, "ldb", ldb, "n", n).not_null(9, "info", info, work).nonneg(10, "batch", batch);
    if (chk.ok() && solve) pointer_b_not_over_a<C>(chk, ctx, 7, A, n, lda, B, nrhs, ldb, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {7, "B", B}, {9, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    matrix_batch<T> mb = solve && B != nullptr ? pointer_matrices(to_internal(B), ldb, 7) : matrix_batch<T>{};
    posv_args<T> a{uplo, n, solve ? nrhs : 0, pointer_matrices(to_internal(A), lda, 5), mb, info, batch};
    return run_backend(ctx, fname, [&] { return host::posv<T>(ctx, a); }, [&] { return cuda::posv<T>(ctx, a); });
}

template <class C>
smallla_status_t posv_strided_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n, int nrhs, C *A,
                                   int lda, long long strideA, C *B, int ldb, long long strideB, int *info,
                                   int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0, solve = work && nrhs > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work)
        .leading_dim(6, "lda", lda, "n", n)
        .stride(7, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(8, "B", B, solve)
        .leading_dim(9, "ldb", ldb, "n", n)
        .stride(10, "strideB", strideB, "ldb*nrhs", (long long)ldb * nrhs, batch)
        .not_null(11, "info", info, work)
        .nonneg(12, "batch", batch);
    if (chk.ok() && solve)
        chk.custom(!matrix_range(A, n, n, lda, strideA, batch).overlaps(matrix_range(B, n, nrhs, ldb, strideB, batch)),
                   8, "B = " + pointer_text(B), "not overlap A (B is overwritten by X)");
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {8, "B", B}, {11, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    matrix_batch<T> mb = solve ? strided_matrices(to_internal(B), ldb, strideB) : matrix_batch<T>{};
    posv_args<T> a{uplo, n, solve ? nrhs : 0, strided_matrices(to_internal(A), lda, strideA), mb, info, batch};
    return run_backend(ctx, fname, [&] { return host::posv<T>(ctx, a); }, [&] { return cuda::posv<T>(ctx, a); });
}

// ---- poinv: C may be A exactly (in place), else must not overlap it --------------------------------------------
template <class C>
smallla_status_t poinv_batched_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n,
                                    const C *const A[], int lda, C *const Cm[], int ldc, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule).nonneg(3, "n", n).not_null(4, "A", A, work);
    chk.leading_dim(5, "lda", lda, "n", n).not_null(6, "C", Cm, work);
    chk.leading_dim(7, "ldc", ldc, "n", n).not_null(8, "info", info, work).nonneg(9, "batch", batch);
    if (chk.ok() && work) in_place_or_disjoint(chk, ctx, 6, 7, n, A, lda, Cm, ldc, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{4, "A", A}, {6, "C", Cm}, {8, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    poinv_args<T> a{uplo, n, pointer_matrices(to_internal(A), lda, 4), pointer_matrices(to_internal(Cm), ldc, 6), info,
                    batch};
    return run_backend(ctx, fname, [&] { return host::poinv<T>(ctx, a); }, [&] { return cuda::poinv<T>(ctx, a); });
}

template <class C>
smallla_status_t poinv_strided_impl(const char *fname, smallla_handle_t h, smallla_fill_t uplo, int n, const C *A,
                                    int lda, long long strideA, C *Cm, int ldc, long long strideC, int *info,
                                    int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_uplo(uplo), 2, "uplo", (long long)uplo, uplo_rule)
        .nonneg(3, "n", n)
        .not_null(4, "A", A, work)
        .leading_dim(5, "lda", lda, "n", n)
        .stride(6, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(7, "C", Cm, work)
        .leading_dim(8, "ldc", ldc, "n", n)
        .stride(9, "strideC", strideC, "ldc*n", (long long)ldc * n, batch)
        .not_null(10, "info", info, work)
        .nonneg(11, "batch", batch);
    if (chk.ok() && work) in_place_or_disjoint(chk, 7, n, A, lda, strideA, Cm, ldc, strideC, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{4, "A", A}, {7, "C", Cm}, {10, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    poinv_args<T> a{uplo, n, strided_matrices(to_internal(A), lda, strideA),
                    strided_matrices(to_internal(Cm), ldc, strideC), info, batch};
    return run_backend(ctx, fname, [&] { return host::poinv<T>(ctx, a); }, [&] { return cuda::poinv<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

#define SMALLLA_CHOLESKY_ENTRIES(x, C)                                                                              \
    SMALLLA_API smallla_status_t smallla_##x##potrfBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,      \
                                                           C *const A[], int lda, int *info, int batch) {           \
        const char *fname = "smallla_" #x "potrfBatched";                                                           \
        return c_boundary(handle, fname, [&] {                                                                      \
            return in_place_batched_impl<C>(fname, in_place_routine::potrf, handle, uplo, n, A, lda, info, batch);  \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##potrfStridedBatched(smallla_handle_t handle, smallla_fill_t uplo,      \
                                                                  int n, C *A, int lda, long long strideA,          \
                                                                  int *info, int batch) {                           \
        const char *fname = "smallla_" #x "potrfStridedBatched";                                                    \
        return c_boundary(handle, fname, [&] {                                                                      \
            return in_place_strided_impl<C>(fname, in_place_routine::potrf, handle, uplo, n, A, lda, strideA, info, \
                                            batch);                                                                 \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##potriBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,      \
                                                           C *const A[], int lda, int *info, int batch) {           \
        const char *fname = "smallla_" #x "potriBatched";                                                           \
        return c_boundary(handle, fname, [&] {                                                                      \
            return in_place_batched_impl<C>(fname, in_place_routine::potri, handle, uplo, n, A, lda, info, batch);  \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##potriStridedBatched(smallla_handle_t handle, smallla_fill_t uplo,      \
                                                                  int n, C *A, int lda, long long strideA,          \
                                                                  int *info, int batch) {                           \
        const char *fname = "smallla_" #x "potriStridedBatched";                                                    \
        return c_boundary(handle, fname, [&] {                                                                      \
            return in_place_strided_impl<C>(fname, in_place_routine::potri, handle, uplo, n, A, lda, strideA, info, \
                                            batch);                                                                 \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##potrsBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,      \
                                                           int nrhs, const C *const A[], int lda, C *const B[],     \
                                                           int ldb, int batch) {                                    \
        const char *fname = "smallla_" #x "potrsBatched";                                                           \
        return c_boundary(handle, fname, [&] {                                                                      \
            return potrs_batched_impl<C>(fname, handle, uplo, n, nrhs, A, lda, B, ldb, batch);                      \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##potrsStridedBatched(                                                  \
        smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs, const C *A, int lda, long long strideA, C *B, \
        int ldb, long long strideB, int batch) {                                                                    \
        const char *fname = "smallla_" #x "potrsStridedBatched";                                                    \
        return c_boundary(handle, fname, [&] {                                                                      \
            return potrs_strided_impl<C>(fname, handle, uplo, n, nrhs, A, lda, strideA, B, ldb, strideB, batch);    \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##posvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,       \
                                                          int nrhs, C *const A[], int lda, C *const B[], int ldb,   \
                                                          int *info, int batch) {                                   \
        const char *fname = "smallla_" #x "posvBatched";                                                            \
        return c_boundary(handle, fname, [&] {                                                                      \
            return posv_batched_impl<C>(fname, handle, uplo, n, nrhs, A, lda, B, ldb, info, batch);                 \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##posvStridedBatched(                                                   \
        smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs, C *A, int lda, long long strideA, C *B,       \
        int ldb, long long strideB, int *info, int batch) {                                                         \
        const char *fname = "smallla_" #x "posvStridedBatched";                                                     \
        return c_boundary(handle, fname, [&] {                                                                      \
            return posv_strided_impl<C>(fname, handle, uplo, n, nrhs, A, lda, strideA, B, ldb, strideB, info,       \
                                        batch);                                                                     \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##poinvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,      \
                                                           const C *const A[], int lda, C *const Cm[], int ldc,     \
                                                           int *info, int batch) {                                  \
        const char *fname = "smallla_" #x "poinvBatched";                                                           \
        return c_boundary(handle, fname, [&] {                                                                      \
            return poinv_batched_impl<C>(fname, handle, uplo, n, A, lda, Cm, ldc, info, batch);                     \
        });                                                                                                         \
    }                                                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##poinvStridedBatched(                                                  \
        smallla_handle_t handle, smallla_fill_t uplo, int n, const C *A, int lda, long long strideA, C *Cm, int ldc, \
        long long strideC, int *info, int batch) {                                                                  \
        const char *fname = "smallla_" #x "poinvStridedBatched";                                                    \
        return c_boundary(handle, fname, [&] {                                                                      \
            return poinv_strided_impl<C>(fname, handle, uplo, n, A, lda, strideA, Cm, ldc, strideC, info, batch);   \
        });                                                                                                         \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_CHOLESKY_ENTRIES)
#undef SMALLLA_CHOLESKY_ENTRIES

}  // extern "C"
