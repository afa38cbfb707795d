#!/usr/bin/env bash
# The GPU test suite: runs every test program of a staged build (tests/gpu/stage.sh) on a machine with an
# NVIDIA GPU, the CUDA backend's correctness sweep against the host backend (smallla-check-cuda), and
# compute-sanitizer memcheck and racecheck on a small sweep, and the sweep's large cases
# (smallla-check-cuda --large). Writes logs and a summary to OUT_DIR.
#   usage: run_gpu_suite.sh STAGE_DIR [OUT_DIR [PART]]
# PART: all (the default), tests (the programs and the sweeps), sanitizers (memcheck and racecheck only) or
# large (smallla-check-cuda --large only): the parts for a machine whose commands have a time limit shorter
# than the whole suite (tests and sanitizers took 4-6 minutes each on an H100 before the suites'
# *_large_orders lengthened the tests part; large is new, estimated at about a minute on a 16-core host: neither
# yet timed); a run is complete only with every part passing.
# Exit status 0 only when every program passed and the sanitizers found nothing. This is the GPU suite: a
# program that reports SKIPPED (status 77: no usable device, or a library built without CUDA) counts as
# failed, and so does a run in which nothing passed.
set -uo pipefail
stage=$(cd "${1:?usage: run_gpu_suite.sh STAGE_DIR [OUT_DIR [all|tests|sanitizers|large]]}" && pwd)
out=${2:-gpu-suite-out}
part=${3:-all}
case "$part" in
    all | tests | sanitizers | large) ;;
    *) echo "run_gpu_suite.sh: PART must be all, tests, sanitizers or large, not '$part'" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH="$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$out/gpu_suite_summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

note "GPU suite ($part): $(date -u +%Y-%m-%dT%H:%M:%SZ)"
note "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
passed=0 failed=0 skipped=0
run_one() {  # name log command...
    local name=$1 log=$2
    shift 2
    local t0=$SECONDS
    timeout "${SMALLLA_TEST_TIMEOUT:-900}" "$@" >"$log" 2>&1
    local rc=$?
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1)); note "PASS    $name ($((SECONDS - t0)) s)"
    elif [ $rc -eq 77 ]; then
        skipped=$((skipped + 1)); failed=$((failed + 1))
        note "FAIL    $name (exit 77: SKIPPED, and the GPU suite must run on the CUDA backend: no usable device," \
            "or a library built without CUDA)"
        grep -m 1 -E "SKIPPING|SKIPPED" "$log" | sed 's/^/        /' | tee -a "$summary"
    else
        failed=$((failed + 1)); note "FAIL    $name (exit $rc; last lines of $(basename "$log"):)"
        tail -n 15 "$log" | sed 's/^/        /' | tee -a "$summary"
    fi
}

export OPENBLAS_NUM_THREADS=1 CMOCKA_MESSAGE_OUTPUT=STDOUT
# The programs, smallla-check-cuda's default sweep among them (the tests half). No sweep forces a kernel family any
# more: the knobs that did (SMALLLA_CUDA_THREAD_MAX_N, SMALLLA_CUDA_MULTIROW) were removed, and a kernel instance is
# compiled only where the routing table (kernels/cuda/routing/) routes to it, so the default orders (every n up to
# 64) reach each small-order instance that the build has.
if [ "$part" = all ] || [ "$part" = tests ]; then
    for t in "$stage"/bin/*; do
        name=$(basename "$t")
        case "$name" in
            smallla-bench*) ;;
            test_*) run_one "$name cuda" "$out/$name.log" "$t" cuda ;;  # the CMocka suites on the CUDA backend
            *) run_one "$name" "$out/$name.log" "$t" ;;
        esac
    done
fi

# The large cases (about 10 GB of host and of device memory): matinv's blocked path over more than 2 GiB of
# matrices (its chunk loop), getrs over 200,000 matrices (its persistent form steps each warp through many), and
# orders 300-4200 at batches of 1-3 (the blocked and large families; zero columns, NaN and exact pivot ties).
if [ "$part" = all ] || [ "$part" = large ]; then
    if [ -x "$stage/bin/smallla-check-cuda" ]; then
        run_one "smallla-check-cuda --large (matinv d n = 256 over 2.25 GiB; getrs d, z n = 20, 32 over 200,000; n = 300-4200 at batches of 1-3)" \
            "$out/check-large.log" "$stage/bin/smallla-check-cuda" --large
    else
        note "FAIL    smallla-check-cuda not staged: the large cases NOT run"
        failed=$((failed + 1))
    fi
fi

# Sanitizers on a small sweep of the CUDA backend (every kernel family: thread-per-matrix, lane-per-row,
# getri by columns, one block per matrix, blocked with cuBLAS), and on one large order.
if [ "$part" = tests ] || [ "$part" = large ]; then
    note "sanitizers not run in this part (run PART sanitizers as well)"
elif command -v compute-sanitizer >/dev/null 2>&1 && [ -x "$stage/bin/smallla-check-cuda" ]; then
    small="1 2 3 5 7 8 9 14 16 17 28 31 32 33 40 44 64 65"
    run_one "memcheck smallla-check-cuda" "$out/memcheck.log" \
        compute-sanitizer --tool memcheck --error-exitcode 99 "$stage/bin/smallla-check-cuda" $small
    run_one "racecheck smallla-check-cuda" "$out/racecheck.log" \
        compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 "$stage/bin/smallla-check-cuda" $small
    # The large family (panels over a thread-block cluster, cuBLAS's TRSM) on a reduced case: order 520 (a first panel over a cluster of 2 blocks).
    run_one "memcheck smallla-check-cuda 520" "$out/memcheck-520.log" \
        compute-sanitizer --tool memcheck --error-exitcode 99 "$stage/bin/smallla-check-cuda" 520
    # racecheck on the large family through the benchmark (one factorization of order 600, a cluster of 2 blocks:
    # smallla-check-cuda 520 under racecheck takes minutes), and the Cholesky panels at 100 and 300.
    run_one "racecheck getrf/getrf_nopiv s, d n = 600 (smallla-bench)" "$out/racecheck-600.log" \
        compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 "$stage/bin/smallla-bench" \
        --ops getrf,getrf_nopiv --precs s,d --n 600 --batch 1 --reps 1 --no-vendor --csv /dev/null
    # The blocked LU's panels of one and of two rows a thread (n = 130 and 300) and the panel apply spread over
    # blocks (few matrices); memcheck also on getrs and matinv behind them (racecheck on them takes minutes).
    run_one "memcheck getrf/getrs/matinv d, z n = 130, 300 (smallla-bench)" "$out/memcheck-blocked.log" \
        compute-sanitizer --tool memcheck --error-exitcode 99 "$stage/bin/smallla-bench" \
        --ops getrf,getrs,matinv --precs d,z --n 130,300 --batch 2 --reps 1 --no-vendor --csv /dev/null
    run_one "racecheck getrf d, z n = 130, 300 (smallla-bench)" "$out/racecheck-blocked.log" \
        compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 "$stage/bin/smallla-bench" \
        --ops getrf --precs d,z --n 130,300 --batch 2 --reps 1 --no-vendor --csv /dev/null
    run_one "racecheck potrf/posv d, z n = 100, 300 (smallla-bench)" "$out/racecheck-chol.log" \
        compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 99 "$stage/bin/smallla-bench" \
        --ops potrf,posv --precs d,z --n 100,300 --batch 3 --reps 1 --no-vendor --csv /dev/null
else
    note "compute-sanitizer not found: sanitizers NOT run"
    failed=$((failed + 1))
fi
note "total: $passed passed, $failed failed ($skipped of them skipped)"
if [ $passed -eq 0 ]; then
    note "FAIL    nothing passed: the GPU suite ran no program on the CUDA backend"
    exit 1
fi
[ $failed -eq 0 ]
