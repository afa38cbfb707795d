#!/usr/bin/env python3
"""Counts SASS instructions per kernel from `cuobjdump -sass` output (on a machine with the CUDA tools).

usage: cuobjdump -sass BINARY | sass_counts.py [NAME_FILTER]
Per kernel: the total, and the opcodes that tell where issue slots go (branches and convergence barriers,
selects, FMAs, shared-memory and global accesses, local memory, warp-level reductions and shuffles)."""
import re
import sys
from collections import Counter

want = sys.argv[1] if len(sys.argv) > 1 else ""
kernel, counts = None, {}
for line in sys.stdin:
    m = re.match(r"\s+Function : (\S+)", line)
    if m:
        kernel = m.group(1)
        counts[kernel] = Counter()
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m and kernel:
        counts[kernel][m.group(2).split(".")[0]] += 1
groups = ["BRA", "BSSY", "BSYNC", "WARPSYNC", "FSEL", "SEL", "FFMA", "DFMA", "FMUL", "DMUL", "LDS", "STS", "LDG",
          "STG", "LDL", "STL", "REDUX", "SHFL", "MUFU"]
print(f"{'kernel':60s} {'total':>6s} " + " ".join(f"{g:>6s}" for g in groups))
for k, c in counts.items():
    if want in k:
        print(f"{k[:60]:60s} {sum(c.values()):6d} " + " ".join(f"{c[g]:6d}" for g in groups))
