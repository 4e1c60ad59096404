#!/usr/bin/env bash
# list_limit.sh — the comma lists of validate and calibrate (--gpu,
# --kernels, --fix) take at most VCLI_MAX_ITEMS = 64 items
# (src/cli/valid_cli.h); one more is a usage error that names the limit,
# and 64 are taken (calibrate's boards are kept in arrays of that size).
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/data/validation/amaris-measured-dev.csv"
items() { # items N WORD: WORD,WORD,... N times
  local s=$2
  for ((i = 1; i < $1; i++)); do s="$s,$2"; done
  echo "$s"
}
run "$WS" calibrate "$D" --gpu "$(items 65 gtx680)" --model warpsight
expect_rc 2 "calibrate --gpu with 65 items"
expect_err "calibrate: error: --gpu: more than 64 items (the limit)" "calibrate --gpu with 65 items"
run "$WS" calibrate "$D" --gpu gtx680 --model warpsight --fix "$(items 65 x)"
expect_rc 2 "calibrate --fix with 65 items"
expect_err "--fix: more than 64 items (the limit)" "calibrate --fix with 65 items"
run "$WS" validate "$D" --kernels "$(items 65 vectorAdd)" --no-cache
expect_rc 2 "validate --kernels with 65 items"
expect_err "validate: error: --kernels: more than 64 items (the limit)" "validate --kernels with 65 items"
# 64 are taken: the list passes, and the next check (the model) answers
run "$WS" calibrate "$D" --gpu "$(items 64 gtx680)" --model no-such-model
expect_rc 2 "calibrate --gpu with 64 items"
expect_err "--model: unknown model 'no-such-model'" "calibrate --gpu with 64 items"
grep -q "items (the limit)" <<<"$ERR" && fail "64 items refused: $ERR"
finish
