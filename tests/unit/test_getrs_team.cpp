// getrs's solve shared by a team of threads (kernels/host/lu_batch.hpp's lu_solve_team, taken for fewer solves than
// threads from routing.hpp's getrs_team_min_order) against the one-thread solve (lu_solve): op N, T and C, with
// and without interchanges, orders around the team's block of columns, leading dimensions with a gap, 1-4 threads.
// Every entry takes its products in the one-thread order, so the results must be bitwise the same.
#include <omp.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "host/lu_batch.hpp"

using namespace smallla;
using namespace smallla::host_kernels;

namespace {

int failures = 0, compared = 0;

template <class T> T random_entry(std::mt19937 &g) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return T(u(g));
    else return T{decltype(T{}.re)(u(g)), decltype(T{}.re)(u(g))};
}

template <class T> void precision(const char *name, std::mt19937 &g) {
    static const int orders[] = {1, 3, 63, 64, 65, 129, 200, 257};
    static const smallla_operation_t ops[] = {SMALLLA_OP_N, SMALLLA_OP_T, SMALLLA_OP_C};
    for (int n : orders) {
        const int ld = n + 3;
        // Factors with a heavy diagonal (the solve stays finite) and pivots p >= k, as getrf gives.
        std::vector<T> a((size_t)ld * n);
        for (T &x : a) x = random_entry<T>(g);
        for (int k = 0; k < n; ++k) a[k + (size_t)k * ld] = a[k + (size_t)k * ld] + T(real_t<T>(4));
        std::vector<int> ipiv(n);
        for (int k = 0; k < n; ++k) ipiv[k] = k + 1 + (int)(g() % (unsigned)(n - k));
        std::vector<T> b(n);
        for (T &x : b) x = random_entry<T>(g);
        for (smallla_operation_t op : ops)
            for (const int *p : {static_cast<const int *>(ipiv.data()), static_cast<const int *>(nullptr)}) {
                std::vector<T> want = b;
                omp_set_num_threads(1);
                lu_solve(any_n{n}, any_n{ld}, a.data(), p, op, want.data());
                for (int threads = 1; threads <= 4; ++threads) {
                    std::vector<T> got = b;
                    omp_set_num_threads(threads);
                    lu_solve_team(n, ld, a.data(), p, op, got.data());
                    ++compared;
                    if (std::memcmp(got.data(), want.data(), sizeof(T) * n) != 0) {
                        ++failures;
                        std::printf("FAILED: %s n=%d op=%d %s, %d threads: the team's solve differs from one thread's\n",
                                    name, n, (int)op, p ? "ipiv" : "no ipiv", threads);
                    }
                }
            }
    }
}

}  // namespace

int main() {
    std::mt19937 g(2026);
    precision<float>("s", g);
    precision<double>("d", g);
    precision<complex<float>>("c", g);
    precision<complex<double>>("z", g);
    if (failures == 0) std::printf("PASSED: %d team solves bitwise equal to one thread's\n", compared);
    return failures == 0 ? 0 : 1;
}
