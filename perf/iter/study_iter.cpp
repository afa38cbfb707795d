// smallla-study-iter: the iterative Crout LU (smallla_dgetrf_iter) on the GPU against this library's direct
// getrf (smallla_dgetrfStridedBatched) and cuBLAS's dgetrfBatched, on the same data, in one run:
//   (a) diagonally dominant matrices  A = R + n*I (R uniform in [-1,1)), cold start from A;
//   (b) random matrices               A = R, cold start;
//   (c) a sequence A_k = A_{k-1} + delta_k, |delta_k| ~ 1e-6 (like the time steps of a PDE), each factored
//       with a warm start from A_{k-1}'s factors and pivots (tolerance 0, and tolerance 1e-12), for A_0
//       dominant (c-seq-dom) and A_0 random (c-seq-rand).
// For each case and n it prints and writes (CSV) the time per batch and per matrix of each method, the sweeps
// (mean, max), the matrices that fell back to the direct getrf, and the largest LAPACK ratio
// ||PA - LU||_1 / (n ||A||_1 eps) over a sample of the batch (computed on the host in double).
//
// usage: smallla-study-iter [out.csv] [--quick]   (--quick: a tiny run of every path, for the sanitizers)
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "smallla.h"

namespace {

#define CUDA_OK(x)                                                                                \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                         \
        }                                                                                         \
    } while (0)

struct timer {
    cudaEvent_t a, b;
    timer() {
        cudaEventCreate(&a);
        cudaEventCreate(&b);
    }
    ~timer() {
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
};

// ||P A - L U||_1 / (n ||A||_1 eps) of one matrix (column-major, ld n), in double.
double lu_ratio(int n, const double *A, const double *LU, const int *ipiv) {
    std::vector<double> PA(A, A + (size_t)n * n);
    if (ipiv)
        for (int k = 0; k < n; ++k) {
            const int p = ipiv[k] - 1;
            if (p != k && p >= 0 && p < n)
                for (int j = 0; j < n; ++j) std::swap(PA[k + (size_t)j * n], PA[p + (size_t)j * n]);
        }
    double rn = 0, an = 0;
    for (int j = 0; j < n; ++j) {
        double cr = 0, ca = 0;
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int k = 0; k <= std::min(i, j); ++k) s += (k == i ? 1.0 : LU[i + (size_t)k * n]) * LU[k + (size_t)j * n];
            cr += std::fabs(PA[i + (size_t)j * n] - s);
            ca += std::fabs(A[i + (size_t)j * n]);
        }
        rn = std::max(rn, cr);
        an = std::max(an, ca);
    }
    const double r = rn / (n * an * (DBL_EPSILON / 2));
    return std::isfinite(r) ? r : INFINITY;
}

struct result {
    double ms = NAN;  // per batch (median of the repetitions, or mean over the sequence)
    double sweeps_mean = NAN;
    int sweeps_max = -1, fallbacks = -1, failures = -1;
    double ratio = NAN;
};

struct bench {
    smallla_handle_t h = nullptr;
    cublasHandle_t cub = nullptr;
    cudaStream_t stream = nullptr;
    FILE *csv = nullptr;
    int reps = 5;
    int steps = 8;  // length of the warm-started sequences
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? NAN : v[v.size() / 2];
}

// Runs f() reps times, each after prep() (untimed), and returns the median time in ms.
template <class Prep, class F> double time_median(bench &B, int reps, Prep &&prep, F &&f) {
    timer t;
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        prep();
        cudaEventRecord(t.a, B.stream);
        if (!f()) return NAN;
        cudaEventRecord(t.b, B.stream);
        CUDA_OK(cudaEventSynchronize(t.b));
        float x = 0;
        cudaEventElapsedTime(&x, t.a, t.b);
        ms.push_back(x);
    }
    return median(ms);
}

void emit(bench &B, const char *kase, int n, int batch, const char *method, const result &r) {
    const double us = r.ms * 1e3 / batch;
    std::printf("%-9s %4d %7d %-16s %10.4f ms %9.4f us/matrix  sweeps %6.2f (max %3d)  fallbacks %5d  "
                "failures %3d  ratio %.3g\n",
                kase, n, batch, method, r.ms, us, r.sweeps_mean, r.sweeps_max, r.fallbacks, r.failures, r.ratio);
    if (B.csv)
        std::fprintf(B.csv, "%s,%d,%d,%s,%.6f,%.6f,%.4f,%d,%d,%d,%.4g\n", kase, n, batch, method, r.ms, us,
                     r.sweeps_mean, r.sweeps_max, r.fallbacks, r.failures, r.ratio);
    std::fflush(stdout);
}

struct device_batch {
    int n, batch;
    size_t elems;
    double *A = nullptr, *LU = nullptr, *W = nullptr, **ptrs = nullptr;
    int *ipiv = nullptr, *ipiv_w = nullptr, *info = nullptr, *sweeps = nullptr;
    device_batch(int n_, int b_) : n(n_), batch(b_), elems((size_t)n_ * n_ * b_) {
        CUDA_OK(cudaMalloc(&A, elems * sizeof(double)));
        CUDA_OK(cudaMalloc(&LU, elems * sizeof(double)));
        CUDA_OK(cudaMalloc(&W, elems * sizeof(double)));
        CUDA_OK(cudaMalloc(&ptrs, batch * sizeof(double *)));
        CUDA_OK(cudaMalloc(&ipiv, (size_t)n * batch * sizeof(int)));
        CUDA_OK(cudaMalloc(&ipiv_w, (size_t)n * batch * sizeof(int)));
        CUDA_OK(cudaMalloc(&info, batch * sizeof(int)));
        CUDA_OK(cudaMalloc(&sweeps, batch * sizeof(int)));
        std::vector<double *> p(batch);
        for (int b = 0; b < batch; ++b) p[b] = W + (size_t)b * n * n;
        CUDA_OK(cudaMemcpy(ptrs, p.data(), batch * sizeof(double *), cudaMemcpyHostToDevice));
    }
    ~device_batch() {
        cudaFree(A);
        cudaFree(LU);
        cudaFree(W);
        cudaFree(ptrs);
        cudaFree(ipiv);
        cudaFree(ipiv_w);
        cudaFree(info);
        cudaFree(sweeps);
    }
};

// Sweeps, fallbacks, failures (info != 0) and the largest ratio over a sample, from the iterative call's output.
void summarize_iter(device_batch &D, const std::vector<double> &hA, int max_sweeps, result &r,
                    const double *dLU = nullptr, const int *dipiv = nullptr) {
    if (!dLU) dLU = D.LU;
    if (!dipiv) dipiv = D.ipiv;
    const int n = D.n, batch = D.batch;
    std::vector<int> sw(batch), info(batch);
    CUDA_OK(cudaMemcpy(sw.data(), D.sweeps, batch * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(info.data(), D.info, batch * sizeof(int), cudaMemcpyDeviceToHost));
    double sum = 0;
    int mx = 0, fb = 0, fails = 0, counted = 0;
    for (int b = 0; b < batch; ++b) {
        if (sw[b] > max_sweeps) ++fb;
        else {
            sum += sw[b];
            ++counted;
        }
        mx = std::max(mx, sw[b]);
        if (info[b] != 0) ++fails;
    }
    r.sweeps_mean = counted ? sum / counted : NAN;
    r.sweeps_max = mx;
    r.fallbacks = fb;
    r.failures = fails;
    const int sample = std::min(batch, 16);
    std::vector<double> lu((size_t)n * n * sample);
    std::vector<int> piv((size_t)n * sample);
    CUDA_OK(cudaMemcpy(lu.data(), dLU, lu.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(piv.data(), dipiv, piv.size() * sizeof(int), cudaMemcpyDeviceToHost));
    r.ratio = 0;
    for (int b = 0; b < sample; ++b)
        r.ratio = std::max(r.ratio, lu_ratio(n, &hA[(size_t)b * n * n], &lu[(size_t)b * n * n], &piv[(size_t)b * n]));
}

// The direct methods on the batch now in D.A: this library's getrf and cuBLAS's, in place on a copy W.
void run_direct(bench &B, device_batch &D, const std::vector<double> &hA, const char *kase, result &ours,
                result &cub) {
    const int n = D.n, batch = D.batch;
    auto prep = [&] { cudaMemcpyAsync(D.W, D.A, D.elems * sizeof(double), cudaMemcpyDeviceToDevice, B.stream); };
    ours.ms = time_median(B, B.reps, prep, [&] {
        return smallla_dgetrfStridedBatched(B.h, n, D.W, n, (long long)n * n, D.ipiv_w, n, D.info, batch) ==
               SMALLLA_SUCCESS;
    });
    if (std::isnan(ours.ms))
        std::fprintf(stderr, "%s n=%d: smallla_dgetrfStridedBatched: %s\n", kase, n, smallla_last_error(B.h));
    else {
        std::vector<double> lu((size_t)n * n * std::min(batch, 16));
        std::vector<int> piv((size_t)n * std::min(batch, 16));
        cudaMemcpy(lu.data(), D.W, lu.size() * sizeof(double), cudaMemcpyDeviceToHost);
        cudaMemcpy(piv.data(), D.ipiv_w, piv.size() * sizeof(int), cudaMemcpyDeviceToHost);
        ours.ratio = 0;
        for (int b = 0; b < std::min(batch, 16); ++b)
            ours.ratio = std::max(ours.ratio, lu_ratio(n, &hA[(size_t)b * n * n], &lu[(size_t)b * n * n], &piv[(size_t)b * n]));
    }
    cub.ms = time_median(B, B.reps, prep, [&] {
        return cublasDgetrfBatched(B.cub, n, D.ptrs, n, D.ipiv_w, D.info, batch) == CUBLAS_STATUS_SUCCESS;
    });
}

void fill(std::vector<double> &a, int n, int batch, double dominance, std::mt19937_64 &rng) {
    std::uniform_real_distribution<double> U(-1, 1);
    a.resize((size_t)n * n * batch);
    for (auto &x : a) x = U(rng);
    if (dominance > 0)
        for (int b = 0; b < batch; ++b)
            for (int j = 0; j < n; ++j) a[(size_t)b * n * n + j + (size_t)j * n] += dominance * n;
}

void cold_case(bench &B, const char *kase, int n, int batch, double dominance, std::mt19937_64 &rng) {
    device_batch D(n, batch);
    std::vector<double> hA;
    fill(hA, n, batch, dominance, rng);
    CUDA_OK(cudaMemcpy(D.A, hA.data(), D.elems * sizeof(double), cudaMemcpyHostToDevice));
    smallla_iter_options_t o = smallla_iter_options_default();
    const long long s = (long long)n * n;
    result it;
    it.ms = time_median(B, B.reps, [] {}, [&] {
        return smallla_dgetrf_iter(B.h, n, D.A, n, s, D.LU, n, s, D.ipiv, n, &o, D.sweeps, D.info, batch) ==
               SMALLLA_SUCCESS;
    });
    if (std::isnan(it.ms)) std::fprintf(stderr, "%s n=%d: smallla_dgetrf_iter: %s\n", kase, n, smallla_last_error(B.h));
    else summarize_iter(D, hA, n, it);
    emit(B, kase, n, batch, "iter", it);
    result ours, cub;
    run_direct(B, D, hA, kase, ours, cub);
    emit(B, kase, n, batch, "smallla_getrf", ours);
    emit(B, kase, n, batch, "cublas_getrf", cub);
}

// The sequence: K steps, each A_k = A_{k-1} + 1e-6 * R_k, factored warm from A_{k-1}'s factors (timed per
// step, mean over the steps); the cold iterative and the direct methods on the same A_k for comparison.
void sequence_case(bench &B, const char *kase, int n, int batch, double dominance, std::mt19937_64 &rng) {
    const int K = B.steps;
    device_batch D(n, batch);
    std::vector<double> hA;
    fill(hA, n, batch, dominance, rng);
    CUDA_OK(cudaMemcpy(D.A, hA.data(), D.elems * sizeof(double), cudaMemcpyHostToDevice));
    const long long s = (long long)n * n;
    smallla_iter_options_t cold = smallla_iter_options_default();
    smallla_iter_options_t warm = cold;
    warm.initial_guess = SMALLLA_ITER_GUESS_LU_IN;
    // The same warm start with a relative tolerance near what the data's own noise allows.
    smallla_iter_options_t warm_tol = warm;
    warm_tol.tolerance = 1e-12;
    // A_0's factors (cold), the start of the chain.
    smallla_dgetrf_iter(B.h, n, D.A, n, s, D.LU, n, s, D.ipiv, n, &cold, D.sweeps, D.info, batch);
    CUDA_OK(cudaStreamSynchronize(B.stream));
    std::uniform_real_distribution<double> U(-1, 1);
    timer t;
    result w, c, ours, cub, wt;
    wt.ms = 0;
    double wsum = 0, csum = 0, osum = 0, bsum = 0, sw_sum = 0, csw_sum = 0;
    int sw_max = 0, csw_max = 0, fb = 0, fails = 0, cfb = 0;
    double ratio = 0, cratio = 0;
    std::vector<double> LUprev((size_t)n * n * batch);
    for (int k = 1; k <= K; ++k) {
        for (auto &x : hA) x += 1e-6 * U(rng);
        CUDA_OK(cudaMemcpy(D.A, hA.data(), D.elems * sizeof(double), cudaMemcpyHostToDevice));
        // A_{k-1}'s factors and pivots, also the start of the warm run with a tolerance
        CUDA_OK(cudaMemcpy(D.W, D.LU, D.elems * sizeof(double), cudaMemcpyDeviceToDevice));
        CUDA_OK(cudaMemcpy(D.ipiv_w, D.ipiv, (size_t)n * batch * sizeof(int), cudaMemcpyDeviceToDevice));
        cudaEventRecord(t.a, B.stream);
        const bool ok = smallla_dgetrf_iter(B.h, n, D.A, n, s, D.LU, n, s, D.ipiv, n, &warm, D.sweeps, D.info,
                                            batch) == SMALLLA_SUCCESS;
        cudaEventRecord(t.b, B.stream);
        CUDA_OK(cudaEventSynchronize(t.b));
        float x = 0;
        cudaEventElapsedTime(&x, t.a, t.b);
        if (!ok) std::fprintf(stderr, "%s: warm: %s\n", kase, smallla_last_error(B.h));
        wsum += x;
        result r;
        summarize_iter(D, hA, n, r);
        sw_sum += r.sweeps_mean;
        sw_max = std::max(sw_max, r.sweeps_max);
        fb += r.fallbacks;
        fails += r.failures;
        ratio = std::max(ratio, r.ratio);
        // Warm with tolerance 1e-12, from the same factors (in W).
        cudaEventRecord(t.a, B.stream);
        smallla_dgetrf_iter(B.h, n, D.A, n, s, D.W, n, s, D.ipiv_w, n, &warm_tol, D.sweeps, D.info, batch);
        cudaEventRecord(t.b, B.stream);
        CUDA_OK(cudaEventSynchronize(t.b));
        cudaEventElapsedTime(&x, t.a, t.b);
        {
            result rt;
            summarize_iter(D, hA, n, rt, D.W, D.ipiv_w);
            wt.ms += x / K;
            wt.sweeps_mean = (std::isnan(wt.sweeps_mean) ? 0 : wt.sweeps_mean) + rt.sweeps_mean / K;
            wt.sweeps_max = std::max(wt.sweeps_max, rt.sweeps_max);
            wt.fallbacks = std::max(wt.fallbacks, 0) + rt.fallbacks;
            wt.failures = std::max(wt.failures, 0) + rt.failures;
            wt.ratio = std::isnan(wt.ratio) ? rt.ratio : std::max(wt.ratio, rt.ratio);
        }
        // The cold iterative on the same A_k, into W (then W -> LU would lose the chain: keep LU).
        cudaEventRecord(t.a, B.stream);
        smallla_dgetrf_iter(B.h, n, D.A, n, s, D.W, n, s, D.ipiv_w, n, &cold, D.sweeps, D.info, batch);
        cudaEventRecord(t.b, B.stream);
        CUDA_OK(cudaEventSynchronize(t.b));
        cudaEventElapsedTime(&x, t.a, t.b);
        csum += x;
        {
            std::vector<int> sw(batch);
            cudaMemcpy(sw.data(), D.sweeps, batch * sizeof(int), cudaMemcpyDeviceToHost);
            double sm = 0;
            int cnt = 0;
            for (int v : sw) {
                if (v > n) ++cfb;
                else {
                    sm += v;
                    ++cnt;
                }
                csw_max = std::max(csw_max, v);
            }
            csw_sum += cnt ? sm / cnt : 0;
        }
        result o1, c1;
        run_direct(B, D, hA, kase, o1, c1);
        osum += o1.ms;
        bsum += c1.ms;
        if (k == K) {
            ours.ratio = o1.ratio;
            cratio = ratio;
        }
    }
    w.ms = wsum / K;
    w.sweeps_mean = sw_sum / K;
    w.sweeps_max = sw_max;
    w.fallbacks = fb;
    w.failures = fails;
    w.ratio = ratio;
    c.ms = csum / K;
    c.sweeps_mean = csw_sum / K;
    c.sweeps_max = csw_max;
    c.fallbacks = cfb;
    (void)cratio;
    ours.ms = osum / K;
    cub.ms = bsum / K;
    emit(B, kase, n, batch, "iter_warm", w);
    emit(B, kase, n, batch, "iter_warm_tol", wt);
    emit(B, kase, n, batch, "iter_cold", c);
    emit(B, kase, n, batch, "smallla_getrf", ours);
    emit(B, kase, n, batch, "cublas_getrf", cub);
}

}  // namespace

int main(int argc, char **argv) {
    const char *out = "study_iter.csv";
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) quick = true;
        else out = argv[i];
    }
    bench B;
    if (smallla_create(&B.h, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) {
        std::printf("smallla-study-iter: no CUDA backend here: %s\n", smallla_last_error(nullptr));
        return 77;
    }
    CUDA_OK(cudaStreamCreate(&B.stream));
    smallla_set_stream(B.h, B.stream);
    if (cublasCreate(&B.cub) != CUBLAS_STATUS_SUCCESS) return 1;
    cublasSetStream(B.cub, B.stream);
    B.csv = std::fopen(out, "w");
    if (!B.csv) {
        std::perror(out);
        return 1;
    }
    std::fprintf(B.csv, "case,n,batch,method,ms,us_per_matrix,sweeps_mean,sweeps_max,fallbacks,failures,ratio\n");
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    std::printf("smallla-study-iter on %s, double precision, tolerance 0, default max_sweeps (n)\n", prop.name);
    // --quick: a tiny run of every code path (for the sanitizers), not a measurement.
    std::vector<int> orders = quick ? std::vector<int>{4, 16, 40} : std::vector<int>{2, 4, 8, 12, 16, 24, 32, 48, 64, 96};
    if (quick) {
        B.reps = 1;
        B.steps = 2;
    }
    std::mt19937_64 rng(12345);
    // The batch: about 2^22 matrix elements per call (a GPU-filling amount), at least 256 matrices.
    auto batch_for = [&](int n) { return quick ? 64 : std::max(256, (1 << 22) / (n * n)); };
    for (int n : orders) cold_case(B, "a-dominant", n, batch_for(n), 1.0, rng);
    for (int n : orders) cold_case(B, "b-random", n, batch_for(n), 0.0, rng);
    for (int n : orders) sequence_case(B, "c-seq-dom", n, batch_for(n), 1.0, rng);
    for (int n : orders) sequence_case(B, "c-seq-rand", n, batch_for(n), 0.0, rng);
    std::fclose(B.csv);
    cublasDestroy(B.cub);
    smallla_destroy(B.h);
    cudaStreamDestroy(B.stream);
    std::printf("wrote %s\n", out);
    return 0;
}
