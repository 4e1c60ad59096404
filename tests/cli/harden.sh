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

finish
