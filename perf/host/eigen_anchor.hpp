// The Eigen anchor of smallla-bench-host: Eigen's PartialPivLU (and LLT, for the Cholesky family) over a batch of
// n x n column-major matrices, as a C++ user writes it for small matrices: the fixed-size Matrix<T, N, N> at the host
// table's orders (2-4, 6, 8, 12-32 by 4: eigen_fixed_order), the dynamic MatrixX at every other order. Declared here
// without Eigen's headers; eigen_anchor.cpp is compiled once per precision and defines make_eigen_lu<T> for its T.
#pragma once

#include <complex>
#include <memory>
#include <utility>

namespace bench {

template <class T> class eigen_lu {
public:
    virtual ~eigen_lu() = default;
    // Each routine is one loop over the batch: an OpenMP loop when parallel, else a plain loop (where each
    // matrix may use Eigen's own OpenMP products, as in --large at batches smaller than the thread count).
    // getrf: lu[b].compute(A_b), kept as getri's and getrs's input (the factors of one PartialPivLU per matrix).
    virtual void getrf(const T *A, bool parallel) = 0;
    // getri: C_b = lu[b].inverse(), the inverse from the factors of the last getrf.
    virtual void getri(T *C, bool parallel) = 0;
    // matinv: C_b = PartialPivLU(A_b).inverse().
    virtual void matinv(const T *A, T *C, bool parallel) = 0;
    // getrs: X_b = lu[b].solve(B_b), one right-hand side per matrix, from the factors of the last getrf.
    virtual void getrs(const T *B, T *X, bool parallel) = 0;
    // Matrix b's factors as LAPACK stores them (L below the unit diagonal, U on and above) and the row order:
    // row i of P A is row rows[i] of A (0-based), for the check against LAPACK's getrf.
    virtual void factors(int b, T *LU, int *rows) const = 0;
};

// Eigen's LLT (lower) over the same batches: the Cholesky family's anchor, fixed-size at the same orders.
template <class T> class eigen_llt {
public:
    virtual ~eigen_llt() = default;
    // potrf: llt[b].compute(A_b), the factor left in the object (A_b is W's matrix b, read only).
    virtual void potrf(const T *A, bool parallel) = 0;
    // posv: X_b = LLT(A_b).solve(X_b), one right-hand side per matrix.
    virtual void posv(const T *A, T *X, bool parallel) = 0;
    // poinv: C_b = LLT(A_b).solve(identity), the full inverse.
    virtual void poinv(const T *A, T *C, bool parallel) = 0;
};

// The anchor for order n (>= 1) and batch matrices. Defined for float, double, std::complex<float> and
// std::complex<double> (one translation unit each).
template <class T> std::unique_ptr<eigen_lu<T>> make_eigen_lu(int n, int batch);
template <class T> std::unique_ptr<eigen_llt<T>> make_eigen_llt(int n, int batch);
// The orders with the fixed-size classes (each costs the build several seconds per precision); elsewhere Eigen's
// dynamic ones, a weaker anchor at small n.
using eigen_fixed_orders = std::integer_sequence<int, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28, 32>;
template <int... M> constexpr bool is_fixed_order(int n, std::integer_sequence<int, M...>) { return ((n == M) || ...); }
constexpr bool eigen_fixed_order(int n) { return is_fixed_order(n, eigen_fixed_orders{}); }

}  // namespace bench
