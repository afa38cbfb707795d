#!/usr/bin/env python3
"""The issue-slot account of the CUDA backend's small-order kernels (issue_account.sh's counts) against a sweep.

usage: issue_account.py COUNTS_DIR SWEEP.csv [--sms 132] [--csv OUT.csv] [--png PREFIX] [--all]

For every op x precision x order of COUNTS_DIR (ncu-OP-P.csv and bench-OP-P.csv from issue_account.sh) and of
SWEEP.csv (smallla-bench at >= 1 GiB: the fraction of the copy bandwidth, and with it the copy bandwidth):
  inst      warp instructions the op's kernels issue per matrix (ncu, all kernels of one call, per matrix)
  slots     issue slots the whole GPU has in the time a copy of the op's bytes takes, per matrix:
            bytes / copy bandwidth x SM clock (ncu, during the kernels) x 4 sub-partitions x SMs
  ceiling   slots / inst: the fraction of the copy bandwidth the op could reach if every sub-partition issued
            one of its instructions every cycle (it cannot pass this without issuing fewer instructions)
  frac      the sweep's fraction of copy; used = frac / ceiling, the issue rate that speed implies, and
            need = target / ceiling, the issue rate the target needs (above 1: out of reach of these instructions)
  issue     ncu's issue-active fraction, warps: warps active (of the maximum), regs: registers per thread
  dram      DRAM bytes moved per matrix over the op's minimum (1.00 = each matrix read once and written once)
The target is the issue's (0.8 of copy for s and d, 0.7 for c and z; the Cholesky family's 0.85 and 0.75). Where
an op misses it, the cause column says which limit: "issue" when the ceiling is below the target (no schedule of
these instructions reaches it), "latency" when the ceiling is above it but the issue slots go unused (few warps,
long dependent chains).
By default only the orders that miss the target are printed; --all prints every one. --png draws, per op, the
measured fraction, the ceiling and the target against n, one panel per precision (PREFIX-<op>.png)."""
import csv
import glob
import os
import re
import sys
from collections import defaultdict

TARGET = {"s": 0.8, "d": 0.8, "c": 0.7, "z": 0.7}  # issue 3's, the LU family
CHOL_TARGET = {"s": 0.85, "d": 0.85, "c": 0.75, "z": 0.75}  # issue 31's, the Cholesky family
CHOL_OPS = ("potrf", "posv", "potri", "poinv")
CALLS = 2  # the bench with --reps 1 runs each case twice (warm-up and timed run)


def read_ncu(path):
    """The profiled launches in order: (N of the kernel's template, metrics by name)."""
    lines = open(path, errors="replace").read().splitlines()
    start = [k for k, l in enumerate(lines) if l.startswith('"ID"')]
    if not start:
        return []
    rows = list(csv.reader(lines[start[0]:]))
    head = rows[0]
    out = []
    for r in rows[2:]:  # rows[1] holds the units
        if len(r) != len(head):
            continue
        m = dict(zip(head, r))
        name = m.get("Kernel Name", "")
        g = re.search(r"<(?:[\w:]+<\w+>|[\w:]+), (\d+)(?:, (\d+))?[,>]", name)
        # The order is the template's first integer, but chol_lanes_kernel<T, W, NP, Op>'s second (NP: the
        # padded order, n where n is a multiple of 4).
        n = None if not g else int(g.group(2)) if "chol_lanes_kernel" in name and g.group(2) else int(g.group(1))
        out.append((n, name, m))
    return out


def chol_op_of(name):
    """The chol_op (0: factor) of a Cholesky kernel's name: its template's third integer, None for other kernels."""
    ints = re.findall(r", (?:\([\w:]+\))?(\d+)", name.split("(")[0])
    return int(ints[2]) if "chol_" in name and len(ints) >= 3 else None


def num(m, key):
    try:
        return float(m[key].replace(",", ""))
    except (KeyError, ValueError):
        return float("nan")


def draw(table, prefix):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = {"getrf": "LU (getrf)", "getrs": "getrf + getrs (1 rhs)", "matinv": "inverse (matinv)"}
    for op in sorted({r["op"] for r in table}):
        fig, axes = plt.subplots(1, 4, figsize=(16, 4), sharey=True)
        for ax, p in zip(axes, "sdcz"):
            rs = [r for r in table if r["op"] == op and r["prec"] == p]
            if not rs:
                continue
            n = [r["n"] for r in rs]
            ax.plot(n, [r["frac"] for r in rs], "o-", ms=3, label="measured (fraction of copy)")
            ax.plot(n, [min(r["ceiling"], 2.0) for r in rs], "s--", ms=3, label="issue ceiling (slots / instructions)")
            ax.plot(n, [r["used"] for r in rs], ":", label="issue use implied (measured / ceiling)")
            ax.axhline(rs[0]["target"], color="k", lw=0.8, ls="-.", label="the issue's target")
            ax.set_title(f"{labels.get(op, op)}, {p}")
            ax.set_xlabel("n")
            ax.set_ylim(0, 2.0)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("fraction (ceiling clipped at 2)")
        axes[0].legend(fontsize=7, loc="upper right")
        fig.tight_layout()
        fig.savefig(f"{prefix}-{op}.png", dpi=100)
        plt.close(fig)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    counts, sweep_path = args[0], args[1]
    sms = int(args[args.index("--sms") + 1]) if "--sms" in args else 132
    csv_out = args[args.index("--csv") + 1] if "--csv" in args else None
    show_all = "--all" in args
    png = args[args.index("--png") + 1] if "--png" in args else None
    sweep = {(r["op"], r["prec"], int(r["n"])): r for r in csv.DictReader(open(sweep_path))}

    table = []
    for path in sorted(glob.glob(os.path.join(counts, "ncu-*.csv"))):
        op, p = os.path.basename(path)[4:-4].rsplit("-", 1)
        bench_csv = os.path.join(counts, f"bench-{op}-{p}.csv")
        bench = {int(r["n"]): int(r["batch"]) for r in csv.DictReader(open(bench_csv))}
        by_n = defaultdict(list)
        for n, name, m in read_ncu(path):
            if n is not None and not (op == "potri" and chol_op_of(name) == 0):  # potri's input: a factor, untimed
                by_n[n].append((name, m))
        for n, launches in sorted(by_n.items()):
            if n not in bench or (op, p, n) not in sweep:
                continue
            batch = bench[n]
            t = sum(num(m, "gpu__time_duration.sum") for _, m in launches)
            w = lambda key: sum(num(m, key) * num(m, "gpu__time_duration.sum") for _, m in launches) / t
            inst = sum(num(m, "smsp__inst_executed.sum") for _, m in launches) / (CALLS * batch)
            dram = sum(num(m, "dram__bytes_read.sum") + num(m, "dram__bytes_write.sum")
                       for _, m in launches) / (CALLS * batch)
            clock = w("smsp__cycles_elapsed.avg.per_second")
            regs = "/".join(sorted({str(int(num(m, "launch__registers_per_thread"))) for _, m in launches}))
            kinds = "/".join(sorted({re.search(r"(\w+)<", name).group(1) if re.search(r"(\w+)<", name) else name
                                     for name, _ in launches}))
            row = sweep[(op, p, n)]
            frac, ms, sweep_batch = float(row["frac_copy"]), float(row["ms"]), int(row["batch"])
            # The bench's own count of the bytes the op must move, and the copy's time for them, per matrix:
            # gbs = bytes / time and frac = copy time / time (smallla_bench.cu), so no formula is repeated here.
            least = float(row["gbs"]) * 1e6 * ms / sweep_batch
            copy_seconds = ms * 1e-3 * frac / sweep_batch
            slots = copy_seconds * clock * 4 * sms
            ceiling = slots / inst
            target = (CHOL_TARGET if op in CHOL_OPS else TARGET)[p]
            cause = "" if frac >= target else ("issue" if ceiling < target else "latency")
            table.append(dict(op=op, prec=p, n=n, frac=frac, target=target, inst=inst, slots=slots, ceiling=ceiling,
                              used=frac / ceiling, need=target / ceiling,
                              issue=w("smsp__issue_active.avg.pct_of_peak_sustained_active") / 100,
                              warps=w("sm__warps_active.avg.pct_of_peak_sustained_active") / 100, regs=regs,
                              dram=dram / least, clock_ghz=clock / 1e9, cause=cause, kernels=kinds))
    order = {"getrf": 0, "getrs": 1, "matinv": 2, "potrf": 3, "posv": 4, "potri": 5, "poinv": 6}
    table.sort(key=lambda r: (order.get(r["op"], 9), "sdcz".index(r["prec"]), r["n"]))
    print("%-7s %s %3s %6s %6s %7s %7s %7s %6s %6s %6s %6s %7s %5s %-7s %s" % (
        "op", "p", "n", "frac", "target", "inst", "slots", "ceiling", "used", "need", "issue", "warps", "regs", "dram",
        "cause", "kernels"))
    for r in table:
        if show_all or r["cause"]:
            print("%-7s %s %3d %6.2f %6.2f %7.0f %7.0f %7.2f %6.2f %6.2f %6.2f %6.2f %7s %5.2f %-7s %s" % (
                r["op"], r["prec"], r["n"], r["frac"], r["target"], r["inst"], r["slots"], r["ceiling"], r["used"],
                r["need"], r["issue"], r["warps"], r["regs"], r["dram"], r["cause"] or "-", r["kernels"]))
    missed = [r for r in table if r["cause"]]
    issue = sum(r["cause"] == "issue" for r in missed)
    print("# %d of %d cases miss the target: %d with the issue ceiling below it, %d latency" % (
        len(missed), len(table), issue, len(missed) - issue))
    if png:
        draw(table, png)
    if csv_out:
        with open(csv_out, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(table[0].keys()) if table else [])
            wr.writeheader()
            for r in table:
                wr.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()})


if __name__ == "__main__":
    main()
