// Entry points of getrf_iter (iterative Crout LU): the options' defaults and validation, the argument checks
// in argument order, then the backend.
#include <cmath>

#include "api_common.hpp"

namespace smallla {
namespace {

const char *pivoting_name(int p) {
    switch (p) {
    case SMALLLA_ITER_PIVOT_NONE: return "SMALLLA_ITER_PIVOT_NONE";
    case SMALLLA_ITER_PIVOT_REUSE: return "SMALLLA_ITER_PIVOT_REUSE";
    case SMALLLA_ITER_PIVOT_PARTIAL: return "SMALLLA_ITER_PIVOT_PARTIAL";
    default: return nullptr;
    }
}

// The options as the backends get them: defaults for NULL, max_sweeps 0 -> n (the frontier of the scheme
// advances by at least one column per sweep, see kernels/host/getrf_iter_host.hpp).
smallla_iter_options_t effective_options(const smallla_iter_options_t *opts, int n) {
    smallla_iter_options_t o = opts ? *opts : smallla_iter_options_default();
    if (o.max_sweeps == 0) o.max_sweeps = n > 0 ? n : 1;
    return o;
}

// Argument 11: "argument 11 (opts->tolerance = -1) must be ..."; the first failure is recorded in chk.
void check_options(arg_check &chk, const smallla_iter_options_t *opts, bool lu_is_a) {
    if (!chk.ok() || opts == nullptr) return;
    const smallla_iter_options_t &o = *opts;
    chk.require(o.version == SMALLLA_ITER_OPTIONS_VERSION, 11, "opts->version", o.version,
                "SMALLLA_ITER_OPTIONS_VERSION = " + std::to_string(SMALLLA_ITER_OPTIONS_VERSION) +
                    " (start from smallla_iter_options_default())");
    if (!chk.ok()) return;
    {
        char buf[64];
        std::snprintf(buf, sizeof buf, "opts->tolerance = %g", o.tolerance);
        chk.custom(std::isfinite(o.tolerance) && o.tolerance >= 0, 11, buf, "be finite and >= 0");
    }
    chk.nonneg(11, "opts->max_sweeps", o.max_sweeps);
    chk.require(o.initial_guess == SMALLLA_ITER_GUESS_A || o.initial_guess == SMALLLA_ITER_GUESS_LU_IN, 11,
                "opts->initial_guess", (long long)o.initial_guess,
                "SMALLLA_ITER_GUESS_A or SMALLLA_ITER_GUESS_LU_IN");
    chk.require(pivoting_name(o.pivoting) != nullptr, 11, "opts->pivoting", (long long)o.pivoting,
                "SMALLLA_ITER_PIVOT_NONE, SMALLLA_ITER_PIVOT_REUSE or SMALLLA_ITER_PIVOT_PARTIAL");
    chk.custom(!(lu_is_a && o.initial_guess == SMALLLA_ITER_GUESS_LU_IN), 11,
               "opts->initial_guess = SMALLLA_ITER_GUESS_LU_IN", "not be used when LU is A itself");
}

template <class C>
smallla_status_t getrf_iter_impl(const char *fname, smallla_handle_t h, int n, const C *A, int lda, long long strideA,
                                 C *LU, int ldlu, long long strideLU, int *ipiv, long long strideP,
                                 const smallla_iter_options_t *opts, int *sweeps, int *info, int batch) {
    if (!handle_is_live(h)) return invalid_handle(fname);
    context &ctx = *h;
    begin_call(ctx);
    const bool work = n > 0 && batch > 0;
    // The pivoting asked for decides whether ipiv (argument 9) may be NULL; it is read only from options that
    // argument 11's check will accept (otherwise that check reports them).
    const bool opts_readable = opts == nullptr || opts->version == SMALLLA_ITER_OPTIONS_VERSION;
    const int pivoting = opts_readable ? (opts ? (int)opts->pivoting : (int)SMALLLA_ITER_PIVOT_PARTIAL) : -1;
    const bool lu_is_a = static_cast<const void *>(A) == static_cast<const void *>(LU);

    arg_check chk(ctx, fname);
    chk.nonneg(2, "n", n)
        .not_null(3, "A", A, work)
        .leading_dim(4, "lda", lda, "n", n)
        .stride(5, "strideA", strideA, "lda*n", (long long)lda * n, batch)
        .not_null(6, "LU", LU, work)
        .leading_dim(7, "ldlu", ldlu, "n", n)
        .stride(8, "strideLU", strideLU, "ldlu*n", (long long)ldlu * n, batch);
    if (chk.ok() && work) {
        const bool exact = lu_is_a && ldlu == lda && (batch <= 1 || strideLU == strideA);
        chk.custom(exact || !matrix_range(A, n, n, lda, strideA, batch)
                                 .overlaps(matrix_range<C>(LU, n, n, ldlu, strideLU, batch)),
                   6, "LU = " + pointer_text(LU),
                   "be A itself with ldlu == lda and strideLU == strideA, or not overlap A");
    }
    if (chk.ok() && work && ipiv == nullptr && pivoting_name(pivoting) != nullptr)
        chk.custom(pivoting == SMALLLA_ITER_PIVOT_NONE, 9, "ipiv = NULL",
                   std::string("not be NULL with opts->pivoting = ") + pivoting_name(pivoting));
    if (ipiv != nullptr) chk.stride(10, "strideP", strideP, "n", n, batch);
    check_options(chk, opts, lu_is_a && work);
    chk.not_null(13, "info", info, work).nonneg(14, "batch", batch);
    // Pivots that are read (reused, or going with a warm start's factors) must be row numbers. Host memory
    // only: the CUDA backend cannot read device memory here without synchronizing, and its kernel leaves a
    // row in place for an entry outside 1..n.
    const smallla_iter_options_t o = effective_options(opts_readable ? opts : nullptr, n);
    const bool reads_ipiv = o.pivoting == SMALLLA_ITER_PIVOT_REUSE ||
                            (o.pivoting == SMALLLA_ITER_PIVOT_PARTIAL && o.initial_guess == SMALLLA_ITER_GUESS_LU_IN);
    if (chk.ok() && work && ipiv != nullptr && reads_ipiv && ctx.backend == SMALLLA_BACKEND_HOST) {
        for (int b = 0; b < batch && chk.ok(); ++b)
            for (int i = 0; i < n; ++i) {
                const int v = ipiv[(long long)b * strideP + i];
                if (v < 1 || v > n) {
                    chk.custom(false, 9,
                               "ipiv[" + std::to_string((long long)b * strideP + i) + "] = " + std::to_string(v),
                               "be in 1..n = " + std::to_string(n) + " when the pivots are read");
                    break;
                }
            }
    }
    if (!chk.ok()) return chk.status();
    if (smallla_status_t st = check_device_pointers(
            ctx, fname, {{3, "A", A}, {6, "LU", LU}, {9, "ipiv", ipiv}, {12, "sweeps", sweeps}, {13, "info", info}}))
        return st;
    if (!work) return SMALLLA_SUCCESS;

    using T = internal_t<C>;
    getrf_iter_args<T> a{n,
                         strided_matrices(to_internal(A), lda, strideA),
                         strided_matrices(to_internal(LU), ldlu, strideLU),
                         pivot_batch<int>{ipiv, strideP},
                         o,
                         sweeps,
                         info,
                         batch};
    return run_backend(ctx, fname, [&] { return host::getrf_iter<T>(ctx, a); },
                       [&] { return cuda::getrf_iter<T>(ctx, a); });
}

}  // namespace
}  // namespace smallla

using namespace smallla;

extern "C" {

SMALLLA_API smallla_iter_options_t smallla_iter_options_default(void) {
    smallla_iter_options_t o;
    o.version = SMALLLA_ITER_OPTIONS_VERSION;
    o.tolerance = 0.0;
    o.max_sweeps = 0;
    o.initial_guess = SMALLLA_ITER_GUESS_A;
    o.pivoting = SMALLLA_ITER_PIVOT_PARTIAL;
    o.fallback_direct = 1;
    return o;
}

#define SMALLLA_GETRF_ITER_ENTRIES(x, C)                                                                         \
    SMALLLA_API smallla_status_t smallla_##x##getrf_iter(                                                        \
        smallla_handle_t handle, int n, const C *A, int lda, long long strideA, C *LU, int ldlu,                \
        long long strideLU, int *ipiv, long long strideP, const smallla_iter_options_t *opts, int *sweeps,       \
        int *info, int batch) {                                                                                  \
        const char *fname = "smallla_" #x "getrf_iter";                                                          \
        return c_boundary(handle, fname, [&] {                                                                   \
            return getrf_iter_impl<C>(fname, handle, n, A, lda, strideA, LU, ldlu, strideLU, ipiv, strideP,     \
                                      opts, sweeps, info, batch);                                                \
        });                                                                                                      \
    }
SMALLLA_FOR_EACH_PRECISION(SMALLLA_GETRF_ITER_ENTRIES)
#undef SMALLLA_GETRF_ITER_ENTRIES

}  // extern "C"
