# ptx_bad.sh — replays the malformed-PTX corpus (tests/ptx-bad/NAME.ptx).
# Each NAME.expect lists, one per line, "LINE:COL: error: MESSAGE" that
# `warpsight analyze` must print (prefixed by the file name), with exit 2.
# The expectations were written by hand from the input, not copied from
# the tool's output.
source "$WS_SRC/tests/cli/lib.sh"
cd "$WS_SRC/tests/ptx-bad" || exit 1
n=0
for f in *.ptx; do
  name=${f%.ptx}
  [ -f "$name.expect" ] || { fail "$f has no $name.expect"; continue; }
  run "$WS" analyze "$f"
  expect_rc 2 "$f"
  expect_no_crash "$f"
  while IFS= read -r line; do
    [ -n "$line" ] && expect_err "$f:$line" "$f"
  done <"$name.expect"
  n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n malformed inputs (want >= 30)"
finish
