#!/usr/bin/env bash
# model_all_gpus.sh — issue 13's acceptance test: `--model all` on a profile
# with every input (examples/hand/every-input.json) runs every model on
# every GPU of the database.  Fails if any model says "cannot run" or prints
# a time that is not a finite positive number.
source "$WS_SRC/tests/cli/lib.sh"

PROFILE="$WS_SRC/examples/hand/every-input.json"
run "$WS" gpus
expect_rc 0 "gpus"
names=$(awk 'NR > 1 {print $1}' <<<"$OUT")
[ -n "$names" ] || fail "no GPU names in 'warpsight gpus'"
count=0
for g in $names; do
  run "$WS" model --profile "$PROFILE" --gpu "$g" --model all
  expect_rc 0 "$g"
  # The table: a header line, then one line per model (a line starting with
  # '!' notes a prediction below a physical floor; it is not a model row).
  rows=$(awk '/^model /{t=1; next} t && NF && $1 != "!"' <<<"$OUT")
  [ "$(wc -l <<<"$rows")" -ge 7 ] || fail "$g: fewer than 7 model rows: $OUT"
  while read -r model cycles ms rest; do
    case "$rest $cycles $ms" in
    *"cannot run"*) fail "$g: $model cannot run: $rest" ;;
    esac
    awk -v c="$cycles" -v t="$ms" 'BEGIN { exit !(c + 0 > 0 && t + 0 > 0 && c != "inf" && t != "inf" && c != "nan" && t != "nan") }' ||
      fail "$g: $model: cycles '$cycles', time '$ms'"
  done <<<"$rows"
  count=$((count + 1))
done
[ "$count" -ge 21 ] || fail "only $count GPUs checked"
finish
