#!/bin/bash
# errors_once.sh — every command with each kind of bad input exits 2 (1 for
# a kernel fault) with a message, and prints no diagnostic line twice (issue
# 14, point 10: "some errors repeat 4-7 times").  Before the fix: validate
# printed a faulting instruction's note once per row, a generic CSV's missing
# launch spec once per row, 'model --gpu A,B' a profile's warnings once per
# GPU, '--charts FILE' an error per model, and 'run' a generic "no further
# detail" line before the real error.
source "$WS_SRC/tests/cli/lib.sh"
V="$WS_SRC/examples/kernels/vecadd.sm_80.ptx"
L="$WS_SRC/examples/kernels/vecadd.launch.json"
P="$WS_SRC/examples/hand/c2075-thread-bound.json"
PTX="$WS_SRC/examples/validation/ptx"
cd "$TMP" || exit 1
mkfifo fifo
mkdir dir
touch afile
echo '{"kernel": ' >badjson.json
printf '.version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k(\n{\n  ret;\n}\n' >bad.ptx
echo '{"kernel": "vecadd", "grid": [0,1,1], "block": [256,1,1], "args": []}' >badlaunch.json
sed 's/"value": 108/"value": -3/' "$WS_SRC/data/gpus/a100.json" >badgpu.json
grep -q '"value": -3' badgpu.json || fail "badgpu.json: a100's sms is no longer 108"
# the first 7 measured rows (dotProd on the GTX 680), and the same rows with
# a bad Grid.X (the 8th column) in the first five
head -8 "$WS_SRC/data/validation/amaris-measured-dev.csv" >good.csv
python3 -c 'import csv, sys
rows = list(csv.reader(open("good.csv")))
for r in rows[1:6]: r[7] = "xx"
csv.writer(sys.stdout, lineterminator="\n").writerows(rows)' >badrows.csv
# (the files a generic CSV names lie in its folder: issue 24, row 12)
cp "$V" "$L" .
printf 'kernel_file,launch,gpu,seconds\n%s,%s,a100,0.001\n%s,nolaunch.json,a100,0.002\n%s,nolaunch.json,a100,0.003\n' \
  "${V##*/}" "${L##*/}" "${V##*/}" "${V##*/}" >gen.csv

# once RC DESC CMD...: runs CMD; exit status RC, a message, no line twice
once() {
  local want=$1 desc=$2
  shift 2
  run "$@"
  expect_no_crash "$desc"
  expect_rc "$want" "$desc"
  [ -n "$ERR" ] || fail "$desc: empty stderr"
  local rep
  rep=$(grep -E "(error|warning|note):" <<<"$ERR" | sort | uniq -cd)
  [ -z "$rep" ] || fail "$desc: repeated lines on stderr: $rep"
  ! grep -q "no further detail" <<<"$ERR" || fail "$desc: a generic message: $ERR"
}

for c in run profile predict; do
  for f in nofile.ptx dir fifo bad.ptx; do once 2 "$c $f" timeout 20 "$WS" $c $f --launch "$L"; done
  for l in nofile.json dir fifo badjson.json badlaunch.json; do
    once 2 "$c --launch $l" timeout 20 "$WS" $c "$V" --launch $l
  done
  once 2 "$c --kernel nosuch" "$WS" $c "$V" --launch "$L" --kernel nosuch
  once 2 "$c --max-memory 1k" "$WS" $c "$V" --launch "$L" --max-memory 1k
  once 2 "$c --bogus" "$WS" $c "$V" --launch "$L" --bogus
done
for g in nosuch badgpu.json badjson.json fifo; do
  once 2 "predict --gpu $g" timeout 20 "$WS" predict "$V" --launch "$L" --gpu $g
  once 2 "model --gpu $g" timeout 20 "$WS" model --profile "$P" --gpu $g --model all
  once 2 "model --gpu c2075,$g" timeout 20 "$WS" model --profile "$P" --gpu c2075,$g --model all
  once 2 "occupancy --gpu $g" timeout 20 "$WS" occupancy --gpu $g --threads 256
  once 2 "gpu $g" timeout 20 "$WS" gpu $g
  once 2 "exec --gpu $g" timeout 20 "$WS" exec --gpu $g -- /bin/true
done
for p in nofile.json dir fifo badjson.json "$L"; do
  once 2 "model --profile $p" timeout 20 "$WS" model --profile "$p" --gpu a100 --model all
done
once 2 "model --model nosuch" "$WS" model --profile "$P" --gpu a100,c2075 --model nosuch
once 2 "predict --model nosuch" "$WS" predict "$V" --launch "$L" --model nosuch
once 2 "exec --model nosuch" "$WS" exec --model nosuch -- /bin/true
once 2 "occupancy --regs 1000" "$WS" occupancy --gpu a100 --threads 256 --regs 1000
once 2 "analyze --kernel nosuch" "$WS" analyze "$V" --kernel nosuch
once 2 "gpus --arch nosuch" "$WS" gpus --arch nosuch
# a profile's warnings (gpuperf: fields the hand-made profile lacks) once, not per GPU
run "$WS" model --profile "$P" --gpu c2075,a100 --model all --json
expect_rc 0 "model --gpu c2075,a100"
expect_err "profile has no per_warp.bank_conflict_replays" "model --gpu c2075,a100"
[ -z "$(sort <<<"$ERR" | uniq -d)" ] || fail "model --gpu c2075,a100: repeated warnings: $ERR"
# --charts naming a file: one error, not one per model
for g in c2075 c2075,a100; do
  once 2 "model --charts FILE ($g)" "$WS" model --profile "$P" --gpu $g --model all --charts afile
  expect_err "afile: cannot create: it exists and is not a folder" "model --charts FILE ($g)"
  [ "$(grep -c "error:" <<<"$ERR")" -eq 1 ] || fail "model --charts FILE ($g): not one error: $ERR"
done
for c in validate calibrate; do
  A=()
  [ $c = calibrate ] && A=(--gpu gtx680 --model hong-kim -o cal.json)
  for d in nofile.csv dir fifo badjson.json badrows.csv; do
    once 2 "$c $d" timeout 60 "$WS" $c $d "${A[@]}" --ptx-dir "$PTX" --no-cache
  done
  once 2 "$c --ptx-dir (empty)" timeout 60 "$WS" $c good.csv "${A[@]}" --ptx-dir dir --no-cache
  once 2 "$c --kernels nosuch" timeout 60 "$WS" $c good.csv "${A[@]}" --ptx-dir "$PTX" --no-cache --kernels nosuch
  once 2 "$c --gpu-file gtx680=badgpu.json" timeout 60 "$WS" $c good.csv "${A[@]}" --ptx-dir "$PTX" \
    --no-cache --gpu-file gtx680=badgpu.json
  # the generic format: two rows naming the same missing launch spec
  once 2 "$c generic" timeout 60 "$WS" $c gen.csv "${A[@]}" --no-cache
  expect_err "nolaunch.json: error: cannot open: No such file or directory" "$c generic"
done
# every row faults at the same instruction: the note once
once 2 "validate --max-warp-insts 10" timeout 60 "$WS" validate good.csv --ptx-dir "$PTX" --no-cache --max-warp-insts 10
expect_err "runaway kernel: warp 0 exceeded the limit of 10 warp instructions per warp" "validate --max-warp-insts 10"
once 2 "validate --models nosuch" "$WS" validate good.csv --ptx-dir "$PTX" --no-cache --models nosuch
once 2 "calibrate --model nosuch" "$WS" calibrate good.csv --gpu gtx680 --model nosuch --ptx-dir "$PTX" --no-cache

finish
