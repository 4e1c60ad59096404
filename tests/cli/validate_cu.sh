# validate_cu.sh — the generic format with a .cu kernel file: validate
# compiles it with nvcc -ptx -arch=sm_80 (as predict does) and predicts the
# same times as from the pregenerated PTX of the same source
# (examples/kernels/vecadd.sm_80.ptx).  Roofline, hand computation as in
# validate_generic.sh: vecadd N = 100,000 on gtx680 is 1.2e6 B / 192.256e9 B/s
# = 6.241678e-6 s, so a measured 8.0e-6 s is -21.979 %.
source "$WS_SRC/tests/cli/lib.sh"
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "skipped: nvcc not found"; exit 77
fi
E="$WS_SRC/examples/kernels"
mkdir -p "$TMP/set"
cp "$E/vecadd.cu" "$E/vecadd.sm_80.ptx" "$E/vecadd.launch.json" "$TMP/set/"
printf 'kernel_file,launch,gpu,seconds\nvecadd.cu,vecadd.launch.json,gtx680,8.0e-06\n' > "$TMP/set/cu.csv"
printf 'kernel_file,launch,gpu,seconds\nvecadd.sm_80.ptx,vecadd.launch.json,gtx680,8.0e-06\n' > "$TMP/set/ptx.csv"
run "$WS" validate "$TMP/set/cu.csv" --models roofline,hong-kim --sample-blocks 0 --no-cache --report "$TMP/rcu"
expect_rc 0 ".cu validate"
expect_out "1 rows, 0 failed" ".cu validate"
run "$WS" validate "$TMP/set/ptx.csv" --models roofline,hong-kim --sample-blocks 0 --no-cache --report "$TMP/rptx"
expect_rc 0 ".ptx validate"
cmp -s "$TMP/rcu/rows.csv" "$TMP/rptx/rows.csv" || fail ".cu and .ptx rows differ: $(cat "$TMP/rcu/rows.csv" "$TMP/rptx/rows.csv")"
awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) if (h[i] == "error_pct_roofline") e = $i }
  NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i }
  END { d = e + 21.979; exit !(e != "" && d < 0.002 && d > -0.002) }' "$TMP/rcu/rows.csv" ||
  fail ".cu roofline error: $(cat "$TMP/rcu/rows.csv")"
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
