/* test_valid_predict.c — the real validation predictor (emulator + profiler
 * + models): sampling, the per-warp instruction count against a hand count
 * of the PTX, zero-filled buffers giving the same profile as the spec's
 * random ones, the PTX parsed once per file, and the GPU facts in the cache
 * key. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/valid.h"

#define PTX_DIR WS_SOURCE_DIR "/examples/validation/ptx/"

static ws_valid_row make_row(const char *kernel, int64_t n, uint32_t gx, uint32_t gy,
                             uint32_t bx, uint32_t by, int smem) {
  ws_valid_row r;
  memset(&r, 0, sizeof r);
  r.line = 2;
  r.gpu_csv = "GTX-680";
  r.gpu = "gtx680";
  r.kernel = kernel;
  r.input_size = n;
  r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = 1;
  r.block[0] = bx, r.block[1] = by, r.block[2] = 1;
  r.regs = 16;
  r.static_smem = smem;
  r.measured_s = 1e-4;
  return r;
}

static double num(const ws_profile *p, const char *sec, const char *key) {
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(p->root, sec);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, key);
  return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* vectorAdd, N = 131072, block 64: grid 2048.  Every warp is in bounds and
 * runs the whole PTX once: 4 ld.param + 3 mov (%ctaid, %ntid, %tid) + mad +
 * setp + bra = 10, then cvta, mul.wide, add, cvta, add, ld, ld, add.f32, cvta,
 * add, st = 11, then ret = 1: 22 warp instructions per warp.  With 2 sampled
 * blocks of 2048, 2 blocks = 4 warps are profiled. */
static void vectoradd_sampled(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load(&g, "gtx680", &d), &d);
  ws_valid_row r = make_row("vectorAdd", 131072, 2048, 1, 64, 1, 0);
  ws_launch_spec *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, &r, "t.csv", &d), &d);
  ws_valid_predictor *ctx = ws_valid_predictor_new(1);
  ws_profile *p = NULL;
  assert_ok_diag(ws_valid_profile_launch(&p, ctx, PTX_DIR "vectorAdd.sm_75.ptx", l, g, 2, &d), &d);
  assert_close(num(p, "sampling", "total_blocks"), 2048, 0);
  assert_close(num(p, "sampling", "profiled_blocks"), 2, 0);
  assert_close(num(p, "sampling", "profiled_warps"), 4, 0);
  const cJSON *mix = cJSON_GetObjectItemCaseSensitive(p->root, "instruction_mix");
  const cJSON *tot = cJSON_GetObjectItemCaseSensitive(mix, "total_per_warp");
  assert_true(cJSON_IsNumber(tot));
  assert_close(tot->valuedouble, 22, 0);

  /* The predictor: the profile plus one time per model, finite for the
   * models the GTX 680 has parameters for. */
  const char *const models[] = {"hong-kim", "gpuperf", "roofline"};
  ws_valid_request rq = {&r, l, PTX_DIR "vectorAdd.sm_75.ptx", g, 2, models, 3};
  ws_valid_result res = {0};
  assert_ok_diag(ws_valid_default_predictor()(&res, &rq, ctx, &d), &d);
  assert_int_equal(res.nmodels, 3);
  for (int i = 0; i < 3; i++) assert_true(isfinite(res.time_s[i]) && res.time_s[i] > 0);
  ws_valid_result_free(&res);
  ws_profile_free(p);
  ws_valid_predictor_free(ctx);
  ws_emu_launch_spec_free(l);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* The profile of random inputs (the spec's) equals that of zero-filled ones
 * for kernels with value-dependent arithmetic (dotProd's reduction,
 * subSeqMax's max chains, the tiled product with bank conflicts). */
static void zero_inputs_same_profile(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load(&g, "gtx970", &d), &d);
  ws_valid_row rows[] = {
      make_row("dotProd", 131072, 2048, 1, 64, 1, 256),
      make_row("subSeqMax", 131072, 32, 1, 128, 1, 16392),
      make_row("matMul_gpu_sharedmem_uncoalesced", 256, 32, 32, 8, 8, 512),
      make_row("matrix_sum_normal", 256, 32, 32, 8, 8, 0),
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, PTX_DIR "%s.sm_75.ptx", rows[i].kernel);
    ws_launch_spec *l = NULL;
    assert_ok_diag(ws_valid_launch(&l, &rows[i], "t.csv", &d), &d);
    ws_valid_predictor *zero = ws_valid_predictor_new(1), *rnd = ws_valid_predictor_new(1);
    ws_valid_predictor_keep_inputs(rnd, 1);
    ws_profile *pz = NULL, *pr = NULL;
    assert_ok_diag(ws_valid_profile_launch(&pz, zero, path, l, g, 3, &d), &d);
    assert_ok_diag(ws_valid_profile_launch(&pr, rnd, path, l, g, 3, &d), &d);
    char *a = ws_profile_to_json(pz), *b = ws_profile_to_json(pr);
    assert_non_null(a);
    assert_non_null(b);
    if (strcmp(a, b) != 0) print_error("%s: zero and random inputs differ\n", rows[i].kernel);
    assert_string_equal(a, b);
    free(a);
    free(b);
    ws_profile_free(pz);
    ws_profile_free(pr);
    ws_valid_predictor_free(zero);
    ws_valid_predictor_free(rnd);
    ws_emu_launch_spec_free(l);
  }
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* A missing PTX file is an error naming it, not a crash; the context keeps
 * working afterwards. */
static void missing_ptx(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load(&g, "k20", &d), &d);
  ws_valid_row r = make_row("vectorAdd", 131072, 2048, 1, 64, 1, 0);
  ws_launch_spec *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, &r, "t.csv", &d), &d);
  ws_valid_predictor *ctx = ws_valid_predictor_new(0);
  ws_profile *p = NULL;
  assert_int_not_equal(ws_valid_profile_launch(&p, ctx, PTX_DIR "nope.sm_75.ptx", l, g, 1, &d), WS_OK);
  assert_null(p);
  ws_diag_clear(&d);
  assert_ok_diag(ws_valid_profile_launch(&p, ctx, PTX_DIR "vectorAdd.sm_75.ptx", l, g, 1, &d), &d);
  ws_profile_free(p);
  ws_valid_predictor_free(ctx);
  ws_emu_launch_spec_free(l);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

/* The cache key holds the GPU facts the profiler reads: the same launch on
 * GPUs with different caches has different keys; changing a performance
 * model's parameter (what calibration does) keeps the key. */
static void key_has_gpu_facts(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  assert_ok_diag(ws_gpu_load(&g, "k20", &d), &d);
  ws_valid_row r = make_row("vectorAdd", 131072, 2048, 1, 64, 1, 0);
  ws_launch_spec *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, &r, "t.csv", &d), &d);
  char k0[17], k1[17];
  assert_int_equal(ws_valid_cache_key_gpu(k0, "vectorAdd", "ptx", l, g, 2), WS_OK);
  ws_gp_change ch = {WS_GP_HONG_KIM_MEM_LD, 123.0, NULL, 1};
  ws_gpu *cal;
  assert_int_equal(ws_gpu_with_params(&cal, g, &ch, 1), WS_OK);
  assert_int_equal(ws_valid_cache_key_gpu(k1, "vectorAdd", "ptx", l, cal, 2), WS_OK);
  assert_string_equal(k0, k1);
  ws_gpu_free(cal);
  g->cache.l2_bytes /= 2;
  assert_int_equal(ws_valid_cache_key_gpu(k1, "vectorAdd", "ptx", l, g, 2), WS_OK);
  assert_string_not_equal(k0, k1);
  g->cache.l2_bytes *= 2;
  g->sms += 1;
  assert_int_equal(ws_valid_cache_key_gpu(k1, "vectorAdd", "ptx", l, g, 2), WS_OK);
  assert_string_not_equal(k0, k1);
  ws_emu_launch_spec_free(l);
  ws_gpu_free(g);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vectoradd_sampled),
      cmocka_unit_test(zero_inputs_same_profile),
      cmocka_unit_test(missing_ptx),
      cmocka_unit_test(key_has_gpu_facts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
