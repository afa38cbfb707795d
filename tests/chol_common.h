/* Helpers shared by the Cholesky suites (test_potrf.c, test_potrs.c, test_potri.c): inputs whose "other"
 * triangle and diagonal imaginary parts hold values that must never be read (NaN, junk), checks that those
 * stay bit for bit, and the sizes the suites sweep. */
#ifndef SMALLLA_TESTS_CHOL_COMMON_H
#define SMALLLA_TESTS_CHOL_COMMON_H

#include <complex.h>
#include <math.h>

#include "checker.h"

static const smallla_fill_t chol_uplos[2] = {SMALLLA_FILL_LOWER, SMALLLA_FILL_UPPER};
static inline const char *uplo_name(smallla_fill_t u) { return u == SMALLLA_FILL_LOWER ? "lower" : "upper"; }

/* 1 when (i, j) lies strictly in the triangle the routine must not touch. */
static inline int other_triangle(smallla_fill_t uplo, int i, int j) {
    return uplo == SMALLLA_FILL_LOWER ? i < j : i > j;
}

/* Overwrites the other strict triangle of every matrix with NaN (a read of it would spoil the results) and,
 * for complex types, the diagonal's imaginary parts with junk (LAPACK ignores them). */
static inline void spoil_unread(chk_batch *A, smallla_fill_t uplo) {
    const chk_prec p = A->prec;
    for (int b = 0; b < A->count; ++b) {
        void *m = chk_batch_mat(A, b);
        for (int j = 0; j < A->cols; ++j)
            for (int i = 0; i < A->rows; ++i) {
                const long long e = i + (long long)j * A->ld;
                if (other_triangle(uplo, i, j)) chk_set(p, m, e, NAN);
                else if (i == j && chk_is_complex(p)) chk_set(p, m, e, CMPLX(creal(chk_get(p, m, e)), 7.0));
            }
    }
}

/* Elements of matrix b of the other strict triangle whose bits changed between A0 and A. */
static inline long long other_triangle_changes(const chk_batch *A0, const chk_batch *A, int b, smallla_fill_t uplo) {
    long long changed = 0;
    const void *m0 = chk_batch_mat(A0, b), *m = chk_batch_mat(A, b);
    for (int j = 0; j < A->cols; ++j)
        for (int i = 0; i < A->rows; ++i)
            if (other_triangle(uplo, i, j) && !chk_same_bits(A->prec, m0, i + (long long)j * A->ld, m, i + (long long)j * A->ld))
                ++changed;
    return changed;
}

/* Elements of matrix b (all of it) whose bits changed between two batches of the same layout. */
static inline long long matrix_changes(const chk_batch *X0, const chk_batch *X, int b) {
    long long changed = 0;
    const void *m0 = chk_batch_mat(X0, b), *m = chk_batch_mat(X, b);
    for (int j = 0; j < X->cols; ++j)
        for (int i = 0; i < X->rows; ++i)
            if (!chk_same_bits(X->prec, m0, i + (long long)j * X->ld, m, i + (long long)j * X->ld)) ++changed;
    return changed;
}

/* LAPACK's xPOTRF of a copy of matrix b (n x n, leading dimension n in W); returns its info. */
static inline int lapack_potrf_copy(chk_prec p, smallla_fill_t uplo, const chk_batch *A0, int b, void *W) {
    const int n = A0->rows;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            chk_set(p, W, i + (long long)j * n, chk_get(p, chk_batch_mat(A0, b), i + (long long)j * A0->ld));
    return chk_lapack_potrf(p, uplo, n, W, n);
}

#endif
