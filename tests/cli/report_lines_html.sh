#!/bin/bash
# report_lines_html.sh — the HTML report's source view says what its share
# column measures and in what unit, as `predict --lines` does in text: the
# header once read "share" over bare numbers (65.2 for 65.2 %) under "each
# bar is the line's share of what limits the kernel", naming no metric, and
# "path cycles" with no word of the load latency they are priced at.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
run "$WS" predict "$E/transpose.sm_80.ptx" --launch "$E/transpose.launch.json" --lines 2 --report "$TMP/r"
expect_rc 0 "predict --lines --report"
# the text's heading names the metric and the load latency; the page must too
metric=$(sed -n 's/^hot lines, by their share of \(.*\), the bottleneck (.*/\1/p' <<<"$OUT")
lat=$(sed -n 's/.*path cyc: loads at \([0-9.]*\) cycles plus.*/\1/p' <<<"$OUT")
[ -n "$metric" ] && [ -n "$lat" ] || fail "the text's hot-lines heading changed: $OUT"
html=$(cat "$TMP/r/index.html")
grep -qF "each bar is the line's share of $metric, what limits the kernel" <<<"$html" ||
  fail "the page's source view does not name the metric '$metric'"
grep -qF "<th>share (%)</th>" <<<"$html" || fail "the page's share column has no unit"
grep -qE "longest dependency path at $lat(\.[0-9]*)? cycles each" <<<"$html" ||
  fail "the page does not say the load latency ($lat cycles) of its path cycles"
# the share of the store line, 65.2 % in the text, is the page's 65.2 under "share (%)"
share=$(awk '/^  transpose.cu:16 /{print $2}' <<<"$OUT" | tr -d '%')
[ -n "$share" ] && grep -qF "transpose.cu:16</td><td class=\"n\">$share</td>" <<<"$html" ||
  fail "transpose.cu:16's share $share % is not the page's"
finish
