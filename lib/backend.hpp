// The typed description of a batched call that the C layer hands to a backend, and the backends' entry
// points. Arguments here are already checked; a backend only decides which kernel serves and runs it.
#pragma once

#include "smallla.h"
#include "common/args.hpp"

struct smallla_context;

namespace smallla {

using context = ::smallla_context;

// Each backend provides these for T in float, double, complex<float>, complex<double>.
#define SMALLLA_BACKEND_DECLS                                                                  \
    template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &a);          \
    template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &a);          \
    template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &a);        \
    template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &a);          \
    template <class T> smallla_status_t getrf_iter(context &ctx, const getrf_iter_args<T> &a); \
    template <class T> smallla_status_t potrf(context &ctx, const potrf_args<T> &a);          \
    template <class T> smallla_status_t potrs(context &ctx, const potrs_args<T> &a);          \
    template <class T> smallla_status_t posv(context &ctx, const posv_args<T> &a);            \
    template <class T> smallla_status_t potri(context &ctx, const potrf_args<T> &a);          \
    template <class T> smallla_status_t poinv(context &ctx, const poinv_args<T> &a);

namespace host {
SMALLLA_BACKEND_DECLS
// The instruction set of the host kernels for a new handle (host_kernels::isa_level): the widest this CPU runs
// and the library holds, or a narrower one that SMALLLA_HOST_ISA (base, sse2, avx2, avx512) asks for.
int choose_isa();
}  // namespace host
namespace cuda {
SMALLLA_BACKEND_DECLS
// Handle life cycle of the CUDA backend: create checks for a usable device (NOT_SUPPORTED with a message
// otherwise), destroy frees the handle's device workspace.
smallla_status_t create(context &ctx);
void destroy(context &ctx);
// smallla_set_stream's part, before the handle moves to `next`: orders later work that reuses the handle's device
// memory after the work queued on the stream left.
void stream_changing(context &ctx, void *next);
// Returns INVALID_VALUE with a message when p is non-NULL and not device-accessible.
smallla_status_t check_device_pointer(context &ctx, const char *fname, int argno, const char *argname,
                                      const void *p);
}  // namespace cuda

#undef SMALLLA_BACKEND_DECLS

}  // namespace smallla
