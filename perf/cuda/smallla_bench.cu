// smallla-bench: the CUDA backend of the LU family against cuBLAS's batched routines and against a
// device-to-device copy of the same bytes (the bandwidth ceiling).
//
// For each op x precision x n: a batch of at least --gib GiB of matrices (or --batch matrices) of fresh
// random data (never zeros), the median of --reps timed runs (CUDA events, after a warm-up), ours and
// cuBLAS's on the same data. Prints a table (progress on stderr) and writes CSV with the columns
//   op,prec,n,batch,ms,gflops,gbs,frac_copy,vendor_ms,speedup_vs_vendor
// op: getrf, getrf_nopiv, matinv, getri (from the factors), getrs (getrf followed by getrs with --nrhs
// right-hand sides, timed together, as a solve is used); the Cholesky family (on request, --ops): potrf, posv
// (--nrhs), potrs (--nrhs, from the factors), potri (from the factors), poinv, against cuSOLVER's potrfBatched
// (+ potrsBatched, nrhs = 1) and, for the inverses, cuBLAS's getrf + getri; their bytes count the lower triangle
// that they read. op gemm (on request): cuBLAS's strided-batched GEMM C = A B of the same order and batch, the
// compute ceiling, as its own row.
// gbs counts the bytes an op must move at least (each matrix read once and written once; getrs reads the
// factors again, and its right-hand sides); frac_copy = gbs / the copy's bandwidth (bytes read + written per
// second copying the batch's matrices: the fastest of cudaMemcpyAsync device to device, a copy kernel from one
// buffer to another and the same kernel in place, each the median of --reps runs; measured once per precision
// and order and printed as a "# copy" line). gflops uses LAPACK Working Note 41's counts (complex:
// 4x the real count). vendor: the cuBLAS batched routine, for matinv beyond n = 32 (where matinvBatched
// stops) cuBLAS's getrfBatched + getriBatched, timed together.
// --grid: n x batch cells of getrf, getrf + getrs, matinv and potrf, each against cuBLAS's batched routine (for potrf
// cuSOLVER's potrfBatched, in the same column), cuSOLVER's single-matrix routine looped over the batch on one stream
// and on four, and cuBLAS's strided-batched GEMM of the same order and batch, each route's runs one after the other
// (smallla first); --interleave times potrf's four in turn, run by run.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "smallla.h"

namespace {

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);      \
            std::exit(2);                                                                                      \
        }                                                                                                      \
    } while (0)
#define CB(x)                                                                                                  \
    do {                                                                                                       \
        cublasStatus_t s_ = (x);                                                                               \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                     \
            std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)s_, __FILE__, __LINE__);                   \
            std::exit(2);                                                                                      \
        }                                                                                                      \
    } while (0)
#define CS(x)                                                                                                  \
    do {                                                                                                       \
        smallla_status_t s_ = (x);                                                                             \
        if (s_ != SMALLLA_SUCCESS) {                                                                           \
            std::fprintf(stderr, "smallla error %s at %s:%d: %s\n", smallla_status_string(s_), __FILE__,     \
                         __LINE__, smallla_last_error(handle));                                                \
            std::exit(2);                                                                                      \
        }                                                                                                      \
    } while (0)

smallla_handle_t handle;
cublasHandle_t blas;
cudaStream_t stream;
cusolverDnHandle_t chol_solver;  // cuSOLVER's potrfBatched/potrsBatched, the Cholesky ops' vendor, on `stream`

template <class V> V one_of() { return V(1); }
template <class V> V zero_of() { return V(0); }
template <> cuComplex one_of<cuComplex>() { return make_cuComplex(1.0f, 0.0f); }
template <> cuComplex zero_of<cuComplex>() { return make_cuComplex(0.0f, 0.0f); }
template <> cuDoubleComplex one_of<cuDoubleComplex>() { return make_cuDoubleComplex(1.0, 0.0); }
template <> cuDoubleComplex zero_of<cuDoubleComplex>() { return make_cuDoubleComplex(0.0, 0.0); }

// The routines of one precision: ours (strided) and cuBLAS's (pointer arrays), on the public types.
template <class C> struct prec;
#define BENCH_PREC(x, X, C, V, is_cplx)                                                                        \
    template <> struct prec<C> {                                                                               \
        static constexpr const char *name = #x;                                                                \
        static constexpr bool complex = is_cplx;                                                               \
        static constexpr auto getrf = smallla_##x##getrfStridedBatched;                                        \
        static constexpr auto getri = smallla_##x##getriStridedBatched;                                        \
        static constexpr auto matinv = smallla_##x##matinvStridedBatched;                                      \
        static constexpr auto getrs = smallla_##x##getrsStridedBatched;                                        \
        static cublasStatus_t v_getrf(int n, C **a, int *p, int *info, int b) {                                \
            return cublas##X##getrfBatched(blas, n, (V **)a, n, p, info, b);                                   \
        }                                                                                                      \
        static cublasStatus_t v_getri(int n, C **a, const int *p, C **c, int *info, int b) {                   \
            return cublas##X##getriBatched(blas, n, (const V *const *)a, n, p, (V **)c, n, info, b);           \
        }                                                                                                      \
        static cublasStatus_t v_matinv(int n, C **a, C **c, int *info, int b) {                                \
            return cublas##X##matinvBatched(blas, n, (const V *const *)a, n, (V **)c, n, info, b);             \
        }                                                                                                      \
        static cusolverStatus_t s_getrf_work(cusolverDnHandle_t h, int n, C *a, int *lw) {                     \
            return cusolverDn##X##getrf_bufferSize(h, n, n, (V *)a, n, lw);                                    \
        }                                                                                                      \
        static cusolverStatus_t s_potrf_work(cusolverDnHandle_t h, int n, C *a, int *lw) {                     \
            return cusolverDn##X##potrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, (V *)a, n, lw);               \
        }                                                                                                      \
        static cusolverStatus_t s_potrf(cusolverDnHandle_t h, int n, C *a, C *w, int lw, int *info) {          \
            return cusolverDn##X##potrf(h, CUBLAS_FILL_MODE_LOWER, n, (V *)a, n, (V *)w, lw, info);            \
        }                                                                                                      \
        static cusolverStatus_t s_getrf(cusolverDnHandle_t h, int n, C *a, C *w, int *p, int *info) {          \
            return cusolverDn##X##getrf(h, n, n, (V *)a, n, (V *)w, p, info);                                  \
        }                                                                                                      \
        static cusolverStatus_t s_getrs(cusolverDnHandle_t h, int n, int nrhs, const C *a, const int *p, C *bb, \
                                        int *info) {                                                           \
            return cusolverDn##X##getrs(h, CUBLAS_OP_N, n, nrhs, (const V *)a, n, p, (V *)bb, n, info);        \
        }                                                                                                      \
        static cublasStatus_t gemm(int n, const C *a, const C *bb, C *c, int b) {                              \
            const V one = one_of<V>(), zero = zero_of<V>();                                                    \
            return cublas##X##gemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (const V *)a, n, \
                                                 (long long)n * n, (const V *)bb, n, (long long)n * n, &zero,  \
                                                 (V *)c, n, (long long)n * n, b);                              \
        }                                                                                                      \
        static constexpr auto potrf = smallla_##x##potrfStridedBatched;                                        \
        static constexpr auto posv = smallla_##x##posvStridedBatched;                                          \
        static constexpr auto potrs = smallla_##x##potrsStridedBatched;                                        \
        static constexpr auto potri = smallla_##x##potriStridedBatched;                                        \
        static constexpr auto poinv = smallla_##x##poinvStridedBatched;                                        \
        static cusolverStatus_t v_potrf(int n, C **a, int *info, int b) {                                      \
            return cusolverDn##X##potrfBatched(chol_solver, CUBLAS_FILL_MODE_LOWER, n, (V **)a, n, info, b);     \
        }                                                                                                      \
        static cusolverStatus_t v_potrs(int n, C **a, C **bb, int *info, int b) {                              \
            return cusolverDn##X##potrsBatched(chol_solver, CUBLAS_FILL_MODE_LOWER, n, 1, (V **)a, n, (V **)bb, n, \
                                               info, b);                                                       \
        }                                                                                                      \
        static cublasStatus_t v_getrs(int n, int nrhs, C **a, const int *p, C **bb, int *hinfo, int b) {       \
            return cublas##X##getrsBatched(blas, CUBLAS_OP_N, n, nrhs, (const V *const *)a, n, p, (V **)bb, n, \
                                           hinfo, b);                                                          \
        }                                                                                                      \
    };
BENCH_PREC(s, S, float, float, false)
BENCH_PREC(d, D, double, double, false)
BENCH_PREC(c, C, smallla_complex_float, cuComplex, true)
BENCH_PREC(z, Z, smallla_complex_double, cuDoubleComplex, true)

// Fresh random data in [-1, 1] (re and im) from a hash of the index and a seed; shift added to the diagonal.
template <class R>
__global__ void fill_random(R *x, long long count, int parts, int n, double shift, unsigned long long seed) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < count; e += (long long)gridDim.x * blockDim.x) {
        unsigned long long h = (unsigned long long)e * 0x9E3779B97F4A7C15ull + seed;
        h ^= h >> 31;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
        double v = (double)(h >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
        if (v == 0.0) v = 0.5;
        const long long elem = e / parts, within = elem % ((long long)n * n);
        if (shift != 0.0 && e % parts == 0 && within % n == within / n) v += shift;
        x[e] = (R)v;
    }
}
template <class C> void fill(C *x, long long elems, int n, double shift, unsigned long long seed) {
    constexpr int parts = prec<C>::complex ? 2 : 1;
    if constexpr (sizeof(C) / parts == 4)
        fill_random<float><<<4096, 256, 0, stream>>>((float *)x, elems * parts, parts, n, shift, seed);
    else
        fill_random<double><<<4096, 256, 0, stream>>>((double *)x, elems * parts, parts, n, shift, seed);
    CK(cudaGetLastError());
}

// batch identity matrices of order n, one after the other.
template <class C> __global__ void make_identities(C *x, int n, long long batch) {
    const long long total = (long long)n * n * batch;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long w = e % ((long long)n * n);
        x[e] = C{};
        using part = std::conditional_t<sizeof(C) / (prec<C>::complex ? 2 : 1) == 4, float, double>;
        if (w % n == w / n) *reinterpret_cast<part *>(&x[e]) = part(1);  // the real part
    }
}

__global__ void make_pointers(void **out, char *base, long long stride_bytes, int batch) {
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < batch; b += (long long)gridDim.x * blockDim.x)
        out[b] = base + b * stride_bytes;
}

// The copy ceiling's kernel: one 16-byte word per thread, dst[i] = src[i] ^ key with key = 0 at run time (so
// that an in-place copy, src == dst, still reads and writes every byte); thread 0 copies the bytes past the
// last whole word.
__global__ void copy_words(const char *src, char *dst, size_t bytes, unsigned key) {
    const size_t words = bytes / 16, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < words) {
        uint4 w = reinterpret_cast<const uint4 *>(src)[i];
        w.x ^= key; w.y ^= key; w.z ^= key; w.w ^= key;
        reinterpret_cast<uint4 *>(dst)[i] = w;
    }
    if (i == 0)
        for (size_t b = words * 16; b < bytes; ++b) dst[b] = (char)(src[b] ^ (char)key);
}
void launch_copy_words(const void *src, void *dst, size_t bytes) {
    const size_t blocks = std::max<size_t>(1, (bytes / 16 + 255) / 256);
    copy_words<<<(unsigned)blocks, 256, 0, stream>>>((const char *)src, (char *)dst, bytes, 0u);
    CK(cudaGetLastError());
}

struct timer {
    cudaEvent_t a, b;
    timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
    ~timer() { cudaEventDestroy(a); cudaEventDestroy(b); }
};

// One timed run of body() (events on the stream), after an untimed reset().
template <class Reset, class Body> float timed_ms(Reset &&reset, Body &&body) {
    static timer t;
    reset();
    CK(cudaEventRecord(t.a, stream));
    body();
    CK(cudaEventRecord(t.b, stream));
    CK(cudaEventSynchronize(t.b));
    float x;
    CK(cudaEventElapsedTime(&x, t.a, t.b));
    return x;
}
inline double median_of(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median of reps timed runs of body() after an untimed one, each after an untimed reset().
template <class Reset, class Body> double median_ms(int reps, Reset &&reset, Body &&body) {
    std::vector<float> ms;
    for (int r = -1; r < reps; ++r) {
        const float x = timed_ms(reset, body);
        if (r >= 0) ms.push_back(x);
    }
    return median_of(ms);
}

// As median_ms for several bodies, their runs interleaved (body 0, 1, ..., then again), so that a drift of the GPU's
// state over the cell (clocks, what ran before) falls on every body alike.
template <class Reset> std::vector<double> median_ms_interleaved(int reps, Reset &&reset,
                                                                const std::vector<std::function<void()>> &bodies) {
    std::vector<std::vector<float>> ms(bodies.size());
    for (int r = -1; r < reps; ++r)
        for (size_t i = 0; i < bodies.size(); ++i) {
            const float x = timed_ms(reset, bodies[i]);
            if (r >= 0) ms[i].push_back(x);
        }
    std::vector<double> out;
    for (const auto &v : ms) out.push_back(median_of(v));
    return out;
}

struct options {
    std::vector<std::string> ops{"getrf", "getrf_nopiv", "matinv", "getri", "getrs"};  // + potrf, posv, potri, poinv
    std::vector<std::string> precs{"s", "d", "c", "z"};
    std::vector<int> orders;
    double gib = 1.0;
    long long fixed_batch = 0;
    int reps = 5, nrhs = 1;
    bool vendor = true;
    std::string csv = "smallla-bench.csv";
    bool grid = false;
    bool interleave = false;  // --interleave: potrf's grid cells time their four routes in turn, run by run
    std::vector<long long> batches{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    double max_gib = 8.0;
};

std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    size_t a = 0;
    while (a <= s.size()) {
        size_t b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        if (b > a) out.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return out;
}
std::vector<int> parse_orders(const std::string &s) {
    std::vector<int> out;
    for (const std::string &t : split(s)) {
        const size_t dash = t.find('-');
        if (dash == std::string::npos) out.push_back(std::atoi(t.c_str()));
        else
            for (int n = std::atoi(t.substr(0, dash).c_str()); n <= std::atoi(t.substr(dash + 1).c_str()); ++n) out.push_back(n);
    }
    return out;
}

double flops_getrf(double n) { return 2.0 * n * n * n / 3.0 - n * n / 2.0 + 5.0 * n / 6.0; }
double flops_getri(double n) { return 4.0 * n * n * n / 3.0 - n * n + 5.0 * n / 3.0; }
double flops_potrf(double n) { return n * n * n / 3.0 + n * n / 2.0 + n / 6.0; }
double flops_potri(double n) { return 2.0 * n * n * n / 3.0 + n * n / 2.0 + 5.0 * n / 6.0; }

FILE *csv_file;
int done_rows = 0, total_rows = 0;

void emit(const char *op, const char *p, int n, long long batch, double ms, double flops, double bytes,
          double copy_gbs, double vendor_ms, const char *note) {
    const double gflops = flops / (ms * 1e6), gbs = bytes / (ms * 1e6), frac = gbs / copy_gbs;
    char vms[32] = "", sp[32] = "";
    if (vendor_ms > 0) {
        std::snprintf(vms, sizeof vms, "%.4f", vendor_ms);
        std::snprintf(sp, sizeof sp, "%.3f", vendor_ms / ms);
    }
    std::fprintf(csv_file, "%s,%s,%d,%lld,%.4f,%.2f,%.1f,%.3f,%s,%s\n", op, p, n, batch, ms, gflops, gbs, frac, vms, sp);
    std::fflush(csv_file);
    std::printf("%-12s %-2s %4d %10lld %9.4f %9.1f %8.1f %6.3f %10s %7s %s\n", op, p, n, batch, ms, gflops, gbs, frac,
                vms[0] ? vms : "-", sp[0] ? sp : "-", note);
    std::fflush(stdout);
}

template <class C> void run(const options &o, int n) {
    using P = prec<C>;
    const size_t es = sizeof(C);
    const long long mat_bytes = (long long)n * n * es;
    long long batch = o.fixed_batch > 0 ? o.fixed_batch : (long long)std::ceil(o.gib * 1073741824.0 / mat_bytes);
    batch = std::min<long long>(batch, 2147483647LL);
    const int b = (int)batch;
    const size_t total = (size_t)mat_bytes * batch;
    const int nrhs = o.nrhs;
    C *A0, *A, *Cm, *B0, *B;
    int *piv, *info, *vpiv;
    void **pa, **pc, **pb;
    CK(cudaMalloc(&A0, total));
    CK(cudaMalloc(&A, total));
    CK(cudaMalloc(&Cm, total));
    CK(cudaMalloc(&B0, (size_t)n * nrhs * es * batch));
    CK(cudaMalloc(&B, (size_t)n * nrhs * es * batch));
    CK(cudaMalloc(&piv, sizeof(int) * (size_t)n * batch));
    CK(cudaMalloc(&vpiv, sizeof(int) * (size_t)n * batch));
    CK(cudaMalloc(&info, sizeof(int) * (size_t)batch));
    CK(cudaMalloc(&pa, sizeof(void *) * batch));
    CK(cudaMalloc(&pc, sizeof(void *) * batch));
    CK(cudaMalloc(&pb, sizeof(void *) * batch));
    make_pointers<<<1024, 256, 0, stream>>>(pa, (char *)A, mat_bytes, b);
    make_pointers<<<1024, 256, 0, stream>>>(pc, (char *)Cm, mat_bytes, b);
    make_pointers<<<1024, 256, 0, stream>>>(pb, (char *)B, (long long)n * nrhs * es, b);
    fill(B0, (long long)n * nrhs * batch, n, 0.0, 0x5eedull + n);

    // The ceiling: the fastest of three ways to read and write the same bytes (the driver's memcpy alone ran
    // at ~2570 or ~2950 GB/s depending on the buffers; perf/NOTES.md, "How the numbers are defined").
    const double memcpy_ms = median_ms(o.reps, [] {}, [&] { CK(cudaMemcpyAsync(A, A0, total, cudaMemcpyDeviceToDevice, stream)); });
    const double kernel_ms = median_ms(o.reps, [] {}, [&] { launch_copy_words(A0, A, total); });
    const double inplace_ms = median_ms(o.reps, [] {}, [&] { launch_copy_words(A, A, total); });
    const double copy_ms = std::min(memcpy_ms, std::min(kernel_ms, inplace_ms));
    const double copy_gbs = 2.0 * total / (copy_ms * 1e6);
    std::printf("# copy %s n=%d: memcpy %.1f, kernel %.1f, in place %.1f GB/s (ceiling %.1f)\n", P::name, n,
                2.0 * total / (memcpy_ms * 1e6), 2.0 * total / (kernel_ms * 1e6), 2.0 * total / (inplace_ms * 1e6),
                copy_gbs);
    const double cplx = P::complex ? 4.0 : 1.0;
    const long long sA = (long long)n * n, sB = (long long)n * nrhs;
    auto reset_A = [&] { CK(cudaMemcpyAsync(A, A0, total, cudaMemcpyDeviceToDevice, stream)); };
    int hinfo = 0;

    for (const std::string &op : o.ops) {
        ++done_rows;
        std::fprintf(stderr, "\r[%d/%d] %s %s n=%d batch=%lld ...      ", done_rows, total_rows, op.c_str(), P::name, n, batch);
        const bool nopiv = op == "getrf_nopiv";
        fill(A0, sA * batch, n, nopiv ? 2.0 * n : 0.0, 0xC0FFEEull * (n + 1) + op.size());
        double ms = 0, vms = -1, flops = 0, bytes = 0;
        std::string note;
        if (op == "getrf" || op == "getrf_nopiv") {
            int *p = nopiv ? nullptr : piv;
            ms = median_ms(o.reps, reset_A, [&] { CS(P::getrf(handle, n, A, n, sA, p, n, info, b)); });
            flops = cplx * flops_getrf(n) * batch;
            bytes = (2.0 * mat_bytes + (nopiv ? 0 : 4.0 * n) + 4.0) * batch;
            if (o.vendor) {
                vms = median_ms(o.reps, reset_A, [&] { CB(P::v_getrf(n, (C **)pa, nopiv ? nullptr : vpiv, info, b)); });
                if (!nopiv) {  // compare pivots on a sample (both ran on the same data)
                    reset_A();
                    CS(P::getrf(handle, n, A, n, sA, piv, n, info, b));
                    reset_A();
                    CB(P::v_getrf(n, (C **)pa, vpiv, info, b));
                    const long long m = std::min<long long>(batch, 4096) * n;
                    std::vector<int> x(m), y(m);
                    CK(cudaMemcpy(x.data(), piv, m * sizeof(int), cudaMemcpyDeviceToHost));
                    CK(cudaMemcpy(y.data(), vpiv, m * sizeof(int), cudaMemcpyDeviceToHost));
                    long long diff = 0;
                    for (long long e = 0; e < m; ++e) diff += x[e] != y[e];
                    note = "ipiv vs cuBLAS: " + std::to_string(diff) + "/" + std::to_string(m) + " differ";
                }
            }
        } else if (op == "matinv") {
            ms = median_ms(o.reps, [] {}, [&] { CS(P::matinv(handle, n, A0, n, sA, Cm, n, sA, info, b)); });
            flops = cplx * (flops_getrf(n) + flops_getri(n)) * batch;
            bytes = (2.0 * mat_bytes + 4.0) * batch;
            if (o.vendor && n <= 32) {
                reset_A();
                vms = median_ms(o.reps, [] {}, [&] { CB(P::v_matinv(n, (C **)pa, (C **)pc, info, b)); });
            } else if (o.vendor) {  // no matinvBatched beyond 32: cuBLAS's equivalent is getrf + getri
                vms = median_ms(o.reps, reset_A, [&] {
                    CB(P::v_getrf(n, (C **)pa, vpiv, info, b));
                    CB(P::v_getri(n, (C **)pa, vpiv, (C **)pc, info, b));
                });
            }
        } else if (op == "getri") {
            reset_A();
            CS(P::getrf(handle, n, A, n, sA, piv, n, info, b));
            ms = median_ms(o.reps, [] {}, [&] { CS(P::getri(handle, n, A, n, sA, piv, n, Cm, n, sA, info, b)); });
            flops = cplx * flops_getri(n) * batch;
            bytes = (2.0 * mat_bytes + 4.0 * n + 4.0) * batch;
            if (o.vendor) {
                reset_A();
                CB(P::v_getrf(n, (C **)pa, vpiv, info, b));
                vms = median_ms(o.reps, [] {}, [&] { CB(P::v_getri(n, (C **)pa, vpiv, (C **)pc, info, b)); });
            }
        } else if (op == "getrs") {
            auto reset_AB = [&] {
                reset_A();
                CK(cudaMemcpyAsync(B, B0, (size_t)sB * es * batch, cudaMemcpyDeviceToDevice, stream));
            };
            ms = median_ms(o.reps, reset_AB, [&] {
                CS(P::getrf(handle, n, A, n, sA, piv, n, info, b));
                CS(P::getrs(handle, SMALLLA_OP_N, n, nrhs, A, n, sA, piv, n, B, n, sB, b));
            });
            flops = cplx * (flops_getrf(n) + (2.0 * n * n - n) * nrhs) * batch;
            bytes = (3.0 * mat_bytes + 8.0 * n + 4.0 + 2.0 * n * nrhs * es) * batch;
            if (o.vendor)
                vms = median_ms(o.reps, reset_AB, [&] {
                    CB(P::v_getrf(n, (C **)pa, vpiv, info, b));
                    CB(P::v_getrs(n, nrhs, (C **)pa, vpiv, (C **)pb, &hinfo, b));
                });
        } else if (op == "potrf" || op == "posv" || op == "potrs" || op == "potri" || op == "poinv") {
            // The Cholesky family, lower triangle, on A0 made Hermitian positive definite by a diagonal of 2n
            // (only the lower triangle is read). Bytes: the triangle read (and written, potrf and potri; poinv
            // writes all of C), plus posv's right-hand sides. Vendor: cuSOLVER's potrfBatched (+ potrsBatched,
            // nrhs = 1 only); for the inverses cuBLAS's getrf + getri, the vendor's only batched route.
            fill(A0, sA * batch, n, 2.0 * n, 0xC0FFEEull * (n + 1) + op.size());
            const double tri = (double)n * (n + 1) / 2.0 * es;
            auto reset_AB = [&] {
                reset_A();
                CK(cudaMemcpyAsync(B, B0, (size_t)sB * es * batch, cudaMemcpyDeviceToDevice, stream));
            };
            if (op == "potrf") {
                ms = median_ms(o.reps, reset_A, [&] { CS(P::potrf(handle, SMALLLA_FILL_LOWER, n, A, n, sA, info, b)); });
                flops = cplx * flops_potrf(n) * batch;
                bytes = (2.0 * tri + 4.0) * batch;
                if (o.vendor) vms = median_ms(o.reps, reset_A, [&] { P::v_potrf(n, (C **)pa, info, b); });
            } else if (op == "posv") {
                ms = median_ms(o.reps, reset_AB, [&] {
                    CS(P::posv(handle, SMALLLA_FILL_LOWER, n, nrhs, A, n, sA, B, n, sB, info, b));
                });
                flops = cplx * (flops_potrf(n) + 2.0 * n * n * nrhs) * batch;
                bytes = (2.0 * tri + 2.0 * n * nrhs * es + 4.0) * batch;
                if (o.vendor && nrhs == 1)
                    vms = median_ms(o.reps, reset_AB, [&] {
                        P::v_potrf(n, (C **)pa, info, b);
                        P::v_potrs(n, (C **)pa, (C **)pb, info, b);
                    });
            } else if (op == "potrs") {  // from the factors, made once, untimed (potrs leaves A as it is)
                reset_A();
                CS(P::potrf(handle, SMALLLA_FILL_LOWER, n, A, n, sA, info, b));
                auto reset_B = [&] {
                    CK(cudaMemcpyAsync(B, B0, (size_t)sB * es * batch, cudaMemcpyDeviceToDevice, stream));
                };
                ms = median_ms(o.reps, reset_B, [&] {
                    CS(P::potrs(handle, SMALLLA_FILL_LOWER, n, nrhs, A, n, sA, B, n, sB, b));
                });
                flops = cplx * 2.0 * n * n * nrhs * batch;
                bytes = (tri + 2.0 * n * nrhs * es) * batch;
                if (o.vendor && nrhs == 1)
                    vms = median_ms(o.reps, reset_B, [&] { P::v_potrs(n, (C **)pa, (C **)pb, info, b); });
            } else {
                const bool fused = op == "poinv";
                if (!fused) {  // potri's input: the factors, made once, untimed (A kept in Cm between the runs)
                    reset_A();
                    CS(P::potrf(handle, SMALLLA_FILL_LOWER, n, A, n, sA, info, b));
                    CK(cudaMemcpyAsync(Cm, A, total, cudaMemcpyDeviceToDevice, stream));
                }
                auto reset_F = [&] { CK(cudaMemcpyAsync(A, Cm, total, cudaMemcpyDeviceToDevice, stream)); };
                if (fused)
                    ms = median_ms(o.reps, [] {}, [&] {
                        CS(P::poinv(handle, SMALLLA_FILL_LOWER, n, A0, n, sA, Cm, n, sA, info, b));
                    });
                else
                    ms = median_ms(o.reps, reset_F, [&] { CS(P::potri(handle, SMALLLA_FILL_LOWER, n, A, n, sA, info, b)); });
                flops = cplx * (fused ? flops_potrf(n) + flops_potri(n) : flops_potri(n)) * batch;
                bytes = ((fused ? tri + mat_bytes : 2.0 * tri) + 4.0) * batch;
                if (o.vendor)
                    vms = median_ms(o.reps, reset_A, [&] {
                        CB(P::v_getrf(n, (C **)pa, vpiv, info, b));
                        CB(P::v_getri(n, (C **)pa, vpiv, (C **)pc, info, b));
                    });
            }
        } else if (op == "gemm") {
            ms = median_ms(o.reps, [] {}, [&] { CB(P::gemm(n, A0, A0, Cm, b)); });
            flops = cplx * 2.0 * n * (double)n * n * batch;
            bytes = 3.0 * mat_bytes * batch;
        } else {
            std::fprintf(stderr, "unknown op %s\n", op.c_str());
            std::exit(2);
        }
        emit(op.c_str(), P::name, n, batch, ms, flops, bytes, copy_gbs, vms, note.c_str());
    }
    cudaFree(A0); cudaFree(A); cudaFree(Cm); cudaFree(B0); cudaFree(B);
    cudaFree(piv); cudaFree(vpiv); cudaFree(info); cudaFree(pa); cudaFree(pc); cudaFree(pb);
}


// ---- grid mode ---------------------------------------------------------------------------------------------
cusolverDnHandle_t solvers[4];
cudaStream_t side[4];
cudaEvent_t fork_event, join_events[4];

// cuSOLVER's single-matrix routine on each matrix, on `lanes` streams (1: the benchmark's stream itself).
template <class Body> void on_lanes(int lanes, int batch, Body &&body) {
    if (lanes == 1) {
        for (int b = 0; b < batch; ++b) body(b, 0);
        return;
    }
    CK(cudaEventRecord(fork_event, stream));
    for (int l = 0; l < lanes; ++l) CK(cudaStreamWaitEvent(side[l], fork_event, 0));
    for (int b = 0; b < batch; ++b) body(b, 1 + b % lanes);
    for (int l = 0; l < lanes; ++l) {
        CK(cudaEventRecord(join_events[l], side[l]));
        CK(cudaStreamWaitEvent(stream, join_events[l], 0));
    }
}

template <class C> void run_grid_cell(const options &o, const std::string &op, int n, long long batch, C *A0, C *A,
                                      C *B0, C *B, C *Cm, C *work, int lwork, int *piv, int *info, void **pa, void **pb,
                                      void **pc) {
    using P = prec<C>;
    const int b = (int)batch;
    const long long sA = (long long)n * n;
    const size_t mat_bytes = (size_t)sA * sizeof(C);
    const double cplx = P::complex ? 4.0 : 1.0;
    auto reset_A = [&] { CK(cudaMemcpyAsync(A, A0, mat_bytes * batch, cudaMemcpyDeviceToDevice, stream)); };
    auto reset_AB = [&] {
        reset_A();
        CK(cudaMemcpyAsync(B, B0, (size_t)n * sizeof(C) * batch, cudaMemcpyDeviceToDevice, stream));
    };
    auto lane_solver = [&](int l) { return l == 0 ? solvers[0] : solvers[l - 1]; };
    int hinfo = 0;
    double ms = 0, cublas_ms = -1, s1 = -1, s4 = -1, flops = 0;
    // The solver handles: lane 0 is the benchmark's stream, lanes 1..4 the side streams.
    auto solver_on = [&](int l) {
        cusolverDnHandle_t h = lane_solver(l);
        cusolverDnSetStream(h, l == 0 ? stream : side[l - 1]);
        return h;
    };
    if (op == "getrf") {
        flops = cplx * flops_getrf(n) * batch;
        ms = median_ms(o.reps, reset_A, [&] { CS(P::getrf(handle, n, A, n, sA, piv, n, info, b)); });
        if (n <= 512)  // beyond, the vendor anchors are cuSOLVER's loops (issue 30), not cuBLAS's batched routines
            cublas_ms = median_ms(o.reps, reset_A, [&] { CB(P::v_getrf(n, (C **)pa, piv, info, b)); });
        for (int lanes : {1, 4}) {
            const double t = median_ms(o.reps, reset_A, [&] {
                on_lanes(lanes, b, [&](int m, int l) {
                    P::s_getrf(solver_on(l), n, A + m * sA, work + (size_t)(l == 0 ? 0 : l - 1) * lwork, piv + (size_t)m * n, info + m);
                });
            });
            (lanes == 1 ? s1 : s4) = t;
        }
    } else if (op == "potrf") {  // A0 made positive definite by the caller; lower triangle
        flops = cplx * flops_potrf(n) * batch;
        // ours, cuSOLVER's potrfBatched, its potrf looped on one stream and on four
        auto looped = [&](int lanes) {
            on_lanes(lanes, b, [&](int m, int l) {
                P::s_potrf(solver_on(l), n, A + m * sA, work + (size_t)(l == 0 ? 0 : l - 1) * lwork, lwork, info + m);
            });
        };
        const std::vector<std::function<void()>> bodies{
            [&] { CS(P::potrf(handle, SMALLLA_FILL_LOWER, n, A, n, sA, info, b)); },
            [&] { P::v_potrf(n, (C **)pa, info, b); }, [&] { looped(1); }, [&] { looped(4); }};
        std::vector<double> t;
        if (o.interleave) {
            t = median_ms_interleaved(o.reps, reset_A, bodies);
        } else {
            for (const auto &body : bodies) t.push_back(median_ms(o.reps, reset_A, body));
        }
        ms = t[0];
        cublas_ms = t[1];
        s1 = t[2];
        s4 = t[3];
    } else if (op == "getrs") {
        flops = cplx * (flops_getrf(n) + 2.0 * n * n - n) * batch;
        ms = median_ms(o.reps, reset_AB, [&] {
            CS(P::getrf(handle, n, A, n, sA, piv, n, info, b));
            CS(P::getrs(handle, SMALLLA_OP_N, n, 1, A, n, sA, piv, n, B, n, n, b));
        });
        if (n <= 512)  // beyond, the vendor anchors are cuSOLVER's loops (issue 30), not cuBLAS's batched routines
            cublas_ms = median_ms(o.reps, reset_AB, [&] {
                CB(P::v_getrf(n, (C **)pa, piv, info, b));
                CB(P::v_getrs(n, 1, (C **)pa, piv, (C **)pb, &hinfo, b));
            });
        for (int lanes : {1, 4}) {
            const double t = median_ms(o.reps, reset_AB, [&] {
                on_lanes(lanes, b, [&](int m, int l) {
                    cusolverDnHandle_t h = solver_on(l);
                    P::s_getrf(h, n, A + m * sA, work + (size_t)(l == 0 ? 0 : l - 1) * lwork, piv + (size_t)m * n, info + m);
                    P::s_getrs(h, n, 1, A + m * sA, piv + (size_t)m * n, B + (size_t)m * n, info + m);
                });
            });
            (lanes == 1 ? s1 : s4) = t;
        }
    } else if (op == "matinv") {
        flops = cplx * (flops_getrf(n) + flops_getri(n)) * batch;
        ms = median_ms(o.reps, [] {}, [&] { CS(P::matinv(handle, n, A0, n, sA, Cm, n, sA, info, b)); });
        if (n <= 512)  // beyond, the vendor anchors are cuSOLVER's loops (issue 30), not cuBLAS's batched routines
            cublas_ms = median_ms(o.reps, reset_A, [&] {
                if (n <= 32) {
                    CB(P::v_matinv(n, (C **)pa, (C **)pc, info, b));
                } else {
                    CB(P::v_getrf(n, (C **)pa, piv, info, b));
                    CB(P::v_getri(n, (C **)pa, piv, (C **)pc, info, b));
                }
            });
        // cuSOLVER has no getri: getrf, then getrs on the identity (A and the identities reset untimed).
        for (int lanes : {1, 4}) {
            const double t = median_ms(o.reps, [&] {
                reset_A();
                make_identities<<<1024, 256, 0, stream>>>(Cm, n, batch);
                CK(cudaGetLastError());
            }, [&] {
                on_lanes(lanes, b, [&](int m, int l) {
                    cusolverDnHandle_t h = solver_on(l);
                    P::s_getrf(h, n, A + m * sA, work + (size_t)(l == 0 ? 0 : l - 1) * lwork, piv + (size_t)m * n, info + m);
                    P::s_getrs(h, n, n, A + m * sA, piv + (size_t)m * n, Cm + m * sA, info + m);
                });
            });
            (lanes == 1 ? s1 : s4) = t;
        }
    }
    // The compute ceiling: cuBLAS's strided-batched GEMM of the same order and batch (C = A B).
    const double gemm_ms = median_ms(o.reps, [] {}, [&] { CB(P::gemm(n, A0, A0, Cm, b)); });
    const double gemm_gflops = cplx * 2.0 * n * (double)n * n * batch / (gemm_ms * 1e6);
    const char *names[] = {"cublas", "cusolver", "cusolver4"};
    const double v[] = {cublas_ms, s1, s4};
    int best = -1;
    for (int i = 0; i < 3; ++i)
        if (v[i] > 0 && (best < 0 || v[i] < v[best])) best = i;
    const double gflops = flops / (ms * 1e6);
    std::fprintf(csv_file, "%s,%s,%d,%lld,%.4f,%.2f,%.4f,%.4f,%.4f,%s,%.4f,%.4f,%.2f,%.4f\n", op.c_str(), P::name, n,
                 batch, ms, gflops, cublas_ms, s1, s4, names[best], v[best], ms / v[best], gemm_gflops,
                 gflops / gemm_gflops);
    std::fflush(csv_file);
    std::printf("%-7s %-2s %5d %6lld %10.3f %9.1f %10.3f %10.3f %10.3f %-9s %6.3f %9.1f %6.3f\n", op.c_str(), P::name, n,
                batch, ms, gflops, cublas_ms, s1, s4, names[best], ms / v[best], gemm_gflops, gflops / gemm_gflops);
    std::fflush(stdout);
}

template <class C> void run_grid(const options &o, int n) {
    using P = prec<C>;
    const size_t mat_bytes = (size_t)n * n * sizeof(C);
    long long max_batch = 0;
    for (long long bt : o.batches)
        if ((double)bt * mat_bytes * 3 <= o.max_gib * 1073741824.0) max_batch = std::max(max_batch, bt);
    if (max_batch == 0) {
        done_rows += (int)(o.ops.size() * o.batches.size());
        return;
    }
    C *A0, *A, *B0, *B, *Cm, *work;
    int *piv, *info;
    void **pa, **pb, **pc;
    int lwork = 0;
    CK(cudaMalloc(&A0, mat_bytes * max_batch));
    CK(cudaMalloc(&A, mat_bytes * max_batch));
    CK(cudaMalloc(&Cm, mat_bytes * max_batch));
    CK(cudaMalloc(&B0, (size_t)n * sizeof(C) * max_batch));
    CK(cudaMalloc(&B, (size_t)n * sizeof(C) * max_batch));
    CK(cudaMalloc(&piv, sizeof(int) * (size_t)n * max_batch));
    CK(cudaMalloc(&info, sizeof(int) * (size_t)max_batch));
    CK(cudaMalloc(&pa, sizeof(void *) * max_batch));
    CK(cudaMalloc(&pb, sizeof(void *) * max_batch));
    CK(cudaMalloc(&pc, sizeof(void *) * max_batch));
    int lwork_potrf = 0;
    if (P::s_getrf_work(solvers[0], n, A, &lwork) != CUSOLVER_STATUS_SUCCESS) std::exit(2);
    if (P::s_potrf_work(solvers[0], n, A, &lwork_potrf) != CUSOLVER_STATUS_SUCCESS) std::exit(2);
    lwork = std::max(lwork, lwork_potrf);
    CK(cudaMalloc(&work, sizeof(C) * (size_t)std::max(lwork, 1) * 4));
    make_pointers<<<1024, 256, 0, stream>>>(pa, (char *)A, (long long)mat_bytes, (int)max_batch);
    make_pointers<<<1024, 256, 0, stream>>>(pb, (char *)B, (long long)n * sizeof(C), (int)max_batch);
    make_pointers<<<1024, 256, 0, stream>>>(pc, (char *)Cm, (long long)mat_bytes, (int)max_batch);
    fill(B0, (long long)n * max_batch, n, 0.0, 0xB0ull + n);
    for (long long batch : o.batches) {
        for (const std::string &op : o.ops) {
            ++done_rows;
            if (batch > max_batch) continue;
            std::fprintf(stderr, "\r[%d/%d] %s %s n=%d batch=%lld ...      ", done_rows, total_rows, op.c_str(), P::name, n,
                         batch);
            fill(A0, (long long)n * n * batch, n, op == "potrf" ? 2.0 * n : 0.0, 0xC0FFEEull * (n + 1) + batch + op.size());
            run_grid_cell<C>(o, op, n, batch, A0, A, B0, B, Cm, work, lwork, piv, info, pa, pb, pc);
        }
    }
    cudaFree(A0); cudaFree(A); cudaFree(Cm); cudaFree(B0); cudaFree(B); cudaFree(work);
    cudaFree(piv); cudaFree(info); cudaFree(pa); cudaFree(pb); cudaFree(pc);
}

}  // namespace

int main(int argc, char **argv) {
    options o;
    for (int n = 1; n <= 32; ++n) o.orders.push_back(n);
    for (int n : {40, 48, 64, 96, 128, 192, 256}) o.orders.push_back(n);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--ops") o.ops = split(next());
        else if (a == "--precs") o.precs = split(next());
        else if (a == "--n") o.orders = parse_orders(next());
        else if (a == "--gib") o.gib = std::atof(next().c_str());
        else if (a == "--batch") o.fixed_batch = std::atoll(next().c_str());
        else if (a == "--reps") o.reps = std::atoi(next().c_str());
        else if (a == "--nrhs") o.nrhs = std::atoi(next().c_str());
        else if (a == "--csv") o.csv = next();
        else if (a == "--no-vendor") o.vendor = false;
        else if (a == "--grid") o.grid = true;
        else if (a == "--interleave") o.interleave = true;
        else if (a == "--batches") {
            o.batches.clear();
            for (int v : parse_orders(next())) o.batches.push_back(v);
        } else if (a == "--max-gib") o.max_gib = std::atof(next().c_str());
        else {
            std::printf("usage: smallla-bench [--ops getrf,getrf_nopiv,matinv,getri,getrs,potrf,posv,potrs,potri,poinv,gemm] [--precs s,d,c,z]\n"
                        "       [--n 1-32,64] [--gib 1] [--batch B] [--reps 5] [--nrhs 1] [--csv file] [--no-vendor]\n"
                        "       smallla-bench --grid [--ops getrf,getrs,matinv,potrf] [--precs ...] [--n 64,128,...]\n"
                        "       [--batches 1,2,4,...] [--max-gib 8] [--reps 3] [--csv file] [--interleave]\n");
            return a == "--help" ? 0 : 2;
        }
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("smallla-bench: no CUDA device\n");
        return 77;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    CK(cudaStreamCreate(&stream));
    if (smallla_create(&handle, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) {
        std::printf("smallla_create: %s\n", smallla_last_error(nullptr));
        return 1;
    }
    CS(smallla_set_stream(handle, stream));
    CB(cublasCreate(&blas));
    CB(cublasSetStream(blas, stream));
    if (cusolverDnCreate(&chol_solver) != CUSOLVER_STATUS_SUCCESS || cusolverDnSetStream(chol_solver, stream) != CUSOLVER_STATUS_SUCCESS) {
        std::printf("cusolverDnCreate failed\n");
        return 1;
    }
    csv_file = std::fopen(o.csv.c_str(), "w");
    if (!csv_file) { std::perror(o.csv.c_str()); return 1; }
    if (o.grid) {
        for (int l = 0; l < 4; ++l) {
            CK(cudaStreamCreateWithFlags(&side[l], cudaStreamNonBlocking));
            CK(cudaEventCreateWithFlags(&join_events[l], cudaEventDisableTiming));
            if (cusolverDnCreate(&solvers[l]) != CUSOLVER_STATUS_SUCCESS) return 1;
        }
        CK(cudaEventCreateWithFlags(&fork_event, cudaEventDisableTiming));
        CK(cudaEventRecord(fork_event, stream));
        std::fprintf(csv_file, "op,prec,n,batch,ms,gflops,cublas_ms,cusolver_ms,cusolver4_ms,best_vendor,best_vendor_ms,"
                               "ratio,gemm_gflops,frac_gemm\n");
        std::printf("# %s, %d SMs; median of %d runs; grid of n x batch against every vendor route\n", prop.name,
                    prop.multiProcessorCount, o.reps);
        std::printf("%-7s %-2s %5s %6s %10s %9s %10s %10s %10s %-9s %6s %9s %6s\n", "op", "p", "n", "batch", "ms",
                    "GFLOP/s", "cuBLAS", "cuSOLVER", "cuSOLVERx4", "best", "ratio", "GEMM", "fGEMM");
        total_rows = (int)(o.ops.size() * o.precs.size() * o.orders.size() * o.batches.size());
        for (const std::string &p : o.precs)
            for (int n : o.orders) {
                if (p == "s") run_grid<float>(o, n);
                else if (p == "d") run_grid<double>(o, n);
                else if (p == "c") run_grid<smallla_complex_float>(o, n);
                else if (p == "z") run_grid<smallla_complex_double>(o, n);
            }
        std::fprintf(stderr, "\ndone\n");
        std::fclose(csv_file);
        return 0;
    }
    std::fprintf(csv_file, "op,prec,n,batch,ms,gflops,gbs,frac_copy,vendor_ms,speedup_vs_vendor\n");
    std::printf("# %s, %d SMs; median of %d runs; >= %.2f GiB of matrices per call%s\n", prop.name,
                prop.multiProcessorCount, o.reps, o.gib, o.fixed_batch ? " (fixed batch)" : "");
    std::printf("%-12s %-2s %4s %10s %9s %9s %8s %6s %10s %7s\n", "op", "p", "n", "batch", "ms", "GFLOP/s", "GB/s",
                "frac", "cuBLAS ms", "speedup");
    total_rows = (int)(o.ops.size() * o.precs.size() * o.orders.size());
    for (const std::string &p : o.precs)
        for (int n : o.orders) {
            if (p == "s") run<float>(o, n);
            else if (p == "d") run<double>(o, n);
            else if (p == "c") run<smallla_complex_float>(o, n);
            else if (p == "z") run<smallla_complex_double>(o, n);
        }
    std::fprintf(stderr, "\ndone\n");
    std::fclose(csv_file);
    cusolverDnDestroy(chol_solver);  // a sanitizer's leak check then reports only what the library leaves
    cublasDestroy(blas);
    smallla_destroy(handle);
    return 0;
}
