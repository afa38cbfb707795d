// smallla-check-cuda: a standalone correctness sweep of the CUDA backend against the host backend, through
// the public API only. For every routine, precision and order in the sweep it runs both backends on the
// same inputs (strided with gaps, pointer arrays, and packed strided batches for n <= 16) and checks:
// info equal; ipiv equal (except at a near-tie, reported and counted: the one rule of tests/checker/near_tie.h);
// LAPACK's test ratios below 30, as LAPACK's xGET01, xGET03 and xGET02 define them (ratio functions below);
// every element outside the matrices untouched. getrf runs with and without pivoting, and getri and getrs from
// both kinds of factors. Inputs include random matrices, exact pivot ties, a zero column (info > 0) and NaN.
// Then NULL entries of the pointer arrays (null_entries below): the matrix skipped on both backends, info = -argno.
// At every order also the Cholesky family (chol_sweep below): potrf, posv, potrs, potri, poinv against the host.
// Prints one line per failure and a summary; exit status 0 only when everything passed, 77 when there is no CUDA
// device (skipped). SMALLLA_CHECK_ALL_DEVICES=1 runs the sweep on every device in turn, in one process.
//   usage: smallla-check-cuda [ORDER...]   the sweep (default orders 1-64, 65, 96, 100, 128, 160, 200; NULL
//                                          entries at 3, 20, 40, 100, 300 and 520)
//          smallla-check-cuda --large      instead, the large cases (run_large below: matinv over more than
//                                          2 GiB of matrices, getrs over 200,000 matrices, ~10 GB of host and
//                                          device memory; and orders 300-2100 at batches of 1-3, the vendor
//                                          route), which tests/gpu/run_gpu_suite.sh runs once
// The ratios' residuals are computed column by column in parallel (OpenMP), in long double.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../../tests/checker/near_tie.h"
#include "smallla.h"

namespace {

int failures = 0, checks = 0;
#define CHECK_CUDA(x)                                                                          \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(2);                                                                      \
        }                                                                                      \
    } while (0)

void fail(const std::string &what) {
    ++failures;
    if (failures <= 200) std::printf("FAIL %s\n", what.c_str());
}

// Scalar traits of the public types, computed in long double for the ratios.
template <class C> struct api;
using cld = std::complex<long double>;

// eps(): LAPACK's xLAMCH('Epsilon'), half an ulp of 1 (2^-24, 2^-53), as the test ratios use it.
#define SMALLLA_API_TABLE(x, C, R)                                                                             \
    template <> struct api<C> {                                                                                \
        using real = R;                                                                                        \
        static constexpr const char *name = #x;                                                                \
        static constexpr bool is_complex = sizeof(C) == 2 * sizeof(R);                                          \
        static double eps() { return std::numeric_limits<R>::epsilon() / 2; }                                  \
        static constexpr auto getrf_s = smallla_##x##getrfStridedBatched;                                      \
        static constexpr auto getrf_p = smallla_##x##getrfBatched;                                             \
        static constexpr auto getri_s = smallla_##x##getriStridedBatched;                                      \
        static constexpr auto getri_p = smallla_##x##getriBatched;                                             \
        static constexpr auto matinv_s = smallla_##x##matinvStridedBatched;                                    \
        static constexpr auto matinv_p = smallla_##x##matinvBatched;                                           \
        static constexpr auto getrs_s = smallla_##x##getrsStridedBatched;                                      \
        static constexpr auto getrs_p = smallla_##x##getrsBatched;                                             \
        static constexpr auto potrf_s = smallla_##x##potrfStridedBatched;                                      \
        static constexpr auto potrf_p = smallla_##x##potrfBatched;                                             \
        static constexpr auto posv_s = smallla_##x##posvStridedBatched;                                        \
        static constexpr auto potrs_s = smallla_##x##potrsStridedBatched;                                      \
        static constexpr auto potri_s = smallla_##x##potriStridedBatched;                                      \
        static constexpr auto poinv_s = smallla_##x##poinvStridedBatched;                                      \
        static constexpr auto poinv_p = smallla_##x##poinvBatched;                                             \
    };
SMALLLA_API_TABLE(s, float, float)
SMALLLA_API_TABLE(d, double, double)
SMALLLA_API_TABLE(c, smallla_complex_float, float)
SMALLLA_API_TABLE(z, smallla_complex_double, double)

template <class C> cld to_c(const C &x) {
    if constexpr (api<C>::is_complex) {
        typename api<C>::real v[2];
        std::memcpy(v, &x, sizeof v);
        return {v[0], v[1]};
    } else {
        return {(long double)x, 0.0L};
    }
}
template <class C> C from_parts(double re, double im) {
    C x;
    if constexpr (api<C>::is_complex) {
        typename api<C>::real v[2] = {(typename api<C>::real)re, (typename api<C>::real)im};
        std::memcpy(&x, v, sizeof v);
    } else {
        x = (C)re;
    }
    return x;
}
template <class C> bool same_bits(const C &a, const C &b) { return std::memcmp(&a, &b, sizeof(C)) == 0; }

// Column-major n x n in long double complex.
using mat = std::vector<cld>;
// The larger of best and s, NaN propagating (a NaN column sum must fail a ratio, not vanish from the max).
inline long double max_nan(long double best, long double s) { return s <= best ? best : s; }
long double norm1(const mat &a, int n) {
    long double best = 0;
    for (int j = 0; j < n; ++j) {
        long double s = 0;
        for (int i = 0; i < n; ++i) s += std::abs(a[i + (size_t)j * n]);
        best = max_nan(best, s);
    }
    return best;
}

// A pivot that differs from the host's, first at step k: tests/checker/near_tie.h's rule (the one of every
// smallla test) on the original matrix a with the host's pivots as the reference. A near-tie is reported and
// counted, not failed (the factorization must still pass the ratio); *gap receives the candidates' relative gap.
inline bool near_tie(const mat &a, int n, const int *piv_ref, const int *piv, int k, double eps, double *gap) {
    std::vector<double> w(2 * (size_t)n * n);
    for (size_t e = 0; e < (size_t)n * n; ++e) {
        w[2 * e] = (double)a[e].real();
        w[2 * e + 1] = (double)a[e].imag();
    }
    return chk_near_tie_replay(n, w.data(), piv_ref, piv, k, eps, gap) == 1;
}
int near_ties = 0;

// The inputs of one test: kind 0 random, 1 exact ties in column 0, 2 zero column, 3 NaN entry, 4 diagonally
// dominant (for no pivoting), 5 (n >= 3; random below) a tie at a later step k between two rows that are zero
// left of column k (so no step before k changes them, whatever the rounding): one above position k, which
// earlier swaps displace, and one at or below it, so that LAPACK's first-by-position need not be the first by
// original row. Half the ties are exact; the other half differ below the high 32 bits of a double (exact ties
// in single precision).
template <class C> void make_matrix(std::mt19937 &rng, int n, int kind, C *m, int ld) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) m[i + j * ld] = from_parts<C>(u(rng), api<C>::is_complex ? u(rng) : 0.0);
    if (kind == 1)
        for (int i = 0; i < n; ++i) m[i] = from_parts<C>(i % 2 ? -0.5 : 0.5, 0.0);  // all |a(i,0)| equal
    if (kind == 2) {
        const int z = n / 2;
        for (int i = 0; i < n; ++i) m[i + z * ld] = from_parts<C>(0.0, 0.0);
    }
    if (kind == 3) m[(n - 1) / 2 + ((n - 1) / 3) * ld] = from_parts<C>(NAN, 0.0);
    if (kind == 4)
        for (int i = 0; i < n; ++i) m[i + i * ld] = from_parts<C>(2.0 * n, 0.0);
    if (kind == 5 && n >= 3) {
        const int k = 1 + (int)(rng() % (n - 2)), r1 = (int)(rng() % k), r2 = k + (int)(rng() % (n - k));
        for (int j = 0; j < k; ++j) m[r1 + j * ld] = m[r2 + j * ld] = from_parts<C>(0.0, 0.0);
        const double big = 1024.0, other = big * (rng() % 2 ? 1.0 : 1.0 + 0x1p-30);
        const auto place = [&](int r, double v) {
            const double sv = rng() % 2 ? v : -v;
            m[r + k * ld] = api<C>::is_complex && rng() % 2 ? from_parts<C>(0.0, sv) : from_parts<C>(sv, 0.0);
        };
        place(r1, big);
        place(r2, other);
    }
}

template <class C> struct device_buf {
    C *p = nullptr;
    size_t count = 0;
    explicit device_buf(size_t c) : count(c) { CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(1, c) * sizeof(C))); }
    ~device_buf() { cudaFree(p); }
    void put(const std::vector<C> &h) { CHECK_CUDA(cudaMemcpy(p, h.data(), count * sizeof(C), cudaMemcpyHostToDevice)); }
    std::vector<C> get() const {
        std::vector<C> h(count);
        CHECK_CUDA(cudaMemcpy(h.data(), p, count * sizeof(C), cudaMemcpyDeviceToHost));
        return h;
    }
};

template <class C> std::vector<C *> device_pointer_array(C *base, long long stride, int batch) {
    std::vector<C *> v(batch);
    for (int b = 0; b < batch; ++b) v[b] = base + b * stride;
    return v;
}

// Extract matrix b of a strided buffer into long double.
template <class C> mat extract(const std::vector<C> &buf, long long off, int n, int ld) {
    mat m(n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) m[i + j * n] = to_c(buf[off + i + (long long)j * ld]);
    return m;
}

// LAPACK's test ratios, computed in long double; the norms as LAPACK's: xLANGE (moduli) for matrices, xASUM
// (|Re| + |Im| for complex types) for the columns of xGET02.
inline long double abs1(const cld &z) { return std::fabs(z.real()) + std::fabs(z.imag()); }
// The residuals' entries are dot products accumulated in long double over operands held as doubles (exact: the
// public types are float and double), both contiguous: dense_of copies the left factor by rows and the right one by
// columns. Real arithmetic when every imaginary part is zero (the real types; the same sums), else complex: w = 1 or
// 2 doubles per entry.
struct dense {
    int n = 0, w = 1;
    std::vector<double> v;
    const double *line(int j) const { return v.data() + (size_t)j * n * w; }  // a column (or row) j
};
bool real_only(const mat &a) {
    for (const cld &x : a)
        if (x.imag() != 0) return false;
    return true;
}
dense dense_of(const mat &a, int n, int w, bool rows) {
    dense d;
    d.n = n;
    d.w = w;
    d.v.resize((size_t)n * n * w);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const cld x = a[i + (size_t)j * n];
            double *e = d.v.data() + (rows ? j + (size_t)i * n : i + (size_t)j * n) * w;
            e[0] = (double)x.real();
            if (w == 2) e[1] = (double)x.imag();
        }
    return d;
}
// sum over k < m of x[k] y[k].
inline cld dot(const double *x, const double *y, int m, int w) {
    if (w == 1) {
        long double s0 = 0, s1 = 0;
        int k = 0;
        for (; k + 1 < m; k += 2) {
            s0 += (long double)x[k] * y[k];
            s1 += (long double)x[k + 1] * y[k + 1];
        }
        if (k < m) s0 += (long double)x[k] * y[k];
        return s0 + s1;
    }
    long double re = 0, im = 0;
    for (int k = 0; k < m; ++k) {
        const long double xr = x[2 * k], xi = x[2 * k + 1], yr = y[2 * k], yi = y[2 * k + 1];
        re += xr * yr - xi * yi;
        im += xr * yi + xi * yr;
    }
    return {re, im};
}
// ||R||_1 (xLANGE('1'): moduli), NaN propagating, for the n x n residual R whose entry (i, j) entry(i, j) gives;
// the columns in parallel.
template <class F> long double residual_norm1(int n, const F &entry) {
    std::vector<long double> sums(n);
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < n; ++j) {
        long double s = 0;
        for (int i = 0; i < n; ++i) {
            const cld r = entry(i, j);
            s += std::sqrt(r.real() * r.real() + r.imag() * r.imag());
        }
        sums[j] = s;
    }
    long double best = 0;
    for (long double s : sums) best = max_nan(best, s);
    return best;
}

// xGET01: ||P A - L U||_1 / (n ||A||_1 eps) with ipiv 1-based (or nullptr); ||A||_1 = 0: 0 for a zero residual,
// else 1/eps. (L U)(i, j) = sum over k <= min(i, j) of L(i, k) U(k, j), L(i, i) = 1.
long double getrf_ratio(const mat &a, const mat &lu, const int *ipiv, int n, double eps) {
    mat pa = a;
    if (ipiv)
        for (int k = 0; k < n; ++k) {
            const int p = ipiv[k] - 1;
            if (p < k || p >= n) return std::numeric_limits<long double>::infinity();  // not a partial-pivoting row
            if (p != k)
                for (int j = 0; j < n; ++j) std::swap(pa[k + (size_t)j * n], pa[p + (size_t)j * n]);
        }
    const int w = real_only(pa) && real_only(lu) ? 1 : 2;
    const dense rows = dense_of(lu, n, w, true), cols = dense_of(lu, n, w, false);
    const long double resid = residual_norm1(n, [&](int i, int j) {
        const int m = std::min(i, j);
        cld s = dot(rows.line(i), cols.line(j), m, w);
        s += i <= j ? lu[i + (size_t)j * n] : lu[i + (size_t)j * n] * lu[j + (size_t)j * n];
        return pa[i + (size_t)j * n] - s;
    });
    const long double an = norm1(a, n);
    if (an <= 0) return resid != 0 ? 1.0L / eps : 0.0L;
    return resid / n / an / eps;
}
// xGET03: ||I - C A||_1 / (n ||A||_1 ||C||_1 eps) (the inverse times A, in this order); 1/eps when a norm is 0.
long double inverse_ratio(const mat &a, const mat &c, int n, double eps) {
    const long double an = norm1(a, n), cn = norm1(c, n);
    if (an <= 0 || cn <= 0) return 1.0L / eps;
    const int w = real_only(a) && real_only(c) ? 1 : 2;
    const dense rows = dense_of(c, n, w, true), cols = dense_of(a, n, w, false);
    const long double resid = residual_norm1(n, [&](int i, int j) {
        return cld(i == j ? 1 : 0) - dot(rows.line(i), cols.line(j), n, w);
    });
    return resid * (1.0L / an / cn) / eps / n;
}
// xGET02: max over the right-hand sides j of ||B_j - op(A) X_j||_1 / (||op(A)||_1 ||X_j||_1 eps), no factor n;
// ||op(A)||_1 = xLANGE('1') of A for N, xLANGE('I') for T and C; 1/eps when ||op(A)||_1 or some ||X_j||_1 is 0.
// b0 and x point at one matrix's right-hand sides: element i of column r at i + r*ldb.
template <class C>
long double solve_ratio(const mat &a, int trans, int n, int nrhs, const C *b0, const C *x, int ldb, double eps) {
    long double an = 0;
    for (int j = 0; j < n; ++j) {
        long double s = 0;
        for (int i = 0; i < n; ++i) s += std::abs(trans == 0 ? a[i + j * n] : a[j + i * n]);
        an = std::max(an, s);
    }
    if (an <= 0) return 1.0L / eps;
    long double worst = 0;
    for (int r = 0; r < nrhs; ++r) {
        long double rs = 0, xs = 0;
        for (int i = 0; i < n; ++i) {
            cld s = to_c(b0[i + r * ldb]);
            for (int k = 0; k < n; ++k) {
                cld aik = trans == 0 ? a[i + k * n] : a[k + i * n];
                if (trans == 2) aik = std::conj(aik);
                s -= aik * to_c(x[k + r * ldb]);
            }
            rs += abs1(s);
            xs += abs1(to_c(x[i + r * ldb]));
        }
        const long double ratio = xs <= 0 ? 1.0L / eps : rs / an / xs / eps;
        if (!(ratio <= worst)) worst = ratio;  // NaN stays
    }
    return worst;
}

template <class C> bool finite_matrix(const mat &m) {
    for (const cld &x : m)
        if (!std::isfinite((double)x.real()) || !std::isfinite((double)x.imag())) return false;
    return true;
}

int form_layout = 0;  // 1 while the packed layout is checked (for the messages)
int tag_batch = 0;    // the batch of the call checked (for the messages)
std::string tag(const char *routine, const char *prec, int n, int form, int b) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %s n=%d batch=%d %s%s matrix %d", routine, prec, n, tag_batch,
                  form ? "pointer-array" : "strided", form_layout ? " packed" : "", b);
    return buf;
}

// Elements outside the matrices must keep their sentinel.
template <class C>
void check_gaps(const std::vector<C> &after, const std::vector<C> &before, int rows, int cols, int ld, long long stride,
                int batch, const std::string &what) {
    long long bad = 0;
    for (long long e = 0; e < (long long)after.size(); ++e) {
        const long long b = e / stride, r = e % stride;
        const bool inside = b < batch && r < (long long)ld * cols && (r % ld) < rows;
        if (!inside && !same_bits(after[e], before[e])) ++bad;
    }
    ++checks;
    if (bad) fail(what + ": " + std::to_string(bad) + " elements outside the matrices were written");
}

// Every element of the rows x cols matrix at offset off must keep its bits (a skipped matrix, an input).
template <class C>
void check_untouched(const std::vector<C> &after, const std::vector<C> &before, long long off, int rows, int cols,
                     int ld, const std::string &what) {
    long long bad = 0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            if (!same_bits(after[off + i + (long long)j * ld], before[off + i + (long long)j * ld])) ++bad;
    ++checks;
    if (bad) fail(what + ": " + std::to_string(bad) + " elements written");
}

// One matrix's pivots against the host backend's (ref): equal, or first different at a near-tie (tests/checker/
// near_tie.h's rule on the original matrix, at offset off of buf; reported and counted, not failed: the
// factorization must still pass the ratio).
template <class C>
void check_pivots(const std::string &t, const std::vector<C> &buf, long long off, int n, int ld, const int *ref,
                  const int *got, double eps) {
    for (int k = 0; k < n; ++k)
        if (got[k] != ref[k]) {
            double gap = 0;
            const bool tie = near_tie(extract(buf, off, n, ld), n, ref, got, k, eps, &gap);
            char g[64];
            std::snprintf(g, sizeof g, "%.2e", gap);
            const std::string what = t + ": ipiv[" + std::to_string(k) + "] = " + std::to_string(got[k]) +
                                     " != host " + std::to_string(ref[k]) + " (the candidates' relative gap: " + g;
            if (tie) {
                ++near_ties;
                std::printf("NEAR-TIE %s: accepted, the ratio is checked)\n", what.c_str());
            } else {
                fail(what + ", not a near-tie)");
            }
            return;
        }
}

// One group of matrices of the sweep: order n, batch, matrix b of kind kinds[b % kinds.size()] (make_matrix), the
// layout (packed: ld = n, no gaps between matrices; else gaps everywhere), and whether getrf with pivoting is all
// that runs (getrf_only).
struct sweep_case {
    int n = 0, batch = 0;
    std::vector<int> kinds;
    bool packed = false, getrf_only = false;
};

// The checks of one group on the CUDA backend against the host backend, in both forms: getrf with and without
// pivoting (info and pivots as the host's, xGET01's ratio); getri and getrs N/T/C from the CUDA factors, with and
// without pivots (info as getrf's, xGET03's and xGET02's ratios); matinv out of place and in place (info as the
// host getrf's, xGET03's ratio); every element outside the matrices untouched. No ratio for a NaN input, none
// without pivoting but for the diagonally dominant kind, and none of getri, getrs or matinv for a singular matrix.
template <class C> void run_case(smallla_handle_t hh, smallla_handle_t hc, const sweep_case &sc, std::mt19937 &rng) {
    using A = api<C>;
    const double eps = A::eps();
    const int n = sc.n, batch = sc.batch, packed = sc.packed;
    const int ld = packed ? n : n + 3;
    const long long stride = packed ? (long long)n * n : (long long)ld * n + 5, sp = packed ? n : n + 2;
    form_layout = packed;
    tag_batch = batch;
    const size_t count = (size_t)stride * batch;
    std::vector<C> h0(count, from_parts<C>(777.0, -3.0));
    std::vector<int> kind_of(batch);
    for (int b = 0; b < batch; ++b) {
        kind_of[b] = sc.kinds[b % sc.kinds.size()];
        make_matrix(rng, n, kind_of[b], h0.data() + b * stride, ld);
    }
    // The reference: the host backend's getrf, without [0] and with [1] pivoting (its pivots, and info).
    std::vector<int> hpiv(sp * batch, -7), hinfo_of[2];
    for (int pivoting = sc.getrf_only ? 1 : 0; pivoting < 2; ++pivoting) {
        std::vector<C> lu = h0;
        hinfo_of[pivoting].assign(batch, -7);
        if (A::getrf_s(hh, n, lu.data(), ld, stride, pivoting ? hpiv.data() : nullptr, sp, hinfo_of[pivoting].data(),
                       batch) != SMALLLA_SUCCESS) {
            fail(std::string("host getrf status ") + smallla_last_error(hh));
            return;
        }
    }
    for (int form = 0; form < 2; ++form) {
        for (int pivoting = sc.getrf_only ? 1 : 0; pivoting < 2; ++pivoting) {
            const std::vector<int> &hinfo = hinfo_of[pivoting];
            // ---- getrf
            device_buf<C> dA(count);
            dA.put(h0);
            device_buf<int> dpiv(sp * batch), dinfo(batch);
            CHECK_CUDA(cudaMemset(dpiv.p, 0xff, sp * batch * sizeof(int)));
            CHECK_CUDA(cudaMemset(dinfo.p, 0xff, batch * sizeof(int)));
            int *piv_d = pivoting ? dpiv.p : nullptr;
            device_buf<C *> dptrs(batch);
            smallla_status_t st;
            if (form == 0) {
                st = A::getrf_s(hc, n, dA.p, ld, stride, piv_d, sp, dinfo.p, batch);
            } else {
                // pointer array: pivots contiguous, n per matrix
                dptrs.put(device_pointer_array(dA.p, stride, batch));
                st = A::getrf_p(hc, n, dptrs.p, ld, piv_d, dinfo.p, batch);
            }
            if (st != SMALLLA_SUCCESS) { fail(std::string("cuda getrf status ") + smallla_last_error(hc)); continue; }
            CHECK_CUDA(cudaDeviceSynchronize());
            const std::vector<C> d_lu = dA.get();
            const std::vector<int> dp = dpiv.get(), di = dinfo.get();
            check_gaps(d_lu, h0, n, n, ld, stride, batch, tag(pivoting ? "getrf" : "getrf_nopiv", A::name, n, form, -1));
            const long long pstride = form == 0 ? sp : n;
            // No ratio for NaN, nor (singular or unstable) without pivoting but for the diagonally dominant kind.
            const auto no_ratio = [&](int b) { return kind_of[b] == 3 || (!pivoting && kind_of[b] != 4); };
            for (int b = 0; b < batch; ++b) {
                const std::string t = tag(pivoting ? "getrf" : "getrf_nopiv", A::name, n, form, b);
                ++checks;
                if (di[b] != hinfo[b]) fail(t + ": info " + std::to_string(di[b]) + " != host " + std::to_string(hinfo[b]));
                if (pivoting) check_pivots(t, h0, b * stride, n, ld, &hpiv[b * sp], &dp[b * pstride], eps);
                if (no_ratio(b)) continue;
                const mat a = extract(h0, b * stride, n, ld), lu = extract(d_lu, b * stride, n, ld);
                const long double r = getrf_ratio(a, lu, pivoting ? &dp[b * pstride] : nullptr, n, eps);
                if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
            }
            if (sc.getrf_only) continue;
            const char *getri_name = pivoting ? "getri" : "getri (ipiv NULL)";

            // ---- getri from the CUDA factors (out of place, C with its own gaps)
            {
                std::vector<C> c0(count, from_parts<C>(-55.0, 1.0));
                device_buf<C> dC(count);
                dC.put(c0);
                device_buf<int> dinfo2(batch);
                device_buf<C *> dcp(batch);
                if (form == 0) {
                    st = A::getri_s(hc, n, dA.p, ld, stride, piv_d, sp, dC.p, ld, stride, dinfo2.p, batch);
                } else {
                    dcp.put(device_pointer_array(dC.p, stride, batch));
                    st = A::getri_p(hc, n, (const C *const *)dptrs.p, ld, piv_d, dcp.p, ld, dinfo2.p, batch);
                }
                if (st != SMALLLA_SUCCESS) { fail(std::string("cuda getri status ") + smallla_last_error(hc)); continue; }
                CHECK_CUDA(cudaDeviceSynchronize());
                const std::vector<C> dc = dC.get();
                const std::vector<int> di2 = dinfo2.get();
                check_gaps(dc, c0, n, n, ld, stride, batch, tag(getri_name, A::name, n, form, -1));
                for (int b = 0; b < batch; ++b) {
                    const std::string t = tag(getri_name, A::name, n, form, b);
                    ++checks;
                    if (di2[b] != hinfo[b] && kind_of[b] != 3)
                        fail(t + ": info " + std::to_string(di2[b]) + " != getrf's " + std::to_string(hinfo[b]));
                    if (no_ratio(b) || hinfo[b] != 0) continue;
                    const mat a = extract(h0, b * stride, n, ld), c = extract(dc, b * stride, n, ld);
                    const long double r = inverse_ratio(a, c, n, eps);
                    if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
                }
            }
            // ---- getrs N/T/C with 3 right-hand sides from the CUDA factors
            for (int trans = 0; trans < 3; ++trans) {
                const int nrhs = packed && n % 2 ? 1 : 3, ldb = packed ? n : n + 1;
                const long long sb = (long long)ldb * nrhs + (packed ? 0 : 2);
                const size_t bcount = (size_t)sb * batch;
                std::vector<C> b0(bcount, from_parts<C>(31.0, 0.0));
                std::uniform_real_distribution<double> u(-1.0, 1.0);
                for (int b = 0; b < batch; ++b)
                    for (int r = 0; r < nrhs; ++r)
                        for (int i = 0; i < n; ++i)
                            b0[b * sb + i + r * ldb] = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
                device_buf<C> dB(bcount);
                dB.put(b0);
                device_buf<C *> dbp(batch);
                const smallla_operation_t op = (smallla_operation_t)trans;
                if (form == 0) {
                    st = A::getrs_s(hc, op, n, nrhs, dA.p, ld, stride, piv_d, sp, dB.p, ldb, sb, batch);
                } else {
                    dbp.put(device_pointer_array(dB.p, sb, batch));
                    st = A::getrs_p(hc, op, n, nrhs, (const C *const *)dptrs.p, ld, piv_d, dbp.p, ldb, batch);
                }
                if (st != SMALLLA_SUCCESS) { fail(std::string("cuda getrs status ") + smallla_last_error(hc)); continue; }
                CHECK_CUDA(cudaDeviceSynchronize());
                const std::vector<C> x = dB.get();
                const std::string name = std::string("getrs ") + "NTC"[trans] + (pivoting ? "" : " (ipiv NULL)");
                check_gaps(x, b0, n, nrhs, ldb, sb, batch, tag(name.c_str(), A::name, n, form, -1));
                for (int b = 0; b < batch; ++b) {
                    if (no_ratio(b) || hinfo[b] != 0) continue;
                    const std::string t = tag(name.c_str(), A::name, n, form, b);
                    ++checks;
                    const mat a = extract(h0, b * stride, n, ld);
                    const long double ratio = solve_ratio(a, trans, n, nrhs, &b0[b * sb], &x[b * sb], ldb, eps);
                    if (!(ratio < 30)) fail(t + ": ratio " + std::to_string((double)ratio));
                }
            }
        }
        if (sc.getrf_only) continue;
        // ---- matinv, out of place and in place
        const std::vector<int> &hinfo = hinfo_of[1];
        for (int inplace = 0; inplace < 2; ++inplace) {
            std::vector<C> c0(count, from_parts<C>(-66.0, 2.0));
            device_buf<C> dA(count), dC(count);
            dA.put(h0);
            dC.put(c0);
            device_buf<int> dinfo(batch);
            device_buf<C *> dap(batch), dcp(batch);
            C *out = inplace ? dA.p : dC.p;
            smallla_status_t st;
            if (form == 0) {
                st = A::matinv_s(hc, n, dA.p, ld, stride, out, ld, stride, dinfo.p, batch);
            } else {
                dap.put(device_pointer_array(dA.p, stride, batch));
                dcp.put(device_pointer_array(out, stride, batch));
                st = A::matinv_p(hc, n, (const C *const *)dap.p, ld, inplace ? dap.p : dcp.p, ld, dinfo.p, batch);
            }
            if (st != SMALLLA_SUCCESS) { fail(std::string("cuda matinv status ") + smallla_last_error(hc)); continue; }
            CHECK_CUDA(cudaDeviceSynchronize());
            const std::vector<C> dc = inplace ? dA.get() : dC.get();
            const std::vector<int> di = dinfo.get();
            check_gaps(dc, inplace ? h0 : c0, n, n, ld, stride, batch, tag("matinv", A::name, n, form, -1));
            for (int b = 0; b < batch; ++b) {
                const std::string t = tag(inplace ? "matinv in place" : "matinv", A::name, n, form, b);
                ++checks;
                if (kind_of[b] != 3 && di[b] != hinfo[b])
                    fail(t + ": info " + std::to_string(di[b]) + " != host getrf " + std::to_string(hinfo[b]));
                if (kind_of[b] == 3 || hinfo[b] != 0) continue;
                const mat a = extract(h0, b * stride, n, ld), c = extract(dc, b * stride, n, ld);
                const long double r = inverse_ratio(a, c, n, eps);
                if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
            }
        }
    }
}

// ---- NULL entries of pointer arrays ---------------------------------------------------------------------------
// include/smallla.h's conventions (tests/test_null_entries.c is the host suite's version): a matrix whose A[b],
// C[b] or B[b] is NULL is skipped, on both backends: nothing of its matrices is read or written (every bit is
// kept; its pivots are unspecified), info[b] = -(the argument number of that pointer array: getrf's A -3, getri's A -3
// and C -6, matinv's A -3 and C -5; getrs has no info), and the other matrices are processed as usual: info and
// pivots as the host backend's strided call on the whole batch, LAPACK's ratios below 30. Each call has one NULL
// entry, A's at the last matrix or C's (B's) at the first; getrf with and without pivoting, getri and getrs from
// both kinds of factors (the host's), getrs N/T/C, matinv out of place and in place. The same calls run on the
// host and on the CUDA backend, and both are checked.

// A buffer of one backend: host memory, or device memory holding a copy of the host vector.
template <class T> struct buffer {
    std::vector<T> host;
    std::unique_ptr<device_buf<T>> dev;
    buffer(const std::vector<T> &v, bool on_device) : host(v) {
        if (on_device) {
            dev.reset(new device_buf<T>(v.size()));
            dev->put(v);
        }
    }
    T *ptr() { return dev ? dev->p : host.data(); }
    std::vector<T> result() const { return dev ? dev->get() : host; }
};
// The pointer array of a buffer's batch, matrix b at stride * b, with entry null_at NULL (-1: none).
template <class T> buffer<T *> pointers(buffer<T> &m, long long stride, int batch, int null_at, bool on_device) {
    std::vector<T *> v(batch);
    for (int b = 0; b < batch; ++b) v[b] = b == null_at ? nullptr : m.ptr() + b * stride;
    return buffer<T *>(v, on_device);
}

template <class C> void null_entries(smallla_handle_t hh, smallla_handle_t hc, int n, int batch, std::mt19937 &rng) {
    using A = api<C>;
    const double eps = A::eps();
    const int ld = n + 2, ldc = n + 3, nrhs = 2, ldb = n + 1, poison = -77;
    const long long sa = (long long)ld * n + 3, sc = (long long)ldc * n + 1, sb = (long long)ldb * nrhs + 2;
    const int a_null = batch - 1, c_null = 0;  // the NULL entry of A's array, and of C's or B's
    tag_batch = batch;
    form_layout = 0;
    // Inputs [pivoting]: diagonally dominant [0] and random [1] matrices; their host factors and info, the reference.
    std::vector<C> a0[2], lu[2];
    std::vector<int> piv((size_t)n * batch), ref_info[2];
    for (int p = 0; p < 2; ++p) {
        a0[p].assign(sa * batch, from_parts<C>(777.0, -3.0));
        for (int b = 0; b < batch; ++b) make_matrix(rng, n, p ? 0 : 4, a0[p].data() + b * sa, ld);
        lu[p] = a0[p];
        ref_info[p].assign(batch, -7);
        if (A::getrf_s(hh, n, lu[p].data(), ld, sa, p ? piv.data() : nullptr, n, ref_info[p].data(), batch) !=
            SMALLLA_SUCCESS) {
            fail(std::string("host getrf status ") + smallla_last_error(hh));
            return;
        }
    }
    std::vector<C> b0(sb * batch, from_parts<C>(31.0, 0.0));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int b = 0; b < batch; ++b)
        for (int r = 0; r < nrhs; ++r)
            for (int i = 0; i < n; ++i) b0[b * sb + i + r * ldb] = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
    const std::vector<C> c0(sc * batch, from_parts<C>(-55.0, 1.0));

    for (int dev = 0; dev < 2; ++dev) {
        const smallla_handle_t h = dev ? hc : hh;
        const auto name = [&](const std::string &call, int b) {
            return std::string(dev ? "cuda " : "host ") + call + " " + A::name + " n=" + std::to_string(n) +
                   " batch=" + std::to_string(batch) + (b < 0 ? std::string() : " matrix " + std::to_string(b));
        };
        const auto ok = [&](smallla_status_t st, const std::string &what) {
            ++checks;
            if (st != SMALLLA_SUCCESS) {
                fail(what + ": status " + std::to_string((int)st) + " " + smallla_last_error(h));
                return false;
            }
            if (dev) CHECK_CUDA(cudaDeviceSynchronize());
            return true;
        };
        const auto expect_info = [&](const std::vector<int> &info, int b, int expected, const std::string &what) {
            ++checks;
            if (info[b] != expected)
                fail(what + ": info " + std::to_string(info[b]) + ", expected " + std::to_string(expected));
        };

        // ---- getrf, A[a_null] NULL: info -3, its pivots untouched
        for (int p = 0; p < 2; ++p) {
            buffer<C> a(a0[p], dev);
            buffer<int> ip(std::vector<int>((size_t)n * batch, poison), dev), inf(std::vector<int>(batch, poison), dev);
            auto ap = pointers(a, sa, batch, a_null, dev);
            const std::string call = std::string(p ? "getrfBatched" : "getrfBatched (no pivoting)") + " A[" +
                                     std::to_string(a_null) + "] NULL";
            if (!ok(A::getrf_p(h, n, ap.ptr(), ld, p ? ip.ptr() : nullptr, inf.ptr(), batch), name(call, -1))) continue;
            const std::vector<C> out = a.result();
            const std::vector<int> pv = ip.result(), info = inf.result();
            check_gaps(out, a0[p], n, n, ld, sa, batch, name(call, -1));
            check_untouched(out, a0[p], a_null * sa, n, n, ld, name(call, a_null) + " (skipped)");
            for (int b = 0; b < batch; ++b) {
                const std::string t = name(call, b);
                if (b == a_null) {
                    expect_info(info, b, -3, t);  // its ipiv entries are unspecified
                    continue;
                }
                expect_info(info, b, ref_info[p][b], t);
                if (p) check_pivots(t, a0[p], b * sa, n, ld, &piv[b * n], &pv[b * n], eps);
                const long double r =
                    getrf_ratio(extract(a0[p], b * sa, n, ld), extract(out, b * sa, n, ld), p ? &pv[b * n] : nullptr, n, eps);
                if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
            }
        }

        // ---- getri from the host factors, with and without pivots: A[a_null] NULL (-3), then C[c_null] NULL (-6)
        for (int which = 0; which < 2; ++which)
            for (int p = 1; p >= 0; --p) {
                const int skipped = which ? c_null : a_null;
                buffer<C> a(lu[p], dev), c(c0, dev);
                buffer<int> ip(piv, dev), inf(std::vector<int>(batch, poison), dev);
                auto ap = pointers(a, sa, batch, which ? -1 : a_null, dev);
                auto cp = pointers(c, sc, batch, which ? c_null : -1, dev);
                const std::string call = std::string(p ? "getriBatched" : "getriBatched (ipiv NULL)") +
                                         (which ? " C[" : " A[") + std::to_string(skipped) + "] NULL";
                if (!ok(A::getri_p(h, n, (const C *const *)ap.ptr(), ld, p ? ip.ptr() : nullptr, cp.ptr(), ldc, inf.ptr(),
                                   batch),
                        name(call, -1)))
                    continue;
                const std::vector<C> ain = a.result(), out = c.result();
                const std::vector<int> info = inf.result();
                ++checks;
                if (std::memcmp(ain.data(), lu[p].data(), ain.size() * sizeof(C)) != 0) fail(name(call, -1) + ": A written");
                check_gaps(out, c0, n, n, ldc, sc, batch, name(call, -1));
                check_untouched(out, c0, skipped * sc, n, n, ldc, name(call, skipped) + " (skipped): C");
                for (int b = 0; b < batch; ++b) {
                    const std::string t = name(call, b);
                    expect_info(info, b, b == skipped ? (which ? -6 : -3) : ref_info[p][b], t);
                    if (b == skipped || ref_info[p][b] != 0) continue;
                    const long double r = inverse_ratio(extract(a0[p], b * sa, n, ld), extract(out, b * sc, n, ldc), n, eps);
                    if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
                }
            }

        // ---- matinv: A[a_null] NULL (-3), C[c_null] NULL (-5), in place with A[a_null] NULL (-3)
        for (int mode = 0; mode < 3; ++mode) {
            const bool inplace = mode == 2;
            const int skipped = mode == 1 ? c_null : a_null;
            buffer<C> a(a0[1], dev), c(c0, dev);
            buffer<int> inf(std::vector<int>(batch, poison), dev);
            auto ap = pointers(a, sa, batch, mode == 1 ? -1 : a_null, dev);
            auto cp = pointers(c, sc, batch, mode == 1 ? c_null : -1, dev);
            const std::string call = std::string(inplace ? "matinvBatched in place" : "matinvBatched") +
                                     (mode == 1 ? " C[" : " A[") + std::to_string(skipped) + "] NULL";
            if (!ok(A::matinv_p(h, n, (const C *const *)ap.ptr(), ld, inplace ? ap.ptr() : cp.ptr(), inplace ? ld : ldc,
                                inf.ptr(), batch),
                    name(call, -1)))
                continue;
            const std::vector<C> out = inplace ? a.result() : c.result();
            const std::vector<C> &before = inplace ? a0[1] : c0;
            const int ldo = inplace ? ld : ldc;
            const long long so = inplace ? sa : sc;
            const std::vector<int> info = inf.result();
            if (!inplace) {
                ++checks;
                const std::vector<C> ain = a.result();
                if (std::memcmp(ain.data(), a0[1].data(), ain.size() * sizeof(C)) != 0) fail(name(call, -1) + ": A written");
            }
            check_gaps(out, before, n, n, ldo, so, batch, name(call, -1));
            check_untouched(out, before, skipped * so, n, n, ldo, name(call, skipped) + " (skipped)");
            for (int b = 0; b < batch; ++b) {
                const std::string t = name(call, b);
                expect_info(info, b, b == skipped ? (mode == 1 ? -5 : -3) : ref_info[1][b], t);
                if (b == skipped || ref_info[1][b] != 0) continue;
                const long double r = inverse_ratio(extract(a0[1], b * sa, n, ld), extract(out, b * so, n, ldo), n, eps);
                if (!(r < 30)) fail(t + ": ratio " + std::to_string((double)r));
            }
        }

        // ---- getrs from the host factors: A[a_null] NULL, then B[c_null] NULL; N/T/C with pivots, N without
        for (int which = 0; which < 2; ++which)
            for (int p = 1; p >= 0; --p)
                for (int trans = 0; trans < (p ? 3 : 1); ++trans) {
                    const int skipped = which ? c_null : a_null;
                    buffer<C> a(lu[p], dev), bb(b0, dev);
                    buffer<int> ip(piv, dev);
                    auto ap = pointers(a, sa, batch, which ? -1 : a_null, dev);
                    auto bp = pointers(bb, sb, batch, which ? c_null : -1, dev);
                    const std::string call = std::string("getrsBatched ") + "NTC"[trans] + (p ? "" : " (ipiv NULL)") +
                                             (which ? " B[" : " A[") + std::to_string(skipped) + "] NULL";
                    if (!ok(A::getrs_p(h, (smallla_operation_t)trans, n, nrhs, (const C *const *)ap.ptr(), ld,
                                       p ? ip.ptr() : nullptr, bp.ptr(), ldb, batch),
                            name(call, -1)))
                        continue;
                    const std::vector<C> ain = a.result(), x = bb.result();
                    ++checks;
                    if (std::memcmp(ain.data(), lu[p].data(), ain.size() * sizeof(C)) != 0) fail(name(call, -1) + ": A written");
                    check_gaps(x, b0, n, nrhs, ldb, sb, batch, name(call, -1));
                    check_untouched(x, b0, skipped * sb, n, nrhs, ldb, name(call, skipped) + " (skipped): B");
                    for (int b = 0; b < batch; ++b) {
                        if (b == skipped) continue;
                        ++checks;
                        const long double r =
                            solve_ratio(extract(a0[p], b * sa, n, ld), trans, n, nrhs, &b0[b * sb], &x[b * sb], ldb, eps);
                        if (!(r < 30)) fail(name(call, b) + ": ratio " + std::to_string((double)r));
                    }
                }
    }
}

// The sweep of one precision: every order of `orders` (batches of 6 kinds; also packed for n <= 16), then the NULL
// entries at (order, batch) of `nulls`.
// ---- The Cholesky family ----------------------------------------------------------------------------------------
// Both backends on the same inputs (strided with gaps; pointer arrays for potrf and poinv), both triangles: info
// equal; where info is 0, every element the routine writes within tol of the host backend's (whose results the
// CMocka suites check against LAPACK's ratios; the inputs are well conditioned: diagonal 2n + [-1, 1]); every
// element it must not write (the other triangle, the gaps, B where posv failed) bit for bit as before. Matrix 1 is
// not positive definite at its middle minor (a zero row and column), matrix 2 has a NaN on its last diagonal
// element. packed: no gaps (ld = n, stride n^2, B n x nrhs a matrix), the thread kernels' coalesced staging.
// batch: 0 for 67 matrices to order 32 and 5 beyond; a few large matrices take the vendor route (--large).
template <class C>
void chol_sweep(smallla_handle_t hh, smallla_handle_t hc, int n, bool packed, std::mt19937 &rng, int batch_of = 0) {
    using A = api<C>;
    const int ld = packed ? n : n + 2, ldb = packed ? n : n + 1, nrhs = 3,
              batch = batch_of > 0 ? batch_of : n <= 32 ? 67 : 5;
    const long long stride = packed ? (long long)n * n : (long long)ld * n + 3,
                    strideB = packed ? (long long)n * nrhs : (long long)ldb * nrhs + 1;
    const size_t elems = (size_t)(stride * batch + 5), elemsB = (size_t)(strideB * batch + 5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<C> a0(elems), b0(elemsB);
    for (C &x : a0) x = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
    for (C &x : b0) x = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
    for (int b = 0; b < batch; ++b)
        for (int i = 0; i < n; ++i) a0[b * stride + i + (long long)i * ld] = from_parts<C>(2.0 * n + u(rng), 0.5);
    if (batch > 1) {
        const int z = n / 2;
        for (int i = 0; i < n; ++i) a0[stride + z + (long long)i * ld] = a0[stride + i + (long long)z * ld] = C{};
    }
    if (batch > 2) a0[2 * stride + (n - 1) + (long long)(n - 1) * ld] = from_parts<C>(std::nan(""), 0.0);
    const long double tol = 1000.0L * n * A::eps();

    // Element e of a buffer of `count` matrices rows x cols (leading dimension l, stride st): its matrix, or -1 in
    // a gap; (i, j) through the pointers.
    auto where = [](long long e, long long st, int l, int rows, int cols, int count, int *i, int *j) {
        const long long b = e / st, in = e % st;
        if (b >= count || in / l >= cols || in % l >= rows) return -1;
        *i = (int)(in % l), *j = (int)(in / l);
        return (int)b;
    };
    const char *names[] = {"potrf", "posv", "potrs", "potri", "poinv", "potrf ptr", "poinv ptr"};
    for (int u8 = 0; u8 < 2; ++u8) {
        const smallla_fill_t uplo = u8 ? SMALLLA_FILL_UPPER : SMALLLA_FILL_LOWER;
        // the factors (host) for potrs and potri
        std::vector<C> f0 = a0;
        std::vector<int> finfo(batch);
        smallla_status_t st0 = A::potrf_s(hh, uplo, n, f0.data(), ld, stride, finfo.data(), batch);
        if (st0 != SMALLLA_SUCCESS) fail("host potrf for the factors");
        for (int r = 0; r < 7; ++r) {
            const bool uses_f = r == 2 || r == 3, uses_b = r == 1 || r == 2, out_c = r == 4 || r == 6;
            std::vector<C> in = uses_f ? f0 : a0;
            std::vector<C> ha = in, hb = out_c ? std::vector<C>(elems, from_parts<C>(-7.0, 0.0)) : b0;
            std::vector<C> cb0 = hb;
            std::vector<int> hinfo(batch, -99), cinfo(batch, -99);
            device_buf<C> da(elems), db(out_c ? elems : elemsB);
            device_buf<int> di(batch);
            da.put(in);
            db.put(hb);
            di.put(cinfo);
            auto run = [&](smallla_handle_t h, C *a, C *bb, int *info) -> smallla_status_t {
                switch (r) {
                case 0: return A::potrf_s(h, uplo, n, a, ld, stride, info, batch);
                case 1: return A::posv_s(h, uplo, n, nrhs, a, ld, stride, bb, ldb, strideB, info, batch);
                case 2: return A::potrs_s(h, uplo, n, nrhs, a, ld, stride, bb, ldb, strideB, batch);
                case 3: return A::potri_s(h, uplo, n, a, ld, stride, info, batch);
                case 4: return A::poinv_s(h, uplo, n, a, ld, stride, bb, ld, stride, info, batch);
                default: {  // pointer arrays (device arrays on the CUDA backend)
                    std::vector<C *> pa = device_pointer_array(a, stride, batch), pb = device_pointer_array(bb, stride, batch);
                    C **arr_a = pa.data(), **arr_b = pb.data();
                    device_buf<C *> dpa(batch), dpb(batch);
                    if (h == hc) {
                        dpa.put(pa);
                        dpb.put(pb);
                        arr_a = dpa.p, arr_b = dpb.p;
                    }
                    smallla_status_t st = r == 5 ? A::potrf_p(h, uplo, n, arr_a, ld, info, batch)
                                                 : A::poinv_p(h, uplo, n, (const C *const *)arr_a, ld, arr_b, ld, info, batch);
                    if (h == hc) CHECK_CUDA(cudaDeviceSynchronize());  // the arrays are freed on return
                    return st;
                }
                }
            };
            const std::string tag = std::string(A::name) + names[r] + (u8 ? " upper" : " lower") + (packed ? " packed" : "") + " n=" + std::to_string(n);
            ++checks;
            if (run(hh, ha.data(), hb.data(), hinfo.data()) != SMALLLA_SUCCESS) fail(tag + ": host call failed");
            if (run(hc, da.p, db.p, di.p) != SMALLLA_SUCCESS) fail(tag + ": CUDA call failed: " + smallla_last_error(hc));
            CHECK_CUDA(cudaDeviceSynchronize());
            const std::vector<C> ca = da.get(), cbuf = db.get();
            if (r != 2) cinfo = di.get();
            for (int b = 0; b < batch && r != 2; ++b)
                if (cinfo[b] != hinfo[b])
                    fail(tag + " matrix " + std::to_string(b) + ": info " + std::to_string(cinfo[b]) + ", host " +
                         std::to_string(hinfo[b]));
            // A: the uplo triangle written by potrf, posv, potri (and poinv in place: not here); nothing else.
            const bool writes_a = r == 0 || r == 1 || r == 3 || r == 5;
            long double scale = 0;  // the largest finite output of the host (NaN inputs give NaN outputs)
            for (size_t e = 0; e < elems; ++e)
                if (std::isfinite(std::abs(to_c(ha[e])))) scale = std::max(scale, std::abs(to_c(ha[e])));
            for (size_t e = 0; e < elems; ++e) {
                int i = 0, j = 0;
                const int b = where((long long)e, stride, ld, n, n, batch, &i, &j);
                const bool tri = b >= 0 && (uplo == SMALLLA_FILL_LOWER ? i >= j : i <= j);
                if (!(writes_a && tri)) {
                    if (!same_bits(ca[e], in[e])) fail(tag + ": A element " + std::to_string(e) + " written");
                } else if (hinfo[b] == 0 && (!uses_f || finfo[b] == 0) &&
                           !(std::abs(to_c(ca[e]) - to_c(ha[e])) <= tol * (scale > 0 ? scale : 1))) {
                    fail(tag + " matrix " + std::to_string(b) + ": A(" + std::to_string(i) + "," + std::to_string(j) +
                         ") differs from the host's");
                    break;
                }
            }
            if (uses_b || out_c) {
                const long long stb = out_c ? stride : strideB;
                const int lb = out_c ? ld : ldb, cols = out_c ? n : nrhs;
                long double sb = 0;
                for (const C &x : hb)
                    if (std::isfinite(std::abs(to_c(x)))) sb = std::max(sb, std::abs(to_c(x)));
                for (size_t e = 0; e < cbuf.size(); ++e) {
                    int i = 0, j = 0;
                    const int b = where((long long)e, stb, lb, n, cols, batch, &i, &j);
                    const bool ok_info = b >= 0 && (r == 2 ? finfo[b] == 0 : hinfo[b] == 0);
                    if (b < 0 || (r == 1 && !ok_info)) {
                        if (!same_bits(cbuf[e], cb0[e])) fail(tag + ": B/C element " + std::to_string(e) + " written");
                    } else if (ok_info && !(std::abs(to_c(cbuf[e]) - to_c(hb[e])) <= tol * (sb > 0 ? sb : 1))) {
                        fail(tag + " matrix " + std::to_string(b) + ": B/C(" + std::to_string(i) + "," +
                             std::to_string(j) + ") differs from the host's");
                        break;
                    }
                }
            }
        }
    }
}

template <class C>
void large_order(smallla_handle_t hh, smallla_handle_t hc, int n, const std::vector<std::vector<int>> &kinds_by_batch,
                 bool getrf_only = false);

template <class C>
void run_precision(smallla_handle_t hh, smallla_handle_t hc, const std::vector<int> &orders,
                   const std::vector<std::pair<int, int>> &nulls) {
    std::mt19937 rng(1234);
    for (int n : orders) {
        // Layouts: with gaps (ld = n + 3, gaps between matrices), and for n <= 16 also packed (ld = n, stride n^2,
        // B n x nrhs per matrix), which takes the kernels' coalesced shared-memory staging paths.
        for (int packed = 0; packed < (n <= 16 ? 2 : 1); ++packed) {
            sweep_case sc;
            sc.n = n;
            sc.kinds = {0, 1, 2, 3, 4, 5};
            sc.batch = (int)sc.kinds.size() * (n <= 16 ? 24 : 8) + 1;  // +1: not a multiple of matrices per block
            sc.packed = packed;
            run_case<C>(hh, hc, sc, rng);
        }
        for (int packed = 0; packed < (n <= 16 ? 2 : 1); ++packed) chol_sweep<C>(hh, hc, n, packed, rng);
        // Beyond 32 the batch of 5 takes a vendor route or one block a matrix; 3000 matrices take the library's
        // panels (40) and blocked (100) Cholesky, 800 the blocked one at 200 in every precision (a last step of 8).
        if (n == 40 || n == 100) chol_sweep<C>(hh, hc, n, false, rng, 3000);
        if (n == 200) chol_sweep<C>(hh, hc, n, false, rng, 800);
        // Double complex with 1-3 matrices where the routing family `wide` serves (panels of 32 columns): a NaN, a
        // zero column, ties in column 0 and at a later step, kind 4 (ratios) and random.
        if (std::is_same<C, smallla_complex_double>::value && (n == 64 || n == 128 || n == 200))
            large_order<C>(hh, hc, n, {{3}, {2, 1}, {5, 4, 0}});
        // At 200 with 65 matrices, the blocked getrf's swaps left of the panels deferred to one pass; double complex
        // with more than 256, in outer blocks too (the routing's `large`).
        if (n == 200) {
            sweep_case sc;
            sc.n = n;
            sc.kinds = {0, 1, 2, 3, 4, 5};
            sc.batch = std::is_same<C, smallla_complex_double>::value ? 6 * 48 + 1 : 6 * 10 + 5;
            sc.packed = 0;
            run_case<C>(hh, hc, sc, rng);
        }
        std::printf("%s n=%d done (%d failures so far)\n", api<C>::name, n, failures);
        std::fflush(stdout);
    }
    std::mt19937 rng_nulls(99);
    for (const auto &nb : nulls) {
        null_entries<C>(hh, hc, nb.first, nb.second, rng_nulls);
        std::printf("%s NULL entries n=%d batch=%d done (%d failures so far)\n", api<C>::name, nb.first, nb.second,
                    failures);
        std::fflush(stdout);
    }
}

// ---- The large cases (--large) ------------------------------------------------------------------------------

// matinv at n = 256 over a batch of more than 2 GiB of matrices: the blocked path inverts the batch in chunks of
// at most max(256 MiB, free / 8), clamped to 2 GiB (lib/cuda/blocked.cuh, matinv_blocked), so its chunk loop
// runs at least twice whatever the device. Strided out of place, then pointer arrays in place. Every matrix:
// info as the host backend's (zero columns spread over the batch make some info > 0, so a chunk's info offset
// shows), every element of C written, and the inverse within sqrt(eps) of the host backend's (relative, in the
// 1-norm with |Re| + |Im|: another matrix's inverse is O(1) away); xGET03's ratio on a sample that includes both
// ends of the batch.
template <class C> void large_matinv(smallla_handle_t hh, smallla_handle_t hc, int n, int batch) {
    using A = api<C>;
    const double eps = A::eps();
    const long long mat = (long long)n * n;
    const size_t count = (size_t)mat * batch;
    std::printf("matinv %s n=%d batch=%d: %.2f GiB of matrices\n", A::name, n, batch,
                (double)count * sizeof(C) / (1024.0 * 1024 * 1024));
    std::fflush(stdout);
    std::mt19937 rng(4242);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<C> h0(count);
    for (C &x : h0) x = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
    for (int b = 5; b < batch; b += 733)  // a zero column: info = (b % n) + 1
        for (int i = 0; i < n; ++i) h0[b * mat + i + (b % n) * n] = from_parts<C>(0.0, 0.0);
    std::vector<C> href(count);
    std::vector<int> hinfo(batch, -7);
    if (A::matinv_s(hh, n, h0.data(), n, mat, href.data(), n, mat, hinfo.data(), batch) != SMALLLA_SUCCESS) {
        fail(std::string("host matinv status ") + smallla_last_error(hh));
        return;
    }
    for (int form = 0; form < 2; ++form) {
        const char *how = form == 0 ? "strided, out of place" : "pointer arrays, in place";
        device_buf<C> dA(count), dC(form == 0 ? count : 1);
        dA.put(h0);
        if (form == 0) CHECK_CUDA(cudaMemset(dC.p, 0xff, count * sizeof(C)));  // all bits set: a NaN, "not written"
        device_buf<int> dinfo(batch);
        CHECK_CUDA(cudaMemset(dinfo.p, 0xff, batch * sizeof(int)));
        device_buf<C *> dptrs(batch);
        smallla_status_t st;
        if (form == 0) {
            st = A::matinv_s(hc, n, dA.p, n, mat, dC.p, n, mat, dinfo.p, batch);
        } else {
            dptrs.put(device_pointer_array(dA.p, mat, batch));
            st = A::matinv_p(hc, n, (const C *const *)dptrs.p, n, dptrs.p, n, dinfo.p, batch);
        }
        ++checks;
        if (st != SMALLLA_SUCCESS) {
            fail(std::string("cuda matinv (") + how + ") status " + smallla_last_error(hc));
            continue;
        }
        CHECK_CUDA(cudaDeviceSynchronize());
        const std::vector<C> c = form == 0 ? dC.get() : dA.get();
        const std::vector<int> di = dinfo.get();
        C unwritten;
        std::memset(&unwritten, 0xff, sizeof unwritten);
        int bad_info = 0, unwritten_mats = 0, far = 0, bad_ratio = 0, samples = 0;
        long double worst_diff = 0;
        // Each matrix's distance from the host's inverse and whether C was all written, in parallel; then in order.
        std::vector<long double> diffs(batch, 0);
        std::vector<char> written(batch, 1);
#pragma omp parallel for schedule(dynamic, 16)
        for (int b = 0; b < batch; ++b) {
            if (di[b] != hinfo[b] || hinfo[b] != 0) continue;
            const C *cb = &c[b * mat], *rb = &href[b * mat];
            long double dn = 0, rn = 0;
            bool all_written = true;
            for (int j = 0; j < n; ++j) {
                long double dcol = 0, rcol = 0;
                for (int i = 0; i < n; ++i) {
                    const long long e = i + (long long)j * n;
                    all_written = all_written && !same_bits(cb[e], unwritten);
                    dcol += abs1(to_c(cb[e]) - to_c(rb[e]));
                    rcol += abs1(to_c(rb[e]));
                }
                dn = max_nan(dn, dcol);
                rn = max_nan(rn, rcol);
            }
            written[b] = all_written;
            diffs[b] = rn > 0 ? dn / rn : dn;
        }
        for (int b = 0; b < batch; ++b) {
            ++checks;
            if (di[b] != hinfo[b]) {
                if (++bad_info <= 5)
                    fail(std::string("matinv ") + A::name + " (" + how + ") matrix " + std::to_string(b) + ": info " +
                         std::to_string(di[b]) + " != host " + std::to_string(hinfo[b]));
                continue;
            }
            if (hinfo[b] != 0) continue;
            if (!written[b] && ++unwritten_mats <= 5)
                fail(std::string("matinv ") + A::name + " (" + how + ") matrix " + std::to_string(b) + ": C not all written");
            const long double diff = diffs[b];
            worst_diff = max_nan(worst_diff, diff);
            if (!(diff <= std::sqrt(eps)) && ++far <= 5)
                fail(std::string("matinv ") + A::name + " (" + how + ") matrix " + std::to_string(b) +
                     ": ||C - C_host||_1 / ||C_host||_1 = " + std::to_string((double)diff) + " > sqrt(eps)");
            if (b % 211 == 0 || b < 2 || b >= batch - 2) {
                ++samples;
                const long double r = inverse_ratio(extract(h0, b * mat, n, n), extract(c, b * mat, n, n), n, eps);
                if (!(r < 30) && ++bad_ratio <= 5)
                    fail(std::string("matinv ") + A::name + " (" + how + ") matrix " + std::to_string(b) + ": ratio " +
                         std::to_string((double)r));
            }
        }
        std::printf("matinv %s n=%d batch=%d (%s): %d info differences, %d matrices not all written, %d farther than "
                    "sqrt(eps) from the host's inverse (largest %.2Le), %d of %d sampled ratios >= 30\n",
                    A::name, n, batch, how, bad_info, unwritten_mats, far, worst_diff, bad_ratio, samples);
        std::fflush(stdout);
    }
}

// getrs over 200,000 matrices at orders where its persistent form serves (each warp steps through many
// matrices while the next one's factors are copied ahead: lu_registers.cuh, getrs_prefetch_by_default): the
// factors from the host backend's getrf, two right-hand sides, op N in the strided form and op T (real) or C
// (complex) with pointer arrays; xGET02's ratio of every matrix below 30, the gaps untouched.
template <class C> void large_getrs(smallla_handle_t hh, smallla_handle_t hc, int n, int batch) {
    using A = api<C>;
    const double eps = A::eps();
    const long long mat = (long long)n * n;
    std::mt19937 rng(5151 + n);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<C> a0((size_t)mat * batch);
    for (C &x : a0) x = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
    std::vector<C> lu = a0;
    std::vector<int> piv((size_t)n * batch), info(batch);
    if (A::getrf_s(hh, n, lu.data(), n, mat, piv.data(), n, info.data(), batch) != SMALLLA_SUCCESS) {
        fail(std::string("host getrf status ") + smallla_last_error(hh));
        return;
    }
    device_buf<C> dA(lu.size());
    dA.put(lu);
    device_buf<int> dpiv(piv.size());
    CHECK_CUDA(cudaMemcpy(dpiv.p, piv.data(), piv.size() * sizeof(int), cudaMemcpyHostToDevice));
    device_buf<C *> dap(batch);
    dap.put(device_pointer_array(dA.p, mat, batch));
    for (int t : {0, A::is_complex ? 2 : 1}) {
        const int nrhs = 2, ldb = n + 1;
        const long long sb = (long long)ldb * nrhs + 1;
        std::vector<C> b0((size_t)sb * batch, from_parts<C>(31.0, 0.0));
        for (int b = 0; b < batch; ++b)
            for (int r = 0; r < nrhs; ++r)
                for (int i = 0; i < n; ++i) b0[b * sb + i + r * ldb] = from_parts<C>(u(rng), A::is_complex ? u(rng) : 0.0);
        device_buf<C> dB(b0.size());
        dB.put(b0);
        device_buf<C *> dbp(batch);
        const smallla_operation_t op = (smallla_operation_t)t;
        smallla_status_t st;
        if (t == 0) {
            st = A::getrs_s(hc, op, n, nrhs, dA.p, n, mat, dpiv.p, n, dB.p, ldb, sb, batch);
        } else {
            dbp.put(device_pointer_array(dB.p, sb, batch));
            st = A::getrs_p(hc, op, n, nrhs, (const C *const *)dap.p, n, dpiv.p, dbp.p, ldb, batch);
        }
        ++checks;
        const std::string what = std::string("getrs ") + "NTC"[t] + " " + A::name + " n=" + std::to_string(n) +
                                 " batch=" + std::to_string(batch) + (t == 0 ? " strided" : " pointer-array");
        if (st != SMALLLA_SUCCESS) {
            fail(what + ": status " + smallla_last_error(hc));
            continue;
        }
        CHECK_CUDA(cudaDeviceSynchronize());
        const std::vector<C> x = dB.get();
        check_gaps(x, b0, n, nrhs, ldb, sb, batch, what);
        int bad = 0;
        long double worst = 0;
        std::vector<long double> ratios(batch, 0);  // in parallel, then in order
#pragma omp parallel for schedule(dynamic, 256)
        for (int b = 0; b < batch; ++b)
            if (info[b] == 0)
                ratios[b] = solve_ratio(extract(a0, b * mat, n, n), t, n, nrhs, &b0[b * sb], &x[b * sb], ldb, eps);
        for (int b = 0; b < batch; ++b) {
            ++checks;
            if (info[b] != 0) continue;
            const long double r = ratios[b];
            worst = max_nan(worst, r);
            if (!(r < 30) && ++bad <= 5) fail(what + " matrix " + std::to_string(b) + ": ratio " + std::to_string((double)r));
        }
        std::printf("%s: %d ratios >= 30 (largest %.2Lf)\n", what.c_str(), bad, worst);
        std::fflush(stdout);
    }
}

// Large orders at small batches, checked as the sweep checks its orders (run_case): the vendor route (cuSOLVER on
// each matrix: every routine for n > 512, and for 257-512 at batches of 1-2) and, at n = 300 with 3 matrices, the
// blocked one. Each entry of kinds_by_batch is one call's matrices, by kind (make_matrix): its size is the batch.
// The kinds put LAPACK's edge cases at every order, where cuSOLVER might differ from LAPACK: exact pivot ties (in
// column 0: kind 1; at a later step: kind 5, otherwise random), a zero column (info > 0: kind 2), a NaN entry
// (kind 3); and the diagonally dominant kind 4, the one without pivoting that gets ratios. The host's time is
// mostly the ratios (O(n^3) in long double per routine and form: none for NaN, xGET01's only for a zero column).
template <class C>
void large_order(smallla_handle_t hh, smallla_handle_t hc, int n, const std::vector<std::vector<int>> &kinds_by_batch,
                 bool getrf_only) {
    std::mt19937 rng(2024 + n);
    for (const std::vector<int> &kinds : kinds_by_batch) {
        const auto t0 = std::chrono::steady_clock::now();
        sweep_case sc;
        sc.n = n;
        sc.batch = (int)kinds.size();
        sc.kinds = kinds;
        sc.getrf_only = getrf_only;
        run_case<C>(hh, hc, sc, rng);
        std::string k;
        for (int x : kinds) k += (k.empty() ? "" : ",") + std::to_string(x);
        std::printf("%s n=%d batch=%d (kinds %s)%s: %.1f s (%d failures so far)\n", api<C>::name, n, sc.batch, k.c_str(),
                    getrf_only ? " getrf only" : "",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), failures);
        std::fflush(stdout);
    }
}

void run_large(smallla_handle_t hh, smallla_handle_t hc) {
    const auto t0 = std::chrono::steady_clock::now();
    // 4608 matrices of 256 x 256 doubles: 2.25 GiB, more than matinv's largest chunk (2 GiB).
    large_matinv<double>(hh, hc, 256, 4608);
    for (int n : {20, 32}) {
        large_getrs<double>(hh, hc, n, 200000);
        large_getrs<smallla_complex_double>(hh, hc, n, 200000);
    }
    // Orders beyond 256 at batches of 1-3: d and z at 300, 520, 600 and 1100, s at 300, c at 600; d getrf (with
    // pivoting) at 2100, one matrix. Each order has a NaN, a zero column and ties on the vendor route (300: the NaN
    // alone, then a zero column and ties in column 0; the blocked route's 3 matrices a later tie, kind 4 and random),
    // and kind 4 (ratios without pivoting) at 520 and 600; d getrf at 4200. The host's time, estimated: the ratios about 2.0e10 long
    // double multiply-adds in complex and 2.4e10 in real arithmetic (one core: ~1 minute; 16 cores: a few seconds),
    // the host backend's getrf ~5 s.
    const std::vector<std::vector<int>> k300 = {{3}, {2, 1}, {5, 4, 0}}, k520 = {{4}, {2}, {3, 5}},
                                        k600 = {{4}, {2}, {3, 1}}, k1100 = {{5}, {3, 2}};
    large_order<double>(hh, hc, 300, k300);
    large_order<smallla_complex_double>(hh, hc, 300, k300);
    large_order<float>(hh, hc, 300, k300);
    large_order<double>(hh, hc, 520, k520);
    large_order<smallla_complex_double>(hh, hc, 520, k520);
    large_order<double>(hh, hc, 600, k600);
    large_order<smallla_complex_double>(hh, hc, 600, k600);
    large_order<smallla_complex_float>(hh, hc, 600, k600);
    large_order<double>(hh, hc, 1100, k1100);
    large_order<smallla_complex_double>(hh, hc, 1100, k1100);
    large_order<double>(hh, hc, 2100, {{5}}, true);
    // A panel over a cluster of 9 blocks (more than 8: the non-portable cluster size), one matrix with a later tie.
    large_order<double>(hh, hc, 4200, {{5}}, true);
    // getri's and matinv's last step with one row of the tile over 48 KiB of shared memory (z beyond 2457; d and c
    // beyond 4096), a NaN matrix: every routine run, no ratios.
    large_order<smallla_complex_double>(hh, hc, 2500, {{3}});
    // The Cholesky family with 3 matrices (a success, a zero minor, a NaN pivot), where potrf and posv take the
    // vendor route (cuSOLVER), strided and pointer arrays, both triangles.
    std::mt19937 rng(77);
    const auto t1 = std::chrono::steady_clock::now();
    chol_sweep<float>(hh, hc, 600, false, rng, 3);
    chol_sweep<double>(hh, hc, 1100, false, rng, 3);
    chol_sweep<smallla_complex_float>(hh, hc, 520, false, rng, 3);
    chol_sweep<smallla_complex_double>(hh, hc, 700, false, rng, 3);
    chol_sweep<double>(hh, hc, 2100, false, rng, 1);
    std::printf("Cholesky, few large matrices: %.1f s (%d failures so far)\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count(), failures);
    std::printf("--large: %.0f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

int main(int argc, char **argv) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    const bool large = argc == 2 && std::strcmp(argv[1], "--large") == 0;
    std::vector<int> orders;
    for (int n = 1; n <= 64; ++n) orders.push_back(n);  // every instance of getri by columns (up to 64) too
    for (int n : {65, 96, 100, 128, 160, 200}) orders.push_back(n);
    // NULL entries (order, batch): each route (thread, lane, two warps or columns, blocked, the vendor route at
    // 257-512 with 2 matrices and the blocked one with 3, the vendor route beyond 512).
    std::vector<std::pair<int, int>> nulls = {{3, 5}, {20, 5}, {40, 5}, {100, 5}, {300, 2}, {300, 3}, {520, 2}};
    if (argc > 1 && !large) {  // optional: a list of orders (NULL entries at each, with 5 matrices, 2 beyond 256)
        orders.clear();
        nulls.clear();
        for (int i = 1; i < argc; ++i) {
            orders.push_back(std::atoi(argv[i]));
            if (orders.back() > 0) nulls.push_back({orders.back(), orders.back() > 256 ? 2 : 5});
        }
    }
    // SMALLLA_CHECK_ALL_DEVICES=1: the sweep on every device in turn, in one process (what the library keeps per
    // kernel from its first launch must hold on the others).
    const char *all = std::getenv("SMALLLA_CHECK_ALL_DEVICES");
    const int devices = all != nullptr && std::strcmp(all, "1") == 0 ? count : 1;
    for (int d = 0; d < devices; ++d) {
        if (devices > 1) {
            CHECK_CUDA(cudaSetDevice(d));
            std::printf("device %d of %d\n", d, devices);
        }
        smallla_handle_t hh, hc;
        if (smallla_create(&hh, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS ||
            smallla_create(&hc, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) {
            std::printf("cannot create handles: %s\n", smallla_last_error(nullptr));
            return 1;
        }
        if (large) {
            run_large(hh, hc);
        } else {
            run_precision<float>(hh, hc, orders, nulls);
            run_precision<double>(hh, hc, orders, nulls);
            run_precision<smallla_complex_float>(hh, hc, orders, nulls);
            run_precision<smallla_complex_double>(hh, hc, orders, nulls);
        }
        smallla_destroy(hh);
        smallla_destroy(hc);
    }
    std::printf("%s: %d checks, %d failures, %d pivot differences at near-ties (tests/checker/near_tie.h)\n",
                failures ? "FAILED" : "PASSED", checks, failures, near_ties);
    return failures ? 1 : 0;
}
