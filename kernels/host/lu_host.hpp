// The host algorithms of the LU family for ONE matrix: LU with partial (or no) pivoting, the inverse from
// the factors, and the solve with A, A^T or A^H. Each is a template on the scalar type T and on the size
// types of the order (Size) and of the leading dimension (Ld): fixed_n<N> makes both compile-time constants,
// so that for small N the compiler unrolls and vectorizes the loops; any_n serves every other order.
// The arithmetic follows LAPACK's unblocked algorithms (xGETF2, xTRTI2 + xGETRI, xGETRS) so that pivots and
// info agree with LAPACK.
#pragma once

#include <cmath>
#include <utility>

#include "smallla.h"
#include "common/scalar.hpp"

namespace smallla {
namespace host_kernels {

// A compile-time order (or leading dimension).
template <int N> struct fixed_n {
    static constexpr bool is_fixed = true;
    static constexpr int value = N;
    constexpr operator int() const { return N; }
};
// An order known only at run time.
struct any_n {
    static constexpr bool is_fixed = false;
    int value;
    operator int() const { return value; }
};

// |x| as LAPACK's getf2/getrf2 measures the pivot before choosing between scaling by the reciprocal and
// dividing (the real absolute value, or the complex modulus).
inline float modulus(float x) { return std::fabs(x); }
inline double modulus(double x) { return std::fabs(x); }
template <class R> R modulus(complex<R> x) { return std::hypot(x.re, x.im); }

// Width of the column blocks: updates subtract block_width products per stored element instead of one, which
// is what bounds these loops on small matrices held in L1 (stores, not flops). The order of the subtractions
// per element is that of the unblocked algorithm, so the rounding is the same.
constexpr int block_width = 4;

// y[i] -= x[i + q*ldx] * s[q] for q = 0..NB-1 in this order, for i in [i0, i1).
template <int NB, class T>
inline void subtract_products(T *__restrict y, const T *__restrict x, long ldx, const T *__restrict s, int i0, int i1) {
    T sq[NB];
    for (int q = 0; q < NB; ++q) sq[q] = s[q];
    for (int i = i0; i < i1; ++i) {
        T t = y[i];
        for (int q = 0; q < NB; ++q) t -= x[i + q * ldx] * sq[q];
        y[i] = t;
    }
}

// LU of the n x n matrix a (leading dimension ld), in place. With Pivoting, ipiv receives the 1-based pivot
// rows (LAPACK's convention); the pivot is the first entry of largest abs1 in the current row order, and rows
// are interchanged across the whole matrix. A zero pivot does not stop the factorization. Returns info:
// the first j with U(j,j) == 0, else 0.
// Right-looking, in panels of block_width columns: each panel is factored column by column, then the columns
// to its right get the panel's unit lower triangular solve and one rank-block_width update.
template <bool Pivoting, class T, class Size, class Ld>
inline int lu_factor(Size size, Ld ld_, T *__restrict a, int *__restrict ipiv) {
    using R = real_t<T>;
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    int info = 0;
    for (int k0 = 0; k0 < n; k0 += NB) {
        const int kend = k0 + NB < n ? k0 + NB : n;
        for (int k = k0; k < kend; ++k) {
            T *__restrict ak = a + k * ld;
            int p = k;
            if constexpr (Pivoting) {
                R best = abs1(ak[k]);
                for (int i = k + 1; i < n; ++i) {  // branch-free: the pivot row is data-dependent
                    const R v = abs1(ak[i]);
                    const bool larger = v > best;  // strict: the first maximum wins; NaN is never chosen
                    p = larger ? i : p;
                    best = larger ? v : best;
                }
                ipiv[k] = p + 1;
            }
            const T pivot = ak[p];
            if (!is_zero(pivot)) {
                if constexpr (Pivoting) {
                    if (p != k)
                        for (int j = 0; j < n; ++j) std::swap(a[k + j * ld], a[p + j * ld]);
                }
                if (modulus(pivot) >= sfmin<R>()) {
                    const T r = T(R(1)) / pivot;
                    for (int i = k + 1; i < n; ++i) ak[i] = ak[i] * r;
                } else {
                    for (int i = k + 1; i < n; ++i) ak[i] = ak[i] / pivot;
                }
            } else if (info == 0) {
                info = k + 1;
            }
            // Rank-1 update of the rest of the panel.
            for (int j = k + 1; j < kend; ++j) {
                T *__restrict aj = a + j * ld;
                const T u = aj[k];
                for (int i = k + 1; i < n; ++i) aj[i] -= ak[i] * u;
            }
        }
        // kend < n only after a full panel (kend == k0 + NB).
        for (int j = kend; j < n; ++j) {
            T *__restrict aj = a + j * ld;
            for (int k = k0; k < kend; ++k)  // U12 = inv(L11) A12, L11 unit lower
                for (int i = k + 1; i < kend; ++i) aj[i] -= a[i + k * ld] * aj[k];
            subtract_products<NB>(aj, a + k0 * ld, ld, aj + k0, kend, n);  // A22 -= L21 U12
        }
    }
    return info;
}

// First j with U(j,j) == 0 (1-based), else 0: LAPACK's singularity test before inverting.
template <class T, class Size, class Ld> inline int first_zero_diagonal(Size size, Ld ld_, const T *a) {
    const int n = size;
    const long ld = (int)ld_;
    for (int j = 0; j < n; ++j)
        if (is_zero(a[j + j * ld])) return j + 1;
    return 0;
}

// inv(A) from its LU factors, in place (as xGETRI: invert U, solve inv(A) L = inv(U), then undo the row
// interchanges as column interchanges in reverse order). ipiv is 1-based or nullptr (no pivoting); entries
// outside 1..n are ignored so that a bad pivot vector cannot write out of bounds. work holds n elements.
// The caller has checked that U has no zero on its diagonal.
template <class T, class Size, class Ld>
inline void lu_inverse(Size size, Ld ld_, T *__restrict a, const int *__restrict ipiv, T *__restrict work) {
    const int n = size;
    const long ld = (int)ld_;
    constexpr int NB = block_width;
    // inv(U), column by column (xTRTI2): column j of inv(U) = -inv(U(j,j)) * inv(U(0:j,0:j)) * U(0:j,j), the
    // triangular product x := triu(inv(U)(0:j,0:j)) x taken in blocks of NB columns.
    for (int j = 0; j < n; ++j) {
        T *__restrict aj = a + j * ld;
        aj[j] = T(real_t<T>(1)) / aj[j];
        const T ajj = -aj[j];
        int k0 = 0;
        for (; k0 + NB <= j; k0 += NB) {
            T t[NB], minus_t[NB];
            for (int q = 0; q < NB; ++q) {
                t[q] = aj[k0 + q];
                minus_t[q] = -t[q];
            }
            subtract_products<NB>(aj, a + k0 * ld, ld, minus_t, 0, k0);  // rows above the block
            for (int q = 0; q < NB; ++q) {                                // the block's own triangle
                const T *__restrict ak = a + (k0 + q) * ld;
                for (int i = k0; i < k0 + q; ++i) aj[i] += t[q] * ak[i];
                aj[k0 + q] = t[q] * ak[k0 + q];
            }
        }
        for (int k = k0; k < j; ++k) {
            const T t = aj[k];
            const T *__restrict ak = a + k * ld;
            for (int i = 0; i < k; ++i) aj[i] += t * ak[i];
            aj[k] = t * ak[k];
        }
        for (int i = 0; i < j; ++i) aj[i] = aj[i] * ajj;
    }
    // Solve inv(A) * L = inv(U) for inv(A), from the last column to the first.
    for (int j = n - 2; j >= 0; --j) {
        T *__restrict aj = a + j * ld;
        for (int i = j + 1; i < n; ++i) {
            work[i] = aj[i];
            aj[i] = T(real_t<T>(0));
        }
        int k = j + 1;
        for (; k + NB <= n; k += NB) subtract_products<NB>(aj, a + k * ld, ld, work + k, 0, n);
        for (; k < n; ++k) {
            const T w = work[k];
            const T *__restrict ak = a + k * ld;
            for (int i = 0; i < n; ++i) aj[i] -= ak[i] * w;
        }
    }
    if (ipiv != nullptr) {
        for (int j = n - 2; j >= 0; --j) {
            const int jp = ipiv[j] - 1;
            if (jp != j && jp >= 0 && jp < n)
                for (int i = 0; i < n; ++i) std::swap(a[i + j * ld], a[i + jp * ld]);
        }
    }
}

template <class T> inline T apply_op(T x, bool conjugate) {
    if constexpr (scalar_traits<T>::is_complex) return conjugate ? conj(x) : x;
    else return x;
}

// Solves op(A) x = b for one right-hand side x (overwritten), from the LU factors a (leading dimension ld)
// and the 1-based pivots ipiv (nullptr: none), as xGETRS does column by column.
template <class T, class Size, class Ld>
inline void lu_solve(Size size, Ld ld_, const T *__restrict a, const int *__restrict ipiv, smallla_operation_t trans,
                     T *__restrict x) {
    const int n = size;
    const long ld = (int)ld_;
    if (trans == SMALLLA_OP_N) {
        if (ipiv != nullptr)
            for (int k = 0; k < n; ++k) {
                const int p = ipiv[k] - 1;
                if (p != k && p >= 0 && p < n) std::swap(x[k], x[p]);
            }
        for (int k = 0; k < n; ++k) {  // L y = P b, L unit lower
            const T xk = x[k];
            const T *__restrict ak = a + k * ld;
            for (int i = k + 1; i < n; ++i) x[i] -= xk * ak[i];
        }
        for (int k = n - 1; k >= 0; --k) {  // U x = y
            const T *__restrict ak = a + k * ld;
            x[k] = x[k] / ak[k];
            const T xk = x[k];
            for (int i = 0; i < k; ++i) x[i] -= xk * ak[i];
        }
        return;
    }
    const bool conjugate = trans == SMALLLA_OP_C;
    for (int k = 0; k < n; ++k) {  // op(U) y = b: row k of op(U) is column k of U
        const T *__restrict ak = a + k * ld;
        T t = x[k];
        for (int i = 0; i < k; ++i) t -= apply_op(ak[i], conjugate) * x[i];
        x[k] = t / apply_op(ak[k], conjugate);
    }
    for (int k = n - 1; k >= 0; --k) {  // op(L) z = y, L unit lower
        const T *__restrict ak = a + k * ld;
        T t = x[k];
        for (int i = k + 1; i < n; ++i) t -= apply_op(ak[i], conjugate) * x[i];
        x[k] = t;
    }
    if (ipiv != nullptr)
        for (int k = n - 1; k >= 0; --k) {
            const int p = ipiv[k] - 1;
            if (p != k && p >= 0 && p < n) std::swap(x[k], x[p]);
        }
}

}  // namespace host_kernels
}  // namespace smallla
