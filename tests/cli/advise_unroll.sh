#!/usr/bin/env bash
# advise_unroll.sh — the advisor says to unroll only a line inside a loop
# (docs/advisor.md, "Unrolling").  tests/advise/straight_ldg.cu is straight-
# line code (five independent __ldg loads interleaved with adds): no loop, so
# no action of the advisor's may say unroll (it said "independent
# accumulators, unrolling, reordering" for the line computing the index).
# With PTX lines, where a loop is the lines from a label to a branch back to
# it, the rule is checked against the PTX itself: spmv_csr's ILP line is its
# prologue (no unrolling), nbody's lies in its loop, which nvcc unrolled by
# 4 already (no unrolling either: it says what the loop already issues).
# tests/advise/grid_sum.cu sums a[i] in a grid-stride loop under #pragma
# unroll 4 and under #pragma unroll 1: the profile's row of the load line
# says what its loop does, and only the second may be told to unroll (the
# first was told to "unroll its loop by 4", which it already is).
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
    # a loop nvcc already unrolled says so instead
    grep -qE "unrolling|its loop already issues [0-9]+ loads per iteration" <<<"$act" ||
      fail "$k: PTX line $n is in a loop, yet no unrolling: $act"
  else
    grep -q "unroll" <<<"$act" && fail "$k: PTX line $n is in no loop, yet: $act"
  fi
  echo "$k: PTX line $n $(in_loop "$ptx" "$n" && echo in a loop || echo in no loop): $act"
done
# both sides are exercised: spmv_csr's line outside its loop, nbody's inside
in_loop "$C/ptx/sm_80/spmv_csr.ptx" 33 && fail "spmv_csr: PTX line 33 should be its prologue"
in_loop "$C/ptx/sm_80/nbody.ptx" 138 || fail "nbody: PTX line 138 should be in its loop"
# nbody's j loop reads 4 floats of pos[j] per source iteration, and nvcc
# unrolled it by 4 (add.s32 ..., 4 at its back edge): 16 loads per trip, so
# no unrolling is proposed there
grep -E '^ *[0-9]+\. break the dependency chain through PTX line 138 ' <<<"$(
  "$WS" predict "$C/ptx/sm_80/nbody.ptx" --launch "$C/launch/nbody.json" --gpu a100 --advise -j 2 2>/dev/null
)" | grep -q "reordering (the limit: no dependency stalls at all; its loop already issues 16 loads per iteration)" ||
  fail "nbody: its unrolled loop (16 loads per trip) not named as such"

# grid_sum: 34 trips per thread (139264 elements, 4096 threads); nvcc's
# unroll 4 runs them as 34 mod 4 = 2 trips of its remainder loop (one load
# each) and 8 of its body (four loads each): the load line's row takes the
# most of its loops, 4 loads per trip and 8 trips per entry; unroll 1: one
# load per trip, 34 trips.  Lines 19 and 27 of grid_sum.cu are the loads.
for k in "u4 19 4 8" "u1 27 1 34"; do
  set -- $k
  run "$WS" profile "$A/grid_sum.sm_80.ptx" --launch "$A/grid_sum_$1.launch.json" --gpu a100 -j 2
  expect_rc 0 "grid_sum_$1 profile"
  python3 - "$OUT" "$2" "$3" "$4" <<'PY' || fail "grid_sum_$1: the load line's loop figures"
import json, sys
d = json.loads(sys.argv[1])
line, loads, trips = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
r = [r for r in d["lines"]["rows"] if r["line"] == line]
assert r and "load" in r[0]["kinds"], r
assert abs(r[0]["loop_loads_per_trip"] - loads) < 1e-9, r[0]
assert abs(r[0]["loop_trips_per_entry"] - trips) < 1e-9, r[0]
PY
done
run "$WS" predict "$A/grid_sum.sm_80.ptx" --launch "$A/grid_sum_u4.launch.json" --gpu a100 --advise -j 2
expect_rc 0 "grid_sum_u4 --advise"
[ -n "$(own)" ] || fail "grid_sum_u4: no advice: $OUT"
grep -qi "unroll" <<<"$(own)" && fail "grid_sum_u4 is already unrolled by 4, yet: $(own)"
grep -q "its loop already issues 4 loads per iteration" <<<"$(own)" ||
  fail "grid_sum_u4: the advice does not say what its loop already does: $(own)"
run "$WS" predict "$A/grid_sum.sm_80.ptx" --launch "$A/grid_sum_u1.launch.json" --gpu a100 --advise -j 2
expect_rc 0 "grid_sum_u1 --advise"
expect_out "issue the loads of grid_sum.cu:27 4 at a time before their values are needed (unroll its loop by 4" \
  "grid_sum_u1: unroll its one-load loop by 4"
# a source row outside the loop of a kernel that has one: grid_sum_u1's
# store (line 28, after the loop; loop figures 0) made the heaviest line of
# the path by hand, so the ILP change names it: no unrolling there, while
# its load line (27, in the loop) is still told to unroll by 4
run "$WS" profile "$A/grid_sum.sm_80.ptx" --launch "$A/grid_sum_u1.launch.json" --gpu a100 -j 2
expect_rc 0 "grid_sum_u1 profile"
python3 - "$OUT" "$TMP/store_heavy.json" <<'PY' || fail "grid_sum_u1: could not edit the profile"
import json, sys
d = json.loads(sys.argv[1])
rows = [r for r in d["lines"]["rows"] if r["line"] == 28]
assert rows and "store" in rows[0]["kinds"] and rows[0]["loop_trips_per_entry"] == 0, rows
rows[0]["path_cycles"] = 1e6
json.dump(d, open(sys.argv[2], "w"))
PY
run "$WS" model --profile "$TMP/store_heavy.json" --gpu a100 --model all --advise
expect_rc 0 "grid_sum_u1 store-heavy --advise"
expect_out "break the dependency chain through grid_sum.cu:28: independent accumulators, reordering (" \
  "grid_sum_u1: the store after the loop is not told to unroll"
expect_out "issue the loads of grid_sum.cu:27 4 at a time before their values are needed (unroll its loop by 4" \
  "grid_sum_u1 store-heavy: the load in the loop still is"
finish
