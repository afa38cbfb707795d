// Entry points of getrf (LU with partial pivoting): argument checks in LAPACK order, then the backend.
#include "api_common.hpp"

namespace smallla {
namespace {

template <class C>
smallla_status_t getrf_batched_impl(const char *fname, smallla_handle_t h, int n, C *const A[], int lda,
                                    int *ipiv, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n).not_null(3, "A", A, work);
    chk.leading_dim(4, "lda", lda, "n", n).not_null(6, "info", info, work).nonneg(7, "batch", batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{3, "A", A}, {5, "ipiv", ipiv}, {6, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getrf_args<T> a{n, pointer_matrices(to_internal(A), lda, 3), pivot_batch<int>{ipiv, n}, info, batch};
    return run_backend(ctx, fname, [&] { return host::getrf<T>(ctx, a); }, [&] { return cuda::getrf<T>(ctx, a); });
}

template <class C>
smallla_status_t getrf_strided_impl(const char *fname, smallla_handle_t h, int n, C *A, int lda, long long strideA,
                                    int *ipiv, long long strideP, int *info, int batch) {
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
    chk.not_null(8, "info", info, work).nonneg(9, "batch", batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{3, "A", A}, {6, "ipiv", ipiv}, {8, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getrf_args<T> a{n, strided_matrices(to_internal(A), lda, strideA), pivot_batch<int>{ipiv, strideP}, info, batch};
    return run_backend(ctx, fname, [&] { return host::getrf<T>(ctx, a); }, [&] { return cuda::getrf<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

#define SMALLLA_GETRF_ENTRIES(x, C)                                                                               \
    SMALLLA_API smallla_status_t smallla_##x##getrfBatched(smallla_handle_t handle, int n, C *const A[], int lda, \
                                                           int *ipiv, int *info, int batch) {                     \
        const char *fname = "smallla_" #x "getrfBatched";                                                          \
        return c_boundary(handle, fname,                                                                          \
                          [&] { return getrf_batched_impl<C>(fname, handle, n, A, lda, ipiv, info, batch); });    \
    }                                                                                                             \
    SMALLLA_API smallla_status_t smallla_##x##getrfStridedBatched(smallla_handle_t handle, int n, C *A, int lda,  \
                                                                  long long strideA, int *ipiv,                   \
                                                                  long long strideP, int *info, int batch) {      \
        const char *fname = "smallla_" #x "getrfStridedBatched";                                                   \
        return c_boundary(handle, fname, [&] {                                                                    \
            return getrf_strided_impl<C>(fname, handle, n, A, lda, strideA, ipiv, strideP, info, batch);          \
        });                                                                                                       \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_GETRF_ENTRIES)
#undef SMALLLA_GETRF_ENTRIES

}  // extern "C"
