/* The main job of smallla: factor and invert a large batch of small matrices, solve with the factors, and
 * check the results with LAPACK's test ratios.
 *
 *   batch_lu_inverse [--n N] [--batch COUNT] [--cuda]
 *
 * Makes COUNT random N x N double matrices (default 100000 of order 16), then on the host backend (or the CUDA
 * backend with --cuda, when this build and machine have it):
 *   - getrf:  A = P L U                    ratio ||P A - L U||_1 / (n ||A||_1 eps)          (LAPACK's DGET01)
 *   - getri:  C = inv(A) from the factors  ratio ||I - C A||_1 / (n ||A||_1 ||C||_1 eps)  (DGET03)
 *   - matinv: C = inv(A) in one call       same ratio
 *   - getrs:  A x = b, one right-hand side ratio ||b - A x||_1 / (||A||_1 ||x||_1 eps)    (DGET02)
 * prints the largest ratio of each over the batch and the time of each call, and exits with status 1 when a
 * ratio exceeds 30 (LAPACK's threshold) or a call fails.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SMALLLA_EXAMPLE_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "smallla.h"
#include "common/lapack_ratios.h"

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A small portable generator (xorshift64*), uniform in [-1, 1). */
static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;
static double uniform(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Device buffers for the CUDA backend; plain host pointers otherwise. */
typedef struct {
    int cuda;
} memory_space;

static void *space_alloc(memory_space s, size_t bytes) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (s.cuda) {
        void *p = NULL;
        return cudaMalloc(&p, bytes) == cudaSuccess ? p : NULL;
    }
#endif
    (void)s;
    /* Touched now, so that the page faults of first use are not timed as the library's work. */
    void *p = malloc(bytes);
    if (p) memset(p, 0, bytes);
    return p;
}
static void space_free(memory_space s, void *p) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (s.cuda) {
        cudaFree(p);
        return;
    }
#endif
    (void)s;
    free(p);
}
static void copy_in(memory_space s, void *dst, const void *src, size_t bytes) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (s.cuda) {
        cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
        return;
    }
#endif
    (void)s;
    memcpy(dst, src, bytes);
}
static void copy_out(memory_space s, void *dst, const void *src, size_t bytes) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (s.cuda) {
        cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
        return;
    }
#endif
    (void)s;
    memcpy(dst, src, bytes);
}
/* Waits for the handle's work (the CUDA backend is asynchronous) so that the times are honest. */
static void finish(memory_space s) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (s.cuda) cudaDeviceSynchronize();
#endif
    (void)s;
}

static int check(smallla_handle_t h, smallla_status_t st, const char *what) {
    if (st != SMALLLA_SUCCESS) {
        fprintf(stderr, "%s failed: %s (%s)\n", what, smallla_status_string(st), smallla_last_error(h));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    int n = 16, batch = 100000, use_cuda = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && i + 1 < argc) batch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cuda")) use_cuda = 1;
        else {
            fprintf(stderr, "usage: %s [--n N] [--batch COUNT] [--cuda]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1 || batch < 1) {
        fprintf(stderr, "n and batch must be positive\n");
        return 2;
    }

    smallla_handle_t h = NULL;
    smallla_backend_t backend = use_cuda ? SMALLLA_BACKEND_CUDA : SMALLLA_BACKEND_HOST;
    if (smallla_create(&h, backend) != SMALLLA_SUCCESS) {
        fprintf(stderr, "cannot create a %s handle: %s\n", use_cuda ? "CUDA" : "host", smallla_last_error(NULL));
        return use_cuda ? 77 : 1; /* 77: skipped, as the test drivers count it */
    }
#ifndef SMALLLA_EXAMPLE_WITH_CUDA
    if (use_cuda) {
        fprintf(stderr, "this example was built without the CUDA runtime; run it without --cuda\n");
        smallla_destroy(h);
        return 77;
    }
#endif
    memory_space space = {use_cuda};

    const size_t elems = (size_t)n * n * batch;
    double *A = malloc(elems * sizeof(double)), *LU = malloc(elems * sizeof(double)),
           *C = malloc(elems * sizeof(double)), *B = malloc((size_t)n * batch * sizeof(double)),
           *X = malloc((size_t)n * batch * sizeof(double)), *work = malloc((size_t)n * n * sizeof(double));
    int *ipiv = malloc((size_t)n * batch * sizeof(int)), *info = malloc((size_t)batch * sizeof(int));
    double *dA = space_alloc(space, elems * sizeof(double)), *dC = space_alloc(space, elems * sizeof(double)),
           *dX = space_alloc(space, (size_t)n * batch * sizeof(double));
    int *dipiv = space_alloc(space, (size_t)n * batch * sizeof(int)),
        *dinfo = space_alloc(space, (size_t)batch * sizeof(int));
    if (!A || !LU || !C || !B || !X || !work || !ipiv || !info || !dA || !dC || !dX || !dipiv || !dinfo) {
        fprintf(stderr, "out of memory for %d matrices of order %d\n", batch, n);
        return 1;
    }
    for (size_t e = 0; e < elems; ++e) A[e] = uniform();
    for (size_t e = 0; e < (size_t)n * batch; ++e) B[e] = uniform();

    const long long stride = (long long)n * n;
    int failed = 0, singular = 0;
    double t0, t_getrf, t_getri, t_matinv, t_getrs;

    /* getrf: LU = P L U in place (in dA) */
    copy_in(space, dA, A, elems * sizeof(double));
    finish(space);
    t0 = now_seconds();
    failed |= check(h, smallla_dgetrfStridedBatched(h, n, dA, n, stride, dipiv, n, dinfo, batch), "getrf");
    finish(space);
    t_getrf = now_seconds() - t0;
    copy_out(space, LU, dA, elems * sizeof(double));
    copy_out(space, ipiv, dipiv, (size_t)n * batch * sizeof(int));
    copy_out(space, info, dinfo, (size_t)batch * sizeof(int));
    for (int b = 0; b < batch; ++b) singular += info[b] != 0;

    /* getri: C = inv(A) from the factors (out of place) */
    t0 = now_seconds();
    failed |= check(h, smallla_dgetriStridedBatched(h, n, dA, n, stride, dipiv, n, dC, n, stride, dinfo, batch),
                    "getri");
    finish(space);
    t_getri = now_seconds() - t0;
    copy_out(space, C, dC, elems * sizeof(double));

    /* getrs: A x = b, one right-hand side per matrix */
    copy_in(space, dX, B, (size_t)n * batch * sizeof(double));
    t0 = now_seconds();
    failed |= check(h, smallla_dgetrsStridedBatched(h, SMALLLA_OP_N, n, 1, dA, n, stride, dipiv, n, dX, n, n, batch),
                    "getrs");
    finish(space);
    t_getrs = now_seconds() - t0;
    copy_out(space, X, dX, (size_t)n * batch * sizeof(double));

    double worst_getrf = 0, worst_getri = 0, worst_getrs = 0, worst_matinv = 0;
    for (int b = 0; b < batch && !failed; ++b) {
        const double *a = A + (size_t)b * n * n;
        if (info[b] != 0) continue;
        double r = ex_getrf_ratio(n, a, LU + (size_t)b * n * n, ipiv + (size_t)b * n, work);
        if (!(r <= worst_getrf)) worst_getrf = r;
        r = ex_inverse_ratio(n, a, C + (size_t)b * n * n, work);
        if (!(r <= worst_getri)) worst_getri = r;
        r = ex_solve_ratio(n, a, X + (size_t)b * n, B + (size_t)b * n, work);
        if (!(r <= worst_getrs)) worst_getrs = r;
    }

    /* matinv: C = inv(A) straight from A, in place in dA */
    copy_in(space, dA, A, elems * sizeof(double));
    finish(space);
    t0 = now_seconds();
    failed |= check(h, smallla_dmatinvStridedBatched(h, n, dA, n, stride, dA, n, stride, dinfo, batch), "matinv");
    finish(space);
    t_matinv = now_seconds() - t0;
    copy_out(space, C, dA, elems * sizeof(double));
    copy_out(space, info, dinfo, (size_t)batch * sizeof(int));
    for (int b = 0; b < batch && !failed; ++b) {
        if (info[b] != 0) continue;
        const double r = ex_inverse_ratio(n, A + (size_t)b * n * n, C + (size_t)b * n * n, work);
        if (!(r <= worst_matinv)) worst_matinv = r;
    }

    printf("smallla batch_lu_inverse: %d matrices of order %d (double), %s backend\n", batch, n,
           use_cuda ? "CUDA" : "host");
    printf("  %-7s %10s %14s %s\n", "routine", "time [ms]", "per matrix[ns]", "largest ratio (must be < 30)");
    printf("  %-7s %10.2f %14.1f %.3g\n", "getrf", 1e3 * t_getrf, 1e9 * t_getrf / batch, worst_getrf);
    printf("  %-7s %10.2f %14.1f %.3g\n", "getri", 1e3 * t_getri, 1e9 * t_getri / batch, worst_getri);
    printf("  %-7s %10.2f %14.1f %.3g\n", "matinv", 1e3 * t_matinv, 1e9 * t_matinv / batch, worst_matinv);
    printf("  %-7s %10.2f %14.1f %.3g\n", "getrs", 1e3 * t_getrs, 1e9 * t_getrs / batch, worst_getrs);
    if (singular) printf("  %d matrices were exactly singular (info > 0) and were not checked\n", singular);

    const int bad = failed || !(worst_getrf < 30) || !(worst_getri < 30) || !(worst_matinv < 30) ||
                    !(worst_getrs < 30);
    printf("%s\n", bad ? "FAILED" : "PASSED");

    space_free(space, dA);
    space_free(space, dC);
    space_free(space, dX);
    space_free(space, dipiv);
    space_free(space, dinfo);
    free(A), free(LU), free(C), free(B), free(X), free(work), free(ipiv), free(info);
    smallla_destroy(h);
    return bad ? 1 : 0;
}
