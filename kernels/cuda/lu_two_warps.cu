// getrf for 32 < n <= 64: the register kernels' design (lu_registers.cuh: one row per thread in registers, LAPACK's
// getf2 steps, the lazy swap, the pivot row broadcast through shared memory) with a matrix spread over a block of
// two warps, which beats the blocked path's panel where its rows fit in registers (double complex only to 36).
//
// A step: each warp searches its own rows by LAPACK's rule (common/pivot.hpp's keys, as key_of's words), and the
// warp's winner stores its row beside the warp's (key, position) in shared memory; one barrier; every thread takes
// the better of the two warps' winners (larger key, then smaller position) and reads that warp's row. So a step
// costs one barrier, and each warp issues one row's stores, as the one-warp kernels do. The buffers alternate
// between even and odd steps, so the next step's stores need no second barrier (a buffer is written again only
// after every thread passed the barrier after it was read).
//
// N, the order in registers, is n rounded up to a multiple of 4 (8 instances per type instead of 32); rows and
// columns n..N-1 hold the identity. In the first n steps a padding row has 0 in column k, so it never wins a
// search (a row of the matrix at a smaller position ties with it or beats it) and its multiplier is 0; the
// matrix's columns see exactly getf2's arithmetic, so pivots, factors and info are those of order n. What the
// padding receives (and the steps n..N-1) is never written.
#include "cuda/lu_registers.cuh"  // row_buffer_length and the pieces the register kernels share
#include "cuda/lu_two_warps.hpp"

namespace smallla {
namespace cuda_kernels {
namespace {

// Whether a routing table takes the instance of padded order N (n rounded up to N, lu_two_warps.hpp): any table's
// (the launch), or the table of the architecture being compiled (the kernel's machine code).
template <class T> constexpr bool two_warps_routed(int N, bool pivot, bool this_architecture) {
    const routine r = pivot ? routine::getrf : routine::getrf_nopiv;
    constexpr char p = scalar_traits<T>::letter;
    for (int n = N - 3; n <= N; ++n)
        if (this_architecture ? routed_on_this_architecture(r, p, n, family::two_warps) : routed(r, p, n, family::two_warps))
            return true;
    return false;
}

// One matrix per block of 64 threads; thread i holds row i (i < N). Pivot: whether it pivots (a compile-time
// choice, as the register kernels make it: without pivoting the search and the swap are compiled out). Scale: the
// pivot scaler's form (chosen per order below).
template <class T, int N, bool Pivot, tiny_scale Scale>
__device__ __forceinline__ void two_warps_factor(int n, batch_ref<T> A, pivots_ref<int> P, int *info, int batch) {
    static_assert(N > 32 && N <= two_warps_max_order && N % 4 == 0, "two warps, orders in steps of 4");
    constexpr int L = row_buffer_length<T, N>();
    __shared__ __align__(16) T rows[2][2][L];        // [step parity][warp]: that warp's winner's row
    __shared__ __align__(16) unsigned meta[2][2][4];  // [step parity][warp]: key hi, key lo, position
    const long long b = blockIdx.x;
    if (b >= batch) return;  // a whole block: every thread of a block that runs meets every barrier
    const int i = threadIdx.x, warp = i >> 5;
    const bool in_matrix = i < n;
    T *m = A[b];
    const long long ld = A.ld;
    T a[N];
#pragma unroll
    for (int j = 0; j < N; ++j) a[j] = in_matrix && j < n ? m[i + j * ld] : T(real_t<T>(i == j ? 1 : 0));
    int pos = i < N ? i : -1;  // threads past N hold no row: never a candidate, never updated
    int my_piv = i, inf = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        const int par = k & 1;
        const T *buf;
        int ppos = k;
        if constexpr (Pivot) {
            const pivot_key_words key = key_of(abs1(a[k]), pos >= k, pos == k);
            const unsigned thi = __reduce_max_sync(0xffffffffu, key.hi);
            unsigned tlo = 0;
            if constexpr (sizeof(real_t<T>) == 8) tlo = __reduce_max_sync(0xffffffffu, key.hi == thi ? key.lo : 0u);
            const unsigned wpos =
                __reduce_min_sync(0xffffffffu, key.hi == thi && key.lo == tlo ? (unsigned)pos : 0xffffffffu);
            if ((unsigned)pos == wpos) {
                T *r = rows[par][warp];
#pragma unroll
                for (int j = k; j < N; ++j) r[j] = a[j];
            }
            if ((i & 31) == 0) {
                meta[par][warp][0] = thi;
                meta[par][warp][1] = tlo;
                meta[par][warp][2] = wpos;
            }
            __syncthreads();
            const uint4 w0 = *reinterpret_cast<const uint4 *>(meta[par][0]);
            const uint4 w1 = *reinterpret_cast<const uint4 *>(meta[par][1]);
            const bool second = w1.x > w0.x || (w1.x == w0.x && (w1.y > w0.y || (w1.y == w0.y && w1.z < w0.z)));
            ppos = (int)(second ? w1.z : w0.z);
            buf = rows[par][second ? 1 : 0];
            const bool is_piv = pos == ppos;
            if (is_piv) pos = k;
            else if (pos == k) pos = ppos;
        } else {
            if (i == k) {
                T *r = rows[par][0];
#pragma unroll
                for (int j = k; j < N; ++j) r[j] = a[j];
            }
            __syncthreads();
            buf = rows[par][0];
        }
        if (i == k) my_piv = ppos;
        const pivot_scaler<T, Scale> s(buf[k]);
        if (s.zero && inf == 0 && k < n) inf = k + 1;
        if (pos > k) {  // rows below the pivot in LAPACK's order: multiplier and rank-1 update
            const T l = s.multiplier(a[k]);
            a[k] = l;
#pragma unroll
            for (int j = k + 1; j < N; ++j) a[j] = minus_product(a[j], l, buf[j]);
        }
    }
    if (!in_matrix) return;
#pragma unroll
    for (int j = 0; j < N; ++j)
        if (j < n) m[pos + j * ld] = a[j];
    if (Pivot) P[b][i] = my_piv + 1;
    if (i == 0) info[b] = inf;
}

// The kernel; the register cap is the routing table's. An architecture whose table routes no order of the instance
// here (today every one but sm_90) gets a stub that traps, not the factorization's machine code.
template <class T, int N, bool Pivot, tiny_scale Scale>
__global__ void __launch_bounds__(64, min_blocks_of(Pivot ? routine::getrf : routine::getrf_nopiv, family::two_warps,
                                                    scalar_traits<T>::letter, N))
    getrf_two_warps(int n, batch_ref<T> A, pivots_ref<int> P, int *info, int batch) {
    if constexpr (two_warps_routed<T>(N, Pivot, true)) two_warps_factor<T, N, Pivot, Scale>(n, A, P, info, batch);
    else __trap();
}

// Without pivoting, the real reciprocal without the quotient's range test (select_normal) where it measured faster
// (perf/NOTES.md, "The step's chain"): float, and double but at N = 36, where it took a threshold of registers
// more. With pivoting the select form everywhere.
template <class T, int N> constexpr tiny_scale no_pivot_scale() {
    if constexpr (std::is_same_v<T, float>) return tiny_scale::select_normal;
    else if constexpr (std::is_same_v<T, double>) return N == 36 ? tiny_scale::select : tiny_scale::select_normal;
    else return tiny_scale::select;
}

template <class T, int N> void launch_padded(const getrf_args<T> &a, cudaStream_t stream) {
    const unsigned blocks = (unsigned)a.batch;
    if (a.ipiv.base != nullptr) {
        if constexpr (two_warps_routed<T>(N, true, false))
            getrf_two_warps<T, N, true, tiny_scale::select><<<blocks, 64, 0, stream>>>(
                a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
    } else {
        if constexpr (two_warps_routed<T>(N, false, false))
            getrf_two_warps<T, N, false, no_pivot_scale<T, N>()><<<blocks, 64, 0, stream>>>(
                a.n, make_batch_ref(a.A), make_pivots_ref(a.ipiv), a.info, a.batch);
    }
}

}  // namespace

template <class T> void launch_getrf_two_warps(const getrf_args<T> &a, cudaStream_t stream) {
    switch ((a.n + 3) / 4 * 4) {
    case 36: launch_padded<T, 36>(a, stream); break;
    case 40: launch_padded<T, 40>(a, stream); break;
    case 44: launch_padded<T, 44>(a, stream); break;
    case 48: launch_padded<T, 48>(a, stream); break;
    case 52: launch_padded<T, 52>(a, stream); break;
    case 56: launch_padded<T, 56>(a, stream); break;
    case 60: launch_padded<T, 60>(a, stream); break;
    case 64: launch_padded<T, 64>(a, stream); break;
    default: break;  // no instance: never routed here
    }
}

template void launch_getrf_two_warps<float>(const getrf_args<float> &, cudaStream_t);
template void launch_getrf_two_warps<double>(const getrf_args<double> &, cudaStream_t);
template void launch_getrf_two_warps<complex<float>>(const getrf_args<complex<float>> &, cudaStream_t);
template void launch_getrf_two_warps<complex<double>>(const getrf_args<complex<double>> &, cudaStream_t);

}  // namespace cuda_kernels
}  // namespace smallla
