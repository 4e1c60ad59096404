#!/bin/bash
# predict_cu.sh — a .cu kernel goes through nvcc -ptx, ptxas -v supplies its
# resources, and the profile matches the one from the pregenerated PTX
# (same compiler, same target: the same instruction counts).
source "$WS_SRC/tests/cli/lib.sh"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "skipped: nvcc not found"; exit 77
fi
E="$WS_SRC/examples/kernels"
run "$WS" predict "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu k20
expect_rc 0 ".cu predict"
expect_out "prediction:" ".cu predict"
expect_out "ptxas -v -arch=sm_80" ".cu predict: resources from ptxas"
run "$WS" profile "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu k20 -o "$TMP/cu.json"
expect_rc 0 ".cu profile"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu k20 -o "$TMP/ptx.json"
expect_rc 0 ".ptx profile"
run python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for sec in ("per_warp", "memory", "resources"):
    if a[sec] != b[sec]:
        print(sec, a[sec], b[sec]); sys.exit(1)
' "$TMP/cu.json" "$TMP/ptx.json"
expect_rc 0 ".cu and .ptx profiles agree: $OUT"
# A .cu file that does not compile: nvcc's message, exit 2.
printf '__global__ void k( { }\n' >"$TMP/bad.cu"
run "$WS" profile "$TMP/bad.cu" --launch "$E/vecadd.launch.json"
expect_rc 2 "bad .cu"
expect_err "nvcc failed" "bad .cu"
# Without nvcc: a message saying what to do, exit 2 (tools are looked up in
# PATH, then $CUDA_HOME/bin).
PATH=/usr/bin:/bin CUDA_HOME="$TMP/no-cuda" run "$WS" predict "$E/vecadd.cu" --launch "$E/vecadd.launch.json"
if [ -x /usr/bin/nvcc ] || [ -x /bin/nvcc ]; then
  echo "note: nvcc is in /usr/bin, the missing-nvcc case is not checked"
else
  expect_rc 2 "no nvcc"
  expect_err "nvcc not found" "no nvcc"
  expect_err "pass the .ptx file" "no nvcc"
fi
finish
