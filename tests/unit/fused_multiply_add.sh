#!/bin/sh
# Where the library's x86-64 code may hold fused multiply-adds (FMA3 and AVX-512 forms). The lanes forms and the
# baseline keep LAPACK's roundings (-ffp-contract=off does not cover everything: GCC 12 vectorizes complex products
# into vfmaddsub where the target has FMA, lib/host/isa/lanes_isa.cpp), so their objects must hold none. The blocked
# forms of the AVX2 and AVX-512 copies fuse their tiles' products (chol_blocked.hpp, minus_product), so each of those
# objects must hold some. Exit 77 (skipped) without objdump or off x86-64.
#   usage: fused_multiply_add.sh OBJDUMP "EXACT OBJECTS" "FUSED OBJECTS"   (lists separated by ; or spaces)
objdump=$1
exact=$(printf '%s' "$2" | tr ';' ' ')
fused=$(printf '%s' "$3" | tr ';' ' ')
case "$(uname -m)" in
  x86_64 | amd64) ;;
  *) echo "not an x86-64 machine: skipped"; exit 77 ;;
esac
if ! command -v "$objdump" >/dev/null 2>&1; then echo "objdump not found: skipped"; exit 77; fi
pattern='[[:space:]]v?fn?m(add|sub|addsub|subadd)(132|213|231)[ps][sdh][[:space:]]'
# The count of fused multiply-adds in object $1, or "unreadable" (a failure, not a count of zero).
count_in() {
  "$objdump" -d --no-show-raw-insn "$1" > "$dis" 2>/dev/null || { echo unreadable; return; }
  grep -cE "$pattern" "$dis"
}
readable() {
  case $1 in
    '' | *[!0-9]*) echo "FAIL: objdump could not read $2"; status=1; return 1 ;;
  esac
}
dis=$(mktemp)
trap 'rm -f "$dis"' EXIT
status=0 checked=0
for o in $exact; do
  c=$(count_in "$o")
  checked=$((checked + 1))
  readable "$c" "$o" || continue
  if [ "$c" -ne 0 ]; then
    echo "FAIL: $c fused multiply-add instructions in $o, which must keep LAPACK's roundings; in these functions:"
    "$objdump" -d --no-show-raw-insn -C "$o" |
      awk -v pat="$pattern" '/^[0-9a-f]+ </ { fn = $0 } $0 ~ pat { print substr(fn, 1, 200) }' | sort | uniq -c | head
    status=1
  fi
done
for o in $fused; do
  c=$(count_in "$o")
  checked=$((checked + 1))
  readable "$c" "$o" || continue
  if [ "$c" -eq 0 ]; then echo "FAIL: no fused multiply-add in $o, whose blocked tiles should fuse"; status=1; fi
done
if [ "$checked" -eq 0 ]; then echo "FAIL: no objects named"; exit 1; fi
[ "$status" -eq 0 ] && echo "$checked objects: none fused where LAPACK's roundings are kept, fused tiles in the blocked copies"
exit $status
