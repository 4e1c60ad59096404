#!/usr/bin/env bash
# hostcheck.sh BUILD_DIR — cross-check the corpus references against the
# kernel sources without a GPU or the emulator: every tests/corpus/<src>.cu
# is compiled as C++ against hostrun.h (one POSIX thread per CUDA thread),
# every launch spec is run with it, and ref_<src> (from BUILD_DIR/tests/ref)
# checks the outputs. A failure means a reference, a launch spec or a kernel
# disagree. Needs g++ (C++17, _Float16) and libcjson-dev; exits 77 without
# g++. Not a test of warpsight itself.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(dirname "$here")
src_root=$(cd "$corpus/../.." && pwd)
build=${1:?usage: hostcheck.sh BUILD_DIR}
CXX=${CXX:-g++}
command -v "$CXX" >/dev/null || { echo "hostcheck: no $CXX, skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check_src() {   # check_src FILE.cu: compile it, run its specs; prints one line per spec
    local cu=$1 src tu fail=0
    src=$(basename "$cu" .cu)
    tu="$work/$src.cpp"
    {
        echo '#include "hostrun.h"'
        sed -E -e 's|^#include <cuda_fp16.h>||' \
               -e 's|^extern __shared__ ([a-z ]+) ([a-z_]+)\[\];|static \1 *const \2 = (\1 *)hostrun_dyn_shared;|' "$cu"
        echo '#include "hostrun_main.inc"'
        echo 'const hostrun_kernel hostrun_kernels[] = {'
        grep -oE 'extern "C" __global__ void [a-z_0-9]+' "$cu" | awk '{print $5}' |
            while read -r k; do echo "  {\"$k\", [](const std::vector<hostrun_arg> &a) { launch($k, a); }},"; done
        echo '  {nullptr, nullptr}};'
    } >"$tu"
    if ! "$CXX" -std=c++17 -O1 -pthread -w -I"$here" -I"$src_root/include" -I"$src_root/src" "$tu" -lcjson -lm -o "$work/$src" 2>"$work/$src.err"; then
        echo "FAIL $src: does not compile on the host"; sed -n 1,20p "$work/$src.err"; return 1
    fi
    for spec in "$corpus"/launch/"$src".json "$corpus"/launch/"$src".*.json; do
        [ -f "$spec" ] || continue
        local name variant out args
        name=$(basename "$spec" .json)
        variant=${name#"$src"}; variant=${variant#.}
        out="$work/out.$name"; mkdir -p "$out"
        if ! "$work/$src" "$spec" "$out" >"$out/stdout.txt" 2>"$out/stderr.txt"; then
            echo "FAIL $name: host run failed"; cat "$out/stderr.txt"; fail=1; continue
        fi
        args=(); [ -n "$variant" ] && args=(--variant "$variant")
        if "$build/tests/ref/ref_$src" "${args[@]}" "$out" >"$out/ref.txt"; then
            echo "ok   $name: $(grep -v PASS "$out/ref.txt" | sed 's/, tolerance.*mismatches/…/' | tr '\n' ' ')"
        else
            echo "FAIL $name"; cat "$out/ref.txt"; fail=1
        fi
    done
    return $fail
}

# One background job per source file, at most $(nproc) at a time.
fail=0
pids=()
for cu in "$corpus"/*.cu; do
    while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || fail=1; done
    check_src "$cu" >"$work/$(basename "$cu" .cu).log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
cat "$work"/*.log
exit $fail
