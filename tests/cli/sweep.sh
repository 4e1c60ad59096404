#!/usr/bin/env bash
# sweep.sh — `warpsight sweep` (issue 13 point 5, docs/sweep.md) on the
# bundled vecadd for block sizes 32..1024 (powers of two) on three GPUs.
#
# The spec states the rule: "sweep": {"total_threads": 100000}, so block.x
# = B runs ceil(100000 / B) blocks: 3125, 1563, 782, 391, 196, 98.
# Occupancy by hand, resident blocks per SM = min(the CC's blocks per SM,
# floor(its warps per SM / warps per block), ceil(blocks / SMs)) -- vecadd's
# 12 registers (ptxas) or none (no ptxas) and no shared memory never limit
# on these GPUs; SMs, warps and blocks per SM from the CUDA C Programming
# Guide's table for CC 8.0, 3.0 and 7.5:
#   a100   (108 SMs, 64 warps, 32 blocks): 32: min(32, 64, ceil(3125/108) = 29)
#          = 29 blocks, 29 warps; 64: min(32, 32, 15) = 15, 30 warps; 128:
#          min(32, 16, 8) = 8; 256: min(32, 8, 4) = 4; 512: min(32, 4, 2) = 2;
#          1024: min(32, 2, 1) = 1 -- 32 warps from 128 on (the grid limits)
#   gtx680 (8 SMs, 64 warps, 16 blocks): 16, 16, 16, 8, 4, 2 blocks;
#          16, 32, 64, 64, 64, 64 warps
#   t4     (40 SMs, 32 warps, 16 blocks): 16, 16, 8, 4, 2, 1 blocks; 16, 32,
#          32, 32, 32, 32 warps
source "$WS_SRC/tests/cli/lib.sh"
K="$WS_SRC/examples/kernels"
python3 - "$K/vecadd.launch.json" "$TMP/spec.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["sweep"] = {"total_threads": 100000}
json.dump(s, open(sys.argv[2], "w"))
PY

run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 32..1024 --pow2 \
    --gpu a100,gtx680,t4 --model warpsight,hong-kim --out "$TMP/charts" --json
expect_rc 0 "json sweep"
python3 - "$OUT" <<'PY' || fail "sweep JSON against the hand-computed occupancy"
import json, sys
d = json.loads(sys.argv[1])
assert d["schema"] == "warpsight-sweep/1" and d["total_threads"] == 100000, d["schema"]
assert d["gpus"] == ["a100", "gtx680", "t4"] and d["models"] == ["warpsight", "hong-kim"]
grid = {32: 3125, 64: 1563, 128: 782, 256: 391, 512: 196, 1024: 98}
blocks = {"a100": [29, 15, 8, 4, 2, 1], "gtx680": [16, 16, 16, 8, 4, 2], "t4": [16, 16, 8, 4, 2, 1]}
maxw = {"a100": 64, "gtx680": 64, "t4": 32}
rows = d["rows"]
assert len(rows) == 18, len(rows)
for r in rows:
    b, g = r["threads_per_block"], r["gpu"]
    i = [32, 64, 128, 256, 512, 1024].index(b)
    assert r["block"] == [b, 1, 1] and r["grid"] == [grid[b], 1, 1], r
    want = blocks[g][i]
    assert r["active_blocks_per_sm"] == want, (b, g, r["active_blocks_per_sm"], want)
    assert r["active_warps_per_sm"] == want * b // 32, (b, g, r)
    assert abs(r["occupancy"] - want * b / 32 / maxw[g]) < 1e-12, (b, g, r)
    for m in ("warpsight", "hong-kim"):
        assert r["time_ms"][m] is not None and r["time_ms"][m] > 0, (b, g, m)
assert len(d["charts"]) == 2
PY
python3 - "$TMP/charts/vecadd-sweep.png" "$TMP/charts/vecadd-sweep.svg" <<'PY' || fail "chart files"
import sys, xml.etree.ElementTree as ET
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature"
root = ET.parse(sys.argv[2]).getroot()
assert root.tag.endswith("svg"), root.tag
texts = "".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
assert "threads per block" in texts and "occupancy (%)" in texts and "a100" in texts and "hong-kim" in texts, texts
PY

# text: a line per (block size, GPU)
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 64..128 --step 64 --gpu t4
expect_rc 0 "text sweep"
expect_out "100000 threads in x (the spec's sweep.total_threads); grid.x = ceil(100000 / block.x)"
[ "$(grep -cE '^ +(64|128) +[0-9]+  t4 ' <<<"$OUT")" -eq 2 ] || fail "text: two rows expected; got: $OUT"
expect_out "warpsight ms"
# without sweep.total_threads the spec's grid.x x block.x = 391 x 256 is kept
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$K/vecadd.launch.json" --block 512..512 --gpu t4
expect_rc 0 "default rule"
expect_out "100096 threads in x (grid.x x block.x of the spec)"
grep -qE '^ +512 +196  t4 ' <<<"$OUT" || fail "default rule: 196 blocks of 512; got: $OUT"

# bad ranges and specs
for bad in "0..64" "64..32" "32..2048" "abc" "32.." "32..64x"; do
  run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block "$bad"
  expect_rc 2 "--block $bad"
  expect_err "--block" "--block $bad"
done
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 32..64 --step 0
expect_rc 2 "--step 0"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 32..64 --step 32 --pow2
expect_rc 2 "--step with --pow2"
expect_err "exclude each other"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 33..63 --pow2
expect_rc 2 "no power of two"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json"
expect_rc 2 "no --block"
expect_err "--block A..B is required"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 32..64 --model nosuch
expect_rc 2 "unknown model"
sed 's/"total_threads"/"total_thread"/' "$TMP/spec.json" >"$TMP/typo.json"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/typo.json" --block 32..64
expect_rc 2 "sweep key typo"
expect_err "sweep.total_thread"
# --out naming a file: said once, as for model --charts (not a cairo error per chart)
touch "$TMP/afile"
run "$WS" sweep "$K/vecadd.sm_80.ptx" --launch "$TMP/spec.json" --block 64..64 --gpu t4 --out "$TMP/afile"
expect_rc 2 "--out FILE"
expect_err "afile: cannot create: it exists and is not a folder" "--out FILE"
run "$WS" sweep --help
expect_rc 0 "help"
expect_out "total_threads"
expect_out "--pow2"
finish
