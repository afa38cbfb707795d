/* potrs (solve from the Cholesky factor), after LAPACK's xCHKPO: the factors come from LAPACK's xPOTRF (not the
 * library's potrf), every precision, both triangles, both forms, n = 0..40 and beyond, nrhs 0, 1 and several,
 * batch 0, 1 and hundreds, gaps, the PD matrix types. X must give xPOT02's ratio < 30 against the original
 * matrix; A (its both triangles) and the gaps of B stay bit for bit. */
#include <stdio.h>

#include "chol_common.h"

typedef struct potrs_case {
    chk_form form;
    smallla_fill_t uplo;
    int n, nrhs, batch, ld_extra;
    long long stride_extra;
    chk_pdtype type;
    int shared_factor; /* pointer form: every A[b] is matrix 0 (one factor for several B[b]) */
    uint64_t seed;
} potrs_case;

static void run_case(chk_prec p, const potrs_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, nrhs = c->nrhs, batch = c->batch, nn = n > 0 ? n : 1;
    const int lda = nn + c->ld_extra, ldb = nn + 2 * c->ld_extra;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, (long long)lda * n + c->stride_extra, batch, &rng);
    chk_batch_gen_pd(A, c->type, &rng);
    spoil_unread(A, c->uplo);
    chk_batch *Aorig = chk_batch_clone(A);
    for (int b = 0; b < batch; ++b)
        if (chk_lapack_potrf(p, c->uplo, n, chk_batch_mat(A, b), lda) != 0) chk_fail("potrs input not PD");
    if (c->shared_factor && c->form == CHK_POINTERS)
        for (int b = 1; b < batch; ++b) A->ptrs[b] = A->ptrs[0];
    chk_batch *Af = chk_batch_clone(A);
    chk_batch *B = chk_batch_new(p, c->form, n, nrhs, ldb, (long long)ldb * nrhs + c->stride_extra, batch, &rng);
    chk_batch_gen(B, CHK_MT_RANDOM, &rng);
    chk_batch *B0 = chk_batch_clone(B);

    char what[220];
    snprintf(what, sizeof what, "%cpotrs %s %s n=%d nrhs=%d batch=%d lda=%d type=%s%s", chk_letter(p),
             uplo_name(c->uplo), chk_form_name(c->form), n, nrhs, batch, lda, chk_pdtype_name(c->type),
             c->shared_factor ? " one factor" : "");
    chk_expect_status(env, chk_potrs_on(env, c->uplo, A, B), SMALLLA_SUCCESS, what);
    if (chk_batch_differences(A, Af)) chk_fail("%s: A (input only) was modified", what);
    if (chk_batch_gap_changes(B)) chk_fail("%s: gap elements of B changed", what);
    if (n == 0 || nrhs == 0)
        if (chk_batch_differences(B, B0)) chk_fail("%s: a no-op call wrote B", what);
    for (int b = 0; n > 0 && b < batch; ++b) {
        const int ia = c->shared_factor && c->form == CHK_POINTERS ? 0 : b;
        const double r = chk_ratio_pd_solve(p, c->uplo, n, nrhs, chk_batch_mat(Aorig, ia), lda, chk_batch_mat(B, b),
                                            ldb, chk_batch_mat(B0, b), ldb);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: xPOT02 ratio %g >= %g", what, b, r, CHK_THRESHOLD);
    }
    chk_batch_free(A);
    chk_batch_free(Aorig);
    chk_batch_free(Af);
    chk_batch_free(B);
    chk_batch_free(B0);
}

static void sizes(void **state, chk_form form) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {64, 100, 47, 65, 129}; /* 47, 65, 129: off the blocked form's tile multiples */
    for (int u = 0; u < 2; ++u) {
        for (int n = 0; n <= 40; ++n) {
            potrs_case c = {form, chol_uplos[u], n, 1 + n % 3, 5, 0, 0, CHK_PD_WELL, 0, 100u + 2 * n + u};
            run_case(p, &c);
        }
        for (int k = 0; k < (int)(sizeof big / sizeof big[0]); ++k) {
            potrs_case c = {form, chol_uplos[u], big[k], 2, 2, 0, 0, CHK_PD_WELL, 0, 200u + 2 * k + u};
            run_case(p, &c);
        }
    }
}
static void potrs_sizes_strided(void **state) { sizes(state, CHK_STRIDED); }
static void potrs_sizes_pointers(void **state) { sizes(state, CHK_POINTERS); }

static void potrs_gaps_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 3, 8, 16, 17, 32, 33, 40};
    static const int nrhs[] = {0, 1, 4};
    static const int batches[] = {0, 1, 300};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int q = 0; q < 3; ++q) {
                potrs_case c = {(chk_form)f, chol_uplos[(k + q) % 2], ns[k], nrhs[q], batches[(k + q) % 3], 3, 4,
                                CHK_PD_WELL, 0, 300u + 100 * f + 10 * k + q};
                run_case(p, &c);
            }
    for (int u = 0; u < 2; ++u) { /* one factor for every right-hand side block */
        potrs_case c = {CHK_POINTERS, chol_uplos[u], 12, 2, 9, 1, 0, CHK_PD_WELL, 1, 390u + u};
        run_case(p, &c);
    }
}

static void potrs_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 5, 8, 16, 17, 32, 33, 64};
    static const chk_pdtype types[] = {CHK_PD_DIAGONAL, CHK_PD_WELL, CHK_PD_ILL_SQRT, CHK_PD_ILL, CHK_PD_SMALL,
                                       CHK_PD_LARGE};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
        for (int u = 0; u < 2; ++u)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                potrs_case c = {(chk_form)(k % 2), chol_uplos[u], ns[k], 2, 3, (int)(k % 2), 0, types[t], 0,
                                500u + 100u * t + 30u * u + k};
                run_case(p, &c);
            }
}

static void potrs_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {257, 300, 520};
    const int count = p == CHK_D || p == CHK_Z ? 3 : 2;
    for (int k = 0; k < count; ++k)
        for (int u = 0; u < 2; ++u) {
            potrs_case c = {(chk_form)((k + u) % 2), chol_uplos[u], ns[k], u == 0 ? 1 : 3, u == 0 ? 2 : 1, 3, 5,
                            CHK_PD_WELL, 0, 900u + 10 * k + u};
            run_case(p, &c);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(potrs_sizes_strided), CHK_TEST_ALL_PRECS(potrs_sizes_pointers),
        CHK_TEST_ALL_PRECS(potrs_gaps_counts),   CHK_TEST_ALL_PRECS(potrs_matrix_types),
        CHK_TEST_ALL_PRECS(potrs_large_orders),
    };
    return chk_main(argc, argv, "potrs", tests, sizeof tests / sizeof tests[0]);
}
