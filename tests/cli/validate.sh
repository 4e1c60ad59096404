# validate.sh — `warpsight validate` and `calibrate`: usage, input errors with
# file:line, and the clear refusal while profiling is not available.
source "$WS_SRC/tests/cli/lib.sh"
DATA="$WS_SRC/data/validation/amaris-measured-dev.csv"
PTX="$WS_SRC/examples/validation/ptx"

run "$WS" validate --help
expect_rc 0 "validate --help"
expect_out "usage: warpsight validate DATA.csv" "validate --help"
expect_out "--sample-blocks N" "validate --help"
run "$WS" calibrate --help
expect_rc 0 "calibrate --help"
expect_out "mem_ld, departure_del_uncoal, departure_del_coal" "calibrate --help"

# No predictor yet: a clear refusal, nothing on stdout, no numbers invented.
run "$WS" validate "$DATA" --ptx-dir "$PTX" --no-cache
expect_rc 2 "validate refuses"
expect_err "profiling is not available yet" "validate refuses"
expect_err "3100 launch specs were read and checked" "validate refuses"
[ -z "$OUT" ] || fail "validate refusal printed on stdout: $OUT"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus GTX-970,k20 --kernels dotProd --limit 5
expect_rc 2 "validate filtered"
expect_err "predicting the 5 selected rows" "validate --limit"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx680 --kernels subSeqMax
expect_err "predicting the 69 selected rows" "validate filters"
run "$WS" calibrate "$DATA" --ptx-dir "$PTX" --gpu GTX-680 --model hong-kim
expect_rc 2 "calibrate refuses"
expect_err "profiling is not available yet" "calibrate refuses"
expect_err "982 selected rows" "calibrate selects one GPU"

# --launches writes the selected rows' launch specs and stops (exit 0).
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx680 --kernels vectorAdd --limit 3 --launches "$TMP/l"
expect_rc 0 "--launches"
expect_out "wrote 3 launch specs" "--launches"
[ "$(ls "$TMP/l" | wc -l)" -eq 3 ] || fail "--launches: expected 3 files, got $(ls "$TMP/l")"
# line 2551, the first vectorAdd row: N 131072, grid 2048 = 131072 / 64
grep -Eq '"grid":[[:space:]]*\[2048, 1, 1\]' "$TMP/l/L2551-vectorAdd.json" || fail "--launches: grid of line 2551"
grep -Eq '"value":[[:space:]]*131072' "$TMP/l/L2551-vectorAdd.json" || fail "--launches: n of line 2551"

# Usage errors.
run "$WS" validate
expect_rc 2 "no data"
expect_err "expected one DATA.csv" "no data"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx280
expect_rc 2 "unknown gpu"
expect_err "unknown GPU 'gtx280'" "unknown gpu"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --kernels vectorAdd,nope
expect_rc 2 "unknown kernel"
expect_err "unknown kernel 'nope'" "unknown kernel"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --models hong-kim,nope
expect_rc 2 "unknown model"
expect_err "nope" "unknown model"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --limit ten
expect_rc 2 "bad limit"
expect_err "--limit expects a non-negative integer" "bad limit"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --models ,
expect_rc 2 "empty list item"
expect_err "empty item" "empty list item"
run "$WS" validate "$DATA" --ptx-dir "$PTX" --cache "$TMP/c" --no-cache
expect_rc 2 "cache conflict"
run "$WS" validate "$DATA" --ptx-dir "$TMP/none"
expect_rc 2 "no ptx dir"
expect_err "is not a folder" "no ptx dir"
run "$WS" calibrate "$DATA" --ptx-dir "$PTX" --gpu k20
expect_rc 2 "calibrate without model"
expect_err "--model is required" "calibrate without model"
run "$WS" calibrate "$DATA" --ptx-dir "$PTX" --gpu k20 --model nope
expect_rc 2 "calibrate unknown model"

# Bad data: errors name file:line and the column; a quoted signature with
# commas is one field.
HDR=$(head -1 "$DATA")
{ echo "$HDR"; sed -n 2p "$DATA" | sed 's/,131072,2048,/,131072,1024,/'; } > "$TMP/grid.csv"
run "$WS" validate "$TMP/grid.csv" --ptx-dir "$PTX"
expect_rc 2 "grid mismatch"
expect_err "grid.csv:2: error: dotProd, Input.Size 131072: grid should be 2048 x 1 x 1, the row has 1024 x 1 x 1" "grid mismatch"
{ echo "$HDR"; sed -n 2,3p "$DATA"; sed -n 4p "$DATA" | sed 's/,13,256,0,[^,]*,/,13,256,0,fast,/'; } > "$TMP/dur.csv"
run "$WS" validate "$TMP/dur.csv" --ptx-dir "$PTX"
expect_rc 2 "bad duration"
expect_err "dur.csv:4: error: column Duration: expected a positive time in seconds, got 'fast'" "bad duration"
{ echo "$HDR"; sed -n 2p "$DATA" | sed 's/"dotProd(float\*/"dotProd(float*"x/'; } > "$TMP/quote.csv"
run "$WS" validate "$TMP/quote.csv" --ptx-dir "$PTX"
expect_rc 2 "bad quote"
expect_err "quote.csv:2:" "bad quote"
expect_no_crash "bad quote"
: > "$TMP/empty.csv"
run "$WS" validate "$TMP/empty.csv" --ptx-dir "$PTX"
expect_rc 2 "empty file"
expect_err "empty file" "empty file"
run "$WS" validate "$TMP/missing.csv" --ptx-dir "$PTX"
expect_rc 2 "missing file"
expect_err "cannot open" "missing file"
finish
