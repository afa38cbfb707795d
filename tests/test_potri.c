/* potri (the inverse from the Cholesky factor, in place) and poinv (the fused inverse, C all of inv(A)), after
 * LAPACK's xCHKPO: every precision, both triangles, both forms, n = 0..40 and beyond, batch 0, 1 and hundreds,
 * gaps, the PD matrix types. potri's input is LAPACK xPOTRF's factor; its info must be LAPACK xPOTRI's (a zero
 * diagonal of the factor: info = j and A unchanged), its triangle xPOT03's ratio < 30; the other triangle stays
 * bit for bit. poinv's info must be LAPACK xPOTRF's; C (out of place or in place) must be written entirely,
 * exactly Hermitian (C(j,i) = conj(C(i,j)) bit for bit, real diagonal), and give xPOT03's ratio < 30; A stays
 * unchanged out of place. */
#include <stdio.h>

#include "chol_common.h"

typedef enum placement { OUT_OF_PLACE, IN_PLACE } placement;

typedef struct inv_case {
    chk_form form;
    smallla_fill_t uplo;
    int n, batch, ld_extra;
    long long stride_extra;
    chk_pdtype type;
    placement where;  /* poinv only */
    int zero_diagonal; /* potri: > 0 zeroes this diagonal element (1-based) of matrix 0's factor */
    uint64_t seed;
} inv_case;

static void run_potri(chk_prec p, const inv_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, nn = n > 0 ? n : 1, lda = nn + c->ld_extra;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, (long long)lda * n + c->stride_extra, batch, &rng);
    chk_batch_gen_pd(A, c->type, &rng);
    spoil_unread(A, c->uplo);
    chk_batch *Aorig = chk_batch_clone(A);
    for (int b = 0; b < batch; ++b)
        if (chk_lapack_potrf(p, c->uplo, n, chk_batch_mat(A, b), lda) != 0) chk_fail("potri input not PD");
    if (c->zero_diagonal > 0 && batch > 0 && n >= c->zero_diagonal)
        chk_set(p, chk_batch_mat(A, 0), (c->zero_diagonal - 1) * (long long)(lda + 1), 0.0);
    chk_batch *F = chk_batch_clone(A);
    chk_ints *info = chk_ints_new(1, 1, batch);
    char what[220];
    snprintf(what, sizeof what, "%cpotri %s %s n=%d batch=%d lda=%d type=%s zero diagonal %d", chk_letter(p),
             uplo_name(c->uplo), chk_form_name(c->form), n, batch, lda, chk_pdtype_name(c->type), c->zero_diagonal);
    chk_expect_status(env, chk_potri_on(env, c->uplo, A, info), SMALLLA_SUCCESS, what);
    if (chk_batch_gap_changes(A)) chk_fail("%s: gap elements changed", what);
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);
    void *W = chk_alloc(chk_elem_size(p) * (size_t)nn * (size_t)nn);
    for (int b = 0; n > 0 && b < batch; ++b) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                chk_set(p, W, i + (long long)j * n, chk_get(p, chk_batch_mat(F, b), i + (long long)j * lda));
        const int got = *chk_ints_at(info, b), want = chk_lapack_potri(p, c->uplo, n, W, n);
        if (got != want) chk_fail("%s: matrix %d: info %d, LAPACK potri %d", what, b, got, want);
        if (b == 0 && c->zero_diagonal > 0 && got != c->zero_diagonal) chk_fail("%s: info %d", what, got);
        if (other_triangle_changes(F, A, b, c->uplo)) chk_fail("%s: matrix %d: other triangle changed", what, b);
        if (got != 0) {
            if (matrix_changes(F, A, b)) chk_fail("%s: matrix %d: A written although info = %d", what, b, got);
            continue;
        }
        const double r = chk_ratio_pd_inverse(p, c->uplo, n, chk_batch_mat(Aorig, b), lda, chk_batch_mat(A, b), lda, 0);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: xPOT03 ratio %g >= %g", what, b, r, CHK_THRESHOLD);
        if (chk_is_complex(p))
            for (int j = 0; j < n; ++j)
                if (cimag(chk_get(p, chk_batch_mat(A, b), j + (long long)j * lda)) != 0)
                    chk_fail("%s: matrix %d: imaginary part on the diagonal", what, b);
    }
    chk_free(W);
    chk_batch_free(A);
    chk_batch_free(Aorig);
    chk_batch_free(F);
    chk_ints_free(info);
}

static void run_poinv(chk_prec p, const inv_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, nn = n > 0 ? n : 1, lda = nn + c->ld_extra;
    const int ldc = c->where == IN_PLACE ? lda : nn + 2 * c->ld_extra;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, (long long)lda * n + c->stride_extra, batch, &rng);
    chk_batch_gen_pd(A, c->type, &rng);
    spoil_unread(A, c->uplo);
    chk_batch *A0 = chk_batch_clone(A), *C = A;
    if (c->where == OUT_OF_PLACE) {
        C = chk_batch_new(p, c->form, n, n, ldc, (long long)ldc * n + 2 * c->stride_extra, batch, &rng);
        chk_batch_poison(C);
    }
    chk_ints *info = chk_ints_new(1, 1, batch);
    char what[220];
    snprintf(what, sizeof what, "%cpoinv %s %s n=%d batch=%d lda=%d ldc=%d type=%s %s", chk_letter(p),
             uplo_name(c->uplo), chk_form_name(c->form), n, batch, lda, ldc, chk_pdtype_name(c->type),
             c->where == IN_PLACE ? "in place" : "out of place");
    chk_expect_status(env, chk_poinv_on(env, c->uplo, A, C, info), SMALLLA_SUCCESS, what);
    if (C != A && chk_batch_differences(A, A0)) chk_fail("%s: A (input only) was modified", what);
    if (chk_batch_gap_changes(C)) chk_fail("%s: gap elements of C changed", what);
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);
    if (n == 0)
        for (int b = 0; b < batch; ++b)
            if (chk_ints_unwritten(info, b) != 1) chk_fail("%s: a no-op call wrote info[%d]", what, b);
    void *W = chk_alloc(chk_elem_size(p) * (size_t)nn * (size_t)nn);
    for (int b = 0; n > 0 && b < batch; ++b) {
        const int got = *chk_ints_at(info, b), want = lapack_potrf_copy(p, c->uplo, A0, b, W);
        if (got != want) chk_fail("%s: matrix %d: info %d, LAPACK potrf %d", what, b, got, want);
        if (got != 0) continue;
        if (C != A && chk_batch_unwritten(C, b)) chk_fail("%s: matrix %d: C not all written", what, b);
        const void *m = chk_batch_mat(C, b);
        for (int j = 0; j < n; ++j) {
            if (chk_is_complex(p) && cimag(chk_get(p, m, j + (long long)j * ldc)) != 0)
                chk_fail("%s: matrix %d: imaginary part on the diagonal", what, b);
            for (int i = j + 1; i < n; ++i) {
                const double _Complex x = chk_get(p, m, i + (long long)j * ldc), y = chk_get(p, m, j + (long long)i * ldc);
                if (!(creal(x) == creal(y) && cimag(x) == -cimag(y)))
                    chk_fail("%s: matrix %d: C(%d,%d) is not conj(C(%d,%d))", what, b, j, i, i, j);
            }
        }
        const double r = chk_ratio_pd_inverse(p, c->uplo, n, chk_batch_mat(A0, b), lda, m, ldc, 1);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: xPOT03 ratio %g >= %g", what, b, r, CHK_THRESHOLD);
    }
    if (chk_on_device(env) && n > 0 && batch > 0) {
        chk_batch *Ah = chk_batch_clone(A0), *Ch = chk_batch_clone(A0);
        chk_ints *infoh = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_poinv_on(chk_host_env(), c->uplo, Ah, Ch, infoh), SMALLLA_SUCCESS, "host reference");
        for (int b = 0; b < batch; ++b)
            if (*chk_ints_at(infoh, b) != *chk_ints_at(info, b))
                chk_fail("%s: matrix %d: info %d, host backend %d", what, b, *chk_ints_at(info, b), *chk_ints_at(infoh, b));
        chk_batch_free(Ah);
        chk_batch_free(Ch);
        chk_ints_free(infoh);
    }
    chk_free(W);
    if (C != A) chk_batch_free(C);
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_ints_free(info);
}

static void run(chk_prec p, const inv_case *c, int poinv) {
    if (poinv) run_poinv(p, c);
    else run_potri(p, c);
}

static void sizes(void **state, chk_form form, int poinv, placement where) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {64, 100, 47, 65, 129}; /* 47, 65, 129: off the blocked form's tile multiples */
    for (int u = 0; u < 2; ++u) {
        for (int n = 0; n <= 40; ++n) {
            /* 37: two full groups of the widest host lanes (16) and a partial one */
            inv_case c = {form, chol_uplos[u], n, 37, 0, 0, CHK_PD_WELL, where, 0, 100u + 2 * n + u};
            run(p, &c, poinv);
        }
        for (int k = 0; k < (int)(sizeof big / sizeof big[0]); ++k) {
            inv_case c = {form, chol_uplos[u], big[k], 2, 0, 0, CHK_PD_WELL, where, 0, 200u + 2 * k + u};
            run(p, &c, poinv);
        }
    }
}
static void potri_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 0, IN_PLACE); }
static void potri_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 0, IN_PLACE); }
static void poinv_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 1, OUT_OF_PLACE); }
static void poinv_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 1, OUT_OF_PLACE); }
static void poinv_in_place(void **state) {
    sizes(state, CHK_STRIDED, 1, IN_PLACE);
    sizes(state, CHK_POINTERS, 1, IN_PLACE);
}

static void inv_gaps_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {0, 1, 3, 8, 16, 17, 32, 33, 40};
    static const int batches[] = {0, 1, 300};
    for (int poinv = 0; poinv < 2; ++poinv)
        for (int f = 0; f < 2; ++f)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                inv_case c = {(chk_form)f, chol_uplos[(k + f) % 2], ns[k], batches[(k + poinv) % 3], 3, 4, CHK_PD_WELL,
                              (placement)(k % 2), 0, 300u + 100 * poinv + 20 * f + k};
                run(p, &c, poinv);
            }
}

static void inv_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 40, 64};
    for (int poinv = 0; poinv < 2; ++poinv)
        for (int type = 0; type < CHK_PD_COUNT; ++type) {
            /* potri takes LAPACK's factor: only the PD types */
            if (!poinv && (chk_pdtype_zero_index((chk_pdtype)type, 4) != 0)) continue;
            for (int u = 0; u < 2; ++u)
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                    inv_case c = {(chk_form)(k % 2), chol_uplos[u], ns[k], 4, (int)(k % 2), 0, (chk_pdtype)type,
                                  (placement)((k + u) % 2), 0, 500u + 1000u * poinv + 100u * type + 30u * u + k};
                    run(p, &c, poinv);
                }
        }
}

/* potri: a zero on the factor's diagonal (first, middle, last): LAPACK xTRTRI's info, A unchanged. */
static void potri_zero_diagonal(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 4, 16, 17, 32, 33, 50};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int u = 0; u < 2; ++u) {
            const int n = ns[k], z[3] = {1, n / 2 + 1, n};
            for (int q = 0; q < 3; ++q) {
                inv_case c = {(chk_form)((k + q) % 2), chol_uplos[u], n, 3, 1, 0, CHK_PD_WELL, IN_PLACE, z[q],
                              700u + 10 * k + 3 * u + q};
                run_potri(p, &c);
            }
        }
}

static void inv_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {257, 300, 520};
    const int count = p == CHK_D || p == CHK_Z ? 3 : 2;
    for (int poinv = 0; poinv < 2; ++poinv)
        for (int k = 0; k < count; ++k) {
            inv_case c = {(chk_form)((k + poinv) % 2), chol_uplos[(k + poinv) % 2], ns[k], 1, 3, 5, CHK_PD_WELL,
                          (placement)(k % 2), 0, 900u + 10 * k + poinv};
            run(p, &c, poinv);
        }
}

/* poinv with NaN/Inf: info as LAPACK's potrf, clean neighbours correct. */
static void poinv_nan_inf(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 3, 16, 17, 33};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
        const int n = ns[k], batch = 4;
        chk_rng rng;
        chk_rng_seed(&rng, 800u + k);
        chk_batch *A = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_gen_pd(A, CHK_PD_WELL, &rng);
        chk_set(p, chk_batch_mat(A, 0), 0, NAN);
        chk_set(p, chk_batch_mat(A, 1), (long long)n * n - 1, INFINITY);
        chk_batch *A0 = chk_batch_clone(A);
        chk_batch *C = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_poison(C);
        chk_ints *info = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_poinv_on(env, SMALLLA_FILL_LOWER, A, C, info), SMALLLA_SUCCESS, "poinv NaN/Inf");
        void *W = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
        for (int b = 0; b < batch; ++b) {
            const int got = *chk_ints_at(info, b), want = lapack_potrf_copy(p, SMALLLA_FILL_LOWER, A0, b, W);
            if (got != want) chk_fail("poinv n=%d NaN/Inf matrix %d: info %d, LAPACK %d", n, b, got, want);
        }
        if (*chk_ints_at(info, 0) != 1) chk_fail("poinv n=%d: NaN at (1,1) gave info %d", n, *chk_ints_at(info, 0));
        for (int b = 2; b < batch; ++b) {
            double r = chk_ratio_pd_inverse(p, SMALLLA_FILL_LOWER, n, chk_batch_mat(A0, b), n, chk_batch_mat(C, b), n, 1);
            if (!(r < CHK_THRESHOLD)) chk_fail("poinv n=%d clean matrix %d: ratio %g", n, b, r);
        }
        chk_free(W);
        chk_batch_free(A);
        chk_batch_free(A0);
        chk_batch_free(C);
        chk_ints_free(info);
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(potri_sizes_strided), CHK_TEST_ALL_PRECS(potri_sizes_pointers),
        CHK_TEST_ALL_PRECS(poinv_sizes_strided), CHK_TEST_ALL_PRECS(poinv_sizes_pointers),
        CHK_TEST_ALL_PRECS(poinv_in_place),      CHK_TEST_ALL_PRECS(inv_gaps_counts),
        CHK_TEST_ALL_PRECS(inv_matrix_types),    CHK_TEST_ALL_PRECS(potri_zero_diagonal),
        CHK_TEST_ALL_PRECS(inv_large_orders),    CHK_TEST_ALL_PRECS(poinv_nan_inf),
    };
    return chk_main(argc, argv, "potri", tests, sizeof tests / sizeof tests[0]);
}
