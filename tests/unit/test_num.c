/*
 * test_num.c — the PTX numeric library (src/emu/num.c) against hand-derived
 * bit patterns (the arithmetic is in the comments; rules quoted from the PTX
 * ISA where they decide the answer) and, for the IEEE operations, randomized
 * differential runs against the independent references in num_ref.h.
 */
#include "testutil.h"
#include "num_ref.h"

#include <float.h>
#include <inttypes.h>

#define RN WS_NUM_RN
#define RZ WS_NUM_RZ
#define RM WS_NUM_RM
#define RP WS_NUM_RP

static int fails;

/* Compare bits and say which case failed, in hex. */
#define EQ(got, want)                                                                         \
  do {                                                                                        \
    uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                                     \
    if (g_ != w_) {                                                                           \
      print_error("%s:%d: %s = 0x%" PRIX64 ", expected 0x%" PRIX64 "\n", __FILE__, __LINE__, \
                  #got, g_, w_);                                                              \
      fails++;                                                                                \
    }                                                                                         \
  } while (0)
#define DONE() assert_int_equal(fails, 0)

/* ---- f32 arithmetic, hand cases ---------------------------------------- */

static void f32_add_rounding(void **st) {
  (void)st;
  fails = 0;
  /* 1 + 2^-24: exactly half an ulp of 1.0 (ulp = 2^-23): a tie. RN -> even
   * (1.0), RZ/RM -> 1.0, RP -> 1 + 2^-23 = 0x3F800001. */
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800000, RN, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800000, RZ, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800000, RM, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800000, RP, 0, 0), 0x3F800001);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800000, WS_NUM_RND_NONE, 0, 0), 0x3F800000);
  /* 1 + 3*2^-24 = 1 + 1.5 ulp: tie between 0x3F800001 (odd) and
   * 0x3F800002 (even) -> RN 0x3F800002. 3*2^-24 = 1.5 * 2^-23 = 0x34400000. */
  EQ(ws_emu_num_f32_add(0x3F800000, 0x34400000, RN, 0, 0), 0x3F800002);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x34400000, RZ, 0, 0), 0x3F800001);
  /* Near-tie: 1 + (2^-24 + 2^-47) is just above the tie: RN rounds up.
   * 2^-24 (1 + 2^-23) = 0x33800001. */
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800001, RN, 0, 0), 0x3F800001);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x33800001, RZ, 0, 0), 0x3F800000);
  /* Negative: -1 - 2^-24. RM goes away from zero, RP/RZ toward it. */
  EQ(ws_emu_num_f32_add(0xBF800000, 0xB3800000, RM, 0, 0), 0xBF800001);
  EQ(ws_emu_num_f32_add(0xBF800000, 0xB3800000, RP, 0, 0), 0xBF800000);
  EQ(ws_emu_num_f32_add(0xBF800000, 0xB3800000, RZ, 0, 0), 0xBF800000);
  /* Far apart operands: 1 + 2^-100 (0x0D800000): only the sticky bit. */
  EQ(ws_emu_num_f32_add(0x3F800000, 0x0D800000, RN, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_add(0x3F800000, 0x0D800000, RP, 0, 0), 0x3F800001);
  EQ(ws_emu_num_f32_sub(0x3F800000, 0x0D800000, RZ, 0, 0), 0x3F7FFFFF); /* 1 - tiny -> below 1 */
  EQ(ws_emu_num_f32_sub(0x3F800000, 0x0D800000, RN, 0, 0), 0x3F800000);
  DONE();
}

static void f32_overflow(void **st) {
  (void)st;
  fails = 0;
  /* FLT_MAX + FLT_MAX: RN/RP -> +inf, RZ/RM -> FLT_MAX (IEEE 754 7.4). */
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x7F7FFFFF, RN, 0, 0), 0x7F800000);
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x7F7FFFFF, RP, 0, 0), 0x7F800000);
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x7F7FFFFF, RZ, 0, 0), 0x7F7FFFFF);
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x7F7FFFFF, RM, 0, 0), 0x7F7FFFFF);
  EQ(ws_emu_num_f32_add(0xFF7FFFFF, 0xFF7FFFFF, RP, 0, 0), 0xFF7FFFFF);
  EQ(ws_emu_num_f32_add(0xFF7FFFFF, 0xFF7FFFFF, RM, 0, 0), 0xFF800000);
  /* FLT_MAX + 2^103 (half its ulp 2^104, 0x73000000): a tie between FLT_MAX
   * (odd significand) and 2^128 -> even -> overflow to inf; RZ keeps MAX. */
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x73000000, RN, 0, 0), 0x7F800000);
  EQ(ws_emu_num_f32_add(0x7F7FFFFF, 0x73000000, RZ, 0, 0), 0x7F7FFFFF);
  /* 2^127 * 2 = 2^128 overflows; RZ -> FLT_MAX. */
  EQ(ws_emu_num_f32_mul(0x7F000000, 0x40000000, RN, 0, 0), 0x7F800000);
  EQ(ws_emu_num_f32_mul(0x7F000000, 0x40000000, RZ, 0, 0), 0x7F7FFFFF);
  DONE();
}

static void f32_subnormal_ftz(void **st) {
  (void)st;
  fails = 0;
  /* 2^-126 * 0.5 = 2^-127: subnormal 0x00400000; .ftz flushes it to +0. */
  EQ(ws_emu_num_f32_mul(0x00800000, 0x3F000000, RN, 0, 0), 0x00400000);
  EQ(ws_emu_num_f32_mul(0x00800000, 0x3F000000, RN, 1, 0), 0x00000000);
  EQ(ws_emu_num_f32_mul(0x80800000, 0x3F000000, RN, 1, 0), 0x80000000); /* sign kept */
  /* 2^-149 * 0.5 = 2^-150: a tie between 0 and 2^-149 -> RN 0 (even);
   * RP -> 2^-149; RM -> +0; and -2^-150 in RM -> -2^-149. */
  EQ(ws_emu_num_f32_mul(0x00000001, 0x3F000000, RN, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_mul(0x00000001, 0x3F000000, RP, 0, 0), 0x00000001);
  EQ(ws_emu_num_f32_mul(0x00000001, 0x3F000000, RM, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_mul(0x80000001, 0x3F000000, RM, 0, 0), 0x80000001);
  /* 3 * 2^-150 = 1.5 * 2^-149: tie between 1 and 2 units -> 2. */
  EQ(ws_emu_num_f32_mul(0x00000003, 0x3F000000, RN, 0, 0), 0x00000002);
  /* Subnormal inputs: kept without .ftz, zero of the same sign with it. */
  EQ(ws_emu_num_f32_add(0x00000001, 0x00000000, RN, 0, 0), 0x00000001);
  EQ(ws_emu_num_f32_add(0x00000001, 0x00000000, RN, 1, 0), 0x00000000);
  EQ(ws_emu_num_f32_add(0x80000001, 0x80000000, RN, 1, 0), 0x80000000); /* -0 + -0 */
  EQ(ws_emu_num_f32_add(0x00000001, 0x3F800000, RP, 1, 0), 0x3F800000); /* flushed: exact 1 */
  EQ(ws_emu_num_f32_add(0x00000001, 0x3F800000, RP, 0, 0), 0x3F800001);
  /* Max subnormal + min subnormal = 2^-126 exactly: normal, not flushed. */
  EQ(ws_emu_num_f32_add(0x007FFFFF, 0x00000001, RN, 0, 0), 0x00800000);
  /* (2^-126 - 2^-149) * (1 + 2^-23): exact value just under 2^-126;
   * rounds (RN) up to 2^-126, which is normal: .ftz keeps it. */
  EQ(ws_emu_num_f32_mul(0x007FFFFF, 0x3F800001, RN, 1, 0), 0x00000000); /* input flushed */
  EQ(ws_emu_num_f32_mul(0x007FFFFF, 0x3F800001, RN, 0, 0), 0x00800000);
  DONE();
}

static void f32_zero_nan_sat(void **st) {
  (void)st;
  fails = 0;
  /* x - x = +0 in every mode but RM, where it is -0 (IEEE 754 6.3). */
  EQ(ws_emu_num_f32_sub(0x3F800000, 0x3F800000, RN, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_sub(0x3F800000, 0x3F800000, RM, 0, 0), 0x80000000);
  EQ(ws_emu_num_f32_add(0x80000000, 0x80000000, RN, 0, 0), 0x80000000);
  EQ(ws_emu_num_f32_add(0x00000000, 0x80000000, RN, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_add(0x00000000, 0x80000000, RM, 0, 0), 0x80000000);
  EQ(ws_emu_num_f32_mul(0x80000000, 0x3F800000, RN, 0, 0), 0x80000000);
  /* NaN results are the canonical NaN 0x7FFFFFFF (PTX ISA, f32 arithmetic). */
  EQ(ws_emu_num_f32_add(0xFFC01234, 0x3F800000, RN, 0, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_add(0x7F800000, 0xFF800000, RN, 0, 0), 0x7FFFFFFF); /* inf - inf */
  EQ(ws_emu_num_f32_mul(0x7F800000, 0x00000000, RN, 0, 0), 0x7FFFFFFF); /* inf * 0 */
  EQ(ws_emu_num_f32_fma(0x7F800000, 0x3F800000, 0xFF800000, RN, 0, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_add(0x7F800000, 0x3F800000, RN, 0, 0), 0x7F800000);
  /* .sat: clamp to [0, 1]; NaN -> +0; -0 -> +0. */
  EQ(ws_emu_num_f32_add(0x3F000000, 0x3F333333, RN, 0, 1), 0x3F800000); /* 0.5 + 0.7 */
  EQ(ws_emu_num_f32_add(0xC0000000, 0x3F800000, RN, 0, 1), 0x00000000); /* -2 + 1 */
  EQ(ws_emu_num_f32_add(0x7FC00000, 0x3F800000, RN, 0, 1), 0x00000000);
  EQ(ws_emu_num_f32_mul(0x80000000, 0x3F800000, RN, 0, 1), 0x00000000);
  EQ(ws_emu_num_f32_mul(0x3F000000, 0x3F000000, RN, 0, 1), 0x3E800000); /* 0.25 kept */
  DONE();
}

static void f32_fma_div_sqrt(void **st) {
  (void)st;
  fails = 0;
  /* a = 1 + 2^-12 (0x3F800800); a*a - 1 = 2^-11 + 2^-24 exactly, which is
   * 2^-11 (1 + 2^-13): exponent 127-11 = 116 -> 0x3A000000, fraction bit
   * 23-13 = 10 -> 0x400: 0x3A000400. Separate mul then add would round
   * a*a to 1 + 2^-11 first (a tie, to even) and give 0x3A000000. */
  EQ(ws_emu_num_f32_fma(0x3F800800, 0x3F800800, 0xBF800000, RN, 0, 0), 0x3A000400);
  EQ(ws_emu_num_f32_add(ws_emu_num_f32_mul(0x3F800800, 0x3F800800, RN, 0, 0), 0xBF800000, RN, 0, 0),
     0x3A000000);
  /* fma with exact zero result: 1*1 - 1 = +0, and -0 in RM. */
  EQ(ws_emu_num_f32_fma(0x3F800000, 0x3F800000, 0xBF800000, RN, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_fma(0x3F800000, 0x3F800000, 0xBF800000, RM, 0, 0), 0x80000000);
  /* 0 * x + (-0): (+0) + (-0) -> +0; (-0) + (-0) -> -0. */
  EQ(ws_emu_num_f32_fma(0x00000000, 0x3F800000, 0x80000000, RN, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_fma(0x80000000, 0x3F800000, 0x80000000, RN, 0, 0), 0x80000000);
  /* 1/3 = 1.0101...b * 2^-2; 24 bits 0xAAAAAA, rest 0.101...b > half:
   * RN/RP 0x3EAAAAAB, RZ/RM 0x3EAAAAAA; negated for -1/3. */
  EQ(ws_emu_num_f32_div(0x3F800000, 0x40400000, RN, 0), 0x3EAAAAAB);
  EQ(ws_emu_num_f32_div(0x3F800000, 0x40400000, RZ, 0), 0x3EAAAAAA);
  EQ(ws_emu_num_f32_div(0x3F800000, 0x40400000, RM, 0), 0x3EAAAAAA);
  EQ(ws_emu_num_f32_div(0x3F800000, 0x40400000, RP, 0), 0x3EAAAAAB);
  EQ(ws_emu_num_f32_div(0xBF800000, 0x40400000, RM, 0), 0xBEAAAAAB);
  EQ(ws_emu_num_f32_div(0xBF800000, 0x40400000, RP, 0), 0xBEAAAAAA);
  EQ(ws_emu_num_f32_div(0x3F800000, 0x00000000, RN, 0), 0x7F800000); /* 1/+0 */
  EQ(ws_emu_num_f32_div(0x3F800000, 0x80000000, RN, 0), 0xFF800000); /* 1/-0 */
  EQ(ws_emu_num_f32_div(0x00000000, 0x00000000, RN, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_div(0x3F800000, 0x00000001, RN, 1), 0x7F800000); /* flushed divisor */
  EQ(ws_emu_num_f32_div(0x3F800000, 0x00000001, RN, 0), 0x7F800000); /* 2^149 overflows */
  EQ(ws_emu_num_f32_rcp(0x40000000, RN, 0), 0x3F000000);
  EQ(ws_emu_num_f32_rcp(0x40400000, RZ, 0), 0x3EAAAAAA);
  /* sqrt(2) = 1.0110101000001001111001100|11... : 24 bits 0xB504F3, next
   * bits 0011... < half -> RN/RZ/RM 0x3FB504F3, RP 0x3FB504F4. */
  EQ(ws_emu_num_f32_sqrt(0x40000000, RN, 0), 0x3FB504F3);
  EQ(ws_emu_num_f32_sqrt(0x40000000, RM, 0), 0x3FB504F3);
  EQ(ws_emu_num_f32_sqrt(0x40000000, RP, 0), 0x3FB504F4);
  EQ(ws_emu_num_f32_sqrt(0x40800000, RP, 0), 0x40000000); /* sqrt(4) exact */
  EQ(ws_emu_num_f32_sqrt(0x80000000, RN, 0), 0x80000000); /* sqrt(-0) = -0 */
  EQ(ws_emu_num_f32_sqrt(0xBF800000, RN, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_sqrt(0x7F800000, RN, 0), 0x7F800000);
  EQ(ws_emu_num_f32_sqrt(0x00000001, RN, 0), 0x1A3504F3); /* sqrt(2^-149) = 2^-75 sqrt 2 */
  DONE();
}

static void f32_min_max_misc(void **st) {
  (void)st;
  fails = 0;
  /* -0 < +0 for min/max; a NaN operand yields the other; .NaN -> NaN. */
  EQ(ws_emu_num_f32_min(0x80000000, 0x00000000, 0, 0), 0x80000000);
  EQ(ws_emu_num_f32_min(0x00000000, 0x80000000, 0, 0), 0x80000000);
  EQ(ws_emu_num_f32_max(0x80000000, 0x00000000, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_max(0x00000000, 0x80000000, 0, 0), 0x00000000);
  EQ(ws_emu_num_f32_min(0x7FC00000, 0x3F800000, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_max(0x3F800000, 0xFFC00000, 0, 0), 0x3F800000);
  EQ(ws_emu_num_f32_min(0x7FC00000, 0x7FC00001, 0, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_min(0x7FC00000, 0x3F800000, 0, 1), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_max(0xBF800000, 0xC0000000, 0, 0), 0xBF800000); /* max(-1,-2) */
  EQ(ws_emu_num_f32_min(0xBF800000, 0xC0000000, 0, 0), 0xC0000000);
  EQ(ws_emu_num_f32_min(0x80000001, 0x00000000, 1, 0), 0x80000000); /* ftz: -0 vs +0 */
  EQ(ws_emu_num_f32_min(0x80000001, 0x00000000, 0, 0), 0x80000001);
  EQ(ws_emu_num_f64_min(0x8000000000000000ull, 0, 0), 0x8000000000000000ull);
  EQ(ws_emu_num_f64_max(0x7FF8000000000000ull, 0x4000000000000000ull, 0), 0x4000000000000000ull);
  /* abs/neg are sign-bit operations; .ftz flushes first. copysign.f32 d,a,b
   * takes the sign of a and the magnitude of b. */
  EQ(ws_emu_num_f32_abs(0xBF800000, 0), 0x3F800000);
  EQ(ws_emu_num_f32_abs(0x80000001, 1), 0x00000000);
  EQ(ws_emu_num_f32_neg(0x00000000, 0), 0x80000000);
  EQ(ws_emu_num_f32_neg(0x00000001, 1), 0x80000000);
  EQ(ws_emu_num_f32_copysign(0x80000000, 0x40000000), 0xC0000000);
  EQ(ws_emu_num_f32_copysign(0x00000000, 0xC0000000), 0x40000000);
  EQ(ws_emu_num_f64_copysign(0x8000000000000000ull, 0x3FF0000000000000ull), 0xBFF0000000000000ull);
  EQ(ws_emu_num_f64_abs(0xBFF0000000000000ull), 0x3FF0000000000000ull);
  /* testp classes. */
  EQ(ws_emu_num_f32_testp(0x00000001, WS_NUM_SUBNORMAL), 1);
  EQ(ws_emu_num_f32_testp(0x00000001, WS_NUM_NORMAL), 0);
  EQ(ws_emu_num_f32_testp(0x00000000, WS_NUM_NORMAL), 0);
  EQ(ws_emu_num_f32_testp(0x00000000, WS_NUM_SUBNORMAL), 0);
  EQ(ws_emu_num_f32_testp(0x00000000, WS_NUM_FINITE), 1);
  EQ(ws_emu_num_f32_testp(0x00800000, WS_NUM_NORMAL), 1);
  EQ(ws_emu_num_f32_testp(0xFF800000, WS_NUM_INFINITE), 1);
  EQ(ws_emu_num_f32_testp(0xFF800000, WS_NUM_FINITE), 0);
  EQ(ws_emu_num_f32_testp(0xFF800000, WS_NUM_NUMBER), 1);
  EQ(ws_emu_num_f32_testp(0x7F800001, WS_NUM_NOTANUMBER), 1);
  EQ(ws_emu_num_f32_testp(0x7F800001, WS_NUM_NUMBER), 0);
  EQ(ws_emu_num_f64_testp(0x000FFFFFFFFFFFFFull, WS_NUM_SUBNORMAL), 1);
  EQ(ws_emu_num_f64_testp(0x7FF0000000000000ull, WS_NUM_INFINITE), 1);
  DONE();
}

static void f32_setp(void **st) {
  (void)st;
  fails = 0;
  uint32_t one = 0x3F800000, two = 0x40000000, nan = 0x7FC00000;
  EQ(ws_emu_num_f32_cmp(one, two, WS_NUM_LT, 0), 1);
  EQ(ws_emu_num_f32_cmp(one, two, WS_NUM_GE, 0), 0);
  EQ(ws_emu_num_f32_cmp(one, one, WS_NUM_LE, 0), 1);
  EQ(ws_emu_num_f32_cmp(0x80000000, 0x00000000, WS_NUM_EQ, 0), 1); /* -0 == +0 */
  /* Ordered compares are false with a NaN; unordered ones true. */
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_EQ, 0), 0);
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_NE, 0), 0);
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_NEU, 0), 1);
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_EQU, 0), 1);
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_LTU, 0), 1);
  EQ(ws_emu_num_f32_cmp(two, one, WS_NUM_LTU, 0), 0);
  EQ(ws_emu_num_f32_cmp(one, two, WS_NUM_LEU, 0), 1);
  EQ(ws_emu_num_f32_cmp(one, two, WS_NUM_GTU, 0), 0);
  EQ(ws_emu_num_f32_cmp(one, one, WS_NUM_GEU, 0), 1);
  EQ(ws_emu_num_f32_cmp(nan, one, WS_NUM_NAN, 0), 1);
  EQ(ws_emu_num_f32_cmp(one, one, WS_NUM_NAN, 0), 0);
  EQ(ws_emu_num_f32_cmp(one, one, WS_NUM_NUM, 0), 1);
  EQ(ws_emu_num_f32_cmp(one, nan, WS_NUM_NUM, 0), 0);
  /* .ftz: a subnormal compares equal to zero. */
  EQ(ws_emu_num_f32_cmp(0x00000001, 0x00000000, WS_NUM_EQ, 1), 1);
  EQ(ws_emu_num_f32_cmp(0x00000001, 0x00000000, WS_NUM_EQ, 0), 0);
  EQ(ws_emu_num_f64_cmp(0x3FF0000000000000ull, 0x4000000000000000ull, WS_NUM_LT), 1);
  DONE();
}

static void f32_approx(void **st) {
  (void)st;
  fails = 0;
  /* Special values from the PTX ISA tables of each instruction. */
  EQ(ws_emu_num_f32_sin_approx(0x00000000, 0), 0x00000000);
  EQ(ws_emu_num_f32_sin_approx(0x80000000, 0), 0x80000000);
  EQ(ws_emu_num_f32_sin_approx(0x7F800000, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_cos_approx(0x00000000, 0), 0x3F800000);
  EQ(ws_emu_num_f32_cos_approx(0xFF800000, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_ex2_approx(0xFF800000, 0), 0x00000000); /* 2^-inf = +0 */
  EQ(ws_emu_num_f32_ex2_approx(0x7F800000, 0), 0x7F800000);
  EQ(ws_emu_num_f32_ex2_approx(0x40400000, 0), 0x41000000); /* 2^3 = 8 */
  EQ(ws_emu_num_f32_ex2_approx(0xBF800000, 0), 0x3F000000); /* 2^-1 */
  EQ(ws_emu_num_f32_ex2_approx(0x80000001, 1), 0x3F800000); /* ftz: 2^-0 = 1 */
  EQ(ws_emu_num_f32_lg2_approx(0x41000000, 0), 0x40400000); /* lg2 8 = 3 */
  EQ(ws_emu_num_f32_lg2_approx(0x00000000, 0), 0xFF800000);
  EQ(ws_emu_num_f32_lg2_approx(0x80000000, 0), 0xFF800000);
  EQ(ws_emu_num_f32_lg2_approx(0xBF800000, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_lg2_approx(0x7F800000, 0), 0x7F800000);
  EQ(ws_emu_num_f32_lg2_approx(0x00000001, 1), 0xFF800000); /* ftz: lg2(0) */
  EQ(ws_emu_num_f32_lg2_approx(0x00000001, 0), 0xC3150000); /* lg2 2^-149 = -149 */
  EQ(ws_emu_num_f32_rsqrt_approx(0x40800000, 0), 0x3F000000); /* 1/sqrt 4 */
  EQ(ws_emu_num_f32_rsqrt_approx(0x80000000, 0), 0xFF800000);
  EQ(ws_emu_num_f32_rsqrt_approx(0x00000000, 0), 0x7F800000);
  EQ(ws_emu_num_f32_rsqrt_approx(0x7F800000, 0), 0x00000000);
  EQ(ws_emu_num_f32_rsqrt_approx(0xBF800000, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_rcp_approx(0x80000000, 0), 0xFF800000);
  EQ(ws_emu_num_f32_rcp_approx(0xFF800000, 0), 0x80000000);
  EQ(ws_emu_num_f32_sqrt_approx(0x40800000, 0), 0x40000000);
  EQ(ws_emu_num_f32_tanh_approx(0x7F800000), 0x3F800000);
  EQ(ws_emu_num_f32_tanh_approx(0xFF800000), 0xBF800000);
  /* div.approx: for 2^126 < |b| < 2^128 the result is 0 (PTX ISA); below it
   * a * rcp(b). 1/2^127 = 2^-127 would be subnormal. */
  EQ(ws_emu_num_f32_div_approx(0x3F800000, 0x7F000000, 0), 0x00000000);
  EQ(ws_emu_num_f32_div_approx(0xBF800000, 0x7F000000, 0), 0x80000000);
  EQ(ws_emu_num_f32_div_approx(0x7F800000, 0x7F000000, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_f32_div_approx(0x40C00000, 0x40000000, 0), 0x40400000); /* 6/2 */
  EQ(ws_emu_num_f32_div_full(0x3F800000, 0x40400000, 0), 0x3EAAAAAB);
  EQ(ws_emu_num_f64_rcp_approx_ftz(0x4000000000000000ull), 0x3FE0000000000000ull);
  EQ(ws_emu_num_f64_rcp_approx_ftz(0x0000000000000001ull), 0x7FF0000000000000ull); /* 1/(flushed) */
  EQ(ws_emu_num_f64_rsqrt_approx(0x4010000000000000ull, 0), 0x3FE0000000000000ull);
  /* Documented error bounds (docs/numerics.md) over a sweep. */
  double worst_sin = 0, worst_ex2 = 0, worst_lg2 = 0;
  for (int i = -20000; i <= 20000; i++) {
    float x = (float)i * 0.000157f; /* about [-pi, pi] */
    double s = bitsf(ws_emu_num_f32_sin_approx(fbits(x), 0)) - sin((double)x);
    double c = bitsf(ws_emu_num_f32_cos_approx(fbits(x), 0)) - cos((double)x);
    if (fabs(s) > worst_sin) worst_sin = fabs(s);
    if (fabs(c) > worst_sin) worst_sin = fabs(c);
    float y = (float)i * 0.003f; /* [-60, 60] */
    double e = bitsf(ws_emu_num_f32_ex2_approx(fbits(y), 0)) / exp2((double)y) - 1;
    if (fabs(e) > worst_ex2) worst_ex2 = fabs(e);
    float z = 0.5f + (float)(i + 20000) * 0.0000375f; /* [0.5, 2] */
    double l = bitsf(ws_emu_num_f32_lg2_approx(fbits(z), 0)) - log2((double)z);
    if (fabs(l) > worst_lg2) worst_lg2 = fabs(l);
  }
  assert_true(worst_sin <= ldexp(1, -24));   /* PTX allows 2^-20.5 absolute */
  assert_true(worst_ex2 <= ldexp(1, -24));   /* PTX allows 2 ulp */
  assert_true(worst_lg2 <= ldexp(1, -24));   /* PTX allows 2^-22 absolute */
  DONE();
}

/* ---- f64 ------------------------------------------------------------------ */

static void f64_cases(void **st) {
  (void)st;
  fails = 0;
  uint64_t one = 0x3FF0000000000000ull;
  /* 1 + 2^-53: a tie at 1.0 (ulp 2^-52): RN 1, RP 1 + 2^-52. */
  EQ(ws_emu_num_f64_add(one, 0x3CA0000000000000ull, RN), one);
  EQ(ws_emu_num_f64_add(one, 0x3CA0000000000000ull, RP), 0x3FF0000000000001ull);
  /* 1/3: 0x3FD5555555555555 (RN, below: the tail 0101... < half), RP +1. */
  EQ(ws_emu_num_f64_div(one, 0x4008000000000000ull, RN), 0x3FD5555555555555ull);
  EQ(ws_emu_num_f64_div(one, 0x4008000000000000ull, RP), 0x3FD5555555555556ull);
  EQ(ws_emu_num_f64_div(one, 0x4008000000000000ull, RZ), 0x3FD5555555555555ull);
  EQ(ws_emu_num_f64_rcp(0x4008000000000000ull, RM), 0x3FD5555555555555ull);
  /* fma: a = 1 + 2^-27 (fraction bit 25: 0x3FF0000002000000);
   * a*a - 1 = 2^-26 + 2^-54 = 2^-26 (1 + 2^-28): exponent 1023-26 = 997 =
   * 0x3E5, fraction bit 52-28 = 24 -> 0x3E50000001000000. mul then add
   * would drop the 2^-54 (a quarter ulp of 1) and give 0x3E50000000000000. */
  EQ(ws_emu_num_f64_fma(0x3FF0000002000000ull, 0x3FF0000002000000ull, 0xBFF0000000000000ull, RN),
     0x3E50000001000000ull);
  /* sqrt(2) = 1.41421356237309504880...; the double 0x3FF6A09E667F3BCD is
   * 1.41421356237309514547..., above the root, so RN rounded up: RP gives
   * the same, RZ/RM the pattern below it (...3BCC). */
  EQ(ws_emu_num_f64_sqrt(0x4000000000000000ull, RN), 0x3FF6A09E667F3BCDull);
  EQ(ws_emu_num_f64_sqrt(0x4000000000000000ull, RZ), 0x3FF6A09E667F3BCCull);
  EQ(ws_emu_num_f64_sqrt(0x4000000000000000ull, RP), 0x3FF6A09E667F3BCDull);
  /* Overflow and underflow in directed modes. */
  EQ(ws_emu_num_f64_mul(0x7FEFFFFFFFFFFFFFull, 0x4000000000000000ull, RZ), 0x7FEFFFFFFFFFFFFFull);
  EQ(ws_emu_num_f64_mul(0x7FEFFFFFFFFFFFFFull, 0x4000000000000000ull, RN), 0x7FF0000000000000ull);
  EQ(ws_emu_num_f64_mul(0x0000000000000001ull, 0x3FE0000000000000ull, RN), 0);
  EQ(ws_emu_num_f64_mul(0x0000000000000001ull, 0x3FE0000000000000ull, RP), 1);
  EQ(ws_emu_num_f64_sub(one, one, RM), 0x8000000000000000ull);
  EQ(ws_emu_num_f64_add(0x7FF8000000000001ull, one, RN), 0x7FFFFFFFFFFFFFFFull);
  DONE();
}

/* ---- cvt ----------------------------------------------------------------- */

static void cvt_float_to_int(void **st) {
  (void)st;
  fails = 0;
  /* Float-to-int cvt clamps to the destination range and NaN gives 0. */
  EQ(ws_emu_num_cvt(0x4F000000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x7FFFFFFF); /* 2^31 */
  EQ(ws_emu_num_cvt(0xCF000000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x80000000); /* -2^31 */
  EQ(ws_emu_num_cvt(0xCF000001, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x80000000);
  EQ(ws_emu_num_cvt(0x7FC00000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0);
  EQ(ws_emu_num_cvt(0x7F800000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 0x7FFFFFFF);
  EQ(ws_emu_num_cvt(0xFF800000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 0x80000000);
  EQ(ws_emu_num_cvt(0xBFC00000, WS_NUM_F32, WS_NUM_U32, WS_NUM_RZI, 0, 0), 0); /* -1.5 -> 0 */
  EQ(ws_emu_num_cvt(0x4F800000, WS_NUM_F32, WS_NUM_U32, WS_NUM_RZI, 0, 0), 0xFFFFFFFF); /* 2^32 */
  /* Integer rounding modes: 2.5 -> 2 (rni, even), 3.5 -> 4, -2.5 -> -2,
   * rmi(-2.5) = -3, rpi(2.1) = 3, rzi(-2.9) = -2. */
  EQ(ws_emu_num_cvt(0x40200000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 2);
  EQ(ws_emu_num_cvt(0x40600000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 4);
  EQ(ws_emu_num_cvt(0xC0200000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 0xFFFFFFFE);
  EQ(ws_emu_num_cvt(0xC0200000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RMI, 0, 0), 0xFFFFFFFD);
  EQ(ws_emu_num_cvt(0x40066666, WS_NUM_F32, WS_NUM_S32, WS_NUM_RPI, 0, 0), 3);
  EQ(ws_emu_num_cvt(0xC039999A, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0xFFFFFFFE);
  EQ(ws_emu_num_cvt(0x3F000000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 0); /* 0.5 -> 0 */
  EQ(ws_emu_num_cvt(0x3F000001, WS_NUM_F32, WS_NUM_S32, WS_NUM_RNI, 0, 0), 1);
  EQ(ws_emu_num_cvt(0x00000001, WS_NUM_F32, WS_NUM_S32, WS_NUM_RPI, 0, 0), 1); /* tiny up */
  EQ(ws_emu_num_cvt(0x00000001, WS_NUM_F32, WS_NUM_S32, WS_NUM_RPI, 1, 0), 0); /* ftz'd */
  /* Narrow destinations: 300 -> u8 255, -200 -> s8 -128 (0x80 raw bits). */
  EQ(ws_emu_num_cvt(0x43960000, WS_NUM_F32, WS_NUM_U8, WS_NUM_RNI, 0, 0), 0xFF);
  EQ(ws_emu_num_cvt(0xC3480000, WS_NUM_F32, WS_NUM_S8, WS_NUM_RZI, 0, 0), 0x80);
  EQ(ws_emu_num_cvt(0xC2C80000, WS_NUM_F32, WS_NUM_S16, WS_NUM_RZI, 0, 0), 0xFF9C); /* -100 */
  /* 64-bit: 2^64 -> u64 max; 2^63 -> s64 max; f64 -2^63 exact -> min. */
  EQ(ws_emu_num_cvt(0x5F800000, WS_NUM_F32, WS_NUM_U64, WS_NUM_RZI, 0, 0), UINT64_MAX);
  EQ(ws_emu_num_cvt(0x5F000000, WS_NUM_F32, WS_NUM_S64, WS_NUM_RZI, 0, 0), (uint64_t)INT64_MAX);
  EQ(ws_emu_num_cvt(0xC3E0000000000000ull, WS_NUM_F64, WS_NUM_S64, WS_NUM_RZI, 0, 0), 0x8000000000000000ull);
  EQ(ws_emu_num_cvt(0x43EFFFFFFFFFFFFFull, WS_NUM_F64, WS_NUM_U64, WS_NUM_RZI, 0, 0), 0xFFFFFFFFFFFFF800ull);
  /* f16 source: 0xC900 = -10.0 -> s32 -10; bf16 0x4049 = 3.140625 -> 3. */
  EQ(ws_emu_num_cvt(0xC900, WS_NUM_F16, WS_NUM_S32, WS_NUM_RNI, 0, 0), 0xFFFFFFF6);
  EQ(ws_emu_num_cvt(0x4049, WS_NUM_BF16, WS_NUM_S32, WS_NUM_RNI, 0, 0), 3);
  EQ(ws_emu_num_cvt(0x7C00, WS_NUM_F16, WS_NUM_U16, WS_NUM_RNI, 0, 0), 0xFFFF);
  /* f32/f64 -> s32/u32 truncated (num.c's cvt_host): the range's edges,
   * 2147483520 = the largest f32 below 2^31, and fractions toward 0. */
  EQ(ws_emu_num_cvt(0x4EFFFFFF, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x7FFFFF80);
  EQ(ws_emu_num_cvt(0x4F7FFFFF, WS_NUM_F32, WS_NUM_U32, WS_NUM_RZI, 0, 0), 0xFFFFFF00);
  EQ(ws_emu_num_cvt(0xBF400000, WS_NUM_F32, WS_NUM_U32, WS_NUM_RZI, 0, 0), 0); /* -0.75 */
  EQ(ws_emu_num_cvt(0xBF400000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0);
  EQ(ws_emu_num_cvt(0xC0200000, WS_NUM_F32, WS_NUM_S32, WS_NUM_RND_NONE, 0, 0), 0xFFFFFFFE); /* -2.5 */
  EQ(ws_emu_num_cvt(0x80000001, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0); /* -tiny */
  /* f64 -2147483648.9 -> -2^31; 4294967295.5 -> u32 max; -2147483649 clamps */
  EQ(ws_emu_num_cvt(0xC1E00000001CCCCDull, WS_NUM_F64, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x80000000);
  EQ(ws_emu_num_cvt(0x41EFFFFFFFF00000ull, WS_NUM_F64, WS_NUM_U32, WS_NUM_RZI, 0, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_cvt(0xC1E0000000200000ull, WS_NUM_F64, WS_NUM_S32, WS_NUM_RZI, 0, 0), 0x80000000);
  DONE();
}

static void cvt_to_float(void **st) {
  (void)st;
  fails = 0;
  /* 2^24 + 1 = 16777217 -> f32: tie between 2^24 (even) and 2^24 + 2. */
  EQ(ws_emu_num_cvt(16777217, WS_NUM_U32, WS_NUM_F32, RN, 0, 0), 0x4B800000);
  /* 2^24 + 3: tie between 2^24 + 2 (odd) and 2^24 + 4 (even) */
  EQ(ws_emu_num_cvt(16777219, WS_NUM_S32, WS_NUM_F32, RN, 0, 0), 0x4B800002);
  EQ(ws_emu_num_cvt(16777219, WS_NUM_S32, WS_NUM_F32, RZ, 0, 0), 0x4B800001);
  EQ(ws_emu_num_cvt(0x80000000, WS_NUM_S32, WS_NUM_F32, RN, 0, 0), 0xCF000000); /* -2^31 */
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_U32, WS_NUM_F32, RN, 0, 0), 0x4F800000); /* 2^32 */
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_U32, WS_NUM_F32, RZ, 0, 0), 0x4F7FFFFF);
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_S32, WS_NUM_F32, RM, 0, 0), 0xBF800000); /* -1 */
  EQ(ws_emu_num_cvt(0, WS_NUM_S32, WS_NUM_F32, RM, 0, 0), 0);                  /* +0 */
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_S32, WS_NUM_F64, RN, 0, 0), 0xBFF0000000000000ull);
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_U32, WS_NUM_F64, RN, 0, 0), 0x41EFFFFFFFE00000ull);
  /* random 32-bit integers against the host's conversion (round to
   * nearest, the mode this test runs in), and random f32 values truncated
   * to s32 against the ISA's rule (NaN 0, clamped to the range) */
  uint64_t z = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 200000; i++) {
    z ^= z << 13;
    z ^= z >> 7;
    z ^= z << 17;
    uint32_t x = (uint32_t)z, fb, gb;
    float f = (float)(int32_t)x, g = (float)x, h;
    memcpy(&fb, &f, 4);
    memcpy(&gb, &g, 4);
    EQ(ws_emu_num_cvt(x, WS_NUM_S32, WS_NUM_F32, RN, 0, 0), fb);
    EQ(ws_emu_num_cvt(x, WS_NUM_U32, WS_NUM_F32, RN, 0, 0), gb);
    uint32_t hb = (uint32_t)(z >> 32) & 0xCFFFFFFFu; /* mostly |h| < 2^33 */
    memcpy(&h, &hb, 4);
    double d = h;
    uint32_t want = d != d ? 0 : d >= 2147483647.0 ? 0x7FFFFFFFu : d <= -2147483648.0 ? 0x80000000u
                                                                  : (uint32_t)(int32_t)trunc(d);
    EQ(ws_emu_num_cvt(hb, WS_NUM_F32, WS_NUM_S32, WS_NUM_RZI, 0, 0), want);
  }
  EQ(ws_emu_num_cvt(16777217, WS_NUM_U32, WS_NUM_F32, RP, 0, 0), 0x4B800001);
  EQ(ws_emu_num_cvt((uint32_t)-16777217, WS_NUM_S32, WS_NUM_F32, RM, 0, 0), 0xCB800001);
  EQ(ws_emu_num_cvt((uint32_t)-16777217, WS_NUM_S32, WS_NUM_F32, RZ, 0, 0), 0xCB800000);
  /* u64 max -> 2^64 under RN (0x5F800000), just below under RZ. */
  EQ(ws_emu_num_cvt(UINT64_MAX, WS_NUM_U64, WS_NUM_F32, RN, 0, 0), 0x5F800000);
  EQ(ws_emu_num_cvt(UINT64_MAX, WS_NUM_U64, WS_NUM_F32, RZ, 0, 0), 0x5F7FFFFF);
  EQ(ws_emu_num_cvt(0x8000000000000000ull, WS_NUM_S64, WS_NUM_F64, RN, 0, 0), 0xC3E0000000000000ull);
  EQ(ws_emu_num_cvt(0xFF, WS_NUM_S8, WS_NUM_F32, RN, 0, 0), 0xBF800000); /* s8 -1 */
  EQ(ws_emu_num_cvt(70000, WS_NUM_U32, WS_NUM_F16, RN, 0, 0), 0x7C00);   /* > 65520: inf */
  EQ(ws_emu_num_cvt(70000, WS_NUM_U32, WS_NUM_F16, RZ, 0, 0), 0x7BFF);   /* max finite */
  /* f32 -> f16: 65504 exact (0x7BFF); 65520 is the tie between 65504 (odd)
   * and 65536 -> inf under RN, 65504 under RZ. */
  EQ(ws_emu_num_cvt(0x477FE000, WS_NUM_F32, WS_NUM_F16, RN, 0, 0), 0x7BFF);
  EQ(ws_emu_num_cvt(0x477FF000, WS_NUM_F32, WS_NUM_F16, RN, 0, 0), 0x7C00);
  EQ(ws_emu_num_cvt(0x477FF000, WS_NUM_F32, WS_NUM_F16, RZ, 0, 0), 0x7BFF);
  /* 1e-8 (0x322BCC77) < 2^-25 (half the least f16 subnormal): RN 0,
   * RP 0x0001. */
  EQ(ws_emu_num_cvt(0x322BCC77, WS_NUM_F32, WS_NUM_F16, RN, 0, 0), 0x0000);
  EQ(ws_emu_num_cvt(0x322BCC77, WS_NUM_F32, WS_NUM_F16, RP, 0, 0), 0x0001);
  EQ(ws_emu_num_cvt(0x7FC00000, WS_NUM_F32, WS_NUM_F16, RN, 0, 0), 0x7FFF);
  /* Widening is exact: f16 0x0001 = 2^-24 -> f32 0x33800000. */
  EQ(ws_emu_num_cvt(0x0001, WS_NUM_F16, WS_NUM_F32, WS_NUM_RND_NONE, 0, 0), 0x33800000);
  EQ(ws_emu_num_cvt(0x3C00, WS_NUM_F16, WS_NUM_F64, WS_NUM_RND_NONE, 0, 0), 0x3FF0000000000000ull);
  EQ(ws_emu_num_cvt(0x3F80, WS_NUM_BF16, WS_NUM_F32, WS_NUM_RND_NONE, 0, 0), 0x3F800000);
  /* f64 0.1 -> f32: RN 0x3DCCCCCD, RZ 0x3DCCCCCC. */
  EQ(ws_emu_num_cvt(0x3FB999999999999Aull, WS_NUM_F64, WS_NUM_F32, RN, 0, 0), 0x3DCCCCCD);
  EQ(ws_emu_num_cvt(0x3FB999999999999Aull, WS_NUM_F64, WS_NUM_F32, RZ, 0, 0), 0x3DCCCCCC);
  /* 1e-40 / 2^-149 = 71362.38 -> subnormal 71362 = 0x116C2; .ftz -> 0. */
  EQ(ws_emu_num_cvt(dbits(1e-40), WS_NUM_F64, WS_NUM_F32, RN, 0, 0), 0x000116C2);
  EQ(ws_emu_num_cvt(dbits(1e-40), WS_NUM_F64, WS_NUM_F32, RN, 1, 0), 0);
  EQ(ws_emu_num_cvt(0x00000001, WS_NUM_F32, WS_NUM_F64, WS_NUM_RND_NONE, 1, 0), 0);
  EQ(ws_emu_num_cvt(0x00000001, WS_NUM_F32, WS_NUM_F64, WS_NUM_RND_NONE, 0, 0), 0x36A0000000000000ull);
  /* bf16: 1 + 2^-8 (0x3F808000) is a tie: even 0x3F80; 0x3F818000 -> 0x3F82. */
  EQ(ws_emu_num_cvt(0x3F808000, WS_NUM_F32, WS_NUM_BF16, RN, 0, 0), 0x3F80);
  EQ(ws_emu_num_cvt(0x3F818000, WS_NUM_F32, WS_NUM_BF16, RN, 0, 0), 0x3F82);
  EQ(ws_emu_num_cvt(0x3F808000, WS_NUM_F32, WS_NUM_BF16, RP, 0, 0), 0x3F81);
  /* Round to integral in the same format; .sat on float results. */
  EQ(ws_emu_num_cvt(0x40200000, WS_NUM_F32, WS_NUM_F32, WS_NUM_RNI, 0, 0), 0x40000000); /* 2.5->2 */
  EQ(ws_emu_num_cvt(0xBECCCCCD, WS_NUM_F32, WS_NUM_F32, WS_NUM_RNI, 0, 0), 0x80000000); /* -0.4->-0 */
  EQ(ws_emu_num_cvt(0x3F8CCCCD, WS_NUM_F32, WS_NUM_F32, WS_NUM_RPI, 0, 0), 0x40000000); /* 1.1->2 */
  EQ(ws_emu_num_cvt(0xBFF8000000000000ull, WS_NUM_F64, WS_NUM_F64, WS_NUM_RMI, 0, 0), 0xC000000000000000ull);
  EQ(ws_emu_num_cvt(0x4B800001, WS_NUM_F32, WS_NUM_F32, WS_NUM_RNI, 0, 0), 0x4B800001); /* integral */
  EQ(ws_emu_num_cvt(0x3FC00000, WS_NUM_F32, WS_NUM_F32, WS_NUM_RND_NONE, 0, 1), 0x3F800000);
  EQ(ws_emu_num_cvt(0x00000001, WS_NUM_F32, WS_NUM_F32, WS_NUM_RND_NONE, 1, 0), 0);
  /* Scalar .relu / .satfinite forms. */
  EQ(ws_emu_num_cvt_half(0xBF800000, WS_NUM_F16, RN, 1, 0), 0x0000);
  EQ(ws_emu_num_cvt_half(0x7F800000, WS_NUM_F16, RN, 0, 1), 0x7BFF);
  EQ(ws_emu_num_cvt_half(0xFF800000, WS_NUM_BF16, RN, 0, 1), 0xFF7F);
  EQ(ws_emu_num_cvt_half(0x7F7FFFFF, WS_NUM_BF16, RZ, 0, 0), 0x7F7F);
  EQ(ws_emu_num_cvt_half(0x7F7FFFFF, WS_NUM_BF16, RN, 0, 0), 0x7F80); /* rounds up to 2^128 */
  EQ(ws_emu_num_cvt_half(0x7FC00000, WS_NUM_BF16, RN, 1, 1), 0x7FFF);
  /* Packed conversions: a -> upper half, b -> lower half. */
  EQ(ws_emu_num_cvt_f16x2_f32(0x3F800000, 0x40000000, RN, 0, 0), 0x3C004000);
  EQ(ws_emu_num_cvt_f16x2_f32(0xBF800000, 0x40000000, RN, 1, 0), 0x00004000); /* relu */
  EQ(ws_emu_num_cvt_f16x2_f32(0x49742400, 0x7F800000, RN, 0, 1), 0x7BFF7BFF); /* 1e6, inf */
  EQ(ws_emu_num_cvt_f16x2_f32(0x7FC00000, 0x00000000, RN, 1, 0), 0x7FFF0000);
  EQ(ws_emu_num_cvt_bf16x2_f32(0x3F800000, 0xC0000000, RN, 0, 0), 0x3F80C000);
  /* tf32 .rna: 1 + 2^-11 is a tie at 10 fraction bits: away -> 1 + 2^-10
   * (0x3F802000); RN -> 1.0. */
  EQ(ws_emu_num_cvt_tf32_f32(0x3F801000, WS_NUM_RNA, 0), 0x3F802000);
  EQ(ws_emu_num_cvt_tf32_f32(0x3F801000, RN, 0), 0x3F800000);
  EQ(ws_emu_num_cvt_tf32_f32(0x3F800FFF, WS_NUM_RNA, 0), 0x3F800000);
  EQ(ws_emu_num_cvt_tf32_f32(0x7F7FFFFF, WS_NUM_RNA, 0), 0x7F800000);
  EQ(ws_emu_num_cvt_tf32_f32(0x7F7FFFFF, WS_NUM_RNA, 1), 0x7F7FE000);
  /* FP8 pairs (a -> high byte), values worked out by hand from the PTX
   * ISA's formats.  E4M3: bias 7, 3 fraction bits, no infinities, largest
   * 448 (0x7e), NaN 0x7f, smallest subnormal 2^-9 (0x01). */
  EQ(ws_emu_num_cvt_f8x2_f32(0x3F800000, 0x40000000, 0, 0), 0x3840); /* 1, 2 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x43E00000, 0x43FA0000, 0, 0), 0x7E7E); /* 448, 500 -> 448 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x7F800000, 0xFF800000, 0, 0), 0x7EFE); /* +-inf -> +-448 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x7FC00000, 0x3F880000, 0, 0), 0x7F38); /* NaN; 1+1/16: tie -> 1 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x3F980000, 0x3B000000, 0, 0), 0x3A01); /* 1+3/16: tie -> 1.25; 2^-9 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x3A800000, 0x3AC00000, 0, 0), 0x0001); /* 2^-10: tie -> 0; 1.5*2^-10 */
  EQ(ws_emu_num_cvt_f8x2_f32(0xC0000000, 0xC0000000, 0, 1), 0x0000); /* .relu */
  EQ(ws_emu_num_cvt_f8x2_f32(0x43700000, 0x43800000, 0, 0), 0x7778); /* 240, 256 */
  /* E5M2: bias 15, 2 fraction bits, largest 57344 (0x7b), smallest 2^-16 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x3F800000, 0x40000000, 1, 0), 0x3C40);
  EQ(ws_emu_num_cvt_f8x2_f32(0x47600000, 0x476A6000, 1, 0), 0x7B7B); /* 57344, 60000 */
  EQ(ws_emu_num_cvt_f8x2_f32(0x7F800000, 0x7FC00000, 1, 0), 0x7B7F); /* inf, NaN */
  EQ(ws_emu_num_cvt_f8x2_f32(0xBFC00000, 0x37800000, 1, 0), 0xBE01); /* -1.5, 2^-16 */
  /* to f16x2 (exact): 448 = 0x5F00, 2^-9 = 0x1800; E5M2 is f16's high byte */
  EQ(ws_emu_num_cvt_f16x2_f8x2(0x387E, 0, 0), 0x3C005F00);
  EQ(ws_emu_num_cvt_f16x2_f8x2(0x7F01, 0, 0), 0x7FFF1800);
  EQ(ws_emu_num_cvt_f16x2_f8x2(0xC038, 0, 1), 0x00003C00); /* .relu */
  EQ(ws_emu_num_cvt_f16x2_f8x2(0x3C7B, 1, 0), 0x3C007B00);
  EQ(ws_emu_num_cvt_f16x2_f8x2(0x7C01, 1, 0), 0x7C000100);
  /* from f16x2: 65504 saturates to E5M2's 57344 */
  EQ(ws_emu_num_cvt_f8x2_f16x2(0x3C005F00, 0, 0), 0x387E);
  EQ(ws_emu_num_cvt_f8x2_f16x2(0x7C00FC00, 0, 0), 0x7EFE);
  EQ(ws_emu_num_cvt_f8x2_f16x2(0x7BFF3C00, 1, 0), 0x7B3C);
  DONE();
}

static void cvt_int_to_int(void **st) {
  (void)st;
  fails = 0;
  EQ(ws_emu_num_cvt(300, WS_NUM_S32, WS_NUM_S8, WS_NUM_RND_NONE, 0, 0), 0x2C);   /* 300 mod 256 */
  EQ(ws_emu_num_cvt(300, WS_NUM_S32, WS_NUM_S8, WS_NUM_RND_NONE, 0, 1), 0x7F);   /* .sat */
  EQ(ws_emu_num_cvt((uint32_t)-300, WS_NUM_S32, WS_NUM_S8, WS_NUM_RND_NONE, 0, 1), 0x80);
  EQ(ws_emu_num_cvt((uint32_t)-5, WS_NUM_S32, WS_NUM_U32, WS_NUM_RND_NONE, 0, 1), 0);
  EQ(ws_emu_num_cvt((uint32_t)-5, WS_NUM_S32, WS_NUM_U32, WS_NUM_RND_NONE, 0, 0), 0xFFFFFFFB);
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_U32, WS_NUM_S32, WS_NUM_RND_NONE, 0, 1), 0x7FFFFFFF);
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_S32, WS_NUM_S64, WS_NUM_RND_NONE, 0, 0), UINT64_MAX);
  EQ(ws_emu_num_cvt(0xFFFFFFFF, WS_NUM_U32, WS_NUM_U64, WS_NUM_RND_NONE, 0, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_cvt(0x80, WS_NUM_S8, WS_NUM_S32, WS_NUM_RND_NONE, 0, 0), 0xFFFFFF80);
  EQ(ws_emu_num_cvt(0x180, WS_NUM_U8, WS_NUM_U32, WS_NUM_RND_NONE, 0, 0), 0x80); /* only 8 bits read */
  EQ(ws_emu_num_cvt(0x8000000000000000ull, WS_NUM_U64, WS_NUM_S64, WS_NUM_RND_NONE, 0, 1), (uint64_t)INT64_MAX);
  EQ(ws_emu_num_cvt(0x8000000000000000ull, WS_NUM_S64, WS_NUM_U16, WS_NUM_RND_NONE, 0, 1), 0);
  EQ(ws_emu_num_sext(0x80, 8), 0xFFFFFFFFFFFFFF80ull);
  DONE();
}

/* ---- f16 / bf16 -------------------------------------------------------- */

static void half_cases(void **st) {
  (void)st;
  fails = 0;
  /* 1 + 2^-11 in f16 (ulp 2^-10): a tie -> 1.0 (0x3C00); 2^-11 = 0x1000. */
  EQ(ws_emu_num_f16_add(0x3C00, 0x1000, RN, 0, 0), 0x3C00);
  EQ(ws_emu_num_f16_add(0x3C00, 0x1000, RP, 0, 0), 0x3C01);
  /* 65504 + 16 (0x4C00): a tie between 65504 (odd) and 65536 -> inf. */
  EQ(ws_emu_num_f16_add(0x7BFF, 0x4C00, RN, 0, 0), 0x7C00);
  EQ(ws_emu_num_f16_add(0x7BFF, 0x4C00, RZ, 0, 0), 0x7BFF);
  EQ(ws_emu_num_f16_add(0x3C00, 0x3C00, RN, 0, 1), 0x3C00); /* .sat: 2 -> 1 */
  EQ(ws_emu_num_f16_add(0x7E00, 0x3C00, RN, 0, 0), 0x7FFF); /* canonical NaN */
  /* f16 subnormals: 2^-14 * 0.5 = 2^-15 = 0x0200; .ftz -> 0. */
  EQ(ws_emu_num_f16_mul(0x0400, 0x3800, RN, 0, 0), 0x0200);
  EQ(ws_emu_num_f16_mul(0x0400, 0x3800, RN, 1, 0), 0x0000);
  /* fma: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20 = 2^-9 (1 + 2^-11): a tie at 11
   * bits -> 2^-9 = 0x1800 (exponent 6); RP 0x1801. */
  EQ(ws_emu_num_f16_fma(0x3C01, 0x3C01, 0xBC00, RN, 0, 0, 0), 0x1800);
  EQ(ws_emu_num_f16_fma(0x3C01, 0x3C01, 0xBC00, RP, 0, 0, 0), 0x1801);
  EQ(ws_emu_num_f16_fma(0xBC00, 0x3C00, 0x0000, RN, 0, 0, 1), 0x0000); /* relu(-1) */
  EQ(ws_emu_num_f16_fma(0x7E00, 0x3C00, 0x0000, RN, 0, 0, 1), 0x7FFF);
  EQ(ws_emu_num_f16_neg(0x3C00, 0), 0xBC00);
  EQ(ws_emu_num_f16_abs(0x8001, 1), 0x0000);
  EQ(ws_emu_num_f16_min(0x8000, 0x0000, 0, 0, 0), 0x8000);
  EQ(ws_emu_num_f16_max(0xBC00, 0xC000, 0, 0, 1), 0x0000); /* relu(max(-1,-2)) */
  /* Packed: element 0 in bits 0..15. {lo: 1+1, hi: 2+2} = {2, 4}. */
  EQ(ws_emu_num_f16x2_add(0x40003C00, 0x40003C00, RN, 0, 0), 0x44004000);
  EQ(ws_emu_num_f16x2_mul(0xC0003C00, 0x40003C00, RN, 0, 0), 0xC4003C00);
  EQ(ws_emu_num_f16x2_fma(0x40003C00, 0x40003C00, 0x3C003C00, RN, 0, 0, 0), 0x45004000);
  EQ(ws_emu_num_f16x2_cmp(0x7E003C00, 0x3C004000, WS_NUM_LT, 0), 1); /* lo 1<2; hi NaN */
  EQ(ws_emu_num_f16x2_cmp(0x7E003C00, 0x3C004000, WS_NUM_LTU, 0), 3);
  EQ(ws_emu_num_f16x2_neg(0x3C008000, 0), 0xBC000000);
  EQ(ws_emu_num_f16x2_min(0x3C00BC00, 0x4000C000, 0, 0, 0), 0x3C00C000);
  /* Half-precision approximations: 2^3 = 8 (f16 0x4800, bf16 0x4100),
   * 2^-inf = 0, tanh(+inf) = 1, 2^16 overflows f16 (max 65504). */
  EQ(ws_emu_num_f16_ex2_approx(0x4200, 0), 0x4800);
  EQ(ws_emu_num_bf16_ex2_approx(0x4040, 0), 0x4100);
  EQ(ws_emu_num_f16_ex2_approx(0xFC00, 0), 0x0000);
  EQ(ws_emu_num_f16_ex2_approx(0x4C00, 0), 0x7C00);
  EQ(ws_emu_num_f16_tanh_approx(0x7C00), 0x3C00);
  EQ(ws_emu_num_bf16_tanh_approx(0x0000), 0x0000);
  EQ(ws_emu_num_f16_ex2_approx(0x7E00, 0), 0x7FFF);
  /* bf16: 1 + 2^-8 (0x3B80) is a tie -> 1.0 (0x3F80). */
  EQ(ws_emu_num_bf16_add(0x3F80, 0x3B80, RN), 0x3F80);
  EQ(ws_emu_num_bf16_add(0x3F80, 0x3B80, RP), 0x3F81);
  EQ(ws_emu_num_bf16_mul(0x7F7F, 0x4000, RN), 0x7F80); /* overflow */
  EQ(ws_emu_num_bf16_fma(0x3F80, 0x3F80, 0xBF80, RN, 0), 0x0000);
  EQ(ws_emu_num_bf16_fma(0xBF80, 0x4000, 0x0000, RN, 1), 0x0000);
  EQ(ws_emu_num_bf16x2_add(0x3F803F80, 0x3F80BF80, RN), 0x40000000);
  EQ(ws_emu_num_bf16x2_cmp(0x3F803F80, 0x3F804000, WS_NUM_EQ), 2);
  EQ(ws_emu_num_bf16_cmp(0x7FC0, 0x7FC0, WS_NUM_NAN), 1);
  EQ(ws_emu_num_bf16x2_max(0x7FC03F80, 0x3F804000, 1, 0), 0x7FFF4000);
  DONE();
}

/* ---- integers ------------------------------------------------------------ */

static void int_mul_div(void **st) {
  (void)st;
  fails = 0;
  /* (2^32-1)^2 = 2^64 - 2^33 + 1: high word 0xFFFFFFFE. */
  EQ(ws_emu_num_mul_hi(0xFFFFFFFF, 0xFFFFFFFF, 32, 0), 0xFFFFFFFE);
  EQ(ws_emu_num_mul_hi(0xFFFFFFFF, 0xFFFFFFFF, 32, 1), 0); /* (-1)(-1) = 1 */
  EQ(ws_emu_num_mul_hi(0x80000000, 0x80000000, 32, 1), 0x40000000); /* 2^62 */
  EQ(ws_emu_num_mul_lo(0x80000001, 3, 32), 0x80000003);
  EQ(ws_emu_num_mul_wide(0xFFFE, 3, 16, 1), 0xFFFFFFFA); /* -2 * 3 */
  EQ(ws_emu_num_mul_wide(0xFFFE, 3, 16, 0), 0x2FFFA);    /* 65534 * 3 */
  EQ(ws_emu_num_mul_wide(0xFFFFFFFF, 2, 32, 0), 0x1FFFFFFFEull);
  EQ(ws_emu_num_mul_hi(0x8000000000000000ull, 4, 64, 0), 2);
  EQ(ws_emu_num_mul_hi((uint64_t)-1, 5, 64, 1), UINT64_MAX); /* -5 -> high all ones */
  EQ(ws_emu_num_mul_hi(0xFFFF, 0xFFFF, 16, 0), 0xFFFE);
  /* mad.hi.sat.s32: hi((2^31-1)^2) = 2^30 - 1; + (2^31-1) overflows. */
  EQ(ws_emu_num_mad_hi(0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 32, 1, 1), 0x7FFFFFFF);
  EQ(ws_emu_num_mad_hi(0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 32, 1, 0), 0xBFFFFFFE);
  EQ(ws_emu_num_mad_lo(3, 4, 0xFFFFFFFF, 32), 11);
  EQ(ws_emu_num_mad_wide(0xFFFFFFFF, 0xFFFFFFFF, 1, 32, 0), 0xFFFFFFFE00000002ull);
  /* mul24: low 24 bits of each operand; .hi = bits 16..47 of 48. */
  EQ(ws_emu_num_mul24(0x01000003, 5, 0, 0), 15);
  EQ(ws_emu_num_mul24(0xFFFFFF, 0xFFFFFF, 1, 0), 0xFFFFFE00); /* (2^48-2^25+1)>>16 */
  EQ(ws_emu_num_mul24(0x00FFFFFF, 2, 0, 1), 0xFFFFFFFE);      /* s24 -1 * 2 */
  EQ(ws_emu_num_mad24(0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF, 1, 1, 1), 0x7FFFFFFF);
  EQ(ws_emu_num_mad24(2, 3, 4, 0, 0, 0), 10);
  /* Division by zero (our documented choice), MIN / -1 wraps. */
  EQ(ws_emu_num_div(7, 0, 32, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_rem(7, 0, 32, 0), 7);
  EQ(ws_emu_num_div((uint32_t)-7, 0, 32, 1), 1);
  EQ(ws_emu_num_div(7, 0, 32, 1), 0xFFFFFFFF);
  EQ(ws_emu_num_rem((uint32_t)-7, 0, 32, 1), 0xFFFFFFF9);
  EQ(ws_emu_num_div(0x80000000, 0xFFFFFFFF, 32, 1), 0x80000000);
  EQ(ws_emu_num_rem(0x80000000, 0xFFFFFFFF, 32, 1), 0);
  EQ(ws_emu_num_div((uint32_t)-7, 2, 32, 1), 0xFFFFFFFD); /* truncates: -3 */
  EQ(ws_emu_num_rem((uint32_t)-7, 2, 32, 1), 0xFFFFFFFF); /* -1 */
  EQ(ws_emu_num_div(0x8000, 0, 16, 0), 0xFFFF);
  EQ(ws_emu_num_div(0x8000000000000000ull, UINT64_MAX, 64, 1), 0x8000000000000000ull);
  EQ(ws_emu_num_div(100, 7, 64, 0), 14);
  DONE();
}

static void int_misc(void **st) {
  (void)st;
  fails = 0;
  unsigned c;
  EQ(ws_emu_num_s32_add_sat(0x7FFFFFFF, 1), 0x7FFFFFFF);
  EQ(ws_emu_num_s32_sub_sat(0x80000000, 1), 0x80000000);
  EQ(ws_emu_num_s32_add_sat(5, (uint32_t)-7), 0xFFFFFFFE);
  /* 64-bit add built from 32-bit add.cc/addc: 0x00000001_FFFFFFFF + 1. */
  uint32_t lo = (uint32_t)ws_emu_num_addc(0xFFFFFFFF, 1, 0, 32, &c);
  EQ(lo, 0);
  EQ(c, 1);
  EQ(ws_emu_num_addc(1, 0, c, 32, &c), 2);
  EQ(c, 0);
  EQ(ws_emu_num_addc(UINT64_MAX, 0, 1, 64, &c), 0);
  EQ(c, 1);
  /* sub.cc 0 - 1 borrows; subc then takes the borrow: 5 - (2 + 1) = 2. */
  EQ(ws_emu_num_subc(0, 1, 0, 32, &c), 0xFFFFFFFF);
  EQ(c, 1);
  EQ(ws_emu_num_subc(5, 2, c, 32, &c), 2);
  EQ(c, 0);
  /* madc.hi.cc: hi(0xFFFFFFFF^2) = 0xFFFFFFFE; + 1 + cin 1 = 0 carry 1. */
  EQ(ws_emu_num_madc(0xFFFFFFFF, 0xFFFFFFFF, 1, 1, 1, 0, 32, &c), 0);
  EQ(c, 1);
  EQ(ws_emu_num_madc(3, 4, 5, 1, 0, 0, 32, &c), 18);
  EQ(c, 0);
  EQ(ws_emu_num_min(0xFFFFFFFF, 1, 32, 1), 0xFFFFFFFF);
  EQ(ws_emu_num_min(0xFFFFFFFF, 1, 32, 0), 1);
  EQ(ws_emu_num_max(0x8000, 0x7FFF, 16, 1), 0x7FFF);
  EQ(ws_emu_num_abs(0x80000000, 32), 0x80000000);
  EQ(ws_emu_num_abs(0xFFFFFFFF, 32), 1);
  EQ(ws_emu_num_neg(1, 16), 0xFFFF);
  EQ(ws_emu_num_int_cmp(0xFFFFFFFF, 1, WS_NUM_LT, 32, 1), 1);
  EQ(ws_emu_num_int_cmp(0xFFFFFFFF, 1, WS_NUM_LT, 32, 0), 0);
  EQ(ws_emu_num_int_cmp(0xFFFFFFFF, 0xFFFFFFFF, WS_NUM_GE, 32, 0), 1);
  EQ(ws_emu_num_popc(0xF0F0, 32), 8);
  EQ(ws_emu_num_popc(UINT64_MAX, 64), 64);
  EQ(ws_emu_num_clz(1, 32), 31);
  EQ(ws_emu_num_clz(0, 32), 32);
  EQ(ws_emu_num_clz(0, 64), 64);
  EQ(ws_emu_num_brev(1, 32), 0x80000000);
  EQ(ws_emu_num_brev(0x12345678, 32), 0x1E6A2C48);
  EQ(ws_emu_num_brev(1, 64), 0x8000000000000000ull);
  /* bfind: msb position; .shiftamt = 31 - pos; 0xFFFFFFFF when none;
   * signed negative inputs look for the highest 0. */
  EQ(ws_emu_num_bfind(0, 32, 0, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_bfind(0x10, 32, 0, 0), 4);
  EQ(ws_emu_num_bfind(0x10, 32, 0, 1), 27);
  EQ(ws_emu_num_bfind(0xFFFFFFFF, 32, 1, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_bfind(0xFFFFFF00, 32, 1, 0), 7);
  EQ(ws_emu_num_bfind(0x8000000000000000ull, 64, 0, 0), 63);
  EQ(ws_emu_num_bfind(0x8000000000000000ull, 64, 0, 1), 0);
  DONE();
}

static void int_bitfield(void **st) {
  (void)st;
  fails = 0;
  /* bfe (ISA pseudo-code): d[i] = i < len && pos+i <= msb ? a[pos+i] : sbit,
   * sbit = a[min(pos+len-1, msb)] for signed, 0 for unsigned or len 0. */
  EQ(ws_emu_num_bfe(0x12345678, 4, 8, 32, 0), 0x67);
  EQ(ws_emu_num_bfe(0x000000F0, 4, 4, 32, 1), 0xFFFFFFFF); /* field 1111, sign 1 */
  EQ(ws_emu_num_bfe(0x00000070, 4, 4, 32, 1), 7);
  EQ(ws_emu_num_bfe(0x80000000, 28, 8, 32, 1), 0xFFFFFFF8); /* past msb: bit 31 */
  EQ(ws_emu_num_bfe(0x80000000, 28, 8, 32, 0), 0x8);
  EQ(ws_emu_num_bfe(0xFFFFFFFF, 4, 0, 32, 1), 0);            /* len 0 */
  EQ(ws_emu_num_bfe(0x80000000, 0x1FF, 3, 32, 1), 0xFFFFFFFF); /* pos & 0xff = 255 */
  EQ(ws_emu_num_bfe(0x80000000, 0x1FF, 3, 32, 0), 0);
  EQ(ws_emu_num_bfe(0xABCDull << 40, 40, 16, 64, 0), 0xABCD);
  EQ(ws_emu_num_bfe(0x8000000000000000ull, 60, 4, 64, 1), UINT64_MAX - 7);
  /* bfi: field from a inserted into b. */
  EQ(ws_emu_num_bfi(0xF, 0, 4, 4, 32), 0xF0);
  EQ(ws_emu_num_bfi(0xF, 0, 30, 4, 32), 0xC0000000);
  EQ(ws_emu_num_bfi(0x0, 0xFFFFFFFF, 8, 8, 32), 0xFFFF00FF);
  EQ(ws_emu_num_bfi(0x5, 0x12345678, 0, 0, 32), 0x12345678);
  /* prmt with a = 0x33221100, b = 0x77665544 (bytes 0..7 = 00 11 .. 77). */
  uint32_t a = 0x33221100, b = 0x77665544;
  EQ(ws_emu_num_prmt(a, b, 0x3210, WS_NUM_PRMT_DEFAULT), a);
  EQ(ws_emu_num_prmt(a, b, 0x7654, WS_NUM_PRMT_DEFAULT), b);
  EQ(ws_emu_num_prmt(a, b, 0x4567, WS_NUM_PRMT_DEFAULT), 0x44556677);
  EQ(ws_emu_num_prmt(0x000080FF, 0, 0x8989, WS_NUM_PRMT_DEFAULT), 0xFFFFFFFF); /* sign of 0x80 */
  EQ(ws_emu_num_prmt(0x0000807F, 0, 0x8888, WS_NUM_PRMT_DEFAULT), 0x00000000); /* sign of 0x7F */
  EQ(ws_emu_num_prmt(0x0000807F, 0, 0x0808, WS_NUM_PRMT_DEFAULT), 0x7F007F00); /* copy, sign */
  /* Mode tables (ISA lists d.b3 d.b2 d.b1 d.b0 per selector c[1:0]). */
  EQ(ws_emu_num_prmt(a, b, 1, WS_NUM_PRMT_F4E), 0x44332211);  /* 4 3 2 1 */
  EQ(ws_emu_num_prmt(a, b, 0, WS_NUM_PRMT_B4E), 0x55667700);  /* 5 6 7 0 */
  EQ(ws_emu_num_prmt(a, b, 2, WS_NUM_PRMT_RC8), 0x22222222);  /* 2 2 2 2 */
  EQ(ws_emu_num_prmt(a, b, 1, WS_NUM_PRMT_ECL), 0x33221111);  /* 3 2 1 1 */
  EQ(ws_emu_num_prmt(a, b, 2, WS_NUM_PRMT_ECR), 0x22221100);  /* 2 2 1 0 */
  EQ(ws_emu_num_prmt(a, b, 1, WS_NUM_PRMT_RC16), 0x33223322); /* 3 2 3 2 */
  EQ(ws_emu_num_prmt(a, b, 0x5, WS_NUM_PRMT_RC16), 0x33223322); /* only c[1:0] */
  /* shf: {b,a} = 0x01234567_89ABCDEF. */
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 4, 1, 1), 0x12345678);
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 4, 0, 0), 0x789ABCDE);
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 40, 1, 0), 0x89ABCDEF); /* clamp 32 */
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 40, 0, 0), 0x01234567);
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 36, 1, 1), 0x12345678); /* wrap 4 */
  EQ(ws_emu_num_shf(0x89ABCDEF, 0x01234567, 0, 0, 1), 0x89ABCDEF);
  /* shl/shr: amounts >= width clamp. */
  EQ(ws_emu_num_shl(1, 32, 32), 0);
  EQ(ws_emu_num_shl(1, 31, 32), 0x80000000);
  EQ(ws_emu_num_shl(1, 15, 16), 0x8000);
  EQ(ws_emu_num_shl(1, 16, 16), 0);
  EQ(ws_emu_num_shl(1, 0xFFFFFFFF, 64), 0);
  EQ(ws_emu_num_shr(0x80000000, 40, 32, 1), 0xFFFFFFFF);
  EQ(ws_emu_num_shr(0x80000000, 31, 32, 0), 1);
  EQ(ws_emu_num_shr(0x80000000, 32, 32, 0), 0);
  EQ(ws_emu_num_shr(0x8000, 4, 16, 1), 0xF800);
  /* lop3: LUT of (a & b) | c = (0xF0 & 0xCC) | 0xAA = 0xEA; 0x96 = a^b^c. */
  EQ(ws_emu_num_lop3(0x0F0F0F0F, 0x00FF00FF, 0x11110000, 0xEA), 0x111F000F);
  EQ(ws_emu_num_lop3(0x0F0F0F0F, 0x00FF00FF, 0x11110000, 0x96), 0x0F0F0F0F ^ 0x00FF00FF ^ 0x11110000);
  EQ(ws_emu_num_lop3(1, 2, 4, 0x00), 0);
  EQ(ws_emu_num_lop3(1, 2, 4, 0xFF), 0xFFFFFFFF);
  /* dp4a: bytes of a = {4, 3, 2, -1 or 255}, b = {1,1,1,1}, c = 10. */
  EQ(ws_emu_num_dp4a(0xFF020304, 0x01010101, 10, 1, 1), 18);
  EQ(ws_emu_num_dp4a(0xFF020304, 0x01010101, 10, 0, 0), 274);
  EQ(ws_emu_num_dp4a(0xFF, 0xFF, 0, 0, 1), (uint32_t)-255);
  /* dp2a: a halves {2, -1}; b bytes {1, 2, 3, 4}: lo 2*1 - 2 = 0,
   * hi 2*3 - 4 = 2. */
  EQ(ws_emu_num_dp2a(0xFFFF0002, 0x04030201, 0, 1, 1, 0), 0);
  EQ(ws_emu_num_dp2a(0xFFFF0002, 0x04030201, 0, 1, 1, 1), 2);
  EQ(ws_emu_num_dp2a(0xFFFF0002, 0x04030201, 0, 0, 1, 0), 2 + 65535 * 2);
  EQ(ws_emu_num_sad(3, 10, 100, 32, 0), 107);
  EQ(ws_emu_num_sad((uint32_t)-3, 4, 0, 32, 1), 7);
  EQ(ws_emu_num_sad((uint32_t)-3, 4, 0, 32, 0), (uint32_t)(-3 - 4)); /* unsigned |a-b| */
  /* szext (ISA pseudo-code; example: szext.wrap.u32 of 0xffffffff, 0 = 0). */
  EQ(ws_emu_num_szext(0xFFFFFFFF, 0, 1, 0), 0);
  EQ(ws_emu_num_szext(0x000000F0, 8, 0, 1), 0xFFFFFFF0); /* bit 7 set */
  EQ(ws_emu_num_szext(0x000000F0, 8, 0, 0), 0xF0);
  EQ(ws_emu_num_szext(0x000001F0, 8, 0, 0), 0xF0);       /* bits above 8 cleared */
  EQ(ws_emu_num_szext(0x80000001, 40, 0, 1), 0x80000001); /* clamp: N >= 32 keeps a */
  EQ(ws_emu_num_szext(0x000000F0, 40, 1, 1), 0xFFFFFFF0); /* wrap: 40 & 31 = 8 */
  /* bmsk: the ISA example bmsk.wrap(1, 2) = 0x6; width 0 -> 0; clamp. */
  EQ(ws_emu_num_bmsk(1, 2, 1), 0x6);
  EQ(ws_emu_num_bmsk(4, 0, 1), 0);
  EQ(ws_emu_num_bmsk(28, 8, 1), 0xF0000000); /* sum >= 32: to the top */
  EQ(ws_emu_num_bmsk(33, 2, 0), 0);          /* clamp: position >= 32 */
  EQ(ws_emu_num_bmsk(33, 2, 1), 0x6);        /* wrap: 33 & 31 = 1 */
  EQ(ws_emu_num_bmsk(0, 32, 0), 0xFFFFFFFF); /* clamp: width >= 32 -> all from pos */
  /* Packed 16-bit integer ops: halves independent. */
  EQ(ws_emu_num_add16x2(0x0001FFFF, 0x00010001, 0), 0x00020000); /* lo wraps */
  EQ(ws_emu_num_add16x2(0x00000000, 0x00010001, 1), 0xFFFFFFFF);
  EQ(ws_emu_num_min16x2(0x8000FFFF, 0x00010001, 1, 0), 0x8000FFFF);
  EQ(ws_emu_num_min16x2(0x8000FFFF, 0x00010001, 0, 0), 0x00010001);
  EQ(ws_emu_num_min16x2(0x8000FFFF, 0x00010001, 1, 1), 0x00000000);
  EQ(ws_emu_num_max16x2(0x8000FFFF, 0x00010001, 1, 0), 0x00010001);
  /* fns: the ISA's four examples. */
  EQ(ws_emu_num_fns(0xAAAAAAAA, 3, 1), 3);
  EQ(ws_emu_num_fns(0xAAAAAAAA, 3, -1), 3);
  EQ(ws_emu_num_fns(0xAAAAAAAA, 2, 1), 3);
  EQ(ws_emu_num_fns(0xAAAAAAAA, 2, -1), 1);
  EQ(ws_emu_num_fns(0xAAAAAAAA, 2, 0), 0xFFFFFFFF);
  EQ(ws_emu_num_fns(0x1, 31, -1), 0);
  EQ(ws_emu_num_fns(0x1, 0, 2), 0xFFFFFFFF);
  DONE();
}

/* ---- randomized differential runs ------------------------------------------ */

#define N_RANDOM 20000 /* per operation and mode: about 1 s in all */

static const ws_emu_num_rnd MODES[] = {WS_NUM_RN, WS_NUM_RZ, WS_NUM_RM, WS_NUM_RP};

static void report_mismatch(const char *op, ws_emu_num_rnd m, uint64_t a, uint64_t b, uint64_t c,
                            uint64_t got, uint64_t want) {
  if (fails < 10)
    print_error("%s mode %d: a=0x%" PRIX64 " b=0x%" PRIX64 " c=0x%" PRIX64 " got 0x%" PRIX64
                " want 0x%" PRIX64 "\n", op, (int)m, a, b, c, got, want);
  fails++;
}

static void random_f32(void **st) {
  (void)st;
  fails = 0;
  uint64_t s = 0x9E3779B97F4A7C15ull;
  uint32_t prev = 0x3F800000;
  for (int i = 0; i < N_RANDOM; i++) {
    uint32_t a = ref_rand_f32(&s, prev), b = ref_rand_f32(&s, a), c = ref_rand_f32(&s, b);
    prev = c;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      uint32_t g, w;
#define CK(name, got, want) \
  if ((g = (got)) != (w = (want))) report_mismatch(name, m, a, b, c, g, w)
      CK("add", ws_emu_num_f32_add(a, b, m, 0, 0), ref_f32_add(a, b, m));
      CK("sub", ws_emu_num_f32_sub(a, b, m, 0, 0), ref_f32_add(a, b ^ 0x80000000u, m));
      CK("mul", ws_emu_num_f32_mul(a, b, m, 0, 0), ref_f32_mul(a, b, m));
      CK("fma", ws_emu_num_f32_fma(a, b, c, m, 0, 0), ref_f32_fma(a, b, c, m));
      CK("div", ws_emu_num_f32_div(a, b, m, 0), ref_f32_div(a, b, m));
      CK("sqrt", ws_emu_num_f32_sqrt(a, m, 0), ref_f32_sqrt(a, m));
#undef CK
    }
    /* RN against the host's plain operators as well (no reference code). */
    float fa = bitsf(a), fb = bitsf(b), fc = bitsf(c);
    uint32_t r;
    if ((r = ws_emu_num_f32_add(a, b, RN, 0, 0)) != fbits(fa + fb) && !isnan(fa + fb))
      report_mismatch("host add", RN, a, b, c, r, fbits(fa + fb));
    if ((r = ws_emu_num_f32_mul(a, b, RN, 0, 0)) != fbits(fa * fb) && !isnan(fa * fb))
      report_mismatch("host mul", RN, a, b, c, r, fbits(fa * fb));
    if ((r = ws_emu_num_f32_div(a, b, RN, 0)) != fbits(fa / fb) && !isnan(fa / fb))
      report_mismatch("host div", RN, a, b, c, r, fbits(fa / fb));
    if ((r = ws_emu_num_f32_fma(a, b, c, RN, 0, 0)) != fbits(fmaf(fa, fb, fc)) && !isnan(fmaf(fa, fb, fc)))
      report_mismatch("host fma", RN, a, b, c, r, fbits(fmaf(fa, fb, fc)));
    /* Conversions: f32 -> f64 exact, f64 -> f32 RN is the host cast. */
    double d = (double)fa * 1.0000001;
    if (!isnan(d)) {
      uint32_t want = fbits((float)d);
      if ((r = (uint32_t)ws_emu_num_cvt(dbits(d), WS_NUM_F64, WS_NUM_F32, RN, 0, 0)) != want)
        report_mismatch("cvt f32.f64", RN, dbits(d), 0, 0, r, want);
    }
    if (!isnan(fa)) {
      uint64_t got = ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_F64, WS_NUM_RND_NONE, 0, 0);
      if (got != dbits((double)fa)) report_mismatch("cvt f64.f32", RN, a, 0, 0, got, dbits((double)fa));
    }
    /* f32 -> s32 / u32 with the four integer roundings: libm's exact
     * rint/floor/ceil/trunc, then the PTX clamp (NaN -> 0). */
    static const ws_emu_num_rnd IR[] = {WS_NUM_RNI, WS_NUM_RZI, WS_NUM_RMI, WS_NUM_RPI};
    for (int k = 0; k < 4; k++) {
      double v = k == 0 ? rint(fa) : k == 1 ? trunc(fa) : k == 2 ? floor(fa) : ceil(fa);
      int64_t ws = isnan(v) ? 0 : v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int64_t)v;
      uint64_t wu = isnan(v) ? 0 : v >= 4294967295.0 ? UINT32_MAX : v <= 0 ? 0 : (uint64_t)v;
      uint64_t gs = ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_S32, IR[k], 0, 0);
      uint64_t gu = ws_emu_num_cvt(a, WS_NUM_F32, WS_NUM_U32, IR[k], 0, 0);
      if (gs != ((uint64_t)ws & 0xFFFFFFFFu)) report_mismatch("cvt s32", IR[k], a, 0, 0, gs, (uint64_t)ws);
      if (gu != wu) report_mismatch("cvt u32", IR[k], a, 0, 0, gu, wu);
    }
    /* s64 -> f32 in four modes; the exact comparison is in long double
     * (64-bit significand holds any int64 and any float). */
    int64_t iv = (int64_t)ref_rand(&s) >> (ref_rand(&s) & 63);
    for (int k = 0; k < 4; k++) {
      float rn = (float)iv;
      long double diff = (long double)iv - (long double)rn;
      uint32_t want = fbits(ref_dir_f(rn, diff > 0 ? 1 : diff < 0 ? -1 : 0, MODES[k]));
      uint32_t got = (uint32_t)ws_emu_num_cvt((uint64_t)iv, WS_NUM_S64, WS_NUM_F32, MODES[k], 0, 0);
      if (got != want) report_mismatch("cvt f32.s64", MODES[k], (uint64_t)iv, 0, 0, got, want);
    }
  }
  DONE();
}

/* The f32 fast path's limits: sums whose exponents differ by 26..31 and fmas
 * whose product and addend span 48..56 bits, where exactness in a double
 * starts to fail. */
static void random_f32_fastpath_edges(void **st) {
  (void)st;
  fails = 0;
  uint64_t s = 4242;
  for (int i = 0; i < N_RANDOM; i++) {
    uint64_t r = ref_rand(&s);
    uint32_t ea = 100 + (uint32_t)(r % 50), d = 26 + (uint32_t)((r >> 8) % 6);
    uint32_t a = ((uint32_t)(r >> 16) & 0x80000000u) | ea << 23 | ((uint32_t)(r >> 20) & 0x7FFFFF);
    uint32_t b = ((uint32_t)(r >> 17) & 0x80000000u) | (ea - d) << 23 | ((uint32_t)(r >> 40) & 0x7FFFFF);
    uint64_t r2 = ref_rand(&s);
    /* c's exponent around the product's low end: span 48 + 0..8 bits. */
    uint32_t ec = ea + (ea - d) - 127 - 23 - 4 + (uint32_t)(r2 % 13);
    uint32_t c = ((uint32_t)r2 & 0x80000000u) | ec << 23 | ((uint32_t)(r2 >> 8) & 0x7FFFFF);
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      uint32_t g, w;
      if ((g = ws_emu_num_f32_add(a, b, m, 0, 0)) != (w = ref_f32_add(a, b, m)))
        report_mismatch("add edge", m, a, b, 0, g, w);
      if ((g = ws_emu_num_f32_fma(a, b, c, m, 0, 0)) != (w = ref_f32_fma(a, b, c, m)))
        report_mismatch("fma edge", m, a, b, c, g, w);
      if ((g = ws_emu_num_f32_fma(a, b, a ^ 0x80000000u, m, 0, 0)) != (w = ref_f32_fma(a, b, a ^ 0x80000000u, m)))
        report_mismatch("fma edge2", m, a, b, a, g, w);
    }
  }
  DONE();
}

/* .ftz: flush subnormal inputs by hand, run the host, flush the result. */
static uint32_t flush32(uint32_t u) { return (u & 0x7F800000u) == 0 ? (u & 0x80000000u) : u; }
static void random_f32_ftz_sat(void **st) {
  (void)st;
  fails = 0;
  uint64_t s = 12345;
  uint32_t prev = 0x00800000;
  for (int i = 0; i < N_RANDOM; i++) {
    uint32_t a = ref_rand_f32(&s, prev), b = ref_rand_f32(&s, a);
    prev = b;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      uint32_t want = flush32(ref_f32_mul(flush32(a), flush32(b), m));
      uint32_t got = ws_emu_num_f32_mul(a, b, m, 1, 0);
      if (got != want) report_mismatch("mul.ftz", m, a, b, 0, got, want);
      want = flush32(ref_f32_add(flush32(a), flush32(b), m));
      got = ws_emu_num_f32_add(a, b, m, 1, 0);
      if (got != want) report_mismatch("add.ftz", m, a, b, 0, got, want);
      /* .sat: NaN -> 0, x <= 0 -> +0, x >= 1 -> 1. */
      float r = bitsf(ref_f32_add(a, b, m));
      uint32_t ws = isnan(r) || r <= 0 ? 0 : r >= 1 ? 0x3F800000u : fbits(r);
      got = ws_emu_num_f32_add(a, b, m, 0, 1);
      if (got != ws) report_mismatch("add.sat", m, a, b, 0, got, ws);
    }
  }
  DONE();
}

/* Quotients (div, div.full, rcp, div.approx, .ftz) where the f32 fast path
 * ends: results near the smallest normal and near overflow, divisors near
 * 2^126 (div.approx's zero range), and anywhere; against the host's
 * quotients (ref_f32_div) and products, flushed by hand for .ftz. */
static uint32_t ref_div_approx(uint32_t a, uint32_t b, int ftz) {
  uint32_t fb = ftz ? flush32(b) : b, mb = fb & 0x7FFFFFFFu;
  if (mb > 0x7E800000u && mb < 0x7F800000u) /* 2^126 < |b| < inf: 1/b is 0 */
    return (a & 0x7F800000u) == 0x7F800000u ? 0x7FFFFFFFu : (a ^ fb) & 0x80000000u;
  if (!ftz) return ref_f32_mul(a, ref_f32_div(0x3F800000u, b, RN), RN);
  return flush32(ref_f32_mul(flush32(a), flush32(ref_f32_div(0x3F800000u, fb, RN)), RN));
}
static void random_f32_quotients(void **st) {
  (void)st;
  fails = 0;
  uint64_t s = 0x51AB1E5ull;
  uint32_t prev = 0x3F800000;
  for (int i = 0; i < N_RANDOM; i++) {
    uint64_t r = ref_rand(&s);
    uint32_t a, b;
    if (r & 1) { /* anywhere, with the usual specials and subnormals */
      a = ref_rand_f32(&s, prev), b = ref_rand_f32(&s, a);
    } else { /* the quotient's exponent at the edges of the normal range */
      static const int target[] = {-2, -1, 0, 1, 2, 3, 252, 253, 254, 255, 256};
      int eb = 1 + (int)((r >> 8) % 254), t = target[(r >> 16) % 11];
      int ea = eb + t - 127;
      if ((r >> 24) & 1) eb = 252 + (int)((r >> 25) % 3), ea = 1 + (int)((r >> 28) % 254);
      ea = ea < 1 ? 1 : ea > 254 ? 254 : ea;
      a = ((uint32_t)(r >> 32) & 0x80000000u) | (uint32_t)ea << 23 | ((uint32_t)(r >> 33) & 0x7FFFFF);
      b = ((uint32_t)(r >> 31) & 0x80000000u) | (uint32_t)eb << 23 | ((uint32_t)(r >> 40) & 0x7FFFFF);
    }
    prev = b;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      uint32_t g, w;
      if ((g = ws_emu_num_f32_div(a, b, m, 0)) != (w = ref_f32_div(a, b, m))) report_mismatch("div", m, a, b, 0, g, w);
      if ((g = ws_emu_num_f32_div(a, b, m, 1)) != (w = flush32(ref_f32_div(flush32(a), flush32(b), m))))
        report_mismatch("div.ftz", m, a, b, 0, g, w);
      if ((g = ws_emu_num_f32_rcp(b, m, 0)) != (w = ref_f32_div(0x3F800000u, b, m))) report_mismatch("rcp", m, b, 0, 0, g, w);
    }
    uint32_t g, w;
    if ((g = ws_emu_num_f32_div_full(a, b, 1)) != (w = flush32(ref_f32_div(flush32(a), flush32(b), RN))))
      report_mismatch("div.full.ftz", RN, a, b, 0, g, w);
    if ((g = ws_emu_num_f32_rcp_approx(b, 0)) != (w = ref_f32_div(0x3F800000u, b, RN)))
      report_mismatch("rcp.approx", RN, b, 0, 0, g, w);
    for (int ftz = 0; ftz < 2; ftz++)
      if ((g = ws_emu_num_f32_div_approx(a, b, ftz)) != (w = ref_div_approx(a, b, ftz)))
        report_mismatch(ftz ? "div.approx.ftz" : "div.approx", RN, a, b, 0, g, w);
  }
  DONE();
}

#ifdef WS_HAVE_F128
static void random_f64(void **st) {
  (void)st;
  fails = 0;
  uint64_t s = 0xDEADBEEFCAFEull;
  uint64_t prev = 0x3FF0000000000000ull;
  for (int i = 0; i < N_RANDOM; i++) {
    uint64_t a = ref_rand_f64(&s, prev), b = ref_rand_f64(&s, a), c = ref_rand_f64(&s, b);
    prev = c;
    for (int k = 0; k < 4; k++) {
      ws_emu_num_rnd m = MODES[k];
      uint64_t g, w;
#define CK(name, got, want) \
  if ((g = (got)) != (w = (want))) report_mismatch(name, m, a, b, c, g, w)
      CK("add64", ws_emu_num_f64_add(a, b, m), ref_f64_add(a, b, m));
      CK("sub64", ws_emu_num_f64_sub(a, b, m), ref_f64_add(a, b ^ 0x8000000000000000ull, m));
      CK("mul64", ws_emu_num_f64_mul(a, b, m), ref_f64_mul(a, b, m));
      CK("fma64", ws_emu_num_f64_fma(a, b, c, m), ref_f64_fma(a, b, c, m));
      CK("div64", ws_emu_num_f64_div(a, b, m), ref_f64_div(a, b, m));
      CK("sqrt64", ws_emu_num_f64_sqrt(a, m), ref_f64_sqrt(a, m));
#undef CK
    }
    /* f64 -> s64 / u64 with integer rounding: libm, then the PTX clamp. */
    static const ws_emu_num_rnd IR[] = {WS_NUM_RNI, WS_NUM_RZI, WS_NUM_RMI, WS_NUM_RPI};
    for (int k = 0; k < 4; k++) {
      double x = bitsd(a);
      double v = k == 0 ? rint(x) : k == 1 ? trunc(x) : k == 2 ? floor(x) : ceil(x);
      uint64_t ws = isnan(v) ? 0 : v >= 0x1p63 ? (uint64_t)INT64_MAX : v < -0x1p63 ? 0x8000000000000000ull
                  : (uint64_t)(int64_t)v;
      uint64_t wu = isnan(v) ? 0 : v >= 0x1p64 ? UINT64_MAX : v <= 0 ? 0 : (uint64_t)v;
      uint64_t gs = ws_emu_num_cvt(a, WS_NUM_F64, WS_NUM_S64, IR[k], 0, 0);
      uint64_t gu = ws_emu_num_cvt(a, WS_NUM_F64, WS_NUM_U64, IR[k], 0, 0);
      if (gs != ws) report_mismatch("cvt s64.f64", IR[k], a, 0, 0, gs, ws);
      if (gu != wu) report_mismatch("cvt u64.f64", IR[k], a, 0, 0, gu, wu);
    }
    /* f64 -> f32 in the directed modes: host cast, then an exact compare. */
    double d = bitsd(a);
    if (!isnan(d)) {
      float rn = (float)d;
      int sgn = isinf(rn) && !isinf(d) ? (rn > 0 ? -1 : 1) : ref_sign(d - (double)rn);
      for (int k = 0; k < 4; k++) {
        uint32_t want = fbits(ref_dir_f(rn, sgn, MODES[k]));
        uint32_t got = (uint32_t)ws_emu_num_cvt(a, WS_NUM_F64, WS_NUM_F32, MODES[k], 0, 0);
        if (got != want) report_mismatch("cvt f32.f64", MODES[k], a, 0, 0, got, want);
      }
    }
  }
  DONE();
}

static ref_h t_f16, t_bf16;

/* Random 16-bit pattern; bf16 exponents kept within 2^-20..2^20 so that
 * every sum and fma is exact in __float128 (spans under 113 bits). */
static uint16_t rand_h(uint64_t *s, int bf) {
  uint64_t r = ref_rand(s);
  if (!bf) return (uint16_t)r;
  return (uint16_t)(((r >> 16) & 0x8000) | ((127 - 20 + (r >> 20) % 41) << 7) | (r & 0x7F));
}
static int h_special(uint16_t v, int bf) {
  return bf ? (v & 0x7F80) == 0x7F80 : (v & 0x7C00) == 0x7C00;
}

static void random_half(void **st) {
  (void)st;
  fails = 0;
  ref_h_init(&t_f16, 10, 5);
  ref_h_init(&t_bf16, 7, 8);
  uint64_t s = 777;
  for (int i = 0; i < N_RANDOM; i++) {
    for (int bf = 0; bf < 2; bf++) {
      const ref_h *t = bf ? &t_bf16 : &t_f16;
      uint16_t a = rand_h(&s, bf), b = rand_h(&s, bf), c = rand_h(&s, bf);
      if (h_special(a, bf) || h_special(b, bf) || h_special(c, bf)) continue;
      ref_q x = ref_h_value(t, a), y = ref_h_value(t, b), z = ref_h_value(t, c);
      for (int k = 0; k < 4; k++) {
        ws_emu_num_rnd m = MODES[k];
        ref_q sum = x + y, prod = x * y, f = x * y + z; /* exact */
        uint16_t want_add = ref_h_round(t, sum, m), want_mul = ref_h_round(t, prod, m),
                 want_fma = ref_h_round(t, f, m);
        /* Exact zeros: IEEE sign rules, as in num_ref.h. */
        if (sum == 0) {
          int sa = a >> 15, sb = b >> 15;
          int neg = (x == 0 && y == 0 && sa == sb) ? sa : m == RM;
          want_add = neg ? 0x8000 : 0;
        }
        if (prod == 0) want_mul = (uint16_t)((a ^ b) & 0x8000);
        if (f == 0) {
          int ps = ((a ^ b) & 0x8000) != 0, cs = (c & 0x8000) != 0;
          want_fma = (uint16_t)(((prod == 0 && z == 0 && ps == cs) ? ps : m == RM) ? 0x8000 : 0);
        }
        uint16_t g;
        if (bf) {
          if ((g = ws_emu_num_bf16_add(a, b, m)) != want_add) report_mismatch("bf16 add", m, a, b, c, g, want_add);
          if ((g = ws_emu_num_bf16_mul(a, b, m)) != want_mul) report_mismatch("bf16 mul", m, a, b, c, g, want_mul);
          if ((g = ws_emu_num_bf16_fma(a, b, c, m, 0)) != want_fma) report_mismatch("bf16 fma", m, a, b, c, g, want_fma);
        } else {
          if ((g = ws_emu_num_f16_add(a, b, m, 0, 0)) != want_add) report_mismatch("f16 add", m, a, b, c, g, want_add);
          if ((g = ws_emu_num_f16_mul(a, b, m, 0, 0)) != want_mul) report_mismatch("f16 mul", m, a, b, c, g, want_mul);
          if ((g = ws_emu_num_f16_fma(a, b, c, m, 0, 0, 0)) != want_fma) report_mismatch("f16 fma", m, a, b, c, g, want_fma);
        }
      }
    }
    /* f32 -> f16 / bf16 in all four modes: the f32 value is exact. */
    uint32_t u = ref_rand_f32(&s, 0x3F800000);
    float fu = bitsf(u);
    if (!isnan(fu) && !isinf(fu)) {
      for (int k = 0; k < 4; k++) {
        uint16_t w16 = ref_h_round(&t_f16, (ref_q)fu, MODES[k]);
        uint16_t wbf = ref_h_round(&t_bf16, (ref_q)fu, MODES[k]);
        uint64_t g16 = ws_emu_num_cvt(u, WS_NUM_F32, WS_NUM_F16, MODES[k], 0, 0);
        uint64_t gbf = ws_emu_num_cvt(u, WS_NUM_F32, WS_NUM_BF16, MODES[k], 0, 0);
        if (g16 != w16) report_mismatch("cvt f16.f32", MODES[k], u, 0, 0, g16, w16);
        if (gbf != wbf) report_mismatch("cvt bf16.f32", MODES[k], u, 0, 0, gbf, wbf);
      }
      /* f64 and s64 sources: exact in __float128, so the table rounds them. */
      double dv = bitsd(ref_rand_f64(&s, dbits((double)fu)));
      int64_t iv = (int64_t)ref_rand(&s) >> (ref_rand(&s) & 63);
      for (int k = 0; k < 4; k++) {
        if (!isnan(dv) && !isinf(dv)) {
          uint64_t g = ws_emu_num_cvt(dbits(dv), WS_NUM_F64, WS_NUM_F16, MODES[k], 0, 0);
          uint16_t w = ref_h_round(&t_f16, (ref_q)dv, MODES[k]);
          if (g != w) report_mismatch("cvt f16.f64", MODES[k], dbits(dv), 0, 0, g, w);
          g = ws_emu_num_cvt(dbits(dv), WS_NUM_F64, WS_NUM_BF16, MODES[k], 0, 0);
          w = ref_h_round(&t_bf16, (ref_q)dv, MODES[k]);
          if (g != w) report_mismatch("cvt bf16.f64", MODES[k], dbits(dv), 0, 0, g, w);
        }
        uint64_t g = ws_emu_num_cvt((uint64_t)iv, WS_NUM_S64, WS_NUM_F16, MODES[k], 0, 0);
        uint16_t w = iv == 0 ? 0 : ref_h_round(&t_f16, (ref_q)iv, MODES[k]);
        if (g != w) report_mismatch("cvt f16.s64", MODES[k], (uint64_t)iv, 0, 0, g, w);
        g = ws_emu_num_cvt((uint64_t)iv, WS_NUM_S64, WS_NUM_BF16, MODES[k], 0, 0);
        w = iv == 0 ? 0 : ref_h_round(&t_bf16, (ref_q)iv, MODES[k]);
        if (g != w) report_mismatch("cvt bf16.s64", MODES[k], (uint64_t)iv, 0, 0, g, w);
      }
      /* RN also against the compiler's _Float16 conversion (libgcc). */
#if defined(__FLT16_MAX__)
      _Float16 h = (_Float16)fu;
      uint16_t hb;
      memcpy(&hb, &h, 2);
      uint64_t g = ws_emu_num_cvt(u, WS_NUM_F32, WS_NUM_F16, RN, 0, 0);
      if (g != hb) report_mismatch("cvt f16.f32 host", RN, u, 0, 0, g, hb);
#endif
    }
  }
  DONE();
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(f32_add_rounding),  cmocka_unit_test(f32_overflow),
      cmocka_unit_test(f32_subnormal_ftz), cmocka_unit_test(f32_zero_nan_sat),
      cmocka_unit_test(f32_fma_div_sqrt),  cmocka_unit_test(f32_min_max_misc),
      cmocka_unit_test(f32_setp),          cmocka_unit_test(f32_approx),
      cmocka_unit_test(f64_cases),         cmocka_unit_test(cvt_float_to_int),
      cmocka_unit_test(cvt_to_float),      cmocka_unit_test(cvt_int_to_int),
      cmocka_unit_test(half_cases),        cmocka_unit_test(int_mul_div),
      cmocka_unit_test(int_misc),          cmocka_unit_test(int_bitfield),
      cmocka_unit_test(random_f32),        cmocka_unit_test(random_f32_ftz_sat),
      cmocka_unit_test(random_f32_fastpath_edges), cmocka_unit_test(random_f32_quotients),
#ifdef WS_HAVE_F128
      cmocka_unit_test(random_f64),        cmocka_unit_test(random_half),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
