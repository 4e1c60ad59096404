#!/bin/bash
# harden2.sh — the bad-input campaign of issue 24 (hardening, round two):
# one section per row of its table, each case failing before its fix (the
# issue says what was observed).  Large inputs are generated here, not
# stored.  The CUDA runtime's rows (2, 3, 4, 7, 8, 9) are tested with the
# runtime (tests/programs).
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/tests/emu-bad"
H="$D/hostile.ptx"
VEC="$WS_SRC/examples/kernels/vecadd.sm_80.ptx"
VECL="$WS_SRC/examples/kernels/vecadd.launch.json"
sane() { # no crash, no sanitizer report
  expect_no_crash "$1"
  ! grep -qE "Sanitizer|runtime error" <<<"$ERR" || fail "$1: sanitizer report: $ERR"
}
copy_spec() { # copy_spec FILE INIT: the faults.ptx copy kernel, `in` initialised by INIT
  printf '{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", "type": "f32", "count": 32, "init": %s}, {"buffer": "out", "type": "f32", "count": 32}, {"scalar": "off", "type": "s32", "value": 0}]}\n' "$2" >"$1"
}

# --- row 1: a file name from data is never an option ------------------------------
# A fake nvcc first on PATH records its arguments (and fails): the tools the
# project starts must get file names as files.
mkdir -p "$TMP/bin" "$TMP/d1"
cat >"$TMP/bin/nvcc" <<SH
#!/bin/sh
printf '%s\n' "\$@" >>"$TMP/nvcc.args"
exit 1
SH
chmod +x "$TMP/bin/nvcc"
FAKEPATH="$TMP/bin:$PATH"
cp "$VECL" "$TMP/d1/v.json"
printf -- '-ccbin ./fakecc\n' >"$TMP/d1/-optf=o.cu"
printf 'kernel_file,launch,gpu,seconds\n-optf=o.cu,v.json,gtx680,1e-5\n' >"$TMP/d1/data.csv"
rm -f "$TMP/nvcc.args"
(cd "$TMP/d1" && PATH=$FAKEPATH "$WS" validate data.csv --no-cache --models roofline) >"$TMP/out" 2>"$TMP/err"
RC=$? ERR=$(cat "$TMP/err")
expect_rc 2 "kernel_file -optf=o.cu"
expect_err "data.csv:2: error: column kernel_file: the file name '-optf=o.cu' begins with '-', which a tool would read as an option (write ./-optf=o.cu)" "kernel_file -optf=o.cu"
! grep -q '^-optf' "$TMP/nvcc.args" 2>/dev/null || fail "kernel_file -optf=o.cu: nvcc got it as an option: $(cat "$TMP/nvcc.args")"
# a file named on the command line after -- reaches nvcc as ./NAME
rm -f "$TMP/nvcc.args"
(cd "$TMP/d1" && PATH=$FAKEPATH "$WS" analyze -- -optf=o.cu) >"$TMP/out" 2>"$TMP/err"
RC=$? ERR=$(cat "$TMP/err")
expect_rc 2 "analyze -- -optf=o.cu"
expect_err "nvcc failed on -optf=o.cu" "analyze -- -optf=o.cu"
grep -qx -- './-optf=o.cu' "$TMP/nvcc.args" 2>/dev/null || fail "analyze -- -optf=o.cu: nvcc did not get ./-optf=o.cu: $(cat "$TMP/nvcc.args" 2>&1)"
! grep -q -- '^-optf' "$TMP/nvcc.args" 2>/dev/null || fail "analyze -- -optf=o.cu: nvcc got it as an option"

# --- row 12: data files stay in the data folder; no message quotes a file -------
# that is not of the expected kind
mkdir -p "$TMP/d12/l" "$TMP/d12/k"
printf 'SECRET-LINE root:x:0:0\nSECRET-TWO\n' >"$TMP/secret.txt"
cp "$VEC" "$TMP/d12/k/v.ptx"
cp "$VECL" "$TMP/d12/l/v.json"
ln -s "$TMP/secret.txt" "$TMP/d12/k/link.ptx"
gen() { # gen NAME KERNEL_FILE LAUNCH [GPU]: a one-row generic CSV in d12
  printf 'kernel_file,launch,gpu,seconds\n%s,%s,%s,1e-5\n' "$2" "$3" "${4:-gtx680}" >"$TMP/d12/$1.csv"
}
nosecret() { ! grep -q SECRET <<<"$ERR$OUT" || fail "$1: a message quotes the file: $ERR"; }
gen up ../secret.txt l/v.json
gen link k/link.ptx l/v.json
gen proc k/v.ptx /proc/self/environ
gen gpu k/v.ptx l/v.json ../secret.json
cp "$TMP/secret.txt" "$TMP/secret.json"
for c in up:kernel_file:../secret.txt link:kernel_file:k/link.ptx proc:launch:/proc/self/environ gpu:gpu:../secret.json; do
  IFS=: read -r name col file <<<"$c"
  run "$WS" validate "$TMP/d12/$name.csv" --no-cache --models roofline
  sane "outside ($name)"
  expect_rc 2 "outside ($name)"
  expect_err "$name.csv:2: error: column $col: '$file' is outside the data file's folder $(cd "$TMP/d12" && pwd -P), so it is not read (give --allow-outside-data to read files anywhere)" "outside ($name)"
  nosecret "outside ($name)"
done
# a launch spec in the folder that reads a file outside it
printf '{"kernel": "vecadd", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "a", "type": "u8", "count": 8, "init": {"file": "../../secret.txt"}}, {"buffer": "b", "type": "f32", "count": 32}, {"buffer": "c", "type": "f32", "count": 32}, {"scalar": "n", "type": "s32", "value": 32}]}\n' >"$TMP/d12/l/init.json"
gen init k/v.ptx l/init.json
run "$WS" validate "$TMP/d12/init.csv" --no-cache --models roofline
expect_rc 2 "init file outside"
expect_err "init.csv:2: error: column launch: the launch spec 'l/init.json' initialises argument a from a file: '" "init file outside"
expect_err "secret.txt' is outside the data file's folder" "init file outside"
# allowed, the files are read, but what is not PTX or JSON is not quoted
run "$WS" validate "$TMP/d12/up.csv" --no-cache --models roofline --allow-outside-data
expect_rc 2 "outside allowed, not PTX"
expect_err "secret.txt:1:1: error: not a PTX module: it does not begin with a directive such as .version (its text is not shown)" "outside allowed, not PTX"
nosecret "outside allowed, not PTX"
gen json k/v.ptx ../secret.txt
run "$WS" validate "$TMP/d12/json.csv" --no-cache --models roofline --allow-outside-data
expect_rc 2 "outside allowed, not JSON"
expect_err "secret.txt:1:1: error: not a JSON document: it does not begin with '{' (its text is not shown)" "outside allowed, not JSON"
nosecret "outside allowed, not JSON"
run "$WS" validate "$TMP/d12/gpu.csv" --no-cache --models roofline --allow-outside-data
expect_rc 2 "outside allowed, GPU not JSON"
nosecret "outside allowed, GPU not JSON"
# the files inside are read as before
gen ok k/v.ptx l/v.json
run "$WS" validate "$TMP/d12/ok.csv" --no-cache --models roofline --sample-blocks 1
expect_rc 0 "inside"

# --- rows 5 and 17: outputs are regular files, committed all or none -----------
# run --out with two outputs: copy's `in` and `out` buffers
printf '{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", "type": "f32", "count": 32, "init": {"iota": {"start": 1, "step": 1}}, "output": "in.bin"}, {"buffer": "out", "type": "f32", "count": 32, "output": "out.bin"}, {"scalar": "off", "type": "s32", "value": 0}]}\n' >"$TMP/two.json"
mkdir -p "$TMP/o5"
# a FIFO, a symlink to a device, a folder: errors, each left as it was (a
# device node was replaced by a regular file, as root even /dev/null)
mkfifo "$TMP/o5/out.bin"
run "$WS" run "$D/faults.ptx" --launch "$TMP/two.json" --out "$TMP/o5"
sane "output FIFO"
expect_rc 2 "output FIFO"
expect_err "o5/out.bin: error: cannot write: it is a FIFO (named pipe); an output must be a regular file (left as it is)" "output FIFO"
[ -p "$TMP/o5/out.bin" ] || fail "output FIFO: the FIFO was replaced"
[ ! -e "$TMP/o5/in.bin" ] || fail "output FIFO: in.bin was written although out.bin was not (all or none)"
ln -s /dev/null "$TMP/p-null.json"
run "$WS" profile "$VEC" --launch "$VECL" -o "$TMP/p-null.json"
expect_rc 2 "output symlink to /dev/null"
expect_err "p-null.json: error: cannot write: it is a symbolic link to a character device; an output must be a regular file (left as it is)" "output symlink to /dev/null"
[ -L "$TMP/p-null.json" ] || fail "output symlink to /dev/null: the link was replaced"
if mknod "$TMP/null" c 1 3 2>/dev/null; then # as root: a device node of our own
  run "$WS" profile "$VEC" --launch "$VECL" -o "$TMP/null"
  expect_rc 2 "output device node"
  expect_err "null: error: cannot write: it is a character device; an output must be a regular file" "output device node"
  [ -c "$TMP/null" ] || fail "output device node: replaced by a regular file"
fi
# row 17: the second output cannot be written, so the first is not replaced
rm -f "$TMP/o5/out.bin"
echo old >"$TMP/o5/in.bin"
mkdir "$TMP/o5/out.bin"
run "$WS" run "$D/faults.ptx" --launch "$TMP/two.json" --out "$TMP/o5"
expect_rc 2 "second output fails"
expect_err "o5/out.bin: error: cannot write: it is a directory; an output must be a regular file (left as it is)" "second output fails"
expect_err "none of the 2 outputs was written: they are committed all or none" "second output fails"
[ "$(cat "$TMP/o5/in.bin")" = old ] || fail "second output fails: the first output was replaced"
[ "$(ls -A "$TMP/o5" | tr '\n' ' ')" = "in.bin out.bin " ] || fail "second output fails: left behind: $(ls -A "$TMP/o5")"
rmdir "$TMP/o5/out.bin"
run "$WS" run "$D/faults.ptx" --launch "$TMP/two.json" --out "$TMP/o5"
expect_rc 0 "both outputs"
[ "$(stat -c %s "$TMP/o5/in.bin"):$(stat -c %s "$TMP/o5/out.bin")" = 128:128 ] || fail "both outputs: not 128 bytes each"
# validate --report: floors.csv cannot be written, so rows.csv (written
# before it) and the rest stay as they were
mkdir -p "$TMP/rep"
echo old >"$TMP/rep/rows.csv"
mkdir "$TMP/rep/floors.csv"
head -3 "$WS_SRC/data/validation/amaris-measured-dev.csv" >"$TMP/two.csv"
run "$WS" validate "$TMP/two.csv" --models roofline --ptx-dir "$WS_SRC/examples/validation/ptx" --no-cache --report "$TMP/rep"
expect_rc 2 "validate --report, one output fails"
expect_err "rep/floors.csv: error: cannot write: it is a directory" "validate --report, one output fails"
[ "$(cat "$TMP/rep/rows.csv")" = old ] || fail "validate --report, one output fails: rows.csv was replaced"
[ "$(ls -A "$TMP/rep" | tr '\n' ' ')" = "floors.csv rows.csv " ] || fail "validate --report, one output fails: left: $(ls -A "$TMP/rep")"
# a chart is its .png and .svg together
if "$WS" sweep --help >/dev/null 2>&1 && grep -q "^CAIRO_FOUND:INTERNAL=1" "${WS_BUILD:-.}/CMakeCache.txt" 2>/dev/null; then
  mkdir -p "$TMP/sw"
  echo old >"$TMP/sw/vecadd-sweep.png"
  mkdir "$TMP/sw/vecadd-sweep.svg"
  run "$WS" sweep "$VEC" --launch "$VECL" --block 128..256 --model roofline --out "$TMP/sw"
  expect_rc 2 "chart pair"
  [ "$(cat "$TMP/sw/vecadd-sweep.png")" = old ] || fail "chart pair: the PNG was replaced without its SVG"
fi

# --- row 15: the profile cache ---------------------------------------------------
head -4 "$WS_SRC/data/validation/amaris-measured-dev.csv" >"$TMP/c3.csv"
val3() { run "$WS" validate "$TMP/c3.csv" --models roofline --ptx-dir "$WS_SRC/examples/validation/ptx" "$@"; }
# a cache folder that cannot be written (a file where its parent should be):
# a warning, and every row predicted (every row once failed)
touch "$TMP/afile"
val3 --cache "$TMP/afile/cache"
sane "unwritable cache"
expect_rc 0 "unwritable cache"
expect_out "3 rows, 0 failed" "unwritable cache"
expect_err "afile/cache: warning: the profile cache cannot be written (cannot create the cache folder: Not a directory); going on without it" "unwritable cache"
[ "$(grep -c "cache cannot be written" <<<"$ERR")" -eq 1 ] || fail "unwritable cache: the warning is not given once: $ERR"
# entries carry their key and a checksum: one edited by hand, one that is a
# copy of another launch's entry are ignored with a warning and recomputed
val3 --cache "$TMP/c15"
expect_out "3 rows, 0 failed, 0 profiles from the cache" "cache filled"
FIRST=$(grep -v "profiles from the cache" <<<"$OUT")
mapfile -t E < <(ls "$TMP/c15"/*.json)
[ "${#E[@]}" -eq 3 ] || fail "cache filled: ${#E[@]} entries, expected 3"
sed -i 's/"warp_insts_total":[[:space:]]*[0-9.e+]*/"warp_insts_total": 1/; s/"comp_insts":[[:space:]]*[0-9.e+]*/"comp_insts": 1e9/' "${E[0]}"
cp "${E[2]}" "${E[1]}"
val3 --cache "$TMP/c15"
expect_rc 0 "poisoned cache"
expect_out "3 rows, 0 failed, 1 profiles from the cache" "poisoned cache"
expect_err "${E[0]##*/}: warning: profile cache entry ignored: its checksum does not match its content (edited, or cut short); the profile is recomputed" "poisoned cache"
expect_err "${E[1]##*/}: warning: profile cache entry ignored: its key is another launch's (a file copied or renamed); the profile is recomputed" "poisoned cache"
[ "$(grep -v "profiles from the cache" <<<"$OUT")" = "$FIRST" ] || fail "poisoned cache: the tables changed"
val3 --cache "$TMP/c15"
expect_out "3 rows, 0 failed, 3 profiles from the cache" "cache rewritten"

# --- row 6: memory bounded by what the input needs ----------------------------
# A launch spec of 1,100,000 values (2.2 MB) is over the 2^20 values a JSON
# input may hold: refused before it is parsed (a 50 MB one took 3.18 GB).
python3 -c 'import sys; sys.stdout.write("{\"kernel\": \"copy\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": [{\"buffer\": \"in\", \"type\": \"u8\", \"count\": 1100000, \"init\": {\"values\": [" + ",".join(["0"] * 1100000) + "]}}]}\n")' >"$TMP/many.json"
run "$WS" run "$D/faults.ptx" --launch "$TMP/many.json"
sane "1.1M JSON values"
expect_rc 2 "1.1M JSON values"
expect_err "many.json: error: more than 1048576 JSON values (arrays, objects, numbers, strings): the limit for a JSON input (raise it with the environment variable WARPSIGHT_MAX_JSON_VALUES=N" "1.1M JSON values"
# the limit is the user's to raise (here lowered: 32 values + the document's own 15 are over 40)
copy_spec "$TMP/vals.json" "{\"values\": [$(seq -s, 1 32)]}"
WARPSIGHT_MAX_JSON_VALUES=40 run "$WS" run "$D/faults.ptx" --launch "$TMP/vals.json"
expect_rc 2 "WARPSIGHT_MAX_JSON_VALUES"
expect_err "more than 40 JSON values" "WARPSIGHT_MAX_JSON_VALUES"
WARPSIGHT_MAX_JSON_VALUES=100 run "$WS" run "$D/faults.ptx" --launch "$TMP/vals.json"
expect_rc 0 "WARPSIGHT_MAX_JSON_VALUES raised"
# CSV cells: over the limit is an error at the cell that passes it
head -3 "$WS_SRC/data/validation/amaris-measured-dev.csv" >"$TMP/three.csv"
WARPSIGHT_MAX_CSV_CELLS=60 run "$WS" validate "$TMP/three.csv" --no-cache
expect_rc 2 "WARPSIGHT_MAX_CSV_CELLS"
expect_err "three.csv:3:" "WARPSIGHT_MAX_CSV_CELLS"
expect_err "error: more than 60 cells: the limit for a CSV input (raise it with the environment variable WARPSIGHT_MAX_CSV_CELLS=N)" "WARPSIGHT_MAX_CSV_CELLS"

# --- row 10: a model result that is not a finite positive number -------------
# models.warpsight.lsu_rate = 0 divides by zero: once "predicted: -nan ms",
# exit 0, and JSON null with status ok; now that model's error
python3 - "$WS_SRC/data/gpus/a100.json" "$TMP/lsu0.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
g["models"].setdefault("warpsight", {})["lsu_rate"] = 0
json.dump(g, open(sys.argv[2], "w"), indent=1)
PY
run "$WS" predict "$VEC" --launch "$VECL" --gpu "$TMP/lsu0.json" --model warpsight
sane "lsu_rate 0"
expect_rc 2 "lsu_rate 0"
expect_err "error: model warpsight: the prediction is not a finite positive number (nan cycles, nan ms)" "lsu_rate 0"
! grep -qi "nan ms" <<<"$OUT" || fail "lsu_rate 0: a NaN printed as a prediction: $OUT"
run "$WS" predict "$VEC" --launch "$VECL" --gpu "$TMP/lsu0.json" --model all --json
python3 - "$TMP/out" <<'PY' || fail "lsu_rate 0 (JSON): $(cat "$TMP/out" | head -c 600)"
import json, sys
res = {r["model"]: r for r in json.load(open(sys.argv[1]))["results"]}
w, hk = res["warpsight"], res["hong-kim"]
assert w["status"] == "error" and w.get("time_ms") is None, w
# the reason is in the result itself, not only on stderr (issue 20)
assert "not a finite positive number" in w.get("error", ""), w
assert hk["status"] == "ok" and hk["time_ms"] > 0, hk
PY

# --- rows 11 and 14: measured times ---------------------------------------------
# set_col IN OUT COLUMN VALUE [ROWS]: the first ROWS data rows of IN (all
# when not given) with every cell of COLUMN set to VALUE
set_col() {
  python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
c = rows[0].index(sys.argv[3])
n = int(sys.argv[5]) if len(sys.argv) > 5 else len(rows)
rows = rows[: n + 1]
for r in rows[1:]:
    r[c] = sys.argv[4]
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PY
}
AM="$WS_SRC/data/validation/amaris-measured-dev.csv"
# calibrate on times of 1e6 s (the most a measured time may be) fits a
# mem_ld of 3.3e12 cycles: once exit 0 and a GPU file its own loader refuses
set_col "$AM" "$TMP/slow.csv" Duration 1e6 7
run "$WS" calibrate "$TMP/slow.csv" --gpu gtx680 --model hong-kim \
  --ptx-dir "$WS_SRC/examples/validation/ptx" --no-cache -o "$TMP/cal.json"
sane "calibrate out of range"
expect_rc 2 "calibrate out of range"
expect_err "error: calibrate: the fit leaves the physical range (mem_ld = " "calibrate out of range"
expect_err "note: models.hong-kim.mem_ld: expected a positive number up to 1e12" "calibrate out of range"
[ ! -e "$TMP/cal.json" ] || fail "calibrate out of range: wrote $TMP/cal.json"
# each time that strtod reads but is no measured time, with file:line and column
for t in 1e-320 0x1p-3 1e300 inf nan; do
  set_col "$AM" "$TMP/t.csv" Duration "$t" 1
  run "$WS" validate "$TMP/t.csv" --no-cache --models roofline
  expect_rc 2 "seconds $t"
  expect_err "t.csv:2: error: column Duration: expected a positive time in seconds, a decimal number from 1e-9 to 1e6, got '$t'" "seconds $t"
done
# a column given twice (the first one was read), a NUL in a cell (it cut the cell)
{ head -1 "$AM" | sed 's/$/,Duration/'; sed -n 2p "$AM" | sed 's/$/,1/'; } >"$TMP/dup.csv"
run "$WS" validate "$TMP/dup.csv" --no-cache
expect_rc 2 "duplicate column"
expect_err "dup.csv:1: error: column 28 ('Duration') has the same name as column 17: each column must be named once" "duplicate column"
{ head -1 "$AM"; sed -n 2p "$AM" | sed 's/,dotProd,/,dot\x00Prod,/'; } >"$TMP/nul.csv"
run "$WS" validate "$TMP/nul.csv" --no-cache
expect_rc 2 "NUL in a cell"
expect_err "nul.csv:2:24: error: a NUL byte in field 5: a CSV file is text and holds none" "NUL in a cell"

# --- row 13: the device-printf limit is the launch's ---------------------------
# 64 blocks of 256 threads printing without end on two workers: the output
# stops at the limit of 67108864 bytes per launch (plus the one line that
# passes it); it once did so per worker thread (133 MB at -j 2)
printf '{"kernel": "flood", "grid": [64,1,1], "block": [256,1,1], "args": []}\n' >"$TMP/flood.json"
timeout 120 "$WS" run "$H" --launch "$TMP/flood.json" -j 2 >"$TMP/flood.out" 2>"$TMP/flood.err"
RC=$? ERR=$(cat "$TMP/flood.err")
expect_rc 1 "printf flood -j 2"
expect_err "device printf output passed the limit of 67108864 bytes per launch in kernel 'flood'" "printf flood -j 2"
n=$(stat -c %s "$TMP/flood.out")
[ "$n" -le $((67108864 + 1024)) ] || fail "printf flood -j 2: $n bytes printed, more than the launch's 67108864"
rm -f "$TMP/flood.out"

# --- row 18: JSON that cJSON takes in silence ------------------------------------
# a key given twice (the first one won), at the top and nested
printf '{"kernel": "copy", "kernel": "trapk", "grid": [1,1,1], "block": [32,1,1], "args": []}\n' >"$TMP/dup1.json"
run "$WS" run "$D/faults.ptx" --launch "$TMP/dup1.json"
expect_rc 2 "duplicate key"
expect_err "dup1.json: error: kernel: duplicate key: given twice in the same object" "duplicate key"
copy_spec "$TMP/dup2.json" '{"iota": {"start": 1, "step": 1, "start": 5}}'
run "$WS" run "$D/faults.ptx" --launch "$TMP/dup2.json"
expect_rc 2 "nested duplicate key"
expect_err "dup2.json: error: args[0].init.iota.start: duplicate key" "nested duplicate key"
# bytes after a NUL (they were dropped): a spec, a profile, a GPU file
printf '{"kernel": "trapk", "grid": [1,1,1], "block": [32,1,1], "args": []}\n\0{"garbage"' >"$TMP/nul.json"
run "$WS" run "$D/faults.ptx" --launch "$TMP/nul.json"
expect_rc 2 "NUL in a spec"
expect_err "nul.json:2:1: error: a NUL byte (byte 69 of 79): JSON is text and holds none" "NUL in a spec"
{ cat "$WS_SRC/examples/paper/hk09-table2.json"; printf '\0x'; } >"$TMP/nulp.json"
run "$WS" model --profile "$TMP/nulp.json" --gpu hk09-example
expect_rc 2 "NUL in a profile"
expect_err "nulp.json:" "NUL in a profile"
expect_err "error: a NUL byte" "NUL in a profile"
{ cat "$WS_SRC/data/gpus/gtx680.json"; printf '\0'; } >"$TMP/nulg.json"
run "$WS" gpu "$TMP/nulg.json"
expect_rc 2 "NUL in a GPU file"
expect_err "error: a NUL byte" "NUL in a GPU file"
# compute capability "8.0.1" was read as 8.0
sed 's/"8\.0"/"8.0.1"/' "$WS_SRC/data/gpus/a100.json" >"$TMP/cc.json"
grep -q '"8.0.1"' "$TMP/cc.json" || fail "cc: no compute capability to edit in a100.json"
run "$WS" gpu "$TMP/cc.json"
expect_rc 2 "compute capability 8.0.1"
expect_err "cc.json: error: compute_capability: expected MAJOR.MINOR such as \"8.0\", got \"8.0.1\"" "compute capability 8.0.1"

finish
