// LAPACK's pivot choice, written once for every backend and kernel: IxAMAX on the measure |Re| + |Im| (abs1) of
// the candidates in the current (already interchanged) row order. The first entry of largest measure wins; a NaN
// at the first candidate position wins and a NaN anywhere else never does (IxAMAX starts from the first entry and
// takes a later one only when it is strictly larger, and a comparison with NaN is false).
//  - A running search (one thread, or SIMD lanes) keeps its best with take_if_larger.
//  - A parallel search compares (key, position) pairs: pivot_key maps the measure to an unsigned key that orders
//    like it (non-negative IEEE numbers order like their bits) and is 0 for a non-candidate; pivot_better says
//    which pair wins (the larger key, then the smaller position). The CUDA kernels reduce these keys over lanes,
//    warps and blocks (kernels/cuda/device_common.cuh: select_pivot and its forms).
#pragma once

#include <cstring>

#include "scalar.hpp"

namespace smallla {

// A running search's step: position takes over when v is strictly larger than the best so far (scalars, or SIMD
// lanes with element-wise comparisons and selects).
template <class V, class P> SMALLLA_HD void take_if_larger(const V &v, const P &position, V &best, P &at) {
    const auto larger = v > best;
    at = larger ? position : at;
    best = larger ? v : best;
}

// The search over positions k..n-1 of a column, entry(i) giving the candidate at position i: its pivot position.
template <class Entry> SMALLLA_HD int first_max_position(int k, int n, Entry entry) {
    auto best = abs1(entry(k));
    int at = k;
    for (int i = k + 1; i < n; ++i) take_if_larger(abs1(entry(i)), i, best, at);
    return at;
}

// The key of a candidate's measure v >= 0 (or NaN). Candidates' keys are >= 1 (float: bits + 1; double: bits + 2^32,
// so that the high word alone is never 0 for a candidate, which the CUDA kernels' two-word reductions use); a NaN
// at the first candidate position (at_k) gets the largest key, any other NaN and every non-candidate 0.
SMALLLA_HD unsigned long long bits_of(float v) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(v);
#else
    unsigned bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
#endif
}
SMALLLA_HD unsigned long long bits_of(double v) {
#if defined(__CUDA_ARCH__)
    return (unsigned long long)__double_as_longlong(v);
#else
    unsigned long long bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
#endif
}
template <class R> SMALLLA_HD unsigned long long pivot_key(R v, bool candidate, bool at_k) {
    if (!candidate) return 0ull;
    if (v != v) return at_k ? ~0ull : 0ull;
    return bits_of(v) + (sizeof(R) == 4 ? 1ull : 1ull << 32);
}

// Whether the pair (k1, p1) wins over (k0, p0): the larger key, then the smaller position.
SMALLLA_HD bool pivot_better(unsigned long long k1, int p1, unsigned long long k0, int p0) {
    return k1 > k0 || (k1 == k0 && p1 < p0);
}

}  // namespace smallla
