#!/usr/bin/env bash
# cli_grammar.sh — one grammar for every command that predicts (issue 23
# item 4): --gpu LIST|all and --model LIST|all parsed by one parser
# (cli_gpu_names, cli_model_names) in predict, sweep, exec, model and
# validate; --kernel selects a kernel of the module whatever the spec names
# (run, predict); a kernel that reads a __constant__ or __device__ variable
# the spec never sets gets a warning naming it; `warpsight --help` names the
# warpsight model.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
P="$WS_SRC/tests/model-pairs/pairs.sm_75.ptx"
ngpus=$("$WS" gpus --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
[ "$ngpus" -gt 30 ] || fail "the database lists $ngpus GPUs"
cat >"$TMP/small.json" <<'J'
{"kernel": "vecadd", "grid": [4, 1, 1], "block": [128, 1, 1],
 "args": [{"buffer": "a", "type": "f32", "count": 512}, {"buffer": "b", "type": "f32", "count": 512},
          {"buffer": "c", "type": "f32", "count": 512}, {"scalar": "n", "type": "s32", "value": 512}]}
J

# --gpu all: every GPU of the database, in `warpsight gpus` order
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$TMP/small.json" --gpu all --model warpsight,roofline --json -j 1
expect_rc 0 "predict --gpu all"
python3 - "$TMP/out" "$ngpus" <<'PY' || fail "predict --gpu all JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["gpus"]) == int(sys.argv[2]), len(d["gpus"])
for s in d["gpus"]:
    assert [r["model"] for r in s["results"]] == ["warpsight", "roofline"], s["results"]
PY
run "$WS" model --profile "$WS_SRC/examples/hand/every-input.json" --gpu all --model hong-kim,roofline
expect_rc 0 "model --gpu all --model list"
[ "$(grep -c '^kernel every_input' <<<"$OUT")" -eq "$ngpus" ] || fail "model --gpu all: not every GPU"
expect_out "hong-kim"

# the same errors everywhere
for cmd in predict sweep; do
  extra=()
  [ "$cmd" = sweep ] && extra=(--block 64..128)
  run "$WS" $cmd "$E/vecadd.sm_80.ptx" --launch "$TMP/small.json" "${extra[@]}" --gpu a100,all
  expect_rc 2 "$cmd: all in a list"
  expect_err "--gpu: 'all' cannot be in a list"
  run "$WS" $cmd "$E/vecadd.sm_80.ptx" --launch "$TMP/small.json" "${extra[@]}" --model warpsight,warpsight
  expect_rc 2 "$cmd: a model twice"
  expect_err "--model: model 'warpsight' given twice"
  run "$WS" $cmd "$E/vecadd.sm_80.ptx" --launch "$TMP/small.json" "${extra[@]}" --model warpsite
  expect_rc 2 "$cmd: unknown model"
  expect_err "warpsite"
done
run "$WS" model --profile "$WS_SRC/examples/hand/every-input.json" --gpu a100 --model all,roofline
expect_rc 2 "model: all in a list"
expect_err "--model: 'all' cannot be in a list"
run "$WS" exec --gpu a100,nosuchgpu -- true
expect_rc 2 "exec: an unknown GPU in a list"
run "$WS" exec --model warpsight,nosuch -- true
expect_rc 2 "exec: an unknown model in a list"
run "$WS" validate "$WS_SRC/data/validation/amaris-measured-dev.csv" --model warpsight,nosuch --launches "$TMP/l"
expect_rc 2 "validate: an unknown model"
run "$WS" validate "$WS_SRC/data/validation/amaris-measured-dev.csv" --model warpsight,roofline --gpu all \
  --kernels vectorAdd --limit 2 --launches "$TMP/l"
expect_rc 0 "validate --model list --gpu all"
expect_out "wrote 2 launch specs"

# sweep with model and GPU lists
run "$WS" sweep "$E/vecadd.sm_80.ptx" --launch "$TMP/small.json" --block 64..128 --step 64 --gpu a100,t4 \
  --model warpsight,roofline --json -j 1
expect_rc 0 "sweep lists"
python3 - "$OUT" <<'PY' || fail "sweep lists JSON"
import json, sys
d = json.loads(sys.argv[1])
assert d["gpus"] == ["a100", "t4"] and d["models"] == ["warpsight", "roofline"], (d["gpus"], d["models"])
assert len(d["rows"]) == 4, d["rows"]
PY

# --kernel selects from the module: the spec is copy_coalesced's, the
# arguments fit copy_uncoalesced
python3 - "$WS_SRC" "$TMP/copy.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/model-pairs")
from launches import launches
json.dump(launches["copy_coalesced"], open(sys.argv[2], "w"))
PY
run "$WS" run "$P" --launch "$TMP/copy.json" --kernel copy_uncoalesced -j 1
expect_rc 0 "run --kernel"
expect_out "copy_uncoalesced: 1024 blocks"
run "$WS" predict "$P" --launch "$TMP/copy.json" --kernel copy_uncoalesced --model roofline -j 1
expect_rc 0 "predict --kernel"
expect_out "kernel copy_uncoalesced: grid 1024"
run "$WS" run "$P" --launch "$TMP/copy.json" --kernel nosuch
expect_rc 2 "run --kernel nosuch"
expect_err "no kernel named 'nosuch' in $P (--kernel; its kernels: copy_coalesced, copy_uncoalesced,"
run "$WS" run --help
expect_out "the kernel of the module to run, whatever the spec's"

# a __constant__ and a __device__ variable read but never set, one set,
# one with an initialiser, one only written: two warnings
cat >"$TMP/vars.ptx" <<'X'
.version 7.0
.target sm_80
.address_size 64
.const .align 4 .b8 c_filter[16];
.const .align 4 .b8 c_set[16];
.const .align 4 .u32 c_init = 7;
.global .align 4 .u32 d_table[4];
.global .align 4 .u32 d_out;
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.const.u32 %r1, [c_filter];
  ld.const.u32 %r2, [c_set+4];
  ld.const.u32 %r3, [c_init];
  mov.u64 %rd2, d_table;
  ld.global.u32 %r4, [%rd2];
  add.u32 %r5, %r1, %r2;
  add.u32 %r5, %r5, %r3;
  add.u32 %r5, %r5, %r4;
  st.global.u32 [d_out], %r5;
  st.global.u32 [%rd1], %r5;
  ret;
}
X
cat >"$TMP/vars.json" <<'J'
{"kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1],
 "args": [{"buffer": "out", "type": "u32", "count": 1}],
 "variables": {"c_set": {"type": "u32", "values": [1, 2, 3, 4]}}}
J
run "$WS" run "$TMP/vars.ptx" --launch "$TMP/vars.json" -j 1
expect_rc 0 "vars run"
expect_err "warning: kernel 'k' reads __constant__ variable 'c_filter', which the launch spec never sets: it reads zeros"
expect_err "warning: kernel 'k' reads __device__ variable 'd_table', which the launch spec never sets"
grep -q "c_set'\|c_init'\|d_out'" <<<"$ERR" && fail "warned about a variable set, initialised or only written: $ERR"
run "$WS" predict "$TMP/vars.ptx" --launch "$TMP/vars.json" --model roofline -j 1
expect_err "reads __constant__ variable 'c_filter'"

# an atomics-only kernel still has memory requests: Hong & Kim and Luo &
# Suda run (their memory warp moves 32 lanes x 4 bytes = 128 bytes)
cat >"$TMP/atom.ptx" <<'X'
.version 7.0
.target sm_80
.address_size 64
.visible .entry count(.param .u64 c)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [c];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 63;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u32 [%rd3], 1;
  ret;
}
X
cat >"$TMP/atom.json" <<'J'
{"kernel": "count", "grid": [8, 1, 1], "block": [128, 1, 1], "args": [{"buffer": "c", "type": "u32", "count": 64}]}
J
run "$WS" predict "$TMP/atom.ptx" --launch "$TMP/atom.json" --json -j 1
expect_rc 0 "atomics-only predict"
python3 - "$TMP/out" <<'PY' || fail "atomics-only kernel: $OUT"
import json, sys
d = json.load(open(sys.argv[1]))
st = {r["model"]: r["status"] for r in d["results"]}
assert st["hong-kim"] == "ok" and st["luo-suda"] == "ok", st
assert d["profile"]["memory"]["load_bytes_per_warp"] == 128, d["profile"]["memory"]
PY

run "$WS" --help
expect_out "warpsight's own model (\`--model warpsight\`"
finish
