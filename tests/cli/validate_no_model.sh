#!/bin/bash
# validate_no_model.sh — a row on which no model can run says why, in the
# text, in the warning and in rows.csv (it once said only "failed").  The
# row gives vecadd 1024-thread blocks and 255 registers per thread: a warp
# allocates its registers in units of 256 (255 x 32 = 8160 -> 8192), so a
# block needs 32 x 8192 = 262144 registers, more than the 65536 of an
# A100's SM: no block fits, and every model refuses the occupancy.
source "$WS_SRC/tests/cli/lib.sh"
cp "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" "$TMP/"
sed 's/"grid": \[391, 1, 1\], "block": \[256, 1, 1\]/"grid": [98, 1, 1], "block": [1024, 1, 1]/' \
  "$WS_SRC/examples/kernels/vecadd.launch.json" >"$TMP/v1024.json"
grep -q '"block": \[1024, 1, 1\]' "$TMP/v1024.json" || fail "test set-up: the launch spec was not rewritten"
printf 'kernel_file,kernel,launch,gpu,seconds,registers\nvecadd.sm_80.ptx,vecadd,v1024.json,a100,1e-5,255\nvecadd.sm_80.ptx,vecadd,v1024.json,a100,1e-5,32\n' >"$TMP/d.csv"
run "$WS" validate "$TMP/d.csv" --models warpsight,roofline --report "$TMP/r" --no-cache
expect_rc 0 "validate with one row that no model can run"
why="occupancy: a block needs 262144 registers, more than the 65536 one block may have"
expect_out "line 2 (vecadd, a100): warpsight: $why; roofline: $why" "text: the reason of each model"
expect_err "model warpsight on vecadd failed: $why" "warning: the reason"
expect_out "2 rows, 1 failed" "summary line"
grep -qF "2,failed,\"warpsight: $why; roofline: $why\"" "$TMP/r/rows.csv" ||
  fail "rows.csv reason: $(cat "$TMP/r/rows.csv")"
grep -q ',3,ok,' "$TMP/r/rows.csv" || fail "the 32-register row did not run: $(cat "$TMP/r/rows.csv")"
finish
