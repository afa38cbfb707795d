#!/usr/bin/env bash
# One command for a fresh Debian machine: installs the Debian packages smallla needs (only the missing ones),
# runs the setup hooks in scripts/setup.d/, configures and builds (the CUDA backend is built when a CUDA
# compiler is found, e.g. /usr/local/cuda/bin/nvcc), and runs the main example: factor and invert a batch of
# matrices, printing LAPACK's residual ratios and the times.
#   usage: bash scripts/setup.sh
# Environment: SMALLLA_BUILD_DIR (default build), SMALLLA_CMAKE_ARGS (extra configure arguments, e.g.
# -DCMAKE_CUDA_ARCHITECTURES=90), SMALLLA_JOBS (default: the number of cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${SMALLLA_BUILD_DIR:-build}
jobs=${SMALLLA_JOBS:-$(nproc 2>/dev/null || echo 2)}
step() { printf '\n== setup: %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------------------------------------
# python3-numpy, -scipy, -pytest: the Python package's tests (bindings/python); -pip, -setuptools, -wheel: its
# install from the repository into a virtual environment (CTest bindings.python.installed), offline.
packages=(cmake make g++ gcc gfortran pkg-config libcmocka-dev liblapack-dev libblas-dev
          doxygen graphviz python3 python3-matplotlib nodejs
          python3-numpy python3-scipy python3-pytest python3-pip python3-setuptools python3-wheel)
# Open MPI: the scale-out example examples/mpi and its CTest (mpirun -np 2 on the host backend).
packages+=(libopenmpi-dev openmpi-bin)
# The host benchmark's anchors (perf/host/bench_host.cpp): serial and threaded OpenBLAS (loaded at run time) and Eigen 3.
# The tests' LAPACK oracle stays reference LAPACK whatever liblapack.so.3 then points at (cmake/oracle_lapack.cmake).
packages+=(libopenblas0-serial libopenblas0-pthread libeigen3-dev)
# npm: Debian's package, unless node already brings its own npm (e.g. NodeSource's nodejs, which conflicts
# with Debian's npm package).
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  step "Debian packages: all present"
fi

# --- hooks (e.g. the npm packages of the Julia grammar check) ---------------------------------------------
for hook in "$root"/scripts/setup.d/*.sh; do
  [ -e "$hook" ] || continue
  step "hook $(basename "$hook")"
  bash "$hook"
done

# --- configure and build -----------------------------------------------------------------------------------
step "configure $build"
# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${SMALLLA_CMAKE_ARGS:-}
step "build ($jobs jobs)"
start=$SECONDS
cmake --build "$build" -j "$jobs"
echo "build time: $((SECONDS - start)) s"
grep -q "^SMALLLA_CUDA_BUILT:INTERNAL=ON" "$build/CMakeCache.txt" 2>/dev/null &&
  echo "CUDA backend: built" || echo "CUDA backend: not built (no CUDA compiler found)"

# --- the main example ----------------------------------------------------------------------------------------
step "example: factor and invert a batch (host backend)"
"$build/examples/batch_lu_inverse"
