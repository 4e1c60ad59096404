#!/usr/bin/env bash
# wsexec.sh ARGS... — `$WS exec ARGS...`, for the tests of CUDA programs
# (run.sh, gpu_bench.sh).  Where the runtime is built with ASan/UBSan
# (WS_SANITIZE=1) the program is not: the sanitizers are then preloaded into
# exec and the program (only, not into the tests' own checks).
if [ "${WS_SANITIZE:-0}" = 1 ]; then
  preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
  # fontconfig's process-lifetime caches (the charts of --report)
  LD_PRELOAD="$preload" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
    LSAN_OPTIONS="${LSAN_OPTIONS:-}:suppressions=$WS_SRC/tests/lsan.supp" exec "$WS" exec "$@"
fi
exec "$WS" exec "$@"
