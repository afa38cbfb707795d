// smallla-vendor-overhead: what the vendor route (lib/cuda/vendor.cuh) adds to cuSOLVER's single-matrix potrf
// for one matrix, part by part. Each variant is timed as smallla-bench times a call (an event before and after
// on the stream, the matrix restored before each run, median of --reps), and its host time to return (no
// synchronization inside) is taken by the clock:
//   cusolver      potrf alone, its workspace had once (smallla-bench's cusolver column)
//   +query        plus potrf_bufferSize before each call
//   +pool         plus the workspace from a stream-ordered pool and freed after, each call
//   +setstream    plus cusolverDnSetStream on the same stream, each call
//   +kernel       plus a one-block kernel after it that reads the diagonal (as the NaN rule's kernel does)
//   +2kernels     plus a second such kernel before it (as the route launched for complex types before 907ccab)
//   smallla       smallla_?potrfStridedBatched with batch 1 (from its second run a CUDA graph: lib/cuda/replay.hpp)
// and first the host time of single runtime calls the library makes (pointer checks, attributes, a launch).
// Usage: smallla-vendor-overhead [--n 64,192,512,2048] [--precs s,d,c,z] [--reps 21] [--csv FILE]
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "smallla.h"

#define CK(x)                                                                                              \
    do {                                                                                                   \
        cudaError_t e_ = (x);                                                                              \
        if (e_ != cudaSuccess) {                                                                           \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(2);                                                                                  \
        }                                                                                                  \
    } while (0)

template <class V> struct solver;
#define OVERHEAD_PREC(X, V, x, C)                                                                              \
    template <> struct solver<V> {                                                                             \
        static constexpr char letter = #x[0];                                                                 \
        static cusolverStatus_t work(cusolverDnHandle_t h, int n, V *a, int *lw) {                            \
            return cusolverDn##X##potrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, a, n, lw);                   \
        }                                                                                                      \
        static cusolverStatus_t potrf(cusolverDnHandle_t h, int n, V *a, V *w, int lw, int *info) {           \
            return cusolverDn##X##potrf(h, CUBLAS_FILL_MODE_LOWER, n, a, n, w, lw, info);                     \
        }                                                                                                      \
        static smallla_status_t ours(smallla_handle_t h, int n, V *a, int *info) {                            \
            return smallla_##x##potrfStridedBatched(h, SMALLLA_FILL_LOWER, n, (C *)a, n, (long long)n * n, info, \
                                                      1);                                                     \
        }                                                                                                      \
    };
OVERHEAD_PREC(S, float, s, float)
OVERHEAD_PREC(D, double, d, double)
OVERHEAD_PREC(C, cuComplex, c, smallla_complex_float)
OVERHEAD_PREC(Z, cuDoubleComplex, z, smallla_complex_double)

__host__ __device__ inline double real_part(float v) { return v; }
__host__ __device__ inline double real_part(double v) { return v; }
__host__ __device__ inline double real_part(cuComplex v) { return v.x; }
__host__ __device__ inline double real_part(cuDoubleComplex v) { return v.x; }
inline void set_real(float &v, double a) { v = (float)a; }
inline void set_real(double &v, double a) { v = a; }
inline void set_real(cuComplex &v, double a) { v = make_cuComplex((float)a, 0.0f); }
inline void set_real(cuDoubleComplex &v, double a) { v = make_cuDoubleComplex(a, 0.0); }

// Reads the diagonal, as the NaN rule's kernel does, and keeps the first NaN's position.
template <class V> __global__ void read_diagonal(const V *a, int n, int *info) {
    __shared__ int first;
    if (threadIdx.x == 0) first = 0x7fffffff;
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        const double d = real_part(a[k + (long long)k * n]);
        if (d != d) atomicMin(&first, k + 1);
    }
    __syncthreads();
    if (threadIdx.x == 0 && first != 0x7fffffff) *info = first;
}

struct timing {
    double gpu_ms, host_us;
};

cudaStream_t stream;
cudaEvent_t ev_a, ev_b;

template <class Body> timing measure(int reps, const void *src, void *dst, size_t bytes, Body &&body) {
    std::vector<float> g;
    std::vector<double> h;
    for (int r = -2; r < reps; ++r) {
        CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
        CK(cudaEventRecord(ev_a, stream));
        const auto t0 = std::chrono::steady_clock::now();
        body();
        const auto t1 = std::chrono::steady_clock::now();
        CK(cudaEventRecord(ev_b, stream));
        CK(cudaEventSynchronize(ev_b));
        float ms;
        CK(cudaEventElapsedTime(&ms, ev_a, ev_b));
        if (r >= 0) g.push_back(ms), h.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::sort(g.begin(), g.end());
    std::sort(h.begin(), h.end());
    return {g[g.size() / 2], h[h.size() / 2]};
}

template <class V> void run(int n, int reps, smallla_handle_t handle, cusolverDnHandle_t sol, cudaMemPool_t pool,
                            FILE *csv) {
    using S = solver<V>;
    const size_t elems = (size_t)n * n, bytes = elems * sizeof(V);
    // A symmetric, entries in [-0.5, 0.5), the diagonal n: positive definite (diagonally dominant)
    std::vector<V> host(elems);
    std::vector<double> a(elems);
    unsigned long long x = 0x9E3779B97F4A7C15ull ^ (unsigned long long)n;
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const double v = i == j ? (double)n : (double)(x >> 11) / 9007199254740992.0 - 0.5;
            a[i + (size_t)j * n] = a[j + (size_t)i * n] = v;
        }
    for (size_t e = 0; e < elems; ++e) set_real(host[e], a[e]);
    V *A0, *A, *work;
    int *info, lwork = 0;
    CK(cudaMalloc(&A0, bytes));
    CK(cudaMalloc(&A, bytes));
    CK(cudaMalloc(&info, sizeof(int)));
    CK(cudaMemcpy(A0, host.data(), bytes, cudaMemcpyHostToDevice));
    if (S::work(sol, n, A, &lwork) != CUSOLVER_STATUS_SUCCESS) std::exit(3);
    CK(cudaMalloc(&work, (size_t)lwork * sizeof(V)));
    auto potrf = [&](V *w) {
        if (S::potrf(sol, n, A, w, lwork, info) != CUSOLVER_STATUS_SUCCESS) std::exit(4);
    };
    const char *names[] = {"cusolver", "+query", "+pool", "+setstream", "+kernel", "+2kernels", "smallla"};
    timing t[7];
    t[0] = measure(reps, A0, A, bytes, [&] { potrf(work); });
    t[1] = measure(reps, A0, A, bytes, [&] {
        int lw = 0;
        S::work(sol, n, A, &lw);
        potrf(work);
    });
    t[2] = measure(reps, A0, A, bytes, [&] {
        void *w = nullptr;
        CK(cudaMallocFromPoolAsync(&w, (size_t)lwork * sizeof(V), pool, stream));
        potrf(static_cast<V *>(w));
        CK(cudaFreeAsync(w, stream));
    });
    t[3] = measure(reps, A0, A, bytes, [&] {
        cusolverDnSetStream(sol, stream);
        potrf(work);
    });
    t[4] = measure(reps, A0, A, bytes, [&] {
        potrf(work);
        read_diagonal<V><<<1, 128, 0, stream>>>(A, n, info);
    });
    t[5] = measure(reps, A0, A, bytes, [&] {
        read_diagonal<V><<<1, 128, 0, stream>>>(A, n, info);
        potrf(work);
        read_diagonal<V><<<1, 128, 0, stream>>>(A, n, info);
    });
    t[6] = measure(reps, A0, A, bytes, [&] {
        if (S::ours(handle, n, A, info) != SMALLLA_SUCCESS) std::exit(5);
    });
    std::printf("%c %5d |", S::letter, n);
    for (int i = 0; i < 7; ++i) {
        std::printf(" %8.4f %6.1f |", t[i].gpu_ms, t[i].host_us);
        std::fprintf(csv, "%c,%d,%s,%.5f,%.2f\n", S::letter, n, names[i], t[i].gpu_ms, t[i].host_us);
    }
    std::printf("\n");
    std::fflush(stdout);
    CK(cudaFree(A0));
    CK(cudaFree(A));
    CK(cudaFree(work));
    CK(cudaFree(info));
}

// The host time of single runtime calls the library makes around a launch (median of 2001, microseconds).
template <class Call> double host_us(Call &&call) {
    std::vector<double> h;
    for (int r = 0; r < 2001; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        h.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(h.begin(), h.end());
    return h[h.size() / 2];
}

__global__ void empty_kernel() {}

void runtime_calls(FILE *csv) {
    void *p = nullptr;
    CK(cudaMalloc(&p, 1 << 20));
    int dev = 0, v = 0;
    CK(cudaGetDevice(&dev));
    cudaFuncAttributes fa;
    struct row {
        const char *name;
        double us;
    } rows[] = {
        {"cudaGetLastError", host_us([] { (void)cudaGetLastError(); })},
        {"cudaGetDevice", host_us([&] { (void)cudaGetDevice(&v); })},
        {"cudaPointerGetAttributes", host_us([&] {
             cudaPointerAttributes at{};
             (void)cudaPointerGetAttributes(&at, p);
         })},
        {"cudaDeviceGetAttribute", host_us([&] {
             (void)cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
         })},
        {"cudaFuncGetAttributes", host_us([&] { (void)cudaFuncGetAttributes(&fa, empty_kernel); })},
        {"cudaFuncSetAttribute", host_us([&] {
             (void)cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
         })},
        {"launch", host_us([] { empty_kernel<<<1, 32, 0, stream>>>(); })},
    };
    CK(cudaStreamSynchronize(stream));
    for (const row &r : rows) {
        std::printf("host %-26s %6.2f us\n", r.name, r.us);
        std::fprintf(csv, "-,0,%s,0,%.3f\n", r.name, r.us);
    }
    CK(cudaFree(p));
}

int main(int argc, char **argv) {
    std::vector<int> orders{64, 192, 512, 2048};
    std::string precs = "sdcz", csv_name = "vendor-overhead.csv";
    int reps = 21;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--n" && i + 1 < argc) {
            orders.clear();
            for (char *p = std::strtok(argv[++i], ","); p; p = std::strtok(nullptr, ",")) orders.push_back(std::atoi(p));
        } else if (arg == "--precs" && i + 1 < argc) {
            precs.clear();
            for (const char *p = argv[++i]; *p; ++p)
                if (*p != ',') precs += *p;
        } else if (arg == "--reps" && i + 1 < argc) {
            reps = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--csv" && i + 1 < argc) {
            csv_name = argv[++i];
        } else {
            std::printf("usage: smallla-vendor-overhead [--n 64,192,512,2048] [--precs sdcz] [--reps 21] [--csv FILE]\n");
            return arg == "--help" ? 0 : 2;
        }
    }
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CK(cudaEventCreate(&ev_a));
    CK(cudaEventCreate(&ev_b));
    smallla_handle_t handle;
    if (smallla_create(&handle, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) return 2;
    smallla_set_stream(handle, stream);
    cusolverDnHandle_t sol;
    if (cusolverDnCreate(&sol) != CUSOLVER_STATUS_SUCCESS) return 2;
    cusolverDnSetStream(sol, stream);
    int dev = 0;
    CK(cudaGetDevice(&dev));
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t pool;
    CK(cudaMemPoolCreate(&pool, &props));
    unsigned long long keep = 64ull << 20;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    FILE *csv = std::fopen(csv_name.c_str(), "w");
    if (!csv) return 2;
    std::fprintf(csv, "prec,n,variant,gpu_ms,host_us\n");
    std::printf("p     n | cusolver ms, host us | +query | +pool | +setstream | +kernel | +2kernels | smallla\n");
    runtime_calls(csv);
    for (char p : precs)
        for (int n : orders) {
            if (p == 's') run<float>(n, reps, handle, sol, pool, csv);
            if (p == 'd') run<double>(n, reps, handle, sol, pool, csv);
            if (p == 'c') run<cuComplex>(n, reps, handle, sol, pool, csv);
            if (p == 'z') run<cuDoubleComplex>(n, reps, handle, sol, pool, csv);
        }
    std::fclose(csv);
    smallla_destroy(handle);
    cusolverDnDestroy(sol);
    return 0;
}
