#!/bin/bash
# run_cu.sh — `warpsight run` takes a .cu file as predict does (nvcc -ptx,
# then the emulator): the outputs equal those of the pregenerated PTX of the
# same source (tests/emu-front/frontend.sm_80.ptx, nvcc -ptx -arch=sm_80 -O3).
source "$WS_SRC/tests/cli/lib.sh"
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "skipped: nvcc not found"; exit 77
fi
D="$WS_SRC/tests/emu-front"
mkdir -p "$TMP/cu" "$TMP/ptx"
for k in conv1d warp_sums; do
  run "$WS" run "$D/frontend.cu" --launch "$D/$k.json" --out "$TMP/cu" -j 2
  expect_rc 0 "run $k from .cu"
  expect_out "warp instructions" "run $k from .cu"
  run "$WS" run "$D/frontend.sm_80.ptx" --launch "$D/$k.json" --out "$TMP/ptx" -j 2
  expect_rc 0 "run $k from .ptx"
  cmp -s "$TMP/cu/$k.out" "$TMP/ptx/$k.out" || fail "$k: the .cu run's output differs from the .ptx run's"
done
run "$WS" run "$D/frontend.cu" --launch "$D/conv1d.json" --arch sm_9x
expect_rc 2 "bad --arch"
expect_err "--arch expects sm_XX" "bad --arch"
printf '__global__ void k( { }\n' >"$TMP/bad.cu"
mkdir -p "$TMP/tmpdir"
TMPDIR="$TMP/tmpdir" run "$WS" run "$TMP/bad.cu" --launch "$D/conv1d.json"
expect_rc 2 "bad .cu"
expect_err "nvcc failed on" "bad .cu"
if [ -n "$(ls -A "$TMP/tmpdir")" ]; then fail "a failed compile left $(ls "$TMP/tmpdir") in TMPDIR"; fi
finish
