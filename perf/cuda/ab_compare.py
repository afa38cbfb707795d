#!/usr/bin/env python3
"""Compares two libraries measured in one call in ABBA order (base, new, new, base) with smallla-bench.

usage: ab_compare.py BASE1.csv BASE2.csv NEW1.csv NEW2.csv
For every op and precision prints, per n, the speed-up NEW over BASE (the best time of each library's two
runs), then each library's best fraction of the copy bandwidth; last, how far each library's two runs differ
(the noise against which the speed-ups are read)."""
import csv
import sys
from collections import defaultdict


def load(path):
    return {(r["op"], r["prec"], int(r["n"])): r for r in csv.DictReader(open(path))}


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    b1, b2, n1, n2 = (load(p) for p in sys.argv[1:5])
    rows = defaultdict(list)
    for k in sorted(b1, key=lambda k: (k[0], "sdcz".index(k[1]), k[2])):
        if k not in n1 or k not in b2 or k not in n2:
            continue
        base = min(float(b1[k]["ms"]), float(b2[k]["ms"]))
        new = min(float(n1[k]["ms"]), float(n2[k]["ms"]))
        f_new = max(float(n1[k]["frac_copy"]), float(n2[k]["frac_copy"]))
        f_base = max(float(b1[k]["frac_copy"]), float(b2[k]["frac_copy"]))
        rows[k[:2]].append((k[2], base / new, f_new, f_base))
    for (op, prec), v in rows.items():
        print("%-11s %s n    %s" % (op, prec, " ".join("%5d" % n for n, _, _, _ in v)))
        print("%-13s x    %s" % ("", " ".join("%5.2f" % s for _, s, _, _ in v)))
        print("%-13s new  %s" % ("", " ".join("%5.2f" % f for _, _, f, _ in v)))
        print("%-13s base %s" % ("", " ".join("%5.2f" % f for _, _, _, f in v)))
    spreads = []
    for name, (x, y) in (("base", (b1, b2)), ("new", (n1, n2))):
        r = [float(x[k]["ms"]) / float(y[k]["ms"]) for k in x if k in y]
        spreads += [abs(v - 1) for v in r]
        print("%s run 1 / run 2 time: %.3f-%.3f" % (name, min(r), max(r)))
    # The noise: the 95th percentile of how far a library's two runs of one case differ. A case is slower when the
    # new library's best run is slower than the base's by more than that.
    spreads.sort()
    noise = spreads[int(0.95 * (len(spreads) - 1))] if spreads else 0.0
    slower = [(op, p, n, x) for (op, p), v in rows.items() for (n, x, _, _) in v if x < 1 - noise]
    print("noise (95th percentile of the run-to-run spread): %.3f" % noise)
    print("slower than the noise: %d of %d cases%s" % (len(slower), sum(len(v) for v in rows.values()),
          "".join("\n  %s %s n=%d: %.3fx" % c for c in slower)))


if __name__ == "__main__":
    main()
