#!/bin/bash
# table_names.sh — the text tables headed by a GPU or model name print the
# whole name: the --gpu comparison of predict and model, the counterfactuals
# of --advise and sweep's gpu column once cut every name to 12 characters
# ("a100-pcie-40", "titan-x-maxw", "kothapalli-m"), names no option takes.
source "$WS_SRC/tests/cli/lib.sh"
E="$WS_SRC/examples/kernels"
H="$WS_SRC/examples/hand/c2075-thread-bound.json"

# model: every row has one value under each GPU, the header the whole names.
run "$WS" model --profile "$H" --gpu a100-pcie-40gb,titan-x-maxwell,t4 --model all
expect_rc 0 "model --gpu list"
table=$(awk '/^predicted time \(ms\) by GPU/{t=1; next} t' <<<"$OUT")
hdr=$(head -1 <<<"$table")
[ "$(awk '{print $2, $3, $4}' <<<"$hdr")" = "a100-pcie-40gb titan-x-maxwell t4" ] ||
  fail "model: the GPU table's header cuts the names: '$hdr'"
# each value ends where its header ends (right-aligned under the name)
third_end() { awk '{ match($0, /^[^ ]+ +[^ ]+ +[^ ]+/); print RLENGTH }' <<<"$1"; }
hend=$(third_end "$hdr")
while read -r row; do
  [ -z "$row" ] && continue
  [ "$(third_end "$row")" = "$hend" ] || fail "model: '$row' is not aligned under titan-x-maxwell"
done <<<"$(tail -n +2 <<<"$table")"

# predict --advise: the counterfactuals' header names kothapalli-max and -sum.
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --advise
expect_rc 0 "predict --advise"
cf=$(awk '/^counterfactuals:/{getline; print; exit}' <<<"$OUT")
grep -qw -- "kothapalli-max" <<<"$cf" && grep -qw -- "kothapalli-sum" <<<"$cf" ||
  fail "counterfactuals' header cuts the model names: '$cf'"

# predict with a --gpu list: the comparison's header.
run "$WS" predict "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --gpu a100-pcie-80gb,gtx1650-gddr6 --model roofline
expect_rc 0 "predict --gpu list"
hdr=$(awk '/^predicted time \(ms\) by GPU/{getline; print; exit}' <<<"$OUT")
[ "$(awk '{print $2, $3}' <<<"$hdr")" = "a100-pcie-80gb gtx1650-gddr6" ] ||
  fail "predict: the GPU table's header cuts the names: '$hdr'"

# sweep: the gpu column holds the whole name.
run "$WS" sweep "$E/vecadd.sm_80.ptx" --launch "$E/vecadd.launch.json" --block 128..256 --pow2 \
  --gpu a100-pcie-40gb,t4 --model roofline
expect_rc 0 "sweep"
[ "$(awk '$1 == 128 {print $3}' <<<"$OUT" | tr '\n' ' ')" = "a100-pcie-40gb t4 " ] ||
  fail "sweep: the gpu column cuts the names: $OUT"
finish
