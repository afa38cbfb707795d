// Lanes: one element position of W matrices at once, as a SIMD vector (GCC/Clang vector extensions, lowered to
// whatever vector instructions the target has). The host kernels for small orders run W matrices in lockstep
// on these, so that the same template text serves one matrix (E = T) and W matrices (E = lanes_of<T, W>).
// Complex lanes keep real and imaginary parts in separate vectors, so complex arithmetic needs no shuffles.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>

#include "common/scalar.hpp"
#include "isa.hpp"

// The lane types are only passed between inline functions; GCC's note that their calling convention depends
// on the instruction set does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

#if defined(__clang__)
#define SMALLLA_SHARED_STEP __attribute__((noinline))
#else
#define SMALLLA_SHARED_STEP __attribute__((noinline, noclone))  // noclone: no copy per caller either
#endif

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

using smallla::abs1;
using smallla::conj;
using smallla::is_zero;

// The lanes forms' larger steps (the copies, the factorizations, the inverses) run out of line from order
// lanes_shared_from on: one copy per step, order and instruction set, shared by the routines that take the step
// (potrf, posv and poinv the factorization; getri and matinv the inverse; the copies), which keeps the library
// small. Below it a group's work is a few hundred instructions and the call costs 10-35%, so the steps stay inline;
// so do the solves (little code, and the right-hand side stays in registers).
constexpr int lanes_shared_from = 12;
template <auto Step, class... A> SMALLLA_SHARED_STEP void shared_step(A... a) { Step(a...); }
// Step(a...) in the lanes form of order N (0: an order known at run time, out of line too).
template <int N, auto Step, class... A> inline void lanes_step(A... a) {
    if constexpr (N == 0 || N >= lanes_shared_from) shared_step<Step, A...>(a...);
    else Step(a...);
}

template <class R, int W> struct simd {
    typedef R vec __attribute__((vector_size(sizeof(R) * W)));
    using mask = decltype(vec{} > vec{});  // the signed integer vector a comparison yields
};

// W real numbers.
template <class R, int W> struct rlanes {
    using vec = typename simd<R, W>::vec;
    vec v;
    static rlanes splat(R x) {
        rlanes r;
        for (int w = 0; w < W; ++w) r.v[w] = x;
        return r;
    }
    // Lane access through memory (GCC's vector types may be accessed through their element type): a single
    // scalar load or store, where an element access on the vector value may move the whole vector.
    R get(int w) const { return reinterpret_cast<const R *>(&v)[w]; }
    void set(int w, R x) { reinterpret_cast<R *>(&v)[w] = x; }
    friend rlanes operator+(rlanes a, rlanes b) { return {a.v + b.v}; }
    friend rlanes operator-(rlanes a, rlanes b) { return {a.v - b.v}; }
    friend rlanes operator*(rlanes a, rlanes b) { return {a.v * b.v}; }
    friend rlanes operator/(rlanes a, rlanes b) { return {a.v / b.v}; }
    friend rlanes operator-(rlanes a) { return {-a.v}; }
    rlanes &operator+=(rlanes b) { v += b.v; return *this; }
    rlanes &operator-=(rlanes b) { v -= b.v; return *this; }
};

template <class R, int W> inline typename simd<R, W>::vec lane_fabs(typename simd<R, W>::vec x) {
    return x < typename simd<R, W>::vec{} ? -x : x;
}

// ---- moving W matrices between memory and lanes a block of W x W at a time (real types) ---------------------
// One vector per matrix (W consecutive elements) in, one vector per element position (W matrices) out: the block
// transposed in registers, log2(W) rounds that interleave the first half of the vectors with the second (a perfect
// shuffle of rows and lanes), instead of W scalar loads and stores per vector.
template <class V, int W, int Half, std::size_t... P> inline V interleave_half(V a, V b, std::index_sequence<P...>) {
#if defined(__clang__) || __GNUC__ >= 12
    return __builtin_shufflevector(a, b, (int)((P % 2) * W + P / 2 + Half)...);
#else  // GCC before 12: its older builtin, a constant mask vector of the comparisons' integer type
    return __builtin_shuffle(a, b, decltype(a < b){(P % 2) * W + P / 2 + Half...});
#endif
}
template <class R, int W> inline void transpose_block(typename simd<R, W>::vec (&v)[W]) {
    using V = typename simd<R, W>::vec;
    for (int round = 1; round < W; round *= 2) {
        V t[W];
        for (int i = 0; i < W / 2; ++i) {
            t[2 * i] = interleave_half<V, W, 0>(v[i], v[i + W / 2], std::make_index_sequence<W>());
            t[2 * i + 1] = interleave_half<V, W, W / 2>(v[i], v[i + W / 2], std::make_index_sequence<W>());
        }
        for (int i = 0; i < W; ++i) v[i] = t[i];
    }
}
// Whole unaligned vectors in memory, one load or store each (a memcpy of several vectors became 16-byte moves,
// whose stores the vector loads then could not forward).
template <class R, int W> struct unaligned_simd {
    typedef R vec __attribute__((vector_size(sizeof(R) * W), aligned(alignof(R)), may_alias));
};
template <class R, int W> inline typename simd<R, W>::vec load_vector(const R *p) {
    return *reinterpret_cast<const typename unaligned_simd<R, W>::vec *>(p);
}
template <class R, int W> inline void store_vector(R *p, typename simd<R, W>::vec v) {
    *reinterpret_cast<typename unaligned_simd<R, W>::vec *>(p) = v;
}

// v[q] = (src[0][q], ..., src[W-1][q]) for q < W: W consecutive elements of each of W matrices, into lanes.
template <class R, int W> inline void gather_block(typename simd<R, W>::vec (&v)[W], const R *const (&src)[W], long at) {
    for (int w = 0; w < W; ++w) v[w] = load_vector<R, W>(src[w] + at);
    transpose_block<R, W>(v);
}
// The inverse: dst[w][at + q] = lane w of v[q] (v is overwritten).
template <class R, int W> inline void scatter_block(R *const (&dst)[W], long at, typename simd<R, W>::vec (&v)[W]) {
    transpose_block<R, W>(v);
    for (int w = 0; w < W; ++w) store_vector<R, W>(dst[w] + at, v[w]);
}

// ---- moving W matrices stored back to back (a strided batch without gaps) between memory and lanes ---------
// K <= W consecutive numbers per matrix, W matrices in a row (K * W numbers) as K vectors, into v[e] lane w =
// number e of matrix w: a number's position p = w K + e becomes e W + w, its bits rotated right by log2 K, one bit
// a round that takes the sequence's even and odd numbers apart (split_round); merge_round, which interleaves its
// halves, is the inverse. K is a power of two. (K >= W numbers per matrix move by W x W blocks, gather_block.)
template <class V, int W, int Odd, std::size_t... P> inline V deinterleave(V a, V b, std::index_sequence<P...>) {
#if defined(__clang__) || __GNUC__ >= 12
    return __builtin_shufflevector(a, b, (int)(2 * P + Odd)...);
#else
    return __builtin_shuffle(a, b, decltype(a < b){2 * P + Odd...});
#endif
}
template <class V, int W, int K> inline void split_round(const V *in, V *out) {
    for (int i = 0; i < K / 2; ++i) {
        out[i] = deinterleave<V, W, 0>(in[2 * i], in[2 * i + 1], std::make_index_sequence<W>());
        out[i + K / 2] = deinterleave<V, W, 1>(in[2 * i], in[2 * i + 1], std::make_index_sequence<W>());
    }
}
template <class V, int W, int K> inline void merge_round(const V *in, V *out) {
    for (int i = 0; i < K / 2; ++i) {
        out[2 * i] = interleave_half<V, W, 0>(in[i], in[i + K / 2], std::make_index_sequence<W>());
        out[2 * i + 1] = interleave_half<V, W, W / 2>(in[i], in[i + K / 2], std::make_index_sequence<W>());
    }
}
// The K vectors in a, rearranged between a and b into lanes (ToLanes) or back; returns the one holding the result.
template <class R, int W, int K, bool ToLanes>
inline typename simd<R, W>::vec *rearrange_flat(typename simd<R, W>::vec *a, typename simd<R, W>::vec *b) {
    using V = typename simd<R, W>::vec;
    static_assert(K > 0 && (K & (K - 1)) == 0 && K <= W, "K must be a power of two up to W");
    for (int round = 1; round < K; round *= 2) {
        if (ToLanes) split_round<V, W, K>(a, b);
        else merge_round<V, W, K>(a, b);
        std::swap(a, b);
    }
    return a;
}

// W complex numbers: real parts, imaginary parts.
template <class R, int W> struct clanes {
    using vec = typename simd<R, W>::vec;
    vec re, im;
    static clanes splat(complex<R> x) {
        clanes r;
        for (int w = 0; w < W; ++w) {
            r.re[w] = x.re;
            r.im[w] = x.im;
        }
        return r;
    }
    complex<R> get(int w) const { return {reinterpret_cast<const R *>(&re)[w], reinterpret_cast<const R *>(&im)[w]}; }
    void set(int w, complex<R> x) {
        reinterpret_cast<R *>(&re)[w] = x.re;
        reinterpret_cast<R *>(&im)[w] = x.im;
    }
    friend clanes operator+(clanes a, clanes b) { return {a.re + b.re, a.im + b.im}; }
    friend clanes operator-(clanes a, clanes b) { return {a.re - b.re, a.im - b.im}; }
    friend clanes operator-(clanes a) { return {-a.re, -a.im}; }
    friend clanes operator*(clanes a, clanes b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
    // Smith's division lane by lane, the same formulas as complex<R>'s (both branches, then a select).
    friend clanes operator/(clanes a, clanes b) {
        const auto first = lane_fabs<R, W>(b.im) <= lane_fabs<R, W>(b.re);
        const vec r1 = b.im / b.re, d1 = b.re + b.im * r1;
        const vec r2 = b.re / b.im, d2 = b.im + b.re * r2;
        return {first ? (a.re + a.im * r1) / d1 : (a.re * r2 + a.im) / d2,
                first ? (a.im - a.re * r1) / d1 : (a.im * r2 - a.re) / d2};
    }
    clanes &operator+=(clanes b) { re += b.re; im += b.im; return *this; }
    clanes &operator-=(clanes b) { re -= b.re; im -= b.im; return *this; }
};

template <class T, int W> struct lanes_type { using type = rlanes<T, W>; };
template <class R, int W> struct lanes_type<complex<R>, W> { using type = clanes<R, W>; };
// W elements of type T.
template <class T, int W> using lanes_of = typename lanes_type<T, W>::type;

// LAPACK's pivot measure lane by lane, as a raw vector (for comparisons).
template <class R, int W> inline typename simd<R, W>::vec abs1(const rlanes<R, W> &x) { return lane_fabs<R, W>(x.v); }
template <class R, int W> inline typename simd<R, W>::vec abs1(const clanes<R, W> &x) {
    return lane_fabs<R, W>(x.re) + lane_fabs<R, W>(x.im);
}
template <class R, int W> inline typename simd<R, W>::mask is_zero(const rlanes<R, W> &x) {
    return x.v == typename simd<R, W>::vec{};
}
template <class R, int W> inline typename simd<R, W>::mask is_zero(const clanes<R, W> &x) {
    return (x.re == typename simd<R, W>::vec{}) & (x.im == typename simd<R, W>::vec{});
}
template <class R, int W> inline clanes<R, W> conj(const clanes<R, W> &x) { return {x.re, -x.im}; }

// Lane-wise choice: m ? a : b.
template <class M, class R, int W> inline rlanes<R, W> select(M m, rlanes<R, W> a, rlanes<R, W> b) {
    return {m ? a.v : b.v};
}
template <class M, class R, int W> inline clanes<R, W> select(M m, clanes<R, W> a, clanes<R, W> b) {
    return {m ? a.re : b.re, m ? a.im : b.im};
}

// The integer vector (i, i, ..., i) of the comparisons' mask type, for per-lane row indices.
template <class R, int W> inline typename simd<R, W>::mask lane_index(int i) {
    typename simd<R, W>::mask m;
    for (int w = 0; w < W; ++w) m[w] = i;
    return m;
}

// The integer vector (0, 1, ..., W - 1) of the same type: each lane's own index.
template <class R, int W> inline typename simd<R, W>::mask lane_ordinals() {
    typename simd<R, W>::mask m;
    for (int w = 0; w < W; ++w) m[w] = w;
    return m;
}

// Exchanges lane w of a and b.
template <class L> inline void swap_lane(L &a, L &b, int w) {
    const auto t = a.get(w);
    a.set(w, b.get(w));
    b.set(w, t);
}

// The element 1 of scalars and lanes.
template <class E> struct element_traits {
    static E one() { return E(real_t<E>(1)); }
};
template <class R, int W> struct element_traits<rlanes<R, W>> {
    static rlanes<R, W> one() { return rlanes<R, W>::splat(R(1)); }
};
template <class R, int W> struct element_traits<clanes<R, W>> {
    static clanes<R, W> one() { return clanes<R, W>::splat(complex<R>(R(1))); }
};
template <class E> inline E element_one() { return element_traits<E>::one(); }

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
