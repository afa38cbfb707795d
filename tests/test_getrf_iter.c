/*
 * test_getrf_iter.c - smallla_Xgetrf_iter, the iterative (fixed-point) Crout LU, against LAPACK.
 *
 * Every test runs for s, d, c, z on the backend the suite was started with (host or cuda; CUDA tests are
 * SKIPPED without a device). On the CUDA backend the host backend is the second reference.
 *
 * About pivots: with partial pivoting the iteration chooses column k's pivot from Crout's residuals
 * a(i,k) - sum_{j<k} L(i,j) U(j,k), which equal (in exact arithmetic) the column LAPACK's right-looking
 * getf2 searches at step k, but are rounded differently (a dot product instead of k rank-1 updates). So the
 * pivots are LAPACK's except at genuine near-ties, which is what chk_pivots_agree() accepts; a clear
 * difference fails.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker/checker.h"

/* ---- the call, staged to the device on the CUDA backend --------------------------------------------- */

static smallla_status_t call_iter_h(chk_env *env, smallla_handle_t h, chk_prec p, int n, const void *A, int lda,
                                    long long sA, void *LU, int ldlu, long long sLU, int *ipiv, long long sP,
                                    const smallla_iter_options_t *o, int *sweeps, int *info, int batch) {
    const void *dA = chk_stage_ptr(env, A);
    void *dLU = chk_stage_ptr(env, LU);
    int *dP = (int *)chk_stage_ptr(env, ipiv);
    int *dS = (int *)chk_stage_ptr(env, sweeps);
    int *dI = (int *)chk_stage_ptr(env, info);
    chk_stage_run(env);
    smallla_status_t st;
    switch (p) {
    case CHK_S: st = smallla_sgetrf_iter(h, n, (const float *)dA, lda, sA, (float *)dLU, ldlu, sLU, dP, sP, o, dS, dI, batch); break;
    case CHK_D: st = smallla_dgetrf_iter(h, n, (const double *)dA, lda, sA, (double *)dLU, ldlu, sLU, dP, sP, o, dS, dI, batch); break;
    case CHK_C:
        st = smallla_cgetrf_iter(h, n, (const smallla_complex_float *)dA, lda, sA, (smallla_complex_float *)dLU, ldlu, sLU,
                                 dP, sP, o, dS, dI, batch);
        break;
    default:
        st = smallla_zgetrf_iter(h, n, (const smallla_complex_double *)dA, lda, sA, (smallla_complex_double *)dLU, ldlu,
                                 sLU, dP, sP, o, dS, dI, batch);
        break;
    }
    chk_stage_finish(env);
    return st;
}

static smallla_status_t call_iter(chk_env *env, chk_prec p, int n, const void *A, int lda, long long sA, void *LU,
                                  int ldlu, long long sLU, int *ipiv, long long sP, const smallla_iter_options_t *o,
                                  int *sweeps, int *info, int batch) {
    return call_iter_h(env, env->h, p, n, A, lda, sA, LU, ldlu, sLU, ipiv, sP, o, sweeps, info, batch);
}

/* On a chk_batch (strided) with chk_ints outputs. */
static smallla_status_t iter_on(chk_env *env, const chk_batch *A, chk_batch *LU, chk_ints *ipiv,
                                const smallla_iter_options_t *o, chk_ints *sweeps, chk_ints *info) {
    return call_iter(env, A->prec, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, chk_batch_mat(LU, 0), LU->ld, LU->stride,
                     ipiv ? ipiv->data : NULL, ipiv ? ipiv->stride : 0, o, sweeps ? sweeps->data : NULL,
                     info->data, A->count);
}

static smallla_iter_options_t opts_with(double tol, int max_sweeps, smallla_iter_guess_t guess,
                                        smallla_iter_pivoting_t piv, int fallback) {
    smallla_iter_options_t o = smallla_iter_options_default();
    o.tolerance = tol;
    o.max_sweeps = max_sweeps;
    o.initial_guess = guess;
    o.pivoting = piv;
    o.fallback_direct = fallback;
    return o;
}

/* A strided batch with gaps: ld = n + 3, stride = ld*n + 5. */
static chk_batch *new_batch(chk_prec p, int n, int count) {
    return chk_batch_new(p, CHK_STRIDED, n, n, n + 3, (long long)(n + 3) * n + 5, count, NULL);
}

/* Column diagonally dominant by a factor: A = R + d*n*I, R uniform in [-1,1) (d > 1 strongly dominant). */
static void gen_dominant(chk_prec p, int n, void *A, int lda, double d, chk_rng *rng) {
    chk_gen_random(p, n, n, A, lda, rng);
    for (int j = 0; j < n; ++j) {
        const long long e = j + (long long)j * lda;
        chk_set(p, A, e, chk_get(p, A, e) + d * n);
    }
}

/* A <- A + scale * uniform noise (a nearby matrix). */
static void perturb(chk_prec p, int n, void *A, int lda, double scale, chk_rng *rng) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const long long e = i + (long long)j * lda;
            double _Complex noise = chk_rand(rng);
            if (chk_is_complex(p)) noise += I * chk_rand(rng);
            chk_set(p, A, e, chk_get(p, A, e) + scale * noise);
        }
}

/* Checks one factored matrix: status of the factorization against LAPACK on A0 (info, pivots), the LAPACK
 * ratio, and (optionally) the solve through getrs. */
static void expect_lu_like_lapack(chk_env *env, chk_prec p, int n, const void *A0, int lda0, const void *LU, int ldlu,
                                  const int *ipiv, int info, const char *what, int b) {
    void *R = chk_alloc(chk_elem_size(p) * (size_t)n * n);
    int *rp = (int *)chk_alloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) chk_set(p, R, i + (long long)j * n, chk_get(p, A0, i + (long long)j * lda0));
    const int rinfo = chk_lapack_getrf(p, n, R, n, rp);
    if (info != rinfo) chk_fail("%s: matrix %d: info %d, LAPACK's %d", what, b, info, rinfo);
    if (ipiv != NULL) {
        int k = -1;
        double gap = 0;
        if (chk_pivots_agree(p, n, A0, lda0, rp, ipiv, &k, &gap) < 0)
            chk_fail("%s: matrix %d: pivot %d is row %d, LAPACK's %d (relative gap %.3g: not a near-tie)", what, b, k,
                     ipiv[k], rp[k], gap);
    }
    const double ratio = chk_ratio_lu(p, n, A0, lda0, LU, ldlu, ipiv);
    if (!(ratio < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ||PA - LU|| ratio %.3g >= %g", what, b, ratio, CHK_THRESHOLD);
    (void)env;
    chk_free(R);
    chk_free(rp);
}

/* ---- tests ---------------------------------------------------------------------------------------------- */

/* Random matrices, default options (partial pivoting, tolerance 0): LAPACK's info, pivots and test ratio;
 * every output element written, gaps untouched; converged within the default n sweeps; getrs accepts the
 * factors. On CUDA also the same pivots as the host backend. */
static void random_like_lapack(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int orders[] = {1, 2, 3, 4, 5, 7, 8, 11, 16, 17, 24, 31, 32, 33, 48, 64, 100}; /* 100: global scratch on the GPU */
    chk_rng rng;
    chk_rng_seed(&rng, 1000 + p);
    for (size_t t = 0; t < sizeof orders / sizeof orders[0]; ++t) {
        const int n = orders[t], count = n <= 16 ? 40 : (n <= 33 ? 12 : 3);
        chk_batch *A = new_batch(p, n, count);
        chk_batch_gen(A, CHK_MT_RANDOM, &rng);
        chk_batch *A0 = chk_batch_clone(A);
        chk_batch *LU = new_batch(p, n, count);
        chk_batch_poison(LU);
        chk_ints *ipiv = chk_ints_new(n, n + 2, count), *info = chk_ints_new(1, 1, count),
                 *sweeps = chk_ints_new(1, 1, count);
        chk_expect_status(env, iter_on(env, A, LU, ipiv, NULL, sweeps, info), SMALLLA_SUCCESS, "getrf_iter");
        if (chk_batch_differences(A, A0) != 0) chk_fail("n = %d: A was modified", n);
        if (chk_batch_gap_changes(LU) || chk_ints_gap_changes(ipiv) || chk_ints_gap_changes(info) ||
            chk_ints_gap_changes(sweeps))
            chk_fail("n = %d: a gap element was written", n);
        for (int b = 0; b < count; ++b) {
            if (chk_batch_unwritten(LU, b) || chk_ints_unwritten(ipiv, b))
                chk_fail("n = %d: matrix %d: output not fully written", n, b);
            const int sw = chk_ints_at(sweeps, b)[0];
            if (sw < 1 || sw > n) chk_fail("n = %d: matrix %d: %d sweeps, expected 1..n", n, b, sw);
            expect_lu_like_lapack(env, p, n, chk_batch_mat(A0, b), A0->ld, chk_batch_mat(LU, b), LU->ld,
                                  chk_ints_at(ipiv, b), chk_ints_at(info, b)[0], "random", b);
        }
        /* getrs accepts the output: solve A X = B and check LAPACK's solve ratio. */
        {
            const int nrhs = 2;
            chk_batch *B = chk_batch_new(p, CHK_STRIDED, n, nrhs, n + 1, (long long)(n + 1) * nrhs, count, NULL);
            chk_batch_gen(B, CHK_MT_RANDOM, &rng);
            chk_batch *B0 = chk_batch_clone(B);
            chk_expect_status(env,
                              chk_getrs_strided(env, p, SMALLLA_OP_N, n, nrhs, chk_batch_mat(LU, 0), LU->ld, LU->stride,
                                                ipiv->data, ipiv->stride, chk_batch_mat(B, 0), B->ld, B->stride, count),
                              SMALLLA_SUCCESS, "getrs on getrf_iter's factors");
            for (int b = 0; b < count; ++b) {
                const double r = chk_ratio_solve(p, SMALLLA_OP_N, n, nrhs, chk_batch_mat(A0, b), A0->ld,
                                                 chk_batch_mat(B, b), B->ld, chk_batch_mat(B0, b), B0->ld);
                if (!(r < CHK_THRESHOLD)) chk_fail("n = %d: matrix %d: solve ratio %.3g", n, b, r);
            }
            chk_batch_free(B);
            chk_batch_free(B0);
        }
        if (chk_on_device(env)) {
            /* The host backend on the same data: the same info, and pivots that agree up to near-ties. */
            chk_env *host = chk_host_env();
            chk_batch *LUh = new_batch(p, n, count);
            chk_ints *ipivh = chk_ints_new(n, n + 2, count), *infoh = chk_ints_new(1, 1, count);
            chk_expect_status(host, iter_on(host, A0, LUh, ipivh, NULL, NULL, infoh), SMALLLA_SUCCESS, "host");
            for (int b = 0; b < count; ++b) {
                if (chk_ints_at(infoh, b)[0] != chk_ints_at(info, b)[0])
                    chk_fail("n = %d: matrix %d: info %d on the device, %d on the host", n, b,
                             chk_ints_at(info, b)[0], chk_ints_at(infoh, b)[0]);
                if (chk_pivots_agree(p, n, chk_batch_mat(A0, b), A0->ld, chk_ints_at(ipivh, b),
                                     chk_ints_at(ipiv, b), NULL, NULL) < 0)
                    chk_fail("n = %d: matrix %d: device pivots differ from the host's at a clear pivot", n, b);
            }
            chk_batch_free(LUh);
            chk_ints_free(ipivh);
            chk_ints_free(infoh);
        }
        chk_batch_free(A);
        chk_batch_free(A0);
        chk_batch_free(LU);
        chk_ints_free(ipiv);
        chk_ints_free(info);
        chk_ints_free(sweeps);
    }
}

/* LAPACK's matrix types (zero columns -> info = j, ill-conditioned, near underflow and overflow, triangular,
 * diagonal): LAPACK's info and pivots, ratio < 30, with the default options. */
static void matrix_types(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int orders[] = {1, 2, 5, 9, 16, 32, 40};
    chk_rng rng;
    chk_rng_seed(&rng, 2000 + p);
    for (size_t t = 0; t < sizeof orders / sizeof orders[0]; ++t)
        for (int mt = 0; mt < CHK_MT_COUNT; ++mt) {
            const int n = orders[t], count = 4;
            chk_batch *A = new_batch(p, n, count);
            chk_batch_gen(A, (chk_mtype)mt, &rng);
            chk_batch *LU = new_batch(p, n, count);
            chk_batch_poison(LU);
            chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count),
                     *sweeps = chk_ints_new(1, 1, count);
            chk_expect_status(env, iter_on(env, A, LU, ipiv, NULL, sweeps, info), SMALLLA_SUCCESS, "getrf_iter");
            for (int b = 0; b < count; ++b) {
                char what[96];
                snprintf(what, sizeof what, "%s, n = %d", chk_mtype_name((chk_mtype)mt), n);
                if (chk_ints_at(sweeps, b)[0] > n)
                    chk_fail("%s: matrix %d: %d sweeps > n (the direct fallback was needed)", what, b,
                             chk_ints_at(sweeps, b)[0]);
                expect_lu_like_lapack(env, p, n, chk_batch_mat(A, b), A->ld, chk_batch_mat(LU, b), LU->ld,
                                      chk_ints_at(ipiv, b), chk_ints_at(info, b)[0], what, b);
            }
            chk_batch_free(A);
            chk_batch_free(LU);
            chk_ints_free(ipiv);
            chk_ints_free(info);
            chk_ints_free(sweeps);
        }
}

/* Strongly diagonally dominant matrices converge in few sweeps, with and without pivoting (ipiv NULL allowed
 * without pivoting), and with partial pivoting keep ipiv = 1..n. */
static void diagonally_dominant_few_sweeps(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int orders[] = {4, 8, 16, 32, 64};
    chk_rng rng;
    chk_rng_seed(&rng, 3000 + p);
    for (size_t t = 0; t < sizeof orders / sizeof orders[0]; ++t)
        for (int piv = 0; piv < 2; ++piv) {
            const int n = orders[t], count = 8;
            chk_batch *A = new_batch(p, n, count);
            for (int b = 0; b < count; ++b) gen_dominant(p, n, chk_batch_mat(A, b), A->ld, 2.0, &rng);
            chk_batch *LU = new_batch(p, n, count);
            chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count),
                     *sweeps = chk_ints_new(1, 1, count);
            const smallla_iter_options_t o =
                opts_with(0, 0, SMALLLA_ITER_GUESS_A, piv ? SMALLLA_ITER_PIVOT_PARTIAL : SMALLLA_ITER_PIVOT_NONE, 0);
            chk_expect_status(env, iter_on(env, A, LU, piv ? ipiv : NULL, &o, sweeps, info), SMALLLA_SUCCESS,
                              "getrf_iter");
            /* The sweeps contract the error of these matrices by an order of magnitude or more each, so
             * tolerance 0 is reached in about 15 sweeps in double precision whatever n (measured: 13-16 at
             * n = 16..64), against n sweeps for random matrices; 20 leaves room. */
            const int bound = n < 20 ? n : 20;
            for (int b = 0; b < count; ++b) {
                const int sw = chk_ints_at(sweeps, b)[0], inf = chk_ints_at(info, b)[0];
                if (inf != 0) chk_fail("n = %d: matrix %d: info %d", n, b, inf);
                if (sw > bound) chk_fail("n = %d, %s: matrix %d: %d sweeps > %d", n, piv ? "partial" : "none", b, sw, bound);
                if (piv)
                    for (int k = 0; k < n; ++k)
                        if (chk_ints_at(ipiv, b)[k] != k + 1) chk_fail("n = %d: matrix %d: ipiv[%d] = %d", n, b, k, chk_ints_at(ipiv, b)[k]);
                const double r = chk_ratio_lu(p, n, chk_batch_mat(A, b), A->ld, chk_batch_mat(LU, b), LU->ld,
                                              piv ? chk_ints_at(ipiv, b) : NULL);
                if (!(r < CHK_THRESHOLD)) chk_fail("n = %d: matrix %d: ratio %.3g", n, b, r);
            }
            chk_batch_free(A);
            chk_batch_free(LU);
            chk_ints_free(ipiv);
            chk_ints_free(info);
            chk_ints_free(sweeps);
        }
}

/* Warm start: A1 = A0 + small noise, started from A0's factors (and pivots), converges in no more sweeps
 * than from A1 itself (fewer on diagonally dominant matrices), to LAPACK-quality factors of A1; with partial pivoting the pivots are chosen afresh (the
 * same as the cold start's), with reuse they stay A0's. */
static void warm_start(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int orders[] = {8, 16, 32, 48};
    chk_rng rng;
    chk_rng_seed(&rng, 4000 + p);
    const double noise = chk_letter(p) == 's' || chk_letter(p) == 'c' ? 1e-4 : 1e-8;
    for (size_t t = 0; t < sizeof orders / sizeof orders[0]; ++t)
        for (int dominant = 0; dominant < 2; ++dominant)
            for (int mode = 0; mode < 2; ++mode) {
                const int n = orders[t], count = 6;
                const smallla_iter_pivoting_t piv = mode ? SMALLLA_ITER_PIVOT_REUSE : SMALLLA_ITER_PIVOT_PARTIAL;
                chk_batch *A0 = new_batch(p, n, count);
                for (int b = 0; b < count; ++b) {
                    if (dominant) gen_dominant(p, n, chk_batch_mat(A0, b), A0->ld, 0.6, &rng);
                    else chk_gen_random(p, n, n, chk_batch_mat(A0, b), A0->ld, &rng);
                }
                chk_batch *A1 = chk_batch_clone(A0);
                for (int b = 0; b < count; ++b) perturb(p, n, chk_batch_mat(A1, b), A1->ld, noise, &rng);
                chk_batch *LU0 = new_batch(p, n, count), *LUc = new_batch(p, n, count);
                chk_ints *ip0 = chk_ints_new(n, n, count), *ipc = chk_ints_new(n, n, count);
                chk_ints *info = chk_ints_new(1, 1, count), *swc = chk_ints_new(1, 1, count),
                         *sww = chk_ints_new(1, 1, count);
                const smallla_iter_options_t cold = opts_with(0, 0, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_PARTIAL, 0);
                const smallla_iter_options_t warm = opts_with(0, 0, SMALLLA_ITER_GUESS_LU_IN, piv, 0);
                chk_expect_status(env, iter_on(env, A0, LU0, ip0, &cold, NULL, info), SMALLLA_SUCCESS, "A0");
                chk_expect_status(env, iter_on(env, A1, LUc, ipc, &cold, swc, info), SMALLLA_SUCCESS, "A1 cold");
                chk_ints *ipw = chk_ints_new(n, n, count);
                for (int b = 0; b < count; ++b) memcpy(chk_ints_at(ipw, b), chk_ints_at(ip0, b), sizeof(int) * n);
                chk_expect_status(env, iter_on(env, A1, LU0, ipw, &warm, sww, info), SMALLLA_SUCCESS, "A1 warm");
                long cold_total = 0, warm_total = 0;
                for (int b = 0; b < count; ++b) {
                    char what[80];
                    snprintf(what, sizeof what, "warm start (%s, %s, n = %d)", dominant ? "dominant" : "random",
                             mode ? "reuse" : "partial", n);
                    if (chk_ints_at(info, b)[0] != 0) chk_fail("%s: matrix %d: info %d", what, b, chk_ints_at(info, b)[0]);
                    if (mode == 0) {
                        expect_lu_like_lapack(env, p, n, chk_batch_mat(A1, b), A1->ld, chk_batch_mat(LU0, b), LU0->ld,
                                              chk_ints_at(ipw, b), 0, what, b);
                    } else {
                        for (int k = 0; k < n; ++k)
                            if (chk_ints_at(ipw, b)[k] != chk_ints_at(ip0, b)[k]) chk_fail("%s: ipiv was changed", what);
                        const double r = chk_ratio_lu(p, n, chk_batch_mat(A1, b), A1->ld, chk_batch_mat(LU0, b),
                                                      LU0->ld, chk_ints_at(ipw, b));
                        if (!(r < CHK_THRESHOLD)) chk_fail("%s: matrix %d: ratio %.3g", what, b, r);
                    }
                    cold_total += chk_ints_at(swc, b)[0];
                    warm_total += chk_ints_at(sww, b)[0];
                    if (chk_ints_at(sww, b)[0] > chk_ints_at(swc, b)[0])
                        chk_fail("%s: matrix %d: warm start took %d sweeps, cold %d", what, b, chk_ints_at(sww, b)[0],
                                 chk_ints_at(swc, b)[0]);
                }
                /* Strictly fewer only where the sweeps contract (dominant matrices, n past the few sweeps the
                 * frontier needs anyway): on random matrices the error of a warm start is not damped, and
                 * both take the frontier's n sweeps. */
                if (dominant && n >= 16 && !(warm_total < cold_total))
                    chk_fail("n = %d (%s, %s): warm starts took %ld sweeps in all, cold starts %ld", n,
                             dominant ? "dominant" : "random", mode ? "reuse" : "partial", warm_total, cold_total);
                chk_batch_free(A0);
                chk_batch_free(A1);
                chk_batch_free(LU0);
                chk_batch_free(LUc);
                chk_ints_free(ip0);
                chk_ints_free(ipc);
                chk_ints_free(ipw);
                chk_ints_free(info);
                chk_ints_free(swc);
                chk_ints_free(sww);
            }
}

/* max_sweeps = 1 on random matrices: NOT_CONVERGED without the fallback (sweeps = 1, output written); with
 * it the direct getrf's factors (info 0, LAPACK's pivots, ratio < 30) and sweeps = max_sweeps + 1. */
static void not_converged_and_fallback(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    static const int orders[] = {4, 16, 32};
    chk_rng rng;
    chk_rng_seed(&rng, 5000 + p);
    for (size_t t = 0; t < sizeof orders / sizeof orders[0]; ++t)
        for (int fb = 0; fb < 2; ++fb) {
            const int n = orders[t], count = 10;
            chk_batch *A = new_batch(p, n, count);
            chk_batch_gen(A, CHK_MT_RANDOM, &rng);
            chk_batch *LU = new_batch(p, n, count);
            chk_batch_poison(LU);
            chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count),
                     *sweeps = chk_ints_new(1, 1, count);
            const smallla_iter_options_t o = opts_with(0, 1, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_PARTIAL, fb);
            chk_expect_status(env, iter_on(env, A, LU, ipiv, &o, sweeps, info), SMALLLA_SUCCESS, "getrf_iter");
            for (int b = 0; b < count; ++b) {
                const int inf = chk_ints_at(info, b)[0], sw = chk_ints_at(sweeps, b)[0];
                if (chk_batch_unwritten(LU, b)) chk_fail("n = %d: matrix %d: LU not written", n, b);
                if (!fb) {
                    if (inf != SMALLLA_ITER_NOT_CONVERGED) chk_fail("n = %d: matrix %d: info %d, expected NOT_CONVERGED", n, b, inf);
                    if (sw != 1) chk_fail("n = %d: matrix %d: %d sweeps, expected 1", n, b, sw);
                } else {
                    if (sw != 2) chk_fail("n = %d: matrix %d: %d sweeps, expected max_sweeps + 1 = 2 (fallback)", n, b, sw);
                    expect_lu_like_lapack(env, p, n, chk_batch_mat(A, b), A->ld, chk_batch_mat(LU, b), LU->ld,
                                          chk_ints_at(ipiv, b), inf, "fallback", b);
                }
            }
            chk_batch_free(A);
            chk_batch_free(LU);
            chk_ints_free(ipiv);
            chk_ints_free(info);
            chk_ints_free(sweeps);
        }
}

/* NaN or Inf in A: info = NONFINITE (never 0, never converged), with or without the fallback, every pivot
 * mode; no hang, the call returns SUCCESS, the neighbours in the batch are unaffected. */
static void nonfinite_input(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 6000 + p);
    const int n = 12, count = 6;
    for (int fb = 0; fb < 2; ++fb)
        for (int piv = 0; piv < 3; ++piv) {
            chk_batch *A = new_batch(p, n, count);
            chk_batch_gen(A, CHK_MT_RANDOM, &rng);
            /* matrices 1 and 3 hold a NaN, matrix 4 an Inf, at varying places */
            chk_set(p, chk_batch_mat(A, 1), 0, NAN);
            chk_set(p, chk_batch_mat(A, 3), (n - 1) + (long long)(n - 1) * A->ld, NAN);
            chk_set(p, chk_batch_mat(A, 4), 5 + 3LL * A->ld, INFINITY);
            chk_batch *LU = new_batch(p, n, count);
            chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count),
                     *sweeps = chk_ints_new(1, 1, count);
            for (int b = 0; b < count; ++b)
                for (int k = 0; k < n; ++k) chk_ints_at(ipiv, b)[k] = k + 1; /* for reuse */
            const smallla_iter_options_t o = opts_with(0, 0, SMALLLA_ITER_GUESS_A, (smallla_iter_pivoting_t)piv, fb);
            chk_expect_status(env, iter_on(env, A, LU, ipiv, &o, sweeps, info), SMALLLA_SUCCESS, "getrf_iter");
            for (int b = 0; b < count; ++b) {
                const int inf = chk_ints_at(info, b)[0];
                const int bad = b == 1 || b == 3 || b == 4;
                if (bad && inf != SMALLLA_ITER_NONFINITE)
                    chk_fail("pivoting %d, fallback %d: matrix %d with NaN/Inf: info %d, expected NONFINITE", piv, fb, b, inf);
                if (!bad && piv == SMALLLA_ITER_PIVOT_PARTIAL)
                    expect_lu_like_lapack(env, p, n, chk_batch_mat(A, b), A->ld, chk_batch_mat(LU, b), LU->ld,
                                          chk_ints_at(ipiv, b), inf, "finite neighbour", b);
            }
            chk_batch_free(A);
            chk_batch_free(LU);
            chk_ints_free(ipiv);
            chk_ints_free(info);
            chk_ints_free(sweeps);
        }
}

/* Reuse of LAPACK's own pivots, from A and without a warm start: the iteration then has no choice to make and
 * reaches LAPACK-quality factors of P*A; ipiv is left as it was. Pivoting none on a matrix whose leading
 * minor is singular: info = that column, as getrf without pivoting. In place (LU = A). */
static void reuse_none_in_place(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 7000 + p);
    const int n = 20, count = 5;
    chk_batch *A = new_batch(p, n, count);
    chk_batch_gen(A, CHK_MT_RANDOM, &rng);
    chk_batch *A0 = chk_batch_clone(A);
    chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count);
    for (int b = 0; b < count; ++b) {
        void *R = chk_alloc(chk_elem_size(p) * (size_t)n * n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, R, i + (long long)j * n, chk_get(p, chk_batch_mat(A, b), i + (long long)j * A->ld));
        chk_lapack_getrf(p, n, R, n, chk_ints_at(ipiv, b));
        chk_free(R);
    }
    chk_ints *ipiv0 = chk_ints_new(n, n, count);
    for (int b = 0; b < count; ++b) memcpy(chk_ints_at(ipiv0, b), chk_ints_at(ipiv, b), sizeof(int) * n);
    /* in place: LU is A itself */
    const smallla_iter_options_t reuse = opts_with(0, 0, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_REUSE, 0);
    chk_expect_status(env, iter_on(env, A, A, ipiv, &reuse, NULL, info), SMALLLA_SUCCESS, "reuse, in place");
    for (int b = 0; b < count; ++b) {
        if (chk_ints_at(info, b)[0] != 0) chk_fail("reuse: matrix %d: info %d", b, chk_ints_at(info, b)[0]);
        for (int k = 0; k < n; ++k)
            if (chk_ints_at(ipiv, b)[k] != chk_ints_at(ipiv0, b)[k]) chk_fail("reuse: ipiv was changed");
        const double r = chk_ratio_lu(p, n, chk_batch_mat(A0, b), A0->ld, chk_batch_mat(A, b), A->ld, chk_ints_at(ipiv, b));
        if (!(r < CHK_THRESHOLD)) chk_fail("reuse: matrix %d: ratio %.3g", b, r);
    }
    /* none: a zero leading 3x3 minor's last pivot (make A(0:2,0:2) singular: row 2 = row 0 + row 1 there). */
    chk_batch *B = new_batch(p, n, count);
    for (int b = 0; b < count; ++b) {
        void *m = chk_batch_mat(B, b);
        gen_dominant(p, n, m, B->ld, 2.0, &rng);
        for (int j = 0; j < 3; ++j) chk_set(p, m, 2 + (long long)j * B->ld, chk_get(p, m, 0 + (long long)j * B->ld) + chk_get(p, m, 1 + (long long)j * B->ld));
    }
    chk_batch *LU = new_batch(p, n, count);
    const smallla_iter_options_t none = opts_with(0, 0, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_NONE, 0);
    chk_ints_poison(ipiv);
    chk_expect_status(env, iter_on(env, B, LU, ipiv, &none, NULL, info), SMALLLA_SUCCESS, "none");
    for (int b = 0; b < count; ++b) {
        void *R = chk_alloc(chk_elem_size(p) * (size_t)n * n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, R, i + (long long)j * n, chk_get(p, chk_batch_mat(B, b), i + (long long)j * B->ld));
        const int rinfo = chk_ref_getrf_nopiv(p, n, R, n);
        chk_free(R);
        /* The leading 3x3 minor is singular only up to the rounding of row 0 + row 1, so U(3,3) may come out
         * exactly zero (info 3) or tiny (info 0) depending on the arithmetic: either is right, nothing else. */
        const int got = chk_ints_at(info, b)[0];
        if (got != rinfo && !((got == 0 || got == 3) && (rinfo == 0 || rinfo == 3)))
            chk_fail("none: matrix %d: info %d, no-pivoting reference %d", b, chk_ints_at(info, b)[0], rinfo);
        for (int k = 0; k < n; ++k)
            if (chk_ints_at(ipiv, b)[k] != k + 1) chk_fail("none: ipiv[%d] = %d, expected %d", k, chk_ints_at(ipiv, b)[k], k + 1);
    }
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_batch_free(B);
    chk_batch_free(LU);
    chk_ints_free(ipiv);
    chk_ints_free(ipiv0);
    chk_ints_free(info);
}

/* A positive tolerance stops earlier on dominant matrices; the factors are then accurate to about it. */
static void positive_tolerance(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    chk_rng rng;
    chk_rng_seed(&rng, 8000 + p);
    const int n = 32, count = 8;
    chk_batch *A = new_batch(p, n, count);
    for (int b = 0; b < count; ++b) gen_dominant(p, n, chk_batch_mat(A, b), A->ld, 0.6, &rng);
    chk_batch *LU = new_batch(p, n, count);
    chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count), *s0 = chk_ints_new(1, 1, count),
             *s1 = chk_ints_new(1, 1, count);
    const smallla_iter_options_t exact = opts_with(0, 0, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_PARTIAL, 0);
    const double tol = 1e3 * chk_eps(p) > 1e-4 ? 1e3 * chk_eps(p) : 1e-4;
    const smallla_iter_options_t loose = opts_with(tol, 0, SMALLLA_ITER_GUESS_A, SMALLLA_ITER_PIVOT_PARTIAL, 0);
    chk_expect_status(env, iter_on(env, A, LU, ipiv, &exact, s0, info), SMALLLA_SUCCESS, "tolerance 0");
    chk_expect_status(env, iter_on(env, A, LU, ipiv, &loose, s1, info), SMALLLA_SUCCESS, "tolerance > 0");
    long t0 = 0, t1 = 0;
    for (int b = 0; b < count; ++b) {
        if (chk_ints_at(info, b)[0] != 0) chk_fail("matrix %d: info %d", b, chk_ints_at(info, b)[0]);
        t0 += chk_ints_at(s0, b)[0];
        t1 += chk_ints_at(s1, b)[0];
        /* ||PA - LU|| / (n ||A|| eps) scales with tol/eps: allow 30 * tol/eps. */
        const double r = chk_ratio_lu(p, n, chk_batch_mat(A, b), A->ld, chk_batch_mat(LU, b), LU->ld, chk_ints_at(ipiv, b));
        if (!(r < CHK_THRESHOLD * tol / chk_eps(p))) chk_fail("matrix %d: ratio %.3g with tolerance %g", b, r, tol);
    }
    if (!(t1 < t0)) chk_fail("tolerance %g took %ld sweeps in all, tolerance 0 %ld", tol, t1, t0);
    chk_batch_free(A);
    chk_batch_free(LU);
    chk_ints_free(ipiv);
    chk_ints_free(info);
    chk_ints_free(s0);
    chk_ints_free(s1);
}

/* n = 0 and batch = 0 are successful no-ops that write nothing (NULL pointers allowed). */
static void empty_calls(void **state) {
    const chk_prec p = chk_state_prec(state);
    chk_env *env = chk_begin();
    chk_ints *info = chk_ints_new(1, 1, 2);
    chk_expect_status(env, call_iter(env, p, 0, NULL, 1, 0, NULL, 1, 0, NULL, 0, NULL, NULL, info->data, 2),
                      SMALLLA_SUCCESS, "n = 0");
    chk_expect_status(env, call_iter(env, p, 4, NULL, 4, 16, NULL, 4, 16, NULL, 4, NULL, NULL, NULL, 0),
                      SMALLLA_SUCCESS, "batch = 0");
    if (chk_ints_unwritten(info, 0) != 1 || chk_ints_unwritten(info, 1) != 1) chk_fail("n = 0 wrote info");
    chk_ints_free(info);
}

/* Every illegal argument: SMALLLA_INVALID_VALUE (or INVALID_HANDLE), a message naming the function and the
 * argument, and nothing written. */
static void illegal_arguments(void **state) {
    const chk_prec p = chk_state_prec(state);
    /* Unstaged calls: every case fails in the argument checks, before any pointer is used, and staging would
     * synchronize through smallla_get_stream(), which (succeeding) clears the handle's message. */
    chk_env raw = *chk_begin();
    raw.stage = 0;
    chk_env *env = &raw;
    const int n = 4, count = 3, ld = 5;
    const long long st = (long long)ld * n;
    chk_rng rng;
    chk_rng_seed(&rng, 9000 + p);
    chk_batch *A = chk_batch_new(p, CHK_STRIDED, n, n, ld, st, count, NULL);
    chk_batch_gen(A, CHK_MT_RANDOM, &rng);
    chk_batch *LU = chk_batch_new(p, CHK_STRIDED, n, n, ld, st, count, NULL);
    chk_ints *ipiv = chk_ints_new(n, n, count), *info = chk_ints_new(1, 1, count), *sweeps = chk_ints_new(1, 1, count);
    char fname[32];
    snprintf(fname, sizeof fname, "smallla_%cgetrf_iter", chk_letter(p));
    const smallla_iter_options_t def = smallla_iter_options_default();
    smallla_iter_options_t bad_version = def, bad_tol = def, nan_tol = def, bad_sweeps = def, bad_guess = def,
                           bad_piv = def, warm = def, none = def, reuse = def;
    bad_version.version = 99;
    bad_tol.tolerance = -1;
    nan_tol.tolerance = NAN;
    bad_sweeps.max_sweeps = -1;
    bad_guess.initial_guess = (smallla_iter_guess_t)7;
    bad_piv.pivoting = (smallla_iter_pivoting_t)9;
    warm.initial_guess = SMALLLA_ITER_GUESS_LU_IN;
    none.pivoting = SMALLLA_ITER_PIVOT_NONE;
    reuse.pivoting = SMALLLA_ITER_PIVOT_REUSE;
    /* an overlapping LU: A shifted by one element */
    char *shifted = (char *)chk_batch_mat(A, 0) + chk_elem_size(p);
    struct {
        int argno;
        int n, lda, ldlu, batch;
        long long sA, sLU, sP;
        int a_null, lu_null, ipiv_null, info_null;
        const smallla_iter_options_t *o;
        int lu_overlap, lu_is_a, bad_ipiv_entry;
    } cases[] = {
        {2, -1, ld, ld, count, st, st, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {3, n, ld, ld, count, st, st, n, 1, 0, 0, 0, NULL, 0, 0, 0},
        {4, n, n - 1, ld, count, st, st, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {5, n, ld, ld, count, st - 1, st, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {6, n, ld, ld, count, st, st, n, 0, 1, 0, 0, NULL, 0, 0, 0},
        {7, n, ld, 0, count, st, st, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {8, n, ld, ld, count, st, st - 1, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {6, n, ld, ld, count, st, st, n, 0, 0, 0, 0, NULL, 1, 0, 0},
        {9, n, ld, ld, count, st, st, n, 0, 0, 1, 0, NULL, 0, 0, 0},
        {9, n, ld, ld, count, st, st, n, 0, 0, 1, 0, &reuse, 0, 0, 0},
        {10, n, ld, ld, count, st, st, n - 1, 0, 0, 0, 0, NULL, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &bad_version, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &bad_tol, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &nan_tol, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &bad_sweeps, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &bad_guess, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &bad_piv, 0, 0, 0},
        {11, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &warm, 0, 1, 0},
        {13, n, ld, ld, count, st, st, n, 0, 0, 0, 1, NULL, 0, 0, 0},
        {14, n, ld, ld, -1, st, st, n, 0, 0, 0, 0, NULL, 0, 0, 0},
        {9, n, ld, ld, count, st, st, n, 0, 0, 0, 0, &reuse, 0, 0, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (cases[c].bad_ipiv_entry && chk_on_device(env)) continue; /* device memory is not read by the check */
        chk_batch_poison(LU);
        chk_ints_poison(ipiv);
        chk_ints_poison(info);
        chk_ints_poison(sweeps);
        if (cases[c].bad_ipiv_entry) {
            for (int b = 0; b < count; ++b)
                for (int k = 0; k < n; ++k) chk_ints_at(ipiv, b)[k] = k + 1;
            chk_ints_at(ipiv, 1)[2] = n + 1;
        }
        chk_batch *A0 = chk_batch_clone(A);
        chk_batch *LU0 = chk_batch_clone(LU);
        int *ipiv_snapshot = (int *)malloc(sizeof(int) * (size_t)ipiv->total);
        memcpy(ipiv_snapshot, ipiv->buf, sizeof(int) * (size_t)ipiv->total);
        void *lu_arg = cases[c].lu_null ? NULL : chk_batch_mat(LU, 0);
        int ldlu = cases[c].ldlu;
        long long sLU = cases[c].sLU;
        if (cases[c].lu_overlap) lu_arg = shifted;
        if (cases[c].lu_is_a) {
            lu_arg = chk_batch_mat(A, 0);
            ldlu = A->ld;
            sLU = A->stride;
        }
        const smallla_status_t s =
            call_iter(env, p, cases[c].n, cases[c].a_null ? NULL : chk_batch_mat(A, 0), cases[c].lda, cases[c].sA, lu_arg, ldlu,
                      sLU, cases[c].ipiv_null ? NULL : ipiv->data, cases[c].sP, cases[c].o, sweeps->data,
                      cases[c].info_null ? NULL : info->data, cases[c].batch);
        char what[64];
        snprintf(what, sizeof what, "case %zu (argument %d)", c, cases[c].argno);
        chk_expect_status(env, s, SMALLLA_INVALID_VALUE, what);
        chk_expect_arg_error(env->h, fname, cases[c].argno);
        if (chk_batch_differences(A, A0) || chk_batch_differences(LU, LU0) ||
            memcmp(ipiv_snapshot, ipiv->buf, sizeof(int) * (size_t)ipiv->total) || chk_ints_unwritten(info, 0) != 1 ||
            chk_ints_unwritten(sweeps, 0) != 1)
            chk_fail("%s: something was written", what);
        free(ipiv_snapshot);
        chk_batch_free(A0);
        chk_batch_free(LU0);
    }
    /* An invalid handle. */
    {
        const smallla_status_t s = call_iter_h(env, NULL, p, n, chk_batch_mat(A, 0), ld, st, chk_batch_mat(LU, 0), ld, st, ipiv->data, n, NULL,
                                               sweeps->data, info->data, count);
        if (s != SMALLLA_INVALID_HANDLE) chk_fail("NULL handle: status %d", (int)s);
    }
    /* The defaults. */
    if (def.version != SMALLLA_ITER_OPTIONS_VERSION || def.tolerance != 0 || def.max_sweeps != 0 ||
        def.initial_guess != SMALLLA_ITER_GUESS_A || def.pivoting != SMALLLA_ITER_PIVOT_PARTIAL || def.fallback_direct == 0)
        chk_fail("smallla_iter_options_default() is not the documented default");
    (void)none;
    chk_batch_free(A);
    chk_batch_free(LU);
    chk_ints_free(ipiv);
    chk_ints_free(info);
    chk_ints_free(sweeps);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        CHK_TEST_ALL_PRECS(random_like_lapack),
        CHK_TEST_ALL_PRECS(matrix_types),
        CHK_TEST_ALL_PRECS(diagonally_dominant_few_sweeps),
        CHK_TEST_ALL_PRECS(warm_start),
        CHK_TEST_ALL_PRECS(not_converged_and_fallback),
        CHK_TEST_ALL_PRECS(nonfinite_input),
        CHK_TEST_ALL_PRECS(reuse_none_in_place),
        CHK_TEST_ALL_PRECS(positive_tolerance),
        CHK_TEST_ALL_PRECS(empty_calls),
        CHK_TEST_ALL_PRECS(illegal_arguments),
    };
    return chk_main(argc, argv, "getrf_iter", tests, sizeof tests / sizeof tests[0]);
}
