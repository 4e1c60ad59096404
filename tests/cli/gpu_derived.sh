#!/usr/bin/env bash
# gpu_derived.sh — model parameters derived from a GPU's base numbers are
# computed when the file is loaded (docs/gpu-parameters.md), so an edited
# copy never goes stale; a value the file gives wins and is shown as given.
source "$WS_SRC/tests/cli/lib.sh"

# The A100 as shipped: 32 x 108 SMs x 1.41 GHz / 1555 GB/s = 3.133736...
run "$WS" gpu a100
expect_rc 0 "a100"
expect_out "departure_del_uncoal     3.133736334  [derived] 32 x sms x clock_ghz / mem_bandwidth_gbs" "a100 derived"

# A copy with its clock edited to 2.0 GHz: 32 x 108 x 2.0 / 1555 = 4.445016...,
# and gpuperf.delta (= hong-kim.departure_del_uncoal) follows it.
sed 's/"value": 1.41,/"value": 2.0,/' "$WS_SRC/data/gpus/a100.json" >"$TMP/fast.json"
grep -q '"value": 2.0,' "$TMP/fast.json" || fail "the clock edit did not apply"
run "$WS" gpu "$TMP/fast.json"
expect_rc 0 "edited copy"
expect_out "departure_del_uncoal     4.445016077  [derived]" "edited copy follows the clock"
expect_out "delta                    4.445016077  [derived] hong-kim.departure_del_uncoal" "gpuperf.delta follows"
expect_out "departure_del_coal       17.78006431  [derived]" "coalesced delay follows (128 x 108 x 2 / 1555)"

# A value the file gives is used and marked as given.
sed 's/"hong-kim": {}/"hong-kim": {"departure_del_uncoal": {"value": 7, "source": "test"}}/' \
  "$TMP/fast.json" >"$TMP/given.json"
run "$WS" gpu "$TMP/given.json"
expect_rc 0 "given"
expect_out "departure_del_uncoal     7            [given] test" "given wins"
expect_out "delta                    7            [derived] hong-kim.departure_del_uncoal" "delta from the given value"

# --json carries the marks.
run "$WS" gpu "$TMP/given.json" --json
expect_out '"derived":	true' "json derived mark"
expect_out '"given":	true' "json given mark"

# "derive": false keeps the file's parameters alone.
sed 's/"schema": "warpsight-gpu\/1",/"schema": "warpsight-gpu\/1", "derive": false,/' \
  "$TMP/fast.json" >"$TMP/strict.json"
run "$WS" gpu "$TMP/strict.json"
expect_rc 0 "strict"
grep -qF "[derived]" <<<"$OUT" && fail "derive false: a parameter was derived"

finish
