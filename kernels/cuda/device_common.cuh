// Pieces shared by the CUDA kernels of the LU family: the batch as a kernel sees it, LAPACK's pivot rule
// as a reduction over the lanes of a group, and the "scale by the reciprocal or divide" test of getf2.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

#include "common/batch.hpp"
#include "common/pivot.hpp"
#include "common/scalar.hpp"

namespace smallla {
namespace cuda_kernels {

// A batch of matrices as the kernels see it: a pointer array or base + stride, decided at run time so that
// one instantiation serves both API forms (the branch is uniform and costs one predicate).
// Lets `kernel` take `bytes` of dynamic shared memory on the current device (the attribute is per device: call it
// before each launch). Above 48 KiB a kernel must opt in, and the 48 KiB count its static shared memory too.
template <class Kernel> inline cudaError_t allow_dynamic_shared(Kernel kernel, std::size_t bytes) {
    cudaFuncAttributes attr;
    if (const cudaError_t e = cudaFuncGetAttributes(&attr, kernel); e != cudaSuccess) return e;
    if (bytes + attr.sharedSizeBytes <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

template <class T> struct batch_ref {
    T *base;
    T *const *ptrs;
    long long stride;
    int ld;
    __device__ __forceinline__ T *operator[](long long b) const { return ptrs ? ptrs[b] : base + b * stride; }
    // Whether matrix b is there: false for a NULL entry of a pointer array (its matrix is skipped).
    __device__ __forceinline__ bool present(long long b) const { return !ptrs || ptrs[b] != nullptr; }
};
template <class T> inline batch_ref<T> make_batch_ref(const matrix_batch<T> &m) {
    return {m.base, m.ptrs, m.stride, m.ld};
}

// Pivot vectors of a batch; base == nullptr means "no pivoting" (or "identity" when reading).
template <class I> struct pivots_ref {
    I *base;
    long long stride;
    __device__ __forceinline__ I *operator[](long long b) const { return base + b * stride; }
};
template <class I> inline pivots_ref<I> make_pivots_ref(const pivot_batch<I> &p) { return {p.base, p.stride}; }

// |x| as getf2 measures the pivot before choosing between the reciprocal and the division (the modulus for
// complex). Only compared with sfmin, so the cheap max(|re|, |im|) decides unless it is below sfmin.
template <class R> __device__ __forceinline__ bool modulus_at_least_sfmin(R x) { return fabs(x) >= sfmin<R>(); }
template <class R> __device__ __forceinline__ bool modulus_at_least_sfmin(complex<R> x) {
    const R m = fmax(fabs(x.re), fabs(x.im));
    if (m >= sfmin<R>()) return true;
    return hypot(x.re, x.im) >= sfmin<R>();
}

__device__ __forceinline__ float max_abs_part(float x) { return fabsf(x); }
__device__ __forceinline__ double max_abs_part(double x) { return fabs(x); }
template <class R> __device__ __forceinline__ R max_abs_part(complex<R> x) { return fmax(fabs(x.re), fabs(x.im)); }

// ---- reductions over the lanes of a group (mask = the group's lanes of one warp) ---------------------------
__device__ __forceinline__ unsigned group_max(unsigned mask, unsigned v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(mask, v);
#else
    // Older chips: every lane of the group reads every other lane (slow, correct; not a built target by default).
    unsigned m = v;
    for (int l = 0; l < 32; ++l)
        if (mask & (1u << l)) { unsigned o = __shfl_sync(mask, v, l); m = o > m ? o : m; }
    return m;
#endif
}
__device__ __forceinline__ unsigned group_min(unsigned mask, unsigned v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(mask, v);
#else
    unsigned m = v;
    for (int l = 0; l < 32; ++l)
        if (mask & (1u << l)) { unsigned o = __shfl_sync(mask, v, l); m = o < m ? o : m; }
    return m;
#endif
}

// p ? a : b as a select that the compiler keeps: written as a conditional, the float key's selects became a
// branch region per step (NVVM), where the double key's compile to predicated moves (SASS, sm_90, CUDA 13.0).
__device__ __forceinline__ unsigned select_bits(bool p, unsigned a, unsigned b) {
    unsigned r;
    asm("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tselp.b32 %0, %2, %3, q;\n\t}"
        : "=r"(r)
        : "r"((unsigned)p), "r"(a), "r"(b));
    return r;
}

// LAPACK's choice (common/pivot.hpp) over the rows of a group that are still candidates: the pivot_key of every
// lane's candidate reduced over the group's lanes (the larger key, then the smaller position; group_place in
// lu_registers.cuh gives the reductions of an unsigned). Returns the position of the pivot row in every lane.
// A key is reduced as two words, high word first (a float's key is its low word alone), since the hardware reduces
// 32-bit values; key_of gives the words, computed by selects, not branches (a branch region per step cost more
// issue slots than the few selects it skipped).
struct pivot_key_words {
    unsigned hi, lo;
};
__device__ __forceinline__ pivot_key_words key_of(float v, bool candidate, bool at_k) {
    // pivot_key(v, candidate, at_k), which fits in one word for a float.
    const unsigned nan_key = select_bits(at_k, 0xffffffffu, 0u);
    return {select_bits(candidate, select_bits(v != v, nan_key, __float_as_uint(v) + 1u), 0u), 0u};
}
__device__ __forceinline__ pivot_key_words key_of(double v, bool candidate, bool at_k) {
    // pivot_key(v, candidate, at_k)'s words: (bits + 2^32) >> 32 is the high word + 1, the low word is the bits'.
    const bool nan = v != v;
    const unsigned nan_key = at_k ? 0xffffffffu : 0u;
    return {candidate ? (nan ? nan_key : (unsigned)__double2hiint(v) + 1u) : 0u,
            candidate ? (nan ? nan_key : (unsigned)__double2loint(v)) : 0u};
}
template <class Group>
__device__ __forceinline__ int select_pivot(const Group &grp, float v, bool candidate, bool at_k, int pos) {
    const unsigned key = key_of(v, candidate, at_k).hi;
    const unsigned top = grp.max(key);
    return (int)grp.min(key == top ? (unsigned)pos : 0xffffffffu);
}
template <class Group>
__device__ __forceinline__ int select_pivot(const Group &grp, double v, bool candidate, bool at_k, int pos) {
    const pivot_key_words key = key_of(v, candidate, at_k);
    const unsigned top_hi = grp.max(key.hi);
    const unsigned top_lo = grp.max(key.hi == top_hi ? key.lo : 0u);
    return (int)grp.min((key.hi == top_hi && key.lo == top_lo) ? (unsigned)pos : 0xffffffffu);
}
// The same search where each lane holds R rows (the several-rows-per-lane kernels of lu_registers.cuh), v[r] and
// pos[r] the value and position of row r (pos -1: no row): the lane first keeps its best candidate (the larger
// key, then the smaller position), so the group's reductions see one key per lane and the result is the one
// select_pivot gives over all the rows.
__device__ __forceinline__ unsigned packed_key(float v, bool candidate, bool at_k) {
    return key_of(v, candidate, at_k).hi;
}
__device__ __forceinline__ unsigned long long packed_key(double v, bool candidate, bool at_k) {
    const pivot_key_words k = key_of(v, candidate, at_k);
    return (unsigned long long)k.hi << 32 | k.lo;
}
template <class Group, class V, int R>
__device__ __forceinline__ int select_pivot_of_rows(const Group &grp, const V (&v)[R], const int (&pos)[R], int k) {
    using K = decltype(packed_key(v[0], false, false));
    K keys[R], key = 0;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        keys[r] = packed_key(v[r], pos[r] >= k, pos[r] == k);
        key = keys[r] > key ? keys[r] : key;
    }
    unsigned p = 0xffffffffu;
#pragma unroll
    for (int r = 0; r < R; ++r) p = min(p, keys[r] == key ? (unsigned)pos[r] : 0xffffffffu);
    if constexpr (sizeof(K) == 4) {  // the key of a float is one word
        const unsigned top = grp.max(key);
        return (int)grp.min(key == top ? p : 0xffffffffu);
    } else {
        const unsigned hi = (unsigned)(key >> 32), lo = (unsigned)key;
        const unsigned top_hi = grp.max(hi);
        const unsigned top_lo = grp.max(hi == top_hi ? lo : 0u);
        return (int)grp.min((hi == top_hi && lo == top_lo) ? p : 0xffffffffu);
    }
}

// For x >= 0 with x = f 2^e (1 <= f < 2), the power of two 2^-e that brings x into [1, 2), clamped to the normal
// numbers: at the largest binade the smallest normal power (x times it is then below 4), for zero and subnormal
// x the largest power below the overflow threshold.
__device__ __forceinline__ float inverse_exponent_scale(float x) {
    const int e = (int)(__float_as_uint(x) >> 23);  // biased exponent; x >= 0, so no sign bit
    return __uint_as_float((unsigned)max(254 - e, 1) << 23);
}
__device__ __forceinline__ double inverse_exponent_scale(double x) {
    const int e = (int)((unsigned)__double2hiint(x) >> 20);
    return __hiloint2double(max(2046 - e, 1) << 20, 0);
}

// 1 / x by the hardware's approximate reciprocal and a Newton step, the sequence that the quotient 1.0f / x compiles
// to on its fast path (sm_90, CUDA 13.0: MUFU.RCP, then FFMA, FFMA), so the same correctly rounded result where that
// path is taken, without its test of x's range, its branch to a called slow path and the convergence region around
// them. Exact for |x| in [2^-126, 2^126); outside it the approximation is flushed (huge x gives 0, subnormal x an
// infinity), so a caller keeps x inside it. The fmin turns the correction term's NaN (0 times an infinity) into a
// harmless 1, so 1 / +-0 = +-Inf, 1 / +-Inf = +-0 and 1 / NaN = NaN as IEEE's. Used where it measured faster: the
// single complex reciprocal and the real pivots of the two-warp getrf without pivoting (tiny_scale::select_normal);
// for the real pivots of the lane kernels, with huge pivots scaled into its range, it ran slower, as did its double
// form with two more FP64 instructions (perf/NOTES.md, "The step's chain").
__device__ __forceinline__ float reciprocal_normal(float x) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return fmaf(r, fminf(fmaf(-x, r, 1.0f), 1.0f), r);
}
// The double form: MUFU.RCP64H, a cubic step and a Newton step (the double quotient's fast path), exact for |x| in
// [2^-1022, 2^1022), the special values as the float form's.
__device__ __forceinline__ double reciprocal_normal(double x) {
    double r;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
    const double e = fmin(fma(-x, r, 1.0), 1.0);
    r = fma(r, fma(e, e, e), r);
    return fma(r, fmin(fma(-x, r, 1.0), 1.0), r);
}
// p ? a : b kept a select (selp): written as a conditional around the single complex reciprocal's products, ptxas
// made it a branch around the whole computation.
__device__ __forceinline__ float select_value(bool p, float a, float b) {
    float r;
    asm("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tselp.f32 %0, %2, %3, q;\n\t}"
        : "=f"(r)
        : "r"((unsigned)p), "f"(a), "f"(b));
    return r;
}

// 1 / x for complex x as conj(x) / |x|^2 with x first scaled by a power of two t (x t has its larger part in
// [1, 2)), so |x t|^2 neither overflows nor underflows: 1 / x = (conj(x t) / |x t|^2) t, one real reciprocal of a
// number in [1, 8) (in float by reciprocal_normal: no range test needed) and a few products, where the quotient of the
// operators (Smith's algorithm, as the host backend divides) takes three IEEE divisions two deep and was kept out of
// line for the unrolled kernels' code size (ncu on the H100: instruction fetch stalls at double complex n = 32); this
// form is short enough to inline (perf/NOTES.md, "The step's chain"). Rounding: a few ulps of |1 / x|. Special values
// as Smith's gives them: an infinite part with the other finite gives 0; a NaN, two infinite parts or x = 0 give NaN
// (never a trap). A subnormal x keeps |x t|^2 >= 2^-44 (float), normal.
// Early: the infinite-part test before the quotient (double complex; the statements' order is all that differs, and
// it changed ptxas's code: not examined). The select-form scaler (lane-per-row and two-warp kernels) takes it, where
// getrf z ran faster at n = 11-32 than with the quotient first. The branch form (blocked, one-block, thread kernels)
// keeps the quotient first: there either order ran the same (perf/NOTES.md, "The step's chain").
template <class R, bool Early = false> __device__ __forceinline__ complex<R> reciprocal(complex<R> x) {
    const R ar = fabs(x.re), ai = fabs(x.im);
    const R big = fmax(ar, ai);
    const R t = inverse_exponent_scale(big);
    const R u = x.re * t, v = x.im * t;  // exact (t a power of two) unless a part far below the other underflows
    if constexpr (sizeof(R) == sizeof(float)) {
        // |x t|^2 is in [1, 8), or >= 2^-44 for a subnormal x, or 0, Inf or NaN: reciprocal_normal's range.
        const bool infinite = big == R(INFINITY) && fmin(ar, ai) < R(INFINITY);
        const R rd = reciprocal_normal(fma(u, u, v * v));
        return {select_value(infinite, R(0), (u * rd) * t), select_value(infinite, R(0), (-v * rd) * t)};
    } else if constexpr (Early) {
        const bool infinite = big == R(INFINITY) && fmin(ar, ai) < R(INFINITY);
        const R rd = R(1) / fma(u, u, v * v);
        return infinite ? complex<R>(R(0)) : complex<R>((u * rd) * t, (-v * rd) * t);
    } else {
        const R rd = R(1) / fma(u, u, v * v);
        const bool infinite = big == R(INFINITY) && fmin(ar, ai) < R(INFINITY);
        return infinite ? complex<R>(R(0)) : complex<R>((u * rd) * t, (-v * rd) * t);
    }
}
__device__ __forceinline__ float reciprocal(float x) { return 1.0f / x; }
__device__ __forceinline__ double reciprocal(double x) { return 1.0 / x; }

// Division by a pivot without a division in the inner loops: x / p is computed as (x * s) * (1 / (p * s))
// with s = 1 when |p| >= sfmin, where this is exactly getf2's "times the reciprocal", and otherwise (getf2
// divides there, because 1/p would overflow) a power of two that brings p into the normal range with 1/(p s)
// finite; s x then overflows only where getf2's x / p overflows too. One division per pivot instead of one
// per entry keeps the unrolled kernels small. Three ways to choose s (perf/NOTES.md, "The step's chain"):
//  - branch: s = 2^64 (float) or 2^600 (double) in a branch taken only for tiny pivots. The thread-per-matrix
//    kernels hold a matrix per thread and run fastest this way (the select form took them 8-25 more registers);
//    the default. s is a fixed power of two, not 2^-e for p = m 2^e, which overflows to Inf for p below 2^-128
//    (float) or 2^-1024 (double) and so gave such a pivot NaN multipliers.
//  - select: s = 2^64 (float) or 2^600 (double) when max(|Re|, |Im|) < sfmin, chosen by a select. The
//    lane-per-row kernels would pay every step's branch in issue slots and convergence stalls, so they run faster
//    with the select (for complex p, where the two tests disagree, both scalings are exact up to rounding).
//  - select_normal: select, and a real pivot's reciprocal by reciprocal_normal, with a huge p (from 2^126 (float) or
//    2^1022 (double), where 1 / p is at most the smallest normal number, and Inf) scaled down by 1 / s into its
//    range; there getf2's 1 / p is subnormal with bits lost, so the multipliers can differ from getf2's in their
//    last bits (they are the more accurate ones); below it they are getf2's bit for bit. Only the two-warp getrf
//    without pivoting takes it, where it ran faster (the lane kernels ran slower with it).
enum class tiny_scale { branch, select, select_normal };
template <class R> __device__ __forceinline__ R tiny_pivot_scale();
template <> __device__ __forceinline__ float tiny_pivot_scale<float>() { return 0x1p64f; }
template <> __device__ __forceinline__ double tiny_pivot_scale<double>() { return 0x1p600; }
template <class R> __device__ __forceinline__ R huge_pivot();
template <> __device__ __forceinline__ float huge_pivot<float>() { return 0x1p126f; }
template <> __device__ __forceinline__ double huge_pivot<double>() { return 0x1p1022; }
template <class T, tiny_scale How = tiny_scale::branch> struct pivot_scaler {
    using R = real_t<T>;
    R s;
    T recip;
    bool zero;
    pivot_scaler() = default;
    __device__ __forceinline__ explicit pivot_scaler(T p) {
        zero = is_zero(p);
        if constexpr (How != tiny_scale::branch) {
            const R m = max_abs_part(p);
            s = m < sfmin<R>() && !zero ? tiny_pivot_scale<R>() : R(1);
            if constexpr (How == tiny_scale::select_normal && !scalar_traits<T>::is_complex)
                s = m >= huge_pivot<R>() ? R(1) / tiny_pivot_scale<R>() : s;  // into reciprocal_normal's range
        } else {
            s = R(1);
            if (!zero && !modulus_at_least_sfmin(p)) s = tiny_pivot_scale<R>();
        }
        if constexpr (scalar_traits<T>::is_complex) recip = reciprocal<R, How != tiny_scale::branch>(s * p);
        else if constexpr (How == tiny_scale::select_normal) recip = reciprocal_normal(s * p);
        else recip = reciprocal(s * p);
    }
    __device__ __forceinline__ T divide(T x) const { return (s * x) * recip; }
    // The multiplier of a row below the pivot as getf2 forms it; left alone when the pivot is exactly zero
    // (getf2 then skips the scaling).
    __device__ __forceinline__ T multiplier(T x) const { return zero ? x : divide(x); }
};

// xGETRI's and xLASWP's interchange j <-> p as the kernels replay it on one index: whether it moves anything
// (an ipiv entry outside 1..n is ignored, so bad input cannot send an index out of range), and where position
// pos goes when positions j and p are exchanged.
__device__ __forceinline__ bool valid_interchange(int j, int p, int n) { return p != j && p >= 0 && p < n; }
__device__ __forceinline__ int swap_position(int pos, int j, int p) { return pos == j ? p : (pos == p ? j : pos); }

// 16 bytes of consecutive entries, for one shared-memory load: 4 floats, 2 doubles or complex floats, 1
// double complex.
template <class T> struct alignas(16) chunk16 {
    static constexpr int size = 16 / sizeof(T);
    T v[size];
};

// x - a b, with fused multiply-adds also for complex types: four FMAs, where the operators' form
// (a product, then a sum) takes six instructions in a chain three deep (perf/NOTES.md, "The step's chain").
template <class R> __device__ __forceinline__ R minus_product(R x, R a, R b) { return fma(-a, b, x); }
template <class R> __device__ __forceinline__ complex<R> minus_product(complex<R> x, complex<R> a, complex<R> b) {
    return {fma(a.im, b.im, fma(-a.re, b.re, x.re)), fma(-a.im, b.re, fma(-a.re, b.im, x.im))};
}
// x - a b by minus_product when Fused, else by the operators (for the kernels where the FMA form measured slower).
template <bool Fused, class T> __device__ __forceinline__ T subtract_product(T x, T a, T b) {
    if constexpr (Fused) return minus_product(x, a, b);
    else return x - a * b;
}

// ---- one thread's column against a triangle in shared memory ---------------------------------------------------
// The triangle of order n <= N is column-major at M with leading dimension LD (M 16-byte aligned, LD a whole
// number of 16-byte chunks); every thread of a step reads the same column, so its entries come as 16-byte
// broadcasts. x lives in registers (N a template parameter, every loop unrolled); steps k >= n are skipped by a
// uniform branch; rows n..N-1 of x are updated from M's rows n..N-1 (zero in both callers) and not used.
// x = inv(L) x, L unit lower triangular: step k subtracts x(k) L(k+1:N, k).
template <class T, int N, int LD>
__device__ __forceinline__ void solve_unit_lower_in_shared(T (&x)[N], const T *L, int n) {
    constexpr int E = chunk16<T>::size;
    static_assert(N % E == 0 && LD % E == 0, "whole 16-byte chunks");
#pragma unroll
    for (int k = 0; k < N - 1; ++k) {
        if (k < n) {
            const T xk = x[k];
#pragma unroll
            for (int g = (k + 1) / E * E; g < N; g += E) {
                const chunk16<T> l = *reinterpret_cast<const chunk16<T> *>(L + g + k * LD);
#pragma unroll
                for (int q = 0; q < E; ++q)
                    if (g + q > k) x[g + q] = minus_product(x[g + q], l.v[q], xk);
            }
        }
    }
}
// x = inv(U) x, U upper triangular with dinv(k) = 1 / U(k,k): step k scales x(k) by dinv(k) (the reciprocal
// once per matrix, not a division per column) and subtracts x(k) U(0:k-1, k).
template <class T, int N, int LD>
__device__ __forceinline__ void solve_upper_in_shared(T (&x)[N], const T *U, const T *dinv, int n) {
    constexpr int E = chunk16<T>::size;
    static_assert(N % E == 0 && LD % E == 0, "whole 16-byte chunks");
#pragma unroll
    for (int k = N - 1; k >= 0; --k) {
        if (k < n) {
            const T xk = x[k] * dinv[k];
            x[k] = xk;
#pragma unroll
            for (int g = 0; g < k; g += E) {
                const chunk16<T> u = *reinterpret_cast<const chunk16<T> *>(U + g + k * LD);
#pragma unroll
                for (int q = 0; q < E; ++q)
                    if (g + q < k) x[g + q] = minus_product(x[g + q], u.v[q], xk);
            }
        }
    }
}

// Shuffles of the scalar types (complex: two shuffles of the real type).
template <class R> __device__ __forceinline__ R shfl(unsigned mask, R v, int lane) { return __shfl_sync(mask, v, lane); }
template <class R> __device__ __forceinline__ complex<R> shfl(unsigned mask, complex<R> v, int lane) {
    return {__shfl_sync(mask, v.re, lane), __shfl_sync(mask, v.im, lane)};
}

template <class T> __device__ __forceinline__ T maybe_conj(T x, bool c) {
    if constexpr (scalar_traits<T>::is_complex) return c ? conj(x) : x;
    else return x;
}

}  // namespace cuda_kernels
}  // namespace smallla
