#!/bin/bash
# harden.sh — crafted inputs, runaway kernels, bounded memory and safe output
# files (issue 14).  Each case failed before its fix (the issue says how);
# large inputs are generated here, not stored.
source "$WS_SRC/tests/cli/lib.sh"
D="$WS_SRC/tests/emu-bad"
H="$D/hostile.ptx"
spec() { # spec NAME KERNEL GRIDX BLOCKX: a launch without arguments
  printf '{"kernel": "%s", "grid": [%s,1,1], "block": [%s,1,1], "args": []}\n' "$2" "$3" "$4" >"$TMP/$1.json"
}
sane() { # no crash, no sanitizer report
  expect_no_crash "$1"
  ! grep -qE "Sanitizer|runtime error" <<<"$ERR" || fail "$1: sanitizer report: $ERR"
}

# --- point 1: sizes from the file in checked arithmetic ----------------------
# a[4294967295][641][6700417] of u16 overflows 64 bits: once a 1-byte buffer
# and a heap overflow in put_init, now an error at the name (7:14)
for cmd in run profile; do
  run "$WS" $cmd "$WS_SRC/tests/ptx-bad/array_size_overflow.ptx" --launch "$D/trap.json"
  sane "overflowing array ($cmd)"
  expect_rc 2 "overflowing array ($cmd)"
  expect_err "array_size_overflow.ptx:7:14: error: array 'a' is too large" "overflowing array ($cmd)"
done
# a 3 GiB static .shared is refused at load, naming the limit
spec bigshared bigshared 1 32
run "$WS" run "$H" --launch "$TMP/bigshared.json" --out "$TMP"
sane "3 GiB .shared"
expect_rc 2 "3 GiB .shared"
expect_err "static shared memory (at least 3221225472 bytes) exceeds the limit of 1048576 bytes per block" "3 GiB .shared"
# ... and where a GPU is known (profile, predict), the launch's static +
# dynamic shared bytes against the GPU's max_shared_per_block (the CUDA C++
# Programming Guide's technical specifications, src/gpu/cc_limits.def):
# 65536 static is over CC 3.0's 49152 (48 KB); with 40000 dynamic, 105536 is
# still under CC 8.0's 166912 (163 KB)
spec sh64k shared64k 1 32
run "$WS" run "$H" --launch "$TMP/sh64k.json"
expect_rc 0 "64 KiB .shared (run, no GPU)"
for cmd in profile predict; do
  run "$WS" $cmd "$H" --launch "$TMP/sh64k.json" --gpu gtx680
  sane "64 KiB .shared on gtx680 ($cmd)"
  expect_rc 2 "64 KiB .shared on gtx680 ($cmd)"
  expect_err "hostile.ptx: error: kernel 'shared64k' uses 65536 bytes of shared memory per block (65536 static + 0 dynamic), more than the 49152 bytes a block may use on gtx680 (compute capability 3.0, max_shared_per_block)" "64 KiB .shared on gtx680 ($cmd)"
done
printf '{"kernel": "shared64k", "grid": [1,1,1], "block": [32,1,1], "dynamic_shared_bytes": %s, "args": []}\n' 40000 >"$TMP/sh64kd.json"
run "$WS" profile "$H" --launch "$TMP/sh64kd.json" --gpu a100
expect_rc 0 "64 KiB + 40000 dynamic on a100"
printf '{"kernel": "shared64k", "grid": [1,1,1], "block": [32,1,1], "dynamic_shared_bytes": %s, "args": []}\n' 110000 >"$TMP/sh64kd.json"
run "$WS" predict "$H" --launch "$TMP/sh64kd.json" --gpu a100
expect_rc 2 "64 KiB + 110000 dynamic on a100"
expect_err "uses 175536 bytes of shared memory per block (65536 static + 110000 dynamic), more than the 166912 bytes a block may use on a100 (compute capability 8.0" "64 KiB + 110000 dynamic on a100"

# --- point 2: a default limit on emulated work --------------------------------
# acceptance: a spinning kernel (2 blocks of 32 spinning warps) stops under run,
# profile and predict with default options within 60 s, exit 1, naming the limit
# (a sanitizer build runs -O0 and several times slower: there the same checks
# run with limits 64 times smaller, given explicitly)
LIM=() WL=67108864 LL=134217728
if grep -q "^WS_SANITIZE:BOOL=ON" "${WS_BUILD:-.}/CMakeCache.txt" 2>/dev/null; then
  WL=1048576 LL=2097152
  LIM=(--max-warp-insts $WL --max-launch-insts $LL)
fi
spec spin spin 2 1024
for cmd in run profile predict; do
  run timeout 60 "$WS" $cmd "$H" --launch "$TMP/spin.json" "${LIM[@]}"
  sane "spin ($cmd)"
  expect_rc 1 "spin ($cmd)"
  expect_err "hostile.ptx:39:3: error: runaway kernel: the launch exceeded the limit of $LL warp instructions in all (--max-launch-insts) in kernel 'spin'" "spin ($cmd)"
done
# one spinning warp meets the per-warp limit first (2^26 = 67108864)
spec spin1 spin 1 32
run timeout 60 "$WS" run "$H" --launch "$TMP/spin1.json" "${LIM[@]}"
expect_rc 1 "one spinning warp"
expect_err "runaway kernel: warp 0 exceeded the limit of $WL warp instructions per warp (--max-warp-insts)" "one spinning warp"
# the limits are settable (0 lifts one; the other still stops the kernel)
run timeout 60 "$WS" profile "$H" --launch "$TMP/spin1.json" --max-warp-insts 0 --max-launch-insts 5000
expect_rc 1 "profile --max-launch-insts"
expect_err "the launch exceeded the limit of 5000 warp instructions" "profile --max-launch-insts"
run "$WS" predict "$H" --launch "$TMP/spin1.json" --max-warp-insts 3000
expect_rc 1 "predict --max-warp-insts"
expect_err "warp 0 exceeded the limit of 3000 warp instructions per warp" "predict --max-warp-insts"
run "$WS" run "$H" --launch "$TMP/spin1.json" --max-warp-insts -5
expect_rc 2 "negative limit"
expect_err "--max-warp-insts expects a number of warp instructions" "negative limit"
# warp 0 spins while warp 1 waits at a barrier: reported as a deadlock
spec barspin barspin 1 64
run timeout 60 "$WS" run "$H" --launch "$TMP/barspin.json" --max-warp-insts 300000
sane "barrier spin"
expect_rc 1 "barrier spin"
expect_err "barrier deadlock: warp 0 spins past the limit of 300000 warp instructions (--max-warp-insts) while warp 1 waits at barrier 0 (PTX line 50)" "barrier spin"
# 2^31 - 1 blocks of one warp: more warps than the launch limit, refused at
# once when every block would run (profile's default, auto, samples such a
# grid: its count of 8 blocks meets the spin's per-warp limit instead)
spec hugegrid spin 2147483647 32
for cmd in run "profile --sample-blocks all"; do
  # shellcheck disable=SC2086
  run timeout 60 "$WS" $cmd "$H" --launch "$TMP/hugegrid.json"
  sane "huge grid ($cmd)"
  expect_rc 2 "huge grid ($cmd)"
  expect_err "the launch runs 2147483647 blocks of 32 x 1 x 1 threads: at least one warp instruction per warp is more than the limit of 134217728" "huge grid ($cmd)"
done
run timeout 60 "$WS" profile "$H" --launch "$TMP/hugegrid.json"
sane "huge grid (profile, auto)"
expect_rc 1 "huge grid (profile, auto)"
expect_err "runaway kernel: warp 0 exceeded the limit of 67108864 warp instructions per warp (--max-warp-insts) in kernel 'spin'" "huge grid (profile, auto)"

# --- point 5: bounded memory -------------------------------------------------
# inputs must be regular files: /dev/zero as a launch spec once read 3 GB
run timeout 20 "$WS" run "$H" --launch /dev/zero
sane "/dev/zero spec"
expect_rc 2 "/dev/zero spec"
expect_err "/dev/zero: error: cannot read: it is a character device; an input must be a regular file" "/dev/zero spec"
# a FIFO as an init file once blocked forever
mkfifo "$TMP/fifo"
printf '{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", "type": "f32", "count": 32, "init": {"file": "%s"}}, {"buffer": "out", "type": "f32", "count": 32}, {"scalar": "off", "type": "s32", "value": 0}]}\n' "$TMP/fifo" >"$TMP/fifo.json"
run timeout 20 "$WS" run "$D/faults.ptx" --launch "$TMP/fifo.json"
expect_rc 2 "FIFO init file"
expect_err "fifo: error: cannot read: it is a FIFO (named pipe); an input must be a regular file" "FIFO init file"
run "$WS" analyze "$TMP"
expect_rc 2 "directory as PTX"
expect_err "cannot read: it is a directory" "directory as PTX"
# a regular file over the 1 GiB limit (sparse: costs no disk) is refused by its size
truncate -s 2G "$TMP/huge.ptx"
run timeout 20 "$WS" analyze "$TMP/huge.ptx"
expect_rc 2 "2 GiB input"
expect_err "input file of 2147483648 bytes is larger than the limit of 1073741824 bytes" "2 GiB input"
rm -f "$TMP/huge.ptx"
# a 64 GiB .global: over the memory budget, refused with a message naming it
# (it once ended with exit 2 and an empty stderr)
spec touch touch 1 32
run "$WS" run "$D/global64g.ptx" --launch "$TMP/touch.json" --max-memory 1G
sane "64 GiB .global"
expect_rc 2 "64 GiB .global"
expect_err "the launch needs 68719476736 bytes of global memory (buffers and .global variables), more than the emulator's budget of 1073741824 bytes (--max-memory" "64 GiB .global"
run "$WS" profile "$D/faults.ptx" --launch "$D/oob_read.json" --max-memory 100
expect_rc 2 "profile --max-memory"
expect_err "the launch needs 256 bytes of global memory" "profile --max-memory"
run "$WS" run "$D/faults.ptx" --launch "$D/oob_read.json" --max-memory 12Q
expect_rc 2 "bad --max-memory"
expect_err "--max-memory expects a number of bytes" "bad --max-memory"
# 1 MiB of .local per thread: more than 512 KiB
spec biglocal biglocal 1 32
run "$WS" run "$H" --launch "$TMP/biglocal.json"
sane "1 MiB .local"
expect_rc 1 "1 MiB .local"
expect_err "more than 524288 bytes of local memory per thread" "1 MiB .local"
# printf output is bounded (64 MiB per launch) instead of filling memory
spec flood flood 1 32
timeout 60 "$WS" run "$H" --launch "$TMP/flood.json" >/dev/null 2>"$TMP/flood.err"
RC=$?
ERR=$(cat "$TMP/flood.err")
expect_rc 1 "printf flood"
expect_err "device printf output passed the limit of 67108864 bytes per launch in kernel 'flood'" "printf flood"

# --- points 3 and 7: outputs through a temporary file renamed into place -----
# copy in[i] = i + 1 to out (32 f32): 128 bytes
printf '{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", "type": "f32", "count": 32, "init": {"iota": {"start": 1, "step": 1}}}, {"buffer": "out", "type": "f32", "count": 32, "output": "out.bin"}, {"scalar": "off", "type": "s32", "value": 0}]}\n' >"$TMP/copy.json"
mkdir -p "$TMP/o"
echo "precious" >"$TMP/outside.txt"
ln -s "$TMP/outside.txt" "$TMP/o/out.bin"
run "$WS" run "$D/faults.ptx" --launch "$TMP/copy.json" --out "$TMP/o"
expect_rc 0 "symlink in --out"
[ "$(cat "$TMP/outside.txt")" = precious ] || fail "symlink in --out: the file outside was overwritten"
[ -f "$TMP/o/out.bin" ] && [ ! -L "$TMP/o/out.bin" ] || fail "symlink in --out: out.bin is not a regular file now"
[ "$(stat -c %s "$TMP/o/out.bin")" -eq 128 ] || fail "symlink in --out: out.bin is not 128 bytes"
# a failed write leaves what was there and says why (here out.bin is a folder)
rm -f "$TMP/o/out.bin"
mkdir "$TMP/o/out.bin"
run "$WS" run "$D/faults.ptx" --launch "$TMP/copy.json" --out "$TMP/o"
expect_rc 2 "unwritable output"
expect_err "out.bin: error: cannot write: it is a directory; an output must be a regular file (left as it is)" "unwritable output"
[ -d "$TMP/o/out.bin" ] || fail "unwritable output: the old entry is gone"
[ -z "$(ls -A "$TMP/o" | grep -v '^out.bin$')" ] || fail "unwritable output: a temporary file was left: $(ls -A "$TMP/o")"
# profile -o into a missing folder: the OS's reason
run "$WS" profile "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" --launch "$WS_SRC/examples/kernels/vecadd.launch.json" -o "$TMP/no/such/p.json"
expect_rc 2 "profile -o into a missing folder"
expect_err "p.json: error: cannot write: No such file or directory" "profile -o into a missing folder"
# ... and through a symlink: replaced, the target untouched
ln -s "$TMP/outside.txt" "$TMP/p.json"
run "$WS" profile "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" --launch "$WS_SRC/examples/kernels/vecadd.launch.json" -o "$TMP/p.json"
expect_rc 0 "profile -o over a symlink"
[ "$(cat "$TMP/outside.txt")" = precious ] || fail "profile -o over a symlink: the file outside was overwritten"
grep -q '"warpsight-profile/1"' "$TMP/p.json" || fail "profile -o over a symlink: no profile written"
# a full disk: writes fail with EFBIG under ulimit -f (in 1024-byte blocks in
# bash) with SIGXFSZ ignored (inherited through exec), as write() fails with
# ENOSPC on a full disk; exit 2 with the OS's reason, the previous file
# unchanged, no temporary file left (it once lost the old file and left half)
full() { # full KB DESC CMD...: runs CMD with files limited to KB kilobytes
  local kb=$1 desc=$2
  shift 2
  run bash -c "trap '' XFSZ; ulimit -f $kb; exec \"\$@\"" full "$@"
  expect_no_crash "$desc"
  expect_rc 2 "$desc"
  expect_err "error: cannot write: File too large (the previous file, if any, is unchanged)" "$desc"
}
rm -rf "$TMP/o" && mkdir "$TMP/o"
echo "old" >"$TMP/o/out.bin"
echo "old" >"$TMP/o/p.json"
echo "old" >"$TMP/o/cal.json"
# 1,000,000 f32 (4 MB) into a 1000 KB limit
printf '{"kernel": "copy", "grid": [1,1,1], "block": [32,1,1], "args": [{"buffer": "in", "type": "f32", "count": 1000000, "init": {"iota": {"start": 1, "step": 1}}}, {"buffer": "out", "type": "f32", "count": 1000000, "output": "out.bin"}, {"scalar": "off", "type": "s32", "value": 0}]}\n' >"$TMP/big.json"
full 1000 "full disk (run)" "$WS" run "$D/faults.ptx" --launch "$TMP/big.json" --out "$TMP/o"
expect_err "o/out.bin: error: cannot write" "full disk (run)"
# vecadd's profile (about 5 KB) into 2 KB
full 2 "full disk (profile -o)" "$WS" profile "$WS_SRC/examples/kernels/vecadd.sm_80.ptx" \
  --launch "$WS_SRC/examples/kernels/vecadd.launch.json" -o "$TMP/o/p.json"
expect_err "o/p.json: error: cannot write" "full disk (profile -o)"
# a calibrated GPU file (about 10 KB) into 1 KB
head -8 "$WS_SRC/data/validation/amaris-measured-dev.csv" >"$TMP/rows.csv"
full 1 "full disk (calibrate -o)" "$WS" calibrate "$TMP/rows.csv" --gpu gtx680 --model hong-kim \
  --ptx-dir "$WS_SRC/examples/validation/ptx" --no-cache -o "$TMP/o/cal.json"
expect_err "o/cal.json: error: cannot write" "full disk (calibrate -o)"
for f in out.bin p.json cal.json; do
  [ "$(cat "$TMP/o/$f")" = old ] || fail "full disk: $f was changed"
done
[ "$(ls -A "$TMP/o" | sort | tr '\n' ' ')" = "cal.json out.bin p.json " ] ||
  fail "full disk: a temporary file was left: $(ls -A "$TMP/o")"

# --- point 10: messages --------------------------------------------------------
# a launch spec with a UTF-8 byte-order mark is read (it was "invalid JSON")
printf '\xef\xbb\xbf{"kernel": "trapk", "grid": [1,1,1], "block": [32,1,1], "args": []}\n' >"$TMP/bom.json"
run "$WS" run "$D/faults.ptx" --launch "$TMP/bom.json"
expect_rc 1 "BOM"
expect_err "trap executed in kernel 'trapk'" "BOM"
# a 100,000-character kernel name is not echoed whole: every message stops at
# 1000 bytes and "…" (WS_DIAG_MAX_MESSAGE)
python3 -c 'import json; print(json.dumps({"kernel": "k" * 100000, "grid": [1,1,1], "block": [32,1,1], "args": []}))' >"$TMP/long.json"
run "$WS" run "$D/faults.ptx" --launch "$TMP/long.json"
expect_rc 2 "long kernel name"
expect_err "kkk…" "long kernel name"
[ "${#ERR}" -lt 5000 ] || fail "long kernel name: ${#ERR} characters of messages"

finish
