/*
 * test_model_kothapalli.c — the Kothapalli et al. (HiPC'09) MAX and SUM
 * models: the paper's list-ranking example, hand-computed MAX and SUM
 * predictions, and the errors of the profile's "kothapalli" section.
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

/* A small GT200-like GPU, inline: 2 SMs of 8 cores, 1 GHz, pipeline depth 4,
 * global 500 and shared 4 cycles (paper §3.2.2), and an operation table with
 * the paper's 4 (add), 16 (32-bit integer multiply) and 48 (modulus). */
static const char gpu_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"kp\",\"derive\":false,\"compute_capability\":\"1.3\","
    "\"sms\":2,\"cores_per_sm\":8,\"clock_ghz\":1.0,\"mem_bandwidth_gbs\":100,"
    "\"models\":{\"kothapalli\":{\"global_cycles\":500,\"shared_cycles\":4,"
    "\"pipeline_depth\":4,\"op_cycles\":{\"int_simple\":4,\"int_mul32\":16,"
    "\"int_rem\":48}}}}";

/* The profile's text: 5 blocks of 64 threads and the members `section`. */
static const char *profile_text(char buf[2048], const char *section) {
  snprintf(buf, 2048,
           "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
           "\"launch\":{\"grid\":[5,1,1],\"block\":[64,1,1]}%s%s}",
           section[0] ? "," : "", section);
  return buf;
}

/* Runs `model` and returns its status; the caller frees r and d.  The
 * section is checked when the profile is loaded: a bad one fails there
 * (WS_EINVAL, the same message naming its path). */
static int run(ws_model_result *r, ws_diag *d, const char *model,
               const char *section) {
  char buf[2048];
  return ws_test_predict(r, d, model, profile_text(buf, section), gpu_json);
}

#define T(id) ws_model_term_value(&r, WS_TERM_KOTHAPALLI_##id)

/*
 * The paper's list ranking (§5.2) with the block count of papers/README.md:
 * N = 2^22, 373 blocks of 512 threads (2^22 / (512 · 22) = 372.4, rounded
 * up) on the 30 SMs of a GTX 280 at 1.3 GHz: N_B = ⌈373/30⌉ = 13,
 * N_w = 16, N_t = 32, N_C = 8, D = 4.  The costliest thread makes
 * 4 log N · 3 = 264 non-coalesced accesses of 500 cycles: C_T = 132000.
 *   C(K) = 13 · 16 · 32 · 132000 / (8 · 4) = 27456000 cycles          (3)
 *   T(K) = 27456000 / 1.3e9 s = 21.12 ms                               (4)
 * The paper prints ≈ 21.0 ms (measured 24 ms); the acceptance figure is
 * 21.1 ms ± 0.5 %.  Computation is ignored, so MAX and SUM agree. */
static void list_ranking_example(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  ws_gpu *g;
  assert_ok_diag(ws_profile_load_file(&p, WS_SOURCE_DIR "/examples/paper/kothapalli-listrank.json", &d), &d);
  assert_ok_diag(ws_gpu_load(&g, WS_SOURCE_DIR "/examples/paper/gtx280-1.3ghz.json", &d), &d);
  const char *models[] = {"kothapalli-max", "kothapalli-sum"};
  for (int i = 0; i < 2; i++) {
    ws_model_result r = WS_MODEL_RESULT_INIT;
    assert_ok_diag(ws_model_predict(&r, models[i], p, g, &d), &d);
    assert_close(T(N_B), 13, 0);
    assert_close(T(N_W), 16, 0);
    assert_close(T(N_MEMORY), 132000, 1e-9);
    assert_close(T(C_T), 132000, 1e-9);
    assert_close(r.cycles, 27456000, 1e-6);
    assert_close(r.time_ms, 21.12, 1e-9);
    assert_close(fabs(r.time_ms - 21.1) / 21.1, 0, 0.005);
    assert_int_equal(r.bound, WS_BOUND_KOTHAPALLI_MEMORY);
    ws_model_result_free(&r);
  }
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
}

/*
 * A thread with both kinds of work.  5 blocks of 64 threads on 2 SMs:
 * N_B = ⌈5/2⌉ = 3, N_w = 2, N_t = 32, N_C = 8, D = 4.
 *   N_comp = 10 · 4 + 2 · 16 + 1 · 48 + 30 (given directly) = 150
 *   global: 2 lone accesses · 500 = 1000; 4 accesses shared by 16 threads
 *           · (500 + 16)/16 = 4 · 32.25 = 129                 -> 1129
 *   shared: 10 · 4 = 40; 2 under a 4-way conflict · 4 · 4 = 32 -> 72
 *   N_memory = 1201
 *   MAX: C_T = 1201; C(K) = 3 · 2 · 32 · 1201 / 32 = 7206 cycles = 0.007206 ms
 *   SUM: C_T = 1351; C(K) = 6 · 1351 = 8106 cycles */
static const char mixed[] =
    "\"kothapalli\":{\"ops_per_thread\":{\"int_simple\":10,\"int_mul32\":2,\"int_rem\":1},"
    "\"comp_cycles\":30,"
    "\"global_accesses\":[{\"count\":2},{\"count\":4,\"threads_per_transaction\":16}],"
    "\"shared_accesses\":[{\"count\":10},{\"count\":2,\"conflict_degree\":4}]}";

static void max_model(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(run(&r, &d, "kothapalli-max", mixed), &d);
  assert_close(T(N_COMP), 150, 1e-12);
  assert_close(T(N_MEMORY_GLOBAL), 1129, 1e-12);
  assert_close(T(N_MEMORY_SHARED), 72, 1e-12);
  assert_close(T(N_MEMORY), 1201, 1e-12);
  assert_close(T(C_T), 1201, 1e-12);
  assert_close(T(N_B), 3, 0);
  assert_close(T(N_W), 2, 0);
  assert_close(T(N_T), 32, 0);
  assert_close(T(N_C), 8, 0);
  assert_close(T(PIPELINE_DEPTH), 4, 0);
  assert_close(r.cycles, 7206, 1e-9);
  assert_close(r.time_ms, 0.007206, 1e-15);
  assert_non_null(strstr(r.case_label, "MAX"));
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

static void sum_model(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(run(&r, &d, "kothapalli-sum", mixed), &d);
  assert_close(T(C_T), 1351, 1e-12);
  assert_close(r.cycles, 8106, 1e-9);
  assert_non_null(strstr(r.case_label, "SUM"));
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* Computation only: MAX = SUM = 6 · 150 = 900 cycles, limited by computation. */
static void compute_bound(void **state) {
  (void)state;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_ok_diag(run(&r, &d, "kothapalli-max",
                     "\"kothapalli\":{\"ops_per_thread\":{\"int_simple\":10,"
                     "\"int_mul32\":2,\"int_rem\":1},\"comp_cycles\":30}"), &d);
  assert_close(r.cycles, 900, 1e-9);
  assert_int_equal(r.bound, WS_BOUND_KOTHAPALLI_COMPUTE);
  ws_model_result_free(&r);
  ws_diag_free(&d);
}

/* Runs a section expected to fail and checks the formatted diagnostics. */
static void expect_error(const char *section, int status, const char *msg) {
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(run(&r, &d, "kothapalli-max", section), status);
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
  expect_error("", WS_EMISSING, "kothapalli-max: needs kothapalli, which is missing");
  expect_error("\"kothapalli\":{\"ops_per_thread\":{\"int_mul32\":-1}}", WS_EINVAL,
               "test: error: kothapalli.ops_per_thread.int_mul32: "
               "expected a non-negative number, got -1");
  expect_error("\"kothapalli\":{\"ops_per_thread\":{\"fp64\":1}}", WS_EMISSING,
               "needs gpu kp: models.kothapalli.op_cycles.fp64, which is missing");
  expect_error("\"kothapalli\":{\"global_accesses\":{\"count\":1}}", WS_EINVAL,
               "kothapalli.global_accesses: expected an array of objects");
  expect_error("\"kothapalli\":{\"global_accesses\":[{\"threads_per_transaction\":2}]}",
               WS_EINVAL, "kothapalli.global_accesses[0].count: missing");
  expect_error("\"kothapalli\":{\"global_accesses\":[{\"count\":1,\"threads_per_transaction\":0.5}]}",
               WS_EINVAL, "kothapalli.global_accesses[0].threads_per_transaction: expected a number >= 1");
  expect_error("\"kothapalli\":{\"shared_accesses\":[1]}", WS_EINVAL,
               "kothapalli.shared_accesses[0]: expected an object");
  expect_error("\"kothapalli\":[]", WS_EINVAL, "kothapalli: expected an object");
  expect_error("\"kothapalli\":{\"comp_cycles\":1e308,\"global_accesses\":[{\"count\":1e308}]}",
               WS_EINVAL, "kothapalli: the prediction is not a finite number");
  expect_error("\"kothapalli\":{}", WS_EINVAL,
               "kothapalli: the thread has no work (no operations, cycles or accesses)");
}

/* Every database GPU with a models.kothapalli section has the keys the model
 * reads, including the whole operation table (fp64 only where the GPU has
 * double precision, compute capability 1.3 and later). */
static void database_gpus(void **state) {
  (void)state;
  const char *common =
      "\"global_accesses\":[{\"count\":1}],\"shared_accesses\":[{\"count\":1}],"
      "\"ops_per_thread\":{\"int_simple\":1,\"fp_simple\":1,\"int_mul32\":1,"
      "\"int_div\":1,\"int_rem\":1,\"fp_div\":1,\"sfu\":1";
  char sp[512], dp[512];
  snprintf(sp, sizeof sp, "\"kothapalli\":{%s}}", common);
  snprintf(dp, sizeof dp, "\"kothapalli\":{%s,\"fp64\":1}}", common);
  char buf[2048];
  ws_profile *psp = ws_test_profile(profile_text(buf, sp));
  ws_profile *pdp = ws_test_profile(profile_text(buf, dp));
  int seen = 0;
  for (size_t i = 0; i < ws_gpu_db_count(); i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    assert_ok_diag(ws_gpu_load(&g, ws_gpu_db_name(i), &d), &d);
    if (isfinite(ws_gpu_param_or(g, "kothapalli", "pipeline_depth", NAN))) {
      int has_dp = g->cc_major > 1 || (g->cc_major == 1 && g->cc_minor >= 3);
      ws_model_result r = WS_MODEL_RESULT_INIT;
      assert_ok_diag(ws_model_predict(&r, "kothapalli-sum", has_dp ? pdp : psp, g, &d), &d);
      assert_true(r.cycles > 0);
      ws_model_result_free(&r);
      seen++;
    }
    if (g->cc_major == 1 && g->cc_minor < 3) {
      /* no FP64 units: a double-precision profile cannot run, and the
       * missing cost says why (not just that a number is absent) */
      ws_model_result r = WS_MODEL_RESULT_INIT;
      ws_diag d2 = WS_DIAG_INIT;
      assert_int_equal(ws_model_predict(&r, "kothapalli-sum", pdp, g, &d2), WS_EMISSING);
      assert_true(r.nmissing >= 1);
      assert_non_null(strstr(r.missing[0], "op_cycles.fp64 (the GPU has no double-precision units"));
      ws_model_result_free(&r);
      ws_diag_free(&d2);
    }
    ws_diag_free(&d);
    ws_gpu_free(g);
  }
  assert_true(seen >= 1); /* at least the GTX 280, the paper's GPU */
  ws_profile_free(psp);
  ws_profile_free(pdp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(list_ranking_example),
      cmocka_unit_test(max_model),
      cmocka_unit_test(sum_model),
      cmocka_unit_test(compute_bound),
      cmocka_unit_test(section_errors),
      cmocka_unit_test(database_gpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
