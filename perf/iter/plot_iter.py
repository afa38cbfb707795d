#!/usr/bin/env python3
"""Draws the figure of a smallla-study-iter CSV: for each case (dominant, random, warm-started sequences),
the sweeps of the iterative Crout LU against n (top) and the time per matrix of every method against n
(bottom: iterative, this library's direct getrf, cuBLAS getrfBatched).

usage: plot_iter.py STUDY.csv [OUT.png]     (default OUT: the CSV's name with .png)
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CASES = [("a-dominant", "(a) diagonally dominant, cold"), ("b-random", "(b) random, cold"),
         ("c-seq-dom", "(c) sequence, A0 dominant"), ("c-seq-rand", "(c) sequence, A0 random")]
METHODS = [("iter", "iterative (cold)", "C0", "o-"), ("iter_warm", "iterative, warm start", "C3", "s-"),
           ("iter_warm_tol", "iterative, warm, tol 1e-12", "C1", "d-"),
           ("iter_cold", "iterative, cold", "C0", "o--"), ("smallla_getrf", "smallla getrf (direct)", "C2", "^-"),
           ("cublas_getrf", "cuBLAS getrfBatched", "C7", "v-")]


def num(x):
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except ValueError:
        return None


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(path)[0] + ".png"
    rows = list(csv.DictReader(open(path)))
    cases = [c for c in CASES if any(r["case"] == c[0] for r in rows)]
    fig, axes = plt.subplots(2, len(cases), figsize=(4.3 * len(cases), 7.5), squeeze=False)
    for col, (case, title) in enumerate(cases):
        sel = [r for r in rows if r["case"] == case]
        top, bottom = axes[0][col], axes[1][col]
        for m, label, color, style in METHODS:
            pts = sorted((int(r["n"]), r) for r in sel if r["method"] == m)
            if not pts:
                continue
            n = [p[0] for p in pts]
            us = [num(p[1]["us_per_matrix"]) for p in pts]
            if any(v is not None for v in us):
                bottom.plot([a for a, v in zip(n, us) if v is not None], [v for v in us if v is not None], style,
                            color=color, label=label, ms=4)
            if m.startswith("iter"):
                sw = [num(p[1]["sweeps_mean"]) for p in pts]
                top.plot([a for a, v in zip(n, sw) if v is not None], [v for v in sw if v is not None], style,
                         color=color, label=label + " (mean)", ms=4)
        nmax = max(int(r["n"]) for r in sel)
        top.plot([1, nmax], [1, nmax], ":", color="gray", label="n (the default bound)")
        top.set_title(title, fontsize=10)
        top.set_xlabel("n")
        top.set_ylabel("sweeps")
        top.legend(fontsize=7)
        top.grid(alpha=0.3)
        bottom.set_xlabel("n")
        bottom.set_ylabel("time per matrix [us]")
        bottom.set_yscale("log")
        bottom.legend(fontsize=7)
        bottom.grid(alpha=0.3, which="both")
    fig.suptitle("Iterative Crout LU (smallla_dgetrf_iter, tolerance 0) vs direct LU, double precision", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
