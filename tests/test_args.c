/* Illegal arguments, after LAPACK's error-exit tests (xERRGE): for every routine, form and precision, each
 * invalid argument in turn must give SMALLLA_INVALID_VALUE, a message "smallla_<x><routine>: argument <k> (",
 * and write nothing; with two invalid arguments the first is reported. NULL and destroyed handles give
 * SMALLLA_INVALID_HANDLE and write nothing. n = 0 and batch = 0 are successful no-ops. On the CUDA backend,
 * host memory where device memory is required is refused with SMALLLA_INVALID_VALUE. A NULL entry inside a
 * pointer array is not an invalid argument (that matrix is skipped: test_null_entries.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"

typedef enum routine { GETRF, GETRI, MATINV, GETRS } routine;
static const char *routine_names[] = {"getrf", "getri", "matinv", "getrs"};

/* Every argument of every routine (unused ones are ignored); C doubles as getrs's B. */
typedef struct args {
    int trans, n, nrhs, lda, ldc, batch;
    long long sA, sP, sC;
    void *A, *C;
    void **Aptrs, **Cptrs;
    int *ipiv, *info;
} args;

static smallla_status_t call(chk_env *env, chk_prec p, routine r, chk_form f, const args *a) {
    if (f == CHK_STRIDED) switch (r) {
        case GETRF: return chk_getrf_strided(env, p, a->n, a->A, a->lda, a->sA, a->ipiv, a->sP, a->info, a->batch);
        case GETRI:
            return chk_getri_strided(env, p, a->n, a->A, a->lda, a->sA, a->ipiv, a->sP, a->C, a->ldc, a->sC, a->info,
                                     a->batch);
        case MATINV:
            return chk_matinv_strided(env, p, a->n, a->A, a->lda, a->sA, a->C, a->ldc, a->sC, a->info, a->batch);
        case GETRS:
            return chk_getrs_strided(env, p, (smallla_operation_t)a->trans, a->n, a->nrhs, a->A, a->lda, a->sA,
                                     a->ipiv, a->sP, a->C, a->ldc, a->sC, a->batch);
        }
    switch (r) {
    case GETRF: return chk_getrf_batched(env, p, a->n, a->Aptrs, a->lda, a->ipiv, a->info, a->batch);
    case GETRI:
        return chk_getri_batched(env, p, a->n, (const void *const *)a->Aptrs, a->lda, a->ipiv, a->Cptrs, a->ldc,
                                 a->info, a->batch);
    case MATINV:
        return chk_matinv_batched(env, p, a->n, (const void *const *)a->Aptrs, a->lda, a->Cptrs, a->ldc, a->info,
                                  a->batch);
    case GETRS:
        return chk_getrs_batched(env, p, (smallla_operation_t)a->trans, a->n, a->nrhs,
                                 (const void *const *)a->Aptrs, a->lda, a->ipiv, a->Cptrs, a->ldc, a->batch);
    }
    return SMALLLA_INTERNAL_ERROR;
}

/* The fixture: n = 3, lda = 4, ldc = 5, nrhs = 2, two matrices, strides with gaps. */
typedef struct fixture {
    chk_batch *A, *C, *A0, *C0;
    chk_ints *ipiv, *info;
    void **Ctwo;           /* pointer form: {A[1], C[1]}, an output overlapping the input of another matrix */
    void **Atwice;         /* pointer form: {A[0], A[0]}, one matrix twice */
    args good;
} fixture;

static void fixture_make(fixture *x, chk_prec p, routine r, chk_form f) {
    chk_rng rng;
    chk_rng_seed(&rng, 99);
    const int n = 3, nrhs = 2, cols = r == GETRS ? nrhs : n;
    x->A = chk_batch_new(p, f, n, n, 4, 4 * n + 1, 2, &rng);
    chk_batch_gen(x->A, CHK_MT_RANDOM, &rng);
    x->C = chk_batch_new(p, f, n, cols, 5, 5 * cols + 1, 2, &rng);
    if (r == GETRS) chk_batch_gen(x->C, CHK_MT_RANDOM, &rng);
    else chk_batch_poison(x->C);
    x->A0 = chk_batch_clone(x->A);
    x->C0 = chk_batch_clone(x->C);
    x->ipiv = chk_ints_new(n, f == CHK_POINTERS ? n : n + 1, 2);
    x->info = chk_ints_new(1, 1, 2);
    x->Ctwo = chk_alloc(2 * sizeof(void *));
    x->Atwice = chk_alloc(2 * sizeof(void *));
    if (f == CHK_POINTERS) {
        x->Ctwo[0] = x->A->ptrs[1], x->Ctwo[1] = x->C->ptrs[1];
        x->Atwice[0] = x->Atwice[1] = x->A->ptrs[0];
    }
    args g = {SMALLLA_OP_N, n, nrhs, 4, 5, 2, x->A->stride, x->ipiv->stride, x->C->stride,
              chk_batch_mat(x->A, 0), chk_batch_mat(x->C, 0), x->A->ptrs, x->C->ptrs, x->ipiv->data, x->info->data};
    if (r == GETRI || r == GETRS) g.ipiv = x->ipiv->data; /* input: poison values, never read by a failing call */
    x->good = g;
}

static void fixture_free(fixture *x) {
    chk_batch_free(x->A);
    chk_batch_free(x->C);
    chk_batch_free(x->A0);
    chk_batch_free(x->C0);
    chk_ints_free(x->ipiv);
    chk_ints_free(x->info);
    chk_free(x->Ctwo);
    chk_free(x->Atwice);
}

static void expect_nothing_written(const fixture *x, const char *what) {
    if (chk_batch_differences(x->A, x->A0)) chk_fail("%s: A was written", what);
    if (chk_batch_differences(x->C, x->C0)) chk_fail("%s: C/B was written", what);
    for (int b = 0; b < 2; ++b) {
        if (chk_ints_unwritten(x->ipiv, b) != x->ipiv->len) chk_fail("%s: ipiv was written", what);
        if (chk_ints_unwritten(x->info, b) != 1) chk_fail("%s: info was written", what);
    }
    if (chk_ints_gap_changes(x->ipiv) || chk_ints_gap_changes(x->info)) chk_fail("%s: gaps were written", what);
}

/* The k-th invalid-argument case of (r, f): mutates *a and returns the argument number expected in the
 * message; 0 ends the list; -1 skips a case that does not apply (e.g. host-only checks on the CUDA backend). */
static int bad_case(routine r, chk_form f, int k, args *a, const fixture *x, int on_device) {
    const int S = f == CHK_STRIDED;
    /* argument numbers of each routine/form, as in the prototypes (handle = 1) */
    int aN, aA, aLda, aSA = 0, aIpiv, aSP = 0, aC = 0, aLdc = 0, aSC = 0, aInfo = 0, aBatch, aTrans = 0, aNrhs = 0;
    switch (r) {
    case GETRF:
        aN = 2, aA = 3, aLda = 4;
        if (S) aSA = 5, aIpiv = 6, aSP = 7, aInfo = 8, aBatch = 9;
        else aIpiv = 5, aInfo = 6, aBatch = 7;
        break;
    case GETRI:
        aN = 2, aA = 3, aLda = 4;
        if (S) aSA = 5, aIpiv = 6, aSP = 7, aC = 8, aLdc = 9, aSC = 10, aInfo = 11, aBatch = 12;
        else aIpiv = 5, aC = 6, aLdc = 7, aInfo = 8, aBatch = 9;
        break;
    case MATINV:
        aN = 2, aA = 3, aLda = 4, aIpiv = 0;
        if (S) aSA = 5, aC = 6, aLdc = 7, aSC = 8, aInfo = 9, aBatch = 10;
        else aC = 5, aLdc = 6, aInfo = 7, aBatch = 8;
        break;
    default: /* GETRS */
        aTrans = 2, aN = 3, aNrhs = 4, aA = 5, aLda = 6;
        if (S) aSA = 7, aIpiv = 8, aSP = 9, aC = 10, aLdc = 11, aSC = 12, aBatch = 13;
        else aIpiv = 7, aC = 8, aLdc = 9, aBatch = 10;
        break;
    }
    (void)aIpiv;
    switch (k) {
    case 0: a->n = -1; return aN;
    case 1: if (S) a->A = NULL; else a->Aptrs = NULL; return aA;
    case 2: a->lda = a->n - 1; return aLda;
    case 3: a->lda = 0; return aLda;
    case 4: a->n = 0, a->lda = 0; return aLda; /* lda >= max(1, n) even when n == 0 */
    case 5: if (!aSA) return -1; a->sA = (long long)a->lda * a->n - 1; return aSA;
    case 6: if (!aSP) return -1; a->sP = a->n - 1; return aSP;
    case 7: if (!aC) return -1; if (S) a->C = NULL; else a->Cptrs = NULL; return aC;
    case 8: if (!aLdc) return -1; a->ldc = a->n - 1; return aLdc;
    case 9: if (!aSC) return -1; a->sC = (long long)a->ldc * (r == GETRS ? a->nrhs : a->n) - 1; return aSC;
    case 10: if (!aInfo) return -1; a->info = NULL; return aInfo;
    case 11: a->batch = -1; return aBatch;
    case 12: if (!aTrans) return -1; a->trans = 3; return aTrans;
    case 13: if (!aTrans) return -1; a->trans = -1; return aTrans;
    case 14: if (!aNrhs) return -1; a->nrhs = -1; return aNrhs;
    case 15: a->n = -1, a->lda = 0, a->batch = -1; return aN; /* the first invalid one is reported */
    case 16: /* getri is out of place: C must not be A */
        if (r != GETRI) return -1;
        if (S) a->C = a->A, a->ldc = a->lda, a->sC = a->sA;
        else a->Cptrs = a->Aptrs, a->ldc = a->lda;
        return aC;
    case 17: /* matinv: C == A requires ldc == lda (in place as an exact alias) */
        if (r != MATINV) return -1;
        if (S) a->C = a->A, a->ldc = a->lda + 1, a->sC = (long long)a->ldc * a->n + 1;
        else a->Cptrs = a->Aptrs, a->ldc = a->lda + 1;
        return S ? aC : aLdc;
    case 18: /* matinv/getri: C overlapping A partially */
        if ((r != MATINV && r != GETRI) || !S) return -1;
        a->C = (char *)a->A + chk_elem_size(x->A->prec), a->ldc = a->lda, a->sC = a->sA;
        return aC;
    case 19: /* pointer form (host: the arrays are read): C[0] (getrs: B[0]) is A[1] */
        if (r == GETRF || S || on_device) return -1;
        a->Cptrs = x->Ctwo;
        return aC;
    case 20: /* matinv in place (C is the array A) with one matrix twice: C[0] is A[1] */
        if (r != MATINV || S || on_device) return -1;
        a->Aptrs = a->Cptrs = x->Atwice, a->ldc = a->lda;
        return aC;
    case 21: /* getrs: B overlapping A (strided: the batches; pointer form: B[0] inside A[0]) */
        if (r != GETRS || (!S && on_device)) return -1;
        if (S) a->C = (char *)a->A + chk_elem_size(x->A->prec);
        else x->Ctwo[0] = (char *)x->A->ptrs[0] + chk_elem_size(x->A->prec), a->Cptrs = x->Ctwo;
        return aC;
    default: return 0;
    }
}

static void illegal_arguments(void **state, chk_form f) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    for (int r = GETRF; r <= GETRS; ++r) {
        char fname[64];
        snprintf(fname, sizeof fname, "smallla_%c%s%s", chk_letter(p), routine_names[r],
                 f == CHK_STRIDED ? "StridedBatched" : "Batched");
        int tried = 0;
        for (int k = 0;; ++k) {
            fixture x;
            fixture_make(&x, p, (routine)r, f);
            args a = x.good;
            int argno = bad_case((routine)r, f, k, &a, &x, chk_on_device(env));
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
        if (tried < 6) chk_fail("%s: only %d invalid-argument cases ran", fname, tried);

        /* The fixture's own arguments are valid (so each failure above came from its one mutation), and a
         * successful call clears the message. */
        fixture x;
        fixture_make(&x, p, (routine)r, f);
        if (r == GETRI || r == GETRS) /* valid pivots for the inputs */
            for (int b = 0; b < 2; ++b)
                for (int i = 0; i < 3; ++i) chk_ints_at(x.ipiv, b)[i] = i + 1;
        chk_expect_status(env, call(env, p, (routine)r, f, &x.good), SMALLLA_SUCCESS, fname);
        if (smallla_last_error(env->h)[0] != '\0')
            chk_fail("%s: message \"%s\" left after a successful call", fname, smallla_last_error(env->h));
        fixture_free(&x);
    }
}
static void illegal_arguments_strided(void **state) { illegal_arguments(state, CHK_STRIDED); }
static void illegal_arguments_pointers(void **state) { illegal_arguments(state, CHK_POINTERS); }

/* n = 0 or batch = 0 (or nrhs = 0 for getrs): success, nothing written; NULL pointers are then allowed. */
static void no_op_calls(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    for (int f = 0; f < 2; ++f)
        for (int r = GETRF; r <= GETRS; ++r)
            for (int k = 0; k < 4; ++k) {
                fixture x;
                fixture_make(&x, p, (routine)r, (chk_form)f);
                args a = x.good;
                if (k == 0) a.n = 0;
                if (k == 1) a.batch = 0;
                if (k == 2) a.batch = 0, a.A = a.C = NULL, a.Aptrs = a.Cptrs = NULL, a.ipiv = a.info = NULL;
                if (k == 3) {
                    if (r != GETRS) {
                        fixture_free(&x);
                        continue;
                    }
                    a.nrhs = 0;
                }
                char what[96];
                snprintf(what, sizeof what, "%c%s %s no-op case %d", chk_letter(p), routine_names[r],
                         chk_form_name((chk_form)f), k);
                chk_expect_status(env, call(env, p, (routine)r, (chk_form)f, &a), SMALLLA_SUCCESS, what);
                expect_nothing_written(&x, what);
                fixture_free(&x);
            }
}

/* NULL and destroyed handles: SMALLLA_INVALID_HANDLE, nothing written, the message (thread's) names the
 * function. */
static void invalid_handles(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    smallla_handle_t dead = NULL;
    if (smallla_create(&dead, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS || smallla_destroy(dead) != SMALLLA_SUCCESS)
        chk_fail("cannot create and destroy a host handle");
    for (int which = 0; which < 2; ++which)
        for (int f = 0; f < 2; ++f)
            for (int r = GETRF; r <= GETRS; ++r) {
                fixture x;
                fixture_make(&x, p, (routine)r, (chk_form)f);
                chk_env bad = *env;
                bad.h = which == 0 ? NULL : dead;
                char fname[64];
                snprintf(fname, sizeof fname, "smallla_%c%s%s", chk_letter(p), routine_names[r],
                         f == CHK_STRIDED ? "StridedBatched" : "Batched");
                smallla_status_t st = call(&bad, p, (routine)r, (chk_form)f, &x.good);
                if (st != SMALLLA_INVALID_HANDLE)
                    chk_fail("%s with a %s handle: %s, expected SMALLLA_INVALID_HANDLE", fname,
                             which ? "destroyed" : "NULL", smallla_status_string(st));
                if (strncmp(smallla_last_error(NULL), fname, strlen(fname)) != 0)
                    chk_fail("%s: thread message \"%s\" does not name the function", fname, smallla_last_error(NULL));
                expect_nothing_written(&x, fname);
                fixture_free(&x);
            }
}

/* CUDA backend only: host memory where device memory is required is refused (no crash, no sticky CUDA error),
 * and the backend keeps working afterwards. */
static void host_memory_refused(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    if (!chk_on_device(env)) skip(); /* meaningful on the CUDA backend only */
    const int n = 3, batch = 2;
    size_t bytes = chk_elem_size(p) * (size_t)(n * n * batch);
    void *hostA = malloc(bytes), *hostC = malloc(bytes); /* not chk_alloc'd: the wrappers pass them through */
    int *hostInfo = malloc(sizeof(int) * batch);
    void *hostArr[2] = {hostA, (char *)hostA + bytes / 2};
    memset(hostA, 0, bytes);
    chk_rng rng;
    chk_rng_seed(&rng, 1);
    chk_batch *A = chk_batch_new(p, CHK_STRIDED, n, n, n, n * n, batch, NULL);
    chk_batch_gen(A, CHK_MT_DIAG_DOMINANT, &rng);
    chk_ints *info = chk_ints_new(1, 1, batch), *ipiv = chk_ints_new(n, n, batch);
    char fname[64];

    snprintf(fname, sizeof fname, "smallla_%cgetrfStridedBatched", chk_letter(p));
    chk_expect_status(env, chk_getrf_strided(env, p, n, hostA, n, n * n, ipiv->data, n, info->data, batch),
                      SMALLLA_INVALID_VALUE, "getrf with host A");
    chk_expect_arg_error(env->h, fname, 3);
    chk_expect_status(env, chk_getrf_strided(env, p, n, chk_batch_mat(A, 0), n, n * n, ipiv->data, n, hostInfo, batch),
                      SMALLLA_INVALID_VALUE, "getrf with host info");
    chk_expect_arg_error(env->h, fname, 8);
    if (chk_ints_unwritten(info, 0) != 1 || chk_ints_unwritten(ipiv, 0) != n) chk_fail("%s wrote outputs", fname);

    /* a pointer array in host memory (the staging layer is bypassed for this call) */
    snprintf(fname, sizeof fname, "smallla_%cgetrfBatched", chk_letter(p));
    chk_env raw = *env;
    raw.stage = 0;
    void *dInfo = chk_dev_alloc(sizeof(int) * batch);
    chk_expect_status(env, chk_getrf_batched(&raw, p, n, hostArr, n, NULL, dInfo, batch), SMALLLA_INVALID_VALUE,
                      "getrf with a host pointer array");
    chk_expect_arg_error(env->h, fname, 3);
    chk_dev_free(dInfo);

    snprintf(fname, sizeof fname, "smallla_%cmatinvStridedBatched", chk_letter(p));
    chk_expect_status(env, chk_matinv_strided(env, p, n, chk_batch_mat(A, 0), n, n * n, hostC, n, n * n, info->data, batch),
                      SMALLLA_INVALID_VALUE, "matinv with host C");
    chk_expect_arg_error(env->h, fname, 6);

    /* the handle still works */
    chk_expect_status(env, chk_getrf_strided(env, p, n, chk_batch_mat(A, 0), n, n * n, ipiv->data, n, info->data, batch),
                      SMALLLA_SUCCESS, "getrf after refused calls");
    if (*chk_ints_at(info, 0) != 0 || *chk_ints_at(info, 1) != 0) chk_fail("getrf after refused calls: info not 0");
    chk_batch_free(A);
    chk_ints_free(info);
    chk_ints_free(ipiv);
    free(hostA);
    free(hostC);
    free(hostInfo);
}

/* Host backend, pointer-array forms: random layouts of A's and C's (getrs: B's) matrices in one buffer. The call
 * must be refused (SMALLLA_INVALID_VALUE, argument C/B, nothing written) exactly when a written matrix C[b]
 * overlaps (its span, first to last element) a matrix A[b'] of another index, or its own A[b] where the routine
 * forbids it (getri, getrs: always; matinv: unless C[b] == A[b] with ldc == lda); otherwise it must succeed.
 * Inputs may overlap inputs (the same factors for several right-hand sides), outputs other outputs (not
 * checked). */
static void pointer_overlaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    if (chk_on_device(env)) skip(); /* the CUDA backend does not read the (device) pointer arrays */
    const int n = 3, lda = 4, room = 160;
    const size_t es = chk_elem_size(p);
    chk_rng rng;
    chk_rng_seed(&rng, 4242);
    char *buf = chk_alloc(es * room), *copy = chk_alloc(es * room);
    int ipiv[6 * 3], info[6];
    for (int i = 0; i < 6 * 3; ++i) ipiv[i] = i % 3 + 1;
    int refused[3] = {0, 0, 0}, accepted[3] = {0, 0, 0};
    for (int trial = 0; trial < 600; ++trial) {
        const routine r = trial % 3 == 0 ? GETRI : trial % 3 == 1 ? MATINV : GETRS;
        const int batch = chk_rand_int(&rng, 1, 6), ldc = chk_rand_int(&rng, 3, 5), cols = r == GETRS ? 2 : n;
        const long long spanA = (long long)(n - 1) * lda + n, spanC = (long long)(cols - 1) * ldc + n;
        void *Ap[6], *Cp[6];
        long long oa[6], oc[6];
        for (int b = 0; b < batch; ++b) {
            oa[b] = chk_rand_int(&rng, 0, (int)(room - spanA));
            /* C[b]: often A[b] itself (in place), else anywhere */
            oc[b] = chk_rand_int(&rng, 0, 3) == 0 && spanC == spanA ? oa[b] : chk_rand_int(&rng, 0, (int)(room - spanC));
            Ap[b] = buf + es * oa[b];
            Cp[b] = buf + es * oc[b];
        }
        int expect_refusal = 0;
        for (int b = 0; b < batch && !expect_refusal; ++b)
            for (int q = 0; q < batch && !expect_refusal; ++q) {
                const int meet = oc[b] < oa[q] + spanA && oa[q] < oc[b] + spanC;
                if (!meet) continue;
                if (q != b || r != MATINV || oc[b] != oa[b] || ldc != lda) expect_refusal = 1;
            }
        chk_gen_random(p, room, 1, buf, room, &rng);
        memcpy(copy, buf, es * room);
        smallla_status_t st;
        char fname[64];
        snprintf(fname, sizeof fname, "smallla_%c%sBatched", chk_letter(p), routine_names[r]);
        if (r == GETRI)
            st = chk_getri_batched(env, p, n, (const void *const *)Ap, lda, ipiv, Cp, ldc, info, batch);
        else if (r == MATINV)
            st = chk_matinv_batched(env, p, n, (const void *const *)Ap, lda, Cp, ldc, info, batch);
        else
            st = chk_getrs_batched(env, p, SMALLLA_OP_N, n, cols, (const void *const *)Ap, lda, ipiv, Cp, ldc, batch);
        if (expect_refusal) {
            char what[200];
            snprintf(what, sizeof what, "%s trial %d (batch %d, ldc %d): overlapping matrices", fname, trial, batch, ldc);
            chk_expect_status(env, st, SMALLLA_INVALID_VALUE, what);
            chk_expect_arg_error(env->h, fname, r == GETRI ? 6 : r == MATINV ? 5 : 8);
            if (memcmp(copy, buf, es * room) != 0) chk_fail("%s: the buffer was written", what);
            refused[r - GETRI]++;
        } else {
            if (st != SMALLLA_SUCCESS)
                chk_fail("%s trial %d (batch %d, ldc %d): no overlap, but %s (\"%s\")", fname, trial, batch, ldc,
                         smallla_status_string(st), smallla_last_error(env->h));
            accepted[r - GETRI]++;
        }
    }
    print_message("      refused/accepted layouts: getri %d/%d, matinv %d/%d, getrs %d/%d\n", refused[0], accepted[0],
                  refused[1], accepted[1], refused[2], accepted[2]);
    for (int k = 0; k < 3; ++k)
        if (refused[k] < 20 || accepted[k] < 20)
            chk_fail("%s: %d refused and %d accepted layouts: the trials do not exercise both", routine_names[GETRI + k],
                     refused[k], accepted[k]);
    chk_free(buf);
    chk_free(copy);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(illegal_arguments_strided), CHK_TEST_ALL_PRECS(illegal_arguments_pointers),
        CHK_TEST_ALL_PRECS(no_op_calls),               CHK_TEST_ALL_PRECS(invalid_handles),
        CHK_TEST_ALL_PRECS(host_memory_refused),       CHK_TEST_ALL_PRECS(pointer_overlaps),
    };
    return chk_main(argc, argv, "args", tests, sizeof tests / sizeof tests[0]);
}
