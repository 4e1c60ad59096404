#!/bin/bash
# pascal_boards.sh — the Pascal boards of issue 20 (data/gpus/p100-pcie.json,
# gtx1080.json), against hand arithmetic from their data sheets and the
# Pascal Tuning Guide (docs/gpu-schema.md, "Pascal and the reference table's
# other boards").
#
# 1. GP100 caches global loads in L1, GP104 does not.  twice
#    (tests/profile/cache.ptx): out[i] = a[i] + a[i], two separate loads,
#    40 blocks of 256, n = 10240 floats.  Per warp each load touches 4
#    sectors, the store 4; 40 blocks on 56 (P100) or 20 (GTX 1080) SMs.
#    P100 (24 KB L1 caching global loads): the first load misses L1 and L2,
#      the second hits L1 (1 KB per block per load, far below 24 KB):
#      L1 hit ratio 4/8 = 0.5; L2 sees 4 load misses and 4 store sectors
#      (first touch): 0 hits.
#    GTX 1080 (global loads bypass L1): L2 gets 4 + 4 load sectors (the
#      second 4 hit) and 4 store sectors: L2 hit ratio 4/12 = 1/3, L1 0.
#    Both read 10240 x 4 = 40960 bytes from DRAM.
# 2. A DRAM-bound stream.  vecadd, n = 2^22 floats: 12 n = 50331648 bytes.
#    The data-sheet floors: 50331648 / 732.2 GB/s = 0.06874 ms (P100 PCIe)
#    and / 320 GB/s = 0.15729 ms (GTX 1080).  The warpsight model's time
#    must lie within [1, 2] x each floor (the audit's band,
#    scripts/board_audit.py), and the GTX 1080 / P100 time ratio within
#    0.8-1.25 x the bandwidths' ratio 732.2 / 320 = 2.288 (both take
#    Maxwell's constants: docs/gpu-parameters.md).
source "$WS_SRC/tests/cli/lib.sh"
need_python3
P="$WS_SRC/tests/profile"
check() { memory_field_is "$TMP/$1.json" "$2" "$3" "twice on $1"; } # gpu field expected
for g in p100-pcie gtx1080; do
  run "$WS" profile "$P/cache.ptx" --launch "$P/twice.json" --gpu $g -j 2 -o "$TMP/$g.json"
  expect_rc 0 "twice on $g"
done
check p100-pcie l1_hit_ratio 0.5; check p100-pcie l2_hit_ratio 0; check p100-pcie dram_read_bytes 40960
check gtx1080 l1_hit_ratio 0; check gtx1080 l2_hit_ratio 0.3333333333333333
check gtx1080 dram_read_bytes 40960

n=4194304
cat >"$TMP/vecadd.json" <<JSON
{"kernel": "vecadd", "grid": [$((n / 256))], "block": [256],
 "args": [{"buffer": "a", "type": "f32", "count": $n, "init": {"random": {"seed": 1, "min": 0, "max": 1}}},
          {"buffer": "b", "type": "f32", "count": $n, "init": {"random": {"seed": 2, "min": 0, "max": 1}}},
          {"buffer": "c", "type": "f32", "count": $n, "init": "zero"},
          {"scalar": "n", "type": "s32", "value": $n}]}
JSON
run "$WS" predict "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" --launch "$TMP/vecadd.json" \
  --gpu p100-pcie,gtx1080 --model warpsight --json --sample-blocks 8 -j 2
expect_rc 0 "vecadd on p100-pcie,gtx1080"
echo "$OUT" >"$TMP/vecadd.out.json"
python3 - "$TMP/vecadd.out.json" <<'PY' || fail "vecadd: see above"
import json, sys
doc = json.load(open(sys.argv[1]))
t = {}
for g in doc["gpus"]:
    r = [x for x in g["results"] if x["model"] == "warpsight"][0]
    t[g["gpu"]] = r["time_ms"]
floor = {"p100-pcie": 50331648 / 732.2e9 * 1e3, "gtx1080": 50331648 / 320e9 * 1e3}
bad = 0
for gpu, f in floor.items():
    r = t[gpu] / f
    print(f"{gpu}: {t[gpu]:.5f} ms, {r:.3f} x the floor {f:.5f} ms")
    if not 1.0 <= r <= 2.0:
        print(f"FAIL: {gpu} vecadd at {r:.3f} x its DRAM floor, outside [1, 2]")
        bad = 1
q = (t["gtx1080"] / t["p100-pcie"]) / (732.2 / 320)
print(f"GTX 1080 / P100 time over the bandwidths' ratio: {q:.3f}")
if not 0.8 <= q <= 1.25:
    print(f"FAIL: GTX 1080 / P100 vecadd time ratio {q:.3f} x the bandwidths' ratio, outside [0.8, 1.25]")
    bad = 1
sys.exit(bad)
PY
finish
