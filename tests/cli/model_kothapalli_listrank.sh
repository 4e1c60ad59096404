#!/usr/bin/env bash
# Kothapalli et al.'s list-ranking estimate (HiPC'09 §5.2) through the CLI:
# 13 blocks per SM x 16 warps x 32 threads x 132000 cycles / (8 cores x 4
# stages) = 27456000 cycles = 21.12 ms at 1.3 GHz (docs/models/kothapalli.md).
# Also a bad kothapalli section: exit 2 with the JSON path in the message.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
P="$WS_SRC/examples/paper/kothapalli-listrank.json"
G="$WS_SRC/examples/paper/gtx280-1.3ghz.json"

for m in kothapalli-max kothapalli-sum; do
  run "$WS" model --profile "$P" --gpu "$G" --model "$m" --json
  expect_rc 0 "$m"
  python3 - "$OUT" "$m" <<'PY' || fail "$m: JSON result"
import json, sys
doc = json.loads(sys.argv[1])
r = [x for x in doc["results"] if x["model"] == sys.argv[2]][0]
assert r["status"] == "ok", r
assert abs(r["cycles"] - 27456000) < 1e-6, r["cycles"]
assert abs(r["time_ms"] - 21.1) / 21.1 <= 0.005, r["time_ms"]
assert r["terms"]["n_b"] == 13, r["terms"]
PY
done

sed 's/"count": 264/"count": -1/' "$P" >"$TMP/bad.json"
run "$WS" model --profile "$TMP/bad.json" --gpu "$G" --model kothapalli-max
expect_rc 2 "negative count"
expect_err "kothapalli.global_accesses[0].count: expected a non-negative number, got -1" "negative count"
finish
