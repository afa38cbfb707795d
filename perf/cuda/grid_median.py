#!/usr/bin/env python3
"""The per-cell median of several smallla-bench --grid runs of the same cells (one call, the same library): each
time column's median over the runs, then the best vendor route, the ratio and the GEMM fraction from those medians.
A single run's cell can be 2-4x off where something else held the GPU or its host for a few repetitions (the same
cell's GEMM slowed too); the median of three runs is the record.

usage: grid_median.py OUT.csv RUN1.csv RUN2.csv RUN3.csv ...
"""
import csv
import statistics
import sys

TIMES = ("ms", "cublas_ms", "cusolver_ms", "cusolver4_ms")
VENDORS = (("cublas", "cublas_ms"), ("cusolver", "cusolver_ms"), ("cusolver4", "cusolver4_ms"))


def cell(row):
    return row["op"], row["prec"], row["n"], row["batch"]


def main(out_path, paths):
    runs = [list(csv.DictReader(open(p))) for p in paths]
    fields = list(runs[0][0].keys())
    by_cell = [{cell(r): r for r in run} for run in runs]
    rows = []
    for first in runs[0]:
        same = [run[cell(first)] for run in by_cell if cell(first) in run]
        row = dict(first)
        for c in TIMES + ("gemm_gflops",):
            row[c] = statistics.median(float(r[c]) for r in same)
        flops = float(first["gflops"]) * float(first["ms"])  # GFLOP/s x ms: the cell's work, the same in every run
        best, best_ms = min(((name, row[c]) for name, c in VENDORS if row[c] > 0), key=lambda v: v[1])
        row.update(best_vendor=best, best_vendor_ms=best_ms, ratio=row["ms"] / best_ms, gflops=flops / row["ms"])
        row["frac_gemm"] = row["gflops"] / row["gemm_gflops"]
        for c in TIMES + ("best_vendor_ms", "ratio", "frac_gemm"):
            row[c] = "%.4f" % row[c]
        for c in ("gflops", "gemm_gflops"):
            row[c] = "%.2f" % row[c]
        rows.append(row)
    with open(out_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
