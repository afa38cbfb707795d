#!/usr/bin/env python3
"""The CUDA routing tables (kernels/cuda/routing/*.def): rebuild one from a sweep, and write the manual's routing
section from them.

  tune_routing.py doc [--check]
      Writes the generated routing block of docs/mainpage.md (between the markers
      "routing-table: generated" and "routing-table: end") from sm90.def and generic.def; --check exits 1 when
      either differs from what it would write (the CTest test routing_doc_current).

  tune_routing.py table --existence INFO --sweeps DIR --table sm90 [--keep 0.98] [--out FILE]
      A new table from a sweep of a measurement build (cmake -DSMALLLA_TUNING=ON; perf/cuda/tune_routing.sh runs it
      on the GPU): DIR holds one smallla-bench CSV per kernel family, FAMILY.csv, measured with SMALLLA_ROUTE forcing
      that family wherever it exists; INFO is smallla-route-info's output (which family exists where). For every
      routine, precision and order the fastest family wins, unless it is within --keep of the current table's
      choice (the current one stays: a change must pay more than the noise). The lines that depend on the batch
      (the vendor route), the catch-all lines and the register caps are kept as they are. Writes the .def to --out
      (default: stdout).
"""
import argparse
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROUTING = os.path.join(ROOT, "kernels", "cuda", "routing")
ROUTINES = ["getrf", "getrf_nopiv", "getrs", "getri", "matinv"]
# The manual's table also shows the Cholesky family (its routes are not tuned from sweeps yet).
DOC_ROUTINES = ROUTINES + ["potrf", "posv", "potrs", "potri", "poinv"]
PRECISIONS = "sdcz"
# The bench's ops (smallla-bench --ops) and the routine each measures: "getrs" is getrf + getrs, the route of getrs
# being what differs between two runs that force it.
OP_ROUTINE = {"getrf": "getrf", "getrf_nopiv": "getrf_nopiv", "getrs": "getrs", "getri": "getri", "matinv": "matinv"}
FAMILY_WORDS = {"thread": "thread per matrix", "lane": "row per lane", "lane_rolled": "row per lane (rolled)",
                "two_rows": "two rows per lane", "prefetch": "row per lane (persistent)", "two_warps": "two warps",
                "columns": "by columns", "blocked": "blocked", "large": "large-order blocked",
                "one_block": "one block", "vendor": "cuSOLVER", "vendor_batched": "cuSOLVER batched",
                "panels": "left-looking panels", "wide": "blocked, wide panels",
                "block_registers": "one block, in registers"}
ROUTE = re.compile(r"^SMALLLA_ROUTE\((\w+),\s*(\w+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\w+)\)")
BIG = 2147483647
DOC_ORDERS = 512  # orders shown one by one; beyond, the table's large-order lines


def read_def(name):
    """The .def file's lines and its route entries (routine, precisions, n_from, n_to, batch_to, family)."""
    path = os.path.join(ROUTING, name + ".def")
    lines = open(path).read().splitlines()
    routes = []
    for line in lines:
        m = ROUTE.match(line)
        if m:
            r, p, n0, n1, b, f = m.groups()
            routes.append((r, p, int(n0), int(n1), int(b), f))
    return lines, routes


def find_route(routes, r, p, n, batch):
    """The dispatch's rule (kernels/cuda/routing/routes.hpp, find_route): the first matching entry; posv beyond the
    lane kernels' orders factors as potrf is routed (lib/cuda/dispatch.cuh, chol_routed)."""
    if r == "posv" and n > 32:
        r = "potrf"
    for (er, ep, n0, n1, b, f) in routes:
        if er == r and n0 <= n <= n1 and (b == 0 or batch <= b) and p in ep:
            return f
    return "one_block"


def ranges(values):
    """[(n_from, n_to, value)] of consecutive equal values of values[1..]."""
    out = []
    for n in range(1, len(values)):
        if out and out[-1][2] == values[n] and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n, values[n])
        else:
            out.append((n, n, values[n]))
    return out


def span(a, b):
    if b >= BIG:
        return "%d+" % a
    return str(a) if a == b else "%d-%d" % (a, b)


def doc_block(table):
    """Markdown: per routine and precision, which family serves which orders (large batches), then the batch limits."""
    _, routes = read_def(table)
    out = ["| routine | precision | orders: kernel family (for a large batch) |", "|---|---|---|"]
    limits = []
    for r in DOC_ROUTINES:
        for p in PRECISIONS:
            fam = [None] + [find_route(routes, r, p, n, 10 ** 9) for n in range(1, DOC_ORDERS + 1)]
            below = ranges(fam)
            # Beyond DOC_ORDERS: one cell per stretch between the table's bounds there.
            starts = sorted({DOC_ORDERS + 1} | {n0 for (_, _, n0, _, _, _) in routes if n0 > DOC_ORDERS + 1} |
                            {n1 + 1 for (_, _, _, n1, _, _) in routes if DOC_ORDERS < n1 < BIG})
            beyond = []
            for i, a in enumerate(starts):
                b = starts[i + 1] - 1 if i + 1 < len(starts) else BIG
                f = find_route(routes, r, p, a, 10 ** 9)
                if beyond and beyond[-1][2] == f:
                    beyond[-1] = (beyond[-1][0], b, f)
                else:
                    beyond.append((a, b, f))
            if below and beyond and below[-1][2] == beyond[0][2]:  # one stretch across DOC_ORDERS
                below[-1] = (below[-1][0], beyond[0][1], beyond[0][2])
                beyond = beyond[1:]
            cells = ["%s %s" % (span(a, b), FAMILY_WORDS[f]) for (a, b, f) in below + beyond]
            out.append("| %s | %s | %s |" % (r, p, ", ".join(cells)))
    # One line per routine and precisions: each stretch of orders with its routes by batch, smallest batch first.
    groups = {}
    for (er, ep, n0, n1, b, f) in routes:
        if b:
            stretches = groups.setdefault((er, ep), [])
            if stretches and stretches[-1][0] == (n0, n1):
                stretches[-1][1].append("%s to %d" % (FAMILY_WORDS[f], b))
            else:
                stretches.append(((n0, n1), ["%s to %d" % (FAMILY_WORDS[f], b)]))
    for (er, ep), stretches in groups.items():
        limits.append("- %s (%s): %s" % (er, ep, "; ".join("n = %s: %s" % (span(*nn), ", ".join(fs))
                                                             for nn, fs in stretches)))
    if limits:
        out += ["", "Smaller batches take another route (the batch at most the number given):"] + limits
    return "\n".join(out)


def generated(table_names):
    parts = []
    for t in table_names:
        lines, _ = read_def(t)
        title = "\n".join(l[3:] for l in lines if l.startswith("// ") and "SMALLLA_" not in l)
        head = title.split("\n")[0]
        parts.append("**%s** (kernels/cuda/routing/%s.def): %s\n\n%s" % (t, t, head.rstrip("."), doc_block(t)))
    return "\n\n".join(parts)


def replace_block(text, block):
    begin = "<!-- routing-table: generated by perf/cuda/tune_routing.py from kernels/cuda/routing; do not edit -->"
    end = "<!-- routing-table: end -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < 0:
        sys.exit("tune_routing.py: the routing-table markers are missing")
    return text[: i + len(begin)] + "\n" + block + "\n" + text[j:]


def cmd_doc(args):
    stale = []
    for rel, tables in (("docs/mainpage.md", ["sm90", "generic"]),):
        block = generated(tables)
        path = os.path.join(ROOT, rel)
        old = open(path).read()
        new = replace_block(old, block)
        if new != old:
            stale.append(rel)
            if not args.check:
                open(path, "w").write(new)
    if args.check and stale:
        print("tune_routing.py: stale routing section in %s (run python3 perf/cuda/tune_routing.py doc)" % ", ".join(stale))
        return 1
    print("routing section: %s" % ("current" if not stale else "written to " + ", ".join(stale)))
    return 0


def cmd_table(args):
    exists = {}
    for line in open(args.existence):
        f = line.split()
        if len(f) >= 4:
            exists[(f[0], f[1], int(f[2]))] = set(f[3].split("=", 1)[1].split(","))
    times = {}  # (routine, prec, n) -> {family: ms}
    for name in os.listdir(args.sweeps):
        if not name.endswith(".csv"):
            continue
        fam = name[:-4]
        for row in csv.DictReader(open(os.path.join(args.sweeps, name))):
            r = OP_ROUTINE.get(row["op"])
            key = (r, row["prec"], int(row["n"]))
            if r and fam in exists.get(key, ()):
                times.setdefault(key, {})[fam] = float(row["ms"])
    lines, routes = read_def(args.table)
    # Every order up to DOC_ORDERS gets a route: the sweep's decision where it measured, the current one elsewhere.
    decided = {}
    for r in ROUTINES:
        for p in PRECISIONS:
            for n in range(1, DOC_ORDERS + 1):
                current = find_route(routes, r, p, n, 10 ** 9)
                t = times.get((r, p, n))
                if not t:
                    decided[(r, p, n)] = current
                    continue
                best = min(t, key=t.get)
                keep = current in t and t[best] >= args.keep * t[current]
                decided[(r, p, n)] = current if keep else best
    out = [l for l in lines if not ROUTE.match(l) and not l.startswith("SMALLLA_CAP") and not l.startswith("// ----")]
    while out and out[-1] == "":
        out.pop()
    out += ["", "// ---- small batches (kept as they were; the grid mode measures them) ----"]
    out += ["SMALLLA_ROUTE(%s, %s, %d, %d, %d, %s)" % e for e in routes if e[4] and e[0] in ROUTINES]
    for r in ROUTINES:
        out += ["", "// ---- %s ----" % r]
        for p in PRECISIONS:
            fam = [None] + [decided[(r, p, n)] for n in range(1, DOC_ORDERS + 1)]
            out += ["SMALLLA_ROUTE(%s, %s, %d, %d, 0, %s)" % (r, p, a, b, f) for (a, b, f) in ranges(fam)]
    out += ["", "// ---- routines the sweep does not tune (the Cholesky family; kept as they were) ----"]
    out += ["SMALLLA_ROUTE(%s, %s, %d, %d, %d, %s)" % e for e in routes if e[0] not in ROUTINES]
    out += ["", "// ---- beyond %d (kept as they were) ----" % DOC_ORDERS]
    out += ["SMALLLA_ROUTE(%s, %s, %d, %d, %d, %s)" % e for e in routes
            if not e[4] and e[3] > DOC_ORDERS and e[0] in ROUTINES]
    out.append("")
    out += [l for l in lines if l.startswith("SMALLLA_CAP") or l.startswith("// ---- register caps")]
    text = "\n".join(out) + "\n"
    if args.out:
        open(args.out, "w").write(text)
    else:
        sys.stdout.write(text)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("doc")
    d.add_argument("--check", action="store_true")
    t = sub.add_parser("table")
    t.add_argument("--existence", required=True)
    t.add_argument("--sweeps", required=True)
    t.add_argument("--table", default="sm90")
    t.add_argument("--keep", type=float, default=0.98)
    t.add_argument("--out")
    args = ap.parse_args()
    return cmd_doc(args) if args.cmd == "doc" else cmd_table(args)


if __name__ == "__main__":
    sys.exit(main())
