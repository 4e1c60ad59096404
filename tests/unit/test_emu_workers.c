/*
 * test_emu_workers.c — how a launch's blocks are shared out among worker
 * threads (launch.c: chunks of consecutive blocks, guided self-scheduling;
 * docs/emulator.md, "Threads and determinism"), for 1 to 5 workers and
 * grids that do and do not divide evenly: every block runs exactly once;
 * when the blocks from K on fault, the fault reported is block K's and
 * every block below K has run, whichever worker held which chunk; a
 * launch of spinning blocks stops at the launch's instruction limit.  The
 * kernels are tests/unit/kernels/emu_workers.ptx; the expected values
 * follow from their definitions there.  test_jit_workers.c runs the same
 * in the translated engine.
 */
#include "testutil.h"

#include "emu_fixture.h"

EMU_FIXTURE("emu_workers.ptx", NULL, 1)

/* Every block exactly once, for grids of 1 block up to more than the
 * first chunks (a quarter of each worker's share), with 1 to 5 workers. */
static void test_every_block_once(void **state) {
  emu_fix *f = *state;
  static const uint32_t grids[] = {1, 2, 3, 7, 64, 1001, 4099};
  for (size_t g = 0; g < sizeof grids / sizeof *grids; g++)
    for (int j = 1; j <= 5; j++) {
      uint32_t n = grids[g];
      uint64_t c = emu_buf(f, NULL, n * 4);
      void *args[] = {&c};
      ws_emu_stats st;
      f->threads = j;
      assert_ok_diag(emu_run(f, 0, "count", n, 64, 1, args, 0, &st), &f->d);
      assert_int_equal(st.blocks, n);
      assert_int_equal(st.warps, 2 * (uint64_t)n); /* 64 threads: 2 warps a block */
      const uint32_t *h = emu_host(f, c, n * 4);
      assert_non_null(h);
      for (uint32_t b = 0; b < n; b++)
        if (h[b] != 1) fail_msg("grid %u, -j %d: block %u ran %u times", n, j, b, h[b]);
      assert_ok_diag(ws_emu_mem_free(f->dev, c, &f->d), &f->d);
    }
}

/* Blocks 0..k-1 run (the last 40 of them slowly), k.. fault at once:
 * block k's fault is reported and out[b] = b + 1 for every b < k, however
 * many workers ran the grid; k in the first chunk and far past it. */
static void test_lowest_fault_wins(void **state) {
  emu_fix *f = *state;
  const uint32_t n = 600, ks[] = {0, 5, 450};
  for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
    for (int j = 1; j <= 4; j++) {
      uint32_t k = ks[i], spin = 20000;
      uint64_t out = emu_buf(f, NULL, n * 4);
      void *args[] = {&out, &k, &spin};
      ws_emu_stats st;
      ws_diag_free(&f->d);
      f->threads = j;
      assert_int_equal(emu_run(f, 0, "lowfault", n, 32, 1, args, 0, &st), WS_EFAULT);
      assert_int_equal(st.fault_kind, WS_EMU_FAULT_OOB);
      char want[64];
      snprintf(want, sizeof want, "block (%u,0,0), thread (0,0,0)", k);
      char *t = ws_diag_format(&f->d);
      if (!t || !strstr(t, want)) fail_msg("k %u, -j %d: expected '%s' in: %s", k, j, want, t ? t : "(null)");
      free(t);
      ws_diag_free(&f->d);
      const uint32_t *h = emu_host(f, out, n * 4);
      assert_non_null(h);
      for (uint32_t b = 0; b < k; b++)
        if (h[b] != b + 1) fail_msg("k %u, -j %d: block %u below the fault did not run (out = %u)", k, j, b, h[b]);
      assert_ok_diag(ws_emu_mem_free(f->dev, out, &f->d), &f->d);
    }
}

/* 40 blocks of one warp spinning for ever, no per-warp limit: the launch
 * stops at its limit of 300,000 warp instructions, with 1 to 3 workers
 * (each publishes its count once per quantum of 100,000). */
static void test_launch_limit_with_workers(void **state) {
  emu_fix *f = *state;
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.max_warp_insts = 0;
  o.max_launch_insts = 300000;
  f->opts = &o;
  for (int j = 1; j <= 3; j++) {
    ws_emu_stats st;
    ws_diag_free(&f->d);
    f->threads = j;
    assert_int_equal(emu_run(f, 0, "spin", 40, 32, 1, NULL, 0, &st), WS_EFAULT);
    assert_int_equal(st.fault_kind, WS_EMU_FAULT_LAUNCH_LIMIT);
    ws_diag_free(&f->d);
  }
  f->opts = NULL;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_every_block_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lowest_fault_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_launch_limit_with_workers, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
