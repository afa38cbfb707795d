// Unit tests of the grid arithmetic shared by the host and CUDA launchers (kernels/common/grid.hpp): the number of
// groups covering a batch near INT_MAX does not overflow.
#include <climits>
#include <cstdio>

#include "common/grid.hpp"

int main() {
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
    std::printf(failures ? "unit.grid: %d failures\n" : "unit.grid: passed\n", failures);
    return failures ? 1 : 0;
}
