#!/usr/bin/env python3
"""Compares two smallla-bench CSVs of the same sweep (e.g. a knob off and on, two builds) row by row.

usage: compare_csv.py BASE.csv NEW.csv [LABEL_BASE LABEL_NEW]
Prints op, prec, n, both fractions of the copy bandwidth and the speed-up NEW over BASE (base ms / new ms),
then the range of speed-ups per op and precision."""
import csv
import sys
from collections import defaultdict


def load(path):
    return {(r["op"], r["prec"], int(r["n"])): r for r in csv.DictReader(open(path))}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base, new = load(sys.argv[1]), load(sys.argv[2])
    lb, ln = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ("base", "new")
    print(f"{'op':12s} {'p':2s} {'n':>4s} {lb:>10s} {ln:>10s} {'speed-up':>9s}")
    ranges = defaultdict(list)
    for key in sorted(set(base) & set(new), key=lambda k: (k[0], k[1], k[2])):
        b, n = base[key], new[key]
        sp = float(b["ms"]) / float(n["ms"])
        ranges[key[:2]].append((sp, key[2]))
        print(f"{key[0]:12s} {key[1]:2s} {key[2]:4d} {float(b['frac_copy']):10.3f} {float(n['frac_copy']):10.3f} {sp:9.2f}")
    print()
    for (op, p), v in sorted(ranges.items()):
        lo, hi = min(v), max(v)
        print(f"{op:12s} {p}: speed-up {lo[0]:.2f} (n={lo[1]}) .. {hi[0]:.2f} (n={hi[1]})")


if __name__ == "__main__":
    main()
