// Entry points of getri (inverse from the LU factors, out of place): argument checks in LAPACK order, then
// the backend.
#include "api_common.hpp"

namespace smallla {
namespace {

template <class C>
smallla_status_t getri_batched_impl(const char *fname, smallla_handle_t h, int n, const C *const A[], int lda,
                                    const int *ipiv, C *const Cm[], int ldc, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n).not_null(3, "A", A, work);
    chk.leading_dim(4, "lda", lda, "n", n).not_null(6, "C", Cm, work);
    chk.leading_dim(7, "ldc", ldc, "n", n).not_null(8, "info", info, work).nonneg(9, "batch", batch);
    // C must not overlap A: the same pointer array, or (host) a matrix of C overlapping its A.
    if (chk.ok() && work) {
        chk.custom(static_cast<const void *>(A) != static_cast<const void *>(Cm), 6,
                   "C = " + pointer_text(Cm), "not be the pointer array A (getri is out of place)");
        if (chk.ok() && ctx.backend == SMALLLA_BACKEND_HOST) {
            for (int b = 0; b < batch; ++b) {
                if (matrix_range(A[b], n, n, lda, 0, 1).overlaps(matrix_range<C>(Cm[b], n, n, ldc, 0, 1))) {
                    chk.custom(false, 6, "C[" + std::to_string(b) + "] = " + pointer_text(Cm[b]),
                               "not overlap A[" + std::to_string(b) + "] (getri is out of place)");
                    break;
                }
            }
        }
        // nor a matrix of A of another index
        pointer_arrays_disjoint(chk, ctx, 6, "C", A, n, n, lda, Cm, n, n, ldc, batch, "getri is out of place");
    }
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(
            ctx, fname, {{3, "A", A}, {5, "ipiv", ipiv}, {6, "C", Cm}, {8, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getri_args<T> a{n, pointer_matrices(to_internal(A), lda, 3), pivot_batch<const int>{ipiv, n},
                    pointer_matrices(to_internal(Cm), ldc, 6), info, batch};
    return run_backend(ctx, fname, [&] { return host::getri<T>(ctx, a); }, [&] { return cuda::getri<T>(ctx, a); });
}

template <class C>
smallla_status_t getri_strided_impl(const char *fname, smallla_handle_t h, int n, const C *A, int lda,
                                    long long strideA, const int *ipiv, long long strideP, C *Cm, int ldc,
                                    long long strideC, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n)
        .not_null(3, "A", A, work)
        .leading_dim(4, "lda", lda, "n", n)
        .stride(5, "strideA", strideA, "lda*n", (long long)lda * n, batch);
    if (ipiv != nullptr) chk.stride(7, "strideP", strideP, "n", n, batch);
    chk.not_null(8, "C", Cm, work)
        .leading_dim(9, "ldc", ldc, "n", n)
        .stride(10, "strideC", strideC, "ldc*n", (long long)ldc * n, batch)
        .not_null(11, "info", info, work)
        .nonneg(12, "batch", batch);
    if (chk.ok() && work)
        chk.custom(!matrix_range(A, n, n, lda, strideA, batch).overlaps(matrix_range(Cm, n, n, ldc, strideC, batch)),
                   8, "C = " + pointer_text(Cm), "not overlap A (getri is out of place)");
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(
            ctx, fname, {{3, "A", A}, {6, "ipiv", ipiv}, {8, "C", Cm}, {11, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getri_args<T> a{n, strided_matrices(to_internal(A), lda, strideA), pivot_batch<const int>{ipiv, strideP},
                    strided_matrices(to_internal(Cm), ldc, strideC), info, batch};
    return run_backend(ctx, fname, [&] { return host::getri<T>(ctx, a); }, [&] { return cuda::getri<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

#define SMALLLA_GETRI_ENTRIES(x, C)                                                                              \
    SMALLLA_API smallla_status_t smallla_##x##getriBatched(smallla_handle_t handle, int n, const C *const A[],    \
                                                           int lda, const int *ipiv, C *const Cm[], int ldc,     \
                                                           int *info, int batch) {                               \
        const char *fname = "smallla_" #x "getriBatched";                                                        \
        return c_boundary(handle, fname, [&] {                                                                   \
            return getri_batched_impl<C>(fname, handle, n, A, lda, ipiv, Cm, ldc, info, batch);                  \
        });                                                                                                      \
    }                                                                                                            \
    SMALLLA_API smallla_status_t smallla_##x##getriStridedBatched(                                               \
        smallla_handle_t handle, int n, const C *A, int lda, long long strideA, const int *ipiv,                 \
        long long strideP, C *Cm, int ldc, long long strideC, int *info, int batch) {                            \
        const char *fname = "smallla_" #x "getriStridedBatched";                                                 \
        return c_boundary(handle, fname, [&] {                                                                   \
            return getri_strided_impl<C>(fname, handle, n, A, lda, strideA, ipiv, strideP, Cm, ldc, strideC,     \
                                         info, batch);                                                           \
        });                                                                                                      \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_GETRI_ENTRIES)
#undef SMALLLA_GETRI_ENTRIES

}  // extern "C"
