#!/usr/bin/env python3
"""smallla's Python package against torch.linalg on the same CUDA tensors: what a PyTorch user gains by
switching.

For each operation (inv: smallla.inv vs torch.linalg.inv_ex; lu_factor: smallla.lu_factor vs
torch.linalg.lu_factor_ex; solve with one right-hand side per matrix: smallla.solve vs torch.linalg.solve_ex;
cholesky of symmetric positive definite matrices, the lower factor with zeros above: smallla.cholesky vs
torch.linalg.cholesky_ex),
precision (s, d) and order n (default 2..64), a batch of random matrices of at least --gib GiB (default 1) is
made on the GPU as a PyTorch user has it (a contiguous, row-major tensor (batch, n, n)), and each library's
call is timed with CUDA events on torch's current stream: one warm-up call, then the median of --runs calls
(default 7). Both calls are asynchronous and unchecked (smallla: check=False, check_finite=False; torch's
*_ex functions: check_errors=False), so the time is the GPU's. Each result is checked on a few matrices
(LAPACK's ratio of the residual, < 30) so that nothing wrong is timed.

Writes PREFIX.csv (one line per case: op, precision, n, batch, GiB, the two medians in ms, the speed-up
torch / smallla, the two minima, each library's check ratio), PREFIX.png (the speed-up against n, one panel
per operation) and PREFIX.txt (the machine, torch's and the library's versions, the command line).

Exits 77 (skipped) when torch is missing, sees no CUDA device, or libsmallla has no usable CUDA backend.
  usage: python3 perf/python/bench_torch.py [--n 2-64] [--precisions s,d] [--ops inv,lu_factor,solve,cholesky]
                                            [--gib 1] [--runs 7] [--out bench_torch]
The library: SMALLLA_LIBRARY=path/to/libsmallla.so (a CUDA build), as for the package.
"""
import argparse
import math
import os
import pathlib
import platform
import statistics
import sys
import time

SKIP = 77
ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def parse_orders(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += list(range(int(lo), int(hi) + 1))
        elif part:
            out.append(int(part))
    return out


def skip(msg):
    print("bench_torch: SKIPPED: %s" % msg, file=sys.stderr)
    sys.exit(SKIP)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default="2-64", help="orders: a list and ranges, e.g. 2-16,24,32 (default 2-64)")
    ap.add_argument("--precisions", default="s,d", help="s, d (default both)")
    ap.add_argument("--ops", default="inv,lu_factor,solve,cholesky",
                    help="inv, lu_factor, solve, cholesky (default all)")
    ap.add_argument("--gib", type=float, default=1.0, help="GiB of matrices per case (default 1)")
    ap.add_argument("--runs", type=int, default=7, help="timed calls per library and case (default 7)")
    ap.add_argument("--out", default="bench_torch", help="prefix of the CSV, PNG and TXT written")
    ap.add_argument("--cpu", action="store_true",
                    help="check the script without a GPU: CPU tensors (smallla's host backend against torch's "
                         "CPU LAPACK), wall-clock times; not a benchmark")
    args = ap.parse_args()

    try:
        import torch
    except ImportError:
        skip("torch is not installed")
    if not args.cpu and not torch.cuda.is_available():
        skip("torch sees no CUDA device")
    try:
        import smallla
    except ImportError:
        sys.path.insert(0, str(ROOT / "bindings" / "python"))
        import smallla
    from smallla import _core
    try:
        if args.cpu:
            smallla.library_path()
        else:
            _core.get_handle("cuda", torch.cuda.current_device())
    except (smallla.SmallLAError, ImportError) as e:
        skip("libsmallla's CUDA backend is not usable: %s" % e)

    orders = parse_orders(args.n)
    precisions = [p.strip() for p in args.precisions.split(",") if p.strip()]
    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    dtypes = {"s": torch.float32, "d": torch.float64}
    device = torch.device("cpu") if args.cpu else torch.device("cuda", torch.cuda.current_device())
    device_name = "CPU (--cpu: a check of the script, not a benchmark)" if args.cpu else \
        torch.cuda.get_device_name(device)
    eps = {"s": 2.0 ** -24, "d": 2.0 ** -53}

    def timed(fn):
        """Median and minimum of args.runs calls, in ms, after one warm-up call; the last call's result."""
        out = fn()
        times = []
        if args.cpu:
            for _ in range(args.runs):
                t0 = time.perf_counter()
                out = fn()
                times.append((time.perf_counter() - t0) * 1e3)
            return statistics.median(times), min(times), out
        torch.cuda.synchronize()
        for _ in range(args.runs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            out = fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times), min(times), out

    def measure(call, op, a, b, prec, fix=None):
        """(median ms, min ms, check ratio), NaN for a call that failed (e.g. a batch too large for it)."""
        try:
            t, t_min, res = timed(call)
        except (RuntimeError, smallla.SmallLAError) as e:
            print("bench_torch: %s" % e, file=sys.stderr)
            return math.nan, math.nan, math.nan
        if fix:
            res = fix(res)
        return t, t_min, ratio(op, a, res, b, prec)

    def norm1(x):
        return x.abs().sum(dim=-2).amax(dim=-1)

    def ratio(op, a, res, b, prec):
        """LAPACK's ratio on the first 64 matrices (in double): inverse xGET03, LU xGET01, solve xGET02,
        Cholesky xPOT01."""
        k = min(64, a.shape[0])
        a = a[:k].double()
        n = a.shape[-1]
        if op == "inv":
            c = res[:k].double()
            r = norm1(torch.eye(n, dtype=a.dtype, device=a.device) - c @ a) / norm1(a) / norm1(c) / n
        elif op == "cholesky":
            low = res[:k].double()
            r = norm1(low @ low.transpose(-1, -2) - a) / norm1(a) / n
        elif op == "lu_factor":
            lu, piv = res[0][:k].double(), res[1][:k]
            lower = torch.tril(lu, -1) + torch.eye(n, dtype=a.dtype, device=a.device)
            pa = a.clone()
            for i in range(n):  # row i interchanged with row piv[:, i] (0-based)
                rows = piv[:, i].long()
                ri = pa[torch.arange(k), i].clone()
                pa[torch.arange(k), i] = pa[torch.arange(k), rows]
                pa[torch.arange(k), rows] = ri
            r = norm1(pa - lower @ torch.triu(lu)) / norm1(a) / n
        else:
            x, bb = res[:k].double().unsqueeze(-1), b[:k].double().unsqueeze(-1)
            r = (bb - a @ x).abs().sum(dim=-2)[..., 0] / norm1(a) / x.abs().sum(dim=-2)[..., 0]
        return float(r.max()) / eps[prec]

    def smallla_call(op, a, b):
        if op == "inv":
            return lambda: smallla.inv(a, check=False, check_finite=False)
        if op == "lu_factor":
            return lambda: smallla.lu_factor(a, check_finite=False)[:2]
        if op == "cholesky":
            return lambda: smallla.cholesky(a, lower=True, check=False, check_finite=False)
        return lambda: smallla.solve(a, b, check=False, check_finite=False)

    def torch_call(op, a, b):
        if op == "inv":
            return lambda: torch.linalg.inv_ex(a)[0]
        if op == "lu_factor":
            # torch's pivots are 1-based: the check below takes them 0-based, outside the timed call
            return lambda: torch.linalg.lu_factor_ex(a)[:2]
        if op == "cholesky":
            return lambda: torch.linalg.cholesky_ex(a)[0]
        return lambda: torch.linalg.solve_ex(a, b)[0]

    out = pathlib.Path(args.out)
    rows = []
    header = ("op,precision,n,batch,gib,smallla_ms,torch_ms,speedup,smallla_min_ms,torch_min_ms,"
              "smallla_ratio,torch_ratio")
    print(header)
    gen = torch.Generator(device=device)
    gen.manual_seed(20261122)
    started = time.time()
    for prec in precisions:
        dtype = dtypes[prec]
        size = torch.tensor([], dtype=dtype).element_size()
        for n in orders:
            batch = math.ceil(args.gib * 2 ** 30 / (n * n * size))
            a = torch.randn((batch, n, n), dtype=dtype, device=device, generator=gen)
            b = torch.randn((batch, n), dtype=dtype, device=device, generator=gen)
            for op in ops:
                m = a
                if op == "cholesky":  # symmetric positive definite: X X^T / n + I, in place of a
                    m = torch.baddbmm(torch.eye(n, dtype=dtype, device=device).expand(batch, n, n), a,
                                      a.transpose(-1, -2), alpha=1.0 / n)
                ts, ts_min, r_s = measure(smallla_call(op, m, b), op, m, b, prec)
                tt, tt_min, r_t = measure(torch_call(op, m, b), op, m, b, prec,
                                          (lambda r: (r[0], r[1] - 1)) if op == "lu_factor" else None)
                del m
                row = (op, prec, n, batch, batch * n * n * size / 2 ** 30, ts, tt, tt / ts, ts_min, tt_min,
                       r_s, r_t)
                rows.append(row)
                print("%s,%s,%d,%d,%.3f,%.4f,%.4f,%.3f,%.4f,%.4f,%.3g,%.3g" % row, flush=True)
                if not r_s < 30:
                    print("bench_torch: smallla's %s %s n=%d fails its check (ratio %.3g)" % (op, prec, n, r_s),
                          file=sys.stderr)
            del a, b
            if not args.cpu:
                torch.cuda.empty_cache()

    paths = {ext: pathlib.Path(str(out) + ext) for ext in (".csv", ".txt", ".png")}
    with open(paths[".csv"], "w") as f:
        f.write(header + "\n")
        for row in rows:
            f.write("%s,%s,%d,%d,%.3f,%.4f,%.4f,%.3f,%.4f,%.4f,%.3g,%.3g\n" % row)
    with open(paths[".txt"], "w") as f:
        f.write("command: %s\n" % " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]))
        f.write("device: %s\n" % device_name)
        f.write("torch: %s (CUDA %s)\n" % (torch.__version__, torch.version.cuda))
        f.write("smallla: %s, library %s (%s)\n" % (smallla.__version__, ".".join(map(str, smallla.library_version())),
                                                     os.path.basename(smallla.library_path())))
        f.write("python: %s on %s\n" % (platform.python_version(), platform.node() or "?"))
        f.write("cases: %d in %.0f s; median of %d runs after a warm-up, %s\n"
                % (len(rows), time.time() - started, args.runs, "wall clock" if args.cpu else "CUDA events"))
    plot(rows, ops, precisions, paths[".png"], device_name, args.gib)
    print("bench_torch: wrote %s" % ", ".join(str(p) for p in paths.values()))
    bad = [r for r in rows if not r[10] < 30]
    return 1 if bad else 0


def plot(rows, ops, precisions, path, device_name, gib):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_torch: no matplotlib, no PNG", file=sys.stderr)
        return
    torch_name = {"inv": "inv_ex", "lu_factor": "lu_factor_ex", "solve": "solve_ex", "cholesky": "cholesky_ex"}
    fig, axes = plt.subplots(1, len(ops), figsize=(5 * len(ops), 4), squeeze=False)
    for ax, op in zip(axes[0], ops):
        for prec in precisions:
            pts = [(r[2], r[7]) for r in rows if r[0] == op and r[1] == prec]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label={"s": "float32",
                                                                                     "d": "float64"}[prec])
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_title("smallla.%s vs torch.linalg.%s" % (op, torch_name[op]), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    axes[0][0].set_ylabel("speed-up (torch time / smallla time)")
    fig.suptitle("%s, >= %g GiB of matrices per case" % (device_name, gib), fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    sys.exit(main())
