#!/usr/bin/env bash
# The Fortran caller on the CUDA backend, for the GPU machine (which has no Fortran compiler): build and stage
# here, run there.
#
#   bindings/fortran/run_gpu.sh stage BUILD_DIR
#       here, after `cmake --build BUILD_DIR --target smallla_fortran_test_cuda` in a build configured with CUDA:
#       copies the shared libraries the test needs that a GPU image may lack (libgfortran, libquadmath, libgomp,
#       libcudart) into BUILD_DIR/bindings/gpu-libs. Carry BUILD_DIR to the device.
#   bindings/fortran/run_gpu.sh run BUILD_DIR [RESULT_FILE]
#       there: runs the test with device buffers passed as type(c_ptr) and writes its output, with the device
#       and the commit, to RESULT_FILE (default: $OUT/fortran_cuda.txt when OUT is set, else
#       perf/results/fortran_cuda.txt; SMALLLA_COMMIT names the commit where the copy has no .git). Exit status: the test's (0 passed, 1 failed, 77 no device).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:-}
build=${2:-}
if [ -z "$mode" ] || [ -z "$build" ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
exe=$build/bindings/smallla_fortran_test_cuda
libs=$build/bindings/gpu-libs

case "$mode" in
stage)
  [ -x "$exe" ] || { echo "run_gpu.sh: $exe not built (needs a build with the CUDA toolkit)" >&2; exit 1; }
  mkdir -p "$libs"
  # Never the driver (libcuda): the device's own must be used.
  ldd "$exe" "$build"/lib/libsmallla.so* 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -E '/lib(gfortran|quadmath|gomp|cudart)\.so' | while read -r lib; do
      cp -L "$lib" "$libs/"
      echo "staged $(basename "$lib")"
    done
  ;;
run)
  result=${3:-}
  if [ -z "$result" ]; then
    if [ -n "${OUT:-}" ]; then result=$OUT/fortran_cuda.txt; else result=$root/perf/results/fortran_cuda.txt; fi
  fi
  mkdir -p "$(dirname "$result")"
  # the CUDA toolkit's own folder last, for what was not staged (e.g. libcublas of a CUDA libsmallla)
  cuda_libs=""
  for d in /usr/local/cuda/lib64 /usr/local/cuda/lib; do [ -d "$d" ] && cuda_libs="$cuda_libs:$d"; done
  export LD_LIBRARY_PATH="$build/lib:$build/bindings:$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}$cuda_libs"
  {
    echo "# Fortran caller of smallla on the CUDA backend (bindings/fortran/test/test_smallla_cuda.F90)"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# commit: ${SMALLLA_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
    echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo unknown)"
  } >"$result"
  set +e
  "$exe" 2>&1 | tee -a "$result"
  status=${PIPESTATUS[0]}
  set -e
  echo "# exit status: $status" | tee -a "$result"
  exit "$status"
  ;;
*)
  echo "run_gpu.sh: unknown mode $mode (stage or run)" >&2
  exit 2
  ;;
esac
