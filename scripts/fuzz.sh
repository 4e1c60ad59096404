#!/usr/bin/env bash
# fuzz.sh [SECONDS] [HARNESS...] — builds the libFuzzer harnesses of
# tests/fuzz (clang, -DWS_FUZZ=ON, in build-fuzz/) and runs each for
# SECONDS (default 60), seeded with the inputs the tests use and the
# harness's kept inputs (tests/fuzz/regress/HARNESS/, tests/fuzz/seeds/
# HARNESS/).  Every harness tests/fuzz/fuzz_*.c is run unless some are
# named.  A crash or a sanitizer report stops with exit 1 and leaves the
# input in build-fuzz/artifacts/; copy it into tests/fuzz/regress/HARNESS/
# once fixed, so ctest replays it from then on (docs/fuzzing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
shift || true
CC_FUZZ=${CC_FUZZ:-$(command -v clang-14 || command -v clang || true)}
[ -n "$CC_FUZZ" ] || { echo "fuzz.sh: needs clang with libFuzzer (scripts/install-deps.sh --fuzz)" >&2; exit 2; }
if (($#)); then
  harnesses=("$@")
else
  harnesses=()
  for f in tests/fuzz/fuzz_*.c; do harnesses+=("$(basename "$f" .c)"); done
fi
CC=$CC_FUZZ cmake -S . -B build-fuzz -DWS_FUZZ=ON -DWS_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j2 --target "${harnesses[@]}"
mkdir -p build-fuzz/artifacts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# seeds HARNESS DIR: the inputs the tests use for it, copied into DIR
seeds() {
  local h=$1 d=$2
  case $h in
  fuzz_ptx) cp tests/ptx/*.ptx tests/analysis/*.ptx "$d"/ ;;
  fuzz_emu) cp tests/emu-bad/*.ptx examples/kernels/*.ptx "$d"/ ;;
  fuzz_gpu) cp data/gpus/*.json "$d"/ ;;
  fuzz_spec) cp tests/emu-bad/*.json examples/kernels/*.launch.json "$d"/ ;;
  fuzz_profile) cp tests/bad-profiles/*.json tests/profile/*.json examples/paper/*.json "$d"/ ;;
  fuzz_csv_amaris) # rows of the data set without its header (the harness adds it)
    for k in 2 500 1500 3000; do sed -n "${k},$((k + 3))p" data/validation/amaris-measured-dev.csv >"$d/rows$k.csv"; done ;;
  fuzz_csv_generic)
    printf 'k.ptx,vecadd,l.json,gtx680,1e-5,,,\nk.ptx,,l.json,g.json,2.5e-3,100,32,1024\n' >"$d/rows.csv" ;;
  esac
  for kept in tests/fuzz/regress/"$h" tests/fuzz/seeds/"$h"; do
    [ -d "$kept" ] && cp "$kept"/* "$d"/ 2>/dev/null || true
  done
}

declare -A maxlen=([fuzz_gpu]=16384 [fuzz_profile]=16384 [fuzz_csv_amaris]=4096 [fuzz_csv_generic]=4096)
status=0
for h in "${harnesses[@]}"; do
  mkdir -p "$work/$h"
  seeds "$h" "$work/$h"
  dict=()
  [ -f "tests/fuzz/${h#fuzz_}.dict" ] && dict=(-dict="tests/fuzz/${h#fuzz_}.dict")
  echo "== $h: $SECS s, $(ls "$work/$h" | wc -l) seeds"
  if ! "build-fuzz/tests/fuzz/$h" -max_total_time="$SECS" -max_len="${maxlen[$h]:-8192}" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$h-" "${dict[@]}" \
      "$work/$h" >"$work/$h.log" 2>&1; then
    tail -40 "$work/$h.log"
    echo "fuzz.sh: $h found a failure: build-fuzz/artifacts/$h-*" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$h.log" | tr '\n' ' '
    echo
  fi
done
exit $status
