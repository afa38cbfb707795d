/* matinv (fused LU and inverse, out of place or in place): every precision, both forms, n = 0..40 and
 * larger, batch 0, 1 and hundreds, gaps, LAPACK's matrix types, NaN/Inf. The inverse must give xGET03's
 * ||I - C A|| / (n ||A|| ||C|| eps) < 30; info must be LAPACK getrf's; A must be untouched out of place. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "checker.h"

typedef enum placement { OUT_OF_PLACE, IN_PLACE, IN_PLACE_OTHER_ARRAY } placement;

typedef struct matinv_case {
    chk_form form;
    int n, batch;
    int ld_extra;
    long long stride_extra;
    chk_mtype type;
    placement where; /* IN_PLACE_OTHER_ARRAY: pointer form, C a different array holding the same pointers */
    uint64_t seed;
} matinv_case;

static void run_matinv(chk_prec p, const matinv_case *c) {
    chk_env *env = chk_env_current();
    chk_rng rng;
    chk_rng_seed(&rng, c->seed);
    const int n = c->n, batch = c->batch, nn = n > 0 ? n : 1;
    const int lda = nn + c->ld_extra, ldc = c->where == OUT_OF_PLACE ? nn + 2 * c->ld_extra : lda;
    const long long sA = (long long)lda * n + c->stride_extra;
    const long long sC = c->where == OUT_OF_PLACE ? (long long)ldc * n + 2 * c->stride_extra : sA;
    chk_batch *A = chk_batch_new(p, c->form, n, n, lda, sA, batch, &rng);
    chk_batch_gen(A, c->type, &rng);
    chk_batch *A0 = chk_batch_clone(A);
    chk_batch *C = A, *Cview = NULL;
    if (c->where == OUT_OF_PLACE) {
        C = chk_batch_new(p, c->form, n, n, ldc, sC, batch, &rng);
        chk_batch_poison(C);
    } else if (c->where == IN_PLACE_OTHER_ARRAY && c->form == CHK_POINTERS) {
        /* a second pointer array with the same entries: in place matrix by matrix */
        Cview = chk_batch_clone(A);
        for (int b = 0; b < batch; ++b) Cview->ptrs[b] = A->ptrs[b];
    }
    chk_ints *info = chk_ints_new(1, 1, batch);

    char what[200];
    snprintf(what, sizeof what, "%cmatinv %s n=%d batch=%d lda=%d ldc=%d type=%s %s", chk_letter(p),
             chk_form_name(c->form), n, batch, lda, ldc, chk_mtype_name(c->type),
             c->where == OUT_OF_PLACE ? "out of place" : "in place");
    smallla_status_t st;
    if (Cview)
        st = chk_matinv_batched(env, p, n, (const void *const *)A->ptrs, lda, Cview->ptrs, lda, info->data, batch);
    else
        st = chk_matinv_on(env, A, C, info);
    chk_expect_status(env, st, SMALLLA_SUCCESS, what);

    if (C != A && chk_batch_differences(A, A0)) chk_fail("%s: A (input only) was modified", what);
    if (chk_batch_gap_changes(C)) chk_fail("%s: %lld gap elements of C changed", what, chk_batch_gap_changes(C));
    if (chk_ints_gap_changes(info)) chk_fail("%s: entries beyond info[batch-1] changed", what);
    if (n == 0)
        for (int b = 0; b < batch; ++b)
            if (chk_ints_unwritten(info, b) != 1) chk_fail("%s: a no-op call wrote info[%d]", what, b);

    void *W = chk_alloc(chk_elem_size(p) * (size_t)nn * (size_t)nn);
    int *ipivL = chk_alloc(sizeof(int) * (size_t)nn);
    for (int b = 0; n > 0 && b < batch; ++b) {
        const int got = *chk_ints_at(info, b);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                chk_set(p, W, i + (long long)j * n, chk_get(p, chk_batch_mat(A0, b), i + (long long)j * lda));
        int infoL = chk_lapack_getrf(p, n, W, n, ipivL);
        if (got != infoL) chk_fail("%s: matrix %d: info %d, LAPACK getrf %d", what, b, got, infoL);
        if (got != 0) continue;
        if (C != A && chk_batch_unwritten(C, b))
            chk_fail("%s: matrix %d: %lld elements of C not written", what, b, chk_batch_unwritten(C, b));
        double r = chk_ratio_inverse(p, n, chk_batch_mat(A0, b), lda, chk_batch_mat(C, b), ldc);
        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ||I - CA|| ratio %g >= %g", what, b, r, CHK_THRESHOLD);
    }
    if (chk_on_device(env) && n > 0 && batch > 0) {
        chk_batch *Ah = chk_batch_clone(A0), *Ch = chk_batch_clone(C);
        chk_ints *infoh = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_matinv_on(chk_host_env(), Ah, Ch, infoh), SMALLLA_SUCCESS, "host reference");
        for (int b = 0; b < batch; ++b)
            if (*chk_ints_at(infoh, b) != *chk_ints_at(info, b))
                chk_fail("%s: matrix %d: info %d, host backend %d", what, b, *chk_ints_at(info, b), *chk_ints_at(infoh, b));
        chk_batch_free(Ah);
        chk_batch_free(Ch);
        chk_ints_free(infoh);
    }
    chk_free(W);
    chk_free(ipivL);
    if (C != A) chk_batch_free(C);
    chk_batch_free(Cview);
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_ints_free(info);
}

static void sizes(void **state, chk_form form, placement where) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int big[] = {50, 64, 100, 47, 65, 129, 72, 96}; /* 47, 65, 129: off the blocked form's panels; 72, 96:
                                                                      the lanes form's last orders */
    for (int n = 0; n <= 40; ++n) {
        matinv_case c = {form, n, 8, 0, 0, CHK_MT_RANDOM, where, 100u + n};
        run_matinv(p, &c);
    }
    for (int k = 0; k < (int)(sizeof big / sizeof big[0]); ++k) {
        matinv_case c = {form, big[k], 2, 0, 0, CHK_MT_RANDOM, where, 200u + k};
        run_matinv(p, &c);
    }
}
static void matinv_sizes_strided(void **state) { sizes(state, CHK_STRIDED, OUT_OF_PLACE); }
static void matinv_sizes_pointers(void **state) { sizes(state, CHK_POINTERS, OUT_OF_PLACE); }
static void matinv_in_place_strided(void **state) { sizes(state, CHK_STRIDED, IN_PLACE); }
static void matinv_in_place_pointers(void **state) {
    sizes(state, CHK_POINTERS, IN_PLACE);
    sizes(state, CHK_POINTERS, IN_PLACE_OTHER_ARRAY);
}

static void matinv_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 8, 16, 17, 32, 33, 40};
    for (int f = 0; f < 2; ++f)
        for (int w = 0; w < 2; ++w)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                matinv_case c = {(chk_form)f, ns[k], 5, 3, 4, CHK_MT_RANDOM, (placement)w, 300u + k};
                run_matinv(p, &c);
            }
}

/* Orders beyond 32 where the host backend takes groups of matrices in lanes (the route's edges), a batch of whole
 * groups and a remainder (67: groups where there are as many as threads, to 8 threads), out of place with gaps and
 * in place, and a singular U (its factors in C). */
static void matinv_groups_beyond_32(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {33, 40, 47, 48, 56, 72, 96};
    for (int f = 0; f < 2; ++f)
        for (int w = 0; w < 2; ++w)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
                matinv_case c = {(chk_form)f, ns[k], 67, 2, 3, CHK_MT_RANDOM, (placement)w, 350u + 10 * k + (uint64_t)w};
                run_matinv(p, &c);
            }
    matinv_case c = {CHK_STRIDED, 40, 67, 0, 0, CHK_MT_ZERO_FIRST_COL, OUT_OF_PLACE, 399u};
    run_matinv(p, &c);
}

static void matinv_batch_counts(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 5, 16, 32, 33};
    static const int batches[] = {0, 1, 300};
    for (int f = 0; f < 2; ++f)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k)
            for (int q = 0; q < 3; ++q) {
                matinv_case c = {(chk_form)f, ns[k], batches[q], 1, 1, CHK_MT_RANDOM, OUT_OF_PLACE, 400u + 10 * k + q};
                run_matinv(p, &c);
            }
}

static void matinv_matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    static const int ns[] = {1, 2, 3, 5, 8, 13, 16, 31, 32, 33, 40, 64};
    for (int type = 0; type <= CHK_MT_LARGE; ++type)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
            matinv_case c = {(chk_form)(k % 2), ns[k], 4, (int)(k % 2), 0, (chk_mtype)type, (placement)(k % 3 == 0),
                             500u + 50u * type + k};
            run_matinv(p, &c);
        }
}

/* NaN/Inf: the call returns, info in [0, n], C written; clean neighbours correct. */
static void matinv_nan_inf(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int ns[] = {1, 3, 16, 32, 33};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
        const int n = ns[k], batch = 4;
        chk_rng rng;
        chk_rng_seed(&rng, 600u + k);
        chk_batch *A = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_gen(A, CHK_MT_RANDOM, &rng);
        chk_set(p, chk_batch_mat(A, 0), 0, NAN);
        chk_set(p, chk_batch_mat(A, 1), (long long)n * n - 1, INFINITY);
        chk_batch *C = chk_batch_new(p, CHK_STRIDED, n, n, n, (long long)n * n, batch, &rng);
        chk_batch_poison(C);
        chk_ints *info = chk_ints_new(1, 1, batch);
        chk_expect_status(env, chk_matinv_on(env, A, C, info), SMALLLA_SUCCESS, "matinv with NaN/Inf");
        for (int b = 0; b < batch; ++b) {
            int i = *chk_ints_at(info, b);
            if (i < 0 || i > n) chk_fail("n=%d matrix %d: info %d not in [0, n]", n, b, i);
            if (i == 0 && chk_batch_unwritten(C, b)) chk_fail("n=%d matrix %d: C not written", n, b);
        }
        for (int b = 2; b < batch; ++b) {
            double r = chk_ratio_inverse(p, n, chk_batch_mat(A, b), n, chk_batch_mat(C, b), n);
            if (!(r < CHK_THRESHOLD)) chk_fail("n=%d clean matrix %d next to NaN/Inf ones: ratio %g", n, b, r);
        }
        chk_batch_free(A);
        chk_batch_free(C);
        chk_ints_free(info);
    }
}

/* Orders beyond 256 (chk_large_orders): both forms out of place, and in place, small batches with gaps. */
static void matinv_large_orders(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    const int *ns;
    const int count = chk_large_orders(p, &ns);
    for (int k = 0; k < count; ++k)
        for (int f = 0; f < 3; ++f) {
            matinv_case c = {(chk_form)((f + k) % 2), ns[k], f == 0 ? 2 : 1, 3, 5, CHK_MT_RANDOM,
                             f < 2 ? OUT_OF_PLACE : IN_PLACE, 800u + 10 * k + f};
            run_matinv(p, &c);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(matinv_sizes_strided),    CHK_TEST_ALL_PRECS(matinv_sizes_pointers),
        CHK_TEST_ALL_PRECS(matinv_in_place_strided), CHK_TEST_ALL_PRECS(matinv_in_place_pointers),
        CHK_TEST_ALL_PRECS(matinv_gaps),             CHK_TEST_ALL_PRECS(matinv_batch_counts),
        CHK_TEST_ALL_PRECS(matinv_groups_beyond_32),
        CHK_TEST_ALL_PRECS(matinv_matrix_types),     CHK_TEST_ALL_PRECS(matinv_nan_inf),
        CHK_TEST_ALL_PRECS(matinv_large_orders),
    };
    return chk_main(argc, argv, "matinv", tests, sizeof tests / sizeof tests[0]);
}
