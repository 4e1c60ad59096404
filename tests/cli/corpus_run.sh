#!/bin/bash
# corpus_run.sh — every corpus kernel with a launch spec runs through
# `warpsight run` (PTX for each architecture), and its C reference program
# (tests/ref/<name>.c, built as $WS_BUILD/tests/ref/ref_<name>) accepts the
# outputs.  A spec named NAME.VARIANT.json is checked with --variant VARIANT.
# Device printf output (stdout minus the summary line) goes to stdout.txt.
source "$WS_SRC/tests/cli/lib.sh"
REFS="${WS_BUILD:-}/tests/ref"
if [ ! -d "$REFS" ]; then
  echo "skipped: reference programs not built ($REFS missing)"
  exit 77
fi
n=0
for arch in sm_75 sm_80 sm_86 sm_90; do
  for spec in "$WS_SRC"/tests/corpus/launch/*.json; do
    b=$(basename "$spec" .json)
    name=${b%%.*}
    var=${b#*.}
    [ "$var" = "$b" ] && var=
    ptx="$WS_SRC/tests/corpus/ptx/$arch/$name.ptx"
    ref="$REFS/ref_$name"
    [ -f "$ptx" ] || { fail "$arch/$b: no PTX $ptx"; continue; }
    [ -x "$ref" ] || { fail "$arch/$b: no reference program $ref"; continue; }
    out="$TMP/$arch.$b"
    mkdir -p "$out"
    run "$WS" run "$ptx" --launch "$spec" --out "$out" -j 2
    expect_rc 0 "$arch/$b: warpsight run"
    ! grep -qE "Sanitizer|runtime error" <<<"$ERR" || fail "$arch/$b: sanitizer report: $ERR"
    [ "$RC" -eq 0 ] || continue
    expect_out "warp instructions" "$arch/$b: summary line"
    head -n -1 "$TMP/out" >"$out/stdout.txt"
    if [ -n "$var" ]; then
      "$ref" --variant "$var" "$out" >"$TMP/ref.log" 2>&1
    else
      "$ref" "$out" >"$TMP/ref.log" 2>&1
    fi
    rc=$?
    [ "$rc" -eq 0 ] || fail "$arch/$b: reference says: $(tail -3 "$TMP/ref.log")"
    n=$((n + 1))
  done
done
echo "$n kernel runs checked"
# -j 1 and -j 2 give identical outputs (no order-dependent atomics here)
# (histo_atomic: counts do not depend on the order of its atomics; printf
# output is written in block order)
for b in matmul_tiled reduce.k6 scan histo_atomic warp_reduce printf_kernel; do
  name=${b%%.*}
  mkdir -p "$TMP/j1" "$TMP/j2"
  "$WS" run "$WS_SRC/tests/corpus/ptx/sm_80/$name.ptx" --launch "$WS_SRC/tests/corpus/launch/$b.json" --out "$TMP/j1" -j 1 | head -n -1 >"$TMP/j1/stdout.bin"
  "$WS" run "$WS_SRC/tests/corpus/ptx/sm_80/$name.ptx" --launch "$WS_SRC/tests/corpus/launch/$b.json" --out "$TMP/j2" -j 2 | head -n -1 >"$TMP/j2/stdout.bin"
  for f in "$TMP"/j1/*.bin; do
    cmp -s "$f" "$TMP/j2/$(basename "$f")" || fail "$b: $(basename "$f") differs between -j 1 and -j 2"
  done
  rm -rf "$TMP/j1" "$TMP/j2"
done
finish
