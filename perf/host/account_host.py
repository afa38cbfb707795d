#!/usr/bin/env python3
"""The account of the host shortfalls (issue 32): every cell of a smallla-bench-host table below its goal (2x the
best anchor at n <= 32, 1x beyond), set against two floors that no code of the same arithmetic can pass:

  arithmetic  the real multiplies and adds (LAPACK's flop count; x4 for complex, whose multiply-add is four
              multiplies and four adds) in vectors of the width the routing table gives the cell, at the vector
              ops a second that smallla-host-ceilings measured, on the table's threads; unfused, except the blocked
              family on AVX2 and AVX-512, whose tiles fuse each multiply into its add (half the ops, an FMA taken
              at the rate of a multiply);
  memory      the bytes a matrix must move (read and written once), at the read rate measured over 32 MB with
              the table's threads (the bench's calls hold about 32 MB of matrices).

A cell is "memory" where the memory floor alone exceeds the goal's time (the anchor's time over the goal), else
"arithmetic" where the arithmetic floor does, else "overhead": the goal fits above both floors, and what stands
between is the instructions beyond the arithmetic (copies into lanes, loads and stores, index and pivot work;
perf/NOTES.md gives the measured composition per family). floor_x is smallla's time over the higher floor.

--large tables (mode "large": batches 1-4 of orders 33-4096, goal 1x): the floors take every thread (the threaded
anchor does); the memory floor the read rate measured over 512 MB where the batch's matrices fill that much, else
the rate over 32 MB (on the machines measured, a last-level cache's), and none where they fit the cores' L2 caches
(--l2-mb, their sum; the ceilings measure no L2 rate, and an L2 reads faster); a cell
is "idle threads" where smallla's route leaves threads without work (a batch smaller than the thread count below
the routing's team orders, routing.hpp) and the floors on the busy threads alone exceed the goal's time.

The width: lanes families take lu_batch.hpp's lanes_for rule (mirrored in lanes_width below); lanes_avx2 and complex
any_wide on AVX-512 (the AVX2 copy's code) 32 bytes; the other one-matrix families (any, any_wide, blocked, fixed) the
CPU's widest vector, as a lower bound.

Usage: account_host.py BENCH.csv CEILINGS.csv [--isa avx512|avx2|base] [--l2-mb 4] [--out ACCOUNT.csv]
Prints a markdown table, cells of one routine, precision and class merged into order ranges.
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROUTING = os.path.join(HERE, "..", "..", "kernels", "host", "routing.def")
ROUTING_HPP = os.path.join(HERE, "..", "..", "kernels", "host", "routing.hpp")
ISA_RANK = {"base": 0, "avx2": 1, "avx512": 2}
ISA_BYTES = {"base": 16, "avx2": 32, "avx512": 64}
REAL_BYTES = {"s": 4, "d": 8, "c": 4, "z": 8}
INVERSES = {"getri", "matinv"}


def read_routes():
    """The routing table's lines in order; in #if SMALLLA_HOST_BASELINE_KERNELS blocks, the host-only build's."""
    routes, skipping = [], False
    pattern = re.compile(r"SMALLLA_HOST_ROUTE\((\w+),\s*(\w+),\s*(\w+),\s*(\d+),\s*(\d+),\s*(\w+)\)")
    with open(ROUTING) as f:
        for line in f:
            s = line.strip()
            if s.startswith("#if"):
                skipping = False
            elif s.startswith("#else"):
                skipping = True
            elif s.startswith("#endif"):
                skipping = False
            m = pattern.match(s)
            if m and not skipping:
                r, precisions, isa, lo, hi, family = m.groups()
                routes.append((r, precisions, isa, int(lo), int(hi), family))
    return routes


def team_orders():
    """routing.hpp's orders from which a batch smaller than the thread count shares each matrix among the threads."""
    text = open(ROUTING_HPP).read()
    lu = int(re.search(r"lu_team_min_order = (\d+);", text).group(1))
    chol = int(re.search(r"chol_team_min_order = (\d+);", text).group(1))
    body = re.search(r"getrs_team_min_order\(char precision\) \{\s*return ([^;]+);", text).group(1)
    getrs = {p: int(v) for p, v in re.findall(r"precision == '(\w)' \? (\d+)", body)}
    last = int(re.findall(r": (\d+)\s*$", body.strip())[-1])
    for p in "sdcz":
        getrs.setdefault(p, last)
    return lu, chol, getrs


def team(orders, routine, precision, n, family):
    lu, chol, getrs = orders
    if routine == "getrs":
        return family in ("any", "any_wide") and n >= getrs[precision]
    if routine in ("potrf", "posv"):
        return family == "blocked" and n >= chol
    return family == "blocked" and routine in ("getrf", "getri", "matinv") and n >= lu


def route(routes, routine, precision, isa, n):
    for r, precisions, line_isa, lo, hi, family in routes:
        if r == routine and precision in precisions and ISA_RANK[line_isa] <= ISA_RANK[isa] and lo <= n <= hi:
            return family
    return "?"


def lanes_width(routine, precision, n, vector_bytes):
    """Lanes per group (lu_batch.hpp's lanes_for; routing.hpp's lanes_any_width beyond 32)."""
    rb, complex_ = REAL_BYTES[precision], precision in "cz"
    elem = rb * (2 if complex_ else 1)

    def any_width():
        if not complex_:
            return min(vector_bytes, 32) // rb
        return min(vector_bytes // rb, 8)

    if n > 32:
        return any_width()
    inverse = routine in INVERSES
    wide = inverse and complex_
    least, limit = 16 // rb, (64 if wide else 40) * 1024
    w = vector_bytes // rb
    if wide and w > 8:
        w = 8
    while w > least and w * n * n * elem > limit:
        w //= 2
    if inverse and w * n * n * elem > 48 * 1024:
        return any_width()
    return w


def bytes_moved(routine, precision, n):
    e = REAL_BYTES[precision] * (2 if precision in "cz" else 1)
    full, tri = n * n * e, n * (n + 1) // 2 * e
    return {
        "getrf": 2 * full + 4 * n,
        "getri": 2 * full + 4 * n,
        "matinv": 2 * full,
        "getrs": full + 4 * n + 2 * n * e,
        "potrf": 2 * tri,
        "posv": 2 * tri + 2 * n * e,
        "potri": 2 * tri,
        "poinv": tri + full,
    }[routine]


def real_ops(routine, precision, n):
    c = float(n) ** 3
    f = {"getrf": 2 / 3 * c, "getri": 4 / 3 * c, "matinv": 2 * c, "potrf": c / 3, "posv": c / 3,
         "potri": 2 / 3 * c, "poinv": c}.get(routine, 2.0 * n * n)
    return f * (4 if precision in "cz" else 1)


def ranges(ns):
    ns, out = sorted(ns), []
    for n in ns:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


def span(values, fmt="%.2f"):
    lo, hi = min(values), max(values)
    return fmt % lo if fmt % lo == fmt % hi else (fmt + "-" + fmt) % (lo, hi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench")
    ap.add_argument("ceilings")
    ap.add_argument("--isa", default=None, help="the CPU's widest copy (default: the widest the ceilings measured)")
    ap.add_argument("--l2-mb", type=float, default=4.0, help="the L2 caches of the bench's cores together (MB)")
    ap.add_argument("--out")
    a = ap.parse_args()

    ceil = {}
    with open(a.ceilings, newline="") as f:
        for row in csv.DictReader(f):
            ceil[(row["quantity"], int(row["threads"]))] = float(row["value"])
    isa = a.isa or ("avx512" if ("vector_ops_64B", 1) in ceil else "avx2" if ("vector_ops_32B", 1) in ceil
                    else "base")
    routes, orders = read_routes(), team_orders()
    cells = []
    with open(a.bench, newline="") as f:
        for row in csv.DictReader(f):
            mode = row.get("mode", "batched")
            if not row["speedup"] or mode not in ("batched", "large"):
                continue
            p, r, n, t = row["precision"], row["routine"], int(row["n"]), int(row["threads"])
            batch = int(row["batch"])
            speedup, goal = float(row["speedup"]), (2.0 if int(row["n"]) <= 32 else 1.0)
            if speedup >= goal:
                continue
            ours = float(row["smallla_ns_per_matrix"])
            anchor = ours * speedup
            family = route(routes, r, p, isa, n)
            # Beyond 32 the LU family's lanes take whole groups only, as many as threads or more (dispatch.hpp,
            # ran_lu_lanes_beyond); a smaller batch runs blocked.
            if (mode == "large" and family == "lanes" and n > 32 and r in ("getrf", "getri", "matinv")
                    and batch // lanes_width(r, p, n, ISA_BYTES[isa]) < t):
                family = "blocked"
            # lanes_avx2, and complex getrs in place on AVX-512 (lanes_isa.cpp's run_any): the AVX2 copy's code.
            avx2_code = family == "lanes_avx2" or (family == "any_wide" and p in "cz" and isa == "avx512")
            vb = ISA_BYTES["avx2"] if avx2_code else ISA_BYTES[isa]
            width = vb
            if family in ("lanes", "lanes_avx2"):
                width = min(lanes_width(r, p, n, vb) * REAL_BYTES[p], vb)
            rate = ceil.get(("vector_ops_%dB" % width, 1))
            footprint = "32MB"
            if mode == "large" and batch * bytes_moved(r, p, n) / 2 >= 512e6:
                footprint = "512MB"
            read_on = lambda threads: ceil.get(("read_" + footprint, threads)) or ceil[("read_" + footprint, 1)] * threads
            fused = 2 if family == "blocked" and isa != "base" else 1
            arith_on = lambda threads: real_ops(r, p, n) / fused / (width // REAL_BYTES[p]) / (rate * threads) * 1e9
            cached = mode == "large" and batch * bytes_moved(r, p, n) / 2 < a.l2_mb * 1e6
            mem_on = lambda threads: 0.0 if cached else bytes_moved(r, p, n) / read_on(threads) * 1e9
            arith_ns, mem_ns = arith_on(t), mem_on(t)
            goal_ns = anchor / goal
            kind = "memory" if mem_ns >= goal_ns else "arithmetic" if arith_ns >= goal_ns else "overhead"
            busy = t if mode != "large" or batch >= t or team(orders, r, p, n, family) else batch
            if kind == "overhead" and busy < t:
                # the floors of the busy threads, per matrix of the batch (each thread one matrix)
                if max(arith_on(1), mem_on(1)) >= goal_ns:
                    kind = "idle threads"
            cells.append(dict(precision=p, routine=r, n=n, batch=batch if mode == "large" else "", threads=t, speedup=speedup, goal=goal, family=family,
                              width_bytes=width, smallla_ns=ours, anchor_ns=anchor, best_anchor=row["best_anchor"],
                              goal_ns=goal_ns, arithmetic_floor_ns=arith_ns, memory_floor_ns=mem_ns, cause=kind,
                              floor_x=ours / max(arith_ns, mem_ns), goal_floor_x=goal_ns / max(arith_ns, mem_ns)))
    if a.out:
        with open(a.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(cells[0].keys()) if cells else ["precision"])
            w.writeheader()
            for c in cells:
                w.writerow({k: ("%.4g" % v if isinstance(v, float) else v) for k, v in c.items()})
    groups = defaultdict(list)
    for c in cells:
        groups[(c["routine"], c["precision"], c["batch"], c["cause"], c["family"], c["width_bytes"])].append(c)
    large = any(c["batch"] != "" for c in cells)
    print("| routine | p |%s n | family (vector bytes) | speedup | cause | smallla / floor | goal / floor |" %
          (" batch |" if large else ""))
    print("|---|---|%s---|---|---|---|---|---|" % ("---|" if large else ""))
    order = {"getrf": 0, "getri": 1, "matinv": 2, "getrs": 3}
    for key in sorted(groups, key=lambda k: (order.get(k[0], 9), k[0], "sdcz".index(k[1]), str(k[2]),
                                             min(c["n"] for c in groups[k]))):
        g = groups[key]
        print("| %s | %s |%s %s | %s (%d) | %s | %s | %s | %s |" % (
            key[0], key[1], " %s |" % key[2] if large else "", ranges(c["n"] for c in g), key[4], key[5],
            span([c["speedup"] for c in g]), key[3], span([c["floor_x"] for c in g], "%.1f"),
            span([c["goal_floor_x"] for c in g], "%.1f")))
    print("\n%d cells short of the goal; %s" % (len(cells), ", ".join(
        "%s %d" % (k, sum(1 for c in cells if c["cause"] == k)) for k in ("memory", "arithmetic", "idle threads", "overhead"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
