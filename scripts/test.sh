#!/usr/bin/env bash
# Runs the whole test suite: builds if needed, builds the API documentation (Doxygen, warnings as errors),
# then runs every CTest test (the CMocka suites on the host backend, their CUDA variants - reported as
# skipped without a GPU -, the bindings' checks and the installed-tree consumers).
#   usage: bash scripts/test.sh
# Environment: SMALLLA_BUILD_DIR (default build), SMALLLA_CMAKE_ARGS, SMALLLA_JOBS.
# Exit status 0 only when the build, the docs and every test pass. The last line is CTest's summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${SMALLLA_BUILD_DIR:-build}
jobs=${SMALLLA_JOBS:-$(nproc 2>/dev/null || echo 2)}
step() { printf '\n== test: %s\n' "$*"; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  step "configure $build"
  # shellcheck disable=SC2086
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${SMALLLA_CMAKE_ARGS:-}
fi
step "build"
cmake --build "$build" -j "$jobs"

step "docs (Doxygen, warnings as errors)"
cmake --build "$build" --target docs
echo "docs: $build/docs/html/index.html"

step "ctest"
log=$(mktemp "${TMPDIR:-/tmp}/smallla-ctest.XXXXXX")
trap 'rm -f "$log"' EXIT
set +e
# -V shows each suite's CMocka lines ([ RUN ], [ OK ], [ SKIPPED ]) as they run.
ctest --test-dir "$build" -V -j "$jobs" --timeout 1800 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
echo
# each suite's CMocka summary: "[  PASSED  ] 16 test(s)." etc.
awk 'function count(line) { sub(/.*\] /, "", line); return line + 0 }
     /\[  PASSED  \] [0-9]+ test/ {p += count($0)} /\[  FAILED  \] [0-9]+ test/ {f += count($0)}
     /\[  SKIPPED \] [0-9]+ test/ {s += count($0)}
     END {printf "CMocka: %d test cases passed, %d failed, %d skipped\n", p, f, s}' "$log"
grep -E "tests passed, [0-9]+ tests? failed out of" "$log" | tail -n 1 || echo "ctest: no summary line (status $rc)"
exit "$rc"
