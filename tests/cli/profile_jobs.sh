#!/bin/bash
# profile_jobs.sh — the profile does not depend on the number of emulator
# threads: every counter is an integer merged per worker (divergence is kept
# as idle lanes per live-lane count), and the caches are replayed in block
# order.  Kernels with irregular divergence, atomics and data-dependent
# addresses.
source "$WS_SRC/tests/cli/lib.sh"
C="$WS_SRC/tests/corpus"
for k in spmv_csr stencil5 histo_shared listrank; do
  run "$WS" profile "$C/ptx/sm_80/$k.ptx" --launch "$C/launch/$k.json" -j 1 -o "$TMP/$k.1.json"
  expect_rc 0 "$k -j 1"
  run "$WS" profile "$C/ptx/sm_80/$k.ptx" --launch "$C/launch/$k.json" -j 5 -o "$TMP/$k.5.json"
  expect_rc 0 "$k -j 5"
  cmp -s "$TMP/$k.1.json" "$TMP/$k.5.json" || fail "$k: the profile with -j 5 differs from -j 1"
done
finish
