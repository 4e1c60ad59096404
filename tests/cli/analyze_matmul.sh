# analyze_matmul.sh — `warpsight analyze` on the tiled matrix multiplication
# of Hong & Kim (ISCA'09) Fig. 12/13 (tests/analysis/matmul_tiled.ptx).
# Expected values are hand counts from reading the PTX (see
# tests/unit/test_analysis.c): 9 blocks, 69 instructions, an outer loop
# (header block 3, blocks 3 4 5) and an inner loop (block 4, depth 2);
# block 3 holds the two global loads, two shared stores and one barrier,
# block 5 the second barrier.
source "$WS_SRC/tests/cli/lib.sh"
P="$WS_SRC/tests/analysis/matmul_tiled.ptx"
run "$WS" analyze "$P"
expect_rc 0 "text"
expect_out "kernel MatrixMulKernel (line 17)" "text"
expect_out "instructions: 69, basic blocks: 9, loops: 2" "text"
expect_out "static shared bytes: 2048" "text"   # two 16x16 float tiles = 2 x 1024
expect_out "loop 0: header block 3 (line 68), depth 1, parent none, blocks 3 4 5" "text"
expect_out "loop 1: header block 4 (line 85), depth 2, parent 0, blocks 4" "text"
expect_out "ld.global=2 st.shared=2 barrier=1" "text"
expect_out "MatrixMulKernel_param_2" "text"

run "$WS" analyze "$P" --json
expect_rc 0 "json"
if command -v python3 >/dev/null; then
  python3 - "$TMP/out" <<'PY' || fail "json content"
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kernels"][0]
assert k["name"] == "MatrixMulKernel", k["name"]
assert k["instructions"] == 69
assert len(k["blocks"]) == 9
b3, b4, b5 = k["blocks"][3], k["blocks"][4], k["blocks"][5]
assert b3["lines"] == [68, 81] and b3["loop_depth"] == 1
assert b3["counts"]["ld.global"] == 2 and b3["counts"]["st.shared"] == 2
assert b3["counts"]["barrier"] == 1 and b5["counts"]["barrier"] == 1
assert b4["loop_depth"] == 2 and b4["successors"] == [4, 5]
assert abs(b4["ilp"] - 2.0) < 1e-9          # 8 instructions in 4 groups
assert abs(b3["ilp"] - 14 / 9) < 1e-9       # 14 instructions in 9 groups
assert k["blocks"][8]["successors"] == ["exit"]
assert [l["header"] for l in k["loops"]] == [3, 4]
assert k["loops"][1]["parent"] == 0
assert k["params"][1]["offset"] == 16 and k["params"][1]["size"] == 16
assert k["shared_bytes"] == 2048
PY
fi

# the same kernel from CUDA source, when nvcc is available
if command -v nvcc >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  run "$WS" analyze "$WS_SRC/tests/analysis/matmul_tiled.cu" --arch sm_80
  expect_rc 0 ".cu"
  expect_out "loop 1: header block 4" ".cu"
  expect_out "ptxas:" ".cu"
  expect_out "2048 bytes shared" ".cu"
else
  echo "note: nvcc not found; the .cu path of analyze is not exercised"
fi
finish
