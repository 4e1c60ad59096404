# peak_rss.sh — sourced by the bench/*_memory.sh scripts: finds the
# warpsight binary (BUILD_DIR, the first argument, default build/), makes a
# temporary folder $TMP (removed on exit) and defines run_peak, which runs
# a command under /usr/bin/time -v with its stdout in $TMP/out and prints
# the wall time and the peak resident set size.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
WS=$BUILD/warpsight
[ -x "$WS" ] || { echo "no warpsight binary at $WS (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run_peak HEADER_CMD CMD...: runs CMD, then evaluates HEADER_CMD (a line
# about the output, e.g. 'head -1 "$TMP/out"') and prints wall time and RSS.
run_peak() {
  local header=$1
  shift
  /usr/bin/time -v "$@" > "$TMP/out" 2> "$TMP/time" || {
    tail -20 "$TMP/time" >&2
    exit 1
  }
  local rss wall
  rss=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$TMP/time")
  eval "$header"
  echo "wall time $wall, peak RSS $(( rss / 1024 )) MB ($rss kB)"
}
