#!/usr/bin/env bash
# calibrate_memory.sh — peak resident memory of `warpsight calibrate` on the
# 1,059 Tesla K20 rows of the Amarís data set (hong-kim), as
# bench/validate_memory.sh measures validate.  Prints the wall time and the
# peak RSS that /usr/bin/time -v reports.
#
#   bench/calibrate_memory.sh [BUILD_DIR] [CACHE_DIR]
#
# BUILD_DIR defaults to build/.  CACHE_DIR is the profile cache (default: a
# fresh folder, so every row is profiled first: about 10 minutes on a
# shared 2-core machine; a filled cache measures the fit alone).  Not run by
# ctest (no timed checks in tests).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
WS=$BUILD/warpsight
[ -x "$WS" ] || { echo "no warpsight binary at $WS (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CACHE=${2:-$TMP/cache}
/usr/bin/time -v "$WS" calibrate "$SRC/data/validation/amaris-measured-dev.csv" --gpu k20 \
    --model hong-kim --cache "$CACHE" -o "$TMP/k20.json" > "$TMP/out" 2> "$TMP/time" || {
  tail -20 "$TMP/time" >&2
  exit 1
}
RSS=$(awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$TMP/time")
WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$TMP/time")
head -1 "$TMP/out"
echo "wall time $WALL, peak RSS $(( RSS / 1024 )) MB ($RSS kB)"
