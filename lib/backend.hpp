// The typed description of a batched call that the C layer hands to a backend, and the backends' entry
// points. Arguments here are already checked; a backend only decides which kernel serves and runs it.
#pragma once

#include "smallla.h"
#include "../kernels/common/batch.hpp"

struct smallla_context;

namespace smallla {

using context = ::smallla_context;

template <class T> struct getrf_args {
    int n;
    matrix_batch<T> A;
    pivot_batch<int> ipiv;  // ipiv.base == nullptr: no pivoting
    int *info;
    int batch;
};

template <class T> struct getri_args {
    int n;
    matrix_batch<const T> A;
    pivot_batch<const int> ipiv;  // nullptr: A was factored without pivoting
    matrix_batch<T> C;
    int *info;
    int batch;
};

template <class T> struct matinv_args {
    int n;
    matrix_batch<const T> A;
    matrix_batch<T> C;  // may alias A exactly (in place)
    int *info;
    int batch;
};

template <class T> struct getrs_args {
    smallla_operation_t trans;
    int n, nrhs;
    matrix_batch<const T> A;
    pivot_batch<const int> ipiv;
    matrix_batch<T> B;
    int batch;
};

template <class T> struct getrf_iter_args {
    int n;
    matrix_batch<const T> A;
    matrix_batch<T> LU;  // may alias A exactly
    pivot_batch<int> ipiv;
    smallla_iter_options_t opts;  // already validated and defaulted (max_sweeps > 0)
    int *sweeps;                  // may be nullptr
    int *info;
    int batch;
};

// Each backend provides these for T in float, double, complex<float>, complex<double>.
#define SMALLLA_BACKEND_DECLS                                                                  \
    template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &a);          \
    template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &a);          \
    template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &a);        \
    template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &a);          \
    template <class T> smallla_status_t getrf_iter(context &ctx, const getrf_iter_args<T> &a);

namespace host { SMALLLA_BACKEND_DECLS }
namespace cuda {
SMALLLA_BACKEND_DECLS
// Handle life cycle of the CUDA backend: create checks for a usable device (NOT_SUPPORTED with a message
// otherwise), destroy frees the handle's device workspace.
smallla_status_t create(context &ctx);
void destroy(context &ctx);
// Returns INVALID_VALUE with a message when p is non-NULL and not device-accessible.
smallla_status_t check_device_pointer(context &ctx, const char *fname, int argno, const char *argname,
                                      const void *p);
}  // namespace cuda

#undef SMALLLA_BACKEND_DECLS

}  // namespace smallla
