#!/usr/bin/env bash
# Rebuilds pairs.sm_75.ptx from pairs.cu (needs nvcc; the PTX is committed so
# the test runs without it).  -lineinfo: the advisor names pairs.cu's lines.
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -arch=sm_75 -O3 -lineinfo pairs.cu -o pairs.sm_75.ptx
# .file names without the folders of this machine (nvcc writes absolute paths)
sed -i -E 's|^(\s*\.file\s+[0-9]+\s+")[^"]*/([^"/]*")|\1\2|' pairs.sm_75.ptx
