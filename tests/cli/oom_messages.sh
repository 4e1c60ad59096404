#!/bin/bash
# oom_messages.sh — out of memory is an error naming what was being
# allocated (issue 14, point 10: "exit 2 with an empty stderr ... and out of
# memory", later the generic "out of memory (status -2; no further detail)").
# The address space is limited with ulimit -v in a subshell, over a range of
# sizes: too small and the binary cannot even load its libraries (exit 127,
# skipped), large enough and it succeeds; in between it must exit 2 naming
# the stage.  The profiler's cache simulators of an A100 (40 MB of L2) need
# more than the binary itself.
source "$WS_SRC/tests/cli/lib.sh"
if grep -q "^WS_SANITIZE:BOOL=ON" "${WS_BUILD:-.}/CMakeCache.txt" 2>/dev/null; then
  echo "skipped: a sanitizer build reserves terabytes of address space (ulimit -v cannot apply)"
  exit 77
fi
K="$WS_SRC/examples/kernels"
named=0 tried=0
for mb in 16 20 24 28 32 40 48 64 96; do
  for cmd in profile predict; do
    run bash -c "ulimit -v $((mb * 1024)); exec \"\$0\" $cmd \"\$1\" --launch \"\$2\" -j 1" \
      "$WS" "$K/matmul_tiled.sm_80.ptx" "$K/matmul_tiled.launch.json"
    [ "$RC" -eq 127 ] && continue # the libraries did not load
    tried=$((tried + 1))
    expect_no_crash "$cmd under $mb MB"
    [ "$RC" -eq 0 ] && continue
    expect_rc 2 "$cmd under $mb MB"
    ! grep -q "no further detail" <<<"$ERR" || fail "$cmd under $mb MB: a generic message: $ERR"
    expect_err "error: out of memory while" "$cmd under $mb MB"
    if grep -q "out of memory while profiling kernel 'matmul_tiled': setting up the profiler (80 blocks to profile, 1 worker thread, the cache simulators of a100)" <<<"$ERR"; then
      named=$((named + 1))
    fi
  done
done
[ "$tried" -gt 0 ] || { echo "skipped: no limit let the binary load"; exit 77; }
[ "$named" -gt 0 ] || fail "no limit made the profiler's set-up run out of memory ($tried runs)"
finish
