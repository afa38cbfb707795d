// The count of groups (thread blocks, lane groups) that cover a batch, in 64-bit arithmetic: a batch near
// INT_MAX plus a group's size overflows an int.
#pragma once

namespace smallla {

// ceil(items / per_group) for items >= 0 and per_group >= 1.
constexpr long long groups_for(long long items, long long per_group) { return (items + per_group - 1) / per_group; }
// The size of the fewest chunks of at most limit items (limit >= 1) that cover items, made equal (to one item), so
// that no last chunk of a few items costs a call's fixed time: at least 1.
constexpr long long balanced_chunk(long long items, long long limit) {
    const long long chunks = groups_for(items, limit);
    return chunks > 1 ? groups_for(items, chunks) : (items > 0 ? items : 1);
}

}  // namespace smallla
