// The host Cholesky family's blocked form (family "blocked" in routing.def): one matrix at a time from a copy of
// its lower form in per-thread scratch, held as planes (complex: a plane of real parts, then one of imaginary
// parts), so that a SIMD vector loads W consecutive rows of a column of either. Every O(n^3) step is one register
// tile, written once on E = lanes_of<T, W>: acc[MR][NR] (MR vectors of W rows by NR columns) minus a product
// A(rows, K) B(cols, K)^H, optionally followed by the right solve with an NR x NR block L_JJ^H in the registers:
//  - potrf: left-looking in block columns of NR: the block column minus L(:, 0:j0) L(J, 0:j0)^H, the diagonal
//    block factored (scalar, with LAPACK's info), the rows below solved with it in the same tile pass;
//  - potri, poinv: X = inv(L)^H (upper) from X L^H = I by the same tile pass (identity in, no factoring), then
//    the lower triangle of X X^H = inv(A) by the product alone.
// The copy is padded (rows to a whole tile past n, columns to a multiple of NR), so that tiles need no edge cases:
// padding rows and columns, and the upper part, compute junk that is never stored (X's zeros are kept).
#pragma once

#include <cstring>
#include <memory>
#include <type_traits>

#include "chol_batch.hpp"
#include "routing.hpp"

#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// The register tile of this instruction set: 16 vector registers (SSE2, AVX2) or 32 (AVX-512); complex lanes
// take two registers each.
template <class T> struct blocked_tile {
    using R = real_t<T>;
    static constexpr bool cplx = scalar_traits<T>::is_complex;
    static constexpr int W = vector_bytes / (int)sizeof(R);
    static constexpr int MR = 2;
    static constexpr int NR = vector_bytes == 64 ? (cplx ? 4 : 8) : (cplx ? 2 : 4);
    static constexpr int rows = MR * W;
    // Outer blocks of NB columns get the update from the columns before them first, in chunks of KC columns,
    // so that a chunk's rows of A and B stay in cache across the tiles (at n = 1024-2048 a pass over the whole
    // left part per NR columns ran at 0.5-0.8x of serial OpenBLAS).
    static constexpr int NB = 8 * NR, KC = 256;
};

// A lower-form copy as planes: element (i, j) at p[i + j*ld] (and its imaginary part im further on).
template <class T> struct planes {
    using R = real_t<T>;
    static constexpr bool cplx = scalar_traits<T>::is_complex;
    R *p;
    long ld, im;
    R *at(long i, long j) const { return p + i + j * ld; }
    T get(long i, long j) const {
        if constexpr (cplx) return T(at(i, j)[0], at(i, j)[im]);
        else return *at(i, j);
    }
    void set(long i, long j, T v) const {
        if constexpr (cplx) at(i, j)[0] = v.re, at(i, j)[im] = v.im;
        else *at(i, j) = v;
    }
    template <int W> lanes_of<T, W> load(long i, long j) const {
        lanes_of<T, W> x;
        if constexpr (cplx) {
            std::memcpy(&x.re, at(i, j), sizeof x.re);
            std::memcpy(&x.im, at(i, j) + im, sizeof x.im);
        } else {
            std::memcpy(&x.v, at(i, j), sizeof x.v);
        }
        return x;
    }
    template <int W> void store(long i, long j, const lanes_of<T, W> &x) const {
        if constexpr (cplx) {
            std::memcpy(at(i, j), &x.re, sizeof x.re);
            std::memcpy(at(i, j) + im, &x.im, sizeof x.im);
        } else {
            std::memcpy(at(i, j), &x.v, sizeof x.v);
        }
    }
};

// The padded shape of one order's copies: ld covers every tile's rows (a tile starts before n) and `front` rows
// before row 0 (planes start there), a whole number of 64-byte lines and an odd one, so that a column walk does not
// map every column to the same L1 sets.
template <class T> struct blocked_layout {
    using R = real_t<T>;
    using S = blocked_tile<T>;
    int n, cols, front;
    long ld, plane, reals;  // reals: one copy's length in R
    explicit blocked_layout(int n_, int front_rows = 0) : n(n_), front(front_rows) {
        constexpr long line = 64 / (long)sizeof(R);
        cols = (n + S::NR - 1) / S::NR * S::NR;
        ld = (n + front + S::rows + line - 1) / line * line;
        if ((ld / line) % 2 == 0) ld += line;
        plane = ld * cols;
        reals = plane * (S::cplx ? 2 : 1);
    }
    planes<T> at(R *base) const { return {base + front, ld, plane}; }
};

// Scratch of `copies` padded copies (64-byte aligned), plus room for one right-hand side, for each of `sets` threads
// (a team shares one set). zeroed: for the inverses, whose products run over the padding (zero times junk could be
// NaN); the factorization and the solves read no element that load_blocked leaves unwritten (zeroing megabytes a
// call cost up to a tenth of a team's factorization at 1024-2048).
template <class T> struct blocked_scratch {
    using R = real_t<T>;
    blocked_layout<T> shape;
    long each;
    std::unique_ptr<R[]> data;
    blocked_scratch(int n, int copies, int sets, bool zeroed)
        : shape(n), each(shape.reals * copies + 2 * shape.ld + 64),
          data(zeroed ? new R[(size_t)each * sets + 64]() : new R[(size_t)each * sets + 64]) {}
    R *operator[](int thread) {
        R *p = data.get() + (long)thread * each;
        return p + ((64 - (reinterpret_cast<unsigned long>(p) & 63)) & 63) / sizeof(R);
    }
};

// W copies of x as one broadcast (lanes' splat, a loop over the lanes, became a chain of masked inserts for
// 16 floats): a scalar minus the zero vector, which the compiler folds (exactly x, -0 included).
template <class R, int W> inline rlanes<R, W> broadcast(R x) { return {x - typename simd<R, W>::vec{}}; }
template <class R, int W> inline clanes<R, W> broadcast(complex<R> x) {
    return {x.re - typename simd<R, W>::vec{}, x.im - typename simd<R, W>::vec{}};
}

// The tiles' c - a b: with fused multiply-adds where this copy has them (AVX-512; AVX2 built with FMA), each
// product term rounded once with the difference, as optimized BLAS-3 computes; otherwise the product rounded, then
// the difference (LAPACK's reference roundings). Every tile of a copy takes the same form, so a team's results are
// still bitwise a single thread's.
#if defined(__AVX512F__)
inline __m512d fused_nmadd(__m512d a, __m512d b, __m512d c) { return _mm512_fnmadd_pd(a, b, c); }
inline __m512 fused_nmadd(__m512 a, __m512 b, __m512 c) { return _mm512_fnmadd_ps(a, b, c); }
inline __m512d fused_madd(__m512d a, __m512d b, __m512d c) { return _mm512_fmadd_pd(a, b, c); }
inline __m512 fused_madd(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
#endif
#if defined(__FMA__)
inline __m256d fused_nmadd(__m256d a, __m256d b, __m256d c) { return _mm256_fnmadd_pd(a, b, c); }
inline __m256 fused_nmadd(__m256 a, __m256 b, __m256 c) { return _mm256_fnmadd_ps(a, b, c); }
inline __m256d fused_madd(__m256d a, __m256d b, __m256d c) { return _mm256_fmadd_pd(a, b, c); }
inline __m256 fused_madd(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
#endif
#if defined(__AVX512F__) || defined(__FMA__)
constexpr bool tile_fused = true;
#else
constexpr bool tile_fused = false;
#endif
template <class R, int W>
inline rlanes<R, W> minus_product(const rlanes<R, W> &c, const rlanes<R, W> &a, const rlanes<R, W> &b) {
    if constexpr (tile_fused) return {fused_nmadd(a.v, b.v, c.v)};
    else return c - a * b;
}
template <class R, int W>
inline clanes<R, W> minus_product(const clanes<R, W> &c, const clanes<R, W> &a, const clanes<R, W> &b) {
    if constexpr (tile_fused)  // re: c.re - a.re b.re + a.im b.im; im: c.im - a.re b.im - a.im b.re
        return {fused_madd(a.im, b.im, fused_nmadd(a.re, b.re, c.re)),
                fused_nmadd(a.im, b.re, fused_nmadd(a.re, b.im, c.im))};
    else return c - a * b;
}

// acc[r][c] -= A(i + r*W + w, k) * conj(B(j + c, k)) for k in [k0, k1), in increasing k.
template <class T, class E, int MR, int NR>
inline void tile_subtract(const planes<T> &A, long i, const planes<T> &B, long j, int k0, int k1, E (&acc)[MR][NR]) {
    constexpr int W = blocked_tile<T>::W;
    for (int k = k0; k < k1; ++k) {
        E a[MR];
#pragma GCC unroll 8
        for (int r = 0; r < MR; ++r) a[r] = A.template load<W>(i + r * W, k);
#pragma GCC unroll 16
        for (int c = 0; c < NR; ++c) {
            const E b = broadcast<real_t<T>, W>(conj_e(B.get(j + c, k)));
#pragma GCC unroll 8
            for (int r = 0; r < MR; ++r) acc[r][c] = minus_product(acc[r][c], a[r], b);
        }
    }
}
template <class T, class E, int MR, int NR> inline void tile_load(const planes<T> &C, long i, long j, E (&acc)[MR][NR]) {
    constexpr int W = blocked_tile<T>::W;
#pragma GCC unroll 16
    for (int c = 0; c < NR; ++c)
#pragma GCC unroll 8
        for (int r = 0; r < MR; ++r) acc[r][c] = C.template load<W>(i + r * W, j + c);
}
template <class T, class E, int MR, int NR>
inline void tile_store(const planes<T> &C, long i, long j, const E (&acc)[MR][NR]) {
    constexpr int W = blocked_tile<T>::W;
#pragma GCC unroll 16
    for (int c = 0; c < NR; ++c)
#pragma GCC unroll 8
        for (int r = 0; r < MR; ++r) C.template store<W>(i + r * W, j + c, acc[r][c]);
}

// The block L_JJ (jb columns from j0, factored) as the tile solve needs it: reciprocals of its diagonal, conjugates
// of its strict lower part.
template <class T> struct diagonal_block {
    static constexpr int NR = blocked_tile<T>::NR;
    int jb;
    real_t<T> rinv[NR];
    T l[NR][NR];  // l[m][k] = conj(L(j0 + m, j0 + k)), m > k
    diagonal_block(const planes<T> &L, int j0, int jb_) : jb(jb_) {
        for (int k = 0; k < jb; ++k) {
            rinv[k] = real_t<T>(1) / real_part(L.get(j0 + k, j0 + k));
            for (int m = k + 1; m < jb; ++m) l[m][k] = conj_e(L.get(j0 + m, j0 + k));
        }
    }
};
// acc := acc inv(L_JJ^H), row by row: X L_JJ^H = acc solved column by column (LAPACK's xTRSM, right side).
template <class T, class E, int MR, int NR> inline void tile_solve(const diagonal_block<T> &D, E (&acc)[MR][NR]) {
    using RL = rlanes<real_t<T>, blocked_tile<T>::W>;
#pragma GCC unroll 16
    for (int k = 0; k < NR; ++k) {
        if (k >= D.jb) break;
        const RL r = broadcast<real_t<T>, blocked_tile<T>::W>(D.rinv[k]);
#pragma GCC unroll 8
        for (int q = 0; q < MR; ++q) acc[q][k] = scale(acc[q][k], r);
#pragma GCC unroll 16
        for (int m = k + 1; m < NR; ++m) {
            if (m >= D.jb) break;
            const E s = broadcast<real_t<T>, blocked_tile<T>::W>(D.l[m][k]);
#pragma GCC unroll 8
            for (int q = 0; q < MR; ++q) acc[q][m] -= acc[q][k] * s;
        }
    }
}

// Lane w of x (an element access on the register value, which stays a register).
template <class R, int W> inline R lane(const rlanes<R, W> &x, int w) { return x.v[w]; }
template <class R, int W> inline complex<R> lane(const clanes<R, W> &x, int w) { return {x.re[w], x.im[w]}; }

// xPOTF2 on the tile's first jb rows and columns (the tile starts at the block's first row, and rows >= NR), the
// tile's rows below the block solved with each column as it is done. Returns 0, or the failing column (1-based in
// the block; those before it are done). l[k]: the diagonal L(k, k) (the tile holds its own square times its
// reciprocal there, to be replaced; rows above the diagonal hold junk, never stored).
template <class T, class E, int MR, int NR> inline int tile_factor(int jb, E (&acc)[MR][NR], real_t<T> (&l)[NR]) {
    using R = real_t<T>;
    constexpr int W = blocked_tile<T>::W;
#pragma GCC unroll 16
    for (int k = 0; k < NR; ++k) {
        if (k >= jb) break;
        const R d = real_part(lane(acc[k / W][k], k % W));
        if (!(d > R(0))) return k + 1;  // also NaN
        l[k] = std::sqrt(d);
        const rlanes<R, W> r = broadcast<R, W>(R(1) / l[k]);
#pragma GCC unroll 8
        for (int q = 0; q < MR; ++q) acc[q][k] = scale(acc[q][k], r);
#pragma GCC unroll 16
        for (int m = k + 1; m < NR; ++m) {
            if (m >= jb) break;
            const E s = broadcast<R, W>(conj_e(lane(acc[m / W][k], m % W)));
#pragma GCC unroll 8
            for (int q = 0; q < MR; ++q) acc[q][m] -= acc[q][k] * s;
        }
    }
    return 0;
}

// The sum of the lanes of x, pairwise (a chain of log2(W) additions, not W).
template <class R, int W> inline R lane_sum(const rlanes<R, W> &x) {
    R t[W];
    std::memcpy(t, &x.v, sizeof t);
    for (int h = W / 2; h >= 1; h /= 2)
        for (int w = 0; w < h; ++w) t[w] += t[w + h];
    return t[0];
}
template <class R, int W> inline complex<R> lane_sum(const clanes<R, W> &x) {
    return {lane_sum(rlanes<R, W>{x.re}), lane_sum(rlanes<R, W>{x.im})};
}

// body(x) for x = x0, x0 + step, ... below x1: spread over all threads when team (a batch smaller than the thread
// count, factored one matrix at a time), else on this thread.
template <class F> inline void for_each_strip(bool team, int x0, int x1, int step, const F &body) {
    if (!team) {  // no parallel region at all: even an inactive one costs about a microsecond
        for (int x = x0; x < x1; x += step) body(x);
        return;
    }
#pragma omp parallel for schedule(static)
    for (int x = x0; x < x1; x += step) body(x);
}

// A batch of fewer matrices than threads, from the routing table's team orders: one matrix after another,
// each one's updates spread over all threads (team: the blocked LU and Cholesky factorizations); otherwise a thread
// a matrix. flops_per_matrix counts element operations of T (element_work weighs them).
template <class T, class F>
inline void for_each_blocked_matrix(bool team, int batch, double flops_per_matrix, F &&body) {
    if (team) {
        for (int b = 0; b < batch; ++b) body(b, 0);
    } else {
        for_each_matrix(batch, element_work<T>() * flops_per_matrix, body);
    }
}
inline bool team_of_threads(int n, int batch, int min_order) { return n >= min_order && batch < omp_get_max_threads(); }

// C(i.., s..) -= A(i.., k) B(s.., k)^H for the row tiles i = i0, i0 + ROWS, ... < i1 and column blocks s = J0,
// J0 + NR, ... < J1 with keep(i, s), k in [klo(i), khi), increasing k (so the roundings are those of one pass).
// team: the row tiles spread over the threads.
template <class T, class KLo, class Keep>
inline void panel_subtract(const planes<T> &C, const planes<T> &A, const planes<T> &B, int i0, int i1, int J0, int J1,
                           KLo &&klo, int khi, Keep &&keep, bool team = false) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    // One row tile against the chunk [kc, kend) of k.
    const auto row_tile = [&](int i, int kc, int kend, E(&acc)[S::MR][S::NR]) {
        const int kb = klo(i) > kc ? klo(i) : kc;
        if (kb >= kend) return;
        for (int s = J0; s < J1; s += S::NR) {
            if (!keep(i, s)) continue;
            tile_load(C, i, s, acc);
            tile_subtract(A, i, B, s, kb, kend, acc);
            tile_store(C, i, s, acc);
        }
    };
    E acc[S::MR][S::NR];
    for (int kc = 0; kc < khi; kc += S::KC) {
        const int kend = kc + S::KC < khi ? kc + S::KC : khi;
        if (team) {
            for_each_strip(true, i0, i1, S::rows, [&](int i) {
                E own[S::MR][S::NR];
                row_tile(i, kc, kend, own);
            });
        } else {
            for (int i = i0; i < i1; i += S::rows) row_tile(i, kc, kend, acc);
        }
    }
}

// ---- potrf: A = L L^H of the padded lower form L; returns LAPACK's info (the first non-positive or NaN pivot,
// where it stops: the columns before it hold the factor, as LAPACK's left-looking xPOTRF leaves them) --------------
template <class T> inline int blocked_factor(const planes<T> &L, int n, bool team = false) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    constexpr int MR = S::MR, NR = S::NR, ROWS = S::rows;
    for (int J0 = 0; J0 < n; J0 += S::NB) {
        const int J1 = n - J0 < S::NB ? n : J0 + S::NB;
        // The outer block minus the product of the columns before it (tiles wholly above a block's rows skipped).
        panel_subtract(L, L, L, J0, n, J0, J1, [&](int) { return 0; }, J0, [](int i, int s) { return i + ROWS > s; },
                       team);
        for (int j0 = J0; j0 < J1; j0 += NR) {
            const int jb = n - j0 < NR ? n - j0 : NR;
            E acc[MR][NR];
            // The tile holding the diagonal block (its first jb rows): the update from the outer block's columns
            // before it, then the block's columns one by one in the registers (xPOTF2's steps; the tile's rows
            // below the block are solved with them).
            tile_load(L, j0, j0, acc);
            tile_subtract(L, j0, L, j0, J0, j0, acc);
            real_t<T> l[NR];
            const int info = tile_factor<T>(jb, acc, l);
            tile_store(L, j0, j0, acc);
            for (int k = 0; k < (info != 0 ? info - 1 : jb); ++k) L.set(j0 + k, j0 + k, from_real<T>(l[k]));
            if (info != 0) return j0 + info;
            // The rows below: update and solve in one pass (row tiles by the team).
            const diagonal_block<T> D(L, j0, jb);
            for_each_strip(team, j0 + ROWS, n, ROWS, [&](int i) {
                E below[MR][NR];
                tile_load(L, i, j0, below);
                tile_subtract(L, i, L, j0, J0, j0, below);
                tile_solve(D, below);
                tile_store(L, i, j0, below);
            });
        }
    }
    return 0;
}

// ---- the inverse: X = inv(L)^H into X (padded, zero but for its identity diagonal), then the lower triangle of
// X X^H = inv(L L^H) into L's copy -----------------------------------------------------------------------------------
template <class T> inline void blocked_inverse(const planes<T> &L, const planes<T> &X, int n) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    constexpr int MR = S::MR, NR = S::NR, ROWS = S::rows;
    E acc[MR][NR];
    // Row i of X solves x L^H = e_i: block column J of the rows that reach it (X is upper triangular, X(i, k) = 0
    // for k < i, so a tile from row i0 needs the columns from i0 only); an outer block's product with the columns
    // before it first, as in the factorization.
    for (int J0 = 0; J0 < n; J0 += S::NB) {
        const int J1 = n - J0 < S::NB ? n : J0 + S::NB;
        panel_subtract(X, X, L, 0, J1, J0, J1, [](int i) { return i; }, J0, [](int i, int s) { return i < s + NR; });
        for (int j0 = J0; j0 < J1; j0 += NR) {
            const int jb = n - j0 < NR ? n - j0 : NR;
            const diagonal_block<T> D(L, j0, jb);
            for (int i = 0; i < j0 + jb; i += ROWS) {
                tile_load(X, i, j0, acc);
                tile_subtract(X, i, L, j0, i > J0 ? i : J0, j0, acc);
                tile_solve(D, acc);
                tile_store(X, i, j0, acc);
            }
        }
    }
    // inv(A)(i, j) = sum over k >= i of X(i, k) conj(X(j, k)), i >= j: 0 minus the products, then negated (exact).
    std::memset(L.p, 0, sizeof(real_t<T>) * L.im * (S::cplx ? 2 : 1));
    for (int J0 = 0; J0 < n; J0 += S::NB) {
        const int J1 = n - J0 < S::NB ? n : J0 + S::NB;
        panel_subtract(L, X, X, J0, n, J0, J1, [](int i) { return i; }, n, [](int i, int s) { return i + ROWS > s; });
    }
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) L.set(i, j, -L.get(i, j));
}

// ---- copies between the user's uplo triangle and the padded lower form ---------------------------------------
// The lower form is written, and zeros where the factorization's tiles read past it: the padding rows and columns
// and the upper triangle of each outer block's diagonal block. What they compute (junk) reaches only padding and
// upper elements, which are not stored; zeros keep it free of overflow and subnormal operands. The rest of the upper
// part is never read.
// f(i, j) for the elements i >= j of an order-n lower triangle, in 8 x 8 tiles: a transposed copy then touches
// 8 lines of the other side per tile (column by column, with ld a power of two, every line of a transposed row
// maps to one cache set: s poinv at n = 512 took twice potrf + potri so).
template <class F> inline void for_lower_in_tiles(int n, F &&f) {
    constexpr int B = 8;
    for (int j0 = 0; j0 < n; j0 += B) {
        const int j1 = j0 + B < n ? j0 + B : n;
        for (int i0 = j0; i0 < n; i0 += B) {
            const int i1 = i0 + B < n ? i0 + B : n;
            for (int j = j0; j < j1; ++j)
                for (int i = i0 > j ? i0 : j; i < i1; ++i) f(i, j);
        }
    }
}
template <class T> inline void zero_unread_blocked(int n, const planes<T> &L) {
    using S = blocked_tile<T>;
    const long cols = (n + S::NR - 1) / S::NR * S::NR;
    const auto zero = [&](long i0, long i1, long j) {
        if (i1 <= i0) return;
        std::memset(L.at((int)i0, (int)j), 0, sizeof(real_t<T>) * (i1 - i0));
        if constexpr (planes<T>::cplx) std::memset(L.at((int)i0, (int)j) + L.im, 0, sizeof(real_t<T>) * (i1 - i0));
    };
    for (long j = 0; j < cols; ++j) {
        if (j >= n) {
            zero(0, L.ld, j);
            continue;
        }
        zero(j / S::NB * S::NB, j, j);
        zero(n, L.ld, j);
    }
}
template <class T> inline void load_blocked(int n, const planes<T> &L, const T *m, long ld, bool upper) {
    using R = real_t<T>;
    zero_unread_blocked(n, L);
    if (upper) return for_lower_in_tiles(n, [&](int i, int j) { L.set(i, j, conj(m[j + i * ld])); });
    for (int j = 0; j < n; ++j) {
        const T *__restrict src = m + j + j * ld;
        R *__restrict re = L.at(j, j);
        if constexpr (planes<T>::cplx) {
            R *__restrict im = re + L.im;
            for (int i = 0; i < n - j; ++i) re[i] = src[i].re, im[i] = src[i].im;
        } else {
            std::memcpy(re, src, sizeof(T) * (n - j));
        }
    }
}
// real_diagonal: the diagonal's imaginary parts stored as zero (the inverse); else as they are (the factor's own
// are zero, what a failure left unfactored keeps the input's).
template <class T>
inline void store_blocked(int n, T *m, long ld, bool upper, const planes<T> &L, bool real_diagonal) {
    using R = real_t<T>;
    if (upper) {
        for_lower_in_tiles(n, [&](int i, int j) { m[j + i * ld] = conj(L.get(i, j)); });
    } else {
        for (int j = 0; j < n; ++j) {
            T *__restrict dst = m + j + j * ld;
            const R *__restrict re = L.at(j, j);
            if constexpr (planes<T>::cplx) {
                const R *__restrict im = re + L.im;
                for (int i = 0; i < n - j; ++i) dst[i] = T(re[i], im[i]);
            } else {
                std::memcpy(dst, re, sizeof(T) * (n - j));
            }
        }
    }
    if (real_diagonal)
        for (int j = 0; j < n; ++j) m[j + j * ld] = from_real<T>(real_part(L.get(j, j)));
}
template <class T> inline void store_blocked_hermitian(int n, T *m, long ld, const planes<T> &L) {
    for_lower_in_tiles(n, [&](int i, int j) {
        const T v = L.get(i, j);
        if (i == j) {
            m[j + j * ld] = from_real<T>(real_part(v));
        } else {
            m[i + j * ld] = v;
            m[j + i * ld] = conj(v);
        }
    });
}

// X: the identity, padded with zeros.
template <class T> inline void identity_blocked(const blocked_layout<T> &s, const planes<T> &X) {
    std::memset(X.p, 0, sizeof(real_t<T>) * s.reals);
    for (int j = 0; j < s.n; ++j) X.set(j, j, T(real_t<T>(1)));
}
// First j (1-based) with Re L(j,j) == 0, else 0: xTRTRI's test (potri), made before anything is written.
template <class T> inline int blocked_zero_diagonal(const planes<T> &L, int n) {
    for (int j = 0; j < n; ++j)
        if (real_part(L.get(j, j)) == real_t<T>(0)) return j + 1;
    return 0;
}

// x := inv(L L^H) x for one right-hand side x (n elements, copied through the planes y): L y = x by columns, then
// L^H x = y by dot products, W rows at a time.
template <class T> inline void blocked_solve(const planes<T> &L, int n, const planes<T> &y, T *x) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    constexpr int W = S::W;
    for (int i = 0; i < n; ++i) y.set(i, 0, x[i]);
    for (int k = 0; k < n; ++k) {
        const T yk = y.get(k, 0) / from_real<T>(real_part(L.get(k, k)));
        y.set(k, 0, yk);
        const E s = broadcast<real_t<T>, W>(yk);
        int i = k + 1;
        for (; i + W <= n; i += W) y.template store<W>(i, 0, y.template load<W>(i, 0) - L.template load<W>(i, k) * s);
        for (; i < n; ++i) y.set(i, 0, y.get(i, 0) - L.get(i, k) * yk);
    }
    for (int k = n - 1; k >= 0; --k) {
        E t{};
        int i = k + 1;
        for (; i + W <= n; i += W) t += conj_e(L.template load<W>(i, k)) * y.template load<W>(i, 0);
        T sum = y.get(k, 0) - lane_sum(t);
        for (; i < n; ++i) sum -= conj_e(L.get(i, k)) * y.get(i, 0);
        y.set(k, 0, sum / from_real<T>(real_part(L.get(k, k))));
    }
    for (int i = 0; i < n; ++i) x[i] = y.get(i, 0);
}

// ---- the batch drivers -----------------------------------------------------------------------------------------
// potrf and posv (nrhs = 0: no B).
template <class T, class BatchA, class BatchB>
void posv_blocked(int n, bool upper, const BatchA &A, int nrhs, const BatchB &B, int *info, int batch) {
    const bool team = team_of_threads(n, batch, chol_team_min_order);
    blocked_scratch<T> work(n, 1, team ? 1 : omp_get_max_threads(), false);
    const blocked_layout<T> &s = work.shape;
    for_each_blocked_matrix<T>(team, batch, cube(n) / 3.0 + 2.0 * n * n * nrhs, [&](int b, int thread) {
        real_t<T> *base = work[thread];
        const planes<T> L = s.at(base), y = {base + s.reals, s.ld, s.ld};
        T *m = A[b];
        load_blocked(n, L, m, A.ld, upper);
        const int inf = blocked_factor(L, n, team);
        store_blocked(n, m, A.ld, upper, L, false);
        info[b] = inf;
        if (inf != 0) return;
        for (int r = 0; r < nrhs; ++r) blocked_solve(L, n, y, B[b] + (long)r * B.ld);
    });
}
template <class T, class BatchA, class BatchB>
void potrs_blocked(int n, bool upper, int nrhs, const BatchA &A, const BatchB &B, int batch) {
    blocked_scratch<T> work(n, 1, omp_get_max_threads(), false);
    const blocked_layout<T> &s = work.shape;
    for_each_matrix(batch, element_work<T>() * (2.0 * n * n * nrhs), [&](int b, int thread) {
        real_t<T> *base = work[thread];
        const planes<T> L = s.at(base), y = {base + s.reals, s.ld, s.ld};
        load_blocked(n, L, A[b], A.ld, upper);
        for (int r = 0; r < nrhs; ++r) blocked_solve(L, n, y, B[b] + (long)r * B.ld);
    });
}
// potri: A unchanged where the factor's diagonal has a zero (xTRTRI's info).
template <class T, class Batch> void potri_blocked(int n, bool upper, const Batch &A, int *info, int batch) {
    blocked_scratch<T> work(n, 2, omp_get_max_threads(), true);
    const blocked_layout<T> &s = work.shape;
    for_each_matrix(batch, element_work<T>() * (2.0 * cube(n) / 3.0), [&](int b, int thread) {
        real_t<T> *base = work[thread];
        const planes<T> L = s.at(base), X = s.at(base + s.reals);
        T *m = A[b];
        load_blocked(n, L, m, A.ld, upper);
        const int inf = blocked_zero_diagonal(L, n);
        info[b] = inf;
        if (inf != 0) return;
        identity_blocked(s, X);
        blocked_inverse(L, X, n);
        store_blocked(n, m, A.ld, upper, L, true);
    });
}
// poinv: all of C; C not written where the factorization failed.
template <class T, class BatchA, class BatchC>
void poinv_blocked(int n, bool upper, const BatchA &A, const BatchC &C, int *info, int batch) {
    blocked_scratch<T> work(n, 2, omp_get_max_threads(), true);
    const blocked_layout<T> &s = work.shape;
    for_each_matrix(batch, element_work<T>() * cube(n), [&](int b, int thread) {
        real_t<T> *base = work[thread];
        const planes<T> L = s.at(base), X = s.at(base + s.reals);
        load_blocked(n, L, A[b], A.ld, upper);
        const int inf = blocked_factor(L, n);
        info[b] = inf;
        if (inf != 0) return;
        identity_blocked(s, X);
        blocked_inverse(L, X, n);
        store_blocked_hermitian(n, C[b], C.ld, L);
    });
}

// The routines' entries (lib/host/dispatch.hpp calls the baseline copy's, lib/host/isa/blocked_isa.cpp the wider
// instruction sets').
template <class T> void blocked_potrf(const potrf_args<T> &a) {
    posv_blocked<T>(a.n, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), 0, a.A.either(), a.info, a.batch);
}
template <class T> void blocked_posv(const posv_args<T> &a) {
    posv_blocked<T>(a.n, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), a.nrhs, a.B.either(), a.info, a.batch);
}
template <class T> void blocked_potrs(const potrs_args<T> &a) {
    potrs_blocked<T>(a.n, a.uplo == SMALLLA_FILL_UPPER, a.nrhs, a.A.either(), a.B.either(), a.batch);
}
template <class T> void blocked_potri(const potrf_args<T> &a) {
    potri_blocked<T>(a.n, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), a.info, a.batch);
}
template <class T> void blocked_poinv(const poinv_args<T> &a) {
    poinv_blocked<T>(a.n, a.uplo == SMALLLA_FILL_UPPER, a.A.either(), a.C.either(), a.info, a.batch);
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
