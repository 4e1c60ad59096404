/* test_gpu_check.c — GPU values are checked when a file is loaded (issue 14,
 * points 4 and 9): each bad value below used to load and then crash a model
 * (SIGFPE, signed overflow) or make it print inf, nan or a negative time.
 * Each must now be refused with an error naming the file and the JSON path. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/gpu.h"

/* A valid CC 8.0 GPU; EXTRA is spliced in as more top-level members and
 * replaces the base member of the same name (no duplicate keys). */
static int load_with(ws_gpu **g, const char *extra, ws_diag *d) {
  static const char *const base[] = {
      "\"schema\":\"warpsight-gpu/1\"", "\"name\":\"bad\"", "\"compute_capability\":\"8.0\"",
      "\"sms\":4", "\"cores_per_sm\":64", "\"clock_ghz\":1", "\"mem_bandwidth_gbs\":10"};
  char json[2048] = "{";
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
    size_t klen = (size_t)(strchr(base[i], ':') - base[i]);
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)klen, base[i]);
    if (strstr(extra, key)) continue;
    strcat(json, base[i]);
    strcat(json, ",");
  }
  strcat(json, *extra ? extra : "\"hypothetical\":true");
  strcat(json, "}");
  return ws_gpu_load_json(g, json, "bad.json", d);
}

/* Loading with EXTRA must fail with a message containing WANT. */
static void refused(const char *extra, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  int r = load_with(&g, extra, &d);
  char *msg = ws_diag_format(&d);
  if (r != WS_EINVAL || !strstr(msg, want))
    fail_msg("%s: status %d, wanted WS_EINVAL and '%s' in:\n%s", extra, r, want, msg);
  assert_null(g);
  free(msg);
  ws_diag_free(&d);
}

static void base_loads(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g;
  assert_ok_diag(load_with(&g, "", &d), &d);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* Issue 14 point 4: warp_size 2147483647 divided by zero in occupancy. */
static void warp_size_range(void **s) {
  (void)s;
  refused("\"warp_size\":2147483647", "bad.json: error: warp_size: expected an integer from 1 to 64");
  refused("\"warp_size\":48", "warp_size: expected a power of two up to 64");
  refused("\"warp_size\":0", "warp_size: expected an integer from 1 to 64, got 0");
}

/* Issue 14 point 4: shared_reserved_per_block 2147483647 overflowed sb + reserved. */
static void shared_reserved_range(void **s) {
  (void)s;
  refused("\"limits\":{\"shared_reserved_per_block\":2147483647}",
          "bad.json: error: limits.shared_reserved_per_block: expected an integer from 0 to 1048576");
  /* Consistent but too large for the SM: 166912 + 2048 > 167936. */
  refused("\"limits\":{\"shared_reserved_per_block\":2048}",
          "limits.max_shared_per_block: 166912 + shared_reserved_per_block (2048) is more than shared_per_sm (167936)");
}

/* Issue 14 point 9: sms 0.5 gave inf cycles, >= 2^31 negative times. */
static void sms_integer(void **s) {
  (void)s;
  refused("\"sms\":0.5", "bad.json: error: sms: expected an integer from 1 to 1048576, got 0.5");
  refused("\"sms\":2147483648", "sms: expected an integer from 1 to 1048576, got 2.14748e+09");
  refused("\"cores_per_sm\":{\"value\":12.5}", "cores_per_sm: expected an integer");
}

/* Issue 14 point 9: issue_cycles -1 gave negative times; zero is as bad. */
static void model_params_positive(void **s) {
  (void)s;
  refused("\"models\":{\"hong-kim\":{\"issue_cycles\":{\"value\":-1,\"source\":\"x\"}}}",
          "bad.json: error: models.hong-kim.issue_cycles: expected a positive number up to 1e12, got -1");
  refused("\"models\":{\"gpuperf\":{\"delta\":0}}",
          "models.gpuperf.delta: expected a positive number up to 1e12, got 0");
  refused("\"models\":{\"kothapalli\":{\"op_cycles\":{\"fp_div\":{\"value\":0,\"source\":\"x\"}}}}",
          "models.kothapalli.op_cycles.fp_div: expected a positive number");
  refused("\"models\":{\"transit\":{\"pi_sp_threads\":{\"value\":576.5,\"source\":\"x\"}}}",
          "models.transit.pi_sp_threads: expected a positive integer, got 576.5");
  refused("\"models\":{\"luo-suda\":{\"a\":{\"value\":\"three\",\"source\":\"x\"}}}",
          "models.luo-suda.a: expected a number");
  /* A key gpu_params.def does not declare, of a model it knows: a typo. */
  refused("\"models\":{\"hong-kim\":{\"mem_LD\":{\"value\":400,\"source\":\"x\"}}}",
          "bad.json: error: models.hong-kim.mem_LD: unknown parameter of model 'hong-kim'");
  refused("\"models\":{\"luo-suda\":{\"inst_costs\":{\"mad.int_reg\":{\"value\":4,\"source\":\"x\"}}}}",
          "models.luo-suda.inst_costs.mad.int_reg: unknown parameter");
  /* Another model's table: only finite and non-negative. */
  refused("\"models\":{\"mine\":{\"k\":-2}}", "models.mine.k: expected a non-negative number");
}

/* Issue 14 point 9: CC "99.99" was accepted when the file had "limits". */
static void cc_known_even_with_limits(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  const char *j = "{\"schema\":\"warpsight-gpu/1\",\"name\":\"bad\",\"compute_capability\":\"99.99\","
                  "\"sms\":4,\"cores_per_sm\":64,\"clock_ghz\":1,\"mem_bandwidth_gbs\":10,"
                  "\"limits\":{\"max_blocks_per_sm\":8}}";
  assert_int_equal(ws_gpu_load_json(&g, j, "bad.json", &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "bad.json: error: compute_capability: no built-in limits for compute capability 99.99"));
  free(msg);
  ws_diag_free(&d);
}

/* Issue 14 point 10: l1_line_bytes 3 gave exit 2 with an empty message. */
static void cache_geometry(void **s) {
  (void)s;
  refused("\"cache\":{\"l1_line_bytes\":3}",
          "bad.json: error: cache.l1_line_bytes: expected a power of two from 4 to 4096 bytes, got 3");
  refused("\"cache\":{\"l2_line_bytes\":32,\"l2_sector_bytes\":128}",
          "cache.l2_sector_bytes: a sector of 128 bytes does not divide an L2 line of 32 bytes");
  refused("\"cache\":{\"l1_bytes\":1000,\"l1_line_bytes\":128,\"l1_assoc\":4}",
          "cache.l1_bytes: 1000 is not a whole number of sets");
  refused("\"cache\":{\"l1_caches_global\":2}", "cache.l1_caches_global: expected 0 or 1");
  refused("\"latencies\":{\"dram\":1e300}", "latencies.dram: expected at most 1e+07");
}

/* Limits out of range or contradicting each other. */
static void limits_ranges(void **s) {
  (void)s;
  refused("\"limits\":{\"max_warps_per_sm\":0}",
          "limits.max_warps_per_sm: expected an integer from 1 to 4096, got 0");
  refused("\"limits\":{\"max_threads_per_block\":4096}",
          "limits.max_threads_per_block: 4096 is more than max_threads_per_sm (2048)");
  refused("\"limits\":{\"reg_alloc_per_warp\":2}", "limits.reg_alloc_per_warp: expected an integer from 0 to 1");
}

/* Without a diagnostics list a bad file must still be refused. */
static void refused_without_diag(void **s) {
  (void)s;
  ws_gpu *g = NULL;
  assert_int_equal(load_with(&g, "\"warp_size\":2147483647", NULL), WS_EINVAL);
  assert_null(g);
}

/* The occupancy calculator itself no longer overflows on a huge warp size
 * (a caller may pass limits it built by hand). */
static void occupancy_wide_products(void **s) {
  (void)s;
  ws_sm_limits lim;
  assert_int_equal(ws_gpu_sm_limits_for_cc(&lim, 8, 0), WS_OK);
  ws_occupancy o;
  ws_occupancy_in in = {32, 0, 0};
  ws_diag d = WS_DIAG_INIT;
  /* 1 warp of INT_MAX threads: not one block fits (2048 threads per SM). */
  assert_int_equal(ws_gpu_occupancy_compute(&o, &lim, INT_MAX, &in, &d), WS_EINVAL);
  assert_int_equal(o.limit_warps, 0);
  assert_int_equal(ws_gpu_occupancy_compute(&o, &lim, 0, &in, &d), WS_EINVAL);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(base_loads),          cmocka_unit_test(warp_size_range),
      cmocka_unit_test(shared_reserved_range), cmocka_unit_test(sms_integer),
      cmocka_unit_test(model_params_positive), cmocka_unit_test(cc_known_even_with_limits),
      cmocka_unit_test(cache_geometry),      cmocka_unit_test(limits_ranges),
      cmocka_unit_test(refused_without_diag), cmocka_unit_test(occupancy_wide_products),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
