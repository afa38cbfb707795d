#!/usr/bin/env bash
# Runs an MPI program on NP ranks of this machine, with what Open MPI needs to start anywhere:
#   - as root (containers): Open MPI refuses root unless told (OMPI_ALLOW_RUN_AS_ROOT, and the confirmation);
#   - more ranks than the slots it counts (a container's CPU quota): --oversubscribe;
#   - no process binding (--bind-to none): the ranks' OpenMP threads or GPU feeders are not pinned to one core;
#   - shared-memory transport without cross-memory attach, which containers forbid (ptrace):
#     btl_vader_single_copy_mechanism = none (Open MPI 4; btl_sm_ in Open MPI 5).
# Other MPIs (MPICH, ...) get a plain mpiexec -n NP.
#   usage: mpirun.sh [--expect REGEX] NP PROGRAM [ARGS...]
# With --expect, the run passes only when the launcher exits with 0 and a line of the output matches REGEX
# (grep -E). Environment: SMALLLA_MPIRUN, the launcher (default mpirun).
set -euo pipefail
expect=""
if [ "${1:-}" = --expect ]; then
  expect=${2:?--expect needs a regular expression}
  shift 2
fi
np=${1:?usage: mpirun.sh [--expect REGEX] NP PROGRAM [ARGS...]}
shift
launcher=${SMALLLA_MPIRUN:-mpirun}
flags=()
if "$launcher" --version 2>&1 | grep -qi "open mpi\|openrte"; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl_sm_single_copy_mechanism=none
  export OMPI_MCA_btl_base_warn_component_unused=0
  flags+=(--oversubscribe --bind-to none)
fi
if [ -z "$expect" ]; then
  exec "$launcher" "${flags[@]}" -n "$np" "$@"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
set +e
"$launcher" "${flags[@]}" -n "$np" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  echo "mpirun.sh: $launcher exited with status $rc" >&2
  exit "$rc"
fi
if ! grep -Eq -- "$expect" "$out"; then
  echo "mpirun.sh: no line of the output matches: $expect" >&2
  exit 1
fi
