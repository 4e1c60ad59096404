#!/bin/bash
# profile_sampling_dram.sh — sampled DRAM bytes stand for the whole grid's
# (issue 10, point 3): on four kernels whose blocks share data in different
# ways, the DRAM bytes (read + written) of --sample-blocks 8 and of 2 (the
# validate default) are within 10 % of the full profile's, on the GTX 970
# (13 SMs, 1.75 MB of L2).  Before the per-buffer estimate a sample scaled
# each sampled block's misses by blocks / sample, which read 2.1x (stencil),
# 3.2x (SpMV), 16x (tiled product) and 7x (gather) the full profile's bytes.
#   stencil5      2-D 5-point, 1024 x 1024 floats, 64 x 64 blocks: halo rows
#                 shared with the neighbours above and below (4 + 4 MB)
#   spmv_csr      scalar CSR, 65536 rows of 8 nonzeros, random columns: x
#                 (256 KB) gathered by every block (row_ptr, col, val, y: 4.8 MB)
#   matmul_tiled  256 x 256 x 256 with 16 x 16 shared tiles: A's row strips
#                 and B's column strips read by 16 blocks each
#   gather        out[i] = table[idx[i]], 1 M random indices into 1 MB
# The full profiles read each buffer once (they all fit the L2's reuse), so
# the full figures are also checked against the buffers' sizes, computed
# here: stencil 4 MB read + 4 MB written; SpMV row_ptr 65537 x 4 + col and
# val 2 x 2 MB + x 256 KB read, y 256 KB written; matmul A + B 512 KB read,
# C 256 KB written; gather idx 4 MB + table 1 MB read, out 4 MB written (a
# buffer's sectors, 32 bytes, may straddle its ends: within 0.1 %).
# The profile also states the sample's split-half error.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
C="$WS_SRC/tests/corpus/ptx/sm_75"
S="$WS_SRC/tests/sampling"
for k in stencil5 spmv_csr matmul_tiled gather; do
  ptx="$C/$k.ptx"
  [ $k = gather ] && ptx="$S/gather.ptx"
  run "$WS" profile "$ptx" --launch "$S/$k.json" --gpu gtx970 -j 2 -o "$TMP/$k-full.json"
  expect_rc 0 "$k full"
  for n in 8 2; do
    run "$WS" profile "$ptx" --launch "$S/$k.json" --gpu gtx970 -j 2 --sample-blocks $n -o "$TMP/$k-$n.json"
    expect_rc 0 "$k --sample-blocks $n"
  done
done
# The GTX 680's 512 KB L2 is smaller than the stencil's 4 MB input: two sampled
# blocks keep their rows in their share of the L2 (2 of the 64 blocks resident
# at once in the full run), whose sets are hashed as a GPU's are; indexed by
# line mod sets, the rows (4 KB apart) all fell in one set and the estimate
# read 2.9x the full profile's bytes.
for n in 0 2; do
  run "$WS" profile "$C/stencil5.ptx" --launch "$S/stencil5.json" --gpu gtx680 -j 2 \
      $([ $n = 0 ] || echo --sample-blocks $n) -o "$TMP/st680-$n.json"
  expect_rc 0 "stencil5 on the GTX 680, sample $n"
done
run python3 -c '
import json, sys
t = [sum(json.load(open(f))["memory"][k] for k in ("dram_read_bytes", "dram_write_bytes")) for f in sys.argv[1:]]
print(t); sys.exit(abs(t[1] - t[0]) > 0.10 * t[0])' "$TMP/st680-0.json" "$TMP/st680-2.json"
expect_rc 0 "stencil5 on the GTX 680: sampled DRAM bytes against the full profile's $OUT"
run python3 - "$TMP" <<'PY'
import json, sys
d = sys.argv[1]
MB = 1 << 20
footprint = {  # bytes read, bytes written
    "stencil5": (4 * MB, 4 * MB),
    "spmv_csr": (65537 * 4 + 2 * 2 * MB + MB // 4, MB // 4),
    "matmul_tiled": (MB // 2, MB // 4),
    "gather": (4 * MB + MB, 4 * MB),
}
bad = []
for k, (rd, wr) in footprint.items():
    full = json.load(open(f"{d}/{k}-full.json"))["memory"]
    for got, want, what in ((full["dram_read_bytes"], rd, "read"), (full["dram_write_bytes"], wr, "written")):
        if abs(got - want) > 0.001 * want:
            bad.append(f"{k} full: {got} bytes {what}, the buffers hold {want}")
    if full["dram_bytes_rel_error"] != 0:
        bad.append(f"{k} full: dram_bytes_rel_error {full['dram_bytes_rel_error']}, expected 0")
    total = full["dram_read_bytes"] + full["dram_write_bytes"]
    for n in (8, 2):
        p = json.load(open(f"{d}/{k}-{n}.json"))
        m = p["memory"]
        s = m["dram_read_bytes"] + m["dram_write_bytes"]
        if abs(s - total) > 0.10 * total:
            bad.append(f"{k} --sample-blocks {n}: {s:.0f} DRAM bytes, full {total:.0f} ({s / total:.2f}x)")
        if p["sampling"]["profiled_blocks"] != n:
            bad.append(f"{k} --sample-blocks {n}: profiled {p['sampling']['profiled_blocks']} blocks")
        e = m.get("dram_bytes_rel_error")
        if not isinstance(e, (int, float)) or not 0 <= e < 1:
            bad.append(f"{k} --sample-blocks {n}: dram_bytes_rel_error {e}")
        if len(p["sampling"].get("split_half_dram_bytes", [])) != 2:
            bad.append(f"{k} --sample-blocks {n}: no split-half estimates")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "sampled vs full DRAM bytes: $OUT"
finish
