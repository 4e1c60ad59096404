#!/usr/bin/env bash
# bench/gpu/run.sh — measure where a GPU is (docs/measuring.md): build the
# harness with nvcc for the GPU's own architecture, run the micro-benchmarks
# and every bundled validation kernel over sizes and block shapes, cold and
# warm, and write warpsight measured data into OUTDIR:
#   measured.csv           generic-format rows (docs/validation.md), one per launch and L2 condition
#   kernels/*.sm_XX.ptx    the PTX the timed binaries were built from
#   launches/SRC/*.json    each row's launch spec
#   device.json, .txt      the device report: properties, versions, date, micro-benchmarks
#   gpu/NAME.json          a warpsight GPU file built from the device's properties and measurements
#   logs/                  this run's output, the build's, nvidia-smi's
# Needs nvcc and bash; no network, no python.  Exit status: 0 when every
# check passed, 1 when a kernel's results differed from its C reference,
# 2 on bad usage or a failed build, 3 when the device failed.
set -uo pipefail

usage() {
  cat <<'EOF'
usage: bench/gpu/run.sh [OUTDIR] [--quick | --tiny] [options]
  OUTDIR              where the data set goes (default gpu-bench-DATE)
  --quick             fewer sizes and shapes, 5 repetitions (about 1 minute on an H100)
  --tiny              a few small launches, 2 repetitions: a functional check
  --arch sm_XX        build for this architecture (default: the device's, from a query)
  --gpu NAME          the CSV's gpu column (default: the database board that matches the
                      device, else the generated gpu/NAME.json)
  --suites LIST       comma-separated among ubench,validation,pairs (default all)
  --only K,K          only these kernels of the suites
  --reps N            timed launches per condition (default 10; --quick 5; --tiny 2)
  --flush-bytes N     bytes written before a cold launch (default twice the L2)
  --budget SECONDS    start no kernel launch after this many seconds from the start (the
                      rows measured so far are kept; default: no limit)
  --archive FILE      at the end, pack OUTDIR into FILE (a .tar.gz), e.g. where a remote
                      machine returns only a few files
  --nvcc PATH         the compiler (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc)
  --build DIR         keep the build here and reuse it (default: a temporary folder)
  --cudart shared     link the CUDA runtime dynamically (needed under warpsight exec)
  --launcher "CMD"    run each program as CMD PROGRAM ARGS (e.g. "build/warpsight exec --")
  --werror            compile with -Werror (the test suite does)
  --save-outputs      also write each launch's output buffers under OUTDIR/outputs (the test
                      suite compares them with `warpsight run` of the launch specs)
  -j N                parallel compilations (default: the CPU count)
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
out="" level=full arch="" gpu="" suites="ubench,validation,pairs" only="" reps="" flush="" budget=0
archive=""
nvcc="" build="" cudart="" launcher="" werror=0 save=0 jobs=$(nproc 2>/dev/null || echo 4)
while [ $# -gt 0 ]; do
  case $1 in
  -h | --help) usage; exit 0 ;;
  --quick) level=quick ;;
  --tiny) level=tiny ;;
  --arch) arch=${2:?--arch needs a value}; shift ;;
  --gpu) gpu=${2:?--gpu needs a value}; shift ;;
  --suites) suites=${2:?--suites needs a value}; shift ;;
  --only) only=${2:?--only needs a value}; shift ;;
  --reps) reps=${2:?--reps needs a value}; shift ;;
  --flush-bytes) flush=${2:?--flush-bytes needs a value}; shift ;;
  --budget) budget=${2:?--budget needs a value}; shift ;;
  --archive) archive=${2:?--archive needs a value}; shift ;;
  --nvcc) nvcc=${2:?--nvcc needs a value}; shift ;;
  --build) build=${2:?--build needs a value}; shift ;;
  --cudart) cudart=${2:?--cudart needs a value}; shift ;;
  --launcher) launcher=${2:?--launcher needs a value}; shift ;;
  --werror) werror=1 ;;
  --save-outputs) save=1 ;;
  -j) jobs=${2:?-j needs a value}; shift ;;
  -*) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  *) [ -z "$out" ] || { echo "run.sh: one OUTDIR only ($out, $1)" >&2; exit 2; }; out=$1 ;;
  esac
  shift
done
for s in ${suites//,/ }; do
  case $s in ubench | validation | pairs) ;; *) echo "run.sh: unknown suite '$s'" >&2; exit 2 ;; esac
done
[[ $arch =~ ^(sm_[0-9]+[a-z]?)?$ ]] || { echo "run.sh: --arch expects sm_XX, got '$arch'" >&2; exit 2; }
[[ $budget =~ ^[0-9]+$ ]] || { echo "run.sh: --budget expects whole seconds, got '$budget'" >&2; exit 2; }

date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
[ -n "$out" ] || out="gpu-bench-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" "$out/kernels" || exit 2
out=$(cd "$out" && pwd)
if [ -e "$out/measured.csv" ] || [ -e "$out/parts" ]; then
  echo "run.sh: $out already holds a measurement; give an empty OUTDIR" >&2
  exit 2
fi
t_start=$SECONDS
say() { printf '[gpu-bench %4ds] %s\n' $((SECONDS - t_start)) "$*"; }

# Everything below runs in main, whose output also goes to logs/run.log.
main() {

# ---- the compiler ----
if [ -z "$nvcc" ]; then
  nvcc=$(command -v nvcc || true)
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then say "error: nvcc not found (give --nvcc PATH)"; exit 2; fi
nvcc_version=$("$nvcc" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')
say "nvcc $nvcc_version ($nvcc); output $out; level $level"
if [ -z "$build" ]; then
  build=$(mktemp -d "${TMPDIR:-/tmp}/gpu-bench-build.XXXXXX")
  trap 'rm -rf "$build"' EXIT
fi
mkdir -p "$build" && build=$(cd "$build" && pwd)
run_prog() { # PROGRAM ARGS...: under the launcher, if any
  # shellcheck disable=SC2086
  $launcher "$@"
}
common=(-O3 -std=c++17 -I"$src/src" -Xcompiler "-Wall,-Wextra")
[ "$werror" = 1 ] && common+=(-Werror all-warnings -Xcompiler -Werror)
[ -n "$cudart" ] && common+=(-cudart "$cudart")

# ---- the device: name, compute capability, SMs, memory ----
"$nvcc" "${common[@]}" -o "$build/query" "$here/query.cu" >"$out/logs/build.log" 2>&1 ||
  { cat "$out/logs/build.log"; say "error: building query.cu failed"; exit 2; }
declare -A dev=()
if q=$(run_prog "$build/query" 2>"$build/query.err"); then
  while IFS='=' read -r k v; do
    [[ $k =~ ^[a-z0-9_]+$ ]] && dev[$k]=$v
  done <<<"$q"
else
  say "warning: the device query failed: $(cat "$build/query.err")"
fi
cc=${dev[cc]:-}
if [ -z "$cc" ] && command -v nvidia-smi >/dev/null 2>&1; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | tr -d ' ' || true)
fi
say "device: ${dev[name]:-unknown}, compute capability ${cc:-unknown}, ${dev[sms]:-?} SMs, L2 ${dev[l2_bytes]:-?} B"

# The architecture: --arch, else the device's when nvcc has it, else the
# newest nvcc has below it (the driver compiles that PTX for the device);
# with no compute capability at all, every architecture nvcc has from
# sm_70 (the runtime picks; the PTX files then follow device.json).
known=$("$nvcc" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([0-9]*\)$/\1/p' | sort -n)
gencode=()
if [ -n "$arch" ]; then
  gencode=(-arch="$arch")
elif [ -n "$cc" ]; then
  want=${cc/./}
  best=""
  for a in $known; do [ "$a" -le "$want" ] && best=$a; done
  [ -n "$best" ] || { say "error: nvcc $nvcc_version has no architecture at or below compute capability $cc"; exit 2; }
  [ "$best" = "$want" ] || say "note: nvcc has no sm_$want; building for sm_$best (the driver compiles its PTX for the device)"
  arch=sm_$best
  gencode=(-arch="$arch")
else
  say "warning: no compute capability found: building for every architecture nvcc has from sm_70"
  for a in $known; do
    [ "$a" -ge 70 ] && gencode+=(-gencode "arch=compute_$a,code=[sm_$a,compute_$a]")
  done
fi
say "building for ${arch:-every architecture} with -j $jobs"

# ---- build ----
# Each kernel source is its own object, built from the file itself; -keep
# leaves the PTX that the object embeds (kernels/ gets that very file).
declare -A ksrc=()
for f in "$src"/examples/validation/*.cu "$src"/examples/kernels/*.cu "$src"/tests/model-pairs/pairs.cu; do
  ksrc[$(basename "$f" .cu)]=$f
done
flags_now="${common[*]} ${gencode[*]}"
[ "$(cat "$build/flags" 2>/dev/null)" = "$flags_now" ] || rm -rf "${build:?}/obj" "${build:?}/keep" "${build:?}/bin"
mkdir -p "$build/obj" "$build/keep" "$build/bin"
echo "$flags_now" >"$build/flags"
deps=("$here/harness.h" "$src/src/emu/rng.h")
stale() { # OBJ SRC...: true when OBJ is missing or older than a source or a header
  local o=$1 f
  shift
  [ -e "$o" ] || return 0
  for f in "$@" "${deps[@]}"; do [ "$f" -nt "$o" ] && return 0; done
  return 1
}
compile() { # NAME SOURCE [keep]
  local o="$build/obj/$1.o" extra=()
  stale "$o" "$2" || return 0
  if [ "${3:-}" = keep ]; then
    rm -rf "$build/keep/$1" && mkdir -p "$build/keep/$1"
    extra=(-keep -keep-dir "$build/keep/$1")
  fi
  "$nvcc" "${common[@]}" "${gencode[@]}" "${extra[@]}" -c "$2" -o "$o.tmp" >"$build/obj/$1.log" 2>&1 &&
    mv "$o.tmp" "$o"
}
pids=() names=()
queue() { # NAME SOURCE [keep]
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  compile "$@" &
  pids+=($!) names+=("$1")
}
for k in "${!ksrc[@]}"; do queue "k_$k" "${ksrc[$k]}" keep; done
queue harness "$here/harness.cu"
queue ubench "$here/ubench.cu"
queue suite_validation "$here/suite_validation.cu"
queue suite_pairs "$here/suite_pairs.cu"
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { failed=1; cat "$build/obj/${names[$i]}.log"; say "error: compiling ${names[$i]} failed"; }
done
cat "$build"/obj/*.log >>"$out/logs/build.log" 2>/dev/null
[ "$failed" = 0 ] || exit 2
link() { # BIN OBJ...
  "$nvcc" "${common[@]}" "${gencode[@]}" -o "$build/bin/$1" "${@:2}" >>"$out/logs/build.log" 2>&1 ||
    { tail -20 "$out/logs/build.log"; say "error: linking $1 failed"; exit 2; }
}
o=$build/obj
link ubench "$o/ubench.o" "$o/harness.o"
vobjs=()
for k in "${!ksrc[@]}"; do [ "$k" = pairs ] || vobjs+=("$o/k_$k.o"); done
link validation "$o/suite_validation.o" "$o/harness.o" "${vobjs[@]}"
link pairs "$o/suite_pairs.o" "$o/harness.o" "$o/k_pairs.o"
say "built"

# ---- versions, the database board, the GPU file's name ----
driver=""
if command -v nvidia-smi >/dev/null 2>&1; then
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader -i 0 2>/dev/null | head -1)
  { nvidia-smi -q -i 0; echo "== clocks before"; nvidia-smi -i 0 --format=csv \
      --query-gpu=clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,power.limit,pstate; } \
    >"$out/logs/nvidia-smi.txt" 2>&1
fi
[ -n "$driver" ] || driver="unknown (no nvidia-smi; see device.json versions.driver_api)"
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$src" status --porcelain 2>/dev/null)" ] && commit="$commit (modified)"
name=${dev[name]:-unknown}
slug=measured-$(tr '[:upper:]' '[:lower:]' <<<"$name" | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')

# The database board that is this device: the same compute capability and
# SM count, the board's model token (the first word of its full name with a
# digit: h100, 3060, a4000) among the device name's words, and, where the
# full name gives a memory size (80GB), the device's memory within 10 % of
# it.  Several left: the one sharing most words with the device name; a tie
# or none: no match.
db_match() {
  local f flat n full c s
  local words
  words=" $(tr '[:upper:]' '[:lower:]' <<<"$name" | sed 's/[^a-z0-9]\{1,\}/ /g') "
  for f in "$src"/data/gpus/*.json; do
    flat=$(tr -d '\n' <"$f")
    n=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' <<<"$flat")
    full=$(sed -n 's/.*"full_name": *"\([^"]*\)".*/\1/p' <<<"$flat")
    c=$(grep -o '"compute_capability": *{[^}]*}' <<<"$flat" | sed -n 's/.*"value": *"\([0-9.]*\)".*/\1/p')
    s=$(grep -o '"sms": *{[^}]*}' <<<"$flat" | sed -n 's/.*"value": *\([0-9]*\).*/\1/p')
    if [ "$c" != "$cc" ] || [ "$s" != "${dev[sms]:-}" ]; then continue; fi
    awk -v full="$full" -v words="$words" -v mem="${dev[memory_bytes]:-0}" -v n="$n" 'BEGIN {
      f = tolower(full); gsub(/[^a-z0-9()]+/, " ", f)
      main = f; sub(/\(.*/, "", main)
      k = split(main, t, " "); model = ""
      for (i = 1; i <= k; i++) if (t[i] != "nvidia" && t[i] ~ /[0-9]/) { model = t[i]; break }
      if (model == "" || index(words, " " model " ") == 0) exit
      gsub(/[()]/, " ", f); k = split(f, t, " "); score = 0
      for (i = 1; i <= k; i++) {
        if (t[i] ~ /^[0-9]+gb$/) { g = t[i] + 0; gib = mem / 1073741824
          if (gib < 0.9 * g || gib > 1.1 * g) exit }
        if (index(words, " " t[i] " ")) score++
      }
      print score, n }'
  done | sort -rn | awk 'NR == 1 { s = $1; n = $2 } NR == 2 && $1 == s { n = "" } END { print n }'
}
if [ -z "$gpu" ]; then
  gpu=$(db_match)
  if [ -n "$gpu" ]; then say "the database board: $gpu (data/gpus/$gpu.json)"
  else gpu="gpu/$slug.json"; say "no database board matches '$name': the rows use the generated $gpu"; fi
fi

# The GPU file's architecture name and FP32 lanes per SM (src/gpu/cc_arch.def).
case $cc in
7.0 | 7.2) arch_name=Volta ;; 7.5) arch_name=Turing ;; 8.0 | 8.6 | 8.7 | 8.8) arch_name=Ampere ;;
8.9) arch_name=Ada ;; 9.*) arch_name=Hopper ;; 10.* | 11.* | 12.*) arch_name=Blackwell ;;
*) arch_name=unknown ;;
esac
arch_name="$arch_name (compute capability ${cc:-unknown}, from the device)"
cores=$(sed -n "s/^CCA(${cc%%.*}, *${cc#*.}, *\([0-9]*\),.*/\1/p" "$src/src/gpu/cc_arch.def" | head -1)
[ -n "$cores" ] || { say "warning: compute capability $cc is not in src/gpu/cc_arch.def: warpsight cannot load the generated GPU file"; cores=128; }

# ---- run ----
lv=(--level "$level")
opt=()
[ -n "$flush" ] && opt+=(--flush-bytes "$flush")
status=0
note() { # NAME STATUS
  case $2 in
  0) ;; 1) say "$1: some results differed from the C reference (FAIL lines above)"; [ "$status" -ge 1 ] || status=1 ;;
  *) say "$1: failed with status $2"; status=3 ;;
  esac
}
if [[ ,$suites, == *,ubench,* ]]; then
  say "micro-benchmarks"
  run_prog "$build/bin/ubench" --out "$out" "${lv[@]}" "${opt[@]}" --gpu-file "$slug" \
    --arch-name "$arch_name" --cores-per-sm "$cores" --date "$date" --driver-release "$driver" \
    --nvcc "$nvcc_version" --commit "$commit"
  note ubench $?
fi
if [ -z "$arch" ]; then # built for every architecture: the PTX of the device's
  cc=$(sed -n 's/.*"compute_capability":"\([0-9.]*\)".*/\1/p' "$out/device.json" 2>/dev/null)
  want=${cc/./} arch=""
  for a in $known; do [ -n "$want" ] && [ "$a" -le "$want" ] && arch=sm_$a; done
  [ -n "$arch" ] || { say "error: the device's compute capability is unknown"; exit 3; }
fi
for k in "${!ksrc[@]}"; do
  p=$build/keep/k_$k/$k.compute_${arch#sm_}.ptx
  [ -e "$p" ] || p=$build/keep/k_$k/$k.ptx
  cp "$p" "$out/kernels/$k.$arch.ptx" || { say "error: no PTX for $k"; exit 2; }
done
sopt=(--out "$out" --arch "$arch" --gpu "$gpu" --driver "${driver//,/;}" --date "$date" "${lv[@]}" "${opt[@]}")
[ -n "$reps" ] && sopt+=(--reps "$reps")
[ -n "$only" ] && sopt+=(--only "$only")
[ "$save" = 1 ] && sopt+=(--save-outputs)
for s in validation pairs; do
  [[ ,$suites, == *,$s,* ]] || continue
  left=()
  if [ "$budget" -gt 0 ]; then
    t=$((budget - (SECONDS - t_start)))
    [ "$t" -gt 0 ] || { say "kernels: $s not run: the time budget of $budget s is spent"; continue; }
    left=(--stop-after "$t")
  fi
  say "kernels: $s"
  run_prog "$build/bin/$s" "${sopt[@]}" "${left[@]}"
  rc=$?
  note "$s" $rc
  [ "$rc" -lt 2 ] || break # the device failed
done
if command -v nvidia-smi >/dev/null 2>&1; then
  { echo "== clocks after"; nvidia-smi -i 0 --format=csv \
      --query-gpu=clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,power.limit,pstate; } \
    >>"$out/logs/nvidia-smi.txt" 2>&1
fi

# ---- the data set ----
parts=("$out"/parts/*.csv)
if [ -e "${parts[0]}" ]; then
  head -1 "${parts[0]}" >"$out/measured.csv"
  for p in "${parts[@]}"; do tail -n +2 "$p" >>"$out/measured.csv"; done
  rm -rf "$out/parts"
  rows=$(($(wc -l <"$out/measured.csv") - 1))
else
  rows=0
fi
# kernels/ keeps the PTX of the kernels that have rows
for f in "$out"/kernels/*.ptx; do
  grep -q "^kernels/$(basename "$f")," "$out/measured.csv" 2>/dev/null || rm -f "$f"
done
say "done: $rows rows in $out/measured.csv (gpu $gpu), device report $out/device.txt; status $status"
say "check it with: build/warpsight validate $out/measured.csv --models warpsight,roofline"
exit $status
}

main 2>&1 | tee -a "$out/logs/run.log"
status=${PIPESTATUS[0]}
if [ -n "$archive" ]; then
  if tar czf "$archive" -C "$(dirname "$out")" "$(basename "$out")"; then
    echo "[gpu-bench] packed $out into $archive"
  else
    echo "run.sh: cannot write $archive" >&2
    status=2
  fi
fi
exit "$status"
