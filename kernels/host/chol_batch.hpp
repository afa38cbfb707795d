// The Cholesky family over a batch on the host: the three forms of lu_batch.hpp (lanes: W matrices in lockstep
// in SIMD lanes; fixed: one matrix from a local copy with loops of compile-time length; any: per-thread scratch,
// any order), each loading the uplo triangle into the lower form of chol_host.hpp and storing it back, so that
// the other triangle is never read or written. The routing table (routing.def) chooses the form.
#pragma once

#include <type_traits>

#include "chol_host.hpp"
#include "lu_batch.hpp"

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// Element (i, j), i >= j, of the lower form of matrix m (leading dimension ld) given by its uplo triangle.
template <class T> inline T lower_form_at(const T *m, long ld, bool upper, int i, int j) {
    return upper ? conj(m[j + i * ld]) : m[i + j * ld];
}
// Copies between a matrix's uplo triangle and a lower form (dst/src with leading dimension ldl).
template <class T>
inline void load_lower_form(int n, T *__restrict dst, long ldl, const T *__restrict m, long ld, bool upper) {
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) dst[i + j * ldl] = lower_form_at(m, ld, upper, i, j);
}
template <class T>
inline void store_lower_form(int n, T *__restrict m, long ld, bool upper, const T *__restrict src, long ldl) {
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            const T v = src[i + j * ldl];
            if (upper) m[j + i * ld] = conj(v);
            else m[i + j * ld] = v;
        }
}
// Both triangles of the Hermitian matrix whose lower form is src (poinv's C).
template <class T> inline void store_hermitian(int n, T *__restrict m, long ld, const T *__restrict src, long ldl) {
    for (int j = 0; j < n; ++j) {
        m[j + j * ld] = src[j + j * ldl];
        for (int i = j + 1; i < n; ++i) {
            const T v = src[i + j * ldl];
            m[i + j * ld] = v;
            m[j + i * ld] = conj(v);
        }
    }
}

// The lanes versions: lane w of a (leading dimension N) from or to the group's matrix w. Padding lanes hold the
// identity.
// A full group moves by blocks of W numbers (gather_block, scatter_block; complex: real and imaginary parts in turn,
// as in lu_batch.hpp's load_lanes): lower, the numbers of a column; upper, a column of U, which is a row of the lower
// form (conjugated: the imaginary parts negated). What the blocks leave (the last numbers of a column) moves number
// by number, each lanes vector in one go (W passes over the group's copy, a matrix at a time, ran slower). From
// block_copy_min_order on: below it, the blocks cover too little of the triangle to pay (perf/NOTES.md).
template <int N, int W, class T>
inline void load_lower_lanes(lanes_of<T, W> *__restrict a, either_batch<const T> M, lane_group g, bool upper) {
    if constexpr (W > 1 && N >= block_copy_min_order<T, W>()) {
        if (g.count == W) {
            using R = real_t<T>;
            constexpr int K = reals_per<T>(1);  // numbers an element
            const R *m[W];
            for (int w = 0; w < W; ++w) m[w] = reinterpret_cast<const R *>(M[g.first + w]);
            const long ld = (long)K * M.ld;
            typename simd<R, W>::vec v[W];
            for (int x = 0; x < N; ++x) {  // lower: column x; upper: row x of the lower form
                const int from = K * (upper ? 0 : x), to = K * (upper ? x + 1 : N);
                auto at = [&](int r) -> lanes_of<T, W> & { return upper ? a[x + r / K * N] : a[r / K + x * N]; };
                int r = from;
                for (; r + W <= to; r += W) {
                    gather_block<R, W>(v, m, r + x * ld);
                    for (int q = 0; q < W; ++q) {
                        const bool negate = upper && (r + q) % K == 1;
                        lane_number(&at(r + q), (r + q) % K) = negate ? -v[q] : v[q];
                    }
                }
                for (; r < to; ++r)
                    for (int w = 0; w < W; ++w) {
                        const R value = m[w][r + x * ld];
                        lane_number(&at(r), r % K)[w] = upper && r % K == 1 ? -value : value;
                    }
            }
            return;
        }
    }
    for (int w = 0; w < W; ++w) {
        const T *m = w < g.count ? M[g.first + w] : nullptr;
        for (int j = 0; j < N; ++j)
            for (int i = j; i < N; ++i)
                a[i + j * N].set(w, m ? lower_form_at(m, M.ld, upper, i, j) : T(real_t<T>(i == j ? 1 : 0)));
    }
}
// skip[w] != 0: lane w is not stored (nullptr: every lane is).
template <int N, int W, class T>
inline void store_lower_lanes(either_batch<T> M, lane_group g, bool upper, const lanes_of<T, W> *__restrict a,
                              const int *skip) {
    if constexpr (W > 1 && N >= block_copy_min_order<T, W>()) {
        bool all = g.count == W;
        for (int w = 0; skip && w < W; ++w) all = all && !skip[w];
        if (all) {
            using R = real_t<T>;
            constexpr int K = reals_per<T>(1);
            R *m[W];
            for (int w = 0; w < W; ++w) m[w] = reinterpret_cast<R *>(M[g.first + w]);
            const long ld = (long)K * M.ld;
            typename simd<R, W>::vec v[W];
            for (int x = 0; x < N; ++x) {
                const int from = K * (upper ? 0 : x), to = K * (upper ? x + 1 : N);
                auto at = [&](int r) -> const lanes_of<T, W> & { return upper ? a[x + r / K * N] : a[r / K + x * N]; };
                int r = from;
                for (; r + W <= to; r += W) {
                    for (int q = 0; q < W; ++q) {
                        const auto part = lane_number(&at(r + q), (r + q) % K);
                        v[q] = upper && (r + q) % K == 1 ? -part : part;
                    }
                    scatter_block<R, W>(m, r + x * ld, v);
                }
                for (; r < to; ++r)
                    for (int w = 0; w < W; ++w) {
                        const R value = lane_number(&at(r), r % K)[w];
                        m[w][r + x * ld] = upper && r % K == 1 ? -value : value;
                    }
            }
            return;
        }
    }
    for (int w = 0; w < g.count; ++w) {
        if (skip && skip[w]) continue;
        T *m = M[g.first + w];
        const long ld = M.ld;
        for (int j = 0; j < N; ++j)
            for (int i = j; i < N; ++i) {
                const T v = a[i + j * N].get(w);
                if (upper) m[j + i * ld] = conj(v);
                else m[i + j * ld] = v;
            }
    }
}
template <int N, int W, class T, class Batch>
inline void store_hermitian_lanes(const Batch &M, lane_group g, const lanes_of<T, W> *__restrict a, const int *skip) {
    for (int w = 0; w < g.count; ++w) {
        if (skip[w]) continue;
        T *m = M[g.first + w];
        const long ld = M.ld;
        for (int j = 0; j < N; ++j) {
            m[j + j * ld] = a[j + j * N].get(w);
            for (int i = j + 1; i < N; ++i) {
                const T v = a[i + j * N].get(w);
                m[i + j * ld] = v;
                m[j + i * ld] = conj(v);
            }
        }
    }
}

// One matrix's lower form: a local array of compile-time size (fixed), or per-thread scratch (any).
template <class T, class Size> struct lower_form_storage {
    T local[Size::order > 0 ? Size::order * Size::order : 1];
    T *get(T *scratch) { return Size::is_fixed ? local : scratch; }
};

// ---- potrf (and posv: solve where the factorization succeeded) -------------------------------------------------
// B: the right-hand sides (nrhs = 0: none; the batch is then not read).
template <class T, class Size, class BatchA, class BatchB>
void posv_batch(Size size, bool upper, const BatchA &A, int nrhs, const BatchB &B, int *info, int batch) {
    const int n = size;
    const double flops = cube(n) / 3.0 + 2.0 * n * n * nrhs;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = lanes_of<T, W>;
        for_each_group<W>(batch, flops, [&](lane_group g) {
            L a[N * N], x[N];
            int inf[W];
            lanes_step<N, load_lower_lanes<N, W, T>>(a, read_only(A), g, upper);
            lanes_step<N, chol_factor_lanes<T, W, Size>>(size, a, inf);
            lanes_step<N, store_lower_lanes<N, W, T>>(A, g, upper, a, (int *)nullptr);
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
            for (int r = 0; r < nrhs; ++r) {
                const long ldb = B.ld;
                for (int w = 0; w < W; ++w) {
                    const T *b = w < g.count ? B[g.first + w] + r * ldb : nullptr;
                    for (int i = 0; i < N; ++i) x[i].set(w, b ? b[i] : T(real_t<T>(0)));
                }
                chol_solve(size, size, a, x);
                for (int w = 0; w < g.count; ++w) {
                    if (inf[w] != 0) continue;  // B unchanged where the factorization failed (xPOSV)
                    T *b = B[g.first + w] + r * ldb;
                    for (int i = 0; i < N; ++i) b[i] = x[i].get(w);
                }
            }
        });
    } else {
        per_thread_scratch<T> work(Size::is_fixed ? 1 : (long long)n * n);
        for_each_matrix(batch, flops, [&](int b, int thread) {
            lower_form_storage<T, Size> storage;
            T *a = storage.get(work[thread]);
            T *m = A[b];
            load_lower_form(n, a, n, m, A.ld, upper);
            const int inf = chol_factor(size, size, a);
            store_lower_form(n, m, A.ld, upper, a, n);
            info[b] = inf;
            if (inf != 0) return;
            T *x = nrhs > 0 ? B[b] : nullptr;
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) chol_solve(size, size, a, x + r * ldb);
        });
    }
}

// ---- potrs -----------------------------------------------------------------------------------------------------
template <class T, class Size, class BatchA, class BatchB>
void potrs_batch(Size size, bool upper, int nrhs, const BatchA &A, const BatchB &B, int batch) {
    const int n = size;
    const double flops = 2.0 * n * n * nrhs;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = lanes_of<T, W>;
        for_each_group<W>(batch, flops, [&](lane_group g) {
            L a[N * N], x[N];
            lanes_step<N, load_lower_lanes<N, W, T>>(a, read_only(A), g, upper);
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) {
                for (int w = 0; w < W; ++w) {
                    const T *b = w < g.count ? B[g.first + w] + r * ldb : nullptr;
                    for (int i = 0; i < N; ++i) x[i].set(w, b ? b[i] : T(real_t<T>(0)));
                }
                chol_solve(size, size, a, x);
                for (int w = 0; w < g.count; ++w) {
                    T *b = B[g.first + w] + r * ldb;
                    for (int i = 0; i < N; ++i) b[i] = x[i].get(w);
                }
            }
        });
    } else {
        per_thread_scratch<T> work(Size::is_fixed ? 1 : (long long)n * n);
        for_each_matrix(batch, flops, [&](int b, int thread) {
            lower_form_storage<T, Size> storage;
            T *a = storage.get(work[thread]);
            load_lower_form(n, a, n, A[b], A.ld, upper);
            T *x = B[b];
            const long ldb = B.ld;
            for (int r = 0; r < nrhs; ++r) chol_solve(size, size, a, x + r * ldb);
        });
    }
}

// ---- potri: A (the factor) unchanged where its diagonal has a zero -----------------------------------------------
template <class T, class Size, class Batch>
void potri_batch(Size size, bool upper, const Batch &A, int *info, int batch) {
    const int n = size;
    const double flops = 2.0 * cube(n) / 3.0;
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = lanes_of<T, W>;
        for_each_group<W>(batch, flops, [&](lane_group g) {
            L a[N * N];
            int inf[W];
            lanes_step<N, load_lower_lanes<N, W, T>>(a, read_only(A), g, upper);
            bool any_zero = false;
            for (int w = 0; w < W; ++w) {
                inf[w] = 0;
                for (int j = 0; j < N && inf[w] == 0; ++j)
                    if (real_part(a[j + j * N].get(w)) == real_t<T>(0)) inf[w] = j + 1;
                any_zero = any_zero || inf[w] != 0;
            }
            if (any_zero)  // the singular lanes compute on the identity instead (and are not stored)
                for (int w = 0; w < W; ++w)
                    if (inf[w] != 0)
                        for (int j = 0; j < N; ++j)
                            for (int i = j; i < N; ++i) a[i + j * N].set(w, T(real_t<T>(i == j ? 1 : 0)));
            lanes_step<N, chol_inverse_lanes<T, W, Size>>(size, a);
            lanes_step<N, store_lower_lanes<N, W, T>>(A, g, upper, a, inf);
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else {
        per_thread_scratch<T> work(Size::is_fixed ? 1 : (long long)n * n);
        for_each_matrix(batch, flops, [&](int b, int thread) {
            lower_form_storage<T, Size> storage;
            T *a = storage.get(work[thread]);
            T *m = A[b];
            load_lower_form(n, a, n, m, A.ld, upper);
            const int inf = chol_zero_diagonal(size, size, a);
            info[b] = inf;
            if (inf != 0) return;
            chol_inverse(size, size, a);
            store_lower_form(n, m, A.ld, upper, a, n);
        });
    }
}

// ---- poinv: C (all of it) from A's uplo triangle; C not written where the factorization failed -----------------
template <class T, class Size, class BatchA, class BatchC>
void poinv_batch(Size size, bool upper, const BatchA &A, const BatchC &C, int *info, int batch) {
    const int n = size;
    const double flops = cube(n);
    if constexpr (Size::in_lanes) {
        constexpr int N = Size::value, W = lanes_for<T, N>();
        using L = lanes_of<T, W>;
        for_each_group<W>(batch, flops, [&](lane_group g) {
            L a[N * N];
            int inf[W];
            lanes_step<N, load_lower_lanes<N, W, T>>(a, read_only(A), g, upper);
            lanes_step<N, chol_factor_lanes<T, W, Size>>(size, a, inf);
            lanes_step<N, chol_inverse_lanes<T, W, Size>>(size, a);
            store_hermitian_lanes<N, W, T>(C, g, a, inf);
            for (int w = 0; w < g.count; ++w) info[g.first + w] = inf[w];
        });
    } else {
        per_thread_scratch<T> work(Size::is_fixed ? 1 : (long long)n * n);
        for_each_matrix(batch, flops, [&](int b, int thread) {
            lower_form_storage<T, Size> storage;
            T *a = storage.get(work[thread]);
            load_lower_form(n, a, n, A[b], A.ld, upper);
            const int inf = chol_factor(size, size, a);
            info[b] = inf;
            if (inf != 0) return;
            chol_inverse(size, size, a);
            store_hermitian(n, C[b], C.ld, a, n);
        });
    }
}

// One call's matrices through the form of `size` (lanes_n, fixed_n or any_n): the baseline dispatch's and the wider
// copies' shared entry (lib/host/). R: potrf or potri for potrf_args.
template <routine R, class T, class Size> void chol_batch_call(Size size, const potrf_args<T> &a) {
    const bool upper = a.uplo == SMALLLA_FILL_UPPER;
    if constexpr (R == routine::potri) potri_batch<T>(size, upper, a.A.either(), a.info, a.batch);
    else posv_batch<T>(size, upper, a.A.either(), 0, a.A.either(), a.info, a.batch);
}
template <routine, class T, class Size> void chol_batch_call(Size size, const posv_args<T> &a) {
    posv_batch<T>(size, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), a.nrhs, a.B.either(), a.info, a.batch);
}
template <routine, class T, class Size> void chol_batch_call(Size size, const potrs_args<T> &a) {
    potrs_batch<T>(size, a.uplo == SMALLLA_FILL_UPPER, a.nrhs, a.A.either(), a.B.either(), a.batch);
}
template <routine, class T, class Size> void chol_batch_call(Size size, const poinv_args<T> &a) {
    poinv_batch<T>(size, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), a.C.either(), a.info, a.batch);
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
