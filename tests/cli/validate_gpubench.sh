# validate_gpubench.sh — the public-microbenchmark check set
# (data/validation/gpubench, docs/validation.md, "Public microbenchmarks").
#
# 1. The committed gpubench.csv is what scripts/gpubench_set.py writes from
#    the transcribed published.csv.
# 2. Times by hand (bytes as the benchmarks count them / the printed GB/s):
#    H100 PCIe triad, block 1024, 1832 GB/s (cuda-stream/h100_pcie.txt):
#      3 streams x (2^27 + 2) doubles x 8 B = 3,221,225,520 B
#      / 1832e9 B/s = 1.758311e-3 s
#    H200 l2_sum, data set 4,881,920 kB, 3888.2 GB/s (gpu-l2-cache/h200.txt):
#      512 KiB x 100,000 blocks = 52,428,800,000 B / 3888.2e9 = 1.348408e-2 s
# 3. The profile counts the bytes the benchmark counts: roofline's time for
#    the triad row is its DRAM bytes / the data sheet's 2,039 GB/s, i.e.
#    3,221,225,520 / 2039e9 = 1.579807e-3 s when every byte is counted once.
# 4. warpsight's prediction for that full-occupancy, DRAM-sized row lies
#    within 10 % of the measurement (the protocol's threshold of a clear error).
# 5. Every row runs: without the rows' register counts the l2_sum rows
#    failed (the PTX's ~200 declared registers leave no 1024-thread block).
# 6. Volta's dram_efficiency is its own (src/gpu/derive.c, from the V100
#    rows), shown with its source, and the V100 PCIe's full-occupancy
#    grid-stride triad (1280 blocks of 128 threads, 829.1 GB/s:
#      3 x 10 x 2^24 doubles x 8 B = 4,026,531,840 B / 829.1e9 = 4.856509e-3 s)
#    lies within 10 % of the measurement (Turing's borrowed 0.618: +53 %).
source "$WS_SRC/tests/cli/lib.sh"
need_python3
SET="$WS_SRC/data/validation/gpubench"
mkdir -p "$TMP/gen"
cp "$SET/published.csv" "$TMP/gen/"
python3 "$WS_SRC/scripts/gpubench_set.py" "$TMP/gen" >/dev/null || fail "gpubench_set.py failed"
cmp -s "$TMP/gen/gpubench.csv" "$SET/gpubench.csv" || fail "gpubench.csv differs from what scripts/gpubench_set.py writes"
for f in "$TMP"/gen/l/*.json; do
  cmp -s "$f" "$SET/l/$(basename "$f")" || fail "l/$(basename "$f") differs from the generator's"
done

mkdir -p "$TMP/set"
cp -r "$SET/k" "$SET/l" "$TMP/set/"
{ head -1 "$SET/gpubench.csv"
  grep -E 'stream_triad-1024\.json,h100-pcie|l2_sum-9535x32\.json,h200|l2_sum-16x32\.json,a100|gs_triad-1280x128\.json,v100-pcie' "$SET/gpubench.csv"
} > "$TMP/set/few.csv"
[ "$(wc -l < "$TMP/set/few.csv")" -eq 5 ] || fail "expected 4 rows, got: $(cat "$TMP/set/few.csv")"
run "$WS" validate "$TMP/set/few.csv" --model warpsight,roofline --no-cache --report "$TMP/r"
expect_rc 0 "validate"
expect_out "4 rows, 0 failed"
python3 - "$TMP/r/rows.csv" <<'PY' || FAILED=1
import csv, sys
rows = {(r["kernel"], r["gpu"]): r for r in csv.DictReader(open(sys.argv[1]))}
bad = []
def near(what, got, want, rel):
    if abs(got - want) > rel * want:
        bad.append("%s: %.7g, expected %.7g (within %g %%)" % (what, got, want, 100 * rel))
t = rows[("stream_triad", "h100-pcie")]
near("triad measured", float(t["measured_s"]), 3221225520 / 1832e9, 1e-6)
near("triad roofline", float(t["predicted_s_roofline"]), 3221225520 / 2039e9, 1e-3)
near("triad warpsight", float(t["predicted_s_warpsight"]), 3221225520 / 1832e9, 0.10)
v = rows[("gs_triad", "v100-pcie")]
near("v100 triad measured", float(v["measured_s"]), 4026531840 / 829.1e9, 1e-6)
near("v100 triad warpsight", float(v["predicted_s_warpsight"]), 4026531840 / 829.1e9, 0.10)
near("h200 l2_sum measured", float(rows[("l2_sum", "h200")]["measured_s"]), 52428800000 / 3888.2e9, 1e-6)
for r in rows.values():
    if r["status"] != "ok":
        bad.append("%s on %s: %s %s" % (r["kernel"], r["gpu"], r["status"], r["reason"]))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
run "$WS" gpu v100-pcie
expect_rc 0 "gpu v100-pcie"
expect_out "dram_efficiency          0.9773372166 [derived] the architecture's constant: the Volta constant, from the gpu-benches cuda-stream rows of a Tesla V100 PCIe"
finish
