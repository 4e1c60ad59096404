/*
 * test_counterfactual.c — the advisor's counterfactuals (issue 13 point 4)
 * on the hand-written profile examples/hand/every-input.json for the A100.
 *
 * No barriers, Hong & Kim (ISCA'09): eq. 27 is exec_cycles_app (eq. 22) +
 * synch_cost (eq. 26), and #Synch_insts enters only eq. 26, so removing the
 * barriers saves exactly eq. 26:
 *   synch_cost = departure_delay * (MWP - 1) * #Synch_insts
 *                * #Active_blocks_per_SM * #Rep
 *              = 13.878 * (16 - 1) * 2 * 2 * (140 / (2 * 108))
 *              = 13.878 * 15 * 4 * 0.648148 = 539.70 cycles
 * (departure_delay = weight_uncoal * 3.13374 * 8 + weight_coal * 12.5349
 * = 6/56 * 25.07 + 50/56 * 12.5349 = 13.878, the A100's departure delays;
 * MWP = N = 16 warps: 2 blocks of 8 warps).
 */
#include <math.h>

#include "testutil.h"
#include "warpsight/advise.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"

static ws_profile *load_profile(void) {
  ws_profile *p = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_profile_load_file(&p, WS_SOURCE_DIR "/examples/hand/every-input.json", &d), &d);
  ws_diag_free(&d);
  return p;
}

static ws_gpu *load_gpu(const char *name) {
  ws_gpu *g = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(ws_gpu_load(&g, name, &d), &d);
  ws_diag_free(&d);
  return g;
}

static void hong_kim_no_barriers(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", p, g, WS_CF_BARRIERS, &d), WS_OK);
  double dd = 6.0 / 56 * 3.13374 * 8 + 50.0 / 56 * 12.5349;
  double hand = dd * 15 * 2 * 2 * (140.0 / (2 * 108));
  assert_true(fabs(dd - 13.878) < 1e-3);
  assert_true(fabs((base - cf) - hand) < 1e-3 * hand);
  assert_true(fabs((base - cf) - 539.70) < 0.01);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

static void apply_rules(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_profile_fields f = p->f;
  /* every-input: 6 uncoalesced + 50 coalesced memory instructions */
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_COALESCING), 1);
  assert_true(f.uncoal_mem_insts == 0 && f.coal_mem_insts == 56);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_COALESCING), 0); /* nothing left */
  f.bank_conflict_replays = 3;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BANK_CONFLICTS), 1);
  assert_true(f.bank_conflict_replays == 0);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BANK_CONFLICTS), 0);
  f.divergent_extra_insts = 10;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_DIVERGENCE), 1);
  assert_true(f.divergent_extra_insts == 0);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_BARRIERS), 1);
  assert_true(f.synch_insts == 0);
  /* nothing left to remove: the saving is not computed */
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  ws_profile q = *p;
  q.f = f;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", &q, g, WS_CF_BARRIERS, &d), WS_EMISSING);
  assert_true(isnan(base) && isnan(cf));
  assert_string_equal(ws_advise_cf_name(WS_CF_BARRIERS), "no barriers");
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* Maximum ILP, GPUPerf (Sim et al. PPoPP'12) on every-input with blocks of
 * one warp and one block per SM, so N = 1 warp on the A100 (fp_lat 4,
 * simd_width 64: 'warpsight gpu a100').  With N = 1, CWP = min(CWP_full, 1)
 * = 1 and MWP = min(avg_DRAM_lat / delta, MWP_peak_bw, 1) = 1 (the first
 * two are ~184 and far above 1), so zeta = 1, f_overlap = (N - zeta) / N = 0
 * and T_overlap = 0 (16, 17); MWP_cp = min(max(1, CWP - 1), MWP) = 1 and
 * ITMLP = MLP (14), so T_mem (11) does not move.  O_sync (7, 8) and O_SFU
 * (9, 10) do not read ILP; O_CFdiv and O_bank are 0 here.  What moves is
 * W_parallel (3): ITILP = min(ILP x N, ITILP_max) (4) goes from 1.5 x 1 to
 * ITILP_max = fp_lat / (warp_size / simd_width) = 4 / (32 / 64) = 8 (5), the
 * counterfactual's ILP being the warp's 256 instructions.  The saving is
 *   #insts x per_sm x avg_inst_lat x (1 / 1.5 - 1 / 8)           (= B_itilp, 20)
 *   = 252 x (140 / 108) x 4 x 0.5416667 = 707.78 cycles
 * (#insts = comp 200 + mem 56 - SFU 4 = 252, Table 2; per_sm = 140 warps
 * over 108 SMs). */
static void gpuperf_max_ilp(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_profile q = *p;
  q.block[0] = 32;
  q.threads_per_block = 32;
  q.f.active_blocks_per_sm = 1;
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "gpuperf", &q, g, WS_CF_ILP, &d), WS_OK);
  double hand = 252 * (140.0 / 108) * 4 * (1 / 1.5 - 1 / 8.0);
  assert_true(fabs(hand - 707.78) < 0.01);
  assert_true(fabs((base - cf) - hand) < 1e-6 * hand);
  /* Hong & Kim reads no ILP: nothing to save, and the profile did change */
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", &q, g, WS_CF_ILP, &d), WS_OK);
  assert_true(base == cf);
  ws_profile_fields f = p->f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ILP), 1);
  assert_true(f.ilp == 256);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ILP), 0); /* at its maximum already */
  f.path_cycles = 900, f.path_mem_loads = 4;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ILP), 1);
  assert_true(f.path_cycles == 256 && f.path_mem_loads == 1);
  /* replays and serialized shared atomics keep their issue slots */
  f.path_cycles = 900, f.bank_conflict_replays = 30, f.shared_atomic_insts = 4, f.shared_atomic_serial = 104;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ILP), 1);
  assert_true(f.path_cycles == 256 + 30 + 100);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* Maximum occupancy, Hong & Kim (ISCA'09) on every-input with a grid of
 * 864 blocks (8 per SM of the A100's 108) on the A100: mem_ld 575,
 * departure delays 3.133736 (uncoal.) and 12.534945 (coal.), issue_cycles
 * 0.5 ('warpsight gpu a100').  The profile gives 2 blocks of 8 warps per
 * SM; registers and shared memory not limiting, CC 8.0 allows 64 warps and
 * 32 blocks: 8 blocks of 8 warps, N = 64, and the grid gives 8 per SM.
 *   Comp_cycles = 0.5 x 256 = 128 (19); Comp_p = 128 / 56 (2)
 *   Mem_L_uncoal = 575 + 7 x 3.133736 = 596.936 (10); Mem_L_coal = 575 (11)
 *   Mem_L = 596.936 x 6/56 + 575 x 50/56 = 577.350 (12)
 *   departure_delay = 3.133736 x 8 x 6/56 + 12.534945 x 50/56 = 13.878 (15)
 *   MWP_without_BW_full = 577.350 / 13.878 = 41.60 (16)
 *   MWP_peak_BW = 1555 / (1.41 x 128 / 577.350 x 108) = 46.06 (6, 7)
 *   Mem_cycles = 596.936 x 6 + 575 x 50 = 32331.6 (18)
 *   CWP_full = (32331.6 + 128) / 128 = 253.6 (8)
 * Base, N = 16, #Rep = 864 / (2 x 108) = 4: MWP = min(41.60, 46.06, 16) = 16
 * and CWP = 16 = N, so eq. 22:
 *   (32331.6 + 128 + Comp_p x 15) x 4 = 129975.5; synch (26) 13.878 x 15 x 2
 *   x 2 x 4 = 3330.7
 * Maximum occupancy, N = 64, #Rep = 1: MWP = 41.60 < CWP = 64, eq. 23:
 *   32331.6 x 64 / 41.602 + Comp_p x 40.602 = 49831.5; synch 13.878 x 40.602 x
 *   2 x 8 x 1 = 9015.6
 * Saving = 133306.3 - 58847.0 = 74459.3 cycles. */
static void hong_kim_max_occupancy(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_profile q = *p;
  q.grid[0] = 864;
  q.blocks = 864;
  const double dd_u = 3.133736334, dd_c = 12.53494534, comp = 0.5 * 256, comp_p = comp / 56;
  const double ml_u = 575 + 7 * dd_u, ml = ml_u * 6 / 56 + 575 * 50.0 / 56;
  const double dd = dd_u * 8 * 6 / 56 + dd_c * 50 / 56, mwp_full = ml / dd;
  const double peak = 1555 / (1.41 * 128 / ml * 108), mem = ml_u * 6 + 575 * 50;
  assert_true(fabs(mwp_full - 41.60) < 0.01 && peak > mwp_full && (mem + comp) / comp > 64);
  double base_h = (mem + comp + comp_p * 15) * 4 + dd * 15 * 2 * 2 * 4;
  double cf_h = mem * 64 / mwp_full + comp_p * (mwp_full - 1) + dd * (mwp_full - 1) * 2 * 8 * 1;
  assert_true(fabs(base_h - 133306.3) < 0.1 && fabs(cf_h - 58847.0) < 0.1);
  assert_true(fabs((base_h - cf_h) - 74459.3) < 0.1);
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", &q, g, WS_CF_OCCUPANCY, &d), WS_OK);
  assert_true(fabs(base - base_h) < 1e-6 * base_h);
  assert_true(fabs((base - cf) - (base_h - cf_h)) < 1e-6 * base_h);
  /* the 140-block grid gives an SM 2 blocks at most: nothing to gain */
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", p, g, WS_CF_OCCUPANCY, &d), WS_EMISSING);
  /* fields alone cannot say: occupancy needs the GPU and the launch */
  ws_profile_fields f = q.f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_OCCUPANCY), 0);
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_OCCUPANCY, &d), 1);
  assert_true(q.f.active_blocks_per_sm == 8);
  assert_string_equal(ws_advise_cf_name(WS_CF_OCCUPANCY), "maximum occupancy");
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* Perfect coalescing counts transactions in the GPU's own unit
 * (gpuperf.transaction_bytes): on the A100, 32-B sectors, so a request
 * moving 128 bytes in 4 sectors is perfectly coalesced already -- nothing to
 * save (before the fix, 4 fell to 1 "per 128 bytes" and every model saw a
 * saving); on the C2075, 128-B lines, 1.5 lines per 128-byte request fall to
 * ceil(128 / 128) = 1. */
static void coalescing_in_the_gpus_unit(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *a100 = load_gpu("a100"), *c2075 = load_gpu("c2075");
  ws_diag d = WS_DIAG_INIT;
  ws_profile q = *p;
  q.f.coal_mem_insts = 56, q.f.uncoal_mem_insts = 0, q.f.avg_trans_warp = 4;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "warpsight", &q, a100, WS_CF_COALESCING, &d), WS_EMISSING);
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "gpuperf", &q, a100, WS_CF_COALESCING, &d), WS_EMISSING);
  q.f.avg_trans_warp = 9; /* 9 sectors for 128 bytes: 4 would do */
  q.f.l2_sectors_per_warp = 90;
  assert_int_equal(ws_advise_cf_apply_launch(&q, a100, WS_CF_COALESCING, &d), 1);
  assert_true(q.f.avg_trans_warp == 4 && fabs(q.f.l2_sectors_per_warp - 40) < 1e-12);
  q = *p; /* every-input: 1.5 transactions per 128-byte request */
  assert_int_equal(ws_advise_cf_apply_launch(&q, c2075, WS_CF_COALESCING, &d), 1);
  assert_true(q.f.avg_trans_warp == 1 && q.f.uncoal_mem_insts == 0);
  ws_profile_fields f = p->f; /* without the GPU, the unit is unknown */
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_COALESCING), 1);
  assert_true(f.avg_trans_warp == 1.5);
  ws_diag_free(&d);
  ws_gpu_free(a100);
  ws_gpu_free(c2075);
  ws_profile_free(p);
}

/* No divergence, Hong & Kim on every-input with 10 extra warp instructions
 * of divergence per warp, on the A100.  They are part of comp_insts (the
 * issue slots lost to idle lanes, docs/profile.md), so without divergence
 * #Total_insts falls from 256 to 246: Comp_cycles = 0.5 x 256 = 128 -> 123
 * (19), Comp_p = Comp_cycles / 56 (2).  MWP = CWP = N = 16 before and after
 * (CWP_full = (32331.6 + 123) / 123 > 16), so eq. 22 both times and
 * synch_cost (26) does not move:
 *   saving = (5 + 5 / 56 x 15) x #Rep, #Rep = 140 / (2 x 108)
 *          = 6.33929 x 0.648148 = 4.10880 cycles
 * (before the fix comp_insts kept them: a saving of 0). */
static void hong_kim_no_divergence(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_profile q = *p;
  q.f.divergent_extra_insts = 10;
  ws_diag d = WS_DIAG_INIT;
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "hong-kim", &q, g, WS_CF_DIVERGENCE, &d), WS_OK);
  double hand = (5 + 5.0 / 56 * 15) * (140.0 / 216);
  assert_true(fabs(hand - 4.10880) < 1e-5);
  assert_true(fabs((base - cf) - hand) < 1e-6 * hand);
  ws_profile_fields f = q.f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_DIVERGENCE), 1);
  assert_true(f.comp_insts == 190 && f.divergent_extra_insts == 0);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* The atomics' changes on every-input with 2 global atomic requests per
 * warp whose lanes serialize 40 operations, and 3 shared ones serializing
 * 30 (fields by hand, docs/advisor.md):
 *   distinct addresses: global serial 40 -> 2, shared 30 -> 3;
 *   warp-aggregated: the same, plus 10 instructions for each of the 5
 *     requests that had conflicts: comp_insts 200 -> 250;
 *   privatised per block: the 2 global requests and their 40 become shared
 *     (3 + 2 = 5 requests, 30 + 40 = 70), one merge request per warp on
 *     distinct addresses (1, 1), two more barriers (2 -> 4).
 * The warpsight model's [A1] t_atomic = max(the hottest address's chain,
 * serial x total warps / L2 slices: one lane operation per slice per
 * cycle): 140 blocks x 8 warps = 1120 warps, 40 -> 2 per warp, the A100's
 * 80 slices; with
 * 10000 operations on the hottest address, "distinct addresses" leaves
 * 10000 x 2 / 40 = 500 and "privatised per block" 10000 x 1 / 40 = 250
 * (one merge request per warp). */
static void atomics(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  p->f.global_atomic_insts = 2, p->f.global_atomic_serial = 40;
  p->f.shared_atomic_insts = 3, p->f.shared_atomic_serial = 30;
  ws_profile_fields f = p->f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_DISTINCT), 1);
  assert_true(f.global_atomic_serial == 2 && f.shared_atomic_serial == 3 && f.comp_insts == 200);
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_DISTINCT), 0); /* nothing left */
  f = p->f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_WARP), 1);
  assert_true(f.global_atomic_serial == 2 && f.shared_atomic_serial == 3 && f.comp_insts == 250);
  f = p->f;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_PRIVATE), 1);
  assert_true(f.shared_atomic_insts == 5 && f.shared_atomic_serial == 70);
  assert_true(f.global_atomic_insts == 1 && f.global_atomic_serial == 1 && f.synch_insts == 4);
  /* one atomic per block of 8 warps, one lane: already what a merge costs */
  f = p->f;
  f.global_atomic_insts = f.global_atomic_serial = 0.125;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_PRIVATE), 0);
  /* with the block's distinct targets known (every-input: blocks of 256
   * threads, 8 warps): one address merges in ceil(1 / 32) = 1 request per
   * block, 1/8 per warp; 256 addresses in 8 requests, 1 per warp */
  ws_profile q8 = *p;
  q8.f.global_atomic_insts = 1, q8.f.global_atomic_serial = 1, q8.f.atomic_addresses_per_block = 1;
  ws_diag d8 = WS_DIAG_INIT;
  assert_int_equal(ws_advise_cf_apply_launch(&q8, g, WS_CF_ATOMIC_PRIVATE, &d8), 1);
  assert_close(q8.f.global_atomic_insts, 0.125, 0);
  assert_close(q8.f.global_atomic_serial, 0.125, 0);
  q8 = *p;
  q8.f.global_atomic_insts = 1, q8.f.global_atomic_serial = 1, q8.f.atomic_addresses_per_block = 256;
  assert_int_equal(ws_advise_cf_apply_launch(&q8, g, WS_CF_ATOMIC_PRIVATE, &d8), 0);
  ws_diag_free(&d8);
  /* warpsight's t_atomic after "distinct addresses" */
  double ac = ws_gpu_p(g, WS_GP_WARPSIGHT_ATOMIC_CYCLES);
  assert_true(ac > 0);
  ws_profile q = *p;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r0 = WS_MODEL_RESULT_INIT, r1 = WS_MODEL_RESULT_INIT;
  double units = g->cache.l2_slices;
  assert_true(units > 0);
  assert_ok_diag(ws_model_predict(&r0, "warpsight", &q, g, &d), &d);
  assert_close(ws_model_term_value(&r0, WS_TERM_WARPSIGHT_T_ATOMIC), 40 * 1120 / units, 1e-9);
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_ATOMIC_DISTINCT, &d), 1);
  assert_ok_diag(ws_model_predict(&r1, "warpsight", &q, g, &d), &d);
  assert_close(ws_model_term_value(&r1, WS_TERM_WARPSIGHT_T_ATOMIC), 2 * 1120 / units, 1e-9);
  /* the hottest address's chain follows the conflicts */
  f = p->f;
  f.global_atomic_max_address_ops = 10000;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_DISTINCT), 1);
  assert_close(f.global_atomic_max_address_ops, 500, 1e-9);
  f = p->f;
  f.global_atomic_max_address_ops = 10000;
  assert_int_equal(ws_advise_cf_apply(&f, WS_CF_ATOMIC_PRIVATE), 1);
  assert_close(f.global_atomic_max_address_ops, 250, 1e-9);
  double base, cf;
  assert_int_equal(ws_advise_cf_saving(&base, &cf, "warpsight", p, g, WS_CF_ATOMIC_DISTINCT, &d), WS_OK);
  assert_close(base, r0.cycles, 0);
  assert_close(cf, r1.cycles, 0);
  assert_string_equal(ws_advise_cf_name(WS_CF_ATOMIC_PRIVATE), "atomics privatised per block");
  ws_model_result_free(&r0);
  ws_model_result_free(&r1);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* More loads in flight needs the line table: a loop's load on the path 8
 * times per block, a straight-line load once and a half-time one
 * (path_mem_loads 9.5): the loop's 8 fall to 8 / 4 = 2, the others stay,
 * 3.5 in all; Sim et al.'s MLP x 4. */
static void more_loads_in_flight(void **state) {
  (void)state;
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  p->f.path_mem_loads = 9.5, p->f.path_cycles = 500;
  ws_profile q = *p;
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_MLP, &d), 0); /* no line table */
  ws_profile_line rows[3] = {{.file = 0, .line = 3, .path_mem_loads = 8},
                             {.file = 0, .line = 5, .path_mem_loads = 1},
                             {.file = 0, .line = 7, .path_mem_loads = 0.5}};
  char *files[1] = {"k.cu"};
  ws_profile_lines l = {files, 1, 0, rows, 3, 1, 0};
  q.lines = &l;
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_MLP, &d), 1);
  assert_close(q.f.path_mem_loads, 3.5, 1e-12);
  assert_close(q.f.mlp, 8, 0);
  assert_close(q.f.path_cycles, 500, 0);
  /* every load on the path once: nothing to overlap */
  ws_profile r = *p;
  rows[0].path_mem_loads = 1;
  r.lines = &l;
  r.f.path_mem_loads = 2.5;
  assert_int_equal(ws_advise_cf_apply_launch(&r, g, WS_CF_MLP, &d), 0);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* A loop nvcc already unrolled (#pragma unroll 4: a body of four loads per
 * trip) has nothing left to unroll: its loads stay, and a table of such
 * rows makes no change.  The factor proposed is 4 over the loads per trip
 * (a mean, taken to the nearest whole number), rounded up (2 loads: by 2;
 * 3: by 2; unknown or 1: by 4), and none when
 * the loop runs fewer than 4 trips per entry (ws_advise_mlp_unroll;
 * docs/advisor.md, "Unrolling"). */
static void mlp_already_unrolled(void **state) {
  (void)state;
  ws_profile_line r = {.path_mem_loads = 8};
  assert_close(ws_advise_mlp_unroll(&r), 4, 0); /* unknown loop: the factor */
  r.loop_loads_per_trip = 1, r.loop_trips_per_entry = 34;
  assert_close(ws_advise_mlp_unroll(&r), 4, 0);
  r.loop_loads_per_trip = 2;
  assert_close(ws_advise_mlp_unroll(&r), 2, 0);
  r.loop_loads_per_trip = 1.4; /* a mean: about 1 load per trip */
  assert_close(ws_advise_mlp_unroll(&r), 4, 0);
  r.loop_loads_per_trip = 1.997; /* reduce6: a second load under a condition */
  assert_close(ws_advise_mlp_unroll(&r), 2, 0);
  r.loop_loads_per_trip = 3;
  assert_close(ws_advise_mlp_unroll(&r), 2, 0); /* 2 x 3 = 6 >= 4 */
  r.loop_loads_per_trip = 3.6; /* about 4 */
  assert_close(ws_advise_mlp_unroll(&r), 0, 0);
  r.loop_loads_per_trip = 4;
  assert_close(ws_advise_mlp_unroll(&r), 0, 0); /* already 4 per trip */
  r.loop_loads_per_trip = 8;
  assert_close(ws_advise_mlp_unroll(&r), 0, 0);
  r.loop_loads_per_trip = 1, r.loop_trips_per_entry = 3;
  assert_close(ws_advise_mlp_unroll(&r), 0, 0); /* 3 trips: no 4 to overlap */
  r.loop_loads_per_trip = 3, r.loop_trips_per_entry = 2;
  assert_close(ws_advise_mlp_unroll(&r), 0, 0); /* a remainder loop (spmv's, beside its 12-load body) */
  r.loop_loads_per_trip = 2, r.loop_trips_per_entry = 4;
  assert_close(ws_advise_mlp_unroll(&r), 2, 0);
  r.path_mem_loads = 1, r.loop_loads_per_trip = 1, r.loop_trips_per_entry = 34;
  assert_close(ws_advise_mlp_unroll(&r), 0, 0); /* on the path once */

  /* the counterfactual: the unrolled loop's four rows (8 path loads each)
   * stay, the other loop's row (8, one load per trip over 34 trips) falls
   * to 2: 8 x 4 + 8 = 40 -> 34 path loads; with only the unrolled rows,
   * no change */
  ws_profile *p = load_profile();
  ws_gpu *g = load_gpu("a100");
  ws_diag d = WS_DIAG_INIT;
  ws_profile_line rows[5];
  for (int i = 0; i < 4; i++)
    rows[i] = (ws_profile_line){.line = (uint32_t)(10 + i), .path_mem_loads = 8,
                                .loop_loads_per_trip = 4, .loop_trips_per_entry = 8};
  rows[4] = (ws_profile_line){.line = 20, .path_mem_loads = 8, .loop_loads_per_trip = 1,
                              .loop_trips_per_entry = 34};
  char *files[1] = {"k.cu"};
  ws_profile_lines l = {files, 1, 0, rows, 5, 1, 0};
  ws_profile q = *p;
  q.lines = &l, q.f.path_mem_loads = 40;
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_MLP, &d), 1);
  assert_close(q.f.path_mem_loads, 34, 1e-12);
  l.nrows = 4;
  q = *p;
  q.lines = &l, q.f.path_mem_loads = 32;
  assert_int_equal(ws_advise_cf_apply_launch(&q, g, WS_CF_MLP, &d), 0);
  assert_close(q.f.path_mem_loads, 32, 0);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mlp_already_unrolled),
      cmocka_unit_test(hong_kim_no_barriers),
      cmocka_unit_test(apply_rules),
      cmocka_unit_test(gpuperf_max_ilp),
      cmocka_unit_test(hong_kim_max_occupancy),
      cmocka_unit_test(coalescing_in_the_gpus_unit),
      cmocka_unit_test(hong_kim_no_divergence),
      cmocka_unit_test(atomics),
      cmocka_unit_test(more_loads_in_flight),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
