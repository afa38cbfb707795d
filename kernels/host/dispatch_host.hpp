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

// Orders up to this one run fixed-size code (a local copy of the matrix, loops of constant trip count that
// the compiler unrolls and vectorizes); larger orders work in place through any_n.
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

// Copies of an n x n matrix between user memory (leading dimension ld) and a local array (leading dimension N).
template <int N, class T> inline void load_matrix(T *__restrict dst, const T *__restrict src, long ld) {
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) dst[i + j * N] = src[i + j * ld];
}
template <int N, class T> inline void store_matrix(T *__restrict dst, long ld, const T *__restrict src) {
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) dst[i + j * ld] = src[i + j * N];
}
template <class T> inline void copy_matrix(int n, T *dst, long ldd, const T *src, long lds) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) dst[i + j * ldd] = src[i + j * lds];
}

inline double cube(int n) { return (double)n * n * n; }

// ---- getrf ------------------------------------------------------------------------------------------------
template <bool Pivoting, class T, class Size, class Batch>
void getrf_batch(Size size, const Batch &A, pivot_batch<int> P, int *info, int batch) {
    for_each_matrix(batch, 2.0 / 3.0 * cube(size), [&](int b, int) {
        T *m = A[b];
        if constexpr (Size::is_fixed) {
            constexpr int N = Size::value;
            T a[N * N];
            load_matrix<N>(a, m, A.ld);
            info[b] = host_kernels::lu_factor<Pivoting>(size, size, a, P[b]);
            store_matrix<N>(m, A.ld, a);
        } else {
            info[b] = host_kernels::lu_factor<Pivoting>(size, any_n{A.ld}, m, P[b]);
        }
    });
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
    per_thread_scratch<T> work(Size::is_fixed ? 0 : n);
    for_each_matrix(batch, 4.0 / 3.0 * cube(n), [&](int b, int thread) {
        if constexpr (Size::is_fixed) {
            constexpr int N = Size::value;
            T a[N * N], w[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = host_kernels::first_zero_diagonal(size, size, a);
            if (inf == 0) host_kernels::lu_inverse(size, size, a, P[b], w);
            store_matrix<N>(C[b], C.ld, a);
            info[b] = inf;
        } else {
            T *c = C[b];
            copy_matrix(n, c, C.ld, A[b], A.ld);
            const int inf = host_kernels::first_zero_diagonal(size, any_n{C.ld}, c);
            if (inf == 0) host_kernels::lu_inverse(size, any_n{C.ld}, c, P[b], work[thread]);
            info[b] = inf;
        }
    });
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
    per_thread_scratch<T> work(Size::is_fixed ? 0 : n);
    per_thread_scratch<int> pivots(Size::is_fixed ? 0 : n);
    for_each_matrix(batch, 2.0 * cube(n), [&](int b, int thread) {
        if constexpr (Size::is_fixed) {
            constexpr int N = Size::value;
            T a[N * N], w[N];
            int piv[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = host_kernels::lu_factor<true>(size, size, a, piv);
            if (inf == 0) host_kernels::lu_inverse(size, size, a, piv, w);
            store_matrix<N>(C[b], C.ld, a);
            info[b] = inf;
        } else {
            T *c = C[b];
            const T *m = A[b];
            if (static_cast<const void *>(c) != static_cast<const void *>(m)) copy_matrix(n, c, C.ld, m, A.ld);
            int *piv = pivots[thread];
            const int inf = host_kernels::lu_factor<true>(size, any_n{C.ld}, c, piv);
            if (inf == 0) host_kernels::lu_inverse(size, any_n{C.ld}, c, piv, work[thread]);
            info[b] = inf;
        }
    });
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
    for_each_matrix(batch, 2.0 * n * n * nrhs, [&](int b, int) {
        T *x = B[b];
        const long ldb = B.ld;
        if constexpr (Size::is_fixed) {
            constexpr int N = Size::value;
            T a[N * N];
            load_matrix<N>(a, A[b], A.ld);
            for (int r = 0; r < nrhs; ++r) host_kernels::lu_solve(size, size, a, P[b], trans, x + r * ldb);
        } else {
            for (int r = 0; r < nrhs; ++r) host_kernels::lu_solve(size, any_n{A.ld}, A[b], P[b], trans, x + r * ldb);
        }
    });
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
