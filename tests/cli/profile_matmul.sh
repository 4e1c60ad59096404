#!/bin/bash
# profile_matmul.sh — Hong & Kim's tiled matrix multiplication (Fig. 12,
# examples/kernels/matmul_tiled) on their example machine (CC 1.0 rules),
# per warp, derived by hand (docs/tiled-matmul-profile.md):
#   3 outer iterations x 2 barriers                         -> synch_insts 6
#   M load (lanes tx < 8, one row per half-warp, rows 96 B apart): one row
#     starts on a 64-byte boundary (1 transaction), the other not (8 lanes,
#     8 transactions) -> 9, uncoalesced, 3 times          -> uncoal 3, uncoal_per_mw 9
#   N load (16 consecutive floats per row, wN = 160 keeps rows 64-byte
#     aligned) -> 1 per half-warp, coalesced, 3 times, + the P store -> coal 4
#   bytes: (3 x 16 lanes x 4 + 4 x 32 lanes x 4) / 7 requests = 704 / 7
#   transactions per request: (3 x 9 + 3 x 2 + 2) / 7 = 5
#   inner loop (8 steps, unrolled): 2 ld.shared + 1 fma per step, plus the
#   two tile stores per iteration: ld.shared 48, st.shared 6, fp32 24,
#   flops 24 FMAs x 2 x 32 lanes = 1536
source "$WS_SRC/tests/cli/lib.sh"
need_python3
E="$WS_SRC/examples/kernels"
run "$WS" profile "$E/matmul_tiled.sm_80.ptx" --launch "$E/matmul_tiled.launch.json" --gpu hk09-example -o "$TMP/p.json"
expect_rc 0 "profile"
run python3 - "$TMP/p.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
w, m, mix = p["per_warp"], p["memory"], p["instruction_mix"]["per_warp"]
want = [("synch_insts", w["synch_insts"], 6), ("uncoal_mem_insts", w["uncoal_mem_insts"], 3),
        ("coal_mem_insts", w["coal_mem_insts"], 4), ("uncoal_per_mw", m["uncoal_per_mw"], 9),
        ("load_bytes_per_warp", m["load_bytes_per_warp"], 704 / 7), ("avg_trans_warp", m["avg_trans_warp"], 5),
        ("ld.shared", mix["ld.shared"], 48), ("st.shared", mix["st.shared"], 6), ("fp32", mix["fp32"], 24),
        ("flops", w["flops"], 1536), ("shared_mem_insts", w["shared_mem_insts"], 54)]
bad = [f"{k}: got {g}, expected {e}" for k, g, e in want if abs(g - e) > 1e-9]
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "hand-derived matmul figures: $OUT"
finish
