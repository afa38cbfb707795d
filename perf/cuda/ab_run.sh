#!/usr/bin/env bash
# Two libraries measured in one call in ABBA order (base, new, new, base), each with its own smallla-bench, then
# ab_compare.py: the speed-up of the new library at every op, precision and n, and each library's run-to-run spread
# (the noise against which the speed-ups are read).
#   usage: perf/cuda/ab_run.sh BASE_STAGE NEW_STAGE OUT_DIR [smallla-bench arguments...]
# A stage is a folder with lib/libsmallla.so* and bin/smallla-bench (tests/gpu/stage.sh makes one from a build).
set -euo pipefail
base=$(cd "${1:?usage: ab_run.sh BASE_STAGE NEW_STAGE OUT_DIR [bench args]}" && pwd)
new=$(cd "${2:?usage: ab_run.sh BASE_STAGE NEW_STAGE OUT_DIR [bench args]}" && pwd)
out=${3:?usage: ab_run.sh BASE_STAGE NEW_STAGE OUT_DIR [bench args]}
shift 3
mkdir -p "$out"
bench() {  # stage name args...
    local stage=$1 name=$2
    shift 2
    LD_LIBRARY_PATH="$stage/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$stage/bin/smallla-bench" "$@" --csv "$out/$name.csv" >"$out/$name.log" 2>&1
    echo "$name: $(tail -n 1 "$out/$name.log")"
}
bench "$base" base1 "$@"
bench "$new" new1 "$@"
bench "$new" new2 "$@"
bench "$base" base2 "$@"
python3 "$(dirname "$0")/ab_compare.py" "$out/base1.csv" "$out/base2.csv" "$out/new1.csv" "$out/new2.csv" | tee "$out/ab.txt"
