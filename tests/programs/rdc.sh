#!/usr/bin/env bash
# rdc.sh — a multi-file program built by its own CMake project with
# relocatable device code (CUDA_SEPARABLE_COMPILATION, -rdc=true) and the
# shared runtime (CUDA_RUNTIME_LIBRARY Shared): tests/programs/rdc.  Its
# kernel calls a __device__ function of the other file; under warpsight exec
# its check must pass and both files' kernels be reported, and each grid a
# kernel launched from the device (launch.cu) be a launch of its own.  Skipped (77)
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
# device-side launches: each child grid is a launch of its own
expect_out "PASS device-side launches" "the program's check of its device-side launches"
expect_out "kernel fill_row: 5 launches" "one child grid per row"
expect_out "kernel tree: 1 launch, grid 1 x 1 x 1" "the tree's root, launched by the host"
expect_out "kernel tree: 7 launches, grid 2 x 1 x 1" "the tree's device-launched grids (1 + 2 + 4)"
expect_out "kernel add_bias: 1 launch, grid 3 x 1 x 1" "another file's kernel launched from the device"
finish
