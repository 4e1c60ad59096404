#!/usr/bin/env bash
# exec_libraries.sh — a program that links one of NVIDIA's libraries that
# reach the GPU through the driver (cuBLAS, cuFFT, ...) gets a note before
# it runs that those calls will fail (docs/exec.md, "NVIDIA's libraries");
# a program without one gets none; a file that is not a program, or a
# damaged one, gets none and no crash.  The libraries are stand-ins built
# here with the sonames of the real ones (no CUDA needed).
source "$WS_SRC/tests/cli/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "skipped: no C compiler"; exit 77; }

mkdir -p "$TMP/lib"
echo 'int stand_in(void) { return 0; }' >"$TMP/stub.c"
for so in libcublas.so.13 libcufft.so.12 libm-like.so.1; do
  "$CC" -shared -fPIC -o "$TMP/lib/$so" "$TMP/stub.c" -Wl,-soname,"$so" || fail "building $so"
done
echo 'int main(void) { return 0; }' >"$TMP/main.c"
"$CC" -o "$TMP/uses-blas" "$TMP/main.c" -Wl,--no-as-needed "$TMP/lib/libcublas.so.13" "$TMP/lib/libcufft.so.12" ||
  fail "linking uses-blas"
"$CC" -o "$TMP/plain" "$TMP/main.c" -Wl,--no-as-needed "$TMP/lib/libm-like.so.1" || fail "linking plain"
export LD_LIBRARY_PATH="$TMP/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# the note names each library and the product, before the run (the stand-in
# does not load warpsight's runtime, so exec then says that too: exit 2)
run "$WS" exec -- "$TMP/uses-blas"
expect_rc 2 "a program without the runtime"
expect_err "links libcublas.so.13 (cuBLAS), libcufft.so.12 (cuFFT): these libraries run their own kernels through the CUDA driver" "the note"
expect_err "NVIDIA's libraries" "the note points at the docs"
# found through PATH as execvp finds it
PATH="$TMP:$PATH" run "$WS" exec -- uses-blas
expect_err "uses-blas links libcublas.so.13 (cuBLAS)" "a program found in PATH"

run "$WS" exec -- "$TMP/plain"
expect_rc 2 "plain: no runtime"
if grep -q "these libraries" <<<"$ERR"; then fail "a note for a program without NVIDIA's libraries: $ERR"; fi

# not ELF, an empty file, and cut-off copies: no note, no crash of exec
# (which then runs the file or says it cannot)
printf '#!/bin/sh\nexit 0\n' >"$TMP/script"
: >"$TMP/empty"
for cut in 16 64 200 1000 4000; do head -c $cut "$TMP/uses-blas" >"$TMP/cut$cut"; done
chmod +x "$TMP/script" "$TMP/empty" # the cut-off copies stay unrunnable (a truncated
# program may crash when run, which is its own status, not exec's)
for f in script empty cut16 cut64 cut200 cut1000 cut4000; do
  run "$WS" exec -- "$TMP/$f"
  expect_no_crash "$f"
  if grep -q "these libraries" <<<"$ERR"; then fail "$f: a note from a file that is not a whole program"; fi
done
finish
