/*
 * test_emu_device.c — the emulator's device-memory API (warpsight/emu.h
 * "device memory"): allocations shared by two launches, a __device__
 * counter that keeps its value across launches, a .const variable written
 * from the host and read by a kernel, a __managed__ variable, parameters
 * packed from pointers (a struct by value), refusals (free of a non-base
 * address, a budget exceeded) and the fault kind of a faulting launch.
 * Every expected value is computed in the test from the kernel's
 * definition (the comments give the arithmetic).
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* fill: out[i] = 3 * i; addone: out[i] = in[i] + 1; count: counter += 1 per
 * thread; scale: out[i] = cf[i & 3] * 2; mgd: m += i for every thread i;
 * oob: reads in[n] (one past its end) in thread 0; agg: a struct
 * {f32 a; s32 b; f64 c} by value, out[0] = a + b + c (f64). */
static const char ptx[] = HDR
    ".global .align 4 .u32 counter = 5;\n"
    /* barwait: warp 0 waits at a barrier at once, warp 1 loops 100000 times first */
    ".visible .entry barwait()\n"
    "{\n  .reg .pred %p<3>;\n  .reg .b32 %r<3>;\n  mov.u32 %r1, %tid.x;\n  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra WAIT;\n  mov.u32 %r2, 0;\nLOOP:\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, 100000;\n"
    "  @%p2 bra LOOP;\nWAIT:\n  bar.sync 0;\n  ret;\n}\n"
    /* flagspin: warp 1 waits at a barrier before it would set the flag;
     * warp 0 clears the flag and spins on it, so it never gets there */
    ".visible .entry flagspin()\n"
    "{\n  .reg .pred %p<3>;\n  .reg .b32 %r<3>;\n  .shared .align 4 .u32 flag;\n  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra SPIN;\n  bar.sync 0;\n  st.shared.u32 [flag], 1;\n  ret;\n"
    "SPIN:\n  st.shared.u32 [flag], 0;\nAGAIN:\n  ld.volatile.shared.u32 %r2, [flag];\n"
    "  setp.eq.u32 %p2, %r2, 0;\n  @%p2 bra AGAIN;\n  bar.sync 0;\n  ret;\n}\n"
    ".global .attribute(.managed) .align 4 .u32 m;\n"
    ".const .align 4 .f32 cf[4];\n"
    ".visible .entry fill(.param .u64 out)\n"
    "{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, 3;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}\n"
    ".visible .entry addone(.param .u64 in, .param .u64 out)\n"
    "{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd4, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r2, [%rd3];\n"
    "  add.u32 %r3, %r2, 1;\n  add.s64 %rd5, %rd4, %rd2;\n  st.global.u32 [%rd5], %r3;\n  ret;\n}\n"
    ".visible .entry count()\n"
    "{\n  .reg .b32 %r<2>;\n  atom.global.add.u32 %r1, [counter], 1;\n  ret;\n}\n"
    ".visible .entry scale(.param .u64 out)\n"
    "{\n  .reg .b32 %r<4>;\n  .reg .f32 %f<3>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 3;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  mov.u64 %rd3, cf;\n  add.s64 %rd4, %rd3, %rd2;\n"
    "  ld.const.f32 %f1, [%rd4];\n  add.f32 %f2, %f1, %f1;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd5, %rd1, %rd2;\n  st.global.f32 [%rd5], %f2;\n  ret;\n}\n"
    ".visible .entry mgd()\n"
    "{\n  .reg .b32 %r<3>;\n  mov.u32 %r1, %tid.x;\n  atom.global.add.u32 %r2, [m], %r1;\n  ret;\n}\n"
    ".visible .entry oob(.param .u64 in, .param .u32 n)\n"
    "{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u32 %r1, [n];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r2, [%rd3];\n  ret;\n}\n"
    ".visible .entry agg(.param .align 8 .b8 s[16], .param .u64 out)\n"
    "{\n  .reg .b32 %r<2>;\n  .reg .f32 %f<2>;\n  .reg .f64 %fd<5>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.f32 %f1, [s];\n  ld.param.s32 %r1, [s+4];\n  ld.param.f64 %fd1, [s+8];\n"
    "  ld.param.u64 %rd1, [out];\n  cvt.f64.f32 %fd2, %f1;\n  cvt.rn.f64.s32 %fd3, %r1;\n"
    "  add.f64 %fd4, %fd2, %fd3;\n  add.f64 %fd4, %fd4, %fd1;\n  st.global.f64 [%rd1], %fd4;\n  ret;\n}\n";

typedef struct fix {
  ws_ptx_module *m;
  ws_emu_device *dev;
  ws_diag d;
} fix;

static int setup(void **state) {
  fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  assert_ok_diag(ws_ptx_parse(&f->m, ptx, strlen(ptx), "dev.ptx", &f->d), &f->d);
  ws_emu_device_options o = {1u << 20}; /* 1 MiB budget */
  assert_ok_diag(ws_emu_device_new(&f->dev, &o, &f->d), &f->d);
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

/* Launch kernel `k` of the module with x threads and the given parameter
 * pointers; returns the status of ws_emu_run, fault kind in *fk. */
static int launch(fix *f, const char *k, uint32_t x, void *const *args, int *fk) {
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint8_t img[256];
  size_t used = 0;
  assert_ok_diag(ws_emu_load(&p, f->m, k, &f->d), &f->d);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_launch_config c = {{1, 1, 1}, {x, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = 2;
  o.max_warp_insts = 100000;
  ws_emu_stats st;
  memset(&st, 0xff, sizeof st);
  int r = ws_emu_run(l, &o, &st, &f->d);
  if (fk) *fk = st.fault_kind;
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  return r;
}

/* fill then addone on the same allocations: the second launch sees the
 * first one's writes; the host reads the result. */
static void test_two_launches_share_memory(void **state) {
  fix *f = *state;
  uint64_t a = 0, b = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 64 * 4, "d_a", &a, &f->d), &f->d);
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 64 * 4, "d_b", &b, &f->d), &f->d);
  assert_true(a != 0 && b != 0 && a % 256 == 0 && b % 256 == 0);
  assert_true(b >= a + 64 * 4); /* disjoint */
  void *fa[] = {&a};
  assert_int_equal(launch(f, "fill", 64, fa, NULL), WS_OK);
  void *aa[] = {&a, &b};
  int fk = -1;
  assert_int_equal(launch(f, "addone", 64, aa, &fk), WS_OK);
  assert_int_equal(fk, WS_EMU_FAULT_NONE);
  uint32_t *hb = ws_emu_mem_host(f->dev, b, 64 * 4);
  assert_non_null(hb);
  for (uint32_t i = 0; i < 64; i++) assert_int_equal(hb[i], 3 * i + 1);
  /* the host writes, the kernel reads: in[i] = 100 - i, out = 101 - i */
  uint32_t *ha = ws_emu_mem_host(f->dev, a, 64 * 4);
  for (uint32_t i = 0; i < 64; i++) ha[i] = 100 - i;
  assert_int_equal(launch(f, "addone", 64, aa, NULL), WS_OK);
  for (uint32_t i = 0; i < 64; i++) assert_int_equal(hb[i], 101 - i);
  /* bounds of ws_emu_mem_host: inside one allocation only */
  assert_non_null(ws_emu_mem_host(f->dev, a + 4, 64 * 4 - 4));
  assert_null(ws_emu_mem_host(f->dev, a + 4, 64 * 4));
  assert_null(ws_emu_mem_host(f->dev, a - 1, 1));
  assert_int_equal(ws_emu_mem_free(f->dev, a, &f->d), WS_OK);
  assert_int_equal(ws_emu_mem_free(f->dev, b, &f->d), WS_OK);
  assert_null(ws_emu_mem_host(f->dev, a, 4));
}

/* count on 64 threads three times: counter = 5 (its initialiser) + 3 * 64. */
static void test_device_counter_persists(void **state) {
  fix *f = *state;
  assert_int_equal(launch(f, "count", 64, NULL, NULL), WS_OK);
  assert_int_equal(launch(f, "count", 64, NULL, NULL), WS_OK);
  assert_int_equal(launch(f, "count", 64, NULL, NULL), WS_OK);
  ws_emu_program *p = NULL;
  assert_ok_diag(ws_emu_load(&p, f->m, "count", &f->d), &f->d);
  uint64_t a = 0, n = 0;
  assert_ok_diag(ws_emu_var_find(f->dev, p, "counter", &a, &n, &f->d), &f->d);
  assert_int_equal(n, 4);
  uint32_t *c = ws_emu_mem_host(f->dev, a, 4);
  assert_non_null(c);
  assert_int_equal(*c, 5 + 3 * 64);
  /* the host resets it; one more launch of 32 threads counts from 0 */
  *c = 0;
  assert_int_equal(launch(f, "count", 32, NULL, NULL), WS_OK);
  assert_int_equal(*c, 32);
  /* absent names and .shared/.param names are refused */
  assert_int_equal(ws_emu_var_find(f->dev, p, "nosuch", &a, &n, &f->d), WS_EINVAL);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "no .global or .const variable named 'nosuch'"));
  free(msg);
  ws_emu_program_free(p);
}

/* cf = {1.5, -2, 0.25, 8} written through ws_emu_mem_host; scale on 8
 * threads: out[i] = 2 * cf[i & 3]. */
static void test_const_written_by_host(void **state) {
  fix *f = *state;
  ws_emu_program *p = NULL;
  assert_ok_diag(ws_emu_load(&p, f->m, "scale", &f->d), &f->d);
  uint64_t ca = 0, cn = 0, out = 0;
  assert_ok_diag(ws_emu_var_find(f->dev, p, "cf", &ca, &cn, &f->d), &f->d);
  assert_int_equal(cn, 16);
  float *hc = ws_emu_mem_host(f->dev, ca, 16);
  assert_non_null(hc);
  assert_null(ws_emu_mem_host(f->dev, ca + 4, 16)); /* past the bank */
  const float cf[4] = {1.5f, -2.0f, 0.25f, 8.0f};
  for (int i = 0; i < 4; i++) assert_true(hc[i] == 0.0f); /* no initialiser: zero */
  memcpy(hc, cf, sizeof cf);
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 8 * 4, "out", &out, &f->d), &f->d);
  void *args[] = {&out};
  assert_int_equal(launch(f, "scale", 8, args, NULL), WS_OK);
  float *ho = ws_emu_mem_host(f->dev, out, 32);
  for (int i = 0; i < 8; i++) assert_true(ho[i] == 2.0f * cf[i & 3]);
  ws_emu_program_free(p);
  assert_int_equal(ws_emu_mem_free(f->dev, out, &f->d), WS_OK);
}

/* mgd on 64 threads: m = 0 + 1 + ... + 63 = 64 * 63 / 2 = 2016. */
static void test_managed_variable(void **state) {
  fix *f = *state;
  assert_int_equal(launch(f, "mgd", 64, NULL, NULL), WS_OK);
  ws_emu_program *p = NULL;
  assert_ok_diag(ws_emu_load(&p, f->m, "mgd", &f->d), &f->d);
  uint64_t a = 0, n = 0;
  assert_ok_diag(ws_emu_var_find(f->dev, p, "m", &a, &n, &f->d), &f->d);
  uint32_t *hm = ws_emu_mem_host(f->dev, a, 4);
  assert_non_null(hm);
  assert_int_equal(*hm, 2016);
  ws_emu_program_free(p);
}

/* agg with {a = 1.5, b = -7, c = 0.125}: 1.5 - 7 + 0.125 = -5.375 (exact in
 * binary).  The struct's layout is the C one: a at 0, b at 4, c at 8. */
static void test_struct_by_value(void **state) {
  fix *f = *state;
  struct {
    float a;
    int32_t b;
    double c;
  } s = {1.5f, -7, 0.125};
  uint64_t out = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 8, NULL, &out, &f->d), &f->d);
  void *args[] = {&s, &out};
  assert_int_equal(launch(f, "agg", 1, args, NULL), WS_OK);
  double *r = ws_emu_mem_host(f->dev, out, 8);
  assert_true(*r == -5.375);
  /* too small a buffer for the image is refused */
  ws_emu_program *p = NULL;
  assert_ok_diag(ws_emu_load(&p, f->m, "agg", &f->d), &f->d);
  uint8_t img[8];
  size_t used = 1;
  assert_int_equal(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d),
                   WS_EINVAL);
  assert_int_equal(used, 0);
  ws_emu_program_free(p);
  assert_int_equal(ws_emu_mem_free(f->dev, out, &f->d), WS_OK);
}

static void test_refusals(void **state) {
  fix *f = *state;
  uint64_t a = 0, z1 = 0, z2 = 0, big = 0;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 1000, "x", &a, &f->d), &f->d);
  /* not the base of a live allocation */
  assert_int_equal(ws_emu_mem_free(f->dev, a + 8, &f->d), WS_EINVAL);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "is not the start of a live allocation"));
  free(msg);
  assert_int_equal(ws_emu_mem_free(f->dev, 0, &f->d), WS_EINVAL);
  assert_int_equal(ws_emu_mem_free(f->dev, a, &f->d), WS_OK);
  assert_int_equal(ws_emu_mem_free(f->dev, a, &f->d), WS_EINVAL); /* twice */
  /* zero bytes: allowed, distinct, non-zero addresses */
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 0, NULL, &z1, &f->d), &f->d);
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 0, NULL, &z2, &f->d), &f->d);
  assert_true(z1 && z2 && z1 != z2);
  /* the budget is 1 MiB: 1 MiB - 1000 fits after 1000 bytes, one more byte does not */
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 1000, "x2", &a, &f->d), &f->d);
  ws_diag_free(&f->d);
  assert_int_equal(ws_emu_mem_alloc(f->dev, (1u << 20) - 999, "d_big", &big, &f->d), WS_ENOMEM);
  assert_int_equal(big, 0);
  msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "cannot allocate 1047577 bytes for 'd_big': the device memory budget is 1048576 bytes and 1000 are in use"));
  free(msg);
  assert_ok_diag(ws_emu_mem_alloc(f->dev, (1u << 20) - 1000, "d_big", &big, &f->d), &f->d);
  assert_int_equal(ws_emu_mem_free(f->dev, big, &f->d), WS_OK);
  /* a use after free is an out-of-bounds fault, reported as such */
  uint32_t n = 0;
  void *args[] = {&a, &n};
  assert_int_equal(ws_emu_mem_free(f->dev, a, &f->d), WS_OK);
  ws_diag_free(&f->d);
  int fk = -1;
  assert_int_equal(launch(f, "oob", 1, args, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_OOB);
}

/* oob reads in[16] of a 16-element buffer: fault kind OOB, the report names
 * the allocation. */
static void test_fault_kind(void **state) {
  fix *f = *state;
  uint64_t a = 0;
  uint32_t n = 16;
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 64, "d_in", &a, &f->d), &f->d);
  void *args[] = {&a, &n};
  int fk = -1;
  ws_diag_free(&f->d);
  assert_int_equal(launch(f, "oob", 1, args, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_OOB);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "0 bytes past the end of buffer 'd_in' (64 bytes"));
  free(msg);
  ws_diag_free(&f->d);
  n = 15; /* the last element: no fault */
  assert_int_equal(launch(f, "oob", 1, args, &fk), WS_OK);
  assert_int_equal(fk, WS_EMU_FAULT_NONE);
  assert_int_equal(ws_emu_mem_free(f->dev, a, &f->d), WS_OK);
}

/* A launch whose parameter image has the wrong size, or whose block is past
 * CUDA's limits, is refused before anything runs. */
static void test_launch_checks(void **state) {
  fix *f = *state;
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint8_t img[8] = {0};
  assert_ok_diag(ws_emu_load(&p, f->m, "fill", &f->d), &f->d);
  ws_emu_launch_config c = {{1, 1, 1}, {32, 1, 1}, 0, img, 4};
  assert_int_equal(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), WS_EINVAL);
  assert_null(l);
  c.params_bytes = 8;
  c.block[0] = 2048;
  assert_int_equal(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), WS_EINVAL);
  c.block[0] = 0;
  assert_int_equal(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), WS_EINVAL);
  ws_emu_program_free(p);
}

/* The default launch limit scales with the grid (warpsight/emu.h): the
 * larger of 2^27 and 2^20 per warp; an explicit one is kept; a grid of
 * more than 2^27 warps is still refused before it runs. */
static void test_launch_limit(void **state) {
  fix *f = *state;
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  uint64_t out = 0;
  void *args[] = {&out};
  uint8_t img[8];
  size_t used = 0;
  assert_ok_diag(ws_emu_load(&p, f->m, "fill", &f->d), &f->d);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &f->d), &f->d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  ws_emu_launch_config c = {{1, 1, 1}, {32, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  assert_int_equal(ws_emu_launch_limit(l, &o), 1ull << 27); /* one warp: the floor */
  ws_emu_launch_free(l);
  c.grid[0] = 4096, c.block[0] = 1024; /* 4096 x 32 = 2^17 warps: 2^17 x 2^20 */
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  assert_int_equal(ws_emu_launch_limit(l, &o), 1ull << 37);
  assert_int_equal(ws_emu_check_work(l, 1u << 22, &o, &f->d), WS_OK); /* 2^27 warps */
  assert_int_equal(ws_emu_check_work(l, (1u << 22) + 1, &o, &f->d), WS_EINVAL);
  o.max_launch_insts = 5000;
  assert_int_equal(ws_emu_launch_limit(l, &o), 5000);
  o.max_launch_insts = 0;
  assert_int_equal(ws_emu_launch_limit(l, &o), 0);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  ws_diag_free(&f->d);
}

/* A launch stopped by the LAUNCH limit while a warp waits at a barrier is
 * a long launch, not a barrier deadlock (issue 21: binomialOptions and dxtc
 * were reported as deadlocks): the fault names the launch limit. */
static void test_launch_limit_not_deadlock(void **state) {
  fix *f = *state;
  ws_emu_program *p = NULL;
  ws_emu_launch *l = NULL;
  assert_ok_diag(ws_emu_load(&p, f->m, "barwait", &f->d), &f->d);
  ws_emu_launch_config c = {{1, 1, 1}, {64, 1, 1}, 0, NULL, 0};
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, p, &c, &f->d), &f->d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = 1;
  o.max_warp_insts = 0;
  o.max_launch_insts = 5000;
  ws_emu_stats st;
  assert_int_equal(ws_emu_run(l, &o, &st, &f->d), WS_EFAULT);
  assert_int_equal(st.fault_kind, WS_EMU_FAULT_LAUNCH_LIMIT);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, "the launch exceeded the limit of 5000 warp instructions"));
  assert_null(strstr(msg, "deadlock"));
  assert_non_null(strstr(msg, "--max-launch-insts N (0 lifts it"));
  free(msg);
  ws_emu_launch_free(l);
  ws_emu_program_free(p);
  ws_diag_free(&f->d);
}

/* A warp that spins on a flag that only a warp waiting at a barrier would
 * set: stopped by the warp limit (100000, launch()), and reported as a
 * barrier-spin deadlock by its own fault kind, not by the text of its
 * message; the message names warp 1's barrier by its PTX line (counted
 * in the module's text). */
static void test_spin_deadlock_kind(void **state) {
  fix *f = *state;
  int fk = -1;
  assert_int_equal(launch(f, "flagspin", 64, NULL, &fk), WS_EFAULT);
  assert_int_equal(fk, WS_EMU_FAULT_SPIN_DEADLOCK);
  /* the line of warp 1's barrier: the first "bar.sync 0" after flagspin's name */
  const char *k = strstr(ptx, "flagspin"), *bar = strstr(k, "bar.sync 0");
  int line = 1;
  for (const char *c = ptx; c < bar; c++) line += *c == '\n';
  char want[160];
  snprintf(want, sizeof want,
           "barrier deadlock: warp 0 spins past the limit of 100000 warp instructions (--max-warp-insts) "
           "while warp 1 waits at barrier 0 (PTX line %d)", line);
  char *msg = ws_diag_format(&f->d);
  assert_non_null(strstr(msg, want));
  assert_non_null(strstr(msg, "needs a higher limit: --max-warp-insts N"));
  free(msg);
  ws_diag_free(&f->d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_two_launches_share_memory, setup, teardown),
      cmocka_unit_test_setup_teardown(test_device_counter_persists, setup, teardown),
      cmocka_unit_test_setup_teardown(test_const_written_by_host, setup, teardown),
      cmocka_unit_test_setup_teardown(test_managed_variable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_struct_by_value, setup, teardown),
      cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
      cmocka_unit_test_setup_teardown(test_fault_kind, setup, teardown),
      cmocka_unit_test_setup_teardown(test_launch_checks, setup, teardown),
      cmocka_unit_test_setup_teardown(test_launch_limit, setup, teardown),
      cmocka_unit_test_setup_teardown(test_launch_limit_not_deadlock, setup, teardown),
      cmocka_unit_test_setup_teardown(test_spin_deadlock_kind, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
