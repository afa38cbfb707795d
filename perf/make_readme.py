#!/usr/bin/env python3
"""Writes perf/README.md, the current performance figures, from the committed records in perf/results/.

usage: python3 perf/make_readme.py            writes perf/README.md
       python3 perf/make_readme.py --check    exits 1 (and shows the difference) when perf/README.md is not what
                                              this script writes; CTest runs it as perf_readme_current
The figures are computed from the CSVs named in the list of inputs below, never typed: a new record is a change of
that list (and a run of this script), not of the README. Python 3, standard library only.
"""
import csv
import difflib
import os
import re
import sys

# ---- Inputs: the current records, relative to perf/. A new record changes these lines only. ----
CURRENT_GPU_SWEEP = "results/2026-11-25-h100-f77ca08.csv"  # smallla-bench, >= 1 GiB a call, against cuBLAS
CURRENT_GPU_MILLION = "results/2026-11-25-h100-f77ca08-1m.csv"  # smallla-bench --batch 1048576
CURRENT_GPU_TESTS = [  # the GPU suite's records (newest first)
    "results/2026-11-26-h100-fe88727-tests.txt",
    "results/2026-11-26-h100-1ecf3eb-tests.txt",
    "results/2026-11-26-h200-dae37ab-tests.txt",
    "results/2026-11-25-h100-25ccc1c-tests.txt",
    "results/2026-11-25-h100-f77ca08-tests.txt",
]
CURRENT_GPU_DEVICE = "NVIDIA H100 80GB HBM3 (132 SMs), driver 580.159.04, CUDA 13.0, sm_90 code, clocks as found"
CURRENT_GPU_CHOL = "results/2026-11-26-h100-8a4db26-chol.csv"  # smallla-bench --ops potrf,posv,poinv,potri,gemm: the Cholesky family
CURRENT_GPU_CHOL_DEVICE = "NVIDIA H100 80GB HBM3 (132 SMs), driver 580.159.04, CUDA 13.0, the library of 8a4db26 (poinv n >= 40 after its scratch reservation, the rest the same kernels before it), measured 2026-11-26"
CURRENT_HOST = "results/2026-11-29-host-5073c62-2t.csv"  # smallla-bench-host against issue 32's anchors, 2 threads
CURRENT_HOST_LARGE = "results/2026-11-29-host-89bc364-large-2t.csv"  # smallla-bench-host --large, 2 threads
CURRENT_HOST_CEILINGS = "results/2026-11-29-host-5073c62-ceilings.csv"  # smallla-host-ceilings on the same machine
CURRENT_GPU_GRID = "results/2026-11-27-h100-e7aeb2c-large-grid.csv"  # smallla-bench --grid: n x batch against every vendor route
CURRENT_GPU_GRID_DEVICE = "NVIDIA H100 80GB HBM3 (132 SMs), driver 580.159.04, CUDA 13.0, sm_90 code"
CURRENT_GPU_CHOL_GRID = "results/2026-11-28-h200-b1ecaf5-chol-grid.csv"  # smallla-bench --grid --ops potrf
CURRENT_TORCH = "results/2026-11-26-h200-390e971-bench-torch.csv"  # perf/python/bench_torch.py: smallla against torch.linalg
CURRENT_TORCH_DEVICE = "NVIDIA H200, torch 2.11.0 (CUDA 13.0), the Python package and a 90-real library of 390e971"
CURRENT_HOST_MACHINE = "a 2-core Intel Xeon (Emerald Rapids, family 6 model 207, AVX-512) KVM guest, quiet (single cells of one run move up to ~10%, rare ones more)"
CURRENT_HOST_CODE = "5073c62"  # the commit whose host kernels were measured (the AVX-512 copy chosen)
# ---------------------------------------------------------------------------------------------------------------

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "README.md")

OPS = [  # (op in the CSV, heading)
    ("getrf", "getrf: LU with partial pivoting"),
    ("getrf_nopiv", "getrf without pivoting (ipiv = NULL)"),
    ("getrs", "getrs: getrf then getrs with one right-hand side, timed together"),
    ("getri", "getri: the inverse from the factors"),
    ("matinv", "matinv: the inverse from A"),
]
PRECS = ["s", "d", "c", "z"]
GPU_RANGES = [(1, 4), (5, 8), (9, 16), (17, 32), (33, 64), (65, 128), (129, 256), (257, 512), (513, 1024),
              (1025, 1 << 30)]
HOST_RANGES = [(2, 4)] + GPU_RANGES[1:]
DEFAULT_OPS = ["getrf", "getrf_nopiv", "matinv", "getri", "getrs"]  # smallla_bench.cu's defaults
HOST_ROUTINES = ["getrf", "getri", "matinv", "getrs"]  # bench_host.cpp's order


def read_csv(rel):
    with open(os.path.join(HERE, rel), newline="") as f:
        return [row for row in csv.DictReader(line for line in f if not line.startswith("#"))]


def record_name(rel):
    """(date, card, commit) from a record's name DATE-CARD-COMMIT[-suffix].csv."""
    m = re.match(r"(\d{4}-\d{2}-\d{2})-([a-z0-9]+)-([0-9a-f]{7,40})", os.path.basename(rel))
    return (m.group(1), m.group(2), m.group(3)) if m else ("?", "?", "?")


def compress(values):
    """1,2,3,5,7,8 -> '1-3,5,7-8' (sorted, duplicates dropped)."""
    out, vs = [], sorted(set(values))
    i = 0
    while i < len(vs):
        j = i
        while j + 1 < len(vs) and vs[j + 1] == vs[j] + 1:
            j += 1
        out.append(str(vs[i]) if i == j else "%d-%d" % (vs[i], vs[j]))
        i = j + 1
    return ",".join(out)


def span(values, digits=2):
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return ("%.*f" % (digits, lo)) if round(lo, digits) == round(hi, digits) else "%.*f-%.*f" % (digits, lo, digits, hi)


def range_label(lo, hi, ns):
    """The row's label: the range, and the orders measured when the record has not every one of them."""
    top = max(ns)
    full = list(range(lo, min(hi, top) + 1))
    label = "%d-%d" % (lo, hi) if hi < (1 << 30) else "%d-" % lo
    return label if sorted(ns) == full and top == hi else "%s (n = %s)" % (label, compress(ns).replace(",", ", "))


def number(row, key):
    try:
        v = float(row[key])
    except (KeyError, TypeError, ValueError):
        return None
    return v if v == v and v > 0 else None  # NaN or the bench's "no vendor" marks


def range_rows(sel, precs, cells):
    """Markdown rows, one per GPU_RANGES range that sel has: per precision, each of cells(rows of that precision)."""
    out = []
    for lo, hi in GPU_RANGES:
        ns = sorted({int(r["n"]) for r in sel if lo <= int(r["n"]) <= hi})
        if ns:
            row = [c for p in precs for c in cells([r for r in sel if r["prec"] == p and lo <= int(r["n"]) <= hi])]
            out.append("| %s | %s |" % (range_label(lo, hi, ns), " | ".join(row)))
    return out


def values(rows, key):
    return [v for v in (number(r, key) for r in rows) if v is not None]


def gpu_tables(rows):
    out = []
    ops = [op for op, _ in OPS if any(r["op"] == op for r in rows)]
    ops += sorted({r["op"] for r in rows} - set(ops))
    heads = dict(OPS)
    for op in ops:
        sel = [r for r in rows if r["op"] == op]
        precs = [p for p in PRECS if any(r["prec"] == p for r in sel)]
        out.append("### %s\n" % heads.get(op, op))
        out.append("| n | " + " | ".join("%s of copy | %s vs cuBLAS" % (p, p) for p in precs) + " |")
        out.append("|---|" + "---|---|" * len(precs))
        out += range_rows(sel, precs, lambda cur: [span(values(cur, "frac_copy")), span(values(cur, "speedup_vs_vendor"))])
        out.append("")
    return out


FEW_MATRICES = 4  # rows of a batch this small (smallla-bench --batch) are listed apart from the >= 1 GiB sweep
CHOL_OPS = [
    ("potrf", "potrf: Cholesky factorization (lower)"),
    ("posv", "posv: potrf and the solve with one right-hand side"),
    ("potri", "potri: the inverse's triangle from the factor"),
    ("poinv", "poinv: the full inverse from A"),
]


def chol_tables(rows):
    """Per op: fraction of copy and speed-up over the vendor by order range; beyond 32 also the fraction of cuBLAS's
    strided-batched GEMM rate at the same order (the gemm rows of the same run)."""
    out = []
    few = [r for r in rows if int(r["batch"]) <= FEW_MATRICES and r["op"] != "gemm"]
    rows = [r for r in rows if int(r["batch"]) > FEW_MATRICES]
    gemm = {(r["prec"], int(r["n"])): number(r, "gflops") for r in rows if r["op"] == "gemm"}
    for op, head in CHOL_OPS:
        sel = [r for r in rows if r["op"] == op]
        if not sel:
            continue
        precs = [p for p in PRECS if any(r["prec"] == p for r in sel)]
        out.append("### %s\n" % head)
        out.append("| n | " + " | ".join("%s of copy | %s of GEMM | %s vs vendor" % (p, p, p) for p in precs) + " |")
        out.append("|---|" + "---|---|---|" * len(precs))
        of_gemm = lambda cur: [number(r, "gflops") / gemm[(r["prec"], int(r["n"]))] for r in cur
                               if number(r, "gflops") and gemm.get((r["prec"], int(r["n"])))]
        out += range_rows(sel, precs, lambda cur: [span(values(cur, "frac_copy")), span(of_gemm(cur)),
                                                   span(values(cur, "speedup_vs_vendor"))])
        out.append("")
    if few:
        out.append("Few matrices: the Cholesky grid below (the record's rows of a batch of 1 predate the vendor routes).")
        out.append("")
    return out


def least_speedup(rows):
    have = [(number(r, "speedup_vs_vendor"), r) for r in rows]
    have = [(v, r) for v, r in have if v is not None]
    if not have:
        return None
    v, r = min(have, key=lambda t: t[0])
    return "%.2fx (%s %s, n = %s)" % (v, r["op"], r["prec"], r["n"])


def million_table(rows):
    ns = sorted({int(r["n"]) for r in rows})
    out = ["| op | p | " + " | ".join("n = %d: of copy, vs cuBLAS" % n for n in ns) + " |",
           "|---|---|" + "---|" * len(ns)]
    ops = [op for op, _ in OPS if any(r["op"] == op for r in rows)]
    for op in ops:
        for p in PRECS:
            sel = {int(r["n"]): r for r in rows if r["op"] == op and r["prec"] == p}
            if not sel:
                continue
            cells = []
            for n in ns:
                r = sel.get(n)
                f = number(r, "frac_copy") if r else None
                s = number(r, "speedup_vs_vendor") if r else None
                cells.append("%s, %s" % ("%.2f" % f if f is not None else "-", "%.2fx" % s if s is not None else "-"))
            out.append("| %s | %s | %s |" % (op, p, " | ".join(cells)))
    return out


def host_table(rows):
    precs = [p for p in PRECS if any(r["precision"] == p for r in rows)]
    routines = [x for x in HOST_ROUTINES if any(r["routine"] == x for r in rows)]
    routines += sorted({r["routine"] for r in rows} - set(routines))
    out = ["| routine | n | " + " | ".join(precs) + " |", "|---|---|" + "---|" * len(precs)]
    for routine in routines:
        sel = [r for r in rows if r["routine"] == routine]
        for lo, hi in HOST_RANGES:
            ns = sorted({int(r["n"]) for r in sel if lo <= int(r["n"]) <= hi})
            if not ns:
                continue
            cells = [span([v for v in (number(r, "speedup") for r in sel
                                       if r["precision"] == p and lo <= int(r["n"]) <= hi) if v is not None])
                     for p in precs]
            out.append("| %s | %s | %s |" % (routine, range_label(lo, hi, ns), " | ".join(cells)))
    return out


def host_large_table(rows):
    """Per routine and precision, the least speed-up over batches 1-4 at each order (bold: below 1)."""
    ns = sorted({int(r["n"]) for r in rows})
    routines = [x for x in HOST_ROUTINES if any(r["routine"] == x for r in rows)]
    routines += sorted({r["routine"] for r in rows} - set(routines))
    out = ["| routine | p | " + " | ".join(str(n) for n in ns) + " |", "|---|---|" + "---|" * len(ns)]
    for routine in routines:
        for p in PRECS:
            vals = []
            for n in ns:
                v = [number(r, "speedup") for r in rows
                     if r["routine"] == routine and r["precision"] == p and int(r["n"]) == n]
                v = [x for x in v if x is not None]
                vals.append("" if not v else ("**%.2f**" % min(v) if min(v) < 1.0 else "%.2f" % min(v)))
            if any(vals):
                out.append("| %s | %s | %s |" % (routine, p, " | ".join(vals)))
    return out


def grid_table(rows):
    """Per op and precision, smallla's time over the best vendor route's at each (n, batch) of the grid."""
    out = []
    batches = sorted({int(r["batch"]) for r in rows})
    out.append("| op | prec | n | " + " | ".join("batch %d" % b for b in batches) + " |")
    out.append("|---|---|---|" + "---|" * len(batches))
    keys = sorted({(r["op"], r["prec"], int(r["n"])) for r in rows},
                  key=lambda k: ([op for op, _ in OPS].index(k[0]) if k[0] in [op for op, _ in OPS] else 99,
                                 PRECS.index(k[1]), k[2]))
    cell = {(r["op"], r["prec"], int(r["n"]), int(r["batch"])): float(r["ratio"]) for r in rows}
    for op, prec, n in keys:
        vals = []
        for b in batches:
            v = cell.get((op, prec, n, b))
            vals.append("" if v is None else ("**%.2f**" % v if v > 1.0 else "%.2f" % v))
        out.append("| %s | %s | %d | %s |" % (op, prec, n, " | ".join(vals)))
    return out


def torch_table(rows):
    """Speed-up over torch.linalg (torch's time over smallla's) per op and precision, by range of n."""
    names = {"inv": "inv / inv_ex", "lu_factor": "lu_factor / lu_factor_ex", "solve": "solve / solve_ex",
             "cholesky": "cholesky / cholesky_ex"}
    ranges = [(2, 4), (5, 8), (9, 16), (17, 32), (33, 64)]
    ns = sorted({int(r["n"]) for r in rows})
    present = [(lo, hi) for lo, hi in ranges if any(lo <= n <= hi for n in ns)]
    out = ["| function | p | " + " | ".join("n = %d-%d" % (lo, hi) for lo, hi in present) + " |",
           "|---|---|" + "---|" * len(present)]
    for op in [o for o in names if any(r["op"] == o for r in rows)]:
        for p in [q for q in ("s", "d", "c", "z") if any(r["op"] == op and r["precision"] == q for r in rows)]:
            cells = []
            for lo, hi in present:
                v = [float(r["speedup"]) for r in rows
                     if r["op"] == op and r["precision"] == p and lo <= int(r["n"]) <= hi]
                cells.append(span(v) if v else "")
            out.append("| %s | %s | %s |" % (names[op], p, " | ".join(cells)))
    return out


def tests_summary(rel):
    """Each part's 'total:' line of a GPU suite record (run_gpu_suite.sh), e.g. 'tests 13 passed, 0 failed, ...'."""
    try:
        text = open(os.path.join(HERE, rel)).read()
    except OSError:
        return "missing"
    parts = re.split(r"^GPU suite \((\w+)\):.*$", text, flags=re.M)  # [before, part, body, part, body, ...]
    totals = []
    for part, body in zip(parts[1::2], parts[2::2]):
        m = re.search(r"^total: (.*)$", body, re.M)
        totals.append("%s %s" % (part, m.group(1) if m else "no summary line"))
    return "; ".join(totals) if totals else "no summary line"


def link(rel, text=None):
    return "[%s](%s)" % (text or os.path.basename(rel), rel)


def generate():
    sweep = read_csv(CURRENT_GPU_SWEEP)
    million = read_csv(CURRENT_GPU_MILLION)
    host = read_csv(CURRENT_HOST)
    date, _, commit = record_name(CURRENT_GPU_SWEEP)
    hdate, _, hcommit = record_name(CURRENT_HOST)
    stem = os.path.splitext(CURRENT_GPU_SWEEP)[0]
    ops_in = [op for op, _ in OPS if any(r["op"] == op for r in sweep)]
    figures = [(op, stem + "-%s.png" % op) for op in ops_in if os.path.exists(os.path.join(HERE, stem + "-%s.png" % op))]
    sweep_ns = compress(int(r["n"]) for r in sweep)
    sweep_ops = [op for op in DEFAULT_OPS if any(r["op"] == op for r in sweep)]
    sweep_precs = [p for p in PRECS if any(r["prec"] == p for r in sweep)]
    million_ns = compress(int(r["n"]) for r in million)
    million_batch = sorted({int(r["batch"]) for r in million})
    host_ns = compress(int(r["n"]) for r in host)
    host_threads = ", ".join(sorted({r["threads"] for r in host}, key=int))
    host_precs = "".join(p for p in PRECS if any(r["precision"] == p for r in host))
    opt_ops = "" if sweep_ops == DEFAULT_OPS else " --ops " + ",".join(sweep_ops)
    opt_precs = "" if sweep_precs == PRECS else " --precs " + ",".join(sweep_precs)

    out = []
    w = out.append
    w("# Current performance figures")
    w("")
    w("Generated by `python3 perf/make_readme.py` from the committed CSVs; do not edit it by hand (edit the script or")
    w("its list of inputs and run it again; `python3 perf/make_readme.py --check`, the CTest test `perf_readme_current`,")
    w("fails when this file is stale). How the numbers are defined, the kernels behind them and why the figures stand")
    w("where they do: [NOTES.md](NOTES.md). The records: [results/README.md](results/README.md).")
    w("")
    w("## The current record")
    w("")
    w("- GPU: %s; the library of commit %s, measured %s (%s)." % (
        CURRENT_GPU_DEVICE, commit, date, link(CURRENT_GPU_SWEEP)))
    for t in CURRENT_GPU_TESTS:
        w("- GPU suite, %s: %s." % (link(t), tests_summary(t)))
    w("- Host: %s, %s OpenMP thread(s); the host kernels of %s, measured %s (%s)." % (
        CURRENT_HOST_MACHINE, host_threads, CURRENT_HOST_CODE, hdate, link(CURRENT_HOST)))
    slower = sorted(("%s %s %s" % (r["op"], r["prec"], r["n"])) for r in sweep
                    if number(r, "speedup_vs_vendor") is not None and number(r, "speedup_vs_vendor") < 1.0)
    least = least_speedup(sweep)
    if least and not slower:
        w("- Against cuBLAS: every op, precision and order of the sweep is at least as fast; the least speed-up is %s." % least)
    elif slower:
        w("- Against cuBLAS: slower at %d of %d cases (%s); the least speed-up is %s." % (
            len(slower), len(sweep), ", ".join(slower[:12]) + (", ..." if len(slower) > 12 else ""), least))
    w("")
    w("## GPU: fraction of the copy bandwidth and speed-up over cuBLAS")
    w("")
    w("Each cell is the range (min-max) over the orders of its row: \"of copy\" is the bytes the op must move per")
    w("second over a device-to-device copy of the same bytes (1.0 = the copy's speed; above 1 at n <= 2, see")
    w("NOTES.md); \"vs cuBLAS\" is cuBLAS's time over ours on the same data in the same call (> 1: faster than")
    w("cuBLAS). At least 1 GiB of matrices a call, the median of 5 runs. Issue 3's figures for n <= 32: 0.8 of copy")
    w("for s and d, 0.7 for c and z (getrf, getrf+getrs, matinv); at least cuBLAS's speed everywhere.")
    w("")
    out += gpu_tables(sweep)
    if figures:
        w("Figures (GFLOP/s and fraction of copy against n, ours and cuBLAS's): " +
          ", ".join(link(png, op) for op, png in figures) + ".")
        w("")
    w("## GPU: 1,048,576 matrices")
    w("")
    w("%s matrices a call (%s), n = %s: fraction of copy, speed-up over cuBLAS." % (
        ", ".join("{:,}".format(b) for b in million_batch), link(CURRENT_GPU_MILLION), million_ns.replace(",", ", ")))
    w("")
    out += million_table(million)
    w("")
    chol = read_csv(CURRENT_GPU_CHOL)
    w("## GPU: the Cholesky family")
    w("")
    w("%s; %s. As above, plus \"of GEMM\": GFLOP/s over cuBLAS's strided-batched GEMM of the same order and" % (
        CURRENT_GPU_CHOL_DEVICE, link(CURRENT_GPU_CHOL)))
    w("batch in the same run (the compute ceiling; LAPACK Working Note 41's counts). The vendor: cuSOLVER's potrfBatched")
    w("(posv: + potrsBatched), and for potri and poinv cuBLAS's getrfBatched + getriBatched, the vendor's only batched")
    w("route to an inverse. The bytes counted are the triangle read and written (poinv: all of C).")
    w("")
    out += chol_tables(chol)
    grid = read_csv(CURRENT_GPU_GRID)
    w("## GPU: few matrices and large orders, against every vendor route")
    w("")
    w("smallla's time over the best of cuBLAS's batched routine (n <= 512), cuSOLVER's single-matrix routine looped")
    w("over the batch on one stream and on four (%s, %s; below 1: smallla faster, bold: slower). getrs is getrf + getrs" % (
        CURRENT_GPU_GRID_DEVICE, link(CURRENT_GPU_GRID)))
    w("with one right-hand side; matinv's cuSOLVER anchor is getrf + getrs on the identity. Each time is the median")
    w("of 3 repetitions, and each cell the median of three grid runs in one call (perf/cuda/grid_median.py; a single")
    w("run had cells 2-4x off, where its GEMM slowed too: part 24 of %s)." % link("results/2026-11-26-h200-dae37ab-tests.txt"))
    w("")
    out += grid_table(grid)
    w("")
    chol_grid = read_csv(CURRENT_GPU_CHOL_GRID)
    w("## GPU: potrf at every batch, against every vendor route")
    w("")
    w("smallla's time over the best of cuSOLVER's potrfBatched (the cuBLAS column), its potrf looped over the batch on one")
    w("stream and on four (%s, NVIDIA H200; below 1: smallla faster, bold: slower). Beyond order 32 the routing" %
      link(CURRENT_GPU_CHOL_GRID))
    w("table sends one to 128-1024 matrices at 33-128 to one thread block a matrix holding it in registers (a column a")
    w("step; cuSOLVER keeps one matrix at s, d 121-128 and z 89-120), one to some hundreds at s 129-240, d and c 129-169")
    w("to one block a matrix in shared memory (from 113 cuSOLVER keeps 1-5), else a few matrices to cuSOLVER's looped")
    w("potrf and a middling batch to its potrfBatched. From the second call with the same arguments those two run from a")
    w("CUDA graph (one launch for cuSOLVER's kernels, our NaN-rule kernel and the workspace), as the grid's repetitions")
    w("do. Each cell the median of two grid runs in one call (b1ecaf5's library; smallla's runs come first in a cell:")
    w("the looped cuSOLVER's cells at 768 and up that read over 1.03 read 0.99-1.06 when the routes are timed in turn;")
    w("part 30 of %s)." % link("results/2026-11-26-h200-dae37ab-tests.txt"))
    w("")
    out += grid_table(chol_grid)
    w("")
    torch_rows = read_csv(CURRENT_TORCH)
    w("## Python on the GPU: speed-up over torch.linalg")
    w("")
    w("torch's time over smallla's (> 1: smallla faster) for the same CUDA tensors, each library's function as a PyTorch")
    w("user calls it (row-major tensors (batch, n, n), no error checks in the timed call; cholesky on symmetric positive")
    w("definite matrices), at least 1 GiB of matrices a case, the median of 5 runs by CUDA events; range (min-max) over")
    w("the orders of each column (%s, %s; figure: %s)." % (
        CURRENT_TORCH_DEVICE, link(CURRENT_TORCH), link(os.path.splitext(CURRENT_TORCH)[0] + ".png", "PNG")))
    w("")
    out += torch_table(torch_rows)
    w("")
    w("## Host: speed-up over the strongest CPU anchor")
    w("")
    w("Time per matrix of the fastest of issue 32's anchors, each an OpenMP loop over the batch on the same threads and")
    w("data (serial OpenBLAS's and reference LAPACK's xgetrf, xgetri on a copy, xgetrf + xgetri for matinv, xgetrs with")
    w("one right-hand side; Eigen's fixed-size PartialPivLU), over smallla's host backend's (> 1: smallla faster);")
    w("range (min-max) over the orders of each row (%s)." % link(CURRENT_HOST))
    w("")
    out += host_table(host)
    w("")
    w("Issue 32's goal is 2x at n <= 32 and 1x beyond. Each cell short of it is set against two floors measured on the")
    w("same machine (%s): the unfused multiplies and adds at the vector ops a second the core" % link(CURRENT_HOST_CEILINGS))
    w("issues, and the bytes at its read rate. NOTES.md (\"The account of the shortfalls\", host) gives each one's cause.")
    w("")
    large = read_csv(CURRENT_HOST_LARGE)
    large_batches = sorted({int(r["batch"]) for r in large})
    w("### Host: few large matrices")
    w("")
    w("`--large`: batches of %s matrices, the anchors as above plus threaded OpenBLAS called once a matrix, on the same" %
      ", ".join(str(b) for b in large_batches))
    w("machine and %s threads (%s); each cell the least speed-up over the batches (bold: below 1, issue 32's goal):" % (
        large[0]["threads"], link(CURRENT_HOST_LARGE)))
    w("")
    out += host_large_table(large)
    w("")
    w("## How to reproduce")
    w("")
    w("Build with the CUDA backend (nvcc; no GPU needed to build), stage it, and run on the GPU machine from the")
    w("repository's root (the names of the new records follow DATE-CARD-COMMIT):")
    w("")
    w("```sh")
    w("cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90-real   # sm_90 code for the H100")
    w("cmake --build build -j")
    w("bash tests/gpu/stage.sh build gpu-stage")
    w("# on the GPU machine:")
    w("export LD_LIBRARY_PATH=$PWD/gpu-stage/lib:$LD_LIBRARY_PATH")
    w("gpu-stage/bin/smallla-bench%s%s --n %s --csv %s" % (opt_ops, opt_precs, sweep_ns, "perf/" + CURRENT_GPU_SWEEP))
    w("gpu-stage/bin/smallla-bench --n %s --batch %s --csv %s" % (
        million_ns, ",".join(str(b) for b in million_batch), "perf/" + CURRENT_GPU_MILLION))
    w("gpu-stage/bin/smallla-bench --grid --ops getrf,getrs,matinv --precs d --n 64,128,256,512,600,1024,2048,4096 \\")
    w("    --batches 1,2,4,16,64,256,1024 --max-gib 8 --reps 3 --csv run1.csv   # then, appended to run1.csv:")
    w("#   --precs s,c,z --n 128,256,512,1024 --batches 1,4,16,64 (the same other arguments); twice more: run2, run3.csv")
    w("python3 perf/cuda/grid_median.py %s run1.csv run2.csv run3.csv" % ("perf/" + CURRENT_GPU_GRID))
    w("gpu-stage/bin/smallla-bench --grid --ops potrf --precs d,s,z,c --n 8,16,32,40,64,96,128,192,256,384,512,768,1024,1536,2048,4096 \\")
    w("    --batches 1,2,4,8,16,32,64,128,256,512,1024,2048,4096 --max-gib 4 --reps 3 --csv run1.csv   # twice: run2.csv")
    w("python3 perf/cuda/grid_median.py %s run1.csv run2.csv" % ("perf/" + CURRENT_GPU_CHOL_GRID))
    w("# potrf's batch-dependent routing lines: perf/cuda/grid_routes.py on such a grid of a build without them")
    w("gpu-stage/bin/smallla-bench --ops potrf,posv,poinv,potri,gemm --n %s --csv %s" % (
        compress(int(r["n"]) for r in chol), "perf/" + CURRENT_GPU_CHOL))
    w("bash gpu-stage/run_gpu_suite.sh gpu-stage suite-out tests")
    w("bash gpu-stage/run_gpu_suite.sh gpu-stage suite-out sanitizers")
    w("python3 perf/cuda/plot_grid.py %s %s   # heat maps (matplotlib)" % (
        "perf/" + CURRENT_GPU_GRID, "perf/" + os.path.splitext(CURRENT_GPU_GRID)[0]))
    w("python3 perf/cuda/plot_bench.py %s   # %s-<op>.png (matplotlib)" % (
        "perf/" + CURRENT_GPU_SWEEP, "perf/" + stem))
    w("```")
    w("")
    w("smallla-bench's defaults give the rest: at least `--gib 1` of matrices a call, `--reps 5` (the median),")
    w("`--nrhs 1`, every op and precision (`smallla-bench --help`). The host table, on a build with or without CUDA:")
    w("")
    w("```sh")
    w("cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j")
    w("OMP_NUM_THREADS=%s build/perf/host/smallla-bench-host --precisions %s --sizes %s --out %s" % (
        host_threads, host_precs, host_ns, "perf/" + CURRENT_HOST))
    w("python3 perf/host/plot_host.py %s   # the speed-ups as a PNG (matplotlib)" % ("perf/" + CURRENT_HOST))
    w("OMP_NUM_THREADS=%s build/perf/host/smallla-host-ceilings --out %s" % (host_threads, "perf/" + CURRENT_HOST_CEILINGS))
    w("python3 perf/host/account_host.py %s %s   # the cells below the goal, each against its floors" % (
        "perf/" + CURRENT_HOST, "perf/" + CURRENT_HOST_CEILINGS))
    w("OMP_NUM_THREADS=%s build/perf/host/smallla-bench-host --large --out %s" % (
        large[0]["threads"], "perf/" + CURRENT_HOST_LARGE))
    w("python3 perf/host/account_host.py %s %s" % ("perf/" + CURRENT_HOST_LARGE, "perf/" + CURRENT_HOST_CEILINGS))
    w("```")
    w("")
    w("The Python table, on the GPU machine with the staged library (torch installed there):")
    w("")
    w("```sh")
    w("SMALLLA_LIBRARY=gpu-stage/lib/libsmallla.so python3 perf/python/bench_torch.py --runs 5 \\")
    w("    --n %s --out %s" % (compress(int(r["n"]) for r in torch_rows), "perf/" + os.path.splitext(CURRENT_TORCH)[0]))
    w("```")
    w("")
    w("Then point the list of inputs at the top of `perf/make_readme.py` at the new records, run")
    w("`python3 perf/make_readme.py`, add the records to `perf/results/README.md` and commit them with this file.")
    return "\n".join(out) + "\n"


def main(argv):
    if any(a not in ("--check",) for a in argv[1:]):
        sys.stderr.write(__doc__)
        return 2
    text = generate()
    if "--check" in argv[1:]:
        try:
            current = open(OUTPUT).read()
        except OSError:
            current = ""
        if current == text:
            print("perf/README.md is current")
            return 0
        diff = difflib.unified_diff(current.splitlines(True), text.splitlines(True), "perf/README.md (committed)",
                                    "perf/README.md (generated)")
        sys.stdout.writelines(list(diff)[:60])
        print("\nperf/README.md is stale: run python3 perf/make_readme.py and commit it")
        return 1
    with open(OUTPUT, "w") as f:
        f.write(text)
    print("wrote", OUTPUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
