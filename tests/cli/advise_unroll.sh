#!/usr/bin/env bash
# advise_unroll.sh — the advisor says to unroll only a line inside a loop
# (docs/advisor.md, "Unrolling").  tests/advise/straight_ldg.cu is straight-
# line code (five independent __ldg loads interleaved with adds): no loop, so
# no action of the advisor's may say unroll (it said "independent
# accumulators, unrolling, reordering" for the line computing the index).
# With PTX lines, where a loop is the lines from a label to a branch back to
# it, the rule is checked against the PTX itself: spmv_csr's ILP line is its
# prologue (no unrolling), nbody's lies in its loop (unrolling).
source "$WS_SRC/tests/cli/lib.sh"
A="$WS_SRC/tests/advise"
C="$WS_SRC/tests/corpus"

# the advisor's own text: from "advice" to the other models' views
own() { sed -n '/^advice$/,/^other models/p' <<<"$OUT"; }

run "$WS" predict "$A/straight_ldg.sm_80.ptx" --launch "$A/straight_ldg.launch.json" --gpu a100 --advise -j 2
expect_rc 0 "straight_ldg --advise"
[ -n "$(own)" ] || fail "straight_ldg: no advice: $OUT"
grep -qi "unroll" <<<"$(own)" && fail "straight_ldg has no loop, yet: $(own)"
expect_out "break the dependency chain through straight_ldg.cu:" "straight_ldg: the ILP change"
run "$WS" predict "$A/straight_ldg.sm_80.ptx" --launch "$A/straight_ldg.launch.json" --gpu a100 --advise --json -j 2
expect_rc 0 "straight_ldg --advise --json"
python3 - "$OUT" <<'PY' || fail "straight_ldg: an action of the JSON advice says unroll"
import json, sys
d = json.loads(sys.argv[1])
acts = [i["action"] for i in d["advice"]["changes"]]
assert acts, d["advice"]
assert not any("unroll" in a for a in acts), acts
PY

# PTX line N of FILE lies in a loop: between a label and a branch back to it
in_loop() {
  awk -v n="$2" '/^\$L__BB[0-9_]*:/ { sub(":", "", $1); at[$1] = NR }
    /bra(\.uni)?[ \t]+\$L__BB/ { t = $NF; sub(";", "", t); if (t in at && at[t] <= n && n <= NR) hit = 1 }
    END { exit !hit }' "$1"
}
for k in spmv_csr nbody; do
  ptx="$C/ptx/sm_80/$k.ptx"
  run "$WS" predict "$ptx" --launch "$C/launch/$k.json" --gpu a100 --advise -j 2
  expect_rc 0 "$k --advise"
  act=$(grep -E '^ *[0-9]+\. break the dependency chain through PTX line [0-9]+ ' <<<"$OUT")
  n=$(sed -E 's/.*through PTX line ([0-9]+) .*/\1/' <<<"$act")
  [ -n "$n" ] || { fail "$k: no ILP change naming a PTX line: $OUT"; continue; }
  if in_loop "$ptx" "$n"; then
    grep -q "unrolling" <<<"$act" || fail "$k: PTX line $n is in a loop, yet no unrolling: $act"
  else
    grep -q "unroll" <<<"$act" && fail "$k: PTX line $n is in no loop, yet: $act"
  fi
  echo "$k: PTX line $n $(in_loop "$ptx" "$n" && echo in a loop || echo in no loop): $act"
done
# both sides are exercised: spmv_csr's line outside its loop, nbody's inside
in_loop "$C/ptx/sm_80/spmv_csr.ptx" 33 && fail "spmv_csr: PTX line 33 should be its prologue"
in_loop "$C/ptx/sm_80/nbody.ptx" 138 || fail "nbody: PTX line 138 should be in its loop"
finish
