// The host algorithms of the LU family: LU with partial (or no) pivoting, the inverse from the factors, and
// the solve with A, A^T or A^H. The arithmetic is written once, as templates on an element type E and on the
// size types of the order (Size) and the leading dimension (Ld):
//  - E = T (float, double, complex<R>) with any_n: one matrix in place, any order;
//  - E = lanes of W matrices (lanes.hpp) with fixed_n<N>: W matrices of a small order N in lockstep, from a
//    local interleaved copy; every operation is a SIMD operation over the W matrices, so the long chains of
//    dependent operations of a small LU (pivot search, reciprocal, update, next column) overlap W times and
//    nothing needs a horizontal reduction.
// What depends on the matrix (choice of pivot, interchanges, info) is a small "pivoting step" per element
// type. The operations per element follow LAPACK's unblocked algorithms (xGETF2, xTRTI2 + xGETRI, xGETRS), in
// the same order, so pivots and info agree with LAPACK.
#pragma once

#include <cmath>
#include <utility>

#include "smallla.h"
#include "common/pivot.hpp"
#include "common/scalar.hpp"
#include "lanes.hpp"

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// A compile-time order (or leading dimension).
template <int N> struct fixed_n {
    static constexpr bool is_fixed = true;
    static constexpr bool in_lanes = false;
    static constexpr int value = N;
    static constexpr int order = N;  // 0 for any_n
    constexpr operator int() const { return N; }
};
// The same order, served by the lanes form (W matrices in lockstep in SIMD lanes).
template <int N> struct lanes_n : fixed_n<N> {
    static constexpr bool in_lanes = true;
};
// An order known only at run time.
struct any_n {
    static constexpr bool is_fixed = false;
    static constexpr bool in_lanes = false;
    static constexpr int order = 0;
    int value;
    operator int() const { return value; }
};
// An order known only at run time, served by the lanes form (beyond lanes_max_order: its buffers in per-thread scratch).
struct lanes_any_n : any_n {
    static constexpr bool in_lanes = true;
};

// LAPACK's getf2/getrf2 scale by the reciprocal of the pivot when |pivot| >= sfmin (the real absolute value,
// or the complex modulus) and divide otherwise.
// below_sfmin(x) is modulus(x) < sfmin, with the costly complex modulus computed only when abs1(x) (which is at
// most sqrt(2) times the modulus) does not already settle it.
inline bool below_sfmin(float x) { return std::fabs(x) < sfmin<float>(); }
inline bool below_sfmin(double x) { return std::fabs(x) < sfmin<double>(); }
template <class R> inline bool below_sfmin(complex<R> x) {
    if (abs1(x) >= R(2) * sfmin<R>()) return false;
    return std::hypot(x.re, x.im) < sfmin<R>();
}

template <class E> inline E conj_if(E x, bool) { return x; }  // real scalars and real lanes
template <class R> inline complex<R> conj_if(complex<R> x, bool c) { return c ? conj(x) : x; }
template <class R, int W> inline clanes<R, W> conj_if(clanes<R, W> x, bool c) { return c ? conj(x) : x; }

// Width of the column blocks: updates subtract block_width products per stored element instead of one, which
// is what bounds these loops on small matrices held in L1 (stores, not flops). The order of the subtractions
// per element is that of the unblocked algorithm, so the rounding is the same.
constexpr int block_width = 4;

// y[i] -= x[i + q*ldx] * s[q] for q = 0..NB-1 in this order, for i in [i0, i1).
template <int NB, class E>
inline void subtract_products(E *__restrict y, const E *__restrict x, long ldx, const E *__restrict s, int i0, int i1) {
    E sq[NB];
    for (int q = 0; q < NB; ++q) sq[q] = s[q];
    for (int i = i0; i < i1; ++i) {
        E t = y[i];
        for (int q = 0; q < NB; ++q) t -= x[i + q * ldx] * sq[q];
        y[i] = t;
    }
}

// LU of the n x n matrix a (leading dimension ld), in place, right-looking in panels of block_width columns:
// each panel is factored column by column, then the columns to its right get the panel's unit lower triangular
// solve and one rank-block_width update. pivot_step(k) chooses the pivot of column k, interchanges the rows
// across the whole matrix, records the pivot and info, and scales the column below the diagonal.
template <class E, class Size, class Ld, class PivotStep>
inline void lu_factor_panels(Size size, Ld ld_, E *__restrict a, PivotStep &&pivot_step) {
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    for (int k0 = 0; k0 < n; k0 += NB) {
        const int kend = k0 + NB < n ? k0 + NB : n;
        for (int k = k0; k < kend; ++k) {
            pivot_step(k);
            const E *__restrict ak = a + k * ld;
            for (int j = k + 1; j < kend; ++j) {  // rank-1 update of the rest of the panel
                E *__restrict aj = a + j * ld;
                const E u = aj[k];
                for (int i = k + 1; i < n; ++i) aj[i] -= ak[i] * u;
            }
        }
        // kend < n only after a full panel (kend == k0 + NB).
        for (int j = kend; j < n; ++j) {
            E *__restrict aj = a + j * ld;
            for (int k = k0; k < kend; ++k)  // U12 = inv(L11) A12, L11 unit lower
                for (int i = k + 1; i < kend; ++i) aj[i] -= a[i + k * ld] * aj[k];
            subtract_products<NB>(aj, a + k0 * ld, ld, aj + k0, kend, n);  // A22 -= L21 U12
        }
    }
}

// LU of one matrix (E = T). With Pivoting, ipiv receives the 1-based pivot rows (LAPACK's convention): the
// first entry of largest abs1 in the current row order; rows are interchanged across the whole matrix. A zero
// pivot does not stop the factorization. Returns info: the first j with U(j,j) == 0, else 0.
template <bool Pivoting, class T, class Size, class Ld>
inline int lu_factor(Size size, Ld ld_, T *__restrict a, int *__restrict ipiv) {
    using R = real_t<T>;
    const int n = size;
    const long ld = (int)ld_;
    int info = 0;
    lu_factor_panels(size, ld_, a, [&](int k) {
        T *__restrict ak = a + k * ld;
        int p = k;
        if constexpr (Pivoting) {
            p = first_max_position(k, n, [&](int i) { return ak[i]; });  // LAPACK's choice (common/pivot.hpp)
            ipiv[k] = p + 1;
            // p != k implies a nonzero pivot: LAPACK interchanges only then.
            if (p != k)
                for (int j = 0; j < n; ++j) std::swap(a[k + j * ld], a[p + j * ld]);
        }
        const T pivot = ak[k];
        if (is_zero(pivot)) {
            if (info == 0) info = k + 1;
        } else if (!below_sfmin(pivot)) {
            const T r = T(R(1)) / pivot;
            for (int i = k + 1; i < n; ++i) ak[i] = ak[i] * r;
        } else {
            for (int i = k + 1; i < n; ++i) ak[i] = ak[i] / pivot;
        }
    });
    return info;
}

// Column k below the diagonal scaled lane by lane, for the rare step where some pivot is below sfmin: those lanes
// divide by their pivot (LAPACK's choice), the others multiply by the reciprocal r, zero pivots leave the column.
// Out of line: the complex division is long code that every order would carry inline.
template <class T, int W>
SMALLLA_SHARED_STEP void scale_column_tiny(int k, int n, lanes_of<T, W> *__restrict ak, const lanes_of<T, W> &pivot,
                                           const lanes_of<T, W> &r) {
    const auto zero = is_zero(pivot);
    for (int w = 0; w < W; ++w) {
        if (zero[w]) continue;
        const T pw = pivot.get(w), rw = r.get(w);
        const bool divide = below_sfmin(pw);
        for (int i = k + 1; i < n; ++i) ak[i].set(w, divide ? ak[i].get(w) / pw : ak[i].get(w) * rw);
    }
}

// LU of the W matrices held in lanes (E = lanes_of<T, W>), leading dimension ld. piv[k*W + w] receives matrix w's
// 1-based pivot k (Pivoting), info[w] its info. Same choices and arithmetic as lu_factor, lane by lane.
template <bool Pivoting, class T, int W, class Size, class Ld>
inline void lu_factor_lanes(Size size, Ld ld_, lanes_of<T, W> *__restrict a, int *__restrict piv,
                            int *__restrict info) {
    using L = lanes_of<T, W>;
    using R = real_t<T>;
    const int n = size;
    const long ld = (int)ld_;
    for (int w = 0; w < W; ++w) info[w] = 0;
    lu_factor_panels(size, ld_, a, [&](int k) {
        L *__restrict ak = a + k * ld;
        if constexpr (Pivoting) {
            auto best = abs1(ak[k]);
            auto p = lane_index<R, W>(k);
            for (int i = k + 1; i < n; ++i) take_if_larger(abs1(ak[i]), lane_index<R, W>(i), best, p);
            for (int w = 0; w < W; ++w) {
                const int pw = (int)p[w];
                piv[k * W + w] = pw + 1;
                if (pw != k)
                    for (int j = 0; j < n; ++j) swap_lane(a[k + j * ld], a[pw + j * ld], w);
            }
        }
        const L pivot = ak[k];
        const auto zero = is_zero(pivot);
        bool tiny = false;  // some pivot needs LAPACK's division instead of the reciprocal
        for (int w = 0; w < W; ++w) {
            if (zero[w]) {
                if (info[w] == 0) info[w] = k + 1;
            } else if (below_sfmin(pivot.get(w))) {
                tiny = true;
            }
        }
        const L one = L::splat(T(R(1)));
        const L r = select(zero, one, one / pivot);  // a zero pivot leaves its column as it is
        if (!tiny) {
            for (int i = k + 1; i < n; ++i) ak[i] = ak[i] * r;
        } else {
            scale_column_tiny<T, W>(k, n, ak, pivot, r);
        }
    });
}

// First j with U(j,j) == 0 (1-based), else 0: LAPACK's singularity test before inverting.
template <class T, class Size, class Ld> inline int first_zero_diagonal(Size size, Ld ld_, const T *a) {
    const int n = size;
    const long ld = (int)ld_;
    for (int j = 0; j < n; ++j)
        if (is_zero(a[j + j * ld])) return j + 1;
    return 0;
}

// inv(A) from its LU factors, in place, without the final column interchanges (xGETRI: invert U, then solve
// inv(A) L = inv(U)). work holds n elements. A zero U(j,j) gives Inf/NaN, not a trap.
template <class E, class Size, class Ld>
inline void lu_inverse_unpermuted(Size size, Ld ld_, E *__restrict a, E *__restrict work) {
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    const E one = element_one<E>();
    // inv(U), column by column (xTRTI2): column j of inv(U) = -inv(U(j,j)) * inv(U(0:j,0:j)) * U(0:j,j), the
    // triangular product x := triu(inv(U)(0:j,0:j)) x taken in blocks of NB columns.
    for (int j = 0; j < n; ++j) {
        E *__restrict aj = a + j * ld;
        aj[j] = one / aj[j];
        const E ajj = -aj[j];
        int k0 = 0;
        for (; k0 + NB <= j; k0 += NB) {
            E t[NB], minus_t[NB];
            for (int q = 0; q < NB; ++q) {
                t[q] = aj[k0 + q];
                minus_t[q] = -t[q];
            }
            subtract_products<NB>(aj, a + k0 * ld, ld, minus_t, 0, k0);  // rows above the block
            for (int q = 0; q < NB; ++q) {                                // the block's own triangle
                const E *__restrict ak = a + (k0 + q) * ld;
                for (int i = k0; i < k0 + q; ++i) aj[i] += t[q] * ak[i];
                aj[k0 + q] = t[q] * ak[k0 + q];
            }
        }
        for (int k = k0; k < j; ++k) {
            const E t = aj[k];
            const E *__restrict ak = a + k * ld;
            for (int i = 0; i < k; ++i) aj[i] += t * ak[i];
            aj[k] = t * ak[k];
        }
        for (int i = 0; i < j; ++i) aj[i] = aj[i] * ajj;
    }
    // Solve inv(A) * L = inv(U) for inv(A), from the last column to the first.
    for (int j = n - 2; j >= 0; --j) {
        E *__restrict aj = a + j * ld;
        for (int i = j + 1; i < n; ++i) {
            work[i] = aj[i];
            aj[i] = E{};
        }
        int k = j + 1;
        for (; k + NB <= n; k += NB) subtract_products<NB>(aj, a + k * ld, ld, work + k, 0, n);
        for (; k < n; ++k) {
            const E w = work[k];
            const E *__restrict ak = a + k * ld;
            for (int i = 0; i < n; ++i) aj[i] -= ak[i] * w;
        }
    }
}

// inv(A) of one matrix from its factors, in place: the interchanges of ipiv (1-based, nullptr: none) undone as
// column interchanges in reverse order. Entries outside 1..n are ignored so that a bad pivot vector cannot
// write out of bounds. The caller has checked that U has no zero on its diagonal.
template <class T, class Size, class Ld>
inline void lu_inverse(Size size, Ld ld_, T *__restrict a, const int *__restrict ipiv, T *__restrict work) {
    const int n = size;
    const long ld = (int)ld_;
    lu_inverse_unpermuted(size, ld_, a, work);
    if (ipiv == nullptr) return;
    for (int j = n - 2; j >= 0; --j) {
        const int jp = ipiv[j] - 1;
        if (jp != j && jp >= 0 && jp < n)
            for (int i = 0; i < n; ++i) std::swap(a[i + j * ld], a[i + jp * ld]);
    }
}

// The same for W matrices in lanes; piv[k*W + w] (nullptr: none).
template <class T, int W, class Size, class Ld>
inline void lu_inverse_lanes(Size size, Ld ld_, lanes_of<T, W> *__restrict a, const int *__restrict piv,
                             lanes_of<T, W> *__restrict work) {
    const int n = size;
    const long ld = (int)ld_;
    lu_inverse_unpermuted(size, ld_, a, work);
    if (piv == nullptr) return;
    for (int j = n - 2; j >= 0; --j)
        for (int w = 0; w < W; ++w) {
            const int jp = piv[j * W + w] - 1;
            if (jp != j && jp >= 0 && jp < n)
                for (int i = 0; i < n; ++i) swap_lane(a[i + j * ld], a[i + jp * ld], w);
        }
}

// Solves op(A) x = b for one right-hand side x (overwritten) from the LU factors, without the interchanges
// (the caller applies them before for op = N, after for T and C), as xGETRS's triangular solves.
template <class E, class Size, class Ld>
inline void lu_solve_unpermuted(Size size, Ld ld_, const E *__restrict a, smallla_operation_t trans, E *__restrict x) {
    const int n = size;
    const long ld = (int)ld_;
    if (trans == SMALLLA_OP_N) {
        for (int k = 0; k < n; ++k) {  // L y = P b, L unit lower
            const E xk = x[k];
            const E *__restrict ak = a + k * ld;
            for (int i = k + 1; i < n; ++i) x[i] -= xk * ak[i];
        }
        for (int k = n - 1; k >= 0; --k) {  // U x = y
            const E *__restrict ak = a + k * ld;
            x[k] = x[k] / ak[k];
            const E xk = x[k];
            for (int i = 0; i < k; ++i) x[i] -= xk * ak[i];
        }
        return;
    }
    const bool conjugate = trans == SMALLLA_OP_C;
    for (int k = 0; k < n; ++k) {  // op(U) y = b: row k of op(U) is column k of U
        const E *__restrict ak = a + k * ld;
        E t = x[k];
        for (int i = 0; i < k; ++i) t -= conj_if(ak[i], conjugate) * x[i];
        x[k] = t / conj_if(ak[k], conjugate);
    }
    for (int k = n - 1; k >= 0; --k) {  // op(L) z = y, L unit lower
        const E *__restrict ak = a + k * ld;
        E t = x[k];
        for (int i = k + 1; i < n; ++i) t -= conj_if(ak[i], conjugate) * x[i];
        x[k] = t;
    }
}

// lu_solve_unpermuted for M real matrices at once (in place, each its own factors a[m] and right-hand side x[m]),
// block_width columns of op(A) at a time: x[i] is loaded and stored once a block and takes the block's products in the
// unblocked order (column k before k + 1 for op = N; i ascending in each of block_width independent sums for the solve
// with U^T), so the roundings are the unblocked loops'. The M matrices' steps alternate, so that one matrix's chain of
// dependent steps (a division, then a product and a difference a column) overlaps another's. The solve with L^T stays
// unblocked: its sums run i ascending from the row just solved, a chain no block can start early.
template <int M, class T, class Size, class Ld>
inline void lu_solve_unpermuted_blocked(Size size, Ld ld_, const T *const (&a)[M], smallla_operation_t trans,
                                        T *const (&x)[M]) {
    static_assert(!scalar_traits<T>::is_complex, "real matrices only: op = T and op = C are one solve");
    constexpr int NB = block_width;
    const int n = size;
    const long ld = (int)ld_;
    if (trans == SMALLLA_OP_N) {
        int k = 0;
        for (; k + NB <= n; k += NB) {  // L y = P b, L unit lower: the block's triangle, then the rows below it
            for (int q = 0; q < NB; ++q)
                for (int m = 0; m < M; ++m) {
                    const T xk = x[m][k + q];
                    const T *__restrict ak = a[m] + (k + q) * ld;
                    for (int i = k + q + 1; i < k + NB; ++i) x[m][i] -= xk * ak[i];
                }
            for (int m = 0; m < M; ++m) subtract_products<NB>(x[m], a[m] + k * ld, ld, x[m] + k, k + NB, n);
        }
        for (; k < n; ++k)
            for (int m = 0; m < M; ++m) {
                const T xk = x[m][k];
                const T *__restrict ak = a[m] + k * ld;
                for (int i = k + 1; i < n; ++i) x[m][i] -= xk * ak[i];
            }
        k = n - 1;
        for (; k + 1 >= NB; k -= NB) {  // U x = y: columns k, k - 1, ..., k - NB + 1
            T xs[M][NB];
            for (int q = 0; q < NB; ++q)
                for (int m = 0; m < M; ++m) {
                    const T *__restrict ak = a[m] + (k - q) * ld;
                    x[m][k - q] = x[m][k - q] / ak[k - q];
                    xs[m][q] = x[m][k - q];
                    for (int i = k - NB + 1; i < k - q; ++i) x[m][i] -= xs[m][q] * ak[i];
                }
            for (int m = 0; m < M; ++m) subtract_products<NB>(x[m], a[m] + k * ld, -ld, xs[m], 0, k - NB + 1);
        }
        for (; k >= 0; --k)
            for (int m = 0; m < M; ++m) {
                const T *__restrict ak = a[m] + k * ld;
                x[m][k] = x[m][k] / ak[k];
                const T xk = x[m][k];
                for (int i = 0; i < k; ++i) x[m][i] -= xk * ak[i];
            }
        return;
    }
    int k = 0;
    for (; k + NB <= n; k += NB) {  // op(U) y = b: rows k .. k + NB - 1 of op(U) are columns of U
        T t[M][NB];
        for (int m = 0; m < M; ++m)
            for (int q = 0; q < NB; ++q) t[m][q] = x[m][k + q];
        for (int i = 0; i < k; ++i)
            for (int m = 0; m < M; ++m) {
                const T xi = x[m][i];
                for (int q = 0; q < NB; ++q) t[m][q] -= a[m][i + (k + q) * ld] * xi;
            }
        for (int q = 0; q < NB; ++q)
            for (int m = 0; m < M; ++m) {
                const T *__restrict ak = a[m] + (k + q) * ld;
                for (int i = k; i < k + q; ++i) t[m][q] -= ak[i] * x[m][i];
                x[m][k + q] = t[m][q] / ak[k + q];
            }
    }
    for (; k < n; ++k)
        for (int m = 0; m < M; ++m) {
            const T *__restrict ak = a[m] + k * ld;
            T t = x[m][k];
            for (int i = 0; i < k; ++i) t -= ak[i] * x[m][i];
            x[m][k] = t / ak[k];
        }
    for (k = n - 1; k >= 0; --k)  // op(L) z = y, L unit lower
        for (int m = 0; m < M; ++m) {
            const T *__restrict ak = a[m] + k * ld;
            T t = x[m][k];
            for (int i = k + 1; i < n; ++i) t -= ak[i] * x[m][i];
            x[m][k] = t;
        }
}

// xGETRS's interchanges of one right-hand side x: forward (before the solve with A) or backward (after the solve
// with A^T or A^H); ipiv 1-based or nullptr, out-of-range entries ignored.
template <class T> inline void interchange_rows(int n, const int *ipiv, T *x, bool forward) {
    if (ipiv == nullptr) return;
    for (int s = 0; s < n; ++s) {
        const int k = forward ? s : n - 1 - s, p = ipiv[k] - 1;
        if (p != k && p >= 0 && p < n) std::swap(x[k], x[p]);
    }
}

// Solve for M real matrices (each with one right-hand side, lu_solve_unpermuted_blocked) or one (M = 1); ipiv[m]
// 1-based or nullptr, out-of-range entries ignored.
template <int M, class T, class Size, class Ld>
inline void lu_solve(Size size, Ld ld_, const T *const (&a)[M], const int *const (&ipiv)[M], smallla_operation_t trans,
                     T *const (&x)[M]) {
    const int n = size;
    auto interchanges = [&](bool forward) {
        for (int m = 0; m < M; ++m) interchange_rows(n, ipiv[m], x[m], forward);
    };
    if (trans == SMALLLA_OP_N) interchanges(true);
    if constexpr (scalar_traits<T>::is_complex) {  // complex: unblocked, one matrix (blocks were not faster)
        static_assert(M == 1, "complex solves run one matrix at a time");
        lu_solve_unpermuted(size, ld_, a[0], trans, x[0]);
    } else {
        lu_solve_unpermuted_blocked<M>(size, ld_, a, trans, x);
    }
    if (trans != SMALLLA_OP_N) interchanges(false);
}
template <class T, class Size, class Ld>
inline void lu_solve(Size size, Ld ld_, const T *a, const int *ipiv, smallla_operation_t trans, T *x) {
    const T *const as[1] = {a};
    const int *const ps[1] = {ipiv};
    T *const xs[1] = {x};
    lu_solve<1>(size, ld_, as, ps, trans, xs);
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
