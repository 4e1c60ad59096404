/*
 * test_model_hong_kim.c — the Hong & Kim model against the paper's Table 2
 * and against hand computations of each case.
 *
 * Unless a test says otherwise the GPU is the hypothetical machine of the
 * paper's Section 3.6 (1 GHz, 80 GB/s, 16 SMs, Mem_LD 420,
 * Departure_del_uncoal 10, Departure_del_coal 4, Issue_cycles 4), written
 * inline so the test does not depend on the database file.
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

static const char gpu_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t\",\"compute_capability\":\"1.0\","
    "\"sms\":16,\"cores_per_sm\":8,\"clock_ghz\":1.0,\"mem_bandwidth_gbs\":80,"
    "\"models\":{\"hong-kim\":{\"mem_ld\":420,\"departure_del_uncoal\":10,"
    "\"departure_del_coal\":4,\"issue_cycles\":4}}}";

/* Builds a profile from the launch and the per-warp counts. */
static ws_profile *mk(int grid, int block, int abps, double comp, double coal,
                      double uncoal, double synch) {
  char buf[1024];
  snprintf(buf, sizeof buf,
           "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
           "\"launch\":{\"grid\":[%d,1,1],\"block\":[%d,1,1]},"
           "\"occupancy\":{\"active_blocks_per_sm\":%d,\"active_sms\":16},"
           "\"per_warp\":{\"comp_insts\":%g,\"coal_mem_insts\":%g,"
           "\"uncoal_mem_insts\":%g,\"synch_insts\":%g},"
           "\"memory\":{\"uncoal_per_mw\":32,\"coal_per_mw\":1,\"load_bytes_per_warp\":128}}",
           grid, block, abps, comp, coal, uncoal, synch);
  return ws_test_profile(buf);
}

static ws_model_result run(ws_profile *p, const char *gjson) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = ws_test_gpu(gjson);
  ws_model_result res = WS_MODEL_RESULT_INIT;
  assert_ok_diag(ws_model_predict(&res, "hong-kim", p, g, &d), &d);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
  return res;
}

#define T(id) ws_model_term_value(&r, WS_TERM_HONG_KIM_##id)

/* Table 2: the paper prints 50738 because it rounds MWP to 2.28 (and
 * BW_per_warp to 0.175) before the later steps.  Exactly:
 *   Mem_L = 420 + 31 x 10 = 730, Departure_delay = 32 x 10 = 320,
 *   MWP = 730 / 320 = 2.28125, Comp_cycles = 4 x 33 = 132,
 *   Mem_cycles = 730 x 6 = 4380, CWP = min(34.18, 20) = 20, #Rep = 1,
 *   Exec = 4380 x 20 / 2.28125 + 132/6 x 1.28125 = 38400 + 28.1875 = 38428.1875
 *   Synch = 320 x 1.28125 x 6 x 5 = 12300 -> total 50728.1875. */
static void table2(void **state) {
  (void)state;
  ws_model_result r = run(mk(80, 128, 5, 27, 0, 6, 6), gpu_json);
  assert_close(T(MEM_L), 730, 1e-9);
  assert_close(T(DEPARTURE_DELAY), 320, 1e-9);
  assert_close(T(MWP), 2.28125, 1e-12);
  assert_close(T(CWP), 20, 1e-12);
  assert_close(T(COMP_CYCLES), 132, 1e-9);
  assert_close(T(MEM_CYCLES), 4380, 1e-9);
  assert_close(T(REP), 1, 1e-12);
  assert_close(T(SYNCH_COST), 12300, 1e-6);
  assert_close(T(EXEC_CYCLES_APP), 38428.1875, 1e-6);
  assert_close(r.cycles, 50728.1875, 1e-6);
  assert_close(fabs(r.cycles - 50738) / 50738, 0, 1e-3); /* the paper's figure, within 0.1 % */
  assert_non_null(strstr(r.case_label, "(eq. 23)"));
  ws_model_result_free(&r);
}

/* Case (24), MWP > CWP, with MWP limited by peak bandwidth:
 * 199 comp + 1 coalesced load, N = 4 warps x 5 blocks = 20.
 *   Mem_L = 420, Departure_delay = 4, MWP_without_BW_full = 105 -> min(105, 20) = 20
 *   BW_per_warp = 1 x 128 / 420 = 0.3047619 GB/s,
 *   MWP_peak_BW = 80 / (0.3047619 x 16) = 16.40625 -> MWP = 16.40625
 *   Comp_cycles = 4 x 200 = 800, Mem_cycles = 420, CWP_full = 1220/800 = 1.525
 *   (24): (420 + 800 x 20) x 1 = 16420. */
static void case24_bandwidth(void **state) {
  (void)state;
  ws_model_result r = run(mk(80, 128, 5, 199, 1, 0, 0), gpu_json);
  assert_close(T(MWP_PEAK_BW), 16.40625, 1e-9);
  assert_close(T(MWP), 16.40625, 1e-9);
  assert_close(T(CWP), 1.525, 1e-12);
  assert_close(r.cycles, 16420, 1e-6);
  assert_non_null(strstr(r.case_label, "(eq. 24)"));
  ws_model_result_free(&r);
}

/* Case (23) with MWP_peak_BW binding: 27 comp + 6 coalesced loads, N = 20.
 *   MWP = min(min(105, 20), 16.40625, 20) = 16.40625
 *   Comp_cycles = 132, Mem_cycles = 420 x 6 = 2520, CWP = min(2652/132, 20) = 20
 *   (23): 2520 x 20 / 16.40625 + 132/6 x 15.40625 = 3072 + 338.9375 = 3410.9375 */
static void case23_bandwidth(void **state) {
  (void)state;
  ws_model_result r = run(mk(80, 128, 5, 27, 6, 0, 0), gpu_json);
  assert_close(T(MWP), 16.40625, 1e-9);
  assert_close(T(CWP), 20, 1e-12);
  assert_close(r.cycles, 3410.9375, 1e-6);
  assert_int_equal(r.bound, WS_BOUND_HONG_KIM_MEMORY_PEAK_BW);
  assert_non_null(strstr(ws_model_limiter(&r), "peak bandwidth"));
  ws_model_result_free(&r);
}

/* Case (22): one warp per SM (block of 32, 1 active block), 10 comp + 2
 * uncoalesced loads.  MWP = min(2.28125, 1) = 1 = N, CWP = min(31.4, 1) = 1 = N.
 *   Mem_cycles = 730 x 2 = 1460, Comp_cycles = 4 x 12 = 48
 *   (22): (1460 + 48 + 48/2 x 0) x (16 / (1 x 16)) = 1508; Synch = 320 x 0 x ... = 0 */
static void case22(void **state) {
  (void)state;
  ws_model_result r = run(mk(16, 32, 1, 10, 0, 2, 2), gpu_json);
  assert_close(T(MWP), 1, 0);
  assert_close(T(CWP), 1, 0);
  assert_close(r.cycles, 1508, 1e-9);
  assert_non_null(strstr(r.case_label, "(eq. 22)"));
  ws_model_result_free(&r);
}

/* Fewer warps than MWP: N = 2 (block of 64, 1 active block), 10 comp + 2
 * coalesced loads, 32 blocks on 16 SMs -> #Rep = 2.
 *   MWP_without_BW = min(105, 2) = 2, MWP_peak_BW = 16.40625 -> MWP = 2 = N
 *   Comp_cycles = 48, Mem_cycles = 840, CWP = min(888/48 = 18.5, 2) = 2 = N
 *   (22): (840 + 48 + 48/2 x 1) x 2 = 1824
 *   Synch (1 barrier): 4 x (2 - 1) x 1 x 1 x 2 = 8 -> 1832 */
static void fewer_warps_than_mwp(void **state) {
  (void)state;
  ws_model_result r = run(mk(32, 64, 1, 10, 2, 0, 1), gpu_json);
  assert_close(T(MWP_WITHOUT_BW_FULL), 105, 1e-9);
  assert_close(T(MWP), 2, 0);
  assert_close(T(REP), 2, 0);
  assert_close(T(SYNCH_COST), 8, 1e-9);
  assert_close(r.cycles, 1832, 1e-9);
  ws_model_result_free(&r);
}

/* No global memory instructions: Comp_cycles x N x #Rep = 4 x 100 x 20 x 1 = 8000. */
static void no_memory(void **state) {
  (void)state;
  ws_model_result r = run(mk(80, 128, 5, 100, 0, 0, 0), gpu_json);
  assert_close(r.cycles, 8000, 1e-9);
  assert_close(r.time_ms, 8000 / 1e6, 1e-15);
  assert_non_null(strstr(r.case_label, "no global memory"));
  ws_model_result_free(&r);
}

/* A missing input is named, not guessed. */
static void missing_input_named(void **state) {
  (void)state;
  const char *pj =
      "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\",\"launch\":{\"blocks\":8,"
      "\"threads_per_block\":64},\"per_warp\":{\"comp_insts\":5,\"coal_mem_insts\":1}}";
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  assert_int_equal(ws_test_predict(&r, &d, "hong-kim", pj, gpu_json), WS_EMISSING);
  assert_int_equal(r.nmissing, 1);
  assert_string_equal(r.missing[0], "per_warp.uncoal_mem_insts");
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table2),          cmocka_unit_test(case24_bandwidth),
      cmocka_unit_test(case23_bandwidth), cmocka_unit_test(case22),
      cmocka_unit_test(fewer_warps_than_mwp), cmocka_unit_test(no_memory),
      cmocka_unit_test(missing_input_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
