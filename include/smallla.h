/**
 * @file smallla.h
 * @brief The whole public C API of smallla: batched dense linear algebra for very many small matrices.
 *
 * Conventions shared by every routine (details on the main page):
 * - Matrices are column-major, as in LAPACK: element (i, j) of a matrix with leading dimension ld lies at
 *   offset i + j*ld.
 * - Pivot indices are 1-based, as in LAPACK: row i was interchanged with row ipiv[i-1].
 * - Per-matrix results go to info[b]: 0 on success, j > 0 when U(j,j) is exactly zero (the LU family: the
 *   factorization was completed, so the factors are valid but U is singular; the Cholesky family's j > 0 is
 *   LAPACK's xPOTRF's, see its groups); in the pointer-array forms, < 0 for a skipped matrix (below). (getrf_iter, strided only, has negative codes of its own.)
 * - Pointer-array forms: a matrix whose pointer (A[b], C[b] or B[b]) is NULL is skipped, on both backends:
 *   nothing of its matrices is read or written (its pivots in ipiv are unspecified), and where the routine has
 *   info, info[b] = -(the argument number of that pointer array in the prototype, counted from 1 with the handle
 *   as 1); A's number when both A[b] and C[b] are NULL. For example smallla_dgetrfBatched() gives info[b] = -3 for A[b] == NULL, and
 *   smallla_dgetriBatched() -6 for C[b] == NULL. The other matrices of the call are processed as usual.
 * - An invalid argument makes the call return ::SMALLLA_INVALID_VALUE, stores a message naming the function,
 *   the argument (numbered as in the prototype, from 1, the handle being 1) and its value
 *   (see smallla_last_error()), and writes nothing.
 * - n = 0 or batch = 0 is a successful no-op.
 * - On ::SMALLLA_BACKEND_CUDA every pointer argument (matrices, pivots, info, pointer arrays and the pointers
 *   they hold) is device memory and calls are asynchronous on the handle's stream; on ::SMALLLA_BACKEND_HOST
 *   everything is host memory and calls return when the work is done.
 * - A handle may be used by one thread at a time; distinct handles may be used concurrently.
 */
#ifndef SMALLLA_H
#define SMALLLA_H

#ifdef __cplusplus
extern "C" {
#endif

/* The project's one version source: CMakeLists.txt reads these three numbers into the build's version. */
/** @brief Major version of this header. */
#define SMALLLA_VERSION_MAJOR 0
/** @brief Minor version of this header. */
#define SMALLLA_VERSION_MINOR 1
/** @brief Patch version of this header. */
#define SMALLLA_VERSION_PATCH 0

#if defined(_WIN32)
#define SMALLLA_API __declspec(dllexport)
#else
/** @brief Marks a symbol exported from libsmallla.so. */
#define SMALLLA_API __attribute__((visibility("default")))
#endif

/**
 * @brief Single-precision complex number, layout-compatible with C99 `float _Complex`, cuComplex, Fortran
 *        `complex(c_float_complex)` and Julia `ComplexF32`.
 */
typedef struct smallla_complex_float {
    float re; /**< real part */
    float im; /**< imaginary part */
} smallla_complex_float;

/**
 * @brief Double-precision complex number, layout-compatible with C99 `double _Complex`, cuDoubleComplex,
 *        Fortran `complex(c_double_complex)` and Julia `ComplexF64`.
 */
typedef struct smallla_complex_double {
    double re; /**< real part */
    double im; /**< imaginary part */
} smallla_complex_double;

/** @brief Status returned by every routine. */
typedef enum smallla_status_t {
    SMALLLA_SUCCESS = 0,          /**< The call succeeded (per-matrix outcomes are in info). */
    SMALLLA_INVALID_HANDLE = 1,   /**< The handle is NULL, or was destroyed. */
    SMALLLA_INVALID_VALUE = 2,    /**< An argument is invalid; nothing was written; see smallla_last_error(). */
    SMALLLA_ALLOC_FAILED = 3,     /**< A memory allocation (host or device) failed. */
    SMALLLA_EXECUTION_FAILED = 4, /**< A kernel launch or a device call failed. */
    SMALLLA_NOT_SUPPORTED = 5,    /**< The backend or the request is not available in this build or machine. */
    SMALLLA_INTERNAL_ERROR = 6    /**< A library bug; please report it with the message. */
} smallla_status_t;

/** @brief Where a handle runs its work. */
typedef enum smallla_backend_t {
    SMALLLA_BACKEND_HOST = 0, /**< The CPU, parallel over the batch with OpenMP (large LU and Cholesky
                                   factorizations with fewer matrices than threads: over each matrix's updates;
                                   getrs with fewer solves than threads from order 384-896: over each solve);
                                   host memory. */
    SMALLLA_BACKEND_CUDA = 1  /**< An NVIDIA GPU through CUDA; device memory, asynchronous on a stream. */
} smallla_backend_t;

/** @brief Which matrix a solve uses, as LAPACK's TRANS argument. */
typedef enum smallla_operation_t {
    SMALLLA_OP_N = 0, /**< A */
    SMALLLA_OP_T = 1, /**< A transposed */
    SMALLLA_OP_C = 2  /**< A conjugate-transposed (the same as ::SMALLLA_OP_T for real types) */
} smallla_operation_t;

/** @brief Which triangle of a Hermitian (symmetric) matrix a Cholesky routine reads and writes, as LAPACK's UPLO. */
typedef enum smallla_fill_t {
    SMALLLA_FILL_LOWER = 0, /**< the lower triangle: A = L L^H */
    SMALLLA_FILL_UPPER = 1  /**< the upper triangle: A = U^H U */
} smallla_fill_t;

/** @brief Opaque library context: backend, stream, workspace and the last error message. */
typedef struct smallla_context *smallla_handle_t;

/**
 * @brief Creates a handle for a backend.
 * @param[out] handle receives the new handle (set to NULL on failure).
 * @param[in] backend ::SMALLLA_BACKEND_HOST or ::SMALLLA_BACKEND_CUDA.
 * @return ::SMALLLA_SUCCESS; ::SMALLLA_INVALID_VALUE if handle is NULL or backend unknown;
 *         ::SMALLLA_NOT_SUPPORTED for ::SMALLLA_BACKEND_CUDA in a build without CUDA or on a machine without a
 *         usable device (the reason is in smallla_last_error(NULL)); ::SMALLLA_ALLOC_FAILED.
 * The CUDA handle uses the device current at creation and the default stream until smallla_set_stream().
 */
SMALLLA_API smallla_status_t smallla_create(smallla_handle_t *handle, smallla_backend_t backend);

/**
 * @brief Destroys a handle and frees its resources. Work already enqueued on its stream is not waited for.
 * @param[in] handle the handle; NULL gives ::SMALLLA_INVALID_HANDLE.
 * @return ::SMALLLA_SUCCESS or ::SMALLLA_INVALID_HANDLE.
 */
SMALLLA_API smallla_status_t smallla_destroy(smallla_handle_t handle);

/**
 * @brief Sets the CUDA stream (a cudaStream_t) on which the handle enqueues its work.
 *
 * On the CUDA backend, the next call that the handle replays from a CUDA graph (a repeated call routed to cuSOLVER;
 * see the manual's repeated calls) first waits for the work queued so far on the previous stream, which must still
 * exist when this is called.
 * @param[in] handle the handle.
 * @param[in] cuda_stream the stream; NULL is the default stream. Ignored by the host backend, which keeps it.
 * @return ::SMALLLA_SUCCESS or ::SMALLLA_INVALID_HANDLE.
 */
SMALLLA_API smallla_status_t smallla_set_stream(smallla_handle_t handle, void *cuda_stream);

/**
 * @brief Returns the handle's CUDA stream.
 * @param[in] handle the handle.
 * @param[out] cuda_stream receives the stream (NULL for the default stream).
 * @return ::SMALLLA_SUCCESS, ::SMALLLA_INVALID_HANDLE, or ::SMALLLA_INVALID_VALUE if cuda_stream is NULL.
 */
SMALLLA_API smallla_status_t smallla_get_stream(smallla_handle_t handle, void **cuda_stream);

/** @brief Returns the backend of a handle, or -1 if the handle is invalid. */
SMALLLA_API int smallla_get_backend(smallla_handle_t handle);

/**
 * @brief A constant English name of a status, e.g. "SMALLLA_INVALID_VALUE"; "unknown status" otherwise.
 */
SMALLLA_API const char *smallla_status_string(smallla_status_t status);

/**
 * @brief The message of the last failed call on this handle, e.g.
 *        "smallla_dgetrfBatched: argument 4 (lda = 3) must be >= max(1, n = 4)".
 * @param[in] handle the handle, or NULL for the last failure of smallla_create() in this thread or of a call
 *                   made with an invalid handle.
 * @return a string owned by the handle (empty if the last call succeeded), valid until the next call on it.
 * smallla_set_stream(), smallla_get_stream() and smallla_get_backend() do not change the message (a failed
 * smallla_get_stream() sets it).
 */
SMALLLA_API const char *smallla_last_error(smallla_handle_t handle);

/**
 * @brief The library's version (which may differ from this header's SMALLLA_VERSION_* if the shared library
 *        was upgraded).
 * @param[out] major may be NULL. @param[out] minor may be NULL. @param[out] patch may be NULL.
 */
SMALLLA_API void smallla_get_version(int *major, int *minor, int *patch);

/**
 * @defgroup getrf LU factorization with partial pivoting (getrf)
 * @brief A = P L U for each matrix of a batch, LAPACK xGETRF semantics.
 *
 * Each n x n matrix is overwritten by its factors: L unit lower triangular (its unit diagonal not stored)
 * below the diagonal, U on and above it. ipiv holds the 1-based pivot indices: row i was interchanged with
 * row ipiv[i-1], in order i = 1..n. The pivot is the first entry of largest |Re| + |Im| in the column (as
 * LAPACK's IxAMAX). A zero pivot does not stop the factorization: info[b] = j for the first exactly zero
 * U(j,j), 0 otherwise. NaN in the input never hangs or crashes: it propagates into the factors (info is 0
 * unless an exact zero pivot occurs).
 *
 * ipiv == NULL asks for no pivoting (as in cuBLAS): A = L U, which fails (info = j) when a leading minor is
 * singular and is unstable unless the matrices are e.g. diagonally dominant.
 *
 * Pointer-array form: A is an array of batch pointers, one per matrix; ipiv holds n entries per matrix,
 * contiguous (ipiv + b*n); info holds one entry per matrix.
 * Strided form: matrix b starts at A + b*strideA (strideA >= lda*n) and its pivots at ipiv + b*strideP
 * (strideP >= n).
 * @{
 */
/** @brief LU of a batch of single-precision matrices given by an array of pointers. */
SMALLLA_API smallla_status_t smallla_sgetrfBatched(smallla_handle_t handle, int n, float *const A[], int lda,
                                                   int *ipiv, int *info, int batch);
/** @brief LU of a batch of double-precision matrices given by an array of pointers. */
SMALLLA_API smallla_status_t smallla_dgetrfBatched(smallla_handle_t handle, int n, double *const A[], int lda,
                                                   int *ipiv, int *info, int batch);
/** @brief LU of a batch of single-complex matrices given by an array of pointers. */
SMALLLA_API smallla_status_t smallla_cgetrfBatched(smallla_handle_t handle, int n,
                                                   smallla_complex_float *const A[], int lda, int *ipiv,
                                                   int *info, int batch);
/** @brief LU of a batch of double-complex matrices given by an array of pointers. */
SMALLLA_API smallla_status_t smallla_zgetrfBatched(smallla_handle_t handle, int n,
                                                   smallla_complex_double *const A[], int lda, int *ipiv,
                                                   int *info, int batch);
/** @brief LU of a strided batch of single-precision matrices. */
SMALLLA_API smallla_status_t smallla_sgetrfStridedBatched(smallla_handle_t handle, int n, float *A, int lda,
                                                          long long strideA, int *ipiv, long long strideP,
                                                          int *info, int batch);
/** @brief LU of a strided batch of double-precision matrices. */
SMALLLA_API smallla_status_t smallla_dgetrfStridedBatched(smallla_handle_t handle, int n, double *A, int lda,
                                                          long long strideA, int *ipiv, long long strideP,
                                                          int *info, int batch);
/** @brief LU of a strided batch of single-complex matrices. */
SMALLLA_API smallla_status_t smallla_cgetrfStridedBatched(smallla_handle_t handle, int n,
                                                          smallla_complex_float *A, int lda, long long strideA,
                                                          int *ipiv, long long strideP, int *info, int batch);
/** @brief LU of a strided batch of double-complex matrices. */
SMALLLA_API smallla_status_t smallla_zgetrfStridedBatched(smallla_handle_t handle, int n,
                                                          smallla_complex_double *A, int lda, long long strideA,
                                                          int *ipiv, long long strideP, int *info, int batch);
/** @} */

/**
 * @defgroup getri Inverse from the LU factors (getri), out of place
 * @brief C = inv(A) from getrf's output (A holding L and U, ipiv the pivots), as cuBLAS getriBatched.
 *
 * A and ipiv are only read. C (ldc >= max(1, n)) receives the inverse. info[b] = j > 0 if U(j,j) is exactly
 * zero (C is then not meaningful, as in LAPACK), else 0. ipiv may be NULL when A was factored without
 * pivoting. Pointer-array form: ipiv holds n entries per matrix, contiguous. Strided form: matrix b of A at
 * A + b*strideA, of C at C + b*strideC, its pivots at ipiv + b*strideP. C must not overlap A: in the
 * pointer-array form no C[b] may overlap any A[b'] (b' = b included); the host backend refuses it with
 * ::SMALLLA_INVALID_VALUE, but on the CUDA backend the pointer arrays are device memory and are not checked:
 * such overlap gives undefined results.
 * @{
 */
/** @brief Inverse from LU, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_sgetriBatched(smallla_handle_t handle, int n, const float *const A[],
                                                   int lda, const int *ipiv, float *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Inverse from LU, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dgetriBatched(smallla_handle_t handle, int n, const double *const A[],
                                                   int lda, const int *ipiv, double *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Inverse from LU, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cgetriBatched(smallla_handle_t handle, int n,
                                                   const smallla_complex_float *const A[], int lda,
                                                   const int *ipiv, smallla_complex_float *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Inverse from LU, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zgetriBatched(smallla_handle_t handle, int n,
                                                   const smallla_complex_double *const A[], int lda,
                                                   const int *ipiv, smallla_complex_double *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Inverse from LU, single precision, strided. */
SMALLLA_API smallla_status_t smallla_sgetriStridedBatched(smallla_handle_t handle, int n, const float *A,
                                                          int lda, long long strideA, const int *ipiv,
                                                          long long strideP, float *C, int ldc,
                                                          long long strideC, int *info, int batch);
/** @brief Inverse from LU, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dgetriStridedBatched(smallla_handle_t handle, int n, const double *A,
                                                          int lda, long long strideA, const int *ipiv,
                                                          long long strideP, double *C, int ldc,
                                                          long long strideC, int *info, int batch);
/** @brief Inverse from LU, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cgetriStridedBatched(smallla_handle_t handle, int n,
                                                          const smallla_complex_float *A, int lda,
                                                          long long strideA, const int *ipiv, long long strideP,
                                                          smallla_complex_float *C, int ldc, long long strideC,
                                                          int *info, int batch);
/** @brief Inverse from LU, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zgetriStridedBatched(smallla_handle_t handle, int n,
                                                          const smallla_complex_double *A, int lda,
                                                          long long strideA, const int *ipiv, long long strideP,
                                                          smallla_complex_double *C, int ldc, long long strideC,
                                                          int *info, int batch);
/** @} */

/**
 * @defgroup matinv Fused LU and inverse (matinv)
 * @brief C = inv(A) straight from A in one pass (LU with partial pivoting of [A | I], then the triangular
 *        solve and the column interchanges), as cuBLAS matinvBatched but with LAPACK's pivoting and info.
 *
 * A is only read, unless C is A itself (same pointers and ldc == lda, strideC == strideA): the inverse is
 * then computed in place. Partial overlap of A and C is not allowed: in the pointer-array form C[b] may be
 * A[b] itself (with ldc == lda) but may not otherwise overlap it, nor any A[b'] of another index b'; the host
 * backend refuses it with ::SMALLLA_INVALID_VALUE, but on the CUDA backend the pointer arrays are device
 * memory and are not checked: such overlap gives undefined results. info[b] = j > 0 when U(j,j) is exactly
 * zero (C is then not meaningful), else 0.
 * @{
 */
/** @brief Fused inverse, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_smatinvBatched(smallla_handle_t handle, int n, const float *const A[],
                                                    int lda, float *const C[], int ldc, int *info, int batch);
/** @brief Fused inverse, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dmatinvBatched(smallla_handle_t handle, int n, const double *const A[],
                                                    int lda, double *const C[], int ldc, int *info, int batch);
/** @brief Fused inverse, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cmatinvBatched(smallla_handle_t handle, int n,
                                                    const smallla_complex_float *const A[], int lda,
                                                    smallla_complex_float *const C[], int ldc, int *info,
                                                    int batch);
/** @brief Fused inverse, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zmatinvBatched(smallla_handle_t handle, int n,
                                                    const smallla_complex_double *const A[], int lda,
                                                    smallla_complex_double *const C[], int ldc, int *info,
                                                    int batch);
/** @brief Fused inverse, single precision, strided. */
SMALLLA_API smallla_status_t smallla_smatinvStridedBatched(smallla_handle_t handle, int n, const float *A,
                                                           int lda, long long strideA, float *C, int ldc,
                                                           long long strideC, int *info, int batch);
/** @brief Fused inverse, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dmatinvStridedBatched(smallla_handle_t handle, int n, const double *A,
                                                           int lda, long long strideA, double *C, int ldc,
                                                           long long strideC, int *info, int batch);
/** @brief Fused inverse, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cmatinvStridedBatched(smallla_handle_t handle, int n,
                                                           const smallla_complex_float *A, int lda,
                                                           long long strideA, smallla_complex_float *C, int ldc,
                                                           long long strideC, int *info, int batch);
/** @brief Fused inverse, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zmatinvStridedBatched(smallla_handle_t handle, int n,
                                                           const smallla_complex_double *A, int lda,
                                                           long long strideA, smallla_complex_double *C,
                                                           int ldc, long long strideC, int *info, int batch);
/** @} */

/**
 * @defgroup getrs Solve from the LU factors (getrs)
 * @brief Solves op(A) X = B for each matrix from getrf's output, LAPACK xGETRS semantics; B (n x nrhs,
 *        ldb >= max(1, n)) is overwritten by X.
 *
 * trans is ::SMALLLA_OP_N, ::SMALLLA_OP_T or ::SMALLLA_OP_C. ipiv may be NULL when A was factored without
 * pivoting. As in LAPACK, no singularity check is made: a zero U(j,j) gives Inf/NaN in X. nrhs = 0 is a
 * no-op. Pointer-array form: ipiv holds n entries per matrix, contiguous. Strided form: matrix b of A at
 * A + b*strideA, of B at B + b*strideB, its pivots at ipiv + b*strideP. B must not overlap A: in the
 * pointer-array form no B[b] may overlap any A[b'] (b' = b included; the A[b] may overlap one another, e.g. the
 * same factors for several B[b]); the host backend refuses it with ::SMALLLA_INVALID_VALUE, but on the CUDA
 * backend the pointer arrays are device memory and are not checked: such overlap gives undefined results.
 * @{
 */
/** @brief Solve from LU, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_sgetrsBatched(smallla_handle_t handle, smallla_operation_t trans, int n,
                                                   int nrhs, const float *const A[], int lda, const int *ipiv,
                                                   float *const B[], int ldb, int batch);
/** @brief Solve from LU, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dgetrsBatched(smallla_handle_t handle, smallla_operation_t trans, int n,
                                                   int nrhs, const double *const A[], int lda, const int *ipiv,
                                                   double *const B[], int ldb, int batch);
/** @brief Solve from LU, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cgetrsBatched(smallla_handle_t handle, smallla_operation_t trans, int n,
                                                   int nrhs, const smallla_complex_float *const A[], int lda,
                                                   const int *ipiv, smallla_complex_float *const B[], int ldb,
                                                   int batch);
/** @brief Solve from LU, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zgetrsBatched(smallla_handle_t handle, smallla_operation_t trans, int n,
                                                   int nrhs, const smallla_complex_double *const A[], int lda,
                                                   const int *ipiv, smallla_complex_double *const B[], int ldb,
                                                   int batch);
/** @brief Solve from LU, single precision, strided. */
SMALLLA_API smallla_status_t smallla_sgetrsStridedBatched(smallla_handle_t handle, smallla_operation_t trans,
                                                          int n, int nrhs, const float *A, int lda,
                                                          long long strideA, const int *ipiv, long long strideP,
                                                          float *B, int ldb, long long strideB, int batch);
/** @brief Solve from LU, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dgetrsStridedBatched(smallla_handle_t handle, smallla_operation_t trans,
                                                          int n, int nrhs, const double *A, int lda,
                                                          long long strideA, const int *ipiv, long long strideP,
                                                          double *B, int ldb, long long strideB, int batch);
/** @brief Solve from LU, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cgetrsStridedBatched(smallla_handle_t handle, smallla_operation_t trans,
                                                          int n, int nrhs, const smallla_complex_float *A,
                                                          int lda, long long strideA, const int *ipiv,
                                                          long long strideP, smallla_complex_float *B, int ldb,
                                                          long long strideB, int batch);
/** @brief Solve from LU, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zgetrsStridedBatched(smallla_handle_t handle, smallla_operation_t trans,
                                                          int n, int nrhs, const smallla_complex_double *A,
                                                          int lda, long long strideA, const int *ipiv,
                                                          long long strideP, smallla_complex_double *B, int ldb,
                                                          long long strideB, int batch);
/** @} */

/**
 * @defgroup potrf Cholesky factorization (potrf)
 * @brief A = L L^H (::SMALLLA_FILL_LOWER) or A = U^H U (::SMALLLA_FILL_UPPER) for each Hermitian (real:
 *        symmetric) positive definite matrix of a batch, LAPACK xPOTRF semantics.
 *
 * Only the uplo triangle of A (the diagonal included) is read, and it is overwritten by the factor L or U; the
 * other triangle is neither read nor written. For complex types the imaginary parts of the diagonal are not
 * read (taken as zero, as in LAPACK), and the factor's diagonal is real and positive (imaginary parts written
 * as zero).
 *
 * info[b] = 0 on success; info[b] = j > 0 when the leading minor of order j is not positive definite: the
 * factorization stopped at step j because the pivot d_j = A(j,j) - sum_{k<j} |L(j,k)|^2 was <= 0 or NaN (a NaN
 * on the diagonal, or one that reaches it, therefore gives info > 0, never a claimed success). The uplo
 * triangle then holds the factor of the leading minor of order j-1 in its first j-1 columns (lower; rows for
 * upper); the rest of the triangle holds unspecified intermediate values. There is no pivoting.
 *
 * Pointer-array form: A is an array of batch pointers (a NULL entry skips its matrix with info[b] = -4, see
 * the file's conventions). Strided form: matrix b starts at A + b*strideA (strideA >= lda*n).
 * @{
 */
/** @brief Cholesky factorization, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_spotrfBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   float *const A[], int lda, int *info, int batch);
/** @brief Cholesky factorization, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dpotrfBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   double *const A[], int lda, int *info, int batch);
/** @brief Cholesky factorization, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cpotrfBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   smallla_complex_float *const A[], int lda, int *info, int batch);
/** @brief Cholesky factorization, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zpotrfBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   smallla_complex_double *const A[], int lda, int *info, int batch);
/** @brief Cholesky factorization, single precision, strided. */
SMALLLA_API smallla_status_t smallla_spotrfStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          float *A, int lda, long long strideA, int *info, int batch);
/** @brief Cholesky factorization, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dpotrfStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          double *A, int lda, long long strideA, int *info,
                                                          int batch);
/** @brief Cholesky factorization, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cpotrfStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          smallla_complex_float *A, int lda, long long strideA,
                                                          int *info, int batch);
/** @brief Cholesky factorization, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zpotrfStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          smallla_complex_double *A, int lda, long long strideA,
                                                          int *info, int batch);
/** @} */

/**
 * @defgroup potrs Solve from the Cholesky factor (potrs)
 * @brief Solves A X = B for each matrix from potrf's output (the uplo triangle of A holding L or U), LAPACK
 *        xPOTRS semantics; B (n x nrhs, ldb >= max(1, n)) is overwritten by X.
 *
 * Only the uplo triangle of A is read (for complex types, the real parts of its diagonal). As in LAPACK no
 * check is made: a zero on the factor's diagonal gives Inf/NaN in X. Any nrhs >= 0; nrhs = 0 is a no-op.
 * Strided form: matrix b of A at A + b*strideA, of B at B + b*strideB (strideB >= ldb*nrhs). B must not
 * overlap A: in the pointer-array form no B[b] may overlap any A[b'] (the A[b] may overlap one another, e.g.
 * one factor for several B[b]); the host backend refuses it with ::SMALLLA_INVALID_VALUE, but on the CUDA
 * backend the pointer arrays are device memory and are not checked: such overlap gives undefined results.
 * @{
 */
/** @brief Solve from the Cholesky factor, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_spotrsBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                   const float *const A[], int lda, float *const B[], int ldb,
                                                   int batch);
/** @brief Solve from the Cholesky factor, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dpotrsBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                   const double *const A[], int lda, double *const B[], int ldb,
                                                   int batch);
/** @brief Solve from the Cholesky factor, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cpotrsBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                   const smallla_complex_float *const A[], int lda,
                                                   smallla_complex_float *const B[], int ldb, int batch);
/** @brief Solve from the Cholesky factor, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zpotrsBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                   const smallla_complex_double *const A[], int lda,
                                                   smallla_complex_double *const B[], int ldb, int batch);
/** @brief Solve from the Cholesky factor, single precision, strided. */
SMALLLA_API smallla_status_t smallla_spotrsStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          int nrhs, const float *A, int lda, long long strideA,
                                                          float *B, int ldb, long long strideB, int batch);
/** @brief Solve from the Cholesky factor, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dpotrsStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          int nrhs, const double *A, int lda, long long strideA,
                                                          double *B, int ldb, long long strideB, int batch);
/** @brief Solve from the Cholesky factor, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cpotrsStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          int nrhs, const smallla_complex_float *A, int lda,
                                                          long long strideA, smallla_complex_float *B, int ldb,
                                                          long long strideB, int batch);
/** @brief Solve from the Cholesky factor, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zpotrsStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          int nrhs, const smallla_complex_double *A, int lda,
                                                          long long strideA, smallla_complex_double *B, int ldb,
                                                          long long strideB, int batch);
/** @} */

/**
 * @defgroup posv Cholesky factorization and solve (posv)
 * @brief LAPACK xPOSV: factors each A as potrf does (A is overwritten by the factor, only the uplo triangle
 *        read and written) and, where that succeeded, overwrites B by the solution X of A X = B.
 *
 * info[b] as potrf's; when info[b] > 0, B[b] is left unchanged and A's triangle is as potrf leaves it. For a
 * Hermitian positive definite A this is about half the work of gesv (getrf + getrs) and needs no pivoting;
 * for a matrix that may be indefinite use getrf and getrs. The overlap rules are potrs's (B must not overlap
 * A). Pointer-array form: a NULL A[b] gives info[b] = -5, a NULL B[b] -7.
 * @{
 */
/** @brief Cholesky factorization and solve, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_sposvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                  float *const A[], int lda, float *const B[], int ldb, int *info,
                                                  int batch);
/** @brief Cholesky factorization and solve, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dposvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                  double *const A[], int lda, double *const B[], int ldb, int *info,
                                                  int batch);
/** @brief Cholesky factorization and solve, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cposvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                  smallla_complex_float *const A[], int lda,
                                                  smallla_complex_float *const B[], int ldb, int *info, int batch);
/** @brief Cholesky factorization and solve, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zposvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n, int nrhs,
                                                  smallla_complex_double *const A[], int lda,
                                                  smallla_complex_double *const B[], int ldb, int *info, int batch);
/** @brief Cholesky factorization and solve, single precision, strided. */
SMALLLA_API smallla_status_t smallla_sposvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                         int nrhs, float *A, int lda, long long strideA, float *B,
                                                         int ldb, long long strideB, int *info, int batch);
/** @brief Cholesky factorization and solve, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dposvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                         int nrhs, double *A, int lda, long long strideA, double *B,
                                                         int ldb, long long strideB, int *info, int batch);
/** @brief Cholesky factorization and solve, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cposvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                         int nrhs, smallla_complex_float *A, int lda,
                                                         long long strideA, smallla_complex_float *B, int ldb,
                                                         long long strideB, int *info, int batch);
/** @brief Cholesky factorization and solve, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zposvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                         int nrhs, smallla_complex_double *A, int lda,
                                                         long long strideA, smallla_complex_double *B, int ldb,
                                                         long long strideB, int *info, int batch);
/** @} */

/**
 * @defgroup potri Inverse from the Cholesky factor (potri)
 * @brief LAPACK xPOTRI: from potrf's output (the uplo triangle of A holding L or U), the uplo triangle of
 *        inv(A) = inv(L)^H inv(L) (or inv(U) inv(U)^H), in place.
 *
 * Only the uplo triangle of A is read and written (for complex types the imaginary parts of the factor's
 * diagonal are not read; those of inv(A)'s diagonal are written as zero). info[b] = j > 0 when the factor's
 * diagonal element j is exactly zero, as LAPACK's xTRTRI reports it; A is then left unchanged. Else 0.
 * @{
 */
/** @brief Inverse from the Cholesky factor, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_spotriBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   float *const A[], int lda, int *info, int batch);
/** @brief Inverse from the Cholesky factor, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dpotriBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   double *const A[], int lda, int *info, int batch);
/** @brief Inverse from the Cholesky factor, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cpotriBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   smallla_complex_float *const A[], int lda, int *info, int batch);
/** @brief Inverse from the Cholesky factor, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zpotriBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   smallla_complex_double *const A[], int lda, int *info, int batch);
/** @brief Inverse from the Cholesky factor, single precision, strided. */
SMALLLA_API smallla_status_t smallla_spotriStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          float *A, int lda, long long strideA, int *info, int batch);
/** @brief Inverse from the Cholesky factor, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dpotriStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          double *A, int lda, long long strideA, int *info,
                                                          int batch);
/** @brief Inverse from the Cholesky factor, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cpotriStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          smallla_complex_float *A, int lda, long long strideA,
                                                          int *info, int batch);
/** @brief Inverse from the Cholesky factor, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zpotriStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          smallla_complex_double *A, int lda, long long strideA,
                                                          int *info, int batch);
/** @} */

/**
 * @defgroup poinv Fused Cholesky inverse (poinv)
 * @brief C = inv(A) as a full matrix (both triangles) straight from the uplo triangle of a Hermitian (real:
 *        symmetric) positive definite A: the Cholesky factorization, the inverse of the factor and their
 *        product in one pass, which LAPACK does as xPOTRF + xPOTRI (+ a copy of the other triangle).
 *
 * Only the uplo triangle of A is read. C (ldc >= max(1, n)) receives all of inv(A): the Hermitian
 * counterpart of each element is its exact conjugate, and the diagonal's imaginary parts are zero. C may be A
 * itself (same pointers, ldc == lda, strideC == strideA): the inverse then replaces A entirely. Partial
 * overlap of A and C is not allowed: in the pointer-array form C[b] may be A[b] itself (with ldc == lda) but
 * may not otherwise overlap it, nor any A[b'] of another index; the host backend refuses it with
 * ::SMALLLA_INVALID_VALUE, but on the CUDA backend the pointer arrays are device memory and are not checked.
 * info[b] as potrf's (j > 0: the leading minor of order j is not positive definite; C's matrix is then not
 * meaningful), else 0.
 * @{
 */
/** @brief Fused Cholesky inverse, single precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_spoinvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   const float *const A[], int lda, float *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Fused Cholesky inverse, double precision, pointer arrays. */
SMALLLA_API smallla_status_t smallla_dpoinvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   const double *const A[], int lda, double *const C[], int ldc,
                                                   int *info, int batch);
/** @brief Fused Cholesky inverse, single complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_cpoinvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   const smallla_complex_float *const A[], int lda,
                                                   smallla_complex_float *const C[], int ldc, int *info, int batch);
/** @brief Fused Cholesky inverse, double complex, pointer arrays. */
SMALLLA_API smallla_status_t smallla_zpoinvBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                   const smallla_complex_double *const A[], int lda,
                                                   smallla_complex_double *const C[], int ldc, int *info, int batch);
/** @brief Fused Cholesky inverse, single precision, strided. */
SMALLLA_API smallla_status_t smallla_spoinvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          const float *A, int lda, long long strideA, float *C,
                                                          int ldc, long long strideC, int *info, int batch);
/** @brief Fused Cholesky inverse, double precision, strided. */
SMALLLA_API smallla_status_t smallla_dpoinvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          const double *A, int lda, long long strideA, double *C,
                                                          int ldc, long long strideC, int *info, int batch);
/** @brief Fused Cholesky inverse, single complex, strided. */
SMALLLA_API smallla_status_t smallla_cpoinvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          const smallla_complex_float *A, int lda, long long strideA,
                                                          smallla_complex_float *C, int ldc, long long strideC,
                                                          int *info, int batch);
/** @brief Fused Cholesky inverse, double complex, strided. */
SMALLLA_API smallla_status_t smallla_zpoinvStridedBatched(smallla_handle_t handle, smallla_fill_t uplo, int n,
                                                          const smallla_complex_double *A, int lda, long long strideA,
                                                          smallla_complex_double *C, int ldc, long long strideC,
                                                          int *info, int batch);
/** @} */

/**
 * @defgroup getrf_iter Iterative (fixed-point) Crout LU (getrf_iter)
 * @brief LU factors computed by iterating Crout's formulas as a fixed point, batched; output in getrf's
 *        convention so that getrs and getri accept it.
 *
 * A sweep evaluates Crout's formulas U(i,j) = a(i,j) - sum_{k<i} L(i,k) U(k,j) (i <= j) and
 * L(i,j) = (a(i,j) - sum_{k<j} L(i,k) U(k,j)) / U(j,j) (i > j) for every entry at once (Jacobi: from the
 * previous sweep's values), starting from A or from the factors passed in (a warm start).
 *
 * Pivoting works through a frontier: column p's pivot is chosen once the L columns 0..p-1 and the U rows
 * 0..p-1 are final, which is proved either by the structure (the column right after the last fixed one is
 * ready after one more sweep) or by a sweep that changed none of them (not by one entry looking settled).
 * Its residuals a(i,p) - sum_{k<p} L(i,k) U(k,p), i >= p, are then final; with partial pivoting the row of
 * the first largest |Re| + |Im| among them is interchanged into place (LAPACK's rule, so the pivots are
 * getrf's except at near-ties, where rounding may decide), and U(p,p) and L(:,p) are written. Rows are
 * never interchanged again above the frontier, and every sweep moves the frontier by at least one column,
 * so the iteration ends after at most n sweeps whatever the matrix (pure Jacobi sweeps of Crout's formulas
 * would need up to 2n - 1: the chain U(1,1) -> L(:,1) -> U(2,2) -> ... -> U(n,n)). On matrices that need no
 * interchanges and on which the sweeps contract (e.g. diagonally dominant ones) the frontier confirms many
 * columns at once and far fewer sweeps are needed; on general matrices the frontier sets the pace (n sweeps).
 *
 * Convergence: the iteration has converged when every pivot is fixed. With tolerance 0 that is the exact
 * fixed point (a LAPACK-quality LU: the test ratio ||PA - LU||_1 / (n ||A||_1 eps) of getrf). A positive
 * tolerance adds a stopping test: after a sweep in which no entry moved by more than
 * tolerance * max |iterate| (|x| = |Re| + |Im|), the remaining pivots are fixed from the values at hand unless
 * one needs an interchange; the factors are then accurate to about the tolerance where the sweeps contract,
 * and no better than the test itself elsewhere (on general matrices prefer tolerance 0). A NaN or Inf in A, or one that reaches a final
 * entry, ends the iteration with ::SMALLLA_ITER_NONFINITE (a NaN that a sweep produces beyond the frontier,
 * in values not yet final, is recomputed from final values later and does no harm); NaN is never reported as
 * converged.
 * @{
 */

/** @brief Version of ::smallla_iter_options_t that this header describes; store it in its version field. */
#define SMALLLA_ITER_OPTIONS_VERSION 1

/** @brief info[b] of smallla_Xgetrf_iter when the iteration did not converge within max_sweeps (and no
 *         fallback was asked for). The output then holds the last sweep's values, in the row order reached
 *         (ipiv: the pivots fixed so far, then the rows as they stand). */
#define SMALLLA_ITER_NOT_CONVERGED (-1)
/** @brief info[b] of smallla_Xgetrf_iter when NaN or Inf was met (in the input, or produced by a sweep and
 *         not cured by the fallback). NaN is never reported as converged. */
#define SMALLLA_ITER_NONFINITE (-2)

/** @brief Where the iteration starts. */
typedef enum smallla_iter_guess_t {
    SMALLLA_ITER_GUESS_A = 0,      /**< From A itself (L = strict lower part of A, U = upper part). */
    SMALLLA_ITER_GUESS_LU_IN = 1   /**< From the factors already in LU (a warm start, e.g. a nearby matrix's). */
} smallla_iter_guess_t;

/** @brief How rows are interchanged. */
typedef enum smallla_iter_pivoting_t {
    SMALLLA_ITER_PIVOT_NONE = 0,    /**< No interchanges; ipiv (if not NULL) receives 1, 2, ..., n. */
    SMALLLA_ITER_PIVOT_REUSE = 1,   /**< Apply the interchanges already in ipiv (e.g. from a nearby matrix)
                                         to A first, and choose none; ipiv is left as it is. Entries must be in
                                         1..n (checked on the host backend; the CUDA kernel leaves a row in
                                         place for an entry outside). */
    SMALLLA_ITER_PIVOT_PARTIAL = 2  /**< Partial pivoting: in each column, the entry of largest |Re| + |Im|
                                         among the remaining rows, chosen as the column converges. With
                                         ::SMALLLA_ITER_GUESS_LU_IN, ipiv must hold on input the pivots that
                                         go with the factors in LU (the previous call's output): they give
                                         the starting row order, and the pivots are then chosen afresh. */
} smallla_iter_pivoting_t;

/** @brief Options of smallla_Xgetrf_iter; start from smallla_iter_options_default(). */
typedef struct smallla_iter_options_t {
    int version;                       /**< Must be ::SMALLLA_ITER_OPTIONS_VERSION. */
    double tolerance;                  /**< Stop when max |new - old| <= tolerance * max |old| over a sweep;
                                            0 means "until nothing changes". Default 0. */
    int max_sweeps;                    /**< At most this many sweeps (>= 0); 0 selects the default, n, which
                                            is always enough (the frontier fixes at least one column per
                                            sweep). */
    smallla_iter_guess_t initial_guess; /**< Default ::SMALLLA_ITER_GUESS_A. */
    smallla_iter_pivoting_t pivoting;  /**< Default ::SMALLLA_ITER_PIVOT_PARTIAL. */
    int fallback_direct;               /**< Nonzero: a matrix that did not converge (or met NaN/Inf) is
                                            factored again from A by the direct LU (getf2's arithmetic; with
                                            partial pivoting whenever ipiv is not NULL, whatever the pivoting
                                            option); info is then its info, or ::SMALLLA_ITER_NONFINITE if its
                                            factors hold NaN/Inf, and sweeps[b] = max_sweeps + 1. Default 1. */
} smallla_iter_options_t;

/** @brief The default options: version set, tolerance 0, max_sweeps 0 (the routine then allows n sweeps,
 *         enough for exact convergence at order n), guess from A, partial pivoting, fallback on. */
SMALLLA_API smallla_iter_options_t smallla_iter_options_default(void);

/**
 * @brief Iterative Crout LU of a strided batch, single precision.
 * @param handle the handle. @param n order of the matrices. @param A the matrices (read only), matrix b at
 *        A + b*strideA. @param lda leading dimension of A. @param strideA distance between matrices of A.
 * @param LU output factors in getrf's convention (and input for a warm start), matrix b at LU + b*strideLU;
 *        may be A itself. @param ldlu leading dimension of LU. @param strideLU distance between matrices of LU.
 * @param ipiv pivots (1-based), matrix b's at ipiv + b*strideP; may be NULL only with
 *        ::SMALLLA_ITER_PIVOT_NONE. @param strideP distance between pivot vectors.
 * @param opts options (host memory on both backends), or NULL for smallla_iter_options_default(); with
 *        ::SMALLLA_ITER_GUESS_LU_IN, LU must not be A.
 * @param sweeps per-matrix sweeps used (may be NULL); max_sweeps + 1 marks a matrix that the direct
 *        fallback factored. @param info per-matrix outcome: 0; j > 0 for the first U(j,j) exactly zero (as
 *        getrf: the factorization is complete); ::SMALLLA_ITER_NOT_CONVERGED; ::SMALLLA_ITER_NONFINITE.
 * @param batch number of matrices.
 * @return ::SMALLLA_SUCCESS; ::SMALLLA_INVALID_VALUE (nothing written) for an invalid argument, the options
 *         included (argument 11: a wrong version, a negative or non-finite tolerance, a negative max_sweeps,
 *         an unknown guess or pivoting), a NULL ipiv without ::SMALLLA_ITER_PIVOT_NONE, or an LU that
 *         overlaps A without being A itself; ::SMALLLA_INVALID_HANDLE; ::SMALLLA_EXECUTION_FAILED,
 *         ::SMALLLA_ALLOC_FAILED on the CUDA backend.
 */
SMALLLA_API smallla_status_t smallla_sgetrf_iter(smallla_handle_t handle, int n, const float *A, int lda,
                                                 long long strideA, float *LU, int ldlu, long long strideLU,
                                                 int *ipiv, long long strideP, const smallla_iter_options_t *opts,
                                                 int *sweeps, int *info, int batch);
/** @brief Iterative Crout LU, double precision; arguments as smallla_sgetrf_iter(). */
SMALLLA_API smallla_status_t smallla_dgetrf_iter(smallla_handle_t handle, int n, const double *A, int lda,
                                                 long long strideA, double *LU, int ldlu, long long strideLU,
                                                 int *ipiv, long long strideP, const smallla_iter_options_t *opts,
                                                 int *sweeps, int *info, int batch);
/** @brief Iterative Crout LU, single complex; arguments as smallla_sgetrf_iter(). */
SMALLLA_API smallla_status_t smallla_cgetrf_iter(smallla_handle_t handle, int n, const smallla_complex_float *A,
                                                 int lda, long long strideA, smallla_complex_float *LU, int ldlu,
                                                 long long strideLU, int *ipiv, long long strideP,
                                                 const smallla_iter_options_t *opts, int *sweeps, int *info,
                                                 int batch);
/** @brief Iterative Crout LU, double complex; arguments as smallla_sgetrf_iter(). */
SMALLLA_API smallla_status_t smallla_zgetrf_iter(smallla_handle_t handle, int n,
                                                 const smallla_complex_double *A, int lda, long long strideA,
                                                 smallla_complex_double *LU, int ldlu, long long strideLU,
                                                 int *ipiv, long long strideP, const smallla_iter_options_t *opts,
                                                 int *sweeps, int *info, int batch);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* SMALLLA_H */
