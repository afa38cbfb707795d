#!/usr/bin/env python3
"""The best fraction of copy a Cholesky kernel can reach when smallla-bench counts the bytes of the triangle.

usage: sector_ceiling.py [ORDERS...]   (default 1-8, 10, 12, 14, 16, 24, 32)

smallla-bench counts for potrf (and potri, posv's A) the triangle read and written plus info, and for poinv the
triangle read and all of C written. DRAM moves 32-byte sectors: a kernel must read every sector that holds an
element of the triangle, and writing part of a sector costs the whole sector. For matrices packed back to back
(ld = n, stride n^2, what the benchmark passes), this prints counted bytes / moved bytes per precision and n: the
fraction of copy at which the kernel would move nothing but the sectors it must."""
import sys


def ceiling(n, elem, op):
    matrices = 32  # enough for the sector alignment to average out
    triangle = [(i, j) for j in range(n) for i in range(j, n)]
    sectors = set()
    for m in range(matrices):
        base = m * n * n * elem
        for i, j in triangle:
            sectors.add((base + (i + j * n) * elem) // 32)
    if op == "poinv":
        counted = matrices * (len(triangle) * elem + n * n * elem + 4)
        moved = len(sectors) * 32 + matrices * n * n * elem + matrices * 4
    else:
        counted = matrices * (2 * len(triangle) * elem + 4)
        moved = 2 * len(sectors) * 32 + matrices * 4
    return counted / moved


def main():
    orders = [int(a) for a in sys.argv[1:]] or list(range(1, 9)) + [10, 12, 14, 16, 24, 32]
    print("op     p  " + " ".join("%5d" % n for n in orders))
    for op in ("potrf", "poinv"):
        for p, elem in (("s", 4), ("d", 8), ("c", 8), ("z", 16)):
            print("%-6s %s  %s" % (op, p, " ".join("%5.2f" % ceiling(n, elem, op) for n in orders)))


if __name__ == "__main__":
    main()
