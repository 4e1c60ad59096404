#!/usr/bin/env bash
# rdc.sh — a multi-file program built by its own CMake project with
# relocatable device code (CUDA_SEPARABLE_COMPILATION, -rdc=true) and the
# shared runtime (CUDA_RUNTIME_LIBRARY Shared): tests/programs/rdc.  Its
# kernel calls a __device__ function of the other file; under warpsight exec
# its check must pass and both files' kernels be reported.  Skipped (77)
# without nvcc, or when CMake cannot configure CUDA.  Env: WS, WS_SRC,
# WS_BUILD, WS_SANITIZE.
. "$WS_SRC/tests/cli/lib.sh"
need_nvcc tests/programs/rdc
build="$WS_BUILD/tests/programs/rdc-build"
bin="$build/rdc_program"
if [ ! -x "$bin" ] || [ -n "$(find "$WS_SRC/tests/programs/rdc" -newer "$bin" -type f)" ]; then
  cmake -S "$WS_SRC/tests/programs/rdc" -B "$build" -DCMAKE_CUDA_COMPILER="$NVCC" >"$TMP/cmake.log" 2>&1 || {
    echo "SKIP: CMake cannot configure a CUDA project here: $(tail -3 "$TMP/cmake.log")"
    exit 77
  }
  cmake --build "$build" >"$TMP/build.log" 2>&1 || fail "building the rdc program: $(tail -20 "$TMP/build.log")"
fi
# the shared runtime: the program imports libcudart.so.13
readelf -d "$bin" | grep -q 'NEEDED.*libcudart.so.13' || fail "CUDA_RUNTIME_LIBRARY Shared did not link libcudart.so.13"
run bash "$WS_SRC/tests/programs/wsexec.sh" -- "$bin"
expect_no_crash rdc
expect_rc 0 rdc
expect_out "PASS -rdc=true program" "the program's own check"
expect_out "kernel apply: 1 launch" "main.cu's kernel is reported"
expect_out "kernel add_bias: 2 launches" "scale.cu's kernel is reported"
finish
