// Entry points of getrs (solve from the LU factors): argument checks in LAPACK order, then the backend.
#include "api_common.hpp"

namespace smallla {
namespace {

bool valid_trans(smallla_operation_t t) { return t == SMALLLA_OP_N || t == SMALLLA_OP_T || t == SMALLLA_OP_C; }
const char *const trans_rule = "SMALLLA_OP_N, SMALLLA_OP_T or SMALLLA_OP_C";

template <class C>
smallla_status_t getrs_batched_impl(const char *fname, smallla_handle_t h, smallla_operation_t trans, int n,
                                    int nrhs, const C *const A[], int lda, const int *ipiv, C *const B[], int ldb,
                                    int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && nrhs > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_trans(trans), 2, "trans", (long long)trans, trans_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work);
    chk.leading_dim(6, "lda", lda, "n", n).not_null(8, "B", B, work);
    chk.leading_dim(9, "ldb", ldb, "n", n).nonneg(10, "batch", batch);
    // B[b] is written: it must not overlap A[b] (host: the arrays are read), nor a matrix of A of another index.
    if (chk.ok() && work && ctx.backend == SMALLLA_BACKEND_HOST) {
        for (int b = 0; b < batch; ++b) {
            if (matrix_range(A[b], n, n, lda, 0, 1).overlaps(matrix_range<C>(B[b], n, nrhs, ldb, 0, 1))) {
                chk.custom(false, 8, "B[" + std::to_string(b) + "] = " + pointer_text(B[b]),
                           "not overlap A[" + std::to_string(b) + "] (B is overwritten by X)");
                break;
            }
        }
        pointer_arrays_disjoint(chk, ctx, 8, "B", A, n, n, lda, B, n, nrhs, ldb, batch, "B is overwritten by X");
    }
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {7, "ipiv", ipiv}, {8, "B", B}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getrs_args<T> a{trans, n, nrhs, pointer_matrices(to_internal(A), lda, 5), pivot_batch<const int>{ipiv, n},
                    pointer_matrices(to_internal(B), ldb, 8), batch};
    return run_backend(ctx, fname, [&] { return host::getrs<T>(ctx, a); }, [&] { return cuda::getrs<T>(ctx, a); });
}

template <class C>
smallla_status_t getrs_strided_impl(const char *fname, smallla_handle_t h, smallla_operation_t trans, int n,
                                    int nrhs, const C *A, int lda, long long strideA, const int *ipiv,
                                    long long strideP, C *B, int ldb, long long strideB, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && nrhs > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.require(valid_trans(trans), 2, "trans", (long long)trans, trans_rule)
        .nonneg(3, "n", n)
        .nonneg(4, "nrhs", nrhs)
        .not_null(5, "A", A, work)
        .leading_dim(6, "lda", lda, "n", n)
        .stride(7, "strideA", strideA, "lda*n", (long long)lda * n, batch);
    if (ipiv != nullptr) chk.stride(9, "strideP", strideP, "n", n, batch);
    chk.not_null(10, "B", B, work)
        .leading_dim(11, "ldb", ldb, "n", n)
        .stride(12, "strideB", strideB, "ldb*nrhs", (long long)ldb * nrhs, batch)
        .nonneg(13, "batch", batch);
    if (chk.ok() && work)
        chk.custom(!matrix_range(A, n, n, lda, strideA, batch).overlaps(matrix_range(B, n, nrhs, ldb, strideB, batch)),
                   10, "B = " + pointer_text(B), "not overlap A (B is overwritten by X)");
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{5, "A", A}, {8, "ipiv", ipiv}, {10, "B", B}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getrs_args<T> a{trans, n, nrhs, strided_matrices(to_internal(A), lda, strideA),
                    pivot_batch<const int>{ipiv, strideP}, strided_matrices(to_internal(B), ldb, strideB), batch};
    return run_backend(ctx, fname, [&] { return host::getrs<T>(ctx, a); }, [&] { return cuda::getrs<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

#define SMALLLA_GETRS_ENTRIES(x, C)                                                                              \
    SMALLLA_API smallla_status_t smallla_##x##getrsBatched(smallla_handle_t handle, smallla_operation_t trans,    \
                                                           int n, int nrhs, const C *const A[], int lda,         \
                                                           const int *ipiv, C *const B[], int ldb, int batch) {  \
        const char *fname = "smallla_" #x "getrsBatched";                                                        \
        return c_boundary(handle, fname, [&] {                                                                   \
            return getrs_batched_impl<C>(fname, handle, trans, n, nrhs, A, lda, ipiv, B, ldb, batch);            \
        });                                                                                                      \
    }                                                                                                            \
    SMALLLA_API smallla_status_t smallla_##x##getrsStridedBatched(                                               \
        smallla_handle_t handle, smallla_operation_t trans, int n, int nrhs, const C *A, int lda,                \
        long long strideA, const int *ipiv, long long strideP, C *B, int ldb, long long strideB, int batch) {    \
        const char *fname = "smallla_" #x "getrsStridedBatched";                                                 \
        return c_boundary(handle, fname, [&] {                                                                   \
            return getrs_strided_impl<C>(fname, handle, trans, n, nrhs, A, lda, strideA, ipiv, strideP, B, ldb,  \
                                         strideB, batch);                                                        \
        });                                                                                                      \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_GETRS_ENTRIES)
#undef SMALLLA_GETRS_ENTRIES

}  // extern "C"
