#!/bin/bash
# compare_builds.sh — do two builds of warpsight give the same results on
# the kernel corpus, byte for byte?  For a change that must not change
# results (a faster emulator or profiler): run it with the old and the new
# binary.  For every launch spec of tests/corpus/launch and every
# architecture's PTX it compares
#   - `warpsight run`'s output files and device printf output (-j 2, and
#     -j 1 for the new binary against the old one's -j 2),
#   - `warpsight profile` on the A100 (sectored caches, 32 banks), on the
#     GTX 280 (CC 1.3: half-warp coalescing and bank conflicts) and on the
#     A100 with --sample-blocks 4 (the sampled replay and its DRAM estimate).
# A profile is compared whole (the JSON text).  Prints one line per
# difference and a count of what was compared; exit 1 when anything differs.
#
# usage: bench/compare_builds.sh OLD_WARPSIGHT NEW_WARPSIGHT [ARCH...]
#   (ARCH: sm_75 sm_80 sm_86 sm_90, all by default)
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_WARPSIGHT NEW_WARPSIGHT [ARCH...]" >&2
  exit 2
fi
OLD=$(realpath "$1") NEW=$(realpath "$2")
shift 2
ARCHS=${*:-sm_75 sm_80 sm_86 sm_90}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
outputs=0 profiles=0 diffs=0

differs() {
  echo "DIFFERS: $*"
  diffs=$((diffs + 1))
}

for arch in $ARCHS; do
  for spec in "$SRC"/tests/corpus/launch/*.json; do
    b=$(basename "$spec" .json)
    name=${b%%.*}
    ptx="$SRC/tests/corpus/ptx/$arch/$name.ptx"
    [ -f "$ptx" ] || continue
    # run: the outputs of the old build (-j 2), the new (-j 2 and -j 1)
    for v in old new new1; do
      mkdir -p "$TMP/$v"
      rm -f "$TMP/$v"/*
      bin=$NEW j=2
      [ $v = old ] && bin=$OLD
      [ $v = new1 ] && j=1
      (cd "$SRC/tests/corpus/launch" && "$bin" run "$ptx" --launch "$spec" --out "$TMP/$v" -j $j) \
        2>"$TMP/$v/stderr.txt" | head -n -1 >"$TMP/$v/stdout.txt"
      echo "exit ${PIPESTATUS[0]}" >>"$TMP/$v/stderr.txt"
    done
    for f in "$TMP"/old/*; do
      for v in new new1; do
        g="$TMP/$v/$(basename "$f")"
        outputs=$((outputs + 1))
        cmp -s "$f" "$g" || differs "$arch/$b: run output $(basename "$f") ($v)"
      done
    done
    # profiles
    for p in "a100" "gtx280" "a100 --sample-blocks 4"; do
      set -- $p
      gpu=$1
      shift
      for v in old new; do
        bin=$NEW
        [ $v = old ] && bin=$OLD
        (cd "$SRC/tests/corpus/launch" && "$bin" profile "$ptx" --launch "$spec" --gpu "$gpu" "$@" -j 2 \
          -o "$TMP/prof.$v.json") >/dev/null 2>"$TMP/prof.$v.err"
        echo "exit $?" >>"$TMP/prof.$v.err"
      done
      profiles=$((profiles + 1))
      cmp -s "$TMP/prof.old.err" "$TMP/prof.new.err" || differs "$arch/$b: profile $p: messages"
      if [ -f "$TMP/prof.old.json" ] || [ -f "$TMP/prof.new.json" ]; then
        cmp -s "$TMP/prof.old.json" "$TMP/prof.new.json" || differs "$arch/$b: profile $p"
      fi
      rm -f "$TMP"/prof.*
    done
  done
done
echo "compared $outputs run outputs and $profiles profiles: $diffs differ"
[ $diffs -eq 0 ]
