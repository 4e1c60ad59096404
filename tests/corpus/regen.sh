#!/usr/bin/env bash
# Regenerate the committed PTX and ptxas resource reports of the kernel
# corpus from the .cu sources:
#   ptx/<arch>/<name>.ptx     nvcc -ptx -arch=<arch> -O3
#   resources/<arch>.txt      ptxas -v of every PTX for that arch
# and the bundled examples in examples/kernels (sm_80 only).
# Runs from this folder with relative file names so no machine path ends up
# in the outputs. Needs CUDA 13 (NVCC or /usr/local/cuda/bin/nvcc); the
# tests themselves only read the committed outputs.
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
ARCHS="sm_75 sm_80 sm_86 sm_90"
NVFLAGS="-O3 -Werror all-warnings"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

for arch in $ARCHS; do
    mkdir -p "ptx/$arch" resources
    res="resources/$arch.txt"
    {
        echo "# ptxas -v -arch=$arch for every tests/corpus kernel ($("$PTXAS" --version | tail -1))"
        echo "# Regenerate with tests/corpus/regen.sh; do not edit."
    } >"$res"
    for cu in *.cu; do
        name=${cu%.cu}
        "$NVCC" -ptx -arch="$arch" $NVFLAGS "$cu" -o "ptx/$arch/$name.ptx"
        echo "## $name" >>"$res"
        # ptxas prints its report on stderr; keep it without the (varying)
        # compile times, and stop on any error.
        "$PTXAS" -arch="$arch" -v "ptx/$arch/$name.ptx" -o /dev/null 2>"$tmp"
        grep -v "Compile time" "$tmp" >>"$res"
    done
done

# listrank's input: one linked list through nodes 0..999 in a random order
# (Fisher-Yates shuffle driven by splitmix64, seed 39, as in
# src/emu/rng.h), written as 1000 little-endian s32 successors
# with -1 at the tail. ref_listrank checks that the file is one list.
python3 - <<'PY'
import struct
M = (1 << 64) - 1
state = 39
def draw():
    global state
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)
n = 1000
order = list(range(n))
for i in range(n - 1, 0, -1):
    j = min(int((draw() >> 11) * 2.0**-53 * (i + 1)), i)
    order[i], order[j] = order[j], order[i]
succ = [0] * n
for k in range(n - 1):
    succ[order[k]] = order[k + 1]
succ[order[-1]] = -1
open("launch/listrank_succ.bin", "wb").write(struct.pack("<%di" % n, *succ))
PY

ex=../../examples/kernels
if [ -d "$ex" ]; then
    (cd "$ex" && for cu in *.cu; do
        "$NVCC" -ptx -arch=sm_80 $NVFLAGS "$cu" -o "${cu%.cu}.sm_80.ptx"
        "$PTXAS" -arch=sm_80 "${cu%.cu}.sm_80.ptx" -o /dev/null
    done)
fi
echo "regenerated $(ls *.cu | wc -l) kernels for: $ARCHS"
