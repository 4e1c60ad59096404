#!/bin/bash
# predict_corpus.sh — `warpsight predict` on every corpus launch spec for
# three GPUs of different generations (GTX 280: CC 1.3, no caches; K20:
# CC 3.5; A100: CC 8.0).  Each run must exit 0 and print a prediction; the
# --json output must validate against warpsight-predict/1
# (docs/cli-profile-predict.md) with tests/tools/check_predict_json.py, and
# Luo & Suda must run on each (sampled) profile.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
C="$WS_SRC/tests/corpus"
n=0
for spec in "$C"/launch/*.json; do
  base=$(basename "$spec" .json)
  src=${base%%.*}
  for gpu in gtx280 k20 a100; do
    run "$WS" predict "$C/ptx/sm_80/$src.ptx" --launch "$spec" --gpu "$gpu" --sample-blocks 16 --functional-rest -j 2
    expect_rc 0 "$base on $gpu"
    expect_out "prediction:" "$base on $gpu"
    run "$WS" predict "$C/ptx/sm_80/$src.ptx" --launch "$spec" --gpu "$gpu" --sample-blocks 16 --functional-rest -j 2 --json
    expect_rc 0 "$base on $gpu (--json)"
    printf '%s\n' "$OUT" >"$TMP/$base.$gpu.json"
    n=$((n + 1))
  done
done
[ "$n" -ge 120 ] || fail "only $n runs (expected 41 specs x 3 GPUs)"
run python3 "$WS_SRC/tests/tools/check_predict_json.py" "$WS_SRC/include/warpsight/profile_fields.def" "$TMP"/*.json
expect_rc 0 "schema check: $OUT"
# Luo & Suda runs on every sampled profile (issue 20, item 5): the
# representative warp is the first profiled block's, not block 0's, which
# a sample of 16 passed by on every grid of more than 16 blocks.
run python3 -c 'import json, sys
bad = [f for f in sys.argv[1:]
       if not [r for r in json.load(open(f))["results"] if r["model"] == "luo-suda" and r.get("time_ms")]]
print(bad); sys.exit(bool(bad))' "$TMP"/*.json
expect_rc 0 "luo-suda on every profile: $OUT"
finish
