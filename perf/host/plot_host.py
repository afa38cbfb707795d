#!/usr/bin/env python3
"""Draws the speedup of smallla's host backend over the best anchor (or, in older records, the loop of LAPACK
calls) from smallla-bench-host's CSV.

Usage: plot_host.py RESULTS.csv [OUT.png]   (default OUT: the CSV's name with .png)
One panel per routine; one line per precision; the dashed line marks the 2x goal.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else src.rsplit(".", 1)[0] + ".png"
    data = defaultdict(list)  # (routine, precision) -> [(n, speedup)]
    threads = set()
    with open(src, newline="") as f:
        for row in csv.DictReader(f):
            if not row["speedup"]:  # no anchor measured
                continue
            data[(row["routine"], row["precision"])].append((int(row["n"]), float(row["speedup"])))
            threads.add(row["threads"])
    routines = [r for r in ("getrf", "getri", "matinv", "getrs") if any(k[0] == r for k in data)]
    fig, axes = plt.subplots(1, len(routines), figsize=(4.2 * len(routines), 3.8), sharey=True, squeeze=False)
    for ax, routine in zip(axes[0], routines):
        for precision in "sdcz":
            points = sorted(data.get((routine, precision), []))
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", label=precision)
        ax.axhline(2.0, color="gray", linestyle="--", linewidth=1)
        ax.axhline(1.0, color="black", linewidth=0.5)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_title(routine)
        ax.set_xlabel("n")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("speedup over the best anchor")
    axes[0][-1].legend(title="precision")
    fig.suptitle("smallla host backend vs the best anchor (%s threads)" % ",".join(sorted(threads)))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
