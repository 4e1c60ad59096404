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

#include "emu_fixture.h"

typedef emu_fix fix;

EMU_FIXTURE("emu_coop.ptx", NULL, 2)

/* Launch k on grid x block with parameter pointers args; cooperative or
 * not.  The status; the fault kind in *fk. */
static int run(fix *f, const char *k, uint32_t grid, uint32_t block, void **args, int coop, int *fk) {
  ws_emu_stats st;
  int r = emu_run(f, 0, k, grid, block, 1, args, coop, &st);
  if (fk) *fk = st.fault_kind;
  if (r == WS_OK) assert_int_equal(st.blocks, grid);
  return r;
}

/* 8 blocks of 64 threads, 5 rounds over n = 1000 (each thread handles
 * one or two points a round): the last round wrote b. */
static void test_grid_sync_stencil(void **state) {
  fix *f = *state;
  enum { N = 1000, R = 5 };
  uint32_t x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (uint32_t)(i * 2654435761u);
  uint64_t a = emu_buf(f, x, sizeof x), b = emu_buf(f, NULL, sizeof x);
  int n = N, rounds = R;
  void *args[] = {&a, &b, &n, &rounds};
  assert_ok_diag(run(f, "stencil", 8, 64, args, 1, NULL), &f->d);
  for (int r = 0; r < R; r++) {
    for (int i = 0; i < N; i++) y[i] = x[(i + N - 1) % N] + 2 * x[i] + x[(i + 1) % N];
    memcpy(x, y, sizeof x);
  }
  const uint32_t *o = emu_host(f, R % 2 ? b : a, sizeof x);
  for (int i = 0; i < N; i++) assert_int_equal(o[i], x[i]);
}

/* A grid-wide sum of 5000 values by 12 blocks. */
static void test_grid_sync_reduce(void **state) {
  fix *f = *state;
  enum { N = 5000, G = 12 };
  int x[N], sum = 0;
  for (int i = 0; i < N; i++) sum += x[i] = (i * 37) % 101 - 50;
  uint64_t xa = emu_buf(f, x, sizeof x), pa = emu_buf(f, NULL, G * 4), ta = emu_buf(f, NULL, 4);
  int n = N;
  void *args[] = {&xa, &n, &pa, &ta};
  assert_ok_diag(run(f, "reduce", G, 128, args, 1, NULL), &f->d);
  assert_int_equal(*(int *)emu_host(f, ta, 4), sum);
}

/* Block 1 spins on a volatile flag block 0 sets: the blocks take turns. */
static void test_flag_spin(void **state) {
  fix *f = *state;
  uint64_t fa = emu_buf(f, NULL, 4), oa = emu_buf(f, NULL, 8);
  int n = 5000;
  void *args[] = {&fa, &oa, &n};
  assert_ok_diag(run(f, "flag", 2, 32, args, 1, NULL), &f->d);
  const int *o = emu_host(f, oa, 8);
  assert_int_equal(o[0], n * (n - 1) / 2);
  assert_int_equal(o[1], n * (n - 1) / 2 + 1);
}

/* Block 0 returns before grid.sync(): the spin is reported, naming the
 * blocks that wait, long before any instruction limit. */
static void test_grid_deadlock(void **state) {
  fix *f = *state;
  uint64_t oa = emu_buf(f, NULL, 16);
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
  uint64_t xa = emu_buf(f, NULL, 400), pa = emu_buf(f, NULL, 8), ta = emu_buf(f, NULL, 4);
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
