#!/usr/bin/env bash
# Collects what the GPU test run needs from a CUDA build made on a machine like CI's (no GPU) into one
# folder that can be copied to a GPU machine: the library, the test and benchmark programs, and the shared
# libraries they use that a CUDA machine may lack (LAPACK/BLAS, gfortran, cmocka, OpenMP).
#   usage: tests/gpu/stage.sh BUILD_DIR STAGE_DIR
set -euo pipefail
build=${1:?usage: stage.sh BUILD_DIR STAGE_DIR}
stage=${2:?usage: stage.sh BUILD_DIR STAGE_DIR}
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
cp -a "$build"/lib/libsmallla.so* "$stage/lib/"
# Every test program of the build (tests/), and the CUDA benchmark and checker (perf/cuda/).
find "$build/tests" "$build/perf/cuda" -maxdepth 2 -type f -executable \
    ! -name '*.so*' ! -name '*.sh' ! -path '*CMakeFiles*' -exec cp {} "$stage/bin/" \; 2>/dev/null || true
# Shared libraries outside the CUDA toolkit and the C/C++ runtime that the programs need.
for f in "$stage"/bin/* "$stage"/lib/libsmallla.so.*.*; do
    ldd "$f" 2>/dev/null | awk '/=> \// {print $3}'
done | sort -u | while read -r so; do
    case "$(basename "$so")" in
        libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
        libcuda.so*|libcudart.so*|libcublas*.so*|libsmallla.so*) ;;
        *) cp -L "$so" "$stage/lib/" ;;
    esac
done
cp "$(dirname "$0")/run_gpu_suite.sh" "$stage/"
ls -la "$stage/bin" "$stage/lib"
du -sh "$stage"
