#!/usr/bin/env bash
# Malformed kernel profiles (tests/bad-profiles/) and bad arguments to
# `warpsight model`: each must exit 2 with a message that names the problem
# (the field by its JSON path), and none may crash.
source "$WS_SRC/tests/cli/lib.sh"
B="$WS_SRC/tests/bad-profiles"
G="$WS_SRC/tests/data/gpu-hk09-test.json"

# file | expected text in stderr
while IFS='|' read -r file msg; do
  [ -z "$file" ] && continue
  run "$WS" model --profile "$B/$file" --gpu "$G"
  expect_no_crash "$file"
  expect_rc 2 "$file"
  expect_err "$msg" "$file"
done <<'TABLE'
missing-field.json|hong-kim: needs per_warp.comp_insts, which is missing
wrong-type.json|per_warp.uncoal_mem_insts: expected a non-negative number
negative-count.json|per_warp.comp_insts: expected a non-negative number, got -3
zero-threads.json|launch.block[0]: expected a positive integer
truncated.json|truncated.json:2:1: error: invalid JSON: unexpected end of input
wrong-schema.json|schema: expected "warpsight-profile/1", got "warpsight-profile/2"
ratio-out-of-range.json|memory.miss_ratio: expected a number between 0 and 1, got 1.5
unknown-field.json|per_warp.uncoal_mem_inst: unknown field (did you mean "uncoal_mem_insts"?)
unknown-section.json|unknown-section.json: error: per_wrap: unknown section (did you mean "per_warp"?)
missing-launch.json|launch: missing (expected an object)
fractional-blocks.json|occupancy.active_blocks_per_sm: expected a positive integer, got 2.5
not-an-object.json|expected a JSON object
section-not-object.json|per_warp: expected an object
empty.json|invalid JSON: unexpected end of input
missing-kernel.json|kernel: missing (expected a string)
grid-four-dims.json|launch.grid: expected an array of 1 to 3 positive integers
missing-load-bytes.json|hong-kim: needs memory.load_bytes_per_warp, which is missing
huge-number.json|per_warp.comp_insts: expected a non-negative number
TABLE

# Errors carry the file name and, for syntax errors, line:col.
run "$WS" model --profile "$B/truncated.json" --gpu "$G"
expect_err "error: invalid JSON" "truncated: message"

# Unknown GPU names list the database.
run "$WS" model --profile "$WS_SRC/examples/paper/hk09-table2.json" --gpu gtx9999
expect_rc 2 "unknown gpu"
expect_err "unknown GPU 'gtx9999' (known GPUs:" "unknown gpu"

# Unknown model, missing file, missing options.
run "$WS" model --profile "$WS_SRC/examples/paper/hk09-table2.json" --gpu "$G" --model nope
expect_rc 2 "unknown model"
expect_err "unknown model 'nope' (known models: warpsight, hong-kim" "unknown model"
run "$WS" model --profile "$B/does-not-exist.json" --gpu "$G"
expect_rc 2 "missing file"
expect_err "does-not-exist.json: error: cannot open" "missing file"
run "$WS" model --gpu "$G"
expect_rc 2 "no --profile"
expect_err "--profile is required" "no --profile"
run "$WS" model --profile "$WS_SRC/examples/paper/hk09-table2.json" --gpu "$G" --bogus
expect_rc 2 "unknown option"
expect_err "unknown option '--bogus'" "unknown option"
finish
