// The host backend's dispatch: each routine asks the host routing table (kernels/host/routing.def) which form
// serves the call and runs it over the batch (kernels/host/lu_batch.hpp). dispatch_{s,d,c,z}.cpp instantiate it
// once per precision so that the four compile in parallel.
#pragma once

#include "backend.hpp"
#include "context.hpp"
#include "host/getrf_iter_host.hpp"
#include "host/chol_batch.hpp"
#include "host/chol_blocked.hpp"
#include "host/isa/lanes_entries.hpp"
#include "host/lu_batch.hpp"
#include "host/lu_blocked.hpp"
#include "host/routing.hpp"

namespace smallla {
namespace host {

using namespace host_kernels;

// Runs the call a on the form the table routes (R, T's precision, n) to on the handle's instruction set: a wider
// instruction set's lanes form through its own copy (lib/host/isa/; lanes_avx2 through the AVX2 copy), any other
// form here as f(size).
template <routine R, class T, class Args, class F> void with_routed_form(const context &ctx, const Args &a, F &&f) {
    constexpr char P = scalar_traits<T>::letter;
    const family form = find_route(R, P, ctx.host_isa, a.n);
#if SMALLLA_HOST_ISA_COPIES
    if (form == family::lanes && ctx.host_isa == isa_level::avx512) return isa_avx512::run_lanes<T>(a);
    if ((form == family::lanes && ctx.host_isa == isa_level::avx2) || form == family::lanes_avx2)
        return isa_avx2::run_lanes<T>(a);
#endif
    with_route<R, P>(form, a.n, f);
}

// A matrix whose pointer-array entry is NULL (in x or y) is skipped: nothing of it is read or written but
// info[b] = -(the array's argument number), x's first. The others run as calls of their own, run(first, count),
// one per stretch of present matrices (the whole batch when there is no NULL entry).
template <class X, class Y, class Run>
void in_present_stretches(const matrix_batch<X> &x, const matrix_batch<Y> &y, int *info, int batch, Run &&run) {
    if (!x.is_pointer_array() && !y.is_pointer_array()) return run(0, batch);
    int first = 0;
    for (int b = 0; b <= batch; ++b) {
        const int missing = b == batch ? -1 : !x.present(b) ? x.argno : !y.present(b) ? y.argno : 0;
        if (missing == 0) continue;
        if (b > first) run(first, b - first);
        if (missing > 0 && info != nullptr) info[b] = -missing;
        first = b + 1;
    }
}

// The LU family's blocked form (kernels/host/lu_blocked.hpp), compiled once per instruction set like the
// Cholesky family's: a wider instruction set's through its own copy, the baseline's here.
template <class T> void run_lu_blocked(const getrf_args<T> &a) { blocked_getrf(a); }
template <class T> void run_lu_blocked(const getri_args<T> &a) { blocked_getri(a); }
template <class T> void run_lu_blocked(const matinv_args<T> &a) { blocked_matinv(a); }
template <routine R, class T, class Args> void run_lu_blocked_copy(const context &ctx, const Args &a) {
#if SMALLLA_HOST_ISA_COPIES
    if (ctx.host_isa == isa_level::avx512) return isa_avx512::run_blocked<T>(R, a);
    if (ctx.host_isa == isa_level::avx2) return isa_avx2::run_blocked<T>(R, a);
#endif
    run_lu_blocked(a);
}
template <routine R, class T, class Args> bool ran_lu_blocked(const context &ctx, const Args &a) {
    if (find_route(R, scalar_traits<T>::letter, ctx.host_isa, a.n) != family::blocked) return false;
    run_lu_blocked_copy<R, T>(ctx, a);
    return true;
}
// The lanes form beyond lanes_max_order takes whole groups of W matrices, and only when there are at least as many
// groups as threads: the rest of the batch (its last batch % W matrices, or all of a smaller batch) goes to the
// blocked form, where a group's idle lanes would each cost a matrix (W times the work at batch 1). lanes(part)
// runs the lanes form on a part of the call.
template <routine R, class T, class Args, class Lanes>
bool ran_lu_lanes_beyond(const context &ctx, const Args &a, Lanes &&lanes) {
    using Real = real_t<T>;
    if (a.n <= lanes_max_order || find_route(R, scalar_traits<T>::letter, ctx.host_isa, a.n) != family::lanes)
        return false;
    const int w = lanes_any_width(ctx.host_isa, sizeof(Real), sizeof(T) != sizeof(Real));
    const int groups = a.batch / w, in_lanes = groups >= omp_get_max_threads() ? groups * w : 0;
    if (in_lanes > 0) lanes(a.part(0, in_lanes));
    if (in_lanes < a.batch) run_lu_blocked_copy<R, T>(ctx, a.part(in_lanes, a.batch - in_lanes));
    return true;
}

template <class T> smallla_status_t getrf_present(const context &ctx, const getrf_args<T> &a) {
    if (a.ipiv.base != nullptr) {
        const auto routed = [&](const getrf_args<T> &p) {
            with_routed_form<routine::getrf, T>(ctx, p, [&](auto size) {
                getrf_batch<true, T>(size, p.A.either(), p.ipiv, p.info, p.batch);
            });
        };
        if (ran_lu_blocked<routine::getrf, T>(ctx, a) || ran_lu_lanes_beyond<routine::getrf, T>(ctx, a, routed))
            return SMALLLA_SUCCESS;
        routed(a);
    } else {
        const auto routed = [&](const getrf_args<T> &p) {
            with_routed_form<routine::getrf_nopiv, T>(ctx, p, [&](auto size) {
                getrf_batch<false, T>(size, p.A.either(), p.ipiv, p.info, p.batch);
            });
        };
        if (ran_lu_blocked<routine::getrf_nopiv, T>(ctx, a) ||
            ran_lu_lanes_beyond<routine::getrf_nopiv, T>(ctx, a, routed))
            return SMALLLA_SUCCESS;
        routed(a);
    }
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t getrf(context &ctx, const getrf_args<T> &a) {
    in_present_stretches(a.A, a.A, a.info, a.batch, [&](int first, int count) { getrf_present(ctx, a.part(first, count)); });
    return SMALLLA_SUCCESS;
}

template <class T> smallla_status_t getri_present(const context &ctx, const getri_args<T> &a) {
    const auto routed = [&](const getri_args<T> &p) {
        with_routed_form<routine::getri, T>(ctx, p, [&](auto size) {
            getri_batch<T>(size, p.A.either(), p.ipiv, p.C.either(), p.info, p.batch);
        });
    };
    if (ran_lu_blocked<routine::getri, T>(ctx, a) || ran_lu_lanes_beyond<routine::getri, T>(ctx, a, routed))
        return SMALLLA_SUCCESS;
    routed(a);
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t getri(context &ctx, const getri_args<T> &a) {
    in_present_stretches(a.A, a.C, a.info, a.batch, [&](int first, int count) { getri_present(ctx, a.part(first, count)); });
    return SMALLLA_SUCCESS;
}

template <class T> smallla_status_t matinv_present(const context &ctx, const matinv_args<T> &a) {
    const auto routed = [&](const matinv_args<T> &p) {
        with_routed_form<routine::matinv, T>(ctx, p, [&](auto size) {
            matinv_batch<T>(size, p.A.either(), p.C.either(), p.info, p.batch);
        });
    };
    if (ran_lu_blocked<routine::matinv, T>(ctx, a) || ran_lu_lanes_beyond<routine::matinv, T>(ctx, a, routed))
        return SMALLLA_SUCCESS;
    routed(a);
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t matinv(context &ctx, const matinv_args<T> &a) {
    in_present_stretches(a.A, a.C, a.info, a.batch, [&](int first, int count) { matinv_present(ctx, a.part(first, count)); });
    return SMALLLA_SUCCESS;
}

template <class T> smallla_status_t getrs_present(const context &ctx, const getrs_args<T> &a) {
#if SMALLLA_HOST_ISA_COPIES
    if (find_route(routine::getrs, scalar_traits<T>::letter, ctx.host_isa, a.n) == family::any_wide) {
        if (ctx.host_isa == isa_level::avx512) isa_avx512::run_any<T>(a);
        else isa_avx2::run_any<T>(a);
        return SMALLLA_SUCCESS;
    }
#endif
    with_routed_form<routine::getrs, T>(ctx, a, [&](auto size) {
        getrs_batch<T>(size, a.trans, a.nrhs, a.A.either(), a.ipiv, a.B.either(), a.batch);
    });
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t getrs(context &ctx, const getrs_args<T> &a) {
    in_present_stretches(a.A, a.B, nullptr, a.batch, [&](int first, int count) { getrs_present(ctx, a.part(first, count)); });
    return SMALLLA_SUCCESS;
}

template <class T> smallla_status_t getrf_iter(context &, const getrf_iter_args<T> &a) {
    getrf_iter_batch<T>(a, a.A.either(), a.LU.either());
    return SMALLLA_SUCCESS;
}

// ---- the Cholesky family (kernels/host/chol_batch.hpp, chol_blocked.hpp) ----
// Its lanes and blocked forms are compiled once per instruction set, a wider one's run through its own copy
// (lib/host/isa/); the fixed and any forms for the baseline only, run here.
template <routine R, class T, class Args, class Blocked>
void with_chol_form(const context &ctx, const Args &a, Blocked &&blocked) {
    constexpr char P = scalar_traits<T>::letter;
    const family form = find_route(R, P, ctx.host_isa, a.n);
#if SMALLLA_HOST_ISA_COPIES
    if (form == family::blocked && ctx.host_isa == isa_level::avx512) return isa_avx512::run_blocked<T>(R, a);
    if (form == family::blocked && ctx.host_isa == isa_level::avx2) return isa_avx2::run_blocked<T>(R, a);
    if (form == family::lanes && ctx.host_isa == isa_level::avx512) return isa_avx512::run_lanes<T>(R, a);
    if ((form == family::lanes && ctx.host_isa == isa_level::avx2) || form == family::lanes_avx2)
        return isa_avx2::run_lanes<T>(R, a);
#endif
    if (form == family::blocked) return blocked(a);
    with_route<R, P>(form, a.n, [&](auto size) { chol_batch_call<R, T>(size, a); });
}
template <class T> smallla_status_t potrf(context &ctx, const potrf_args<T> &a) {
    in_present_stretches(a.A, a.A, a.info, a.batch, [&](int first, int count) {
        const potrf_args<T> p = a.part(first, count);
        with_chol_form<routine::potrf, T>(ctx, p, blocked_potrf<T>);
    });
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t posv(context &ctx, const posv_args<T> &a) {
    in_present_stretches(a.A, a.B, a.info, a.batch, [&](int first, int count) {
        const posv_args<T> p = a.part(first, count);
        with_chol_form<routine::posv, T>(ctx, p, blocked_posv<T>);
    });
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t potrs(context &ctx, const potrs_args<T> &a) {
    in_present_stretches(a.A, a.B, nullptr, a.batch, [&](int first, int count) {
        const potrs_args<T> p = a.part(first, count);
        with_chol_form<routine::potrs, T>(ctx, p, blocked_potrs<T>);
    });
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t potri(context &ctx, const potrf_args<T> &a) {
    in_present_stretches(a.A, a.A, a.info, a.batch, [&](int first, int count) {
        const potrf_args<T> p = a.part(first, count);
        with_chol_form<routine::potri, T>(ctx, p, blocked_potri<T>);
    });
    return SMALLLA_SUCCESS;
}
template <class T> smallla_status_t poinv(context &ctx, const poinv_args<T> &a) {
    in_present_stretches(a.A, a.C, a.info, a.batch, [&](int first, int count) {
        const poinv_args<T> p = a.part(first, count);
        with_chol_form<routine::poinv, T>(ctx, p, blocked_poinv<T>);
    });
    return SMALLLA_SUCCESS;
}

// Explicit instantiation of the host backend for one scalar type (used once per precision).
#define SMALLLA_HOST_INSTANTIATE(T)                                                     \
    template smallla_status_t getrf<T>(context &, const getrf_args<T> &);               \
    template smallla_status_t getri<T>(context &, const getri_args<T> &);               \
    template smallla_status_t matinv<T>(context &, const matinv_args<T> &);             \
    template smallla_status_t getrs<T>(context &, const getrs_args<T> &);               \
    template smallla_status_t getrf_iter<T>(context &, const getrf_iter_args<T> &);     \
    template smallla_status_t potrf<T>(context &, const potrf_args<T> &);               \
    template smallla_status_t potrs<T>(context &, const potrs_args<T> &);               \
    template smallla_status_t posv<T>(context &, const posv_args<T> &);                 \
    template smallla_status_t potri<T>(context &, const potrf_args<T> &);               \
    template smallla_status_t poinv<T>(context &, const poinv_args<T> &);

}  // namespace host
}  // namespace smallla
