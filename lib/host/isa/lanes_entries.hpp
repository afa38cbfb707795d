// The lanes forms of the wider instruction sets (the LU and Cholesky families'; r: potrf or potri for potrf_args):
// lanes_isa.cpp compiled once per instruction set and precision (lib/CMakeLists.txt) defines run_lanes in
// host::isa_avx2 and host::isa_avx512; the dispatch calls them where
// the handle's instruction set routes a call to the lanes form (lib/host/dispatch.hpp), and run_any, getrs's in-place
// form of any order, where it routes to any_wide. blocked_isa.cpp likewise
// defines run_blocked, the Cholesky and LU families' blocked forms (r: potrf or potri for potrf_args).
#pragma once

#include "common/args.hpp"
#include "host/routing.hpp"

namespace smallla {
namespace host {

#define SMALLLA_HOST_LANES_DECLS                                                                \
    template <class T> void run_lanes(const getrf_args<T> &a);                                  \
    template <class T> void run_lanes(const getri_args<T> &a);                                  \
    template <class T> void run_lanes(const matinv_args<T> &a);                                 \
    template <class T> void run_lanes(const getrs_args<T> &a);                                  \
    template <class T> void run_any(const getrs_args<T> &a);                                    \
    template <class T> void run_lanes(host_kernels::routine r, const potrf_args<T> &a);        \
    template <class T> void run_lanes(host_kernels::routine r, const posv_args<T> &a);         \
    template <class T> void run_lanes(host_kernels::routine r, const potrs_args<T> &a);        \
    template <class T> void run_lanes(host_kernels::routine r, const poinv_args<T> &a);        \
    template <class T> void run_blocked(host_kernels::routine r, const potrf_args<T> &a);       \
    template <class T> void run_blocked(host_kernels::routine r, const posv_args<T> &a);        \
    template <class T> void run_blocked(host_kernels::routine r, const potrs_args<T> &a);       \
    template <class T> void run_blocked(host_kernels::routine r, const poinv_args<T> &a);       \
    template <class T> void run_blocked(host_kernels::routine r, const getrf_args<T> &a);       \
    template <class T> void run_blocked(host_kernels::routine r, const getri_args<T> &a);       \
    template <class T> void run_blocked(host_kernels::routine r, const matinv_args<T> &a);
namespace isa_avx2 { SMALLLA_HOST_LANES_DECLS }
namespace isa_avx512 { SMALLLA_HOST_LANES_DECLS }
#undef SMALLLA_HOST_LANES_DECLS

}  // namespace host
}  // namespace smallla
