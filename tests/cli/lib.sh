# lib.sh — helpers for CLI tests.  Source it; $WS is the warpsight binary,
# $WS_SRC the source tree.  Each check prints what failed and sets FAILED.
set -u
FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
: "${WS:?WS must point at the warpsight binary}"
: "${WS_SRC:?WS_SRC must point at the source tree}"

# run CMD...: runs it, keeping stdout in $OUT, stderr in $ERR, status in $RC.
run() {
  "$@" >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
fail() { echo "FAIL: $*" >&2; FAILED=1; }
expect_rc() { [ "$RC" -eq "$1" ] || fail "${2:-}: exit status $RC, expected $1; stderr: $ERR"; }
expect_out() { grep -qF -- "$1" <<<"$OUT" || fail "${2:-}: stdout lacks '$1'; got: $OUT"; }
expect_err() { grep -qF -- "$1" <<<"$ERR" || fail "${2:-}: stderr lacks '$1'; got: $ERR"; }
expect_no_crash() { [ "$RC" -lt 128 ] || fail "${1:-}: crashed with status $RC"; }
finish() {
  if [ "$FAILED" -ne 0 ]; then exit 1; fi
  echo "ok"
  exit 0
}
# need_nvcc WHAT: NVCC set to CUDA's compiler (nvcc on the PATH, else
# /usr/local/cuda/bin/nvcc), or the test skipped (77), saying WHAT needs it.
# need_python3: skip (exit 77) where python3, which the checks are written
# in, is missing.
need_python3() {
  command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 not found"; exit 77; }
}
need_nvcc() {
  NVCC=$(command -v nvcc || true)
  [ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
  if [ -z "$NVCC" ]; then
    echo "SKIP: nvcc not found (install the CUDA toolkit to build $1)"
    exit 77
  fi
}
# csv_col FILE NAME: the column NAME of a CSV without quoted commas (such as
# validate's rows.csv), one value per data row; columns found by header, so a
# test does not depend on where a column stands.
csv_col() {
  awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; if (!c) exit 1; next }
    { print $c }' "$1"
}
# memory_field_is PROFILE.json FIELD EXPECTED WHAT: the profile's
# memory.FIELD equals EXPECTED (within 1e-12), else a failure naming WHAT.
memory_field_is() {
  local got
  got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["memory"][sys.argv[2]])' "$1" "$2")
  python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-12)' "$got" "$3" ||
    fail "$4: memory.$2 = $got, expected $3"
}
