#!/usr/bin/env bash
# Regenerate memmodel.sm_75.ptx from memmodel.cu (CUDA 13's nvcc); the tests
# only read the committed PTX.  Runs from this folder with relative names,
# so no machine path ends up in the output.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
"$NVCC" -ptx -arch=sm_75 -O3 memmodel.cu -o memmodel.sm_75.ptx
