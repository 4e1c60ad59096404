#!/usr/bin/env bash
# gpu_values.sh — a GPU file with a bad value is refused by every command
# that loads it (exit 2, "FILE: error: PATH: ..." on stderr), never a crash,
# an empty message or an inf/nan/negative time (issue 14, points 4, 9, 10).
source "$WS_SRC/tests/cli/lib.sh"

PROFILE="$WS_SRC/examples/hand/c2075-thread-bound.json"

# gpu NAME MEMBERS: writes $TMP/NAME.json, a CC 2.0 GPU with MEMBERS (JSON
# object members, comma-separated) added after the base facts.
gpu() {
  cat >"$TMP/$1.json" <<JSON
{"schema": "warpsight-gpu/1", "name": "$1", "compute_capability": "2.0",
 "cores_per_sm": 32, "clock_ghz": 1.15, "mem_bandwidth_gbs": 144,
 $2}
JSON
}

# refused NAME MEMBERS MESSAGE: occupancy and model both exit 2 naming the path.
refused() {
  gpu "$1" "$2"
  run "$WS" occupancy --gpu "$TMP/$1.json" --threads 256 --regs 20
  expect_rc 2 "$1 occupancy"
  expect_err "$TMP/$1.json: error: $3" "$1 occupancy"
  run "$WS" model --profile "$PROFILE" --gpu "$TMP/$1.json" --model all
  expect_rc 2 "$1 model"
  expect_err "$TMP/$1.json: error: $3" "$1 model"
}

# The base file is fine: every model prints finite times or says it cannot run.
gpu good '"sms": 14'
run "$WS" occupancy --gpu "$TMP/good.json" --threads 256 --regs 20
expect_rc 0 "good occupancy"

refused warp '"sms": 14, "warp_size": 2147483647' "warp_size: expected an integer from 1 to 64"
refused reserved '"sms": 14, "limits": {"shared_reserved_per_block": 2147483647}' \
  "limits.shared_reserved_per_block: expected an integer from 0 to 1048576"
refused half '"sms": 0.5' "sms: expected an integer from 1 to 1048576, got 0.5"
refused huge '"sms": 2147483648' "sms: expected an integer from 1 to 1048576"
refused issue '"sms": 14, "models": {"hong-kim": {"issue_cycles": {"value": -1, "source": "t"}}}' \
  "models.hong-kim.issue_cycles: expected a positive number"
refused line '"sms": 14, "cache": {"l1_line_bytes": 3}' \
  "cache.l1_line_bytes: expected a power of two from 4 to 4096 bytes, got 3"
gpu cc99 '"sms": 14, "limits": {"max_blocks_per_sm": 8}'
sed -i 's/"2.0"/"99.99"/' "$TMP/cc99.json"
run "$WS" occupancy --gpu "$TMP/cc99.json" --threads 256
expect_rc 2 "cc 99.99"
expect_err "compute_capability: no built-in limits for compute capability 99.99" "cc 99.99"

# unknown keys (issue 14, point 8): errors naming the path, with a
# did-you-mean where a known key is close; a typo once left the value at its
# default in silence
refused typo '"smss": 14, "sms": 14' 'smss: unknown key (did you mean "sms"?)'
refused typo2 '"sms": 14, "limits": {"max_blocks_per_smm": 8}' \
  'limits.max_blocks_per_smm: unknown key (did you mean "max_blocks_per_sm"?)'
refused typo3 '"sms": 14, "cache": {"l2_byte": 786432}' 'cache.l2_byte: unknown key (did you mean "l2_bytes"?)'
refused typo4 '"sms": 14, "latencies": {"dramm": 400}' 'latencies.dramm: unknown key (did you mean "dram"?)'
refused typo5 '"sms": 14, "models": {"hong_kim": {"mem_ld": 420}}' 'models.hong_kim: unknown key (did you mean "hong-kim"?)'
refused colour '"sms": 14, "colour": "green"' 'colour: unknown key (docs/gpu-schema.md lists the keys)'
refused typo6 '"sms": 14, "models": {"hong-kim": {"issue_cycle": 4}}' \
  'models.hong-kim.issue_cycle: unknown parameter of model '"'"'hong-kim'"'"' (did you mean "issue_cycles"?)'
# a table for a model of one's own (a name far from every model's) still loads
gpu own '"sms": 14, "models": {"my-model": {"x": 1}}'
run "$WS" occupancy --gpu "$TMP/own.json" --threads 256
expect_rc 0 "own model table"

finish
