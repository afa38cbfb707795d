// The Cholesky and LU families' blocked forms (kernels/host/chol_blocked.hpp, lu_blocked.hpp) of one wider instruction set for one precision,
// compiled beside lanes_isa.cpp with the same definitions (lib/CMakeLists.txt); lanes_entries.hpp declares it.
#include "host/chol_blocked.hpp"
#include "host/lu_blocked.hpp"
#include "lanes_entries.hpp"

namespace smallla {
namespace host {
namespace SMALLLA_HOST_ISA {

using namespace host_kernels;

template <class T> void run_blocked(routine r, const potrf_args<T> &a) {
    if (r == routine::potri) blocked_potri(a);
    else blocked_potrf(a);
}
template <class T> void run_blocked(routine, const posv_args<T> &a) { blocked_posv(a); }
template <class T> void run_blocked(routine, const potrs_args<T> &a) { blocked_potrs(a); }
template <class T> void run_blocked(routine, const poinv_args<T> &a) { blocked_poinv(a); }
template <class T> void run_blocked(routine, const getrf_args<T> &a) { blocked_getrf(a); }  // ipiv NULL: no pivoting
template <class T> void run_blocked(routine, const getri_args<T> &a) { blocked_getri(a); }
template <class T> void run_blocked(routine, const matinv_args<T> &a) { blocked_matinv(a); }

#include "isa_precision.hpp"  // SMALLLA_T
template void run_blocked<SMALLLA_T>(routine, const potrf_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const posv_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const potrs_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const poinv_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const getrf_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const getri_args<SMALLLA_T> &);
template void run_blocked<SMALLLA_T>(routine, const matinv_args<SMALLLA_T> &);

}  // namespace SMALLLA_HOST_ISA
}  // namespace host
}  // namespace smallla
