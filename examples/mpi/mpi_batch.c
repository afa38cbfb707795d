/* Scale-out: one batch of small matrices split over MPI ranks, each rank with its own smallla handle on its own
 * GPU (or on the host backend), factoring, inverting and solving its share; the ranks then combine the worst
 * LAPACK residual ratio and the throughput. smallla itself does no communication: everything between ranks
 * here is the program's own MPI.
 *
 *   mpirun -np P smallla_mpi_batch [--backend host|cuda] [--n N] [--batch COUNT | --gib-per-rank G]
 *                                  [--reps R] [--check-stride K]
 *
 * The batch: COUNT random double matrices of order N (default 20000 of order 16), or G GiB of matrices per
 * rank (P times as many in all: weak scaling). Matrix g of the batch (0-based over the whole batch) and its
 * right-hand side are generated from g alone, so the batch is the same whatever the number of ranks. Rank r
 * takes the contiguous share [first_r, first_r + count_r), the counts differing by at most one.
 *
 * Each rank: one handle (smallla handles are not shared between ranks, nor used by two threads at once).
 *   --backend cuda: the rank's GPU is its local rank (its rank among the ranks on the same node, from
 *     MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)) modulo the node's GPU count, made current with cudaSetDevice
 *     before smallla_create (a CUDA handle uses the device current at its creation); the handle's work goes on
 *     a stream of its own (smallla_set_stream). The matrices are copied to the device once.
 *   --backend host: the host backend (OpenMP over the share's matrices; set OMP_NUM_THREADS so that ranks x
 *     threads fits the cores).
 * Then per repetition (one untimed warm-up, then R timed, default 3): the pristine matrices and right-hand
 * sides are copied to the work buffers (untimed), all ranks wait at a barrier, and each times
 *     getrf (A = P L U, in place)  ->  getri (C = inv(A), from the factors)  ->  getrs (A x = b, from the factors)
 * up to the end of its stream's work. A repetition's time is the slowest rank's (MPI_Allreduce max): the
 * batch is done when its last share is. The best repetition gives the aggregate throughput, in matrices per
 * second and GB/s, the bytes being those the three calls must move at least (each matrix read and written by
 * getrf, read by getri with C written, read again by getrs with its right-hand side read and written; the
 * pivots written once and read twice; info written twice): 8 (5 n^2 + 2 n) + 12 n + 8 bytes per matrix.
 *
 * The check: every K-th matrix of each share (--check-stride, default 1: all) is checked on the host with
 * LAPACK's ratios (getrf: DGET01, getri: DGET03, getrs: DGET02); the worst of each over all ranks
 * (MPI_Reduce max, NaN counting as infinite) must be below 30. Exactly singular matrices (info > 0; unlikely
 * for random matrices) are counted and not checked.
 *
 * Rank 0 prints a line per rank (device, share, its time), the totals, and one machine-readable line
 *     RESULT ranks=P backend=B n=N batch=COUNT per_rank=... seconds=... matrices_per_s=... gb_per_s=...
 *            worst_getrf=... worst_getri=... worst_getrs=... status=PASSED|FAILED
 * Exit status (every rank): 0 passed, 1 failed, 2 usage, 77 the CUDA backend is not available (skipped).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#ifdef SMALLLA_EXAMPLE_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include "smallla.h"
#include "../common/lapack_ratios.h"

/* ---- the batch's entries: a counter-based generator, entry e of stream s of matrix g -------------------- */
static uint64_t mix64(uint64_t x) { /* splitmix64's finalizer */
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
/* Uniform in [-1, 1). s = 0: the matrix, s = 1: its right-hand side. */
static double entry(long long g, int s, long long e) {
    const uint64_t x = mix64(mix64((uint64_t)g * 2 + (uint64_t)s) ^ (uint64_t)e);
    return (double)(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* ---- memory on the rank's backend ----------------------------------------------------------------------- */
static int use_cuda = 0;

static void *dev_alloc(size_t bytes) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (use_cuda) {
        void *p = NULL;
        return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
    }
#endif
    void *p = malloc(bytes ? bytes : 1);
    if (p) memset(p, 0, bytes); /* touched now: first-use page faults are not timed as the library's work */
    return p;
}
static void dev_free(void *p) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (use_cuda) {
        cudaFree(p);
        return;
    }
#endif
    free(p);
}
/* kind: 0 host to device, 1 device to host, 2 device to device (all plain copies on the host backend). */
static int dev_copy(void *dst, const void *src, size_t bytes, int kind) {
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (use_cuda) {
        const enum cudaMemcpyKind k = kind == 0 ? cudaMemcpyHostToDevice
                                      : kind == 1 ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice;
        return cudaMemcpy(dst, src, bytes, k) == cudaSuccess ? 0 : 1;
    }
#endif
    (void)kind;
    memcpy(dst, src, bytes);
    return 0;
}

static int call_ok(smallla_handle_t h, smallla_status_t st, const char *what, int rank) {
    if (st == SMALLLA_SUCCESS) return 1;
    fprintf(stderr, "rank %d: %s failed: %s (%s)\n", rank, what, smallla_status_string(st), smallla_last_error(h));
    return 0;
}

static void usage(const char *prog) {
    fprintf(stderr,
            "usage: mpirun -np P %s [--backend host|cuda] [--n N] [--batch COUNT | --gib-per-rank G] [--reps R]\n"
            "                         [--check-stride K]\n",
            prog);
}

/* What each rank reports to rank 0. */
typedef struct {
    int device;       /* the GPU's ordinal, -1 on the host backend */
    int local_rank;   /* rank on its node */
    long long first;  /* its share of the batch */
    long long count;
    double best;      /* its own time in the best repetition (s) */
    char where[96];   /* "host" or the GPU's name */
    char node[64];    /* MPI_Get_processor_name */
} rank_report;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* ---- options (every rank reads the same argv) ---- */
    int n = 16, reps = 3, check_stride = 1;
    long long global = 20000;
    double gib_per_rank = 0;
    int bad_usage = 0;
    for (int i = 1; i < argc; ++i) {
        const int more = i + 1 < argc;
        if (!strcmp(argv[i], "--backend") && more) {
            ++i;
            if (!strcmp(argv[i], "cuda")) use_cuda = 1;
            else if (strcmp(argv[i], "host") != 0) bad_usage = 1;
        } else if (!strcmp(argv[i], "--n") && more) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--batch") && more) global = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--gib-per-rank") && more) gib_per_rank = atof(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && more) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--check-stride") && more) check_stride = atoi(argv[++i]);
        else bad_usage = 1;
    }
    const size_t mat_bytes = (size_t)n * n * sizeof(double);
    if (!bad_usage && n >= 1 && gib_per_rank > 0)
        global = (long long)ceil(gib_per_rank * 1073741824.0 / (double)mat_bytes) * size;
    if (bad_usage || n < 1 || global < size || reps < 1 || check_stride < 1) {
        if (rank == 0) {
            usage(argv[0]);
            if (!bad_usage) fprintf(stderr, "need n >= 1, a batch of at least one matrix per rank, reps >= 1 and check-stride >= 1\n");
        }
        MPI_Finalize();
        return 2;
    }

    /* ---- the share ---- */
    const long long base = global / size, extra = global % size;
    const long long count = base + (rank < extra ? 1 : 0);
    const long long first = rank * base + (rank < extra ? rank : extra);
    if (count > INT_MAX) {
        if (rank == 0) fprintf(stderr, "a share of %lld matrices exceeds a C int (the library's batch); use more ranks\n", count);
        MPI_Finalize();
        return 2;
    }
    const int batch = (int)count;

    /* ---- the rank's place on its node, its device and its handle ---- */
    MPI_Comm node_comm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm);
    int local_rank = 0, local_size = 1;
    MPI_Comm_rank(node_comm, &local_rank);
    MPI_Comm_size(node_comm, &local_size);

    rank_report me;
    memset(&me, 0, sizeof me);
    me.device = -1;
    me.local_rank = local_rank;
    me.first = first;
    me.count = count;
    snprintf(me.where, sizeof me.where, "host");
    int name_len = 0;
    char node[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(node, &name_len);
    snprintf(me.node, sizeof me.node, "%s", node);

    int skip = 0, fail = 0, gpus_on_node = 0;
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    cudaStream_t stream = NULL;
    if (use_cuda) {
        if (cudaGetDeviceCount(&gpus_on_node) != cudaSuccess || gpus_on_node < 1) {
            fprintf(stderr, "rank %d: no CUDA device\n", rank);
            gpus_on_node = 0;
            skip = 1;
        } else {
            me.device = local_rank % gpus_on_node;
            struct cudaDeviceProp prop;
            if (cudaSetDevice(me.device) != cudaSuccess || cudaGetDeviceProperties(&prop, me.device) != cudaSuccess) {
                fprintf(stderr, "rank %d: cannot use CUDA device %d\n", rank, me.device);
                skip = 1;
            } else {
                snprintf(me.where, sizeof me.where, "GPU %d (%s)", me.device, prop.name);
            }
        }
    }
#else
    if (use_cuda) {
        if (rank == 0) fprintf(stderr, "this example was built without the CUDA runtime; run it with --backend host\n");
        skip = 1;
    }
#endif
    smallla_handle_t h = NULL;
    if (!skip && smallla_create(&h, use_cuda ? SMALLLA_BACKEND_CUDA : SMALLLA_BACKEND_HOST) != SMALLLA_SUCCESS) {
        fprintf(stderr, "rank %d: cannot create a %s handle: %s\n", rank, use_cuda ? "CUDA" : "host",
                smallla_last_error(NULL));
        if (use_cuda) skip = 1;
        else fail = 1;
    }
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (!skip && !fail && use_cuda) {
        /* The handle's work on a stream of its own: nothing of this rank waits on the legacy default stream. */
        if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
            !call_ok(h, smallla_set_stream(h, stream), "smallla_set_stream", rank))
            fail = 1;
    }
#endif
    int any[2] = {skip, fail}, all[2];
    MPI_Allreduce(any, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] || all[1]) {
        if (h) smallla_destroy(h);
        MPI_Comm_free(&node_comm);
        MPI_Finalize();
        return all[1] ? 1 : 77;
    }
    int gpus_max = 0;
    MPI_Allreduce(&gpus_on_node, &gpus_max, 1, MPI_INT, MPI_MAX, node_comm);
    if (use_cuda && local_rank == 0 && local_size > gpus_max)
        fprintf(stderr, "note: %d ranks share the %d GPU(s) of node %s\n", local_size, gpus_max, me.node);

    /* ---- the share's matrices: pristine copies (host A, B; device dA, dB) and work buffers ---- */
    const size_t elems = (size_t)n * n * batch, rhs = (size_t)n * batch;
    double *A = malloc(elems * sizeof(double)), *B = malloc(rhs * sizeof(double));
    double *LU = malloc(elems * sizeof(double)), *C = malloc(elems * sizeof(double)), *X = malloc(rhs * sizeof(double));
    int *ipiv = malloc((size_t)n * batch * sizeof(int)), *info = malloc((size_t)batch * sizeof(int)),
        *info_i = malloc((size_t)batch * sizeof(int));
    double *work = malloc(mat_bytes);
    double *dA = dev_alloc(elems * sizeof(double)), *dB = dev_alloc(rhs * sizeof(double));
    double *dLU = dev_alloc(elems * sizeof(double)), *dC = dev_alloc(elems * sizeof(double)),
           *dX = dev_alloc(rhs * sizeof(double));
    int *dipiv = dev_alloc((size_t)n * batch * sizeof(int)), *dinfo = dev_alloc((size_t)batch * sizeof(int)),
        *dinfo_i = dev_alloc((size_t)batch * sizeof(int));
    if (!A || !B || !LU || !C || !X || !ipiv || !info || !info_i || !work || !dA || !dB || !dLU || !dC || !dX ||
        !dipiv || !dinfo || !dinfo_i) {
        fprintf(stderr, "rank %d: out of memory for %d matrices of order %d\n", rank, batch, n);
        fail = 1;
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!fail) {
        for (int b = 0; b < batch; ++b) {
            const long long g = first + b;
            for (long long e = 0; e < (long long)n * n; ++e) A[(size_t)b * n * n + e] = entry(g, 0, e);
            for (int e = 0; e < n; ++e) B[(size_t)b * n + e] = entry(g, 1, e);
        }
        fail |= dev_copy(dA, A, elems * sizeof(double), 0) | dev_copy(dB, B, rhs * sizeof(double), 0);
    }
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    /* ---- the timed repetitions ---- */
    const long long stride = (long long)n * n;
    double best = INFINITY;
    me.best = INFINITY;
    for (int r = 0; r <= reps && !fail; ++r) {
        int lfail = dev_copy(dLU, dA, elems * sizeof(double), 2) | dev_copy(dX, dB, rhs * sizeof(double), 2);
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
        if (use_cuda) lfail |= cudaDeviceSynchronize() != cudaSuccess;
#endif
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        lfail |= !call_ok(h, smallla_dgetrfStridedBatched(h, n, dLU, n, stride, dipiv, n, dinfo, batch), "getrf", rank);
        lfail |= !call_ok(h, smallla_dgetriStridedBatched(h, n, dLU, n, stride, dipiv, n, dC, n, stride, dinfo_i, batch),
                          "getri", rank);
        lfail |= !call_ok(h, smallla_dgetrsStridedBatched(h, SMALLLA_OP_N, n, 1, dLU, n, stride, dipiv, n, dX, n, n, batch),
                          "getrs", rank);
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
        if (use_cuda && cudaStreamSynchronize(stream) != cudaSuccess) {
            fprintf(stderr, "rank %d: the stream failed: %s\n", rank, cudaGetErrorString(cudaGetLastError()));
            lfail = 1;
        }
#endif
        const double t = MPI_Wtime() - t0;
        double slowest = 0;
        MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(&lfail, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (r > 0 && slowest < best) {
            best = slowest;
            me.best = t;
        }
    }

    /* ---- the check on the host ---- */
    double worst[3] = {0, 0, 0}; /* getrf, getri, getrs */
    long long counts[2] = {0, 0}, gcounts[2] = {0, 0}; /* checked, singular */
    if (!fail) {
        fail |= dev_copy(LU, dLU, elems * sizeof(double), 1) | dev_copy(C, dC, elems * sizeof(double), 1) |
                dev_copy(X, dX, rhs * sizeof(double), 1) | dev_copy(ipiv, dipiv, (size_t)n * batch * sizeof(int), 1) |
                dev_copy(info, dinfo, (size_t)batch * sizeof(int), 1) |
                dev_copy(info_i, dinfo_i, (size_t)batch * sizeof(int), 1);
        for (int b = 0; b < batch && !fail; b += check_stride) {
            if (info[b] != 0 || info_i[b] != 0) {
                ++counts[1];
                continue;
            }
            const double *a = A + (size_t)b * n * n;
            const double r[3] = {ex_getrf_ratio(n, a, LU + (size_t)b * n * n, ipiv + (size_t)b * n, work),
                                 ex_inverse_ratio(n, a, C + (size_t)b * n * n, work),
                                 ex_solve_ratio(n, a, X + (size_t)b * n, B + (size_t)b * n, work)};
            for (int k = 0; k < 3; ++k)
                if (!(r[k] <= worst[k])) worst[k] = isnan(r[k]) ? INFINITY : r[k];
            ++counts[0];
        }
    }
    double gworst[3] = {0, 0, 0};
    MPI_Reduce(worst, gworst, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(counts, gcounts, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    /* ---- the report ---- */
    rank_report *reports = rank == 0 ? malloc(sizeof(rank_report) * (size_t)size) : NULL;
    MPI_Gather(&me, (int)sizeof me, MPI_BYTE, reports, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    int passed = 0;
    if (rank == 0) {
        const double bytes = 8.0 * (5.0 * n * n + 2.0 * n) + 12.0 * n + 8.0;
        printf("smallla mpi_batch: %lld matrices of order %d (double) over %d rank(s), %s backend, %.3f GiB of "
               "matrices per rank\n",
               global, n, size, use_cuda ? "CUDA" : "host", (double)mat_bytes * (double)base / 1073741824.0);
        printf("  %-5s %-16s %-10s %-36s %12s %12s %12s\n", "rank", "node", "local rank", "device", "first", "count",
               "time [ms]");
        for (int r = 0; r < size && reports; ++r)
            printf("  %-5d %-16s %-10d %-36s %12lld %12lld %12.3f\n", r, reports[r].node, reports[r].local_rank,
                   reports[r].where, reports[r].first, reports[r].count, 1e3 * reports[r].best);
        const double mps = fail ? 0 : (double)global / best, gbs = fail ? 0 : (double)global * bytes / best / 1e9;
        printf("  getrf + getri + getrs of the whole batch: %.3f ms (the slowest rank, best of %d)\n", 1e3 * best,
               reps);
        printf("  aggregate throughput: %.4g matrices/s, %.2f GB/s (%.0f bytes moved per matrix at least)\n", mps, gbs,
               bytes);
        printf("  worst LAPACK ratio over all ranks (must be < 30): getrf %.3g, getri %.3g, getrs %.3g (%lld matrices "
               "checked, check stride %d)\n",
               gworst[0], gworst[1], gworst[2], gcounts[0], check_stride);
        if (gcounts[1]) printf("  %lld matrices were exactly singular (info > 0) and were not checked\n", gcounts[1]);
        passed = !fail && gcounts[0] > 0 && gworst[0] < 30 && gworst[1] < 30 && gworst[2] < 30;
        printf("RESULT ranks=%d backend=%s n=%d batch=%lld per_rank=%lld seconds=%.6g matrices_per_s=%.6g "
               "gb_per_s=%.6g worst_getrf=%.3g worst_getri=%.3g worst_getrs=%.3g status=%s\n",
               size, use_cuda ? "cuda" : "host", n, global, base, best, mps, gbs, gworst[0], gworst[1], gworst[2],
               passed ? "PASSED" : "FAILED");
        printf("%s\n", passed ? "PASSED" : "FAILED");
        fflush(stdout);
    }
    MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);

    free(reports);
    dev_free(dA), dev_free(dB), dev_free(dLU), dev_free(dC), dev_free(dX), dev_free(dipiv), dev_free(dinfo),
        dev_free(dinfo_i);
    free(A), free(B), free(LU), free(C), free(X), free(ipiv), free(info), free(info_i), free(work);
    smallla_destroy(h);
#ifdef SMALLLA_EXAMPLE_WITH_CUDA
    if (stream) cudaStreamDestroy(stream);
#endif
    MPI_Comm_free(&node_comm);
    MPI_Finalize();
    return passed ? 0 : 1;
}
