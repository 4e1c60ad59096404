# validate_generic.sh — `warpsight validate` and `calibrate` on the generic
# measured-data format (docs/validation.md, "Your own kernels"): kernel file,
# launch spec, GPU, seconds per row; paths relative to the data file.
#
# The "measured" seconds below are written by hand.  The model is roofline,
# whose time for these memory-bound vector additions is DRAM bytes / bandwidth
# (12 bytes per element: two f32 loads and one f32 store, every byte once):
#   vecadd    N = 100,000 on gtx680 (192.256 GB/s): 1.2e6 / 192.256e9 = 6.241678e-6 s
#   vecadd    N = 100,000 on gtx970 (224.32 GB/s):  1.2e6 / 224.32e9  = 5.349501e-6 s
#   vecadd    N = 200,000 on gtx680:                2.4e6 / 192.256e9 = 1.2483356e-5 s
#   vectorAdd N = 65,536  on gtx680:             786,432 / 192.256e9 = 4.090587e-6 s
# so the signed errors 100 (pred - meas) / meas are
#   A: meas 8.0e-6  -> -21.979 %      B: meas 5.0e-6 -> +6.990 %
#   C: meas 1.5e-5  -> -16.778 %      D: meas 4.0e-6 -> +2.265 %
# and the MAPEs: gtx680 vecadd (A, C) 19.378 %, gtx680 vectorAdd (D) 2.265 %,
# gtx680 all (A, C, D) 13.674 %, gtx970 (B) 6.990 %, all 12.003 %.
source "$WS_SRC/tests/cli/lib.sh"
mkdir -p "$TMP/set/k" "$TMP/set/l"
cp "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" "$TMP/set/k/"
cp "$WS_SRC/examples/validation/ptx/vectorAdd.sm_75.ptx" "$TMP/set/k/"
vec_launch() { # kernel N block
  local grid=$(( ($2 + $3 - 1) / $3 ))
  cat <<JSON
{"kernel": "$1", "grid": [$grid, 1, 1], "block": [$3, 1, 1], "dynamic_shared_bytes": 0,
 "args": [{"buffer": "a", "type": "f32", "count": $2, "init": {"random": {"seed": 1, "min": 0, "max": 1}}},
          {"buffer": "b", "type": "f32", "count": $2, "init": {"iota": {"start": 0, "step": 0.5}}},
          {"buffer": "c", "type": "f32", "count": $2, "init": "zero"},
          {"scalar": "n", "type": "s32", "value": $2}]}
JSON
}
vec_launch vecadd 100000 256 > "$TMP/set/l/vecadd-100k.json"
vec_launch vecadd 200000 256 > "$TMP/set/l/vecadd-200k.json"
vec_launch vectorAdd 65536 256 > "$TMP/set/l/va-64k.json"
cat > "$TMP/set/data.csv" <<'CSV'
kernel_file,kernel,launch,gpu,seconds
k/vecadd.sm_80.ptx,vecadd,l/vecadd-100k.json,GTX-680,8.0e-06
k/vecadd.sm_80.ptx,vecadd,l/vecadd-100k.json,gtx970,5.0e-06
k/vecadd.sm_80.ptx,,l/vecadd-200k.json,GTX-680,1.5e-05
k/vectorAdd.sm_75.ptx,vectorAdd,l/va-64k.json,gtx680,4.0e-06
CSV

# Run from another folder: the paths are the data file's.
cd "$TMP"
run "$WS" validate set/data.csv --models roofline --sample-blocks 0 --no-cache --report "$TMP/r"
expect_rc 0 "generic validate"
expect_out "4 rows, 0 failed" "generic validate"
mape() { # gpu kernel -> the MAPE column of that line of the table
  awk -v g="$1" -v k="$2" '$1 == g && $2 == k { c = k == "(all" ? 5 : 4; sub(/%/, "", $c); print $c; exit }' <<<"$OUT"
}
near() { awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; exit !(x != "" && d <= 0.051 && d >= -0.051) }'; }
check() { near "$(mape "$1" "$2")" "$3" || fail "generic: MAPE of $1 $2 is '$(mape "$1" "$2")', expected $3"; }
check gtx680 vecadd 19.378
check gtx680 vectorAdd 2.265
check gtx680 "(all" 13.674
check gtx970 vecadd 6.990
check all "(all" 12.003
# rows.csv: the per-row signed errors, in file order.
csv_col "$TMP/r/rows.csv" error_pct_roofline > "$TMP/errs" || fail "generic: rows.csv has no error_pct_roofline"
printf '%s\n' -21.979 6.990 -16.778 2.265 | paste - "$TMP/errs" |
  awk '{ d = $1 - $2; if (d > 0.002 || d < -0.002) { print "row " NR ": " $2 ", expected " $1; bad = 1 } } END { exit bad }' ||
  fail "generic: rows.csv errors"
[ ! -e "$TMP/r/counters.csv" ] || fail "generic: counters.csv without nvprof counters"

# --half: per GPU and kernel, rows by size alternate train/test, smallest
# first (the launch's threads here): gtx680 vecadd A (100,096 threads) is
# train, C (200,192) test; the single rows B and D are train.
run "$WS" validate set/data.csv --models roofline --sample-blocks 0 --no-cache --half test
expect_rc 0 "generic --half test"
expect_out "1 rows, 0 failed" "generic --half test"
check gtx680 vecadd 16.778

# --min-seconds keeps the rows measured at least that long: A (8e-6 s) and
# C (1.5e-5 s), not B (5e-6) or D (4e-6): gtx680 vecadd (A, C) 19.378 %.
run "$WS" validate set/data.csv --models roofline --sample-blocks 0 --no-cache --min-seconds 6e-6
expect_rc 0 "generic --min-seconds"
expect_out "2 rows, 0 failed" "generic --min-seconds"
check gtx680 vecadd 19.378
check all "(all" 19.378
run "$WS" validate set/data.csv --models roofline --no-cache --min-seconds 1
expect_rc 2 "generic --min-seconds above every row"
expect_err "left after the selection (--gpu, --kernels, --half, --min-seconds, --limit)" "generic --min-seconds above every row"
run "$WS" validate set/data.csv --models roofline --no-cache --min-seconds 50us
expect_rc 2 "generic --min-seconds not a number"
expect_err "--min-seconds: expected a number of seconds" "generic --min-seconds not a number"

# --gpus and --kernels select among the file's own names.
run "$WS" validate set/data.csv --models roofline --sample-blocks 0 --no-cache --gpus GTX-970 --kernels vecadd
expect_rc 0 "generic filters"
expect_out "1 rows, 0 failed" "generic filters"
run "$WS" validate set/data.csv --models roofline --no-cache --kernels nope
expect_rc 2 "generic unknown kernel"
expect_err "unknown kernel 'nope'; known:" "generic unknown kernel"
expect_err " vecadd" "generic unknown kernel"

# Calibration reads the format too (too few rows per GPU here to fit: it
# must say so, not crash).
run "$WS" calibrate set/data.csv --gpu gtx970 --model hong-kim --no-cache
expect_rc 2 "generic calibrate"
expect_err "1 rows of gtx970 selected" "generic calibrate"

# A GPU file in the gpu column (relative to the data file): the rows take the
# name inside the file.  gtx680 with twice the bandwidth, named gtx680-fast:
# roofline 1.2e6 / 384.512e9 = 3.120839e-6 s against a measured 4.0e-6 s is
# -21.979 %.
mkdir -p set/gpus
sed -e 's/"value": 192.256,/"value": 384.512,/' -e 's/"name": "gtx680"/"name": "gtx680-fast"/' \
    "$WS_SRC/data/gpus/gtx680.json" > set/gpus/fast.json
{ head -1 set/data.csv; echo "k/vecadd.sm_80.ptx,vecadd,l/vecadd-100k.json,gpus/fast.json,4.0e-06"
  sed -n 2p set/data.csv; } > set/file-gpu.csv
run "$WS" validate set/file-gpu.csv --models roofline --sample-blocks 0 --no-cache --gpus gtx680-fast
expect_rc 0 "generic GPU file"
expect_out "1 rows, 0 failed" "generic GPU file"
check gtx680-fast vecadd 21.979
{ head -1 set/data.csv; echo "k/vecadd.sm_80.ptx,vecadd,l/vecadd-100k.json,gpus/none.json,4.0e-06"; } > set/bad0.csv
run "$WS" validate set/bad0.csv --no-cache
expect_rc 2 "generic missing GPU file"
expect_err "bad0.csv:2: error: column gpu: the GPU file 'gpus/none.json' does not load" "generic missing GPU file"

# Errors name the data file's line and the column.
{ head -1 set/data.csv; echo "k/vecadd.sm_80.ptx,vecadd,l/none.json,gtx680,1e-5"; } > set/bad1.csv
run "$WS" validate set/bad1.csv --no-cache
expect_rc 2 "generic missing launch"
expect_err "bad1.csv:2: error: column launch: the launch spec 'l/none.json' does not load" "generic missing launch"
{ head -1 set/data.csv; echo "k/vecadd.sm_80.ptx,saxpy,l/vecadd-100k.json,gtx680,1e-5"; } > set/bad2.csv
run "$WS" validate set/bad2.csv --no-cache
expect_rc 2 "generic kernel mismatch"
expect_err "bad2.csv:2: error: column kernel: 'saxpy', but the launch spec 'l/vecadd-100k.json' is for kernel 'vecadd'" "generic kernel mismatch"
{ head -1 set/data.csv; echo "k/vecadd.sm_80.ptx,vecadd,l/vecadd-100k.json,gtx680,-3"; } > set/bad3.csv
run "$WS" validate set/bad3.csv --no-cache
expect_rc 2 "generic bad seconds"
expect_err "bad3.csv:2: error: column seconds: expected a positive time in seconds, a decimal number from 1e-9 to 1e6, got '-3'" "generic bad seconds"
printf 'kernel_file,gpu\nk/vecadd.sm_80.ptx,gtx680\n' > set/bad4.csv
run "$WS" validate set/bad4.csv --no-cache
expect_rc 2 "generic missing columns"
expect_err "bad4.csv:1: error: missing column 'launch'" "generic missing columns"
{ head -1 set/data.csv; echo "k/none.ptx,vecadd,l/vecadd-100k.json,gtx680,1e-5"; } > set/bad5.csv
run "$WS" validate set/bad5.csv --no-cache --models roofline
expect_rc 2 "generic missing kernel file"
expect_err "none.ptx" "generic missing kernel file"
expect_no_crash "generic missing kernel file"
finish
