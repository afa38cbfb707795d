#!/usr/bin/env bash
# Installs the Julia grammar used by the Julia parse check (bindings/julia/tools: web-tree-sitter and
# tree-sitter-julia, whose .wasm needs no compiler) from the npm registry, exactly as package-lock.json pins.
# Run by scripts/setup.sh; the check itself needs no network.
set -euo pipefail
cd "$(dirname "$0")/../../bindings/julia/tools"
if ! command -v npm >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get install -y --no-install-recommends nodejs npm
  else
    echo "julia-grammar.sh: npm not found" >&2
    exit 1
  fi
fi
if [ -f node_modules/tree-sitter-julia/tree-sitter-julia.wasm ] && [ -f node_modules/web-tree-sitter/package.json ] \
   && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "julia-grammar.sh: already installed"
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
node parse_check.mjs --self-test
