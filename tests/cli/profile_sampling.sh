#!/bin/bash
# profile_sampling.sh — --sample-blocks 64 on vecadd (391 blocks, one
# partial): the profile says what was sampled, its per-warp figures are
# within 1 % of the full profile's (the blocks are alike; only the last,
# partial block differs and it is not among floor(i x 391 / 64)), DRAM
# totals are scaled up to the whole launch, and --functional-rest (the other
# blocks run unprofiled) gives the same figures; --charts writes charts.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
E="$WS_SRC/examples/kernels"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" -o "$TMP/full.json"
expect_rc 0 "full"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --sample-blocks 64 -o "$TMP/s.json"
expect_rc 0 "sampled"
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --sample-blocks 64 --functional-rest -o "$TMP/sf.json"
expect_rc 0 "sampled, functional rest"
run python3 - "$TMP" <<'PY'
import json, sys
d = sys.argv[1]
full, s, sf = (json.load(open(f"{d}/{n}.json")) for n in ("full", "s", "sf"))
bad = []
sam = s["sampling"]
if (sam["profiled_blocks"], sam["total_blocks"], sam["rest"]) != (64, 391, "skipped"):
    bad.append(f"sampling section: {sam}")
if sf["sampling"]["rest"] != "run without profiling":
    bad.append(f"functional rest: {sf['sampling']}")
for sec in ("per_warp", "memory"):
    for k, v in full[sec].items():
        if k.startswith("dram_") or k.endswith("_ratio"):
            continue
        if abs(s[sec][k] - v) > 0.01 * abs(v):
            bad.append(f"{sec}.{k}: sampled {s[sec][k]}, full {v}")
        if s[sec][k] != sf[sec][k]:
            bad.append(f"{sec}.{k}: {s[sec][k]} skipped vs {sf[sec][k]} functional rest")
# vecadd reads 2 x 100000 floats once: 800000 bytes from DRAM in full; the
# sample scales 64 blocks' traffic by 391/64 (within 1 %).
for k in ("dram_read_bytes", "dram_write_bytes"):
    if abs(s["memory"][k] - full["memory"][k]) > 0.01 * full["memory"][k]:
        bad.append(f"{k}: sampled {s['memory'][k]}, full {full['memory'][k]}")
if full["memory"]["dram_read_bytes"] != 800000:
    bad.append(f"full dram_read_bytes {full['memory']['dram_read_bytes']}, expected 800000")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "sampled vs full: $OUT"
mkdir -p "$TMP/charts"
# fontconfig (under cairo) keeps caches until exit: not ours, see tests/lsan.supp.
LSAN_OPTIONS="suppressions=$WS_SRC/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
  run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --charts "$TMP/charts"
expect_rc 0 "--charts"
if grep -q "chart:" <<<"$OUT"; then
  [ -s "$TMP/charts/vecadd-roofline.svg" ] || fail "--charts: no roofline SVG"
fi
finish
