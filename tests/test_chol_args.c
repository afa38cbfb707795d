/* The Cholesky family's argument checks and NULL entries, after LAPACK's xERRPO: for potrf, potri, potrs, posv
 * and poinv, both forms, every precision, each invalid argument in turn must give SMALLLA_INVALID_VALUE, the
 * message "smallla_<x><routine>: argument <k> (" and write nothing (with two invalid arguments the first is
 * reported); the overlap rules (B must not overlap A; poinv's C may be A only exactly); NULL handles; n = 0,
 * nrhs = 0 and batch = 0 as no-ops. NULL entries inside pointer arrays skip their matrix with info[b] =
 * -(argument number) and leave it untouched, the others computed as usual. */
#include <stdio.h>
#include <string.h>

#include "chol_common.h"

typedef enum routine { POTRF, POTRI, POTRS, POSV, POINV, ROUTINES } routine;
static const char *routine_names[] = {"potrf", "potri", "potrs", "posv", "poinv"};

/* Every argument of every routine (unused ones are ignored); C doubles as potrs's and posv's B. */
typedef struct args {
    int uplo, n, nrhs, lda, ldc, batch;
    long long sA, sC;
    void *A, *C;
    void **Aptrs, **Cptrs;
    int *info;
} args;

static smallla_status_t call(chk_env *env, chk_prec p, routine r, chk_form f, const args *a) {
    const smallla_fill_t u = (smallla_fill_t)a->uplo;
    if (f == CHK_STRIDED) switch (r) {
        case POTRF: return chk_potrf_strided(env, p, u, a->n, a->A, a->lda, a->sA, a->info, a->batch);
        case POTRI: return chk_potri_strided(env, p, u, a->n, a->A, a->lda, a->sA, a->info, a->batch);
        case POTRS:
            return chk_potrs_strided(env, p, u, a->n, a->nrhs, a->A, a->lda, a->sA, a->C, a->ldc, a->sC, a->batch);
        case POSV:
            return chk_posv_strided(env, p, u, a->n, a->nrhs, a->A, a->lda, a->sA, a->C, a->ldc, a->sC, a->info,
                                    a->batch);
        default: return chk_poinv_strided(env, p, u, a->n, a->A, a->lda, a->sA, a->C, a->ldc, a->sC, a->info, a->batch);
        }
    switch (r) {
    case POTRF: return chk_potrf_batched(env, p, u, a->n, a->Aptrs, a->lda, a->info, a->batch);
    case POTRI: return chk_potri_batched(env, p, u, a->n, a->Aptrs, a->lda, a->info, a->batch);
    case POTRS:
        return chk_potrs_batched(env, p, u, a->n, a->nrhs, (const void *const *)a->Aptrs, a->lda, a->Cptrs, a->ldc,
                                 a->batch);
    case POSV: return chk_posv_batched(env, p, u, a->n, a->nrhs, a->Aptrs, a->lda, a->Cptrs, a->ldc, a->info, a->batch);
    default:
        return chk_poinv_batched(env, p, u, a->n, (const void *const *)a->Aptrs, a->lda, a->Cptrs, a->ldc, a->info,
                                 a->batch);
    }
}

/* The fixture: n = 3, lda = 4, ldc = 5, nrhs = 2, two PD matrices (potri/potrs: their factors). */
typedef struct fixture {
    chk_batch *A, *C, *A0, *C0;
    chk_ints *info;
    void **Ctwo; /* pointer form: {A[1], C[1]}: an output overlapping another index's input */
    args good;
} fixture;

static void fixture_make(fixture *x, chk_prec p, routine r, chk_form f) {
    chk_rng rng;
    chk_rng_seed(&rng, 99);
    const int n = 3, nrhs = 2, cols = r == POTRS || r == POSV ? nrhs : n;
    x->A = chk_batch_new(p, f, n, n, 4, 4 * n + 1, 2, &rng);
    chk_batch_gen_pd(x->A, CHK_PD_WELL, &rng);
    if (r == POTRI || r == POTRS)
        for (int b = 0; b < 2; ++b) chk_lapack_potrf(p, SMALLLA_FILL_LOWER, n, chk_batch_mat(x->A, b), 4);
    x->C = chk_batch_new(p, f, n, cols, 5, 5 * cols + 1, 2, &rng);
    if (r == POTRS || r == POSV) chk_batch_gen(x->C, CHK_MT_RANDOM, &rng);
    else chk_batch_poison(x->C);
    x->A0 = chk_batch_clone(x->A);
    x->C0 = chk_batch_clone(x->C);
    x->info = chk_ints_new(1, 1, 2);
    x->Ctwo = chk_alloc(2 * sizeof(void *));
    if (f == CHK_POINTERS) x->Ctwo[0] = x->A->ptrs[1], x->Ctwo[1] = x->C->ptrs[1];
    args g = {SMALLLA_FILL_LOWER, n, nrhs, 4, 5, 2, x->A->stride, x->C->stride, chk_batch_mat(x->A, 0),
              chk_batch_mat(x->C, 0), x->A->ptrs, x->C->ptrs, x->info->data};
    x->good = g;
}

static void fixture_free(fixture *x) {
    chk_batch_free(x->A);
    chk_batch_free(x->C);
    chk_batch_free(x->A0);
    chk_batch_free(x->C0);
    chk_ints_free(x->info);
    chk_free(x->Ctwo);
}

static void expect_nothing_written(const fixture *x, const char *what) {
    if (chk_batch_differences(x->A, x->A0)) chk_fail("%s: A was written", what);
    if (chk_batch_differences(x->C, x->C0)) chk_fail("%s: C/B was written", what);
    for (int b = 0; b < 2; ++b)
        if (chk_ints_unwritten(x->info, b) != 1) chk_fail("%s: info was written", what);
    if (chk_ints_gap_changes(x->info)) chk_fail("%s: gaps were written", what);
}

/* The k-th invalid-argument case of (r, f): mutates *a, returns the argument number expected in the message;
 * 0 ends the list, -1 skips a case that does not apply. */
static int bad_case(routine r, chk_form f, int k, args *a, const fixture *x, int on_device) {
    const int S = f == CHK_STRIDED;
    int aN = 3, aNrhs = 0, aA, aLda, aSA = 0, aC = 0, aLdc = 0, aSC = 0, aInfo = 0, aBatch;
    switch (r) {
    case POTRF:
    case POTRI:
        aA = 4, aLda = 5;
        if (S) aSA = 6, aInfo = 7, aBatch = 8;
        else aInfo = 6, aBatch = 7;
        break;
    case POTRS:
        aNrhs = 4, aA = 5, aLda = 6;
        if (S) aSA = 7, aC = 8, aLdc = 9, aSC = 10, aBatch = 11;
        else aC = 7, aLdc = 8, aBatch = 9;
        break;
    case POSV:
        aNrhs = 4, aA = 5, aLda = 6;
        if (S) aSA = 7, aC = 8, aLdc = 9, aSC = 10, aInfo = 11, aBatch = 12;
        else aC = 7, aLdc = 8, aInfo = 9, aBatch = 10;
        break;
    default: /* POINV */
        aA = 4, aLda = 5;
        if (S) aSA = 6, aC = 7, aLdc = 8, aSC = 9, aInfo = 10, aBatch = 11;
        else aC = 6, aLdc = 7, aInfo = 8, aBatch = 9;
        break;
    }
    const int b_like = r == POTRS || r == POSV;
    switch (k) {
    case 0: a->uplo = 2; return 2;
    case 1: a->uplo = -1; return 2;
    case 2: a->n = -1; return aN;
    case 3: if (!aNrhs) return -1; a->nrhs = -1; return aNrhs;
    case 4: if (S) a->A = NULL; else a->Aptrs = NULL; return aA;
    case 5: a->lda = a->n - 1; return aLda;
    case 6: a->n = 0, a->lda = 0; return aLda; /* lda >= max(1, n) even when n == 0 */
    case 7: if (!aSA) return -1; a->sA = (long long)a->lda * a->n - 1; return aSA;
    case 8: if (!aC) return -1; if (S) a->C = NULL; else a->Cptrs = NULL; return aC;
    case 9: if (!aLdc) return -1; a->ldc = a->n - 1; return aLdc;
    case 10: if (!aSC) return -1; a->sC = (long long)a->ldc * (b_like ? a->nrhs : a->n) - 1; return aSC;
    case 11: if (!aInfo) return -1; a->info = NULL; return aInfo;
    case 12: a->batch = -1; return aBatch;
    case 13: a->uplo = 5, a->n = -1, a->batch = -1; return 2; /* the first invalid one is reported */
    case 14: /* poinv: C == A requires ldc == lda */
        if (r != POINV) return -1;
        if (S) a->C = a->A, a->ldc = a->lda + 1, a->sC = (long long)a->ldc * a->n + 1;
        else a->Cptrs = a->Aptrs, a->ldc = a->lda + 1;
        return S ? aC : aLdc;
    case 15: /* C (B) overlapping A partially, strided */
        if (r == POTRF || r == POTRI || !S) return -1;
        a->C = (char *)a->A + chk_elem_size(x->A->prec), a->ldc = a->lda, a->sC = a->sA;
        return aC;
    case 16: /* pointer form (host: the arrays are read): C[0] (B[0]) is A[1] */
        if (r == POTRF || r == POTRI || S || on_device) return -1;
        a->Cptrs = x->Ctwo;
        if (b_like) a->ldc = a->lda;
        return aC;
    case 17: /* pointer form: B[0] inside A[0] */
        if (!b_like || S || on_device) return -1;
        x->Ctwo[0] = (char *)x->A->ptrs[0] + chk_elem_size(x->A->prec), a->Cptrs = x->Ctwo;
        return aC;
    default: return 0;
    }
}

static void illegal_arguments(void **state, chk_form f) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    for (int r = 0; r < ROUTINES; ++r) {
        char fname[64];
        snprintf(fname, sizeof fname, "smallla_%c%s%s", chk_letter(p), routine_names[r],
                 f == CHK_STRIDED ? "StridedBatched" : "Batched");
        int tried = 0;
        for (int k = 0;; ++k) {
            fixture x;
            fixture_make(&x, p, (routine)r, f);
            args a = x.good;
            const int argno = bad_case((routine)r, f, k, &a, &x, chk_on_device(env));
            if (argno == 0) {
                fixture_free(&x);
                break;
            }
            if (argno > 0) {
                char what[128];
                snprintf(what, sizeof what, "%s case %d (argument %d)", fname, k, argno);
                chk_expect_status(env, call(env, p, (routine)r, f, &a), SMALLLA_INVALID_VALUE, what);
                chk_expect_arg_error(env->h, fname, argno);
                expect_nothing_written(&x, what);
                ++tried;
            }
            fixture_free(&x);
        }
        if (tried < 7) chk_fail("%s: only %d invalid-argument cases ran", fname, tried);
        /* the fixture itself is valid, and a successful call clears the message */
        fixture x;
        fixture_make(&x, p, (routine)r, f);
        chk_expect_status(env, call(env, p, (routine)r, f, &x.good), SMALLLA_SUCCESS, fname);
        if (smallla_last_error(env->h)[0] != '\0')
            chk_fail("%s: message \"%s\" left after a successful call", fname, smallla_last_error(env->h));
        for (int b = 0; b < 2 && r != POTRS; ++b)
            if (*chk_ints_at(x.info, b) != 0) chk_fail("%s: the fixture's info[%d] = %d", fname, b, *chk_ints_at(x.info, b));
        fixture_free(&x);
    }
}
static void illegal_arguments_strided(void **state) { illegal_arguments(state, CHK_STRIDED); }
static void illegal_arguments_pointers(void **state) { illegal_arguments(state, CHK_POINTERS); }

/* n = 0, batch = 0, nrhs = 0 (potrs): success, nothing written; NULL pointers then allowed. A NULL handle. */
static void no_ops_and_handles(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    for (int f = 0; f < 2; ++f)
        for (int r = 0; r < ROUTINES; ++r)
            for (int k = 0; k < 5; ++k) {
                fixture x;
                fixture_make(&x, p, (routine)r, (chk_form)f);
                args a = x.good;
                if (k == 0) a.n = 0;
                if (k == 1) a.batch = 0;
                if (k == 2) a.batch = 0, a.A = a.C = NULL, a.Aptrs = a.Cptrs = NULL, a.info = NULL;
                if (k == 3 && r != POTRS) {
                    fixture_free(&x);
                    continue;
                }
                if (k == 3) a.nrhs = 0, a.C = NULL, a.Cptrs = NULL;
                char what[96];
                snprintf(what, sizeof what, "%c%s %s case %d", chk_letter(p), routine_names[r],
                         chk_form_name((chk_form)f), k);
                if (k == 4) { /* a NULL handle */
                    chk_env bad = *env;
                    bad.h = NULL;
                    chk_expect_status(env, call(&bad, p, (routine)r, (chk_form)f, &a), SMALLLA_INVALID_HANDLE, what);
                } else {
                    chk_expect_status(env, call(env, p, (routine)r, (chk_form)f, &a), SMALLLA_SUCCESS, what);
                }
                expect_nothing_written(&x, what);
                fixture_free(&x);
            }
}

/* NULL entries of pointer arrays: info[b] = -argno (A's when A[b] and C[b] are both NULL), the skipped matrices
 * untouched, the others as when called alone. */
static void null_entries(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    enum { batch = 5 };
    static const int orders[] = {2, 8, 17, 33, 100};
    const int skipA[batch] = {0, 1, 0, 0, 1}, skipC[batch] = {0, 0, 1, 0, 1};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; ++k)
        for (int r = 0; r < ROUTINES; ++r) {
            const int n = orders[k], two = r == POTRS || r == POSV || r == POINV, nrhs = 2;
            const int cols = r == POINV ? n : nrhs;
            chk_rng rng;
            chk_rng_seed(&rng, 100u + 10 * k + r);
            const smallla_fill_t uplo = chol_uplos[(k + r) % 2];
            chk_batch *A = chk_batch_new(p, CHK_POINTERS, n, n, n + 1, (long long)(n + 1) * n + 3, batch, &rng);
            chk_batch_gen_pd(A, CHK_PD_WELL, &rng);
            if (r == POTRI || r == POTRS)
                for (int b = 0; b < batch; ++b) chk_lapack_potrf(p, uplo, n, chk_batch_mat(A, b), n + 1);
            chk_batch *C = chk_batch_new(p, CHK_POINTERS, n, cols, n + 2, (long long)(n + 2) * cols + 1, batch, &rng);
            chk_batch_gen(C, CHK_MT_RANDOM, &rng);
            chk_batch *A0 = chk_batch_clone(A), *C0 = chk_batch_clone(C);
            void **Ap = chk_alloc(sizeof(void *) * batch), **Cp = chk_alloc(sizeof(void *) * batch);
            for (int b = 0; b < batch; ++b) {
                Ap[b] = skipA[b] ? NULL : A->ptrs[b];
                Cp[b] = two && skipC[b] ? NULL : C->ptrs[b];
            }
            chk_ints *info = chk_ints_new(1, 1, batch);
            const int argA = r == POTRS || r == POSV ? 5 : 4, argC = r == POINV ? 6 : 7;
            args a = {uplo, n, nrhs, n + 1, n + 2, batch, 0, 0, NULL, NULL, Ap, Cp, info->data};
            char what[96];
            snprintf(what, sizeof what, "%c%s n=%d with NULL entries", chk_letter(p), routine_names[r], n);
            chk_expect_status(env, call(env, p, (routine)r, CHK_POINTERS, &a), SMALLLA_SUCCESS, what);
            if (chk_batch_gap_changes(A) || chk_batch_gap_changes(C)) chk_fail("%s: gaps written", what);
            for (int b = 0; b < batch; ++b) {
                const int skipped = skipA[b] || (two && skipC[b]);
                if (r != POTRS) {
                    const int want = skipA[b] ? -argA : two && skipC[b] ? -argC : 0;
                    if (*chk_ints_at(info, b) != want) chk_fail("%s: info[%d] = %d, expected %d", what, b, *chk_ints_at(info, b), want);
                }
                if (skipped) {
                    if (matrix_changes(A0, A, b) || matrix_changes(C0, C, b)) chk_fail("%s: skipped matrix %d written", what, b);
                    continue;
                }
                double ratio = 0;
                switch (r) {
                case POTRF: ratio = chk_ratio_chol(p, uplo, n, chk_batch_mat(A0, b), n + 1, chk_batch_mat(A, b), n + 1); break;
                case POSV:
                case POTRS: {
                    /* the original matrix, generated again from the same seed (potrs's A holds its factor) */
                    chk_rng again;
                    chk_rng_seed(&again, 100u + 10 * k + r);
                    chk_batch *G = chk_batch_new(p, CHK_POINTERS, n, n, n + 1, (long long)(n + 1) * n + 3, batch, &again);
                    chk_batch_gen_pd(G, CHK_PD_WELL, &again);
                    ratio = chk_ratio_pd_solve(p, uplo, n, nrhs, chk_batch_mat(G, b), n + 1, chk_batch_mat(C, b), n + 2,
                                               chk_batch_mat(C0, b), n + 2);
                    chk_batch_free(G);
                    break;
                }
                case POTRI: {
                    chk_rng again;
                    chk_rng_seed(&again, 100u + 10 * k + r);
                    chk_batch *G = chk_batch_new(p, CHK_POINTERS, n, n, n + 1, (long long)(n + 1) * n + 3, batch, &again);
                    chk_batch_gen_pd(G, CHK_PD_WELL, &again);
                    ratio = chk_ratio_pd_inverse(p, uplo, n, chk_batch_mat(G, b), n + 1, chk_batch_mat(A, b), n + 1, 0);
                    chk_batch_free(G);
                    break;
                }
                default:
                    ratio = chk_ratio_pd_inverse(p, uplo, n, chk_batch_mat(A0, b), n + 1, chk_batch_mat(C, b), n + 2, 1);
                }
                if (!(ratio < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %g", what, b, ratio);
            }
            chk_free(Ap);
            chk_free(Cp);
            chk_batch_free(A);
            chk_batch_free(C);
            chk_batch_free(A0);
            chk_batch_free(C0);
            chk_ints_free(info);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(illegal_arguments_strided),
        CHK_TEST_ALL_PRECS(illegal_arguments_pointers),
        CHK_TEST_ALL_PRECS(no_ops_and_handles),
        CHK_TEST_ALL_PRECS(null_entries),
    };
    return chk_main(argc, argv, "chol_args", tests, sizeof tests / sizeof tests[0]);
}
