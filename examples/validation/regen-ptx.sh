#!/bin/sh
# regen-ptx.sh — regenerate examples/validation/ptx/<kernel>.sm_75.ptx from the
# .cu files with nvcc.  sm_75 because CUDA 13 no longer targets the measured
# GPUs' sm_30/sm_35/sm_52 (docs/validation.md).  Usage: regen-ptx.sh [NVCC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
mkdir -p "$here/ptx"
for cu in "$here"/*.cu; do
  k=$(basename "$cu" .cu)
  (cd "$here" && "$nvcc" -ptx -arch=sm_75 -O3 -o "ptx/$k.sm_75.ptx" "$k.cu")
  echo "ptx/$k.sm_75.ptx"
done
