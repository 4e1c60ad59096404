/*
 * test_emu_cdp.c — device-side launches in the emulator (src/emu/cdp.c,
 * docs/emulator.md, "Device-side launches"): a kernel calls the device
 * runtime's system calls as libcudadevrt's k<<<...>>> does
 * (__cuda_syscall_cnpv2GetParameterBufferV2, then LaunchDeviceV2), writes
 * the child's arguments into the buffer, and the launch lists the child
 * grids (ws_emu_launch_children) with their configurations and parameter
 * images, by launching block and launch order; and the faults: a launch of
 * a function that is not a kernel, an invalid configuration, a buffer
 * launched twice.
 *
 * parent(out, mode), 4 blocks of 64 threads: threads 0..2 of each block
 * launch child<<<(t + 1, 2, 1), (32, 1, 1), 16 t>>>(out + 4 t, 100 + 10 b + t)
 * (b the block, t the thread), then store cudaGetLastError() + the launch's
 * status (0) at out[b * 3 + t].  mode 1 launches notkernel, mode 2 asks for
 * 2048 threads per block, mode 3 launches each buffer twice.
 */
#include "testutil.h"

#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".extern .func (.param .b64 rv) __cuda_syscall_cnpv2GetParameterBufferV2(.param .b64 p0, "
    ".param .align 4 .b8 p1[12], .param .align 4 .b8 p2[12], .param .b32 p3);\n"
    ".extern .func (.param .b32 rv) __cuda_syscall_cnpv2LaunchDeviceV2(.param .b64 p0, .param .b64 p1);\n"
    ".extern .func (.param .b32 rv) __cuda_syscall_cnpv2GetLastError();\n"
    ".visible .entry child(.param .u64 p, .param .u32 v) { ret; }\n"
    ".func notkernel() { ret; }\n"
    ".visible .entry parent(.param .u64 out, .param .u32 mode)\n"
    "{\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .pred %p<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r9, [mode];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  setp.ge.u32 %p1, %r1, 3;\n"
    "  @%p1 bra DONE;\n"
    "  mov.u64 %rd2, child;\n"
    "  setp.eq.u32 %p2, %r9, 1;\n"
    "  @%p2 mov.u64 %rd2, notkernel;\n"
    "  add.u32 %r3, %r1, 1;\n"
    "  mul.lo.u32 %r4, %r1, 16;\n"
    "  mov.u32 %r5, 32;\n"
    "  setp.eq.u32 %p3, %r9, 2;\n"
    "  @%p3 mov.u32 %r5, 2048;\n"
    "  {\n"
    "  .param .b64 a0;\n"
    "  .param .align 4 .b8 a1[12];\n"
    "  .param .align 4 .b8 a2[12];\n"
    "  .param .b32 a3;\n"
    "  .param .b64 r0;\n"
    "  st.param.b64 [a0], %rd2;\n"
    "  st.param.b32 [a1], %r3;\n"
    "  st.param.b32 [a1+4], 2;\n"
    "  st.param.b32 [a1+8], 1;\n"
    "  st.param.b32 [a2], %r5;\n"
    "  st.param.b32 [a2+4], 1;\n"
    "  st.param.b32 [a2+8], 1;\n"
    "  st.param.b32 [a3], %r4;\n"
    "  call.uni (r0), __cuda_syscall_cnpv2GetParameterBufferV2, (a0, a1, a2, a3);\n"
    "  ld.param.b64 %rd3, [r0];\n"
    "  }\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.u64 [%rd3], %rd5;\n"
    "  mad.lo.u32 %r6, %r2, 10, %r1;\n"
    "  add.u32 %r6, %r6, 100;\n"
    "  st.u32 [%rd3+8], %r6;\n"
    "AGAIN:\n"
    "  {\n"
    "  .param .b64 b0;\n"
    "  .param .b64 b1;\n"
    "  .param .b32 r1;\n"
    "  st.param.b64 [b0], %rd3;\n"
    "  st.param.b64 [b1], 0;\n"
    "  call.uni (r1), __cuda_syscall_cnpv2LaunchDeviceV2, (b0, b1);\n"
    "  ld.param.b32 %r7, [r1];\n"
    "  }\n"
    "  setp.eq.u32 %p3, %r9, 3;\n"
    "  mov.u32 %r9, 0;\n"
    "  @%p3 bra AGAIN;\n"
    "  {\n"
    "  .param .b32 r2;\n"
    "  call.uni (r2), __cuda_syscall_cnpv2GetLastError, ();\n"
    "  ld.param.b32 %r8, [r2];\n"
    "  }\n"
    "  add.u32 %r10, %r7, %r8;\n"
    "  mad.lo.u32 %r11, %r2, 3, %r1;\n"
    "  mul.wide.u32 %rd6, %r11, 4;\n"
    "  add.s64 %rd7, %rd1, %rd6;\n"
    "  st.global.u32 [%rd7], %r10;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

typedef struct fix {
  ws_ptx_module *m;
  ws_emu_device *dev;
  ws_emu_program *p;
  uint64_t out;
  ws_diag d;
} fix;

static int setup(void **state) {
  fix *f = calloc(1, sizeof *f);
  assert_non_null(f);
  assert_ok_diag(ws_ptx_parse(&f->m, ptx, strlen(ptx), "cdp.ptx", &f->d), &f->d);
  assert_ok_diag(ws_emu_device_new(&f->dev, NULL, &f->d), &f->d);
  assert_ok_diag(ws_emu_load(&f->p, f->m, "parent", &f->d), &f->d);
  assert_ok_diag(ws_emu_mem_alloc(f->dev, 64, "out", &f->out, &f->d), &f->d);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fix *f = *state;
  ws_emu_program_free(f->p);
  ws_emu_device_free(f->dev);
  ws_ptx_module_free(f->m);
  ws_diag_free(&f->d);
  free(f);
  return 0;
}

/* Run parent in mode on `threads` workers; the launch (the caller frees
 * it) and the status in *st. */
static ws_emu_launch *run(fix *f, uint32_t mode, int threads, int *st, ws_diag *d) {
  uint8_t img[16];
  size_t used = 0;
  void *args[2] = {&f->out, &mode};
  memset(ws_emu_mem_host(f->dev, f->out, 64), 0xff, 64);
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(f->p), args, img, sizeof img, &used, d), d);
  ws_emu_launch_config c = {{4, 1, 1}, {64, 1, 1}, 0, img, used};
  ws_emu_launch *l = NULL;
  assert_ok_diag(ws_emu_launch_raw(&l, f->dev, f->p, &c, d), d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = threads;
  ws_emu_stats s;
  memset(&s, 0, sizeof s);
  *st = ws_emu_run(l, &o, &s, d);
  return l;
}

static void test_children(void **state) {
  fix *f = *state;
  for (int threads = 1; threads <= 4; threads += 3) { /* the order does not depend on the workers */
    int st;
    ws_emu_launch *l = run(f, 0, threads, &st, &f->d);
    assert_ok_diag(st, &f->d);
    const ws_emu_child *c = NULL;
    int err = -1;
    size_t n = ws_emu_launch_children(l, &c, &err);
    assert_int_equal(err, 0);
    assert_int_equal(n, 12);
    for (uint32_t i = 0; i < 12; i++) {
      uint32_t b = i / 3, t = i % 3;
      assert_string_equal(c[i].kernel->name, "child");
      assert_int_equal(c[i].block_linear, b);
      assert_int_equal(c[i].grid[0], t + 1);
      assert_int_equal(c[i].grid[1], 2);
      assert_int_equal(c[i].grid[2], 1);
      assert_int_equal(c[i].block[0], 32);
      assert_int_equal(c[i].shared_bytes, 16 * t);
      uint64_t p;
      uint32_t v;
      memcpy(&p, c[i].params, 8);
      memcpy(&v, c[i].params + 8, 4);
      assert_int_equal(p, f->out + 4 * t);
      assert_int_equal(v, 100 + 10 * b + t);
    }
    const uint32_t *o = ws_emu_mem_host(f->dev, f->out, 48);
    for (int i = 0; i < 12; i++) assert_int_equal(o[i], 0); /* the launch and cudaGetLastError succeeded */
    ws_emu_launch_free(l);
  }
}

/* A fault stops the launch with a message naming what was wrong. */
static void expect_fault(fix *f, uint32_t mode, const char *what) {
  ws_diag d = WS_DIAG_INIT;
  int st;
  ws_emu_launch *l = run(f, mode, 1, &st, &d);
  assert_int_equal(st, WS_EFAULT);
  int found = 0;
  for (size_t i = 0; i < d.count; i++)
    if (strstr(d.items[i].message, what)) found = 1;
  if (!found) {
    char *s = ws_diag_format(&d);
    print_error("mode %u: no diagnostic with '%s' in:\n%s\n", mode, what, s ? s : "");
    free(s);
  }
  assert_true(found);
  ws_emu_launch_free(l);
  ws_diag_free(&d);
}

static void test_faults(void **state) {
  fix *f = *state;
  expect_fault(f, 1, "which is not a kernel of the module");
  expect_fault(f, 2, "device-side launch of 'child' with an invalid configuration: grid 1 x 2 x 1, block 2048 x 1 x 1");
  expect_fault(f, 3, "which is not a parameter buffer this block got and has not launched yet");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_children, setup, teardown),
      cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
