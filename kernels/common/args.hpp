// The typed description of a batched call, as the C layer hands it to a backend's dispatch and the dispatch
// hands it to the kernels. Arguments here are already checked.
#pragma once

#include "smallla.h"
#include "batch.hpp"

namespace smallla {

// Each has part(first, count): matrices first .. first + count - 1 as a call of their own.
template <class T> struct getrf_args {
    int n;
    matrix_batch<T> A;
    pivot_batch<int> ipiv;  // ipiv.base == nullptr: no pivoting
    int *info;
    int batch;
    getrf_args part(long long first, int count) const { return {n, A.from(first), ipiv.from(first), info + first, count}; }
};

template <class T> struct getri_args {
    int n;
    matrix_batch<const T> A;
    pivot_batch<const int> ipiv;  // nullptr: A was factored without pivoting
    matrix_batch<T> C;
    int *info;
    int batch;
    getri_args part(long long first, int count) const {
        return {n, A.from(first), ipiv.from(first), C.from(first), info + first, count};
    }
};

template <class T> struct matinv_args {
    int n;
    matrix_batch<const T> A;
    matrix_batch<T> C;  // may alias A exactly (in place)
    int *info;
    int batch;
    matinv_args part(long long first, int count) const { return {n, A.from(first), C.from(first), info + first, count}; }
};

template <class T> struct getrs_args {
    smallla_operation_t trans;
    int n, nrhs;
    matrix_batch<const T> A;
    pivot_batch<const int> ipiv;
    matrix_batch<T> B;
    int batch;
    getrs_args part(long long first, int count) const {
        return {trans, n, nrhs, A.from(first), ipiv.from(first), B.from(first), count};
    }
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

// The Cholesky family. Only the uplo triangle of A is read (and, where A is written, written).
template <class T> struct potrf_args {  // potrf, and potri (A holding the factor)
    smallla_fill_t uplo;
    int n;
    matrix_batch<T> A;
    int *info;
    int batch;
    potrf_args part(long long first, int count) const { return {uplo, n, A.from(first), info + first, count}; }
};

template <class T> struct potrs_args {
    smallla_fill_t uplo;
    int n, nrhs;
    matrix_batch<const T> A;
    matrix_batch<T> B;
    int batch;
    potrs_args part(long long first, int count) const { return {uplo, n, nrhs, A.from(first), B.from(first), count}; }
};

template <class T> struct posv_args {
    smallla_fill_t uplo;
    int n, nrhs;
    matrix_batch<T> A;
    matrix_batch<T> B;
    int *info;
    int batch;
    posv_args part(long long first, int count) const {
        return {uplo, n, nrhs, A.from(first), B.from(first), info + first, count};
    }
};

template <class T> struct poinv_args {
    smallla_fill_t uplo;
    int n;
    matrix_batch<const T> A;
    matrix_batch<T> C;  // all of C is written; may alias A exactly (in place)
    int *info;
    int batch;
    poinv_args part(long long first, int count) const { return {uplo, n, A.from(first), C.from(first), info + first, count}; }
};

}  // namespace smallla
