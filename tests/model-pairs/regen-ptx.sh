#!/usr/bin/env bash
# Rebuilds pairs.sm_75.ptx from pairs.cu (needs nvcc; the PTX is committed so
# the test runs without it).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -arch=sm_75 -O3 pairs.cu -o pairs.sm_75.ptx
