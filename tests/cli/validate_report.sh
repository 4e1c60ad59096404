#!/bin/bash
# validate_report.sh — validate on a generic data set (issue 20, item 7):
# tests/memmodel/valid.csv names a C++ template kernel by its demangled
# name (array_add<float>, as predict accepts it), states the L2 condition
# of two otherwise equal rows (warm: the launch's 128 KB of inputs are in
# the GTX 970's L2 and read no DRAM, so it is predicted faster than cold),
# and has a row whose launch reads past its buffers (n = 1024 over 256
# floats) and fails.  The report gives each row's data line (2 to 5) and
# status, the failure's reason in rows.csv and in the text, and charts with
# the three launches that ran.
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/tests/memmodel/valid.csv"
run "$WS" validate "$D" --models warpsight,roofline --report "$TMP/r" --no-cache
expect_rc 0 "validate generic"
expect_out "failed rows:" "text: failed rows"
expect_out "line 4 (array_add<float>, gtx970): out-of-bounds read" "text: the failure's reason"
expect_out "4 rows, 1 failed" "summary line"
grep -q "line 4 (array_add<float>, gtx970): out-of-bounds read" "$TMP/r/summary.txt" ||
  fail "summary.txt lacks the failure"
[ "$(csv_col "$TMP/r/rows.csv" line | tr '\n' ' ')" = "2 3 4 5 " ] || fail "rows.csv lines: $(cat "$TMP/r/rows.csv")"
[ "$(csv_col "$TMP/r/rows.csv" status | tr '\n' ' ')" = "ok ok failed ok " ] || fail "rows.csv status"
grep -q ',4,failed,"out-of-bounds read' "$TMP/r/rows.csv" || fail "rows.csv reason: $(cat "$TMP/r/rows.csv")"
csv_col "$TMP/r/rows.csv" predicted_s_warpsight | head -2 >"$TMP/p"
awk 'NR == 1 { w = $1 } NR == 2 { c = $1 } END { exit !(w > 0 && w < c) }' "$TMP/p" ||
  fail "warm row not faster than the cold one: $(cat "$TMP/p")"
if [ -f "$TMP/r/warpsight.svg" ]; then
  grep -q "(3 launches)" "$TMP/r/warpsight.svg" || fail "chart: not the 3 launches that ran"
  grep -q "array_add&lt;float&gt;\|array_add<float>" "$TMP/r/warpsight.svg" || fail "chart: no generic kernel in the legend"
fi
finish
