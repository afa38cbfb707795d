// Entry points of matinv (fused LU and inverse): argument checks in LAPACK order, including the in-place
// rule (C may be A itself, exactly, but may not overlap it otherwise), then the backend.
#include "api_common.hpp"

namespace smallla {
namespace {

template <class C>
smallla_status_t matinv_batched_impl(const char *fname, smallla_handle_t h, int n, const C *const A[], int lda,
                                     C *const Cm[], int ldc, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n).not_null(3, "A", A, work);
    chk.leading_dim(4, "lda", lda, "n", n).not_null(5, "C", Cm, work);
    chk.leading_dim(6, "ldc", ldc, "n", n).not_null(7, "info", info, work).nonneg(8, "batch", batch);
    if (chk.ok() && work) in_place_or_disjoint(chk, ctx, 5, 6, n, A, lda, Cm, ldc, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{3, "A", A}, {5, "C", Cm}, {7, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    matinv_args<T> a{n, pointer_matrices(to_internal(A), lda, 3), pointer_matrices(to_internal(Cm), ldc, 5), info, batch};
    return run_backend(ctx, fname, [&] { return host::matinv<T>(ctx, a); },
                       [&] { return cuda::matinv<T>(ctx, a); });
}

template <class C>
smallla_status_t matinv_strided_impl(const char *fname, smallla_handle_t h, int n, const C *A, int lda,
                                     long long strideA, C *Cm, int ldc, long long strideC, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n)
        .not_null(3, "A", A, work)
        .leading_dim(4, "lda", lda, "n", n)
        .stride(5, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(6, "C", Cm, work)
        .leading_dim(7, "ldc", ldc, "n", n)
        .stride(8, "strideC", strideC, "ldc*n", (long long)ldc * n, batch)
        .not_null(9, "info", info, work)
        .nonneg(10, "batch", batch);
    if (chk.ok() && work) in_place_or_disjoint(chk, 6, n, A, lda, strideA, Cm, ldc, strideC, batch);
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(ctx, fname, {{3, "A", A}, {6, "C", Cm}, {9, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    matinv_args<T> a{n, strided_matrices(to_internal(A), lda, strideA), strided_matrices(to_internal(Cm), ldc, strideC),
                     info, batch};
    return run_backend(ctx, fname, [&] { return host::matinv<T>(ctx, a); },
                       [&] { return cuda::matinv<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

#define SMALLLA_MATINV_ENTRIES(x, C)                                                                             \
    SMALLLA_API smallla_status_t smallla_##x##matinvBatched(smallla_handle_t handle, int n, const C *const A[],   \
                                                            int lda, C *const Cm[], int ldc, int *info,          \
                                                            int batch) {                                         \
        const char *fname = "smallla_" #x "matinvBatched";                                                       \
        return c_boundary(handle, fname,                                                                         \
                          [&] { return matinv_batched_impl<C>(fname, handle, n, A, lda, Cm, ldc, info, batch); }); \
    }                                                                                                            \
    SMALLLA_API smallla_status_t smallla_##x##matinvStridedBatched(smallla_handle_t handle, int n, const C *A,    \
                                                                   int lda, long long strideA, C *Cm, int ldc,   \
                                                                   long long strideC, int *info, int batch) {    \
        const char *fname = "smallla_" #x "matinvStridedBatched";                                                \
        return c_boundary(handle, fname, [&] {                                                                   \
            return matinv_strided_impl<C>(fname, handle, n, A, lda, strideA, Cm, ldc, strideC, info, batch);     \
        });                                                                                                      \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_MATINV_ENTRIES)
#undef SMALLLA_MATINV_ENTRIES

}  // extern "C"
