#!/usr/bin/env bash
# validate_ptxas_regs.sh — a generic row without a registers column is
# profiled with the registers ptxas allocates, as `predict` uses, not the
# PTX's virtual register declarations.  Our kernel declares 300 .b32
# registers and uses three live values; a block of 1024 threads.  By hand:
# declarations read as 300 registers per thread (capped at 255, allocated
# 256) need 1024 x 256 = 262144 > 65536 registers per block, so every model
# refused the row ("a block needs 262144 registers"); ptxas allocates a handful (at most 16
# for a load, an add and a store), 1024 x 16 = 16384 <= 65536, so the row is
# predicted, and validate's time equals `predict --sample-blocks 2`'s (to
# rows.csv's 9 digits).
# Found by the sweep of Kernel Tuner's examples: matmul at 32x32 declared
# 176 registers per thread (unrolled), ptxas allocates 38.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
need_nvcc "the ptxas report"
[ -x "$(dirname "$NVCC")/ptxas" ] || command -v ptxas >/dev/null 2>&1 || { echo "skipped: no ptxas"; exit 77; }

mkdir -p "$TMP/d"
{
  printf '.version 7.0\n.target sm_80\n.address_size 64\n'
  printf '.visible .entry inc(.param .u64 p)\n{\n  .reg .b32 %%r<300>;\n  .reg .b64 %%rd<5>;\n'
  printf '  ld.param.u64 %%rd1, [p];\n  cvta.to.global.u64 %%rd2, %%rd1;\n  mov.u32 %%r1, %%tid.x;\n'
  printf '  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd2, %%rd3;\n'
  printf '  ld.global.u32 %%r2, [%%rd4];\n  add.s32 %%r299, %%r2, 1;\n  st.global.u32 [%%rd4], %%r299;\n'
  printf '  ret;\n}\n'
} >"$TMP/d/inc.ptx"
cat >"$TMP/d/inc.json" <<'JSON'
{"kernel": "inc", "grid": [64, 1, 1], "block": [1024, 1, 1],
 "args": [{"buffer": "p", "type": "u32", "count": 65536, "init": "zero"}]}
JSON
printf 'kernel_file,launch,gpu,seconds\ninc.ptx,inc.json,rtx3090,1.0e-05\n' >"$TMP/d/rows.csv"

run "$WS" validate "$TMP/d/rows.csv" --model warpsight --no-cache --report "$TMP/rep"
expect_rc 0 "validate"
status=$(csv_col "$TMP/rep/rows.csv" status)
[ "$status" = ok ] || fail "row status '$status' (reason: $(csv_col "$TMP/rep/rows.csv" reason)), expected ok"
got=$(csv_col "$TMP/rep/rows.csv" predicted_s_warpsight)
run "$WS" predict "$TMP/d/inc.ptx" --launch "$TMP/d/inc.json" --gpu rtx3090 --model warpsight --sample-blocks 2 --json
expect_rc 0 "predict"
want=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print([r["time_ms"] for r in d["results"] if r["model"]=="warpsight"][0]/1000)' "$OUT")
python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(abs(a-b) > 1e-8*max(a,b))' "$got" "$want" ||
  fail "validate predicted $got s, predict $want s"
finish
