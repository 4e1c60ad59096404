#!/usr/bin/env bash
# predict_gpu_list_fault.sh — `predict --gpu A,B,C` on a kernel that faults.
# The fault is the kernel's, so predict stops after the first GPU (status 1,
# the fault on stderr); the comparison table must not give the GPUs it never
# ran a time of 0 ms (it did: calloc'd times were printed, "-" for the first
# GPU and "0" for every model on the others).  By hand: no model row has a
# number, so the table is its header only, and a line names the GPUs not run.
source "$WS_SRC/tests/cli/lib.sh"

cat >"$TMP/oob.ptx" <<'PTX'
.version 7.0
.target sm_80
.address_size 64
.visible .entry oob(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3+4096], %r1;
  ret;
}
PTX
cat >"$TMP/oob.json" <<'JSON'
{"kernel": "oob", "grid": [1, 1, 1], "block": [32, 1, 1],
 "args": [{"buffer": "out", "type": "u32", "count": 32, "init": "zero"}]}
JSON

run "$WS" predict "$TMP/oob.ptx" --launch "$TMP/oob.json" --gpu rtx3090,a100,t4 --model all
expect_no_crash "fault in a GPU list"
[ "$RC" -ne 0 ] || fail "a faulting kernel exited 0"
expect_err "out-of-bounds write"
table=$(awk '/^predicted time \(ms\) by GPU/{t=1; next} /^not run/{t=0} t && NF' <<<"$OUT")
[ "$table" = "$(printf '%-16s %12s %12s %12s' model rtx3090 a100 t4)" ] ||
  fail "the table has rows though no GPU was predicted: '$table'"
grep -qE '(^| )0( |$)' <<<"$table" && fail "a GPU that was not run shows 0 ms"
expect_out "not run after the kernel fault on rtx3090: a100 t4"
finish
