#!/usr/bin/env bash
# The scaling record of the MPI example on a machine with two GPUs (issue 33): the CUDA build's
# smallla_mpi_batch on 1 rank (one GPU) and on 2 ranks (one GPU each), with the same share per rank (GIB of
# matrices per rank, at least 1: weak scaling, the 2-rank batch twice the 1-rank one), for each order of
# N_LIST; prints the aggregate throughputs and the scaling factor (2-rank matrices/s over 1-rank matrices/s;
# the aim is >= 1.9), and writes the logs, a CSV and a summary to OUT_DIR for perf/results/.
#
#   usage: examples/mpi/run_gpus.sh BUILD_DIR [OUT_DIR]
#
# BUILD_DIR is a build with the CUDA backend and MPI (BUILD_DIR/examples/mpi/smallla_mpi_batch; configure on a
# machine with nvcc and libopenmpi-dev); the GPU machine needs Open MPI's mpirun (openmpi-bin) too, or a copy of this
# machine's made by stage_openmpi.sh (source its env.sh there first).
# OUT_DIR defaults to mpi-gpus-out. Environment: N_LIST (default "8 16 32"), GIB (default 1), REPS (timed
# repetitions, best kept; default 5), CHECK_STRIDE (every K-th matrix checked on the host; default 4),
# SMALLLA_MPIRUN (the launcher; default mpirun), BACKEND (default cuda; BACKEND=host tries the script itself on
# the host backend, on any machine).
# Exit status: 0 when every run passed (the factor's aim is reported, not enforced), 1 otherwise, 77 when the
# build or the machine cannot run the CUDA backend on two GPUs.
set -euo pipefail
build=${1:?usage: run_gpus.sh BUILD_DIR [OUT_DIR]}
out=${2:-mpi-gpus-out}
here=$(cd "$(dirname "$0")" && pwd)
prog="$build/examples/mpi/smallla_mpi_batch"
n_list=${N_LIST:-"8 16 32"}
gib=${GIB:-1}
reps=${REPS:-5}
stride=${CHECK_STRIDE:-4}
backend=${BACKEND:-cuda}
mkdir -p "$out"

if [ ! -x "$prog" ]; then
  echo "run_gpus.sh: $prog not found (a build without MPI? configure where libopenmpi-dev is installed)" >&2
  exit 1
fi
if ! command -v "${SMALLLA_MPIRUN:-mpirun}" >/dev/null 2>&1; then
  echo "run_gpus.sh: no ${SMALLLA_MPIRUN:-mpirun} on this machine (Debian: openmpi-bin)" >&2
  exit 77
fi
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
if [ "$backend" = cuda ] && [ "${gpus:-0}" -lt 2 ]; then
  echo "run_gpus.sh: $gpus GPU(s) found; the scaling run needs 2" >&2
  exit 77
fi

{
  echo "# smallla MPI example: 1 and 2 ranks on the $backend backend, $gib GiB of matrices per rank (double)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(hostname)"
  echo "# commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  { nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true; } | sed 's/^/# GPU: /'
  "${SMALLLA_MPIRUN:-mpirun}" --version 2>&1 | head -1 | sed 's/^/# MPI: /'
} | tee "$out/summary.txt"

csv="$out/mpi-scaling.csv"
echo "n,ranks,batch,per_rank,seconds,matrices_per_s,gb_per_s,worst_getrf,worst_getri,worst_getrs,status" >"$csv"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
failed=0
printf '%-4s %16s %16s %12s %12s %8s  %s\n' n "1 rank [mat/s]" "2 ranks [mat/s]" "1 rank GB/s" "2 ranks GB/s" factor status |
  tee -a "$out/summary.txt"
for n in $n_list; do
  declare -A mps=() gbs=() st=()
  for np in 1 2; do
    log="$out/n$n-ranks$np.log"
    set +e
    bash "$here/mpirun.sh" "$np" "$prog" --backend "$backend" --n "$n" --gib-per-rank "$gib" --reps "$reps" \
      --check-stride "$stride" >"$log" 2>&1
    rc=$?
    set -e
    line=$(grep "^RESULT " "$log" || true)
    if [ "$rc" -eq 77 ]; then
      echo "run_gpus.sh: the CUDA backend is not available (see $log)" >&2
      exit 77
    fi
    if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
      echo "run_gpus.sh: n = $n on $np rank(s) failed (status $rc); see $log" >&2
      failed=1
      st[$np]=FAILED
      continue
    fi
    mps[$np]=$(field matrices_per_s "$line")
    gbs[$np]=$(field gb_per_s "$line")
    st[$np]=$(field status "$line")
    [ "${st[$np]}" = PASSED ] || failed=1
    echo "$n,$np,$(field batch "$line"),$(field per_rank "$line"),$(field seconds "$line"),${mps[$np]},${gbs[$np]},$(field worst_getrf "$line"),$(field worst_getri "$line"),$(field worst_getrs "$line"),${st[$np]}" >>"$csv"
  done
  factor=$(awk -v a="${mps[1]:-0}" -v b="${mps[2]:-0}" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }')
  printf '%-4s %16s %16s %12s %12s %8s  %s\n' "$n" "${mps[1]:--}" "${mps[2]:--}" "${gbs[1]:--}" "${gbs[2]:--}" \
    "$factor" "${st[1]:-?}/${st[2]:-?}" | tee -a "$out/summary.txt"
  unset mps gbs st
done
awk -F, 'NR > 1 && $2 == 1 {one[$1] = $6} NR > 1 && $2 == 2 {two[$1] = $6}
         END {found = 0
              for (n in one) if ((n in two) && one[n] > 0) {f = two[n] / one[n]; if (!found || f < worst) worst = f; found = 1}
              if (!found) print "scaling factor: not measured"
              else printf "scaling factor 1 -> 2 ranks: %.3f at the least over the orders (aim >= 1.9: %s)\n", worst, (worst >= 1.9 ? "met" : "missed")}' \
  "$csv" | tee -a "$out/summary.txt"
echo "logs, $csv and $out/summary.txt: copy them to perf/results/ with the date, the machine and the commit"
exit "$failed"
