#!/usr/bin/env bash
# gpu_facts.sh — `warpsight gpu` shows every GPU fact with its source, and a
# derived one as [derived] with its rule (issue 20): the RTX 3080 once had
# no L2 and no L1 in its file and showed nothing; now it shows the L2 its
# NVBench device report gives and the L1 its compute capability's unified
# array gives.  A user's file lacking a fact no rule can derive loads with a
# warning naming it.  --json loads back to the same facts.
source "$WS_SRC/tests/cli/lib.sh"

run "$WS" gpu rtx3080
expect_rc 0 "rtx3080"
[ -z "$ERR" ] || fail "rtx3080 loads with a message: $ERR"
expect_out "l2_bytes                 5242880      NVBench device report" "the report's L2"
# 128 KB unified array (CC 8.6) - the smallest carve-out, 0 KB
expect_out "l1_bytes                 131072       [derived] l1_shared_bytes - the smallest carve-out" "derived L1"
expect_out "sustained_clock_ghz      1.725" "the clock the board held"
expect_out "clock_mhz                9501" "memory clock"
# 760 GB/s over 320 bits / 32 = 10 slices, by the documented rule
expect_out "l2_slices                10           [derived]" "derived slices"
expect_out "sfu_per_sm               16           [derived]" "derived SFUs"

# Every database GPU: no fact line without a source, no warning.
for g in $("$WS" gpus | awk 'NR > 1 {print $1}'); do
  run "$WS" gpu "$g"
  [ "$RC" -eq 0 ] && [ -z "$ERR" ] || fail "$g: status $RC, stderr: $ERR"
  bare=$(sed -n '/^facts/,/^models:/p' <<<"$OUT" | grep -E '^  +[a-z_0-9]+ +[^ ]+ *$' || true)
  [ -z "$bare" ] || fail "$g: facts without a source: $bare"
done

# A user's file with only the required facts: it loads, with one warning
# naming the missing L2 and bus and what reads them.
cat >"$TMP/mine.json" <<'JSON'
{"schema": "warpsight-gpu/1", "name": "mine", "compute_capability": "8.6", "sms": 68,
 "cores_per_sm": 128, "clock_ghz": 1.71, "mem_bandwidth_gbs": 760, "models": {}}
JSON
run "$WS" gpu "$TMP/mine.json"
expect_rc 0 "minimal file"
expect_err "warning: missing GPU facts that no rule can derive from this file: cache.l2_bytes (read by profiler (L2 replay)" "names the L2"
expect_err "memory.bus_bits" "names the bus"

# --json loads back: the facts sections of the text report are the same.
run "$WS" gpu rtx3080 --json
printf '%s\n' "$OUT" >"$TMP/rtx3080.json"
before=$("$WS" gpu rtx3080 | sed '/^models:/q')
after=$("$WS" gpu "$TMP/rtx3080.json" 2>&1 | sed '/^models:/q')
[ "$before" = "$after" ] || fail "the facts changed through --json: $(diff <(echo "$before") <(echo "$after"))"

finish
