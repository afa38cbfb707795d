#!/usr/bin/env bash
# The Python package as a user installs it: pip installs it from the repository into a fresh virtual
# environment (python3 -m venv --system-site-packages, so that Debian's numpy, scipy and pytest are seen;
# pip install --no-deps --no-build-isolation --no-index: nothing is downloaded), and the package's tests run
# on that installed copy, from a folder outside the repository (they check that smallla is imported from the
# environment's site-packages).
#   usage: bindings/python/check_installed.sh PYTHON LIBRARY      (CTest: bindings.python.installed)
# PYTHON: an interpreter with numpy, scipy, pytest and pip (Debian's python3); LIBRARY: libsmallla.so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=$1
lib=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/smallla-python.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A copy of the package's sources: setuptools writes build/ and *.egg-info beside them, not in the work tree.
mkdir "$work/src"
cp -R "$here/pyproject.toml" "$here/README.md" "$here/smallla" "$work/src/"
"$python" -m venv --without-pip --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --no-deps --no-build-isolation --no-index -q "$work/src"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
echo "installed: $(cd "$site" && ls -d smallla* | tr "\n" " ")"

cd "$work"
SMALLLA_LIBRARY=$lib SMALLLA_EXPECT_PACKAGE_DIR=$site/smallla PYTHONDONTWRITEBYTECODE=1 \
  "$work/venv/bin/python" -m pytest -rs -p no:cacheprovider "$here/tests"
