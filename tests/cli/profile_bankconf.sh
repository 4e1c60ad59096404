#!/bin/bash
# profile_bankconf.sh — Kothapalli et al.'s bank-conflict experiment end to
# end (tests/corpus/bankconf.cu: lane t reads s[(t·BANK + k) mod 1024], k =
# 0..63).  For BANK <= 16, t·BANK + k < 1024, so a warp's 32 words are
# distinct unless BANK = 0 (one word, a broadcast).  Lanes t and u share a
# bank of B when (t - u)·BANK = 0 mod B, so each bank serves gcd(BANK, B)
# words: conflict degree gcd(BANK, 32) on the A100 (32 banks, whole warp)
# and gcd(BANK, 16) on the GTX 280 (16 banks, per half-warp); BANK 0: 1.
# (For BANK <= 16 the two degrees coincide; the GTX 280 takes a set of
# passes per half-warp, which tests/unit/test_profiler.c checks.)
source "$WS_SRC/tests/cli/lib.sh"
need_python3
C="$WS_SRC/tests/corpus"
gcd() { local a=$1 b=$2 t; while [ "$b" -ne 0 ]; do t=$((a % b)); a=$b; b=$t; done; echo "$a"; }
for bank in $(seq 0 16); do
  sed "s/\"bank\", \"type\": \"s32\", \"value\": [0-9]*/\"bank\", \"type\": \"s32\", \"value\": $bank/" \
    "$C/launch/bankconf.b2.json" >"$TMP/spec.json"
  for g in a100:32 gtx280:16; do
    gpu=${g%%:*}; nb=${g##*:}
    if [ "$bank" -eq 0 ]; then want=1; else want=$(gcd "$bank" "$nb"); fi
    run "$WS" profile "$C/ptx/sm_80/bankconf.ptx" --launch "$TMP/spec.json" --gpu "$gpu" -j 2 -o "$TMP/p.json"
    expect_rc 0 "$gpu BANK $bank"
    got=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
# nvcc unrolls the k loop: every ld.shared of the loop has the same degree.
print(*sorted({i["avg_conflict_degree"] for i in p["shared_memory_insts"]["insts"] if i["class"] == "ld.shared"}))
' "$TMP/p.json")
    [ "$got" = "$want" ] || fail "$gpu BANK $bank: conflict degree $got, expected $want"
  done
done
finish
