/*
 * checker.h - the shared test library of smallla's CMocka suites.
 *
 * What it gives a suite (every tests/test_*.c is linked with it):
 *   - precisions as data (chk_prec) and element access through complex double, so one test body serves
 *     s, d, c and z;
 *   - LAPACK's matrix types (diagonal, triangular, random, ill-conditioned, zero column, scaled near
 *     underflow/overflow, diagonally dominant) from a reproducible random generator;
 *   - batches laid out with gaps (ld > rows, stride > ld*cols, pointer arrays in shuffled order) whose gap
 *     elements hold a NaN pattern, so that writes outside the matrices and reads of gap elements show;
 *     outputs can be poisoned with another NaN pattern to prove that every element was written;
 *   - LAPACK's test ratios, as xGET01, xGET02 and xGET03 define them (eps = xLAMCH('Epsilon'), the norms
 *     theirs), computed in double/complex double;
 *   - the LAPACK oracle: reference LAPACK and BLAS, linked explicitly whatever the system's liblapack.so.3
 *     is (cmake/oracle_lapack.cmake says why; chk_main prints the files loaded and, with the reference
 *     oracle, refuses to run when OpenBLAS was loaded instead), and a pivot comparison that tolerates only
 *     genuine near-ties;
 *   - a backend abstraction: a suite runs against SMALLLA_BACKEND_HOST or SMALLLA_BACKEND_CUDA, chosen on
 *     the command line. The chk_* call wrappers take HOST buffers; on the CUDA backend they mirror every
 *     chk_alloc'd buffer to device memory, run the call, wait for the handle's stream and copy the buffers
 *     back, so a suite's checks read host memory on either backend;
 *   - chk_main(), which runs a suite's tests on the chosen backend and reports every test as SKIPPED
 *     (cmocka skip()) when that backend is unavailable (no CUDA in the build, or no device).
 *
 * Usage of a suite (see tests/test_getrf.c):
 *     static void my_test(void **state) {
 *         chk_prec p = chk_state_prec(state);   // the precision the test was registered with
 *         chk_env *env = chk_begin();           // skips the test when the backend is unavailable
 *         ...
 *     }
 *     int main(int argc, char **argv) {
 *         const struct CMUnitTest tests[] = { CHK_TEST_ALL_PRECS(my_test) };
 *         return chk_main(argc, argv, "my_suite", tests, sizeof tests / sizeof tests[0]);
 *     }
 * The suite binary takes the backend as its first argument ("host" or "cuda"; default from the
 * environment variable SMALLLA_TEST_BACKEND, else "host"). tests/CMakeLists.txt registers every
 * tests/test_*.c twice with CTest: <name>.host and <name>.cuda.
 *
 * Conventions: indices are 0-based in C, matrices column-major; "n" is the order. Functions that check
 * something return a count or a ratio and never fail the test themselves, except the chk_expect_* and
 * chk_begin() helpers, which call cmocka's fail_msg()/skip().
 */
#ifndef SMALLLA_TESTS_CHECKER_H
#define SMALLLA_TESTS_CHECKER_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "smallla.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------- */
/* Precisions                                                                                           */
/* ---------------------------------------------------------------------------------------------------- */

/** The four precisions of the library. */
typedef enum chk_prec { CHK_S = 0, CHK_D = 1, CHK_C = 2, CHK_Z = 3 } chk_prec;

/** One constant per precision, usable as a cmocka initial state (see CHK_TEST). */
extern const chk_prec chk_prec_values[4];

size_t chk_elem_size(chk_prec p);   /**< bytes per element */
int chk_is_complex(chk_prec p);     /**< 1 for c and z */
char chk_letter(chk_prec p);        /**< 's', 'd', 'c', 'z' */
double chk_eps(chk_prec p);         /**< LAPACK's eps (xLAMCH('E')): half an ulp of 1 */
double chk_sfmin(chk_prec p);       /**< LAPACK's safe minimum (xLAMCH('S')) */

/** Element idx of an array of precision p, as complex double (imaginary part 0 for real types). */
double _Complex chk_get(chk_prec p, const void *base, long long idx);
/** Stores v (rounded to precision p; the imaginary part is dropped for real types) at element idx. */
void chk_set(chk_prec p, void *base, long long idx, double _Complex v);
/** 1 when element ia of a and element ib of b have identical bits. */
int chk_same_bits(chk_prec p, const void *a, long long ia, const void *b, long long ib);
/** LAPACK's pivot measure of an element: |x| for real, |Re| + |Im| for complex. */
double chk_abs1(chk_prec p, const void *base, long long idx);

/**
 * The orders of the suites' *_large_orders tests, beyond 256: 300 and 600 in double and double complex, 300 in
 * single, 600 in single complex (a few small batches each, to keep the host run short; on the CUDA backend, at
 * these batches of 1-2, the vendor route serves them: cuSOLVER per matrix). getrf and getrs also test n = 1100 in
 * double. Returns the count; *orders receives the list.
 */
int chk_large_orders(chk_prec p, const int **orders);

/* ---------------------------------------------------------------------------------------------------- */
/* Reproducible random numbers                                                                          */
/* ---------------------------------------------------------------------------------------------------- */

/** A small deterministic generator (splitmix64). */
typedef struct chk_rng {
    uint64_t state;
} chk_rng;
void chk_rng_seed(chk_rng *rng, uint64_t seed);
uint64_t chk_rand_u64(chk_rng *rng);
double chk_rand(chk_rng *rng);                      /**< uniform in [-1, 1) */
int chk_rand_int(chk_rng *rng, int lo, int hi);     /**< uniform in [lo, hi] */

/* ---------------------------------------------------------------------------------------------------- */
/* LAPACK's matrix types                                                                                */
/* ---------------------------------------------------------------------------------------------------- */

/** Matrix types, after LAPACK's xCHKGE (types 1-11) plus diagonally dominant matrices for no pivoting. */
typedef enum chk_mtype {
    CHK_MT_RANDOM = 0,        /**< entries uniform in [-1,1) (and i[-1,1)): well conditioned in practice */
    CHK_MT_DIAGONAL,          /**< diagonal, |d| in [1, 2) */
    CHK_MT_UPPER,             /**< upper triangular, |diagonal| in [1, 2) */
    CHK_MT_LOWER,             /**< lower triangular, |diagonal| in [1, 2) */
    CHK_MT_ZERO_FIRST_COL,    /**< random with column 1 zero: getrf info = 1 */
    CHK_MT_ZERO_LAST_COL,     /**< random with column n zero: info = n */
    CHK_MT_ZERO_MIDDLE_COL,   /**< random with column n/2 + 1 zero: info = n/2 + 1 */
    CHK_MT_ILL_SQRT,          /**< condition number sqrt(0.1/eps) (singular values geometric, random rotations) */
    CHK_MT_ILL,               /**< condition number 0.1/eps */
    CHK_MT_SMALL,             /**< random scaled to 0.25 * sfmin / eps (near underflow, as LAPACK's type 10) */
    CHK_MT_LARGE,             /**< random scaled to the reciprocal of that (near overflow, type 11) */
    CHK_MT_DIAG_DOMINANT,     /**< column diagonally dominant: safe without pivoting, and GEPP keeps ipiv = i */
    CHK_MT_COUNT
} chk_mtype;

const char *chk_mtype_name(chk_mtype t);
/** The 1-based column that type t makes zero at order n (so getrf's expected info), 0 if none. */
int chk_mtype_zero_column(chk_mtype t, int n);
/** Writes an n x n matrix of type t into A (leading dimension lda); nothing outside the n x n block. */
void chk_gen(chk_prec p, chk_mtype t, int n, void *A, int lda, chk_rng *rng);
/** Writes a rows x cols matrix with entries uniform in [-1,1) (complex: both parts). */
void chk_gen_random(chk_prec p, int rows, int cols, void *A, int lda, chk_rng *rng);

/* ---------------------------------------------------------------------------------------------------- */
/* Buffers, poison and gaps                                                                             */
/* ---------------------------------------------------------------------------------------------------- */

/** Allocates host memory known to the staging layer (mirrored to the device on the CUDA backend).
 *  Never returns NULL (fails the test instead). bytes == 0 gives a valid 1-element allocation. */
void *chk_alloc(size_t bytes);
/** Frees a chk_alloc'd buffer (and its device mirror). NULL is ignored. */
void chk_free(void *p);

/** The NaN pattern written into outputs before a call ("not written yet"). */
void chk_poison(chk_prec p, void *base, long long count);
/** 1 when element idx holds the poison pattern. */
int chk_is_poison(chk_prec p, const void *base, long long idx);
/** The NaN pattern of gap elements (never part of a matrix; a library must neither read nor write them). */
void chk_fill_gap(chk_prec p, void *base, long long count);
int chk_is_gap(chk_prec p, const void *base, long long idx);

/** Integer sentinels: CHK_INT_POISON for unwritten outputs (ipiv, info), CHK_INT_GAP for gaps. */
#define CHK_INT_POISON (-2000000001)
#define CHK_INT_GAP (-2000000002)

/** The form of a batched call. */
typedef enum chk_form { CHK_STRIDED = 0, CHK_POINTERS = 1 } chk_form;
const char *chk_form_name(chk_form f);

/**
 * A batch of `count` rows x cols matrices in one chk_alloc'd buffer: matrix b's element (i, j) at
 * chk_batch_mat(B, b) + i + j*ld. Strided form: matrix b at base + b*stride. Pointer form: the matrices are
 * still spaced by `stride` inside the buffer, but ptrs[] lists them in a shuffled order (ptrs[b] is matrix
 * b), so a library that ignores the pointers and assumes contiguity fails. Every element of the buffer
 * outside the matrices is a gap element (chk_fill_gap).
 */
typedef struct chk_batch {
    chk_prec prec;
    chk_form form;
    int rows, cols, ld, count;
    long long stride;    /**< elements between consecutive slots (>= ld*cols) */
    void *base;          /**< chk_alloc'd buffer of `elems` elements (gaps before, between and after) */
    long long elems;
    void **ptrs;         /**< pointer form: count pointers (chk_alloc'd); NULL in the strided form */
    long long *offset;   /**< element offset of matrix b in base */
    unsigned char *mask; /**< internal: 1 for matrix elements, 0 for gap elements */
} chk_batch;

/** A batch with everything (matrices included) set to the gap pattern. ld >= rows, stride >= ld*cols;
 *  rng shuffles the pointer form (may be NULL for the identity order). */
chk_batch *chk_batch_new(chk_prec p, chk_form form, int rows, int cols, int ld, long long stride, int count,
                         chk_rng *rng);
void chk_batch_free(chk_batch *B);
/** Matrix b (host pointer). */
void *chk_batch_mat(const chk_batch *B, int b);
/** A copy with the same layout and bits (pointer order included). */
chk_batch *chk_batch_clone(const chk_batch *B);
/** Copies all bits of src into dst (same layout required). */
void chk_batch_copy(chk_batch *dst, const chk_batch *src);
/** Fills every matrix with type t (square batches) or uniform random entries (t = CHK_MT_RANDOM). */
void chk_batch_gen(chk_batch *B, chk_mtype t, chk_rng *rng);
/** Sets every matrix element to the poison pattern. */
void chk_batch_poison(chk_batch *B);
/** Number of gap elements whose bits changed. */
long long chk_batch_gap_changes(const chk_batch *B);
/** Number of elements of matrix b still holding the poison pattern (0 = all written). */
long long chk_batch_unwritten(const chk_batch *B, int b);
/** Number of elements (matrices and gaps) whose bits differ between two batches of the same layout. */
long long chk_batch_differences(const chk_batch *a, const chk_batch *b);

/** Integer vectors (ipiv, info): `count` vectors of `len` entries, vector b at base + b*stride; entries
 *  start as CHK_INT_POISON and gap entries as CHK_INT_GAP. */
typedef struct chk_ints {
    int len, count;
    long long stride;
    int *data;          /**< vector 0 (what a call gets) */
    int *buf;           /**< the chk_alloc'd buffer (gaps before and after data) */
    long long total;    /**< entries in buf */
} chk_ints;
chk_ints *chk_ints_new(int len, long long stride, int count);
void chk_ints_free(chk_ints *v);
int *chk_ints_at(const chk_ints *v, int b);
void chk_ints_poison(chk_ints *v);
long long chk_ints_gap_changes(const chk_ints *v);
long long chk_ints_unwritten(const chk_ints *v, int b);

/* ---------------------------------------------------------------------------------------------------- */
/* LAPACK test ratios (< 30 passes, as in LAPACK's testing); NaN or Inf gives +Inf                       */
/* ---------------------------------------------------------------------------------------------------- */

/** The threshold of LAPACK's tests. */
#define CHK_THRESHOLD 30.0

/** xGET01: ||P A0 - L U||_1 / (n ||A0||_1 eps); ipiv NULL: no pivoting. 0 when n == 0; ||A0||_1 = 0 gives 0 for
 *  a zero residual, else 1/eps. Norms with moduli (xLANGE). */
double chk_ratio_lu(chk_prec p, int n, const void *A0, int lda0, const void *LU, int ldlu, const int *ipiv);
/** xGET03: ||I - C A0||_1 / (n ||A0||_1 ||C||_1 eps) (C times A0, as xGET03); 1/eps when a norm is 0. Norms with
 *  moduli (xLANGE). */
double chk_ratio_inverse(chk_prec p, int n, const void *A0, int lda0, const void *C, int ldc);
/** xGET02: max over the nrhs columns j of ||B0_j - op(A0) X_j||_1 / (||op(A0)||_1 ||X_j||_1 eps), no factor n;
 *  ||op(A0)||_1 with moduli (xLANGE '1' of A0 for N, 'I' for T and C), the columns' norms with xASUM (for
 *  complex types the sum of |Re| + |Im|, as DZASUM/SCASUM); 1/eps when ||op(A0)||_1 or some ||X_j||_1 is 0,
 *  whatever the residual. */
double chk_ratio_solve(chk_prec p, smallla_operation_t trans, int n, int nrhs, const void *A0, int lda0,
                       const void *X, int ldx, const void *B0, int ldb0);

/* ---------------------------------------------------------------------------------------------------- */
/* The LAPACK oracle (reference LAPACK) and reference computations                                      */
/* ---------------------------------------------------------------------------------------------------- */

/** LAPACK xGETRF in place; returns info. */
int chk_lapack_getrf(chk_prec p, int n, void *A, int lda, int *ipiv);
/** LAPACK xGETRI in place (A holds xGETRF's output); returns info. */
int chk_lapack_getri(chk_prec p, int n, void *A, int lda, const int *ipiv);
/** LAPACK xGETRS; returns info (0). */
int chk_lapack_getrs(chk_prec p, smallla_operation_t trans, int n, int nrhs, const void *A, int lda,
                     const int *ipiv, void *B, int ldb);
/** LU without pivoting in place (computed in double / complex double, rounded to p); returns the first j
 *  with U(j,j) == 0, else 0. For building getri/getrs inputs with ipiv == NULL. */
int chk_ref_getrf_nopiv(chk_prec p, int n, void *A, int lda);

/** Factors every matrix of A in place with LAPACK's xGETRF (ipiv != NULL: pivots into ipiv's vectors) or
 *  with chk_ref_getrf_nopiv (ipiv == NULL); info[b] (may be NULL) receives each info. Builds the inputs of
 *  getri/getrs tests independently of the library's own getrf. */
void chk_batch_lapack_getrf(chk_batch *A, chk_ints *ipiv, int *info);

/** The near-tie tolerance tol = 64 max(n, 1) eps of the one near-tie rule (near_tie.h defines the rule). */
double chk_tie_tolerance(chk_prec p, int n);
/**
 * Compares the pivots ipiv (of some implementation) with ipiv_ref (LAPACK's, or the host backend's) for the
 * matrix A0. Returns 1 when identical; 0 when they differ first at a step k that the near-tie rule of
 * near_tie.h accepts (the two candidates, measured with abs1 in a double-precision replay of the reference's
 * elimination, differ but by at most tol (max + the replay's largest entry): rounding may legitimately
 * decide); -1 when they differ otherwise (a defect; an exact tie included: the first maximum must win).
 * *first_diff (may be NULL) receives k or -1, *gap the relative gap of the two candidates at k.
 */
int chk_pivots_agree(chk_prec p, int n, const void *A0, int lda0, const int *ipiv_ref, const int *ipiv,
                     int *first_diff, double *gap);

/* ---------------------------------------------------------------------------------------------------- */
/* Backends, staging and the calls                                                                      */
/* ---------------------------------------------------------------------------------------------------- */

/** The backend a suite runs against. */
typedef struct chk_env {
    smallla_backend_t backend;
    smallla_handle_t h;        /**< the handle under test (NULL when unavailable) */
    smallla_handle_t host;     /**< a host-backend handle: the reference on the CUDA backend (== h on host) */
    int available;             /**< 0: the backend cannot run here (reason in `why`) */
    int stage;                 /**< 1 (default): wrappers mirror host buffers to the device on CUDA; 0: raw */
    char why[256];
} chk_env;

/** The environment of the running suite (set by chk_main). */
chk_env *chk_env_current(void);
/** Start of a test: returns the environment, or skips the test (cmocka skip()) when the backend is not
 *  available, so that CMocka reports it as SKIPPED. */
chk_env *chk_begin(void);
/** 1 when the running suite targets the CUDA backend. */
int chk_on_device(const chk_env *env);

/**
 * Runs a suite: argv[1] (or $SMALLLA_TEST_BACKEND) picks "host" or "cuda"; every test runs in one cmocka
 * group named "<suite>.<backend>". Returns cmocka's failure count, or 77 (CTest's SKIP_RETURN_CODE) when
 * the backend is unavailable and every test was skipped.
 */
int chk_main(int argc, char **argv, const char *suite, const struct CMUnitTest *tests, size_t count);

/** The precision a test was registered with (its cmocka initial state). */
chk_prec chk_state_prec(void **state);

/** A cmocka test entry for function f and precision letter x (s, d, c, z): named "f/x". */
#define CHK_TEST(f, x) \
    { #f "/" #x, f, NULL, NULL, (void *)&chk_prec_values[CHK_PREC_INDEX_##x] }
#define CHK_PREC_INDEX_s 0
#define CHK_PREC_INDEX_d 1
#define CHK_PREC_INDEX_c 2
#define CHK_PREC_INDEX_z 3
/** The four entries of f, one per precision. */
#define CHK_TEST_ALL_PRECS(f) CHK_TEST(f, s), CHK_TEST(f, d), CHK_TEST(f, c), CHK_TEST(f, z)

/*
 * Call wrappers: the library's routines with the precision as data and void pointers. Pointers are HOST
 * buffers from chk_alloc (or pointers into them, or NULL); pointer arrays are host arrays of such pointers.
 * Host backend: the call is made as is. CUDA backend (env->stage == 1): every chk_alloc'd buffer involved is
 * copied to its device mirror, pointer arrays are translated and uploaded, the call is made with device
 * pointers, the handle's stream is synchronized, and the buffers are copied back. Pointers that are not in a
 * chk_alloc'd buffer are passed through unchanged (e.g. host memory, to test that the CUDA backend refuses it).
 * The handle is env->h; to call the host reference on the CUDA backend, use chk_host_env().
 */
chk_env *chk_host_env(void); /**< a host-backend environment (the reference) */

smallla_status_t chk_getrf_strided(chk_env *env, chk_prec p, int n, void *A, int lda, long long strideA,
                                   int *ipiv, long long strideP, int *info, int batch);
smallla_status_t chk_getrf_batched(chk_env *env, chk_prec p, int n, void *const *A, int lda, int *ipiv,
                                   int *info, int batch);
smallla_status_t chk_getri_strided(chk_env *env, chk_prec p, int n, const void *A, int lda, long long strideA,
                                   const int *ipiv, long long strideP, void *C, int ldc, long long strideC,
                                   int *info, int batch);
smallla_status_t chk_getri_batched(chk_env *env, chk_prec p, int n, const void *const *A, int lda,
                                   const int *ipiv, void *const *C, int ldc, int *info, int batch);
smallla_status_t chk_matinv_strided(chk_env *env, chk_prec p, int n, const void *A, int lda, long long strideA,
                                    void *C, int ldc, long long strideC, int *info, int batch);
smallla_status_t chk_matinv_batched(chk_env *env, chk_prec p, int n, const void *const *A, int lda,
                                    void *const *C, int ldc, int *info, int batch);
smallla_status_t chk_getrs_strided(chk_env *env, chk_prec p, smallla_operation_t trans, int n, int nrhs,
                                   const void *A, int lda, long long strideA, const int *ipiv, long long strideP,
                                   void *B, int ldb, long long strideB, int batch);
smallla_status_t chk_getrs_batched(chk_env *env, chk_prec p, smallla_operation_t trans, int n, int nrhs,
                                   const void *const *A, int lda, const int *ipiv, void *const *B, int ldb,
                                   int batch);

/** The same calls on a chk_batch (its form decides strided vs pointer array; ipiv/info as chk_ints, ipiv may
 *  be NULL). In the pointer form the ipiv vectors must be contiguous (stride == n). */
smallla_status_t chk_getrf_on(chk_env *env, chk_batch *A, chk_ints *ipiv, chk_ints *info);
smallla_status_t chk_getri_on(chk_env *env, const chk_batch *A, const chk_ints *ipiv, chk_batch *C,
                              chk_ints *info);
smallla_status_t chk_matinv_on(chk_env *env, const chk_batch *A, chk_batch *C, chk_ints *info);
smallla_status_t chk_getrs_on(chk_env *env, smallla_operation_t trans, const chk_batch *A, const chk_ints *ipiv,
                              chk_batch *B);

/*
 * Staging primitives (what the wrappers use; for suites that call other routines, e.g. getrf_iter):
 * chk_stage_ptr(env, p) returns the pointer to pass for host pointer p (its device mirror on a staging CUDA
 * env, p itself otherwise) and marks its buffer for upload/download; chk_stage_array(env, ptrs, count)
 * does the same for a pointer array (returns a device array of translated pointers); chk_stage_run() uploads
 * the marked buffers (call it before the library call); chk_stage_finish(env) synchronizes the handle's
 * stream, copies the marked buffers back and frees the temporary arrays.
 */
void *chk_stage_ptr(chk_env *env, const void *p);
void *chk_stage_array(chk_env *env, const void *const *ptrs, int count);
void chk_stage_run(chk_env *env);
void chk_stage_finish(chk_env *env);

/* ---------------------------------------------------------------------------------------------------- */
/* The Cholesky family: Hermitian positive definite matrices, LAPACK's xPOT01/02/03, the oracle, calls  */
/* ---------------------------------------------------------------------------------------------------- */

/** LAPACK xCHKPO's matrix types (xLATMS with a Hermitian mode), plus a negative eigenvalue. */
typedef enum chk_pdtype {
    CHK_PD_DIAGONAL = 0,   /**< diagonal, entries in [1, 2) (real) */
    CHK_PD_WELL,           /**< dense, eigenvalues in [1, 2] (condition 2) */
    CHK_PD_ZERO_FIRST,     /**< CHK_PD_WELL with row and column 1 zero: not PD at the first minor, info = 1 */
    CHK_PD_ZERO_LAST,      /**< ... row and column n zero: info = n */
    CHK_PD_ZERO_MIDDLE,    /**< ... row and column n/2 + 1 zero: info = n/2 + 1 */
    CHK_PD_ILL_SQRT,       /**< eigenvalues spread geometrically over a condition sqrt(0.1/eps) */
    CHK_PD_ILL,            /**< ... over a condition 0.1/eps */
    CHK_PD_SMALL,          /**< CHK_PD_WELL scaled near underflow (0.25 sfmin / eps) */
    CHK_PD_LARGE,          /**< CHK_PD_WELL scaled near overflow (its reciprocal) */
    CHK_PD_INDEFINITE,     /**< dense Hermitian with one eigenvalue -1 (the others in [1, 2]): info > 0 */
    CHK_PD_COUNT
} chk_pdtype;
const char *chk_pdtype_name(chk_pdtype t);
/** The info LAPACK's xPOTRF must give for type t by construction (the zero row and column), else -1 (not known
 *  in advance: 0 for the PD types, some j > 0 for CHK_PD_INDEFINITE). */
int chk_pdtype_zero_index(chk_pdtype t, int n);
/** A Hermitian (real: symmetric) n x n matrix of type t, both triangles written, real diagonal. */
void chk_gen_pd(chk_prec p, chk_pdtype t, int n, void *A, int lda, chk_rng *rng);
/** chk_gen_pd for every matrix of a square batch. */
void chk_batch_gen_pd(chk_batch *B, chk_pdtype t, chk_rng *rng);

/** Full (both triangles) Hermitian matrix F (ldf) from the uplo triangle of A: the other triangle the conjugate,
 *  the diagonal's imaginary parts dropped. */
void chk_hermitian_full(chk_prec p, smallla_fill_t uplo, int n, const void *A, int lda, void *F, int ldf);
/** xPOT01: ||L L^H - A0||_1 / (n ||A0||_1 eps) (U^H U for upper) from the factor in the uplo triangle of LU, of
 *  the leading order m <= n (m < n: the part a failed factorization leaves); A0 read through its uplo
 *  triangle. Also +Inf when an imaginary part of the factor's diagonal is not zero (as ZPOT01 checks). */
double chk_ratio_chol(chk_prec p, smallla_fill_t uplo, int m, const void *A0, int lda0, const void *LU, int ldlu);
/** xPOT02 through chk_ratio_solve: ||B0 - A0 X||_1 / (||A0||_1 ||X||_1 eps) with A0 from its uplo triangle. */
double chk_ratio_pd_solve(chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A0, int lda0, const void *X,
                          int ldx, const void *B0, int ldb0);
/** xPOT03 through chk_ratio_inverse: A0 from its uplo triangle, the inverse from the uplo triangle of Ainv
 *  (full = 0) or from all of it (full = 1). */
double chk_ratio_pd_inverse(chk_prec p, smallla_fill_t uplo, int n, const void *A0, int lda0, const void *Ainv,
                            int ldi, int full);

/** LAPACK xPOTRF, xPOTRS, xPOTRI; return info. */
int chk_lapack_potrf(chk_prec p, smallla_fill_t uplo, int n, void *A, int lda);
int chk_lapack_potrs(chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A, int lda, void *B, int ldb);
int chk_lapack_potri(chk_prec p, smallla_fill_t uplo, int n, void *A, int lda);

/** The Cholesky calls with staging (see the call wrappers above); the *_on forms take the form of the batch. */
smallla_status_t chk_potrf_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_ints *info);
smallla_status_t chk_potri_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_ints *info);
smallla_status_t chk_potrs_on(chk_env *env, smallla_fill_t uplo, const chk_batch *A, chk_batch *B);
smallla_status_t chk_posv_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_batch *B, chk_ints *info);
smallla_status_t chk_poinv_on(chk_env *env, smallla_fill_t uplo, const chk_batch *A, chk_batch *C, chk_ints *info);
smallla_status_t chk_potrf_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *A, int lda,
                                   long long strideA, int *info, int batch);
smallla_status_t chk_potrf_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *const *A, int lda,
                                   int *info, int batch);
smallla_status_t chk_potri_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *A, int lda,
                                   long long strideA, int *info, int batch);
smallla_status_t chk_potri_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *const *A, int lda,
                                   int *info, int batch);
smallla_status_t chk_potrs_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A,
                                   int lda, long long strideA, void *B, int ldb, long long strideB, int batch);
smallla_status_t chk_potrs_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs,
                                   const void *const *A, int lda, void *const *B, int ldb, int batch);
smallla_status_t chk_posv_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, void *A, int lda,
                                  long long strideA, void *B, int ldb, long long strideB, int *info, int batch);
smallla_status_t chk_posv_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, void *const *A,
                                  int lda, void *const *B, int ldb, int *info, int batch);
smallla_status_t chk_poinv_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, const void *A, int lda,
                                   long long strideA, void *C, int ldc, long long strideC, int *info, int batch);
smallla_status_t chk_poinv_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, const void *const *A,
                                   int lda, void *const *C, int ldc, int *info, int batch);

/* ---------------------------------------------------------------------------------------------------- */
/* Device helpers (CUDA runtime; without CUDA they report failure)                                      */
/* ---------------------------------------------------------------------------------------------------- */

/** 1 when the tests were built with CUDA (SMALLLA_TEST_HAVE_CUDA) and a device is present. */
int chk_dev_available(void);
void *chk_dev_alloc(size_t bytes);                          /**< NULL on failure */
void chk_dev_free(void *p);
int chk_dev_upload(void *dev, const void *host, size_t bytes);   /**< 0 on success */
int chk_dev_download(void *host, const void *dev, size_t bytes); /**< 0 on success */
int chk_dev_sync(void *stream);                             /**< cudaStreamSynchronize; 0 on success */
void *chk_dev_stream_create(void);                          /**< a new cudaStream_t, NULL on failure */
void chk_dev_stream_destroy(void *stream);
const char *chk_dev_last_error(void);                       /**< the last CUDA error string seen */

/* ---------------------------------------------------------------------------------------------------- */
/* Expectations (fail the running test with a message)                                                  */
/* ---------------------------------------------------------------------------------------------------- */

/** Fails the test with a printf-style message. */
void chk_fail(const char *fmt, ...);
/** Fails unless status == expected; the message includes the handle's last error. */
void chk_expect_status(chk_env *env, smallla_status_t status, smallla_status_t expected, const char *what);
/** Fails unless the last error of h starts with "<fname>: argument <argno> (". */
void chk_expect_arg_error(smallla_handle_t h, const char *fname, int argno);

#ifdef __cplusplus
}
#endif

#endif /* SMALLLA_TESTS_CHECKER_H */
