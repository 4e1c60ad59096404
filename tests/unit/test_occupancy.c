/*
 * test_occupancy.c — active blocks per SM against hand computations with the
 * CUDA Occupancy Calculator rules (derivations in each test).
 */
#include "testutil.h"
#include "warpsight/gpu.h"

static ws_occupancy occ(int major, int minor, int threads, int regs, int shared) {
  ws_sm_limits L;
  assert_int_equal(ws_gpu_sm_limits_for_cc(&L, major, minor), WS_OK);
  ws_diag d = WS_DIAG_INIT;
  ws_occupancy_in in = {threads, regs, shared};
  ws_occupancy o;
  int r = ws_gpu_occupancy_compute(&o, &L, 32, &in, &d);
  assert_ok_diag(r, &d);
  ws_diag_free(&d);
  return o;
}

/* CC 1.0, 256 threads, 10 regs, 2048 B: warps 8 -> 24/8 = 3 (768/256 = 3);
 * regs per block = roundup(8 x 32 x 10 = 2560, 256) = 2560 -> 8192/2560 = 3;
 * shared roundup(2048, 512) = 2048 -> 16384/2048 = 8; blocks 8.
 * -> 3, warps and registers tie; the first in enum order (warps) is named. */
static void cc10(void **s) {
  (void)s;
  ws_occupancy o = occ(1, 0, 256, 10, 2048);
  assert_int_equal(o.active_blocks_per_sm, 3);
  assert_int_equal(o.limit_regs, 3);
  assert_int_equal(o.limit_shared, 8);
  assert_int_equal(o.limiter, WS_OCC_WARPS);
  assert_int_equal(o.regs_per_block_alloc, 2560);
}

/* CC 1.0, 96 threads (3 warps -> 4 with warp granularity 2), 17 regs:
 * regs per block = roundup(4 x 32 x 17 = 2176, 256) = 2304 -> 8192/2304 = 3. */
static void cc10_warp_granularity(void **s) {
  (void)s;
  ws_occupancy o = occ(1, 0, 96, 17, 0);
  assert_int_equal(o.regs_per_block_alloc, 2304);
  assert_int_equal(o.limit_regs, 3);
  assert_int_equal(o.active_blocks_per_sm, 3);
  assert_int_equal(o.limiter, WS_OCC_REGISTERS);
}

/* CC 1.3, 128 threads, 20 regs, 5000 B: warps 4 -> 32/4 = 8;
 * regs = roundup(4 x 32 x 20 = 2560, 512) = 2560 -> 16384/2560 = 6;
 * shared = roundup(5000, 512) = 5120 -> 16384/5120 = 3 -> 3 (shared). */
static void cc13(void **s) {
  (void)s;
  ws_occupancy o = occ(1, 3, 128, 20, 5000);
  assert_int_equal(o.limit_warps, 8);
  assert_int_equal(o.limit_regs, 6);
  assert_int_equal(o.limit_shared, 3);
  assert_int_equal(o.active_blocks_per_sm, 3);
  assert_int_equal(o.limiter, WS_OCC_SHARED);
}

/* CC 2.0, 192 threads, 32 regs: warps 6 -> 48/6 = 8; per warp
 * roundup(32 x 32, 64) = 1024 -> 32768/1024 = 32 warps -> 32/6 = 5 (registers). */
static void cc20(void **s) {
  (void)s;
  ws_occupancy o = occ(2, 0, 192, 32, 0);
  assert_int_equal(o.limit_warps, 8);
  assert_int_equal(o.limit_regs, 5);
  assert_int_equal(o.active_blocks_per_sm, 5);
  assert_int_equal(o.limiter, WS_OCC_REGISTERS);
  assert_int_equal(o.active_warps_per_sm, 30);
}

/* CC 3.5, 256 threads, 64 regs, 8192 B: warps 8 -> 64/8 = 8;
 * per warp 64 x 32 = 2048; per sub-partition 65536/4 = 16384 -> 8 warps,
 * x 4 = 32 -> 32/8 = 4; shared 49152/8192 = 6 -> 4 (registers). */
static void cc35(void **s) {
  (void)s;
  ws_occupancy o = occ(3, 5, 256, 64, 8192);
  assert_int_equal(o.limit_regs, 4);
  assert_int_equal(o.limit_shared, 6);
  assert_int_equal(o.active_blocks_per_sm, 4);
  assert_close(o.occupancy, 0.5, 1e-12);
}

/* CC 7.0, 1024 threads, 32 regs: warps 32 -> 64/32 = 2; per warp 1024 ->
 * 16384/1024 = 16 per sub-partition -> 64 warps -> 2; no shared -> 2 (warps). */
static void cc70(void **s) {
  (void)s;
  ws_occupancy o = occ(7, 0, 1024, 32, 0);
  assert_int_equal(o.active_blocks_per_sm, 2);
  assert_int_equal(o.limiter, WS_OCC_WARPS);
  assert_close(o.occupancy, 1.0, 1e-12);
}

/* CC 8.0, 128 threads, 40 regs, 48 KB: warps 4 -> 16; per warp
 * roundup(1280, 256) = 1280 -> 16384/1280 = 12 per sub -> 48 warps -> 12;
 * shared roundup(49152 + 1024 reserved, 128) = 50176 -> 167936/50176 = 3. */
static void cc80(void **s) {
  (void)s;
  ws_occupancy o = occ(8, 0, 128, 40, 49152);
  assert_int_equal(o.limit_regs, 12);
  assert_int_equal(o.shared_per_block_alloc, 50176);
  assert_int_equal(o.limit_shared, 3);
  assert_int_equal(o.active_blocks_per_sm, 3);
  assert_int_equal(o.limiter, WS_OCC_SHARED);
}

/* CC 9.0, 256 threads, 72 regs: per warp 2304 -> 16384/2304 = 7 per sub ->
 * 28 warps -> 28/8 = 3; shared (0 + 1024 reserved) -> 233472/1024 = 228. */
static void cc90(void **s) {
  (void)s;
  ws_occupancy o = occ(9, 0, 256, 72, 0);
  assert_int_equal(o.limit_regs, 3);
  assert_int_equal(o.limit_shared, 228);
  assert_int_equal(o.active_blocks_per_sm, 3);
  assert_int_equal(o.limiter, WS_OCC_REGISTERS);
}

/* Blocks that cannot run at all are errors, not zero. */
static void impossible(void **s) {
  (void)s;
  ws_sm_limits L;
  ws_gpu_sm_limits_for_cc(&L, 2, 0);
  ws_diag d = WS_DIAG_INIT;
  ws_occupancy o;
  ws_occupancy_in too_many_threads = {2048, 10, 0};
  assert_int_equal(ws_gpu_occupancy_compute(&o, &L, 32, &too_many_threads, &d), WS_EINVAL);
  ws_occupancy_in too_much_shared = {128, 10, 60000};
  assert_int_equal(ws_gpu_occupancy_compute(&o, &L, 32, &too_much_shared, &d), WS_EINVAL);
  ws_occupancy_in too_many_regs = {128, 64, 0}; /* 63 is the CC 2.0 limit */
  assert_int_equal(ws_gpu_occupancy_compute(&o, &L, 32, &too_many_regs, &d), WS_EINVAL);
  assert_int_equal(d.errors, 3);
  ws_diag_free(&d);
  assert_int_equal(ws_gpu_sm_limits_for_cc(&L, 4, 0), WS_EINVAL); /* no CC 4.x */
}

/* The rows nvcc 13 added (nvcc --list-gpu-arch: 8.8, 10.0, 10.3, 11.0,
 * 12.0, 12.1), typed from CUDA 13.0 cuda_occupancy.h: blocks per SM
 * (cudaOccMaxBlocksPerMultiprocessor: 8.x other than 8.0/8.9 -> 16, 10.0 and
 * 10.3 -> 32, 11.0 -> 24, 12.x -> 24) and the largest carve-out
 * (cudaOccAlignUpShmemSizeVoltaPlus: 228 KB for 10.x/11.0, 100 KB for 12.x). */
static void newest_ccs(void **s) {
  (void)s;
  static const struct { int ma, mi, blocks, shared; } rows[] = {
      {8, 8, 16, 100 * 1024}, {10, 0, 32, 228 * 1024}, {10, 3, 32, 228 * 1024},
      {11, 0, 24, 228 * 1024}, {12, 0, 24, 100 * 1024}, {12, 1, 24, 100 * 1024}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    ws_sm_limits L;
    assert_int_equal(ws_gpu_sm_limits_for_cc(&L, rows[i].ma, rows[i].mi), WS_OK);
    assert_int_equal(L.max_blocks_per_sm, rows[i].blocks);
    assert_int_equal(L.shared_per_sm, rows[i].shared);
    assert_int_equal(L.shared_reserved_per_block, 1024);
  }
  /* 12.0 (RTX 5090): 1536 threads per SM, so 256-thread blocks fit 6. */
  ws_sm_limits L;
  assert_int_equal(ws_gpu_sm_limits_for_cc(&L, 12, 0), WS_OK);
  ws_occupancy o;
  ws_occupancy_in in = {256, 32, 0};
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_gpu_occupancy_compute(&o, &L, 32, &in, &d), WS_OK);
  assert_int_equal(o.active_blocks_per_sm, 6);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cc10), cmocka_unit_test(cc10_warp_granularity),
      cmocka_unit_test(cc13), cmocka_unit_test(cc20), cmocka_unit_test(cc35),
      cmocka_unit_test(cc70), cmocka_unit_test(cc80), cmocka_unit_test(cc90),
      cmocka_unit_test(impossible), cmocka_unit_test(newest_ccs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
