#!/bin/bash
# tensor_unrated.sh — a GPU file without tensor-core throughput (the H100 PCIe
# and RTX 5090 files, among others, give none: "not published") makes
# the warpsight model price a kernel's mma operations at 0 cycles (C6).  Its
# terms said so, but `model --model all` and `predict` printed the
# prediction without a word, and `gpu NAME` showed no tensor section at all.
# Now a warning names the GPU, the type and the operations; a GPU that rates
# the type (the A100) gets none; `gpu` says the throughput is missing.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
python3 - "$WS_SRC/examples/hand/every-input.json" "$TMP/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["per_warp"]["tensor_fp16_f32acc_ops"] = 4096
json.dump(d, open(sys.argv[2], "w"))
PY
run "$WS" model --profile "$TMP/t.json" --gpu h100-pcie --model all
expect_rc 0 "h100-pcie, a kernel with mma"
expect_err "warpsight: warning: h100-pcie gives no tensor.fp16_f32acc throughput (not published for this board): the warpsight model prices the kernel's 4096 fp16_f32acc tensor-core operations per warp at 0 cycles" \
  "h100-pcie: the unrated tensor operations are said"
run "$WS" model --profile "$TMP/t.json" --gpu a100 --model all
expect_rc 0 "a100, a kernel with mma"
grep -q "tensor" <<<"$ERR" && fail "a100 rates fp16_f32acc, yet: $ERR"
# the H100 SXM's file rates fp16_f32acc (989.4 dense TFLOPS at 1.83 GHz): no warning
run "$WS" model --profile "$TMP/t.json" --gpu h100-sxm --model all
expect_rc 0 "h100-sxm, a kernel with mma"
grep -q "tensor" <<<"$ERR" && fail "h100-sxm rates fp16_f32acc, yet: $ERR"
run "$WS" model --profile "$TMP/t.json" --gpu gtx1650-gddr6 --model warpsight,roofline
expect_err "gtx1650-gddr6 rates tensor.fp16_f32acc at 0 (no tensor cores)" "a board without tensor cores"
# the seed models do not read tensor operations: no warning without warpsight
run "$WS" model --profile "$TMP/t.json" --gpu h100-pcie --model roofline
grep -q "tensor" <<<"$ERR" && fail "roofline alone does not read tensor operations, yet: $ERR"
# gpu NAME: the missing throughput is shown, not left out
run "$WS" gpu h100-pcie
expect_out "not published for this board: the warpsight model prices tensor-core (mma) operations at 0 cycles on it" \
  "gpu h100-pcie: tensor throughput missing"
run "$WS" gpu a100
expect_out "fp16_f32acc" "gpu a100: its tensor throughput"
finish
