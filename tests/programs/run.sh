#!/usr/bin/env bash
# run.sh NAME [ptsz] — build tests/programs/NAME.cu with nvcc (-cudart
# shared, -arch=sm_80, sm_90 for cluster, sm_89 for fp8; with ptsz also
# -default-stream per-thread, whose host code calls the _ptsz/_ptds entry
# points) and run it under `warpsight exec`: its own checks against the C
# reference must print PASS and exit 0; some programs have extra checks
# below.  Skipped (exit 77) where nvcc is absent.  Env: WS (warpsight),
# WS_SRC, WS_BUILD, WS_SANITIZE=1 when the runtime is built with ASan (it
# is then preloaded).
name=$1
variant=${2:-}
flags=()
[ "$variant" = ptsz ] && flags=(-default-stream per-thread)
[ "$name" = compat ] && flags=(-I"$WS_SRC/include")
[ "$name" = abi_check ] && flags=(-I"$WS_SRC/src")
arch=sm_80
[ "$name" = cluster ] && arch=sm_90 # thread-block clusters
[ "$name" = fp8 ] && arch=sm_89       # where cuda_fp8.h converts with cvt
# die links a helper library, lazily bound: run.sh builds it (and one
# without the function, for the dynamic linker's death)
helper="$WS_BUILD/tests/programs/diehelper"
if [ "$name" = die ]; then
  mkdir -p "$helper/good" "$helper/bad"
  echo 'int die_helper(int x) { return x == 17 ? 0 : 1; }' >"$helper/good.c"
  echo 'int die_other(int x) { return x; }' >"$helper/bad.c"
  gcc -shared -fPIC -o "$helper/good/libdiehelper.so" "$helper/good.c" &&
    gcc -shared -fPIC -o "$helper/bad/libdiehelper.so" "$helper/bad.c" || { echo "FAIL: gcc"; exit 1; }
  flags=(-L"$helper/good" -ldiehelper -Xlinker -rpath,"$helper/good" -Xlinker -z,lazy)
fi
. "$WS_SRC/tests/cli/lib.sh"
need_nvcc tests/programs
if [ "${WS_SANITIZE:-0}" = 1 ]; then
  case $name in scan|printf|die|managed)
    # Managed memory is mapped on the host at its device address, which
    # lies in ASan's shadow memory (docs/exec.md, "Memory").
    # (die: ASan's own handlers take the signals it checks for)
    echo "SKIP: $name uses managed memory, which cannot be mapped under ASan"
    exit 77 ;;
  esac
fi
bin="$WS_BUILD/tests/programs/$name${variant:+_$variant}"
mkdir -p "$(dirname "$bin")"
src="$WS_SRC/tests/programs/$name.cu"
if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$WS_SRC/tests/programs/check.h" -nt "$bin" ] ||
   { [ "$name" = abi_check ] && [ -n "$(find "$WS_SRC/src/cudart" -newer "$bin" -name '*.[hd]*')" ]; }; then
  "$NVCC" -cudart shared -arch=$arch -O2 "${flags[@]}" -o "$bin.tmp" "$src" || { echo "FAIL: nvcc $src"; exit 1; }
  mv "$bin.tmp" "$bin"
fi
wsexec() { bash "$WS_SRC/tests/programs/wsexec.sh" "$@"; }

# A program that dies after its kernels ran: exec says how, and still
# reports every kernel (from the runtime's launch log).
if [ "$name" = die ]; then
  run wsexec --report "$TMP/report" -- "$bin" abort
  expect_rc 134 "abort"
  expect_err "was killed by signal 6 (SIGABRT)" "abort: how it ended"
  expect_err "the kernels below come from the runtime's launch log" "abort"
  expect_out "kernel twice: 1 launch" "abort: the kernels that ran"
  expect_out "kernel plus: 2 launches" "abort: the kernels that ran"
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r["launches"] == 3 else 1)' \
    "$TMP/report/exec.json" || fail "abort: --report's exec.json rebuilt with 3 launches"
  run wsexec -- "$bin" segv
  expect_rc 139 "segv"
  expect_err "was killed by signal 11 (SIGSEGV)" "segv"
  expect_out "kernel plus: 2 launches" "segv"
  run env LD_LIBRARY_PATH="$helper/bad" "$WS" exec -- "$bin" symbol
  expect_rc 127 "symbol"
  expect_err "the dynamic linker could not find symbol die_helper" "symbol: the missing symbol"
  expect_out "kernel plus: 2 launches" "symbol: the kernels that ran"
  run wsexec --json -- "$bin" nonl
  expect_rc 0 "nonl"
  grep -qx 'h\[5\] = 17' <<<"$OUT" || fail "nonl: the program's output is not on a line of its own: $OUT"
  grep -qx '{' <<<"$OUT" || fail "nonl: --json is glued to the program's output: $OUT"
  finish
fi

run wsexec --report "$TMP/report" -- "$bin"
expect_no_crash "$name"
expect_rc 0 "$name"
expect_out "PASS" "$name"
grep -q "^FAIL" <<<"$OUT" && fail "$name: $OUT"
[ -f "$TMP/report/exec.json" ] || fail "$name: no report $TMP/report/exec.json"

case $name in
partial)
  # the module loads; only the kernel with the unknown instruction is refused,
  # naming it and its PTX line
  expect_err "error: instruction not implemented by the emulator (warpsight's PTX front end does not understand it: unknown opcode 'discard'): discard.global.L2" \
    "the refusal names the instruction"
  grep -q 'partial\.fatbin0\.compute_80\.ptx:[0-9]*:[0-9]*: error' <<<"$ERR" || fail "partial: the refusal names the PTX line: $ERR"
  expect_out "kernel plain: 2 launches" "the other kernel ran" ;;
coop)
  expect_out "kernel phases: 1 launch, grid 64 x 1 x 1" "the cooperative kernel is reported" ;;
fault)
  expect_err "out-of-bounds" "the fault is reported as warpsight run reports it"
  expect_out "cudaErrorIllegalAddress" "the program sees the fault" ;;
cluster)
  # each refusal names the feature and the call
  expect_err "cudaLaunchKernelExC with a cluster dimension is not supported by warpsight's CUDA runtime" "cluster launch"
  expect_err "cudaFuncSetAttribute(cudaFuncAttributeNonPortableClusterSizeAllowed) (thread-block clusters) is not supported" "cluster attribute"
  expect_err "cudaOccupancyMaxActiveClusters is not supported" "cluster occupancy"
  expect_err "(thread-block clusters are not emulated): barrier.cluster.arrive" "__cluster_dims__ kernel"
  expect_out "kernel consumer: 1 launch" "the launch with programmatic serialisation ran" ;;
unsupported)
  expect_err "cudaIpcGetMemHandle is not supported by warpsight's CUDA runtime" "the message names the call" ;;
attrs)
  # the values agree with the GPU database (warpsight gpu a100 --json)
  "$WS" gpu a100 --json >"$TMP/gpu.json" || fail "warpsight gpu a100 --json"
  printf '%s\n' "$OUT" >"$TMP/attrs.txt"
  python3 - "$TMP/gpu.json" "$TMP/attrs.txt" <<'PY' || fail "attrs: values differ from the GPU database"
import json, re, sys
g = json.load(open(sys.argv[1]))
v = lambda x: x["value"] if isinstance(x, dict) else x
got = dict(re.findall(r"^(cudaDevAttr\w+) = (-?\d+)$", open(sys.argv[2]).read(), re.M))
cc = v(g["compute_capability"]).split(".")
want = {"cudaDevAttrMultiProcessorCount": v(g["sms"]), "cudaDevAttrWarpSize": v(g["warp_size"]),
        "cudaDevAttrComputeCapabilityMajor": int(cc[0]), "cudaDevAttrComputeCapabilityMinor": int(cc[1]),
        "cudaDevAttrClockRate": round(v(g["clock_ghz"]) * 1e6), "cudaDevAttrL2CacheSize": v(g["cache"]["l2_bytes"]),
        "cudaDevAttrComputeMode": 0, "cudaDevAttrIntegrated": 0}
mem = g.get("memory", {})
if "bus_bits" in mem: want["cudaDevAttrGlobalMemoryBusWidth"] = v(mem["bus_bits"])
if "clock_mhz" in mem: want["cudaDevAttrMemoryClockRate"] = round(v(mem["clock_mhz"]) * 1000)
bad = [(k, got.get(k), w) for k, w in want.items() if int(got.get(k, -1)) != int(w)]
bus, mem = int(got["cudaDevAttrGlobalMemoryBusWidth"]), int(got["cudaDevAttrMemoryClockRate"])
bw = 2.0 * mem * 1e3 * bus / 8 / 1e9  # deviceQuery's peak bandwidth, GB/s
if abs(bw - v(g["mem_bandwidth_gbs"])) > 0.01 * v(g["mem_bandwidth_gbs"]): bad.append(("bandwidth", bw, v(g["mem_bandwidth_gbs"])))
print(f"{len(got)} attributes; checked against the database: {bad or 'all agree'}")
sys.exit(1 if bad else 0)
PY
  ;;
reuse)
  expect_out "kernel saxpy: 13 launches" "every launch is counted"
  # the launch log of a direct run: 1 profile for the ten launches that only
  # change a and swap buffers, 1 each for the three values of n
  if [ "${WS_SANITIZE:-0}" != 1 ]; then
    run env LD_LIBRARY_PATH="$WS_BUILD/src/cudart/lib" WARPSIGHT_QUIET=1 WARPSIGHT_MODEL=roofline \
      WARPSIGHT_EXEC_LOG="$TMP/reuse.log" "$bin"
    expect_rc 0 "run directly with a launch log"
    profiles=$(grep -c '"kstat"' "$TMP/reuse.log")
    launches=$(grep -c '"launch"' "$TMP/reuse.log")
    [ "$profiles" = 4 ] || fail "reuse: $profiles profiles for 13 launches, expected 4 (1 + 3)"
    [ "$launches" = 13 ] || fail "reuse: $launches launches logged, expected 13"
  fi ;;
graph)
  expect_out "kernel saxpy: 5 launches" "every launch of a kernel node is predicted"
  expect_out "kernel square: 3 launches" "every replay of the captured graph" ;;
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
  expect_out "hello from thread 1 of block 1" "device printf, second block"
  # `*` takes the width or precision from the arguments (it printed "%*d"):
  # the host's printf of the same format and arguments gives this line
  expect_out "star: [    42] [7   ] [2.718] [    1.23e+03] [abc] [2.2    ] [5]" "printf with * widths" ;;
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
  expect_out "PASS stencil" "--sample-blocks 1: the results are still right"
  # 'all' (and 0, the default) profile every block: the same predictions,
  # through the option and through the runtime's own variable
  run wsexec --model warpsight -- "$bin"
  every=$(grep "warpsight  " <<<"$OUT")
  [ -n "$every" ] || fail "no warpsight prediction in exec's report: $OUT"
  run wsexec --sample-blocks all --model warpsight -- "$bin"
  expect_rc 0 "--sample-blocks all"
  [ "$(grep "warpsight  " <<<"$OUT")" = "$every" ] || fail "--sample-blocks all: not the every-block predictions"
  WARPSIGHT_SAMPLE_BLOCKS=all run wsexec --model warpsight -- "$bin"
  [ "$(grep "warpsight  " <<<"$OUT")" = "$every" ] || fail "WARPSIGHT_SAMPLE_BLOCKS=all: not the every-block predictions"
  WARPSIGHT_SAMPLE_BLOCKS=some run wsexec -- "$bin"
  expect_err "WARPSIGHT_SAMPLE_BLOCKS: expected a number of blocks (or 'all'), got 'some'" "bad WARPSIGHT_SAMPLE_BLOCKS" ;;
histogram)
  run wsexec --json --model roofline -- "$bin"
  expect_rc 0 "--json"
  expect_out '"schema":	"warpsight-exec/1"' "--json prints the report"
  expect_out '"demangled":	"histogram"' "--json names the kernel" ;;
longname)
  # kernels whose mangled names pass 255 bytes (issue 24, row 16): a profile
  # and a chart each, under a shortened name with a hash suffix (they were
  # missing)
  n=$(ls "$TMP/report/" | grep -c '^_Z18apply_two_policies.*-[0-9a-f]\{16\}-[01]\.profile\.json$')
  [ "$n" -eq 2 ] || fail "longname: $n profiles of the two instantiations: $(ls "$TMP/report/")"
  if grep -q "^CAIRO_FOUND:INTERNAL=1" "$WS_BUILD/CMakeCache.txt" 2>/dev/null; then
    n=$(ls "$TMP/report/" | grep -c '^_Z18apply_two_policies.*-[0-9a-f]\{16\}-[01]-roofline\.svg$')
    [ "$n" -eq 2 ] || fail "longname: $n roofline charts of the two instantiations: $(ls "$TMP/report/")"
    for f in "$TMP/report/"*; do
      b=${f##*/}
      [ "${#b}" -le 255 ] || fail "longname: a file name of ${#b} bytes"
    done
  fi ;;
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
