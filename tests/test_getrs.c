/* getrs (solve with A, A^T or A^H from the LU factors): every precision, both forms, trans N/T/C, nrhs 1
 * and several, n = 0..40 and larger, batch 0, 1 and hundreds, gaps (ldb > n, strides) and none, LAPACK's
 * nonsingular matrix types, ipiv == NULL, NaN in B. The factors come from LAPACK; the solution must give
 * xGET02's max_j ||B_j - op(A) X_j|| / (||op(A)|| ||X_j|| eps) < 30, with A and ipiv untouched. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "checker.h"

typedef struct getrs_case {
    chk_form form;
    smallla_operation_t trans;
    int n, nrhs, batch;
    int ld_extra;           /* lda = n + ld_extra, ldb = n + 2*ld_extra */
    long long stride_extra;
    long long piv_extra;
    chk_mtype type;
    int pivoting;
    uint64_t seed;
} getrs_case;

static const char *trans_name(smallla_operation_t t) { return t == SMALLLA_OP_N ? "N" : t == SMALLLA_OP_T ? "T" : "C"; }

static void run_getrs(chk_prec p, const getrs_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, nrhs = c->nrhs, batch = c->batch, nn = n > 0 ? n : 1;
    const int lda = nn + c->ld_extra, ldb = nn + 2 * c->ld_extra;
    const long long sA = (long long)lda * n + c->stride_extra, sB = (long long)ldb * nrhs + 3 * c->stride_extra;
    const long long sP = c->form == CHK_POINTERS ? n : n + c->piv_extra;
    chk_batch *A0 = chk_batch_new(p, c->form, n, n, lda, sA, batch, &rng);
    chk_batch_gen(A0, c->type, &rng);
    chk_batch *LU = chk_batch_clone(A0);
    chk_ints *ipiv = c->pivoting ? chk_ints_new(n, sP, batch) : NULL;
    chk_batch_lapack_getrf(LU, ipiv, NULL);
    chk_batch *LUin = chk_batch_clone(LU);
    chk_batch *B = chk_batch_new(p, c->form, n, nrhs, ldb, sB, batch, &rng);
    chk_batch_gen(B, CHK_MT_RANDOM, &rng);
    chk_batch *B0 = chk_batch_clone(B);

    char what[200];
    snprintf(what, sizeof what, "%cgetrs %s trans=%s n=%d nrhs=%d batch=%d lda=%d ldb=%d type=%s%s", chk_letter(p),
             chk_form_name(c->form), trans_name(c->trans), n, nrhs, batch, lda, ldb, chk_mtype_name(c->type),
             c->pivoting ? "" : " (ipiv NULL)");
    chk_expect_status(env, chk_getrs_on(env, c->trans, LU, ipiv, B), SMALLLA_SUCCESS, what);

    if (chk_batch_differences(LU, LUin)) chk_fail("%s: A (input only) was modified", what);
    if (chk_batch_gap_changes(B)) chk_fail("%s: %lld gap elements of B changed", what, chk_batch_gap_changes(B));
    if (ipiv && chk_ints_gap_changes(ipiv)) chk_fail("%s: ipiv gaps changed", what);
    if ((n == 0 || nrhs == 0) && chk_batch_differences(B, B0)) chk_fail("%s: a no-op call wrote B", what);
    for (int b = 0; b < batch; ++b) {
        double r = chk_ratio_solve(p, c->trans, n, nrhs, chk_batch_mat(A0, b), lda, chk_batch_mat(B, b), ldb,
                                   chk_batch_mat(B0, b), ldb);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: solve ratio %g >= %g", what, b, r, CHK_THRESHOLD);
    }
    chk_batch_free(A0);
    chk_batch_free(LU);
    chk_batch_free(LUin);
    chk_batch_free(B);
    chk_batch_free(B0);
    chk_ints_free(ipiv);
}

static void sizes(void **state, chk_form form, int pivoting) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {50, 64, 100};
    static const int nrhss[] = {1, 3};
    for (int t = 0; t < 3; ++t)
        for (int r = 0; r < 2; ++r) {
            for (int n = 0; n <= 40; ++n) {
                getrs_case c = {form, (smallla_operation_t)t, n, nrhss[r], 4, 0, 0, 0,
                                pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting, 100u + n + 1000u * t};
                run_getrs(p, &c);
            }
            for (int k = 0; k < 3; ++k) {
                getrs_case c = {form, (smallla_operation_t)t, big[k], nrhss[r], 2, 0, 0, 0,
                                pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting, 200u + k};
                run_getrs(p, &c);
            }
        }
}
static void getrs_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 1); }
static void getrs_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 1); }
static void getrs_nopiv(void **state) {
    sizes(state, CHK_STRIDED, 0);
    sizes(state, CHK_POINTERS, 0);
}

/* nrhs 0 (a no-op), 1, 2, 8, 33; gaps everywhere. */
static void getrs_nrhs_and_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 5, 16, 32, 33, 40};
    static const int nrhss[] = {0, 1, 2, 8, 33};
    for (int f = 0; f < 2; ++f)
        for (int t = 0; t < 3; ++t)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
                for (size_t r = 0; r < 5; ++r) {
                    getrs_case c = {(chk_form)f, (smallla_operation_t)t, ns[k], nrhss[r], 3, 2, 3, 2, CHK_MT_RANDOM, 1,
                                    300u + 10 * k + r};
                    run_getrs(p, &c);
                }
}

static void getrs_batch_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 5, 16, 32, 33};
    static const int batches[] = {0, 1, 300};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int q = 0; q < 3; ++q) {
                getrs_case c = {(chk_form)f, (smallla_operation_t)(q % 3), ns[k], 2, batches[q], 1, 1, 1,
                                CHK_MT_RANDOM, 1, 400u + 10 * k + q};
                run_getrs(p, &c);
            }
}

/* Batches without gaps (lda = n, strides n^2, n and n), whose full groups of matrices the host backend moves as
 * whole vectors: orders 1-16, partial last groups (37) and only full ones (64), one right-hand side (moved that
 * way too) and two, with and without pivoting. */
static void getrs_back_to_back(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 4, 5, 8, 16};
    static const int batches[] = {37, 64};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int t = 0; t < 3; ++t)
            for (int q = 0; q < 4; ++q) {
                const int pivoting = q != 3;
                getrs_case c = {CHK_STRIDED, (smallla_operation_t)t, ns[k], q == 2 ? 2 : 1, batches[q % 2], 0, 0, 0,
                                pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting, 700u + 10 * k + q};
                run_getrs(p, &c);
            }
}

/* LAPACK's nonsingular types (the zero-column ones make U singular, where getrs gives Inf/NaN by design). */
static void getrs_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 40, 64};
    for (int type = 0; type <= CHK_MT_LARGE; ++type) {
        if (chk_mtype_zero_column((chk_mtype)type, 4)) continue;
        for (int t = 0; t < 3; ++t)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                getrs_case c = {(chk_form)(k % 2), (smallla_operation_t)t, ns[k], 2, 3, (int)(k % 2), 0, 0,
                                (chk_mtype)type, 1, 500u + 50u * type + k};
                run_getrs(p, &c);
            }
    }
}

/* NaN in one right-hand side: the call returns, that column holds NaN, and the other columns are solved. */
static void getrs_nan(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 3, 16, 32, 33};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int t = 0; t < 3; ++t) {
            const int n = ns[k], nrhs = 3, batch = 2;
            chk_rng rng;
            chk_rng_seed(&rng, 600u + k);
            chk_batch *A0 = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
            chk_batch_gen(A0, CHK_MT_RANDOM, &rng);
            chk_batch *LU = chk_batch_clone(A0);
            chk_ints *ipiv = chk_ints_new(n, n, batch);
            chk_batch_lapack_getrf(LU, ipiv, NULL);
            chk_batch *B = chk_batch_new(p, CHK_STRIDED, n, nrhs, n, (long long)n * nrhs, batch, &rng);
            chk_batch_gen(B, CHK_MT_RANDOM, &rng);
            chk_set(p, chk_batch_mat(B, 0), n + n / 2, NAN); /* column 1 of matrix 0 */
            chk_batch *B0 = chk_batch_clone(B);
            chk_expect_status(env, chk_getrs_on(env, (smallla_operation_t)t, LU, ipiv, B), SMALLLA_SUCCESS,
                              "getrs with NaN");
            int has_nan = 0;
            for (int i = 0; i < n; ++i) {
                double _Complex v = chk_get(p, chk_batch_mat(B, 0), n + i);
                if (isnan(creal(v)) || isnan(cimag(v))) has_nan = 1;
            }
            if (!has_nan) chk_fail("n=%d: NaN in B did not reach X", n);
            const char *m0 = chk_batch_mat(B, 0), *o0 = chk_batch_mat(B0, 0);
            size_t col = chk_elem_size(p) * (size_t)n;
            double r0 = chk_ratio_solve(p, (smallla_operation_t)t, n, 1, chk_batch_mat(A0, 0), n, m0, n, o0, n);
            double r2 = chk_ratio_solve(p, (smallla_operation_t)t, n, 1, chk_batch_mat(A0, 0), n, m0 + 2 * col, n,
                                        o0 + 2 * col, n);
            double r1 = chk_ratio_solve(p, (smallla_operation_t)t, n, nrhs, chk_batch_mat(A0, 1), n,
                                        chk_batch_mat(B, 1), n, chk_batch_mat(B0, 1), n);
            if (!(r0 < CHK_THRESHOLD && r2 < CHK_THRESHOLD && r1 < CHK_THRESHOLD))
                chk_fail("n=%d: clean right-hand sides next to a NaN one: ratios %g %g %g", n, r0, r2, r1);
            chk_batch_free(A0);
            chk_batch_free(LU);
            chk_batch_free(B);
            chk_batch_free(B0);
            chk_ints_free(ipiv);
        }
}

/* Orders beyond 256 (chk_large_orders): both forms, trans N, T and C, several right-hand sides, small
 * batches with gaps; ipiv == NULL; one solve (shared by the threads where they outnumber it). In double also
 * n = 1100. */
static void getrs_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    const int *ns;
    const int count = chk_large_orders(p, &ns);
    for (int k = 0; k < count; ++k) {
        for (int t = 0; t < 3; ++t) {
            getrs_case c = {(chk_form)(t % 2), (smallla_operation_t)t, ns[k], 3, t == 0 ? 2 : 1, 3, 5, 2,
                            CHK_MT_RANDOM, 1, 900u + 10 * k + t};
            run_getrs(p, &c);
        }
        getrs_case c = {CHK_POINTERS, SMALLLA_OP_N, ns[k], 2, 1, 0, 0, 0, CHK_MT_DIAG_DOMINANT, 0, 950u + k};
        run_getrs(p, &c);
        /* One solve: with more threads than solves (test_getrs.host.team), all of them share it. */
        const getrs_case one = {CHK_STRIDED, SMALLLA_OP_N, ns[k], 1, 1, 2, 3, 1, CHK_MT_RANDOM, 1, 960u + k};
        run_getrs(p, &one);
    }
    /* In single, one solve of an order where the threads share it (kernels/host/routing.hpp), N and T. */
    if (p == CHK_S) {
        const getrs_case cs[] = {
            {CHK_STRIDED, SMALLLA_OP_N, 900, 1, 1, 1, 2, 1, CHK_MT_RANDOM, 1, 980u},
            {CHK_POINTERS, SMALLLA_OP_T, 900, 1, 1, 0, 0, 0, CHK_MT_RANDOM, 1, 981u},
        };
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i) run_getrs(p, &cs[i]);
    }
    /* One order beyond 1024, in double only, one matrix (issue 30): N strided and T with pointer arrays from LAPACK's
     * factors, and N with ipiv NULL. */
    if (p == CHK_D) {
        const getrs_case cs[] = {
            {CHK_STRIDED, SMALLLA_OP_N, 1100, 3, 1, 3, 5, 2, CHK_MT_RANDOM, 1, 990u},
            {CHK_POINTERS, SMALLLA_OP_T, 1100, 2, 1, 1, 0, 0, CHK_MT_RANDOM, 1, 991u},
            {CHK_POINTERS, SMALLLA_OP_N, 1100, 2, 1, 0, 0, 0, CHK_MT_DIAG_DOMINANT, 0, 992u},
        };
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i) run_getrs(p, &cs[i]);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(getrs_sizes_strided), CHK_TEST_ALL_PRECS(getrs_sizes_pointers),
        CHK_TEST_ALL_PRECS(getrs_nopiv),         CHK_TEST_ALL_PRECS(getrs_nrhs_and_gaps),
        CHK_TEST_ALL_PRECS(getrs_batch_counts),  CHK_TEST_ALL_PRECS(getrs_matrix_types),
        CHK_TEST_ALL_PRECS(getrs_nan),           CHK_TEST_ALL_PRECS(getrs_large_orders),
        CHK_TEST_ALL_PRECS(getrs_back_to_back),
    };
    return chk_main(argc, argv, "getrs", tests, sizeof tests / sizeof tests[0]);
}
