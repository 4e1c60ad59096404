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
. "$(dirname "$0")/peak_rss.sh"
CACHE=${2:-$TMP/cache}
run_peak 'head -1 "$TMP/out"' "$WS" calibrate "$SRC/data/validation/amaris-measured-dev.csv" \
    --gpu k20 --model hong-kim --cache "$CACHE" -o "$TMP/k20.json"
