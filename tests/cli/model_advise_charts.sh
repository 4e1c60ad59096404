#!/usr/bin/env bash
# `warpsight model --advise --charts DIR`: the advisor after the results and
# one PNG + SVG per model that has a chart (gpuperf, transit, roofline).
# Profile: the hand-written thread-bound case of tests/unit/test_transit.c on
# the database's Tesla C2075: n = 4 x 256 = 1024 threads per SM, Z = 8
# thread instructions per DRAM byte -> k = 492.25, CS = 22.895 Gops/s per SM,
# time = 9 175 040 / (22.895e9 x 14) = 0.028625 ms.
source "$WS_SRC/tests/cli/lib.sh"
cat >"$TMP/k.json" <<'EOF'
{"schema": "warpsight-profile/1", "kernel": "hand made",
 "launch": {"grid": [140, 1, 1], "block": [256, 1, 1]},
 "occupancy": {"active_blocks_per_sm": 4},
 "per_warp": {"comp_insts": 200, "coal_mem_insts": 50, "uncoal_mem_insts": 6, "synch_insts": 2,
              "fp_insts": 100, "sfu_insts": 4, "flops": 2048},
 "memory": {"dram_read_bytes": 917504, "dram_write_bytes": 229376, "uncoal_per_mw": 8,
            "coal_per_mw": 1, "load_bytes_per_warp": 128, "avg_trans_warp": 1.5, "miss_ratio": 0.5},
 "parallelism": {"ilp": 1.5, "mlp": 2}}
EOF

# Built without cairo: --charts is refused with the reason, and that is all
# there is to test here.
run "$WS" model --profile "$TMP/k.json" --gpu c2075 --model roofline --charts "$TMP/probe"
if grep -q "needs cairo" <<<"$ERR"; then
  expect_rc 2 "--charts without cairo"
  echo "skipped: this warpsight was built without cairo"
  [ "$FAILED" -eq 0 ] && exit 77
  finish
fi

run "$WS" model --profile "$TMP/k.json" --gpu c2075 --model all --advise --charts "$TMP/ch"
expect_rc 0 "all --advise --charts"
expect_out "advice" "advice heading"
expect_out "bottleneck: " "bottleneck line"
expect_out "[transit] thread bound: of n = 1024 threads per SM, 492 wait on memory" "transit item"
expect_out "its direction: too few threads to fill either system" "transit direction"
expect_out "[roofline] memory-bound" "roofline item"
expect_out "wrote $TMP/ch/hand_made-transit.png and $TMP/ch/hand_made-transit.svg" "transit chart"
for m in gpuperf transit roofline; do
  for e in png svg; do
    [ -s "$TMP/ch/hand_made-$m.$e" ] || fail "no $m.$e chart"
  done
done
grep -q "<title>Transit: thread bound" "$TMP/ch/hand_made-transit.svg" || fail "transit svg title"
[ ! -e "$TMP/ch/hand_made-hong-kim.png" ] || fail "hong-kim has no chart"

# JSON: "advice" and "charts" beside "results".
run "$WS" model --profile "$TMP/k.json" --gpu c2075 --model transit --json --advise --charts "$TMP/ch2"
expect_rc 0 "json --advise --charts"
python3 - "$TMP/out" "$TMP" <<'PY' || fail "json advice/charts"
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["results"][0]
assert r["model"] == "transit" and r["case"] == "thread bound", r
def near(a, b, tol): assert abs(a - b) <= tol, (a, b)
near(r["terms"]["k_eq"], 492.2504361, 1e-6)
near(r["time_ms"], 0.02862487447, 1e-9)
a = doc["advice"]
assert a["bottleneck"] == "thread bound (transit)", a
assert a["primary"] == "transit", a  # warpsight did not run: the changes are transit's
assert a["views"][0]["model"] == "transit" and a["views"][0]["topic"] == "thread bound", a
assert doc["charts"] == [sys.argv[2] + "/ch2/hand_made-transit.png",
                         sys.argv[2] + "/ch2/hand_made-transit.svg"], doc["charts"]
PY

# A model without a chart: a warning, status 0.
run "$WS" model --profile "$TMP/k.json" --gpu c2075 --model hong-kim --charts "$TMP/ch3"
expect_rc 0 "hong-kim --charts"
expect_err "no chart written" "warning"

# A DIR that cannot be made: status 2 with the reason.
touch "$TMP/file"
run "$WS" model --profile "$TMP/k.json" --gpu c2075 --model transit --charts "$TMP/file/sub"
expect_rc 2 "bad --charts dir"
expect_err "cannot create" "bad dir message"

# --charts needs a value.
run "$WS" model --profile "$TMP/k.json" --gpu c2075 --charts
expect_rc 2 "--charts without DIR"
expect_no_crash "--charts without DIR"

run "$WS" model --help
expect_out "--advise" "help lists --advise"
expect_out "--charts DIR" "help lists --charts"
finish
