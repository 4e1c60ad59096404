# validate_cu.sh — the generic format with a .cu kernel file: validate
# compiles it with nvcc -ptx for the arch predict chooses for the row's GPU
# (its compute capability's sm, clamped to nvcc's range: sm_75 for a CC 3.0
# board with CUDA 13) and predicts the same times as from nvcc's PTX of the
# same source for that arch.  Roofline, hand computation as in
# validate_generic.sh: vecadd N = 100,000 on gtx680 is 1.2e6 B / 192.256e9
# B/s = 6.241678e-6 s, so a measured 8.0e-6 s is -21.979 %.
source "$WS_SRC/tests/cli/lib.sh"
need_nvcc "this test's PTX"
E="$WS_SRC/examples/kernels"
mkdir -p "$TMP/set"
cp "$E/vecadd.cu" "$E/vecadd.launch.json" "$TMP/set/"
"$NVCC" -ptx -arch=sm_75 -o "$TMP/set/vecadd.sm_75.ptx" "$TMP/set/vecadd.cu" || fail "nvcc sm_75"
printf 'kernel_file,launch,gpu,seconds\nvecadd.cu,vecadd.launch.json,gtx680,8.0e-06\n' > "$TMP/set/cu.csv"
printf 'kernel_file,launch,gpu,seconds\nvecadd.sm_75.ptx,vecadd.launch.json,gtx680,8.0e-06\n' > "$TMP/set/ptx.csv"
run "$WS" validate "$TMP/set/cu.csv" --models roofline,hong-kim --sample-blocks 0 --no-cache --report "$TMP/rcu"
expect_rc 0 ".cu validate"
expect_out "1 rows, 0 failed" ".cu validate"
expect_err "the kernel is compiled for sm_75 for gtx680 (sm_30)" ".cu validate's note on the clamped arch"
run "$WS" validate "$TMP/set/ptx.csv" --models roofline,hong-kim --sample-blocks 0 --no-cache --report "$TMP/rptx"
expect_rc 0 ".ptx validate"
cmp -s "$TMP/rcu/rows.csv" "$TMP/rptx/rows.csv" || fail ".cu and .ptx rows differ: $(cat "$TMP/rcu/rows.csv" "$TMP/rptx/rows.csv")"
awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) if (h[i] == "error_pct_roofline") e = $i }
  NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i }
  END { d = e + 21.979; exit !(e != "" && d < 0.002 && d > -0.002) }' "$TMP/rcu/rows.csv" ||
  fail ".cu roofline error: $(cat "$TMP/rcu/rows.csv")"
# Each row's .cu is compiled for its own GPU's arch: a kernel that does 64
# more multiply-adds per thread when compiled for sm_80 and later.  On the
# RTX 2060 (CC 7.5) validate must predict what the sm_75 PTX gives, on the
# RTX 3060 (CC 8.6) what the sm_86 PTX gives; a single sm_80 compile for
# both (as before) gives the RTX 2060 row the loop, and its Hong-Kim time
# differs from the sm_75 PTX's.
cat > "$TMP/set/archdep.cu" <<'CU'
extern "C" __global__ void archdep(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
#if __CUDA_ARCH__ >= 800
#pragma unroll 1
  for (int k = 0; k < 64; k++) x = x * 1.0001f + 0.5f;
#endif
  a[i] = x;
}
CU
cat > "$TMP/set/archdep.json" <<'JSON'
{"kernel": "archdep", "grid": [64, 1, 1], "block": [256, 1, 1],
 "args": [{"buffer": "a", "type": "f32", "count": 16384, "init": "zero"},
          {"scalar": "n", "type": "s32", "value": 16384}]}
JSON
"$NVCC" -ptx -arch=sm_86 -o "$TMP/set/archdep.sm_86.ptx" "$TMP/set/archdep.cu" || fail "nvcc sm_86"
"$NVCC" -ptx -arch=sm_75 -o "$TMP/set/archdep.sm_75.ptx" "$TMP/set/archdep.cu" || fail "nvcc sm_75"
printf 'kernel_file,launch,gpu,seconds\narchdep.cu,archdep.json,rtx2060,1e-05\narchdep.cu,archdep.json,rtx3060,1e-05\n' > "$TMP/set/acu.csv"
printf 'kernel_file,launch,gpu,seconds\narchdep.sm_75.ptx,archdep.json,rtx2060,1e-05\narchdep.sm_86.ptx,archdep.json,rtx3060,1e-05\n' > "$TMP/set/aptx.csv"
run "$WS" validate "$TMP/set/acu.csv" --models hong-kim --sample-blocks 0 --no-cache --report "$TMP/racu"
expect_rc 0 "arch-dependent .cu validate"
expect_out "2 rows, 0 failed" "arch-dependent .cu validate"
run "$WS" validate "$TMP/set/aptx.csv" --models hong-kim --sample-blocks 0 --no-cache --report "$TMP/raptx"
expect_rc 0 "arch-dependent PTX validate"
cmp -s "$TMP/racu/rows.csv" "$TMP/raptx/rows.csv" ||
  fail "each row's .cu is not compiled for its GPU: $(cat "$TMP/racu/rows.csv" "$TMP/raptx/rows.csv")"
# and the two archs' PTX really differ in time (else the check above is empty)
t=$(csv_col "$TMP/raptx/rows.csv" predicted_s_hong-kim | tr '\n' ' ')
read -r t75 t86 <<<"$t"
awk -v a="$t75" -v b="$t86" 'BEGIN { exit !(b > 1.5 * a) }' ||
  fail "the sm_86 build should be slower (64 more steps a thread): $t"
# A .cu file that does not compile: nvcc's message and one error, exit 2.
printf '__global__ void vecadd( { }\n' > "$TMP/set/bad.cu"
printf 'kernel_file,kernel,launch,gpu,seconds\nbad.cu,vecadd,vecadd.launch.json,gtx680,1e-5\n' > "$TMP/set/bad.csv"
mkdir -p "$TMP/tmpdir"
TMPDIR="$TMP/tmpdir" run "$WS" validate "$TMP/set/bad.csv" --no-cache
expect_rc 2 "bad .cu"
if [ -n "$(ls -A "$TMP/tmpdir")" ]; then fail "a failed compile left $(ls "$TMP/tmpdir") in TMPDIR"; fi
expect_err "bad.cu: could not compile to PTX" "bad .cu"
expect_no_crash "bad .cu"
finish
