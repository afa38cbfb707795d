// The host kernels' baseline forms at compile-time orders: lanes of 16 bytes (LU to 16, Cholesky to 32) and loops of
// fixed length (LU 17-32). An aarch64 build runs them, and so does a host-only x86-64 build on a CPU without AVX2; the
// CUDA build leaves them out of the library (SMALLLA_HOST_BASELINE_KERNELS), so CI would not reach them through the
// suites. Here, compiled like the library's baseline copy, each is held to the form of any order, which the suites
// hold to LAPACK: the same pivots and info, results equal to a small multiple of n eps.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "host/chol_batch.hpp"
#include "host/lu_batch.hpp"

using namespace smallla;
using namespace smallla::host_kernels;

namespace {

int failures = 0;
constexpr int batch = 37;  // full groups of lanes and a partial one

template <class T> double magnitude(const T &x) { return std::abs(x); }
template <class R> double magnitude(const complex<R> &x) { return std::hypot((double)x.re, (double)x.im); }
template <class T> auto magnitude_type(T) { return T{}; }
template <class R> auto magnitude_type(complex<R>) { return R{}; }
template <class T> double eps() { return std::is_same_v<T, float> || std::is_same_v<T, complex<float>> ? 1.2e-7 : 2.3e-16; }

template <class T> T random_entry(std::mt19937 &g) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return T(u(g));
    else return T{decltype(T{}.re)(u(g)), decltype(T{}.re)(u(g))};
}
template <class T> std::vector<T> random_matrices(int rows, int cols, std::mt19937 &g) {
    std::vector<T> m((size_t)rows * cols * batch);
    for (T &x : m) x = random_entry<T>(g);
    return m;
}
// Hermitian positive definite: B B^H + n I, both triangles.
template <class T> std::vector<T> spd_matrices(int n, std::mt19937 &g) {
    const std::vector<T> b = random_matrices<T>(n, n, g);
    std::vector<T> a((size_t)n * n * batch);
    for (int m = 0; m < batch; ++m)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                T s = T(decltype(magnitude_type(T{}))(i == j ? n : 0));
                for (int k = 0; k < n; ++k) s = s + b[(size_t)m * n * n + i + k * n] * conj(b[(size_t)m * n * n + j + k * n]);
                a[(size_t)m * n * n + i + j * n] = s;
            }
    return a;
}

template <class T> either_batch<T> view(std::vector<T> &m, int ld, long long stride) { return {m.data(), nullptr, ld, stride}; }
template <class T> either_batch<const T> cview(const std::vector<T> &m, int ld, long long stride) {
    return {m.data(), nullptr, ld, stride};
}

// Results of the two forms agree to tol n eps relative to the largest entry of the reference.
template <class T>
void expect_close(const char *what, char p, int n, const std::vector<T> &got, const std::vector<T> &want, double tol) {
    double worst = 0, largest = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, magnitude(got[i] - want[i]));
        largest = std::max(largest, magnitude(want[i]));
    }
    const double rel = worst / std::max(largest, 1e-300);
    if (!(rel <= tol * n * eps<T>())) {
        std::printf("FAIL %s %c n=%d: largest difference %.3g of the largest entry (%.1f n eps)\n", what, p, n, rel,
                    rel / (n * eps<T>()));
        ++failures;
    }
}
template <class I> void expect_equal(const char *what, char p, int n, const std::vector<I> &got, const std::vector<I> &want) {
    if (got != want) {
        std::printf("FAIL %s %c n=%d: differs from the form of any order\n", what, p, n);
        ++failures;
    }
}

// Runs a call in the tested form on side 0's buffers and in the form of any order on side 1's (the reference):
// run(form, side).
template <class Size, class Run> void both_forms(Size size, Run &&run) {
    run(size, 0);
    run(any_n{(int)size}, 1);
}
template <class T> using pair_of = std::vector<T>[2];

// getrf (with and without pivoting), getri, matinv and getrs in the form Size against any_n.
template <class T, class Size> void lu_forms(Size size, std::mt19937 &g) {
    constexpr char p = scalar_traits<T>::letter;
    const int n = size, nn = n * n, nrhs = 3;
    const std::vector<T> a = random_matrices<T>(n, n, g);
    pair_of<int> piv = {std::vector<int>((size_t)n * batch), std::vector<int>((size_t)n * batch)};
    pair_of<int> info = {std::vector<int>(batch), std::vector<int>(batch)};
    pair_of<T> f = {a, a};
    both_forms(size, [&](auto form, int s) {
        getrf_batch<true, T>(form, view(f[s], n, nn), pivot_batch<int>{piv[s].data(), n}, info[s].data(), batch);
    });
    expect_equal("getrf ipiv", p, n, piv[0], piv[1]);
    expect_equal("getrf info", p, n, info[0], info[1]);
    expect_close("getrf factors", p, n, f[0], f[1], 16);
    pair_of<T> u = {a, a};
    both_forms(size, [&](auto form, int s) {
        getrf_batch<false, T>(form, view(u[s], n, nn), pivot_batch<int>{nullptr, 0}, info[s].data(), batch);
    });
    expect_equal("getrf_nopiv info", p, n, info[0], info[1]);
    expect_close("getrf_nopiv factors", p, n, u[0], u[1], 1e3);  // no pivoting: element growth
    // getri, matinv and getrs from the reference's factors and pivots
    const std::vector<T> &factors = f[1];
    const pivot_batch<const int> P{piv[1].data(), n};
    pair_of<T> c = {std::vector<T>((size_t)nn * batch), std::vector<T>((size_t)nn * batch)};
    both_forms(size, [&](auto form, int s) {
        getri_batch<T>(form, cview(factors, n, nn), P, view(c[s], n, nn), info[s].data(), batch);
    });
    expect_equal("getri info", p, n, info[0], info[1]);
    expect_close("getri inverse", p, n, c[0], c[1], 1e3);
    pair_of<T> m = {c[1], c[1]};
    both_forms(size, [&](auto form, int s) { matinv_batch<T>(form, cview(a, n, nn), view(m[s], n, nn), info[s].data(), batch); });
    expect_equal("matinv info", p, n, info[0], info[1]);
    expect_close("matinv inverse", p, n, m[0], m[1], 1e3);
    const std::vector<T> b = random_matrices<T>(n, nrhs, g);
    for (smallla_operation_t op : {SMALLLA_OP_N, SMALLLA_OP_T, SMALLLA_OP_C}) {
        pair_of<T> x = {b, b};
        both_forms(size, [&](auto form, int s) {
            getrs_batch<T>(form, op, nrhs, cview(factors, n, nn), P, view(x[s], n, (long long)n * nrhs), batch);
        });
        expect_close("getrs solution", p, n, x[0], x[1], 1e3);
    }
}

// potrf, potri, posv, potrs and poinv, lower and upper, in the lanes form against any_n.
template <class T, int N> void chol_forms(std::mt19937 &g) {
    constexpr char p = scalar_traits<T>::letter;
    const int n = N, nn = n * n, nrhs = 2;
    const long long bs = (long long)n * nrhs;
    const std::vector<T> a = spd_matrices<T>(n, g), b = random_matrices<T>(n, nrhs, g);
    for (smallla_fill_t uplo : {SMALLLA_FILL_LOWER, SMALLLA_FILL_UPPER}) {
        pair_of<int> info = {std::vector<int>(batch), std::vector<int>(batch)};
        pair_of<T> f = {a, a};
        both_forms(lanes_n<N>{}, [&](auto form, int s) {
            chol_batch_call<routine::potrf, T>(form, potrf_args<T>{uplo, n, {f[s].data(), nullptr, n, nn}, info[s].data(), batch});
        });
        expect_equal("potrf info", p, n, info[0], info[1]);
        expect_close("potrf factor", p, n, f[0], f[1], 16);
        const std::vector<T> &factor = f[1];
        pair_of<T> x = {b, b};
        both_forms(lanes_n<N>{}, [&](auto form, int s) {
            chol_batch_call<routine::potrs, T>(form, potrs_args<T>{uplo, n, nrhs, {factor.data(), nullptr, n, nn},
                                                                   {x[s].data(), nullptr, n, bs}, batch});
        });
        expect_close("potrs solution", p, n, x[0], x[1], 64);
        pair_of<T> i = {factor, factor};
        both_forms(lanes_n<N>{}, [&](auto form, int s) {
            chol_batch_call<routine::potri, T>(form, potrf_args<T>{uplo, n, {i[s].data(), nullptr, n, nn}, info[s].data(), batch});
        });
        expect_equal("potri info", p, n, info[0], info[1]);
        expect_close("potri inverse", p, n, i[0], i[1], 64);
        pair_of<T> v = {a, a}, y = {b, b};
        both_forms(lanes_n<N>{}, [&](auto form, int s) {
            chol_batch_call<routine::posv, T>(form, posv_args<T>{uplo, n, nrhs, {v[s].data(), nullptr, n, nn},
                                                                 {y[s].data(), nullptr, n, bs}, info[s].data(), batch});
        });
        expect_equal("posv info", p, n, info[0], info[1]);
        expect_close("posv solution", p, n, y[0], y[1], 64);
        pair_of<T> w = {std::vector<T>((size_t)nn * batch), std::vector<T>((size_t)nn * batch)};
        both_forms(lanes_n<N>{}, [&](auto form, int s) {
            chol_batch_call<routine::poinv, T>(form, poinv_args<T>{uplo, n, {a.data(), nullptr, n, nn},
                                                                   {w[s].data(), nullptr, n, nn}, info[s].data(), batch});
        });
        expect_equal("poinv info", p, n, info[0], info[1]);
        expect_close("poinv inverse", p, n, w[0], w[1], 64);
    }
}

template <class T> void precision(std::mt19937 &g) {
    lu_forms<T>(lanes_n<2>{}, g);
    lu_forms<T>(lanes_n<5>{}, g);
    lu_forms<T>(lanes_n<16>{}, g);
    lu_forms<T>(fixed_n<17>{}, g);
    lu_forms<T>(fixed_n<32>{}, g);
    chol_forms<T, 3>(g);
    chol_forms<T, 16>(g);
    chol_forms<T, 32>(g);
}

}  // namespace

int main() {
    std::mt19937 g(2026);
    precision<float>(g);
    precision<double>(g);
    precision<complex<float>>(g);
    precision<complex<double>>(g);
    if (failures == 0) std::printf("PASSED: the baseline's lanes and fixed forms agree with the form of any order\n");
    return failures == 0 ? 0 : 1;
}
