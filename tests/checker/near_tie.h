/*
 * near_tie.h - the one near-tie rule of smallla's tests (C and C++): the CMocka checker's chk_pivots_agree()
 * and the CUDA sweep perf/cuda/check_cuda.cpp include it; the Julia tests (bindings/julia/test/runtests.jl)
 * transcribe it. This comment is its definition.
 *
 * When the pivots of an implementation differ from the reference's (LAPACK's, or the host backend's), first
 * at step k, the reference's elimination (its own pivots) is replayed in double precision (double complex
 * for complex types) on the original matrix up to step k, and the two candidates of step k, the reference's
 * row r = ipiv_ref[k] and the implementation's row q = ipiv[k], are measured with LAPACK's pivot measure
 * abs1 = |Re| + |Im|: a and b. The difference is a near-tie, where rounding may legitimately decide (the
 * order of the update's sums differs between implementations, as between LAPACK's own blocked and unblocked
 * getrf), when
 *
 *     0 < |a - b| <= tol * (max(a, b) + wmax),    tol = 64 max(n, 1) eps,
 *
 * eps being LAPACK's eps of the precision (xLAMCH('E'): 2^-24 or 2^-53) and wmax the largest abs1 of any
 * entry met in the replay up to step k: the noise floor grows with the largest entry, since late pivots of
 * an ill-conditioned matrix are small differences of large numbers. Anything else is a defect; in
 * particular an exact tie (a == b, both zero included), which no rounding decides: LAPACK's first maximum
 * wins, and so must every implementation.
 */
#ifndef SMALLLA_TESTS_NEAR_TIE_H
#define SMALLLA_TESTS_NEAR_TIE_H

#include <math.h>

/** tol = 64 max(n, 1) eps. */
static inline double chk_near_tie_tolerance(int n, double eps) { return 64.0 * (n > 1 ? n : 1) * eps; }

/** The rule on the two measured candidates a, b (abs1) with the replay's noise floor wmax: 1 for a near-tie. */
static inline int chk_is_near_tie(double a, double b, double wmax, int n, double eps) {
    const double big = a > b ? a : b, d = fabs(a - b), tol = chk_near_tie_tolerance(n, eps);
    return d > 0 && d <= tol * (big + wmax);
}

/**
 * The measure and the rule: W holds the original n x n matrix, column-major, as interleaved (re, im) doubles
 * (im = 0 for real types), and is overwritten by the replay. ipiv_ref and ipiv are 1-based and equal before
 * step k0, where they differ. Returns 1 for a near-tie, 0 for a defect (also when a row is out of range);
 * *gap (may be NULL) receives |a - b| / max(a, b) (0 when both are 0).
 */
static inline int chk_near_tie_replay(int n, double *W, const int *ipiv_ref, const int *ipiv, int k0, double eps,
                                      double *gap) {
#define CHK_NT_RE(i, j) W[2 * ((long long)(i) + (long long)(j) * n)]
#define CHK_NT_IM(i, j) W[2 * ((long long)(i) + (long long)(j) * n) + 1]
#define CHK_NT_ABS1(i, j) (fabs(CHK_NT_RE(i, j)) + fabs(CHK_NT_IM(i, j)))
    if (gap) *gap = 0;
    double wmax = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (CHK_NT_ABS1(i, j) > wmax) wmax = CHK_NT_ABS1(i, j);
    for (int k = 0; k <= k0; ++k) {
        const int r = ipiv_ref[k] - 1;
        if (r < k || r >= n) return 0;
        if (k == k0) {
            const int q = ipiv[k] - 1;
            if (q < k || q >= n) return 0;
            const double a = CHK_NT_ABS1(r, k), b = CHK_NT_ABS1(q, k), big = a > b ? a : b;
            if (gap) *gap = big > 0 ? fabs(a - b) / big : 0;
            return chk_is_near_tie(a, b, wmax, n, eps);
        }
        for (int j = 0; j < n; ++j) { /* the interchange */
            const double tr = CHK_NT_RE(k, j), ti = CHK_NT_IM(k, j);
            CHK_NT_RE(k, j) = CHK_NT_RE(r, j), CHK_NT_IM(k, j) = CHK_NT_IM(r, j);
            CHK_NT_RE(r, j) = tr, CHK_NT_IM(r, j) = ti;
        }
        const double pr = CHK_NT_RE(k, k), pi = CHK_NT_IM(k, k);
        if (pr != 0 || pi != 0)
            for (int i = k + 1; i < n; ++i) { /* L(i,k) = W(i,k) / pivot (Smith's division) */
                const double xr = CHK_NT_RE(i, k), xi = CHK_NT_IM(i, k);
                if (fabs(pr) >= fabs(pi)) {
                    const double t = pi / pr, den = pr + pi * t;
                    CHK_NT_RE(i, k) = (xr + xi * t) / den, CHK_NT_IM(i, k) = (xi - xr * t) / den;
                } else {
                    const double t = pr / pi, den = pr * t + pi;
                    CHK_NT_RE(i, k) = (xr * t + xi) / den, CHK_NT_IM(i, k) = (xi * t - xr) / den;
                }
            }
        for (int j = k + 1; j < n; ++j) /* the rank-1 update of the trailing matrix */
            for (int i = k + 1; i < n; ++i) {
                const double lr = CHK_NT_RE(i, k), li = CHK_NT_IM(i, k), ur = CHK_NT_RE(k, j), ui = CHK_NT_IM(k, j);
                CHK_NT_RE(i, j) -= lr * ur - li * ui;
                CHK_NT_IM(i, j) -= lr * ui + li * ur;
                if (CHK_NT_ABS1(i, j) > wmax) wmax = CHK_NT_ABS1(i, j);
            }
    }
    return 0;
#undef CHK_NT_RE
#undef CHK_NT_IM
#undef CHK_NT_ABS1
}

#endif /* SMALLLA_TESTS_NEAR_TIE_H */
