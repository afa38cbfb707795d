// Batch accessors: "where is matrix b". Pointer-array and strided batches differ only here, so one kernel
// template serves both forms.
#pragma once

#include "scalar.hpp"

namespace smallla {

template <class T>
struct strided_batch {
    T *base;
    int ld;
    long long stride;
    SMALLLA_HD T *operator[](long long b) const { return base + b * stride; }
};

template <class T>
struct pointer_batch {
    T *const *ptrs;
    int ld;
    SMALLLA_HD T *operator[](long long b) const { return ptrs[b]; }
};

// Either form, decided at run time (one uniform test per matrix): what the host kernels take, so that each is
// compiled once for both API forms.
template <class T>
struct either_batch {
    T *base;
    T *const *ptrs;
    int ld;
    long long stride;
    SMALLLA_HD T *operator[](long long b) const { return ptrs ? ptrs[b] : base + b * stride; }
};

// The untyped-form description that the C layer hands to a backend: either ptrs (pointer array) or base +
// stride. Backends turn it into one of the two accessors above with visit_batch().
template <class T>
struct matrix_batch {
    T *base = nullptr;
    T *const *ptrs = nullptr;
    int ld = 1;
    long long stride = 0;
    int argno = 0;  // pointer arrays: the API argument number (a NULL entry's matrix reports info = -argno)
    bool is_pointer_array() const { return ptrs != nullptr; }
    strided_batch<T> strided() const { return {base, ld, stride}; }
    pointer_batch<T> pointers() const { return {ptrs, ld}; }
    either_batch<T> either() const { return {base, ptrs, ld, stride}; }
    // Matrices first, first + 1, ... as a batch of their own.
    matrix_batch from(long long first) const {
        matrix_batch m = *this;
        if (ptrs) m.ptrs = ptrs + first;
        else m.base = base + first * stride;
        return m;
    }
    // Whether matrix b is there: false for a NULL entry of a pointer array (read from host memory).
    bool present(long long b) const { return ptrs == nullptr || ptrs[b] != nullptr; }
};

// Calls f(accessor) with the accessor type matching the batch's form.
template <class T, class F>
auto visit_batch(const matrix_batch<T> &m, F &&f) {
    if (m.is_pointer_array()) return f(m.pointers());
    return f(m.strided());
}

// Pivot vectors: matrix b's pivots at ipiv + b*stride (the pointer-array form uses stride n). NULL: none.
template <class I>
struct pivot_batch {
    I *base;
    long long stride;
    SMALLLA_HD I *operator[](long long b) const { return base ? base + b * stride : nullptr; }
    pivot_batch from(long long first) const { return {base ? base + first * stride : nullptr, stride}; }
};

}  // namespace smallla
