// The CUDA backend of getrf_iter: the iterative Crout LU of kernels/host/getrf_iter_host.hpp (the scheme is
// described there), with the whole iteration of a matrix inside one kernel launch: a team of threads per
// matrix sweeps all entries in parallel (one entry per thread up to n = 32), the pivot step and the
// convergence bookkeeping run between block-wide barriers, and nothing returns to the host between sweeps.
//
// Layout: a block holds G teams of `team` threads, one matrix each (several small matrices per block so that
// the block is not mostly idle for n < 16). Each team keeps P*A, the iterate before and after a sweep and the
// pivot column in shared memory, or, when that does not fit (large n), in a global scratch allocated on the
// handle's stream (cudaMallocAsync, no device synchronization).
#include <cuda_runtime.h>

#include <limits>

#include "common/grid.hpp"
#include "common/iter_crout.hpp"
#include "common/pivot.hpp"
#include "device_common.cuh"
#include "getrf_iter.hpp"

namespace smallla {
namespace cuda_kernels {
namespace {

using namespace iter_crout;

// Per-team bookkeeping (shared memory).
template <class R> struct team_state {
    int f;          // frontier: pivots of columns 0..f-1 fixed
    int q;          // smallest min(i,j) of an entry changed (exactly) by the last sweep (n: none)
    int small;      // every change of the last sweep within tolerance * max|iterate|
    int bad;        // smallest min(i,j) of a non-finite value produced by the last sweep
    int sweeps;
    int running;    // still sweeping
    int nonfinite;  // a NaN/Inf that the sweeps cannot cure (or in A)
    int go_on;      // the pivot step goes on with the next column
    int pivot_row;
    int swapped;
    int col_ok;
    int info;
    int fallback;
    unsigned long long maxold_bits;  // max |iterate| as the bits of a nonnegative R (orders like the value)
};

__device__ __forceinline__ unsigned long long bits_of(double v) { return (unsigned long long)__double_as_longlong(v); }
__device__ __forceinline__ unsigned long long bits_of(float v) { return (unsigned long long)__float_as_uint(v); }
template <class R> __device__ __forceinline__ R value_of(unsigned long long b);
template <> __device__ __forceinline__ double value_of<double>(unsigned long long b) { return __longlong_as_double((long long)b); }
template <> __device__ __forceinline__ float value_of<float>(unsigned long long b) { return __uint_as_float((unsigned)b); }

template <class T> struct iter_launch {
    int n, batch, team, groups;
    const T *A;
    long long lda, strideA;
    T *LU;
    long long ldlu, strideLU;
    int *ipiv;
    long long strideP;
    smallla_iter_options_t o;
    int *sweeps, *info;
    T *scratch;                 // nullptr: the team's arrays live in shared memory
    long long scratch_per_team; // scalars per team (3n^2 + n)
};

// Bytes of shared memory per team: the state, then (when in shared memory) 3n^2 + n scalars and 3n ints.
template <class T> __host__ __device__ size_t state_bytes() { return (sizeof(team_state<real_t<T>>) + 15) / 16 * 16; }
template <class T> __host__ __device__ size_t array_bytes(int n) {
    return ((sizeof(T) * (3 * (size_t)n * n + n) + sizeof(int) * 3 * (size_t)n) + 15) / 16 * 16;
}

template <class T>
__global__ void __launch_bounds__(1024) getrf_iter_kernel(const iter_launch<T> L) {
    using R = real_t<T>;
    extern __shared__ __align__(16) unsigned char smem[];
    const int n = L.n, team = L.team;
    const int g = threadIdx.x / team, tid = threadIdx.x % team;
    const long long b = (long long)blockIdx.x * L.groups + g;
    const bool live = g < L.groups && b < L.batch;
    const long long nn = (long long)n * n;
    const bool in_shared = L.scratch == nullptr;
    const size_t per_team = state_bytes<T>() + (in_shared ? array_bytes<T>(n) : 0);
    unsigned char *mine = smem + (size_t)(g < L.groups ? g : 0) * per_team;
    team_state<R> &s = *reinterpret_cast<team_state<R> *>(mine);
    T *arrays = in_shared ? reinterpret_cast<T *>(mine + state_bytes<T>())
                          : L.scratch + (live ? b : 0) * L.scratch_per_team;
    T *aw = arrays, *m = arrays + nn, *mn = arrays + 2 * nn, *col = arrays + 3 * nn;
    int *ints = in_shared ? reinterpret_cast<int *>(col + n)
                          : reinterpret_cast<int *>(L.scratch + L.scratch_per_team * L.batch) + (live ? b : 0) * 3 * n;
    int *perm = ints, *where = ints + n, *cur = ints + 2 * n;
    const T *A = L.A + (live ? b : 0) * L.strideA;
    T *LU = L.LU + (live ? b : 0) * L.strideLU;
    int *ipiv = L.ipiv ? L.ipiv + (live ? b : 0) * L.strideP : nullptr;
    const smallla_iter_options_t &o = L.o;
    const bool partial = o.pivoting == SMALLLA_ITER_PIVOT_PARTIAL;
    const bool warm = o.initial_guess == SMALLLA_ITER_GUESS_LU_IN;
    const R tol = (R)o.tolerance;

    // ---- start: row order, P*A, the first iterate ----
    if (live && tid == 0) {
        for (int i = 0; i < n; ++i) perm[i] = i;
        if (ipiv != nullptr && (o.pivoting == SMALLLA_ITER_PIVOT_REUSE || (partial && warm)))
            for (int k = 0; k < n; ++k) {
                const int p = ipiv[k] - 1;
                if (p >= 0 && p < n && p != k) {  // entries outside 1..n leave the row in place
                    const int t = perm[k];
                    perm[k] = perm[p];
                    perm[p] = t;
                }
            }
        s.f = 0;
        s.sweeps = 0;
        s.nonfinite = 0;
        s.info = 0;
        s.fallback = 0;
        s.maxold_bits = 0;
    }
    __syncthreads();
    if (live) {
        bool finite = true;
        for (long long e = tid; e < nn; e += team) {
            const int i = (int)(e % n), j = (int)(e / n);
            const T v = A[perm[i] + j * L.lda];
            aw[e] = v;
            m[e] = warm ? LU[i + j * L.ldlu] : v;
            finite = finite && is_finite(v);
        }
        if (!finite) s.nonfinite = 1;  // benign race: every writer writes 1
    }
    __syncthreads();
    if (live) {
        for (long long e = tid; e < nn; e += team) {
            const R v = abs1(m[e]);
            if (v == v) atomicMax(&s.maxold_bits, bits_of(v));
        }
        if (tid == 0) s.running = !s.nonfinite && o.max_sweeps > 0;
    }
    __syncthreads();

    // ---- sweeps and pivot steps, until every team of the block is done ----
    while (__syncthreads_or(live && s.running)) {
        const bool active = live && s.running;
        const int f = active ? s.f : 0;
        if (active && tid == 0) {
            s.q = n;
            s.bad = n;
            s.small = 1;
        }
        __syncthreads();
        if (active) {
            const R maxold = value_of<R>(s.maxold_bits);
            const R thr = maxold <= std::numeric_limits<R>::max() ? tol * maxold : R(-1);
            int q = n, bad = n;
            bool small = true;
            for (long long e = tid; e < nn; e += team) {
                const int i = (int)(e % n), j = (int)(e / n);
                if (frozen(i, j, f)) {
                    mn[e] = m[e];
                    continue;
                }
                const int d = i < j ? i : j;
                const T r = residual(aw, m, n, i, j, d);
                const T v = i > j ? l_entry(r, m[j + (long long)j * n]) : r;
                mn[e] = v;
                if (!(v == m[e])) q = d < q ? d : q;  // exact: only a change-free sweep proves a column
                if (!(abs1(v - m[e]) <= thr)) small = false;
                if (!is_finite(v)) bad = d < bad ? d : bad;
            }
            if (q < n) atomicMin(&s.q, q);
            if (bad < n) atomicMin(&s.bad, bad);
            if (!small) s.small = 0;  // benign race: every writer writes 0
        }
        __syncthreads();
        if (active) {
            T *t = m;  // every thread of the team swaps its view of the two buffers alike
            m = mn;
            mn = t;
            if (tid == 0) {
                s.sweeps += 1;
                s.go_on = 1;
                s.swapped = 0;
                if (s.bad < f) {  // a final entry is not finite: nothing can cure it
                    s.nonfinite = 1;
                    s.running = 0;
                    s.go_on = 0;
                }
            }
        }
        __syncthreads();

        // Pivot step: column f, then the next ones while the sweep proved them ready and no row moved.
        while (__syncthreads_or(active && s.go_on)) {
            const bool piv = active && s.go_on;
            const int p = piv ? s.f : 0;
            if (piv)
                for (int i = p + tid; i < n; i += team) col[i] = residual(aw, m, n, i, p, p);
            __syncthreads();
            if (piv && tid == 0) {
                int r = p;
                if (partial) {
                    r = first_max_position(p, n, [&](int i) { return col[i]; });  // LAPACK's choice (common/pivot.hpp)
                }
                s.pivot_row = r;
                s.col_ok = 1;
                if (r != p) {
                    s.swapped = 1;
                    const int t = perm[p];
                    perm[p] = perm[r];
                    perm[r] = t;
                }
            }
            __syncthreads();
            if (piv) {
                const int r = s.pivot_row;
                if (r != p)
                    for (int j = tid; j < n; j += team) {
                        const T a1 = aw[p + (long long)j * n], m1 = m[p + (long long)j * n];
                        aw[p + (long long)j * n] = aw[r + (long long)j * n];
                        m[p + (long long)j * n] = m[r + (long long)j * n];
                        aw[r + (long long)j * n] = a1;
                        m[r + (long long)j * n] = m1;
                    }
            }
            __syncthreads();
            if (piv) {
                const int r = s.pivot_row;
                // col[] is still in the old order: the pivot's residual sits at r, row p's at r's place.
                const T u = col[r];
                bool ok = is_finite(u);
                for (int i = p + tid; i < n; i += team) {
                    const int src = i == p ? r : (i == r ? p : i);
                    const T v = i == p ? u : l_entry(col[src], u);
                    m[i + (long long)p * n] = v;
                    ok = ok && is_finite(v);
                }
                if (!ok) s.col_ok = 0;
            }
            __syncthreads();
            if (piv && tid == 0) {
                s.f = p + 1;
                if (!s.col_ok) {
                    s.nonfinite = 1;
                    s.running = 0;
                    s.go_on = 0;
                } else {
                    s.go_on = !s.swapped && s.f < n && (s.f <= s.q || s.small);
                    if (s.f == n) s.running = 0;  // converged
                }
            }
            __syncthreads();
        }
        if (active && tid == 0) {
            if (s.running && s.sweeps >= o.max_sweeps) s.running = 0;
            s.maxold_bits = 0;
        }
        __syncthreads();
        if (active)
            for (long long e = tid; e < nn; e += team) {
                const R v = abs1(m[e]);
                if (v == v) atomicMax(&s.maxold_bits, bits_of(v));
            }
        __syncthreads();
    }

    // ---- outcome ----
    if (live && tid == 0) {
        if (s.f == n && !s.nonfinite) {
            for (int j = 0; j < n; ++j)
                if (is_zero(m[j + (long long)j * n])) {
                    s.info = j + 1;
                    break;
                }
        } else if (o.fallback_direct) {
            s.fallback = 1;
        } else {
            s.info = s.nonfinite ? SMALLLA_ITER_NONFINITE : SMALLLA_ITER_NOT_CONVERGED;
        }
    }
    __syncthreads();
    const bool fb = live && s.fallback;
    if (fb)
        for (long long e = tid; e < nn; e += team) m[e] = A[(int)(e % n) + (e / n) * L.lda];
    else if (live && s.info == SMALLLA_ITER_NOT_CONVERGED)
        for (long long e = tid; e < nn; e += team)
            if (!is_finite(m[e])) s.info = SMALLLA_ITER_NONFINITE;  // a transient not outrun in time
    // Input with NaN/Inf and no fallback: the "last iterate" is P*A itself (nothing was swept).
    if (live && !s.fallback && s.nonfinite && s.sweeps == 0)
        for (long long e = tid; e < nn; e += team) m[e] = aw[e];
    __syncthreads();
    // The direct fallback (getf2 with partial pivoting when ipiv exists), the team in parallel.
    if (__syncthreads_or(fb)) {
        for (int k = 0; k < n; ++k) {
            if (fb && tid == 0) {
                int p = k;
                if (ipiv != nullptr) {
                    R best = abs1(m[k + (long long)k * n]);
                    for (int i = k + 1; i < n; ++i)
                        if (abs1(m[i + (long long)k * n]) > best) {
                            best = abs1(m[i + (long long)k * n]);
                            p = i;
                        }
                    ipiv[k] = p + 1;
                }
                s.pivot_row = p;
                if (is_zero(m[p + (long long)k * n]) && s.info == 0) s.info = k + 1;
            }
            __syncthreads();
            if (fb) {
                const int p = s.pivot_row;
                if (p != k)
                    for (int j = tid; j < n; j += team) {
                        const T t = m[k + (long long)j * n];
                        m[k + (long long)j * n] = m[p + (long long)j * n];
                        m[p + (long long)j * n] = t;
                    }
            }
            __syncthreads();
            if (fb) {
                const T u = m[k + (long long)k * n];
                for (int i = k + 1 + tid; i < n; i += team) m[i + (long long)k * n] = l_entry(m[i + (long long)k * n], u);
            }
            __syncthreads();
            if (fb) {
                const int w = n - k - 1;
                for (long long e = tid; e < (long long)w * w; e += team) {
                    const int i = k + 1 + (int)(e % w), j = k + 1 + (int)(e / w);
                    m[i + (long long)j * n] -= m[i + (long long)k * n] * m[k + (long long)j * n];
                }
            }
            __syncthreads();
        }
        if (fb)
            for (long long e = tid; e < nn; e += team)
                if (!is_finite(m[e])) s.info = SMALLLA_ITER_NONFINITE;
        __syncthreads();
    }

    if (!live) return;
    for (long long e = tid; e < nn; e += team) LU[(int)(e % n) + (e / n) * L.ldlu] = m[e];
    if (tid == 0) {
        L.info[b] = s.info;
        if (L.sweeps != nullptr) L.sweeps[b] = s.fallback ? o.max_sweeps + 1 : s.sweeps;
        if (ipiv != nullptr && !s.fallback) {
            if (o.pivoting == SMALLLA_ITER_PIVOT_NONE)
                for (int k = 0; k < n; ++k) ipiv[k] = k + 1;
            else if (partial)
                interchanges_from_order(n, perm, ipiv, where, cur);
        }
    }
}

}  // namespace

template <class T> iter_layout getrf_iter_layout(int n, int batch, size_t optin_bytes) {
    iter_layout l;
    const long long entries = (long long)n * n;
    l.team = entries <= 1024 ? (int)entries : 1024;
    l.groups = l.team >= 256 ? 1 : 256 / l.team;
    if (l.groups > batch) l.groups = batch;
    size_t per_team = state_bytes<T>() + array_bytes<T>(n);
    while (l.groups > 1 && per_team * l.groups > optin_bytes) --l.groups;
    l.scratch_bytes = 0;
    if (per_team > optin_bytes) {
        // Large n: the arrays go to global memory (the caller allocates them in stream order).
        l.groups = 1;
        per_team = state_bytes<T>();
        l.scratch_bytes = (size_t)batch * (sizeof(T) * (3 * (size_t)n * n + n) + sizeof(int) * 3 * (size_t)n);
    }
    l.smem_bytes = per_team * l.groups;
    return l;
}

template <class T>
cudaError_t launch_getrf_iter(const getrf_iter_args<T> &a, const iter_layout &l, void *scratch, cudaStream_t stream) {
    iter_launch<T> L;
    L.n = a.n;
    L.batch = a.batch;
    L.A = a.A.base;
    L.lda = a.A.ld;
    L.strideA = a.A.stride;
    L.LU = a.LU.base;
    L.ldlu = a.LU.ld;
    L.strideLU = a.LU.stride;
    L.ipiv = a.ipiv.base;
    L.strideP = a.ipiv.stride;
    L.o = a.opts;
    L.sweeps = a.sweeps;
    L.info = a.info;
    L.scratch = static_cast<T *>(scratch);
    L.scratch_per_team = 3LL * a.n * a.n + a.n;
    L.team = l.team;
    L.groups = l.groups;
    if (const cudaError_t e = allow_dynamic_shared(getrf_iter_kernel<T>, l.smem_bytes); e != cudaSuccess) return e;
    const long long blocks = groups_for(a.batch, l.groups);
    getrf_iter_kernel<T><<<(unsigned)blocks, l.team * l.groups, l.smem_bytes, stream>>>(L);
    return cudaGetLastError();
}

#define SMALLLA_GETRF_ITER_INSTANTIATE(T)                                                                          \
    template iter_layout getrf_iter_layout<T>(int, int, size_t);                                                  \
    template cudaError_t launch_getrf_iter<T>(const getrf_iter_args<T> &, const iter_layout &, void *, cudaStream_t);
SMALLLA_GETRF_ITER_INSTANTIATE(float)
SMALLLA_GETRF_ITER_INSTANTIATE(double)
SMALLLA_GETRF_ITER_INSTANTIATE(complex<float>)
SMALLLA_GETRF_ITER_INSTANTIATE(complex<double>)

}  // namespace cuda_kernels
}  // namespace smallla
