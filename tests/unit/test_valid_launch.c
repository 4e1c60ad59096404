/* test_valid_launch.c — launch specs built from measured rows. */
#include <cjson/cJSON.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/valid.h"

static ws_valid_data *data;

static int setup(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_valid_load(&data, WS_SOURCE_DIR "/data/validation/amaris-measured-dev.csv", &d);
  ws_diag_free(&d);
  return st;
}

static int teardown(void **state) {
  (void)state;
  ws_valid_data_free(data);
  return 0;
}

static const ws_valid_row *row_at_line(int line) {
  for (size_t i = 0; i < data->nrows; i++)
    if (data->rows[i].line == line) return &data->rows[i];
  fail_msg("no row at line %d", line);
  return NULL;
}

static double num(const cJSON *o, const char *k) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
  assert_true(cJSON_IsNumber(it));
  return it->valuedouble;
}

static const cJSON *arg(const cJSON *launch, int i) {
  const cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(launch, "args"), i);
  assert_non_null(a);
  return a;
}

static cJSON *build(int line) {
  ws_diag d = WS_DIAG_INIT;
  cJSON *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, row_at_line(line), "m.csv", &d), &d);
  ws_diag_free(&d);
  return l;
}

/* Line 2551, the first vectorAdd row: GTX-680, Input.Size 131072, grid 2048,
 * block 64 -> N = 131072 = 2048 x 64, one element per thread. */
static void test_vectoradd_first_row(void **state) {
  (void)state;
  cJSON *l = build(2551);
  assert_string_equal(cJSON_GetObjectItem(l, "kernel")->valuestring, "vectorAdd");
  assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(l, "grid"), 0)->valueint, 2048);
  assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(l, "block"), 0)->valueint, 64);
  assert_int_equal((int)num(l, "dynamic_shared_bytes"), 0);
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(l, "args")), 4);
  assert_string_equal(cJSON_GetObjectItem(arg(l, 0), "buffer")->valuestring, "a");
  assert_int_equal((int)num(arg(l, 0), "count"), 131072);
  const cJSON *rnd = cJSON_GetObjectItem(cJSON_GetObjectItem(arg(l, 0), "init"), "random");
  assert_non_null(rnd);
  assert_int_equal((int)num(rnd, "seed"), 1);
  assert_string_equal(cJSON_GetObjectItem(arg(l, 2), "init")->valuestring, "zero");
  assert_string_equal(cJSON_GetObjectItem(arg(l, 3), "scalar")->valuestring, "n");
  assert_int_equal((int)num(arg(l, 3), "value"), 131072);
  cJSON_Delete(l);
}

/* Line 2: dotProd, N 131072, block 64, grid 2048; 256 B static shared in the
 * measured build = 64 floats = the block, given as dynamic shared memory;
 * one partial sum per block: c has 2048 elements. */
static void test_dotprod(void **state) {
  (void)state;
  cJSON *l = build(2);
  assert_int_equal((int)num(l, "dynamic_shared_bytes"), 256);
  assert_int_equal((int)num(arg(l, 2), "count"), 2048);
  cJSON_Delete(l);
}

/* Line 904: matMul_gpu_sharedmem, N = 256, block 8 x 8, grid 32 x 32 = 256/8;
 * two 8 x 8 float tiles = 2 x 64 x 4 = 512 B (the row's Static.SMem);
 * matrices of 256 x 256 = 65536 floats. */
static void test_matmul_shared(void **state) {
  (void)state;
  cJSON *l = build(904);
  assert_int_equal((int)num(l, "dynamic_shared_bytes"), 512);
  assert_int_equal((int)num(arg(l, 0), "count"), 65536);
  assert_int_equal((int)num(arg(l, 2), "count"), 65536);
  assert_int_equal((int)num(arg(l, 3), "value"), 256);
  cJSON_Delete(l);
}

/* Line 744: matMul_gpu with the five-argument signature (GTX 970, 16 x 16):
 * same kernel, same N = 256 mapping, grid 16 = 256 / 16. */
static void test_matmul_five_args(void **state) {
  (void)state;
  cJSON *l = build(744);
  assert_string_equal(cJSON_GetObjectItem(l, "kernel")->valuestring, "matMul_gpu");
  assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(l, "grid"), 1)->valueint, 16);
  cJSON_Delete(l);
}

/* Line 2344: subSeqMax, N = 131072 over 32 blocks of 128 threads: 4096 ints
 * per block = one tile; out holds 4 ints per block = 128; ints in [-100, 100]. */
static void test_subseqmax(void **state) {
  (void)state;
  cJSON *l = build(2344);
  assert_string_equal(cJSON_GetObjectItem(arg(l, 0), "type")->valuestring, "s32");
  assert_int_equal((int)num(arg(l, 1), "count"), 128);
  assert_int_equal((int)num(arg(l, 3), "value"), 4096);
  const cJSON *rnd = cJSON_GetObjectItem(cJSON_GetObjectItem(arg(l, 0), "init"), "random");
  assert_int_equal((int)num(rnd, "min"), -100);
  assert_int_equal((int)num(rnd, "max"), 100);
  cJSON_Delete(l);
}

/* Every measured row agrees with the Input.Size mapping (grid and shared
 * memory): the mapping is checked against all 3,100 rows. */
static void test_every_row_builds(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  for (size_t i = 0; i < data->nrows; i++) {
    cJSON *l = NULL;
    assert_ok_diag(ws_valid_launch(&l, &data->rows[i], "m.csv", &d), &d);
    cJSON_Delete(l);
  }
  ws_diag_free(&d);
}

static void expect_err(ws_valid_row r, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  cJSON *l = NULL;
  assert_int_equal(ws_valid_launch(&l, &r, "m.csv", &d), WS_EINVAL);
  assert_null(l);
  char *s = ws_diag_format(&d);
  if (!strstr(s, want)) {
    print_error("expected '%s' in:\n%s\n", want, s);
    fail();
  }
  free(s);
  ws_diag_free(&d);
}

static void test_mismatches(void **state) {
  (void)state;
  ws_valid_row r = *row_at_line(2551);
  r.grid[0] = 1024; /* 131072 / 64 = 2048 */
  expect_err(r, "m.csv:2551: error: vectorAdd, Input.Size 131072: grid should be 2048 x 1 x 1, "
                "the row has 1024 x 1 x 1");
  r = *row_at_line(2);
  r.static_smem = 1024; /* 64 threads x 4 B = 256 */
  expect_err(r, "kernel uses 256 bytes of shared memory, the row says 1024");
  r = *row_at_line(2344);
  r.input_size = 131072 + 4096; /* not 32 blocks x whole 4096-int tiles */
  expect_err(r, "not a multiple of grid.x (32) x 4096");
  r = *row_at_line(904);
  r.block[1] = 4, r.grid[1] = 64;
  expect_err(r, "needs square blocks");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vectoradd_first_row), cmocka_unit_test(test_dotprod),
      cmocka_unit_test(test_matmul_shared),       cmocka_unit_test(test_matmul_five_args),
      cmocka_unit_test(test_subseqmax),           cmocka_unit_test(test_every_row_builds),
      cmocka_unit_test(test_mismatches),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
