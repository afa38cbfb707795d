/* getri (inverse from the LU factors, out of place): every precision, both forms, n = 0..40 and larger,
 * batch 0, 1 and hundreds, gaps, LAPACK's matrix types, ipiv == NULL, NaN. The factors come from LAPACK
 * (so this suite does not depend on the library's getrf); the inverse must give xGET03's
 * ||I - C A|| / (n ||A|| ||C|| eps) < 30, info as LAPACK's (first exactly zero U(j,j)), A and ipiv untouched. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "checker.h"

typedef struct getri_case {
    chk_form form;
    int n, batch;
    int ld_extra;           /* lda = n + ld_extra, ldc = n + 2*ld_extra */
    long long stride_extra; /* strideA = lda*n + extra, strideC = ldc*n + 2*extra */
    long long piv_extra;
    chk_mtype type;
    int pivoting;
    uint64_t seed;
} getri_case;

static void run_getri(chk_prec p, const getri_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, nn = n > 0 ? n : 1;
    const int lda = nn + c->ld_extra, ldc = nn + 2 * c->ld_extra;
    const long long sA = (long long)lda * n + c->stride_extra, sC = (long long)ldc * n + 2 * c->stride_extra;
    const long long sP = c->form == CHK_POINTERS ? n : n + c->piv_extra;
    chk_batch *A0 = chk_batch_new(p, c->form, n, n, lda, sA, batch, &rng);
    chk_batch_gen(A0, c->type, &rng);
    chk_batch *LU = chk_batch_clone(A0);
    chk_ints *ipiv = c->pivoting ? chk_ints_new(n, sP, batch) : NULL;
    int *infoL = chk_alloc(sizeof(int) * ((size_t)batch + 1));
    chk_batch_lapack_getrf(LU, ipiv, infoL);
    chk_batch *LUin = chk_batch_clone(LU);
    chk_ints *ipiv_in = NULL;
    if (ipiv) {
        ipiv_in = chk_ints_new(n, sP, batch);
        for (long long e = 0; e < ipiv->total; ++e) ipiv_in->buf[e] = ipiv->buf[e];
    }
    chk_batch *C = chk_batch_new(p, c->form, n, n, ldc, sC, batch, &rng);
    chk_batch_poison(C);
    chk_ints *info = chk_ints_new(1, 1, batch);

    char what[200];
    snprintf(what, sizeof what, "%cgetri %s n=%d batch=%d lda=%d ldc=%d type=%s%s", chk_letter(p),
             chk_form_name(c->form), n, batch, lda, ldc, chk_mtype_name(c->type), c->pivoting ? "" : " (ipiv NULL)");
    chk_expect_status(env, chk_getri_on(env, LU, ipiv, C, info), SMALLLA_SUCCESS, what);

    if (chk_batch_differences(LU, LUin)) chk_fail("%s: A (input only) was modified", what);
    if (ipiv)
        for (long long e = 0; e < ipiv->total; ++e)
            if (ipiv->buf[e] != ipiv_in->buf[e]) chk_fail("%s: ipiv (input only) was modified", what);
    if (chk_batch_gap_changes(C)) chk_fail("%s: %lld gap elements of C changed", what, chk_batch_gap_changes(C));
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);

    if (n == 0) {
        for (int b = 0; b < batch; ++b)
            if (chk_ints_unwritten(info, b) != 1) chk_fail("%s: a no-op call wrote info[%d]", what, b);
    }
    for (int b = 0; n > 0 && b < batch; ++b) {
        const int got = *chk_ints_at(info, b);
        if (got != infoL[b]) chk_fail("%s: matrix %d: info %d, expected %d", what, b, got, infoL[b]);
        if (got != 0) continue; /* C is not meaningful for a singular U */
        if (chk_batch_unwritten(C, b))
            chk_fail("%s: matrix %d: %lld elements of C not written", what, b, chk_batch_unwritten(C, b));
        double r = chk_ratio_inverse(p, n, chk_batch_mat(A0, b), lda, chk_batch_mat(C, b), ldc);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ||I - CA|| ratio %g >= %g", what, b, r, CHK_THRESHOLD);
    }
    if (chk_on_device(env) && n > 0 && batch > 0) { /* the host backend as the reference */
        chk_batch *Ch = chk_batch_new(p, c->form, n, n, ldc, sC, batch, &rng);
        chk_ints *infoh = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_getri_on(chk_host_env(), LU, ipiv, Ch, infoh), SMALLLA_SUCCESS, "host reference");
        for (int b = 0; b < batch; ++b)
            if (*chk_ints_at(infoh, b) != *chk_ints_at(info, b))
                chk_fail("%s: matrix %d: info %d, host backend %d", what, b, *chk_ints_at(info, b), *chk_ints_at(infoh, b));
        chk_batch_free(Ch);
        chk_ints_free(infoh);
    }
    chk_batch_free(A0);
    chk_batch_free(LU);
    chk_batch_free(LUin);
    chk_batch_free(C);
    chk_ints_free(ipiv);
    chk_ints_free(ipiv_in);
    chk_ints_free(info);
    chk_free(infoL);
}

static void sizes(void **state, chk_form form, int pivoting) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {50, 64, 100, 72, 96}; /* 72, 96: the lanes form's last orders */
    for (int n = 0; n <= 40; ++n) {
        getri_case c = {form, n, 8, 0, 0, 0, pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting, 100u + n};
        run_getri(p, &c);
    }
    for (int k = 0; k < (int)(sizeof big / sizeof big[0]); ++k) {
        getri_case c = {form, big[k], 2, 0, 0, 0, pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting, 200u + k};
        run_getri(p, &c);
    }
}
static void getri_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 1); }
static void getri_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 1); }
static void getri_nopiv(void **state) {
    sizes(state, CHK_STRIDED, 0);
    sizes(state, CHK_POINTERS, 0);
}

static void getri_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 8, 16, 17, 32, 33, 40};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            getri_case c = {(chk_form)f, ns[k], 5, 3, 4, 2, CHK_MT_RANDOM, 1, 300u + k};
            run_getri(p, &c);
        }
}

/* Orders beyond 32 where the host backend takes groups of matrices in lanes (the route's edges), a batch of whole
 * groups and a remainder (67: groups where there are as many as threads, to 8 threads), with gaps, without
 * pivoting, and a singular U (its factors copied to C). */
static void getri_groups_beyond_32(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {33, 40, 47, 48, 56, 72, 96};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int piv = 0; piv < 2; ++piv) {
                getri_case c = {(chk_form)f, ns[k], 67, 2, 3, 1, piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv,
                                350u + 10 * k + (uint64_t)piv};
                run_getri(p, &c);
            }
    getri_case c = {CHK_POINTERS, 40, 67, 0, 0, 0, CHK_MT_ZERO_LAST_COL, 1, 399u};
    run_getri(p, &c);
}

static void getri_batch_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 5, 16, 32, 33};
    static const int batches[] = {0, 1, 300};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int q = 0; q < 3; ++q) {
                getri_case c = {(chk_form)f, ns[k], batches[q], 1, 1, 0, CHK_MT_RANDOM, 1, 400u + 10 * k + q};
                run_getri(p, &c);
            }
}

static void getri_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 40, 64};
    for (int type = 0; type <= CHK_MT_LARGE; ++type)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            getri_case c = {(chk_form)(k % 2), ns[k], 4, (int)(k % 2), 0, 0, (chk_mtype)type, 1, 500u + 50u * type + k};
            run_getri(p, &c);
        }
}

/* NaN in the factors: the call returns, info is in [0, n], and C is written. */
static void getri_nan(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 3, 16, 32, 33};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
        const int n = ns[k], batch = 3;
        chk_rng rng;
        chk_rng_seed(&rng, 600u + k);
        chk_batch *LU = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_gen(LU, CHK_MT_RANDOM, &rng);
        chk_ints *ipiv = chk_ints_new(n, n, batch);
        chk_batch_lapack_getrf(LU, ipiv, NULL);
        chk_set(p, chk_batch_mat(LU, 0), 0, NAN);
        chk_set(p, chk_batch_mat(LU, 1), (long long)n * n - 1, INFINITY);
        chk_batch *C = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_poison(C);
        chk_ints *info = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_getri_on(env, LU, ipiv, C, info), SMALLLA_SUCCESS, "getri with NaN/Inf");
        for (int b = 0; b < batch; ++b) {
            int i = *chk_ints_at(info, b);
            if (i < 0 || i > n) chk_fail("n=%d matrix %d: info %d not in [0, n]", n, b, i);
            if (i == 0 && chk_batch_unwritten(C, b)) chk_fail("n=%d matrix %d: C not written", n, b);
        }
        chk_batch_free(LU);
        chk_batch_free(C);
        chk_ints_free(ipiv);
        chk_ints_free(info);
    }
}

/* Orders beyond 256 (chk_large_orders): both forms with pivots, and ipiv == NULL, small batches with gaps. */
static void getri_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    const int *ns;
    const int count = chk_large_orders(p, &ns);
    for (int k = 0; k < count; ++k)
        for (int f = 0; f < 3; ++f) {
            const int piv = f < 2;
            getri_case c = {(chk_form)((f + k) % 2), ns[k], f == 0 ? 2 : 1, 3, 5, 2,
                            piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv, 700u + 10 * k + f};
            run_getri(p, &c);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(getri_sizes_strided), CHK_TEST_ALL_PRECS(getri_sizes_pointers),
        CHK_TEST_ALL_PRECS(getri_nopiv),         CHK_TEST_ALL_PRECS(getri_gaps),
        CHK_TEST_ALL_PRECS(getri_batch_counts),  CHK_TEST_ALL_PRECS(getri_matrix_types),
        CHK_TEST_ALL_PRECS(getri_nan),           CHK_TEST_ALL_PRECS(getri_large_orders),
        CHK_TEST_ALL_PRECS(getri_groups_beyond_32),
    };
    return chk_main(argc, argv, "getri", tests, sizeof tests / sizeof tests[0]);
}
