// The CUDA backend of a build made without the CUDA toolkit: handles cannot be created, so the routines
// below are unreachable and answer NOT_SUPPORTED should that ever change.
#include "../backend.hpp"
#include "../context.hpp"
#include "../../kernels/common/scalar.hpp"

namespace smallla {
namespace cuda {

smallla_status_t create(context &ctx) {
    return fail(&ctx, SMALLLA_NOT_SUPPORTED,
                "the CUDA backend is not in this build of libsmallla (it was built without the CUDA toolkit)");
}
void destroy(context &) {}
void stream_changing(context &, void *) {}
smallla_status_t check_device_pointer(context &, const char *, int, const char *, const void *) {
    return SMALLLA_NOT_SUPPORTED;
}

namespace {
smallla_status_t unavailable(context &ctx) {
    return fail(&ctx, SMALLLA_NOT_SUPPORTED, "the CUDA backend is not in this build of libsmallla");
}
}  // namespace
template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t getrf_iter(context &ctx, const getrf_iter_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t potrf(context &ctx, const potrf_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t potrs(context &ctx, const potrs_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t posv(context &ctx, const posv_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t potri(context &ctx, const potrf_args<T> &) { return unavailable(ctx); }
template <class T> smallla_status_t poinv(context &ctx, const poinv_args<T> &) { return unavailable(ctx); }

#define SMALLLA_INSTANTIATE(T)                                                   \
    template smallla_status_t getrf<T>(context &, const getrf_args<T> &);        \
    template smallla_status_t getri<T>(context &, const getri_args<T> &);        \
    template smallla_status_t matinv<T>(context &, const matinv_args<T> &);      \
    template smallla_status_t getrs<T>(context &, const getrs_args<T> &);        \
    template smallla_status_t getrf_iter<T>(context &, const getrf_iter_args<T> &); \
    template smallla_status_t potrf<T>(context &, const potrf_args<T> &);           \
    template smallla_status_t potrs<T>(context &, const potrs_args<T> &);           \
    template smallla_status_t posv<T>(context &, const posv_args<T> &);             \
    template smallla_status_t potri<T>(context &, const potrf_args<T> &);           \
    template smallla_status_t poinv<T>(context &, const poinv_args<T> &);
SMALLLA_INSTANTIATE(float)
SMALLLA_INSTANTIATE(double)
SMALLLA_INSTANTIATE(complex<float>)
SMALLLA_INSTANTIATE(complex<double>)

}  // namespace cuda
}  // namespace smallla
