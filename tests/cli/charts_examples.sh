#!/usr/bin/env bash
# Charts for a paper example (Sim et al.'s SFU/FMA micro-benchmark on the
# Tesla C2050: GPUPerf's benefit chart and the roofline) and for a profiled
# corpus kernel (Hong & Kim's tiled matrix multiplication on the Tesla C2075,
# which has Transit's measured transition points: all three charts).  Each
# chart is a PNG and an SVG; the SVG's text layer carries the title and the
# axis labels with their units.
source "$WS_SRC/tests/cli/lib.sh"
# fontconfig (under cairo) keeps caches until exit: not ours, see tests/lsan.supp.
export LSAN_OPTIONS="suppressions=$WS_SRC/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

run "$WS" model --profile "$WS_SRC/examples/paper/sim12-sfu-fma.json" --gpu c2050 --model roofline --charts "$TMP/probe"
if grep -q "needs cairo" <<<"$ERR"; then
  echo "skipped: this warpsight was built without cairo"
  exit 77
fi

check_chart() { # FILE-STEM "label" ...
  local stem=$1
  shift
  local png="$stem.png" svg="$stem.svg"
  [ -f "$png" ] || { fail "$png missing"; return; }
  [ -f "$svg" ] || { fail "$svg missing"; return; }
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$png: not a PNG"
  [ "$(stat -c %s "$png")" -gt 10000 ] || fail "$png: only $(stat -c %s "$png") bytes"
  for label in "$@"; do grep -qF -- "$label" "$svg" || fail "$svg lacks '$label'"; done
}

run "$WS" model --profile "$WS_SRC/examples/paper/sim12-sfu-fma.json" --gpu c2050 --model all --charts "$TMP/paper"
expect_rc 0 "paper example charts"
check_chart "$TMP/paper/sfu_fma_ubench-gpuperf" "GPUPerf benefit chart: compute bound" \
  "memory cost T_mem' = T_mem - T_overlap (cycles)" "computation cost T_comp (cycles)" "B_serial" "T_fp"
check_chart "$TMP/paper/sfu_fma_ubench-roofline" "Roofline: compute-bound" \
  "arithmetic intensity (FLOP/byte of DRAM traffic)" "attainable performance (GFLOP/s)"

C="$WS_SRC/tests/corpus"
run "$WS" predict "$C/ptx/sm_75/matmul_tiled.ptx" --launch "$C/launch/matmul_tiled.json" --gpu c2075 --charts "$TMP/corpus"
expect_rc 0 "profiled corpus kernel charts"
check_chart "$TMP/corpus/matmul_tiled-gpuperf" "GPUPerf benefit chart" "memory cost T_mem'"
check_chart "$TMP/corpus/matmul_tiled-transit" "Transit: " "k: threads in the memory system (per SM)" \
  "memory-system throughput (GB/s per SM)" "x = n - k: threads in the computation system"
check_chart "$TMP/corpus/matmul_tiled-roofline" "Roofline: " "arithmetic intensity (FLOP/byte of DRAM traffic)"
finish
