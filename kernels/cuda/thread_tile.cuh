// The staging of the thread-per-matrix kernels (lu_thread.cuh, chol_thread.cuh): a thread holds a whole matrix
// in registers, and a warp moves its 32 matrices between global memory and registers through a per-warp
// shared-memory tile, so that every global access of a contiguous batch is coalesced.
#pragma once

#include "common/grid.hpp"
#include "device_common.cuh"

namespace smallla {
namespace cuda_kernels {

// 32 matrices of a warp in shared memory, Rows entries each: entry e of the warp's matrix m at at[e][m]. Rows of
// 33 so that a lane reading "its" entry e and 32 lanes writing consecutive entries of the global layout both
// fall in distinct banks.
template <class T, int Rows> struct warp_tile {
    T at[Rows][33];
};
// Warps per block: 4, or fewer where their tiles would pass 48 KiB.
template <class T, int Rows> constexpr int thread_warps_per_block() {
    return sizeof(warp_tile<T, Rows>) * 4 <= 48 * 1024 ? 4 : (sizeof(warp_tile<T, Rows>) * 2 <= 48 * 1024 ? 2 : 1);
}

// Blocks of Warps warps for a batch, 32 matrices a warp (common/grid.hpp: no overflow at a batch near INT_MAX).
template <int Warps> inline unsigned thread_blocks_for(int batch) { return (unsigned)groups_for(batch, Warps * 32); }

// Where a warp's matrices start and how many there are (a whole warp leaves together, so __syncwarp is safe).
struct warp_span {
    long long first;  // the warp's first matrix
    int count;        // matrices of the warp, 1..32 (0: nothing to do)
    int lane;
    template <int Warps> __device__ __forceinline__ static warp_span of(int batch) {
        warp_span s;
        s.lane = threadIdx.x & 31;
        s.first = ((long long)blockIdx.x * Warps + (threadIdx.x >> 5)) * 32;
        const long long left = batch - s.first;
        s.count = left <= 0 ? 0 : (left < 32 ? (int)left : 32);
        return s;
    }
    __device__ __forceinline__ bool mine() const { return lane < count; }
};

// Loads the lane's R x C block (leading dimension ld) into a; contiguous batches (ld == R, stride == R C)
// go through the warp's tile with coalesced loads, others element by element from the lane's matrix.
template <class T, int R, int C, class S>
__device__ __forceinline__ void load_block(const warp_span &w, batch_ref<S> M, bool contiguous, T (*tile)[33],
                                           T (&a)[R][C]) {
    if (contiguous) {
        const S *src = M.base + w.first * (R * C);
        for (int e = w.lane; e < w.count * (R * C); e += 32) tile[e % (R * C)][e / (R * C)] = src[e];
        __syncwarp();
        if (w.mine()) {
#pragma unroll
            for (int i = 0; i < R; ++i)
#pragma unroll
                for (int j = 0; j < C; ++j) a[i][j] = tile[i + j * R][w.lane];
        }
        __syncwarp();  // the tile may be reused next
    } else if (w.mine()) {
        const S *m = M[w.first + w.lane];
#pragma unroll
        for (int i = 0; i < R; ++i)
#pragma unroll
            for (int j = 0; j < C; ++j) a[i][j] = m[i + (long long)j * M.ld];
    }
}

// Stores entry (i, j) of the lane's block as entry (i, col_of(j)) of its matrix: col_of is the identity
// except for matinv's column permutation.
template <class T, int R, int C, class Col>
__device__ __forceinline__ void store_block(const warp_span &w, batch_ref<T> M, bool contiguous, T (*tile)[33],
                                            const T (&a)[R][C], Col col_of) {
    if (contiguous) {
        if (w.mine()) {
#pragma unroll
            for (int j = 0; j < C; ++j) {
                const int c = col_of(j);
#pragma unroll
                for (int i = 0; i < R; ++i) tile[i + c * R][w.lane] = a[i][j];
            }
        }
        __syncwarp();
        T *dst = M.base + w.first * (R * C);
        for (int e = w.lane; e < w.count * (R * C); e += 32) dst[e] = tile[e % (R * C)][e / (R * C)];
        __syncwarp();
    } else if (w.mine()) {
        T *m = M[w.first + w.lane];
#pragma unroll
        for (int j = 0; j < C; ++j) {
            const long long c = col_of(j);
#pragma unroll
            for (int i = 0; i < R; ++i) m[i + c * M.ld] = a[i][j];
        }
    }
}
struct identity_columns {
    __device__ __forceinline__ int operator()(int j) const { return j; }
};

}  // namespace cuda_kernels
}  // namespace smallla
