// smallla-bench-host: times the host backend of smallla against the way batches of small matrices are
// handled today, a loop over LAPACK's xgetrf / xgetri / xgetrs with one single-threaded call per matrix inside
// an OpenMP loop over the batch. Both sides use the same threads and the same data.
//
// Prints a table (time per matrix and speedup per precision, routine and n) and, with --out FILE, writes CSV.
// Usage: smallla-bench-host [--precisions sdcz] [--sizes 2-32,48,64,128] [--routines getrf,getri,matinv,getrs]
//        (the Cholesky family on request: --routines potrf,posv,potri,poinv, against LAPACK's xPOTRF/xPOTRS/xPOTRI)
//                           [--min-time SECONDS] [--out FILE]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "smallla.h"

extern "C" {
// LAPACK (Fortran symbols; hidden string-length arguments are not needed by these routines).
void sgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void cgetrf_(const int *m, const int *n, std::complex<float> *a, const int *lda, int *ipiv, int *info);
void zgetrf_(const int *m, const int *n, std::complex<double> *a, const int *lda, int *ipiv, int *info);
void sgetri_(const int *n, float *a, const int *lda, const int *ipiv, float *work, const int *lwork, int *info);
void dgetri_(const int *n, double *a, const int *lda, const int *ipiv, double *work, const int *lwork, int *info);
void cgetri_(const int *n, std::complex<float> *a, const int *lda, const int *ipiv, std::complex<float> *work,
             const int *lwork, int *info);
void zgetri_(const int *n, std::complex<double> *a, const int *lda, const int *ipiv, std::complex<double> *work,
             const int *lwork, int *info);
void sgetrs_(const char *trans, const int *n, const int *nrhs, const float *a, const int *lda, const int *ipiv,
             float *b, const int *ldb, int *info, size_t trans_len);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info, size_t trans_len);
void cgetrs_(const char *trans, const int *n, const int *nrhs, const std::complex<float> *a, const int *lda,
             const int *ipiv, std::complex<float> *b, const int *ldb, int *info, size_t trans_len);
void zgetrs_(const char *trans, const int *n, const int *nrhs, const std::complex<double> *a, const int *lda,
             const int *ipiv, std::complex<double> *b, const int *ldb, int *info, size_t trans_len);
#define BENCH_LAPACK_CHOL(x, T)                                                                                    \
    void x##potrf_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);                       \
    void x##potri_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);                       \
    void x##potrs_(const char *uplo, const int *n, const int *nrhs, const T *a, const int *lda, T *b, const int *ldb, \
                   int *info, size_t);
BENCH_LAPACK_CHOL(s, float)
BENCH_LAPACK_CHOL(d, double)
BENCH_LAPACK_CHOL(c, std::complex<float>)
BENCH_LAPACK_CHOL(z, std::complex<double>)
#undef BENCH_LAPACK_CHOL
// OpenBLAS, when it is the LAPACK provider: keep each LAPACK call single-threaded.
void openblas_set_num_threads(int) __attribute__((weak));
}

namespace {

// One table of the four precisions: the LAPACK calls and the smallla calls for scalar type T.
template <class T> struct precision;

#define BENCH_PRECISION(T, CT, x, letter)                                                                          \
    template <> struct precision<T> {                                                                              \
        static constexpr char name = letter;                                                                       \
        static void lapack_getrf(int n, T *a, int *ipiv, int *info) { x##getrf_(&n, &n, a, &n, ipiv, info); }      \
        static void lapack_getri(int n, T *a, const int *ipiv, T *work, int lwork, int *info) {                    \
            x##getri_(&n, a, &n, ipiv, work, &lwork, info);                                                        \
        }                                                                                                          \
        static void lapack_getrs(int n, const T *a, const int *ipiv, T *b, int *info) {                            \
            const int one = 1;                                                                                     \
            x##getrs_("N", &n, &one, a, &n, ipiv, b, &n, info, 1);                                                  \
        }                                                                                                          \
        static smallla_status_t getrf(smallla_handle_t h, int n, T *a, int *ipiv, int *info, int batch) {          \
            return smallla_##x##getrfStridedBatched(h, n, (CT *)a, n, (long long)n * n, ipiv, n, info, batch);     \
        }                                                                                                          \
        static smallla_status_t getri(smallla_handle_t h, int n, const T *a, const int *ipiv, T *c, int *info,     \
                                      int batch) {                                                                 \
            return smallla_##x##getriStridedBatched(h, n, (const CT *)a, n, (long long)n * n, ipiv, n, (CT *)c, n, \
                                                    (long long)n * n, info, batch);                                \
        }                                                                                                          \
        static smallla_status_t matinv(smallla_handle_t h, int n, const T *a, T *c, int *info, int batch) {        \
            return smallla_##x##matinvStridedBatched(h, n, (const CT *)a, n, (long long)n * n, (CT *)c, n,         \
                                                     (long long)n * n, info, batch);                               \
        }                                                                                                          \
        static void lapack_potrf(int n, T *a, int *info) { x##potrf_("L", &n, a, &n, info, 1); }                  \
        static void lapack_potri(int n, T *a, int *info) { x##potri_("L", &n, a, &n, info, 1); }                  \
        static void lapack_potrs(int n, const T *a, T *b, int *info) {                                             \
            const int one = 1;                                                                                     \
            x##potrs_("L", &n, &one, a, &n, b, &n, info, 1);                                                       \
        }                                                                                                          \
        static smallla_status_t potrf(smallla_handle_t h, int n, T *a, int *info, int batch) {                     \
            return smallla_##x##potrfStridedBatched(h, SMALLLA_FILL_LOWER, n, (CT *)a, n, (long long)n * n, info,  \
                                                    batch);                                                        \
        }                                                                                                          \
        static smallla_status_t posv(smallla_handle_t h, int n, T *a, T *b, int *info, int batch) {                \
            return smallla_##x##posvStridedBatched(h, SMALLLA_FILL_LOWER, n, 1, (CT *)a, n, (long long)n * n,      \
                                                   (CT *)b, n, n, info, batch);                                    \
        }                                                                                                          \
        static smallla_status_t potri(smallla_handle_t h, int n, T *a, int *info, int batch) {                     \
            return smallla_##x##potriStridedBatched(h, SMALLLA_FILL_LOWER, n, (CT *)a, n, (long long)n * n, info,  \
                                                    batch);                                                        \
        }                                                                                                          \
        static smallla_status_t poinv(smallla_handle_t h, int n, const T *a, T *c, int *info, int batch) {         \
            return smallla_##x##poinvStridedBatched(h, SMALLLA_FILL_LOWER, n, (const CT *)a, n, (long long)n * n,  \
                                                    (CT *)c, n, (long long)n * n, info, batch);                    \
        }                                                                                                          \
        static smallla_status_t getrs(smallla_handle_t h, int n, const T *a, const int *ipiv, T *b, int batch) {   \
            return smallla_##x##getrsStridedBatched(h, SMALLLA_OP_N, n, 1, (const CT *)a, n, (long long)n * n,    \
                                                    ipiv, n, (CT *)b, n, n, batch);                                \
        }                                                                                                          \
    };
BENCH_PRECISION(float, float, s, 's')
BENCH_PRECISION(double, double, d, 'd')
BENCH_PRECISION(std::complex<float>, smallla_complex_float, c, 'c')
BENCH_PRECISION(std::complex<double>, smallla_complex_double, z, 'z')

template <class T> constexpr bool is_complex_v = !std::is_floating_point<T>::value;

struct options {
    std::string precisions = "sdcz";
    std::vector<int> sizes;
    std::vector<std::string> routines = {"getrf", "getri", "matinv", "getrs"};
    double min_time = 0.02;  // seconds per timed sample
    std::string out;
};

struct result {
    char precision;
    std::string routine;
    int n, batch, threads;
    double lapack_ns, smallla_ns;  // per matrix
};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best time of a few samples of f(), each sample repeating f until min_time has passed (setup() before each
// repetition restores the inputs and is not timed).
double time_best(const std::function<void()> &setup, const std::function<void()> &f, double min_time) {
    double best = 1e300;
    for (int sample = 0; sample < 3; ++sample) {
        double spent = 0;
        int reps = 0;
        while (spent < min_time || reps == 0) {
            setup();
            const double t0 = now();
            f();
            spent += now() - t0;
            ++reps;
        }
        best = std::min(best, spent / reps);
    }
    return best;
}

// Flop counts (real flops; a complex multiply-add counts as 8/2 = 4 times a real one) for the batch size.
double flops(const std::string &routine, int n) {
    const double c = (double)n * n * n;
    if (routine == "getrf") return 2.0 / 3.0 * c;
    if (routine == "getri") return 4.0 / 3.0 * c;
    if (routine == "matinv") return 2.0 * c;
    if (routine == "potrf") return c / 3.0;
    if (routine == "posv") return c / 3.0 + 2.0 * n * n;
    if (routine == "potri") return 2.0 / 3.0 * c;
    if (routine == "poinv") return c;
    return 2.0 * n * n;
}

// Uniform entries in [-1, 1): general matrices, so that partial pivoting interchanges rows as in real use.
template <class T> void fill_random(std::vector<T> &a, int n, int batch, std::mt19937 &gen) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int b = 0; b < batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                T v;
                if constexpr (is_complex_v<T>) v = T(u(gen), u(gen));
                else v = T(u(gen));
                a[(size_t)b * n * n + i + (size_t)j * n] = v;
            }
}

template <class T> void bench_precision(smallla_handle_t h, const options &opt, std::vector<result> &results) {
    using P = precision<T>;
    const int threads = omp_get_max_threads();
    std::mt19937 gen(2024);
    for (int n : opt.sizes) {
        const size_t elems = (size_t)n * n;
        // Enough matrices to stream well beyond the caches, and enough work per call to dwarf the call cost,
        // while keeping one sample short.
        const double bytes = (double)elems * sizeof(T);
        int batch = (int)std::clamp(32.0e6 / bytes, 256.0, 200000.0);
        batch = (int)std::min<double>(batch, std::max(256.0, 4.0e8 / flops("getrf", n)));
        std::vector<T> A(elems * batch), LU(elems * batch), W(elems * batch), B(n * (size_t)batch),
            X(n * (size_t)batch);
        std::vector<int> ipiv((size_t)n * batch), info(batch);
        std::vector<T> SPD(elems * batch);  // the Cholesky routines' inputs, made when they are benchmarked
        fill_random(A, n, batch, gen);
        for (auto &v : B) v = T(1);
        // Factors shared by getri and getrs (from smallla; LAPACK's are the same up to rounding).
        LU = A;
        P::getrf(h, n, LU.data(), ipiv.data(), info.data(), batch);
        const int lwork = 64 * n;
        std::vector<T> work((size_t)lwork * threads);

        for (const std::string &routine : opt.routines) {
            std::function<void()> setup, lapack, ours;
            if (routine == "getrf") {
                setup = [&] { std::memcpy(W.data(), A.data(), sizeof(T) * elems * batch); };
                lapack = [&] {
#pragma omp parallel for schedule(static)
                    for (int b = 0; b < batch; ++b) P::lapack_getrf(n, &W[b * elems], &ipiv[(size_t)b * n], &info[b]);
                };
                ours = [&] { P::getrf(h, n, W.data(), ipiv.data(), info.data(), batch); };
            } else if (routine == "getri") {
                // LAPACK's getri is in place: the loop copies the factors to C first, as an out-of-place caller
                // must; smallla's getri is out of place.
                setup = [] {};
                lapack = [&] {
#pragma omp parallel for schedule(static)
                    for (int b = 0; b < batch; ++b) {
                        std::memcpy(&W[b * elems], &LU[b * elems], sizeof(T) * elems);
                        P::lapack_getri(n, &W[b * elems], &ipiv[(size_t)b * n],
                                        &work[(size_t)omp_get_thread_num() * lwork], lwork, &info[b]);
                    }
                };
                ours = [&] { P::getri(h, n, LU.data(), ipiv.data(), W.data(), info.data(), batch); };
            } else if (routine == "matinv") {
                // LAPACK: getrf + getri on a copy, per matrix; smallla: the fused matinv.
                std::vector<int> piv_lapack((size_t)n * threads);
                setup = [] {};
                lapack = [&] {
#pragma omp parallel for schedule(static)
                    for (int b = 0; b < batch; ++b) {
                        const int t = omp_get_thread_num();
                        std::memcpy(&W[b * elems], &A[b * elems], sizeof(T) * elems);
                        P::lapack_getrf(n, &W[b * elems], &piv_lapack[(size_t)t * n], &info[b]);
                        P::lapack_getri(n, &W[b * elems], &piv_lapack[(size_t)t * n], &work[(size_t)t * lwork], lwork,
                                        &info[b]);
                    }
                };
                ours = [&] { P::matinv(h, n, A.data(), W.data(), info.data(), batch); };
                // the lambdas capture piv_lapack by reference: time them before it goes out of scope
                const double tl = time_best(setup, lapack, opt.min_time);
                const double ts = time_best(setup, ours, opt.min_time);
                results.push_back({P::name, routine, n, batch, threads, tl / batch * 1e9, ts / batch * 1e9});
                continue;
            } else if (routine == "getrs") {
                setup = [&] { std::memcpy(X.data(), B.data(), sizeof(T) * n * batch); };
                lapack = [&] {
#pragma omp parallel for schedule(static)
                    for (int b = 0; b < batch; ++b) {
                        int inf;
                        P::lapack_getrs(n, &LU[b * elems], &ipiv[(size_t)b * n], &X[(size_t)b * n], &inf);
                    }
                };
                ours = [&] { P::getrs(h, n, LU.data(), ipiv.data(), X.data(), batch); };
            } else if (routine == "potrf" || routine == "posv" || routine == "potri" || routine == "poinv") {
                // Hermitian positive definite inputs (A's lower triangle, diagonal 2n), lower triangle; LAPACK's
                // side of poinv is potrf + potri + the copy of the other triangle, as a caller needing all of the
                // inverse must do.
                for (int b = 0; b < batch; ++b)
                    for (int j = 0; j < n; ++j) {
                        T &d = SPD[b * elems + j + (size_t)j * n];
                        d = A[b * elems + j + (size_t)j * n];
                        if constexpr (is_complex_v<T>) d = T(d.real() + 2.0 * n, 0.0);
                        else d = d + T(2.0 * n);
                        for (int i = j + 1; i < n; ++i) SPD[b * elems + i + (size_t)j * n] = A[b * elems + i + (size_t)j * n];
                    }
                if (routine == "potrf") {
                    setup = [&] { std::memcpy(W.data(), SPD.data(), sizeof(T) * elems * batch); };
                    lapack = [&] {
#pragma omp parallel for schedule(static)
                        for (int b = 0; b < batch; ++b) P::lapack_potrf(n, &W[b * elems], &info[b]);
                    };
                    ours = [&] { P::potrf(h, n, W.data(), info.data(), batch); };
                } else if (routine == "posv") {
                    setup = [&] {
                        std::memcpy(W.data(), SPD.data(), sizeof(T) * elems * batch);
                        std::memcpy(X.data(), B.data(), sizeof(T) * n * batch);
                    };
                    lapack = [&] {
#pragma omp parallel for schedule(static)
                        for (int b = 0; b < batch; ++b) {
                            P::lapack_potrf(n, &W[b * elems], &info[b]);
                            int inf;
                            P::lapack_potrs(n, &W[b * elems], &X[(size_t)b * n], &inf);
                        }
                    };
                    ours = [&] { P::posv(h, n, W.data(), X.data(), info.data(), batch); };
                } else if (routine == "potri") {
                    std::memcpy(LU.data(), SPD.data(), sizeof(T) * elems * batch);
                    P::potrf(h, n, LU.data(), info.data(), batch);
                    setup = [&] { std::memcpy(W.data(), LU.data(), sizeof(T) * elems * batch); };
                    lapack = [&] {
#pragma omp parallel for schedule(static)
                        for (int b = 0; b < batch; ++b) P::lapack_potri(n, &W[b * elems], &info[b]);
                    };
                    ours = [&] { P::potri(h, n, W.data(), info.data(), batch); };
                } else {
                    setup = [] {};
                    lapack = [&] {
#pragma omp parallel for schedule(static)
                        for (int b = 0; b < batch; ++b) {
                            T *w = &W[b * elems];
                            std::memcpy(w, &SPD[b * elems], sizeof(T) * elems);
                            P::lapack_potrf(n, w, &info[b]);
                            P::lapack_potri(n, w, &info[b]);
                            for (int j = 0; j < n; ++j)
                                for (int i = j + 1; i < n; ++i) {
                                    if constexpr (is_complex_v<T>) w[j + (size_t)i * n] = std::conj(w[i + (size_t)j * n]);
                                    else w[j + (size_t)i * n] = w[i + (size_t)j * n];
                                }
                        }
                    };
                    ours = [&] { P::poinv(h, n, SPD.data(), W.data(), info.data(), batch); };
                }
            } else {
                continue;
            }
            const double tl = time_best(setup, lapack, opt.min_time);
            const double ts = time_best(setup, ours, opt.min_time);
            results.push_back({P::name, routine, n, batch, threads, tl / batch * 1e9, ts / batch * 1e9});
        }
        for (const result &r : results)
            if (r.precision == P::name && r.n == n)
                std::printf("%c  %-6s %4d %7d %12.1f %12.1f %8.2fx\n", r.precision, r.routine.c_str(), r.n, r.batch,
                            r.lapack_ns, r.smallla_ns, r.lapack_ns / r.smallla_ns);
        std::fflush(stdout);
    }
}

std::vector<int> parse_sizes(const std::string &s) {
    std::vector<int> out;
    size_t pos = 0;
    while (pos < s.size()) {
        size_t end = s.find(',', pos);
        if (end == std::string::npos) end = s.size();
        const std::string item = s.substr(pos, end - pos);
        const size_t dash = item.find('-');
        if (dash != std::string::npos) {
            for (int n = std::atoi(item.substr(0, dash).c_str()); n <= std::atoi(item.substr(dash + 1).c_str()); ++n)
                out.push_back(n);
        } else if (!item.empty()) {
            out.push_back(std::atoi(item.c_str()));
        }
        pos = end + 1;
    }
    return out;
}

std::vector<std::string> parse_list(const std::string &s) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t end = s.find(',', pos);
        if (end == std::string::npos) end = s.size();
        if (end > pos) out.push_back(s.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

void usage() {
    std::printf("usage: smallla-bench-host [--precisions sdcz] [--sizes 2-32,48,64,128]\n"
                "                          [--routines getrf,getri,matinv,getrs] [--min-time SECONDS] [--out FILE]\n");
}

}  // namespace

int main(int argc, char **argv) {
    options opt;
    opt.sizes = parse_sizes("2-32,48,64,128");
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--precisions" && has_value) opt.precisions = argv[++i];
        else if (arg == "--sizes" && has_value) opt.sizes = parse_sizes(argv[++i]);
        else if (arg == "--routines" && has_value) opt.routines = parse_list(argv[++i]);
        else if (arg == "--min-time" && has_value) opt.min_time = std::atof(argv[++i]);
        else if (arg == "--out" && has_value) opt.out = argv[++i];
        else {
            usage();
            return arg == "--help" || arg == "-h" ? 0 : 2;
        }
    }
    if (openblas_set_num_threads) openblas_set_num_threads(1);

    smallla_handle_t h;
    if (smallla_create(&h, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS) {
        std::fprintf(stderr, "smallla_create failed: %s\n", smallla_last_error(nullptr));
        return 1;
    }
    std::printf("smallla host backend vs a loop of LAPACK calls, %d OpenMP threads; time per matrix in ns\n",
                omp_get_max_threads());
    std::printf("p  routine   n   batch    lapack_ns   smallla_ns  speedup\n");
    std::vector<result> results;
    for (char p : opt.precisions) {
        if (p == 's') bench_precision<float>(h, opt, results);
        else if (p == 'd') bench_precision<double>(h, opt, results);
        else if (p == 'c') bench_precision<std::complex<float>>(h, opt, results);
        else if (p == 'z') bench_precision<std::complex<double>>(h, opt, results);
    }
    smallla_destroy(h);

    // Summary: the smallest speedup over n <= 32, per precision and routine.
    std::printf("\nsmallest speedup for n <= 32:\n");
    for (char p : opt.precisions)
        for (const std::string &routine : opt.routines) {
            double worst = 1e300;
            int at = 0;
            for (const result &r : results)
                if (r.precision == p && r.routine == routine && r.n <= 32 && r.lapack_ns / r.smallla_ns < worst) {
                    worst = r.lapack_ns / r.smallla_ns;
                    at = r.n;
                }
            if (at) std::printf("  %c %-6s %.2fx (n = %d)\n", p, routine.c_str(), worst, at);
        }

    if (!opt.out.empty()) {
        FILE *f = std::fopen(opt.out.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", opt.out.c_str());
            return 1;
        }
        std::fprintf(f, "precision,routine,n,batch,threads,lapack_ns_per_matrix,smallla_ns_per_matrix,speedup\n");
        for (const result &r : results)
            std::fprintf(f, "%c,%s,%d,%d,%d,%.2f,%.2f,%.3f\n", r.precision, r.routine.c_str(), r.n, r.batch, r.threads,
                         r.lapack_ns, r.smallla_ns, r.lapack_ns / r.smallla_ns);
        std::fclose(f);
        std::printf("wrote %s\n", opt.out.c_str());
    }
    return 0;
}
