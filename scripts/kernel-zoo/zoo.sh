#!/usr/bin/env bash
# Kernel zoo driver (issue 20): compiles every zoo kernel to PTX with nvcc and runs
# `warpsight predict --gpu all --model all --json` on each launch spec, plus a few
# compile-flag / architecture variants.  Usage:
#   scripts/kernel-zoo/zoo.sh BUILD_DIR WORK_DIR [NAME_FILTER]
# Needs nvcc (NVCC=..., else the first on PATH, else $CUDA_HOME/bin/nvcc) and python3.
# Prints one line per run: spec, variant, exit status, seconds, the warpsight model's
# A100 time, and a flag for any nan/inf/0/refused model result; logs go to WORK_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?BUILD_DIR}" && pwd)
work=${2:?WORK_DIR}
filter=${3:-}
# ZOO_ARGS: extra predict options, e.g. "--sample-blocks 8" for a quick pass
zoo_args=${ZOO_ARGS:-}
# ZOO_GPUS: the --gpu list (default all; the launch is profiled once per GPU, so a
# short list is ~10x faster)
zoo_gpus=${ZOO_GPUS:-all}
mkdir -p "$work/ptx" "$work/out"
work=$(cd "$work" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
ws="$build/warpsight"
cp "$here"/*.launch.json "$work/"
python3 "$here/gen_inputs.py" "$work"

# variant name -> "arch|flags"; every source gets "o3" (sm_80, -O3)
declare -A extra=(
  [poly_2mm]="fastmath" [rod_srad]="fastmath86" [shoc_md]="lineinfo90"
  [rod_hotspot]="debug" [shoc_reduction]="debug75" [mod_cg_reduce]="debug"
  [rod_kmeans]="sm75" [mod_wmma]="sm75 sm90" [mod_pipeline]="sm90 sm86" [mod_half_bf16]="sm90 debug"
  [mod_atomics]="sm90" [mod_redux_match]="sm90 sm86" [shoc_stencil2d]="sm86" [rod_nw]="sm75"
  [poly_conv3d]="hostO0" [mod_template_ldg]="lineinfo90 fastmath")
flags_of() {
  case $1 in
    o3) echo "sm_80 -O3" ;; fastmath) echo "sm_80 -O3 --use_fast_math" ;;
    fastmath86) echo "sm_86 -O3 --use_fast_math" ;; lineinfo90) echo "sm_90 -O3 -lineinfo" ;;
    debug) echo "sm_80 -G" ;; debug75) echo "sm_75 -G" ;; sm75) echo "sm_75 -O3" ;;
    sm86) echo "sm_86 -O3" ;; sm90) echo "sm_90 -O3" ;; hostO0) echo "sm_80 -O0 -Xcompiler -O0" ;;
  esac
}
cd "$work" || exit 2
for spec in *.launch.json; do
  name=${spec%.launch.json}; src=${name%%.*}
  [ -n "$filter" ] && [[ $name != *$filter* ]] && continue
  for v in o3 ${extra[$src]:-}; do
    set -- $(flags_of "$v"); arch=$1; shift
    ptx="ptx/$src.$v.ptx"
    if [ ! -f "$ptx" ]; then
      if ! "$nvcc" -ptx -arch="$arch" "$@" -o "$ptx" "$here/$src.cu" 2> "ptx/$src.$v.nvcc.log"; then
        echo "$name $v NVCC-FAILED"; continue
      fi
    fi
    log="out/$name.$v"
    t0=$(date +%s.%N)
    "$ws" predict "$ptx" --launch "$spec" --gpu "$zoo_gpus" --model all --json $zoo_args > "$log.json" 2> "$log.err"
    rc=$?
    t1=$(date +%s.%N)
    python3 "$here/summarize.py" "$name" "$v" "$rc" "$(echo "$t1 - $t0" | bc)" "$log.json" "$log.err"
  done
done
