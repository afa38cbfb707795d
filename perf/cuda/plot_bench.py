#!/usr/bin/env python3
"""Draws the paper-style figures of a smallla-bench CSV: for each op, GFLOP/s and the fraction of the copy
bandwidth against n, ours and cuBLAS's, one column per precision, with the copy ceiling (1.0) and the
issue's targets for n <= 32 (0.8 real, 0.7 complex) drawn in.

usage: plot_bench.py RESULTS.csv [OUT_PREFIX]   -> OUT_PREFIX-<op>.png (default prefix: the CSV's name)
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {"getrf": "LU (getrf)", "getrf_nopiv": "LU without pivoting", "matinv": "inverse (matinv)",
          "getri": "inverse from LU (getri)", "getrs": "getrf + getrs (1 rhs)"}
PRECS = ["s", "d", "c", "z"]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    path = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(path)[0]
    rows = list(csv.DictReader(open(path)))
    ops = [op for op in LABELS if any(r["op"] == op for r in rows)]
    for op in ops:
        precs = [p for p in PRECS if any(r["op"] == op and r["prec"] == p for r in rows)]
        fig, axes = plt.subplots(2, len(precs), figsize=(4.2 * len(precs), 7), squeeze=False)
        for col, p in enumerate(precs):
            sel = sorted((r for r in rows if r["op"] == op and r["prec"] == p), key=lambda r: int(r["n"]))
            n = [int(r["n"]) for r in sel]
            ours_gf = [float(r["gflops"]) for r in sel]
            ours_fr = [float(r["frac_copy"]) for r in sel]
            vend = [(int(r["n"]), float(r["gflops"]) * float(r["ms"]) / float(r["vendor_ms"]),
                     float(r["frac_copy"]) * float(r["ms"]) / float(r["vendor_ms"]))
                    for r in sel if r["vendor_ms"]]
            ax = axes[0][col]
            ax.plot(n, ours_gf, "o-", ms=3, label="smallla")
            if vend:
                ax.plot([v[0] for v in vend], [v[1] for v in vend], "s--", ms=3, label="cuBLAS")
            ax.set_title(f"{p}: {LABELS[op]}")
            ax.set_ylabel("GFLOP/s")
            ax.set_xscale("log", base=2)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
            ax = axes[1][col]
            ax.plot(n, ours_fr, "o-", ms=3, label="smallla")
            if vend:
                ax.plot([v[0] for v in vend], [v[2] for v in vend], "s--", ms=3, label="cuBLAS")
            ax.axhline(1.0, color="k", lw=1, label="copy ceiling")
            if op in ("getrf", "matinv", "getrs"):
                target = 0.7 if p in "cz" else 0.8
                ax.plot([1, 32], [target, target], "r:", lw=1.5, label=f"target {target} (n<=32)")
            ax.set_ylabel("fraction of copy bandwidth")
            ax.set_xlabel("n")
            ax.set_xscale("log", base=2)
            ax.set_ylim(0, 1.1)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
        batch = sorted({int(r["batch"]) for r in rows if r["op"] == op})
        fig.suptitle(f"smallla vs cuBLAS, {LABELS[op]} (batch {batch[0]}..{batch[-1]}: >= 1 GiB of matrices)")
        fig.tight_layout()
        out = f"{prefix}-{op}.png"
        fig.savefig(out, dpi=110)
        plt.close(fig)
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
