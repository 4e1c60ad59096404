#!/bin/bash
# profile_cache.sh — cache figures of two hand-written kernels
# (tests/profile/cache.ptx) run end to end, against hand-derived values and
# an independent reference.
#
# twice: out[i] = a[i] + a[i] with two separate loads, 40 blocks of 256,
# n = 10240, 4-byte floats.  Per warp: each load touches 4 sectors, the
# store 4.
#   A100 (L1 caches global loads): the first load misses L1 and L2 (4 DRAM
#     sector reads), the second hits L1: L1 hit ratio 4/8 = 0.5.  L2 sees the
#     4 load misses and the 4 store sectors (write-allocate, first touch):
#     0 hits.  miss ratio = DRAM sectors / load sectors = 4/8 = 0.5.  DRAM:
#     10240 x 4 = 40960 bytes read, 40960 written back (dirty at the end).
#   K20 (L1 does not cache global loads): L2 gets 4 + 4 load sectors (the
#     second 4 hit) and 4 store sectors: 4/12 = 1/3; miss ratio 0.5; DRAM
#     reads 40960.
#   GTX 280 (no caches): every load is DRAM traffic, one 64-byte transaction
#     per half-warp: 2 x 10240 x 4 = 81920 bytes read; hit ratios 0, miss 1.
#
# gather: out[i] = a[idx[i]], idx random in [0, 1024) (a 4 KB table, far
# below any L1 or L2), A100.  With 40 blocks each block has an SM to itself
# (block b on SM b mod min(108, 40)), so with nothing ever evicted an L1
# access hits exactly when its sector was touched earlier in the same block,
# and an L2 access (an L1 miss, or a store) hits when the sector was touched
# by an earlier block (the replay runs blocks in linear order).  The python
# below counts that from the indices, with sets — no cache model.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
P="$WS_SRC/tests/profile"
check() { memory_field_is "$TMP/$1.json" "$2" "$3" "twice on $1"; } # gpu field expected
for g in a100 k20 gtx280; do
  run "$WS" profile "$P/cache.ptx" --launch "$P/twice.json" --gpu $g -j 3 -o "$TMP/$g.json"
  expect_rc 0 "twice on $g"
done
check a100 l1_hit_ratio 0.5; check a100 l2_hit_ratio 0; check a100 miss_ratio 0.5
check a100 dram_read_bytes 40960; check a100 dram_write_bytes 40960
check k20 l1_hit_ratio 0; check k20 l2_hit_ratio 0.3333333333333333; check k20 miss_ratio 0.5
check k20 dram_read_bytes 40960
check gtx280 dram_read_bytes 81920; check gtx280 miss_ratio 1; check gtx280 l2_hit_ratio 0

python3 - "$TMP" <<'PY'
import json, random, struct, sys
d = sys.argv[1]
rng = random.Random(7)
n = 10240
idx = [rng.randrange(1024) for _ in range(n)]
open(f"{d}/idx.bin", "wb").write(struct.pack(f"<{n}I", *idx))
json.dump({"kernel": "gather", "grid": [40, 1, 1], "block": [256, 1, 1],
           "args": [{"buffer": "idx", "type": "u32", "count": n, "init": {"file": "idx.bin"}},
                    {"buffer": "a", "type": "f32", "count": 1024, "init": "zero"},
                    {"buffer": "out", "type": "f32", "count": n, "init": "zero"}]
           + [{"scalar": "n", "type": "s32", "value": n}]}, open(f"{d}/gather.json", "w"))
# Reference: sectors are (buffer, byte offset // 32); buffers never share one.
l1_acc = l1_hit = l2_acc = l2_hit = 0
seen_global = set()
for b in range(40):
    seen_sm = set()
    for w in range(8):
        lanes = range(b * 256 + w * 32, b * 256 + w * 32 + 32)
        for req in ({("idx", i * 4 // 32) for i in lanes}, {("a", idx[i] * 4 // 32) for i in lanes}):
            for s in req:                      # loads: L1, then L2 on a miss
                l1_acc += 1
                if s in seen_sm:
                    l1_hit += 1
                    continue
                seen_sm.add(s)
                l2_acc += 1
                if s in seen_global:
                    l2_hit += 1
                seen_global.add(s)
        for s in {("out", i * 4 // 32) for i in lanes}:   # stores: L2 only, first touch
            l2_acc += 1
json.dump({"l1_hit_ratio": l1_hit / l1_acc, "l2_hit_ratio": l2_hit / l2_acc,
           "dram_read_bytes": 32 * len(seen_global)}, open(f"{d}/want.json", "w"))
PY
run "$WS" profile "$P/cache.ptx" --launch "$TMP/gather.json" --gpu a100 -j 3 -o "$TMP/gather.out.json"
expect_rc 0 "gather"
run python3 -c '
import json, sys
got = json.load(open(sys.argv[1]))["memory"]; want = json.load(open(sys.argv[2]))
bad = [f"{k}: {got[k]} != {v}" for k, v in want.items() if abs(got[k] - v) > 1e-12]
print("; ".join(bad)); sys.exit(1 if bad else 0)' "$TMP/gather.out.json" "$TMP/want.json"
expect_rc 0 "gather against the set reference: $OUT"
finish
