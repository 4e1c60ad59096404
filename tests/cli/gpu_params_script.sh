#!/usr/bin/env bash
# gpu_params_script.sh — scripts/gpu_params.py, a second implementation of
# the derivation rules written from docs/gpu-parameters.md, agrees with the
# parameters warpsight derives at load on every GPU of the database, and the
# Transit constants in src/gpu/derive.c are the ones the script computes
# from the paper's measured points.
source "$WS_SRC/tests/cli/lib.sh"

need_python3

run python3 "$WS_SRC/scripts/gpu_params.py" check "$WS" "$WS_SRC"/data/gpus/*.json
expect_rc 0 "script and warpsight disagree"
[ -z "$OUT" ] || fail "differences: $OUT"

run python3 "$WS_SRC/scripts/gpu_params.py" constants
expect_rc 0 "constants"
for name in R_SP R_DP P_SP P_DP; do
  lower=$(tr 'A-Z' 'a-z' <<<"$name")
  want=$(awk -v k="eta_$lower" '$1 == k {print $2}' <<<"$OUT")
  grep -q "#define TRANSIT_ETA_$name $want " "$WS_SRC/src/gpu/derive.c" ||
    fail "TRANSIT_ETA_$name in src/gpu/derive.c is not the script's $want"
done

# Both follow an edited clock.
sed 's/"value": 1.41,/"value": 2.0,/' "$WS_SRC/data/gpus/a100.json" >"$TMP/a.json"
run python3 "$WS_SRC/scripts/gpu_params.py" check "$WS" "$TMP/a.json"
expect_rc 0 "edited clock: both follow"
finish
