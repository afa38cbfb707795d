// smallla-bench-host: times the host backend of smallla against the anchors of issue 32, in one run, per
// routine, precision, order n and batch, on the same threads and the same data, and takes the stronger anchor
// as the bar:
//   openblas           an OpenMP loop over OpenBLAS's LAPACK, one single-threaded call per matrix: Debian's
//                      serial build (libopenblas0-serial), loaded with dlopen from <multiarch lib folder>/
//                      openblas-serial/libopenblas.so.0 (not through liblapack.so.3, which the alternatives
//                      point at whatever provider has the highest priority);
//   reference          the same loop over reference LAPACK and BLAS, loaded with dlopen from the files the
//                      tests' oracle uses (cmake/oracle_lapack.cmake), else from <multiarch>/lapack/ and blas/;
//   eigen              Eigen's PartialPivLU in the same OpenMP loop: fixed-size Matrix<T, N, N> at the host
//                      table's orders (2-4, 6, 8, 12-32 by 4), dynamic at the others (eigen_anchor.hpp; marked *
//                      in the table at n <= 32); built only when CMake found Eigen 3;
//   openblas-threaded  a plain loop over a threaded OpenBLAS (<multiarch>/openblas-pthread/ or openblas-openmp/,
//                      Debian libopenblas0-pthread or -openmp), each call on all the threads: the bar of
//                      --large, where the batch is smaller than the thread count.
// An anchor that is not installed is reported in the header and its column stays empty; the bench goes on.
//
// The LAPACK loops: getrf = xgetrf; getri = a copy of the factors and xgetri (LAPACK's getri is in place,
// smallla's out of place); matinv = a copy of A, xgetrf and xgetri; getrs = xgetrs with one right-hand side.
// Eigen: getrf = lu.compute(A); getri = lu.inverse() from the stored factors; matinv = PartialPivLU(A).inverse();
// getrs = lu.solve(b). Eigen's getrf factors and pivots are compared with LAPACK's once per precision and order
// (two matrices of the batch), and the run says whether they agree.
// The Cholesky family (lower triangle, Hermitian positive definite inputs): potrf = xpotrf; posv = a copy of A and
// B, xpotrf and xpotrs (one right-hand side); potri = a copy of the factors and xpotri; poinv = a copy of A,
// xpotrf, xpotri and the upper triangle filled from the lower (smallla's poinv writes the full inverse). Eigen:
// LLT<Matrix<T, N, N>>: potrf = llt.compute(A); posv = LLT(A).solve(b); poinv = LLT(A).solve(identity); no potri.
//
// Prints the table (time per matrix in ns, the best anchor, smallla's speed-up over it) with a progress line on
// stderr, and with --out FILE writes the CSV; perf/host/plot_host.py draws it. See usage() and perf/NOTES.md.
#include <dlfcn.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "smallla.h"
#include "eigen_anchor.hpp"  // declarations only (no Eigen headers); defined where CMake found Eigen

namespace {

// ---------------------------------------------------------------------------------------------------------------
// The anchors

enum anchor_id { OPENBLAS, REFERENCE, EIGEN, OPENBLAS_THREADED, ANCHOR_COUNT };
const char *const anchor_name[ANCHOR_COUNT] = {"openblas", "reference", "eigen", "openblas-threaded"};
const char *const anchor_label[ANCHOR_COUNT] = {"openblas", "reference", "eigen", "ob-threaded"};  // table
const char *const anchor_csv[ANCHOR_COUNT] = {"openblas_ns_per_matrix", "reference_ns_per_matrix",
                                              "eigen_ns_per_matrix", "openblas_threaded_ns_per_matrix"};

// LAPACK's entry points for scalar type T, as dlsym finds them (Fortran symbols; getrs's hidden length of TRANS
// is passed, as gfortran's calling convention has it).
template <class T> struct lapack_calls {
    void (*getrf)(const int *m, const int *n, T *a, const int *lda, int *ipiv, int *info) = nullptr;
    void (*getri)(const int *n, T *a, const int *lda, const int *ipiv, T *work, const int *lwork,
                  int *info) = nullptr;
    void (*getrs)(const char *trans, const int *n, const int *nrhs, const T *a, const int *lda, const int *ipiv,
                  T *b, const int *ldb, int *info, size_t trans_len) = nullptr;
    void (*potrf)(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t uplo_len) = nullptr;
    void (*potrs)(const char *uplo, const int *n, const int *nrhs, const T *a, const int *lda, T *b, const int *ldb,
                  int *info, size_t uplo_len) = nullptr;
    void (*potri)(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t uplo_len) = nullptr;
};

struct lapack_lib {
    bool loaded = false;
    std::string what;  // the files loaded and the build, or why the anchor is absent
    lapack_calls<float> s;
    lapack_calls<double> d;
    lapack_calls<std::complex<float>> c;
    lapack_calls<std::complex<double>> z;

    template <class T> const lapack_calls<T> &calls() const {
        if constexpr (std::is_same_v<T, float>) return s;
        else if constexpr (std::is_same_v<T, double>) return d;
        else if constexpr (std::is_same_v<T, std::complex<float>>) return c;
        else return z;
    }
};

bool file_exists(const std::string &path) { return access(path.c_str(), R_OK) == 0; }

// The folder of the C library this process runs with (Debian: the multiarch lib folder, e.g. /lib/<triplet>,
// beside which /usr/lib/<triplet> is the same folder on a merged-/usr system), and the build's own multiarch
// folders (CMake's CMAKE_LIBRARY_ARCHITECTURE under /usr/lib and /lib).
std::vector<std::string> multiarch_dirs() {
    std::vector<std::string> dirs;
    Dl_info info;
    void *libc_symbol = dlsym(RTLD_DEFAULT, "gnu_get_libc_version");
    if (libc_symbol && dladdr(libc_symbol, &info) && info.dli_fname) {
        std::string f = info.dli_fname;
        const size_t slash = f.rfind('/');
        if (slash != std::string::npos) dirs.push_back(f.substr(0, slash));
    }
#ifdef SMALLLA_BENCH_MULTIARCH
    for (const char *root : {"/usr/lib/", "/lib/"}) dirs.push_back(std::string(root) + SMALLLA_BENCH_MULTIARCH);
#endif
    return dirs;
}

// The first <dir>/<rel> that exists, over the multiarch folders; "" if none.
std::string find_in_multiarch(const std::string &rel) {
    for (const std::string &dir : multiarch_dirs())
        if (file_exists(dir + "/" + rel)) return dir + "/" + rel;
    return "";
}

// dlopen files (dependencies first, the file with the LAPACK symbols last), each by its full path, RTLD_LOCAL:
// nothing they define enters the process's global scope, so two LAPACKs (OpenBLAS and reference) live side by
// side, and a dependency loaded first by path (reference libblas.so.3) is the one a later file's DT_NEEDED entry
// of the same SONAME resolves to. Fills lib's calls from the last file.
void *load_lapack(lapack_lib &lib, const std::vector<std::string> &files, std::string &why) {
    void *last = nullptr;
    for (const std::string &f : files) {
        last = dlopen(f.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!last) {
            const char *e = dlerror();
            why = "dlopen failed: " + std::string(e ? e : f);
            return nullptr;
        }
    }
    bool ok = true;
    auto sym = [&](auto &fn, char x, const char *routine) {
        const std::string name = std::string(1, x) + routine + "_";
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(last, name.c_str()));
        if (!fn) {
            why = "no symbol " + name + " in " + files.back();
            ok = false;
        }
    };
    sym(lib.s.getrf, 's', "getrf"), sym(lib.s.getri, 's', "getri"), sym(lib.s.getrs, 's', "getrs");
    sym(lib.d.getrf, 'd', "getrf"), sym(lib.d.getri, 'd', "getri"), sym(lib.d.getrs, 'd', "getrs");
    sym(lib.c.getrf, 'c', "getrf"), sym(lib.c.getri, 'c', "getri"), sym(lib.c.getrs, 'c', "getrs");
    sym(lib.z.getrf, 'z', "getrf"), sym(lib.z.getri, 'z', "getri"), sym(lib.z.getrs, 'z', "getrs");
    sym(lib.s.potrf, 's', "potrf"), sym(lib.s.potrs, 's', "potrs"), sym(lib.s.potri, 's', "potri");
    sym(lib.d.potrf, 'd', "potrf"), sym(lib.d.potrs, 'd', "potrs"), sym(lib.d.potri, 'd', "potri");
    sym(lib.c.potrf, 'c', "potrf"), sym(lib.c.potrs, 'c', "potrs"), sym(lib.c.potri, 'c', "potri");
    sym(lib.z.potrf, 'z', "potrf"), sym(lib.z.potrs, 'z', "potrs"), sym(lib.z.potri, 'z', "potri");
    if (!ok) return nullptr;
    // OpenBLAS: the build's configuration and the core it picked, and its thread count.
    if (auto config = (char *(*)())dlsym(last, "openblas_get_config")) {
        lib.what += " (" + std::string(config());
        if (auto core = (char *(*)())dlsym(last, "openblas_get_corename")) lib.what += ", core " + std::string(core());
        lib.what += ")";
    }
    lib.loaded = true;
    return last;
}

// Serial OpenBLAS: one thread per call, inside the OpenMP loop.
void load_openblas_serial(lapack_lib &lib) {
    const std::string path = find_in_multiarch("openblas-serial/libopenblas.so.0");
    std::string why;
    if (path.empty()) {
        lib.what = "absent: no openblas-serial/libopenblas.so.0 in the multiarch lib folder (Debian: "
                   "apt-get install libopenblas0-serial)";
        return;
    }
    lib.what = path;
    if (!load_lapack(lib, {path}, why)) lib.what = "absent: " + why;
}

// Threaded OpenBLAS (pthread build, else the OpenMP build), set to the bench's thread count.
void load_openblas_threaded(lapack_lib &lib, int threads) {
    std::string path;
    for (const char *flavour : {"openblas-pthread", "openblas-openmp"})
        if (path.empty()) path = find_in_multiarch(std::string(flavour) + "/libopenblas.so.0");
    if (path.empty()) {
        lib.what = "absent: no openblas-pthread/ or openblas-openmp/libopenblas.so.0 in the multiarch lib folder "
                   "(Debian: apt-get install libopenblas0-pthread or libopenblas0-openmp)";
        return;
    }
    lib.what = path;
    std::string why;
    void *h = load_lapack(lib, {path}, why);
    if (!h) {
        lib.what = "absent: " + why;
        return;
    }
    auto set_threads = (void (*)(int))dlsym(h, "openblas_set_num_threads");
    auto get_threads = (int (*)())dlsym(h, "openblas_get_num_threads");
    if (set_threads) set_threads(threads);
    if (get_threads) lib.what += ", " + std::to_string(get_threads()) + " threads";
}

// Reference LAPACK and BLAS: the tests' oracle files when this build configured them, else Debian's folders.
void load_reference(lapack_lib &lib) {
    std::string lapack, blas, source;
#if defined(SMALLLA_BENCH_REFERENCE_LAPACK) && defined(SMALLLA_BENCH_REFERENCE_BLAS)
    if (file_exists(SMALLLA_BENCH_REFERENCE_LAPACK) && file_exists(SMALLLA_BENCH_REFERENCE_BLAS)) {
        lapack = SMALLLA_BENCH_REFERENCE_LAPACK;
        blas = SMALLLA_BENCH_REFERENCE_BLAS;
        source = "the tests' oracle: ";
    }
#endif
    if (lapack.empty()) {
        lapack = find_in_multiarch("lapack/liblapack.so.3");
        blas = find_in_multiarch("blas/libblas.so.3");
    }
    if (lapack.empty() || blas.empty()) {
        lib.what = "absent: no lapack/liblapack.so.3 and blas/libblas.so.3 in the multiarch lib folder (Debian: "
                   "apt-get install liblapack3 libblas3)";
        return;
    }
    lib.what = source + lapack + " with " + blas;
    std::string why;
    if (!load_lapack(lib, {blas, lapack}, why)) lib.what = "absent: " + why;
}

// ---------------------------------------------------------------------------------------------------------------
// smallla's calls

template <class T> struct precision;

#define BENCH_PRECISION(T, CT, x, letter)                                                                          \
    template <> struct precision<T> {                                                                              \
        static constexpr char name = letter;                                                                       \
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
        static smallla_status_t getrs(smallla_handle_t h, int n, const T *a, const int *ipiv, T *b, int batch) {   \
            return smallla_##x##getrsStridedBatched(h, SMALLLA_OP_N, n, 1, (const CT *)a, n, (long long)n * n,    \
                                                    ipiv, n, (CT *)b, n, n, batch);                                \
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
    };
BENCH_PRECISION(float, float, s, 's')
BENCH_PRECISION(double, double, d, 'd')
BENCH_PRECISION(std::complex<float>, smallla_complex_float, c, 'c')
BENCH_PRECISION(std::complex<double>, smallla_complex_double, z, 'z')

template <class T> constexpr bool is_complex_v = !std::is_floating_point<T>::value;
template <class T> using real_t = decltype(std::abs(T()));

// ---------------------------------------------------------------------------------------------------------------
// The run

struct options {
    std::string precisions = "sdcz";
    std::vector<int> sizes;
    std::vector<int> batches;  // empty: the automatic batch per order
    std::vector<std::string> routines = {"getrf", "getri", "matinv", "getrs"};
    std::vector<int> anchors;  // anchor_id, in the order measured
    double min_time = 0.02;    // seconds per timed sample
    bool large = false;
    std::string out;
};

constexpr double absent = std::numeric_limits<double>::quiet_NaN();

struct result {
    char precision;
    std::string routine;
    int n, batch, threads;
    double smallla_ns;                  // per matrix
    double anchor_ns[ANCHOR_COUNT];     // per matrix; NaN where not measured
    int best = -1;                      // the fastest anchor, -1 if none was measured
    double speedup() const { return best < 0 ? absent : anchor_ns[best] / smallla_ns; }
};

struct eigen_check {
    char precision;
    int n;
    bool agree;
    std::string detail;
};

struct context {
    smallla_handle_t h;
    options opt;
    int threads;
    lapack_lib lib[ANCHOR_COUNT];  // OPENBLAS, REFERENCE, OPENBLAS_THREADED (EIGEN's entry unused)
    bool have[ANCHOR_COUNT] = {};  // selected and available
    std::vector<result> results;
    std::vector<eigen_check> checks;
    int cases_total = 0, cases_done = 0;
    bool tty = false;
};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best time of up to 3 samples of f(), each sample repeating f until min_time has passed (setup() before each
// repetition restores the inputs and is not timed); no further samples once the samples took over a second
// (the large orders, where one call takes that long).
double time_best(const std::function<void()> &setup, const std::function<void()> &f, double min_time) {
    double best = 1e300, total = 0;
    for (int sample = 0; sample < 3 && total < 1.0; ++sample) {
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
        total += spent;
    }
    return best;
}

void progress(context &c, char p, const std::string &routine, int n, int batch, const char *who) {
    char line[200];
    std::snprintf(line, sizeof line, "[%d/%d] %c %s n = %d batch = %d: %s", c.cases_done + 1, c.cases_total, p,
                  routine.c_str(), n, batch, who);
    if (c.tty) std::fprintf(stderr, "\r\033[K%s", line);
    else if (std::strcmp(who, "smallla") == 0) std::fprintf(stderr, "%s\n", line);  // one line per case in a log
    std::fflush(stderr);
}

void clear_progress(const context &c) {
    if (c.tty) std::fprintf(stderr, "\r\033[K");
}

// Flop counts (real flops; a complex multiply-add counts as 4 real ones), for the automatic batch.
double flops(const std::string &routine, int n) {
    const double c = (double)n * n * n;
    if (routine == "getrf") return 2.0 / 3.0 * c;
    if (routine == "getri") return 4.0 / 3.0 * c;
    if (routine == "matinv") return 2.0 * c;
    if (routine == "potrf" || routine == "posv") return c / 3.0;
    if (routine == "potri") return 2.0 / 3.0 * c;
    if (routine == "poinv") return c;
    return 2.0 * n * n;
}

// Enough matrices to stream well beyond the caches, and enough work per call to dwarf the call cost, while
// keeping one sample short.
template <class T> int auto_batch(int n) {
    const double bytes = (double)n * n * sizeof(T);
    int batch = (int)std::clamp(32.0e6 / bytes, 256.0, 200000.0);
    return (int)std::min<double>(batch, std::max(256.0, 4.0e8 / flops("getrf", n)));
}

// Uniform entries in [-1, 1): general matrices, so that partial pivoting interchanges rows as in real use.
template <class T> void fill_random(std::vector<T> &a, std::mt19937 &gen) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (T &v : a) {
        if constexpr (is_complex_v<T>) v = T(u(gen), u(gen));
        else v = T(u(gen));
    }
}

// Hermitian positive definite by diagonal dominance: a real diagonal of 2n over the uniform entries (only the
// lower triangle is read).
template <class T> void make_hpd(std::vector<T> &a, int n) {
    const size_t elems = (size_t)n * n;
    for (size_t b = 0; b < a.size() / elems; ++b)
        for (int i = 0; i < n; ++i) a[b * elems + (size_t)i * n + i] = T(2.0 * n);
}

bool is_cholesky(const std::string &routine) {
    return routine == "potrf" || routine == "posv" || routine == "potri" || routine == "poinv";
}
bool is_known(const std::string &routine) {
    return routine == "getrf" || routine == "getri" || routine == "matinv" || routine == "getrs" || is_cholesky(routine);
}

// Row order of LAPACK's interchanges (1-based ipiv): row i of P A is row rows[i] of A.
std::vector<int> lapack_rows(int n, const int *ipiv) {
    std::vector<int> rows(n);
    for (int i = 0; i < n; ++i) rows[i] = i;
    for (int i = 0; i < n; ++i) std::swap(rows[i], rows[ipiv[i] - 1]);
    return rows;
}

// The LAPACK anchors: one loop over the batch, an OpenMP loop (one single-threaded call per matrix) or, for the
// threaded library, a plain loop of calls that each use every thread.
template <class T> struct lapack_loop {
    const lapack_calls<T> &f;
    bool parallel;
    int n, batch, threads;
    int lwork;
    std::vector<T> work;
    std::vector<int> piv;
    lapack_loop(const lapack_calls<T> &calls, bool par, int n_, int batch_, int threads_)
        : f(calls), parallel(par), n(n_), batch(batch_), threads(threads_), lwork(64 * n_),
          work((size_t)lwork * threads_), piv((size_t)n_ * threads_) {}
    size_t elems() const { return (size_t)n * n; }

    void getrf(T *W, int *ipiv, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) f.getrf(&n, &n, W + b * elems(), &n, ipiv + (size_t)b * n, info + b);
    }
    void getri(const T *LU, const int *ipiv, T *C, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) {
            std::memcpy(C + b * elems(), LU + b * elems(), sizeof(T) * elems());
            f.getri(&n, C + b * elems(), &n, ipiv + (size_t)b * n, &work[(size_t)omp_get_thread_num() * lwork],
                    &lwork, info + b);
        }
    }
    void matinv(const T *A, T *C, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) {
            const int t = omp_get_thread_num();
            std::memcpy(C + b * elems(), A + b * elems(), sizeof(T) * elems());
            f.getrf(&n, &n, C + b * elems(), &n, &piv[(size_t)t * n], info + b);
            f.getri(&n, C + b * elems(), &n, &piv[(size_t)t * n], &work[(size_t)t * lwork], &lwork, info + b);
        }
    }
    void getrs(const T *LU, const int *ipiv, T *X, int *info) {
        const int one = 1;
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b)
            f.getrs("N", &n, &one, LU + b * elems(), &n, ipiv + (size_t)b * n, X + (size_t)b * n, &n, info + b, 1);
    }
    void potrf(T *W, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) f.potrf("L", &n, W + b * elems(), &n, info + b, 1);
    }
    void posv(T *W, T *X, int *info) {
        const int one = 1;
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) {
            f.potrf("L", &n, W + b * elems(), &n, info + b, 1);
            f.potrs("L", &n, &one, W + b * elems(), &n, X + (size_t)b * n, &n, info + b, 1);
        }
    }
    void potri(T *W, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) f.potri("L", &n, W + b * elems(), &n, info + b, 1);
    }
    void poinv(const T *A, T *C, int *info) {
#pragma omp parallel for schedule(static) if (parallel)
        for (int b = 0; b < batch; ++b) {
            T *c = C + b * elems();
            std::memcpy(c, A + b * elems(), sizeof(T) * elems());
            f.potrf("L", &n, c, &n, info + b, 1);
            f.potri("L", &n, c, &n, info + b, 1);
            for (int j = 1; j < n; ++j)
                for (int i = 0; i < j; ++i) {
                    if constexpr (is_complex_v<T>) c[(size_t)j * n + i] = std::conj(c[(size_t)i * n + j]);
                    else c[(size_t)j * n + i] = c[(size_t)i * n + j];
                }
        }
    }
};

#if SMALLLA_BENCH_HAVE_EIGEN
// Eigen's getrf factors and row order against LAPACK's (reference LAPACK if loaded and n <= 256, else OpenBLAS),
// on the first and the last matrix of the batch: the same row order, and factors within a rounding bound.
template <class T> void check_eigen(context &c, int n, int batch, const std::vector<T> &A, bench::eigen_lu<T> &eig) {
    const bool ref = c.lib[REFERENCE].loaded && (n <= 256 || !c.lib[OPENBLAS].loaded);
    const lapack_lib *lib = ref ? &c.lib[REFERENCE] : c.lib[OPENBLAS].loaded ? &c.lib[OPENBLAS] : nullptr;
    if (!lib) return;  // said once in the header
    const char *lib_name = ref ? "reference" : "openblas";
    eig.getrf(A.data(), true);
    const size_t elems = (size_t)n * n;
    eigen_check chk{precision<T>::name, n, true, std::string("against ") + lib_name + " LAPACK"};
    std::vector<int> samples = {0};
    if (batch > 1) samples.push_back(batch - 1);
    for (int b : samples) {
        std::vector<T> theirs(A.begin() + b * elems, A.begin() + (b + 1) * elems), ours(elems);
        std::vector<int> ipiv(n), rows(n);
        int info = 0;
        lib->calls<T>().getrf(&n, &n, theirs.data(), &n, ipiv.data(), &info);
        eig.factors(b, ours.data(), rows.data());
        double diff = 0, scale = 0;
        for (size_t i = 0; i < elems; ++i) {
            diff = std::max<double>(diff, std::abs(ours[i] - theirs[i]));
            scale = std::max<double>(scale, std::abs(theirs[i]));
        }
        const double bound = 100.0 * n * std::numeric_limits<real_t<T>>::epsilon() * scale;
        char detail[200];
        if (lapack_rows(n, ipiv.data()) != rows) {
            std::snprintf(detail, sizeof detail, "matrix %d: other pivots than %s LAPACK", b, lib_name);
        } else if (!(diff <= bound)) {
            std::snprintf(detail, sizeof detail, "matrix %d: factors differ from %s LAPACK's by %.3g (bound %.3g)",
                          b, lib_name, diff, bound);
        } else {
            continue;
        }
        chk.agree = false;
        chk.detail = detail;
        clear_progress(c);
        std::printf("eigen check %c n = %d: %s\n", chk.precision, n, detail);
        break;
    }
    c.checks.push_back(chk);
}
#endif

template <class T> void bench_case(context &c, int n, int batch) {
    using P = precision<T>;
    const size_t elems = (size_t)n * n;
    std::mt19937 gen(2024 + n);
    std::vector<T> A(elems * batch), LU, W(elems * batch), B((size_t)n * batch), X((size_t)n * batch);
    std::vector<int> ipiv((size_t)n * batch), info(batch);
    fill_random(A, gen);
    for (auto &v : B) v = T(1);
    // The Cholesky family's inputs: the same entries made positive definite, and smallla's factors for potri.
    std::vector<T> H, F;
    bool chol = false, need_chol_factors = false;
    for (const std::string &r : c.opt.routines) chol |= is_cholesky(r), need_chol_factors |= r == "potri";
    if (chol) {
        H = A;
        make_hpd(H, n);
    }
    if (need_chol_factors) {
        F = H;
        P::potrf(c.h, n, F.data(), info.data(), batch);
    }
    // Factors shared by getri and getrs (smallla's; each anchor's own are the same up to rounding).
    bool need_factors = false;
    for (const std::string &r : c.opt.routines) need_factors |= r == "getri" || r == "getrs";
    if (need_factors) {
        LU = A;
        P::getrf(c.h, n, LU.data(), ipiv.data(), info.data(), batch);
    }
    std::vector<int> ipiv_w((size_t)n * batch), info_w(batch);  // the anchors' own outputs

    std::unique_ptr<lapack_loop<T>> loops[ANCHOR_COUNT];
    for (int a : c.opt.anchors)
        if (c.have[a] && a != EIGEN)
            loops[a] = std::make_unique<lapack_loop<T>>(c.lib[a].template calls<T>(), a != OPENBLAS_THREADED, n,
                                                        batch, c.threads);
#if SMALLLA_BENCH_HAVE_EIGEN
    std::unique_ptr<bench::eigen_lu<T>> eig;
    std::unique_ptr<bench::eigen_llt<T>> eig_llt;
    bool eig_factored = false;
    // In the OpenMP loop; in --large at a batch smaller than the thread count, a plain loop in which Eigen's
    // own (OpenMP) matrix products may use the threads.
    const bool eig_parallel = !(c.opt.large && batch < c.threads);
    if (c.have[EIGEN]) {
        eig = bench::make_eigen_lu<T>(n, batch);
        if (chol) eig_llt = bench::make_eigen_llt<T>(n, batch);
        // The check, once per precision and order (the first batch of --batches).
        const bool checked = std::any_of(c.checks.begin(), c.checks.end(),
                                         [&](const eigen_check &k) { return k.precision == P::name && k.n == n; });
        if (!checked && std::find(c.opt.routines.begin(), c.opt.routines.end(), "getrf") != c.opt.routines.end())
            check_eigen<T>(c, n, batch, A, *eig);
    }
#endif

    for (const std::string &routine : c.opt.routines) {
        if (!is_known(routine)) continue;
        result r{P::name, routine, n, batch, c.threads, absent, {}, -1};
        for (double &v : r.anchor_ns) v = absent;
        std::function<void()> setup = [] {};
        if (routine == "getrf") setup = [&] { std::memcpy(W.data(), A.data(), sizeof(T) * elems * batch); };
        if (routine == "getrs") setup = [&] { std::memcpy(X.data(), B.data(), sizeof(T) * n * batch); };
        if (routine == "potrf") setup = [&] { std::memcpy(W.data(), H.data(), sizeof(T) * elems * batch); };
        if (routine == "posv")
            setup = [&] {
                std::memcpy(W.data(), H.data(), sizeof(T) * elems * batch);
                std::memcpy(X.data(), B.data(), sizeof(T) * n * batch);
            };
        if (routine == "potri") setup = [&] { std::memcpy(W.data(), F.data(), sizeof(T) * elems * batch); };

        progress(c, P::name, routine, n, batch, "smallla");
        std::function<void()> ours;
        if (routine == "getrf") ours = [&] { P::getrf(c.h, n, W.data(), ipiv_w.data(), info_w.data(), batch); };
        if (routine == "getri") ours = [&] { P::getri(c.h, n, LU.data(), ipiv.data(), W.data(), info_w.data(), batch); };
        if (routine == "matinv") ours = [&] { P::matinv(c.h, n, A.data(), W.data(), info_w.data(), batch); };
        if (routine == "getrs") ours = [&] { P::getrs(c.h, n, LU.data(), ipiv.data(), X.data(), batch); };
        if (routine == "potrf") ours = [&] { P::potrf(c.h, n, W.data(), info_w.data(), batch); };
        if (routine == "posv") ours = [&] { P::posv(c.h, n, W.data(), X.data(), info_w.data(), batch); };
        if (routine == "potri") ours = [&] { P::potri(c.h, n, W.data(), info_w.data(), batch); };
        if (routine == "poinv") ours = [&] { P::poinv(c.h, n, H.data(), W.data(), info_w.data(), batch); };
        r.smallla_ns = time_best(setup, ours, c.opt.min_time) / batch * 1e9;

        for (int a : c.opt.anchors) {
            if (!c.have[a]) continue;
            progress(c, P::name, routine, n, batch, anchor_name[a]);
            std::function<void()> theirs;
            if (a == EIGEN) {
#if SMALLLA_BENCH_HAVE_EIGEN
                if ((routine == "getri" || routine == "getrs") && !eig_factored) eig->getrf(A.data(), true);
                eig_factored = true;
                bench::eigen_lu<T> *e = eig.get();
                if (routine == "getrf") theirs = [&, e] { e->getrf(W.data(), eig_parallel); };
                if (routine == "getri") theirs = [&, e] { e->getri(W.data(), eig_parallel); };
                if (routine == "matinv") theirs = [&, e] { e->matinv(A.data(), W.data(), eig_parallel); };
                if (routine == "getrs") theirs = [&, e] { e->getrs(B.data(), X.data(), eig_parallel); };
                bench::eigen_llt<T> *e2 = eig_llt.get();
                if (routine == "potrf") theirs = [&, e2] { e2->potrf(W.data(), eig_parallel); };
                if (routine == "posv") theirs = [&, e2] { e2->posv(W.data(), X.data(), eig_parallel); };
                if (routine == "poinv") theirs = [&, e2] { e2->poinv(H.data(), W.data(), eig_parallel); };
#endif
                if (!theirs) continue;  // no Eigen counterpart (potri)
            } else {
                lapack_loop<T> *l = loops[a].get();
                std::fill(info_w.begin(), info_w.end(), 0);
                if (routine == "getrf") theirs = [&, l] { l->getrf(W.data(), ipiv_w.data(), info_w.data()); };
                if (routine == "getri") theirs = [&, l] { l->getri(LU.data(), ipiv.data(), W.data(), info_w.data()); };
                if (routine == "matinv") theirs = [&, l] { l->matinv(A.data(), W.data(), info_w.data()); };
                if (routine == "getrs") theirs = [&, l] { l->getrs(LU.data(), ipiv.data(), X.data(), info_w.data()); };
                if (routine == "potrf") theirs = [&, l] { l->potrf(W.data(), info_w.data()); };
                if (routine == "posv") theirs = [&, l] { l->posv(W.data(), X.data(), info_w.data()); };
                if (routine == "potri") theirs = [&, l] { l->potri(W.data(), info_w.data()); };
                if (routine == "poinv") theirs = [&, l] { l->poinv(H.data(), W.data(), info_w.data()); };
            }
            r.anchor_ns[a] = time_best(setup, theirs, c.opt.min_time) / batch * 1e9;
            if (a != EIGEN) {
                const long bad = std::count_if(info_w.begin(), info_w.end(), [](int v) { return v != 0; });
                if (bad) {
                    clear_progress(c);
                    std::fprintf(stderr, "warning: %s %c%s n = %d: info != 0 for %ld of %d matrices\n",
                                 anchor_name[a], P::name, routine.c_str(), n, bad, batch);
                }
            }
            if (r.best < 0 || r.anchor_ns[a] < r.anchor_ns[r.best]) r.best = a;
        }
        c.results.push_back(r);
        ++c.cases_done;
    }
}

template <class T> void bench_precision(context &c) {
    for (int n : c.opt.sizes) {
        const std::vector<int> batches = c.opt.batches.empty() ? std::vector<int>{auto_batch<T>(n)} : c.opt.batches;
        for (int batch : batches) {
            const size_t first = c.results.size();
            bench_case<T>(c, n, batch);
            clear_progress(c);
            for (size_t i = first; i < c.results.size(); ++i) {
                const result &r = c.results[i];
                std::printf("%c  %-6s %4d %7d %12.1f", r.precision, r.routine.c_str(), r.n, r.batch, r.smallla_ns);
                for (int a : c.opt.anchors) {
                    if (std::isnan(r.anchor_ns[a])) std::printf(" %12s", "-");
                    else if (a == EIGEN && r.n <= 32 && !bench::eigen_fixed_order(r.n))
                        std::printf(" %11.1f*", r.anchor_ns[a]);  // Eigen's dynamic classes: a weaker anchor
                    else std::printf(" %12.1f", r.anchor_ns[a]);
                }
                if (r.best >= 0) std::printf("  %-17s %7.2fx\n", anchor_name[r.best], r.speedup());
                else std::printf("  %-17s %8s\n", "-", "-");
            }
            std::fflush(stdout);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Options and output

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

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            if (colon != std::string::npos) {
                size_t start = line.find_first_not_of(" \t", colon + 1);
                return start == std::string::npos ? "unknown" : line.substr(start);
            }
        }
    return "unknown";
}

std::string csv_quote(const std::string &s) {
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

const char *usage_text =
    "usage: smallla-bench-host [--precisions sdcz] [--sizes 2-32,48,64,128] [--batches LIST]\n"
    "                          [--routines getrf,getri,matinv,getrs,potrf,posv,potri,poinv] [--anchors LIST]\n"
    "                          [--min-time SECONDS]\n"
    "                          [--large] [--out FILE.csv]\n"
    "\n"
    "Times smallla's host backend against the anchors of issue 32 on the same threads (OMP_NUM_THREADS) and data;\n"
    "the fastest anchor is the bar (speedup = its time / smallla's). Anchors (--anchors, comma-separated):\n"
    "  openblas           OpenMP loop over serial OpenBLAS (openblas-serial/libopenblas.so.0, dlopen)\n"
    "  reference          OpenMP loop over reference LAPACK + BLAS (the tests' oracle files, dlopen)\n"
    "  eigen              OpenMP loop over Eigen's PartialPivLU (fixed-size at n = 2-4, 6, 8, 12-32 by 4)\n"
    "  openblas-threaded  plain loop over threaded OpenBLAS (openblas-pthread/ or openblas-openmp/, dlopen)\n"
    "Default: openblas,reference,eigen at an automatic batch per order (32 MB of matrices, 256-200000).\n"
    "--large: orders 33-4096 (default --sizes 33,48,64,96,128,256,512,1024,2048,4096) at --batches 1,2,4\n"
    "(default), anchors openblas-threaded,openblas,eigen (reference takes minutes per call there: name it to\n"
    "add it). --batches also replaces the automatic batch without --large. Time: best of up to 3 samples of at\n"
    "least --min-time seconds (0.02), fewer once the samples took a second.\n"
    "\n"
    "The record (a quiet machine; build Release on the machine that runs it; see perf/NOTES.md):\n"
    "  for t in 1 2; do OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores \\\n"
    "    build/perf/host/smallla-bench-host --out perf/results/DATE-host-COMMIT-${t}t.csv; done\n"
    "  OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close OMP_PLACES=cores \\\n"
    "    build/perf/host/smallla-bench-host --large --out perf/results/DATE-host-COMMIT-large.csv\n"
    "  python3 perf/host/plot_host.py perf/results/DATE-host-COMMIT-2t.csv\n";

}  // namespace

int main(int argc, char **argv) {
    context c;
    options &opt = c.opt;
    std::string sizes, anchors;
    bool batches_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--precisions" && has_value) opt.precisions = argv[++i];
        else if (arg == "--sizes" && has_value) sizes = argv[++i];
        else if (arg == "--batches" && has_value) opt.batches = parse_sizes(argv[++i]), batches_given = true;
        else if (arg == "--routines" && has_value) opt.routines = parse_list(argv[++i]);
        else if (arg == "--anchors" && has_value) anchors = argv[++i];
        else if (arg == "--min-time" && has_value) opt.min_time = std::atof(argv[++i]);
        else if (arg == "--out" && has_value) opt.out = argv[++i];
        else if (arg == "--large") opt.large = true;
        else {
            std::fputs(usage_text, arg == "--help" || arg == "-h" ? stdout : stderr);
            return arg == "--help" || arg == "-h" ? 0 : 2;
        }
    }
    opt.sizes = parse_sizes(!sizes.empty() ? sizes : opt.large ? "33,48,64,96,128,256,512,1024,2048,4096"
                                                               : "2-32,48,64,128");
    if (opt.large && !batches_given) opt.batches = {1, 2, 4};
    if (anchors.empty()) anchors = opt.large ? "openblas-threaded,openblas,eigen" : "openblas,reference,eigen";
    for (const std::string &a : parse_list(anchors)) {
        int id = -1;
        for (int k = 0; k < ANCHOR_COUNT; ++k)
            if (a == anchor_name[k]) id = k;
        if (id < 0) {
            std::fprintf(stderr, "unknown anchor '%s'\n\n%s", a.c_str(), usage_text);
            return 2;
        }
        if (std::find(opt.anchors.begin(), opt.anchors.end(), id) == opt.anchors.end()) opt.anchors.push_back(id);
    }
    for (const std::string &r : opt.routines)
        if (!is_known(r)) {
            std::fprintf(stderr, "unknown routine '%s'\n\n%s", r.c_str(), usage_text);
            return 2;
        }
    for (int n : opt.sizes)
        if (n < 1) {
            std::fprintf(stderr, "orders must be >= 1\n");
            return 2;
        }
    for (int b : opt.batches)
        if (b < 1) {
            std::fprintf(stderr, "batches must be >= 1\n");
            return 2;
        }
    c.threads = omp_get_max_threads();
    c.tty = isatty(fileno(stderr));

    // The anchors: load what was asked for; say what each is, or why it is absent.
    const std::string cpu = cpu_model();
    int major = 0, minor = 0, patch = 0;
    smallla_get_version(&major, &minor, &patch);
    std::printf("smallla-bench-host%s: smallla %d.%d.%d host backend against the anchors, time per matrix in ns\n",
                opt.large ? " --large" : "", major, minor, patch);
    std::printf("cpu: %s; %d OpenMP threads\n", cpu.c_str(), c.threads);
    for (int a : opt.anchors) {
        std::string what;
        if (a == OPENBLAS) load_openblas_serial(c.lib[a]);
        else if (a == REFERENCE) load_reference(c.lib[a]);
        else if (a == OPENBLAS_THREADED) load_openblas_threaded(c.lib[a], c.threads);
        if (a == EIGEN) {
#if SMALLLA_BENCH_HAVE_EIGEN
            c.have[a] = true;
            what = "Eigen " SMALLLA_BENCH_EIGEN_VERSION " PartialPivLU and LLT, fixed-size Matrix<T, N, N> at the host "
                   "table's orders (2-4, 6, 8, 12-32 by 4), dynamic at the others (* in the table, a weaker anchor); "
                   "compiled with " SMALLLA_BENCH_EIGEN_FLAGS;
#else
            what = "absent: " SMALLLA_BENCH_EIGEN_MISSING;
#endif
        } else {
            c.have[a] = c.lib[a].loaded;
            what = c.lib[a].what;
        }
        std::printf("  %-17s %s\n", anchor_name[a], what.c_str());
    }
    if (c.have[EIGEN] && !c.lib[REFERENCE].loaded && !c.lib[OPENBLAS].loaded)
        std::printf("  (eigen's getrf is checked against LAPACK only when reference or openblas is loaded)\n");

    smallla_handle_t h;
    if (smallla_create(&h, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS) {
        std::fprintf(stderr, "smallla_create failed: %s\n", smallla_last_error(nullptr));
        return 1;
    }
    c.h = h;
    for (char p : opt.precisions) {
        if (std::string("sdcz").find(p) == std::string::npos) continue;
        for (int n : opt.sizes) {
            (void)n;
            for (const std::string &r : opt.routines)
                if (is_known(r))
                    c.cases_total += opt.batches.empty() ? 1 : (int)opt.batches.size();
        }
    }
    std::printf("p  routine   n   batch      smallla");
    for (int a : opt.anchors) std::printf(" %12s", anchor_label[a]);
    std::printf("  %-17s %8s\n", "best anchor", "speedup");
    for (char p : opt.precisions) {
        if (p == 's') bench_precision<float>(c);
        else if (p == 'd') bench_precision<double>(c);
        else if (p == 'c') bench_precision<std::complex<float>>(c);
        else if (p == 'z') bench_precision<std::complex<double>>(c);
    }
    clear_progress(c);
    smallla_destroy(h);

    // Summary: the smallest speed-up over the best anchor, at n <= 32 and above (issue 32's goals: 2x and 1x).
    std::printf("\nsmallest speedup over the best anchor (goal: >= 2x at n <= 32, >= 1x above):\n");
    for (char p : opt.precisions)
        for (const std::string &routine : opt.routines)
            for (int part = 0; part < 2; ++part) {
                const result *worst = nullptr;
                for (const result &r : c.results)
                    if (r.precision == p && r.routine == routine && (r.n <= 32) == (part == 0) && r.best >= 0 &&
                        (!worst || r.speedup() < worst->speedup()))
                        worst = &r;
                if (worst)
                    std::printf("  %c %-6s %s %6.2fx (n = %d, batch %d, against %s)\n", p, routine.c_str(),
                                part == 0 ? "n <= 32" : "n >  32", worst->speedup(), worst->n, worst->batch,
                                anchor_name[worst->best]);
            }
    if (!c.checks.empty()) {
        const long bad = std::count_if(c.checks.begin(), c.checks.end(), [](const eigen_check &k) { return !k.agree; });
        std::printf("eigen check (getrf's factors and pivots of the first and the last matrix against LAPACK's, once "
                    "per precision and order): ");
        if (bad) std::printf("%ld of %zu disagree (above)\n", bad, c.checks.size());
        else std::printf("all %zu agree\n", c.checks.size());
    }

    if (!opt.out.empty()) {
        FILE *f = std::fopen(opt.out.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", opt.out.c_str());
            return 1;
        }
        std::fprintf(f, "precision,routine,n,batch,threads");
        for (int a = 0; a < ANCHOR_COUNT; ++a) std::fprintf(f, ",%s", anchor_csv[a]);
        std::fprintf(f, ",smallla_ns_per_matrix,best_anchor,speedup,mode,cpu\n");
        for (const result &r : c.results) {
            std::fprintf(f, "%c,%s,%d,%d,%d", r.precision, r.routine.c_str(), r.n, r.batch, r.threads);
            for (int a = 0; a < ANCHOR_COUNT; ++a) {
                if (std::isnan(r.anchor_ns[a])) std::fprintf(f, ",");
                else std::fprintf(f, ",%.2f", r.anchor_ns[a]);
            }
            std::fprintf(f, ",%.2f,%s,", r.smallla_ns, r.best >= 0 ? anchor_name[r.best] : "");
            if (r.best >= 0) std::fprintf(f, "%.3f", r.speedup());
            std::fprintf(f, ",%s,%s\n", opt.large ? "large" : "batched", csv_quote(cpu).c_str());
        }
        std::fclose(f);
        std::printf("wrote %s\n", opt.out.c_str());
    }
    return 0;
}
