// Study (not part of the library or its build): getrf with partial pivoting for 32 < n <= 64, one row per
// thread as the register kernels do for n <= 32 (lu_registers.cuh), a matrix per block of two warps. Question:
// how far above the blocked path (0.06-0.14 of the copy bandwidth at n = 33-40 on the H100 and H200; NOTES,
// sixteenth round) does the lane-per-row design reach once a matrix spans two warps?
// Per step: each warp searches its rows (LAPACK's rule, the keys of select_pivot) and its winner stores its row
// and the warp's (key, position) beside it in shared memory; one barrier; every thread takes the better of the
// two warps' winners (larger key, then smaller position: LAPACK's first maximum) and reads that warp's row. So
// a step costs one barrier, and each warp issues one row's stores, as the one-warp kernels do.
// Build by hand (sm_90): nvcc -O3 -std=c++17 --expt-relaxed-constexpr -arch sm_90 -I include -I kernels
//   perf/cuda/studies/wide_getrf.cu -L BUILD/lib -lsmallla -o study-wide-getrf
// Run: study-wide-getrf [CSV] (n = 33, 36, 40, 48, 56, 64): per n and precision (s, d) the time of this kernel,
// of the library's getrf (host backend checked against it on a sample) and of a device-to-device copy.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "smallla.h"
#include "cuda/device_common.cuh"

using namespace smallla;
using namespace smallla::cuda_kernels;

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)

template <class T> constexpr int row_len(int n) { return int((n * sizeof(T) + 15) / 16 * 16 / sizeof(T)); }

template <class T, int N>
__global__ void __launch_bounds__(64) getrf_two_warps(T *A, int *ipiv, int *info, int batch) {
    static_assert(N > 32 && N <= 64, "two warps");
    constexpr int L = row_len<T>(N);
    __shared__ __align__(16) T rows[2][2][L];        // [parity][warp]: the warp's winner's row
    __shared__ __align__(16) unsigned meta[2][2][4];  // [parity][warp]: key hi, key lo, position
    const long long b = blockIdx.x;
    if (b >= batch) return;  // whole blocks: the barrier below sees every thread of the block
    const int i = threadIdx.x, warp = i >> 5;
    const bool has_row = i < N;
    T *m = A + b * (long long)N * N;
    T a[N];
#pragma unroll
    for (int j = 0; j < N; ++j) a[j] = has_row ? m[i + j * N] : T(0);
    int pos = has_row ? i : -1, my_piv = i, inf = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        const int par = k & 1;
        const pivot_key key = key_of(abs1(a[k]), pos >= k, pos == k);
        const unsigned thi = __reduce_max_sync(0xffffffffu, key.hi);
        unsigned tlo = 0;
        if constexpr (sizeof(T) == 8) tlo = __reduce_max_sync(0xffffffffu, key.hi == thi ? key.lo : 0u);
        const unsigned wpos = __reduce_min_sync(0xffffffffu, (key.hi == thi && key.lo == tlo) ? (unsigned)pos : 0xffffffffu);
        if ((unsigned)pos == wpos) {
            T *r = rows[par][warp];
#pragma unroll
            for (int j = k; j < N; ++j) r[j] = a[j];
        }
        if ((i & 31) == 0) {
            meta[par][warp][0] = thi;
            meta[par][warp][1] = tlo;
            meta[par][warp][2] = wpos;
        }
        __syncthreads();
        const uint4 m0 = *reinterpret_cast<const uint4 *>(meta[par][0]);
        const uint4 m1 = *reinterpret_cast<const uint4 *>(meta[par][1]);
        const bool second = m1.x > m0.x || (m1.x == m0.x && (m1.y > m0.y || (m1.y == m0.y && m1.z < m0.z)));
        const int ppos = (int)(second ? m1.z : m0.z);
        const T *buf = rows[par][second ? 1 : 0];
        const bool is_piv = pos == ppos;
        if (i == k) my_piv = ppos;
        if (is_piv) pos = k;
        else if (pos == k) pos = ppos;
        const pivot_scaler<T, tiny_scale::select> s(buf[k]);
        if (s.zero && inf == 0) inf = k + 1;
        if (pos > k) {
            const T l = s.multiplier(a[k]);
            a[k] = l;
#pragma unroll
            for (int j = k + 1; j < N; ++j) a[j] = minus_product(a[j], l, buf[j]);
        }
    }
    if (!has_row) return;
#pragma unroll
    for (int j = 0; j < N; ++j) m[pos + j * N] = a[j];
    ipiv[b * N + i] = my_piv + 1;
    if (i == 0) info[b] = inf;
}

template <class T> smallla_status_t library_getrf(smallla_handle_t h, int n, T *A, int *ipiv, int *info, int batch);
template <> smallla_status_t library_getrf<float>(smallla_handle_t h, int n, float *A, int *ipiv, int *info, int batch) {
    return smallla_sgetrfStridedBatched(h, n, A, n, (long long)n * n, ipiv, n, info, batch);
}
template <> smallla_status_t library_getrf<double>(smallla_handle_t h, int n, double *A, int *ipiv, int *info, int batch) {
    return smallla_dgetrfStridedBatched(h, n, A, n, (long long)n * n, ipiv, n, info, batch);
}

template <class F> float median_ms(F &&f, int reps = 5) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    f();  // warm-up
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(e0));
        f();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[reps / 2];
}

template <class T, int N> void study(FILE *csv) {
    const long long per = (long long)N * N;
    const int batch = (int)((1ll << 30) / (per * (long long)sizeof(T)) + 1);
    std::vector<T> h(per * batch);
    unsigned long long x = 0x9e3779b97f4a7c15ull * N + sizeof(T);
    for (auto &v : h) {  // fresh random data in [-1, 1)
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v = T((double)(x >> 11) * 0x1p-52 - 1.0);
    }
    T *A0, *A;
    int *piv, *info;
    CK(cudaMalloc(&A0, per * batch * sizeof(T)));
    CK(cudaMalloc(&A, per * batch * sizeof(T)));
    CK(cudaMalloc(&piv, (long long)N * batch * sizeof(int)));
    CK(cudaMalloc(&info, batch * sizeof(int)));
    CK(cudaMemcpy(A0, h.data(), per * batch * sizeof(T), cudaMemcpyHostToDevice));
    const size_t bytes = per * batch * sizeof(T);
    // Correctness on a sample: this kernel's factors and pivots against the library's host backend.
    CK(cudaMemcpy(A, A0, bytes, cudaMemcpyDeviceToDevice));
    getrf_two_warps<T, N><<<batch, 64>>>(A, piv, info, batch);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    const int sample = std::min(batch, 2048);
    std::vector<T> got(per * sample), ref(h.begin(), h.begin() + per * sample);
    std::vector<int> gpiv(N * sample), rpiv(N * sample), ginfo(sample), rinfo(sample);
    CK(cudaMemcpy(got.data(), A, per * sample * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gpiv.data(), piv, N * sample * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ginfo.data(), info, sample * sizeof(int), cudaMemcpyDeviceToHost));
    smallla_handle_t host, dev;
    smallla_create(&host, SMALLLA_BACKEND_HOST);
    smallla_create(&dev, SMALLLA_BACKEND_CUDA);
    library_getrf<T>(host, N, ref.data(), rpiv.data(), rinfo.data(), sample);
    long long piv_diff = 0, info_diff = 0;
    double max_rel = 0;
    for (int q = 0; q < sample; ++q) {
        info_diff += ginfo[q] != rinfo[q];
        bool same = true;
        for (int r = 0; r < N; ++r) same = same && gpiv[q * N + r] == rpiv[q * N + r];
        piv_diff += !same;
        if (!same) continue;
        double num = 0, den = 0;
        for (long long e = 0; e < per; ++e) {
            num = std::max(num, (double)std::fabs(got[q * per + e] - ref[q * per + e]));
            den = std::max(den, (double)std::fabs(ref[q * per + e]));
        }
        max_rel = std::max(max_rel, num / den);
    }
    // Speed: this kernel, the library's getrf (CUDA), a device-to-device copy of the same bytes.
    const float t_copy = median_ms([&] {
        CK(cudaMemcpyAsync(A, A0, bytes, cudaMemcpyDeviceToDevice));  // the reset alone: subtracted below
    });
    const float t_wide = median_ms([&] {
        CK(cudaMemcpyAsync(A, A0, bytes, cudaMemcpyDeviceToDevice));
        getrf_two_warps<T, N><<<batch, 64>>>(A, piv, info, batch);
    }) - t_copy;
    const float t_lib = median_ms([&] {
        CK(cudaMemcpyAsync(A, A0, bytes, cudaMemcpyDeviceToDevice));
        library_getrf<T>(dev, N, A, piv, info, batch);
    }) - t_copy;
    const double moved = 2.0 * bytes + 4.0 * N * batch + 4.0 * batch;
    const double copy_gbs = 2.0 * bytes / (t_copy * 1e6);
    const char p = sizeof(T) == 4 ? 's' : 'd';
    std::printf("%c %3d batch %8d  two-warp %8.3f ms %6.3f of copy | library %8.3f ms %6.3f of copy | %5.2fx | "
                "sample %d: pivots differ %lld, info differ %lld, max |diff|/max|ref| %.2e\n",
                p, N, batch, t_wide, moved / (t_wide * 1e6) / copy_gbs, t_lib, moved / (t_lib * 1e6) / copy_gbs,
                t_lib / t_wide, sample, piv_diff, info_diff, max_rel);
    std::fprintf(csv, "%c,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%lld,%lld,%.3e\n", p, N, batch, t_wide, t_lib, t_copy,
                 moved / (t_wide * 1e6) / copy_gbs, moved / (t_lib * 1e6) / copy_gbs, piv_diff, info_diff, max_rel);
    smallla_destroy(host);
    smallla_destroy(dev);
    CK(cudaFree(A0));
    CK(cudaFree(A));
    CK(cudaFree(piv));
    CK(cudaFree(info));
}

template <int N> void both(FILE *csv) {
    study<float, N>(csv);
    study<double, N>(csv);
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "wide_getrf.csv";
    FILE *csv = std::fopen(out, "w");
    std::fprintf(csv, "prec,n,batch,two_warp_ms,library_ms,copy_ms,two_warp_frac_copy,library_frac_copy,"
                      "pivot_differences,info_differences,max_rel_diff\n");
    both<33>(csv);
    both<36>(csv);
    both<40>(csv);
    both<48>(csv);
    both<56>(csv);
    both<64>(csv);
    std::fclose(csv);
    return 0;
}
