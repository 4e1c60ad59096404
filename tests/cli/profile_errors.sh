#!/bin/bash
# profile_errors.sh — bad usage and bad input give a clear message and exit 2;
# a kernel fault in the emulator exits 1.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
run "$WS" profile --help
expect_rc 0 "--help"
expect_out "--sample-blocks" "--help"
run "$WS" predict --help
expect_rc 0 "predict --help"
expect_out "warpsight-predict/1" "predict --help"
run "$WS" profile "$E/vecadd.sm_80.ptx" --gpu a100
expect_rc 2 "no --launch"
expect_err "--launch is required" "no --launch"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json"
expect_rc 0 "no --gpu: the default GPU"
expect_out '"gpu":	"a100"' "no --gpu: the default GPU"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu nosuchgpu
expect_rc 2 "unknown GPU"
expect_err "nosuchgpu" "unknown GPU"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --kernel other
expect_rc 2 "wrong kernel"
expect_err "other" "wrong kernel"
# --sample-blocks 0 and 'all' mean every block, as the default (auto)
# does for a launch this small (25,024 warp instructions, under its 2e8):
# the same profile byte for byte as no option; a bad value names the option.
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 -o "$TMP/pall-none.json"
expect_rc 0 "no --sample-blocks"
for v in 0 all; do
  run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --sample-blocks $v -o "$TMP/pall-$v.json"
  expect_rc 0 "--sample-blocks $v"
  if ! cmp -s "$TMP/pall-none.json" "$TMP/pall-$v.json"; then fail "--sample-blocks $v: not the every-block profile"; fi
done
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --sample-blocks some
expect_rc 2 "--sample-blocks some"
expect_err "--sample-blocks expects a number of blocks (0 or 'all': every block; or 'auto'), got 'some'" "--sample-blocks some"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --sample-blocks all --functional-rest
expect_rc 2 "--functional-rest with every block"
expect_err "needs --sample-blocks N (N >= 1)" "--functional-rest with every block"
# with auto it applies when the sample stands; here every block is profiled
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --functional-rest -o "$TMP/pall-fr.json"
expect_rc 0 "--functional-rest alone (auto)"
cmp -s "$TMP/pall-none.json" "$TMP/pall-fr.json" || fail "--functional-rest alone: not the every-block profile"
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 --model nosuchmodel
expect_rc 2 "unknown model"
expect_err "nosuchmodel" "unknown model"
run "$WS" profile "$TMP/missing.ptx" --launch "$E/vecadd.launch.json" --gpu a100
expect_rc 2 "missing file"
expect_err "missing.ptx" "missing file"
# A launch that reads past its buffer: n larger than the buffers -> fault, exit 1.
sed 's/"value": 100000/"value": 100500/' "$E/vecadd.launch.json" >"$TMP/oob.json"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$TMP/oob.json" --gpu a100
expect_rc 1 "out-of-bounds kernel"
expect_err "out-of-bounds" "out-of-bounds kernel"
# The profile written with -o loads back into `warpsight model`.
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 -o "$TMP/p.json"
expect_rc 0 "-o"
run "$WS" model --profile "$TMP/p.json" --gpu a100 --model hong-kim
expect_rc 0 "model on the written profile"
expect_out "predicted:" "model on the written profile"
finish
