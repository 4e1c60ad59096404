#!/usr/bin/env bash
# bench/exec_overhead.sh [BUILD] [N] — the CUDA runtime's overhead per launch:
# N (default 10000) empty launches of tests/programs/empty.cu under
# `warpsight exec`, against `warpsight run` of the same kernel from its PTX
# (one launch per process).  Needs nvcc.  Prints the figures; docs/exec.md
# quotes them.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
n=${2:-10000}
ws=$build/warpsight
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "nvcc not found" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$nvcc" -cudart shared -arch=sm_80 -O2 -o "$tmp/empty" "$src/tests/programs/empty.cu"
"$nvcc" -ptx -arch=sm_80 -o "$tmp/empty.ptx" "$src/tests/programs/empty.cu"
echo '{"kernel": "_Z5emptyv", "grid": [1], "block": [32], "args": []}' >"$tmp/empty.json"

now() { date +%s.%N; }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.4f}')" "$@"; }

t0=$(now); "$ws" exec --model hong-kim -- "$tmp/empty" 0 >/dev/null; t1=$(now)
"$ws" exec --model hong-kim -- "$tmp/empty" "$n" >/dev/null; t2=$(now)
base=$(secs "$t0" "$t1"); full=$(secs "$t1" "$t2")
runs=20
t3=$(now)
for _ in $(seq $runs); do "$ws" run "$tmp/empty.ptx" --launch "$tmp/empty.json" -j 1 >/dev/null; done
t4=$(now)
run=$(secs "$t3" "$t4")
python3 - "$n" "$base" "$full" "$runs" "$run" <<'PY'
import sys
n, base, full, runs, run = int(sys.argv[1]), *map(float, sys.argv[2:4]), int(sys.argv[4]), float(sys.argv[5])
per = (full - base) / n
print(f"warpsight exec: {n} empty launches in {full:.3f} s, start-up {base:.3f} s "
      f"-> {per * 1e6:.1f} us per launch (the first profiled, the rest from the launch cache)")
print(f"warpsight run:  {runs} runs of the same kernel in {run:.3f} s -> {run / runs * 1e3:.1f} ms per launch "
      f"(process start, PTX parse, load, run)")
print(f"ratio: one `warpsight run` costs as much as {run / runs / per:.0f} launches under exec")
PY
