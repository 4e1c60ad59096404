/*
 * test_emu_coop.c — cooperative launches (src/emu/coop.c): cooperative
 * groups' grid.sync() completes when every block is resident (a stencil
 * over several rounds, a grid-wide reduction), a volatile flag spin between
 * two blocks, a grid whose barrier can never complete (reported as a
 * deadlock, not run to the instruction limit), and the same grid.sync()
 * kernel launched without cooperation (it traps, as on a GPU: the
 * workspace register is zero).
 *
 * Kernels: tests/unit/kernels/emu_coop.cu; the expected values are
 * computed here from the kernels' definitions.
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

typedef struct fix {
  ws_ptx_module *m;
  ws_emu_device *dev;
  ws_diag d;
} fix;

static int setup(void **state) {
  fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  assert_ok_diag(ws_ptx_parse_file(&f->m, WS_SOURCE_DIR "/tests/unit/kernels/emu_coop.ptx", &f->d), &f->d);
  assert_ok_diag(ws_emu_device_new(&f->dev, NULL, &f->d), &f->d);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fix *f = *state;
  ws_emu_device_free(f->dev);
  ws_ptx_module_free(f->m);
  ws_diag_free(&f->d);
  free(f);
  return 0;
}

static uint64_t buf(fix *f, const void *src, size_t n) {
  uint64_t a = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, n, "buf", &a, &f->d), &f->d);
  if (src) memcpy(ws_emu_mem_host(f->dev, a, n), src, n);
  return a;
}
static void *host(fix *f, uint64_t a, size_t n) { return ws_emu_mem_host(f->dev, a, n); }

/* Launch k on grid x block with parameter pointers args; cooperative or
 * not.  The status; the fault kind in *fk. */
static int run(fix *f, const char *k, uint32_t grid, uint32_t block, void **args, int coop, int *fk) {
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint8_t img[256];
  size_t used = 0;
  assert_ok_diag(ws_emu_load(&p, f->m, k, &f->d), &f->d);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_launch_config c = {{grid, 1, 1}, {block, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  if (coop) assert_ok_diag(ws_emu_launch_set_cooperative(l, &f->d), &f->d);
  assert_int_equal(ws_emu_launch_cooperative(l), coop);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = 2;
  ws_emu_stats st;
  memset(&st, 0, sizeof st);
  int r = ws_emu_run(l, &o, &st, &f->d);
  if (fk) *fk = st.fault_kind;
  if (r == WS_OK) assert_int_equal(st.blocks, grid);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  return r;
}

/* 8 blocks of 64 threads, 5 rounds over n = 1000 (each thread handles
 * one or two points a round): the last round wrote b. */
static void test_grid_sync_stencil(void **state) {
  fix *f = *state;
  enum { N = 1000, R = 5 };
  uint32_t x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (uint32_t)(i * 2654435761u);
  uint64_t a = buf(f, x, sizeof x), b = buf(f, NULL, sizeof x);
  int n = N, rounds = R;
  void *args[] = {&a, &b, &n, &rounds};
  assert_ok_diag(run(f, "stencil", 8, 64, args, 1, NULL), &f->d);
  for (int r = 0; r < R; r++) {
    for (int i = 0; i < N; i++) y[i] = x[(i + N - 1) % N] + 2 * x[i] + x[(i + 1) % N];
    memcpy(x, y, sizeof x);
  }
  const uint32_t *o = host(f, R % 2 ? b : a, sizeof x);
  for (int i = 0; i < N; i++) assert_int_equal(o[i], x[i]);
}

/* A grid-wide sum of 5000 values by 12 blocks. */
static void test_grid_sync_reduce(void **state) {
  fix *f = *state;
  enum { N = 5000, G = 12 };
  int x[N], sum = 0;
  for (int i = 0; i < N; i++) sum += x[i] = (i * 37) % 101 - 50;
  uint64_t xa = buf(f, x, sizeof x), pa = buf(f, NULL, G * 4), ta = buf(f, NULL, 4);
  int n = N;
  void *args[] = {&xa, &n, &pa, &ta};
  assert_ok_diag(run(f, "reduce", G, 128, args, 1, NULL), &f->d);
  assert_int_equal(*(int *)host(f, ta, 4), sum);
}

/* Block 1 spins on a volatile flag block 0 sets: the blocks take turns. */
static void test_flag_spin(void **state) {
  fix *f = *state;
  uint64_t fa = buf(f, NULL, 4), oa = buf(f, NULL, 8);
  int n = 5000;
  void *args[] = {&fa, &oa, &n};
  assert_ok_diag(run(f, "flag", 2, 32, args, 1, NULL), &f->d);
  const int *o = host(f, oa, 8);
  assert_int_equal(o[0], n * (n - 1) / 2);
  assert_int_equal(o[1], n * (n - 1) / 2 + 1);
}

/* Block 0 returns before grid.sync(): the spin is reported, naming the
 * blocks that wait, long before any instruction limit. */
static void test_grid_deadlock(void **state) {
  fix *f = *state;
  uint64_t oa = buf(f, NULL, 16);
  void *args[] = {&oa};
  int fk = -1;
  assert_int_equal(run(f, "early_exit", 4, 32, args, 1, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_DEADLOCK);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "grid-wide spin that cannot complete (cooperative launch)"));
  assert_non_null(strstr(msg, "block 1 warp 0 spins at PTX line"));
  assert_non_null(strstr(msg, "ld.acquire.gpu"));
  free(msg);
  ws_diag_free(&f->d);
}

/* grid.sync() in a launch that is not cooperative traps (its workspace
 * register reads 0, as on a GPU). */
static void test_not_cooperative_traps(void **state) {
  fix *f = *state;
  uint64_t xa = buf(f, NULL, 400), pa = buf(f, NULL, 8), ta = buf(f, NULL, 4);
  int n = 100;
  void *args[] = {&xa, &n, &pa, &ta};
  int fk = -1;
  assert_int_equal(run(f, "reduce", 2, 64, args, 0, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_TRAP);
  ws_diag_free(&f->d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_grid_sync_stencil, setup, teardown),
      cmocka_unit_test_setup_teardown(test_grid_sync_reduce, setup, teardown),
      cmocka_unit_test_setup_teardown(test_flag_spin, setup, teardown),
      cmocka_unit_test_setup_teardown(test_grid_deadlock, setup, teardown),
      cmocka_unit_test_setup_teardown(test_not_cooperative_traps, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
