# fit_boards.sh — fitting one architecture's constants over several boards
# (docs/validation.md, "Calibration"; issue 20): scripts/modern_dev_l2.py's
# l2 column, `calibrate --gpu a,b` and `--fix`, on a small data set written
# here (the modern development set itself is not part of the repository).
source "$WS_SRC/tests/cli/lib.sh"
need_python3

# 1. The l2 column comes from each row's meta.csv note: NVBench's flushed L2
#    is cold, Kernel Tuner's back-to-back runs warm; a note that says neither
#    stops the script; the source folder is not written.
mkdir -p "$TMP/src/k" "$TMP/src/l"
cp "$WS_SRC/examples/validation/ptx/vectorAdd.sm_75.ptx" "$TMP/src/k/"
for n in 65536 131072 262144 524288; do
  cat >"$TMP/src/l/va-$n.json" <<JSON
{"kernel": "vectorAdd", "grid": [$((n / 256)), 1, 1], "block": [256, 1, 1], "dynamic_shared_bytes": 0,
 "args": [{"buffer": "a", "type": "f32", "count": $n, "init": "zero"},
          {"buffer": "b", "type": "f32", "count": $n, "init": "zero"},
          {"buffer": "c", "type": "f32", "count": $n, "init": "zero"},
          {"scalar": "n", "type": "s32", "value": $n}]}
JSON
done
# "measured": 12 bytes per element over 60 % of each board's DRAM bandwidth
# (RTX 2060 336 GB/s, RTX 2080 Ti 616 GB/s) plus 5 us: two Turing boards.
{
  echo "kernel_file,kernel,launch,gpu,seconds,size"
  for g in rtx2060:336 rtx2080ti:616; do
    for n in 65536 131072 262144 524288; do
      awk -v n=$n -v bw=${g#*:} -v g=${g%%:*} 'BEGIN { printf "k/vectorAdd.sm_75.ptx,vectorAdd,l/va-%d.json,%s,%.6e,%d\n", n, g, 12 * n / (0.6 * bw * 1e9) + 5e-6, n }'
    done
  done
} >"$TMP/src/data.csv"
{
  echo "line,source,kernel,gpu,family,benchmark,config,params,grid,block,measured_s,full_space_percentile,full_space_configs,full_space_best_s,note"
  for i in $(seq 2 9); do
    if [ $i -le 5 ]; then note="NVBench cold GPU time (L2 flushed), mean over samples"
    else note="Kernel Tuner mean of 10 back-to-back launches, CUDA events"; fi
    echo "$i,s,vectorAdd,g,f,b,,{},1x1x1,256x1x1,1,,,,\"$note\""
  done
} >"$TMP/src/meta.csv"
cp "$TMP/src/data.csv" "$TMP/data.before"
run python3 "$WS_SRC/scripts/modern_dev_l2.py" "$TMP/src" "$TMP/md"
expect_rc 0 "modern_dev_l2"
cmp -s "$TMP/src/data.csv" "$TMP/data.before" || fail "modern_dev_l2 wrote the source folder"
[ "$(head -1 "$TMP/md/data.csv")" = "kernel_file,kernel,launch,gpu,seconds,size,l2" ] ||
  fail "modern_dev_l2 header: $(head -1 "$TMP/md/data.csv")"
[ "$(cut -d, -f7 "$TMP/md/data.csv" | tail -n +2 | tr '\n' ' ')" = "cold cold cold cold warm warm warm warm " ] ||
  fail "modern_dev_l2 conditions: $(cut -d, -f7 "$TMP/md/data.csv" | tr '\n' ' ')"
[ -e "$TMP/md/k/vectorAdd.sm_75.ptx" ] || fail "modern_dev_l2: k/ not linked"
sed -i 's/NVBench cold GPU time (L2 flushed)/a note/' "$TMP/src/meta.csv"
run python3 "$WS_SRC/scripts/modern_dev_l2.py" "$TMP/src" "$TMP/md2"
expect_rc 1 "modern_dev_l2 without a condition"
expect_err "meta.csv line 2: no measurement condition" "modern_dev_l2 without a condition"

# 2. One fit over both boards: each row on its own board's facts.  The
#    launches are DRAM-bound with the constants' p-norm, so dram_efficiency
#    and launch_us carry them; the fit brings the train error down and
#    writes one file per board, and both files hold the same fitted values.
cd "$TMP"
FIX=issue_rate,lsu_rate,l2_bytes_per_slice,alu_latency_scale,mem_latency_scale,overlap_p
FIX=$FIX,block_cycles,divergence_penalty,partition_camping,atomic_cycles,atomic_lane_cycles
run "$WS" calibrate md/data.csv --allow-outside-data --gpu rtx2060,rtx2080ti --model warpsight \
  --sample-blocks 0 --no-cache --fix $FIX
expect_rc 0 "calibrate over two boards"
expect_out "calibrated warpsight on rtx2060,rtx2080ti: 4 training rows" "calibrate over two boards"
# only the two free parameters are listed, and the train error drops
[ "$(grep -c -- ' -> ' <<<"$OUT")" = 4 ] || fail "two parameters and two error lines expected: $OUT"
awk '$1 == "training" { b = $5; a = $7; sub(/%/, "", a); sub(/%/, "", b); exit !(a + 0 < b + 0) }' <<<"$OUT" ||
  fail "the train error did not drop: $OUT"
expect_out "wrote rtx2060-calibrated.json" "calibrate over two boards"
expect_out "wrote rtx2080ti-calibrated.json" "calibrate over two boards"
grep -q "l2_bytes_per_slice" <<<"$OUT" && fail "--fix l2_bytes_per_slice: it was fitted"
python3 - "$TMP/rtx2060-calibrated.json" "$TMP/rtx2080ti-calibrated.json" <<'PY' || fail "the boards' fitted values differ"
import json, sys
a, b = (json.load(open(f))["models"]["warpsight"] for f in sys.argv[1:])
keys = ["dram_efficiency", "launch_us"]
sys.exit(any(a[k]["value"] != b[k]["value"] for k in keys))
PY
run "$WS" calibrate md/data.csv --allow-outside-data --gpu rtx2060,rtx2080ti --model warpsight -o x.json
expect_rc 2 "-o with two boards"
expect_err "-o names one file" "-o with two boards"
run "$WS" calibrate md/data.csv --allow-outside-data --gpu rtx2060 --model warpsight \
  --sample-blocks 0 --no-cache --fix nope
expect_rc 2 "--fix unknown"
expect_err "'nope' is not a fitted parameter of warpsight" "--fix unknown"
# ... said before any row is profiled (on a large data set that took minutes)
grep -q "rows" <<<"$ERR" && fail "--fix unknown: rows were profiled first: $ERR"
finish
