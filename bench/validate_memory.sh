#!/usr/bin/env bash
# validate_memory.sh — peak resident memory of `warpsight validate --report`
# on the whole Amarís data set twice over (6,200 rows: the CSV concatenated
# with itself), as issue 10 asks (it must stay under 300 MB).  Prints the
# rows, the wall time and the peak RSS that /usr/bin/time -v reports.
#
#   bench/validate_memory.sh [BUILD_DIR] [CACHE_DIR]
#
# BUILD_DIR defaults to build/.  CACHE_DIR is the profile cache to use
# (default: a fresh folder, so the first run profiles all 3,100 distinct
# launches, about 6 minutes on one core; the second copy of each row then
# comes from the cache).  Pass a filled cache to measure only the
# prediction/report path.  Not run by ctest (no timed checks in tests).
. "$(dirname "$0")/peak_rss.sh"
CACHE=${2:-$TMP/cache}
DATA=$SRC/data/validation/amaris-measured-dev.csv
{ cat "$DATA"; tail -n +2 "$DATA"; } > "$TMP/double.csv"
ROWS=$(( $(wc -l < "$TMP/double.csv") - 1 ))
run_peak 'echo "validate --models all --report: $ROWS rows, $(tail -1 "$TMP/out")"' \
    "$WS" validate "$TMP/double.csv" --models all --cache "$CACHE" --report "$TMP/report"
