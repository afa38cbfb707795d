#!/usr/bin/env bash
# Nsight Compute profile of chosen CUDA-backend kernels on a GPU machine, from a staged build
# (tests/gpu/stage.sh): one ncu pass per "op prec n" case, the first launch of our kernel only, clocks as found.
# Prints per case: duration, DRAM and SM throughput, occupancy, registers, issue slots, the stall reasons
# (cycles per issued instruction) and the busiest pipes, and keeps the full reports in OUT_DIR.
#   usage: profile_kernels.sh STAGE_DIR OUT_DIR "getrf s 20" "matinv d 20" ...
set -uo pipefail
stage=$(cd "${1:?usage: profile_kernels.sh STAGE_DIR OUT_DIR CASE...}" && pwd)
out=${2:?OUT_DIR}
shift 2
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
metrics="gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed"
metrics+=",sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers"
metrics+=",smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
metrics+=",regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
metrics+=",regex:sm__inst_executed_pipe_.*\\.avg\\.pct_of_peak_sustained_active"
for c in "$@"; do
    env_set=()
    set -- $c
    while [[ "$1" == *=* ]]; do env_set+=("$1"); shift; done
    op=$1 prec=$2 n=$3
    name="$op-$prec-$n${env_set:+-${env_set[0]##*=}}"
    kernel='regex:(small_registers|pair_registers|thread_per_matrix|_general|blocked|chol_thread|chol_lanes)'
    env "${env_set[@]}" ncu --clock-control none -k "$kernel" -c 1 --metrics "$metrics" --csv --page raw \
        "$stage/bin/smallla-bench" --ops "$op" --precs "$prec" --n "$n" --gib 0.25 --reps 1 --no-vendor \
        --csv /dev/null >"$out/ncu-$name.csv" 2>"$out/ncu-$name.err"
    python3 - "$out/ncu-$name.csv" "$name" <<'PY' | tee -a "$out/profile_summary.txt"
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
at = [k for k, l in enumerate(lines) if l.startswith('"ID"')]
if not at: print(sys.argv[2], 'no data'); sys.exit()
rows = list(csv.reader(lines[at[0]:]))
m = {}
for h, v in zip(rows[0], rows[2]):  # rows[1] holds the units
    m[h.rsplit('.', 3)[-3] + '.' + '.'.join(h.rsplit('.', 3)[-2:]) if h.startswith(('SM_', 'TPC.')) else h] = v
def g(k):
    for kk, v in m.items():
        if kk.endswith(k):
            try: return float(v.replace(',', ''))
            except ValueError: return float('nan')
    return float('nan')
print(f"{sys.argv[2]:16s} {m.get('Kernel Name', '?')[:70]} block {m.get('Block Size')} grid {m.get('Grid Size')}")
print(f"   time {g('gpu__time_duration.sum')/1e3:.1f} us  dram {g('dram__throughput.avg.pct_of_peak_sustained_elapsed'):.0f}%  "
      f"sm {g('sm__throughput.avg.pct_of_peak_sustained_elapsed'):.0f}%  warps active {g('sm__warps_active.avg.pct_of_peak_sustained_active'):.0f}%  "
      f"regs {g('launch__registers_per_thread'):.0f}  issue {g('smsp__issue_active.avg.pct_of_peak_sustained_active'):.0f}%  "
      f"warp inst {g('smsp__inst_executed.sum')/1e6:.1f}M")
st = sorted(((float(v.replace(',', '')), k.split('stalled_')[1].replace('_per_issue_active.ratio', ''))
             for k, v in m.items() if 'issue_stalled_' in k and v not in ('', 'n/a')), reverse=True)
print('   stalls/issue: ' + ', '.join(f"{k} {v:.2f}" for v, k in st[:8]))
pp = sorted(((float(v.replace(',', '')), k.split('pipe_')[1].split('.')[0])
             for k, v in m.items() if 'inst_executed_pipe_' in k and 'pct' in k and v not in ('', 'n/a')), reverse=True)
print('   pipes %: ' + ', '.join(f"{k} {v:.0f}" for v, k in pp[:7]))
PY
done
