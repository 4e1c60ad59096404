/*
 * test_model_gpuperf.c — the GPUPerf model (Sim et al., PPoPP'12) on
 * hand-written profiles, every expected value worked out by hand below.
 *
 * The GPU is written inline with Tesla C2050's parameters from the paper's
 * Table 3 (1.15 GHz, 144 GB/s, 14 SMs, 32 SPs and 4 SFUs per SM,
 * DRAM_lat 440, Δ 20, FP_lat 18, L1 18, L2 130, Γ 64, 128-byte transactions)
 * and the C2050's 384-bit bus (so that it loads without a missing-fact
 * warning), so the test does not depend on the database file.  With these:
 *   ITILP_max = FP_lat / (warp_size / SIMD_width) = 18 / (32/32) = 18   (5)
 *   BW_per_warp = 1.15 × 128 / avg_DRAM_lat                              (A.7)
 *   MWP_peak_bw = 144 / (BW_per_warp × 14)                                (A.6)
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

/* Tesla C2050 as above, named `name`, its L1 caching global loads or not. */
#define C2050(name, l1_caches_global)                                                                 \
  "{\"schema\":\"warpsight-gpu/1\",\"name\":\"" name "\",\"compute_capability\":\"2.0\","             \
  "\"sms\":14,\"cores_per_sm\":32,\"sfu_per_sm\":4,\"clock_ghz\":1.15,"                               \
  "\"mem_bandwidth_gbs\":144,"                                                                        \
  "\"cache\":{\"l1_caches_global\":" #l1_caches_global ",\"l1_line_bytes\":128,\"l2_bytes\":786432}," \
  "\"memory\":{\"bus_bits\":384},"                                                                   \
  "\"models\":{\"gpuperf\":{\"dram_lat\":440,\"delta\":20,\"fp_lat\":18,"                             \
  "\"l1_lat\":18,\"l2_lat\":130,\"gamma\":64,\"simd_width\":32,\"sfu_width\":4,"                      \
  "\"transaction_bytes\":128}}}"

static const char gpu_json[] = C2050("t-c2050", 1);

/* The same machine without any models.gpuperf parameters. */
static const char gpu_bare_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"bare\",\"derive\":false,\"compute_capability\":\"2.0\","
    "\"sms\":14,\"cores_per_sm\":32,\"clock_ghz\":1.15,\"mem_bandwidth_gbs\":144}";

/* The profile's text: schema, kernel name and the members `body`. */
static const char *profile_text(char buf[2048], const char *body) {
  snprintf(buf, 2048, "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\",%s}", body);
  return buf;
}

/* Runs gpuperf and returns its status; the caller frees r and d. */
static int predict(ws_model_result *r, ws_diag *d, const char *body, const char *gjson) {
  char buf[2048];
  return ws_test_predict(r, d, "gpuperf", profile_text(buf, body), gjson);
}

/* Runs gpuperf and expects success; `warnings` receives the warning count of
 * the prediction (the loads give none). */
static ws_model_result run(const char *body, const char *gjson, size_t *warnings) {
  ws_diag d = WS_DIAG_INIT;
  ws_model_result res = WS_MODEL_RESULT_INIT;
  assert_ok_diag(predict(&res, &d, body, gjson), &d);
  if (warnings) *warnings = d.count - d.errors;
  ws_diag_free(&d);
  return res;
}

#define T(id) ws_model_term_value(&r, WS_TERM_GPUPERF_##id)

/*
 * ζ = 1 (CWP <= MWP), ITILP at ITILP_max, F_SFU clamped at 0, two-level hit
 * latency, MLP = 2.
 * Launch: 84 blocks of 256 threads (8 warps), 3 active blocks per SM on 14
 * SMs: N = 24, #total_warps = 672, warps per SM W = 672/14 = 48.
 * Counts: comp 206 (includes 10 SFU), coal 4, uncoal 0 -> #insts = 206 + 4 - 10
 * = 200, #mem_insts = 4.  ILP 1: ITILP = min(1 × 24, 18) = 18 = ITILP_max.
 *   W_parallel = 200 × 48 × 18/18 = 9600                                (3)
 *   F_SFU = max(10/200 - 4/32, 0) = max(-0.075, 0) = 0 -> O_SFU = 0    (9)-(10)
 *   avg_DRAM_lat = 440 + (2 - 1) × 20 = 460                             (13)
 *   F_sync = 64 × 460 × 4/200 = 588.8, O_sync = 0 (no barriers)          (7)-(8)
 *   T_comp = 9600                                                        (2)
 *   miss_ratio = (1 - 0.5)(1 - 0.5) = 0.25 (from the two hit ratios)
 *   hit_lat = L1 latency 18 (this GPU caches global loads in L1; (12) as
 *   printed takes one hit latency, Table 3, not one weighted by hit ratios)
 *   AMAT = 460 × 0.25 + 18 = 133                                         (12)
 *   BW_per_warp = 1.15 × 128 / 460 = 0.32; MWP_peak_bw = 144/(0.32 × 14) = 32.142857
 *   MWP = min(460/20 = 23, 32.14, 24) = 23                              (A.5)
 *   comp_cycles = 200 × 1 = 200; mem_cycles = 4 × 133 / 2 = 266         (A.3)-(A.4)
 *   CWP = min(466/200 = 2.33, 24) = 2.33 <= 23 -> ζ = 1                 (A.1)-(A.2)
 *   MWP_cp = min(max(1, 1.33), 23) = 1.33; ITMLP = min(2 × 1.33, 32.14) = 2.66
 *   T_mem = 4 × 48 / 2.66 × 133 = 192 × 50 = 9600                       (11)
 *   F_overlap = 23/24; T_overlap = min(9600 × 23/24, 9600) = 9200        (16)-(17)
 *   T_exec = 9600 + 9600 - 9200 = 10000                                  (1)
 * (With ζ = 0 the overlap would be 9600 and T_exec 9600: ζ is visible.)
 * Advisor: T_fp = 100 × 48 × 18 / 18 = 4800                              (18)
 *   size_of_data = 17920 DRAM bytes = 17920/128/14 = 10 transactions per SM
 *   T_mem_min = 10 × 460 / 32.142857 = 143.1111                          (19)
 *   B_itilp = 9600 - 200 × 48 × 18/18 = 0; B_serial = 0                  (20)-(21)
 *   B_fp = 9600 - 4800 - 0 - 0 = 4800                                    (22)
 *   T'_mem = 9600 - 9200 = 400; B_memlp = 400 - 143.1111 = 256.8889      (23) */
static const char case_a[] =
    "\"launch\":{\"grid\":[84,1,1],\"block\":[256,1,1]},"
    "\"occupancy\":{\"active_blocks_per_sm\":3,\"active_sms\":14},"
    "\"per_warp\":{\"comp_insts\":206,\"coal_mem_insts\":4,\"uncoal_mem_insts\":0,"
    "\"fp_insts\":100,\"sfu_insts\":10,\"synch_insts\":0,\"divergent_extra_insts\":0,"
    "\"bank_conflict_replays\":0},"
    "\"memory\":{\"avg_trans_warp\":2,\"l1_hit_ratio\":0.5,\"l2_hit_ratio\":0.5,"
    "\"dram_read_bytes\":17920,\"dram_write_bytes\":0},"
    "\"parallelism\":{\"ilp\":1,\"mlp\":2}";

static void zeta1_itilp_max_fsfu0(void **state) {
  (void)state;
  size_t warnings = 99;
  ws_model_result r = run(case_a, gpu_json, &warnings);
  assert_int_equal(warnings, 0);
  assert_close(T(INSTS), 200, 0);
  assert_close(T(N), 24, 0);
  assert_close(T(ITILP_MAX), 18, 1e-12);
  assert_close(T(ITILP), 18, 1e-12);
  assert_close(T(W_PARALLEL), 9600, 1e-9);
  assert_close(T(F_SFU), 0, 0);
  assert_close(T(O_SFU), 0, 0);
  assert_close(T(AVG_DRAM_LAT), 460, 1e-12);
  assert_close(T(F_SYNC), 588.8, 1e-9);
  assert_close(T(O_SYNC), 0, 0);
  assert_close(T(T_COMP), 9600, 1e-9);
  assert_close(T(HIT_LAT), 18, 1e-12); /* 41.5 with the weighted form */
  assert_close(T(MISS_RATIO), 0.25, 1e-12);
  assert_close(T(AMAT), 133, 1e-12);
  assert_close(T(BW_PER_WARP), 0.32, 1e-12);
  assert_close(T(MWP_PEAK_BW), 144 / 4.48, 1e-9);
  assert_close(T(MWP), 23, 1e-12);
  assert_close(T(CWP), 2.33, 1e-12);
  assert_close(T(MWP_CP), 1.33, 1e-12);
  assert_close(T(ITMLP), 2.66, 1e-12);
  assert_close(T(T_MEM), 9600, 1e-9);
  assert_close(T(ZETA), 1, 0);
  assert_close(T(T_OVERLAP), 9200, 1e-9);
  assert_close(T(T_EXEC), 10000, 1e-9);
  assert_close(r.cycles, 10000, 1e-9);
  assert_close(r.time_ms, 10000 / 1.15e6, 1e-15);
  assert_close(T(T_FP), 4800, 1e-9);
  assert_close(T(T_MEM_MIN), 4600 / (144 / 4.48), 1e-9);
  assert_close(T(T_MEM_MIN), 143.111111, 1e-5);
  assert_close(T(B_ITILP), 0, 1e-9);
  assert_close(T(B_SERIAL), 0, 0);
  assert_close(T(B_FP), 4800, 1e-9);
  assert_close(T(B_MEMLP), 256.888889, 1e-5);
  assert_non_null(strstr(r.case_label, "CWP <= MWP"));
  assert_int_equal(r.bound, WS_BOUND_GPUPERF_COMPUTE);
  ws_model_result_free(&r);
}

/*
 * ζ = 0 (CWP > MWP), ITILP below ITILP_max, F_SFU clamped at 1, divergence
 * and bank-conflict overheads, MLP absent (1, with a warning).
 * Launch: 56 blocks of 256 threads (8 warps), 4 active blocks per SM on 14
 * SMs: N = 32, #total_warps = 448, W = 32.
 * Counts: comp 38 (includes 30 SFU and 4 divergent extras), coal 10,
 * uncoal 10 -> #insts = 38 + 20 - 30 - 4 = 24, #mem_insts = 20.
 * ILP 0.5: ITILP = min(0.5 × 32, 18) = 16 < 18; cost per instruction 18/16 = 1.125.
 *   W_parallel = 24 × 32 × 1.125 = 864                                   (3)
 *   F_SFU = min(max(30/24 - 4/32, 0), 1) = min(1.125, 1) = 1             (10)
 *   O_SFU = 30 × 32 × (32/4) × 1 = 7680                                  (9)
 *   O_CFdiv = 4 × 32 × 1.125 = 144; O_bank = 8 × 32 × 1.125 = 288
 *   W_serial = 7680 + 144 + 288 = 8112; T_comp = 8976                    (2), (6)
 *   avg_DRAM_lat = 440 + 2 × 20 = 480; miss_ratio 1; hit_lat = L1's 18
 *   (every access looks up L1 first): AMAT = 480 × 1 + 18 = 498          (12)-(13)
 *   MWP_peak_bw = 144 × 480 / (1.15 × 128 × 14) = 69120/2060.8 = 33.5404
 *   MWP = min(480/20 = 24, 33.54, 32) = 24
 *   comp_cycles = 24 × 1.125 = 27; mem_cycles = 20 × 498 = 9960
 *   CWP = min(9987/27 = 369.9, 32) = 32 > 24 -> ζ = 0
 *   MWP_cp = min(31, 24) = 24; ITMLP = min(1 × 24, 33.54) = 24
 *   T_mem = 20 × 32 / 24 × 498 = 13280                                   (11)
 *   T_overlap = min(8976 × 32/32, 13280) = 8976; T_exec = 13280          (1)
 * (With ζ = 1 the overlap would be 8976 × 31/32 and T_exec 13560.5.)
 * Advisor: T_fp = 10 × 32 × 18/16 = 360
 *   size_of_data = 128 B × 20 × 448 = 1146880 B -> /128/14 = 640 per SM
 *   T_mem_min = 640 × 480 / 33.5404 = 307200 × 2060.8/69120 = 9159.1111
 *   B_itilp = 864 - 24 × 32 × 18/18 = 96; B_serial = 8112
 *   B_fp = 8976 - 360 - 96 - 8112 = 408
 *   T'_mem = 13280 - 8976 = 4304; B_memlp = max(4304 - 9159.1, 0) = 0 */
static const char case_b[] =
    "\"launch\":{\"grid\":[56,1,1],\"block\":[256,1,1]},"
    "\"occupancy\":{\"active_blocks_per_sm\":4,\"active_sms\":14},"
    "\"per_warp\":{\"comp_insts\":38,\"coal_mem_insts\":10,\"uncoal_mem_insts\":10,"
    "\"fp_insts\":10,\"sfu_insts\":30,\"synch_insts\":0,\"divergent_extra_insts\":4,"
    "\"bank_conflict_replays\":8},"
    "\"memory\":{\"avg_trans_warp\":3,\"miss_ratio\":1,\"load_bytes_per_warp\":128},"
    "\"parallelism\":{\"ilp\":0.5}";

static void zeta0_itilp_below_fsfu1(void **state) {
  (void)state;
  size_t warnings = 0;
  ws_model_result r = run(case_b, gpu_json, &warnings);
  assert_int_equal(warnings, 1); /* parallelism.mlp absent */
  assert_close(T(INSTS), 24, 0);
  assert_close(T(MLP), 1, 0);
  assert_close(T(ITILP), 16, 1e-12);
  assert_close(T(W_PARALLEL), 864, 1e-9);
  assert_close(T(F_SFU), 1, 0);
  assert_close(T(O_SFU), 7680, 1e-9);
  assert_close(T(O_CFDIV), 144, 1e-9);
  assert_close(T(O_BANK), 288, 1e-9);
  assert_close(T(W_SERIAL), 8112, 1e-9);
  assert_close(T(T_COMP), 8976, 1e-9);
  assert_close(T(AMAT), 498, 1e-12);
  assert_close(T(HIT_LAT), 18, 0);
  assert_close(T(MWP_PEAK_BW), 69120 / 2060.8, 1e-9);
  assert_close(T(MWP), 24, 1e-12);
  assert_close(T(CWP), 32, 1e-12);
  assert_close(T(ZETA), 0, 0);
  assert_close(T(F_OVERLAP), 1, 0);
  assert_close(T(ITMLP), 24, 1e-12);
  assert_close(T(T_MEM), 13280, 1e-9);
  assert_close(T(T_OVERLAP), 8976, 1e-9);
  assert_close(r.cycles, 13280, 1e-9);
  assert_close(T(T_FP), 360, 1e-9);
  assert_close(T(SIZE_OF_DATA), 1146880, 0);
  assert_close(T(T_MEM_MIN), 9159.111111, 1e-5);
  assert_close(T(B_ITILP), 96, 1e-9);
  assert_close(T(B_SERIAL), 8112, 1e-9);
  assert_close(T(B_FP), 408, 1e-9);
  assert_close(T(B_MEMLP), 0, 0);
  assert_non_null(strstr(r.case_label, "CWP > MWP"));
  assert_non_null(strstr(r.case_label, "load_bytes_per_warp"));
  assert_int_equal(r.bound, WS_BOUND_GPUPERF_MEMORY);
  ws_model_result_free(&r);
}

/* Issue 13: (12) as printed takes one hit latency.  A GPU whose L1 does not
 * cache global loads (Kepler's default) looks up L2 first: case A on such a
 * machine has hit_lat = L2's 130 and AMAT = 460 × 0.25 + 130 = 245. */
static void hit_latency_l2_first(void **state) {
  (void)state;
  static const char kepler_like[] = C2050("t-l2", 0);
  size_t warnings = 99;
  ws_model_result r = run(case_a, kepler_like, &warnings);
  assert_close(T(HIT_LAT), 130, 0);
  assert_close(T(AMAT), 245, 1e-12);
  ws_model_result_free(&r);
}

/*
 * One warp per SM: synchronization overhead, and no overlap at all.
 * Launch: 14 blocks of 32 threads, 1 block per SM: N = 1, W = 1.
 * comp 9, coal 1 -> #insts 10, #mem 1; ILP, MLP, SFU, divergence, bank
 * conflicts absent (five warnings; each taken as 1 or 0).
 *   ITILP = min(1, 18) = 1; W_parallel = 10 × 1 × 18 = 180
 *   F_sync = 64 × 440 × 1/10 = 2816; O_sync = 1 × 1 × 2816 = 2816; T_comp = 2996
 *   AMAT = 440 × 1 + 18 (L1 hit latency) = 458; MWP = min(22, 30.7, 1) = 1;
 *   CWP = min(638/180, 1) = 1 -> ζ = 1
 *   F_overlap = (1 - 1)/1 = 0 -> T_overlap = 0; ITMLP = min(1 × 1, 30.7) = 1
 *   T_mem = 1 × 1 / 1 × 458 = 458; T_exec = 2996 + 458 = 3454
 *   B_itilp = 180 - 10 × 18/18 = 170; B_serial = 2816; T_fp = 0
 *   B_fp = 2996 - 0 - 170 - 2816 = 10 */
static void sync_one_warp(void **state) {
  (void)state;
  size_t warnings = 0;
  ws_model_result r = run(
      "\"launch\":{\"grid\":[14,1,1],\"block\":[32,1,1]},"
      "\"occupancy\":{\"active_blocks_per_sm\":1,\"active_sms\":14},"
      "\"per_warp\":{\"comp_insts\":9,\"coal_mem_insts\":1,\"uncoal_mem_insts\":0,"
      "\"fp_insts\":0,\"synch_insts\":1},"
      "\"memory\":{\"avg_trans_warp\":1,\"miss_ratio\":1}",
      gpu_json, &warnings);
  assert_int_equal(warnings, 5);
  assert_close(T(F_SYNC), 2816, 1e-9);
  assert_close(T(O_SYNC), 2816, 1e-9);
  assert_close(T(T_COMP), 2996, 1e-9);
  assert_close(T(F_OVERLAP), 0, 0);
  assert_close(T(T_OVERLAP), 0, 0);
  assert_close(T(T_MEM), 458, 1e-9);
  assert_close(r.cycles, 3454, 1e-9);
  assert_close(T(B_ITILP), 170, 1e-9);
  assert_close(T(B_SERIAL), 2816, 1e-9);
  assert_close(T(B_FP), 10, 1e-9);
  ws_model_result_free(&r);
}

/* No global memory instructions: T_mem = 0, so avg_trans_warp and the miss
 * ratio are never needed.  N = 24, W = 48, ITILP = 18:
 * T_exec = T_comp = W_parallel = 100 × 48 × 18/18 = 4800. */
static void no_memory(void **state) {
  (void)state;
  ws_model_result r = run(
      "\"launch\":{\"grid\":[84,1,1],\"block\":[256,1,1]},"
      "\"occupancy\":{\"active_blocks_per_sm\":3,\"active_sms\":14},"
      "\"per_warp\":{\"comp_insts\":100,\"coal_mem_insts\":0,\"uncoal_mem_insts\":0,"
      "\"fp_insts\":50,\"sfu_insts\":0,\"synch_insts\":0,\"divergent_extra_insts\":0,"
      "\"bank_conflict_replays\":0},"
      "\"parallelism\":{\"ilp\":1,\"mlp\":1}",
      gpu_json, NULL);
  assert_close(T(T_MEM), 0, 0);
  assert_close(r.cycles, 4800, 1e-9);
  ws_model_result_free(&r);
}

static int has_missing(const ws_model_result *r, const char *path) {
  for (size_t i = 0; i < r->nmissing; i++)
    if (strcmp(r->missing[i], path) == 0) return 1;
  return 0;
}

/* Absent inputs are listed by name, from the profile and from the GPU. */
static void missing_inputs(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(predict(&r, &d,
                           "\"launch\":{\"grid\":[14,1,1],\"block\":[32,1,1]},"
                           "\"per_warp\":{\"comp_insts\":9,\"coal_mem_insts\":1,\"uncoal_mem_insts\":0}",
                           gpu_bare_json),
                   WS_EMISSING);
  assert_true(has_missing(&r, "per_warp.fp_insts"));
  assert_true(has_missing(&r, "memory.avg_trans_warp"));
  /* The bare GPU has no cache for global data: every transaction reaches
   * DRAM, so the miss ratio is 1 and not missing. */
  assert_false(has_missing(&r, "memory.miss_ratio"));
  assert_true(has_missing(&r, "gpu bare: models.gpuperf.dram_lat"));
  assert_true(has_missing(&r, "gpu bare: models.gpuperf.delta"));
  assert_true(has_missing(&r, "gpu bare: models.gpuperf.fp_lat"));
  assert_true(has_missing(&r, "gpu bare: models.gpuperf.transaction_bytes"));
  /* simd_width falls back to cores_per_sm, which the bare GPU has. */
  assert_false(has_missing(&r, "gpu bare: models.gpuperf.simd_width"));
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "gpuperf: needs per_warp.fp_insts, which is missing"));
  free(s);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* On a GPU that caches global data the miss ratio cannot be assumed. */
static void missing_miss_ratio_with_caches(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(predict(&r, &d,
                           "\"launch\":{\"grid\":[14,1,1],\"block\":[32,1,1]},"
                           "\"per_warp\":{\"comp_insts\":9,\"coal_mem_insts\":1,\"uncoal_mem_insts\":0,"
                           "\"fp_insts\":0},\"memory\":{\"avg_trans_warp\":1}",
                           gpu_json),
                   WS_EMISSING);
  assert_int_equal(r.nmissing, 1);
  assert_true(has_missing(&r, "memory.miss_ratio"));
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* Counts too large for a double: an error, never an infinite prediction. */
static void overflow_rejected(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(predict(&r, &d,
                           "\"launch\":{\"grid\":[14,1,1],\"block\":[32,1,1]},"
                           "\"per_warp\":{\"comp_insts\":1e308,\"coal_mem_insts\":1e308,\"uncoal_mem_insts\":0,"
                           "\"fp_insts\":1},\"memory\":{\"avg_trans_warp\":1,\"miss_ratio\":1}",
                           gpu_json),
                   WS_EINVAL);
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "gpuperf: the prediction is not a finite number"));
  free(s);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* More SFU and divergent instructions than instructions: rejected. */
static void no_instructions_left(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(predict(&r, &d,
                           "\"launch\":{\"grid\":[14,1,1],\"block\":[32,1,1]},"
                           "\"per_warp\":{\"comp_insts\":5,\"coal_mem_insts\":0,\"uncoal_mem_insts\":0,"
                           "\"fp_insts\":0,\"sfu_insts\":5}",
                           gpu_json),
                   WS_EINVAL);
  char *s = ws_diag_format(&d);
  assert_non_null(strstr(s, "no instructions per warp"));
  free(s);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* Every database GPU with a models.gpuperf section has all the keys the
 * model reads (a guard against the two drifting apart): case A runs. */
static void database_gpus(void **state) {
  (void)state;
  char buf[2048];
  ws_profile *p = ws_test_profile(profile_text(buf, case_a));
  int seen = 0;
  for (size_t i = 0; i < ws_gpu_db_count(); i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, ws_gpu_db_name(i), &d), &d);
    if (isfinite(ws_gpu_param_or(g, "gpuperf", "dram_lat", NAN))) {
      ws_model_result r = WS_MODEL_RESULT_INIT;
      assert_ok_diag(ws_model_predict(&r, "gpuperf", p, g, &d), &d);
      assert_true(r.cycles > 0);
      ws_model_result_free(&r);
      seen++;
    }
    ws_diag_free(&d);
    ws_gpu_free(g);
  }
  assert_true(seen >= 1); /* at least Tesla C2050, the paper's GPU */
  ws_profile_free(p);
}

/* A compute-only kernel of `fma` FP instructions and `sfu` SFU instructions
 * per warp, one warp per block, `n` blocks resident per SM, 48 warps per SM
 * in all (672 blocks on 14 SMs).  The occupancy is given, so the hardware's
 * limit of 8 resident blocks does not enter: this varies N alone. */
static ws_model_result compute_kernel(int n, double ilp, double fma, double sfu) {
  char body[1024];
  snprintf(body, sizeof body,
           "\"launch\":{\"grid\":[672,1,1],\"block\":[32,1,1]},"
           "\"occupancy\":{\"active_blocks_per_sm\":%d,\"active_sms\":14},"
           "\"per_warp\":{\"comp_insts\":%g,\"coal_mem_insts\":0,\"uncoal_mem_insts\":0,"
           "\"fp_insts\":%g,\"sfu_insts\":%g,\"synch_insts\":0,\"divergent_extra_insts\":0,"
           "\"bank_conflict_replays\":0},\"parallelism\":{\"ilp\":%g,\"mlp\":1}",
           n, fma + sfu, fma, sfu, ilp);
  return run(body, gpu_json, NULL);
}

/*
 * Section 6.1, Figure 6: on Tesla C2050 more ILP or TLP stops helping once
 * ITILP reaches the pipeline's needs.  In the model ITILP = min(ILP × N, 18),
 * so the time of a compute-only kernel falls with N until ILP × N >= 18
 * (N = 18, 9, 6 for ILP = 1, 2, 3; the paper measured the knee at 18, 10 and
 * 8 warps) and is flat after it, where B_itilp = 0.
 * With 100 instructions and W = 48: T_exec = 100 × 48 × 18 / min(ILP × N, 18),
 * e.g. ILP 1, N 9: 9600; N >= 18: 4800. */
static void itilp_saturation(void **state) {
  (void)state;
  for (int ilp = 1; ilp <= 3; ilp++) {
    for (int n = 1; n <= 32; n++) {
      ws_model_result r = compute_kernel(n, ilp, 100, 0);
      double expect = 100.0 * 48 * 18 / fmin(ilp * n, 18.0);
      assert_close(r.cycles, expect, 1e-9);
      if (ilp * n >= 18) {
        assert_close(T(B_ITILP), 0, 1e-9);
        assert_close(r.cycles, 4800, 1e-9);
      } else {
        assert_true(T(B_ITILP) > 0);
      }
      ws_model_result_free(&r);
    }
  }
  ws_model_result r = compute_kernel(9, 1, 100, 0);
  assert_close(r.cycles, 9600, 1e-9);
  ws_model_result_free(&r);
}

/*
 * Section 6.1, Figure 8: the cost of SFU instructions "is almost hidden when
 * there is one SFU instruction per eight FMA instructions" and grows beyond.
 * C2050 has SFU_width / SIMD_width = 4/32 = 1/8, so with 8 FMAs:
 *   1 SFU: F_SFU = max(1/8 - 1/8, 0) = 0 -> O_SFU = 0
 *   2 SFU: F_SFU = 2/8 - 1/8 = 0.125; O_SFU = 2 × 48 × (32/4) × 0.125 = 96
 *   4 SFU: F_SFU = 4/8 - 1/8 = 0.375; O_SFU = 4 × 48 × 8 × 0.375 = 576
 * (N = 24: ITILP = 18, W_parallel = 8 × 48 = 384 in each case.) */
static void sfu_hidden_at_one_per_eight(void **state) {
  (void)state;
  const double sfu[] = {1, 2, 4}, f[] = {0, 0.125, 0.375}, o[] = {0, 96, 576};
  for (int i = 0; i < 3; i++) {
    ws_model_result r = compute_kernel(24, 1, 8, sfu[i]);
    assert_close(T(W_PARALLEL), 384, 1e-9);
    assert_close(T(F_SFU), f[i], 1e-12);
    assert_close(T(O_SFU), o[i], 1e-9);
    assert_close(T(B_SERIAL), o[i], 1e-9);
    assert_close(r.cycles, 384 + o[i], 1e-9);
    ws_model_result_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zeta1_itilp_max_fsfu0),
      cmocka_unit_test(zeta0_itilp_below_fsfu1),
      cmocka_unit_test(sync_one_warp),
      cmocka_unit_test(no_memory),
      cmocka_unit_test(missing_inputs),
      cmocka_unit_test(missing_miss_ratio_with_caches),
      cmocka_unit_test(no_instructions_left),
      cmocka_unit_test(overflow_rejected),
      cmocka_unit_test(database_gpus), cmocka_unit_test(hit_latency_l2_first),
      cmocka_unit_test(itilp_saturation),
      cmocka_unit_test(sfu_hidden_at_one_per_eight),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
