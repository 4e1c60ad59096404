/* test_gpu.c — the GPU database and loader. */
#include <string.h>

#include "testutil.h"
#include "warpsight/gpu.h"

/* Every database entry loads, and its CC has limits. */
static void database_loads(void **s) {
  (void)s;
  assert_true(ws_gpu_db_count() >= 21);
  for (size_t i = 0; i < ws_gpu_db_count(); i++) {
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g;
    int r = ws_gpu_load(&g, ws_gpu_db_name(i), &d);
    assert_ok_diag(r, &d);
    assert_string_equal(g->name, ws_gpu_db_name(i));
    assert_true(g->sms > 0 && g->clock_ghz > 0 && g->mem_bandwidth_gbs > 0);
    assert_true(g->limits.max_warps_per_sm > 0);
    ws_gpu_free(g);
    ws_diag_free(&d);
  }
}

/* Values from the papers, read back through the loader. */
static void paper_values(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  double v;
  assert_int_equal(ws_gpu_load(&g, "gtx280", &d), WS_OK);
  assert_int_equal(g->sms, 30); /* Hong & Kim Table 3 */
  assert_int_equal(ws_gpu_param(g, "hong-kim", "mem_ld", &v, &d), WS_OK);
  assert_close(v, 450, 0); /* Table 6 */
  assert_int_equal(ws_gpu_param(g, "hong-kim", "departure_del_uncoal", &v, &d), WS_OK);
  assert_close(v, 40, 0);
  assert_non_null(ws_gpu_param_source(g, "hong-kim", "mem_ld"));
  assert_int_equal(ws_gpu_param(g, "hong-kim", "no_such_key", &v, &d), WS_EMISSING);
  ws_gpu_free(g);
  assert_int_equal(ws_gpu_load(&g, "c2050", &d), WS_OK);
  assert_int_equal(ws_gpu_param(g, "gpuperf", "dram_lat", &v, &d), WS_OK);
  assert_close(v, 440, 0); /* Sim et al. Table 3 */
  assert_int_equal(ws_gpu_param(g, "gpuperf", "delta", &v, &d), WS_OK);
  assert_close(v, 20, 0);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

static void unknown_name_lists_known(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_int_equal(ws_gpu_load(&g, "gtx9999", &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "unknown GPU 'gtx9999'"));
  assert_non_null(strstr(msg, "gtx280"));
  assert_non_null(strstr(msg, "hk09-example"));
  free(msg);
  ws_diag_free(&d);
}

static void malformed_gpu(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  const char *bad = "{\"schema\":\"warpsight-gpu/1\",\"name\":\"x\",\"compute_capability\":\"9.x\","
                    "\"sms\":-4,\"cores_per_sm\":64,\"clock_ghz\":{\"value\":\"fast\"}}";
  assert_int_equal(ws_gpu_load_json(&g, bad, "x.json", &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "x.json: error: compute_capability: expected MAJOR.MINOR"));
  assert_non_null(strstr(msg, "sms: expected an integer from 1 to 1048576, got -4"));
  assert_non_null(strstr(msg, "clock_ghz: expected a positive number"));
  assert_non_null(strstr(msg, "mem_bandwidth_gbs: missing"));
  free(msg);
  ws_diag_free(&d);
  /* A CC without built-in limits needs a limits object. */
  const char *cc4 = "{\"schema\":\"warpsight-gpu/1\",\"name\":\"x\",\"compute_capability\":\"4.0\","
                    "\"sms\":4,\"cores_per_sm\":64,\"clock_ghz\":1,\"mem_bandwidth_gbs\":10}";
  assert_int_equal(ws_gpu_load_json(&g, cc4, "x.json", &d), WS_EINVAL);
  msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "no built-in limits for compute capability 4.0"));
  free(msg);
  ws_diag_free(&d);
}

/* Limits overrides and dotted parameter keys. */
static void overrides_and_nested(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  const char *j = "{\"schema\":\"warpsight-gpu/1\",\"name\":\"x\",\"compute_capability\":\"8.0\","
                  "\"sms\":4,\"cores_per_sm\":64,\"clock_ghz\":1,\"mem_bandwidth_gbs\":10,"
                  "\"limits\":{\"max_blocks_per_sm\":{\"value\":7,\"source\":\"test\"}},"
                  "\"models\":{\"m\":{\"tbl\":{\"k\":{\"value\":3.5,\"source\":\"s\"}}}}}";
  assert_int_equal(ws_gpu_load_json(&g, j, "x.json", &d), WS_OK);
  assert_int_equal(g->limits.max_blocks_per_sm, 7);
  assert_int_equal(g->limits.max_warps_per_sm, 64); /* CC 8.0 default kept */
  assert_close(ws_gpu_param_or(g, "m", "tbl.k", -1), 3.5, 0);
  assert_string_equal(ws_gpu_param_source(g, "m", "tbl.k"), "s");
  assert_close(ws_gpu_param_or(g, "m", "tbl.z", -1), -1, 0);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* The typed parameters (gpu_params.def): each declared once; origin and
 * source as the loader found them.  A file giving hong-kim.mem_ld 450 and
 * no departure delays: mem_ld GIVEN (with a rule: shown [given]), the
 * uncoalesced delay DERIVED as 32 B x 4 SMs x 1 GHz / 10 GB/s = 12.8 cycles
 * (by hand), uncoal_per_mw ABSENT (no rule).  "derive": false derives
 * nothing.  ws_gpu_with_params gives a new GPU and leaves the old alone. */
static void typed_params(void **s) {
  (void)s;
  for (int i = 0; i < WS_GP_COUNT; i++) {
    const ws_gp_info *in = &ws_gpu_param_table[i];
    assert_int_equal(ws_gpu_param_find(in->model, in->key), i);
  }
  assert_int_equal(ws_gpu_param_find("hong-kim", "no_such"), -1);
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g, *nd, *c;
  const char *j = "{\"schema\":\"warpsight-gpu/1\",\"name\":\"x\",\"compute_capability\":\"8.0\","
                  "\"sms\":4,\"cores_per_sm\":64,\"clock_ghz\":1,\"mem_bandwidth_gbs\":10%s,"
                  "\"models\":{\"hong-kim\":{\"mem_ld\":{\"value\":450,\"source\":\"paper\"}}}}";
  char buf[1024];
  snprintf(buf, sizeof buf, j, "");
  assert_ok_diag(ws_gpu_load_json(&g, buf, "x.json", &d), &d);
  const ws_gp_value *ld = &g->params[WS_GP_HONG_KIM_MEM_LD],
                    *du = &g->params[WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL],
                    *um = &g->params[WS_GP_HONG_KIM_UNCOAL_PER_MW];
  assert_int_equal(ld->origin, WS_GP_GIVEN);
  assert_true(ld->has_rule);
  assert_string_equal(ld->source, "paper");
  assert_close(ws_gpu_p(g, WS_GP_HONG_KIM_MEM_LD), 450, 0);
  assert_int_equal(du->origin, WS_GP_DERIVED);
  assert_close(du->value, 12.8, 1e-12);
  assert_string_equal(du->source, "derived: 32 x sms x clock_ghz / mem_bandwidth_gbs");
  assert_int_equal(um->origin, WS_GP_ABSENT);
  assert_true(isnan(um->value));
  snprintf(buf, sizeof buf, j, ",\"derive\":false");
  assert_ok_diag(ws_gpu_load_json(&nd, buf, "x.json", &d), &d);
  assert_true(isnan(ws_gpu_p(nd, WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL)));
  assert_close(ws_gpu_p(nd, WS_GP_HONG_KIM_MEM_LD), 450, 0);
  ws_gp_change ch = {WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL, 20, "fit", 1};
  assert_int_equal(ws_gpu_with_params(&c, g, &ch, 1), WS_OK);
  assert_close(ws_gpu_p(c, WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL), 20, 0);
  assert_close(ws_gpu_p(g, WS_GP_HONG_KIM_DEPARTURE_DEL_UNCOAL), 12.8, 1e-12);
  char *out = ws_gpu_to_json(c), *orig = ws_gpu_to_json(g);
  assert_non_null(strstr(out, "\"source\":\t\"fit\""));
  assert_null(strstr(orig, "\"fit\""));
  assert_non_null(strstr(orig, "\"given\":\ttrue"));
  free(out);
  free(orig);
  ws_gpu_free(c);
  ws_gpu_free(nd);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(database_loads), cmocka_unit_test(paper_values),
      cmocka_unit_test(unknown_name_lists_known), cmocka_unit_test(malformed_gpu),
      cmocka_unit_test(overrides_and_nested), cmocka_unit_test(typed_params),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
