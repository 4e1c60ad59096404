#!/bin/bash
# emu_frontend.sh — the front-end gaps of issue 12 point 3 through the
# commands: a kernel using warpSize (PTX WARP_SZ) is analysed, run, profiled
# and predicted; a struct by value ("aggregate") and a __constant__ filter
# set by the spec ("variables") run and predict.  The values are checked
# against C references in tests/unit/test_emu_frontend.c; here the output
# files must exist with the right sizes.
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/tests/emu-front"
P="$D/frontend.sm_80.ptx"
run "$WS" analyze "$P" --kernel warp_sums
expect_rc 0 "analyze warp_sums"
expect_out "warp_sums" "analyze warp_sums"
for k in warp_sums affine conv1d; do
  run "$WS" run "$P" --launch "$D/$k.json" --out "$TMP" -j 2
  expect_rc 0 "run $k"
  expect_out "warp instructions" "run $k"
  run "$WS" profile "$P" --launch "$D/$k.json" --gpu a100 -j 2
  expect_rc 0 "profile $k"
  run "$WS" predict "$P" --launch "$D/$k.json" --gpu a100 -j 2
  expect_rc 0 "predict $k"
  expect_out "kernel $k" "predict $k"
done
# 32 s32 sums, 200 f64 results, 300 f32 results
[ "$(stat -c %s "$TMP/warp_sums.out")" -eq 128 ] || fail "warp_sums.out size"
[ "$(stat -c %s "$TMP/affine.out")" -eq 1600 ] || fail "affine.out size"
[ "$(stat -c %s "$TMP/conv1d.out")" -eq 1200 ] || fail "conv1d.out size"
finish
