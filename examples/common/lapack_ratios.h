/* LAPACK's test ratios for one double-precision matrix, as the examples check their results (header only).
 *   getrf:  ||P A - L U||_1 / (n ||A||_1 eps)          (LAPACK's DGET01)
 *   getri / matinv:  ||I - C A||_1 / (n ||A||_1 ||C||_1 eps)   (DGET03)
 *   getrs:  ||b - A x||_1 / (||A||_1 ||x||_1 eps), one right-hand side   (DGET02)
 * eps = DBL_EPSILON / 2 (LAPACK's DLAMCH('E')). A ratio below 30 means a result as good as LAPACK's.
 * The matrices are n x n with leading dimension n; work holds n * n doubles.
 */
#ifndef SMALLLA_EXAMPLES_LAPACK_RATIOS_H
#define SMALLLA_EXAMPLES_LAPACK_RATIOS_H

#include <float.h>
#include <math.h>
#include <stddef.h>

static double ex_norm1(int rows, int cols, const double *a, int ld) {
    double best = 0.0;
    for (int j = 0; j < cols; ++j) {
        double s = 0.0;
        for (int i = 0; i < rows; ++i) s += fabs(a[i + (size_t)j * ld]);
        if (s > best || s != s) best = s;
    }
    return best;
}

/* ||P A - L U||_1 / (n ||A||_1 eps) for one matrix. */
static double ex_getrf_ratio(int n, const double *a, const double *lu, const int *ipiv, double *work) {
    /* work = L U */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int kmax = i < j ? i : j;
            double s = 0.0;
            for (int k = 0; k <= kmax; ++k) s += (k == i ? 1.0 : lu[i + k * n]) * (k <= j ? lu[k + j * n] : 0.0);
            work[i + j * n] = s;
        }
    /* undo the interchanges on L U (apply P^T in reverse order), then subtract A */
    for (int k = n - 1; k >= 0; --k) {
        const int p = ipiv[k] - 1;
        if (p != k)
            for (int j = 0; j < n; ++j) {
                const double t = work[k + j * n];
                work[k + j * n] = work[p + j * n];
                work[p + j * n] = t;
            }
    }
    for (int e = 0; e < n * n; ++e) work[e] -= a[e];
    const double an = ex_norm1(n, n, a, n);
    return an > 0 ? ex_norm1(n, n, work, n) / (n * an * (DBL_EPSILON / 2)) : 0.0;
}

/* ||I - C A||_1 / (n ||A||_1 ||C||_1 eps) for one matrix (DGET03: the inverse times A). */
static double ex_inverse_ratio(int n, const double *a, const double *c, double *work) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0.0;
            for (int k = 0; k < n; ++k) s += c[i + k * n] * a[k + j * n];
            work[i + j * n] = (i == j ? 1.0 : 0.0) - s;
        }
    const double d = n * ex_norm1(n, n, a, n) * ex_norm1(n, n, c, n) * (DBL_EPSILON / 2);
    return d > 0 ? ex_norm1(n, n, work, n) / d : 0.0;
}

/* ||b - A x||_1 / (||A||_1 ||x||_1 eps) for one matrix and one right-hand side (DGET02). */
static double ex_solve_ratio(int n, const double *a, const double *x, const double *b, double *work) {
    for (int i = 0; i < n; ++i) {
        double s = b[i];
        for (int k = 0; k < n; ++k) s -= a[i + k * n] * x[k];
        work[i] = s;
    }
    const double d = ex_norm1(n, n, a, n) * ex_norm1(n, 1, x, n) * (DBL_EPSILON / 2);
    return d > 0 ? ex_norm1(n, 1, work, n) / d : 1.0 / (DBL_EPSILON / 2);
}

#endif /* SMALLLA_EXAMPLES_LAPACK_RATIOS_H */
