// The formulas of the iterative (fixed-point) Crout LU that the host and the CUDA implementations share, so
// that both compute every entry with the same expression (bitwise agreement between a sweep and the pivot
// step of one backend is what lets the iteration recognise a converged column; see getrf_iter_host.hpp for
// the scheme).
#pragma once

#include "common/scalar.hpp"

namespace smallla {
namespace iter_crout {

// |u| as LAPACK's getf2 measures a pivot before choosing between scaling by its reciprocal and dividing.
SMALLLA_HD float pivot_modulus(float x) { return std::fabs(x); }
SMALLLA_HD double pivot_modulus(double x) { return std::fabs(x); }
template <class R> SMALLLA_HD R pivot_modulus(complex<R> x) { return std::hypot(x.re, x.im); }

// Crout's residual of entry (i, j) in a column-major n x n iterate m (L strictly below the diagonal, U on and
// above it) over the first kmax terms: a(i,j) - sum_{k < kmax} L(i,k) U(k,j). With kmax = min(i, j) it is
// U(i,j) itself (i <= j) or L(i,j) before the division by U(j,j) (i > j).
template <class T>
SMALLLA_HD T residual(const T *a, const T *m, int n, int i, int j, int kmax) {
    T s = a[i + (long)j * n];
    for (int k = 0; k < kmax; ++k) s -= m[i + (long)k * n] * m[k + (long)j * n];
    return s;
}

// L(i,j) from its residual s and the pivot u = U(j,j), as getf2 scales a column: by the reciprocal when
// |u| >= sfmin, by division otherwise; a zero pivot leaves the column unscaled (getf2 does not stop there).
template <class T>
SMALLLA_HD T l_entry(T s, T u) {
    using R = real_t<T>;
    if (is_zero(u)) return s;
    if (pivot_modulus(u) >= sfmin<R>()) return s * (T(R(1)) / u);
    return s / u;
}

// Is entry (i, j) frozen while the pivots of columns 0..f-1 are fixed? Frozen entries are final and no longer
// swept: the L columns 0..f-1, the U rows 0..f-2 and U(f-1,f-1). U's row f-1 right of the diagonal is computed
// by the next sweep (from final values only, so it is final after it).
SMALLLA_HD bool frozen(int i, int j, int f) {
    if (i > j) return j < f;
    return i < f - 1 || (i == f - 1 && j == f - 1);
}

// LAPACK-style interchanges (ipiv, 1-based, applied in order k = 0..n-1) from a row order: perm[k] is the
// original row now at position k. where/cur are n-element scratch arrays.
SMALLLA_HD void interchanges_from_order(int n, const int *perm, int *ipiv, int *where, int *cur) {
    for (int i = 0; i < n; ++i) {
        cur[i] = i;
        where[i] = i;
    }
    for (int k = 0; k < n; ++k) {
        const int p = where[perm[k]];
        ipiv[k] = p + 1;
        const int rk = cur[k], rp = cur[p];
        cur[k] = rp;
        cur[p] = rk;
        where[rp] = k;
        where[rk] = p;
    }
}

// The direct fallback: LU with partial pivoting (ipiv != nullptr, 1-based pivots) or without, of the n x n
// matrix a (leading dimension ld) in place, as LAPACK's getf2 (first maximum of |Re| + |Im| wins, the column
// scaled by the reciprocal of the pivot when |pivot| >= sfmin, a zero pivot recorded and passed over).
// Returns info: the first j with U(j,j) == 0, else 0.
template <class T>
SMALLLA_HD int direct_lu(int n, T *a, long ld, int *ipiv) {
    int info = 0;
    for (int k = 0; k < n; ++k) {
        T *ak = a + k * ld;
        int p = k;
        if (ipiv != nullptr) {
            real_t<T> best = abs1(ak[k]);
            for (int i = k + 1; i < n; ++i)
                if (abs1(ak[i]) > best) {
                    best = abs1(ak[i]);
                    p = i;
                }
            ipiv[k] = p + 1;
            if (p != k)
                for (int j = 0; j < n; ++j) {
                    T t = a[k + j * ld];
                    a[k + j * ld] = a[p + j * ld];
                    a[p + j * ld] = t;
                }
        }
        const T u = ak[k];
        if (is_zero(u) && info == 0) info = k + 1;
        for (int i = k + 1; i < n; ++i) ak[i] = l_entry(ak[i], u);
        for (int j = k + 1; j < n; ++j) {
            T *aj = a + j * ld;
            const T ukj = aj[k];
            for (int i = k + 1; i < n; ++i) aj[i] -= ak[i] * ukj;
        }
    }
    return info;
}

}  // namespace iter_crout
}  // namespace smallla
