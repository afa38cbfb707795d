// smallla-study-rows: how many rows per lane the lane-per-row getrf and matinv kernels should hold
// (lu_registers.cuh, getrf_rows_registers / matinv_rows_registers), measured on the GPU.
//
// For each (precision, n, R) of the table below: >= --gib GiB of fresh random matrices, the kernel with R rows
// per lane launched directly, the median of --reps timed runs (CUDA events) as a fraction of a
// device-to-device copy of the same bytes, next to the library's one-row kernels on the same data
// (SMALLLA_CUDA_LEGACY_LANE=1). Every result is compared with the library's: the same ipiv and info, and
// the factors equal up to rounding (each row sees the same arithmetic whatever R is); for the inverse, the
// same info and the largest difference printed.
// Prints a table and writes CSV: op,prec,n,rows,batch,ms,frac_copy,one_row_ms,speedup,max_rel_diff,mismatches
// Not built by default: cmake --build BUILD --target smallla-study-rows.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "lu_registers.cuh"
#include "smallla.h"

using namespace smallla;
using namespace smallla::cuda_kernels;

namespace {

#define CK(x)                                                                                             \
    do {                                                                                                  \
        cudaError_t e_ = (x);                                                                             \
        if (e_ != cudaSuccess) {                                                                          \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(2);                                                                                 \
        }                                                                                                 \
    } while (0)

smallla_handle_t handle;
cudaStream_t stream;
double gib = 0.5;
int reps = 5;
FILE *csv;
int bad = 0;

template <class T> struct api;
template <> struct api<float> {
    static constexpr const char *name = "s";
    static smallla_status_t getrf(int n, float *a, int *p, int *info, int b) {
        return smallla_sgetrfStridedBatched(handle, n, a, n, (long long)n * n, p, n, info, b);
    }
    static smallla_status_t matinv(int n, const float *a, float *c, int *info, int b) {
        return smallla_smatinvStridedBatched(handle, n, a, n, (long long)n * n, c, n, (long long)n * n, info, b);
    }
};
template <> struct api<double> {
    static constexpr const char *name = "d";
    static smallla_status_t getrf(int n, double *a, int *p, int *info, int b) {
        return smallla_dgetrfStridedBatched(handle, n, a, n, (long long)n * n, p, n, info, b);
    }
    static smallla_status_t matinv(int n, const double *a, double *c, int *info, int b) {
        return smallla_dmatinvStridedBatched(handle, n, a, n, (long long)n * n, c, n, (long long)n * n, info, b);
    }
};
template <> struct api<complex<double>> {
    static constexpr const char *name = "z";
    static smallla_status_t getrf(int n, complex<double> *a, int *p, int *info, int b) {
        return smallla_zgetrfStridedBatched(handle, n, (smallla_complex_double *)a, n, (long long)n * n, p, n, info, b);
    }
    static smallla_status_t matinv(int n, const complex<double> *a, complex<double> *c, int *info, int b) {
        return smallla_zmatinvStridedBatched(handle, n, (const smallla_complex_double *)a, n, (long long)n * n,
                                             (smallla_complex_double *)c, n, (long long)n * n, info, b);
    }
};
template <> struct api<complex<float>> {
    static constexpr const char *name = "c";
    static smallla_status_t getrf(int n, complex<float> *a, int *p, int *info, int b) {
        return smallla_cgetrfStridedBatched(handle, n, (smallla_complex_float *)a, n, (long long)n * n, p, n, info, b);
    }
    static smallla_status_t matinv(int n, const complex<float> *a, complex<float> *c, int *info, int b) {
        return smallla_cmatinvStridedBatched(handle, n, (const smallla_complex_float *)a, n, (long long)n * n,
                                             (smallla_complex_float *)c, n, (long long)n * n, info, b);
    }
};

__global__ void fill_random(double *xd, float *xf, long long count, unsigned long long seed) {
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < count; e += (long long)gridDim.x * blockDim.x) {
        unsigned long long h = (unsigned long long)e * 0x9E3779B97F4A7C15ull + seed;
        h ^= h >> 31;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 29;
        double v = (double)(h >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
        if (v == 0.0) v = 0.5;
        if (xd) xd[e] = v;
        else xf[e] = (float)v;
    }
}

template <class F> double median_ms(F &&body, const std::function<void()> &reset) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ms;
    for (int r = -1; r < reps; ++r) {
        reset();
        CK(cudaEventRecord(a, stream));
        body();
        CK(cudaEventRecord(b, stream));
        CK(cudaEventSynchronize(b));
        float x;
        CK(cudaEventElapsedTime(&x, a, b));
        if (r >= 0) ms.push_back(x);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

template <class T> double max_abs(const T &x) {
    if constexpr (!scalar_traits<T>::is_complex) return std::fabs((double)x);
    else return std::max(std::fabs((double)x.re), std::fabs((double)x.im));
}
template <class T> double diff_abs(const T &x, const T &y) {
    if constexpr (!scalar_traits<T>::is_complex) return std::fabs((double)x - (double)y);
    else return std::max(std::fabs((double)x.re - (double)y.re), std::fabs((double)x.im - (double)y.im));
}

template <class T, int N, int R> void study() {
    constexpr int W = 4;
    const long long mat = (long long)N * N;
    const int batch = (int)std::ceil(gib * 1073741824.0 / (mat * sizeof(T)));
    const size_t bytes = (size_t)mat * batch * sizeof(T);
    T *A0, *A, *C, *ref;
    int *piv, *info, *piv_ref, *info_ref;
    CK(cudaMalloc(&A0, bytes));
    CK(cudaMalloc(&A, bytes));
    CK(cudaMalloc(&C, bytes));
    CK(cudaMalloc(&ref, bytes));
    CK(cudaMalloc(&piv, sizeof(int) * (size_t)N * batch));
    CK(cudaMalloc(&piv_ref, sizeof(int) * (size_t)N * batch));
    CK(cudaMalloc(&info, sizeof(int) * (size_t)batch));
    CK(cudaMalloc(&info_ref, sizeof(int) * (size_t)batch));
    const long long words = (long long)(bytes / sizeof(real_t<T>));
    if (sizeof(real_t<T>) == 8) fill_random<<<4096, 256, 0, stream>>>((double *)A0, nullptr, words, 0x5eed + N);
    else fill_random<<<4096, 256, 0, stream>>>(nullptr, (float *)A0, words, 0x5eed + N);
    CK(cudaGetLastError());
    auto reset = [&] { CK(cudaMemcpyAsync(A, A0, bytes, cudaMemcpyDeviceToDevice, stream)); };
    const double copy_ms = median_ms([&] { reset(); }, [] {});
    const double copy_gbs = 2.0 * bytes / (copy_ms * 1e6);
    const unsigned blocks = (unsigned)((batch + W * row_layout<N, R>::per_warp - 1) / (W * row_layout<N, R>::per_warp));
    const matrix_batch<T> mb{A, nullptr, N, mat};
    const matrix_batch<const T> mb0{A0, nullptr, N, mat};
    const matrix_batch<T> mc{C, nullptr, N, mat};
    const pivot_batch<int> pb{piv, N};

    std::vector<T> h1(mat * (size_t)batch), h2(mat * (size_t)batch);
    std::vector<int> p1((size_t)N * batch), p2((size_t)N * batch), i1(batch), i2(batch);
    for (const char *op : {"getrf", "matinv"}) {
        const bool lu = op[0] == 'g';
        double ms, one_ms;
        if (lu) {
            ms = median_ms([&] { getrf_rows_registers<T, N, R, W><<<blocks, W * 32, 0, stream>>>(make_batch_ref(mb), make_pivots_ref(pb), info, batch); }, reset);
            CK(cudaGetLastError());
            CK(cudaMemcpy(ref, A, bytes, cudaMemcpyDeviceToDevice));
            one_ms = median_ms([&] { api<T>::getrf(N, A, piv_ref, info_ref, batch); }, reset);
            CK(cudaMemcpy(h1.data(), ref, bytes, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h2.data(), A, bytes, cudaMemcpyDeviceToHost));
        } else {
            ms = median_ms([&] { matinv_rows_registers<T, N, R, W><<<blocks, W * 32, 0, stream>>>(make_batch_ref(mb0), make_batch_ref(mc), info, batch); }, [] {});
            CK(cudaGetLastError());
            CK(cudaMemcpy(h1.data(), C, bytes, cudaMemcpyDeviceToHost));
            one_ms = median_ms([&] { api<T>::matinv(N, A0, C, info_ref, batch); }, [] {});
            CK(cudaMemcpy(h2.data(), C, bytes, cudaMemcpyDeviceToHost));
        }
        CK(cudaMemcpy(i1.data(), info, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(i2.data(), info_ref, sizeof(int) * batch, cudaMemcpyDeviceToHost));
        long long mism = 0;
        for (int b = 0; b < batch; ++b) mism += i1[b] != i2[b];
        if (lu) {
            CK(cudaMemcpy(p1.data(), piv, sizeof(int) * (size_t)N * batch, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(p2.data(), piv_ref, sizeof(int) * (size_t)N * batch, cudaMemcpyDeviceToHost));
            for (size_t e = 0; e < p1.size(); ++e) mism += p1[e] != p2[e];
        }
        double top = 0, diff = 0;
        for (size_t e = 0; e < h1.size(); ++e) {
            top = std::max(top, max_abs(h2[e]));
            const double d = diff_abs(h1[e], h2[e]);
            diff = std::isnan(d) && !(std::isnan(max_abs(h1[e])) && std::isnan(max_abs(h2[e]))) ? INFINITY : std::max(diff, d);
        }
        const double rel = top > 0 ? diff / top : diff;
        const double frac = 2.0 * bytes / (ms * 1e6) / copy_gbs;
        // getrf: each row sees one-row arithmetic, equal up to the compiler's contraction choices. matinv: the
        // deferred scaling rounds differently, so only info must agree here (its accuracy is smallla-check-cuda's
        // LAPACK ratios); the difference is printed.
        const bool ok = mism == 0 && (!lu || rel < 1e-5);
        if (!ok) ++bad;
        std::printf("%-7s %s %3d R=%d %9d %8.4f %6.3f %8.4f %6.2fx %9.2e %lld%s\n", op, api<T>::name, N, R, batch, ms,
                    frac, one_ms, one_ms / ms, rel, mism, ok ? "" : "  MISMATCH");
        std::fprintf(csv, "%s,%s,%d,%d,%d,%.4f,%.3f,%.4f,%.3f,%.3e,%lld\n", op, api<T>::name, N, R, batch, ms, frac,
                     one_ms, one_ms / ms, rel, mism);
        std::fflush(stdout);
        std::fflush(csv);
    }
    cudaFree(A0); cudaFree(A); cudaFree(C); cudaFree(ref);
    cudaFree(piv); cudaFree(piv_ref); cudaFree(info); cudaFree(info_ref);
}

}  // namespace

int main(int argc, char **argv) {
    const char *out = "smallla-study-rows.csv";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--gib") gib = std::atof(argv[i + 1]);
        else if (a == "--reps") reps = std::atoi(argv[i + 1]);
        else if (a == "--csv") out = argv[i + 1];
    }
    setenv("SMALLLA_CUDA_LEGACY_LANE", "1", 1);  // the previous one-row kernels are the reference
    if (smallla_create(&handle, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) {
        std::printf("no CUDA device: SKIPPED\n");
        return 77;
    }
    CK(cudaStreamCreate(&stream));
    smallla_set_stream(handle, stream);
    csv = std::fopen(out, "w");
    std::fprintf(csv, "op,prec,n,rows,batch,ms,frac_copy,one_row_ms,speedup,max_rel_diff,mismatches\n");
    std::printf("op      p   n  R     batch       ms   frac   1-row ms speedup  rel.diff mismatches\n");
#define STUDY(T, N, R) study<T, N, R>();
    STUDY(float, 17, 1) STUDY(float, 17, 2) STUDY(float, 24, 1) STUDY(float, 24, 2) STUDY(float, 32, 1) STUDY(float, 32, 2)
    STUDY(double, 12, 1) STUDY(double, 12, 2) STUDY(double, 20, 1) STUDY(double, 20, 2) STUDY(double, 32, 1)
    STUDY(double, 32, 2)
    STUDY(complex<float>, 12, 1) STUDY(complex<float>, 12, 2) STUDY(complex<float>, 24, 1) STUDY(complex<float>, 24, 2)
    STUDY(complex<double>, 8, 1) STUDY(complex<double>, 16, 1) STUDY(complex<double>, 24, 1)
    std::fclose(csv);
    smallla_destroy(handle);
    std::printf("%s\n", bad == 0 ? "all results agree with the one-row kernels" : "MISMATCHES: see the table");
    return bad == 0 ? 0 : 1;
}
