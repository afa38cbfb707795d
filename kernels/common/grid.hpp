// The count of groups (thread blocks, lane groups) that cover a batch, in 64-bit arithmetic: a batch near
// INT_MAX plus a group's size overflows an int.
#pragma once

namespace smallla {

// ceil(items / per_group) for items >= 0 and per_group >= 1.
constexpr long long groups_for(long long items, long long per_group) { return (items + per_group - 1) / per_group; }

}  // namespace smallla
