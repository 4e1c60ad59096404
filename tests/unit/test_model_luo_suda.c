/*
 * test_model_luo_suda.c — the Luo & Suda model on hand-written task
 * sequences: each of the four calculate-period types, both CPD branches, the
 * clamps of CPD1 and MPD, #Rep, tasks given as operation counts, and the
 * errors of the profile's "luo_suda" section.
 *
 * GPU parameters are the paper's GTX 260 values (a = 3, b = 11, c = 0.5,
 * d = 80, §3.4; m = 32 warps; ld/st = t_mem = 200 and add/mul register costs
 * 65 from Table 1) on a test machine of one SM at 1 GHz whose bandwidth the
 * test chooses, so that MPD is easy to compute by hand.
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

static char *gpu_json(double bw) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "{\"schema\":\"warpsight-gpu/1\",\"name\":\"ls\",\"derive\":false,\"compute_capability\":\"1.3\","
           "\"sms\":1,\"cores_per_sm\":8,\"clock_ghz\":1.0,\"mem_bandwidth_gbs\":%g,"
           "\"models\":{\"luo-suda\":{\"a\":3,\"b\":11,\"c\":0.5,\"d\":80,\"m\":32,"
           "\"t_mem\":200,\"inst_costs\":{\"add.int_reg\":65,\"mul.float_reg\":65,"
           "\"ld_st\":200}}}}",
           bw);
  return buf;
}

/* A profile with `blocks` blocks of `threads` threads, `abps` active blocks
 * on the single SM, and extra top-level members `rest`. */
static int run(ws_model_result *r, ws_diag *d, int blocks, int threads, int abps,
               double bw, const char *rest) {
  char buf[4096];
  snprintf(buf, sizeof buf,
           "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
           "\"launch\":{\"grid\":[%d,1,1],\"block\":[%d,1,1]},"
           "\"occupancy\":{\"active_blocks_per_sm\":%d,\"active_sms\":1}%s%s}",
           blocks, threads, abps, rest[0] ? "," : "", rest);
  return ws_test_predict(r, d, "luo-suda", buf, gpu_json(bw)); /* the section is checked at load */
}

#define T(id) ws_model_term_value(&r, WS_TERM_LUO_SUDA_##id)

/*
 * All four period types, CPD1 branch.  One block of 128 threads: N_act = 4.
 * P = 0.25 (given): CPD1 = (0.5 - 0.25)(4 - 11) + 3 = 1.25                 (3)
 *   n = 80 (0.25 - 0.5)^2 = 5; CPD2 = 5 sqrt(31^2 - (4 - 32)^2) / 31 + 3
 *       = 5 sqrt(177) / 31 + 3 = 5.1458                                   (4)-(5)
 *   CPD = min(1.25, 5.1458) = 1.25 (CPD1)
 * MPD: Warp_bwt = 32 × 4 / (1 × 200) = 0.64 B/cycle; GPU_bwt = 5.12 GB/s at
 *   1 GHz = 5.12 B/cycle; MPD = min(4, floor(5.12 / (4 × 1 × 0.64))) = 2   (1)-(2)
 *   so floor(N_act/MPD - 1) = 1 in (10) and (12).
 * Periods (c, m):
 *   (101, 0)   first, c >= m: type 1: ceil(4 × 101 / 1.25) = ceil(323.2) = 324 (6)
 *   (40, 400)  prev short, c < m: type 2: 128 + max(400 - 3 × 40, 0) = 408     (7)-(8)
 *   (20, 500)  prev long, c < m: type 4: 64 + Tp + Tc,                          (11)-(13)
 *              Tp = max(400 × 1 - 3 × 20, 0) = 340, Tc = max(500 - (60 + 340), 0) = 100 -> 504
 *   (20, 500)  repeated, prev (20, 500): type 4: Tp = 500 - 60 = 440,
 *              Tc = max(500 - (60 + 440), 0) = 0 -> 504
 *   (150, 50)  prev long, c >= m: type 3: 480 + max(500 × 1 - 3 × 150, 0) = 530 (9)-(10)
 * Round: 324 + 408 + 504 + 504 + 530 = 2270 cycles; #Rep = 1.
 * Computation 324 + 128 + 64 + 64 + 480 = 1060 < waiting 280 + 440 + 440 + 50 = 1210. */
static void four_period_types(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  int st = run(&r, &d, 1, 128, 1, 5.12,
               "\"luo_suda\":{\"computation_proportion\":0.25,"
               "\"mem\":{\"bytes_per_thread\":4,\"transactions\":1},"
               "\"tasks\":[{\"comp_cycles\":101,\"mem_cycles\":0},"
               "{\"comp_cycles\":40,\"mem_cycles\":400},"
               "{\"comp_cycles\":20,\"mem_cycles\":500,\"repeat\":2},"
               "{\"comp_cycles\":150,\"mem_cycles\":50}]}");
  assert_ok_diag(st, &d);
  assert_close(T(N_ACT), 4, 0);
  assert_close(T(P), 0.25, 0);
  assert_close(T(CPD1), 1.25, 1e-12);
  assert_close(T(CPD2), 5 * sqrt(177) / 31 + 3, 1e-12);
  assert_close(T(CPD), 1.25, 1e-12);
  assert_close(T(WARP_BWT), 0.64, 1e-12);
  assert_close(T(GPU_BWT), 5.12, 1e-12);
  assert_close(T(MPD), 2, 0);
  assert_close(T(PERIODS_TYPE1), 1, 0);
  assert_close(T(T_TYPE1), 324, 0);
  assert_close(T(PERIODS_TYPE2), 1, 0);
  assert_close(T(T_TYPE2), 408, 0);
  assert_close(T(PERIODS_TYPE3), 1, 0);
  assert_close(T(T_TYPE3), 530, 0);
  assert_close(T(PERIODS_TYPE4), 2, 0);
  assert_close(T(T_TYPE4), 1008, 0);
  assert_close(T(T_COMP), 1060, 0);
  assert_close(T(T_WAIT), 1210, 0);
  assert_close(T(REP), 1, 0);
  assert_close(r.cycles, 2270, 0);
  assert_close(r.time_ms, 0.00227, 1e-15);
  assert_non_null(strstr(r.case_label, "CPD1"));
  assert_int_equal(r.bound, WS_BOUND_LUO_SUDA_MEMORY);
  assert_string_equal(ws_model_limiter(&r), "memory waiting (MPD)");
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/*
 * CPD2 branch and #Rep.  8 blocks of 256 threads, 4 active on the one SM:
 * N_act = 32, #Rep = 8 / (4 × 1) = 2.  P = 0.25:
 *   CPD1 = 0.25 × (32 - 11) + 3 = 8.25; CPD2 = 5 × sqrt(31^2 - 0) / 31 + 3 = 8
 *   CPD = 8 (CPD2).  Three periods (100, 0): type 1, ceil(32 × 100 / 8) = 400 each.
 * Round 1200 cycles, launch 2 × 1200 = 2400.  No memory task, so no memory
 * inputs are needed. */
static void cpd2_branch_and_rep(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  int st = run(&r, &d, 8, 256, 4, 5.12,
               "\"luo_suda\":{\"computation_proportion\":0.25,"
               "\"tasks\":[{\"comp_cycles\":100,\"mem_cycles\":0,\"repeat\":3}]}");
  assert_ok_diag(st, &d);
  assert_close(T(N_ACT), 32, 0);
  assert_close(T(CPD1), 8.25, 1e-12);
  assert_close(T(CPD2), 8, 1e-12);
  assert_close(T(CPD), 8, 1e-12);
  assert_close(T(PERIODS_TYPE1), 3, 0);
  assert_close(T(T_ROUND), 1200, 0);
  assert_close(T(REP), 2, 0);
  assert_close(r.cycles, 2400, 0);
  assert_non_null(strstr(r.case_label, "CPD2"));
  assert_int_equal(r.bound, WS_BOUND_LUO_SUDA_COMPUTE);
  assert_string_equal(ws_model_limiter(&r), "computation (CPD)");
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/*
 * P computed from the tasks, a task given as operation counts, the memory
 * inputs taken from the profile's scalar fields, and MPD clamped at 1.
 * Task: 2 add.int_reg + 1 mul.float_reg = 3 × 65 = 195 cycles; 1 ld/st = 200.
 * P = 195 / 395.  N_act = 4:
 *   CPD1 = (0.5 - 195/395)(4 - 11) + 3 = 3 - 7 × 2.5/395 = 2.9556962
 *   CPD2 = 80 (2.5/395)^2 sqrt(177) / 31 + 3 = 3.0013753 -> CPD = CPD1
 * D_mem = 128 B per warp / 32 = 4, N_trans = 1: Warp_bwt = 0.64; at 1 GB/s,
 *   MPD = min(4, floor(1 / (4 × 0.64))) = floor(0.39) = 0 -> clamped to 1.
 * The one period has c = 195 < m = 200: type 2,
 *   ceil(4 × 195 / 2.9556962) = ceil(263.897) = 264, Tc = max(200 - 3 × 195, 0) = 0. */
static void ops_and_computed_p(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  int st = run(&r, &d, 1, 128, 1, 1.0,
               "\"memory\":{\"load_bytes_per_warp\":128,\"avg_trans_warp\":1},"
               "\"luo_suda\":{\"tasks\":[{\"ops\":{\"add.int_reg\":2,\"mul.float_reg\":1},"
               "\"mem_insts\":1}]}");
  assert_ok_diag(st, &d);
  assert_close(T(P), 195.0 / 395.0, 1e-15);
  assert_close(T(CPD1), 3 - 7 * 2.5 / 395, 1e-12);
  assert_close(T(CPD), 2.9556962, 1e-7);
  assert_close(T(MPD_RAW), 0, 0);
  assert_close(T(MPD), 1, 0);
  assert_close(T(PERIODS_TYPE2), 1, 0);
  assert_close(r.cycles, 264, 0);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/*
 * CPD1 below 1 is clamped.  One warp (N_act = 1), P = 0.25:
 *   CPD1 = 0.25 × (1 - 11) + 3 = 0.5 -> 1; CPD2 = 5 × sqrt(31^2 - 31^2)/31 + 3 = 3
 *   CPD = 1; one period (10, 0): ceil(1 × 10 / 1) = 10.
 * A computation-heavy kernel (P = 0.9 > c) at N_act = 32 shows the literal
 * min{CPD1, CPD2} reading: CPD1 = -0.4 × 21 + 3 = -5.4 -> 1, CPD2 = 80 × 0.16 + 3
 * = 15.8, CPD = 1: ceil(32 × 10 / 1) = 320. */
static void cpd1_clamped(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  int st = run(&r, &d, 1, 32, 1, 5.12,
               "\"luo_suda\":{\"computation_proportion\":0.25,"
               "\"tasks\":[{\"comp_cycles\":10}]}");
  assert_ok_diag(st, &d);
  assert_close(T(CPD1_RAW), 0.5, 1e-12);
  assert_close(T(CPD1), 1, 0);
  assert_close(T(CPD2), 3, 1e-12);
  assert_close(T(CPD), 1, 0);
  assert_close(r.cycles, 10, 0);
  ws_model_result_free(&r);

  st = run(&r, &d, 4, 256, 4, 5.12,
           "\"luo_suda\":{\"computation_proportion\":0.9,"
           "\"tasks\":[{\"comp_cycles\":10}]}");
  assert_ok_diag(st, &d);
  assert_close(T(CPD1_RAW), -5.4, 1e-12);
  assert_close(T(CPD2), 15.8, 1e-12);
  assert_close(T(CPD), 1, 0);
  assert_close(r.cycles, 320, 0);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

static void expect(int status, const char *rest, const char *msg) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(run(&r, &d, 1, 128, 1, 5.12, rest), status);
  char *s = ws_diag_format(&d);
  if (!strstr(s, msg)) {
    print_error("diagnostics:\n%s\nlack: %s\n", s, msg);
    fail();
  }
  free(s);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

static void section_errors(void **state) {
  (void)state;
  expect(WS_EMISSING, "", "luo-suda: needs luo_suda.tasks, which is missing");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[]}",
         "test: error: luo_suda.tasks: expected a non-empty array of tasks");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"mem_cycles\":3}]}",
         "luo_suda.tasks[0].comp_cycles: missing (expected a non-negative number)");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1},{\"comp_cycles\":-2}]}",
         "luo_suda.tasks[1].comp_cycles: expected a non-negative number, got -2");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"ops\":{}}]}",
         "luo_suda.tasks[0]: give either comp_cycles or ops, not both");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"mem_cycles\":1,\"mem_insts\":1}]}",
         "luo_suda.tasks[0]: give either mem_cycles or mem_insts, not both");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"repeat\":0}]}",
         "luo_suda.tasks[0].repeat: expected an integer >= 1, got 0");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"repeat\":1.5}]}",
         "luo_suda.tasks[0].repeat: expected a non-negative integer");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":0}]}",
         "luo_suda.tasks: every task has zero cycles");
  expect(WS_EINVAL, "\"luo_suda\":{\"computation_proportion\":2,\"tasks\":[{\"comp_cycles\":1}]}",
         "luo_suda.computation_proportion: expected a number between 0 and 1");
  expect(WS_EINVAL, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1e308,\"repeat\":1000}]}",
         "luo-suda: the prediction is not a finite number");
  expect(WS_EMISSING, "\"luo_suda\":{\"tasks\":[{\"ops\":{\"div.int_reg\":1}}]}",
         "needs gpu ls: models.luo-suda.inst_costs.div.int_reg, which is missing");
  expect(WS_EMISSING, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"mem_cycles\":5}]}",
         "needs luo_suda.mem.bytes_per_thread, which is missing");
  expect(WS_EMISSING, "\"luo_suda\":{\"tasks\":[{\"comp_cycles\":1,\"mem_cycles\":5}]}",
         "needs luo_suda.mem.transactions, which is missing");
}

/* Every database GPU with a models.luo-suda section has the keys the model
 * reads: every Table 1 cost, ld/st, a-d, m and t_mem. */
static void database_gpus(void **state) {
  (void)state;
  static const char *ops[] = {"add", "sub", "mul", "div", "neg", "min", "max", "and", "or", "xor", "not"};
  static const char *kinds[] = {"int_const", "int_reg", "float_const", "float_reg"};
  char buf[4096];
  int n = snprintf(buf, sizeof buf,
                   "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                   "\"launch\":{\"grid\":[1,1,1],\"block\":[128,1,1]},"
                   "\"memory\":{\"load_bytes_per_warp\":128,\"avg_trans_warp\":1},"
                   "\"luo_suda\":{\"tasks\":[{\"mem_insts\":1,\"ops\":{");
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    for (size_t j = 0; j < 4; j++)
      n += snprintf(buf + n, sizeof buf - (size_t)n, "%s\"%s.%s\":1", i || j ? "," : "", ops[i], kinds[j]);
  snprintf(buf + n, sizeof buf - (size_t)n, "}}]}}");
  ws_profile *p = ws_test_profile(buf);
  ws_diag d = WS_DIAG_INIT;
  int seen = 0;
  for (size_t i = 0; i < ws_gpu_db_count(); i++) {
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, ws_gpu_db_name(i), &d), &d);
    if (isfinite(ws_gpu_param_or(g, "luo-suda", "a", NAN))) {
      ws_model_result r = WS_MODEL_RESULT_INIT;
      assert_ok_diag(ws_model_predict(&r, "luo-suda", p, g, &d), &d);
      assert_true(r.cycles > 0);
      ws_model_result_free(&r);
      seen++;
    }
    ws_gpu_free(g);
  }
  assert_true(seen >= 1); /* at least the GTX 260, the paper's GPU */
  ws_diag_free(&d);
  ws_profile_free(p);
}

/* Issue 13: a cost missing for every task is listed once (the list had
 * 1,171 entries of which 17 were distinct), and a profile without a
 * luo_suda section still names the GPU keys that are missing. */
static void missing_lists(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  /* The test GPU has add.int_reg, mul.float_reg and ld_st only: three
   * tasks using xor.int_reg miss one key, once. */
  int st = run(&r, &d, 1, 128, 1, 5.12,
               "\"luo_suda\":{\"tasks\":[{\"ops\":{\"xor.int_reg\":2}},"
               "{\"ops\":{\"xor.int_reg\":1}},{\"ops\":{\"xor.int_reg\":3,\"div.int_reg\":1}}]}");
  assert_int_equal(st, WS_EMISSING);
  assert_int_equal(r.nmissing, 2);
  assert_string_equal(r.missing[0], "gpu ls: models.luo-suda.inst_costs.xor.int_reg");
  assert_string_equal(r.missing[1], "gpu ls: models.luo-suda.inst_costs.div.int_reg");
  ws_model_result_free(&r);
  ws_diag_free(&d);
  /* No luo_suda section, on a GPU without Luo & Suda parameters: both the
   * profile's and the GPU's missing inputs are named. */
  r = (ws_model_result)WS_MODEL_RESULT_INIT;
  assert_int_equal(ws_test_predict(&r, &d, "luo-suda",
                                   "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                                   "\"launch\":{\"grid\":[1,1,1],\"block\":[32,1,1]}}",
                                   "{\"schema\":\"warpsight-gpu/1\",\"name\":\"none\",\"derive\":false,"
                                   "\"compute_capability\":\"1.3\",\"sms\":1,\"cores_per_sm\":8,"
                                   "\"clock_ghz\":1,\"mem_bandwidth_gbs\":10}"),
                   WS_EMISSING);
  assert_int_equal(r.nmissing, 6);
  assert_string_equal(r.missing[0], "luo_suda.tasks");
  assert_string_equal(r.missing[1], "gpu none: models.luo-suda.a");
  assert_string_equal(r.missing[5], "gpu none: models.luo-suda.t_mem");
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(four_period_types),
      cmocka_unit_test(cpd2_branch_and_rep),
      cmocka_unit_test(ops_and_computed_p),
      cmocka_unit_test(cpd1_clamped),
      cmocka_unit_test(section_errors), cmocka_unit_test(missing_lists),
      cmocka_unit_test(database_gpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
