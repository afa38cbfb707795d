#!/usr/bin/env bash
# Collects what the GPU test run needs from a CUDA build made on a machine like CI's (no GPU) into one
# folder that can be copied to a GPU machine: the library, the test and benchmark programs, and the shared
# libraries they use that a CUDA machine may lack (LAPACK/BLAS, gfortran, cmocka, OpenMP).
# The tests' LAPACK oracle is staged as the build linked it (BUILD_DIR/tests/oracle_lapack.txt, written by
# tests/CMakeLists.txt): reference LAPACK and BLAS, never what the build machine's alternatives select for
# liblapack.so.3 (OpenBLAS once installed; cmake/oracle_lapack.cmake says why that matters). The staging
# fails when a staged test program would load another liblapack.so.3 or libblas.so.3, or OpenBLAS.
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
# Shared libraries outside the CUDA toolkit and the C/C++ runtime that the programs need. LAPACK and BLAS are
# the oracle's, staged below.
for f in "$stage"/bin/* "$stage"/lib/libsmallla.so.*.*; do
    ldd "$f" 2>/dev/null | awk '/=> \// {print $3}'
done | sort -u | while read -r so; do
    case "$(basename "$so")" in
        libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) ;;
        libcuda.so*|libcudart.so*|libcublas*.so*|libcusolver*.so*|libcusparse*.so*|libnvJitLink*.so*|libsmallla.so*) ;;
        liblapack.so*|libblas.so*|libopenblas*.so*) ;;
        *) cp -L "$so" "$stage/lib/" ;;
    esac
done

# The oracle: exactly the files the tests were linked with.
oracle="$build/tests/oracle_lapack.txt"
if [ ! -f "$oracle" ]; then
    echo "stage.sh: $oracle not found (a build from before the reference-LAPACK oracle?)" >&2
    exit 1
fi
{ read -r kind; read -r lapack || true; read -r blas || true; } <"$oracle"
if [ "$kind" = reference ]; then
    cp -L "$lapack" "$stage/lib/liblapack.so.3"
    cp -L "$blas" "$stage/lib/libblas.so.3"
    # Their own dependencies (gfortran, quadmath), should no test program have listed them (ldd of the
    # reference liblapack alone resolves its libblas.so.3 through the alternatives: not staged).
    for so in $(ldd "$lapack" "$blas" 2>/dev/null | awk '/=> \// {print $3}' | sort -u); do
        case "$(basename "$so")" in
            libc.so*|libm.so*|ld-linux*|libgcc_s.so*|liblapack.so*|libblas.so*|libopenblas*.so*) ;;
            *) [ -e "$stage/lib/$(basename "$so")" ] || cp -L "$so" "$stage/lib/" ;;
        esac
    done
    echo "stage.sh: LAPACK oracle: reference $lapack, $blas"
else
    echo "stage.sh: WARNING: the build's tests use the system LAPACK (no reference LAPACK at configure time);" \
        "its liblapack.so.3 and libblas.so.3 are staged as ldd resolves them" >&2
    for f in "$stage"/bin/test_*; do
        ldd "$f" 2>/dev/null | awk '/=> \// {print $3}'
    done | sort -u | while read -r so; do
        case "$(basename "$so")" in
            liblapack.so*|libblas.so*|libopenblas*.so*) cp -L "$so" "$stage/lib/" ;;
        esac
    done
fi

# Check: with the staged folder first on the path (as run_gpu_suite.sh runs them), every test program loads
# LAPACK and BLAS from the stage, and (reference oracle) no OpenBLAS, and the staged files are the oracle's.
status=0
for f in "$stage"/bin/test_*; do
    [ -e "$f" ] || continue
    resolved=$(LD_LIBRARY_PATH="$stage/lib" ldd "$f" 2>/dev/null)
    for lib in liblapack.so.3 libblas.so.3; do
        where=$(echo "$resolved" | awk -v l="$lib" '$1 == l {print $3}')
        if [ "$where" != "$stage/lib/$lib" ]; then
            echo "stage.sh: $(basename "$f") would load $lib from '${where:-nowhere}', not the stage" >&2
            status=1
        fi
    done
    if [ "$kind" = reference ] && echo "$resolved" | grep -q openblas; then
        echo "stage.sh: $(basename "$f") would load OpenBLAS" >&2
        status=1
    fi
done
if [ "$kind" = reference ]; then
    cmp -s "$lapack" "$stage/lib/liblapack.so.3" && cmp -s "$blas" "$stage/lib/libblas.so.3" || {
        echo "stage.sh: the staged liblapack.so.3/libblas.so.3 are not the reference files" >&2
        status=1
    }
fi
[ $status -eq 0 ] || exit 1

cp "$(dirname "$0")/run_gpu_suite.sh" "$stage/"
ls -la "$stage/bin" "$stage/lib"
du -sh "$stage"
