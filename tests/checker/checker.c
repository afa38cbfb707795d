/* The shared test library of smallla's suites: see checker.h for what each part is for. */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT: which LAPACK the oracle calls really reach */
#include "checker.h"
#include "near_tie.h"

#include <dlfcn.h>

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef double _Complex zd;

/* ---------------------------------------------------------------------------------------------------- */
/* Precisions                                                                                           */
/* ---------------------------------------------------------------------------------------------------- */

const chk_prec chk_prec_values[4] = {CHK_S, CHK_D, CHK_C, CHK_Z};

size_t chk_elem_size(chk_prec p) {
    static const size_t sizes[4] = {sizeof(float), sizeof(double), 2 * sizeof(float), 2 * sizeof(double)};
    return sizes[p];
}
int chk_is_complex(chk_prec p) { return p == CHK_C || p == CHK_Z; }
char chk_letter(chk_prec p) { return "sdcz"[p]; }
static int is_single(chk_prec p) { return p == CHK_S || p == CHK_C; }
double chk_eps(chk_prec p) { return is_single(p) ? FLT_EPSILON * 0.5 : DBL_EPSILON * 0.5; }
double chk_sfmin(chk_prec p) { return is_single(p) ? FLT_MIN : DBL_MIN; }

zd chk_get(chk_prec p, const void *base, long long idx) {
    switch (p) {
    case CHK_S: return ((const float *)base)[idx];
    case CHK_D: return ((const double *)base)[idx];
    case CHK_C: {
        const float *e = (const float *)base + 2 * idx;
        return CMPLX(e[0], e[1]);
    }
    default: {
        const double *e = (const double *)base + 2 * idx;
        return CMPLX(e[0], e[1]);
    }
    }
}

void chk_set(chk_prec p, void *base, long long idx, zd v) {
    switch (p) {
    case CHK_S: ((float *)base)[idx] = (float)creal(v); break;
    case CHK_D: ((double *)base)[idx] = creal(v); break;
    case CHK_C: {
        float *e = (float *)base + 2 * idx;
        e[0] = (float)creal(v);
        e[1] = (float)cimag(v);
        break;
    }
    default: {
        double *e = (double *)base + 2 * idx;
        e[0] = creal(v);
        e[1] = cimag(v);
        break;
    }
    }
}

int chk_same_bits(chk_prec p, const void *a, long long ia, const void *b, long long ib) {
    size_t s = chk_elem_size(p);
    return memcmp((const char *)a + ia * s, (const char *)b + ib * s, s) == 0;
}

int chk_large_orders(chk_prec p, const int **orders) {
    static const int s[] = {300}, d[] = {300, 600}, c[] = {600}, z[] = {300, 600};
    static const int *const lists[4] = {s, d, c, z};
    static const int counts[4] = {1, 2, 1, 2};
    *orders = lists[p];
    return counts[p];
}

static double abs1z(zd v) { return fabs(creal(v)) + fabs(cimag(v)); }
double chk_abs1(chk_prec p, const void *base, long long idx) { return abs1z(chk_get(p, base, idx)); }

/* ---------------------------------------------------------------------------------------------------- */
/* Random numbers                                                                                       */
/* ---------------------------------------------------------------------------------------------------- */

void chk_rng_seed(chk_rng *rng, uint64_t seed) { rng->state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }
uint64_t chk_rand_u64(chk_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
double chk_rand(chk_rng *rng) { return (double)(chk_rand_u64(rng) >> 11) * 0x1.0p-52 - 1.0; }
int chk_rand_int(chk_rng *rng, int lo, int hi) {
    return lo + (int)(chk_rand_u64(rng) % (uint64_t)(hi - lo + 1));
}
static zd rand_entry(chk_prec p, chk_rng *rng) {
    double re = chk_rand(rng);
    return chk_is_complex(p) ? CMPLX(re, chk_rand(rng)) : re;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Matrix types                                                                                         */
/* ---------------------------------------------------------------------------------------------------- */

const char *chk_mtype_name(chk_mtype t) {
    static const char *names[CHK_MT_COUNT] = {"random",          "diagonal",         "upper triangular",
                                              "lower triangular", "zero first column", "zero last column",
                                              "zero middle column", "cond sqrt(0.1/eps)", "cond 0.1/eps",
                                              "scaled near underflow", "scaled near overflow",
                                              "diagonally dominant"};
    return (unsigned)t < CHK_MT_COUNT ? names[t] : "?";
}

int chk_mtype_zero_column(chk_mtype t, int n) {
    if (n <= 0) return 0;
    switch (t) {
    case CHK_MT_ZERO_FIRST_COL: return 1;
    case CHK_MT_ZERO_LAST_COL: return n;
    case CHK_MT_ZERO_MIDDLE_COL: return n / 2 + 1;
    default: return 0;
    }
}

void chk_gen_random(chk_prec p, int rows, int cols, void *A, int lda, chk_rng *rng) {
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) chk_set(p, A, i + (long long)j * lda, rand_entry(p, rng));
}

/* A random unit sign (+-1, or a random point on the unit circle for complex types). */
static zd rand_sign(chk_prec p, chk_rng *rng) {
    if (chk_is_complex(p)) {
        double t = 3.14159265358979323846 * chk_rand(rng);
        return CMPLX(cos(t), sin(t));
    }
    return chk_rand(rng) < 0 ? -1.0 : 1.0;
}

/* W (n x n, complex double, column-major) = Q1 diag(sigma) Q2 with Q1, Q2 random orthogonal/unitary, built
 * from n Householder reflectors of random vectors on each side (dense, with exactly these singular values). */
static void gen_with_singular_values(chk_prec p, int n, zd *W, const double *sigma, chk_rng *rng) {
    zd *v = malloc(sizeof(zd) * (size_t)n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) W[i + (size_t)j * n] = i == j ? sigma[i] : 0.0;
    for (int side = 0; side < 2; ++side) {
        for (int r = 0; r < n; ++r) {
            double vv = 0;
            for (int i = 0; i < n; ++i) {
                v[i] = rand_entry(p, rng);
                vv += creal(v[i] * conj(v[i]));
            }
            if (vv == 0) continue;
            if (side == 0) { /* W = (I - 2 v v^H / vv) W */
                for (int j = 0; j < n; ++j) {
                    zd s = 0;
                    for (int i = 0; i < n; ++i) s += conj(v[i]) * W[i + (size_t)j * n];
                    s *= 2.0 / vv;
                    for (int i = 0; i < n; ++i) W[i + (size_t)j * n] -= s * v[i];
                }
            } else { /* W = W (I - 2 v v^H / vv) */
                for (int i = 0; i < n; ++i) {
                    zd s = 0;
                    for (int j = 0; j < n; ++j) s += W[i + (size_t)j * n] * v[j];
                    s *= 2.0 / vv;
                    for (int j = 0; j < n; ++j) W[i + (size_t)j * n] -= s * conj(v[j]);
                }
            }
        }
    }
    free(v);
}

void chk_gen(chk_prec p, chk_mtype t, int n, void *A, int lda, chk_rng *rng) {
    if (n <= 0) return;
    switch (t) {
    case CHK_MT_DIAGONAL:
    case CHK_MT_UPPER:
    case CHK_MT_LOWER:
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                zd v = 0;
                if (i == j) v = (1.5 + 0.5 * chk_rand(rng)) * rand_sign(p, rng);
                else if ((t == CHK_MT_UPPER && i < j) || (t == CHK_MT_LOWER && i > j)) v = rand_entry(p, rng);
                chk_set(p, A, i + (long long)j * lda, v);
            }
        return;
    case CHK_MT_ILL_SQRT:
    case CHK_MT_ILL: {
        double cond = t == CHK_MT_ILL ? 0.1 / chk_eps(p) : sqrt(0.1 / chk_eps(p));
        double *sigma = malloc(sizeof(double) * (size_t)n);
        zd *W = malloc(sizeof(zd) * (size_t)n * (size_t)n);
        for (int i = 0; i < n; ++i) sigma[i] = n == 1 ? 1.0 : pow(cond, -(double)i / (n - 1));
        gen_with_singular_values(p, n, W, sigma, rng);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, A, i + (long long)j * lda, W[i + (size_t)j * n]);
        free(W);
        free(sigma);
        return;
    }
    case CHK_MT_SMALL:
    case CHK_MT_LARGE: {
        double small = 0.25 * chk_sfmin(p) / chk_eps(p);
        double scale = t == CHK_MT_SMALL ? small : 1.0 / small;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, A, i + (long long)j * lda, scale * rand_entry(p, rng));
        return;
    }
    case CHK_MT_DIAG_DOMINANT:
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                /* |off-diagonal| <= 1 (abs1 <= 2 for complex); the diagonal beats the column's sum */
                zd v = i == j ? (2.0 * n + 1.0) * rand_sign(p, rng) : rand_entry(p, rng);
                chk_set(p, A, i + (long long)j * lda, v);
            }
        return;
    default: {
        chk_gen_random(p, n, n, A, lda, rng);
        int z = chk_mtype_zero_column(t, n);
        if (z > 0)
            for (int i = 0; i < n; ++i) chk_set(p, A, i + (long long)(z - 1) * lda, 0.0);
        return;
    }
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* Expectations                                                                                         */
/* ---------------------------------------------------------------------------------------------------- */

void chk_fail(const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fail_msg("%s", buf);
}

void chk_expect_status(chk_env *env, smallla_status_t status, smallla_status_t expected, const char *what) {
    if (status != expected)
        chk_fail("%s: returned %s, expected %s (last error: \"%s\")", what, smallla_status_string(status),
                 smallla_status_string(expected), smallla_last_error(env ? env->h : NULL));
}

void chk_expect_arg_error(smallla_handle_t h, const char *fname, int argno) {
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s: argument %d (", fname, argno);
    const char *msg = smallla_last_error(h);
    if (msg == NULL || strncmp(msg, prefix, strlen(prefix)) != 0)
        chk_fail("expected a message starting with \"%s\", got \"%s\"", prefix, msg ? msg : "(NULL)");
}

/* ---------------------------------------------------------------------------------------------------- */
/* Buffers known to the staging layer                                                                   */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct alloc_entry {
    char *host;
    size_t bytes;
    void *dev;
    int marked;
} alloc_entry;
static alloc_entry *allocs;
static size_t n_allocs, cap_allocs;

void *chk_alloc(size_t bytes) {
    if (bytes == 0) bytes = 16;
    char *p = malloc(bytes);
    if (!p) chk_fail("chk_alloc: out of host memory (%zu bytes)", bytes);
    if (n_allocs == cap_allocs) {
        cap_allocs = cap_allocs ? 2 * cap_allocs : 64;
        allocs = realloc(allocs, cap_allocs * sizeof *allocs);
    }
    allocs[n_allocs++] = (alloc_entry){p, bytes, NULL, 0};
    return p;
}

void chk_free(void *p) {
    if (!p) return;
    for (size_t i = 0; i < n_allocs; ++i)
        if (allocs[i].host == p) {
            if (allocs[i].dev) chk_dev_free(allocs[i].dev);
            free(p);
            allocs[i] = allocs[--n_allocs];
            return;
        }
    free(p);
}

static alloc_entry *find_alloc(const void *p) {
    const char *c = p;
    for (size_t i = 0; i < n_allocs; ++i)
        if (c >= allocs[i].host && c < allocs[i].host + allocs[i].bytes) return &allocs[i];
    return NULL;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Poison and gap patterns: quiet NaNs with payloads that arithmetic never produces                     */
/* ---------------------------------------------------------------------------------------------------- */

static const uint32_t poison32 = 0x7FE5A5A5u, gap32 = 0x7FD3C3C3u;
static const uint64_t poison64 = 0x7FFDEAD5A5A5A5A5ull, gap64 = 0x7FFB6A9C3C3C3C3Cull;

static void fill_pattern(chk_prec p, void *base, long long count, uint32_t w32, uint64_t w64) {
    long long words = chk_is_complex(p) ? 2 * count : count;
    if (is_single(p))
        for (long long i = 0; i < words; ++i) memcpy((uint32_t *)base + i, &w32, 4);
    else
        for (long long i = 0; i < words; ++i) memcpy((uint64_t *)base + i, &w64, 8);
}
/* An element holds the pattern when any of its parts does (a partial write is still "not written"). */
static int has_pattern(chk_prec p, const void *base, long long idx, uint32_t w32, uint64_t w64) {
    int parts = chk_is_complex(p) ? 2 : 1;
    for (int k = 0; k < parts; ++k) {
        if (is_single(p)) {
            uint32_t w;
            memcpy(&w, (const uint32_t *)base + idx * parts + k, 4);
            if (w == w32) return 1;
        } else {
            uint64_t w;
            memcpy(&w, (const uint64_t *)base + idx * parts + k, 8);
            if (w == w64) return 1;
        }
    }
    return 0;
}
void chk_poison(chk_prec p, void *base, long long count) { fill_pattern(p, base, count, poison32, poison64); }
int chk_is_poison(chk_prec p, const void *base, long long idx) {
    return has_pattern(p, base, idx, poison32, poison64);
}
void chk_fill_gap(chk_prec p, void *base, long long count) { fill_pattern(p, base, count, gap32, gap64); }
/* A gap element is intact only when all of its bits are the gap pattern. */
int chk_is_gap(chk_prec p, const void *base, long long idx) {
    size_t s = chk_elem_size(p);
    unsigned char ref[16];
    fill_pattern(p, ref, 1, gap32, gap64);
    return memcmp((const char *)base + idx * (long long)s, ref, s) == 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Batches                                                                                              */
/* ---------------------------------------------------------------------------------------------------- */

const char *chk_form_name(chk_form f) { return f == CHK_POINTERS ? "pointer array" : "strided"; }

enum { lead_gap = 5, tail_gap = 7 };

chk_batch *chk_batch_new(chk_prec p, chk_form form, int rows, int cols, int ld, long long stride, int count,
                         chk_rng *rng) {
    if (ld < rows || ld < 1 || stride < (long long)ld * cols || count < 0)
        chk_fail("chk_batch_new: bad layout rows %d cols %d ld %d stride %lld count %d", rows, cols, ld, stride,
                 count);
    chk_batch *B = calloc(1, sizeof *B);
    B->prec = p;
    B->form = form;
    B->rows = rows;
    B->cols = cols;
    B->ld = ld;
    B->stride = stride;
    B->count = count;
    B->elems = lead_gap + (long long)count * stride + tail_gap;
    B->base = chk_alloc((size_t)B->elems * chk_elem_size(p));
    chk_fill_gap(p, B->base, B->elems);
    B->mask = calloc((size_t)B->elems, 1);
    B->offset = calloc((size_t)count + 1, sizeof(long long));
    int *slot = malloc(sizeof(int) * ((size_t)count + 1));
    for (int b = 0; b < count; ++b) slot[b] = b;
    if (form == CHK_POINTERS && rng)
        for (int b = count - 1; b > 0; --b) {
            int k = chk_rand_int(rng, 0, b), t = slot[b];
            slot[b] = slot[k];
            slot[k] = t;
        }
    for (int b = 0; b < count; ++b) {
        B->offset[b] = lead_gap + (long long)slot[b] * stride;
        for (int j = 0; j < cols; ++j)
            memset(B->mask + B->offset[b] + (long long)j * ld, 1, (size_t)rows);
    }
    free(slot);
    if (form == CHK_POINTERS) {
        B->ptrs = chk_alloc(sizeof(void *) * ((size_t)count + 1));
        for (int b = 0; b < count; ++b) B->ptrs[b] = chk_batch_mat(B, b);
    }
    return B;
}

void chk_batch_free(chk_batch *B) {
    if (!B) return;
    chk_free(B->base);
    chk_free(B->ptrs);
    free(B->mask);
    free(B->offset);
    free(B);
}

void *chk_batch_mat(const chk_batch *B, int b) {
    long long off = B->count > 0 ? B->offset[b] : lead_gap;
    return (char *)B->base + off * (long long)chk_elem_size(B->prec);
}

chk_batch *chk_batch_clone(const chk_batch *B) {
    chk_batch *C = chk_batch_new(B->prec, B->form, B->rows, B->cols, B->ld, B->stride, B->count, NULL);
    memcpy(C->offset, B->offset, sizeof(long long) * ((size_t)B->count + 1));
    memcpy(C->mask, B->mask, (size_t)B->elems);
    if (C->ptrs)
        for (int b = 0; b < C->count; ++b) C->ptrs[b] = chk_batch_mat(C, b);
    chk_batch_copy(C, B);
    return C;
}

void chk_batch_copy(chk_batch *dst, const chk_batch *src) {
    if (dst->elems != src->elems || dst->prec != src->prec) chk_fail("chk_batch_copy: layouts differ");
    memcpy(dst->base, src->base, (size_t)src->elems * chk_elem_size(src->prec));
}

void chk_batch_gen(chk_batch *B, chk_mtype t, chk_rng *rng) {
    for (int b = 0; b < B->count; ++b) {
        if (B->rows == B->cols) chk_gen(B->prec, t, B->rows, chk_batch_mat(B, b), B->ld, rng);
        else chk_gen_random(B->prec, B->rows, B->cols, chk_batch_mat(B, b), B->ld, rng);
    }
}

void chk_batch_poison(chk_batch *B) {
    for (int b = 0; b < B->count; ++b)
        for (int j = 0; j < B->cols; ++j)
            chk_poison(B->prec, (char *)chk_batch_mat(B, b) + (long long)j * B->ld * (long long)chk_elem_size(B->prec),
                       B->rows);
}

long long chk_batch_gap_changes(const chk_batch *B) {
    long long changed = 0;
    for (long long e = 0; e < B->elems; ++e)
        if (!B->mask[e] && !chk_is_gap(B->prec, B->base, e)) ++changed;
    return changed;
}

long long chk_batch_unwritten(const chk_batch *B, int b) {
    long long n = 0;
    const void *m = chk_batch_mat(B, b);
    for (int j = 0; j < B->cols; ++j)
        for (int i = 0; i < B->rows; ++i)
            if (chk_is_poison(B->prec, m, i + (long long)j * B->ld)) ++n;
    return n;
}

long long chk_batch_differences(const chk_batch *a, const chk_batch *b) {
    if (a->elems != b->elems || a->prec != b->prec) chk_fail("chk_batch_differences: layouts differ");
    long long n = 0;
    for (long long e = 0; e < a->elems; ++e)
        if (!chk_same_bits(a->prec, a->base, e, b->base, e)) ++n;
    return n;
}

enum { int_lead = 3, int_tail = 3 };

chk_ints *chk_ints_new(int len, long long stride, int count) {
    if (len < 0 || stride < len || count < 0) chk_fail("chk_ints_new: bad layout");
    chk_ints *v = calloc(1, sizeof *v);
    v->len = len;
    v->stride = stride;
    v->count = count;
    v->total = int_lead + (long long)count * stride + int_tail;
    v->buf = chk_alloc(sizeof(int) * (size_t)v->total);
    v->data = v->buf + int_lead;
    for (long long e = 0; e < v->total; ++e) v->buf[e] = CHK_INT_GAP;
    chk_ints_poison(v);
    return v;
}
void chk_ints_free(chk_ints *v) {
    if (!v) return;
    chk_free(v->buf);
    free(v);
}
int *chk_ints_at(const chk_ints *v, int b) { return v->data + (long long)b * v->stride; }
void chk_ints_poison(chk_ints *v) {
    for (int b = 0; b < v->count; ++b)
        for (int i = 0; i < v->len; ++i) chk_ints_at(v, b)[i] = CHK_INT_POISON;
}
long long chk_ints_gap_changes(const chk_ints *v) {
    long long n = 0;
    for (long long e = 0; e < v->total; ++e) {
        long long d = e - int_lead;
        int inside = d >= 0 && d < (long long)v->count * v->stride && (d % (v->stride ? v->stride : 1)) < v->len;
        if (!inside && v->buf[e] != CHK_INT_GAP) ++n;
    }
    return n;
}
long long chk_ints_unwritten(const chk_ints *v, int b) {
    long long n = 0;
    for (int i = 0; i < v->len; ++i) n += chk_ints_at(v, b)[i] == CHK_INT_POISON;
    return n;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Ratios                                                                                               */
/* ---------------------------------------------------------------------------------------------------- */

static zd *to_z(chk_prec p, int rows, int cols, const void *A, int lda) {
    zd *W = malloc(sizeof(zd) * ((size_t)rows * (size_t)cols + 1));
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) W[i + (size_t)j * rows] = chk_get(p, A, i + (long long)j * lda);
    return W;
}
/* The 1-norm; NaN anywhere gives NaN (a plain max would let a later column overwrite it). */
static double norm1(const zd *W, int rows, int cols) {
    double m = 0;
    for (int j = 0; j < cols; ++j) {
        double s = 0;
        for (int i = 0; i < rows; ++i) s += cabs(W[i + (size_t)j * rows]);
        if (isnan(s)) return NAN;
        if (s > m) m = s;
    }
    return m;
}
static double finite_or_inf(double r) { return isfinite(r) ? r : INFINITY; }

double chk_ratio_lu(chk_prec p, int n, const void *A0, int lda0, const void *LU, int ldlu, const int *ipiv) {
    if (n <= 0) return 0;
    zd *A = to_z(p, n, n, A0, lda0), *F = to_z(p, n, n, LU, ldlu);
    double anorm = norm1(A, n, n);
    if (ipiv)
        for (int k = 0; k < n; ++k) {
            int r = ipiv[k] - 1;
            if (r < k || r >= n) { /* not a valid partial-pivoting row */
                free(A);
                free(F);
                return INFINITY;
            }
            for (int j = 0; j < n; ++j) {
                zd t = A[k + (size_t)j * n];
                A[k + (size_t)j * n] = A[r + (size_t)j * n];
                A[r + (size_t)j * n] = t;
            }
        }
    /* A := P A0 - L U, column by column: column j of L U is the sum over k <= j of L(:,k) U(k,j) */
    for (int j = 0; j < n; ++j)
        for (int k = 0; k <= j; ++k) {
            const zd u = F[k + (size_t)j * n];
            A[k + (size_t)j * n] -= u; /* L(k,k) = 1 */
            for (int i = k + 1; i < n; ++i) A[i + (size_t)j * n] -= F[i + (size_t)k * n] * u;
        }
    double resid = norm1(A, n, n);
    free(A);
    free(F);
    if (anorm <= 0) return resid == 0 ? 0 : 1.0 / chk_eps(p);
    return finite_or_inf(resid / n / anorm / chk_eps(p));
}

double chk_ratio_inverse(chk_prec p, int n, const void *A0, int lda0, const void *C, int ldc) {
    if (n <= 0) return 0;
    zd *A = to_z(p, n, n, A0, lda0), *X = to_z(p, n, n, C, ldc);
    double anorm = norm1(A, n, n), cnorm = norm1(X, n, n);
    /* xGET03's residual: I - C A (the inverse times A, in this order) */
    zd *R = malloc(sizeof(zd) * (size_t)n * (size_t)n);
    for (int j = 0; j < n; ++j) { /* column j: e_j - sum over k of C(:,k) A(k,j) */
        zd *r = R + (size_t)j * n;
        for (int i = 0; i < n; ++i) r[i] = i == j ? 1.0 : 0.0;
        for (int k = 0; k < n; ++k) {
            const zd a = A[k + (size_t)j * n];
            const zd *x = X + (size_t)k * n;
            for (int i = 0; i < n; ++i) r[i] -= x[i] * a;
        }
    }
    double resid = norm1(R, n, n);
    free(A);
    free(X);
    free(R);
    if (!(anorm > 0) || !(cnorm > 0)) return isnan(anorm + cnorm + resid) ? INFINITY : 1.0 / chk_eps(p);
    /* xGET03: rcond = (1 / anorm) / ainvnm; resid = ((resid * rcond) / eps) / n */
    return finite_or_inf(resid * (1.0 / anorm / cnorm) / chk_eps(p) / n);
}

double chk_ratio_solve(chk_prec p, smallla_operation_t trans, int n, int nrhs, const void *A0, int lda0,
                       const void *X, int ldx, const void *B0, int ldb0) {
    if (n <= 0 || nrhs <= 0) return 0;
    zd *A = to_z(p, n, n, A0, lda0), *Xz = to_z(p, n, nrhs, X, ldx), *B = to_z(p, n, nrhs, B0, ldb0);
    /* opA(i,k) */
    zd *O = malloc(sizeof(zd) * (size_t)n * (size_t)n);
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i) {
            zd a = trans == SMALLLA_OP_N ? A[i + (size_t)k * n] : A[k + (size_t)i * n];
            if (trans == SMALLLA_OP_C) a = conj(a);
            O[i + (size_t)k * n] = a;
        }
    /* xGET02: ||op(A)||_1 with moduli (xLANGE '1' of A for N, 'I' for T and C); the columns of the residual and
     * of X with xASUM, which for complex types sums |Re| + |Im|. */
    double onorm = norm1(O, n, n), worst = 0;
    for (int j = 0; j < nrhs; ++j) {
        double rn = 0, xn = 0;
        for (int i = 0; i < n; ++i) {
            zd s = B[i + (size_t)j * n];
            for (int k = 0; k < n; ++k) s -= O[i + (size_t)k * n] * Xz[k + (size_t)j * n];
            rn += abs1z(s);
            xn += abs1z(Xz[i + (size_t)j * n]);
        }
        double r;
        if (isnan(rn) || isnan(xn) || isnan(onorm)) r = INFINITY;
        else if (!(onorm > 0) || !(xn > 0)) r = 1.0 / chk_eps(p); /* xGET02: whatever the residual */
        else r = rn / onorm / xn / chk_eps(p);
        if (!(r <= worst)) worst = r;
    }
    free(A);
    free(Xz);
    free(B);
    free(O);
    return finite_or_inf(worst);
}

/* ---------------------------------------------------------------------------------------------------- */
/* LAPACK                                                                                               */
/* ---------------------------------------------------------------------------------------------------- */

/* Fortran LAPACK (gfortran calling convention: hidden string lengths at the end). */
extern void sgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void cgetrf_(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
extern void zgetrf_(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
extern void sgetri_(const int *n, float *a, const int *lda, const int *ipiv, float *work, const int *lwork,
                    int *info);
extern void dgetri_(const int *n, double *a, const int *lda, const int *ipiv, double *work, const int *lwork,
                    int *info);
extern void cgetri_(const int *n, void *a, const int *lda, const int *ipiv, void *work, const int *lwork,
                    int *info);
extern void zgetri_(const int *n, void *a, const int *lda, const int *ipiv, void *work, const int *lwork,
                    int *info);
extern void sgetrs_(const char *trans, const int *n, const int *nrhs, const float *a, const int *lda,
                    const int *ipiv, float *b, const int *ldb, int *info, size_t trans_len);
extern void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
                    const int *ipiv, double *b, const int *ldb, int *info, size_t trans_len);
extern void cgetrs_(const char *trans, const int *n, const int *nrhs, const void *a, const int *lda,
                    const int *ipiv, void *b, const int *ldb, int *info, size_t trans_len);
extern void zgetrs_(const char *trans, const int *n, const int *nrhs, const void *a, const int *lda,
                    const int *ipiv, void *b, const int *ldb, int *info, size_t trans_len);

/* A BLAS routine the checker refers to itself (only its address is taken), so that libblas.so.3 is a direct
 * dependency of every suite even under --as-needed: loaded from the oracle's folder first, it is the BLAS that
 * the oracle's LAPACK calls bind to (cmake/oracle_lapack.cmake). */
extern void dgemm_(void);

/* Prints which files provide the oracle's LAPACK and BLAS. With the reference oracle (SMALLLA_TEST_REFERENCE_LAPACK,
 * cmake/oracle_lapack.cmake) returns 0 when OpenBLAS was loaded instead, for example through LD_LIBRARY_PATH or a
 * staging that copied the alternatives' liblapack.so.3: its getrf rounds differently on extreme inputs, and the
 * suites' verdicts would not be reference LAPACK's. */
static int oracle_loaded(const char *suite) {
    Dl_info li, bi;
    const char *lapack = dladdr((const void *)dgetrf_, &li) && li.dli_fname ? li.dli_fname : "(unknown)";
    const char *blas = dladdr((const void *)dgemm_, &bi) && bi.dli_fname ? bi.dli_fname : "(unknown)";
    printf("%s: LAPACK oracle from %s, BLAS from %s\n", suite, lapack, blas);
#ifdef SMALLLA_TEST_REFERENCE_LAPACK
    if (dlsym(RTLD_DEFAULT, "openblas_get_config") != NULL) {
        fprintf(stderr,
                "%s: the tests' oracle must be reference LAPACK, but OpenBLAS is loaded (LAPACK from %s, BLAS from "
                "%s); see cmake/oracle_lapack.cmake\n",
                suite, lapack, blas);
        return 0;
    }
#endif
    return 1;
}

int chk_lapack_getrf(chk_prec p, int n, void *A, int lda, int *ipiv) {
    int info = 0;
    if (n <= 0) return 0;
    switch (p) {
    case CHK_S: sgetrf_(&n, &n, A, &lda, ipiv, &info); break;
    case CHK_D: dgetrf_(&n, &n, A, &lda, ipiv, &info); break;
    case CHK_C: cgetrf_(&n, &n, A, &lda, ipiv, &info); break;
    case CHK_Z: zgetrf_(&n, &n, A, &lda, ipiv, &info); break;
    }
    return info;
}

int chk_lapack_getri(chk_prec p, int n, void *A, int lda, const int *ipiv) {
    int info = 0, lwork = 64 * (n > 1 ? n : 1);
    if (n <= 0) return 0;
    void *work = malloc(chk_elem_size(p) * (size_t)lwork);
    switch (p) {
    case CHK_S: sgetri_(&n, A, &lda, ipiv, work, &lwork, &info); break;
    case CHK_D: dgetri_(&n, A, &lda, ipiv, work, &lwork, &info); break;
    case CHK_C: cgetri_(&n, A, &lda, ipiv, work, &lwork, &info); break;
    case CHK_Z: zgetri_(&n, A, &lda, ipiv, work, &lwork, &info); break;
    }
    free(work);
    return info;
}

int chk_lapack_getrs(chk_prec p, smallla_operation_t trans, int n, int nrhs, const void *A, int lda,
                     const int *ipiv, void *B, int ldb) {
    int info = 0;
    const char *t = trans == SMALLLA_OP_N ? "N" : trans == SMALLLA_OP_T ? "T" : "C";
    if (n <= 0 || nrhs <= 0) return 0;
    switch (p) {
    case CHK_S: sgetrs_(t, &n, &nrhs, A, &lda, ipiv, B, &ldb, &info, 1); break;
    case CHK_D: dgetrs_(t, &n, &nrhs, A, &lda, ipiv, B, &ldb, &info, 1); break;
    case CHK_C: cgetrs_(t, &n, &nrhs, A, &lda, ipiv, B, &ldb, &info, 1); break;
    case CHK_Z: zgetrs_(t, &n, &nrhs, A, &lda, ipiv, B, &ldb, &info, 1); break;
    }
    return info;
}

int chk_ref_getrf_nopiv(chk_prec p, int n, void *A, int lda) {
    if (n <= 0) return 0;
    zd *W = to_z(p, n, n, A, lda);
    int info = 0;
    for (int k = 0; k < n; ++k) {
        zd piv = W[k + (size_t)k * n];
        if (piv != 0) {
            for (int i = k + 1; i < n; ++i) W[i + (size_t)k * n] /= piv;
        } else if (!info) {
            info = k + 1;
        }
        for (int j = k + 1; j < n; ++j)
            for (int i = k + 1; i < n; ++i) W[i + (size_t)j * n] -= W[i + (size_t)k * n] * W[k + (size_t)j * n];
    }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) chk_set(p, A, i + (long long)j * lda, W[i + (size_t)j * n]);
    free(W);
    return info;
}

double chk_tie_tolerance(chk_prec p, int n) { return chk_near_tie_tolerance(n, chk_eps(p)); }

int chk_pivots_agree(chk_prec p, int n, const void *A0, int lda0, const int *ipiv_ref, const int *ipiv,
                     int *first_diff, double *gap) {
    if (first_diff) *first_diff = -1;
    if (gap) *gap = 0;
    int k0 = -1;
    for (int k = 0; k < n; ++k)
        if (ipiv_ref[k] != ipiv[k]) {
            k0 = k;
            break;
        }
    if (k0 < 0) return 1;
    if (first_diff) *first_diff = k0;
    /* near_tie.h: the replay of the reference's elimination and the rule */
    double *W = malloc(sizeof(double) * 2 * (size_t)n * (size_t)n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            zd v = chk_get(p, A0, i + (long long)j * lda0);
            W[2 * (i + (size_t)j * n)] = creal(v);
            W[2 * (i + (size_t)j * n) + 1] = cimag(v);
        }
    int tie = chk_near_tie_replay(n, W, ipiv_ref, ipiv, k0, chk_eps(p), gap);
    free(W);
    return tie ? 0 : -1;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Environments                                                                                         */
/* ---------------------------------------------------------------------------------------------------- */

static chk_env current_env, host_env;

chk_env *chk_env_current(void) { return &current_env; }
chk_env *chk_host_env(void) { return &host_env; }
int chk_on_device(const chk_env *env) { return env->backend == SMALLLA_BACKEND_CUDA; }

chk_env *chk_begin(void) {
    if (!current_env.available) {
        print_message("      skipped: %s\n", current_env.why);
        skip();
    }
    /* each test starts from a clean message state */
    return &current_env;
}

chk_prec chk_state_prec(void **state) { return *(const chk_prec *)*state; }

int chk_main(int argc, char **argv, const char *suite, const struct CMUnitTest *tests, size_t count) {
    const char *which = argc > 1 ? argv[1] : getenv("SMALLLA_TEST_BACKEND");
    if (!which || !*which) which = "host";
    int cuda = strcmp(which, "cuda") == 0;
    if (!cuda && strcmp(which, "host") != 0) {
        fprintf(stderr, "%s: unknown backend \"%s\" (host or cuda)\n", suite, which);
        return 2;
    }
    if (!oracle_loaded(suite)) return 1;
    if (smallla_create(&host_env.h, SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS) {
        fprintf(stderr, "%s: cannot create a host handle: %s\n", suite, smallla_last_error(NULL));
        return 1;
    }
    host_env.backend = SMALLLA_BACKEND_HOST;
    host_env.host = host_env.h;
    host_env.available = 1;
    host_env.stage = 0;
    current_env = host_env;
    current_env.stage = 1;
    if (cuda) {
        current_env.backend = SMALLLA_BACKEND_CUDA;
        current_env.h = NULL;
        current_env.available = 0;
        if (!chk_dev_available()) {
            snprintf(current_env.why, sizeof current_env.why, "CUDA backend not tested: %s", chk_dev_last_error());
        } else if (smallla_create(&current_env.h, SMALLLA_BACKEND_CUDA) != SMALLLA_SUCCESS) {
            snprintf(current_env.why, sizeof current_env.why, "CUDA backend not available: %s",
                     smallla_last_error(NULL));
            current_env.h = NULL;
        } else {
            current_env.available = 1;
        }
    }
    char group[256];
    snprintf(group, sizeof group, "%s.%s", suite, which);
    if (!current_env.available) printf("[ SKIPPING ] %s: %s\n", group, current_env.why);
    fflush(stdout);
    int failed = _cmocka_run_group_tests(group, tests, count, NULL, NULL);
    if (cuda && current_env.h) smallla_destroy(current_env.h);
    smallla_destroy(host_env.h);
    if (failed) return 1;
    return current_env.available ? 0 : 77;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Staging                                                                                              */
/* ---------------------------------------------------------------------------------------------------- */

typedef struct staged_array {
    const void *const *host;
    int count;
    void *dev;
} staged_array;
static staged_array staged[16];
static int n_staged;

static int staging(const chk_env *env) { return env->stage && env->backend == SMALLLA_BACKEND_CUDA; }

void *chk_stage_ptr(chk_env *env, const void *p) {
    if (!staging(env) || p == NULL) return (void *)p;
    alloc_entry *e = find_alloc(p);
    if (!e) return (void *)p;
    if (!e->dev) {
        e->dev = chk_dev_alloc(e->bytes);
        if (!e->dev) chk_fail("device allocation of %zu bytes failed: %s", e->bytes, chk_dev_last_error());
    }
    e->marked = 1;
    return (char *)e->dev + ((const char *)p - e->host);
}

void *chk_stage_array(chk_env *env, const void *const *ptrs, int count) {
    if (!staging(env) || ptrs == NULL) return (void *)ptrs;
    for (int i = 0; i < n_staged; ++i) /* the same array twice in one call stays one array (in place) */
        if (staged[i].host == ptrs && staged[i].count == count) return staged[i].dev;
    if (n_staged == (int)(sizeof staged / sizeof staged[0])) chk_fail("chk_stage_array: too many arrays");
    int m = count > 0 ? count : 1;
    void **tr = calloc((size_t)m, sizeof(void *));
    for (int b = 0; b < count; ++b) tr[b] = chk_stage_ptr(env, ptrs[b]);
    void *dev = chk_dev_alloc(sizeof(void *) * (size_t)m);
    if (!dev || chk_dev_upload(dev, tr, sizeof(void *) * (size_t)m) != 0)
        chk_fail("staging a pointer array failed: %s", chk_dev_last_error());
    free(tr);
    staged[n_staged++] = (staged_array){ptrs, count, dev};
    return dev;
}

void chk_stage_run(chk_env *env) {
    if (!staging(env)) return;
    for (size_t i = 0; i < n_allocs; ++i)
        if (allocs[i].marked && chk_dev_upload(allocs[i].dev, allocs[i].host, allocs[i].bytes) != 0)
            chk_fail("upload failed: %s", chk_dev_last_error());
}

void chk_stage_finish(chk_env *env) {
    if (!staging(env)) return;
    void *stream = NULL;
    if (smallla_get_backend(env->h) >= 0) smallla_get_stream(env->h, &stream); /* keeps the thread's message */
    if (chk_dev_sync(stream) != 0) chk_fail("synchronizing the handle's stream failed: %s", chk_dev_last_error());
    for (size_t i = 0; i < n_allocs; ++i)
        if (allocs[i].marked) {
            if (chk_dev_download(allocs[i].host, allocs[i].dev, allocs[i].bytes) != 0)
                chk_fail("download failed: %s", chk_dev_last_error());
            allocs[i].marked = 0;
        }
    for (int i = 0; i < n_staged; ++i) chk_dev_free(staged[i].dev);
    n_staged = 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Call wrappers                                                                                        */
/* ---------------------------------------------------------------------------------------------------- */

#define SP(x) chk_stage_ptr(env, (x))
#define SA(x, n) chk_stage_array(env, (const void *const *)(x), (n))

smallla_status_t chk_getrf_strided(chk_env *env, chk_prec p, int n, void *A, int lda, long long strideA,
                                   int *ipiv, long long strideP, int *info, int batch) {
    void *a = SP(A);
    int *ip = SP(ipiv), *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetrfStridedBatched(env->h, n, a, lda, strideA, ip, strideP, in, batch); break;
    case CHK_D: st = smallla_dgetrfStridedBatched(env->h, n, a, lda, strideA, ip, strideP, in, batch); break;
    case CHK_C: st = smallla_cgetrfStridedBatched(env->h, n, a, lda, strideA, ip, strideP, in, batch); break;
    case CHK_Z: st = smallla_zgetrfStridedBatched(env->h, n, a, lda, strideA, ip, strideP, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getrf_batched(chk_env *env, chk_prec p, int n, void *const *A, int lda, int *ipiv,
                                   int *info, int batch) {
    void *a = SA(A, batch);
    int *ip = SP(ipiv), *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetrfBatched(env->h, n, a, lda, ip, in, batch); break;
    case CHK_D: st = smallla_dgetrfBatched(env->h, n, a, lda, ip, in, batch); break;
    case CHK_C: st = smallla_cgetrfBatched(env->h, n, a, lda, ip, in, batch); break;
    case CHK_Z: st = smallla_zgetrfBatched(env->h, n, a, lda, ip, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getri_strided(chk_env *env, chk_prec p, int n, const void *A, int lda, long long strideA,
                                   const int *ipiv, long long strideP, void *C, int ldc, long long strideC,
                                   int *info, int batch) {
    void *a = SP(A), *c = SP(C);
    int *ip = SP(ipiv), *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetriStridedBatched(env->h, n, a, lda, strideA, ip, strideP, c, ldc, strideC, in, batch); break;
    case CHK_D: st = smallla_dgetriStridedBatched(env->h, n, a, lda, strideA, ip, strideP, c, ldc, strideC, in, batch); break;
    case CHK_C: st = smallla_cgetriStridedBatched(env->h, n, a, lda, strideA, ip, strideP, c, ldc, strideC, in, batch); break;
    case CHK_Z: st = smallla_zgetriStridedBatched(env->h, n, a, lda, strideA, ip, strideP, c, ldc, strideC, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getri_batched(chk_env *env, chk_prec p, int n, const void *const *A, int lda,
                                   const int *ipiv, void *const *C, int ldc, int *info, int batch) {
    void *a = SA(A, batch), *c = SA(C, batch);
    int *ip = SP(ipiv), *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetriBatched(env->h, n, a, lda, ip, c, ldc, in, batch); break;
    case CHK_D: st = smallla_dgetriBatched(env->h, n, a, lda, ip, c, ldc, in, batch); break;
    case CHK_C: st = smallla_cgetriBatched(env->h, n, a, lda, ip, c, ldc, in, batch); break;
    case CHK_Z: st = smallla_zgetriBatched(env->h, n, a, lda, ip, c, ldc, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_matinv_strided(chk_env *env, chk_prec p, int n, const void *A, int lda, long long strideA,
                                    void *C, int ldc, long long strideC, int *info, int batch) {
    void *a = SP(A), *c = SP(C);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_smatinvStridedBatched(env->h, n, a, lda, strideA, c, ldc, strideC, in, batch); break;
    case CHK_D: st = smallla_dmatinvStridedBatched(env->h, n, a, lda, strideA, c, ldc, strideC, in, batch); break;
    case CHK_C: st = smallla_cmatinvStridedBatched(env->h, n, a, lda, strideA, c, ldc, strideC, in, batch); break;
    case CHK_Z: st = smallla_zmatinvStridedBatched(env->h, n, a, lda, strideA, c, ldc, strideC, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_matinv_batched(chk_env *env, chk_prec p, int n, const void *const *A, int lda,
                                    void *const *C, int ldc, int *info, int batch) {
    void *a = SA(A, batch), *c = SA(C, batch);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_smatinvBatched(env->h, n, a, lda, c, ldc, in, batch); break;
    case CHK_D: st = smallla_dmatinvBatched(env->h, n, a, lda, c, ldc, in, batch); break;
    case CHK_C: st = smallla_cmatinvBatched(env->h, n, a, lda, c, ldc, in, batch); break;
    case CHK_Z: st = smallla_zmatinvBatched(env->h, n, a, lda, c, ldc, in, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getrs_strided(chk_env *env, chk_prec p, smallla_operation_t trans, int n, int nrhs,
                                   const void *A, int lda, long long strideA, const int *ipiv, long long strideP,
                                   void *B, int ldb, long long strideB, int batch) {
    void *a = SP(A), *b = SP(B);
    int *ip = SP(ipiv);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetrsStridedBatched(env->h, trans, n, nrhs, a, lda, strideA, ip, strideP, b, ldb, strideB, batch); break;
    case CHK_D: st = smallla_dgetrsStridedBatched(env->h, trans, n, nrhs, a, lda, strideA, ip, strideP, b, ldb, strideB, batch); break;
    case CHK_C: st = smallla_cgetrsStridedBatched(env->h, trans, n, nrhs, a, lda, strideA, ip, strideP, b, ldb, strideB, batch); break;
    case CHK_Z: st = smallla_zgetrsStridedBatched(env->h, trans, n, nrhs, a, lda, strideA, ip, strideP, b, ldb, strideB, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getrs_batched(chk_env *env, chk_prec p, smallla_operation_t trans, int n, int nrhs,
                                   const void *const *A, int lda, const int *ipiv, void *const *B, int ldb,
                                   int batch) {
    void *a = SA(A, batch), *b = SA(B, batch);
    int *ip = SP(ipiv);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    switch (p) {
    case CHK_S: st = smallla_sgetrsBatched(env->h, trans, n, nrhs, a, lda, ip, b, ldb, batch); break;
    case CHK_D: st = smallla_dgetrsBatched(env->h, trans, n, nrhs, a, lda, ip, b, ldb, batch); break;
    case CHK_C: st = smallla_cgetrsBatched(env->h, trans, n, nrhs, a, lda, ip, b, ldb, batch); break;
    case CHK_Z: st = smallla_zgetrsBatched(env->h, trans, n, nrhs, a, lda, ip, b, ldb, batch); break;
    }
    chk_stage_finish(env);
    return st;
}

smallla_status_t chk_getrf_on(chk_env *env, chk_batch *A, chk_ints *ipiv, chk_ints *info) {
    int *ip = ipiv ? ipiv->data : NULL;
    if (A->form == CHK_POINTERS)
        return chk_getrf_batched(env, A->prec, A->rows, A->ptrs, A->ld, ip, info->data, A->count);
    return chk_getrf_strided(env, A->prec, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, ip,
                             ipiv ? ipiv->stride : 0, info->data, A->count);
}

smallla_status_t chk_getri_on(chk_env *env, const chk_batch *A, const chk_ints *ipiv, chk_batch *C,
                              chk_ints *info) {
    const int *ip = ipiv ? ipiv->data : NULL;
    if (A->form == CHK_POINTERS)
        return chk_getri_batched(env, A->prec, A->rows, (const void *const *)A->ptrs, A->ld, ip, C->ptrs, C->ld,
                                 info->data, A->count);
    return chk_getri_strided(env, A->prec, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, ip,
                             ipiv ? ipiv->stride : 0, chk_batch_mat(C, 0), C->ld, C->stride, info->data, A->count);
}

smallla_status_t chk_matinv_on(chk_env *env, const chk_batch *A, chk_batch *C, chk_ints *info) {
    if (A->form == CHK_POINTERS)
        return chk_matinv_batched(env, A->prec, A->rows, (const void *const *)A->ptrs, A->ld, C->ptrs, C->ld,
                                  info->data, A->count);
    return chk_matinv_strided(env, A->prec, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, chk_batch_mat(C, 0),
                              C->ld, C->stride, info->data, A->count);
}

smallla_status_t chk_getrs_on(chk_env *env, smallla_operation_t trans, const chk_batch *A, const chk_ints *ipiv,
                              chk_batch *B) {
    const int *ip = ipiv ? ipiv->data : NULL;
    if (A->form == CHK_POINTERS)
        return chk_getrs_batched(env, A->prec, trans, A->rows, B->cols, (const void *const *)A->ptrs, A->ld, ip,
                                 B->ptrs, B->ld, A->count);
    return chk_getrs_strided(env, A->prec, trans, A->rows, B->cols, chk_batch_mat(A, 0), A->ld, A->stride, ip,
                             ipiv ? ipiv->stride : 0, chk_batch_mat(B, 0), B->ld, B->stride, A->count);
}

void chk_batch_lapack_getrf(chk_batch *A, chk_ints *ipiv, int *info) {
    for (int b = 0; b < A->count; ++b) {
        int i = ipiv ? chk_lapack_getrf(A->prec, A->rows, chk_batch_mat(A, b), A->ld, chk_ints_at(ipiv, b))
                     : chk_ref_getrf_nopiv(A->prec, A->rows, chk_batch_mat(A, b), A->ld);
        if (info) info[b] = i;
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* The Cholesky family                                                                                  */
/* ---------------------------------------------------------------------------------------------------- */

const char *chk_pdtype_name(chk_pdtype t) {
    static const char *names[CHK_PD_COUNT] = {"diagonal PD",      "PD cond 2",           "zero first row/col",
                                              "zero last row/col", "zero middle row/col", "PD cond sqrt(0.1/eps)",
                                              "PD cond 0.1/eps",  "PD near underflow",   "PD near overflow",
                                              "indefinite"};
    return (unsigned)t < CHK_PD_COUNT ? names[t] : "?";
}

int chk_pdtype_zero_index(chk_pdtype t, int n) {
    if (n <= 0) return 0;
    switch (t) {
    case CHK_PD_ZERO_FIRST: return 1;
    case CHK_PD_ZERO_LAST: return n;
    case CHK_PD_ZERO_MIDDLE: return n / 2 + 1;
    case CHK_PD_INDEFINITE: return -1;
    default: return 0;
    }
}

/* W (n x n) = Q diag(lambda) Q^H with Q a product of a few Householder reflectors of random dense vectors: a
 * dense Hermitian matrix with exactly these eigenvalues (up to rounding). */
static void gen_hermitian_with_eigenvalues(chk_prec p, int n, zd *W, const double *lambda, chk_rng *rng) {
    zd *v = malloc(sizeof(zd) * (size_t)n), *y = malloc(sizeof(zd) * (size_t)n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) W[i + (size_t)j * n] = i == j ? lambda[i] : 0.0;
    const int reflectors = n < 4 ? n : 4;
    for (int r = 0; r < reflectors; ++r) {
        double vv = 0;
        for (int i = 0; i < n; ++i) {
            v[i] = rand_entry(p, rng);
            vv += creal(v[i] * conj(v[i]));
        }
        if (vv == 0) continue;
        /* W := H W H with H = I - tau v v^H, tau = 2 / vv: y = W v, then the rank-2 form of LAPACK's xLATMS */
        const double tau = 2.0 / vv;
        for (int i = 0; i < n; ++i) {
            zd s = 0;
            for (int k = 0; k < n; ++k) s += W[i + (size_t)k * n] * v[k];
            y[i] = tau * s;
        }
        zd alpha = 0;
        for (int i = 0; i < n; ++i) alpha += conj(v[i]) * y[i];
        alpha *= -0.5 * tau;
        for (int i = 0; i < n; ++i) y[i] += alpha * v[i];
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) W[i + (size_t)j * n] -= v[i] * conj(y[j]) + y[i] * conj(v[j]);
    }
    for (int i = 0; i < n; ++i) W[i + (size_t)i * n] = creal(W[i + (size_t)i * n]);
    free(v);
    free(y);
}

void chk_gen_pd(chk_prec p, chk_pdtype t, int n, void *A, int lda, chk_rng *rng) {
    if (n <= 0) return;
    if (t == CHK_PD_DIAGONAL) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, A, i + (long long)j * lda, i == j ? 1.5 + 0.5 * chk_rand(rng) : 0.0);
        return;
    }
    double *lambda = malloc(sizeof(double) * (size_t)n);
    zd *W = malloc(sizeof(zd) * (size_t)n * (size_t)n);
    double cond = t == CHK_PD_ILL ? 0.1 / chk_eps(p) : t == CHK_PD_ILL_SQRT ? sqrt(0.1 / chk_eps(p)) : 2.0;
    for (int i = 0; i < n; ++i) lambda[i] = n == 1 ? 1.0 : pow(cond, -(double)i / (n - 1));
    if (t == CHK_PD_INDEFINITE) lambda[chk_rand_int(rng, 0, n - 1)] = -1.0;
    gen_hermitian_with_eigenvalues(p, n, W, lambda, rng);
    double small = 0.25 * chk_sfmin(p) / chk_eps(p);
    double scale = t == CHK_PD_SMALL ? small : t == CHK_PD_LARGE ? 1.0 / small : 1.0;
    int z = chk_pdtype_zero_index(t, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            zd v = (z > 0 && (i == z - 1 || j == z - 1)) ? 0.0 : scale * W[i + (size_t)j * n];
            chk_set(p, A, i + (long long)j * lda, v);
        }
    free(W);
    free(lambda);
}

void chk_batch_gen_pd(chk_batch *B, chk_pdtype t, chk_rng *rng) {
    for (int b = 0; b < B->count; ++b) chk_gen_pd(B->prec, t, B->rows, chk_batch_mat(B, b), B->ld, rng);
}

/* Element (i, j) of the Hermitian matrix given by the uplo triangle of A, in complex double. */
static zd herm_at(chk_prec p, smallla_fill_t uplo, const void *A, int lda, int i, int j) {
    if (i == j) return creal(chk_get(p, A, i + (long long)i * lda));
    const int in_triangle = uplo == SMALLLA_FILL_LOWER ? i > j : i < j;
    return in_triangle ? chk_get(p, A, i + (long long)j * lda) : conj(chk_get(p, A, j + (long long)i * lda));
}
static zd *herm_z(chk_prec p, smallla_fill_t uplo, int n, const void *A, int lda) {
    zd *W = malloc(sizeof(zd) * ((size_t)n * (size_t)n + 1));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) W[i + (size_t)j * n] = herm_at(p, uplo, A, lda, i, j);
    return W;
}

void chk_hermitian_full(chk_prec p, smallla_fill_t uplo, int n, const void *A, int lda, void *F, int ldf) {
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) chk_set(p, F, i + (long long)j * ldf, herm_at(p, uplo, A, lda, i, j));
}

double chk_ratio_chol(chk_prec p, smallla_fill_t uplo, int m, const void *A0, int lda0, const void *LU, int ldlu) {
    if (m <= 0) return 0;
    zd *A = herm_z(p, uplo, m, A0, lda0);
    /* L (m x m, lower) from the factor: U = L^H for upper */
    zd *L = calloc((size_t)m * (size_t)m, sizeof(zd));
    int imaginary_diagonal = 0;
    for (int j = 0; j < m; ++j)
        for (int i = j; i < m; ++i) {
            zd v = uplo == SMALLLA_FILL_LOWER ? chk_get(p, LU, i + (long long)j * ldlu)
                                              : conj(chk_get(p, LU, j + (long long)i * ldlu));
            if (i == j && cimag(v) != 0) imaginary_diagonal = 1;
            L[i + (size_t)j * m] = v;
        }
    const double anorm = norm1(A, m, m);
    for (int j = 0; j < m; ++j) /* A := A - L L^H */
        for (int k = 0; k <= j; ++k) {
            const zd ljk = conj(L[j + (size_t)k * m]);
            for (int i = k; i < m; ++i) A[i + (size_t)j * m] -= L[i + (size_t)k * m] * ljk;
        }
    double resid = norm1(A, m, m);
    free(A);
    free(L);
    if (imaginary_diagonal) return INFINITY;
    if (!(anorm > 0)) return isnan(anorm + resid) ? INFINITY : resid == 0 ? 0 : 1.0 / chk_eps(p);
    return finite_or_inf(resid / m / anorm / chk_eps(p));
}

double chk_ratio_pd_solve(chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A0, int lda0, const void *X,
                          int ldx, const void *B0, int ldb0) {
    if (n <= 0 || nrhs <= 0) return 0;
    void *F = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
    chk_hermitian_full(p, uplo, n, A0, lda0, F, n);
    double r = chk_ratio_solve(p, SMALLLA_OP_N, n, nrhs, F, n, X, ldx, B0, ldb0);
    chk_free(F);
    return r;
}

double chk_ratio_pd_inverse(chk_prec p, smallla_fill_t uplo, int n, const void *A0, int lda0, const void *Ainv,
                            int ldi, int full) {
    if (n <= 0) return 0;
    void *F = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
    void *G = chk_alloc(chk_elem_size(p) * (size_t)n * (size_t)n);
    chk_hermitian_full(p, uplo, n, A0, lda0, F, n);
    if (full) {
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) chk_set(p, G, i + (long long)j * n, chk_get(p, Ainv, i + (long long)j * ldi));
    } else {
        chk_hermitian_full(p, uplo, n, Ainv, ldi, G, n);
    }
    double r = chk_ratio_inverse(p, n, F, n, G, n);
    chk_free(F);
    chk_free(G);
    return r;
}

extern void spotrf_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void dpotrf_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void cpotrf_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void zpotrf_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void spotri_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void dpotri_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void cpotri_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void zpotri_(const char *uplo, const int *n, void *a, const int *lda, int *info, size_t);
extern void spotrs_(const char *uplo, const int *n, const int *nrhs, const void *a, const int *lda, void *b,
                    const int *ldb, int *info, size_t);
extern void dpotrs_(const char *uplo, const int *n, const int *nrhs, const void *a, const int *lda, void *b,
                    const int *ldb, int *info, size_t);
extern void cpotrs_(const char *uplo, const int *n, const int *nrhs, const void *a, const int *lda, void *b,
                    const int *ldb, int *info, size_t);
extern void zpotrs_(const char *uplo, const int *n, const int *nrhs, const void *a, const int *lda, void *b,
                    const int *ldb, int *info, size_t);

int chk_lapack_potrf(chk_prec p, smallla_fill_t uplo, int n, void *A, int lda) {
    int info = 0;
    const char *u = uplo == SMALLLA_FILL_LOWER ? "L" : "U";
    if (n <= 0) return 0;
    switch (p) {
    case CHK_S: spotrf_(u, &n, A, &lda, &info, 1); break;
    case CHK_D: dpotrf_(u, &n, A, &lda, &info, 1); break;
    case CHK_C: cpotrf_(u, &n, A, &lda, &info, 1); break;
    case CHK_Z: zpotrf_(u, &n, A, &lda, &info, 1); break;
    }
    return info;
}

int chk_lapack_potri(chk_prec p, smallla_fill_t uplo, int n, void *A, int lda) {
    int info = 0;
    const char *u = uplo == SMALLLA_FILL_LOWER ? "L" : "U";
    if (n <= 0) return 0;
    switch (p) {
    case CHK_S: spotri_(u, &n, A, &lda, &info, 1); break;
    case CHK_D: dpotri_(u, &n, A, &lda, &info, 1); break;
    case CHK_C: cpotri_(u, &n, A, &lda, &info, 1); break;
    case CHK_Z: zpotri_(u, &n, A, &lda, &info, 1); break;
    }
    return info;
}

int chk_lapack_potrs(chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A, int lda, void *B, int ldb) {
    int info = 0;
    const char *u = uplo == SMALLLA_FILL_LOWER ? "L" : "U";
    if (n <= 0 || nrhs <= 0) return 0;
    switch (p) {
    case CHK_S: spotrs_(u, &n, &nrhs, A, &lda, B, &ldb, &info, 1); break;
    case CHK_D: dpotrs_(u, &n, &nrhs, A, &lda, B, &ldb, &info, 1); break;
    case CHK_C: cpotrs_(u, &n, &nrhs, A, &lda, B, &ldb, &info, 1); break;
    case CHK_Z: zpotrs_(u, &n, &nrhs, A, &lda, B, &ldb, &info, 1); break;
    }
    return info;
}

/* The typed entry points by precision: X(s), X(d), ... as one switch. */
#define CHK_BY_PREC(p, call)                                                                                     \
    switch (p) {                                                                                                 \
    case CHK_S: st = smallla_s##call; break;                                                                     \
    case CHK_D: st = smallla_d##call; break;                                                                     \
    case CHK_C: st = smallla_c##call; break;                                                                     \
    case CHK_Z: st = smallla_z##call; break;                                                                     \
    }

smallla_status_t chk_potrf_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *A, int lda,
                                   long long strideA, int *info, int batch) {
    void *a = SP(A);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potrfStridedBatched(env->h, uplo, n, a, lda, strideA, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_potrf_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *const *A, int lda,
                                   int *info, int batch) {
    void *a = SA(A, batch);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potrfBatched(env->h, uplo, n, a, lda, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_potri_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *A, int lda,
                                   long long strideA, int *info, int batch) {
    void *a = SP(A);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potriStridedBatched(env->h, uplo, n, a, lda, strideA, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_potri_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, void *const *A, int lda,
                                   int *info, int batch) {
    void *a = SA(A, batch);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potriBatched(env->h, uplo, n, a, lda, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_potrs_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, const void *A,
                                   int lda, long long strideA, void *B, int ldb, long long strideB, int batch) {
    void *a = SP(A), *b = SP(B);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potrsStridedBatched(env->h, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_potrs_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs,
                                   const void *const *A, int lda, void *const *B, int ldb, int batch) {
    void *a = SA(A, batch), *b = SA(B, batch);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, potrsBatched(env->h, uplo, n, nrhs, a, lda, b, ldb, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_posv_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, void *A, int lda,
                                  long long strideA, void *B, int ldb, long long strideB, int *info, int batch) {
    void *a = SP(A), *b = SP(B);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, posvStridedBatched(env->h, uplo, n, nrhs, a, lda, strideA, b, ldb, strideB, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_posv_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, int nrhs, void *const *A,
                                  int lda, void *const *B, int ldb, int *info, int batch) {
    void *a = SA(A, batch), *b = B ? SA(B, batch) : NULL;
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, posvBatched(env->h, uplo, n, nrhs, a, lda, b, ldb, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_poinv_strided(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, const void *A, int lda,
                                   long long strideA, void *C, int ldc, long long strideC, int *info, int batch) {
    void *a = SP(A), *c = SP(C);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, poinvStridedBatched(env->h, uplo, n, a, lda, strideA, c, ldc, strideC, in, batch))
    chk_stage_finish(env);
    return st;
}
smallla_status_t chk_poinv_batched(chk_env *env, chk_prec p, smallla_fill_t uplo, int n, const void *const *A,
                                   int lda, void *const *C, int ldc, int *info, int batch) {
    void *a = SA(A, batch), *c = SA(C, batch);
    int *in = SP(info);
    chk_stage_run(env);
    smallla_status_t st = SMALLLA_INTERNAL_ERROR;
    CHK_BY_PREC(p, poinvBatched(env->h, uplo, n, a, lda, c, ldc, in, batch))
    chk_stage_finish(env);
    return st;
}
#undef CHK_BY_PREC

smallla_status_t chk_potrf_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_ints *info) {
    if (A->form == CHK_POINTERS)
        return chk_potrf_batched(env, A->prec, uplo, A->rows, A->ptrs, A->ld, info->data, A->count);
    return chk_potrf_strided(env, A->prec, uplo, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, info->data, A->count);
}
smallla_status_t chk_potri_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_ints *info) {
    if (A->form == CHK_POINTERS)
        return chk_potri_batched(env, A->prec, uplo, A->rows, A->ptrs, A->ld, info->data, A->count);
    return chk_potri_strided(env, A->prec, uplo, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, info->data, A->count);
}
smallla_status_t chk_potrs_on(chk_env *env, smallla_fill_t uplo, const chk_batch *A, chk_batch *B) {
    if (A->form == CHK_POINTERS)
        return chk_potrs_batched(env, A->prec, uplo, A->rows, B->cols, (const void *const *)A->ptrs, A->ld, B->ptrs,
                                 B->ld, A->count);
    return chk_potrs_strided(env, A->prec, uplo, A->rows, B->cols, chk_batch_mat(A, 0), A->ld, A->stride,
                             chk_batch_mat(B, 0), B->ld, B->stride, A->count);
}
smallla_status_t chk_posv_on(chk_env *env, smallla_fill_t uplo, chk_batch *A, chk_batch *B, chk_ints *info) {
    if (A->form == CHK_POINTERS)
        return chk_posv_batched(env, A->prec, uplo, A->rows, B->cols, A->ptrs, A->ld, B->ptrs, B->ld, info->data,
                                A->count);
    return chk_posv_strided(env, A->prec, uplo, A->rows, B->cols, chk_batch_mat(A, 0), A->ld, A->stride,
                            chk_batch_mat(B, 0), B->ld, B->stride, info->data, A->count);
}
smallla_status_t chk_poinv_on(chk_env *env, smallla_fill_t uplo, const chk_batch *A, chk_batch *C, chk_ints *info) {
    if (A->form == CHK_POINTERS)
        return chk_poinv_batched(env, A->prec, uplo, A->rows, (const void *const *)A->ptrs, A->ld, C->ptrs, C->ld,
                                 info->data, A->count);
    return chk_poinv_strided(env, A->prec, uplo, A->rows, chk_batch_mat(A, 0), A->ld, A->stride, chk_batch_mat(C, 0),
                             C->ld, C->stride, info->data, A->count);
}
