#!/usr/bin/env bash
# bench/cuda_samples.sh SAMPLES_DIR [options] — NVIDIA's CUDA samples under
# `warpsight exec`.  SAMPLES_DIR is a checkout of NVIDIA/cuda-samples (the
# upstream layout: Common/ and Samples/CATEGORY/NAME/); nothing is
# downloaded and the repository holds none of their code.  Each listed
# sample is built with nvcc (-cudart shared, every .cu and .cpp of its
# folder, the Common/ sources and nvcc options the list below gives it,
# -I Common) and run once under `warpsight exec` with
# /usr/bin/time; the table gives its own verdict (pass: exit status 0, the
# samples exit with EXIT_FAILURE when their check fails), the wall and CPU
# (user + system) seconds and the peak resident set size.
#
# Options:
#   --build DIR     warpsight's build folder (default build-rel, else build)
#   --only A,B      run only these samples (names as in the table)
#   --timeout S     stop a sample after S seconds (default 1800; the table
#                   says "timeout")
#   --arch SM       nvcc's -arch (default sm_80)
#   --cache DIR     the translated engine's cache (default: a new empty
#                   folder, so compiles are counted)
#   --keep DIR      keep the binaries and each run's stdout/stderr in DIR
#   -- ARGS...      passed to `warpsight exec` before `--` (e.g. --engine interp)
# NVCC names the compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc).
# Exit status: 0 when every sample passed, 1 when one did not, 2 for a usage
# error (no such folder, no nvcc, no warpsight, no /usr/bin/time).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "cuda_samples.sh: $*" >&2; exit 2; }

# name|folder under Samples/|extra sources from Common/ (space-separated)|
# extra nvcc options (space-separated; e.g. -rdc=true -lcudadevrt for
# dynamic parallelism, as the sample's own Makefile has them)
SAMPLES="
vectorAdd|0_Introduction/vectorAdd||
matrixMul|0_Introduction/matrixMul||
scan|2_Concepts_and_Techniques/scan||
BlackScholes|5_Domain_Specific/BlackScholes||
alignedTypes|6_Performance/alignedTypes||
sortingNetworks|2_Concepts_and_Techniques/sortingNetworks||
convolutionSeparable|2_Concepts_and_Techniques/convolutionSeparable||
histogram|2_Concepts_and_Techniques/histogram||
binomialOptions|5_Domain_Specific/binomialOptions||
asyncAPI|0_Introduction/asyncAPI||
clock|0_Introduction/clock||
simpleAssert|0_Introduction/simpleAssert||
simpleAtomicIntrinsics|0_Introduction/simpleAtomicIntrinsics||
simpleVoteIntrinsics|0_Introduction/simpleVoteIntrinsics||
simpleTemplates|0_Introduction/simpleTemplates||
simpleZeroCopy|0_Introduction/simpleZeroCopy||
simpleStreams|0_Introduction/simpleStreams||
cppIntegration|0_Introduction/cppIntegration||
simpleCooperativeGroups|0_Introduction/simpleCooperativeGroups||
simpleCudaGraphs|3_CUDA_Features/simpleCudaGraphs||
graphMemoryNodes|3_CUDA_Features/graphMemoryNodes||
warpAggregatedAtomicsCG|3_CUDA_Features/warpAggregatedAtomicsCG||
cdpSimplePrint|3_CUDA_Features/cdpSimplePrint||-rdc=true -lcudadevrt
simpleSeparateCompilation|0_Introduction/simpleSeparateCompilation||-rdc=true
simpleAWBarrier|0_Introduction/simpleAWBarrier||
simpleHyperQ|0_Introduction/simpleHyperQ||
simpleCubemapTexture|0_Introduction/simpleCubemapTexture||
simplePitchLinearTexture|0_Introduction/simplePitchLinearTexture||
simpleCallback|0_Introduction/simpleCallback|multithreading.cpp|
simpleOccupancy|0_Introduction/simpleOccupancy||
binaryPartitionCG|3_CUDA_Features/binaryPartitionCG||
threadFenceReduction|2_Concepts_and_Techniques/threadFenceReduction||
"

samples_dir=
build=
only=
limit=1800
arch=sm_80
cache=
keep=
exec_args=()
while [ $# -gt 0 ]; do
  case $1 in
  --build) build=${2:?}; shift ;;
  --only) only=${2:?}; shift ;;
  --timeout) limit=${2:?}; shift ;;
  --arch) arch=${2:?}; shift ;;
  --cache) cache=${2:?}; shift ;;
  --keep) keep=${2:?}; shift ;;
  --) shift; exec_args=("$@"); break ;;
  -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
  -*) die "unknown option $1 (--help lists them)" ;;
  *) [ -z "$samples_dir" ] || die "one samples folder, not '$samples_dir' and '$1'"
     samples_dir=$1 ;;
  esac
  shift
done

[ -n "$samples_dir" ] || die "usage: bench/cuda_samples.sh SAMPLES_DIR [options] (a checkout of NVIDIA/cuda-samples)"
[ -d "$samples_dir" ] || die "$samples_dir: no such folder (give a checkout of NVIDIA/cuda-samples)"
[ -d "$samples_dir/Samples" ] && [ -d "$samples_dir/Common" ] ||
  die "$samples_dir: not a cuda-samples checkout (no Samples/ and Common/ in it)"
samples_dir=$(cd "$samples_dir" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || die "nvcc not found ($nvcc; set NVCC, or put nvcc on PATH)"
[ -x /usr/bin/time ] || die "needs /usr/bin/time (Debian package 'time')"
if [ -z "$build" ]; then
  build=$src/build-rel
  [ -x "$build/warpsight" ] || build=$src/build
fi
[ -x "$build/warpsight" ] || die "no warpsight binary in $build (build it first, or give --build DIR)"
ws=$(cd "$build" && pwd)/warpsight

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=${keep:-$tmp}
mkdir -p "$work" || die "cannot make $work"
[ -n "$cache" ] || cache=$tmp/jit-cache

for n in ${only//,/ }; do
  grep -q "^$n|" <<<"$SAMPLES" || die "--only: no sample '$n' in the list"
done
selected() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

status=0
printf "%-25s %-10s %9s %9s %9s\n" sample result "wall s" "CPU s" "RSS MiB"
while IFS='|' read -r name dir extra flags; do
  [ -n "$name" ] || continue
  selected "$name" || continue
  folder=$samples_dir/Samples/$dir
  if [ ! -d "$folder" ]; then
    printf "%-25s %-10s\n" "$name" "missing"
    echo "  $folder: not in this checkout" >&2
    status=1
    continue
  fi
  srcs=()
  for f in "$folder"/*.cu "$folder"/*.cpp; do [ -e "$f" ] && srcs+=("$f"); done
  for f in $extra; do srcs+=("$samples_dir/Common/$f"); done
  bin=$work/$name
  # shellcheck disable=SC2086 # $flags: nvcc options, one word each
  if ! "$nvcc" -cudart shared -arch="$arch" -O2 -w -I"$samples_dir/Common" -I"$folder" \
    $flags -o "$bin" "${srcs[@]}" >"$work/$name.build" 2>&1; then
    printf "%-25s %-10s\n" "$name" "no build"
    tail -5 "$work/$name.build" >&2
    status=1
    continue
  fi
  # Run from the sample's folder: some read data files next to their source.
  (cd "$folder" && WARPSIGHT_JIT_CACHE=$cache timeout "$limit" \
    /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" \
    "$ws" exec "${exec_args[@]}" -- "$bin") >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  result=pass
  if [ $rc = 124 ]; then
    result=timeout
  elif [ $rc != 0 ]; then
    result="FAIL($rc)"
  fi
  [ $result = pass ] || status=1
  if [ $rc = 124 ] || [ ! -s "$work/$name.time" ]; then
    printf "%-25s %-10s %9s %9s %9s\n" "$name" "$result" ">$limit" - -
  else
    # the last line: time writes "Command exited with non-zero status N" first
    read -r wall user sys rss < <(tail -1 "$work/$name.time")
    awk -v n="$name" -v r="$result" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" \
      'BEGIN { printf "%-25s %-10s %9.2f %9.2f %9.0f\n", n, r, w, u + s, m / 1024 }'
  fi
  if [ "$result" != pass ] && [ $rc != 124 ]; then
    tail -5 "$work/$name.err" | sed 's/^/  /' >&2
  fi
done <<<"$SAMPLES"
exit $status
