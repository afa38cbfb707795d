#!/usr/bin/env bash
# The sweep that rebuilds a CUDA routing table (run on the GPU): for each kernel family, smallla-bench of a
# measurement build (cmake -DSMALLLA_TUNING=ON) with SMALLLA_ROUTE forcing that family for every routine, precision
# and order where it exists (elsewhere the table's own route runs, and tune_routing.py ignores those rows), then
# tune_routing.py's new table.
#   usage: perf/cuda/tune_routing.sh BUILD_DIR OUT_DIR [TABLE [ORDERS]]
# TABLE: the table to rebuild (default sm90); ORDERS: smallla-bench's --n (default 1-64,72,96,128,192,256,384,512).
# Writes OUT_DIR/FAMILY.csv, OUT_DIR/route-info.txt and OUT_DIR/TABLE.def (copy it to kernels/cuda/routing/ to adopt).
set -euo pipefail
build=${1:?usage: tune_routing.sh BUILD_DIR OUT_DIR [TABLE [ORDERS]]}
out=${2:?usage: tune_routing.sh BUILD_DIR OUT_DIR [TABLE [ORDERS]]}
table=${3:-sm90}
orders=${4:-1-64,72,96,128,192,256,384,512}
here=$(cd "$(dirname "$0")" && pwd)
grep -q "^SMALLLA_TUNING:BOOL=ON" "$build/CMakeCache.txt" ||
    { echo "tune_routing.sh: $build is not a measurement build (configure with -DSMALLLA_TUNING=ON)" >&2; exit 2; }
mkdir -p "$out"
"$build/perf/smallla-route-info" --max-n 512 >"$out/route-info.txt"
for family in thread lane lane_rolled two_rows prefetch two_warps columns blocked one_block vendor; do
    routes=""
    for r in getrf getrf_nopiv getrs getri matinv; do routes="$routes${routes:+,}$r:sdcz:1-512=$family"; done
    echo "== $family"
    SMALLLA_ROUTE=$routes "$build/perf/cuda/smallla-bench" --n "$orders" --no-vendor --csv "$out/$family.csv"
done
python3 "$here/tune_routing.py" table --existence "$out/route-info.txt" --sweeps "$out" --table "$table" \
    --out "$out/$table.def"
echo "new table: $out/$table.def"
