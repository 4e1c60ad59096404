/*
 * test_emu_workers.c — how a launch's blocks are shared out among worker
 * threads (launch.c: chunks of consecutive blocks, guided self-scheduling;
 * docs/emulator.md, "Threads and determinism"), for 1 to 5 workers and
 * grids that do and do not divide evenly: every block runs exactly once;
 * when the blocks from K on fault, the fault reported is block K's and
 * every block below K has run, whichever worker held which chunk; a
 * launch of spinning blocks stops at the launch's instruction limit.  The
 * expected values follow from the kernels' definitions (comments).
 * test_jit_workers.c runs the same in the translated engine.
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

/* count: thread 0 of block b adds 1 to c[b] (an atomic, so a block run
 *   twice shows as 2);
 * lowfault: blocks b >= k read global address 0 (an out-of-bounds fault,
 *   at once); blocks below k first loop, `spin` times the 40 blocks just
 *   below k (so that workers are still in them when a later chunk's block
 *   faults) and once the others, then thread 0 stores out[b] = b + 1;
 * spin: every warp loops forever. */
static const char ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry count(.param .u64 c)\n"
    "{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd1, [c];\n  mov.u32 %r2, %ctaid.x;\n  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  atom.global.add.u32 %r3, [%rd3], 1;\nDONE:\n  ret;\n}\n"
    ".visible .entry lowfault(.param .u64 out, .param .u32 k, .param .u32 spin)\n"
    "{\n  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  mov.u32 %r1, %ctaid.x;\n  ld.param.u32 %r2, [k];\n  setp.lt.u32 %p1, %r1, %r2;\n  @%p1 bra WORK;\n"
    "  mov.u64 %rd1, 0;\n  ld.global.u32 %r3, [%rd1];\n  ret;\n"
    "WORK:\n  ld.param.u32 %r4, [spin];\n  add.u32 %r3, %r1, 40;\n  setp.ge.u32 %p1, %r3, %r2;\n"
    "  selp.b32 %r4, %r4, 1, %p1;\n  mov.u32 %r5, 0;\n"
    "LOOP:\n  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p2, %r5, %r4;\n  @%p2 bra LOOP;\n"
    "  mov.u32 %r6, %tid.x;\n  setp.ne.u32 %p3, %r6, 0;\n  @%p3 bra END;\n"
    "  ld.param.u64 %rd2, [out];\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  add.u32 %r7, %r1, 1;\n  st.global.u32 [%rd4], %r7;\nEND:\n  ret;\n}\n"
    ".visible .entry spin()\n"
    "{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, 0;\nL:\n  add.u32 %r1, %r1, 1;\n  bra.uni L;\n}\n";

typedef struct fix {
  ws_ptx_module *m;
  ws_emu_device *dev;
  ws_diag d;
} fix;

static int setup(void **state) {
  fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  assert_ok_diag(ws_ptx_parse(&f->m, ptx, strlen(ptx), "workers.ptx", &f->d), &f->d);
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

/* Kernel k on `grid` blocks of `bx` threads with `threads` workers and
 * the given instruction limits (0: none); ws_emu_run's status, its figures
 * in *st.  The run's messages are left in f->d. */
static int launch(fix *f, const char *k, uint32_t grid, uint32_t bx, void **args, int threads, uint64_t max_warp,
                  uint64_t max_launch, ws_emu_stats *st) {
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint8_t img[64];
  size_t used = 0;
  assert_ok_diag(ws_emu_load(&p, f->m, k, &f->d), &f->d);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_launch_config c = {{grid, 1, 1}, {bx, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = threads;
  o.max_warp_insts = max_warp;
  o.max_launch_insts = max_launch;
  memset(st, 0, sizeof *st);
  int r = ws_emu_run(l, &o, st, &f->d);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  return r;
}

/* Every block exactly once, for grids of 1 block up to more than the
 * first chunks (a quarter of each worker's share), with 1 to 5 workers. */
static void test_every_block_once(void **state) {
  fix *f = *state;
  static const uint32_t grids[] = {1, 2, 3, 7, 64, 1001, 4099};
  for (size_t g = 0; g < sizeof grids / sizeof *grids; g++)
    for (int j = 1; j <= 5; j++) {
      uint32_t n = grids[g];
      uint64_t c = 0;
      assert_ok_diag(ws_emu_mem_alloc(f->dev, n * 4, "c", &c, &f->d), &f->d);
      void *args[] = {&c};
      ws_emu_stats st;
      assert_ok_diag(launch(f, "count", n, 64, args, j, 0, 0, &st), &f->d);
      assert_int_equal(st.blocks, n);
      assert_int_equal(st.warps, 2 * (uint64_t)n); /* 64 threads: 2 warps a block */
      const uint32_t *h = ws_emu_mem_host(f->dev, c, n * 4);
      assert_non_null(h);
      for (uint32_t b = 0; b < n; b++)
        if (h[b] != 1) fail_msg("grid %u, -j %d: block %u ran %u times", n, j, b, h[b]);
      assert_ok_diag(ws_emu_mem_free(f->dev, c, &f->d), &f->d);
    }
}

/* Blocks 0..k-1 run (slowly), k.. fault at once: block k's fault is
 * reported and out[b] = b + 1 for every b < k, however many workers ran
 * the grid; k in the first chunk and far past it. */
static void test_lowest_fault_wins(void **state) {
  fix *f = *state;
  const uint32_t n = 600, ks[] = {0, 5, 450};
  for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
    for (int j = 1; j <= 4; j++) {
      uint32_t k = ks[i], spin = 20000;
      uint64_t out = 0;
      assert_ok_diag(ws_emu_mem_alloc(f->dev, n * 4, "out", &out, &f->d), &f->d);
      void *args[] = {&out, &k, &spin};
      ws_emu_stats st;
      ws_diag_free(&f->d);
      assert_int_equal(launch(f, "lowfault", n, 32, args, j, 0, 0, &st), WS_EFAULT);
      assert_int_equal(st.fault_kind, WS_EMU_FAULT_OOB);
      char want[64];
      snprintf(want, sizeof want, "block (%u,0,0), thread (0,0,0)", k);
      char *t = ws_diag_format(&f->d);
      if (!t || !strstr(t, want)) fail_msg("k %u, -j %d: expected '%s' in: %s", k, j, want, t ? t : "(null)");
      free(t);
      ws_diag_free(&f->d);
      const uint32_t *h = ws_emu_mem_host(f->dev, out, n * 4);
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
  fix *f = *state;
  for (int j = 1; j <= 3; j++) {
    ws_emu_stats st;
    ws_diag_free(&f->d);
    assert_int_equal(launch(f, "spin", 40, 32, NULL, j, 0, 300000, &st), WS_EFAULT);
    assert_int_equal(st.fault_kind, WS_EMU_FAULT_LAUNCH_LIMIT);
    ws_diag_free(&f->d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_every_block_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_lowest_fault_wins, setup, teardown),
      cmocka_unit_test_setup_teardown(test_launch_limit_with_workers, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
