/*
 * test_emu_hostnum.c — the forms the emulator computes on the host instead
 * of calling num.c per lane (issue 22) give num.c's bits: fma.rn.f32 over
 * a whole warp (vectorised, with the fix-up of doubtful lanes), fma.rz,
 * .rm and .rp.f32 (TwoSum), ex2.approx.f32 with and without .ftz,
 * cvt.sat.f32.f32 with and without .ftz, and abs.f32 and neg.f32.  A
 * kernel applies each to 64 K operand triples (special values: zeros,
 * subnormals, the ends of the normal range, infinities, NaNs with
 * payloads, values around 1, exponents whose ex2 is subnormal or
 * overflows; a product and sum that a double rounds to a
 * midpoint; and random ones, of close exponents so that sums cancel), and
 * every result is compared with the
 * num.c function of the same operation, which tests/unit/test_num.c checks
 * against independent references.
 */
#include "testutil.h"

#include <string.h>

#include "emu/num.h"
#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define N (1 << 16)
enum { OPS = 11, STRIDE = 12 }; /* results per element; words per element (16-byte aligned) */

static const char ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<4>;\n  .reg .f32 %f<16>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r1, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd3, %r1, 12;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n  ld.global.f32 %f2, [%rd4+4];\n  ld.global.f32 %f3, [%rd4+8];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "  fma.rz.f32 %f5, %f1, %f2, %f3;\n"
    "  fma.rm.f32 %f6, %f1, %f2, %f3;\n"
    "  fma.rp.f32 %f7, %f1, %f2, %f3;\n"
    "  ex2.approx.f32 %f8, %f1;\n"
    "  ex2.approx.ftz.f32 %f9, %f2;\n"
    "  cvt.sat.f32.f32 %f10, %f1;\n"
    "  cvt.ftz.sat.f32.f32 %f11, %f3;\n"
    "  abs.f32 %f12, %f1;\n"
    "  neg.f32 %f13, %f2;\n"
    "  cvt.rn.sat.f32.f32 %f14, %f2;\n"
    "  mul.wide.u32 %rd5, %r1, 48;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};\n"
    "  st.global.v4.f32 [%rd6+16], {%f8, %f9, %f10, %f11};\n"
    "  st.global.f32 [%rd6+32], %f12;\n  st.global.f32 [%rd6+36], %f13;\n"
    "  st.global.f32 [%rd6+40], %f14;\n"
    "  ret;\n}\n";

static uint64_t g_state = 0x243F6A8885A308D3ull;
static uint32_t rnd32(void) {
  g_state = g_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(g_state >> 32);
}

/* One operand: special values a sixteenth of the time, else a random sign
 * and mantissa with an exponent near e0 (close exponents: cancellation,
 * midpoints, results near the ends of the range when e0 is extreme). */
static uint32_t operand(int e0) {
  static const uint32_t special[] = {
      0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x80800000u, 0x7f7fffffu,
      0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x3f800000u,
      0xbf800000u, 0x3f7fffffu, 0x3f800001u, 0x34000000u, 0x00400000u, 0x3f000000u,
      /* ex2 of these is subnormal, flushed or tiny, or near and past the top:
       * -127.5, -130, -149.5, -126.25, 127.5, 128.5, 127.99 */
      0xc2ff0000u, 0xc3020000u, 0xc3158000u, 0xc2fc8000u, 0x42ff0000u, 0x43008000u, 0x42fffae1u};
  uint32_t r = rnd32();
  if ((r & 15) == 0) return special[(r >> 4) % (sizeof special / sizeof special[0])];
  int e = e0 + (int)((r >> 4) % 9) - 4;
  if (e < 1) e = 1;
  if (e > 254) e = 254;
  return (rnd32() & 0x807fffffu) | (uint32_t)e << 23;
}

static void host_forms(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  ws_emu_program *p = NULL;
  ws_emu_device *dev = NULL;
  ws_emu_launch *l = NULL;
  assert_ok_diag(ws_ptx_parse(&m, ptx, strlen(ptx), "hostnum.ptx", &d), &d);
  assert_ok_diag(ws_emu_load(&p, m, "k", &d), &d);
  ws_emu_device_options dopt = {0};
  assert_ok_diag(ws_emu_device_new(&dev, &dopt, &d), &d);
  uint64_t in, out;
  assert_ok_diag(ws_emu_mem_alloc(dev, (uint64_t)N * 12, "in", &in, &d), &d);
  assert_ok_diag(ws_emu_mem_alloc(dev, (uint64_t)N * 4 * STRIDE, "out", &out, &d), &d);
  uint32_t *hi = ws_emu_mem_host(dev, in, (uint64_t)N * 12);
  /* fma.rn's double rounding: (1 - 2^-24)(1 + 2^-23) + 2^-47 (1 + 2^-23)
   * = 1 + 2^-24 + 2^-70, which a double rounds to the midpoint 1 + 2^-24
   * of 1 and 1 + 2^-23; the exact value is above it: 1 + 2^-23.  Every
   * 97th element (both signs), so each warp has doubtful lanes now and
   * then. */
  static const uint32_t mid[2][3] = {{0x3f7fffffu, 0x3f800001u, 0x28000001u},
                                     {0xbf7fffffu, 0x3f800001u, 0xa8000001u}};
  for (int i = 0; i < N; i++) {
    if (i % 97 == 5) {
      memcpy(&hi[3 * i], mid[i % 2], sizeof mid[0]);
      continue;
    }
    /* exponents: around 1, around the bottom and the top of the range */
    int e0 = i % 3 == 0 ? 127 : i % 3 == 1 ? 20 : 230;
    hi[3 * i] = operand(e0);
    hi[3 * i + 1] = operand(i % 3 == 2 ? 127 - (e0 - 127) / 2 : e0);
    hi[3 * i + 2] = operand(i % 3 == 1 ? 2 * e0 - 127 : e0);
  }
  void *args[] = {&in, &out};
  unsigned char img[16];
  size_t used;
  assert_ok_diag(ws_emu_params_pack(ws_emu_program_kernel(p), args, img, sizeof img, &used, &d), &d);
  ws_emu_launch_config c = {{N / 256, 1, 1}, {256, 1, 1}, 0, img, used};
  assert_ok_diag(ws_emu_launch_raw(&l, dev, p, &c, &d), &d);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  assert_ok_diag(ws_emu_run(l, &o, NULL, &d), &d);
  const uint32_t *ho = ws_emu_mem_host(dev, out, (uint64_t)N * 4 * STRIDE);
  static const char *const names[OPS] = {"fma.rn", "fma.rz", "fma.rm", "fma.rp", "ex2.approx",
                                         "ex2.approx.ftz", "cvt.sat", "cvt.ftz.sat", "abs", "neg",
                                         "cvt.rn.sat"};
  int bad = 0;
  for (int i = 0; i < N; i++) {
    uint32_t a = hi[3 * i], b = hi[3 * i + 1], cc = hi[3 * i + 2];
    uint32_t want[OPS] = {
        ws_emu_num_f32_fma(a, b, cc, WS_NUM_RN, 0, 0),
        ws_emu_num_f32_fma(a, b, cc, WS_NUM_RZ, 0, 0),
        ws_emu_num_f32_fma(a, b, cc, WS_NUM_RM, 0, 0),
        ws_emu_num_f32_fma(a, b, cc, WS_NUM_RP, 0, 0),
        ws_emu_num_f32_ex2_approx(a, 0),
        ws_emu_num_f32_ex2_approx(b, 1),
        (uint32_t)ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_F32, WS_NUM_RND_NONE, 0, 1),
        (uint32_t)ws_emu_num_cvt(cc, WS_NUM_F32, WS_NUM_F32, WS_NUM_RND_NONE, 1, 1),
        ws_emu_num_f32_abs(a, 0),
        ws_emu_num_f32_neg(b, 0),
        (uint32_t)ws_emu_num_cvt(b, WS_NUM_F32, WS_NUM_F32, WS_NUM_RN, 0, 1)};
    for (int k = 0; k < OPS; k++)
      if (ho[STRIDE * i + k] != want[k] && bad++ < 10)
        print_error("%s a=0x%08x b=0x%08x c=0x%08x: emulator 0x%08x, num.c 0x%08x\n", names[k], a, b, cc,
                    ho[STRIDE * i + k], want[k]);
  }
  assert_int_equal(bad, 0);
  ws_emu_launch_free(l);
  ws_emu_device_free(dev);
  ws_emu_program_free(p);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(host_forms)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
