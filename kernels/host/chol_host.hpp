// The host algorithms of the Cholesky family, written once as templates on an element type E (T itself, or
// lanes of W matrices in lockstep, lanes.hpp) and on the size types of lu_host.hpp (fixed_n, lanes_n, any_n).
// They work on a "lower form" copy of the matrix: its lower triangle holds A's lower triangle, or for
// uplo = upper the conjugate transpose of A's upper one (U = L^H), so one text serves both triangles; the copy
// (a local array for small orders, per-thread scratch otherwise) is what chol_batch.hpp loads and stores.
// The diagonal is read through its real part only (LAPACK's xPOTRF ignores the imaginary parts).
#pragma once

#include <cmath>

#include "lu_host.hpp"

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// ---- element helpers: real parts, real scaling, conjugates of scalars and lanes --------------------------------
inline float real_part(float x) { return x; }
inline double real_part(double x) { return x; }
template <class R> inline R real_part(complex<R> x) { return x.re; }
template <class R, int W> inline rlanes<R, W> real_part(const rlanes<R, W> &x) { return x; }
template <class R, int W> inline rlanes<R, W> real_part(const clanes<R, W> &x) { return {x.re}; }

// The element of type E whose real part is r and imaginary part zero.
template <class E> struct from_real_t;
template <> struct from_real_t<float> { static float make(float r) { return r; } };
template <> struct from_real_t<double> { static double make(double r) { return r; } };
template <class R> struct from_real_t<complex<R>> { static complex<R> make(R r) { return {r, R(0)}; } };
template <class R, int W> struct from_real_t<rlanes<R, W>> {
    static rlanes<R, W> make(rlanes<R, W> r) { return r; }
};
template <class R, int W> struct from_real_t<clanes<R, W>> {
    static clanes<R, W> make(rlanes<R, W> r) { return {r.v, typename simd<R, W>::vec{}}; }
};
template <class E, class RE> inline E from_real(RE r) { return from_real_t<E>::make(r); }

// x times a real factor.
inline float scale(float x, float r) { return x * r; }
inline double scale(double x, double r) { return x * r; }
template <class R> inline complex<R> scale(complex<R> x, R r) { return {x.re * r, x.im * r}; }
template <class R, int W> inline rlanes<R, W> scale(const rlanes<R, W> &x, const rlanes<R, W> &r) { return x * r; }
template <class R, int W> inline clanes<R, W> scale(const clanes<R, W> &x, const rlanes<R, W> &r) {
    return {x.re * r.v, x.im * r.v};
}

inline float conj_e(float x) { return x; }
inline double conj_e(double x) { return x; }
template <class R> inline complex<R> conj_e(complex<R> x) { return conj(x); }
template <class R, int W> inline rlanes<R, W> conj_e(const rlanes<R, W> &x) { return x; }
template <class R, int W> inline clanes<R, W> conj_e(const clanes<R, W> &x) { return conj(x); }

// ---- the factorization -----------------------------------------------------------------------------------------
// A = L L^H of the lower form a (leading dimension ld), right-looking in panels of block_width columns: each
// panel column gets its diagonal step and a rank-1 update of the rest of the panel, then the trailing columns
// one rank-block_width update. diag_step(k) takes the pivot d = Re a(k,k) (already reduced by the previous
// columns), sets L(k,k) = sqrt(d), scales the column below by 1/L(k,k), and returns false to stop.
template <class E, class Size, class Ld, class DiagStep>
inline void chol_factor_panels(Size size, Ld ld_, E *__restrict a, DiagStep &&diag_step) {
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    for (int k0 = 0; k0 < n; k0 += NB) {
        const int kend = k0 + NB < n ? k0 + NB : n;
        for (int k = k0; k < kend; ++k) {
            if (!diag_step(k)) return;
            const E *__restrict ak = a + k * ld;
            for (int j = k + 1; j < kend; ++j) {
                E *__restrict aj = a + j * ld;
                const E s = conj_e(ak[j]);
                for (int i = j; i < n; ++i) aj[i] -= ak[i] * s;
            }
        }
        for (int j = kend; j < n; ++j) {  // A22 -= L21 L21^H, column j from row j down
            E s[NB];
            for (int q = 0; q < NB; ++q) s[q] = conj_e(a[j + (k0 + q) * ld]);
            subtract_products<NB>(a + j * ld, a + k0 * ld, ld, s, j, n);
        }
    }
}

// Cholesky of one matrix (E = T) in lower form. Returns LAPACK's info: the first k (1-based) whose pivot is not
// positive or is NaN; the factorization stops there.
template <class T, class Size, class Ld> inline int chol_factor(Size size, Ld ld_, T *__restrict a) {
    using R = real_t<T>;
    const int n = size;
    const long ld = (int)ld_;
    int info = 0;
    chol_factor_panels(size, ld_, a, [&](int k) {
        T *__restrict ak = a + k * ld;
        const R d = real_part(ak[k]);
        if (!(d > R(0))) {  // also NaN
            info = k + 1;
            return false;
        }
        const R l = std::sqrt(d), r = R(1) / l;
        ak[k] = from_real<T>(l);
        for (int i = k + 1; i < n; ++i) ak[i] = scale(ak[i], r);
        return true;
    });
    return info;
}

// The same for W matrices in lanes; info[w] per lane. A lane that fails goes on with pivot 1 so that its
// neighbours are unaffected; what it computes after its first failure is not used for info.
template <class T, int W, class Size>
inline void chol_factor_lanes(Size size, lanes_of<T, W> *__restrict a, int *__restrict info) {
    using R = real_t<T>;
    using RL = rlanes<R, W>;
    const int n = size;
    for (int w = 0; w < W; ++w) info[w] = 0;
    chol_factor_panels(size, size, a, [&](int k) {
        auto *__restrict ak = a + (long)k * n;
        RL d = real_part(ak[k]), l, r;
        for (int w = 0; w < W; ++w) {
            R dw = d.get(w);
            if (!(dw > R(0))) {
                if (info[w] == 0) info[w] = k + 1;
                dw = R(1);
            }
            const R lw = std::sqrt(dw);
            l.set(w, lw);
            r.set(w, R(1) / lw);
        }
        ak[k] = from_real<lanes_of<T, W>>(l);
        for (int i = k + 1; i < n; ++i) ak[i] = scale(ak[i], r);
        return true;
    });
}

// ---- the solve -------------------------------------------------------------------------------------------------
// x := inv(L L^H) x for one right-hand side, from the lower form (L y = x, then L^H x = y).
template <class E, class Size, class Ld>
inline void chol_solve(Size size, Ld ld_, const E *__restrict a, E *__restrict x) {
    const int n = size;
    const long ld = (int)ld_;
    for (int k = 0; k < n; ++k) {
        const E *__restrict ak = a + k * ld;
        const E xk = x[k] / from_real<E>(real_part(ak[k]));
        x[k] = xk;
        for (int i = k + 1; i < n; ++i) x[i] -= ak[i] * xk;
    }
    for (int k = n - 1; k >= 0; --k) {
        const E *__restrict ak = a + k * ld;
        E t = x[k];
        for (int i = k + 1; i < n; ++i) t -= conj_e(ak[i]) * x[i];
        x[k] = t / from_real<E>(real_part(ak[k]));
    }
}

// ---- the inverse -----------------------------------------------------------------------------------------------
// First j (1-based) with Re L(j,j) == 0, else 0: LAPACK's xTRTRI test (potri), made before anything is written.
template <class T, class Size, class Ld> inline int chol_zero_diagonal(Size size, Ld ld_, const T *a) {
    const int n = size;
    const long ld = (int)ld_;
    for (int j = 0; j < n; ++j)
        if (real_part(a[j + j * ld]) == real_t<T>(0)) return j + 1;
    return 0;
}

// The lower triangle of inv(L L^H) = inv(L)^H inv(L), in place of L's lower form: first inv(L) column by column
// (column j solves L x = e_j, rows j.. of the column reusing its own storage), then the product, element (i, j),
// i >= j, the dot product of columns i and j of inv(L) from row i on (ascending j and i overwrite nothing still
// needed). The diagonal comes out real.
template <class E, class Size, class Ld> inline void chol_inverse(Size size, Ld ld_, E *__restrict a) {
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    const E one = element_one<E>();
    for (int j = 0; j < n; ++j) {
        E *__restrict aj = a + j * ld;
        const E x = one / from_real<E>(real_part(aj[j]));
        aj[j] = x;
        for (int i = j + 1; i < n; ++i) aj[i] = -(aj[i] * x);
        int m = j + 1;
        for (; m + NB <= n; m += NB) {  // NB rows of the solve, then their update of the rows below at once
            for (int q = 0; q < NB; ++q) {
                const E *__restrict am = a + (m + q) * ld;
                const E xq = aj[m + q] / from_real<E>(real_part(am[m + q]));
                aj[m + q] = xq;
                for (int r = q + 1; r < NB; ++r) aj[m + r] -= xq * am[m + r];
            }
            E s[NB];
            for (int q = 0; q < NB; ++q) s[q] = aj[m + q];
            subtract_products<NB>(aj, a + m * ld, ld, s, m + NB, n);
        }
        for (; m < n; ++m) {
            const E *__restrict am = a + m * ld;
            const E xm = aj[m] / from_real<E>(real_part(am[m]));
            aj[m] = xm;
            for (int i = m + 1; i < n; ++i) aj[i] -= xm * am[i];
        }
    }
    for (int j = 0; j < n; ++j) {
        E *__restrict aj = a + j * ld;
        for (int i = j; i < n; ++i) {
            const E *__restrict ai = a + i * ld;
            E t = conj_e(ai[i]) * aj[i];
            for (int k = i + 1; k < n; ++k) t += conj_e(ai[k]) * aj[k];
            aj[i] = i == j ? from_real<E>(real_part(t)) : t;
        }
    }
}

// The inverse for W matrices in lanes (a step of the batch code, lanes_step).
template <class T, int W, class Size> inline void chol_inverse_lanes(Size size, lanes_of<T, W> *__restrict a) {
    chol_inverse(size, size, a);
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
