/* NULL entries inside pointer arrays (issue 29), one test function per routine: null_entries_getrf,
 * null_entries_getri, null_entries_matinv, null_entries_getrs.
 *
 * The defined behaviour, on both backends (include/smallla.h, the conventions): a matrix whose pointer (A[b],
 * C[b] or B[b]) is NULL is skipped: nothing of it is read or written, and where the routine has info,
 * info[b] = -(the argument number of that pointer array in the prototype, the handle being 1); when both A[b]
 * and C[b] are NULL, A's number. The other matrices of the call are processed as usual.
 *
 * Each test checks, for several orders (every kernel family of the CUDA backend): the call succeeds; the
 * matrices with non-NULL pointers give LAPACK's results (info, pivots up to near-ties, the test ratios); a
 * skipped matrix's info is -argno (its pivots are unspecified), its matrices (still present in the buffers,
 * only not pointed to) keep every bit, and no gap element or entry is written.
 *
 * EXPECTED TO FAIL until the backends implement this behaviour: before, the host backend refused a NULL entry
 * with SMALLLA_INVALID_VALUE, and the CUDA backend skipped the matrix without setting info. */
#include <stdio.h>
#include <string.h>

#include "checker.h"

static const int orders[] = {2, 8, 17, 33, 100};
enum { batch = 5 };

/* A copy of B's pointer array (host memory; the wrappers stage it) with NULL where which[b] is nonzero. */
static void **pointers_with_nulls(const chk_batch *B, const int *which) {
    void **p = chk_alloc(sizeof(void *) * batch);
    for (int b = 0; b < batch; ++b) p[b] = which[b] ? NULL : B->ptrs[b];
    return p;
}

/* The skipped matrices' bits and every gap element of B are as in B0. */
static void expect_untouched(const chk_batch *B, const chk_batch *B0, const int *skipped, const char *what,
                             const char *name) {
    if (chk_batch_gap_changes(B)) chk_fail("%s: %lld gap elements of %s changed", what, chk_batch_gap_changes(B), name);
    const size_t es = chk_elem_size(B->prec);
    for (int b = 0; b < batch; ++b) {
        if (!skipped[b]) continue;
        const char *m = chk_batch_mat(B, b), *m0 = chk_batch_mat(B0, b);
        for (int j = 0; j < B->cols; ++j)
            if (memcmp(m + (size_t)j * B->ld * es, m0 + (size_t)j * B->ld * es, (size_t)B->rows * es) != 0)
                chk_fail("%s: %s of the skipped matrix %d was written", what, name, b);
    }
}

static void expect_info(const chk_ints *info, int b, int expected, const char *what) {
    const int got = *chk_ints_at(info, b);
    if (got != expected) chk_fail("%s: info[%d] = %d, expected %d", what, b, got, expected);
}

/* getrf: A[b] NULL -> info[b] = -3 (its ipiv entries are unspecified). With and without pivoting. */
static void null_entries_getrf(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    const int skip[batch] = {0, 1, 0, 0, 1};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; ++k)
        for (int piv = 0; piv < 2; ++piv) {
            const int n = orders[k], ld = n + 1;
            chk_rng rng;
            chk_rng_seed(&rng, 100u + 10 * k + piv);
            chk_batch *A = chk_batch_new(p, CHK_POINTERS, n, n, ld, (long long)ld * n + 3, batch, &rng);
            chk_batch_gen(A, piv ? CHK_MT_RANDOM : CHK_MT_DIAG_DOMINANT, &rng);
            chk_batch *A0 = chk_batch_clone(A);
            chk_ints *ipiv = piv ? chk_ints_new(n, n, batch) : NULL, *info = chk_ints_new(1, 1, batch);
            void **Ap = pointers_with_nulls(A, skip);
            char what[160];
            snprintf(what, sizeof what, "%cgetrfBatched n=%d%s with A[1] = A[4] = NULL", chk_letter(p), n,
                     piv ? "" : " (no pivoting)");
            chk_expect_status(env, chk_getrf_batched(env, p, n, Ap, ld, ipiv ? ipiv->data : NULL, info->data, batch),
                              SMALLLA_SUCCESS, what);
            expect_untouched(A, A0, skip, what, "A");
            if (chk_ints_gap_changes(info) || (ipiv && chk_ints_gap_changes(ipiv))) chk_fail("%s: gaps written", what);
            void *W = chk_alloc(chk_elem_size(p) * (size_t)n * n);
            int *ipivL = chk_alloc(sizeof(int) * (size_t)n);
            for (int b = 0; b < batch; ++b) {
                if (skip[b]) {
                    expect_info(info, b, -3, what);
                    continue;
                }
                const void *a0 = chk_batch_mat(A0, b), *lu = chk_batch_mat(A, b);
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i) chk_set(p, W, i + (long long)j * n, chk_get(p, a0, i + (long long)j * ld));
                const int infoL = piv ? chk_lapack_getrf(p, n, W, n, ipivL) : chk_ref_getrf_nopiv(p, n, W, n);
                expect_info(info, b, infoL, what);
                const int *pv = ipiv ? chk_ints_at(ipiv, b) : NULL;
                int kd = -1;
                double gap = 0;
                if (pv && chk_pivots_agree(p, n, a0, ld, ipivL, pv, &kd, &gap) < 0)
                    chk_fail("%s: matrix %d: ipiv[%d] = %d, LAPACK's %d", what, b, kd, pv[kd], ipivL[kd]);
                const double r = chk_ratio_lu(p, n, a0, ld, lu, ld, pv);
                if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %g", what, b, r);
            }
            chk_free(W);
            chk_free(ipivL);
            chk_free(Ap);
            chk_batch_free(A);
            chk_batch_free(A0);
            chk_ints_free(ipiv);
            chk_ints_free(info);
        }
}

/* The LU factors of a random batch (LAPACK's), and the same batch unfactored. */
static void factored_batch(chk_prec p, int n, int ld, chk_rng *rng, chk_batch **A0, chk_batch **LU, chk_ints **ipiv) {
    *A0 = chk_batch_new(p, CHK_POINTERS, n, n, ld, (long long)ld * n + 3, batch, rng);
    chk_batch_gen(*A0, CHK_MT_RANDOM, rng);
    *LU = chk_batch_clone(*A0);
    *ipiv = chk_ints_new(n, n, batch);
    chk_batch_lapack_getrf(*LU, *ipiv, NULL);
}

/* getri: A[1] NULL -> info = -3; C[2] NULL -> info = -6; A[4] and C[4] NULL -> info = -3. */
static void null_entries_getri(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    const int nullA[batch] = {0, 1, 0, 0, 1}, nullC[batch] = {0, 0, 1, 0, 1}, skipped[batch] = {0, 1, 1, 0, 1};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; ++k) {
        const int n = orders[k], ld = n + 2;
        chk_rng rng;
        chk_rng_seed(&rng, 200u + k);
        chk_batch *A0, *LU;
        chk_ints *ipiv;
        factored_batch(p, n, ld, &rng, &A0, &LU, &ipiv);
        chk_batch *LU0 = chk_batch_clone(LU);
        chk_batch *C = chk_batch_new(p, CHK_POINTERS, n, n, ld + 1, (long long)(ld + 1) * n + 2, batch, &rng);
        chk_batch_poison(C);
        chk_batch *C0 = chk_batch_clone(C);
        chk_ints *info = chk_ints_new(1, 1, batch);
        void **Ap = pointers_with_nulls(LU, nullA), **Cp = pointers_with_nulls(C, nullC);
        char what[160];
        snprintf(what, sizeof what, "%cgetriBatched n=%d with A[1] = C[2] = A[4] = C[4] = NULL", chk_letter(p), n);
        chk_expect_status(env, chk_getri_batched(env, p, n, (const void *const *)Ap, ld, ipiv->data, Cp, ld + 1,
                                                 info->data, batch),
                          SMALLLA_SUCCESS, what);
        if (chk_batch_differences(LU, LU0)) chk_fail("%s: A (input only) was written", what);
        expect_untouched(C, C0, skipped, what, "C");
        if (chk_ints_gap_changes(info)) chk_fail("%s: info gaps written", what);
        for (int b = 0; b < batch; ++b) {
            if (skipped[b]) {
                expect_info(info, b, nullA[b] ? -3 : -6, what);
                continue;
            }
            expect_info(info, b, 0, what);
            const double r = chk_ratio_inverse(p, n, chk_batch_mat(A0, b), ld, chk_batch_mat(C, b), ld + 1);
            if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %g", what, b, r);
        }
        chk_free(Ap);
        chk_free(Cp);
        chk_batch_free(A0);
        chk_batch_free(LU);
        chk_batch_free(LU0);
        chk_batch_free(C);
        chk_batch_free(C0);
        chk_ints_free(ipiv);
        chk_ints_free(info);
    }
}

/* matinv out of place: A[1] NULL -> info = -3; C[2] NULL -> info = -5; both NULL at 4 -> -3. In place (C the
 * array A): A[1] = A[4] = NULL -> -3. */
static void null_entries_matinv(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    const int nullA[batch] = {0, 1, 0, 0, 1}, nullC[batch] = {0, 0, 1, 0, 1}, skipped[batch] = {0, 1, 1, 0, 1};
    const int nullInPlace[batch] = {0, 1, 0, 0, 1};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; ++k)
        for (int in_place = 0; in_place < 2; ++in_place) {
            const int n = orders[k], ld = n + 1, ldc = in_place ? ld : ld + 2;
            chk_rng rng;
            chk_rng_seed(&rng, 300u + 10 * k + in_place);
            chk_batch *A = chk_batch_new(p, CHK_POINTERS, n, n, ld, (long long)ld * n + 3, batch, &rng);
            chk_batch_gen(A, CHK_MT_RANDOM, &rng);
            chk_batch *A0 = chk_batch_clone(A);
            chk_batch *C = A, *C0 = A0;
            if (!in_place) {
                C = chk_batch_new(p, CHK_POINTERS, n, n, ldc, (long long)ldc * n + 1, batch, &rng);
                chk_batch_poison(C);
                C0 = chk_batch_clone(C);
            }
            chk_ints *info = chk_ints_new(1, 1, batch);
            void **Ap = pointers_with_nulls(A, in_place ? nullInPlace : nullA);
            void **Cp = in_place ? Ap : pointers_with_nulls(C, nullC);
            const int *skip = in_place ? nullInPlace : skipped;
            char what[160];
            snprintf(what, sizeof what, "%cmatinvBatched n=%d %s", chk_letter(p), n,
                     in_place ? "in place with A[1] = A[4] = NULL" : "with A[1] = C[2] = A[4] = C[4] = NULL");
            chk_expect_status(env, chk_matinv_batched(env, p, n, (const void *const *)Ap, ld, Cp, ldc, info->data, batch),
                              SMALLLA_SUCCESS, what);
            if (!in_place && chk_batch_differences(A, A0)) chk_fail("%s: A (input only) was written", what);
            expect_untouched(C, C0, skip, what, "C");
            if (chk_ints_gap_changes(info)) chk_fail("%s: info gaps written", what);
            for (int b = 0; b < batch; ++b) {
                if (skip[b]) {
                    expect_info(info, b, in_place || nullA[b] ? -3 : -5, what);
                    continue;
                }
                expect_info(info, b, 0, what);
                const double r = chk_ratio_inverse(p, n, chk_batch_mat(A0, b), ld, chk_batch_mat(C, b), ldc);
                if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %g", what, b, r);
            }
            chk_free(Ap);
            if (!in_place) {
                chk_free(Cp);
                chk_batch_free(C);
                chk_batch_free(C0);
            }
            chk_batch_free(A);
            chk_batch_free(A0);
            chk_ints_free(info);
        }
}

/* getrs (no info): A[1] NULL, B[2] NULL, both at 4: those B matrices untouched, the others solved. */
static void null_entries_getrs(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    const int nullA[batch] = {0, 1, 0, 0, 1}, nullB[batch] = {0, 0, 1, 0, 1}, skipped[batch] = {0, 1, 1, 0, 1};
    for (size_t k = 0; k < sizeof orders / sizeof orders[0]; ++k)
        for (int t = 0; t < 3; ++t) {
            const int n = orders[k], ld = n + 1, nrhs = 2, ldb = n + 3;
            chk_rng rng;
            chk_rng_seed(&rng, 400u + 10 * k + t);
            chk_batch *A0, *LU;
            chk_ints *ipiv;
            factored_batch(p, n, ld, &rng, &A0, &LU, &ipiv);
            chk_batch *LU0 = chk_batch_clone(LU);
            chk_batch *B = chk_batch_new(p, CHK_POINTERS, n, nrhs, ldb, (long long)ldb * nrhs + 2, batch, &rng);
            chk_batch_gen(B, CHK_MT_RANDOM, &rng);
            chk_batch *B0 = chk_batch_clone(B);
            void **Ap = pointers_with_nulls(LU, nullA), **Bp = pointers_with_nulls(B, nullB);
            char what[160];
            snprintf(what, sizeof what, "%cgetrsBatched trans=%c n=%d with A[1] = B[2] = A[4] = B[4] = NULL",
                     chk_letter(p), "NTC"[t], n);
            chk_expect_status(env, chk_getrs_batched(env, p, (smallla_operation_t)t, n, nrhs, (const void *const *)Ap,
                                                     ld, ipiv->data, Bp, ldb, batch),
                              SMALLLA_SUCCESS, what);
            if (chk_batch_differences(LU, LU0)) chk_fail("%s: A (input only) was written", what);
            expect_untouched(B, B0, skipped, what, "B");
            for (int b = 0; b < batch; ++b) {
                if (skipped[b]) continue;
                const double r = chk_ratio_solve(p, (smallla_operation_t)t, n, nrhs, chk_batch_mat(A0, b), ld,
                                                 chk_batch_mat(B, b), ldb, chk_batch_mat(B0, b), ldb);
                if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %g", what, b, r);
            }
            chk_free(Ap);
            chk_free(Bp);
            chk_batch_free(A0);
            chk_batch_free(LU);
            chk_batch_free(LU0);
            chk_batch_free(B);
            chk_batch_free(B0);
            chk_ints_free(ipiv);
        }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(null_entries_getrf),  CHK_TEST_ALL_PRECS(null_entries_getri),
        CHK_TEST_ALL_PRECS(null_entries_matinv), CHK_TEST_ALL_PRECS(null_entries_getrs),
    };
    return chk_main(argc, argv, "null_entries", tests, sizeof tests / sizeof tests[0]);
}
