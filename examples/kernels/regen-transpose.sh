#!/usr/bin/env bash
# Rebuilds transpose.sm_80.ptx from transpose.cu with line information (needs
# nvcc; the PTX is committed so that the example runs without it).  The
# .file names lose this machine's folders.
set -euo pipefail
cd "$(dirname "$0")"
nvcc -ptx -arch=sm_80 -O3 -lineinfo transpose.cu -o transpose.sm_80.ptx
sed -i -E 's|^(\s*\.file\s+[0-9]+\s+")[^"]*/([^"/]*")|\1\2|' transpose.sm_80.ptx
