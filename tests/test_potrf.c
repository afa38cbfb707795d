/* potrf and posv (Cholesky factorization, and factorization and solve), after LAPACK's xCHKPO: every precision,
 * both triangles, both forms, n = 0..40 and beyond (64, 100, 257-300, 520), batch 0, 1 and hundreds, gaps
 * between lda and n and between matrices, LAPACK's SPD matrix types (well and ill conditioned, scaled near
 * underflow and overflow, not positive definite at the first, a middle and the last minor, indefinite),
 * NaN/Inf. info must be LAPACK xPOTRF's; the factor must give xPOT01's ratio < 30 (on the leading minor that a
 * failed factorization leaves), posv's X xPOT02's < 30; the other triangle, the gaps and (posv, info > 0) B must
 * stay bit for bit. On the CUDA backend info is also compared with the host backend's. The same call repeated on
 * new data in the same buffers, across a change of stream (the CUDA backend's replayed graphs). */
#include <stdio.h>

#include "chol_common.h"

typedef struct chol_case {
    chk_form form;
    smallla_fill_t uplo;
    int n, batch, nrhs; /* nrhs < 0: potrf; else posv */
    int ld_extra;
    long long stride_extra;
    chk_pdtype type;
    uint64_t seed;
} chol_case;

static void run_case(chk_prec p, const chol_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, nn = n > 0 ? n : 1, posv = c->nrhs >= 0, nrhs = posv ? c->nrhs : 0;
    const int lda = nn + c->ld_extra, ldb = nn + 2 * c->ld_extra;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, (long long)lda * n + c->stride_extra, batch, &rng);
    chk_batch_gen_pd(A, c->type, &rng);
    spoil_unread(A, c->uplo);
    chk_batch *A0 = chk_batch_clone(A), *B = NULL, *B0 = NULL;
    if (posv) {
        B = chk_batch_new(p, c->form, n, nrhs, ldb, (long long)ldb * nrhs + c->stride_extra, batch, &rng);
        chk_batch_gen(B, CHK_MT_RANDOM, &rng);
        B0 = chk_batch_clone(B);
    }
    chk_ints *info = chk_ints_new(1, 1, batch);

    char what[240];
    snprintf(what, sizeof what, "%c%s %s %s n=%d nrhs=%d batch=%d lda=%d type=%s", chk_letter(p),
             posv ? "posv" : "potrf", uplo_name(c->uplo), chk_form_name(c->form), n, nrhs, batch, lda,
             chk_pdtype_name(c->type));
    smallla_status_t st = posv ? chk_posv_on(env, c->uplo, A, B, info) : chk_potrf_on(env, c->uplo, A, info);
    chk_expect_status(env, st, SMALLLA_SUCCESS, what);

    if (chk_batch_gap_changes(A)) chk_fail("%s: %lld gap elements of A changed", what, chk_batch_gap_changes(A));
    if (B && chk_batch_gap_changes(B)) chk_fail("%s: gap elements of B changed", what);
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);
    if (n == 0) {
        for (int b = 0; b < batch; ++b)
            if (chk_ints_unwritten(info, b) != 1) chk_fail("%s: a no-op call wrote info[%d]", what, b);
        if (chk_batch_differences(A, A0) || (B && chk_batch_differences(B, B0))) chk_fail("%s: a no-op call wrote", what);
    }
    void *W = chk_alloc(chk_elem_size(p) * (size_t)nn * (size_t)nn);
    for (int b = 0; n > 0 && b < batch; ++b) {
        const int got = *chk_ints_at(info, b), want = lapack_potrf_copy(p, c->uplo, A0, b, W);
        if (got != want) chk_fail("%s: matrix %d: info %d, LAPACK potrf %d", what, b, got, want);
        const int by_type = chk_pdtype_zero_index(c->type, n);
        if (by_type >= 0 && want != by_type) chk_fail("%s: matrix %d: LAPACK's info %d, type says %d", what, b, want, by_type);
        if (other_triangle_changes(A0, A, b, c->uplo))
            chk_fail("%s: matrix %d: %lld elements of the other triangle changed", what, b,
                     other_triangle_changes(A0, A, b, c->uplo));
        const int m = got == 0 ? n : got - 1; /* the order of the factor that must be valid */
        const double r = chk_ratio_chol(p, c->uplo, m, chk_batch_mat(A0, b), lda, chk_batch_mat(A, b), lda);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d (info %d): xPOT01 ratio %g >= %g", what, b, got, r, CHK_THRESHOLD);
        if (!posv) continue;
        if (got != 0) {
            if (matrix_changes(B0, B, b)) chk_fail("%s: matrix %d: B written although info = %d", what, b, got);
            continue;
        }
        const double rs = chk_ratio_pd_solve(p, c->uplo, n, nrhs, chk_batch_mat(A0, b), lda, chk_batch_mat(B, b), ldb,
                                             chk_batch_mat(B0, b), ldb);
        if (!(rs < CHK_THRESHOLD)) chk_fail("%s: matrix %d: xPOT02 ratio %g >= %g", what, b, rs, CHK_THRESHOLD);
    }
    if (chk_on_device(env) && n > 0 && batch > 0) { /* the host backend's info and factor's ratio agree */
        chk_batch *Ah = chk_batch_clone(A0);
        chk_ints *infoh = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_potrf_on(chk_host_env(), c->uplo, Ah, infoh), SMALLLA_SUCCESS, "host reference");
        for (int b = 0; b < batch; ++b)
            if (*chk_ints_at(infoh, b) != *chk_ints_at(info, b))
                chk_fail("%s: matrix %d: info %d, host backend %d", what, b, *chk_ints_at(info, b), *chk_ints_at(infoh, b));
        chk_batch_free(Ah);
        chk_ints_free(infoh);
    }
    chk_free(W);
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_batch_free(B);
    chk_batch_free(B0);
    chk_ints_free(info);
}

/* n = 0..40 in batches of 37 (two full groups of the widest host lanes, 16, and a partial one), 47, 64, 65, 100,
 * 129 in batches of 2: both triangles, well conditioned, no gaps. */
static void sizes(void **state, chk_form form, int nrhs) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {64, 100, 47, 65, 129}; /* 47, 65, 129: off the blocked form's tile multiples */
    for (int u = 0; u < 2; ++u) {
        for (int n = 0; n <= 40; ++n) {
            chol_case c = {form, chol_uplos[u], n, 37, nrhs, 0, 0, CHK_PD_WELL, 100u + 2 * n + u};
            run_case(p, &c);
        }
        for (int k = 0; k < (int)(sizeof big / sizeof big[0]); ++k) {
            chol_case c = {form, chol_uplos[u], big[k], 2, nrhs, 0, 0, CHK_PD_WELL, 200u + 2 * k + u};
            run_case(p, &c);
        }
    }
}
static void potrf_sizes_strided(void **state) { sizes(state, CHK_STRIDED, -1); }
static void potrf_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, -1); }
static void posv_sizes_strided(void **state) { sizes(state, CHK_STRIDED, 1); }
static void posv_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, 3); }

/* Gaps between lda and n and between matrices, both forms, potrf and posv. */
static void chol_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 8, 16, 17, 32, 33, 40};
    for (int f = 0; f < 2; ++f)
        for (int u = 0; u < 2; ++u)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                chol_case c = {(chk_form)f, chol_uplos[u], ns[k], 5, (int)(k % 3) - 1, 3, 4, CHK_PD_WELL,
                               300u + 40 * f + 20 * u + k};
                run_case(p, &c);
            }
}

/* batch 0, 1 and hundreds. */
static void chol_batch_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {0, 1, 5, 16, 32, 33};
    static const int batches[] = {0, 1, 300};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int q = 0; q < 3; ++q) {
                chol_case c = {(chk_form)f, chol_uplos[(k + q) % 2], ns[k], batches[q], q == 1 ? 2 : -1, 1, 1,
                               CHK_PD_WELL, 400u + 10 * k + q};
                run_case(p, &c);
            }
}

/* LAPACK's matrix types, both triangles, potrf and posv. */
static void chol_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 40, 64, 100};
    for (int type = 0; type < CHK_PD_COUNT; ++type)
        for (int u = 0; u < 2; ++u)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                chol_case c = {(chk_form)(k % 2), chol_uplos[u], ns[k], 4, (int)((k + u) % 2) * 2 - 1, (int)(k % 2), 0,
                               (chk_pdtype)type, 500u + 100u * type + 30u * u + k};
                run_case(p, &c);
            }
}

/* Orders beyond 256, small batches: 257, 300 and 520 (520 in double and double complex only, for time), and
 * 1100 in double (beyond the orders of the panel kernels, 1024). */
static void chol_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {257, 300, 520, 1100};
    const int count = p == CHK_D ? 4 : p == CHK_Z ? 3 : 2;
    for (int k = 0; k < count; ++k)
        for (int u = 0; u < 2; ++u) {
            chol_case c = {(chk_form)((k + u) % 2), chol_uplos[u], ns[k], u == 0 ? 2 : 1, u == 0 ? -1 : 2, 3, 5,
                           k == 1 ? CHK_PD_ZERO_MIDDLE : CHK_PD_WELL, 900u + 10 * k + u};
            run_case(p, &c);
        }
}

/* NaN and Inf in the read triangle: info as LAPACK's (a NaN pivot is a failure, never a success), the call
 * returns, neighbours in the same batch are factored correctly. */
static void chol_nan_inf(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 3, 16, 17, 32, 33, 64, 100};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
        for (int u = 0; u < 2; ++u) {
            const int n = ns[k], batch = 6;
            const smallla_fill_t uplo = chol_uplos[u];
            chk_rng rng;
            chk_rng_seed(&rng, 600u + 2 * k + u);
            chk_batch *A = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
            chk_batch_gen_pd(A, CHK_PD_WELL, &rng);
            const int d = n / 2, o = n - 1; /* a diagonal position and the row of an off-diagonal one */
            /* matrix 0: NaN on the diagonal; 1: NaN off the diagonal; 2: Inf off the diagonal; 3: Inf on it */
            chk_set(p, chk_batch_mat(A, 0), d + (long long)d * n, NAN);
            if (n > 1) {
                const long long off = uplo == SMALLLA_FILL_LOWER ? o : (long long)o * n; /* (o, 0) or (0, o) */
                chk_set(p, chk_batch_mat(A, 1), off, NAN);
                chk_set(p, chk_batch_mat(A, 2), off, INFINITY);
            }
            chk_set(p, chk_batch_mat(A, 3), d + (long long)d * n, INFINITY);
            spoil_unread(A, uplo);
            chk_batch *A0 = chk_batch_clone(A);
            chk_ints *info = chk_ints_new(1, 1, batch);
            char what[120];
            snprintf(what, sizeof what, "%cpotrf %s n=%d with NaN/Inf", chk_letter(p), uplo_name(uplo), n);
            chk_expect_status(env, chk_potrf_on(env, uplo, A, info), SMALLLA_SUCCESS, what);
            void *W = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
            for (int b = 0; b < batch; ++b) {
                const int got = *chk_ints_at(info, b), want = lapack_potrf_copy(p, uplo, A0, b, W);
                if (got != want) chk_fail("%s: matrix %d: info %d, LAPACK %d", what, b, got, want);
                if (b == 0 && got != d + 1) chk_fail("%s: NaN at diagonal %d: info %d", what, d + 1, got);
                if (b == 1 && n > 1 && got != o + 1) chk_fail("%s: NaN in row %d: info %d", what, o + 1, got);
                if (other_triangle_changes(A0, A, b, uplo)) chk_fail("%s: matrix %d: other triangle changed", what, b);
            }
            for (int b = 4; b < batch; ++b) {
                double r = chk_ratio_chol(p, uplo, n, chk_batch_mat(A0, b), n, chk_batch_mat(A, b), n);
                if (!(r < CHK_THRESHOLD)) chk_fail("%s: clean matrix %d: ratio %g", what, b, r);
            }
            chk_free(W);
            chk_batch_free(A);
            chk_batch_free(A0);
            chk_ints_free(info);
        }
}

/* posv with nrhs = 0 factors A (LAPACK's xPOSV) and accepts B = NULL. */
static void posv_no_rhs(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    for (int f = 0; f < 2; ++f) {
        const int n = 7, batch = 3;
        chk_rng rng;
        chk_rng_seed(&rng, 700u + f);
        chk_batch *A = chk_batch_new(p, (chk_form)f, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_gen_pd(A, CHK_PD_WELL, &rng);
        chk_batch *A0 = chk_batch_clone(A);
        chk_ints *info = chk_ints_new(1, 1, batch);
        smallla_status_t st = f == CHK_POINTERS
                                  ? chk_posv_batched(env, p, SMALLLA_FILL_LOWER, n, 0, A->ptrs, n, NULL, n, info->data, batch)
                                  : chk_posv_strided(env, p, SMALLLA_FILL_LOWER, n, 0, chk_batch_mat(A, 0), n, A->stride,
                                                     NULL, n, 0, info->data, batch);
        chk_expect_status(env, st, SMALLLA_SUCCESS, "posv nrhs = 0, B = NULL");
        for (int b = 0; b < batch; ++b) {
            if (*chk_ints_at(info, b) != 0) chk_fail("posv nrhs = 0: info %d", *chk_ints_at(info, b));
            double r = chk_ratio_chol(p, SMALLLA_FILL_LOWER, n, chk_batch_mat(A0, b), n, chk_batch_mat(A, b), n);
            if (!(r < CHK_THRESHOLD)) chk_fail("posv nrhs = 0: A not factored (ratio %g)", r);
        }
        chk_batch_free(A);
        chk_batch_free(A0);
        chk_ints_free(info);
    }
}

/* The same call repeated on new data in the same buffers (the CUDA backend replays such calls from a graph from the
 * second on: lib/cuda/replay.hpp): potrf and posv at orders and batches the vendor routes serve, both forms and
 * triangles, five rounds each (well conditioned, not positive definite at the middle minor, a NaN pivot), the
 * handle's stream changed twice on the way (the stream left is destroyed). Every round checks info against LAPACK,
 * xPOT01 / xPOT02 < 30, the other triangle and the gaps. */
typedef struct repeat_case {
    chk_form form;
    smallla_fill_t uplo;
    int n, batch, nrhs; /* nrhs < 0: potrf */
} repeat_case;

static void repeat_rounds(chk_prec p, chk_env *env, const repeat_case *c, uint64_t seed) {
    chk_rng rng;
    chk_rng_seed(&rng, seed);
    const int n = c->n, batch = c->batch, posv = c->nrhs >= 0, nrhs = posv ? c->nrhs : 0, lda = n + 1, ldb = n + 2;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, (long long)lda * n + 3, batch, &rng);
    chk_batch *B = posv ? chk_batch_new(p, c->form, n, nrhs, ldb, (long long)ldb * nrhs + 3, batch, &rng) : NULL;
    chk_ints *info = chk_ints_new(1, 1, batch);
    void *W = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
    void *stream0 = NULL, *side = NULL;
    if (chk_on_device(env)) smallla_get_stream(env->h, &stream0);
    for (int round = 0; round < 5; ++round) {
        if (chk_on_device(env) && round == 2) { /* rounds 2 and 3 on a stream of their own */
            side = chk_dev_stream_create();
            if (!side) chk_fail("cannot create a stream: %s", chk_dev_last_error());
            smallla_set_stream(env->h, side);
        }
        if (chk_on_device(env) && round == 4) {
            smallla_set_stream(env->h, stream0);
            chk_dev_stream_destroy(side);
        }
        const chk_pdtype type = round == 2 ? CHK_PD_ZERO_MIDDLE : CHK_PD_WELL;
        chk_batch_gen_pd(A, type, &rng);
        if (round == 3) chk_set(p, chk_batch_mat(A, 0), n / 2 + (long long)(n / 2) * lda, NAN);
        spoil_unread(A, c->uplo);
        chk_batch *A0 = chk_batch_clone(A), *B0 = NULL;
        if (posv) {
            chk_batch_gen(B, CHK_MT_RANDOM, &rng);
            B0 = chk_batch_clone(B);
        }
        char what[160];
        snprintf(what, sizeof what, "%c%s %s %s n=%d batch=%d, round %d of the same call", chk_letter(p),
                 posv ? "posv" : "potrf", uplo_name(c->uplo), chk_form_name(c->form), n, batch, round);
        smallla_status_t st = posv ? chk_posv_on(env, c->uplo, A, B, info) : chk_potrf_on(env, c->uplo, A, info);
        chk_expect_status(env, st, SMALLLA_SUCCESS, what);
        if (chk_batch_gap_changes(A) || (B && chk_batch_gap_changes(B))) chk_fail("%s: gap elements changed", what);
        for (int b = 0; b < batch; ++b) {
            const int got = *chk_ints_at(info, b), want = lapack_potrf_copy(p, c->uplo, A0, b, W);
            if (got != want) chk_fail("%s: matrix %d: info %d, LAPACK potrf %d", what, b, got, want);
            if (round == 3 && b == 0 && got != n / 2 + 1) chk_fail("%s: NaN pivot %d: info %d", what, n / 2 + 1, got);
            if (other_triangle_changes(A0, A, b, c->uplo)) chk_fail("%s: matrix %d: other triangle changed", what, b);
            const double r = chk_ratio_chol(p, c->uplo, got == 0 ? n : got - 1, chk_batch_mat(A0, b), lda,
                                            chk_batch_mat(A, b), lda);
            if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d (info %d): xPOT01 ratio %g", what, b, got, r);
            if (!posv) continue;
            if (got != 0) {
                if (matrix_changes(B0, B, b)) chk_fail("%s: matrix %d: B written although info = %d", what, b, got);
                continue;
            }
            const double rs = chk_ratio_pd_solve(p, c->uplo, n, nrhs, chk_batch_mat(A0, b), lda, chk_batch_mat(B, b),
                                                 ldb, chk_batch_mat(B0, b), ldb);
            if (!(rs < CHK_THRESHOLD)) chk_fail("%s: matrix %d: xPOT02 ratio %g", what, b, rs);
        }
        chk_batch_free(A0);
        chk_batch_free(B0);
    }
    chk_free(W);
    chk_batch_free(A);
    chk_batch_free(B);
    chk_ints_free(info);
}

static void chol_repeated_calls(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const repeat_case cases[] = {
        {CHK_STRIDED, SMALLLA_FILL_LOWER, 192, 1, -1},  {CHK_STRIDED, SMALLLA_FILL_UPPER, 200, 3, 2},
        {CHK_POINTERS, SMALLLA_FILL_LOWER, 256, 2, -1}, {CHK_STRIDED, SMALLLA_FILL_LOWER, 256, 16, -1},
        {CHK_STRIDED, SMALLLA_FILL_UPPER, 192, 16, 1},  {CHK_POINTERS, SMALLLA_FILL_UPPER, 129, 1, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) repeat_rounds(p, env, &cases[k], 1000u + k);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(potrf_sizes_strided), CHK_TEST_ALL_PRECS(potrf_sizes_pointers),
        CHK_TEST_ALL_PRECS(posv_sizes_strided),  CHK_TEST_ALL_PRECS(posv_sizes_pointers),
        CHK_TEST_ALL_PRECS(chol_gaps),           CHK_TEST_ALL_PRECS(chol_batch_counts),
        CHK_TEST_ALL_PRECS(chol_matrix_types),   CHK_TEST_ALL_PRECS(chol_nan_inf),
        CHK_TEST_ALL_PRECS(chol_large_orders),   CHK_TEST_ALL_PRECS(posv_no_rhs),
        CHK_TEST_ALL_PRECS(chol_repeated_calls),
    };
    return chk_main(argc, argv, "potrf", tests, sizeof tests / sizeof tests[0]);
}
