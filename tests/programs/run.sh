#!/usr/bin/env bash
# run.sh NAME [ptsz] — build tests/programs/NAME.cu with nvcc (-cudart
# shared; with ptsz also -default-stream per-thread, whose host code calls the
# _ptsz/_ptds entry points) and run it under `warpsight exec`: its own checks
# against the C reference must print PASS and exit 0; some programs have
# extra checks below.  Skipped (exit 77) where nvcc is absent.  Env: WS
# (warpsight), WS_SRC, WS_BUILD, WS_SANITIZE=1 when the runtime is built with
# ASan (it is then preloaded).
name=$1
variant=${2:-}
flags=()
[ "$variant" = ptsz ] && flags=(-default-stream per-thread)
. "$WS_SRC/tests/cli/lib.sh"
need_nvcc tests/programs
if [ "${WS_SANITIZE:-0}" = 1 ]; then
  case $name in scan|printf)
    # Managed memory is mapped on the host at its device address, which
    # lies in ASan's shadow memory (docs/exec.md, "Memory").
    echo "SKIP: $name uses managed memory, which cannot be mapped under ASan"
    exit 77 ;;
  esac
fi
bin="$WS_BUILD/tests/programs/$name${variant:+_$variant}"
mkdir -p "$(dirname "$bin")"
src="$WS_SRC/tests/programs/$name.cu"
if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$WS_SRC/tests/programs/check.h" -nt "$bin" ]; then
  "$NVCC" -cudart shared -arch=sm_80 -O2 "${flags[@]}" -o "$bin.tmp" "$src" || { echo "FAIL: nvcc $src"; exit 1; }
  mv "$bin.tmp" "$bin"
fi
wsexec() { bash "$WS_SRC/tests/programs/wsexec.sh" "$@"; }

run wsexec --report "$TMP/report" -- "$bin"
expect_no_crash "$name"
expect_rc 0 "$name"
expect_out "PASS" "$name"
grep -q "^FAIL" <<<"$OUT" && fail "$name: $OUT"
[ -f "$TMP/report/exec.json" ] || fail "$name: no report $TMP/report/exec.json"

case $name in
fault)
  expect_err "out-of-bounds" "the fault is reported as warpsight run reports it"
  expect_out "cudaErrorIllegalAddress" "the program sees the fault" ;;
unsupported)
  expect_err "cudaMallocPitch is not supported by warpsight's CUDA runtime" "the message names the call" ;;
spin)
  # the emulated-work limits reach the runtime (issue 14): with the defaults
  # (above) the spin stopped at 2^26 = 67108864 warp instructions per warp
  expect_err "runaway kernel: warp 0 exceeded the limit of 67108864 warp instructions per warp (--max-warp-insts) in kernel" "default limit"
  expect_out "totalGlobalMem 4294967296" "default device memory (4 GiB)"
  expect_out "cudaMalloc of 64 MiB: cudaSuccess" "64 MiB in 4 GiB"
  run wsexec --max-warp-insts 1000 -- "$bin"
  expect_rc 0 "--max-warp-insts 1000"
  expect_err "runaway kernel: warp 0 exceeded the limit of 1000 warp instructions per warp (--max-warp-insts) in kernel" "--max-warp-insts 1000"
  expect_out "spin: cudaErrorLaunchTimeout" "--max-warp-insts 1000: the program sees the fault"
  run wsexec --max-warp-insts 0 --max-launch-insts 5000 -- "$bin"
  expect_rc 0 "--max-launch-insts 5000"
  expect_out "spin: cudaErrorLaunchTimeout" "--max-launch-insts 5000: the program sees the fault"
  expect_err "the launch exceeded the limit of 5000 warp instructions in all (--max-launch-insts)" "--max-launch-insts 5000"
  run wsexec --max-memory 16M --max-warp-insts 1000 -- "$bin"
  expect_rc 0 "--max-memory 16M"
  expect_out "totalGlobalMem 16777216" "--max-memory 16M: the device's size"
  expect_out "cudaMalloc of 64 MiB: cudaErrorMemoryAllocation" "--max-memory 16M: 64 MiB refused"
  run wsexec --max-warp-insts -5 -- "$bin"
  expect_rc 2 "negative --max-warp-insts"
  expect_err "--max-warp-insts expects a number of warp instructions" "negative --max-warp-insts"
  run wsexec --max-memory 12Q -- "$bin"
  expect_rc 2 "bad --max-memory"
  expect_err "--max-memory expects a number of bytes" "bad --max-memory"
  # the runtime's own check, for a program run without exec
  WARPSIGHT_MAX_WARP_INSTS=lots run wsexec -- "$bin"
  expect_err "WARPSIGHT_MAX_WARP_INSTS: expected a number of warp instructions, got 'lots'" "bad WARPSIGHT_MAX_WARP_INSTS" ;;
printf)
  expect_out "hello from thread 3 of block 0" "device printf"
  expect_out "hello from thread 1 of block 1" "device printf, second block" ;;
reduce)
  expect_out "kernel reduce<int, 256>" "the report demangles the template" ;;
functor)
  expect_out "zip<float, ops::Saxpy>" "the report demangles the functor instantiation"
  expect_out "zip<float, ops::MaxOf<float> >" "the second instantiation" ;;
stencil)
  expect_out "6 launches" "ping-pong launches counted"
  # sampling profiles 1 block of 9, but every block still runs
  run wsexec --sample-blocks 1 --model roofline -- "$bin"
  expect_rc 0 "--sample-blocks 1"
  expect_out "PASS stencil" "--sample-blocks 1: the results are still right" ;;
histogram)
  run wsexec --json --model roofline -- "$bin"
  expect_rc 0 "--json"
  expect_out '"schema":	"warpsight-exec/1"' "--json prints the report"
  expect_out '"demangled":	"histogram"' "--json names the kernel" ;;
conv)
  # the charts of --report, where the library draws them (cairo)
  if ls "$TMP/report/" | grep -q '\.png$'; then
    ls "$TMP/report/" | grep -q 'roofline\.svg$' || fail "--report: no roofline chart"
  fi ;;
spmv)
  # run directly with LD_LIBRARY_PATH: the environment selects the options
  if [ "${WS_SANITIZE:-0}" != 1 ]; then
    run env LD_LIBRARY_PATH="$WS_BUILD/src/cudart/lib" WARPSIGHT_GPU=v100 WARPSIGHT_MODEL=roofline "$bin"
    expect_rc 0 "run directly"
    expect_out "PASS spmv" "run directly"
    expect_err "warpsight: 1 kernel launch on v100, predicted GPU time" "the summary at exit"
    expect_err "(roofline)" "WARPSIGHT_MODEL"
  fi ;;
streams)
  # cudaEventElapsedTime = the report's predicted time of the kernels between
  # the two records (here every kernel of the program), primary model.
  ev=$(sed -n 's/^events: \(.*\) ms$/\1/p' <<<"$OUT")
  python3 - "$TMP/report/exec.json" "$ev" <<'PY' || fail "events: elapsed time differs from the report"
import json, sys
r = json.load(open(sys.argv[1])); ev = float(sys.argv[2]); m = r["primary_model"]
want = sum(k["total_ms"][m] for k in r["kernels"])
print(f"events {ev!r} ms, report {want!r} ms ({m})")
sys.exit(0 if want > 0 and abs(ev - want) <= 1e-6 * want else 1)
PY
  ;;
esac
finish
