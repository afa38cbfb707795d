#!/usr/bin/env bash
# Where the issue slots go: Nsight Compute counts, for every op x precision x order asked, what the CUDA backend's
# kernels issue per matrix (warp instructions), how busy the issue slots and how full the warps were, the SM clock
# and the DRAM bytes, so that issue_account.py can set them against the slots a copy of the same bytes leaves.
# One ncu process per op and precision, every launch of the small-order kernels profiled (the bench runs each
# case twice with --reps 1: a warm-up and the timed run; both are counted and averaged), clocks as found.
#   usage: issue_account.sh STAGE_DIR OUT_DIR [OPS [PRECS [ORDERS [GIB]]]]
#   defaults: OPS "getrf getrs matinv" (also potrf posv potri poinv: the Cholesky kernels), PRECS "s d c z",
#   ORDERS 1-32, GIB 0.25 (at 1/16 GiB part of the batch stays in the H100's 50 MB L2, so the DRAM bytes read low;
#   the instruction counts do not depend on the size)
# Then: issue_account.py OUT_DIR SWEEP.csv (the sweep that gives the fractions of copy) > table.
set -uo pipefail
stage=$(cd "${1:?usage: issue_account.sh STAGE_DIR OUT_DIR [OPS [PRECS [ORDERS [GIB]]]]}" && pwd)
out=${2:?OUT_DIR}
ops=${3:-getrf getrs matinv}
precs=${4:-s d c z}
orders=${5:-1-32}
gib=${6:-0.25}
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Counters only (one pass each, no replay of memory): instructions, issue-active and warps-active fractions, cycles and
# the SM clock, DRAM bytes, registers.
metrics="gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active"
metrics+=",sm__warps_active.avg.pct_of_peak_sustained_active,smsp__cycles_elapsed.avg.per_second"
metrics+=",dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,launch__grid_size,launch__block_size"
for op in $ops; do
    # The small-order kernels of the op's family.
    case $op in
        potrf|posv|potri|poinv) kernel='regex:chol_(lanes|thread)_kernel' ;;
        *) kernel='regex:(registers|per_matrix|two_warps)' ;;
    esac
    for p in $precs; do
        ncu --clock-control none -k "$kernel" --metrics "$metrics" --csv --page raw --log-file "$out/ncu-$op-$p.csv" \
            "$stage/bin/smallla-bench" --ops "$op" --precs "$p" --n "$orders" --gib "$gib" --reps 1 --no-vendor \
            --csv "$out/bench-$op-$p.csv" >"$out/bench-$op-$p.log" 2>"$out/ncu-$op-$p.err" ||
            echo "issue_account: ncu failed for $op $p (see $out/ncu-$op-$p.err)" >&2
    done
done
