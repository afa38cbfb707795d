// The Eigen anchor of smallla-bench-host (see eigen_anchor.hpp). Compiled once per precision, with
// SMALLLA_BENCH_EIGEN_PRECISION one of 1 (float), 2 (double), 3 (complex float), 4 (complex double).
#include "eigen_anchor.hpp"

#include <Eigen/Dense>
#include <omp.h>

#include <utility>
#include <vector>

#if SMALLLA_BENCH_EIGEN_PRECISION == 1
using scalar = float;
#elif SMALLLA_BENCH_EIGEN_PRECISION == 2
using scalar = double;
#elif SMALLLA_BENCH_EIGEN_PRECISION == 3
using scalar = std::complex<float>;
#elif SMALLLA_BENCH_EIGEN_PRECISION == 4
using scalar = std::complex<double>;
#else
#error "SMALLLA_BENCH_EIGEN_PRECISION must be 1, 2, 3 or 4"
#endif

namespace bench {
namespace {

template <class F> void for_each_matrix(int batch, bool parallel, F &&f) {
#pragma omp parallel for schedule(static) if (parallel)
    for (int b = 0; b < batch; ++b) f(b);
}

// N: the fixed order (one of eigen_fixed_orders) or Eigen::Dynamic.
template <class T, int N> class eigen_lu_n final : public eigen_lu<T> {
    using mat = Eigen::Matrix<T, N, N>;
    using vec = Eigen::Matrix<T, N, 1>;
    using lu_t = Eigen::PartialPivLU<mat>;

    int n_, batch_;
    std::vector<lu_t> lu_;  // one per matrix: getrf's output, getri's and getrs's input

    size_t elems() const { return (size_t)n_ * n_; }
    Eigen::Map<const mat> in(const T *A, int b) const { return Eigen::Map<const mat>(A + b * elems(), n_, n_); }
    Eigen::Map<mat> out(T *C, int b) const { return Eigen::Map<mat>(C + b * elems(), n_, n_); }

public:
    eigen_lu_n(int n, int batch) : n_(n), batch_(batch), lu_((size_t)batch, lu_t(n)) {}

    void getrf(const T *A, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) { lu_[b].compute(in(A, b)); });
    }
    void getri(T *C, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) { out(C, b) = lu_[b].inverse(); });
    }
    void matinv(const T *A, T *C, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) {
            const lu_t lu(in(A, b));
            out(C, b) = lu.inverse();
        });
    }
    void getrs(const T *B, T *X, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) {
            Eigen::Map<vec>(X + (size_t)b * n_, n_) = lu_[b].solve(Eigen::Map<const vec>(B + (size_t)b * n_, n_));
        });
    }
    void factors(int b, T *LU, int *rows) const override {
        Eigen::Map<mat>(LU, n_, n_) = lu_[b].matrixLU();
        // P A = L U; P applied to (0, 1, ..., n-1) gives, at position i, the row of A that P A holds there.
        const Eigen::VectorXi order = lu_[b].permutationP() * Eigen::VectorXi::LinSpaced(n_, 0, n_ - 1);
        for (int i = 0; i < n_; ++i) rows[i] = order[i];
    }
};

template <class T, int N> class eigen_llt_n final : public eigen_llt<T> {
    using mat = Eigen::Matrix<T, N, N>;
    using vec = Eigen::Matrix<T, N, 1>;
    using llt_t = Eigen::LLT<mat, Eigen::Lower>;

    int n_, batch_;
    std::vector<llt_t> llt_;

    size_t elems() const { return (size_t)n_ * n_; }
    Eigen::Map<const mat> in(const T *A, int b) const { return Eigen::Map<const mat>(A + b * elems(), n_, n_); }

public:
    eigen_llt_n(int n, int batch) : n_(n), batch_(batch), llt_((size_t)batch, llt_t(n)) {}

    void potrf(const T *A, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) { llt_[b].compute(in(A, b)); });
    }
    void posv(const T *A, T *X, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) {
            const llt_t llt(in(A, b));
            Eigen::Map<vec> x(X + (size_t)b * n_, n_);
            x = llt.solve(x);
        });
    }
    void poinv(const T *A, T *C, bool parallel) override {
        for_each_matrix(batch_, parallel, [&](int b) {
            const llt_t llt(in(A, b));
            Eigen::Map<mat>(C + b * elems(), n_, n_) = llt.solve(mat::Identity(n_, n_));
        });
    }
};

template <class Base, template <class, int> class Fixed, class T, int... M>
std::unique_ptr<Base> make_fixed(int n, int batch, std::integer_sequence<int, M...>) {
    std::unique_ptr<Base> made;
    ((n == M ? (void)(made = std::make_unique<Fixed<T, M>>(n, batch)) : (void)0), ...);
    return made;
}

}  // namespace

template <class T> std::unique_ptr<eigen_lu<T>> make_eigen_lu(int n, int batch) {
    if (std::unique_ptr<eigen_lu<T>> fixed = make_fixed<eigen_lu<T>, eigen_lu_n, T>(n, batch, eigen_fixed_orders{}))
        return fixed;
    return std::make_unique<eigen_lu_n<T, Eigen::Dynamic>>(n, batch);
}

template <class T> std::unique_ptr<eigen_llt<T>> make_eigen_llt(int n, int batch) {
    if (std::unique_ptr<eigen_llt<T>> fixed = make_fixed<eigen_llt<T>, eigen_llt_n, T>(n, batch, eigen_fixed_orders{}))
        return fixed;
    return std::make_unique<eigen_llt_n<T, Eigen::Dynamic>>(n, batch);
}

template std::unique_ptr<eigen_lu<scalar>> make_eigen_lu<scalar>(int n, int batch);
template std::unique_ptr<eigen_llt<scalar>> make_eigen_llt<scalar>(int n, int batch);

}  // namespace bench
