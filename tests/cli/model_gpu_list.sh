#!/usr/bin/env bash
# model_gpu_list.sh — issue 13 point 5: `model --gpu a100,h100-sxm,t4`.
# The reference for each GPU's figures is the single-GPU run (`--gpu a100`),
# which other tests check against the papers: the list's comparison table
# must carry, for every model and GPU, the time that run prints, and the
# JSON must hold one result set per GPU, in the order given.  Bad lists
# (an empty item, an unknown GPU) fail with status 2 before any output.
source "$WS_SRC/tests/cli/lib.sh"

PROFILE="$WS_SRC/examples/hand/every-input.json"
GPUS="a100 h100-sxm t4"

run "$WS" model --profile "$PROFILE" --gpu a100,h100-sxm,t4 --model all
expect_rc 0 "list"
table=$(awk '/^predicted time \(ms\) by GPU/{t=1; next} t' <<<"$OUT")
hdr=$(head -1 <<<"$table")
[ "$hdr" = "$(printf '%-16s %12s %12s %12s' model a100 h100-sxm t4)" ] || fail "table header: '$hdr'"
col=2
for g in $GPUS; do
  single=$("$WS" model --profile "$PROFILE" --gpu "$g" --model all)
  n=0
  while read -r model cycles ms rest; do
    [ -n "$model" ] && [ "$model" != "!" ] || continue
    got=$(awk -v m="$model" -v c="$col" '$1 == m {print $c}' <<<"$table")
    [ "$got" = "$ms" ] || fail "$g $model: table '$got', single run '$ms'"
    n=$((n + 1))
  done < <(awk '/^model /{t=1; next} t && NF' <<<"$single")
  [ "$n" -ge 7 ] || fail "$g: only $n models compared"
  # the per-GPU section is the single run's output
  grep -qF "block 256 x 1 x 1 on $g (" <<<"$OUT" || fail "$g: no section header"
  col=$((col + 1))
done

run "$WS" model --profile "$PROFILE" --gpu t4,a100 --model hong-kim --json
expect_rc 0 "json"
s1=$("$WS" model --profile "$PROFILE" --gpu t4 --model hong-kim --json)
s2=$("$WS" model --profile "$PROFILE" --gpu a100 --model hong-kim --json)
python3 - "$OUT" "$s1" "$s2" <<'PY' || fail "json: one result set per GPU"
import json, sys
d = json.loads(sys.argv[1])
singles = [json.loads(a) for a in sys.argv[2:]]
assert d["kernel"] == "every_input", d.get("kernel")
assert [s["gpu"] for s in d["gpus"]] == ["t4", "a100"], d["gpus"]
for s, ref in zip(d["gpus"], singles):
    assert s["results"] == ref["results"], (s["gpu"], s["results"], ref["results"])
PY

run "$WS" model --profile "$PROFILE" --gpu a100,,t4
expect_rc 2 "empty item"
expect_err "an empty GPU name in the list"
run "$WS" model --profile "$PROFILE" --gpu a100,nosuch --model all
expect_rc 2 "unknown GPU"
expect_err "unknown GPU 'nosuch'"
[ -z "$OUT" ] || fail "unknown GPU: output before the error: $OUT"
run "$WS" model --help
expect_out "comma-separated"
# predict: each GPU of the list is profiled and predicted as a single
# `--gpu G` run would be (the profile depends on the GPU's caches and
# coalescing rules).
E="$WS_SRC/examples/kernels"
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100,t4
expect_rc 0 "predict list"
table=$(awk '/^predicted time \(ms\) by GPU/{t=1; next} t' <<<"$OUT")
col=2
for g in a100 t4; do
  single=$("$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu "$g")
  n=0
  while read -r model cycles ms rest; do
    [ -n "$model" ] && [ "$model" != "!" ] || continue
    got=$(awk -v m="$model" -v c="$col" '$1 == m {print $c}' <<<"$table")
    [ "$got" = "$ms" ] || fail "predict $g $model: table '$got', single run '$ms'"
    n=$((n + 1))
  done < <(awk '/^model /{t=1; next} t && NF == 0 {exit} t' <<<"$single")
  [ "$n" -ge 7 ] || fail "predict $g: only $n models compared"
  col=$((col + 1))
done
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu t4,a100 --json
expect_rc 0 "predict json"
s1=$("$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu t4 --json)
python3 - "$OUT" "$s1" <<'PY' || fail "predict json: one result set per GPU"
import json, sys
d, ref = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert d["schema"] == "warpsight-predict/1" and d["kernel"] == "vecadd", d.keys()
assert [s["gpu"] for s in d["gpus"]] == ["t4", "a100"], d["gpus"]
assert d["gpus"][0]["results"] == ref["results"]
assert d["gpus"][0]["profile"] == ref["profile"]
PY
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100,nosuch
expect_rc 2 "predict unknown GPU"
[ -z "$OUT" ] || fail "predict unknown GPU: output before the error: $OUT"
finish
