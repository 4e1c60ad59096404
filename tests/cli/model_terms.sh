#!/usr/bin/env bash
# model_terms.sh — `model --terms` lists the declared terms and bounds
# (model_terms.def, model_bounds.def).  The reference is what the models
# report when they run: for every model and five GPUs, each term name in
# `model --json`'s "terms" and its "limiter" must be in the listing of that
# model, with a unit, an equation or source and a meaning.
source "$WS_SRC/tests/cli/lib.sh"

PROFILE="$WS_SRC/examples/hand/every-input.json"

run "$WS" model --terms --json
expect_rc 0 "terms json"
LIST=$OUT
for g in gtx280 c2075 gtx680 k20 a100; do
  run "$WS" model --profile "$PROFILE" --gpu "$g" --model all --json
  expect_rc 0 "$g run"
  python3 - "$LIST" "$OUT" "$g" <<'PY' || fail "$g: a reported term or limiter is not listed"
import json, sys
listing = {m["model"]: m for m in json.loads(sys.argv[1])["models"]}
run = json.loads(sys.argv[2])
ok = True
for r in run["results"]:
    if r["status"] != "ok":
        continue
    m = listing[r["model"]]
    names = {t["name"] for t in m["terms"]}
    for t in m["terms"]:
        if not t["meaning"] or "unit" not in t or "equation" not in t:
            print("incomplete entry", r["model"], t); ok = False
    for name in r["terms"]:
        if name not in names:
            print(sys.argv[3], r["model"], "reports undeclared", name); ok = False
    if r["limiter"] not in {b["limiter"] for b in m["bounds"]}:
        print(sys.argv[3], r["model"], "limiter not listed:", r["limiter"]); ok = False
sys.exit(0 if ok else 1)
PY
done

# Text: one model, its terms with the equation (Hong & Kim (6)) and bounds.
run "$WS" model --terms --model hong-kim
expect_rc 0 "text"
expect_out "model hong-kim — Hong & Kim"
expect_out "memory warps in flight that saturate the peak bandwidth — (6)"
expect_out "memory: MWP limited by peak bandwidth"
[ "$(grep -c '^model ' <<<"$OUT")" -eq 1 ] || fail "--model hong-kim lists more than one model"
run "$WS" model --terms
want=$(grep -c '^MODEL(' "$WS_SRC/src/model/models.def")
[ "$(grep -c '^model ' <<<"$OUT")" -eq "$want" ] || fail "--terms lists $(grep -c '^model ' <<<"$OUT") models, not $want"

# Bad usage: --terms with a profile, an unknown model.
run "$WS" model --terms --profile "$PROFILE"
expect_rc 2 "terms with a profile"
expect_err "--terms takes no --profile"
run "$WS" model --terms --model nope
expect_rc 2 "unknown model"
expect_err "unknown model 'nope'"
finish
