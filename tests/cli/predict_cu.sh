#!/bin/bash
# predict_cu.sh — a .cu kernel goes through nvcc -ptx, ptxas -v supplies its
# resources, and the profile matches the one from the pregenerated PTX
# (same compiler, same target: the same instruction counts).  The target is
# the GPU's own (issue 23): a T4 (CC 7.5) gets sm_75, the A100 sm_80, a GPU
# older than nvcc's oldest target (the K20, CC 3.5) the oldest with a note;
# --arch chooses; a --gpu list compiles once per distinct arch.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "skipped: nvcc not found"; exit 77
fi
E="$WS_SRC/examples/kernels"
run "$WS" predict "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu t4
expect_rc 0 ".cu predict"
expect_out "prediction:" ".cu predict"
expect_out "(ptxas -v -arch=sm_75)" ".cu predict for a T4: compiled for sm_75"
run "$WS" predict "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu t4 --arch sm_80
expect_out "(ptxas -v -arch=sm_80)" "--arch chooses"
oldest=$(nvcc --list-gpu-arch 2>/dev/null || /usr/local/cuda/bin/nvcc --list-gpu-arch | head -1)
oldest=$(sed -n 's/compute_\([0-9]*\).*/\1/p' <<<"$oldest" | sort -n | head -1)
# one compile per distinct arch: k20 and t4 share sm_$oldest, a100 has sm_80
real=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "$*" >>"%s/nvcc.log"\nexec "%s" "$@"\n' "$TMP" "$real" >"$TMP/bin/nvcc"
chmod +x "$TMP/bin/nvcc"
PATH="$TMP/bin:$PATH" run "$WS" predict "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu k20,t4,a100 --model roofline
expect_rc 0 ".cu for three GPUs"
[ "$(grep -c -- '-ptx' "$TMP/nvcc.log")" -eq 2 ] || fail "not one compile per arch: $(cat "$TMP/nvcc.log")"
grep -q -- "-lineinfo -arch=sm_$oldest" "$TMP/nvcc.log" && grep -q -- "-lineinfo -arch=sm_80" "$TMP/nvcc.log" ||
  fail "the compiles: $(cat "$TMP/nvcc.log")"
expect_out "on k20 (NVIDIA Tesla K20, CC 3.5)"
expect_err "the kernel is compiled for sm_$oldest for k20 (sm_35)" "k20: nvcc's oldest target, said"
[ "$(grep -c "(ptxas -v -arch=sm_80)" <<<"$OUT")" -eq 1 ] || fail "a100 not compiled for sm_80 once: $OUT"
run "$WS" profile "$E/vecadd.cu" --launch "$E/vecadd.launch.json" --gpu a100 -o "$TMP/cu.json"
expect_rc 0 ".cu profile"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100 -o "$TMP/ptx.json"
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
mkdir -p "$TMP/tmpdir"
TMPDIR="$TMP/tmpdir" run "$WS" profile "$TMP/bad.cu" --launch "$E/vecadd.launch.json"
expect_rc 2 "bad .cu"
expect_err "nvcc failed" "bad .cu"
# ... and leaves no temporary folder behind (it once left its nvcc.log).
if [ -n "$(ls -A "$TMP/tmpdir")" ]; then fail "a failed compile left $(ls "$TMP/tmpdir") in TMPDIR"; fi
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
