#!/usr/bin/env python3
"""Heat maps of a smallla-bench --grid CSV: per op and precision, smallla's time over the best vendor route's
(below 1: smallla is faster) over n x batch, and the fraction of cuBLAS's batched GEMM rate at the same n and batch.

usage: plot_grid.py GRID.csv OUT_PREFIX   (writes OUT_PREFIX-OP-PREC-vendor.png and OUT_PREFIX-OP-PREC-gemm.png)
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402


def heat(cells, ns, batches, title, path, norm, fmt, cmap):
    grid = [[cells.get((n, b), float("nan")) for b in batches] for n in ns]
    fig, ax = plt.subplots(figsize=(1.0 + 0.8 * len(batches), 1.0 + 0.45 * len(ns)))
    im = ax.imshow(grid, norm=norm, cmap=cmap, aspect="auto", origin="lower")
    ax.set_xticks(range(len(batches)), [str(b) for b in batches])
    ax.set_yticks(range(len(ns)), [str(n) for n in ns])
    ax.set_xlabel("batch")
    ax.set_ylabel("n")
    ax.set_title(title, fontsize=9)
    for i, n in enumerate(ns):
        for j, b in enumerate(batches):
            v = cells.get((n, b))
            if v is not None:
                ax.text(j, i, fmt % v, ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    by = defaultdict(list)
    for r in rows:
        by[(r["op"], r["prec"])].append(r)
    for (op, prec), rs in by.items():
        ns = sorted({int(r["n"]) for r in rs})
        batches = sorted({int(r["batch"]) for r in rs})
        ratio = {(int(r["n"]), int(r["batch"])): float(r["ratio"]) for r in rs}
        gemm = {(int(r["n"]), int(r["batch"])): float(r["frac_gemm"]) for r in rs}
        heat(ratio, ns, batches, "%s %s: smallla time / best vendor route (< 1: smallla faster)" % (op, prec),
             "%s-%s-%s-vendor.png" % (sys.argv[2], op, prec), LogNorm(vmin=0.05, vmax=20), "%.2f", "RdYlGn_r")
        heat(gemm, ns, batches, "%s %s: GFLOP/s / cuBLAS batched GEMM's at the same n, batch" % (op, prec),
             "%s-%s-%s-gemm.png" % (sys.argv[2], op, prec), None, "%.2f", "viridis")


if __name__ == "__main__":
    main()
