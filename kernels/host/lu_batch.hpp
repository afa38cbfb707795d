// The host kernels over a batch: the OpenMP loop over the matrices and the three forms of each routine (lanes:
// W matrices in lockstep in SIMD lanes; fixed: one matrix at a time from a local copy with loops of compile-time
// length; any: in place, any order). The routing table (routing.def) chooses the form; lib/host/dispatch.hpp
// reads it and calls these.
#pragma once

#include <omp.h>

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/args.hpp"
#include "common/grid.hpp"
#include "lu_host.hpp"
#include "routing.hpp"

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// Calls f(size) with the size type of the routed form: lanes_n<n> (lanes; lanes_any_n beyond lanes_max_order),
// fixed_n<n> (fixed), any_n{n} (any). The instantiation table of the host kernels: a form is compiled for the orders
// where the table routes (R, P) to it, the lanes form where it does on this copy's instruction set (the wider copies
// call their own, with_lanes_route).
template <routine R, char P, int N = 1, class F> inline void with_route(family form, int n, F &&f) {
    if constexpr (N > fixed_max_order) {
        if constexpr (routed_lanes_beyond(R, P, this_isa))
            if (form == family::lanes) return f(lanes_any_n{{n}});
        f(any_n{n});
    } else {
        if (n != N) {
            with_route<R, P, N + 1>(form, n, f);
            return;
        }
        if constexpr (routed(R, P, this_isa, N, family::lanes))
            if (form == family::lanes) return f(lanes_n<N>{});
        if constexpr (routed_anywhere(R, P, N, family::fixed))
            if (form == family::fixed) return f(fixed_n<N>{});
        f(any_n{n});
    }
}
// Calls f(lanes_n<n>{}) (beyond lanes_max_order f(lanes_any_n{n})) where the table routes (R, P, n) to the lanes
// form on this copy's instruction set (the caller has asked the table); nothing elsewhere.
template <routine R, char P, int N = 1, class F> inline void with_lanes_route(int n, F &&f) {
    if constexpr (N <= lanes_max_order) {
        if (n != N) return with_lanes_route<R, P, N + 1>(n, f);
        if constexpr (routed(R, P, this_isa, N, family::lanes)) f(lanes_n<N>{});
    } else if constexpr (routed_lanes_beyond(R, P, this_isa)) {
        f(lanes_any_n{{n}});
    }
}

// OpenMP loop over the matrices of a batch: static chunks (the work per matrix is uniform), and no threads
// at all when the whole batch is too little work to pay for waking them. body(b, thread) runs matrix b.
inline bool threads_pay(int batch, double flops_per_matrix) {
    return omp_get_max_threads() > 1 && batch > 1 && batch * flops_per_matrix >= 1.0e5;
}
template <class F> inline void for_each_matrix(int batch, double flops_per_matrix, F &&body) {
    const int threads = omp_get_max_threads();
    const bool parallel = threads_pay(batch, flops_per_matrix);
    const int chunk = std::max(1, batch / (threads * 8));
#pragma omp parallel for schedule(static, chunk) if (parallel)
    for (int b = 0; b < batch; ++b) body(b, omp_get_thread_num());
}
// Real multiply-adds an element operation of T costs, four in complex: the blocked forms weigh their flop counts by
// it, so that a complex batch worth two threads gets them (perf/NOTES.md, "Host backend").
template <class T> constexpr double element_work() { return sizeof(T) == sizeof(real_t<T>) ? 1.0 : 4.0; }

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

// ---- groups of W matrices in lanes (orders up to fixed_max_order) -----------------------------------------
// Lanes per group: enough independent work to hide the latency chains of a small LU, while the interleaved
// copy of the group stays in L1.
// Bytes of a group's interleaved copy beyond which the lanes are halved (down to one 16-byte vector), so that the
// group stays near a 48 KiB L1. The complex inverses (getri, matinv: more flops per element than getrf) ran faster
// with groups up to 64 KiB of at most 8 matrices at n = 28-32, the complex getrf slower; and an inverse's group that
// passes L1 even so ran faster still at the run-time orders' width, in L2 (z at 28-32 with AVX-512; perf/NOTES.md).
template <class T, bool Inverse> constexpr bool wide_groups() { return Inverse && sizeof(T) != sizeof(real_t<T>); }
// N = 0: an order known at run time (beyond lanes_max_order), where a group outgrows L1 at any width
// (routing.hpp's lanes_any_width).
template <class T, int N, bool Inverse = false> constexpr int lanes_for() {
    if constexpr (N == 0) return lanes_any_width(this_isa, sizeof(real_t<T>), sizeof(T) != sizeof(real_t<T>));
    // One register of this copy's instruction set per lane vector (16-byte vectors lowered to SSE were faster
    // than 32- and 64-byte ones on SSE2).
    constexpr int least = 16 / (int)sizeof(real_t<T>), bytes = wide_groups<T, Inverse>() ? 64 * 1024 : 40 * 1024;
    int w = vector_bytes / (int)sizeof(real_t<T>);
    if (wide_groups<T, Inverse>() && w > 8) w = 8;
    while (w > least && w * N * N * (int)sizeof(T) > bytes) w /= 2;
    if (Inverse && w * N * N * (int)sizeof(T) > 48 * 1024) return lanes_for<T, 0>();  // past L1 even so
    return w;
}

// The leading dimension of the inverses' interleaved copy: one lane vector more where a column would be a multiple of
// 2 KiB, whose rows would fall in 2 of the L1's 64 sets (c and z at n = 32; perf/NOTES.md, "Host backend").
template <class L> constexpr int lanes_ld(int n) { return n * sizeof(L) % 2048 == 0 ? n + 1 : n; }
// The order and the leading dimension (Padded: lanes_ld's) of a group's copy as the copies and steps take them:
// fixed_n at a compile-time order, any_n at a run-time one.
template <class Size> inline auto lanes_order(Size size) {
    if constexpr (Size::is_fixed) return fixed_n<Size::value>{};
    else return any_n{size};
}
template <class L, bool Padded, class Size> inline auto lanes_ld_of(Size size) {
    if constexpr (Size::is_fixed) return fixed_n<Padded ? lanes_ld<L>(Size::value) : Size::value>{};
    else return any_n{Padded ? lanes_ld<L>(size) : (int)size};
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
    const int groups = (int)groups_for(batch, W);
    for_each_matrix(groups, flops_per_matrix * W, [&](int g, int) {
        const long long first = (long long)g * W;
        body(lane_group{first, (int)std::min<long long>(W, batch - first)});
    });
}

// body(g, a, factors, work, piv) for each group of W matrices: a and (Copies == 2) factors hold ld x n lanes
// elements, work n, piv n x W ints. At a compile-time order they are arrays of the loop's frame; at a run-time order
// this thread's part of scratch allocated before the loop.
template <class L, int W, int Copies, class Size, class Ld, class F>
inline void for_each_lanes_group(Size size, Ld ld, int batch, double flops_per_matrix, const F &body) {
    if constexpr (Size::is_fixed) {
        for_each_group<W>(batch, flops_per_matrix, [&](lane_group g) {
            L a[Size::value * Ld::value], factors[Copies == 2 ? Size::value * Ld::value : 1], work[Size::value];
            int piv[Size::value * W];
            body(g, a, factors, work, piv);
        });
    } else {
        const long elements = (long)(int)ld * (int)size;
        per_thread_scratch<L> lanes(Copies * elements + size);
        per_thread_scratch<int> pivots((long)size * W);
        for_each_group<W>(batch, flops_per_matrix, [&](lane_group g) {
            const int thread = omp_get_thread_num();
            L *a = lanes[thread];
            body(g, a, a + (Copies - 1) * elements, a + Copies * elements, pivots[thread]);
        });
    }
}

// The batch accessor the copies read through (one type for every routine, so that they share the copies).
template <class T> inline either_batch<const T> read_only(const either_batch<T> &M) {
    return {M.base, M.ptrs, M.ld, M.stride};
}
// A full group of W matrices of E elements each that lie back to back (a strided batch without gaps) moves as
// whole vectors, rearranged in registers (rearrange_flat), where its K numbers per matrix (complex: real and
// imaginary parts) are a power of two up to W. (Beyond W, by W x W blocks as gather_block moves them, getrs
// measured 0.6-0.9x at some orders and threads, perf/NOTES.md.) flat_group says where the group starts, or nullptr.
constexpr bool power_of_two(int k) { return k > 0 && (k & (k - 1)) == 0; }
template <class T> constexpr int reals_per(int elements) {
    return std::is_same<T, real_t<T>>::value ? elements : 2 * elements;
}
template <class T, int W, int E> constexpr bool flat_copies() {
    return W > 1 && reals_per<T>(E) <= W && power_of_two(reals_per<T>(E));
}
template <int E, int W, class B> inline auto flat_group(const B &M, lane_group g, int ld) -> decltype(M.base) {
    return g.count == W && M.ptrs == nullptr && M.ld == ld && M.stride == E ? M.base + g.first * E : nullptr;
}
// Number k of lanes x (complex: the real and imaginary parts of element k / 2 in turn) as a raw vector.
template <class R, int W> inline typename simd<R, W>::vec &lane_number(rlanes<R, W> *x, int k) { return x[k].v; }
template <class R, int W> inline typename simd<R, W>::vec &lane_number(clanes<R, W> *x, int k) {
    return k % 2 ? x[k / 2].im : x[k / 2].re;
}
template <class R, int W> inline typename simd<R, W>::vec lane_number(const rlanes<R, W> *x, int k) { return x[k].v; }
template <class R, int W> inline typename simd<R, W>::vec lane_number(const clanes<R, W> *x, int k) {
    return k % 2 ? x[k / 2].im : x[k / 2].re;
}
template <int E, int W, class T> inline void load_flat(lanes_of<T, W> *__restrict x, const T *src) {
    using R = real_t<T>;
    using V = typename simd<R, W>::vec;
    constexpr int K = reals_per<T>(E);
    V a[K], b[K];
    for (int k = 0; k < K; ++k) a[k] = load_vector<R, W>(reinterpret_cast<const R *>(src) + k * W);
    const V *v = rearrange_flat<R, W, K, true>(a, b);
    for (int k = 0; k < K; ++k) lane_number(x, k) = v[k];
}
template <int E, int W, class T> inline void store_flat(T *dst, const lanes_of<T, W> *__restrict x) {
    using R = real_t<T>;
    using V = typename simd<R, W>::vec;
    constexpr int K = reals_per<T>(E);
    V a[K], b[K];
    for (int k = 0; k < K; ++k) a[k] = lane_number(x, k);
    const V *v = rearrange_flat<R, W, K, false>(a, b);
    for (int k = 0; k < K; ++k) store_vector<R, W>(reinterpret_cast<R *>(dst) + k * W, v[k]);
}

// Interleaved copies between the group's matrices (leading dimension ld) and lanes (leading dimension LD), order
// N (fixed_n) or n (any_n). Flat (getrs): matrices back to back move flat (above; getrf, getri and matinv measured
// 0.8-1.3x that way, perf/NOTES.md). Otherwise a full group of order 2W or more moves by blocks of W numbers of a
// column (gather_block, scatter_block; complex: real and imaginary parts in turn, as clanes keeps them); the numbers
// the blocks leave, one by one. Complex groups from order 16 (and 2W) only, and in 4 lanes or more: below 16, and in
// 2 lanes (a block one element of each matrix), blocks measured no faster than element by element (perf/NOTES.md,
// "Host backend").
template <class T, int W> constexpr int block_copy_min_order() {
    if constexpr (std::is_same<T, real_t<T>>::value) return 2 * W;
    else return W < 4 ? std::numeric_limits<int>::max() : 2 * W >= 16 ? 2 * W : 16;
}
template <int W, class T, bool Flat, class Order, class Ld>
inline void load_lanes(Order order, Ld ld_, lanes_of<T, W> *__restrict a, either_batch<const T> M, lane_group g) {
    constexpr int N = Order::order;
    const int n = order;
    const long LD = (int)ld_;
    if constexpr (Flat && N > 0 && Ld::order == N && flat_copies<T, W, N * N>() &&
                  N < block_copy_min_order<T, W>()) {
        if (const T *src = flat_group<N * N, W>(M, g, N)) return load_flat<N * N, W, T>(a, src);
    }
    if constexpr (W > 1) {
        using R = real_t<T>;
        const int rows = reals_per<T>(n);  // a column as numbers (complex: real and imaginary parts in turn)
        if (n >= block_copy_min_order<T, W>() && g.count == W) {
            const R *m[W];
            for (int w = 0; w < W; ++w) m[w] = reinterpret_cast<const R *>(M[g.first + w]);
            const long ld = reals_per<T>(M.ld);
            typename simd<R, W>::vec v[W];
            for (int j = 0; j < n; ++j) {
                lanes_of<T, W> *__restrict column = a + j * LD;
                int r = 0;
                for (; r + W <= rows; r += W) {
                    gather_block<R, W>(v, m, r + j * ld);
                    for (int q = 0; q < W; ++q) lane_number(column, r + q) = v[q];
                }
                for (; r < rows; ++r)
                    for (int w = 0; w < W; ++w) lane_number(column, r)[w] = m[w][r + j * ld];
            }
            return;
        }
    }
    for (int w = 0; w < W; ++w) {
        if (w < g.count) {
            const T *src = M[g.first + w];
            const long ld = M.ld;
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) a[i + j * LD].set(w, src[i + j * ld]);
        } else {
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) a[i + j * LD].set(w, T(real_t<T>(i == j ? 1 : 0)));
        }
    }
}
// use_alternative[w] != 0 (nullptr: none): lane w stores alternative's matrix.
template <int W, class T, class Order, class Ld>
inline void store_lanes(Order order, Ld ld_, either_batch<T> M, lane_group g, const lanes_of<T, W> *__restrict a,
                        const lanes_of<T, W> *__restrict alternative, const int *__restrict use_alternative) {
    const int n = order;
    const long LD = (int)ld_;
    if constexpr (W > 1) {
        using R = real_t<T>;
        const int rows = reals_per<T>(n);
        bool all = g.count == W && n >= block_copy_min_order<T, W>();
        for (int w = 0; use_alternative && w < W; ++w) all = all && !use_alternative[w];
        if (all) {
            R *m[W];
            for (int w = 0; w < W; ++w) m[w] = reinterpret_cast<R *>(M[g.first + w]);
            const long ld = reals_per<T>(M.ld);
            typename simd<R, W>::vec v[W];
            for (int j = 0; j < n; ++j) {
                const lanes_of<T, W> *__restrict column = a + j * LD;
                int r = 0;
                for (; r + W <= rows; r += W) {
                    for (int q = 0; q < W; ++q) v[q] = lane_number(column, r + q);
                    scatter_block<R, W>(m, r + j * ld, v);
                }
                for (; r < rows; ++r)
                    for (int w = 0; w < W; ++w) m[w][r + j * ld] = lane_number(column, r)[w];
            }
            return;
        }
    }
    for (int w = 0; w < g.count; ++w) {
        const auto *from = use_alternative && use_alternative[w] ? alternative : a;
        T *dst = M[g.first + w];
        const long ld = M.ld;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) dst[i + j * ld] = from[i + j * LD].get(w);
    }
}
// Pivots of the group's n rows as piv[k*W + w]; padding lanes get no interchanges.
template <int W> inline void load_pivots(int n, int *__restrict piv, pivot_batch<const int> P, lane_group g) {
    for (int w = 0; w < W; ++w) {
        const int *p = w < g.count ? P[g.first + w] : nullptr;
        for (int k = 0; k < n; ++k) piv[k * W + w] = p ? p[k] : k + 1;
    }
}

inline double cube(int n) { return (double)n * n * n; }

// ---- getrf ------------------------------------------------------------------------------------------------
template <bool Pivoting, class T, class Size, class Batch>
void getrf_batch(Size size, const Batch &A, pivot_batch<int> P, int *info, int batch) {
    const int n = size;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::order, W = lanes_for<T, N>();
        using L = lanes_of<T, W>;
        const auto order = lanes_order(size);
        const auto ld = lanes_ld_of<L, !Size::is_fixed>(size);  // padded at run-time orders only (as measured)
        using O = decltype(order);
        using D = decltype(ld);
        for_each_lanes_group<L, W, 1>(size, ld, batch, 2.0 / 3.0 * cube(n), [&](lane_group g, L *a, L *, L *, int *piv) {
            int inf[W];
            lanes_step<N, load_lanes<W, T, false, O, D>>(order, ld, a, read_only(A), g);
            lanes_step<N, lu_factor_lanes<Pivoting, T, W, Size, D>>(size, ld, a, piv, inf);
            lanes_step<N, store_lanes<W, T, O, D>>(order, ld, A, g, a, (L *)nullptr, (int *)nullptr);
            for (int w = 0; w < g.count; ++w) {
                info[g.first + w] = inf[w];
                if constexpr (Pivoting) {
                    int *p = P[g.first + w];
                    for (int k = 0; k < n; ++k) p[k] = piv[k * W + w];
                }
            }
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 2.0 / 3.0 * cube(N), [&](int b, int) {
            T a[N * N];
            T *m = A[b];
            load_matrix<N>(a, m, A.ld);
            info[b] = lu_factor<Pivoting>(size, size, a, P[b]);
            store_matrix<N>(m, A.ld, a);
        });
    } else {
        for_each_matrix(batch, 2.0 / 3.0 * cube(n), [&](int b, int) {
            info[b] = lu_factor<Pivoting>(size, any_n{A.ld}, A[b], P[b]);
        });
    }
}

// ---- getri ------------------------------------------------------------------------------------------------
// When U is singular the inverse is not computed and C receives a copy of the factors (what LAPACK's in-place
// getri leaves behind).
template <class T, class Size, class BatchA, class BatchC>
void getri_batch(Size size, const BatchA &A, pivot_batch<const int> P, const BatchC &C, int *info, int batch) {
    const int n = size;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::order, W = lanes_for<T, N, true>();
        using L = lanes_of<T, W>;
        const auto order = lanes_order(size);
        const auto ld = lanes_ld_of<L, true>(size);
        using O = decltype(order);
        using D = decltype(ld);
        const long lda = (int)ld;
        for_each_lanes_group<L, W, 2>(size, ld, batch, 4.0 / 3.0 * cube(n), [&](lane_group g, L *a, L *factors, L *work,
                                                                              int *piv) {
            int inf[W];
            lanes_step<N, load_lanes<W, T, false, O, D>>(order, ld, a, read_only(A), g);
            bool singular = false;
            for (int w = 0; w < W; ++w) {
                inf[w] = 0;
                for (int j = 0; j < n && inf[w] == 0; ++j)
                    if (is_zero(a[j + j * lda].get(w))) inf[w] = j + 1;
                singular = singular || inf[w] != 0;
            }
            if (P.base != nullptr) load_pivots<W>(n, piv, P, g);
            if (singular) std::copy(a, a + n * lda, factors);  // rare: the singular lanes store their factors unchanged
            lanes_step<N, lu_inverse_lanes<T, W, Size, D>>(size, ld, a, P.base ? piv : nullptr, work);
            lanes_step<N, store_lanes<W, T, O, D>>(order, ld, C, g, a, factors, singular ? inf : nullptr);
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 4.0 / 3.0 * cube(N), [&](int b, int) {
            T a[N * N], work[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = first_zero_diagonal(size, size, a);
            if (inf == 0) lu_inverse(size, size, a, P[b], work);
            store_matrix<N>(C[b], C.ld, a);  // the factors themselves when singular
            info[b] = inf;
        });
    } else {
        per_thread_scratch<T> work(n);
        for_each_matrix(batch, 4.0 / 3.0 * cube(n), [&](int b, int thread) {
            T *c = C[b];
            copy_matrix(n, c, C.ld, A[b], A.ld);
            const int inf = first_zero_diagonal(size, any_n{C.ld}, c);
            if (inf == 0) lu_inverse(size, any_n{C.ld}, c, P[b], work[thread]);
            info[b] = inf;
        });
    }
}

// ---- matinv -----------------------------------------------------------------------------------------------
// LU with partial pivoting and the inverse in one pass over one copy of the matrix (local for small orders,
// C itself otherwise), which is what lets C be A. When U is singular C receives the factors.
template <class T, class Size, class BatchA, class BatchC>
void matinv_batch(Size size, const BatchA &A, const BatchC &C, int *info, int batch) {
    const int n = size;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::order, W = lanes_for<T, N, true>();
        using L = lanes_of<T, W>;
        const auto order = lanes_order(size);
        const auto ld = lanes_ld_of<L, true>(size);
        using O = decltype(order);
        using D = decltype(ld);
        const long lda = (int)ld;
        for_each_lanes_group<L, W, 2>(size, ld, batch, 2.0 * cube(n), [&](lane_group g, L *a, L *factors, L *work,
                                                                         int *piv) {
            int inf[W];
            lanes_step<N, load_lanes<W, T, false, O, D>>(order, ld, a, read_only(A), g);
            lanes_step<N, lu_factor_lanes<true, T, W, Size, D>>(size, ld, a, piv, inf);
            bool singular = false;
            for (int w = 0; w < W; ++w) singular = singular || inf[w] != 0;
            if (singular) std::copy(a, a + n * lda, factors);  // rare: the singular lanes store their factors
            lanes_step<N, lu_inverse_lanes<T, W, Size, D>>(size, ld, a, piv, work);
            lanes_step<N, store_lanes<W, T, O, D>>(order, ld, C, g, a, factors, singular ? inf : nullptr);
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else if constexpr (Size::is_fixed) {
        constexpr int N = Size::value;
        for_each_matrix(batch, 2.0 * cube(N), [&](int b, int) {
            T a[N * N], work[N];
            int piv[N];
            load_matrix<N>(a, A[b], A.ld);
            const int inf = lu_factor<true>(size, size, a, piv);
            if (inf == 0) lu_inverse(size, size, a, piv, work);
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
            const int inf = lu_factor<true>(size, any_n{C.ld}, c, piv);
            if (inf == 0) lu_inverse(size, any_n{C.ld}, c, piv, work[thread]);
            info[b] = inf;
        });
    }
}

// xLASWP's interchanges, k = 0 .. N-1 (Forward) or back, on lane w of N lanes vectors (one matrix's right-hand side);
// out-of-range entries are ignored. Without branches, which the pivots would decide: an interchange of a row with
// itself writes it twice.
template <bool Forward, int N, class L> inline void interchange_lane(L *x, const int *ipiv, int w) {
    for (int s = 0; s < N; ++s) {
        const int k = Forward ? s : N - 1 - s;
        const unsigned p = (unsigned)(ipiv[k] - 1);
        swap_lane(x[k], x[p < (unsigned)N ? (int)p : k], w);
    }
}

// The same interchanges on all W lanes at once, for small orders: ipiv[k] holds the W matrices' pivots of row k
// as a vector; each lane's exchange becomes selects against every other row (N - 1 of them) instead of lane
// accesses through memory.
template <bool Forward, int N, int W, class L>
inline void interchange_lanes(L *x, const typename simd<int, W>::vec *ipiv) {
    using mask = decltype(abs1(x[0]) < abs1(x[0]));
    for (int s = 0; s < N; ++s) {
        const int k = Forward ? s : N - 1 - s;
        for (int r = 0; r < N; ++r) {
            if (r == k) continue;
            const mask m = __builtin_convertvector(ipiv[k] == r + 1, mask);
            const L t = x[k];
            x[k] = select(m, x[r], x[k]);
            x[r] = select(m, t, x[r]);
        }
    }
}
// ipiv[k] lane w = the pivot of row k of the group's matrix w (the padding lanes': k + 1, no exchange).
template <int N, int W>
inline void load_pivot_lanes(typename simd<int, W>::vec *ipiv, pivot_batch<const int> P, lane_group g) {
    if constexpr (power_of_two(N) && N <= W) {
        if (g.count == W && P.stride == N) {
            using V = typename simd<int, W>::vec;
            V a[N], b[N];
            for (int k = 0; k < N; ++k) a[k] = load_vector<int, W>(P[g.first] + k * W);
            const V *v = rearrange_flat<int, W, N, true>(a, b);
            for (int k = 0; k < N; ++k) ipiv[k] = v[k];
            return;
        }
    }
    int piv[N * W];
    load_pivots<W>(N, piv, P, g);
    std::memcpy(ipiv, piv, sizeof piv);
}

// ---- getrs ------------------------------------------------------------------------------------------------
// One solve shared by all threads (fewer solves than threads, from routing.hpp's getrs_team_min_order):
// blocks of team_block columns between barriers; the updates of op = N spread by rows, the sums of the solve with
// op(U) otherwise by columns. Every x[i] takes its products in the order of the one-thread solve, so the results are
// bitwise the same. The solve with op(L) for op = T, C stays on one thread: its sums start at the row just solved,
// so no block can start before the one before it ends.
constexpr int team_block = 64;
template <class T>
inline void lu_solve_team(int n, long ld, const T *a, const int *ipiv, smallla_operation_t trans, T *x) {
    constexpr int NB = block_width, TB = team_block;
    static_assert(TB % NB == 0, "a team block holds whole blocks of block_width columns");
    const bool conjugate = trans == SMALLLA_OP_C;
    if (trans == SMALLLA_OP_N) interchange_rows(n, ipiv, x, true);
#pragma omp parallel
    {
        const int threads = omp_get_num_threads(), me = omp_get_thread_num();
        const auto part = [&](int lo, int hi, int &p0, int &p1) {
            p0 = lo + (int)((long)(hi - lo) * me / threads);
            p1 = lo + (int)((long)(hi - lo) * (me + 1) / threads);
        };
        if (trans == SMALLLA_OP_N) {
            // Each thread solves a block's triangle into its own s (the same values on every thread), then
            // updates its rows beyond the block; thread 0 stores s (rows held .. held + nb) after the barrier that
            // follows every thread's reading of the block.
            T s[TB];
            int held = 0, nb = 0, r0, r1;
            const auto store_held = [&] {
                if (me == 0)
                    for (int q = 0; q < nb; ++q) x[held + q] = s[q];
            };
            for (int k0 = 0; k0 < n; k0 += TB) {  // L y = P b, L unit lower
                store_held();
                held = k0;
                nb = std::min(n - k0, TB);
                const int k1 = k0 + nb;
                for (int q = 0; q < nb; ++q) s[q] = x[k0 + q];
                for (int q0 = 0; q0 < nb; q0 += NB) {  // the triangle, as lu_solve_unpermuted_blocked's
                    const int q1 = std::min(nb, q0 + NB);
                    for (int q = q0; q < q1; ++q)
                        for (int i = q + 1; i < q1; ++i) s[i] -= s[q] * a[k0 + i + (long)(k0 + q) * ld];
                    if (q1 < nb) subtract_products<NB>(s, a + k0 + (long)(k0 + q0) * ld, ld, s + q0, q1, nb);
                }
                part(k1, n, r0, r1);
                int k = k0;
                for (; k + NB <= k1; k += NB) subtract_products<NB>(x, a + k * ld, ld, s + (k - k0), r0, r1);
                for (; k < k1; ++k)
                    for (int i = r0; i < r1; ++i) x[i] -= s[k - k0] * a[i + k * ld];
#pragma omp barrier
            }
            store_held();
            nb = 0;
#pragma omp barrier
            for (int k1 = n; k1 > 0; k1 -= nb) {  // U x = y, from the last block up
                store_held();
                nb = std::min(k1, TB);
                const int k0 = held = k1 - nb;
                for (int q = 0; q < nb; ++q) s[q] = x[k0 + q];
                for (int q1 = nb; q1 > 0; q1 -= NB) {  // the triangle, from its last column
                    const int q0 = std::max(0, q1 - NB);
                    T sq[NB] = {};  // zeroed: the top group may be partial; it takes no update (q0 = 0)
                    for (int q = q1 - 1; q >= q0; --q) {
                        const T *ak = a + (long)(k0 + q) * ld + k0;
                        s[q] = s[q] / ak[q];
                        sq[q1 - 1 - q] = s[q];
                        for (int i = q0; i < q; ++i) s[i] -= s[q] * ak[i];
                    }
                    if (q0 > 0) subtract_products<NB>(s, a + k0 + (long)(k0 + q1 - 1) * ld, -ld, sq, 0, q0);
                }
                part(0, k0, r0, r1);
                int k = k1 - 1;
                for (; k - NB + 1 >= k0; k -= NB) {
                    T sq[NB];
                    for (int q = 0; q < NB; ++q) sq[q] = s[k - q - k0];
                    subtract_products<NB>(x, a + k * ld, -ld, sq, r0, r1);
                }
                for (; k >= k0; --k)
                    for (int i = r0; i < r1; ++i) x[i] -= s[k - k0] * a[i + k * ld];
#pragma omp barrier
            }
            store_held();
        } else {
            // op(U) y = b: a block's sums over the rows above it by columns, then its triangle on thread 0.
            for (int k0 = 0; k0 < n; k0 += TB) {
                const int k1 = std::min(n, k0 + TB);
                int c0, c1;
                part(k0, k1, c0, c1);
                for (int k = c0; k < c1; ++k) {
                    const T *ak = a + (long)k * ld;
                    T t = x[k];
                    for (int i = 0; i < k0; ++i) t -= conj_if(ak[i], conjugate) * x[i];
                    x[k] = t;
                }
#pragma omp barrier
                if (me == 0)
                    for (int k = k0; k < k1; ++k) {
                        const T *ak = a + (long)k * ld;
                        T t = x[k];
                        for (int i = k0; i < k; ++i) t -= conj_if(ak[i], conjugate) * x[i];
                        x[k] = t / conj_if(ak[k], conjugate);
                    }
#pragma omp barrier
            }
        }
    }
    if (trans == SMALLLA_OP_N) return;
    for (int k = n - 1; k >= 0; --k) {  // op(L) z = y, L unit lower
        const T *ak = a + (long)k * ld;
        T t = x[k];
        for (int i = k + 1; i < n; ++i) t -= conj_if(ak[i], conjugate) * x[i];
        x[k] = t;
    }
    interchange_rows(n, ipiv, x, false);
}

// Lanes: up to order 4 the interchanges are selects on all lanes (interchange_lanes), beyond lane by lane; one
// right-hand side per matrix stored back to back moves flat.
constexpr int select_interchanges_max_order = 4;
template <class T, class Size, class BatchA, class BatchB>
void getrs_batch(Size size, smallla_operation_t trans, int nrhs, const BatchA &A, pivot_batch<const int> P,
                 const BatchB &B, int batch) {
    const int n = size;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        constexpr bool selects = N <= select_interchanges_max_order;
        using L = lanes_of<T, W>;
        using ivec = typename simd<int, W>::vec;
        for_each_group<W>(batch, 2.0 * N * N * nrhs, [&](lane_group g) {
            L a[N * N], x[N];
            ivec ipiv[selects ? N : 1] = {};
            lanes_step<N, load_lanes<W, T, true, fixed_n<N>, fixed_n<N>>>(fixed_n<N>{}, fixed_n<N>{}, a, read_only(A), g);
            if (selects && P.base) load_pivot_lanes<N, W>(ipiv, P, g);
            T *flat_b = nullptr;
            if constexpr (flat_copies<T, W, N>()) flat_b = nrhs == 1 ? flat_group<N, W>(B, g, B.ld) : nullptr;
            const long ldb = B.ld;
            const bool forward = P.base && trans == SMALLLA_OP_N, backward = P.base && trans != SMALLLA_OP_N;
            for (int r = 0; r < nrhs; ++r) {
                if (flat_b) {
                    if constexpr (flat_copies<T, W, N>()) load_flat<N, W, T>(x, flat_b);
                    for (int w = 0; !selects && forward && w < W; ++w) interchange_lane<true, N>(x, P[g.first + w], w);
                } else {
                    for (int w = 0; w < W; ++w) {
                        const T *b = w < g.count ? B[g.first + w] + r * ldb : nullptr;
                        for (int i = 0; i < N; ++i) x[i].set(w, b ? b[i] : T(real_t<T>(0)));
                        if (!selects && b && forward) interchange_lane<true, N>(x, P[g.first + w], w);
                    }
                }
                if (selects && forward) interchange_lanes<true, N, W>(x, ipiv);
                lu_solve_unpermuted(size, size, a, trans, x);
                if (selects && backward) interchange_lanes<false, N, W>(x, ipiv);
                if (flat_b) {
                    for (int w = 0; !selects && backward && w < W; ++w)
                        interchange_lane<false, N>(x, P[g.first + w], w);
                    if constexpr (flat_copies<T, W, N>()) store_flat<N, W, T>(flat_b, x);
                    continue;
                }
                for (int w = 0; w < g.count; ++w) {
                    if (!selects && backward) interchange_lane<false, N>(x, P[g.first + w], w);
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
            for (int r = 0; r < nrhs; ++r) lu_solve(size, size, a, P[b], trans, x + r * ldb);
        });
    } else {
        // A batch of fewer solves than threads from getrs_team_min_order: each solve by all threads. Else real
        // matrices two at a time (lu_solve<2>: their dependent steps overlap; the last one of an odd batch alone),
        // unless the pairs would leave threads idle that the solves one by one pay for: then, as in complex, a
        // thread a solve (a matrix and a right-hand side).
        const long ldb = B.ld;
        const int threads = omp_get_max_threads();
        const long solves = (long)batch * nrhs;
        const int solves_int = (int)std::min<long>(solves, std::numeric_limits<int>::max());
        if (n >= getrs_team_min_order(scalar_traits<T>::letter) && solves < threads) {
            for (int b = 0; b < batch; ++b)
                for (int r = 0; r < nrhs; ++r) lu_solve_team(n, A.ld, A[b], P[b], trans, B[b] + r * ldb);
            return;
        }
        constexpr int M = scalar_traits<T>::is_complex ? 1 : 2;
        const bool one_by_one = M == 1 || (batch / M < threads && threads_pay(solves_int, 2.0 * n * n));
        if (one_by_one && solves == solves_int) {
            for_each_matrix(solves_int, 2.0 * n * n, [&](int solve, int) {
                const int b = solve / nrhs, r = solve % nrhs;
                lu_solve(size, any_n{A.ld}, A[b], P[b], trans, B[b] + r * ldb);
            });
            return;
        }
        for_each_matrix((batch + M - 1) / M, M * 2.0 * n * n * nrhs, [&](int group, int) {
            const int b0 = M * group;
            for (int r = 0; r < nrhs; ++r) {
                if (b0 + M <= batch) {
                    const T *as[M];
                    const int *ps[M];
                    T *xs[M];
                    for (int m = 0; m < M; ++m) {
                        as[m] = A[b0 + m];
                        ps[m] = P[b0 + m];
                        xs[m] = B[b0 + m] + r * ldb;
                    }
                    lu_solve<M>(size, any_n{A.ld}, as, ps, trans, xs);
                } else {
                    for (int b = b0; b < batch; ++b) lu_solve(size, any_n{A.ld}, A[b], P[b], trans, B[b] + r * ldb);
                }
            }
        });
    }
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
