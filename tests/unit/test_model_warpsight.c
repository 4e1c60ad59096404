/*
 * test_model_warpsight.c — the warpsight model's terms (src/model/warpsight.c,
 * docs/models/warpsight.md) and the physical floors (src/model/floors.c) on a
 * hand-written profile and GPU, every value worked out by hand below.
 *
 * GPU (inline): CC 3.0, 8 SMs, 32 SFUs per SM, 1 GHz, 100 GB/s; latencies
 *   L1 30, L2 200, DRAM 400; warpsight: issue_rate 4, lsu_rate 1,
 *   l2_bytes_per_slice 256 (no bus width or slices given: one slice, so
 *   the whole chip's 256 B/cycle), dram_efficiency 0.8, alu_latency_scale 1.5,
 *   mem_latency_scale 1, overlap_p 4, launch_us 2, barrier_cycles 20,
 *   atomic_cycles 1, atomic_lane_cycles 0.25, fp64_lanes_per_sm 8, block_cycles 10,
 *   divergence_penalty 1, partition_camping 1 (given: CC 3.0 would derive
 *   Kepler's fitted constant).
 * Launch: 64 blocks x 256 threads = 8 warps per block, 512 warps.  CC 3.0
 *   holds 8 blocks of 256 threads per SM (2048 threads), the grid gives
 *   ceil(64 / 8) = 8 per SM: blocks_per_sm 8, active 8, waves 1, 64 warps
 *   on the busiest SM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

#define P(v) "{\"value\":" #v ",\"source\":\"test\"}"
static const char gpu_fmt[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t-kepler\",\"compute_capability\":\"3.0\","
    "\"sms\":8,\"cores_per_sm\":192,\"sfu_per_sm\":32,\"clock_ghz\":1.0,\"mem_bandwidth_gbs\":100,%s"
    "\"latencies\":{\"dram\":400,\"l2\":200,\"l1\":30},"
    "\"models\":{\"warpsight\":{\"issue_rate\":%s,\"lsu_rate\":" P(1)
    ",\"l2_bytes_per_slice\":" P(256) ",\"dram_efficiency\":" P(0.8)
    ",\"alu_latency_scale\":" P(1.5) ",\"mem_latency_scale\":" P(1) ",\"overlap_p\":" P(4)
    ",\"launch_us\":" P(2) ",\"barrier_cycles\":" P(20) ",\"atomic_cycles\":" P(1)
    ",\"atomic_lane_cycles\":" P(0.25)
    ",\"fp64_lanes_per_sm\":" P(8) ",\"block_cycles\":" P(10)
    ",\"divergence_penalty\":" P(1) ",\"partition_camping\":" P(1) "}}}";

/* The launch of the header; `trans` sectors per request, `more` memory
 * members, `pw` more per_warp members. */
#define PROFILE_PW(trans, more, pw)                                                           \
  "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","                                     \
  "\"launch\":{\"grid\":[64,1,1],\"block\":[256,1,1]},"                                       \
  "\"per_warp\":{\"comp_insts\":90,\"coal_mem_insts\":10,\"uncoal_mem_insts\":0," pw          \
  "\"synch_insts\":2,\"sfu_insts\":2,\"fp64_insts\":0,\"shared_mem_insts\":8,"                \
  "\"bank_conflict_replays\":4},"                                                             \
  "\"memory\":{\"avg_trans_warp\":" #trans ",\"load_bytes_per_warp\":128,\"l1_hit_ratio\":0," \
  "\"l2_hit_ratio\":0.5,\"dram_read_bytes\":1000000,\"dram_write_bytes\":280000,"             \
  "\"l2_sectors_per_warp\":40" more "},"                                                      \
  "\"dependencies\":{\"path_mem_loads\":3,\"path_cycles\":500}}"

#define PROFILE(trans, more) PROFILE_PW(trans, more, "")

static const char profile_json[] = PROFILE(4, "");

/* The same launch with scattered requests (32 sectors for 128 bytes) whose
 * DRAM sectors crowd into few partitions (imbalance 3). */
static const char profile_camped_json[] =
    PROFILE(32, ",\"dram_partition_imbalance\":3,\"lines_per_request\":32");

static ws_model_result run_gpu(const char *prof, const char *facts, const char *issue_rate, ws_floors *fl) {
  char gj[4096];
  snprintf(gj, sizeof gj, gpu_fmt, facts, issue_rate);
  ws_profile *p = ws_test_profile(prof);
  ws_gpu *g = ws_test_gpu(gj);
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_ok_diag(ws_model_predict(&r, "warpsight", p, g, &d), &d);
  if (fl) assert_int_equal(ws_model_floors_compute(fl, p, g), WS_OK);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
  return r;
}

static ws_model_result run_on(const char *prof, const char *issue_rate, ws_floors *fl) {
  return run_gpu(prof, "", issue_rate, fl);
}

static ws_model_result run(const char *issue_rate, ws_floors *fl) {
  return run_on(profile_json, issue_rate, fl);
}

#define T(id) ws_model_term_value(&r, WS_TERM_WARPSIGHT_##id)

/* C1 issue  = (100 insts + 4 replays) / 4 = 26 cycles per warp
 * C2 SFU    = 2 x 32 / 32 = 2;  C3 FP64 = 0
 * C4 LSU    = (10 requests x 4 sectors / 4 + 8 shared + 4 replays) / 1 = 22
 * C5 t_sm   = 64 warps x max(26, 2, 0, 22) = 1664
 * M1 t_l2   = 40 x 512 warps x 32 B / 256 = 2560
 * M3 scatter = 1 - (128 B / 32) / 4 sectors = 0 (coalesced)
 * M2 t_dram = 1 280 000 B / (100 GB/s x 0.8) x 1 GHz x (1 + 1 x 0) = 16000
 * L1 latency = 0.5 x 200 + 0.5 x 400 = 300
 * L2 path   = 3 x 300 + 500 x 1.5 = 1650;
 * L2b block issue (the kernel has barriers) = 8 warps x 26 = 208
 * L3 t_latency = 1 wave x (1650 + 208 + 2 barriers x 20 + 10) = 1908
 * T1 core   = 16000 x (1 + 0.104^4 + 0.16^4 + 0.11925^4)^(1/4) = 16003.896857
 *    cycles = 2 us x 1 GHz + core = 18003.896857;  time = 0.018003896857 ms. */
static void terms_by_hand(void **state) {
  (void)state;
  ws_model_result r = run(P(4), NULL);
  assert_close(T(BLOCKS_PER_SM), 8, 0);
  assert_close(T(ACTIVE_BLOCKS_PER_SM), 8, 0);
  assert_close(T(WAVES), 1, 0);
  assert_close(T(ISSUE_CYCLES_PER_WARP), 26, 1e-12);
  assert_close(T(SFU_CYCLES_PER_WARP), 2, 1e-12);
  assert_close(T(LSU_CYCLES_PER_WARP), 22, 1e-12);
  assert_close(T(T_SM), 1664, 1e-9);
  assert_close(T(T_L2), 2560, 1e-9);
  assert_close(T(SCATTER), 0, 0);
  assert_close(T(T_DRAM), 16000, 1e-6);
  assert_close(T(T_ATOMIC), 0, 0);
  assert_close(T(LOAD_LATENCY), 300, 1e-9);
  assert_close(T(PATH_CYCLES_PER_WAVE), 1650, 1e-9);
  assert_close(T(BLOCK_ISSUE_CYCLES), 208, 1e-9);
  assert_close(T(T_LATENCY), 1908, 1e-9);
  assert_close(T(T_OVERLAPPED), 16003.896857, 1e-5);
  assert_close(r.cycles, 18003.896857, 1e-5);
  assert_close(r.time_ms, 0.018003896857, 1e-11);
  assert_int_equal(r.bound, WS_BOUND_WARPSIGHT_DRAM);
  assert_non_null(strstr(ws_model_limiter(&r), "DRAM"));
  ws_model_result_free(&r);
}

/* An issue rate above the peak dispatch (8 per SM per cycle on CC 3.0) is
 * capped: C1 = 104 / 8 = 13.  Floors of the launch: DRAM 1 280 000 B /
 * 100 GB/s = 0.0128 ms; issue 100 x 512 / (8 SMs x 8 x 1 GHz) = 0.0008 ms.
 * The prediction is above both; 0.01 ms would be below the DRAM floor
 * (0.78x), 0.0005 ms below both, reported as the DRAM one (the larger
 * shortfall: 0.039x against 0.625x). */
static void issue_cap_and_floors(void **state) {
  (void)state;
  ws_floors fl;
  ws_model_result r = run(P(100), &fl);
  assert_close(T(ISSUE_RATE), 8, 0);
  assert_close(T(ISSUE_CYCLES_PER_WARP), 13, 1e-12);
  assert_close(fl.dram_ms, 0.0128, 1e-15);
  assert_close(fl.issue_ms, 0.0008, 1e-15);
  assert_close(fl.issue_per_cycle, 8, 0);
  char buf[256];
  assert_null(ws_model_floors_check(buf, sizeof buf, &fl, r.time_ms));
  const char *why = ws_model_floors_check(buf, sizeof buf, &fl, 0.01);
  assert_non_null(why);
  assert_non_null(strstr(why, "below the DRAM floor"));
  assert_non_null(strstr(why, "0.78x"));
  why = ws_model_floors_check(buf, sizeof buf, &fl, 0.0005);
  assert_non_null(strstr(why, "DRAM"));
  assert_close(ws_model_floor_issue_rate(2, 0), 2, 0);
  assert_close(ws_model_floor_issue_rate(7, 0), 4, 0);
  ws_model_result_free(&r);
}

/* [M4] partition camping, partition_camping 1: scatter = 1 - (128 / 32) / 32 = 0.875; camping factor =
 * 1 + 1 x 0.875 x (3 - 1) = 2.75; t_dram = 16000 x (1 + 1 x 0.875) x 2.75
 * = 82500 cycles.  [M1b] CC 3.0 derives l2_request_bytes 128: 32 lines of
 * 128 B for 32 sectors of 32 B, request factor 32 x 128 / (32 x 32) = 4,
 * t_l2 = 2560 x 4 = 10240.  A profile without the figures (terms_by_hand)
 * keeps both factors at 1. */
static void partition_camping_by_hand(void **state) {
  (void)state;
  ws_model_result r = run_on(profile_camped_json, P(4), NULL);
  assert_close(T(SCATTER), 0.875, 1e-12);
  assert_close(T(PARTITION_IMBALANCE), 3, 0);
  assert_close(T(PARTITION_CAMPING), 1, 0);
  assert_close(T(CAMPING_FACTOR), 2.75, 1e-12);
  assert_close(T(T_DRAM), 82500, 1e-6);
  assert_close(T(L2_REQUEST_BYTES), 128, 0);
  assert_close(T(L2_REQUEST_FACTOR), 4, 1e-12);
  assert_close(T(T_L2), 10240, 1e-9);
  ws_model_result_free(&r);
  r = run(P(4), NULL);
  assert_close(T(PARTITION_IMBALANCE), 1, 0);
  assert_close(T(CAMPING_FACTOR), 1, 0);
  assert_close(T(L2_REQUEST_FACTOR), 1, 0);
  ws_model_result_free(&r);
}

/* [A1] atomics by address conflicts, on the header's launch (512 warps)
 * and GPU with 4 L2 slices (cache.l2_slices: atomic_units 4),
 * atomic_cycles 1 per update of an address, atomic_lane_cycles 0.25 per
 * lane operation in it.  One atomic request per warp:
 *   32 lanes on one counter shared by the launch: serial 32 per request,
 *     32 lanes per update, the counter takes 512 x 32 = 16384 operations in
 *     512 updates: chain 512 x 1 + 16384 x 0.25 = 4608, spread 32 x 512 / 4
 *     = 4096, t_atomic 4608;
 *   32 lanes on a counter of their warp's: the hottest address takes 32
 *     operations in 1 update: chain 1 + 8 = 9, spread 4096, t_atomic 4096;
 *   32 lanes on 32 addresses (atomicAdd(&c[i], 1)): serial 1, 1 lane per
 *     update, chain 1 + 0.25 = 1.25, spread 512 / 4 = 128, t_atomic 128 --
 *     where the model charged every request serially before (512 x 1 x 1 =
 *     512 on one unit, and 2^24 such lanes on an A100 374.5 us against the
 *     110.2 us measured). */
#define ATOMIC_PROFILE(serial, addrs, hot)                                                    \
  "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","                                     \
  "\"launch\":{\"grid\":[64,1,1],\"block\":[256,1,1]},"                                       \
  "\"per_warp\":{\"comp_insts\":10,\"coal_mem_insts\":1,\"uncoal_mem_insts\":0,"              \
  "\"global_atomic_insts\":1,\"global_atomic_serial\":" #serial "},"                          \
  "\"memory\":{\"global_atomic_addresses_per_request\":" #addrs                                \
  ",\"global_atomic_max_address_ops\":" #hot "}}"

static void atomics_by_conflicts(void **state) {
  (void)state;
  static const struct {
    const char *prof;
    double chain, spread;
  } cases[] = {
      {ATOMIC_PROFILE(32, 1, 16384), 4608, 4096},
      {ATOMIC_PROFILE(32, 1, 32), 9, 4096},
      {ATOMIC_PROFILE(1, 32, 1), 1.25, 128},
  };
  char gj[4096];
  snprintf(gj, sizeof gj, gpu_fmt, "\"cache\":{\"l2_slices\":" P(4) "},", P(4));
  ws_gpu *g = ws_test_gpu(gj);
  for (size_t i = 0; i < 3; i++) {
    ws_profile *p = ws_test_profile(cases[i].prof);
    ws_diag d = WS_DIAG_INIT;
    ws_model_result r = WS_MODEL_RESULT_INIT;
    assert_ok_diag(ws_model_predict(&r, "warpsight", p, g, &d), &d);
    assert_close(T(ATOMIC_UNITS), 4, 0);
    assert_close(T(ATOMIC_CHAIN), cases[i].chain, 1e-9);
    assert_close(T(ATOMIC_SPREAD), cases[i].spread, 1e-9);
    assert_close(T(T_ATOMIC), cases[i].chain > cases[i].spread ? cases[i].chain : cases[i].spread, 1e-9);
    ws_model_result_free(&r);
    ws_diag_free(&d);
    ws_profile_free(p);
  }
  ws_gpu_free(g);
}

/* Whole-chip throughputs follow the board's own facts: the same constants
 * on a board with a 256-bit GDDR bus (cache.l2_slices derived: 256 / 32 =
 * 8 slices, one per 32-bit controller) and a sustained clock of 0.8 GHz
 * (the data-sheet 1 GHz stays in clock_ghz):
 *   l2_bytes_per_cycle = 256 x 8 = 2048;  M1 t_l2 = 40 x 512 x 32 / 2048 = 320
 *   M2 t_dram = 1 280 000 B / (100 GB/s x 0.8) x 0.8 GHz = 12800 cycles
 *   C5 t_sm 1664 and L3 t_latency 1908 as in terms_by_hand (cycles)
 *   T1 core = 12800 x (1 + (1664/12800)^4 + (320/12800)^4 + (1908/12800)^4)^(1/4)
 *           = 12800 x (1 + 0.000285610 + 0.000000391 + 0.000493711)^(1/4)
 *           = 12802.494351
 *   launch  = 2 us x 0.8 GHz = 1600 cycles;  cycles = 14402.494351
 *   time    = 14402.494351 / 0.8 GHz = 0.018003117939 ms
 * (at 1 GHz with one slice: 0.018003896857 ms, terms_by_hand). */
static void board_scaling_by_hand(void **state) {
  (void)state;
  ws_model_result r = run_gpu(profile_json,
                              "\"sustained_clock_ghz\":0.8,\"memory\":{\"bus_bits\":" P(256)
                              ",\"type\":{\"value\":\"GDDR5\",\"source\":\"test\"}},",
                              P(4), NULL);
  assert_close(T(L2_BYTES_PER_CYCLE), 2048, 1e-9);
  assert_close(T(ATOMIC_UNITS), 8, 0);
  assert_close(T(T_L2), 320, 1e-9);
  assert_close(T(T_DRAM), 12800, 1e-6);
  assert_close(T(CLOCK_GHZ), 0.8, 0);
  assert_close(T(LAUNCH_CYCLES), 1600, 1e-9);
  assert_close(T(T_OVERLAPPED), 12802.494351, 1e-5);
  assert_close(r.cycles, 14402.494351, 1e-5);
  assert_close(r.time_ms, 0.018003117939, 1e-11);
  ws_model_result_free(&r);
}

/* [C6] the tensor pipe: 524288 FP16 (f32 accumulate) operations per warp
 * (128 m16n8k16 mma.sync of 4096), 8192 TF32 and 4096 INT8 on a GPU that
 * rates FP16 at 1024 and TF32 at 512 operations per clock per SM and gives
 * no INT8: 524288 / 1024 + 8192 / 512 = 528 cycles per warp (the INT8 ones
 * add nothing and the term's source says so), above C1's 26, so
 * t_sm = 64 x 528 = 33792 and the launch is SM-bound:
 * core = 33792 x (1 + (2560/33792)^4 + (16000/33792)^4 + (1908/33792)^4)^(1/4)
 *      = 34209.173435;  cycles = 2000 + core = 36209.173435.
 * Without tensor operations (terms_by_hand) the term is 0. */
static void tensor_pipe_by_hand(void **state) {
  (void)state;
  static const char prof[] = PROFILE_PW(4, "", "\"tensor_fp16_f32acc_ops\":524288,\"tensor_tf32_ops\":8192,"
                                              "\"tensor_int8_ops\":4096,");
  ws_model_result r = run_gpu(prof, "\"tensor\":{\"fp16_f32acc\":" P(1024) ",\"tf32\":" P(512) "},", P(4), NULL);
  assert_close(T(TENSOR_CYCLES_PER_WARP), 528, 1e-12);
  assert_close(T(T_SM), 33792, 1e-9);
  assert_close(T(T_OVERLAPPED), 34209.173435, 1e-5);
  assert_close(r.cycles, 36209.173435, 1e-5);
  assert_int_equal(r.bound, WS_BOUND_WARPSIGHT_SM);
  const char *src = NULL;
  for (size_t i = 0; i < r.nterms; i++)
    if (r.terms[i].id == WS_TERM_WARPSIGHT_TENSOR_CYCLES_PER_WARP) src = r.terms[i].equation;
  assert_non_null(src);
  assert_non_null(strstr(src, "tensor.int8"));
  ws_model_result_free(&r);
  r = run(P(4), NULL);
  assert_close(T(TENSOR_CYCLES_PER_WARP), 0, 0);
  ws_model_result_free(&r);
}

/* [C7] the FP32 lanes: the profile of the header with 80 of its 90
 * computation instructions FP32 ("fp_insts" 80, "fp64_insts" 0).  On the
 * header's GPU (192 lanes per SM) C7 = 80 x 32 / 192 = 13.33 cycles per
 * warp, under C1's 26: t_sm stays 64 x 26 = 1664.  With 64 lanes per SM (a
 * Volta, Turing or GA100 SM: two FP32 warp instructions per cycle, though
 * four schedulers dispatch four) C7 = 80 x 32 / 64 = 40, above C1 and C4:
 *   t_sm = 64 warps x 40 = 2560
 *   core = 16000 x (1 + (2560/16000)^4 + (2560/16000)^4 + (1908/16000)^4)^(1/4)
 *        = 16000 x (1 + 0.00065536 + 0.00065536 + 0.00020222)^(1/4) = 16006.048347
 *   cycles = 2000 + core = 18006.048347.
 * (Before C7 an FP32-bound kernel on a 64-lane SM was predicted at its
 * issue rate, up to twice the data sheet's FP32 peak.) */
static void fp32_lanes_by_hand(void **state) {
  (void)state;
  static const char prof[] = PROFILE_PW(4, "", "\"fp_insts\":80,");
  ws_model_result r = run_on(prof, P(4), NULL);
  assert_close(T(FP32_CYCLES_PER_WARP), 80.0 * 32 / 192, 1e-12);
  assert_close(T(T_SM), 1664, 1e-9);
  ws_model_result_free(&r);

  char gj[4096];
  snprintf(gj, sizeof gj, gpu_fmt, "", P(4));
  char *c = strstr(gj, "\"cores_per_sm\":192");
  assert_non_null(c);
  memcpy(c + 15, "64", 2);                     /* "192" -> "642" */
  memmove(c + 17, c + 18, strlen(c + 18) + 1); /* -> "64" */
  ws_profile *p = ws_test_profile(prof);
  ws_gpu *g = ws_test_gpu(gj);
  ws_diag d = WS_DIAG_INIT;
  r = (ws_model_result)WS_MODEL_RESULT_INIT;
  assert_ok_diag(ws_model_predict(&r, "warpsight", p, g, &d), &d);
  assert_close(T(FP32_CYCLES_PER_WARP), 40, 1e-12);
  assert_close(T(ISSUE_CYCLES_PER_WARP), 26, 1e-12);
  assert_close(T(T_SM), 2560, 1e-9);
  assert_close(T(T_OVERLAPPED), 16006.048347, 1e-5);
  assert_close(r.cycles, 18006.048347, 1e-5);
  ws_model_result_free(&r);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/* A kernel with FP64 instructions on a GPU without FP64 units (the
 * database's CC 1.0 and 1.1 boards) cannot run: the model says why instead
 * of charging them nothing (it predicted 8.98 ms for 2^26 FP64 FMAs on the
 * 8800 GT, where Kothapalli and Transit said "no double-precision units");
 * without FP64 instructions it runs there, and with them on the CC 1.3 GTX
 * 280. */
static void no_fp64_units(void **state) {
  (void)state;
  static const char dp[] = PROFILE_PW(4, "", "\"fp_insts\":40,");
  char *pdp = strdup(dp);
  char *z = strstr(pdp, "\"fp64_insts\":0");
  assert_non_null(z);
  z[13] = '9'; /* "fp64_insts":9 */
  ws_profile *with = ws_test_profile(pdp), *without = ws_test_profile(profile_json);
  free(pdp);
  static const char *const boards[] = {"8800gt", "8800gtx", "gtx280"};
  for (size_t i = 0; i < 3; i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, boards[i], &d), &d);
    ws_model_result r = WS_MODEL_RESULT_INIT;
    if (i < 2) {
      assert_int_equal(ws_model_predict(&r, "warpsight", with, g, &d), WS_EMISSING);
      assert_true(r.nmissing >= 1);
      assert_non_null(strstr(r.missing[0], "fp64_lanes_per_sm (the GPU has no double-precision units"));
      ws_model_result_free(&r);
      r = (ws_model_result)WS_MODEL_RESULT_INIT;
      assert_ok_diag(ws_model_predict(&r, "warpsight", without, g, &d), &d);
    } else {
      assert_ok_diag(ws_model_predict(&r, "warpsight", with, g, &d), &d);
      assert_close(T(FP64_CYCLES_PER_WARP), 9.0 * 32 / 1, 1e-12); /* CC 1.3: 1 FP64 unit per SM */
    }
    assert_true(r.cycles > 0);
    ws_model_result_free(&r);
    ws_diag_free(&d);
    ws_gpu_free(g);
  }
  ws_profile_free(with);
  ws_profile_free(without);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(terms_by_hand),
      cmocka_unit_test(partition_camping_by_hand),
      cmocka_unit_test(issue_cap_and_floors),
      cmocka_unit_test(atomics_by_conflicts),
      cmocka_unit_test(tensor_pipe_by_hand),
      cmocka_unit_test(board_scaling_by_hand),
      cmocka_unit_test(fp32_lanes_by_hand),
      cmocka_unit_test(no_fp64_units),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
