#!/usr/bin/env bash
# Consumers of an installed smallla: installs a build tree into a temporary prefix (cmake --install), then
#   1. builds and runs examples/installed through CMake's find_package(smallla) -> smallla::smallla,
#   2. builds and runs the same program through pkg-config (smallla.pc),
#   3. builds and runs the Fortran test program against the installed Fortran module and libsmallla_fortran
#      (when the build has a Fortran compiler).
# usage: scripts/check_installed.sh [BUILD_DIR]      (default: build)
# Exit status 0 when every consumer builds and passes. Nothing outside the temporary folder is written.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/smallla-installed.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

step() { printf '\n== %s\n' "$*"; }

step "cmake --install $build --prefix <tmp>/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
find "$prefix" -type f | sed "s|$prefix/||" | sort

step "find_package(smallla) -> smallla::smallla"
cmake -S "$root/examples/installed" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake-build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/cmake-build/installed_getrf"

step "pkg-config smallla"
pc=$(find "$prefix" -name smallla.pc | head -n 1)
if [ -z "$pc" ]; then
  echo "no smallla.pc in the installed tree" >&2
  exit 1
fi
export PKG_CONFIG_PATH="$(dirname "$pc")"
echo "cflags: $(pkg-config --cflags smallla)  libs: $(pkg-config --libs smallla)"
make -s -C "$root/examples/installed" OUT="$work"
"$work/installed_getrf_pkgconfig"

mod=$(find "$prefix" -name smallla.mod | head -n 1)
if [ -n "$mod" ]; then
  step "the CMake package exports the Fortran library (smallla::fortran)"
  grep -q "smallla::fortran" "$(find "$prefix" -name smalllaTargets.cmake | head -n 1)" ||
    { echo "smalllaTargets.cmake has no smallla::fortran" >&2; exit 1; }
fi
if [ -n "$mod" ] && command -v gfortran >/dev/null 2>&1; then
  step "Fortran: use smallla (installed module), -lsmallla_fortran"
  libdir=$(pkg-config --variable=libdir smallla)
  src=$root/bindings/fortran/test
  (cd "$work" && gfortran -c "$src/checks.f90" &&
     gfortran -cpp -I"$(dirname "$mod")" -I"$src" -o test_smallla_installed "$src/test_smallla.F90" checks.o \
       -L"$libdir" -lsmallla_fortran -lsmallla -Wl,-rpath,"$libdir")
  "$work/test_smallla_installed" | tail -n 3
fi

step "installed consumers: passed"
