// Iterative (fixed-point) Crout LU of one matrix on the host: the reference of the CUDA kernel.
//
// The scheme. The factors L (unit lower) and U of P*A satisfy Crout's equations
//     U(i,j) = a(i,j) - sum_{k<i} L(i,k) U(k,j)              (i <= j)
//     L(i,j) = (a(i,j) - sum_{k<j} L(i,k) U(k,j)) / U(j,j)     (i > j)
// A sweep evaluates all of them at once (Jacobi: every right-hand side uses the previous sweep's values),
// starting from A (or from the factors passed in: a warm start). Without pivoting the chain of dependencies
// U(0,0) -> L(:,0) -> U(1,1) -> L(:,1) -> ... -> U(n-1,n-1) is 2n-1 long, so pure Jacobi sweeps are exact
// after at most 2n-1 of them, and usually much sooner on matrices close to triangular or diagonally dominant.
//
// Pivoting and the frontier. Let S_p be the L columns 0..p-1 and the U rows 0..p-1. S_p depends only on
// itself (and on the rows 0..p-1 of P*A), and the values of L(i,k), k < p, belong to row i whatever its
// position: interchanging two rows >= p leaves S_p valid. So the pivot of column p can be chosen as soon as
// S_p is final, from the residuals s_i = a(i,p) - sum_{k<p} L(i,k) U(k,p), i >= p, which are then final too.
// The iteration keeps a frontier f: the pivots of columns 0..f-1 are fixed, S_f is final except U's row f-1
// right of the diagonal, which the next sweep computes from final values. After each sweep a pivot step
//   1. takes column f (ready by the invariant), computes its residuals, chooses the pivot (partial: the first
//      largest |Re| + |Im| among rows f..n-1 in the current order, as LAPACK; none/reuse: row f itself),
//      interchanges the two rows of P*A and of the iterate, and writes U(f,f) and L(:,f) (the same formulas
//      as a sweep, so that these values are what a sweep would reproduce);
//   2. goes on with column f+1 while no interchange happened and S_{f+1} did not change in the last sweep
//      (a change-free sweep proves S_{f+1} is the fixed point of its own equations, hence final: entries that
//      merely look settled, the thesis's test, prove nothing). On a matrix that needs no interchanges this
//      lets the pivots of many columns be confirmed at once, as soon as the sweeps have converged there.
// Frozen entries (final ones, see iter_crout::frozen) are not swept again. The frontier advances by at least
// one column per sweep, so the iteration ends after at most n sweeps, whatever the matrix: the default
// max_sweeps is n. It has converged when the frontier reaches n; with tolerance 0 the factors are then the
// exact fixed point of Crout's equations in floating point (a stable LU with LAPACK's pivots when pivoting is
// partial). A positive tolerance only adds a stopping test: after a sweep in which no entry moved by more
// than tolerance * max|iterate| (|x| = |Re| + |Im|), the pivot step goes on through the remaining columns
// with the values at hand, as long as none needs an interchange. Readiness itself is always proved by an
// exactly change-free sweep: a column that merely changed little may still be far from its fixed point on
// matrices where the sweeps do not contract (freezing such values gave garbage factors in an earlier
// version, on random matrices with tolerance 1e-12).
//
// Non-finite values. A NaN or Inf in A ends the iteration at once (NaN is never reported as converged). One
// produced beyond the frontier by a transient of the sweeps is harmless (it is recomputed from final values
// once the frontier gets there) but blocks the change test; one produced in a final entry ends the iteration.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include <omp.h>

#include <vector>

#include "smallla.h"
#include "common/args.hpp"
#include "common/iter_crout.hpp"
#include "common/pivot.hpp"

namespace smallla {
namespace host_kernels {

// Per-thread scratch of one matrix: 3 n^2 scalars and 3 n integers.
template <class T> struct iter_scratch {
    T *aw;      // P*A in the current row order
    T *m, *mn;  // iterate before and after a sweep
    T *col;     // residuals of the pivot column
    int *perm;  // original row at each position
    int *where, *cur;
    static long long scalars(int n) { return 3LL * n * n + n; }
    static long long ints(int n) { return 3LL * n; }
};

struct iter_outcome {
    int info;
    int sweeps;
};

// Factors matrix A (leading dimension lda) into LU (ldlu) with pivots ipiv (may be nullptr only without
// pivoting), per the options o (validated, max_sweeps > 0). LU may be A itself unless o.initial_guess is
// SMALLLA_ITER_GUESS_LU_IN.
template <class T>
iter_outcome getrf_iter_one(int n, const T *A, long lda, T *LU, long ldlu, int *ipiv, const smallla_iter_options_t &o,
                            iter_scratch<T> s) {
    using R = real_t<T>;
    using namespace iter_crout;
    const long nn = n;
    const bool partial = o.pivoting == SMALLLA_ITER_PIVOT_PARTIAL;
    const bool warm = o.initial_guess == SMALLLA_ITER_GUESS_LU_IN;
    const R tol = (R)o.tolerance;

    // Starting row order: the interchanges in ipiv when they are reused, or when they go with the warm start's
    // factors (partial pivoting then chooses afresh, from that order). Entries outside 1..n are ignored.
    for (int i = 0; i < n; ++i) s.perm[i] = i;
    if (ipiv != nullptr && (o.pivoting == SMALLLA_ITER_PIVOT_REUSE || (partial && warm)))
        for (int k = 0; k < n; ++k) {
            const int p = ipiv[k] - 1;
            if (p >= 0 && p < n && p != k) std::swap(s.perm[k], s.perm[p]);
        }
    bool finite = true;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const T v = A[s.perm[i] + j * lda];
            s.aw[i + j * nn] = v;
            finite = finite && is_finite(v);
        }

    int sweeps = 0, f = 0;
    bool nonfinite = !finite;
    if (finite) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) s.m[i + j * nn] = warm ? LU[i + j * ldlu] : s.aw[i + j * nn];
        R maxold = 0;
        for (long e = 0; e < nn * nn; ++e) maxold = std::max(maxold, abs1(s.m[e]));

        while (f < n && sweeps < o.max_sweeps) {
            // One Jacobi sweep m -> mn over the entries that are not frozen. q: the smallest min(i,j) of an entry
            // that changed by more than thr (n: none); bad: the same for a non-finite new value.
            // An Inf in the iterate (a transient beyond the frontier) makes every entry count as changed.
            const R thr = maxold <= std::numeric_limits<R>::max() ? tol * maxold : R(-1);
            int q = n, bad = n;
            bool small = true;  // every change within thr (the stopping test of a positive tolerance)
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const long e = i + j * nn;
                    if (frozen(i, j, f)) {
                        s.mn[e] = s.m[e];
                        continue;
                    }
                    const int d = std::min(i, j);
                    const T r = residual(s.aw, s.m, n, i, j, d);
                    const T v = i > j ? l_entry(r, s.m[j + j * nn]) : r;
                    s.mn[e] = v;
                    if (!(v == s.m[e])) q = std::min(q, d);  // exact: only a change-free sweep proves a column
                    if (!(abs1(v - s.m[e]) <= thr)) small = false;
                    if (!is_finite(v)) bad = std::min(bad, d);
                }
            std::swap(s.m, s.mn);
            ++sweeps;
            // U's row f-1, computed by this sweep from final values, is final: a non-finite value there (or in a
            // column fixed below) is the true factors' overflow, and no further sweep can cure it.
            if (bad < f) {
                nonfinite = true;
                break;
            }

            // Pivot step: fix column f, and the following ones while this sweep proved them ready.
            bool interchanged = false;
            do {
                const int p = f;
                for (int i = p; i < n; ++i) s.col[i] = residual(s.aw, s.m, n, i, p, p);
                int r = p;
                if (partial) {
                    r = first_max_position(p, n, [&](int i) { return s.col[i]; });  // LAPACK's choice (common/pivot.hpp)
                }
                if (r != p) {
                    for (int j = 0; j < n; ++j) {
                        std::swap(s.aw[p + j * nn], s.aw[r + j * nn]);
                        std::swap(s.m[p + j * nn], s.m[r + j * nn]);
                    }
                    std::swap(s.perm[p], s.perm[r]);
                    std::swap(s.col[p], s.col[r]);
                    interchanged = true;
                }
                const T u = s.col[p];
                bool ok = is_finite(u);
                s.m[p + p * nn] = u;
                for (int i = p + 1; i < n; ++i) {
                    const T l = l_entry(s.col[i], u);
                    s.m[i + p * nn] = l;
                    ok = ok && is_finite(l);
                }
                f = p + 1;
                if (!ok) {
                    nonfinite = true;
                    break;
                }
            } while (!interchanged && f < n && (f <= q || small));
            if (nonfinite) break;

            maxold = 0;
            for (long e = 0; e < nn * nn; ++e) maxold = std::max(maxold, abs1(s.m[e]));  // NaN is skipped
        }
    }

    iter_outcome out{0, sweeps};
    if (f == n && !nonfinite) {
        for (int j = 0; j < n; ++j)
            if (is_zero(s.m[j + j * nn])) {
                out.info = j + 1;
                break;
            }
    } else if (o.fallback_direct) {
        // The direct getrf from A itself (partial pivoting when there is somewhere to put the pivots).
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) s.m[i + j * nn] = A[i + j * lda];
        out.info = direct_lu(n, s.m, nn, ipiv);
        for (long e = 0; e < nn * nn; ++e)
            if (!is_finite(s.m[e])) {
                out.info = SMALLLA_ITER_NONFINITE;
                break;
            }
        out.sweeps = o.max_sweeps + 1;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) LU[i + j * ldlu] = s.m[i + j * nn];
        return out;
    } else {
        out.info = nonfinite ? SMALLLA_ITER_NONFINITE : SMALLLA_ITER_NOT_CONVERGED;
        if (!nonfinite)
            for (long e = 0; e < nn * nn; ++e)
                if (!is_finite(s.m[e])) {  // a transient that the sweeps did not get past in time
                    out.info = SMALLLA_ITER_NONFINITE;
                    break;
                }
        if (!finite) {  // nothing was iterated: leave the input (with its NaN/Inf) as the "last iterate"
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) s.m[i + j * nn] = s.aw[i + j * nn];
        }
    }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) LU[i + j * ldlu] = s.m[i + j * nn];
    if (ipiv != nullptr) {
        if (o.pivoting == SMALLLA_ITER_PIVOT_NONE)
            for (int k = 0; k < n; ++k) ipiv[k] = k + 1;
        else if (partial)
            interchanges_from_order(n, s.perm, ipiv, s.where, s.cur);
        // reuse: ipiv already holds the interchanges that were applied
    }
    return out;
}

// The iteration over a batch (A and LU accessors of the same form): OpenMP over the matrices, each thread with its
// own scratch, allocated before the parallel loop (where an exception could not be caught).
template <class T, class BatchA, class BatchLU>
void getrf_iter_batch(const getrf_iter_args<T> &a, const BatchA &A, const BatchLU &LU) {
    const int n = a.n;
    const int threads = omp_get_max_threads();
    std::vector<T> scalars((size_t)iter_scratch<T>::scalars(n) * threads);
    std::vector<int> ints((size_t)iter_scratch<T>::ints(n) * threads);
    const double work = (double)n * n * n * (double)a.opts.max_sweeps / 3.0;
    const bool parallel = threads > 1 && a.batch > 1 && a.batch * work >= 1.0e5;
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
    for (int b = 0; b < a.batch; ++b) {
        const int t = omp_get_thread_num();
        T *sc = scalars.data() + (size_t)iter_scratch<T>::scalars(n) * t;
        int *ic = ints.data() + (size_t)iter_scratch<T>::ints(n) * t;
        const long long nn = (long long)n * n;
        iter_scratch<T> s{sc, sc + nn, sc + 2 * nn, sc + 3 * nn, ic, ic + n, ic + 2 * n};
        const iter_outcome out = getrf_iter_one<T>(n, A[b], A.ld, LU[b], LU.ld, a.ipiv[b], a.opts, s);
        a.info[b] = out.info;
        if (a.sweeps != nullptr) a.sweeps[b] = out.sweeps;
    }
}

}  // namespace host_kernels
}  // namespace smallla
