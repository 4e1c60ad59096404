#!/bin/bash
# profile_reduce.sh — the reduction sequence K0..K6 (tests/corpus/reduce.cu,
# Sim et al.'s case study) profiled on the A100 (32 banks, 32-byte sectors),
# block size 256, 100000 ints (391 blocks; K3-K5 196, K6 64).  Expected
# values derived by hand from the CUDA source:
#
# Shared-memory requests per warp (8 warps per block).  K0: each step s
# runs its body (2 ld.shared + 1 st.shared) in every warp with a lane where
# tid % 2s == 0: s = 1..16 all 8 warps, s = 32: 4, s = 64: 2, s = 128: 1,
# i.e. 47 warp-steps = 5.875 per warp; plus the initial st.shared and, in
# warp 0 only, the final ld.shared of sdata[0] (1/8): ld 2 x 5.875 + 0.125
# = 11.875, st 1 + 5.875 = 6.875, together 18.75.  K1 (index = 2s·tid <
# 256): s = 1: tid < 128, 4 warps; s = 2: 2; s = 4..128: 1 each (6) -> 12
# warp-steps = 1.5 per warp -> ld 3.125, st 2.5, together 5.625.  K2
# (tid < s, s = 128 .. 1): 4 + 2 + 1 + 5 x 1 = 12 -> 5.625 as well.
#
# Bank-conflict replays (passes - 1 per request, 3 requests per warp-step).
# K0 and K2: the active lanes use distinct banks -> 0.  K1: lanes read and
# write words 2s apart: s = 1: 32 lanes, stride 2 -> 2-way, 4 warps:
# 3 x 4 x 1 = 12; s = 2: stride 4 -> 4-way, 2 warps: 3 x 2 x 3 = 18; s = 4:
# 8-way, 1 warp: 21; s = 8: 16 lanes, stride 16 -> 8-way: 21; s = 16: 8
# lanes, stride 32, one bank -> 8-way: 21; s = 32: 4 lanes -> 4-way: 9;
# s = 64: 2-way: 3; s = 128: one lane: 0.  Sum 105 per block = 13.125/warp.
#
# Divergent branches per warp.  K0: the test tid % 2s splits every warp for
# s = 1..16 (5 x 8), 4 warps at s = 32, 2 at 64, 1 at 128 -> 47, plus
# tid == 0 in warp 0 -> 48 per block = 6 per warp.  K1: index < 256 splits
# only warp 0, for s = 8..128 (5), plus tid == 0 -> 0.75.  K2: tid < s splits
# warp 0 for s = 16..1 (5), plus tid == 0 -> 0.75.
#
# Barriers per warp: K0-K3 one after the load + 8 steps = 9; K4-K6 unroll
# the last warp: 1 + 2 steps (s = 128, 64) = 3.
#
# Global transactions per request (A100 rule: 32-byte sectors): 3125 warps
# load 32 contiguous ints (128 aligned bytes = 4 sectors; the last block's
# warps 5-7 have no thread below n and skip the load), 391 blocks store one
# int (1 sector): (3125 x 4 + 391) / (3125 + 391) = 12891 / 3516.
#
# K2's total, counted on its sm_80 PTX (tests/corpus/ptx/sm_80/reduce.ptx,
# reduce2) per block of 8 warps:
#   entry block (3 ld.param, 3 sreg movs, mad, setp, mov, bra)  10 x 8 =  80
#   the load (cvta, mul.wide, add, ld.global), warps with i < n  4 x 8 =  32
#   st.shared, bar.sync and loop set-up (8 instructions)         8 x 8 =  64
#   8 loop steps: the tid < s test (setp, bra), every warp       2 x 64 = 128
#     the body (shl, add, 2 ld.shared, add, st.shared), 12 warp-steps  6 x 12 = 72
#     bar.sync, shr, setp, bra, every warp                       4 x 64 = 256
#   tid == 0 test (setp, bra)                                    2 x 8 =  16
#   warp 0's ld.shared, cvta, mul.wide, add, st.global                     5
#   ret                                                                    8
#   = 661 per block; the last block (160 threads below n) runs the load in
#   5 warps only: 661 - 12 = 649.  390 x 661 + 649 = 258439.
# Total warp instructions of the launch fall from K0 to K6, and the
# per-basic-block class counts add up to the instruction mix.
# And the profile does not depend on the number of emulator threads.
source "$WS_SRC/tests/cli/lib.sh"
need_python3
C="$WS_SRC/tests/corpus"
for k in 0 1 2 3 4 5 6; do
  run "$WS" profile "$C/ptx/sm_80/reduce.ptx" --launch "$C/launch/reduce.k$k.json" --gpu a100 -j 3 -o "$TMP/k$k.json"
  expect_rc 0 "reduce$k"
done
run "$WS" profile "$C/ptx/sm_80/reduce.ptx" --launch "$C/launch/reduce.k1.json" --gpu a100 -j 1 -o "$TMP/k1.j1.json"
expect_rc 0 "reduce1 -j 1"
cmp -s "$TMP/k1.json" "$TMP/k1.j1.json" || fail "reduce1: the profile with -j 1 differs from -j 3"

run python3 - "$TMP" <<'PY'
import json, sys
d = sys.argv[1]
P = {k: json.load(open(f"{d}/k{k}.json")) for k in range(7)}
bad = []
def eq(what, got, want, tol=1e-9):
    if abs(got - want) > tol:
        bad.append(f"{what}: got {got}, expected {want}")
pw = lambda k, f: P[k]["per_warp"][f]
mix = lambda k, c: P[k]["instruction_mix"]["per_warp"].get(c, 0)
for k, ld, st in ((0, 11.875, 6.875), (1, 3.125, 2.5), (2, 3.125, 2.5)):
    eq(f"K{k} ld.shared", mix(k, "ld.shared"), ld)
    eq(f"K{k} st.shared", mix(k, "st.shared"), st)
    eq(f"K{k} shared_mem_insts", pw(k, "shared_mem_insts"), ld + st)
eq("K0 replays", pw(0, "bank_conflict_replays"), 0)
eq("K1 replays", pw(1, "bank_conflict_replays"), 105 / 8)
eq("K2 replays", pw(2, "bank_conflict_replays"), 0)
for k, v in ((0, 6), (1, 0.75), (2, 0.75)):
    eq(f"K{k} divergent branches", P[k]["divergence_detail"]["divergent_branches_per_warp"], v)
for k in range(7):
    eq(f"K{k} barriers", pw(k, "synch_insts"), 9 if k < 4 else 3)
eq("K0 transactions/request", P[0]["memory"]["avg_trans_warp"], 12891 / 3516)
if not pw(0, "divergent_extra_insts") > 4 * pw(1, "divergent_extra_insts"):
    bad.append("K0 should lose far more issue slots to divergence than K1")
# Two counting paths agree: per-block class counts (static counts x block
# executions) sum to the dynamic instruction mix.
for k in range(7):
    tot_bb = {}
    for b in P[k]["basic_blocks"]["blocks"]:
        for c, v in b["insts_per_warp"].items():
            tot_bb[c] = tot_bb.get(c, 0) + v
    for c, v in P[k]["instruction_mix"]["per_warp"].items():
        eq(f"K{k} {c} per block vs mix", tot_bb.get(c, 0), v, 1e-6)
tot = [P[k]["instruction_mix"]["total_per_warp"] * P[k]["sampling"]["profiled_warps"] for k in range(7)]
eq("K2 total warp instructions", tot[2], 258439, 1e-6)
for k in range(6):
    if not tot[k] > tot[k + 1]:
        bad.append(f"total instructions K{k} {tot[k]} not above K{k+1} {tot[k+1]}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_rc 0 "hand-derived reduction figures: $OUT"
finish
