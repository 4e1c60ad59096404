#!/usr/bin/env bash
# predict_lines.sh — `warpsight predict --lines` (docs/cli-profile-predict.md)
# on the bundled naive transpose (examples/kernels/transpose.cu, PTX with
# -lineinfo): its store out[x * n + y] writes 32 sectors per request where 4
# would do and the A100 is DRAM-bound on it, so the store's line comes
# first, with its source text; the load's line second.  Without -lineinfo
# (vecadd's PTX) the rows are PTX lines.  With nvcc, the .cu itself.
source "$WS_SRC/tests/cli/lib.sh"
K="$WS_SRC/examples/kernels"
STORE=$(grep -n 'out\[x \* n + y\] = v;' "$K/transpose.cu" | cut -d: -f1)
LOAD=$(grep -n 'float v = in\[y \* n + x\];' "$K/transpose.cu" | cut -d: -f1)
[ -n "$STORE" ] && [ -n "$LOAD" ] || fail "transpose.cu lost its store or load line"

run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --gpu a100 --lines -j 2
expect_rc 0 "--lines"
first=$(grep -A2 '^hot lines' <<<"$OUT" | tail -1)
grep -qE "^  transpose\.cu:$STORE +[0-9.]+% .* 32 \(4\) .*out\[x \* n \+ y\] = v;$" <<<"$first" ||
  fail "the store's line is not first: $first"
second=$(grep -A3 '^hot lines' <<<"$OUT" | tail -1)
grep -qE "^  transpose\.cu:$LOAD .* 4 \(4\) .*float v = in\[y \* n \+ x\];$" <<<"$second" ||
  fail "the load's line is not second: $second"
expect_out "hot lines, by their share of DRAM bytes weighted by scatter, the bottleneck (source lines;"

run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --gpu a100 --lines 1 --json -j 2
expect_rc 0 "--lines 1 --json"
python3 - "$OUT" "$STORE" <<'PY' || fail "hot_lines JSON"
import json, sys
d = json.loads(sys.argv[1])
h = d["hot_lines"]
assert len(h) == 1, h
assert h[0]["line"] == "transpose.cu:" + sys.argv[2] and h[0]["source"] == "out[x * n + y] = v;", h
assert 0.5 < h[0]["share"] <= 1, h
PY

# --lines=0: every line; a bad count is a usage error
run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --lines=0 -j 2
expect_rc 0 "--lines=0"
[ "$(grep -c '^  transpose\.cu:' <<<"$OUT")" -ge 5 ] || fail "--lines=0 did not list every line: $OUT"
run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --lines=x
expect_rc 2 "--lines=x"
expect_err "--lines expects a non-negative integer"
# the count as the next argument gets the same error, negative or fractional
# ("unknown option '-3'" and "unexpected argument '2.5'" before)
for bad in -3 2.5 -0.5; do
  run "$WS" predict "$K/transpose.sm_80.ptx" --launch "$K/transpose.launch.json" --lines "$bad"
  expect_rc 2 "--lines $bad"
  expect_err "--lines expects a non-negative integer, got '$bad'"
done

# PTX without line information: PTX lines, with the PTX text
run "$WS" predict "$K/vecadd.sm_80.ptx" --launch "$K/vecadd.launch.json" --lines 2 -j 2
expect_rc 0 "vecadd --lines"
expect_out "PTX lines: the PTX has no -lineinfo"
grep -qE "^  PTX line [0-9]+ of vecadd\.sm_80\.ptx .* (ld|st)\.global\.f32" <<<"$OUT" || fail "no PTX line rows: $OUT"

# The .cu itself: predict compiles it with -lineinfo
if command -v nvcc >/dev/null 2>&1 || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  run "$WS" predict "$K/transpose.cu" --launch "$K/transpose.launch.json" --gpu a100 --lines 1 -j 2
  expect_rc 0 "transpose.cu --lines"
  grep -qE "^  transpose\.cu:$STORE .*out\[x \* n \+ y\] = v;$" <<<"$OUT" || fail "transpose.cu: $OUT"
else
  echo "nvcc not found: the .cu case is skipped"
fi
finish
