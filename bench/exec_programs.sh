#!/usr/bin/env bash
# bench/exec_programs.sh [BUILD] [--quick] — whole CUDA programs under
# `warpsight exec` in both engines (docs/emulator.md, "The translated
# engine"): bench/programs/blackscholes.cu (8M options, 4 launches) and
# bench/programs/scan.cu (exclusive scan of 16M integers, 4 times; 3
# kernels per scan), built with nvcc -cudart shared.  Each program checks
# its results against its own C reference and times it ("C"), and times its
# launches ("kernels": launch to synchronisation, emulation and the
# profiling of --sample-blocks 4 blocks of each fresh launch included).
# Each runs three times: --engine interp; --engine jit with an empty cache
# (the compile included); --engine jit again (the cache warm).  Prints a
# table; exit status 1 when a program's check failed, 77 without nvcc.
# --quick: 1/16 of the sizes, for a smoke run.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
quick=0
for a in "$@"; do
  case $a in
  --quick) quick=1 ;;
  -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
  *) build=$a ;;
  esac
done
build=$(cd "$build" && pwd)
ws=$build/warpsight
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "nvcc not found" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bs_n=$((8 << 20)) scan_n=$((16 << 20))
[ $quick = 1 ] && bs_n=$((bs_n / 16)) scan_n=$((scan_n / 16))
for p in blackscholes scan; do
  "$nvcc" -cudart shared -arch=sm_80 -O2 -o "$tmp/$p" "$src/bench/programs/$p.cu" || exit 2
done

field() { sed -n "s/^$1: \([0-9.]*\) s$/\1/p" "$2"; } # field NAME FILE
status=0
printf "%-26s %8s %12s %12s %12s %10s %8s %8s\n" program "C s" "interp s" "jit s" "jit cold s" "speed-up" "interp/C" "jit/C"
for p in blackscholes scan; do
  n=$bs_n
  [ $p = scan ] && n=$scan_n
  for run in interp cold warm; do
    engine=jit
    [ $run = interp ] && engine=interp
    [ $run = cold ] && rm -rf "$tmp/cache"
    WARPSIGHT_JIT_CACHE=$tmp/cache "$ws" exec --sample-blocks 4 --engine $engine -- "$tmp/$p" "$n" 4 \
      >"$tmp/$p.$run.out" 2>"$tmp/$p.$run.err"
    rc=$?
    if [ $rc != 0 ] || ! grep -q "^PASS" "$tmp/$p.$run.out"; then
      echo "$p ($run): exit status $rc" >&2
      cat "$tmp/$p.$run.out" "$tmp/$p.$run.err" >&2
      status=1
    fi
  done
  c=$(field C "$tmp/$p.warm.out")
  i=$(field kernels "$tmp/$p.interp.out")
  j=$(field kernels "$tmp/$p.warm.out")
  k=$(field kernels "$tmp/$p.cold.out")
  awk -v p="$p $n" -v c="$c" -v i="$i" -v j="$j" -v k="$k" 'BEGIN {
    printf "%-26s %8.3f %12.3f %12.3f %12.3f %9.1fx %7.1fx %7.1fx\n", p, c, i, j, k, i / j, i / c, j / c }'
done
exit $status
