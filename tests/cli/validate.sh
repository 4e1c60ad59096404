# validate.sh — `warpsight validate` and `calibrate`: usage, input errors with
# file:line, and small end-to-end runs with real profiling (emulator +
# profiler + models on a handful of rows).
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

# End to end on four small vectorAdd rows of the GTX 680 (N = 131072 ..
# 1048576, the first rows of the kernel in the file): every row predicted, the
# table has one line per GPU/kernel, all errors finite.
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx680 --kernels vectorAdd --limit 4 \
    --models hong-kim,gpuperf,roofline --cache "$TMP/c" --report "$TMP/r"
expect_rc 0 "validate slice"
expect_out "4 rows, 0 failed, 0 profiles from the cache" "validate slice"
for m in hong-kim gpuperf roofline; do
  expect_out "model $m" "validate slice"
  # the row "gtx680 vectorAdd 4 <mape>% <median>% <within>% <rho>": numbers, not '-'
  LINE=$(awk -v m="$m" '$1 == "model" { cur = $2 } cur == m && $1 == "gtx680" && $2 == "vectorAdd"' <<<"$OUT")
  [[ "$LINE" =~ ^\ *gtx680\ +vectorAdd\ +4\ +[0-9.]+%\ +[0-9.]+%\ +[0-9]+%\ +-?[0-9.]+$ ]] ||
    fail "validate slice: $m table row '$LINE'"
done
FIRST=$(cat "$TMP/out")
[ "$(wc -l < "$TMP/r/rows.csv")" -eq 5 ] || fail "rows.csv: expected a header and 4 rows"
# error_pct = 100 (predicted - measured) / measured, recomputed here; finite.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { m = $col["measured_s"]; p = $col["predicted_s_hong-kim"]; e = $col["error_pct_hong-kim"]
    if (!(m > 0) || !(p > 0) || e != e + 0) { print "bad row " NR ": " $0; bad = 1 }
    d = 100 * (p - m) / m - e; if (d > 1e-3 || d < -1e-3) { print "error_pct mismatch row " NR; bad = 1 } }
  END { exit bad }' "$TMP/r/rows.csv" || fail "rows.csv errors"
[ -s "$TMP/r/summary.txt" ] || fail "summary.txt missing"
# The same rows again: every profile from the cache, the same numbers.
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx680 --kernels vectorAdd --limit 4 \
    --models hong-kim,gpuperf,roofline --cache "$TMP/c"
expect_rc 0 "validate cached"
expect_out "4 rows, 0 failed, 4 profiles from the cache" "validate cached"
[ "$(grep -v 'profiles from the cache' <<<"$OUT")" = "$(grep -v 'profiles from the cache' <<<"$FIRST")" ] ||
  fail "cached run printed different tables"
# The cache is per GPU facts: the GTX 970 rows of the same launches miss it.
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx970 --kernels vectorAdd --limit 2 \
    --models roofline --cache "$TMP/c"
expect_rc 0 "validate other gpu"
expect_out "2 rows, 0 failed, 0 profiles from the cache" "validate other gpu"
# two rows: no rank correlation ('-', not the 1.000 two pairs always give)
LINE=$(awk '$1 == "gtx970" && $2 == "vectorAdd"' <<<"$OUT")
[[ "$LINE" =~ ^\ *gtx970\ +vectorAdd\ +2\ +[0-9.]+%\ +[0-9.]+%\ +[0-9]+%\ +-$ ]] ||
  fail "validate two rows: spearman not '-': '$LINE'"

# Calibration end to end on the small vectorAdd rows of the GTX 680 (N <= 4 M):
# it fits, writes the GPU file, and the held-out error is finite and not worse.
{ head -1 "$DATA"; grep '^GTX-680,.*,vectorAdd,' "$DATA" | awk -F'",' '{ split($2, f, ",") } f[1] + 0 <= 4194304'; } > "$TMP/small.csv"
run "$WS" calibrate "$TMP/small.csv" --ptx-dir "$PTX" --gpu gtx680 --model hong-kim --no-cache -o "$TMP/cal.json"
expect_rc 0 "calibrate slice"
expect_out "calibrated hong-kim on gtx680" "calibrate slice"
[ -s "$TMP/cal.json" ] || fail "calibrate: no GPU file"
HELD=$(grep "held out" <<<"$OUT")
[[ "$HELD" =~ MAPE\ +([0-9.]+)%\ +-\>\ +([0-9.]+)% ]] || fail "calibrate: held-out line '$HELD'"
awk -v b="${BASH_REMATCH[1]:-nan}" -v a="${BASH_REMATCH[2]:-nan}" 'BEGIN { exit !(a + 0 <= b + 0) }' ||
  fail "calibrate: held-out MAPE got worse: $HELD"

# --gpu-file end to end: validate with the file calibrate wrote.  Over all
# rows, the MAPE is the row-weighted mean of the two halves calibrate printed:
# (9 x training + 9 x held-out) / 18 with the "after" values, and with the
# "before" values without the file (one decimal each, so within 0.1).
TRAIN=$(grep "training" <<<"$OUT")
[[ "$TRAIN" =~ training\ +([0-9]+)\ rows\ +MAPE\ +([0-9.]+)%\ +-\>\ +([0-9.]+)% ]] ||
  fail "calibrate: training line '$TRAIN'"
NTR=${BASH_REMATCH[1]:-0} TRB=${BASH_REMATCH[2]:-nan} TRA=${BASH_REMATCH[3]:-nan}
[[ "$HELD" =~ held\ out\ +([0-9]+)\ rows\ +MAPE\ +([0-9.]+)%\ +-\>\ +([0-9.]+)% ]]
NTE=${BASH_REMATCH[1]:-0} TEB=${BASH_REMATCH[2]:-nan} TEA=${BASH_REMATCH[3]:-nan}
all_mape() { awk '$1 == "all" { sub(/%/, "", $5); print $5; exit }' <<<"$OUT"; }
near() { awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; exit !(d <= 0.1001 && d >= -0.1001) }'; }
run "$WS" validate "$TMP/small.csv" --ptx-dir "$PTX" --models hong-kim --cache "$TMP/c2" \
    --gpu-file gtx680="$TMP/cal.json"
expect_rc 0 "validate --gpu-file"
WANT=$(awk -v a="$NTR" -v x="$TRA" -v b="$NTE" -v y="$TEA" 'BEGIN { print (a * x + b * y) / (a + b) }')
near "$(all_mape)" "$WANT" || fail "validate --gpu-file: MAPE $(all_mape), calibrate's halves give $WANT"
run "$WS" validate "$TMP/small.csv" --ptx-dir "$PTX" --models hong-kim --cache "$TMP/c2"
WANT=$(awk -v a="$NTR" -v x="$TRB" -v b="$NTE" -v y="$TEB" 'BEGIN { print (a * x + b * y) / (a + b) }')
near "$(all_mape)" "$WANT" || fail "validate without --gpu-file: MAPE $(all_mape), expected $WANT"
expect_out "18 profiles from the cache" "the cache key does not hold model parameters"

# A GPU file in --gpus: the GTX 680 with twice the DRAM bandwidth.  vectorAdd
# is memory-bound for roofline (12 bytes per element / bandwidth: 131072 x
# 12 / 192.256e9 = 8.18e-6 s at the first row), so every prediction halves.
sed 's/"value": 192.256,/"value": 384.512,/' "$WS_SRC/data/gpus/gtx680.json" > "$TMP/fast680.json"
run "$WS" validate "$TMP/small.csv" --ptx-dir "$PTX" --models roofline --cache "$TMP/c2" --report "$TMP/r0"
expect_rc 0 "roofline database"
run "$WS" validate "$TMP/small.csv" --ptx-dir "$PTX" --models roofline --cache "$TMP/c2" \
    --gpus "$TMP/fast680.json" --report "$TMP/r1"
expect_rc 0 "--gpus FILE"
csv_col "$TMP/r0/rows.csv" predicted_s_roofline > "$TMP/p0"
csv_col "$TMP/r1/rows.csv" predicted_s_roofline > "$TMP/p1"
paste "$TMP/p0" "$TMP/p1" | awk 'NR == 1 { d = $1 - 8.181e-6; if (d > 1e-9 || d < -1e-9) bad = 1 }
  { r = $2 / $1; if (r < 0.499999 || r > 0.500001) bad = 1; n++ } END { exit bad || n != 18 }' ||
  fail "--gpus FILE: roofline predictions did not halve with twice the bandwidth"
# A board no table knows, with its own file: its rows are accepted.
sed 's/"name": "gtx680"/"name": "gtx750"/' "$WS_SRC/data/gpus/gtx680.json" > "$TMP/g750.json"
{ head -1 "$TMP/small.csv"; sed -n 2,3p "$TMP/small.csv" | sed 's/^GTX-680,/GTX-750,/'; } > "$TMP/s750.csv"
run "$WS" validate "$TMP/s750.csv" --ptx-dir "$PTX" --models roofline --cache "$TMP/c2" \
    --gpu-file GTX-750="$TMP/g750.json"
expect_rc 0 "--gpu-file for an unknown board"
expect_out "2 rows, 0 failed" "--gpu-file for an unknown board"
run "$WS" validate "$TMP/s750.csv" --ptx-dir "$PTX" --gpu-file GTX-750="$TMP/none.json"
expect_rc 2 "--gpu-file missing file"
expect_err "is not a usable GPU file" "--gpu-file missing file"
run "$WS" validate "$TMP/s750.csv" --ptx-dir "$PTX" --gpu-file GTX-750
expect_rc 2 "--gpu-file without ="
expect_err "--gpu-file expects NAME=FILE.json" "--gpu-file without ="

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
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus gtx9999
expect_rc 2 "unknown gpu"
expect_err "unknown GPU 'gtx9999'; known: GTX-680 (gtx680), " "unknown gpu"
expect_err "TitanBlack (titan-black)" "unknown gpu"
# Every board of the data set and any database GPU is a known name (none of
# these has rows in the dev file).
run "$WS" validate "$DATA" --ptx-dir "$PTX" --gpus Tesla-K40,TitanBlack,Titan,TitanX,GTX-980,Quadro,gtx280
expect_rc 2 "known gpus without rows"
expect_err "was measured on those GPUs (its rows are for " "known gpus without rows"
run "$WS" calibrate "$DATA" --ptx-dir "$PTX" --gpu quadro-k5200 --model hong-kim
expect_rc 2 "calibrate any database gpu"
expect_err "0 rows of quadro-k5200 selected" "calibrate any database gpu"
run "$WS" calibrate "$DATA" --ptx-dir "$PTX" --gpu nope --model hong-kim
expect_rc 2 "calibrate unknown gpu"
expect_err "--gpu: unknown GPU 'nope'; known: GTX-680 (gtx680)" "calibrate unknown gpu"
# An unknown name in the data is ONE error, not one per row.
{ head -1 "$DATA"; sed -n 2,4p "$DATA" | sed 's/^GTX-680,/GTX-750,/'; } > "$TMP/g750.csv"
run "$WS" validate "$TMP/g750.csv" --ptx-dir "$PTX"
expect_rc 2 "unknown gpu in data"
expect_err "g750.csv:2: error: column gpu_name: unknown GPU name 'GTX-750' (3 rows, first on line 2); known:" "unknown gpu in data"
[ "$(grep -c 'error' <<<"$ERR")" -eq 1 ] || fail "unknown gpu in data: expected one error, got: $ERR"
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
expect_err "an empty model name in the list" "empty list item"
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
expect_err "dur.csv:4: error: column Duration: expected a positive time in seconds, a decimal number from 1e-9 to 1e6, got 'fast'" "bad duration"
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
