#!/usr/bin/env bash
# advise_counterfactuals.sh — `model --advise` checks its advice (issue 13
# point 4): with no barriers, Hong & Kim's saving on
# examples/hand/every-input.json for the A100 is eq. 26's synch_cost,
# 539.70 cycles by hand (tests/unit/test_counterfactual.c writes the sum
# out), i.e. 539.70 cycles at the prediction's own cycles-to-ms ratio.
source "$WS_SRC/tests/cli/lib.sh"
PROFILE="$WS_SRC/examples/hand/every-input.json"

run "$WS" model --profile "$PROFILE" --gpu a100 --model all --advise --json
expect_rc 0 "json"
python3 - "$OUT" <<'PY' || fail "counterfactuals JSON"
import json, sys
d = json.loads(sys.argv[1])
cf = d["counterfactuals"]
assert cf["ranked_by"] == "warpsight", cf["ranked_by"]
hk = [r for r in d["results"] if r["model"] == "hong-kim"][0]
item = [i for i in cf["items"] if i["change"] == "no barriers"][0]
want = 539.70 * hk["time_ms"] / hk["cycles"]
got = item["saving_ms"]["hong-kim"]
assert abs(got - want) < 1e-4 * want, (got, want)
# a profile without bank conflicts has nothing to save there
bc = [i for i in cf["items"] if i["change"] == "no bank conflicts"][0]
assert all(v is None for v in bc["saving_ms"].values()), bc
# every other model's stance on the change, and the flag, a boolean
assert item["stance"]["hong-kim"] == "agrees", item["stance"]
assert "warpsight" not in item["stance"]
assert all(isinstance(i["models_disagree"], bool) for i in cf["items"])
PY

run "$WS" model --profile "$PROFILE" --gpu a100 --model all --advise
expect_rc 0 "text"
expect_out "counterfactuals: predicted saving (ms) of each change, ranked by warpsight"
expect_out "no barriers"
expect_out "maximum ILP"
expect_out "maximum occupancy"
expect_out "distinct atomic addresses"
expect_out "best block size"
! grep -qF "base predictions differ" <<<"$OUT" || fail "the old flag that fired on every launch is back"
run "$WS" model --profile "$PROFILE" --gpu a100 --model hong-kim --advise
expect_out "ranked by hong-kim (warpsight did not run)"
finish
