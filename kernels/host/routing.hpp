// The host backend's routing table (routing.def) and its vocabulary: which of the host kernel forms serves a call
// on a CPU of a given instruction set. The dispatch (lib/host/dispatch.hpp) reads it; a form is compiled for every
// order where the table routes to it.
#pragma once

#include <cstddef>

namespace smallla {
namespace host_kernels {

enum class routine : unsigned char { getrf, getrf_nopiv, getrs, getri, matinv, potrf, potrs, posv, potri, poinv };
enum class family : unsigned char { lanes, lanes_avx2, fixed, any, any_wide, blocked };
// The instruction sets the host kernels are compiled for (lib/host/isa/), in increasing order; a line of the table
// for one of them serves every CPU that has it. The handle holds the one chosen at smallla_create (lib/host/isa.cpp).
enum isa_level : int { base = 0, avx2 = 1, avx512 = 2 };
constexpr int isa_count = 3;

// Whether the baseline copy holds its per-order kernels (lanes to 16, fixed to 32, the Cholesky family's lanes):
// lib/CMakeLists.txt leaves them out of the CUDA build on x86-64, whose GPUs' host CPUs have AVX2.
#ifndef SMALLLA_HOST_BASELINE_KERNELS
#define SMALLLA_HOST_BASELINE_KERNELS 1
#endif

// Where each form exists: the orders it is instantiated for (the lanes form of the LU family's getrf, getri and
// matinv also beyond lanes_max_order, once for every order: lanes_any_n).
constexpr int lanes_max_order = 32;
constexpr int fixed_max_order = 32;
// A batch of fewer matrices than OpenMP threads, from these orders on: the blocked LU forms (getrf, getri, matinv)
// and the blocked potrf and posv take one matrix at a time, its updates spread over all threads (lu_blocked.hpp,
// chol_blocked.hpp), not a thread a matrix. (potrf's n^3 / 3 flops pay for the threads' barriers from 512: at 256
// the team took 1.1-1.4x the time of one thread in s and d.)
constexpr int lu_team_min_order = 256;
constexpr int chol_team_min_order = 512;
// getrs at any order: fewer solves (matrices times right-hand sides) than threads, from these orders on, each solve
// by all threads (lu_batch.hpp's lu_solve_team): where it measured faster than one thread (2 threads, perf/NOTES.md
// "Host backend": from where a matrix outgrows a core's L2).
constexpr int getrs_team_min_order(char precision) {
    return precision == 's' ? 896 : precision == 'd' ? 640 : precision == 'c' ? 512 : 384;
}
constexpr bool lanes_any_order(routine r) {
    return r == routine::getrf || r == routine::getrf_nopiv || r == routine::getri || r == routine::matinv;
}
constexpr bool family_exists(family f, int n) {
    return n >= 1 && (f == family::any || f == family::any_wide || f == family::blocked || f == family::lanes ||
                       n <= (f == family::lanes_avx2 ? lanes_max_order : fixed_max_order));
}

struct route_entry {
    routine r;
    const char *precisions;
    int isa;
    int n_from, n_to;
    family f;
};
#define SMALLLA_HOST_ROUTE(r, p, isa, n0, n1, f) {routine::r, #p, isa_level::isa, n0, n1, family::f},
constexpr route_entry routes[] = {
#include "routing.def"
};
#undef SMALLLA_HOST_ROUTE

constexpr bool has_precision(const char *precisions, char p) {
    for (; *precisions != '\0'; ++precisions)
        if (*precisions == p) return true;
    return false;
}
// The form that serves (r, precision, n) on a CPU of instruction set isa: the first line that matches.
constexpr family find_route(routine r, char precision, int isa, int n) {
    for (const route_entry &e : routes)
        if (e.r == r && e.isa <= isa && n >= e.n_from && n <= e.n_to && has_precision(e.precisions, precision))
            return e.f;
    return family::any;
}
// Whether the table routes (r, precision, n) to f on a CPU of instruction set isa.
constexpr bool routed(routine r, char precision, int isa, int n, family f) {
    return family_exists(f, n) && find_route(r, precision, isa, n) == f;
}
// Whether it does for some instruction set: the baseline code holds these forms (the others' lanes forms are
// compiled in their own files and called from there).
constexpr bool routed_anywhere(routine r, char precision, int n, family f) {
    for (int isa = 0; isa < isa_count; ++isa)
        if (routed(r, precision, isa, n, f)) return true;
    return false;
}
// Lanes of a group of the lanes form at a run-time order (beyond lanes_max_order) on instruction set isa, for
// real numbers of real_bytes: the widths that measured fastest at 33-64 (perf/NOTES.md, "Host backend"), 32-byte
// vectors in s and d, at most 8 lanes in c and z.
constexpr int lanes_any_width(int isa, int real_bytes, bool complex) {
    const int vector = isa == isa_level::avx512 ? 64 : isa == isa_level::avx2 ? 32 : 16;
    if (!complex) return (vector < 32 ? vector : 32) / real_bytes;
    return vector / real_bytes < 8 ? vector / real_bytes : 8;
}
// Whether the table routes (r, precision) to the lanes form beyond lanes_max_order on instruction set isa (a line's
// first order there): the run-time-order lanes form is compiled where it does.
constexpr bool routed_lanes_beyond(routine r, char precision, int isa) {
    for (const route_entry &e : routes)
        if (e.f == family::lanes && e.n_to > lanes_max_order &&
            find_route(r, precision, isa, e.n_from > lanes_max_order ? e.n_from : lanes_max_order + 1) == family::lanes)
            return true;
    return false;
}
// Every line routes to a form that exists at its orders (lanes beyond lanes_max_order: the LU family's getrf, getri
// and matinv); a lanes_avx2 line is an AVX-512 line, at orders where the
// AVX2 copy holds the lanes form; an any_wide line is getrs's on a wider instruction set (only its copies hold it).
constexpr bool table_is_valid() {
    for (const route_entry &e : routes) {
        if (e.f == family::any_wide && (e.r != routine::getrs || e.isa < isa_level::avx2)) return false;
        if (e.f == family::lanes && e.n_to > lanes_max_order && !lanes_any_order(e.r)) return false;
        for (int n = e.n_from; n <= e.n_to && n <= fixed_max_order + 1; ++n) {
            if (!family_exists(e.f, n)) return false;
            if (e.f == family::lanes_avx2)
                for (const char *p = e.precisions; *p != '\0'; ++p)
                    if (e.isa != isa_level::avx512 || find_route(e.r, *p, isa_level::avx2, n) != family::lanes)
                        return false;
        }
    }
    return true;
}
static_assert(table_is_valid(), "routing.def routes to a host form where it does not exist");

}  // namespace host_kernels
}  // namespace smallla
