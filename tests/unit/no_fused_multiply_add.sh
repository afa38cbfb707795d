#!/bin/sh
# The host kernels keep LAPACK's roundings, so the library's x86-64 code must hold no fused multiply-add (FMA3 and
# AVX-512 forms). -ffp-contract=off does not cover everything: GCC 12 vectorizes complex products into vfmaddsub
# where the target has FMA (lib/host/isa/lanes_isa.cpp). Exit 77 (skipped) without objdump or off x86-64.
#   usage: no_fused_multiply_add.sh OBJDUMP LIBRARY
objdump=$1
lib=$2
case "$(uname -m)" in
  x86_64 | amd64) ;;
  *) echo "not an x86-64 machine: skipped"; exit 77 ;;
esac
if ! command -v "$objdump" >/dev/null 2>&1; then echo "objdump not found: skipped"; exit 77; fi
pattern='[[:space:]]v?fn?m(add|sub|addsub|subadd)(132|213|231)[ps][sdh][[:space:]]'
dis=$(mktemp)
trap 'rm -f "$dis"' EXIT
"$objdump" -d --no-show-raw-insn -C "$lib" > "$dis" || { echo "objdump failed on $lib"; exit 1; }
count=$(grep -cE "$pattern" "$dis")
if [ "$count" -ne 0 ]; then
  echo "FAIL: $count fused multiply-add instructions in $lib, after these symbols (the nearest exported ones):"
  awk -v pat="$pattern" '/^[0-9a-f]+ </ { fn = $0 } $0 ~ pat { print substr(fn, 1, 200) }' "$dis" | sort | uniq -c
  exit 1
fi
echo "no fused multiply-add in $lib ($(grep -c '^[0-9a-f]* <' "$dis") symbols)"
