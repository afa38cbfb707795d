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

// getrf (with and without pivoting), getri, matinv and getrs in the form Size against any_n.
template <class T, class Size> void lu_forms(Size size, std::mt19937 &g) {
    constexpr char p = scalar_traits<T>::letter;
    const int n = size, nn = n * n, nrhs = 3;
    const std::vector<T> a = random_matrices<T>(n, n, g);
    // getrf
    std::vector<T> f = a, f_ref = a;
    std::vector<int> piv((size_t)n * batch), piv_ref = piv, info(batch), info_ref(batch);
    getrf_batch<true, T>(size, view(f, n, nn), pivot_batch<int>{piv.data(), n}, info.data(), batch);
    getrf_batch<true, T>(any_n{n}, view(f_ref, n, nn), pivot_batch<int>{piv_ref.data(), n}, info_ref.data(), batch);
    expect_equal("getrf ipiv", p, n, piv, piv_ref);
    expect_equal("getrf info", p, n, info, info_ref);
    expect_close("getrf factors", p, n, f, f_ref, 16);
    std::vector<T> u = a, u_ref = a;
    getrf_batch<false, T>(size, view(u, n, nn), pivot_batch<int>{nullptr, 0}, info.data(), batch);
    getrf_batch<false, T>(any_n{n}, view(u_ref, n, nn), pivot_batch<int>{nullptr, 0}, info_ref.data(), batch);
    expect_equal("getrf_nopiv info", p, n, info, info_ref);
    expect_close("getrf_nopiv factors", p, n, u, u_ref, 1e3);  // no pivoting: element growth
    // getri from the same factors
    std::vector<T> c((size_t)nn * batch), c_ref = c;
    const pivot_batch<const int> P{piv_ref.data(), n};
    getri_batch<T>(size, cview(f_ref, n, nn), P, view(c, n, nn), info.data(), batch);
    getri_batch<T>(any_n{n}, cview(f_ref, n, nn), P, view(c_ref, n, nn), info_ref.data(), batch);
    expect_equal("getri info", p, n, info, info_ref);
    expect_close("getri inverse", p, n, c, c_ref, 1e3);
    // matinv
    std::vector<T> m = c, m_ref = c;
    matinv_batch<T>(size, cview(a, n, nn), view(m, n, nn), info.data(), batch);
    matinv_batch<T>(any_n{n}, cview(a, n, nn), view(m_ref, n, nn), info_ref.data(), batch);
    expect_equal("matinv info", p, n, info, info_ref);
    expect_close("matinv inverse", p, n, m, m_ref, 1e3);
    // getrs, each operation
    const std::vector<T> b = random_matrices<T>(n, nrhs, g);
    for (smallla_operation_t op : {SMALLLA_OP_N, SMALLLA_OP_T, SMALLLA_OP_C}) {
        std::vector<T> x = b, x_ref = b;
        getrs_batch<T>(size, op, nrhs, cview(f_ref, n, nn), P, view(x, n, (long long)n * nrhs), batch);
        getrs_batch<T>(any_n{n}, op, nrhs, cview(f_ref, n, nn), P, view(x_ref, n, (long long)n * nrhs), batch);
        expect_close("getrs solution", p, n, x, x_ref, 1e3);
    }
}

// potrf, potri, posv, potrs and poinv, lower and upper, in the lanes form against any_n.
template <class T, int N> void chol_forms(std::mt19937 &g) {
    constexpr char p = scalar_traits<T>::letter;
    const int n = N, nn = n * n, nrhs = 2;
    const std::vector<T> a = spd_matrices<T>(n, g), b = random_matrices<T>(n, nrhs, g);
    for (smallla_fill_t uplo : {SMALLLA_FILL_LOWER, SMALLLA_FILL_UPPER}) {
        std::vector<int> info(batch), info_ref(batch);
        std::vector<T> f = a, f_ref = a;
        potrf_args<T> pa{uplo, n, {f.data(), nullptr, n, nn}, info.data(), batch};
        potrf_args<T> pr{uplo, n, {f_ref.data(), nullptr, n, nn}, info_ref.data(), batch};
        chol_batch_call<routine::potrf, T>(lanes_n<N>{}, pa);
        chol_batch_call<routine::potrf, T>(any_n{n}, pr);
        expect_equal("potrf info", p, n, info, info_ref);
        expect_close("potrf factor", p, n, f, f_ref, 16);
        std::vector<T> x = b, x_ref = b;
        potrs_args<T> sa{uplo, n, nrhs, {f_ref.data(), nullptr, n, nn}, {x.data(), nullptr, n, (long long)n * nrhs}, batch};
        potrs_args<T> sr{uplo, n, nrhs, {f_ref.data(), nullptr, n, nn}, {x_ref.data(), nullptr, n, (long long)n * nrhs}, batch};
        chol_batch_call<routine::potrs, T>(lanes_n<N>{}, sa);
        chol_batch_call<routine::potrs, T>(any_n{n}, sr);
        expect_close("potrs solution", p, n, x, x_ref, 64);
        std::vector<T> i = f_ref, i_ref = f_ref;
        potrf_args<T> ia{uplo, n, {i.data(), nullptr, n, nn}, info.data(), batch};
        potrf_args<T> ir{uplo, n, {i_ref.data(), nullptr, n, nn}, info_ref.data(), batch};
        chol_batch_call<routine::potri, T>(lanes_n<N>{}, ia);
        chol_batch_call<routine::potri, T>(any_n{n}, ir);
        expect_equal("potri info", p, n, info, info_ref);
        expect_close("potri inverse", p, n, i, i_ref, 64);
        std::vector<T> v = a, v_ref = a, y = b, y_ref = b;
        posv_args<T> va{uplo, n, nrhs, {v.data(), nullptr, n, nn}, {y.data(), nullptr, n, (long long)n * nrhs}, info.data(), batch};
        posv_args<T> vr{uplo, n, nrhs, {v_ref.data(), nullptr, n, nn}, {y_ref.data(), nullptr, n, (long long)n * nrhs},
                        info_ref.data(), batch};
        chol_batch_call<routine::posv, T>(lanes_n<N>{}, va);
        chol_batch_call<routine::posv, T>(any_n{n}, vr);
        expect_equal("posv info", p, n, info, info_ref);
        expect_close("posv solution", p, n, y, y_ref, 64);
        std::vector<T> w((size_t)nn * batch), w_ref = w;
        poinv_args<T> wa{uplo, n, {a.data(), nullptr, n, nn}, {w.data(), nullptr, n, nn}, info.data(), batch};
        poinv_args<T> wr{uplo, n, {a.data(), nullptr, n, nn}, {w_ref.data(), nullptr, n, nn}, info_ref.data(), batch};
        chol_batch_call<routine::poinv, T>(lanes_n<N>{}, wa);
        chol_batch_call<routine::poinv, T>(any_n{n}, wr);
        expect_equal("poinv info", p, n, info, info_ref);
        expect_close("poinv inverse", p, n, w, w_ref, 64);
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
