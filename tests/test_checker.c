/* The checker checks itself: each check must fail on a wrong result, not only pass on right ones (a test
 * that cannot fail is worthless). Independent of the backend; runs in the host group (and the CUDA group
 * when a device is present). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "checker.h"

/* LAPACK's own factors pass; perturbing one entry, swapping a pivot or dropping the pivots fails. */
static void ratio_lu_detects_errors(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 11);
    const int n = 12;
    void *A = chk_alloc(chk_elem_size(p) * n * n), *F = chk_alloc(chk_elem_size(p) * n * n);
    int ipiv[12];
    chk_gen(p, CHK_MT_RANDOM, n, A, n, &rng);
    memcpy(F, A, chk_elem_size(p) * n * n);
    if (chk_lapack_getrf(p, n, F, n, ipiv) != 0) chk_fail("LAPACK getrf info");
    double r = chk_ratio_lu(p, n, A, n, F, n, ipiv);
    if (!(r < CHK_THRESHOLD)) chk_fail("LAPACK's own factors: ratio %g", r);
    int moved = 0;
    for (int k = 0; k < n; ++k) moved |= ipiv[k] != k + 1;
    if (!moved) chk_fail("a random matrix without row interchanges");
    if (!(chk_ratio_lu(p, n, A, n, F, n, NULL) >= CHK_THRESHOLD)) chk_fail("ignoring the pivots was not detected");
    double _Complex v = chk_get(p, F, 5 + 7 * n);
    chk_set(p, F, 5 + 7 * n, v * (1 + 1e5 * chk_eps(p)) + 1e5 * chk_eps(p));
    if (!(chk_ratio_lu(p, n, A, n, F, n, ipiv) >= CHK_THRESHOLD)) chk_fail("a perturbed factor was not detected");
    chk_set(p, F, 5 + 7 * n, v);
    int bad[12];
    memcpy(bad, ipiv, sizeof bad);
    bad[n - 1] = 1; /* not a row >= n */
    if (isfinite(chk_ratio_lu(p, n, A, n, F, n, bad))) chk_fail("an impossible pivot row was accepted");
    chk_set(p, F, 0, NAN);
    if (isfinite(chk_ratio_lu(p, n, A, n, F, n, ipiv))) chk_fail("NaN in the factors gave a finite ratio");
    chk_free(A);
    chk_free(F);
}

/* The inverse and solve ratios pass for LAPACK's results and fail for perturbed ones. */
static void ratio_inverse_and_solve_detect_errors(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 12);
    const int n = 9, nrhs = 2;
    size_t es = chk_elem_size(p);
    void *A = chk_alloc(es * n * n), *F = chk_alloc(es * n * n), *B = chk_alloc(es * n * nrhs), *X = chk_alloc(es * n * nrhs);
    int ipiv[9];
    chk_gen(p, CHK_MT_RANDOM, n, A, n, &rng);
    memcpy(F, A, es * n * n);
    chk_lapack_getrf(p, n, F, n, ipiv);
    chk_gen_random(p, n, nrhs, B, n, &rng);
    for (int t = 0; t < 3; ++t) {
        memcpy(X, B, es * n * nrhs);
        chk_lapack_getrs(p, (smallla_operation_t)t, n, nrhs, F, n, ipiv, X, n);
        double r = chk_ratio_solve(p, (smallla_operation_t)t, n, nrhs, A, n, X, n, B, n);
        if (!(r < CHK_THRESHOLD)) chk_fail("LAPACK's solve (trans %d): ratio %g", t, r);
        chk_set(p, X, n + 3, chk_get(p, X, n + 3) * (1 + 1e4 * chk_eps(p)));
        if (!(chk_ratio_solve(p, (smallla_operation_t)t, n, nrhs, A, n, X, n, B, n) >= CHK_THRESHOLD))
            chk_fail("a perturbed solution (trans %d) was not detected", t);
    }
    if (chk_is_complex(p)) { /* A^T X = B solved where A^H was asked */
        memcpy(X, B, es * n * nrhs);
        chk_lapack_getrs(p, SMALLLA_OP_T, n, nrhs, F, n, ipiv, X, n);
        if (!(chk_ratio_solve(p, SMALLLA_OP_C, n, nrhs, A, n, X, n, B, n) >= CHK_THRESHOLD))
            chk_fail("T solved for C was not detected");
    }
    chk_lapack_getri(p, n, F, n, ipiv);
    double r = chk_ratio_inverse(p, n, A, n, F, n);
    if (!(r < CHK_THRESHOLD)) chk_fail("LAPACK's inverse: ratio %g", r);
    chk_set(p, F, 4, chk_get(p, F, 4) * (1 + 1e6 * chk_eps(p)));
    if (!(chk_ratio_inverse(p, n, A, n, F, n) >= CHK_THRESHOLD)) chk_fail("a perturbed inverse was not detected");
    chk_free(A);
    chk_free(F);
    chk_free(B);
    chk_free(X);
}

/* A clearly different pivot is a defect; the same pivots agree; a near-tie is tolerated, an exact tie is not. */
static void pivot_comparison(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 13);
    const int n = 6;
    void *A = chk_alloc(chk_elem_size(p) * n * n), *F = chk_alloc(chk_elem_size(p) * n * n);
    int ipiv[6], other[6];
    chk_gen(p, CHK_MT_RANDOM, n, A, n, &rng);
    memcpy(F, A, chk_elem_size(p) * n * n);
    chk_lapack_getrf(p, n, F, n, ipiv);
    if (chk_pivots_agree(p, n, A, n, ipiv, ipiv, NULL, NULL) != 1) chk_fail("identical pivots do not agree");
    memcpy(other, ipiv, sizeof other);
    other[0] = ipiv[0] == 1 ? 2 : 1; /* the second choice of column 1: generically far from the maximum */
    int k;
    double gap;
    if (chk_pivots_agree(p, n, A, n, ipiv, other, &k, &gap) != -1 || k != 0)
        chk_fail("a wrong first pivot was accepted (gap %g)", gap);
    /* The near-tie rule (near_tie.h) on column 1: rows 1 and 4 hold the two largest values. */
    for (int i = 0; i < n; ++i) chk_set(p, A, i, 0.25);
    chk_set(p, A, 0, -0.75);
    static const struct {
        double rel;   /* row 4 holds 0.75 (1 + rel eps) */
        int lapack;   /* LAPACK's pivot row */
        int verdict;  /* of row 1 or 4 instead: 0 a near-tie, -1 a defect */
        const char *what;
    } cases[] = {
        {0, 1, -1, "an exact tie (no rounding decides it: the first maximum must win)"},
        {8, 4, 0, "candidates 8 eps apart (a near-tie)"},
        {2048, 4, -1, "candidates 2048 eps apart (beyond 64 n eps)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        chk_set(p, A, 3, 0.75 * (1 + cases[c].rel * chk_eps(p)));
        memcpy(F, A, chk_elem_size(p) * n * n);
        chk_lapack_getrf(p, n, F, n, ipiv);
        if (ipiv[0] != cases[c].lapack) chk_fail("%s: LAPACK chose row %d", cases[c].what, ipiv[0]);
        memcpy(other, ipiv, sizeof other);
        other[0] = ipiv[0] == 1 ? 4 : 1;
        int verdict = chk_pivots_agree(p, n, A, n, ipiv, other, NULL, NULL);
        if (verdict != cases[c].verdict) chk_fail("%s: chk_pivots_agree gave %d", cases[c].what, verdict);
    }
    chk_free(A);
    chk_free(F);
}

/* Poison, gaps and unwritten counts see what they should. */
static void poison_and_gaps(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 14);
    chk_batch *B = chk_batch_new(p, CHK_POINTERS, 3, 2, 5, 12, 4, &rng);
    if (chk_batch_gap_changes(B) != 0) chk_fail("a new batch has changed gaps");
    chk_batch_poison(B);
    if (chk_batch_unwritten(B, 2) != 6) chk_fail("poisoned matrix: %lld unwritten", chk_batch_unwritten(B, 2));
    chk_set(p, chk_batch_mat(B, 2), 1 + 5, 1.0);
    if (chk_batch_unwritten(B, 2) != 5) chk_fail("one write not seen");
    chk_set(p, chk_batch_mat(B, 1), 3, 0.0); /* row 3 of column 0: a gap (ld 5 > 3 rows) */
    chk_set(p, chk_batch_mat(B, 3), -1, 0.0); /* just before the matrix: gap or another slot's gap */
    if (chk_batch_gap_changes(B) != 2) chk_fail("gap writes: %lld seen, 2 made", chk_batch_gap_changes(B));
    chk_batch *C = chk_batch_clone(B);
    if (chk_batch_differences(B, C) != 0) chk_fail("a clone differs");
    chk_set(p, chk_batch_mat(C, 0), 0, 2.0);
    if (chk_batch_differences(B, C) != 1) chk_fail("one difference not seen");
    /* the pointer form really is shuffled for 4 matrices with this seed, or at least points at distinct slots */
    for (int b = 0; b < 4; ++b)
        for (int c = b + 1; c < 4; ++c)
            if (B->ptrs[b] == B->ptrs[c]) chk_fail("two matrices share a slot");
    chk_ints *v = chk_ints_new(3, 5, 2);
    if (chk_ints_unwritten(v, 1) != 3) chk_fail("new ints not poisoned");
    chk_ints_at(v, 1)[2] = 7;
    chk_ints_at(v, 0)[3] = 7; /* gap between vectors */
    if (chk_ints_unwritten(v, 1) != 2 || chk_ints_gap_changes(v) != 1) chk_fail("ints writes not seen");
    chk_batch_free(B);
    chk_batch_free(C);
    chk_ints_free(v);
}

/* The matrix types are what they claim. */
static void matrix_types(void **state) {
    chk_prec p = chk_state_prec(state);
    chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 15);
    const int n = 10;
    void *A = chk_alloc(chk_elem_size(p) * n * n);
    int ipiv[10];
    for (int t = 0; t < CHK_MT_COUNT; ++t) {
        chk_gen(p, (chk_mtype)t, n, A, n, &rng);
        double amax = 0;
        for (int e = 0; e < n * n; ++e) amax = fmax(amax, chk_abs1(p, A, e));
        if (t == CHK_MT_SMALL && !(amax < 1e-20)) chk_fail("near-underflow type has max %g", amax);
        if (t == CHK_MT_LARGE && !(amax > 1e20)) chk_fail("near-overflow type has max %g", amax);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                double a = chk_abs1(p, A, i + j * n);
                if ((t == CHK_MT_DIAGONAL && i != j && a != 0) || (t == CHK_MT_UPPER && i > j && a != 0) ||
                    (t == CHK_MT_LOWER && i < j && a != 0))
                    chk_fail("type %s has a nonzero at (%d,%d)", chk_mtype_name((chk_mtype)t), i, j);
            }
        int info = chk_lapack_getrf(p, n, A, n, ipiv);
        if (info != chk_mtype_zero_column((chk_mtype)t, n))
            chk_fail("type %s: LAPACK info %d, expected %d", chk_mtype_name((chk_mtype)t), info,
                     chk_mtype_zero_column((chk_mtype)t, n));
        if (t == CHK_MT_DIAG_DOMINANT)
            for (int k = 0; k < n; ++k)
                if (ipiv[k] != k + 1) chk_fail("diagonally dominant matrix pivoted");
        if (t == CHK_MT_ILL) { /* |U(n,n)| / max|U| of the order of 1/cond */
            double umax = 0;
            for (int e = 0; e < n * n; ++e) umax = fmax(umax, chk_abs1(p, A, e));
            double last = chk_abs1(p, A, n * n - 1) / umax;
            if (!(last < 1e3 * 10 * chk_eps(p))) chk_fail("ill-conditioned type: last pivot ratio %g", last);
        }
    }
    chk_free(A);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(ratio_lu_detects_errors), CHK_TEST_ALL_PRECS(ratio_inverse_and_solve_detect_errors),
        CHK_TEST_ALL_PRECS(pivot_comparison),        CHK_TEST_ALL_PRECS(poison_and_gaps),
        CHK_TEST_ALL_PRECS(matrix_types),
    };
    return chk_main(argc, argv, "checker", tests, sizeof tests / sizeof tests[0]);
}
