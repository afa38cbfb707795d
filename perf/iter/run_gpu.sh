#!/usr/bin/env bash
# getrf_iter on a GPU machine, in one go: the CMocka suite on the CUDA backend (and on the host backend, the
# reference), compute-sanitizer memcheck and racecheck on a small study, then the study itself.
#   usage: perf/iter/run_gpu.sh STAGE_DIR [OUT_DIR]
# STAGE_DIR holds bin/ (test_getrf_iter, smallla-study-iter) and lib/ (libsmallla.so* and the shared libraries
# the binaries need that the GPU machine may lack: cmocka, LAPACK/BLAS, gfortran, gomp), as tests/gpu/stage.sh
# lays out. OUT_DIR (default iter-gpu-out) receives the logs, study_iter.csv and a summary (7 files).
set -uo pipefail
stage=$(cd "${1:?usage: run_gpu.sh STAGE_DIR [OUT_DIR]}" && pwd)
out=${2:-iter-gpu-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH="$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPENBLAS_NUM_THREADS=1 CMOCKA_MESSAGE_OUTPUT=STDOUT
summary="$out/iter_gpu_summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
failed=0
run_one() {  # name log command...
    local name=$1 log=$2
    shift 2
    local t0=$SECONDS
    timeout "${SMALLLA_TEST_TIMEOUT:-300}" "$@" >"$log" 2>&1
    local rc=$?
    if [ $rc -eq 0 ]; then
        note "PASS    $name ($((SECONDS - t0)) s)"
    elif [ $rc -eq 77 ]; then
        note "SKIPPED $name"
    else
        failed=$((failed + 1))
        note "FAIL    $name (exit $rc)"
        tail -n 25 "$log" | sed 's/^/        /' | tee -a "$summary"
    fi
}

note "getrf_iter GPU run: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
note "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
run_one "test_getrf_iter cuda" "$out/test_getrf_iter.cuda.log" "$stage/bin/test_getrf_iter" cuda
run_one "test_getrf_iter host" "$out/test_getrf_iter.host.log" "$stage/bin/test_getrf_iter" host
scratch=$(mktemp -d)
if command -v compute-sanitizer >/dev/null 2>&1; then
    run_one "memcheck study --quick" "$out/iter_memcheck.log" compute-sanitizer --tool memcheck --error-exitcode 99 \
        "$stage/bin/smallla-study-iter" "$scratch/quick_memcheck.csv" --quick
    run_one "racecheck study --quick" "$out/iter_racecheck.log" compute-sanitizer --tool racecheck \
        --racecheck-report all --error-exitcode 99 "$stage/bin/smallla-study-iter" "$scratch/quick_racecheck.csv" --quick
else
    note "compute-sanitizer not found: sanitizers NOT run"
fi
run_one "smallla-study-iter" "$out/study_iter.log" "$stage/bin/smallla-study-iter" "$out/study_iter.csv"
note "failed: $failed"
[ $failed -eq 0 ]
