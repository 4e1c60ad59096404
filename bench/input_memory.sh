#!/usr/bin/env bash
# input_memory.sh — peak resident memory of reading large inputs (issue 24,
# row 6): a 50 MB launch spec of [0,0,...] (25 million values; it took
# 3.18 GB and 20 s when every value became a cJSON node), a 200 MB
# measured-times CSV (the Amarís rows repeated; it took 1.5 GB as a
# malloc'd string per cell), and a CSV just under the cell limit, read
# whole.  Prints the wall time and peak RSS of each; the first two end in
# the limit's error, which is the point: they are refused before their
# size turns into memory.
#
#   bench/input_memory.sh [BUILD_DIR]
#
# Run it with an older build's folder to compare.  Not run by ctest.
. "$(dirname "$0")/peak_rss.sh"
python3 - "$TMP" <<'PY'
import sys
d = sys.argv[1]
n = 25_000_000  # "0," is 2 bytes: a 50 MB file
with open(f"{d}/zeros.json", "w") as f:
    f.write('{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", '
            f'"type": "u8", "count": {n}, "init": {{"values": [')
    f.write("0," * (n - 1) + "0")
    f.write(']}}, {"buffer": "out", "type": "f32", "count": 32}, {"scalar": "off", "type": "s32", "value": 0}]}\n')
PY
DATA=$SRC/data/validation/amaris-measured-dev.csv
{ head -1 "$DATA"; for _ in $(seq 1 330); do tail -n +2 "$DATA"; done; } >"$TMP/big.csv"
# 4,194,304 cells / 27 columns = 155,344 lines with the header: the most under the limit
{ head -1 "$DATA"; for _ in $(seq 1 51); do tail -n +2 "$DATA"; done; } >"$TMP/u51.csv"
head -155000 "$TMP/u51.csv" >"$TMP/under.csv"
rm -f "$TMP/u51.csv"
echo "inputs: zeros.json $(stat -c %s "$TMP/zeros.json") bytes, big.csv $(stat -c %s "$TMP/big.csv") bytes," \
  "under.csv $(stat -c %s "$TMP/under.csv") bytes ($(( $(wc -l <"$TMP/under.csv") * 27 )) cells)"
peak() { # DESC CMD...: like run_peak, but the command may fail (the refusals)
  local desc=$1
  shift
  /usr/bin/time -v "$@" >"$TMP/out" 2>"$TMP/time" || true
  local rss wall
  rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$TMP/time")
  echo "$desc: wall time $wall, peak RSS $(( rss / 1024 )) MB ($rss kB)"
  grep -m1 "error" "$TMP/time" | cut -c1-160 || true
}
peak "run, 50 MB launch spec of zeros" "$WS" run "$SRC/tests/emu-bad/faults.ptx" --launch "$TMP/zeros.json"
peak "validate, 200 MB CSV" "$WS" validate "$TMP/big.csv" --limit 1 --no-cache --models roofline \
  --ptx-dir "$SRC/examples/validation/ptx"
peak "validate, CSV just under the cell limit" "$WS" validate "$TMP/under.csv" --limit 1 --no-cache \
  --models roofline --ptx-dir "$SRC/examples/validation/ptx"
