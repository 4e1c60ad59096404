#!/bin/bash
# jit_exact.sh — the translated engine gives the interpreter's results, bit
# for bit (docs/emulator.md, "The translated engine"): each case runs with
# --engine interp and with --engine jit (translated whatever the work) and
# the two runs must agree on the exit status, every output file byte for
# byte, stdout (the warp and thread instruction counts included; only the
# wall time and the worker count are masked: the interpreter runs on one
# worker, the translated engine on two) and stderr (fault reports: kernel, block, thread,
# PTX line, address and nearest object).  The interpreter is the reference;
# its own results are checked against C elsewhere (corpus_run.sh, the unit
# tests).  Cases:
#   * every launch spec of the kernel corpus (tests/corpus, sm_80 PTX)
#   * the front-end kernels of tests/emu-front and examples/kernels
#   * the faulty kernels of tests/emu-bad (faults, deadlocks, traps, runaway
#     loops, assert, recursion overflow, bad indirect calls)
#   * tests/jit/numerics.ptx (numerics_gen.py): rounding modes, .ftz/.sat, NaN payloads,
#     subnormals, .approx functions, conversions, f16/bf16 and integer edge
#     cases on fixed bit patterns
#   * the CUDA programs of tests/programs under `warpsight exec
#     --sample-blocks 1` (one block profiled, the rest run in the engine
#     asked for): the program's output and report (only with nvcc)
#   * tests/jit/shared_reuse.ptx: the shared-address analyses of the
#     translated code (a base register rewritten within a segment, the
#     access patterns, a fault past the end)
#   * tests/jit/global_fast.ptx: the whole-warp global fast path (contiguous
#     warps and half-warp rows, two buffers in one warp, load sites
#     alternating between buffers, widths, faults at a half-warp's end)
#   * what falls back (docs/emulator.md, "What falls back"): a kernel with
#     instructions the translator leaves to the interpreter (tests/jit/
#     fallback.ptx's mbarriers; the texture, cp.async, wmma and mma
#     programs) and a cooperative launch (coop.cu): --engine jit refuses
#     them naming the instruction and its PTX line (or the cooperative
#     launch), and --engine auto, run after it with the same cache, gives
#     the interpreter's results
# Without a C compiler the test is skipped (77).  The compiled kernels are
# cached in $WS_BUILD/jit-cache, so only the first run compiles.
. "$(dirname "$0")/lib.sh"
CC_FOUND=${WARPSIGHT_JIT_CC:-$(command -v cc || command -v gcc || command -v clang || true)}
if [ -z "$CC_FOUND" ]; then
  echo "SKIP: no C compiler (cc, gcc or clang) for the translated engine"
  exit 77
fi
export WARPSIGHT_JIT_CACHE="${WS_BUILD:-$TMP}/jit-cache"
# The generated C compiled without optimisation (5 times faster to compile
# than the default -O2; the translation is the same): the test stays quick
# on a fresh build.  The numerics kernels, and the unit tests in
# test_jit_*.c, use the default -O2.
export WARPSIGHT_JIT_OPT=0
unset WARPSIGHT_ENGINE WARPSIGHT_VERBOSE
n=0
# same NAME DIR PTX SPEC [run options...]: both engines from DIR, compared
same() {
  local name=$1 dir=$2 ptx=$3 spec=$4
  shift 4
  local e
  for e in interp jit; do
    rm -rf "$TMP/$e"
    mkdir -p "$TMP/$e/out"
    # the interpreter on one worker, the translated engine on two: the
    # results must not depend on the engine nor on -j
    j=1
    [ $e = jit ] && j=2
    (cd "$dir" && "$WS" run "$ptx" --launch "$spec" --out "$TMP/$e/out" -j $j --engine "$e" "$@" \
      >"$TMP/$e/stdout" 2>"$TMP/$e/stderr")
    echo $? >"$TMP/$e/rc"
    sed -i 's/, [0-9.]* s ([0-9]* threads)/, T s (J threads)/' "$TMP/$e/stdout"
  done
  [ "$(cat "$TMP/jit/rc")" -lt 128 ] || fail "$name: the translated engine crashed: $(cat "$TMP/jit/stderr")"
  if ! diff -r "$TMP/interp" "$TMP/jit" >"$TMP/diff"; then
    fail "$name: the engines differ:
$(head -c 3000 "$TMP/diff")"
  fi
  n=$((n + 1))
}

# the corpus
C="$WS_SRC/tests/corpus"
for spec in "$C"/launch/*.json; do
  b=$(basename "$spec" .json)
  same "corpus $b" "$C/launch" "$C/ptx/sm_80/${b%%.*}.ptx" "$spec"
done
# the front-end kernels and the examples
F="$WS_SRC/tests/emu-front"
for k in affine affine_bytes conv1d warp_sums; do same "emu-front $k" "$F" frontend.sm_80.ptx "$k.json"; done
same "emu-front wavefront" "$F" wavefront.sm_80.ptx wavefront.json
for k in vecadd matmul_tiled; do
  same "example $k" "$WS_SRC/examples/kernels" "$k.sm_80.ptx" "$k.launch.json"
done
# faults: the same report, place and exit status
B="$WS_SRC/tests/emu-bad"
for k in oob_read oob_before oob_write misaligned_v4 misaligned_u64 shared_overflow dynshared_overflow \
  null_pointer write_const write_const_ld local_oob deadlock_exit exit_then_barrier deadlock_two bad_barrier_count trap \
  recursion_overflow brx_out_of_table null_function_pointer; do
  same "emu-bad $k" "$B" faults.ptx "$k.json"
done
same "emu-bad infinite_loop" "$B" faults.ptx infinite_loop.json --max-warp-insts 1000
same "emu-bad assert_fails" "$B" assert.ptx assert_fails.json
# numerics edge cases
for k in 0 1 2 3; do
  WARPSIGHT_JIT_OPT=2 same "numerics$k" "$WS_SRC/tests/jit" numerics.ptx "numerics$k.json"
  [ -s "$TMP/jit/out/numerics${k}_32.bin" ] || fail "numerics$k: no output"
done

# the shared-address analyses: bases rewritten within a segment, patterns, a fault
J="$WS_SRC/tests/jit"
same "shared_reuse" "$J" shared_reuse.ptx shared_reuse.json
# out[tid*16 + 14] (both blocks write the same values): the last lane of tid's half-warp stored its tid
od -An -tu4 -v -w64 "$TMP/jit/out/sa_reuse.out" | awk '{ print $15 }' >"$TMP/sr-got"
awk 'BEGIN { for (t = 0; t < 48; t++) print 16 * int(t / 16) + 15 }' >"$TMP/sr-want"
cmp -s "$TMP/sr-got" "$TMP/sr-want" || fail "shared_reuse: out[tid*16 + 14] is not the half-warp's last tid"
same "shared_fault" "$J" shared_reuse.ptx shared_fault.json
grep -q "out-of-bounds read of 4 bytes at shared address 0x400 in kernel 'sa_fault', block (0,0,0), thread (31,0,0)" \
  "$TMP/jit/stderr" || fail "shared_fault: not thread 31's fault: $(cat "$TMP/jit/stderr")"
# the whole-warp global fast path: contiguous warps and rows, two objects in
# one warp, sites alternating between buffers, widths, faults at a half's end
same "global_fast" "$J" global_fast.ptx global_fast.json
# out[gtid*16 + k] for k = 1, 2, 3, 7 against what the kernel computes (a[i] =
# 100 + 3i, b[i] = 7000 + 7i; half = tid/16, col = tid%16)
od -An -tu4 -v -w64 "$TMP/jit/out/gf.out" | awk '{ print $2, $3, $4, $8 }' >"$TMP/gf-got"
awk 'BEGIN { for (g = 0; g < 96; g++) { t = g % 48; h = int(t / 16); c = t % 16; s = 0
  for (j = 0; j < 4; j++) s += 100 + 3 * (t + 48 * j) + 7000 + 7 * (t + 48 * j)
  print 100 + 3 * (40 * h + c), (h % 2 ? 7000 + 7 * c : 100 + 3 * c), s, 100 + 3 * (47 - t) } }' >"$TMP/gf-want"
cmp -s "$TMP/gf-got" "$TMP/gf-want" || fail "global_fast: out[gtid*16 + 1, 2, 3, 7] are not the loads' values"
for k in gf_fault_ld:read gf_fault_st:write; do
  same "global_fast ${k%%:*}" "$J" global_fast.ptx global_fault.json --kernel "${k%%:*}"
  grep -q "out-of-bounds ${k#*:} of 4 bytes at global address 0x1000000a0 in kernel '${k%%:*}', block (0,0,0), thread (31,0,0)" \
    "$TMP/jit/stderr" || fail "global_fast ${k%%:*}: not thread 31's fault: $(cat "$TMP/jit/stderr")"
done
same "global_fast gf_fault_mis" "$J" global_fast.ptx global_fault.json --kernel gf_fault_mis
grep -q "misaligned read of 4 bytes at global address 0x100000002 .* thread (0,0,0)" "$TMP/jit/stderr" ||
  fail "global_fast gf_fault_mis: not thread 0's fault: $(cat "$TMP/jit/stderr")"

# what falls back: refused by --engine jit, the interpreter's results under auto
FB="$WS_SRC/tests/jit"
for e in jit interp auto; do
  rm -rf "$TMP/fb-$e"
  mkdir -p "$TMP/fb-$e/out"
  (cd "$FB" && "$WS" run fallback.ptx --launch fallback.json --out "$TMP/fb-$e/out" -j 2 --engine $e \
    >"$TMP/fb-$e/stdout" 2>"$TMP/fb-$e/stderr")
  echo $? >"$TMP/fb-$e/rc"
  sed -i 's/, [0-9.]* s (/, T s (/' "$TMP/fb-$e/stdout"
done
[ "$(cat "$TMP/fb-jit/rc")" = 2 ] || fail "fallback: --engine jit ran a kernel with mbarriers (rc $(cat "$TMP/fb-jit/rc"))"
grep -q "^fallback.ptx:25:2: error: .*mbarrier.init.shared.b64.*decoded as MBAR_INIT, which runs in the interpreter only" \
  "$TMP/fb-jit/stderr" || fail "fallback: --engine jit does not name the instruction and its line: $(cat "$TMP/fb-jit/stderr")"
diff -r "$TMP/fb-interp" "$TMP/fb-auto" >"$TMP/diff" || fail "fallback: auto differs from the interpreter:
$(head -c 3000 "$TMP/diff")"
# out[b*128 + t] = 3*((t+1) % 128) + 1, the kernel's comment
od -An -tu4 -v "$TMP/fb-auto/out/mbar_shift.out" | tr -s ' ' '\n' | grep -v '^$' >"$TMP/fb-got"
awk 'BEGIN { for (i = 0; i < 256; i++) print 3 * ((i % 128 + 1) % 128) + 1 }' >"$TMP/fb-want"
cmp -s "$TMP/fb-got" "$TMP/fb-want" || fail "fallback: mbar_shift's output is not 3*((t+1) % 128) + 1"
n=$((n + 1))

# CUDA programs under exec
NVCC=$(command -v nvcc || true)
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
if [ -n "$NVCC" ] && [ -n "${WS_BUILD:-}" ]; then
  P="$WS_SRC/tests/programs"
  mkdir -p "$WS_BUILD/tests/jit"
  # build_prog NAME BIN: tests/programs/NAME.cu built into BIN unless BIN is newer
  build_prog() {
    if [ ! -x "$2" ] || [ "$P/$1.cu" -nt "$2" ] || [ "$P/check.h" -nt "$2" ]; then
      "$NVCC" -cudart shared -arch=sm_80 -O2 -o "$2.tmp" "$P/$1.cu" || { fail "nvcc $1.cu"; return 1; }
      mv "$2.tmp" "$2"
    fi
  }
  for name in stencil reduce histogram conv spmv streams scan printf fault functor spin pitch2d graph mallocasync \
    mapped reuse; do
    # managed memory cannot be mapped under ASan (run.sh, docs/exec.md "Memory")
    [ "${WS_SANITIZE:-0}" = 1 ] && case $name in scan | printf) continue ;; esac
    bin="$WS_BUILD/tests/jit/$name"
    build_prog "$name" "$bin" || continue
    extra=()
    [ "$name" = spin ] && extra=(--max-warp-insts 20000) # its runaway kernel stops sooner
    for e in interp jit; do
      rm -rf "$TMP/$e"
      mkdir -p "$TMP/$e"
      bash "$P/wsexec.sh" --sample-blocks 1 --engine "$e" "${extra[@]}" -- "$bin" >"$TMP/$e/stdout" 2>"$TMP/$e/stderr"
      echo $? >"$TMP/$e/rc"
    done
    grep -q "^PASS" "$TMP/jit/stdout" || fail "program $name: no PASS under the translated engine: $(cat "$TMP/jit/stdout")"
    diff -r "$TMP/interp" "$TMP/jit" >"$TMP/diff" || fail "program $name: the engines differ:
$(head -c 3000 "$TMP/diff")"
    n=$((n + 1))
  done
  # the programs with instructions the translator leaves to the interpreter
  # (texture, cpasync, wmma, mma) and a cooperative launch (coop)
  for name in texture cpasync wmma mma coop; do
    bin="$WS_BUILD/tests/jit/$name"
    build_prog "$name" "$bin" || continue
    for e in jit interp auto; do
      rm -rf "$TMP/$e"
      mkdir -p "$TMP/$e"
      bash "$P/wsexec.sh" --sample-blocks 1 --engine "$e" -- "$bin" >"$TMP/$e/stdout" 2>"$TMP/$e/stderr"
      echo $? >"$TMP/$e/rc"
    done
    [ "$(cat "$TMP/jit/rc")" != 0 ] || fail "program $name: --engine jit did not refuse it"
    grep -Eq "\.ptx:[0-9]+:[0-9]+: error: the translated engine does not handle .*\(decoded as [A-Z_]+, which runs in the interpreter only\)|kernel .*: a cooperative launch runs in the interpreter only" \
      "$TMP/jit/stderr" || fail "program $name: --engine jit does not say why: $(head -c 2000 "$TMP/jit/stderr")"
    rm -rf "$TMP/jit"
    grep -q "^PASS" "$TMP/auto/stdout" || fail "program $name: no PASS under auto: $(cat "$TMP/auto/stdout")"
    diff -r "$TMP/interp" "$TMP/auto" >"$TMP/diff" || fail "program $name: auto differs from the interpreter:
$(head -c 3000 "$TMP/diff")"
    n=$((n + 1))
  done
else
  echo "note: nvcc not found: the CUDA programs are not compared"
fi
echo "$n cases identical in both engines"
finish
