#!/bin/bash
# advise_block_sms.sh — the best block size's advice says how many SMs the
# launch keeps busy before and after when that changes: a one-block launch
# of 1024 threads (spmv_scalar of tests/model-pairs, its 1024 threads in one
# block) was told first "launch blocks of 32 threads instead of 1024 (32
# blocks): occupancy 50 % -> 2 %", a fall in the very number it printed,
# without the reason it pays: the blocks spread over idle SMs.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
python3 - "$WS_SRC" "$TMP/one.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/model-pairs")
from launches import launches
d = dict(launches["spmv_scalar"])
t = d["grid"][0] * d["block"][0]
assert t == 1024, t
d.update({"sweep": {"total_threads": t}, "block": [1024, 1, 1], "grid": [1, 1, 1]})
json.dump(d, open(sys.argv[2], "w"))
PY
run "$WS" predict "$WS_SRC/tests/model-pairs/pairs.sm_75.ptx" --launch "$TMP/one.json" --gpu a100 --advise -j 2
expect_rc 0 "predict --advise, one block of 1024 threads"
line=$(grep "launch blocks of" <<<"$OUT")
[ -n "$line" ] || fail "no best block size in the advice: $OUT"
# by hand: the A100 has 108 SMs and 64 warps per SM; 1024 threads in one
# block are 32 warps on 1 SM (50 %); N threads per block make 1024 / N
# blocks of N / 32 warps, one per SM while there are SMs for them
n=$(sed -n 's/.*launch blocks of \([0-9]*\) threads instead of 1024.*/\1/p' <<<"$line")
[ -n "$n" ] || fail "the advice does not name the block size: $line"
if [ -n "$n" ]; then
  blocks=$((1024 / n)); sms=$((blocks < 108 ? blocks : 108))
  grep -qF "($blocks blocks): occupancy 50 % -> " <<<"$line" || fail "blocks or occupancy before: $line"
  grep -qF ", 1 -> $sms of 108 SMs busy" <<<"$line" || fail "the SMs busy, 1 -> $sms of 108: $line"
fi
finish
