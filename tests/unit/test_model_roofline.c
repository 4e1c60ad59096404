/*
 * test_model_roofline.c — the Roofline baseline (Williams et al. CACM'09) on
 * hand-written profiles.
 *
 * GPU written inline: 14 SMs x 32 FP32 lanes x 2 (FMA) x 1.15 GHz
 *   peak = 1030.4 GFLOP/s; DRAM 144 GB/s; ridge = 1030.4 / 144 = 7.155556.
 * Launch: 140 blocks of 256 threads = 1120 warps; 2048 flops per warp
 *   (64 FMAs x 32 lanes) -> 2 293 760 flops in all.
 */
#include <string.h>

#include "testutil.h"
#include "warpsight/model.h"

static const char gpu_json[] =
    "{\"schema\":\"warpsight-gpu/1\",\"name\":\"t-c2050\",\"compute_capability\":\"2.0\","
    "\"sms\":14,\"cores_per_sm\":32,\"clock_ghz\":1.15,\"mem_bandwidth_gbs\":144}";

static ws_model_result run(const char *per_warp, const char *memory, int want) {
  char buf[2048];
  snprintf(buf, sizeof buf,
           "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
           "\"launch\":{\"grid\":[140,1,1],\"block\":[256,1,1]},"
           "\"per_warp\":{%s},\"memory\":{%s}}",
           per_warp, memory);
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  ws_gpu *g;
  assert_ok_diag(ws_profile_load_json(&p, buf, "test", &d), &d);
  assert_ok_diag(ws_gpu_load_json(&g, gpu_json, "gpu", &d), &d);
  ws_model_result r = WS_MODEL_RESULT_INIT;
  int st = ws_model_predict(&r, "roofline", p, g, &d);
  if (want == WS_OK) assert_ok_diag(st, &d);
  assert_int_equal(st, want);
  ws_diag_free(&d);
  ws_gpu_free(g);
  ws_profile_free(p);
  return r;
}

#define T(id) ws_model_term_value(&r, WS_TERM_ROOFLINE_##id)

/* DRAM 1 146 880 bytes: AI = 2 293 760 / 1 146 880 = 2 < 7.16: memory
 * bound, attainable = 2 x 144 = 288 GFLOP/s,
 * time = 2 293 760 / 288e9 = 7.964444e-6 s; cycles = x 1.15e9 = 9159.111. */
static void memory_bound(void **state) {
  (void)state;
  ws_model_result r = run("\"flops\":2048", "\"dram_read_bytes\":1146880", WS_OK);
  assert_string_equal(r.case_label, "memory-bound");
  assert_close(T(PEAK_GFLOPS), 1030.4, 1e-9);
  assert_close(T(RIDGE_POINT), 1030.4 / 144, 1e-12);
  assert_close(T(ARITHMETIC_INTENSITY), 2, 1e-12);
  assert_close(T(ATTAINABLE_GFLOPS), 288, 1e-9);
  assert_close(r.time_ms, 7.964444444e-3, 1e-12);
  assert_close(r.cycles, 9159.111111, 1e-5);
  ws_model_result_free(&r);
}

/* DRAM 114 688 bytes: AI = 20 > 7.16: compute bound at 1030.4 GFLOP/s,
 * time = 2 293 760 / 1030.4e9 = 2.226087e-6 s. */
static void compute_bound(void **state) {
  (void)state;
  ws_model_result r = run("\"flops\":2048",
                          "\"dram_read_bytes\":100000,\"dram_write_bytes\":14688", WS_OK);
  assert_string_equal(r.case_label, "compute-bound");
  assert_close(T(ARITHMETIC_INTENSITY), 20, 1e-12);
  assert_close(T(ATTAINABLE_GFLOPS), 1030.4, 1e-9);
  assert_close(r.time_ms, 2.226086957e-3, 1e-12);
  ws_model_result_free(&r);
}

/* No DRAM bytes: 56 memory insts x 128 bytes x 1120 warps = 8 028 160
 * bytes, AI = 2 293 760 / 8 028 160 = 0.2857143. */
static void traffic_fallback(void **state) {
  (void)state;
  ws_model_result r = run("\"flops\":2048,\"coal_mem_insts\":50,\"uncoal_mem_insts\":6",
                          "\"load_bytes_per_warp\":128", WS_OK);
  assert_close(T(DRAM_BYTES), 8028160, 0);
  assert_close(T(DRAM_BYTES_MEASURED), 0, 0);
  assert_close(T(ARITHMETIC_INTENSITY), 0.2857142857, 1e-9);
  ws_model_result_free(&r);
}

/* No flops: the traffic alone, 1 146 880 / 144e9 = 7.964444e-6 s. */
static void no_flops(void **state) {
  (void)state;
  ws_model_result r = run("\"flops\":0", "\"dram_read_bytes\":1146880", WS_OK);
  assert_string_equal(r.case_label, "memory-bound");
  assert_close(r.time_ms, 7.964444444e-3, 1e-12);
  ws_model_result_free(&r);
}

static void missing(void **state) {
  (void)state;
  ws_model_result r = run("\"comp_insts\":1", "\"dram_read_bytes\":1", WS_EMISSING);
  assert_int_equal(r.nmissing, 1);
  assert_string_equal(r.missing[0], "per_warp.flops");
  ws_model_result_free(&r);
  r = run("\"flops\":1", "\"miss_ratio\":1", WS_EMISSING);
  assert_string_equal(r.missing[0], "memory.dram_read_bytes");
  ws_model_result_free(&r);
}

/* 1e306 flops per warp x 1120 warps overflows a double: an error, not an
 * infinite time. */
static void overflow(void **state) {
  (void)state;
  ws_model_result r = run("\"flops\":1e306", "\"dram_read_bytes\":1", WS_EINVAL);
  ws_model_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(memory_bound),     cmocka_unit_test(compute_bound),
      cmocka_unit_test(traffic_fallback), cmocka_unit_test(no_flops),
      cmocka_unit_test(missing),          cmocka_unit_test(overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
