#!/bin/sh
# regen-ptx.sh — regenerate the PTX of the public-microbenchmark check set
# (data/validation/gpubench/k/<kernel>.sm_80.ptx) from the .cu files here.
# sm_80: the oldest of the set's measured GPUs (A100).  Usage: regen-ptx.sh [NVCC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../../data/validation/gpubench/k"
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
mkdir -p "$out"
for cu in "$here"/*.cu; do
  k=$(basename "$cu" .cu)
  (cd "$here" && "$nvcc" -ptx -arch=sm_80 -O3 -o "$out/$k.sm_80.ptx" "$k.cu")
  echo "data/validation/gpubench/k/$k.sm_80.ptx"
done
