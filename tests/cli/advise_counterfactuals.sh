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

# The best block size (predict --advise, a spec with sweep.total_threads):
# the saving is the base time minus warpsight's prediction for the launch it
# names, which `predict` with that block and grid gives again.
python3 - "$WS_SRC" "$TMP/g32.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/model-pairs")
from launches import launches
d = launches["gather"]
t = d["grid"][0] * d["block"][0]
d.update({"sweep": {"total_threads": t}, "block": [32, 1, 1], "grid": [(t + 31) // 32, 1, 1]})
json.dump(d, open(sys.argv[2], "w"))
PY
PAIRS="$WS_SRC/tests/model-pairs/pairs.sm_75.ptx"
run "$WS" predict "$PAIRS" --launch "$TMP/g32.json" --gpu gtx970 --advise --json -j 2
expect_rc 0 "predict --advise with sweep.total_threads"
python3 - "$TMP/out" "$TMP/g32.json" "$TMP/best.json" <<'PY' || fail "best block size"
import json, sys
d = json.load(open(sys.argv[1]))
item = [i for i in d["counterfactuals"]["items"] if i["change"] == "best block size"][0]
assert item["block"][0] in (64, 128, 256, 512, 1024), item
spec = json.load(open(sys.argv[2]))
spec["block"], spec["grid"] = item["block"], item["grid"]
assert item["grid"][0] == -(-spec["sweep"]["total_threads"] // item["block"][0]), item
json.dump(spec, open(sys.argv[3], "w"))
base = [r for r in d["results"] if r["model"] == "warpsight"][0]["time_ms"]
open(sys.argv[3] + ".want", "w").write(repr(base - item["saving_ms"]["warpsight"]))
PY
run "$WS" predict "$PAIRS" --launch "$TMP/best.json" --gpu gtx970 --model warpsight --json -j 2
expect_rc 0 "predict at the best block size"
python3 - "$TMP/out" "$TMP/best.json.want" <<'PY' || fail "the best block size's time, predicted again"
import json, sys
t = json.load(open(sys.argv[1]))["results"][0]["time_ms"]
want = float(open(sys.argv[2]).read())
assert abs(t - want) <= 1e-9 * t, (t, want)
PY
finish
