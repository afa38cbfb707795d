// Checks reciprocal_straight (kernels/cuda/device_common.cuh), the branch-free 1 / y of the lane-per-row
// kernels' pivot scaler, bit for bit against the IEEE division 1 / y on the GPU: every float mantissa at a
// spread of exponents across the range the scaler keeps |y| in, 2^28 random doubles spread over that range's
// exponents, the mantissas next to powers of two, and +-Inf (-> +-0). Prints the mismatches found (at most
// 10 of each precision) and exits 1 if there is any, 77 (skipped) without a GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "cuda/device_common.cuh"

using smallla::cuda_kernels::reciprocal_straight;

struct mismatch {
    unsigned long long count;
    unsigned long long y[10];
};

__device__ void record(mismatch *m, unsigned long long bits) {
    const unsigned long long i = atomicAdd(&m->count, 1ull);
    if (i < 10) m->y[i] = bits;
}

// Float: every mantissa (the grid's x index), both signs, at the exponents e in [-100, 99] (the y index).
__global__ void check_float(mismatch *m) {
    const unsigned mant = blockIdx.x * blockDim.x + threadIdx.x;
    if (mant >= (1u << 23)) return;
    const int e = -100 + (int)blockIdx.y;
    for (unsigned sign = 0; sign < 2; ++sign) {
        const unsigned bits = (sign << 31) | ((unsigned)(e + 127) << 23) | mant;
        const float y = __uint_as_float(bits);
        const float want = 1.0f / y, got = reciprocal_straight(y);
        if (__float_as_uint(want) != __float_as_uint(got)) record(m, bits);
    }
}

// Double: counter-based random mantissas (splitmix64) at exponents spread over [-1000, 999], and the 2^12
// mantissas nearest each end of the binade.
__device__ unsigned long long splitmix64(unsigned long long x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
__device__ void check_double_bits(mismatch *m, unsigned long long bits) {
    const double y = __longlong_as_double((long long)bits);
    const double want = 1.0 / y, got = reciprocal_straight(y);
    if (__double_as_longlong(want) != __double_as_longlong(got)) record(m, bits);
}
__global__ void check_double_random(mismatch *m, unsigned long long count) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const unsigned long long r = splitmix64(i);
        const int e = -1000 + (int)((r >> 52) % 2000u);
        const unsigned long long bits =
            (r & 0x8000000000000000ull) | ((unsigned long long)(e + 1023) << 52) | (r & 0x000fffffffffffffull);
        check_double_bits(m, bits);
    }
}
__global__ void check_double_edges(mismatch *m) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;  // 2^13 mantissas
    if (t >= (1u << 13)) return;
    const unsigned long long mant = t < (1u << 12) ? t : 0x000fffffffffffffull - (t - (1u << 12));
    const int es[] = {-1000, -512, -1, 0, 1, 511, 999};
    for (int e : es)
        for (unsigned long long sign = 0; sign < 2; ++sign)
            check_double_bits(m, (sign << 63) | ((unsigned long long)(e + 1023) << 52) | mant);
}
__global__ void check_infinities(mismatch *mf, mismatch *md) {
    for (int sign = 0; sign < 2; ++sign) {
        const float yf = sign ? -INFINITY : INFINITY;
        if (__float_as_uint(reciprocal_straight(yf)) != __float_as_uint(1.0f / yf)) record(mf, __float_as_uint(yf));
        const double yd = sign ? -(double)INFINITY : (double)INFINITY;
        if (__double_as_longlong(reciprocal_straight(yd)) != __double_as_longlong(1.0 / yd))
            record(md, (unsigned long long)__double_as_longlong(yd));
    }
}

static bool ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "check_reciprocal: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("check_reciprocal: SKIPPED (no CUDA device)\n");
        return 77;
    }
    mismatch *m = nullptr;
    if (!ok(cudaMallocManaged(&m, 2 * sizeof(mismatch)), "cudaMallocManaged")) return 1;
    std::memset(m, 0, 2 * sizeof(mismatch));
    check_float<<<dim3((1u << 23) / 256, 200), 256>>>(&m[0]);
    const unsigned long long randoms = 1ull << 28;
    check_double_random<<<4096, 256>>>(&m[1], randoms);
    check_double_edges<<<(1u << 13) / 256, 256>>>(&m[1]);
    check_infinities<<<1, 1>>>(&m[0], &m[1]);
    if (!ok(cudaGetLastError(), "launch") || !ok(cudaDeviceSynchronize(), "run")) return 1;
    const char *names[2] = {"float", "double"};
    const unsigned long long checked[2] = {(1ull << 23) * 200 * 2 + 2, randoms + (1ull << 13) * 7 * 2 + 2};
    bool pass = true;
    for (int p = 0; p < 2; ++p) {
        std::printf("reciprocal_straight, %s: %llu values checked, %llu differ from 1 / y\n", names[p], checked[p],
                    m[p].count);
        for (unsigned long long i = 0; i < m[p].count && i < 10; ++i) std::printf("  y bits 0x%016llx\n", m[p].y[i]);
        pass = pass && m[p].count == 0;
    }
    cudaFree(m);
    std::printf("%s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
