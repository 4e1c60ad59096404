# analyze_usage.sh — argument handling of `warpsight analyze`.
source "$WS_SRC/tests/cli/lib.sh"
run "$WS" analyze --help
expect_rc 0 "--help"
expect_out "usage: warpsight analyze" "--help"
run "$WS" analyze
expect_rc 2 "no file"
run "$WS" analyze "$TMP/missing.ptx"
expect_rc 2 "missing file"
expect_err "missing.ptx" "missing file"
run "$WS" analyze "$WS_SRC/tests/analysis/matmul_tiled.ptx" --arch 80
expect_rc 2 "bad --arch"
expect_err "--arch expects sm_XX" "bad --arch"
run "$WS" analyze "$WS_SRC/tests/analysis/matmul_tiled.ptx" --kernel nosuch
expect_rc 2 "unknown kernel"
expect_err "no function named 'nosuch'" "unknown kernel"
# .cu input without nvcc: a clear message that suggests PTX input
cp "$WS_SRC/tests/analysis/matmul_tiled.cu" "$TMP/m.cu"
run env PATH=/nonexistent CUDA_HOME=/nonexistent "$WS" analyze "$TMP/m.cu"
expect_rc 2 "no nvcc"
expect_err "nvcc not found" "no nvcc"
expect_err "pass the .ptx file" "no nvcc"
# a .cu that does not compile: nvcc's message and exit 2
if command -v nvcc >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  printf '__global__ void k(int *a) { a[0] = undeclared_thing; }\n' >"$TMP/broken.cu"
  run "$WS" analyze "$TMP/broken.cu"
  expect_rc 2 "broken .cu"
  expect_err "nvcc failed on" "broken .cu"
  expect_err "undeclared_thing" "broken .cu"
fi
finish
