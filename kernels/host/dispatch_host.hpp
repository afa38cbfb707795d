// The host backend's dispatch: the ONE place that decides which host code serves a call (the crossover
// between the fixed-size templates and the any-order code), and the OpenMP loop over the batch.
// host_{s,d,c,z}.cpp instantiate it once per precision so that the four compile in parallel.
#pragma once

#include <omp.h>

#include <algorithm>
#include <vector>

#include "backend.hpp"
#include "lu_host.hpp"

namespace smallla {
namespace host {

using host_kernels::any_n;
using host_kernels::fixed_n;

// The host crossovers (measured on an x86-64 server core, see perf/NOTES.md):
//  - n <= lanes_max_n: groups of W matrices in lockstep in SIMD lanes (lanes_for gives W); the dependency
//    chains of a tiny LU overlap W times;
//  - n <= fixed_size_max_n: one matrix at a time from a local copy, loops of compile-time length that the
//    compiler unrolls and vectorizes down the columns;
//  - larger n: any_n code in place.
constexpr int lanes_max_n = 16;
constexpr int fixed_size_max_n = 32;

// Calls f(fixed_n<n>{}) for 1 <= n <= fixed_size_max_n, else f(any_n{n}): the instantiation table of the
// host kernels (every routine is compiled for each order in 1..fixed_size_max_n plus the any-order case).
template <int N = 1, class F> inline void with_order(int n, F &f) {
    if constexpr (N > fixed_size_max_n) {
        f(any_n{n});
    } else {
        if (n == N) f(fixed_n<N>{});
        else with_order<N + 1>(n, f);
    }
}

// The two operands of a call are given in the same form (both pointer arrays or both strided); calls
// f(accessor of a, accessor of c).
template <class T1, class T2, class F> inline void visit_batches(const matrix_batch<T1> &a, const matrix_batch<T2> &c, F &&f) {
    if (a.is_pointer_array()) f(a.pointers(), c.pointers());
    else f(a.strided(), c.strided());
}

// OpenMP loop over the matrices of a batch: static chunks (the work per matrix is uniform), and no threads
// at all when the whole batch is too little work to pay for waking them. body(b, thread) runs matrix b.
template <class F> inline void for_each_matrix(int batch, double flops_per_matrix, F &&body) {
    const int threads = omp_get_max_threads();
    const bool parallel = threads > 1 && batch > 1 && batch * flops_per_matrix >= 1.0e5;
    const int chunk = std::max(1, batch / (threads * 8));
#pragma omp parallel for schedule(static, chunk) if (parallel)
    for (int b = 0; b < batch; ++b) body(b, omp_get_thread_num());
}

// Per-thread scratch of the any-order code (allocated before the parallel loop, where an exception could not
// be caught).
template <class E> struct per_thread_scratch {
    std::vector<E> data;
    long long each;
    explicit per_thread_scratch(long long per_thread) : data((size_t)per_thread * omp_get_max_threads()), each(per_thread) {}
    E *operator[](int thread) { return data.data() + thread * each; }
};

template <class T> inline void copy_matrix(int n, T *dst, long ldd, const T *src, long lds) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) dst[i + j * ldd] = src[i + j * lds];
}

// ---- groups of W matrices in lanes (orders up to fixed_size_max_n) -----------------------------------------
// Lanes per group: enough independent work to hide the latency chains of a small LU, while the interleaved
// copy of the group stays in L1.
template <class T, int N> constexpr int lanes_for() {
    // One SSE register per lane vector: wider vectors (measured: 32 and 64 bytes) were slower at every order.
    constexpr int vector_bytes = 16;
    return vector_bytes / (int)sizeof(real_t<T>);
}

// Copies of an N x N matrix between user memory (leading dimension ld) and a local array (leading dimension N).
template <int N, class T> inline void load_matrix(T *__restrict dst, const T *__restrict src, long ld) {
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) dst[i + j * N] = src[i + j * ld];
}
template <int N, class T> inline void store_matrix(T *__restrict dst, long ld, const T *__restrict src) {
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) dst[i + j * ld] = src[i + j * N];
}

// A group of W consecutive matrices of a batch; the last group may hold fewer (count), its other lanes get
// the identity so that every lane computes something harmless.
struct lane_group {
    long long first;
    int count;
};
template <int W, class F> inline void for_each_group(int batch, double flops_per_matrix, const F &body) {
    const int groups = (batch + W - 1) / W;
    for_each_matrix(groups, flops_per_matrix * W, [&](int g, int) {
        const long long first = (long long)g * W;
        body(lane_group{first, (int)std::min<long long>(W, batch - first)});
    });
}

// Interleaved copies between the group's matrices (leading dimension ld) and lanes (leading dimension N).
template <int N, int W, class T, class Batch>
inline void load_lanes(host_kernels::lanes_of<T, W> *__restrict a, const Batch &M, lane_group g) {
    for (int w = 0; w < W; ++w) {
        if (w < g.count) {
            const T *src = M[g.first + w];
            const long ld = M.ld;
            for (int j = 0; j < N; ++j)
                for (int i = 0; i < N; ++i) a[i + j * N].set(w, src[i + j * ld]);
        } else {
            for (int j = 0; j < N; ++j)
                for (int i = 0; i < N; ++i) a[i + j * N].set(w, T(real_t<T>(i == j ? 1 : 0)));
        }
    }
}
template <int N, int W, class T, class Batch>
inline void store_lanes(const Batch &M, lane_group g, const host_kernels::lanes_of<T, W> *__restrict a,
                        const host_kernels::lanes_of<T, W> *__restrict alternative = nullptr,
                        const int *__restrict use_alternative = nullptr) {
    for (int w = 0; w < g.count; ++w) {
        const auto *from = use_alternative && use_alternative[w] ? alternative : a;
        T *dst = M[g.first + w];
        const long ld = M.ld;
        for (int j = 0; j < N; ++j)
            for (int i = 0; i < N; ++i) dst[i + j * ld] = from[i + j * N].get(w);
    }
}
// Pivots of the group as piv[k*W + w]; padding lanes get no interchanges.
template <int N, int W> inline void load_pivots(int *__restrict piv, pivot_batch<const int> P, lane_group g) {
    for (int w = 0; w < W; ++w) {
        const int *p = w < g.count ? P[g.first + w] : nullptr;
        for (int k = 0; k < N; ++k) piv[k * W + w] = p ? p[k] : k + 1;
    }
}

inline double cube(int n) { return (double)n * n * n; }

// ---- getrf ------------------------------------------------------------------------------------------------
template <bool Pivoting, class T, class Size, class Batch>
void getrf_batch(Size size, const Batch &A, pivot_batch<int> P, int *info, int batch) {
    if constexpr (Size::is_fixed && Size::order <= lanes_max_n) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        for_each_group<W>(batch, 2.0 / 3.0 * cube(N), [&](lane_group g) {
            host_kernels::lanes_of<T, W> a[N * N];
            int piv[N * W], inf[W];
            load_lanes<N, W, T>(a, A, g);
            host_kernels::lu_factor_lanes<Pivoting, T, W>(size, a, piv, inf);
            store_lanes<N, W, T>(A, g, a);
            for (int w = 0; w < g.count; ++w) {
                info[g.first + w] = inf[w];
                if constexpr (Pivoting) {
                    int *p = P[g.first + w];
                    for (int k = 0; k < N; ++k) p[k] = piv[k * W + w];
                }
            }
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 2.0 / 3.0 * cube(N), [&](int b, int) {
            T a[N * N];
            T *m = A[b];
            load_matrix<N>(a, m, A.ld);
            info[b] = host_kernels::lu_factor<Pivoting>(size, size, a, P[b]);
            store_matrix<N>(m, A.ld, a);
        });
    } else {
        for_each_matrix(batch, 2.0 / 3.0 * cube(size), [&](int b, int) {
            info[b] = host_kernels::lu_factor<Pivoting>(size, any_n{A.ld}, A[b], P[b]);
        });
    }
}

template <class T> smallla_status_t getrf(context &, const getrf_args<T> &a) {
    auto run = [&](auto size) {
        visit_batch(a.A, [&](auto A) {
            if (a.ipiv.base != nullptr) getrf_batch<true, T>(size, A, a.ipiv, a.info, a.batch);
            else getrf_batch<false, T>(size, A, a.ipiv, a.info, a.batch);
        });
    };
    with_order(a.n, run);
    return SMALLLA_SUCCESS;
}

// ---- getri ------------------------------------------------------------------------------------------------
// When U is singular the inverse is not computed and C receives a copy of the factors (what LAPACK's in-place
// getri leaves behind).
template <class T, class Size, class BatchA, class BatchC>
void getri_batch(Size size, const BatchA &A, pivot_batch<const int> P, const BatchC &C, int *info, int batch) {
    const int n = size;
    if constexpr (Size::is_fixed && Size::order <= lanes_max_n) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = host_kernels::lanes_of<T, W>;
        for_each_group<W>(batch, 4.0 / 3.0 * cube(N), [&](lane_group g) {
            L a[N * N], work[N];
            int piv[N * W], inf[W];
            load_lanes<N, W, T>(a, A, g);
            bool singular = false;
            for (int w = 0; w < W; ++w) {
                inf[w] = 0;
                for (int j = 0; j < N && inf[w] == 0; ++j)
                    if (is_zero(a[j + j * N].get(w))) inf[w] = j + 1;
                singular = singular || inf[w] != 0;
            }
            if (P.base != nullptr) load_pivots<N, W>(piv, P, g);
            if (!singular) {
                host_kernels::lu_inverse_lanes<T, W>(size, a, P.base ? piv : nullptr, work);
                store_lanes<N, W, T>(C, g, a);
            } else {  // rare: the singular lanes store their factors unchanged
                L factors[N * N];
                std::copy(a, a + N * N, factors);
                host_kernels::lu_inverse_lanes<T, W>(size, a, P.base ? piv : nullptr, work);
                store_lanes<N, W, T>(C, g, a, factors, inf);
            }
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 4.0 / 3.0 * cube(N), [&](int b, int) {
            T a[N * N], work[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = host_kernels::first_zero_diagonal(size, size, a);
            if (inf == 0) host_kernels::lu_inverse(size, size, a, P[b], work);
            store_matrix<N>(C[b], C.ld, a);  // the factors themselves when singular
            info[b] = inf;
        });
    } else {
        per_thread_scratch<T> work(n);
        for_each_matrix(batch, 4.0 / 3.0 * cube(n), [&](int b, int thread) {
            T *c = C[b];
            copy_matrix(n, c, C.ld, A[b], A.ld);
            const int inf = host_kernels::first_zero_diagonal(size, any_n{C.ld}, c);
            if (inf == 0) host_kernels::lu_inverse(size, any_n{C.ld}, c, P[b], work[thread]);
            info[b] = inf;
        });
    }
}

template <class T> smallla_status_t getri(context &, const getri_args<T> &a) {
    auto run = [&](auto size) {
        visit_batches(a.A, a.C, [&](auto A, auto C) { getri_batch<T>(size, A, a.ipiv, C, a.info, a.batch); });
    };
    with_order(a.n, run);
    return SMALLLA_SUCCESS;
}

// ---- matinv -----------------------------------------------------------------------------------------------
// LU with partial pivoting and the inverse in one pass over one copy of the matrix (local for small orders,
// C itself otherwise), which is what lets C be A. When U is singular C receives the factors.
template <class T, class Size, class BatchA, class BatchC>
void matinv_batch(Size size, const BatchA &A, const BatchC &C, int *info, int batch) {
    const int n = size;
    if constexpr (Size::is_fixed && Size::order <= lanes_max_n) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = host_kernels::lanes_of<T, W>;
        for_each_group<W>(batch, 2.0 * cube(N), [&](lane_group g) {
            L a[N * N], work[N];
            int piv[N * W], inf[W];
            load_lanes<N, W, T>(a, A, g);
            host_kernels::lu_factor_lanes<true, T, W>(size, a, piv, inf);
            bool singular = false;
            for (int w = 0; w < W; ++w) singular = singular || inf[w] != 0;
            if (!singular) {
                host_kernels::lu_inverse_lanes<T, W>(size, a, piv, work);
                store_lanes<N, W, T>(C, g, a);
            } else {  // rare: the singular lanes store their factors
                L factors[N * N];
                std::copy(a, a + N * N, factors);
                host_kernels::lu_inverse_lanes<T, W>(size, a, piv, work);
                store_lanes<N, W, T>(C, g, a, factors, inf);
            }
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 2.0 * cube(N), [&](int b, int) {
            T a[N * N], work[N];
            int piv[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = host_kernels::lu_factor<true>(size, size, a, piv);
            if (inf == 0) host_kernels::lu_inverse(size, size, a, piv, work);
            store_matrix<N>(C[b], C.ld, a);  // the factors when singular
            info[b] = inf;
        });
    } else {
        per_thread_scratch<T> work(n);
        per_thread_scratch<int> pivots(n);
        for_each_matrix(batch, 2.0 * cube(n), [&](int b, int thread) {
            T *c = C[b];
            const T *m = A[b];
            if (static_cast<const void *>(c) != static_cast<const void *>(m)) copy_matrix(n, c, C.ld, m, A.ld);
            int *piv = pivots[thread];
            const int inf = host_kernels::lu_factor<true>(size, any_n{C.ld}, c, piv);
            if (inf == 0) host_kernels::lu_inverse(size, any_n{C.ld}, c, piv, work[thread]);
            info[b] = inf;
        });
    }
}

template <class T> smallla_status_t matinv(context &, const matinv_args<T> &a) {
    auto run = [&](auto size) {
        visit_batches(a.A, a.C, [&](auto A, auto C) { matinv_batch<T>(size, A, C, a.info, a.batch); });
    };
    with_order(a.n, run);
    return SMALLLA_SUCCESS;
}

// ---- getrs ------------------------------------------------------------------------------------------------
template <class T, class Size, class BatchA, class BatchB>
void getrs_batch(Size size, smallla_operation_t trans, int nrhs, const BatchA &A, pivot_batch<const int> P,
                 const BatchB &B, int batch) {
    const int n = size;
    if constexpr (Size::is_fixed && Size::order <= lanes_max_n) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = host_kernels::lanes_of<T, W>;
        for_each_group<W>(batch, 2.0 * N * N * nrhs, [&](lane_group g) {
            L a[N * N], x[N];
            int piv[N * W];
            load_lanes<N, W, T>(a, A, g);
            if (P.base != nullptr) load_pivots<N, W>(piv, P, g);
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) {
                for (int w = 0; w < W; ++w) {
                    const T *b = w < g.count ? B[g.first + w] + r * ldb : nullptr;
                    for (int i = 0; i < N; ++i) x[i].set(w, b ? b[i] : T(real_t<T>(0)));
                }
                host_kernels::lu_solve_lanes<T, W>(size, a, P.base ? piv : nullptr, trans, x);
                for (int w = 0; w < g.count; ++w) {
                    T *b = B[g.first + w] + r * ldb;
                    for (int i = 0; i < N; ++i) b[i] = x[i].get(w);
                }
            }
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 2.0 * N * N * nrhs, [&](int b, int) {
            T a[N * N];
            load_matrix<N>(a, A[b], A.ld);
            T *x = B[b];
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) host_kernels::lu_solve(size, size, a, P[b], trans, x + r * ldb);
        });
    } else {
        for_each_matrix(batch, 2.0 * n * n * nrhs, [&](int b, int) {
            T *x = B[b];
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) host_kernels::lu_solve(size, any_n{A.ld}, A[b], P[b], trans, x + r * ldb);
        });
    }
}

template <class T> smallla_status_t getrs(context &, const getrs_args<T> &a) {
    auto run = [&](auto size) {
        visit_batches(a.A, a.B, [&](auto A, auto B) {
            getrs_batch<T>(size, a.trans, a.nrhs, A, a.ipiv, B, a.batch);
        });
    };
    with_order(a.n, run);
    return SMALLLA_SUCCESS;
}

// Explicit instantiation of the host backend for one scalar type (used once per precision).
#define SMALLLA_HOST_INSTANTIATE(T)                                                     \
    template smallla_status_t getrf<T>(context &, const getrf_args<T> &);               \
    template smallla_status_t getri<T>(context &, const getri_args<T> &);               \
    template smallla_status_t matinv<T>(context &, const matinv_args<T> &);             \
    template smallla_status_t getrs<T>(context &, const getrs_args<T> &);

}  // namespace host
}  // namespace smallla
