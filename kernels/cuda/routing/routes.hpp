// The CUDA backend's routing tables: which kernel family serves a call (routine, precision, order, batch) and
// which register caps the kernels are compiled with. The tables are data, one per GPU architecture (sm90.def;
// generic.def for every other GPU); the dispatch (lib/cuda/dispatch.cuh) reads the routes at run time, the kernels
// read the caps at compile time, and perf/cuda/tune_routing.py rebuilds a table from a sweep. A kernel instance
// is compiled only where some table routes to it (or in a measurement build, SMALLLA_TUNING, everywhere it exists).
#pragma once

#include <cstddef>

namespace smallla {
namespace cuda_kernels {

enum class routine : unsigned char { getrf, getrf_nopiv, getrs, getri, matinv, potrf, potrs, posv, potri, poinv };
// The Cholesky family (chol.cuh) has lane (n <= 32), panels (potrf, posv; n <= 1024), blocked (potrf, posv; potrs,
// posv's solve and potri by cuBLAS's TRSM; poinv as potrf and potri are routed, on C), one_block (one block a
// matrix: potrf, posv's factorization, potri, poinv; potrs: a warp per right-hand side), block_registers (potrf,
// posv; n <= 128), and vendor and vendor_batched (potrf, posv: cuSOLVER's potrf on each matrix, or its batched potrf).
constexpr bool is_cholesky(routine r) { return r >= routine::potrf; }

// The kernel families. Each family exists only for some orders (family_exists, below).
enum class family : unsigned char {
    thread,       // a whole matrix per thread (lu_thread.cuh, chol_thread.cuh), the smallest orders
    lane,         // a row per lane of a warp, the steps unrolled (lu_registers.cuh; chol.cuh), n <= 32
    lane_rolled,  // matinv: the same, the Gauss-Jordan sweep rolled by 8 steps (less code)
    two_rows,     // getrf and matinv: two rows per lane (more matrices per warp), n = 11-12 (float), 17-20
    prefetch,     // getrs: persistent lane kernel copying the next matrix ahead, n = 17-32
    two_warps,    // getrf: a row per thread over two warps (lu_two_warps.cu), n = 33-64
    columns,      // getri: a thread per column of the inverse (getri_columns.cuh), n = 21-64; matinv: getrf, then it
    blocked,      // panels and cuBLAS's batched GEMM (lu_blocked.cuh), n <= 512; potrf and posv: cuBLAS's GEMM and a
                  // step kernel per 32 columns (chol.cuh), any n
    large,        // the blocked LU with each panel over a thread-block cluster (sm_90 only) and cuBLAS's TRSM for
                  // getri and getrs (lu_blocked.cuh), n <= 8192; getrf at n <= 512: the blocked path in outer blocks
                  // (cuBLAS's TRSM and one GEMM of depth 128 right of each)
    one_block,    // one thread block per matrix (lu_general.cuh, chol.cuh; getrs: a warp per right-hand side), any n
    panels,       // potrf and posv: the fused left-looking kernel, a launch per panel of 8 columns (chol.cuh), n <= 1024
    vendor,       // cuSOLVER's single-matrix routines on each matrix, over side streams (lib/cuda/vendor.cuh): potrf
                  // and posv's factorization; LU in measurement builds only (its pivots are not LAPACK's on exact
                  // ties and NaN; perf/NOTES.md, "Large orders")
    vendor_batched,  // cuSOLVER's batched potrf (potrf, posv's factorization), at batches too small for the blocked
                     // Cholesky and too large for the vendor loop (lib/cuda/vendor.cuh)
    wide,         // getrf (and matinv's factorization): blocked with panels twice as wide (lu_blocked.cuh), half the
                  // launches where a few matrices leave them the cost; double complex, n <= 256
    block_registers,  // potrf and posv's factorization: one block a matrix, the lower form in registers, a column a
                      // step (chol.cuh), n <= 128: the shortest chain for a few matrices
};
// The families' names, in the enum's order (SMALLLA_ROUTE's overrides, smallla-route-info).
constexpr const char *family_names[] = {"thread",    "lane",    "lane_rolled", "two_rows", "prefetch",  "two_warps",
                                        "columns",   "blocked", "large",       "one_block", "panels",   "vendor",
                                        "vendor_batched", "wide",  "block_registers"};
constexpr int family_count = sizeof(family_names) / sizeof(family_names[0]);
static_assert(family_count == (int)family::block_registers + 1, "family_names must name every family");
constexpr const char *routine_names[] = {"getrf", "getrf_nopiv", "getrs", "getri", "matinv",
                                         "potrf", "potrs",       "posv",  "potri", "poinv"};
constexpr int routine_count = sizeof(routine_names) / sizeof(routine_names[0]);
static_assert(routine_count == (int)routine::poinv + 1, "routine_names must name every routine");

// Where each family exists (its kernels compile without spilling, or its algorithm applies): the orders a
// table may route to it. Thread kernels: their getrf, matinv and getrs fit in 255 registers up to these orders
// (getri's, which holds more, to fewer); lane kernels of getri: double complex beyond 27 spills.
constexpr int thread_max_order(char p) { return p == 's' ? 14 : p == 'd' ? 9 : p == 'c' ? 8 : 5; }
constexpr int thread_getri_max_order(char p) { return p == 's' ? 8 : p == 'd' ? 2 : p == 'c' ? 5 : 4; }
// Cholesky thread kernels (chol_thread.cuh): the lower form fits in registers without spilling to these orders.
constexpr int chol_thread_max_order(char p) { return p == 's' ? 16 : p == 'd' ? 14 : p == 'c' ? 12 : 10; }
constexpr int lane_max_order = 32;
constexpr int columns_min_order = 21, columns_step = 4;
constexpr int columns_max_order(char p) { return p == 'z' ? 48 : 64; }
constexpr int two_warps_min_order = 33, two_warps_max_order = 64;
constexpr int blocked_max_order = 512;
// The blocked getrf's row swaps left of each panel, deferred to one pass at the end from this order and batch (below
// them the pass cost more than the swaps it saved: perf/NOTES.md, "Large orders").
constexpr int deferred_swaps_min_order = 129, deferred_swaps_min_batch = 64;
constexpr int large_max_order = 8192;  // a panel's rows in one cluster of 16 blocks (lu_blocked.cuh)
// The wide panels: one row a thread, 32 double complex columns in registers (lu_blocked.cuh, wide_panel_width).
constexpr int wide_max_order = 256;
constexpr int block_registers_max_order = 128;  // four rows a lane (chol.cuh, chol_registers_kernel)
constexpr bool wide_exists(char p) { return p == 'z'; }
constexpr bool two_rows_exist(char p, int n) { return (n >= 17 && n <= 20 && p != 'z') || (p == 's' && (n == 11 || n == 12)); }
constexpr bool family_exists(routine r, family f, char p, int n) {
    if (is_cholesky(r))
        return n >= 1 && (f == family::one_block || (f == family::lane && n <= lane_max_order) ||
                          (f == family::thread && n <= chol_thread_max_order(p)) ||
                          (((f == family::panels && n <= 1024) || f == family::vendor || f == family::vendor_batched ||
                            (f == family::block_registers && n <= block_registers_max_order)) &&
                           (r == routine::potrf || r == routine::posv)) ||
                          f == family::blocked);
    const bool factor = r == routine::getrf || r == routine::getrf_nopiv;
    switch (f) {
    case family::thread: return n >= 1 && n <= (r == routine::getri ? thread_getri_max_order(p) : thread_max_order(p));
    case family::lane: return n >= 1 && n <= lane_max_order && !(r == routine::getri && p == 'z' && n > 27);
    case family::lane_rolled: return r == routine::matinv && n > 8 && n <= lane_max_order;
    case family::two_rows: return (factor || r == routine::matinv) && two_rows_exist(p, n);
    case family::prefetch: return r == routine::getrs && n >= 17 && n <= lane_max_order;
    case family::two_warps: return factor && n >= two_warps_min_order && n <= two_warps_max_order;
    case family::columns:
        return (r == routine::getri || r == routine::matinv) && n >= columns_min_order && n <= columns_max_order(p);
    case family::blocked: return r != routine::getrs && n >= 1 && n <= blocked_max_order;
    case family::large: return n >= 1 && n <= large_max_order;
    case family::one_block: return n >= 1;
    case family::panels: return false;
#if defined(SMALLLA_TUNING)
    case family::vendor: return n >= 1;  // a measurement build's (lib/cuda/vendor.cuh: not LAPACK's pivots on ties)
#else
    case family::vendor: return false;
#endif
    case family::vendor_batched: return false;
    case family::wide: return factor && wide_exists(p) && n > lane_max_order && n <= wide_max_order;
    case family::block_registers: return false;
    }
    return false;
}

struct route_entry {
    routine r;
    const char *precisions;  // among "sdcz"
    int n_from, n_to;
    long long batch_to;  // 0: any batch
    family f;
};
struct cap_entry {
    routine r;
    family f;
    char precision;
    int n;
    int min_blocks;  // resident blocks per multiprocessor asked of ptxas
};

constexpr bool has_precision(const char *precisions, char p) {
    for (; *precisions != '\0'; ++precisions)
        if (*precisions == p) return true;
    return false;
}

#define SMALLLA_ROUTE(r, p, n0, n1, b, f) {routine::r, #p, n0, n1, b, family::f},
#define SMALLLA_CAP(r, f, p, n, blocks)
constexpr route_entry sm90_routes[] = {
#include "sm90.def"
};
constexpr route_entry generic_routes[] = {
#include "generic.def"
};
#undef SMALLLA_ROUTE
#undef SMALLLA_CAP
#define SMALLLA_ROUTE(r, p, n0, n1, b, f)
#define SMALLLA_CAP(r, f, p, n, blocks) {routine::r, family::f, (#p)[0], n, blocks},
constexpr cap_entry sm90_caps[] = {
#include "sm90.def"
};
#undef SMALLLA_ROUTE
#undef SMALLLA_CAP

// Every entry routes only to a family that exists at each of its orders and precisions (checked up to the orders
// where nothing depends on n any more).
template <std::size_t K> constexpr bool table_is_valid(const route_entry (&t)[K]) {
    for (std::size_t i = 0; i < K; ++i)
        for (const char *p = t[i].precisions; *p != '\0'; ++p)
            for (int n = t[i].n_from; n <= t[i].n_to && n <= blocked_max_order + 1; ++n)
                if (!family_exists(t[i].r, t[i].f, *p, n)) return false;
    return true;
}
static_assert(table_is_valid(sm90_routes), "sm90.def routes to a kernel family where it does not exist");
static_assert(table_is_valid(generic_routes), "generic.def routes to a kernel family where it does not exist");

// A routing table as the dispatch holds it.
struct route_table {
    const char *name;
    const route_entry *entries;
    std::size_t count;
};
constexpr route_table sm90_table{"sm90", sm90_routes, sizeof(sm90_routes) / sizeof(sm90_routes[0])};
constexpr route_table generic_table{"generic", generic_routes, sizeof(generic_routes) / sizeof(generic_routes[0])};

// The table of a device of compute capability major.minor.
constexpr const route_table &table_for_device(int major, int minor) {
    return major == 9 && minor == 0 ? sm90_table : generic_table;
}

// The first entry of the table that serves the call; one_block when none does (every table ends with it).
constexpr family find_route(const route_table &t, routine r, char precision, int n, long long batch) {
    for (std::size_t i = 0; i < t.count; ++i) {
        const route_entry &e = t.entries[i];
        if (e.r == r && n >= e.n_from && n <= e.n_to && (e.batch_to == 0 || batch <= e.batch_to) &&
            has_precision(e.precisions, precision))
            return e.f;
    }
    return family::one_block;
}

// Whether some table routes (r, precision, n), for some batch, to f: the kernel instances compiled.
template <std::size_t K>
constexpr bool routes_to(const route_entry (&t)[K], routine r, char precision, int n, family f) {
    // Batch limits only split an order between families, so every entry that matches the order is reachable
    // unless an earlier entry without a batch limit took the order already.
    for (std::size_t i = 0; i < K; ++i) {
        const route_entry &e = t[i];
        if (e.r != r || n < e.n_from || n > e.n_to || !has_precision(e.precisions, precision)) continue;
        if (e.f == f) return true;
        if (e.batch_to == 0) return false;
    }
    return false;
}
constexpr bool routed(routine r, char precision, int n, family f) {
#if defined(SMALLLA_TUNING)
    (void)r, (void)precision, (void)n, (void)f;
    return true;  // a measurement build compiles every instance that exists
#else
    return routes_to(sm90_routes, r, precision, n, f) || routes_to(generic_routes, r, precision, n, f);
#endif
}

// Whether the table of the architecture this device code is compiled for routes (r, precision, n), for some batch,
// to f (the host pass and measurement builds: routed). A kernel instance that only another architecture's table takes
// keeps no machine code here (lu_two_warps.cu; its launch is never made on this architecture).
constexpr bool routed_on_this_architecture(routine r, char precision, int n, family f) {
#if defined(SMALLLA_TUNING) || !defined(__CUDA_ARCH__)
    return routed(r, precision, n, f);
#elif __CUDA_ARCH__ == 900
    return routes_to(sm90_routes, r, precision, n, f);
#else
    return routes_to(generic_routes, r, precision, n, f);
#endif
}

// The register cap of one kernel instance: sm90's table in code compiled for sm_90, none elsewhere (the host
// pass and other architectures), since a cap is measured on one architecture.
constexpr int min_blocks_of(routine r, family f, char precision, int n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900
    for (const cap_entry &c : sm90_caps)
        if (c.r == r && c.f == f && c.precision == precision && c.n == n) return c.min_blocks;
#else
    (void)r, (void)f, (void)precision, (void)n;
#endif
    return 0;
}

}  // namespace cuda_kernels
}  // namespace smallla
