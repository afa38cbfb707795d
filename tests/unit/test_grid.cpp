// Unit tests of the grid arithmetic shared by the host and CUDA launchers (kernels/common/grid.hpp): the number of
// groups covering a batch near INT_MAX does not overflow; chunks of a batch are balanced and cover it.
#include <climits>
#include <cstdio>
#include <initializer_list>

#include "common/grid.hpp"

int main() {
    using smallla::balanced_chunk;
    using smallla::groups_for;
    int failures = 0;
    auto expect = [&](long long got, long long want, const char *what) {
        if (got != want) {
            std::printf("FAIL %s: %lld, expected %lld\n", what, got, want);
            ++failures;
        }
    };
    expect(groups_for(INT_MAX, 1), INT_MAX, "INT_MAX matrices, one per group");
    expect(groups_for(INT_MAX, 2), 1073741824LL, "INT_MAX matrices, two per group (host lanes of doubles)");
    expect(groups_for(INT_MAX, 128), 16777216LL, "INT_MAX matrices, 128 per block (thread kernels, 4 warps)");
    expect(groups_for(INT_MAX, 8 * 32), 8388608LL, "INT_MAX matrices, 256 per block");
    expect(groups_for(INT_MAX - 5, 7), (INT_MAX - 5LL + 6) / 7, "INT_MAX - 5 matrices, 7 per group");
    expect(groups_for(0, 64), 0, "an empty batch");
    expect(groups_for(1, 64), 1, "one matrix");
    expect(groups_for(64, 64), 1, "one full group");
    expect(groups_for(65, 64), 2, "one more than a group");
    expect(groups_for((long long)INT_MAX * 4, 4), INT_MAX, "getrs jobs: INT_MAX matrices x 4 right-hand sides");
    expect(balanced_chunk(4096, 4094), 2048, "4096 matrices, at most 4094 a chunk: two of 2048, not 4094 + 2");
    expect(balanced_chunk(100, 100), 100, "a batch that fits one chunk");
    expect(balanced_chunk(0, 100), 1, "an empty batch: a chunk of 1 (nothing runs)");
    expect(balanced_chunk(101, 1), 1, "chunks of one");
    expect(balanced_chunk(INT_MAX, 1LL << 20), groups_for(INT_MAX, groups_for(INT_MAX, 1LL << 20)), "INT_MAX matrices");
    for (long long items : {1LL, 7LL, 1000LL, 4097LL, 1000003LL, (long long)INT_MAX})
        for (long long limit : {1LL, 3LL, 64LL, 4094LL, 1LL << 20}) {
            const long long c = balanced_chunk(items, limit), chunks = groups_for(items, c);
            if (c < 1 || c > limit || chunks != groups_for(items, limit) || items - (chunks - 1) * c > c ||
                (chunks > 1 && items - (chunks - 1) * c < c - chunks)) {
                std::printf("FAIL balanced_chunk(%lld, %lld) = %lld\n", items, limit, c);
                ++failures;
            }
        }
    std::printf(failures ? "unit.grid: %d failures\n" : "unit.grid: passed\n", failures);
    return failures ? 1 : 0;
}
