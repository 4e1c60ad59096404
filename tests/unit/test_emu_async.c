/*
 * test_emu_async.c — asynchronous copies and mbarrier objects
 * (src/emu/ops/async.h, mbar.h): cp.async with its zero fill and
 * ignore-src, a double-buffered cp.async pipeline, cuda::barrier and
 * cuda::pipeline as nvcc lowers them for sm_80 (test_wait loops) and sm_90
 * (try_wait.parity), mbarrier phases with arrive_drop and pending_count,
 * the bulk copies of sm_90 with their transaction bytes, and a wait that
 * can never complete, reported as a deadlock.
 *
 * Kernels: tests/unit/kernels/emu_async.cu.  Each expected value follows
 * from the kernel's definition (the comments there say what it computes);
 * the inputs are pseudo-random.
 */
#include "testutil.h"

#include "emu_fixture.h"

typedef emu_fix fix;

EMU_FIXTURE("emu_async.sm_80.ptx", "emu_async.sm_90.ptx", 2)

/* Run kernel k of module mi on grid x block threads; args: device
 * addresses then one optional int.  Returns ws_emu_run's status; the
 * fault kind in *fk. */
static int run(fix *f, int mi, const char *k, uint32_t grid, uint32_t block, const uint64_t *addr, int naddr,
               const int *n, int *fk) {
  void *args[8];
  for (int i = 0; i < naddr; i++) args[i] = (void *)&addr[i];
  if (n) args[naddr] = (void *)n;
  ws_emu_stats st;
  int r = emu_run(f, mi, k, grid, block, 1, args, 0, &st);
  if (fk) *fk = st.fault_kind;
  return r;
}

/* Thread t reads t % 17 of its 16 bytes (the rest are zeros); odd threads
 * ignore their 4-byte source (zeros), even ones copy it. */
static void test_cp_async_zfill(void **state) {
  fix *f = *state;
  uint8_t g[512];
  uint32_t h[32];
  for (int i = 0; i < 512; i++) g[i] = (uint8_t)(i * 37 + 11);
  for (int i = 0; i < 32; i++) h[i] = 0x01020304u * (uint32_t)(i + 1);
  for (int mi = 0; mi < 2; mi++) {
    uint64_t a[4] = {emu_buf(f, g, sizeof g), emu_buf(f, h, sizeof h), emu_buf(f, NULL, 512), emu_buf(f, NULL, 128)};
    assert_ok_diag(run(f, mi, "cp_zfill", 1, 32, a, 4, NULL, NULL), &f->d);
    const uint8_t *o = emu_host(f, a[2], 512);
    const uint32_t *o2 = emu_host(f, a[3], 128);
    for (int t = 0; t < 32; t++) {
      for (int i = 0; i < 16; i++) assert_int_equal(o[t * 16 + i], i < t % 17 ? g[t * 16 + i] : 0);
      assert_int_equal(o2[t], t & 1 ? 0 : h[t]);
    }
  }
}

/* out[i][t] = 2 * in[i][255 - t] over 5 stages. */
static void test_cp_async_pipeline(void **state) {
  fix *f = *state;
  float g[5 * 256];
  for (int i = 0; i < 5 * 256; i++) g[i] = (float)(i % 97) * 0.25f - 3.0f;
  uint64_t a[2] = {emu_buf(f, g, sizeof g), emu_buf(f, NULL, sizeof g)};
  int n = 5;
  assert_ok_diag(run(f, 0, "cp_pipeline", 1, 256, a, 2, &n, NULL), &f->d);
  const float *o = emu_host(f, a[1], sizeof g);
  for (int i = 0; i < 5; i++)
    for (int t = 0; t < 256; t++) assert_true(o[i * 256 + t] == 2 * g[i * 256 + 255 - t]);
}

/* cuda::barrier + memcpy_async, 3 blocks; cuda::pipeline with 2 stages. */
static void test_barrier_and_pipeline(void **state) {
  fix *f = *state;
  int g[3 * 256];
  for (int i = 0; i < 3 * 256; i++) g[i] = i * 5 - 700;
  for (int mi = 0; mi < 2; mi++) {
    uint64_t a[2] = {emu_buf(f, g, sizeof g), emu_buf(f, NULL, sizeof g)};
    assert_ok_diag(run(f, mi, "bar_copy", 3, 256, a, 2, NULL, NULL), &f->d);
    const int *o = emu_host(f, a[1], sizeof g);
    for (int b = 0; b < 3; b++)
      for (int t = 0; t < 256; t++) assert_int_equal(o[b * 256 + t], g[b * 256 + 255 - t]);
    uint64_t p[2] = {emu_buf(f, g, 256 * 4), emu_buf(f, NULL, 256 * 4)};
    assert_ok_diag(run(f, mi, "pipe_stages", 1, 128, p, 2, NULL, NULL), &f->d);
    const int *q = emu_host(f, p[1], 256 * 4);
    for (int i = 0; i < 2; i++)
      for (int t = 0; t < 128; t++) assert_int_equal(q[i * 128 + t], g[i * 128 + 127 - t] + i);
  }
}

/* mb_phases: every thread reads the x warp 1 computed (v = v * 3 + i over
 * n, 32-bit wrapping), so warp 0's wait let warp 1 run.  Phase 1: the
 * emulator's round-robin schedule lets warp 1 past the __syncthreads
 * first (it completes the barrier), so warp 1 arrives first in phase 0 and
 * warp 0, which completes phase 0, arrives first in phase 1: lane l's
 * arrive_drop leaves 64 - (l + 1) arrivals pending.  Phase 2 expects the
 * 32 that remain; an arrive of 31 leaves 1. */
static void test_mbarrier_phases(void **state) {
  fix *f = *state;
  int n = 3000;
  uint32_t v = 0;
  for (int i = 0; i < n; i++) v = v * 3 + (uint32_t)i;
  for (int mi = 0; mi < 2; mi++) {
    uint64_t a[1] = {emu_buf(f, NULL, 97 * 4)};
    assert_ok_diag(run(f, mi, "mb_phases", 1, 64, a, 1, &n, NULL), &f->d);
    const int *o = emu_host(f, a[0], 97 * 4);
    for (int t = 0; t < 64; t++) assert_int_equal((uint32_t)o[t], v);
    for (int l = 0; l < 32; l++) assert_int_equal(o[64 + l], 63 - l);
    assert_int_equal(o[96], 1);
  }
}

/* A phase that cannot complete: a deadlock fault naming the wait. */
static void test_mbarrier_deadlock(void **state) {
  fix *f = *state;
  for (int mi = 0; mi < 2; mi++) {
    uint64_t a[1] = {emu_buf(f, NULL, 128)};
    int fk = -1;
    ws_diag_free(&f->d);
    assert_int_equal(run(f, mi, "mb_deadlock", 1, 32, a, 1, NULL, &fk), WS_EFAULT);
    assert_int_equal(fk, WS_EMU_FAULT_DEADLOCK);
    char *msg = ws_diag_format(&f->d);
    assert_non_null(strstr(msg, "mbarrier wait that cannot complete: warp 0 waits on an mbarrier phase that never completes"));
    assert_non_null(strstr(msg, mi ? "mbarrier.try_wait.parity" : "mbarrier.test_wait.parity"));
    free(msg);
    ws_diag_free(&f->d);
  }
}

/* sm_90 bulk copies: 1024 bytes to shared completing the barrier's
 * transaction bytes; o[t] = s[t].x + s[t].w; the reversed copy back. */
static void test_bulk_copy(void **state) {
  fix *f = *state;
  int32_t g[256];
  for (int i = 0; i < 256; i++) g[i] = i * i - 3 * i;
  uint64_t a[3] = {emu_buf(f, g, sizeof g), emu_buf(f, NULL, 128), emu_buf(f, NULL, sizeof g)};
  assert_ok_diag(run(f, 1, "bulk_copy", 1, 32, a, 3, NULL, NULL), &f->d);
  const int32_t *o = emu_host(f, a[1], 128), *o2 = emu_host(f, a[2], sizeof g);
  for (int t = 0; t < 32; t++) assert_int_equal(o[t], g[4 * t] + g[4 * t + 3]);
  for (int t = 0; t < 32; t++)
    for (int c = 0; c < 4; c++) {
      assert_int_equal(o2[4 * t + c], g[4 * (63 - t) + c]);
      assert_int_equal(o2[4 * (t + 32) + c], g[4 * (31 - t) + c]);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_cp_async_zfill, setup, teardown),
      cmocka_unit_test_setup_teardown(test_cp_async_pipeline, setup, teardown),
      cmocka_unit_test_setup_teardown(test_barrier_and_pipeline, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mbarrier_phases, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mbarrier_deadlock, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bulk_copy, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
