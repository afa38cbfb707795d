// The lanes forms of the LU and Cholesky families for one wider instruction set and one precision, and getrs's
// in-place form (lanes_entries.hpp). lib/CMakeLists.txt compiles this file once per (instruction set, precision) with
// SMALLLA_HOST_ISA (the namespace of the copy), SMALLLA_HOST_ISA_LEVEL, SMALLLA_HOST_ISA_PRECISION (1-4: s, d, c, z)
// and the instruction set's flags.
#include "host/chol_batch.hpp"
#include "host/lu_batch.hpp"
#include "lanes_entries.hpp"

namespace smallla {
namespace host {
namespace SMALLLA_HOST_ISA {

using namespace host_kernels;

template <class T> void run_lanes(const getrf_args<T> &a) {
    constexpr char P = scalar_traits<T>::letter;
    if (a.ipiv.base != nullptr)
        with_lanes_route<routine::getrf, P>(a.n, [&](auto size) {
            getrf_batch<true, T>(size, a.A.either(), a.ipiv, a.info, a.batch);
        });
    else
        with_lanes_route<routine::getrf_nopiv, P>(a.n, [&](auto size) {
            getrf_batch<false, T>(size, a.A.either(), a.ipiv, a.info, a.batch);
        });
}
template <class T> void run_lanes(const getri_args<T> &a) {
    with_lanes_route<routine::getri, scalar_traits<T>::letter>(a.n, [&](auto size) {
        getri_batch<T>(size, a.A.either(), a.ipiv, a.C.either(), a.info, a.batch);
    });
}
template <class T> void run_lanes(const matinv_args<T> &a) {
    with_lanes_route<routine::matinv, scalar_traits<T>::letter>(a.n, [&](auto size) {
        matinv_batch<T>(size, a.A.either(), a.C.either(), a.info, a.batch);
    });
}
template <class T> void run_lanes(const getrs_args<T> &a) {
    with_lanes_route<routine::getrs, scalar_traits<T>::letter>(a.n, [&](auto size) {
        getrs_batch<T>(size, a.trans, a.nrhs, a.A.either(), a.ipiv, a.B.either(), a.batch);
    });
}
// getrs in place at any order (the any_wide family): its substitutions in this instruction set's vectors. Complex T
// on AVX-512 runs the AVX2 copy's: GCC 12 vectorizes complex products into fused multiply-adds (vfmaddsub) where the
// target has them, despite -ffp-contract=off, which would change LAPACK's roundings (test unit.fused_multiply_add).
template <class T> void run_any(const getrs_args<T> &a) {
    if constexpr (scalar_traits<T>::is_complex && this_isa == isa_level::avx512)
        isa_avx2::run_any<T>(a);
    else
        getrs_batch<T>(any_n{a.n}, a.trans, a.nrhs, a.A.either(), a.ipiv, a.B.either(), a.batch);
}

// The Cholesky family's lanes forms (kernels/host/chol_batch.hpp); r is potrf or potri for potrf_args.
template <routine R, class T, class Args> void run_chol_lanes(const Args &a) {
    with_lanes_route<R, scalar_traits<T>::letter>(a.n, [&](auto size) { chol_batch_call<R, T>(size, a); });
}
template <class T> void run_lanes(routine r, const potrf_args<T> &a) {
    if (r == routine::potri) run_chol_lanes<routine::potri, T>(a);
    else run_chol_lanes<routine::potrf, T>(a);
}
template <class T> void run_lanes(routine, const posv_args<T> &a) { run_chol_lanes<routine::posv, T>(a); }
template <class T> void run_lanes(routine, const potrs_args<T> &a) { run_chol_lanes<routine::potrs, T>(a); }
template <class T> void run_lanes(routine, const poinv_args<T> &a) { run_chol_lanes<routine::poinv, T>(a); }

#include "isa_precision.hpp"  // SMALLLA_T
template void run_lanes<SMALLLA_T>(const getrf_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(const getri_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(const matinv_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(const getrs_args<SMALLLA_T> &);
template void run_any<SMALLLA_T>(const getrs_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(routine, const potrf_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(routine, const posv_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(routine, const potrs_args<SMALLLA_T> &);
template void run_lanes<SMALLLA_T>(routine, const poinv_args<SMALLLA_T> &);

}  // namespace SMALLLA_HOST_ISA
}  // namespace host
}  // namespace smallla
