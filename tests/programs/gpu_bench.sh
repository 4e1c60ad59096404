#!/usr/bin/env bash
# gpu_bench.sh — bench/gpu/run.sh --tiny under `warpsight exec` (no GPU):
# the harness builds with nvcc (-cudart shared), its micro-benchmarks and
# every kernel suite run on the emulator, each launch's results are checked
# by the harness against its C reference, and the data set it writes is
# checked here:
#   * every launch of every suite checked and passed, no FAIL line;
#   * measured.csv has the generic format's columns, cold and warm rows, and
#     files that exist; `warpsight validate` reads it and predicts its rows;
#   * the launch specs describe the inputs the harness timed: `warpsight run`
#     of a spec gives, byte for byte, the outputs the harness's own launch
#     gave (--save-outputs), for kernels covering every initialiser and type;
#   * the generated GPU file loads; device.json holds the report's fields.
# The build is kept in $WS_BUILD/bench-gpu (about a minute of nvcc on 2 cores
# the first time).  Skipped (77) without nvcc.
. "$WS_SRC/tests/cli/lib.sh"
need_nvcc bench/gpu
out=$TMP/set
run bash "$WS_SRC/bench/gpu/run.sh" "$out" --tiny --arch sm_80 --nvcc "$NVCC" --cudart shared \
  --werror --build "$WS_BUILD/bench-gpu" --flush-bytes 65536 --save-outputs -j 2 \
  --launcher "bash $WS_SRC/tests/programs/wsexec.sh --model warpsight --"
expect_no_crash "run.sh --tiny"
expect_rc 0 "run.sh --tiny"
grep -q "FAIL" <<<"$OUT" && fail "run.sh --tiny: a check failed: $(grep FAIL <<<"$OUT")"
expect_out "micro-benchmarks: " "the micro-benchmarks ran"
expect_out "0 checks failed" "the micro-benchmarks' checks"
# every launch of a suite checked: "== S: N launches on ..." then
# "== S: R rows, N launches checked against the C reference, 0 failed"
for s in validation pairs; do
  n=$(sed -n "s/^== $s: \([0-9]*\) launches on .*/\1/p" <<<"$OUT")
  [ -n "$n" ] && [ "$n" -gt 0 ] || fail "$s: no launches"
  expect_out "launches checked" "$s summary"
  grep -q "^== $s: [0-9]* rows, $n launches checked against the C reference, 0 failed" <<<"$OUT" ||
    fail "$s: not every one of its $n launches was checked and passed"
done

csv=$out/measured.csv
[ -f "$csv" ] || fail "no measured.csv"
[ "$(head -1 "$csv")" = "kernel_file,kernel,launch,gpu,seconds,size,registers,shared_bytes,l2,seconds_min,seconds_max,reps,device,driver,date" ] ||
  fail "measured.csv header: $(head -1 "$csv")"
rows=$(($(wc -l <"$csv") - 1))
[ "$rows" -ge 100 ] || fail "measured.csv has $rows rows"
[ "$(csv_col "$csv" l2 | sort -u | tr '\n' ' ')" = "cold warm " ] || fail "the l2 column is not cold and warm"
for col in kernel_file launch; do
  csv_col "$csv" $col | sort -u | while read -r f; do
    [ -f "$out/$f" ] || echo "missing $f"
  done >"$TMP/missing"
  [ -s "$TMP/missing" ] && fail "$col: $(head -3 "$TMP/missing")"
done
gpu=$(csv_col "$csv" gpu | sort -u)
[ -f "$out/$gpu" ] || fail "the gpu column '$gpu' is not the generated GPU file"

# validate reads the data set as it is; two kernels' rows predicted
want=$(awk -F, '$2 == "vectorAdd" || $2 == "histogram"' "$csv" | wc -l)
run "$WS" validate "$csv" --models roofline --sample-blocks 0 --no-cache --kernels vectorAdd,histogram
expect_rc 0 "validate measured.csv"
expect_out "$want rows, 0 failed" "validate measured.csv"

# The specs reproduce the timed inputs: `warpsight run` of the spec against
# the harness's own output buffers (random f32, iota f32, random s32 with
# iota s32, random u32 and a constant, random f64, dynamic shared memory).
for k in vectorAdd/vectorAdd.n3000-b64 vecadd/vecadd.n3000-b256 subSeqMax/subSeqMax.n16384-g2 \
  pairs/histogram.n5000-g3-uniform pairs/histogram.n5000-g3-skewed pairs/spmv_scalar.rows96-b64 \
  pairs/fp64_poly.n2048-b256 matMul_gpu_sharedmem/matMul_gpu_sharedmem.n64-b16x16; do
  src=${k%%/*} name=${k#*/}
  mkdir -p "$TMP/run-$src-$name"
  run "$WS" run "$out/kernels/$src.sm_80.ptx" --launch "$out/launches/$k.json" --out "$TMP/run-$src-$name"
  expect_rc 0 "warpsight run $k"
  n=0
  for f in "$out/outputs/$k"/*.bin; do
    [ -f "$f" ] || { fail "$k: no saved outputs"; break; }
    cmp -s "$f" "$TMP/run-$src-$name/$(basename "$f")" || fail "$k: $(basename "$f") differs from warpsight run of its spec"
    n=$((n + 1))
  done
  [ "$n" -ge 1 ] || fail "$k: nothing compared"
done

# The GPU file loads, with the device's facts.
run "$WS" gpu "$out/$gpu"
expect_rc 0 "warpsight gpu on the generated file"
expect_out "108" "the generated file's SMs (the a100 that exec answers with)"
if command -v python3 >/dev/null 2>&1; then
  python3 - "$out/device.json" <<'PY' || fail "device.json"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["measured"]
need = [d["device"]["name"], d["device"]["compute_capability"], d["versions"]["runtime"],
        m["sm_clock"]["ghz"], m["dram"]["read_gbs"], m["dram"]["write_gbs"], m["dram"]["copy_gbs"],
        m["l2_read_gbs"], m["l1_read_gbs"], m["shared_read_gbs"], m["latency"]["l1"]["cycles"],
        m["latency"]["l2"]["cycles"], m["latency"]["dram"]["cycles"], m["launch"]["back_to_back_s"]]
assert d["schema"] == "warpsight-gpu-bench/1" and d["checks_failed"] == 0
assert all(x is not None for x in need), need
assert len(m["latency_curve"]) >= 2 and len(m["l2_read_curve"]) >= 2
PY
fi
finish
