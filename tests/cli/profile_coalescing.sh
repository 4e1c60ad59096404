#!/bin/bash
# profile_coalescing.sh — Kothapalli et al.'s coalescing experiment run end to
# end (tests/corpus/coalesce.cu: thread i reads a[i*STRIDE + OFFSET], 4-byte
# floats; the emulator aligns buffers to 256 bytes).  n = 5120 = 40 blocks of
# 128, so every warp is full; warp w starts at word 32·S·w, a multiple of
# every segment, line and sector, so all warps need warp 0's transactions.
# The load of lane l touches word O + S·l.  By hand, per rule:
#   CC 8.0 (A100, 32-byte sectors = 8 words): distinct floor((O+S·l)/8)
#     S=1: 4 (O=0), 5 (O=1); S=2: 8; S=4: 16; S>=8: 32
#   CC 2.0 (C2050, loads via L1, 128-byte lines = 32 words): floor((O+S·l)/32)
#     S=1: 1 / 2; S=2: 2; S=4: 4; S=8: 8; S=16: 16; S=32: 32
#   CC 1.3 (GTX 280): per half-warp, distinct 128-byte segments
#     S=1, O=0: 1 + 1 = 2; O=1: half 1 reads words 17..32, across a segment
#     boundary: 1 + 2 = 3; S=2: 2; S=4: 2 + 2 = 4; S=8: 8; S=16: 16; S=32: 32
#   CC 1.1 (8800 GT): a half-warp coalesces only when lane k reads word k of
#     a 64-byte segment: S=1, O=0: 2; anything else: 16 per half-warp = 32
source "$WS_SRC/tests/cli/lib.sh"
need_python3
C="$WS_SRC/tests/corpus"
declare -A WANT=(
  [a100.1.0]=4 [a100.1.1]=5 [a100.2.0]=8 [a100.2.1]=8 [a100.4.0]=16 [a100.4.1]=16
  [a100.8.0]=32 [a100.8.1]=32 [a100.16.0]=32 [a100.16.1]=32 [a100.32.0]=32 [a100.32.1]=32
  [c2050.1.0]=1 [c2050.1.1]=2 [c2050.2.0]=2 [c2050.2.1]=2 [c2050.4.0]=4 [c2050.4.1]=4
  [c2050.8.0]=8 [c2050.8.1]=8 [c2050.16.0]=16 [c2050.16.1]=16 [c2050.32.0]=32 [c2050.32.1]=32
  [gtx280.1.0]=2 [gtx280.1.1]=3 [gtx280.2.0]=2 [gtx280.2.1]=2 [gtx280.4.0]=4 [gtx280.4.1]=4
  [gtx280.8.0]=8 [gtx280.8.1]=8 [gtx280.16.0]=16 [gtx280.16.1]=16 [gtx280.32.0]=32 [gtx280.32.1]=32
  [8800gt.1.0]=2 [8800gt.1.1]=32 [8800gt.2.0]=32 [8800gt.2.1]=32 [8800gt.4.0]=32 [8800gt.4.1]=32
  [8800gt.8.0]=32 [8800gt.8.1]=32 [8800gt.16.0]=32 [8800gt.16.1]=32 [8800gt.32.0]=32 [8800gt.32.1]=32
)
for s in 1 2 4 8 16 32; do
  for o in 0 1; do
    count=$(( (5120 - 1) * s + o + 1 ))
    cat >"$TMP/spec.json" <<JSON
{"kernel": "coalesce", "grid": [40, 1, 1], "block": [128, 1, 1],
 "args": [{"buffer": "a", "type": "f32", "count": $count, "init": "zero"},
          {"buffer": "out", "type": "f32", "count": 5120, "init": "zero"},
          {"scalar": "n", "type": "s32", "value": 5120},
          {"scalar": "stride", "type": "s32", "value": $s},
          {"scalar": "offset", "type": "s32", "value": $o}]}
JSON
    for g in a100 c2050 gtx280 8800gt; do
      run "$WS" profile "$C/ptx/sm_80/coalesce.ptx" --launch "$TMP/spec.json" --gpu $g -j 2 -o "$TMP/p.json"
      expect_rc 0 "$g S=$s O=$o"
      got=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
print(*[i["avg_transactions"] for i in p["global_memory_insts"]["insts"] if i["class"] == "ld.global"])
' "$TMP/p.json")
      [ "$got" = "${WANT[$g.$s.$o]}" ] || fail "$g STRIDE $s OFFSET $o: load needs $got transactions, expected ${WANT[$g.$s.$o]}"
    done
  done
done
finish
