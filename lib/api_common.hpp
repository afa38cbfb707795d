// Shared pieces of the routine entry points (getrf.cpp, getri.cpp, matinv.cpp, getrs.cpp, getrf_iter.cpp):
// the precision table that generates the extern "C" functions, the mapping from the public C types to the
// internal scalar types, the exception guard of the C boundary, and the pointer checks that depend on the
// backend (host memory passed to the CUDA backend, overlaps).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "backend.hpp"
#include "checks.hpp"
#include "context.hpp"

// The four precisions: M(letter, public C type). Every entry point is generated from this one list.
#define SMALLLA_FOR_EACH_PRECISION(M) \
    M(s, float)                       \
    M(d, double)                      \
    M(c, smallla_complex_float)       \
    M(z, smallla_complex_double)

namespace smallla {

// Public C scalar type -> the internal scalar type of the templates (same size and layout).
template <class C> struct internal_type_of;
template <> struct internal_type_of<float> { using type = float; };
template <> struct internal_type_of<double> { using type = double; };
template <> struct internal_type_of<smallla_complex_float> { using type = complex<float>; };
template <> struct internal_type_of<smallla_complex_double> { using type = complex<double>; };
template <class C> using internal_t = typename internal_type_of<C>::type;

static_assert(sizeof(complex<float>) == sizeof(smallla_complex_float) &&
                  alignof(complex<float>) == alignof(smallla_complex_float),
              "complex<float> must have the layout of smallla_complex_float");
static_assert(sizeof(complex<double>) == sizeof(smallla_complex_double) &&
                  alignof(complex<double>) == alignof(smallla_complex_double),
              "complex<double> must have the layout of smallla_complex_double");

// Reinterpret public pointers (and pointer arrays) as internal ones; the layouts are identical.
template <class C> internal_t<C> *to_internal(C *p) { return reinterpret_cast<internal_t<C> *>(p); }
template <class C> const internal_t<C> *to_internal(const C *p) {
    return reinterpret_cast<const internal_t<C> *>(p);
}
template <class C> internal_t<C> *const *to_internal(C *const *p) {
    return reinterpret_cast<internal_t<C> *const *>(p);
}
template <class C> const internal_t<C> *const *to_internal(const C *const *p) {
    return reinterpret_cast<const internal_t<C> *const *>(p);
}

// Batch descriptions for the backends.
template <class T> matrix_batch<T> strided_matrices(T *base, int ld, long long stride) {
    matrix_batch<T> m;
    m.base = base;
    m.ld = ld;
    m.stride = stride;
    return m;
}
// argno: the array's argument number, which a matrix with a NULL entry reports as info[b] = -argno.
template <class T> matrix_batch<T> pointer_matrices(T *const *ptrs, int ld, int argno) {
    matrix_batch<T> m;
    m.ptrs = ptrs;
    m.ld = ld;
    m.argno = argno;
    return m;
}

// Runs the backend call f() and turns every exception into a status with a message: nothing may cross the
// C boundary.
template <class F> smallla_status_t guarded(context &ctx, const char *fname, F &&f) noexcept {
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return fail(&ctx, SMALLLA_ALLOC_FAILED, std::string(fname) + ": out of memory");
    } catch (const std::exception &e) {
        return fail(&ctx, SMALLLA_INTERNAL_ERROR, std::string(fname) + ": internal error: " + e.what());
    } catch (...) {
        return fail(&ctx, SMALLLA_INTERNAL_ERROR, std::string(fname) + ": internal error (unknown exception)");
    }
}

// The outermost guard of an entry point: even building a message may throw (bad_alloc), and nothing may
// cross the C boundary.
template <class F> smallla_status_t c_boundary(smallla_handle_t h, const char *fname, F &&f) noexcept {
    try {
        return f();
    } catch (...) {
        try {
            return fail(handle_is_live(h) ? h : nullptr, SMALLLA_ALLOC_FAILED,
                        std::string(fname) + ": out of memory while checking the arguments");
        } catch (...) {
            return SMALLLA_ALLOC_FAILED;
        }
    }
}

// Calls the host or the CUDA implementation of a routine, chosen by the handle's backend, inside the guard.
template <class Host, class Cuda>
smallla_status_t run_backend(context &ctx, const char *fname, Host &&host_call, Cuda &&cuda_call) noexcept {
    return guarded(ctx, fname, [&]() -> smallla_status_t {
        if (ctx.backend == SMALLLA_BACKEND_CUDA) return cuda_call();
        return host_call();
    });
}

// One pointer argument of a call, for the backend-dependent pointer checks.
struct pointer_arg {
    int argno;
    const char *name;
    const void *p;
};

// On the CUDA backend every non-NULL pointer argument must be device-accessible memory (host memory is
// refused with a message instead of crashing a kernel). Nothing to check on the host backend.
inline smallla_status_t check_device_pointers(context &ctx, const char *fname,
                                              std::initializer_list<pointer_arg> args) {
    if (ctx.backend != SMALLLA_BACKEND_CUDA) return SMALLLA_SUCCESS;
    for (const pointer_arg &a : args) {
        if (a.p == nullptr) continue;
        smallla_status_t st = guarded(ctx, fname, [&] { return cuda::check_device_pointer(ctx, fname, a.argno, a.name, a.p); });
        if (st != SMALLLA_SUCCESS) return st;
    }
    return SMALLLA_SUCCESS;
}

// The elements a strided batch of matrices touches: [first, last) in bytes, as integers so that unrelated
// pointers compare safely. Empty when there is nothing (n == 0 or batch == 0).
struct byte_range {
    std::uintptr_t first = 0, last = 0;
    bool empty() const { return first >= last; }
    bool overlaps(const byte_range &o) const { return !empty() && !o.empty() && first < o.last && o.first < last; }
};
template <class T>
byte_range matrix_range(const T *p, int rows, int cols, int ld, long long stride, int batch) {
    byte_range r;
    if (p == nullptr || rows <= 0 || cols <= 0 || batch <= 0) return r;
    // The strides are checked (stride >= ld*cols when batch > 1), so the batch grows upwards from p.
    long long last_elem = (long long)(cols - 1) * ld + rows;  // one past the last element of one matrix
    if (batch > 1) last_elem += (long long)(batch - 1) * stride;
    r.first = reinterpret_cast<std::uintptr_t>(p);
    r.last = r.first + (std::uintptr_t)last_elem * sizeof(T);
    return r;
}

// Human-readable pointer for messages.
inline std::string pointer_text(const void *p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

// Pointer-array forms on the host backend: a matrix that the call writes (C[b], getrs's B[b]) must not overlap
// an input matrix of another index (A[b'], b' != b), the rule of the strided forms ("C must not overlap A")
// matrix by matrix; the pair of one index is each routine's own rule (getri: never; matinv: only as the exact
// in-place alias). Overlap is of the spans of matrix_range, as everywhere here. NULL entries are skipped.
// One pass settles the usual cases in O(batch) without allocating: A's and C's matrices in disjoint address
// ranges (out of place), or C[b] == A[b] everywhere (in place) with A's matrices in increasing order and
// disjoint. Otherwise O(batch log batch): each array's spans sorted by first byte (only checked when already
// in order), then one merged sweep that keeps, per kind (input or written), the two furthest-reaching spans of
// different matrices: a span overlaps an earlier one of the other kind and another index exactly when the
// furthest-reaching of those reaches past its first byte.
struct cross_overlap {
    int written = -1, input = -1;  // the written matrix's index and the other input's; written < 0: none
};
template <class TA, class TC>
cross_overlap find_cross_overlap(const TA *const *A, int rowsA, int colsA, int lda, const TC *const *C, int rowsC,
                                 int colsC, int ldc, int batch) {
    struct hull {  // of one array's spans: their extent, and whether they come in increasing order, disjoint
        std::uintptr_t lo = UINTPTR_MAX, hi = 0, prev_last = 0;
        bool ordered = true;
        void add(const byte_range &r) {
            if (r.empty()) return;
            ordered = ordered && r.first >= prev_last;
            prev_last = r.last;
            lo = std::min(lo, r.first);
            hi = std::max(hi, r.last);
        }
        bool empty() const { return lo >= hi; }
    } ha, hc;
    const bool same_shape = sizeof(TA) == sizeof(TC) && rowsA == rowsC && colsA == colsC && lda == ldc;
    bool aliases = same_shape;  // C[b] == A[b] for every b
    for (int b = 0; b < batch; ++b) {
        ha.add(matrix_range(A[b], rowsA, colsA, lda, 0, 1));
        hc.add(matrix_range(C[b], rowsC, colsC, ldc, 0, 1));
        aliases = aliases && static_cast<const void *>(A[b]) == static_cast<const void *>(C[b]);
    }
    if (ha.empty() || hc.empty() || ha.hi <= hc.lo || hc.hi <= ha.lo || (aliases && ha.ordered)) return {};

    struct span {
        std::uintptr_t first, last;
        int b;
    };
    std::vector<span> in, out;
    in.reserve((size_t)batch);
    if (!aliases) out.reserve((size_t)batch);
    for (int b = 0; b < batch; ++b) {
        const byte_range ra = matrix_range(A[b], rowsA, colsA, lda, 0, 1), rc = matrix_range(C[b], rowsC, colsC, ldc, 0, 1);
        if (!ra.empty()) in.push_back({ra.first, ra.last, b});
        if (!rc.empty() && !aliases) out.push_back({rc.first, rc.last, b});
    }
    const auto by_first = [](const span &x, const span &y) { return x.first < y.first; };
    for (std::vector<span> *v : {&in, &out})
        if (!std::is_sorted(v->begin(), v->end(), by_first)) std::sort(v->begin(), v->end(), by_first);
    if (aliases) {  // in place everywhere: C[b] overlaps A[b'] exactly when A[b] does
        std::uintptr_t last = 0;
        int b_last = -1;
        for (const span &x : in) {
            if (b_last >= 0 && last > x.first) return cross_overlap{x.b, b_last};
            if (x.last > last) last = x.last, b_last = x.b;
        }
        return {};
    }
    struct reach {
        std::uintptr_t last = 0;
        int b = -1;
    };
    struct two_furthest {  // best: the furthest-reaching span; second: the furthest of another index
        reach best, second;
        void add(const span &s) {
            if (s.b == best.b) {
                best.last = std::max(best.last, s.last);
            } else if (best.b < 0 || s.last > best.last) {
                second = best;
                best = {s.last, s.b};
            } else if (s.b == second.b) {
                second.last = std::max(second.last, s.last);
            } else if (second.b < 0 || s.last > second.last) {
                second = {s.last, s.b};
            }
        }
        const reach &other_than(int b) const { return best.b != b ? best : second; }
    } seen_in, seen_out;
    for (size_t i = 0, o = 0; i < in.size() || o < out.size();) {  // the merged sweep
        const bool written = i == in.size() || (o < out.size() && out[o].first < in[i].first);
        const span &s = written ? out[o++] : in[i++];
        const reach &r = (written ? seen_in : seen_out).other_than(s.b);
        if (r.b >= 0 && r.last > s.first) return written ? cross_overlap{s.b, r.b} : cross_overlap{r.b, s.b};
        (written ? seen_out : seen_in).add(s);
    }
    return {};
}

// The check of find_cross_overlap for a pointer-array call on the host backend (on the CUDA backend the arrays
// are device memory and are not read): "argument 6 (C[0] = 0x...) must not overlap A[1] (<why>)".
template <class TA, class TC>
arg_check &pointer_arrays_disjoint(arg_check &chk, context &ctx, int argno, const char *name, const TA *const *A,
                                   int rowsA, int colsA, int lda, const TC *const *C, int rowsC, int colsC, int ldc,
                                   int batch, const char *why) {
    if (!chk.ok() || ctx.backend != SMALLLA_BACKEND_HOST || A == nullptr || C == nullptr || batch <= 0) return chk;
    const cross_overlap o = find_cross_overlap(A, rowsA, colsA, lda, C, rowsC, colsC, ldc, batch);
    if (o.written >= 0)
        chk.custom(false, argno,
                   std::string(name) + "[" + std::to_string(o.written) + "] = " + pointer_text(C[o.written]),
                   "not overlap A[" + std::to_string(o.input) + "] (" + why + ")");
    return chk;
}

// The in-place rule of matinv and poinv (C = inv(A)), n x n matrices: C may be A itself exactly (the same matrix
// and leading dimension; strided: the same stride too) and may not overlap A otherwise. argno_C and argno_ldc are the
// API's argument numbers of C and ldc (pointer arrays; strided: of C only).
template <class C>
arg_check &in_place_or_disjoint(arg_check &chk, context &ctx, int argno_C, int argno_ldc, int n, const C *const A[],
                                int lda, C *const Cm[], int ldc, int batch) {
    const bool same_array = static_cast<const void *>(A) == static_cast<const void *>(Cm);
    chk.custom(!same_array || ldc == lda, argno_ldc, "ldc = " + std::to_string(ldc),
               "equal lda = " + std::to_string(lda) + " when C is A (in place)");
    if (chk.ok() && !same_array && ctx.backend == SMALLLA_BACKEND_HOST) {
        for (int b = 0; b < batch; ++b) {
            // (two NULL entries are no alias: such a matrix is skipped, see smallla.h)
            const bool alias = A[b] != nullptr && static_cast<const void *>(A[b]) == static_cast<const void *>(Cm[b]);
            const bool bad = alias ? ldc != lda
                                   : matrix_range(A[b], n, n, lda, 0, 1).overlaps(matrix_range<C>(Cm[b], n, n, ldc, 0, 1));
            if (bad) {
                chk.custom(false, argno_C, "C[" + std::to_string(b) + "] = " + pointer_text(Cm[b]),
                           "be A[" + std::to_string(b) + "] itself with ldc == lda, or not overlap it");
                break;
            }
        }
    }
    // C[b] may not overlap a matrix of A of another index
    return pointer_arrays_disjoint(chk, ctx, argno_C, "C", A, n, n, lda, Cm, n, n, ldc, batch,
                                   "in place is C[b] == A[b] only");
}
template <class C>
arg_check &in_place_or_disjoint(arg_check &chk, int argno_C, int n, const C *A, int lda, long long strideA, C *Cm,
                                int ldc, long long strideC, int batch) {
    const bool alias = static_cast<const void *>(A) == static_cast<const void *>(Cm);
    const bool exact = alias && ldc == lda && (batch <= 1 || strideC == strideA);
    return chk.custom(exact || !matrix_range(A, n, n, lda, strideA, batch)
                                   .overlaps(matrix_range(Cm, n, n, ldc, strideC, batch)),
                      argno_C, "C = " + pointer_text(Cm),
                      "be A itself with ldc == lda and strideC == strideA, or not overlap A");
}

}  // namespace smallla
