#!/usr/bin/env bash
# Acceptance: Hong & Kim Table 2 through the CLI, JSON output, against the
# paper's values (Table 2) and the exact arithmetic (see
# tests/unit/test_model_hong_kim.c for the derivation of 50728.1875).
source "$WS_SRC/tests/cli/lib.sh"
run "$WS" model --profile "$WS_SRC/examples/paper/hk09-table2.json" --gpu hk09-example --model hong-kim --json
expect_rc 0 "table2 json"
python3 - "$TMP/out" <<'PY' || fail "table2 values"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["gpu"] == "hk09-example" and doc["kernel"] == "MatrixMulKernel", doc
r = doc["results"][0]
t = r["terms"]
def near(a, b, tol): assert abs(a - b) <= tol, (a, b)
near(r["cycles"], 50738, 50738 * 1e-3)        # the paper's figure, within 0.1 %
near(r["cycles"], 50728.1875, 1e-6)           # exact: MWP not rounded to 2.28
near(t["mem_l"], 730, 0); near(t["departure_delay"], 320, 0)
near(t["mwp"], 2.28125, 1e-12); near(t["cwp"], 20, 0)
near(t["comp_cycles"], 132, 0); near(t["mem_cycles"], 4380, 0)
near(t["rep"], 1, 0); near(t["synch_cost"], 12300, 1e-9)
near(t["mwp_peak_bw"], 28.515625, 1e-9)
for k in ["mem_l", "departure_delay", "mwp_without_bw_full", "bw_per_warp", "mwp_peak_bw", "mwp",
          "comp_cycles", "mem_cycles", "cwp_full", "cwp", "rep", "exec_cycles_app", "synch_cost", "cycles"]:
    assert k in t, k
assert "eq. 23" in r["case"], r["case"]
near(r["time_ms"], 50728.1875 / 1e6, 1e-12)   # 1 GHz
PY
# The text table names each term with its equation and the case in words.
run "$WS" model --profile "$WS_SRC/examples/paper/hk09-table2.json" --gpu hk09-example
expect_rc 0 "table2 text"
expect_out "mwp_peak_bw" "text"
expect_out "(26)" "text"
expect_out "case: memory-bound: CWP >= MWP (eq. 23)" "text"

# The six Merge benchmark profiles run on the Table 3 GPUs.
for f in "$WS_SRC"/examples/paper/hk09-merge-*.json; do
  for g in fx5600 8800gtx 8800gt gtx280; do
    run "$WS" model --profile "$f" --gpu "$g" --json
    expect_rc 0 "$(basename "$f") on $g"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; assert r["status"]=="ok" and r["cycles"]>0, r' "$TMP/out" \
      || fail "$(basename "$f") on $g: no prediction"
  done
done

# gpus lists the database; gpu shows sources.
run "$WS" gpus
expect_rc 0 gpus
for g in 8800gtx fx5600 8800gt gtx280 gtx260 c2050 c2075 gtx690 gtx680 gtx970 gtx980 k20 k40 titan titan-black titan-x-maxwell quadro-k5200 v100 a100 h100-sxm hk09-example; do
  grep -q "^$g " <<<"$OUT" || fail "gpus lacks $g"
done
run "$WS" gpu c2050
expect_rc 0 "gpu c2050"
expect_out "Sim et al" "gpu c2050 sources"
run "$WS" gpu "$WS_SRC/tests/data/gpu-hk09-test.json" --json
expect_rc 0 "gpu from file"
expect_out '"hk09-test"' "gpu from file"
finish
