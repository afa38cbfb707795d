/*
 * A C program built against an installed smallla, either through CMake (find_package(smallla), the target
 * smallla::smallla) or through pkg-config (smallla.pc); see CMakeLists.txt and Makefile beside this file.
 * Factors and inverts a batch with the strided routines and checks ||A C - I||_1 / (n ||A||_1 ||C||_1 eps).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <smallla.h>

static double norm1(int n, const double *M) {
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += fabs(M[i + j * n]);
        best = s > best ? s : best;
    }
    return best;
}

int main(void) {
    enum { n = 6, batch = 100 };
    const long long stride = (long long)n * n;
    double *A = malloc(sizeof(double) * n * n * batch), *LU = malloc(sizeof(double) * n * n * batch);
    double *C = malloc(sizeof(double) * n * n * batch), R[n * n];
    int *ipiv = malloc(sizeof(int) * n * batch), info[batch];
    srand(2026);
    for (int k = 0; k < n * n * batch; ++k) LU[k] = A[k] = 2.0 * rand() / RAND_MAX - 1.0;

    int major, minor, patch;
    smallla_get_version(&major, &minor, &patch);
    smallla_handle_t h;
    if (smallla_create(&h, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS) {
        fprintf(stderr, "smallla_create: %s\n", smallla_last_error(NULL));
        return 1;
    }
    smallla_status_t st = smallla_dgetrfStridedBatched(h, n, LU, n, stride, ipiv, n, info, batch);
    if (st == SMALLLA_SUCCESS)
        st = smallla_dgetriStridedBatched(h, n, LU, n, stride, ipiv, n, C, n, stride, info, batch);
    if (st != SMALLLA_SUCCESS) {
        fprintf(stderr, "%s: %s\n", smallla_status_string(st), smallla_last_error(h));
        return 1;
    }
    double worst = 0;
    int singular = 0;
    for (int b = 0; b < batch; ++b) {
        const double *a = A + b * stride, *c = C + b * stride;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                double s = (i == j) ? -1.0 : 0.0;
                for (int k = 0; k < n; ++k) s += a[i + k * n] * c[k + j * n];
                R[i + j * n] = s;
            }
        double r = norm1(n, R) / (n * norm1(n, a) * norm1(n, c) * DBL_EPSILON);
        worst = r > worst ? r : worst;
        singular += info[b] != 0;
    }
    smallla_destroy(h);
    printf("installed smallla %d.%d.%d: %d inverses of order %d, max ||A C - I|| / (n ||A|| ||C|| eps) = %.2f\n",
           major, minor, patch, batch, n, worst);
    free(A);
    free(LU);
    free(C);
    free(ipiv);
    return (worst < 30 && singular == 0) ? 0 : 1;
}
