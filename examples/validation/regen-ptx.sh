#!/bin/sh
# regen-ptx.sh — regenerate examples/validation/ptx/<kernel>.sm_75.ptx from the
# .cu files with nvcc.  sm_75 because CUDA 13 no longer targets the measured
# GPUs' sm_30/sm_35/sm_52 (docs/validation.md).  Also the public-microbenchmark
# set's kernels, gpubench/*.cu, into data/validation/gpubench/k/<kernel>.sm_80.ptx
# (sm_80: the oldest GPU of that set nvcc still targets).  Usage: regen-ptx.sh [NVCC]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
gen() { # DIR-OF-CU OUT-DIR ARCH
  mkdir -p "$2"
  for cu in "$1"/*.cu; do
    k=$(basename "$cu" .cu)
    (cd "$1" && "$nvcc" -ptx -arch="$3" -O3 -o "$2/$k.$3.ptx" "$k.cu")
    echo "$2/$k.$3.ptx"
  done
}
gen "$here" "$here/ptx" sm_75
gen "$here/gpubench" "$here/../../data/validation/gpubench/k" sm_80
