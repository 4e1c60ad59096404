#!/bin/bash
# resources_two_kernels.sh — one rule for a kernel's static shared bytes
# (ws_prof_kernel_resources): a kernel pays for the .shared variables it or
# its callees reference, not for every .shared of the module.  In
# tests/analysis/two_kernels.ptx ka uses sa[256] and kb uses sb[1024];
# unused[4096] is named by neither.  `analyze` and `profile` (with ptxas
# hidden, so the profile takes the PTX rule) must both give ptxas' figures,
# written here from `ptxas -v -arch=sm_80 two_kernels.ptx` (CUDA 13.0):
#   ka: Used 8 registers, used 1 barriers, 256 bytes smem
#   kb: Used 8 registers, used 1 barriers, 1024 bytes smem
# (the module-wide sum would be 5376).  When ptxas is installed, its live
# report is checked against the same figures.
source "$WS_SRC/tests/cli/lib.sh"
PTX="$WS_SRC/tests/analysis/two_kernels.ptx"
declare -A PTXAS_SMEM=([ka]=256 [kb]=1024)

run "$WS" analyze "$PTX" --json
expect_rc 0 "analyze --json"
for k in ka kb; do
  got=$(python3 -c 'import json,sys; d=json.load(sys.stdin)
print([f["shared_bytes"] for f in d["kernels"] if f["name"] == sys.argv[1]][0])' "$k" <<<"$OUT")
  [ "$got" = "${PTXAS_SMEM[$k]}" ] || fail "analyze $k: shared_bytes $got, ptxas says ${PTXAS_SMEM[$k]}"
done
run "$WS" analyze "$PTX" --kernel kb
expect_out "static shared bytes: 1024" "analyze --kernel kb"

# profile: ptxas out of reach (PATH without it, CUDA_HOME elsewhere), so the
# resources come from the PTX rule; its text says so.
mkdir -p "$TMP/nocuda"
for k in ka kb; do
  cat >"$TMP/$k.json" <<JSON
{"kernel": "$k", "grid": [2, 1, 1], "block": [64, 1, 1],
 "args": [{"buffer": "out", "type": "u32", "count": 128, "init": "zero"}]}
JSON
  PATH=/usr/bin:/bin CUDA_HOME="$TMP/nocuda" run "$WS" profile "$PTX" --launch "$TMP/$k.json" -o "$TMP/$k.prof.json"
  expect_rc 0 "profile $k"
  got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print("%g|%s" % (d["resources"]["shared_bytes_per_block"], d["profiler"]["resources_source"]))' "$TMP/$k.prof.json")
  [ "${got%%|*}" = "${PTXAS_SMEM[$k]}" ] ||
    fail "profile $k: shared_bytes_per_block ${got%%|*}, ptxas says ${PTXAS_SMEM[$k]}"
  grep -qF "static .shared bytes the kernel references" <<<"${got#*|}" ||
    fail "profile $k: resources not from the PTX rule: ${got#*|}"
done

# The live compiler, when present, still reports what is written above.
PTXAS=""
for c in "$(command -v ptxas 2>/dev/null)" "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas"; do
  [ -n "$c" ] && [ -x "$c" ] && { PTXAS=$c; break; }
done
if [ -n "$PTXAS" ]; then
  "$PTXAS" -v -arch=sm_80 "$PTX" -o "$TMP/two.cubin" >"$TMP/ptxas.log" 2>&1 || fail "ptxas failed: $(cat "$TMP/ptxas.log")"
  for k in ka kb; do
    got=$(awk -v k="$k" '/Compiling entry function/ { cur = ($0 ~ "\x27" k "\x27") }
      cur && /bytes smem/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == "smem,") print $i }' "$TMP/ptxas.log")
    [ "$got" = "${PTXAS_SMEM[$k]}" ] || fail "ptxas $k: $got bytes smem, the test says ${PTXAS_SMEM[$k]}"
  done
fi
finish
