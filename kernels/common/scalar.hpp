// Scalar types and traits shared by the host and CUDA templates.
// One complex type serves both sides so that every algorithm is written once; it has the layout of the
// public smallla_complex_* structs (two members, real then imaginary), so API pointers are reinterpreted.
#pragma once

#include <cfloat>
#include <cmath>
#include <type_traits>

#if defined(__CUDACC__)
#define SMALLLA_HD __host__ __device__ __forceinline__
#else
#define SMALLLA_HD inline
#endif

namespace smallla {

template <class R>
struct complex {
    R re, im;
    complex() = default;  // defaulted: host and device alike, trivial (usable in __shared__ arrays)
    SMALLLA_HD constexpr complex(R r) : re(r), im(R(0)) {}
    SMALLLA_HD constexpr complex(R r, R i) : re(r), im(i) {}
    SMALLLA_HD complex &operator+=(complex b) { re += b.re; im += b.im; return *this; }
    SMALLLA_HD complex &operator-=(complex b) { re -= b.re; im -= b.im; return *this; }
    SMALLLA_HD complex &operator*=(complex b) { *this = *this * b; return *this; }
    SMALLLA_HD complex &operator/=(complex b) { *this = *this / b; return *this; }
    friend SMALLLA_HD complex operator+(complex a, complex b) { return {a.re + b.re, a.im + b.im}; }
    friend SMALLLA_HD complex operator-(complex a, complex b) { return {a.re - b.re, a.im - b.im}; }
    friend SMALLLA_HD complex operator-(complex a) { return {-a.re, -a.im}; }
    friend SMALLLA_HD complex operator*(complex a, complex b) {
        return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
    friend SMALLLA_HD complex operator*(R a, complex b) { return {a * b.re, a * b.im}; }
    // Division scaled as LAPACK's xLADIV does in spirit (Smith's algorithm), so that |b| near the overflow
    // or underflow threshold does not overflow the intermediate |b|^2.
    friend SMALLLA_HD complex operator/(complex a, complex b) {
        if (std::fabs(b.im) <= std::fabs(b.re)) {
            R r = b.im / b.re, d = b.re + b.im * r;
            return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
        }
        R r = b.re / b.im, d = b.im + b.re * r;
        return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
    }
    friend SMALLLA_HD bool operator==(complex a, complex b) { return a.re == b.re && a.im == b.im; }
    friend SMALLLA_HD bool operator!=(complex a, complex b) { return !(a == b); }
};

template <class T> struct scalar_traits;
template <> struct scalar_traits<float> {
    using real = float;
    static constexpr bool is_complex = false;
    static constexpr char letter = 's';
};
template <> struct scalar_traits<double> {
    using real = double;
    static constexpr bool is_complex = false;
    static constexpr char letter = 'd';
};
template <> struct scalar_traits<complex<float>> {
    using real = float;
    static constexpr bool is_complex = true;
    static constexpr char letter = 'c';
};
template <> struct scalar_traits<complex<double>> {
    using real = double;
    static constexpr bool is_complex = true;
    static constexpr char letter = 'z';
};
template <class T> using real_t = typename scalar_traits<T>::real;

// Safe minimum as LAPACK's xLAMCH('S'): the smallest number whose reciprocal does not overflow.
template <class R> SMALLLA_HD constexpr R sfmin();
template <> SMALLLA_HD constexpr float sfmin<float>() { return FLT_MIN; }
template <> SMALLLA_HD constexpr double sfmin<double>() { return DBL_MIN; }
// Relative machine epsilon as LAPACK's xLAMCH('E') (rounding: half an ulp of 1).
template <class R> SMALLLA_HD constexpr R lapack_eps();
template <> SMALLLA_HD constexpr float lapack_eps<float>() { return FLT_EPSILON * 0.5f; }
template <> SMALLLA_HD constexpr double lapack_eps<double>() { return DBL_EPSILON * 0.5; }

// LAPACK's pivot measure (IxAMAX): |x| for real, |Re| + |Im| for complex.
SMALLLA_HD float abs1(float x) { return std::fabs(x); }
SMALLLA_HD double abs1(double x) { return std::fabs(x); }
template <class R> SMALLLA_HD R abs1(complex<R> x) { return std::fabs(x.re) + std::fabs(x.im); }

SMALLLA_HD float conj(float x) { return x; }
SMALLLA_HD double conj(double x) { return x; }
template <class R> SMALLLA_HD complex<R> conj(complex<R> x) { return {x.re, -x.im}; }

SMALLLA_HD bool is_zero(float x) { return x == 0.0f; }
SMALLLA_HD bool is_zero(double x) { return x == 0.0; }
template <class R> SMALLLA_HD bool is_zero(complex<R> x) { return x.re == R(0) && x.im == R(0); }

SMALLLA_HD bool is_finite(float x) { return std::isfinite(x); }
SMALLLA_HD bool is_finite(double x) { return std::isfinite(x); }
template <class R> SMALLLA_HD bool is_finite(complex<R> x) { return std::isfinite(x.re) && std::isfinite(x.im); }

// Modulus-like magnitude used for convergence tests (abs1 is an equivalent norm and cheaper).
template <class T> SMALLLA_HD real_t<T> magnitude(T x) { return abs1(x); }

}  // namespace smallla
