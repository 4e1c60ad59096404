#!/bin/bash
# arch_ptx.sh — --arch chooses nvcc's target for a .cu file.  Given with a
# .ptx file, run, analyze, profile, predict and sweep once ignored it
# without a word (`predict k.sm_80.ptx --arch sm_90` printed "ptxas -v
# -arch=sm_80" and exit 0); now it is a usage error naming the option, the
# file and what to do.  A malformed --arch is still named first.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
P="$E/vecadd.sm_80.ptx"
L="$E/vecadd.launch.json"
for cmd in run analyze profile predict sweep; do
  args=("$cmd" "$P")
  [ "$cmd" = analyze ] || args+=(--launch "$L")
  [ "$cmd" = sweep ] && args+=(--block 64..128)
  [ "$cmd" = run ] && args+=(--out "$TMP")
  run "$WS" "${args[@]}" --arch sm_90
  expect_rc 2 "$cmd .ptx --arch sm_90"
  expect_err "warpsight $cmd: error: --arch sm_90 chooses nvcc's target for a .cu file; $P is PTX already" \
    "$cmd .ptx --arch sm_90"
  [ -z "$OUT" ] || fail "$cmd .ptx --arch: printed before refusing: $OUT"
  run "$WS" "${args[@]}" --arch 90
  expect_rc 2 "$cmd --arch 90"
  expect_err "--arch expects sm_XX (like sm_80), got '90'" "$cmd --arch 90"
done
# Without --arch the PTX runs for its own target, as before.
run "$WS" predict "$P" --launch "$L" --model roofline
expect_rc 0 "predict .ptx without --arch"
finish
