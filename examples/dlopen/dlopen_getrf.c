/*
 * Calling smallla without linking to it: dlopen() the shared library at run time and resolve the entry points
 * with dlsym(). The function pointer types come from the header through __typeof__, so they cannot disagree
 * with the library's prototypes.
 *
 *   dlopen_getrf [path/to/libsmallla.so]     (default: "libsmallla.so.0", found by the dynamic loader)
 *
 * Factors a batch of small matrices with smallla_dgetrfBatched (the pointer-array form), checks
 * ||P A - L U||_1 / (n ||A||_1 eps) for each, and provokes one argument error to show the library's message.
 * Exit status 0 when the results are right.
 */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smallla.h"

/* The entry points this program needs, resolved by name. */
struct smallla_api {
    __typeof__(smallla_create) *create;
    __typeof__(smallla_destroy) *destroy;
    __typeof__(smallla_last_error) *last_error;
    __typeof__(smallla_status_string) *status_string;
    __typeof__(smallla_get_version) *get_version;
    __typeof__(smallla_dgetrfBatched) *dgetrfBatched;
};

static int resolve(void *lib, const char *name, void **fn) {
    dlerror();
    *fn = dlsym(lib, name);
    const char *err = dlerror();
    if (err != NULL || *fn == NULL) {
        fprintf(stderr, "dlsym(%s) failed: %s\n", name, err ? err : "NULL symbol");
        return 0;
    }
    return 1;
}

/* ||P A - L U||_1 / (n ||A||_1 eps) for one column-major n x n matrix and its getrf output. */
static double lu_ratio(int n, const double *A, const double *LU, const int *ipiv) {
    double *PA = malloc(sizeof(double) * n * n);
    memcpy(PA, A, sizeof(double) * n * n);
    for (int i = 0; i < n; ++i) { /* the interchanges, in order, as LAPACK's laswp */
        int p = ipiv[i] - 1;
        for (int j = 0; j < n; ++j) {
            double t = PA[i + j * n];
            PA[i + j * n] = PA[p + j * n];
            PA[p + j * n] = t;
        }
    }
    double norm_r = 0, norm_a = 0;
    for (int j = 0; j < n; ++j) {
        double col_r = 0, col_a = 0;
        for (int i = 0; i < n; ++i) {
            double lu = 0; /* (L U)(i, j) = sum_k L(i, k) U(k, j), L unit lower, U upper */
            for (int k = 0; k <= (i < j ? i : j); ++k) {
                double l = (k == i) ? 1.0 : LU[i + k * n];
                lu += l * LU[k + j * n];
            }
            col_r += fabs(PA[i + j * n] - lu);
            col_a += fabs(A[i + j * n]);
        }
        norm_r = col_r > norm_r ? col_r : norm_r;
        norm_a = col_a > norm_a ? col_a : norm_a;
    }
    free(PA);
    return norm_r / (n * norm_a * DBL_EPSILON);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "libsmallla.so.0";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen(%s) failed: %s\n", path, dlerror());
        return 1;
    }
    struct smallla_api api;
    if (!resolve(lib, "smallla_create", (void **)&api.create) ||
        !resolve(lib, "smallla_destroy", (void **)&api.destroy) ||
        !resolve(lib, "smallla_last_error", (void **)&api.last_error) ||
        !resolve(lib, "smallla_status_string", (void **)&api.status_string) ||
        !resolve(lib, "smallla_get_version", (void **)&api.get_version) ||
        !resolve(lib, "smallla_dgetrfBatched", (void **)&api.dgetrfBatched))
        return 1;

    int major, minor, patch;
    api.get_version(&major, &minor, &patch);
    printf("loaded %s: smallla %d.%d.%d\n", path, major, minor, patch);

    smallla_handle_t h;
    smallla_status_t st = api.create(&h, SMALLLA_BACKEND_HOST);
    if (st != SMALLLA_SUCCESS) {
        fprintf(stderr, "smallla_create: %s: %s\n", api.status_string(st), api.last_error(NULL));
        return 1;
    }

    enum { n = 5, batch = 64 };
    double *A = malloc(sizeof(double) * n * n * batch), *LU = malloc(sizeof(double) * n * n * batch);
    double *ptrs[batch];
    int ipiv[n * batch], info[batch];
    srand(12345);
    for (int k = 0; k < n * n * batch; ++k) A[k] = 2.0 * rand() / RAND_MAX - 1.0;
    memcpy(LU, A, sizeof(double) * n * n * batch);
    for (int b = 0; b < batch; ++b) ptrs[b] = LU + (size_t)b * n * n;

    int failures = 0;
    st = api.dgetrfBatched(h, n, ptrs, n, ipiv, info, batch);
    if (st != SMALLLA_SUCCESS) {
        fprintf(stderr, "smallla_dgetrfBatched: %s: %s\n", api.status_string(st), api.last_error(h));
        return 1;
    }
    double worst = 0;
    for (int b = 0; b < batch; ++b) {
        if (info[b] != 0) ++failures;
        double r = lu_ratio(n, A + (size_t)b * n * n, LU + (size_t)b * n * n, ipiv + b * n);
        worst = r > worst ? r : worst;
    }
    if (!(worst < 30)) ++failures;
    printf("dgetrfBatched: %d matrices of order %d, max ||PA - LU|| / (n ||A|| eps) = %.2f\n", batch, n, worst);

    /* lda = 4 < n = 5: refused, with LAPACK-style message, nothing written */
    int ipiv_before = ipiv[0];
    st = api.dgetrfBatched(h, n, ptrs, 4, ipiv, info, batch);
    printf("lda = 4: %s: %s\n", api.status_string(st), api.last_error(h));
    if (st != SMALLLA_INVALID_VALUE || strstr(api.last_error(h), "argument 4") == NULL || ipiv[0] != ipiv_before)
        ++failures;

    api.destroy(h);
    free(A);
    free(LU);
    dlclose(lib);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
