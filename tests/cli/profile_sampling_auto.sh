#!/bin/bash
# profile_sampling_auto.sh — `--sample-blocks auto`, the default of
# `profile`, `predict` and `sweep` (docs/profile.md, "Sampling"): a sample
# of WS_PROF_AUTO_SAMPLE_BLOCKS = 8 blocks, run on a copy of the launch,
# estimates the launch's warp instructions (theirs x blocks / 8), and every
# block is profiled when that is at most WS_PROF_AUTO_BUDGET_WARP_INSTS =
# 2e8, else the sample stands.
#
# tests/sampling/spin.ptx runs 3 n + 6 warp instructions per warp.  With
# n = 65 and 1,000,000 one-warp blocks the launch is 201 x 1e6 = 2.01e8
# warp instructions, over the budget (n = 64 would be 1.98e8, under it):
# sampled by default, 8 blocks, the profile's sampling.auto and predict's
# summary say so.  vecadd (391 blocks, 25,024 warp instructions) is under
# it: profiled whole, byte for byte what --sample-blocks all gives.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
S="$WS_SRC/tests/sampling"
E="$WS_SRC/examples/kernels"

run "$WS" profile "$S/spin.ptx" --launch "$S/spin.json" -o "$TMP/spin.json"
expect_rc 0 "spin, default"
run "$WS" profile "$S/spin.ptx" --launch "$S/spin.json" --sample-blocks auto -j 1 -o "$TMP/spin1.json"
expect_rc 0 "spin, auto, -j 1"
cmp -s "$TMP/spin.json" "$TMP/spin1.json" || fail "auto: the profile depends on -j"
run python3 - "$TMP/spin.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
s = p["sampling"]
a = s.get("auto", {})
bad = []
if (s["total_blocks"], s["profiled_blocks"]) != (1000000, 8):
    bad.append(f"blocks {s['profiled_blocks']} of {s['total_blocks']}, expected 8 of 1000000")
if p["instruction_mix"]["total_per_warp"] != 3 * 65 + 6:
    bad.append(f"per warp {p['instruction_mix']['total_per_warp']}, expected 201")
want = {"sample_blocks": 8, "sample_warp_insts": 8 * 201, "estimated_warp_insts": 201 * 1000000,
        "budget_warp_insts": 200000000}
for k, v in want.items():
    if a.get(k) != v:
        bad.append(f"sampling.auto.{k} {a.get(k)}, expected {v}")
if not a.get("outcome", "").startswith("sampled"):
    bad.append(f"sampling.auto.outcome {a.get('outcome')}")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "spin's sampling: $OUT"

run "$WS" predict "$S/spin.ptx" --launch "$S/spin.json" --model roofline
expect_rc 0 "predict spin"
expect_out "sampling         8 of 1000000 blocks profiled (auto: ~2.01e+08 warp instructions over the 2e+08 budget); --sample-blocks all for a full profile" "predict's summary"

# sweep: one line on stderr for the cells auto sampled
run "$WS" sweep "$S/spin.ptx" --launch "$S/spin.json" --block 32..32 --model roofline
expect_rc 0 "sweep spin"
expect_err "note: 1 of 1 cells profiled 8 blocks of their grid (--sample-blocks auto: a launch over 2e+08 warp instructions); --sample-blocks all for full profiles" "sweep's note"

# an explicit N is N, without the auto record
run "$WS" profile "$S/spin.ptx" --launch "$S/spin.json" --sample-blocks 2 -o "$TMP/spin2.json"
expect_rc 0 "spin, --sample-blocks 2"
grep -q '"auto"' "$TMP/spin2.json" && fail "--sample-blocks 2 records auto"
grep -q '"profiled_blocks":[[:space:]]*2,' "$TMP/spin2.json" || fail "--sample-blocks 2: not 2 blocks"

# under the budget: the default is --sample-blocks all (and 0), byte for byte
for c in profile predict; do
  for s in "" "--sample-blocks auto" "--sample-blocks all" "--sample-blocks 0"; do
    if [ "$c" = profile ]; then
      # shellcheck disable=SC2086
      run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" $s -o "$TMP/v.json"
      OUT=$(cat "$TMP/v.json")
    else
      # shellcheck disable=SC2086
      run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" $s
    fi
    expect_rc 0 "vecadd $c $s"
    if [ -z "$s" ]; then REF=$OUT; elif [ "$OUT" != "$REF" ]; then fail "vecadd $c: '$s' differs from the default"; fi
  done
  case $c in
    profile) grep -q '"auto"' <<<"$REF" && fail "vecadd profile: records auto" ;;
    predict) grep -q "blocks profiled" <<<"$REF" && fail "vecadd predict: says it sampled" ;;
  esac
done
grep -q '"profiled_blocks":[[:space:]]*391,' "$TMP/v.json" || fail "vecadd: not every block profiled"

# bad values
for v in autox -1 1e3 "" " 2"; do
  run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --sample-blocks "$v"
  expect_rc 2 "--sample-blocks '$v'"
  expect_err "--sample-blocks expects a number of blocks (0 or 'all': every block; or 'auto'), got '$v'" "--sample-blocks '$v'"
done
run "$WS" profile "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --sample-blocks all --functional-rest
expect_rc 2 "--functional-rest with all"
expect_err "--functional-rest needs --sample-blocks N (N >= 1) or auto" "--functional-rest with all"
# exec keeps its every-block default: auto is not one of its values
run "$WS" exec --sample-blocks auto -- /bin/true
expect_rc 2 "exec --sample-blocks auto"
expect_err "--sample-blocks expects a number of blocks (0 or 'all': every block), got 'auto'" "exec --sample-blocks auto"
finish
