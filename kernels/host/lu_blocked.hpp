// The host LU family's blocked form (family "blocked" in routing.def): one matrix at a time from a copy in the
// Cholesky blocked form's padded planes (chol_blocked.hpp), right-looking in outer blocks of lu_outer columns, each
// in panels of lu_panel columns:
//  - the panel factored column by column (LAPACK's pivot choice, rows interchanged within the panel, the
//    reciprocal-or-division scaling of lu_host.hpp), its rank-1 updates W rows at a time; then its interchanges on
//    the block's columns left and right of it;
//  - U12 = inv(L11) A12, a few columns at a time in registers;
//  - A22 -= L21 U12 by register tiles of the blocked form's shape (MR vectors of W rows by NR columns): within the
//    block after each panel, right of the block once per block (blocked_lu).
// Padding rows and columns compute junk that is never stored; rows are interchanged only within the order.
// getri and matinv: inv(A) = inv(U) inv(L) P by two blocked triangular solves of the identity with the same
// tiles (the first skips inv(L)'s zeros: LAPACK's 4n^3/3 flops of xGETRI), P as the store's column order.
#pragma once

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "chol_blocked.hpp"
#include "lu_host.hpp"

namespace smallla {
namespace host_kernels {
inline namespace SMALLLA_HOST_ISA {

// Panel width: a multiple of every tile width NR, and the depth of each update inside an outer block.
constexpr int lu_panel = 16;
// Outer block width (blocked_lu): a multiple of lu_panel and of every tile's rows, the depth of each A22 update.
constexpr int lu_outer = 128;
// The updates of depth lu_outer walk their rows in chunks of about this many bytes of the factor's lu_outer columns,
// each chunk taking every column strip before the next, so that it stays in a core's L2 (1-2 MB) between strips.
constexpr long lu_chunk_bytes = 512 * 1024;

// acc[r][c] -= A(i + r*W + w, k) * B(k, j + c) for k in [k0, k1), in increasing k.
template <class T, class E, int MR, int NR>
inline void tile_subtract_nn(const planes<T> &A, const planes<T> &B, long i, long j, int k0, int k1,
                             E (&acc)[MR][NR]) {
    constexpr int W = blocked_tile<T>::W;
    for (int k = k0; k < k1; ++k) {
        E a[MR];
#pragma GCC unroll 8
        for (int r = 0; r < MR; ++r) a[r] = A.template load<W>(i + r * W, k);
#pragma GCC unroll 16
        for (int c = 0; c < NR; ++c) {
            const E b = broadcast<real_t<T>, W>(B.get(k, j + c));
#pragma GCC unroll 8
            for (int r = 0; r < MR; ++r) acc[r][c] = minus_product(acc[r][c], a[r], b);
        }
    }
}

// Column j, rows [i0, i1) (i1 rounded up to whole vectors: the caller allows the rows up to it), minus column k
// times s.
template <class T> inline void column_axpy(const planes<T> &A, int j, int k, T s, int i0, int i1) {
    constexpr int W = blocked_tile<T>::W;
    using E = lanes_of<T, W>;
    const E sv = broadcast<real_t<T>, W>(s);
    for (int i = i0; i < i1; i += W) A.template store<W>(i, j, A.template load<W>(i, j) - A.template load<W>(i, k) * sv);
}

// The interchanges of rows k and ipiv[k] - 1 (1-based pivots), k in [k0, k1), on columns [j0, j1), a column at a
// time (xLASWP; outside a panel they wait until the panel is done, so that each column is walked once, not a row's
// stride per interchange).
template <class T> inline void swap_rows(const planes<T> &A, const int *ipiv, int k0, int k1, int j0, int j1) {
    for (int j = j0; j < j1; ++j)
        for (int k = k0; k < k1; ++k)
            if (const int p = ipiv[k] - 1; p != k) {
                const T t = A.get(k, j);
                A.set(k, j, A.get(p, j));
                A.set(p, j, t);
            }
}

// The triangular solves on one whole panel of rows, [k0, k0 + lu_panel), of NC columns from j, held in registers
// (lu_panel / W vectors a column, the NC columns' chains interleaved): the element operations and their order are the
// scalar loops' (LAPACK's xTRSM), the rows a step must not touch kept by a select.
template <class T> constexpr int panel_vectors() {
    static_assert(lu_panel % blocked_tile<T>::W == 0, "a panel of rows is whole vectors");
    return lu_panel / blocked_tile<T>::W;
}
// The NC columns from j of the panel of rows at k0, into registers and back.
template <class T, int NC>
inline void load_panel_columns(const planes<T> &B, int k0, int j,
                               lanes_of<T, blocked_tile<T>::W> (&x)[NC][panel_vectors<T>()]) {
    constexpr int W = blocked_tile<T>::W, V = panel_vectors<T>();
#pragma GCC unroll 8
    for (int c = 0; c < NC; ++c)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) x[c][v] = B.template load<W>(k0 + v * W, j + c);
}
template <class T, int NC>
inline void store_panel_columns(const planes<T> &B, int k0, int j,
                                const lanes_of<T, blocked_tile<T>::W> (&x)[NC][panel_vectors<T>()]) {
    constexpr int W = blocked_tile<T>::W, V = panel_vectors<T>();
#pragma GCC unroll 8
    for (int c = 0; c < NC; ++c)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v) B.template store<W>(k0 + v * W, j + c, x[c][v]);
}
// x := inv(L11) x, L11 the unit lower triangle at (k0, k0).
template <class T, int NC> inline void panel_solve_lower_unit(const planes<T> &L, const planes<T> &B, int k0, int j) {
    constexpr int W = blocked_tile<T>::W, V = panel_vectors<T>();
    using E = lanes_of<T, W>;
    using R = real_t<T>;
    E x[NC][V];
    load_panel_columns<T, NC>(B, k0, j, x);
#pragma GCC unroll 16
    for (int k = 0; k < lu_panel - 1; ++k) {
        const int kv = k / W;
        const auto below = lane_index<R, W>(k % W) < lane_ordinals<R, W>();  // rows after k in vector kv
        E l[V];
#pragma GCC unroll 8
        for (int v = kv; v < V; ++v) l[v] = L.template load<W>(k0 + v * W, k0 + k);
#pragma GCC unroll 8
        for (int c = 0; c < NC; ++c) {
            const E xk = broadcast<R, W>(lane(x[c][kv], k % W));
            x[c][kv] = select(below, x[c][kv] - l[kv] * xk, x[c][kv]);
#pragma GCC unroll 8
            for (int v = kv + 1; v < V; ++v) x[c][v] = x[c][v] - l[v] * xk;
        }
    }
    store_panel_columns<T, NC>(B, k0, j, x);
}
// x := inv(U11) x, U11 the upper triangle at (k0, k0) (divisions by its diagonal, as xTRSM).
template <class T, int NC> inline void panel_solve_upper(const planes<T> &U, const planes<T> &B, int k0, int j) {
    constexpr int W = blocked_tile<T>::W, V = panel_vectors<T>();
    using E = lanes_of<T, W>;
    using R = real_t<T>;
    E x[NC][V];
    load_panel_columns<T, NC>(B, k0, j, x);
#pragma GCC unroll 16
    for (int k = lu_panel - 1; k >= 0; --k) {
        const int kv = k / W;
        const auto at_k = lane_index<R, W>(k % W) == lane_ordinals<R, W>();
        const auto above = lane_index<R, W>(k % W) > lane_ordinals<R, W>();  // rows before k in vector kv
        const T d = U.get(k0 + k, k0 + k);
        E u[V];
#pragma GCC unroll 8
        for (int v = 0; v <= kv; ++v) u[v] = U.template load<W>(k0 + v * W, k0 + k);
#pragma GCC unroll 8
        for (int c = 0; c < NC; ++c) {
            const E xk = broadcast<R, W>(lane(x[c][kv], k % W) / d);
            x[c][kv] = select(at_k, xk, select(above, x[c][kv] - u[kv] * xk, x[c][kv]));
#pragma GCC unroll 8
            for (int v = 0; v < kv; ++v) x[c][v] = x[c][v] - u[v] * xk;
        }
    }
    store_panel_columns<T, NC>(B, k0, j, x);
}
// The scalar loops of the same solves on rows [k0, k1), columns [j0, j1): a last partial block, and the instruction
// sets whose registers would not hold a panel's column and its operand (SSE2 and NEON in double complex).
template <class T>
inline void block_solve_lower_unit(const planes<T> &L, const planes<T> &B, int k0, int k1, int j0, int j1) {
    for (int j = j0; j < j1; ++j)
        for (int k = k0; k < k1; ++k) {
            const T x = B.get(k, j);
            for (int i = k + 1; i < k1; ++i) B.set(i, j, B.get(i, j) - L.get(i, k) * x);
        }
}
template <class T>
inline void block_solve_upper(const planes<T> &U, const planes<T> &B, int k0, int k1, int j0, int j1) {
    for (int j = j0; j < j1; ++j)
        for (int k = k1 - 1; k >= k0; --k) {
            const T x = B.get(k, j) / U.get(k, k);
            B.set(k, j, x);
            for (int i = k0; i < k; ++i) B.set(i, j, B.get(i, j) - U.get(i, k) * x);
        }
}
// Columns a register solve takes at once: the most (a power of two up to the tile width NR, which divides the padded
// column count) whose vectors and the shared operand column fit the registers; 0: none fit, the scalar loops.
template <class T> constexpr int panel_solve_width() {
    constexpr int registers = vector_bytes == 64 ? 32 : 16;
    constexpr int column = panel_vectors<T>() * (blocked_tile<T>::cplx ? 2 : 1);  // a column's vector registers
    for (int c = blocked_tile<T>::NR; c > 1; c /= 2)
        if ((c + 1) * column <= registers) return c;
    return column + (blocked_tile<T>::cplx ? 2 : 1) <= registers ? 1 : 0;
}
// One of the above on the whole panel of rows at k0, columns [j0, j1) (multiples of NR: the padded copy's columns);
// out of line (one copy per precision and instruction set, not one per caller: the unrolled solves are long code).
template <class T, bool Upper>
SMALLLA_SHARED_STEP void panel_solve(const planes<T> &F, const planes<T> &B, int k0, int j0, int j1) {
    constexpr int NC = panel_solve_width<T>();
    if constexpr (NC == 0) {
        if constexpr (Upper) block_solve_upper(F, B, k0, k0 + lu_panel, j0, j1);
        else block_solve_lower_unit(F, B, k0, k0 + lu_panel, j0, j1);
    } else {
        for (int j = j0; j < j1; j += NC)
            if constexpr (Upper) panel_solve_upper<T, NC>(F, B, k0, j);
            else panel_solve_lower_unit<T, NC>(F, B, k0, j);
    }
}

// C -= A B on rows [i0, i1) (whole panels of rows), columns [j0, j1) (multiples of NR), A's columns [k0, k1) in
// increasing order: tiles of the blocked form's width and of at most a panel's rows, so that none passes i1.
template <class T>
inline void subtract_product(const planes<T> &C, const planes<T> &A, const planes<T> &B, int i0, int i1, int j0,
                             int j1, int k0, int k1) {
    using S = blocked_tile<T>;
    constexpr int MR = S::MR < panel_vectors<T>() ? S::MR : panel_vectors<T>();
    lanes_of<T, S::W> acc[MR][S::NR];
    for (int s = j0; s < j1; s += S::NR)
        for (int i = i0; i < i1; i += MR * S::W) {
            tile_load(C, i, s, acc);
            tile_subtract_nn(A, B, i, s, k0, k1, acc);
            tile_store(C, i, s, acc);
        }
}
// C -= A B on one column strip [j, j + NR), the blocked form's tiles from row i0 that start before i1 (the last may
// pass i1).
template <class T>
inline void subtract_product_below(const planes<T> &C, const planes<T> &A, const planes<T> &B, int i0, int i1, int j,
                                   int k0, int k1) {
    using S = blocked_tile<T>;
    lanes_of<T, S::W> acc[S::MR][S::NR];
    for (int i = i0; i < i1; i += S::rows) {
        tile_load(C, i, j, acc);
        tile_subtract_nn(A, B, i, j, k0, k1, acc);
        tile_store(C, i, j, acc);
    }
}

// The row tiles [0, tiles) in chunks of whole tiles, nearly equal, whose lu_outer columns fill at most about
// lu_chunk_bytes: body(t0, t1) per chunk, in order.
template <class T, class F> inline void for_each_row_chunk(int tiles, const F &body) {
    if (tiles <= 0) return;
    constexpr long tile_bytes = (long)blocked_tile<T>::rows * lu_outer * sizeof(T);
    constexpr int most = lu_chunk_bytes / tile_bytes > 0 ? (int)(lu_chunk_bytes / tile_bytes) : 1;
    const int chunks = (tiles + most - 1) / most, chunk = (tiles + chunks - 1) / chunks;
    for (int t0 = 0; t0 < tiles; t0 += chunk) body(t0, t0 + chunk < tiles ? t0 + chunk : tiles);
}
// The strips x0, x0 + step, ... < x1 as body(s0, s1) on ranges [s0, s1) of them: the whole range, or (team) one
// contiguous range a thread, nearly equal, so that a thread keeps the same columns from one call to the next.
template <class F> inline void for_each_strip_range(bool team, int x0, int x1, int step, const F &body) {
    if (!team) {
        if (x0 < x1) body(x0, x1);
        return;
    }
#pragma omp parallel
    {
        const int strips = (x1 - x0 + step - 1) / step, threads = omp_get_num_threads(), t = omp_get_thread_num();
        const int first = (int)((long)strips * t / threads), last = (int)((long)strips * (t + 1) / threads);
        if (first < last) body(x0 + first * step, x0 + last * step < x1 ? x0 + last * step : x1);
    }
}

// LU of the padded copy A (order n), in place. ipiv (Pivoting) receives the 1-based pivots; returns LAPACK's info
// (the first zero pivot; a zero pivot does not stop the factorization and leaves its column unscaled).
// Outer blocks of lu_outer columns: a block's panels update only the block's columns; the columns right of it then
// get, a strip at a time, the block's interchanges, U12 (a panel of rows at a time) and one A22 update of depth
// lu_outer, so that A22 is walked once a block, not once a panel. Each element sees the same operations in the same
// order as with one update a panel (the updates of a tile accumulate in increasing k either way): the results are
// bitwise the same, and the same with team (the updates' rows or column strips spread over the threads).
template <bool Pivoting, class T> inline int blocked_lu(const planes<T> &A, int n, int cols, int *ipiv, bool team) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    using R = real_t<T>;
    constexpr int MR = S::MR, NR = S::NR, ROWS = S::rows;
    int info = 0;
    for (int b0 = 0; b0 < n; b0 += lu_outer) {
        const int b1 = n - b0 < lu_outer ? n : b0 + lu_outer;
        const int block_end = b1 == n ? cols : b1;  // the block's columns (the last one's padding too: whole tiles)
        for (int k0 = b0; k0 < b1; k0 += lu_panel) {
            const int k1 = b1 - k0 < lu_panel ? b1 : k0 + lu_panel;
            for (int k = k0; k < k1; ++k) {
                if constexpr (Pivoting) {
                    const int p = first_max_position(k, n, [&](int i) { return A.get(i, k); });
                    ipiv[k] = p + 1;
                    swap_rows(A, ipiv, k, k + 1, k0, k1);  // the panel's columns now (p != k only for a nonzero pivot)
                }
                const T pivot = A.get(k, k);
                if (is_zero(pivot)) {
                    if (info == 0) info = k + 1;
                } else if (!below_sfmin(pivot)) {
                    const T r = T(R(1)) / pivot;
                    for (int i = k + 1; i < n; ++i) A.set(i, k, A.get(i, k) * r);
                } else {
                    for (int i = k + 1; i < n; ++i) A.set(i, k, A.get(i, k) / pivot);
                }
                for (int j = k + 1; j < k1; ++j) column_axpy(A, j, k, A.get(k, j), k + 1, n);
            }
            if constexpr (Pivoting) {  // the rest of the block's rows: its columns left and right of the panel
                swap_rows(A, ipiv, k0, k1, b0, k0);
                swap_rows(A, ipiv, k0, k1, k1, b1);
            }
            if (k1 == b1) break;
            // The block's columns right of the panel: U12 = inv(L11) A12, then A22 -= L21 U12 (rows by the team).
            panel_solve<T, false>(A, A, k0, k1, block_end);
            if (team) {
                for_each_strip(true, k1, n, ROWS, [&](int i) {
                    E acc[MR][NR];
                    for (int s = k1; s < block_end; s += NR) {
                        tile_load(A, i, s, acc);
                        tile_subtract_nn(A, A, i, s, k0, k1, acc);
                        tile_store(A, i, s, acc);
                    }
                });
            } else {  // column strips outermost (rows outermost took 1.05-1.12x the time at 48-128)
                for (int s = k1; s < block_end; s += NR) subtract_product_below(A, A, A, k1, n, s, k0, k1);
            }
        }
        if constexpr (Pivoting) swap_rows(A, ipiv, b0, b1, 0, b0);  // the block's interchanges left of it
        if (b1 == n) break;
        // The columns right of the block in strips of NR (a range of strips a thread of the team): each strip's
        // interchanges and U12 = inv(L11) A12 a panel of rows at a time; then A22 -= L21 U12 on the range by chunks
        // of rows, each chunk of L21 over every strip of the range before the next.
        for_each_strip_range(team, b1, cols, NR, [&](int s0, int s1) {
            for (int s = s0; s < s1; s += NR) {
                if constexpr (Pivoting) swap_rows(A, ipiv, b0, b1, s, s + NR < n ? s + NR : n);
                for (int k0 = b0; k0 < b1; k0 += lu_panel) {
                    panel_solve<T, false>(A, A, k0, s, s + NR);
                    subtract_product(A, A, A, k0 + lu_panel, b1, s, s + NR, k0, k0 + lu_panel);
                }
            }
            for_each_row_chunk<T>((n - b1 + ROWS - 1) / ROWS, [&](int t0, int t1) {
                for (int s = s0; s < s1; s += NR)
                    subtract_product_below(A, A, A, b1 + t0 * ROWS, b1 + t1 * ROWS, s, b0, b1);
            });
        });
    }
    return info;
}

// The padded shape of the LU form's copies: blocked_layout's with a whole tile of rows in front of row 0, so that
// the upper solve's tiles, which end at a block's first row, may start above row 0.
template <class T> struct lu_layout : blocked_layout<T> {
    explicit lu_layout(int n) : blocked_layout<T>(n, blocked_tile<T>::rows) {}
};
// Scratch of `copies` such copies (64-byte aligned) and n ints for each of `sets` threads (a team shares one set).
// Not zeroed here: load_square and blocked_lu_inverse write all of a copy before it is read (zeroing megabytes a
// call cost up to a third of the time of a team's factorization at n = 512).
template <class T> struct lu_scratch {
    using R = real_t<T>;
    lu_layout<T> shape;
    long each;
    std::unique_ptr<R[]> data;
    std::unique_ptr<int[]> ints;
    lu_scratch(int n, int copies, int sets)
        : shape(n), each(shape.reals * copies + 64), data(new R[(size_t)each * sets + 64]),
          ints(new int[(size_t)n * sets]) {}
    R *operator[](int thread) {
        R *p = data.get() + (long)thread * each;
        return p + ((64 - (reinterpret_cast<unsigned long>(p) & 63)) & 63) / sizeof(R);
    }
    int *pivots(int thread) { return ints.get() + (long)thread * shape.n; }
};

// Copies between a user matrix (leading dimension ld) and the padded planes, all n columns (team: columns spread over
// the threads). The padding is zeroed on load, so that its junk stays zero (no overflow or subnormal operands from a
// previous matrix's leftovers).
template <class T>
inline void load_square(const lu_layout<T> &s, const planes<T> &A, const T *m, long ld, bool team) {
    using R = real_t<T>;
    constexpr long front = blocked_tile<T>::rows;
    const int n = s.n;
    for_each_strip(team, 0, s.cols, 1, [&](int j) {
        for (int part = 0; part < (planes<T>::cplx ? 2 : 1); ++part) {
            R *col = A.at(-front, j) + part * A.im;
            if (j < n) {
                std::memset(col, 0, sizeof(R) * front);
                std::memset(col + front + n, 0, sizeof(R) * (s.ld - front - n));
            } else {
                std::memset(col, 0, sizeof(R) * s.ld);
            }
        }
        if (j >= n) return;
        const T *__restrict src = m + j * ld;
        R *__restrict re = A.at(0, j);
        if constexpr (planes<T>::cplx) {
            R *__restrict im = re + A.im;
            for (int i = 0; i < n; ++i) re[i] = src[i].re, im[i] = src[i].im;
        } else {
            std::memcpy(re, src, sizeof(T) * n);
        }
    });
}
// column: where column j goes (nullptr: j).
template <class T>
inline void store_square(int n, T *m, long ld, const planes<T> &A, const int *column, bool team) {
    using R = real_t<T>;
    for_each_strip(team, 0, n, 1, [&](int j) {
        T *__restrict dst = m + (column ? column[j] : j) * ld;
        const R *__restrict re = A.at(0, j);
        if constexpr (planes<T>::cplx) {
            const R *__restrict im = re + A.im;
            for (int i = 0; i < n; ++i) dst[i] = T(re[i], im[i]);
        } else {
            std::memcpy(dst, re, sizeof(T) * n);
        }
    });
}

// B := inv(L) B (L unit lower, the factors' strict lower part) for the first n columns of B, B lower triangular
// (the identity at first): a column's rows above its own index stay zero and are skipped. In outer blocks of rows
// as blocked_lu: a panel updates the block's rows below it, the rows below the block get the whole block at once
// (the same operations in the same order as one update a panel). Columns are independent: team spreads strips.
template <class T> inline void solve_lower_unit(const planes<T> &L, const planes<T> &B, int n, int cols, bool team) {
    using S = blocked_tile<T>;
    for (int b0 = 0; b0 < n; b0 += lu_outer) {
        const int b1 = n - b0 < lu_outer ? n : b0 + lu_outer;
        for (int k0 = b0; k0 < b1; k0 += lu_panel) {
            const int k1 = b1 - k0 < lu_panel ? b1 : k0 + lu_panel;
            // Columns left of the block in registers where the block is a whole panel; the block's own columns
            // (zero above their diagonal, where no operation is done) and a last partial block by the scalar loops.
            const int vector_end = k1 - k0 == lu_panel ? k0 : 0;
            if (team)
                for_each_strip(true, 0, vector_end, S::NR,
                               [&](int s) { panel_solve<T, false>(L, B, k0, s, s + S::NR); });
            else
                panel_solve<T, false>(L, B, k0, 0, vector_end);
            for (int j = vector_end; j < k1; ++j)
                for (int k = k0 > j ? k0 : j; k < k1; ++k) {
                    const T x = B.get(k, j);
                    for (int i = k + 1; i < k1; ++i) B.set(i, j, B.get(i, j) - L.get(i, k) * x);
                }
            const int strips_end = k1 < cols ? k1 : cols;
            if (b1 < n)
                for_each_strip(team, 0, strips_end, S::NR,
                               [&](int s) { subtract_product(B, L, B, k1, b1, s, s + S::NR, k0, k1); });
            else
                for_each_strip(team, 0, strips_end, S::NR,
                               [&](int s) { subtract_product_below(B, L, B, k1, n, s, k0, k1); });
        }
        if (b1 == n) break;
        // The rows below the block, by chunks of rows over a range of strips: a column gets the block's panels that
        // end after it.
        for_each_strip_range(team, 0, b1, S::NR, [&](int s0, int s1) {
            for_each_row_chunk<T>((n - b1 + S::rows - 1) / S::rows, [&](int t0, int t1) {
                for (int s = s0; s < s1; s += S::NR)
                    subtract_product_below(B, L, B, b1 + t0 * S::rows, b1 + t1 * S::rows, s,
                                           s < b0 ? b0 : s / lu_panel * lu_panel, b1);
            });
        });
    }
}
// B := inv(U) B (U upper, the factors' upper part; no zero on its diagonal), outer blocks of rows from the last and
// their panels from the last: a panel updates the block's rows above it, the rows above the block get the block's
// panels in the same order, by tiles that end at the block's first row. team spreads column strips.
template <class T> inline void solve_upper(const planes<T> &U, const planes<T> &B, int n, int cols, bool team) {
    using S = blocked_tile<T>;
    using E = lanes_of<T, S::W>;
    for (int b0 = (n - 1) / lu_outer * lu_outer; b0 >= 0; b0 -= lu_outer) {
        const int b1 = n - b0 < lu_outer ? n : b0 + lu_outer;
        const int last = (b1 - 1) / lu_panel * lu_panel;  // the block's last panel
        for (int k0 = last; k0 >= b0; k0 -= lu_panel) {
            const int k1 = b1 - k0 < lu_panel ? b1 : k0 + lu_panel;
            if (k1 - k0 != lu_panel)
                block_solve_upper(U, B, k0, k1, 0, n);
            else if (team)
                for_each_strip(true, 0, cols, S::NR, [&](int s) { panel_solve<T, true>(U, B, k0, s, s + S::NR); });
            else
                panel_solve<T, true>(U, B, k0, 0, cols);
            for_each_strip(team, 0, cols, S::NR,
                           [&](int s) { subtract_product(B, U, B, b0, k0, s, s + S::NR, k0, k1); });
        }
        // The rows above the block, by chunks of row tiles over a range of strips (tile t ends where tile t - 1
        // starts, tile 0 at b0).
        for_each_strip_range(team, 0, cols, S::NR, [&](int s0, int s1) {
            for_each_row_chunk<T>((b0 + S::rows - 1) / S::rows, [&](int t0, int t1) {
                for (int s = s0; s < s1; s += S::NR) {
                    E acc[S::MR][S::NR];
                    for (int t = t0; t < t1; ++t) {
                        const int i = b0 - (t + 1) * S::rows;
                        tile_load(B, i, s, acc);
                        for (int k0 = last; k0 >= b0; k0 -= lu_panel)
                            tile_subtract_nn(U, B, i, s, k0, b1 - k0 < lu_panel ? b1 : k0 + lu_panel, acc);
                        tile_store(B, i, s, acc);
                    }
                }
            });
        });
    }
}
// X := inv(U) inv(L) from the factors F (the identity, then the two solves); inv(A) = X P. perm[i]: the column of
// inv(A) that X's column i is (P A = L U; ipiv 1-based or nullptr, entries outside 1..n ignored as lu_host.hpp's
// lu_inverse does).
template <class T>
inline void blocked_lu_inverse(const lu_layout<T> &s, const planes<T> &F, const planes<T> &X, const int *ipiv,
                               int *perm, bool team) {
    const int n = s.n;
    std::memset(X.p - blocked_tile<T>::rows, 0, sizeof(real_t<T>) * s.reals);
    for (int i = 0; i < n; ++i) perm[i] = i;
    if (ipiv != nullptr)
        for (int k = 0; k < n; ++k) {
            const int p = ipiv[k] - 1;
            if (p != k && p >= 0 && p < n) std::swap(perm[k], perm[p]);
        }
    for (int i = 0; i < n; ++i) X.set(i, i, T(real_t<T>(1)));
    solve_lower_unit(F, X, n, s.cols, team);
    solve_upper(F, X, n, s.cols, team);
}

// ---- the batch drivers -----------------------------------------------------------------------------------------
template <class T, class Batch> void getrf_blocked(int n, const Batch &A, pivot_batch<int> P, int *info, int batch) {
    const bool pivoting = P.base != nullptr, team = team_of_threads(n, batch, lu_team_min_order);
    lu_scratch<T> work(n, 1, team ? 1 : omp_get_max_threads());
    const lu_layout<T> &s = work.shape;
    for_each_blocked_matrix<T>(team, batch, 2.0 / 3.0 * cube(n), [&](int b, int thread) {
        const planes<T> F = s.at(work[thread]);
        T *m = A[b];
        load_square(s, F, m, A.ld, team);
        info[b] = pivoting ? blocked_lu<true>(F, n, s.cols, P[b], team)
                           : blocked_lu<false>(F, n, s.cols, nullptr, team);
        store_square(n, m, A.ld, F, nullptr, team);
    });
}
// getri: C receives the factors where U has a zero on its diagonal (as the unblocked form).
template <class T, class BatchA, class BatchC>
void getri_blocked(int n, const BatchA &A, pivot_batch<const int> P, const BatchC &C, int *info, int batch) {
    const bool team = team_of_threads(n, batch, lu_team_min_order);
    lu_scratch<T> work(n, 2, team ? 1 : omp_get_max_threads());
    const lu_layout<T> &s = work.shape;
    for_each_blocked_matrix<T>(team, batch, 4.0 / 3.0 * cube(n), [&](int b, int thread) {
        const planes<T> F = s.at(work[thread]), X = s.at(work[thread] + s.reals);
        load_square(s, F, A[b], A.ld, team);
        int inf = 0;
        for (int j = 0; j < n && inf == 0; ++j)
            if (is_zero(F.get(j, j))) inf = j + 1;
        int *perm = work.pivots(thread);
        if (inf == 0) blocked_lu_inverse(s, F, X, P[b], perm, team);
        store_square(n, C[b], C.ld, inf == 0 ? X : F, inf == 0 ? perm : nullptr, team);
        info[b] = inf;
    });
}
// matinv: C receives the factors where U is singular.
template <class T, class BatchA, class BatchC>
void matinv_blocked(int n, const BatchA &A, const BatchC &C, int *info, int batch) {
    const bool team = team_of_threads(n, batch, lu_team_min_order);
    lu_scratch<T> work(n, 2, team ? 1 : omp_get_max_threads());
    const lu_layout<T> &s = work.shape;
    per_thread_scratch<int> pivots(n);
    for_each_blocked_matrix<T>(team, batch, 2.0 * cube(n), [&](int b, int thread) {
        const planes<T> F = s.at(work[thread]), X = s.at(work[thread] + s.reals);
        load_square(s, F, A[b], A.ld, team);
        int *piv = pivots[thread];
        const int inf = blocked_lu<true>(F, n, s.cols, piv, team);
        int *perm = work.pivots(thread);
        if (inf == 0) blocked_lu_inverse(s, F, X, piv, perm, team);
        store_square(n, C[b], C.ld, inf == 0 ? X : F, inf == 0 ? perm : nullptr, team);
        info[b] = inf;
    });
}

// The routines' entries (lib/host/dispatch.hpp calls the baseline copy's, lib/host/isa/blocked_isa.cpp the wider
// instruction sets'); ipiv == NULL: getrf without pivoting.
template <class T> void blocked_getrf(const getrf_args<T> &a) {
    getrf_blocked<T>(a.n, a.A.either(), a.ipiv, a.info, a.batch);
}
template <class T> void blocked_getri(const getri_args<T> &a) {
    getri_blocked<T>(a.n, a.A.either(), a.ipiv, a.C.either(), a.info, a.batch);
}
template <class T> void blocked_matinv(const matinv_args<T> &a) {
    matinv_blocked<T>(a.n, a.A.either(), a.C.either(), a.info, a.batch);
}

}  // namespace SMALLLA_HOST_ISA
}  // namespace host_kernels
}  // namespace smallla
