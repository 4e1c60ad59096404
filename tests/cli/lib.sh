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
