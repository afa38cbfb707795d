#!/usr/bin/env python3
"""The batch-dependent Cholesky routes of a routing table (kernels/cuda/routing/*.def) from smallla-bench's grid.

  grid_routes.py GRID.csv [GRID.csv ...]

Reads `smallla-bench --grid --ops potrf` CSVs (smallla's time, cuSOLVER's potrfBatched, cuSOLVER's potrf looped on
one stream and on four) measured with a table that routes potrf beyond 32 to the library's own kernels, and prints
the SMALLLA_ROUTE lines that send a few matrices to the vendor loop (family vendor) and a middling batch to the
batched vendor routine (vendor_batched), ahead of the table's own potrf lines (posv factors beyond order 32 as
potrf is routed). Per precision and
measured order (the range reaching halfway to the next order measured): the batches where a vendor route, with
its overhead in smallla added (VENDOR_OVERHEAD_MS), is more than 3% faster than smallla form a prefix, the loop's
first (the batched routine's run may pass over single cells that smallla won: toss-ups); each threshold is the
geometric mean of the last batch a route won and the next batch measured (the last batch measured where the grid
stops there).
"""
import csv
import math
import sys

BIG = 2147483647
# What smallla's vendor routes add to cuSOLVER's own time: the kernels before and after it (the NaN rule, a strided
# batch's pointer array), about 10 microseconds at every order (perf/NOTES.md, "The Cholesky family").
VENDOR_OVERHEAD_MS = 0.010


def main(paths):
    cells = {}
    for path in paths:
        for row in csv.reader(open(path)):
            if row[0] != "potrf":
                continue
            p, n, batch = row[1], int(row[2]), int(row[3])
            cells[(p, n, batch)] = dict(ours=float(row[4]), batched=float(row[6]),
                                        loop=min(float(row[7]), float(row[8])))

    def winner(c):
        best = min(c["batched"], c["loop"]) + VENDOR_OVERHEAD_MS
        if c["ours"] <= 1.03 * best:
            return "ours"
        return "loop" if c["loop"] <= c["batched"] else "batched"

    def threshold(seq, start, route, blips=0):
        # The run of `route` from seq[start], through at most `blips` single cells of another winner between two of
        # its own (a toss-up measured as a loss).
        k, last_own = start, None
        while k < len(seq):
            if seq[k][1] == route:
                last_own = k
            elif not (blips and k + 1 < len(seq) and seq[k + 1][1] == route and seq[k][1] != "loop"):
                break
            k += 1
        if last_own is None:
            return 0, start
        k = last_own + 1
        last = seq[last_own][0]
        return (last if k == len(seq) else int(math.sqrt(last * seq[k][0]))), k

    lines = []
    for p in "sdcz":
        orders = sorted({n for (q, n, _) in cells if q == p})
        starts = [33] + [(a + b) // 2 + 1 for a, b in zip(orders, orders[1:])]
        for i, n in enumerate(orders):
            seq = [(b, winner(cells[(p, n, b)])) for b in sorted({b for (q, m, b) in cells if q == p and m == n})]
            loop_to, k = threshold(seq, 0, "loop")
            batched_to, k = threshold(seq, k, "batched", blips=1)
            if any(w != "ours" for _, w in seq[k:]):
                print(f"grid_routes.py: {p} n={n}: the winners are not loop, batched, ours in that order: {seq}",
                      file=sys.stderr)
            n_to = starts[i + 1] - 1 if i + 1 < len(starts) else BIG
            if loop_to:
                lines.append(f"SMALLLA_ROUTE(potrf, {p}, {starts[i]}, {n_to}, {loop_to}, vendor)")
            if batched_to > loop_to:
                lines.append(f"SMALLLA_ROUTE(potrf, {p}, {starts[i]}, {n_to}, {batched_to}, vendor_batched)")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
