// smallla-host-ceilings: the CPU's ceilings that perf/host/account_host.py sets smallla-bench-host's times
// against (issue 32's account of the host shortfalls, perf/NOTES.md):
//   clock          cycles a second, from a chain of dependent integer adds (one cycle each on x86-64);
//   vector ops     separate multiplies and adds (no fused multiply-add: the host copies keep LAPACK's roundings)
//                  a cycle, half of each, on 16-, 32- and 64-byte vectors of doubles, where the CPU has them;
//   stream         bytes a second read (a sum) and copied (read + written) over 32 MB, the size of one bench
//                  call's matrices, and over 512 MB, with 1 thread and with OMP_NUM_THREADS.
// Each figure is the best of several runs. Writes CSV (quantity,threads,value,unit) to stdout or --out FILE.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

template <class F> double best_of(int runs, F f) {
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        const double t0 = now();
        f();
        best = std::min(best, now() - t0);
    }
    return best;
}

// Cycles a second: 10 dependent adds of a register to itself an iteration, one cycle each (an add of an
// immediate is not: some cores fold chains of those at renaming).
double clock_hz() {
#if defined(__x86_64__)
    const long iterations = 50000000;
    const double t = best_of(5, [&] {
        long x = 0, i = iterations;
        asm volatile(
            "1:\n\t"
            "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
            "add %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\tadd %0, %0\n\t"
            "dec %1\n\tjnz 1b\n"
            : "+r"(x), "+r"(i));
    });
    return 10.0 * iterations / t;
#else
    return 0;  // not measured off x86-64
#endif
}

// Vector ops a second on vectors V: 6 chains of multiplies and 6 of adds, independent, 4 steps each an
// iteration. The result is kept so that the loop stays.
typedef double v16 __attribute__((vector_size(16)));
typedef double v32 __attribute__((vector_size(32)));
typedef double v64 __attribute__((vector_size(64)));
template <class V> inline double vector_ops_per_second_impl() {
    constexpr int chains = 6;
    const long iterations = 20000000;
    V m[chains], a[chains];
    for (int c = 0; c < chains; ++c) m[c] = a[c] = V{} + (1.0 + c * 1e-3);
    const V scale = V{} + 0.99999999, step = V{} + 1e-9;
    volatile double sink = 0;
    const double t = best_of(5, [&] {
        for (long i = 0; i < iterations; ++i) {
#pragma GCC unroll 4
            for (int s = 0; s < 4; ++s)
                for (int c = 0; c < chains; ++c) {
                    m[c] = m[c] * scale;
                    a[c] = a[c] + step;
                }
            asm volatile("" ::: "memory");
        }
        double r = 0;
        for (int c = 0; c < chains; ++c) r += m[c][0] + a[c][0];
        sink = r;
    });
    (void)sink;
    return 2.0 * chains * 4 * iterations / t;
}
double vector_ops_16() { return vector_ops_per_second_impl<v16>(); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) double vector_ops_32() { return vector_ops_per_second_impl<v32>(); }
__attribute__((target("avx512f"))) double vector_ops_64() { return vector_ops_per_second_impl<v64>(); }
#endif

// Bytes a second: a sum over the array (read) and a copy (read and written), each thread its share.
struct stream_rates {
    double read, copy;
};
stream_rates stream(size_t bytes, int threads) {
    const size_t n = bytes / sizeof(double);
    std::vector<double> a(n), b(n);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; ++i) a[i] = 1.0 + (double)(i % 7), b[i] = 0;
    volatile double sink = 0;
    const int runs = bytes > 100000000 ? 5 : 20;
    const double tr = best_of(runs, [&] {
        double total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
        {
            // 8 independent sums of 16-byte vectors, so that the loads, not the adds' latency, set the pace.
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            const size_t lo = n * t / nt / 16 * 16, hi = t + 1 == nt ? n : n * (t + 1) / nt / 16 * 16;
            v16 acc[8] = {};
            for (size_t i = lo; i + 16 <= hi; i += 16)
                for (int k = 0; k < 8; ++k) {
                    v16 x;
                    std::memcpy(&x, &a[i + 2 * k], sizeof x);
                    acc[k] += x;
                }
            for (int k = 0; k < 8; ++k) total += acc[k][0] + acc[k][1];
        }
        sink = total;
    });
    const double tc = best_of(runs, [&] {
#pragma omp parallel num_threads(threads)
        {
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            const size_t lo = n * t / nt, hi = n * (t + 1) / nt;
            std::memcpy(b.data() + lo, a.data() + lo, (hi - lo) * sizeof(double));
        }
    });
    (void)sink;
    return {bytes / tr, 2.0 * bytes / tc};
}

}  // namespace

int main(int argc, char **argv) {
    std::string out;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else {
            std::fprintf(stderr, "usage: smallla-host-ceilings [--out FILE.csv]\n");
            return 2;
        }
    }
    FILE *f = out.empty() ? stdout : std::fopen(out.c_str(), "w");
    if (!f) {
        std::perror(out.c_str());
        return 1;
    }
    const int threads = omp_get_max_threads();
    std::fprintf(f, "quantity,threads,value,unit\n");
    std::fprintf(f, "clock,1,%.4g,Hz\n", clock_hz());
    std::fprintf(f, "vector_ops_16B,1,%.4g,ops/s\n", vector_ops_16());
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) std::fprintf(f, "vector_ops_32B,1,%.4g,ops/s\n", vector_ops_32());
    if (__builtin_cpu_supports("avx512f")) std::fprintf(f, "vector_ops_64B,1,%.4g,ops/s\n", vector_ops_64());
#endif
    std::vector<int> counts{1};
    if (threads > 1) counts.push_back(threads);
    for (size_t bytes : {size_t(32) << 20, size_t(512) << 20})
        for (int t : counts) {
            const stream_rates s = stream(bytes, t);
            std::fprintf(f, "read_%zuMB,%d,%.4g,B/s\n", bytes >> 20, t, s.read);
            std::fprintf(f, "copy_%zuMB,%d,%.4g,B/s\n", bytes >> 20, t, s.copy);
        }
    if (f != stdout) std::fclose(f);
    return 0;
}
