/*
 * test_jit_lane.c — the translated engine's inline numeric forms
 * (src/emu/jit/jit_lane.h) against num.c, the interpreter's semantics they
 * stand for: every form gives num.c's bits wherever it says it may be used
 * (its *ok), on special values (zeros, subnormals, normals at the edges,
 * infinities, NaNs with payloads, rounding ties) crossed with each other and
 * on random inputs (uniform bit patterns, and values of nearby magnitude that
 * take the fast paths), in every rounding mode with and without .ftz and
 * .sat.  The fast paths must also be taken: a form that always said "ask
 * num.c" would pass the comparison and slow the engine down in silence.
 */
#include "testutil.h"

#include <inttypes.h>

#include "emu/jit/jit_lane.h"
#include "emu/num.h"

static int fails;

#define EQ(got, want, ...)                                                                          \
  do {                                                                                              \
    uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                                           \
    if (g_ != w_ && fails++ < 20) {                                                                 \
      print_error("%s:%d: 0x%" PRIX64 ", num.c gives 0x%" PRIX64 " for ", __FILE__, __LINE__, g_, w_); \
      print_error(__VA_ARGS__);                                                                     \
      print_error("\n");                                                                            \
    }                                                                                               \
  } while (0)

/* splitmix64: the inputs are the same on every run */
static uint64_t rnd_state = 0x5eed;
static uint64_t next64(void) {
  uint64_t z = (rnd_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Special f32 values: zeros, subnormals, normal edges, ties, inf, NaNs. */
static const uint32_t special[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000,
    0x80800000, 0x00800001, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x3F000000, 0x3FC00000,
    0x33800000, 0x33800001, 0x34400000, 0x4B400001, 0x437C0000, 0xCB40007F, 0x3E6D3389, 0x3BBB989D,
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
    0x7FBFFFFF, 0x7FFFFFFF, 0x4F000000, 0xCF000000, 0x4F800000, 0x5F000000, 0xDF000000, 0x3F000001,
    0x40490FDB, 0xC0490FDB, 0x42FE0000, 0xC2FE0000, 0x43000000, 0xC3160000, 0x0D800000, 0x2F800000};
#define NSPECIAL (sizeof special / sizeof *special)
#define NRANDOM 20000

/* A random f32: any bit pattern, or one near 1 (exponent within +-8). */
static uint32_t rnd_f32(int near) {
  uint32_t u = (uint32_t)next64();
  if (near) u = (u & 0x807FFFFFu) | ((uint32_t)(119 + (next64() % 17)) << 23);
  return u;
}

static const int rnds[] = {WS_NUM_RND_NONE, WS_NUM_RN, WS_NUM_RZ, WS_NUM_RM, WS_NUM_RP};

static void check_add_mul(uint32_t a, uint32_t b, long *taken) {
  for (size_t r = 0; r < 5; r++)
    for (int ftz = 0; ftz < 2; ftz++)
      for (int sat = 0; sat < 2; sat++) {
        uint32_t ok, v = jl_f32_add(a, b, rnds[r], sat, &ok);
        if (ok) EQ(v, ws_emu_num_f32_add(a, b, (ws_emu_num_rnd)rnds[r], ftz, sat), "add %08X %08X r%d f%d s%d", a, b, rnds[r], ftz, sat);
        *taken += ok;
        v = jl_f32_mul(a, b, rnds[r], sat, &ok);
        if (ok) EQ(v, ws_emu_num_f32_mul(a, b, (ws_emu_num_rnd)rnds[r], ftz, sat), "mul %08X %08X r%d f%d s%d", a, b, rnds[r], ftz, sat);
        *taken += ok;
      }
}

static void check_fma(uint32_t a, uint32_t b, uint32_t c, long *taken) {
  for (size_t r = 0; r < 5; r++)
    for (int ftz = 0; ftz < 2; ftz++)
      for (int sat = 0; sat < 2; sat++) {
        uint32_t ok, v = jl_f32_fma(a, b, c, rnds[r], sat, &ok);
        if (ok)
          EQ(v, ws_emu_num_f32_fma(a, b, c, (ws_emu_num_rnd)rnds[r], ftz, sat), "fma %08X %08X %08X r%d f%d s%d", a, b, c,
             rnds[r], ftz, sat);
        *taken += ok;
      }
}

/* add, sub (as add with b negated, as num.c does) and mul; fma. */
static void arith(void **st) {
  (void)st;
  fails = 0;
  long taken = 0, tries = 0;
  for (size_t i = 0; i < NSPECIAL; i++)
    for (size_t j = 0; j < NSPECIAL; j++) {
      check_add_mul(special[i], special[j], &taken);
      for (size_t k = 0; k < NSPECIAL; k += 3) check_fma(special[i], special[j], special[k], &taken);
    }
  for (int n = 0; n < NRANDOM; n++) {
    int near = n & 1;
    check_add_mul(rnd_f32(near), rnd_f32(near), &taken);
    check_fma(rnd_f32(near), rnd_f32(near), rnd_f32(near), &taken);
    tries += 60;
  }
  assert_int_equal(fails, 0);
  assert_true(taken > tries / 4); /* the fast paths are used */
}

/* cvt between f32, f64 and integers, every form the engine inlines. */
static void conversions(void **st) {
  (void)st;
  fails = 0;
  static const int irnds[] = {WS_NUM_RND_NONE, WS_NUM_RNI, WS_NUM_RZI, WS_NUM_RMI, WS_NUM_RPI};
  static const ws_emu_num_type ints[][2] = {{WS_NUM_U8, 8},   {WS_NUM_S8, 8},   {WS_NUM_U16, 16}, {WS_NUM_S16, 16},
                                            {WS_NUM_U32, 32}, {WS_NUM_S32, 32}, {WS_NUM_U64, 64}, {WS_NUM_S64, 64}};
  for (int n = 0; n < (int)NSPECIAL + 4 * NRANDOM; n++) {
    uint32_t a = n < (int)NSPECIAL ? special[n] : n % 3 == 0 ? rnd_f32(0) : rnd_f32(1) + (uint32_t)(n % 3 == 1) * (25u << 23);
    uint64_t d = next64(); /* a random f64 (bits), or a's value as f64 */
    if (n & 1) d = ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_F64, WS_NUM_RN, 0, 0) + (next64() & 0xFFFFFFF);
    uint64_t iv = next64() >> (next64() % 64);
    for (int ftz = 0; ftz < 2; ftz++)
      for (int sat = 0; sat < 2; sat++) {
        EQ(jl_cvt_f32_f32(a, ftz, sat), ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_F32, WS_NUM_RND_NONE, ftz, sat),
           "cvt.f32.f32 %08X f%d s%d", a, ftz, sat);
        EQ(jl_cvt_f32_f64(d, ftz, sat), ws_emu_num_cvt(d, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, ftz, sat),
           "cvt.rn.f32.f64 %016" PRIX64 " f%d s%d", d, ftz, sat);
        if (!sat)
          EQ(jl_cvt_f64_f32(a, ftz), ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_F64, WS_NUM_RND_NONE, ftz, 0),
             "cvt.f64.f32 %08X f%d", a, ftz);
      }
    for (size_t t = 0; t < 8; t++) {
      ws_emu_num_type it = ints[t][0];
      int bits = (int)ints[t][1], sgn = it == WS_NUM_S8 || it == WS_NUM_S16 || it == WS_NUM_S32 || it == WS_NUM_S64;
      for (int sat = 0; sat < 2; sat++)
        EQ(sat ? jl_sat32(jl_cvt_f32_int(iv, bits, sgn)) : jl_cvt_f32_int(iv, bits, sgn),
           ws_emu_num_cvt(iv, it, WS_NUM_F32, WS_NUM_RN, 0, sat), "cvt.rn.f32 from int %016" PRIX64 " %d %d s%d", iv,
           bits, sgn, sat);
      EQ(jb64(jl_int_as_double(iv, bits, sgn)), ws_emu_num_cvt(iv, it, WS_NUM_F64, WS_NUM_RN, 0, 0),
         "cvt.rn.f64 from int %016" PRIX64 " %d %d", iv, bits, sgn);
      for (size_t r = 0; r < 5; r++)
        for (int ftz = 0; ftz < 2; ftz++) {
          EQ(jl_cvt_int_f(jl_f32_in(a, ftz), irnds[r], bits, sgn),
             ws_emu_num_cvt(a, WS_NUM_F32, it, (ws_emu_num_rnd)irnds[r], ftz, 0), "cvt.int.f32 %08X r%d f%d bits %d s%d",
             a, irnds[r], ftz, bits, sgn);
          if (!ftz)
            EQ(jl_cvt_int_f(jf64(d), irnds[r], bits, sgn), ws_emu_num_cvt(d, WS_NUM_F64, it, (ws_emu_num_rnd)irnds[r], 0, 0),
               "cvt.int.f64 %016" PRIX64 " r%d bits %d s%d", d, irnds[r], bits, sgn);
        }
    }
  }
  assert_int_equal(fails, 0);
}

/* rcp, sqrt, div correctly rounded (.approx, .full, .rn, .ftz) and the
 * .approx functions. */
static void division_and_approx(void **st) {
  (void)st;
  fails = 0;
  long taken = 0, tries = 0;
  for (int n = 0; n < (int)(NSPECIAL * NSPECIAL) + 4 * NRANDOM; n++) {
    int sp = n < (int)(NSPECIAL * NSPECIAL);
    uint32_t a = sp ? special[n / NSPECIAL] : rnd_f32(n & 1), b = sp ? special[n % NSPECIAL] : rnd_f32(n & 1);
    uint32_t ok;
    for (size_t r = 1; r < 5; r++) {
      uint32_t v = jl_f32_div(a, b, rnds[r], &ok);
      for (int ftz = 0; ftz < 2; ftz++)
        if (ok) EQ(v, ws_emu_num_f32_div(a, b, (ws_emu_num_rnd)rnds[r], ftz), "div r%d %08X %08X f%d", rnds[r], a, b, ftz);
      taken += ok;
    }
    uint32_t v = jl_f32_div_approx(a, b, &ok);
    for (int ftz = 0; ftz < 2; ftz++)
      if (ok) EQ(v, ws_emu_num_f32_div_approx(a, b, ftz), "div.approx %08X %08X f%d", a, b, ftz);
    taken += ok, tries += 5;
    for (int ftz = 0; ftz < 2; ftz++) {
      EQ(jl_f32_div_rn(a, b, ftz), ws_emu_num_f32_div_full(a, b, ftz), "div.full %08X %08X f%d", a, b, ftz);
      EQ(jl_f32_div_rn(a, b, ftz), ws_emu_num_f32_div(a, b, WS_NUM_RN, ftz), "div.rn %08X %08X f%d", a, b, ftz);
      if (!sp || n % NSPECIAL == 0) {
        EQ(jl_f32_rcp_rn(a, ftz), ws_emu_num_f32_rcp_approx(a, ftz), "rcp.approx %08X f%d", a, ftz);
        EQ(jl_f32_rcp_rn(a, ftz), ws_emu_num_f32_rcp(a, WS_NUM_RN, ftz), "rcp.rn %08X f%d", a, ftz);
        EQ(jl_f32_sqrt_rn(a, ftz), ws_emu_num_f32_sqrt_approx(a, ftz), "sqrt.approx %08X f%d", a, ftz);
        EQ(jl_f32_sqrt_rn(a, ftz), ws_emu_num_f32_sqrt(a, WS_NUM_RN, ftz), "sqrt.rn %08X f%d", a, ftz);
        EQ(jl_f32_rsqrt(a, ftz), ws_emu_num_f32_rsqrt_approx(a, ftz), "rsqrt.approx %08X f%d", a, ftz);
        EQ(jl_f32_ex2(a, ftz), ws_emu_num_f32_ex2_approx(a, ftz), "ex2.approx %08X f%d", a, ftz);
        EQ(jl_f32_lg2(a, ftz), ws_emu_num_f32_lg2_approx(a, ftz), "lg2.approx %08X f%d", a, ftz);
        EQ(jl_f32_sincos(a, ftz, 0), ws_emu_num_f32_sin_approx(a, ftz), "sin.approx %08X f%d", a, ftz);
        EQ(jl_f32_sincos(a, ftz, 1), ws_emu_num_f32_cos_approx(a, ftz), "cos.approx %08X f%d", a, ftz);
      }
    }
    if (!sp || n % NSPECIAL == 0) EQ(jl_f32_tanh(a), ws_emu_num_f32_tanh_approx(a), "tanh.approx %08X", a);
  }
  assert_int_equal(fails, 0);
  assert_true(taken > tries / 4); /* the quotients' fast paths are used */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(arith),
      cmocka_unit_test(conversions),
      cmocka_unit_test(division_and_approx),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
