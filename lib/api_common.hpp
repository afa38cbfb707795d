// Shared pieces of the routine entry points (getrf.cpp, getri.cpp, matinv.cpp, getrs.cpp, getrf_iter.cpp):
// the precision table that generates the extern "C" functions, the mapping from the public C types to the
// internal scalar types, the exception guard of the C boundary, and the pointer checks that depend on the
// backend (host memory passed to the CUDA backend, overlaps).
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>

#include "backend.hpp"
#include "checks.hpp"
#include "context.hpp"

// The four precisions: M(letter, public C type). Every entry point is generated from this one list.
#define SMALLLA_FOR_EACH_PRECISION(M) \
    M(s, float)                       \
    M(d, double)                      \
    M(c, smallla_complex_float)       \
    M(z, smallla_complex_double)

namespace smallla {

// Public C scalar type -> the internal scalar type of the templates (same size and layout).
template <class C> struct internal_type_of;
template <> struct internal_type_of<float> { using type = float; };
template <> struct internal_type_of<double> { using type = double; };
template <> struct internal_type_of<smallla_complex_float> { using type = complex<float>; };
template <> struct internal_type_of<smallla_complex_double> { using type = complex<double>; };
template <class C> using internal_t = typename internal_type_of<C>::type;

static_assert(sizeof(complex<float>) == sizeof(smallla_complex_float) &&
                  alignof(complex<float>) == alignof(smallla_complex_float),
              "complex<float> must have the layout of smallla_complex_float");
static_assert(sizeof(complex<double>) == sizeof(smallla_complex_double) &&
                  alignof(complex<double>) == alignof(smallla_complex_double),
              "complex<double> must have the layout of smallla_complex_double");

// Reinterpret public pointers (and pointer arrays) as internal ones; the layouts are identical.
template <class C> internal_t<C> *to_internal(C *p) { return reinterpret_cast<internal_t<C> *>(p); }
template <class C> const internal_t<C> *to_internal(const C *p) {
    return reinterpret_cast<const internal_t<C> *>(p);
}
template <class C> internal_t<C> *const *to_internal(C *const *p) {
    return reinterpret_cast<internal_t<C> *const *>(p);
}
template <class C> const internal_t<C> *const *to_internal(const C *const *p) {
    return reinterpret_cast<const internal_t<C> *const *>(p);
}

// Batch descriptions for the backends.
template <class T> matrix_batch<T> strided_matrices(T *base, int ld, long long stride) {
    matrix_batch<T> m;
    m.base = base;
    m.ld = ld;
    m.stride = stride;
    return m;
}
// argno: the array's argument number, which a matrix with a NULL entry reports as info[b] = -argno.
template <class T> matrix_batch<T> pointer_matrices(T *const *ptrs, int ld, int argno) {
    matrix_batch<T> m;
    m.ptrs = ptrs;
    m.ld = ld;
    m.argno = argno;
    return m;
}

// Runs the backend call f() and turns every exception into a status with a message: nothing may cross the
// C boundary.
template <class F> smallla_status_t guarded(context &ctx, const char *fname, F &&f) noexcept {
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return fail(&ctx, SMALLLA_ALLOC_FAILED, std::string(fname) + ": out of memory");
    } catch (const std::exception &e) {
        return fail(&ctx, SMALLLA_INTERNAL_ERROR, std::string(fname) + ": internal error: " + e.what());
    } catch (...) {
        return fail(&ctx, SMALLLA_INTERNAL_ERROR, std::string(fname) + ": internal error (unknown exception)");
    }
}

// The outermost guard of an entry point: even building a message may throw (bad_alloc), and nothing may
// cross the C boundary.
template <class F> smallla_status_t c_boundary(smallla_handle_t h, const char *fname, F &&f) noexcept {
    try {
        return f();
    } catch (...) {
        try {
            return fail(handle_is_live(h) ? h : nullptr, SMALLLA_ALLOC_FAILED,
                        std::string(fname) + ": out of memory while checking the arguments");
        } catch (...) {
            return SMALLLA_ALLOC_FAILED;
        }
    }
}

// Calls the host or the CUDA implementation of a routine, chosen by the handle's backend, inside the guard.
template <class Host, class Cuda>
smallla_status_t run_backend(context &ctx, const char *fname, Host &&host_call, Cuda &&cuda_call) noexcept {
    return guarded(ctx, fname, [&]() -> smallla_status_t {
        if (ctx.backend == SMALLLA_BACKEND_CUDA) return cuda_call();
        return host_call();
    });
}

// One pointer argument of a call, for the backend-dependent pointer checks.
struct pointer_arg {
    int argno;
    const char *name;
    const void *p;
};

// On the CUDA backend every non-NULL pointer argument must be device-accessible memory (host memory is
// refused with a message instead of crashing a kernel). Nothing to check on the host backend.
inline smallla_status_t check_device_pointers(context &ctx, const char *fname,
                                              std::initializer_list<pointer_arg> args) {
    if (ctx.backend != SMALLLA_BACKEND_CUDA) return SMALLLA_SUCCESS;
    for (const pointer_arg &a : args) {
        if (a.p == nullptr) continue;
        smallla_status_t st = guarded(ctx, fname, [&] { return cuda::check_device_pointer(ctx, fname, a.argno, a.name, a.p); });
        if (st != SMALLLA_SUCCESS) return st;
    }
    return SMALLLA_SUCCESS;
}

// The elements a strided batch of matrices touches: [first, last) in bytes, as integers so that unrelated
// pointers compare safely. Empty when there is nothing (n == 0 or batch == 0).
struct byte_range {
    std::uintptr_t first = 0, last = 0;
    bool empty() const { return first >= last; }
    bool overlaps(const byte_range &o) const { return !empty() && !o.empty() && first < o.last && o.first < last; }
};
template <class T>
byte_range matrix_range(const T *p, int rows, int cols, int ld, long long stride, int batch) {
    byte_range r;
    if (p == nullptr || rows <= 0 || cols <= 0 || batch <= 0) return r;
    // The strides are checked (stride >= ld*cols when batch > 1), so the batch grows upwards from p.
    long long last_elem = (long long)(cols - 1) * ld + rows;  // one past the last element of one matrix
    if (batch > 1) last_elem += (long long)(batch - 1) * stride;
    r.first = reinterpret_cast<std::uintptr_t>(p);
    r.last = r.first + (std::uintptr_t)last_elem * sizeof(T);
    return r;
}

// Human-readable pointer for messages.
inline std::string pointer_text(const void *p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

}  // namespace smallla
