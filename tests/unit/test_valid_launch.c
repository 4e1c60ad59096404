/* test_valid_launch.c — launch specs built from measured rows. */
#include <cjson/cJSON.h>
#include <stdlib.h>
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

static ws_launch_spec *build(int line) {
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *l = NULL;
  assert_ok_diag(ws_valid_launch(&l, row_at_line(line), "m.csv", &d), &d);
  ws_diag_free(&d);
  return l;
}

/* A scalar's value (s32 bits sign-extended). */
static long long sval(const ws_launch_arg *a) {
  assert_false(a->is_buffer);
  assert_int_equal(a->type, WS_ELEM_S32);
  return (int32_t)(uint32_t)a->value;
}

/* Line 2551, the first vectorAdd row: GTX-680, Input.Size 131072, grid 2048,
 * block 64 -> N = 131072 = 2048 x 64, one element per thread. */
static void test_vectoradd_first_row(void **state) {
  (void)state;
  ws_launch_spec *l = build(2551);
  assert_string_equal(l->kernel, "vectorAdd");
  assert_string_equal(l->path, "m.csv:2551");
  assert_int_equal(l->grid[0], 2048);
  assert_int_equal(l->block[0], 64);
  assert_int_equal(l->dynamic_shared, 0);
  assert_int_equal(l->nargs, 4);
  assert_true(l->args[0].is_buffer);
  assert_string_equal(l->args[0].name, "a");
  assert_int_equal(l->args[0].count, 131072);
  assert_int_equal(l->args[0].init, WS_INIT_RANDOM);
  assert_int_equal(l->args[0].seed, 1);
  assert_int_equal(l->args[2].init, WS_INIT_ZERO);
  assert_string_equal(l->args[3].name, "n");
  assert_int_equal(sval(&l->args[3]), 131072);
  ws_emu_launch_spec_free(l);
}

/* Line 2: dotProd, N 131072, block 64, grid 2048; 256 B static shared in the
 * measured build = 64 floats = the block, given as dynamic shared memory;
 * one partial sum per block: c has 2048 elements. */
static void test_dotprod(void **state) {
  (void)state;
  ws_launch_spec *l = build(2);
  assert_int_equal(l->dynamic_shared, 256);
  assert_int_equal(l->args[2].count, 2048);
  ws_emu_launch_spec_free(l);
}

/* Line 904: matMul_gpu_sharedmem, N = 256, block 8 x 8, grid 32 x 32 = 256/8;
 * two 8 x 8 float tiles = 2 x 64 x 4 = 512 B (the row's Static.SMem);
 * matrices of 256 x 256 = 65536 floats. */
static void test_matmul_shared(void **state) {
  (void)state;
  ws_launch_spec *l = build(904);
  assert_int_equal(l->dynamic_shared, 512);
  assert_int_equal(l->args[0].count, 65536);
  assert_int_equal(l->args[2].count, 65536);
  assert_int_equal(sval(&l->args[3]), 256);
  ws_emu_launch_spec_free(l);
}

/* Line 744: matMul_gpu with the five-argument signature (GTX 970, 16 x 16):
 * same kernel, same N = 256 mapping, grid 16 = 256 / 16. */
static void test_matmul_five_args(void **state) {
  (void)state;
  ws_launch_spec *l = build(744);
  assert_string_equal(l->kernel, "matMul_gpu");
  assert_int_equal(l->grid[1], 16);
  ws_emu_launch_spec_free(l);
}

/* Line 2344: subSeqMax, N = 131072 over 32 blocks of 128 threads: 4096 ints
 * per block = one tile; out holds 4 ints per block = 128; ints in [-100, 100]. */
static void test_subseqmax(void **state) {
  (void)state;
  ws_launch_spec *l = build(2344);
  assert_int_equal(l->args[0].type, WS_ELEM_S32);
  assert_int_equal(l->args[1].count, 128);
  assert_int_equal(sval(&l->args[3]), 4096);
  assert_int_equal(l->args[0].init, WS_INIT_RANDOM);
  assert_true(l->args[0].v0 == -100);
  assert_true(l->args[0].v1 == 100);
  ws_emu_launch_spec_free(l);
}

/* Every measured row agrees with the Input.Size mapping (grid and shared
 * memory): the mapping is checked against all 3,100 rows. */
static void test_every_row_builds(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  for (size_t i = 0; i < data->nrows; i++) {
    ws_launch_spec *l = NULL;
    assert_ok_diag(ws_valid_launch(&l, &data->rows[i], "m.csv", &d), &d);
    ws_emu_launch_spec_free(l);
  }
  ws_diag_free(&d);
}

/* Two specs hold the same launch (every field of DESIGN.md's format). */
static void assert_same_spec(const ws_launch_spec *a, const ws_launch_spec *b) {
  assert_string_equal(a->kernel, b->kernel);
  assert_memory_equal(a->grid, b->grid, sizeof a->grid);
  assert_memory_equal(a->block, b->block, sizeof a->block);
  assert_int_equal(a->dynamic_shared, b->dynamic_shared);
  assert_int_equal(a->nargs, b->nargs);
  for (uint32_t i = 0; i < a->nargs; i++) {
    const ws_launch_arg *x = &a->args[i], *y = &b->args[i];
    assert_int_equal(x->is_buffer, y->is_buffer);
    assert_string_equal(x->name, y->name);
    assert_int_equal(x->type, y->type);
    assert_int_equal(x->count, y->count);
    assert_int_equal(x->init, y->init);
    assert_true(x->v0 == y->v0 && x->v1 == y->v1);
    assert_int_equal(x->seed, y->seed);
    assert_int_equal(x->value, y->value);
  }
}

/* The --launches writer: what it writes, the launch-spec parser reads back
 * to the same spec, for one row of each kernel; and the text is the
 * format's (keys by name, the grid as an array). */
static void test_json_round_trip(void **state) {
  (void)state;
  static const int lines[] = {2551, 2, 904, 744, 2344};
  ws_diag d = WS_DIAG_INIT;
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
    ws_launch_spec *l = build(lines[i]), *back = NULL;
    char *json = ws_valid_launch_json(l);
    assert_non_null(json);
    assert_ok_diag(ws_emu_launch_spec_parse(&back, json, "written", ".", &d), &d);
    assert_same_spec(l, back);
    cJSON *j = cJSON_Parse(json);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "kernel")->valuestring, l->kernel);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "grid")), 3);
    cJSON_Delete(j);
    free(json);
    ws_emu_launch_spec_free(back);
    ws_emu_launch_spec_free(l);
  }
  ws_diag_free(&d);
}

static void expect_err(ws_valid_row r, const char *want) {
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *l = NULL;
  assert_int_equal(ws_valid_launch(&l, &r, "m.csv", &d), WS_EINVAL);
  assert_null(l);
  assert_diag_has(&d, want);
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
  r = *row_at_line(2551);
  r.input_size = 3000000000; /* > 2^31 - 1: the kernel's int n cannot hold it */
  expect_err(r, "vectorAdd: Input.Size 3000000000 does not fit the kernel's int n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vectoradd_first_row), cmocka_unit_test(test_dotprod),
      cmocka_unit_test(test_matmul_shared),       cmocka_unit_test(test_matmul_five_args),
      cmocka_unit_test(test_subseqmax),           cmocka_unit_test(test_every_row_builds),
      cmocka_unit_test(test_mismatches),         cmocka_unit_test(test_json_round_trip),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
