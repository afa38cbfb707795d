/* getrf (LU with partial pivoting, and without): every precision, both forms, n = 0..40 and larger, batch
 * 0, 1 and hundreds, gaps, LAPACK's matrix types, NaN/Inf. Each result is checked against LAPACK (same
 * ipiv and info except at genuine near-ties, ratio ||PA - LU|| / (n ||A|| eps) < 30), and on the CUDA
 * backend also against the host backend. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checker.h"

typedef struct getrf_case {
    chk_form form;
    int n, batch;
    int ld_extra;           /* lda = n + ld_extra */
    long long stride_extra; /* strideA = lda*n + stride_extra */
    long long piv_extra;    /* strideP = n + piv_extra (strided form) */
    chk_mtype type;
    int pivoting;           /* 0: ipiv == NULL */
    uint64_t seed;
    int zero_col;           /* > 0: this column (1-based) of every matrix is set to zero after generation */
    int col0_exp;           /* != 0: column 0 rescaled so that its pivot is 1.5 * 2^col0_exp (extreme_pivots) */
} getrf_case;

/* Tallies of a test: how many matrices had exactly LAPACK's pivots, how many differed at a near-tie. */
typedef struct tally {
    int exact, ties;
} tally;

static void run_getrf(chk_prec p, const getrf_case *c, tally *t) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, ld = (n > 0 ? n : 1) + c->ld_extra;
    const long long stride = (long long)ld * n + c->stride_extra;
    const long long pstride = c->form == CHK_POINTERS ? n : n + c->piv_extra;
    chk_batch *A = chk_batch_new(p, c->form, n, n, ld, stride, batch, &rng);
    chk_batch_gen(A, c->type, &rng);
    if (c->zero_col > 0 && c->zero_col <= n)
        for (int b = 0; b < batch; ++b)
            for (int i = 0; i < n; ++i) chk_set(p, chk_batch_mat(A, b), i + (long long)(c->zero_col - 1) * ld, 0.0);
    if (c->col0_exp != 0)
        for (int b = 0; b < batch; ++b) {
            void *m = chk_batch_mat(A, b);
            const int r = c->pivoting ? (3 + 7 * b) % n : 0; /* the pivot row of step 1 */
            for (int i = 0; i < n; ++i)
                chk_set(p, m, i, i == r ? (chk_is_complex(p) ? 1.5 + 1.0 * I : 1.5) * ldexp(1.0, c->col0_exp)
                                        : chk_get(p, m, i) * ldexp(1.0, c->col0_exp - 6));
        }
    chk_batch *A0 = chk_batch_clone(A);
    chk_ints *ipiv = c->pivoting ? chk_ints_new(n, pstride, batch) : NULL;
    chk_ints *info = chk_ints_new(1, 1, batch);

    char what[200];
    snprintf(what, sizeof what, "%cgetrf %s n=%d batch=%d lda=%d type=%s%s", chk_letter(p), chk_form_name(c->form),
             n, batch, ld, chk_mtype_name(c->type), c->pivoting ? "" : " (no pivoting)");
    chk_expect_status(env, chk_getrf_on(env, A, ipiv, info), SMALLLA_SUCCESS, what);

    if (chk_batch_gap_changes(A)) chk_fail("%s: %lld gap elements of A changed", what, chk_batch_gap_changes(A));
    if (ipiv && chk_ints_gap_changes(ipiv)) chk_fail("%s: gap entries of ipiv changed", what);
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);

    if (n == 0 || batch == 0) { /* a no-op: nothing written */
        if (chk_batch_differences(A, A0)) chk_fail("%s: a no-op call wrote A", what);
        for (int b = 0; b < batch; ++b)
            if (chk_ints_unwritten(info, b) != 1) chk_fail("%s: a no-op call wrote info[%d]", what, b);
        goto done;
    }

    /* On the CUDA backend the host backend is the reference. */
    chk_batch *Ah = NULL;
    chk_ints *ipivh = NULL, *infoh = NULL;
    if (chk_on_device(env)) {
        Ah = chk_batch_clone(A0);
        ipivh = c->pivoting ? chk_ints_new(n, pstride, batch) : NULL;
        infoh = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_getrf_on(chk_host_env(), Ah, ipivh, infoh), SMALLLA_SUCCESS, "host reference");
    }

    void *W = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
    int *ipivL = chk_alloc(sizeof(int) * (size_t)n);
    for (int b = 0; b < batch; ++b) {
        const void *a0 = chk_batch_mat(A0, b), *lu = chk_batch_mat(A, b);
        const int got_info = *chk_ints_at(info, b);
        const int *piv = ipiv ? chk_ints_at(ipiv, b) : NULL;
        if (got_info == CHK_INT_POISON) chk_fail("%s: info[%d] not written", what, b);
        if (ipiv && chk_ints_unwritten(ipiv, b)) chk_fail("%s: ipiv of matrix %d not fully written", what, b);

        double r = chk_ratio_lu(p, n, a0, ld, lu, ld, piv);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ||PA - LU|| ratio %g >= %g", what, b, r, CHK_THRESHOLD);

        /* The oracle: LAPACK on a copy of the same matrix (or the reference LU without pivoting). */
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, W, i + (long long)j * n, chk_get(p, a0, i + (long long)j * ld));
        int infoL = c->pivoting ? chk_lapack_getrf(p, n, W, n, ipivL) : chk_ref_getrf_nopiv(p, n, W, n);
        int zc = c->zero_col > 0 && c->zero_col <= n ? c->zero_col : chk_mtype_zero_column(c->type, n);
        if (zc && got_info != zc) chk_fail("%s: matrix %d: info %d, expected %d (zero column)", what, b, got_info, zc);
        if (got_info < 0 || got_info > n) chk_fail("%s: matrix %d: info %d out of range", what, b, got_info);
        if (c->pivoting) {
            int k;
            double gap;
            int agree = chk_pivots_agree(p, n, a0, ld, ipivL, piv, &k, &gap);
            if (agree < 0)
                chk_fail("%s: matrix %d: ipiv[%d] = %d but LAPACK chose %d (candidates %.3g apart, not a near-tie)",
                         what, b, k, piv[k], ipivL[k], gap);
            if (agree == 1) {
                t->exact++;
                if (got_info != infoL) chk_fail("%s: matrix %d: info %d, LAPACK %d", what, b, got_info, infoL);
            } else {
                t->ties++;
            }
            if (ipivh) {
                const int *ph = chk_ints_at(ipivh, b);
                agree = chk_pivots_agree(p, n, a0, ld, ph, piv, &k, &gap);
                if (agree < 0)
                    chk_fail("%s: matrix %d: ipiv[%d] = %d but the host backend chose %d (gap %.3g)", what, b, k,
                             piv[k], ph[k], gap);
                if (agree == 1 && got_info != *chk_ints_at(infoh, b))
                    chk_fail("%s: matrix %d: info %d, host backend %d", what, b, got_info, *chk_ints_at(infoh, b));
            }
        } else {
            t->exact++;
            if (got_info != infoL) chk_fail("%s: matrix %d: info %d, reference %d", what, b, got_info, infoL);
            if (infoh && got_info != *chk_ints_at(infoh, b))
                chk_fail("%s: matrix %d: info %d, host backend %d", what, b, got_info, *chk_ints_at(infoh, b));
        }
    }
    chk_free(W);
    chk_free(ipivL);
    chk_batch_free(Ah);
    chk_ints_free(ipivh);
    chk_ints_free(infoh);
done:
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_ints_free(ipiv);
    chk_ints_free(info);
}

/* Random matrices must nearly always give exactly LAPACK's pivots: near-ties are rare, so a high tie count
 * means the comparison is too lenient or the pivoting differs. */
static void expect_mostly_exact(const tally *t, const char *what) {
    int total = t->exact + t->ties;
    print_message("      %s: %d matrices with LAPACK's exact pivots, %d near-ties\n", what, t->exact, t->ties);
    if (total > 0 && t->ties * 20 > total)
        chk_fail("%s: only %d of %d matrices had LAPACK's exact pivots", what, t->exact, total);
}

static const int big_sizes[] = {50, 64, 100, 47, 65, 129, 257, 72, 96}; /* 47, 65, 129, 257: off the blocked form's panels;
                                                                        72, 96: the lanes form's last orders */

static void sizes(void **state, chk_form form, int pivoting) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    tally t = {0, 0};
    for (int n = 0; n <= 40; ++n) {
        getrf_case c = {form, n, 16, 0, 0, 0, pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting,
                        1000u + (uint64_t)n};
        run_getrf(p, &c, &t);
    }
    for (size_t k = 0; k < sizeof big_sizes / sizeof big_sizes[0]; ++k) {
        getrf_case c = {form, big_sizes[k], 3, 0, 0, 0, pivoting ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, pivoting,
                        2000u + (uint64_t)k};
        run_getrf(p, &c, &t);
    }
    expect_mostly_exact(&t, "sizes");
}

static void getrf_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 1); }
static void getrf_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 1); }
static void getrf_nopiv_strided(void **state) { sizes(state, CHK_STRIDED, 0); }
static void getrf_nopiv_pointers(void **state) { sizes(state, CHK_POINTERS, 0); }

/* lda > n, strides with gaps between matrices and between pivot vectors. */
static void getrf_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 16, 17, 31, 32, 33, 40, 64};
    tally t = {0, 0};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int piv = 0; piv < 2; ++piv) {
                getrf_case c = {(chk_form)f, ns[k], 7, 3, 5, 2, piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv,
                                3000u + k};
                run_getrf(p, &c, &t);
            }
    expect_mostly_exact(&t, "gaps");
}

/* Orders beyond 32 where the host backend takes groups of matrices in lanes (the route's edges: 33-40, 47, 56, 72,
 * 96), a batch of whole groups and a remainder (67; the groups run where there are as many as threads, so that an
 * 8-thread run still has them), with gaps, a zero column (info) and without pivoting. */
static void getrf_groups_beyond_32(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {33, 39, 40, 47, 48, 56, 72, 96};
    tally t = {0, 0};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int piv = 0; piv < 2; ++piv) {
                getrf_case c = {(chk_form)f, ns[k], 67, 2, 3, 1, piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv,
                                3500u + 10 * k + (uint64_t)piv};
                run_getrf(p, &c, &t);
            }
    getrf_case c = {CHK_STRIDED, 40, 67, 0, 0, 0, CHK_MT_ZERO_MIDDLE_COL, 1, 3599u};
    run_getrf(p, &c, &t);
    expect_mostly_exact(&t, "groups beyond 32");
}

/* batch = 0 (a no-op), 1, and a few hundred. */
static void getrf_batch_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 4, 8, 16, 32, 33};
    static const int batches[] = {0, 1, 300};
    tally t = {0, 0};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (size_t q = 0; q < 3; ++q) {
                getrf_case c = {(chk_form)f, ns[k], batches[q], 1, 0, 1, CHK_MT_RANDOM, 1, 4000u + 10 * k + q};
                run_getrf(p, &c, &t);
            }
    expect_mostly_exact(&t, "batch counts");
}

/* LAPACK's matrix types (xCHKGE 1-11). */
static void getrf_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 4, 5, 8, 13, 16, 24, 31, 32, 33, 40, 64};
    for (int type = 0; type <= CHK_MT_LARGE; ++type) {
        tally t = {0, 0};
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            getrf_case c = {(chk_form)(k % 2), ns[k], 6, (int)(k % 3), 0, 0, (chk_mtype)type, 1,
                            5000u + 100u * (uint64_t)type + k};
            run_getrf(p, &c, &t);
        }
        if (type == CHK_MT_RANDOM || type == CHK_MT_DIAGONAL || type == CHK_MT_UPPER)
            expect_mostly_exact(&t, chk_mtype_name((chk_mtype)type));
    }
}

/* Without pivoting, a zero column j of a diagonally dominant matrix gives info = j (U(j,j) = 0), and the
 * factorization goes on; the same with pivoting. */
static void getrf_nopiv_singular(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 5, 16, 32, 33};
    tally t = {0, 0};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int f = 0; f < 2; ++f)
            for (int piv = 0; piv < 2; ++piv) {
                const int cols[3] = {1, ns[k] / 2 + 1, ns[k]};
                for (int z = 0; z < 3; ++z) {
                    getrf_case c = {(chk_form)f, ns[k], 4, 0, 0, 0, CHK_MT_DIAG_DOMINANT, piv, 6000u + k, cols[z]};
                    run_getrf(p, &c, &t);
                }
            }
}

/* NaN and Inf in the input: the call returns (no hang, no crash), every output is written with valid pivot
 * rows, and (as documented) NaN propagates into the factors while info stays in [0, n]. The clean matrices of
 * the same batch are unaffected. */
static void getrf_nan_inf(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 2, 4, 7, 16, 31, 32, 33, 40};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int f = 0; f < 2; ++f) {
            const int n = ns[k], batch = 8, ld = n + 1;
            chk_rng rng;
            chk_rng_seed(&rng, 7000u + k);
            chk_batch *A = chk_batch_new(p, (chk_form)f, n, n, ld, (long long)ld * n, batch, &rng);
            chk_batch_gen(A, CHK_MT_RANDOM, &rng);
            /* matrix 0: NaN at (0,0); 1: NaN in the middle; 2: +Inf at (n-1, 0); 3: column 0 all -Inf;
             * 4: NaN everywhere; 5..7: clean */
            const double nan = NAN, inf = INFINITY;
            chk_set(p, chk_batch_mat(A, 0), 0, nan);
            chk_set(p, chk_batch_mat(A, 1), n / 2 + (long long)(n / 2) * ld, nan);
            chk_set(p, chk_batch_mat(A, 2), n - 1, inf);
            for (int i = 0; i < n; ++i) chk_set(p, chk_batch_mat(A, 3), i, -inf);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) chk_set(p, chk_batch_mat(A, 4), i + (long long)j * ld, nan);
            chk_batch *A0 = chk_batch_clone(A);
            chk_ints *ipiv = chk_ints_new(n, f == CHK_POINTERS ? n : n + 1, batch), *info = chk_ints_new(1, 1, batch);
            chk_expect_status(env, chk_getrf_on(env, A, ipiv, info), SMALLLA_SUCCESS, "getrf with NaN/Inf");
            if (chk_batch_gap_changes(A)) chk_fail("n=%d: gap elements changed", n);
            for (int b = 0; b < batch; ++b) {
                int inf_b = *chk_ints_at(info, b);
                if (inf_b < 0 || inf_b > n) chk_fail("n=%d matrix %d: info %d not in [0, n]", n, b, inf_b);
                for (int i = 0; i < n; ++i) {
                    int r = chk_ints_at(ipiv, b)[i];
                    if (r < i + 1 || r > n) chk_fail("n=%d matrix %d: ipiv[%d] = %d is not a row in [%d, %d]", n, b, i, r, i + 1, n);
                }
            }
            /* matrix 2: the first pivot is +Inf, whose reciprocal getf2 scales by is 0: the multipliers are 0 and
             * every other entry of the factors stays finite (a NaN there would mean a wrong reciprocal of Inf). */
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    if (i == 0 && j == 0) continue;
                    const double _Complex v = chk_get(p, chk_batch_mat(A, 2), i + (long long)j * ld);
                    if (!isfinite(creal(v)) || !isfinite(cimag(v)) || (j == 0 && v != 0))
                        chk_fail("n=%d matrix 2 (+Inf pivot): factor (%d,%d) = %g%+gi, expected %s", n, i, j, creal(v),
                                 cimag(v), j == 0 ? "0" : "finite");
                }
            for (int b = 0; b < 5; b += 4) { /* NaN inputs leave NaN in the factors */
                int has_nan = 0;
                for (int j = 0; j < n && !has_nan; ++j)
                    for (int i = 0; i < n; ++i)
                        { double _Complex v = chk_get(p, chk_batch_mat(A, b), i + (long long)j * ld); if (isnan(creal(v)) || isnan(cimag(v))) has_nan = 1; }
                if (!has_nan) chk_fail("n=%d matrix %d: NaN in the input did not propagate into the factors", n, b);
            }
            for (int b = 5; b < batch; ++b) {
                double r = chk_ratio_lu(p, n, chk_batch_mat(A0, b), ld, chk_batch_mat(A, b), ld, chk_ints_at(ipiv, b));
                if (!(r < CHK_THRESHOLD)) chk_fail("n=%d clean matrix %d next to NaN/Inf ones: ratio %g", n, b, r);
                if (*chk_ints_at(info, b) != 0) chk_fail("n=%d clean matrix %d: info %d", n, b, *chk_ints_at(info, b));
            }
            chk_batch_free(A);
            chk_batch_free(A0);
            chk_ints_free(ipiv);
            chk_ints_free(info);
        }
}

/* Pivots at the ends of the exponent range: column 0 rescaled so that the first pivot is 1.5 * 2^e with e at the
 * top (float 126, double 1022: 1/p is subnormal, where a reciprocal computed on its fast path alone would flush to
 * 0) or below the normal numbers (float -130, double -1030: getf2 divides instead of scaling by 1/p, the kernels
 * scale the pivot first, by a factor that must not overflow), the rest of the column 2^-6
 * of it, so that the multipliers and every norm the checks take stay finite. Checked as the other cases: LAPACK's
 * pivots, the LU ratio, the host backend on CUDA; with and without pivoting, at orders that reach every kernel
 * family. */
static void getrf_extreme_pivots(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    const int single = p == CHK_S || p == CHK_C;
    const int exps[] = {single ? 126 : 1022, single ? -130 : -1030};
    static const int ns[] = {2, 3, 6, 9, 12, 17, 24, 31, 32, 33, 40, 64};
    tally t = {0, 0};
    for (int e = 0; e < 2; ++e)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int piv = 0; piv < 2; ++piv) {
                getrf_case c = {(chk_form)(k % 2), ns[k], 8, 1, 0, 0, piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv,
                                8000u + 10 * k + e, 0, exps[e]};
                run_getrf(p, &c, &t);
            }
    expect_mostly_exact(&t, "extreme pivots");
}

/* Orders beyond 256 (chk_large_orders): both forms, with and without pivoting, small batches with gaps; and in
 * double n = 1100. */
static void getrf_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    const int *ns;
    const int count = chk_large_orders(p, &ns);
    tally t = {0, 0};
    for (int k = 0; k < count; ++k)
        for (int f = 0; f < 3; ++f) { /* strided and pointer array with pivots, then without (the forms alternate) */
            const int piv = f < 2;
            getrf_case c = {(chk_form)((f + k) % 2), ns[k], f == 0 ? 2 : 1, 3, 5, 2,
                            piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv, 9000u + 10 * k + f};
            run_getrf(p, &c, &t);
        }
    /* One order beyond 1024, in double only, one matrix (issue 30): strided with pivoting, a pointer array without. */
    if (p == CHK_D)
        for (int piv = 1; piv >= 0; --piv) {
            getrf_case c = {piv ? CHK_STRIDED : CHK_POINTERS, 1100, 1, 3, 5, 2,
                            piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, piv, 9500u + piv};
            run_getrf(p, &c, &t);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(getrf_sizes_strided),  CHK_TEST_ALL_PRECS(getrf_sizes_pointers),
        CHK_TEST_ALL_PRECS(getrf_nopiv_strided),  CHK_TEST_ALL_PRECS(getrf_nopiv_pointers),
        CHK_TEST_ALL_PRECS(getrf_gaps),           CHK_TEST_ALL_PRECS(getrf_batch_counts),
        CHK_TEST_ALL_PRECS(getrf_groups_beyond_32),
        CHK_TEST_ALL_PRECS(getrf_matrix_types),   CHK_TEST_ALL_PRECS(getrf_nopiv_singular),
        CHK_TEST_ALL_PRECS(getrf_extreme_pivots),
        CHK_TEST_ALL_PRECS(getrf_nan_inf),        CHK_TEST_ALL_PRECS(getrf_large_orders),
    };
    return chk_main(argc, argv, "getrf", tests, sizeof tests / sizeof tests[0]);
}
