/*
 * ops/f32.h — single precision.  The plain round-to-nearest forms run on
 * the host FPU (its default rounding, never changed); every form with
 * another rounding, .ftz, .sat or .approx calls num.c once per lane
 * (LIB_EXEC: out of line).  add, sub, mul, fma, div, min, max, abs and neg
 * are decoded in ops/int.h; rcp, sqrt, copysign and the approximate
 * functions (of f32 and f64) here.  Decoders and executors of the F32
 * family (dops.def); compiled in exec.c.
 */

/* fma.rn.f32 without a libm call: the product of two floats is exact in
 * double, so d = a*b + c rounds once (to 53 bits).  Rounding d to float then
 * equals rounding the exact value unless d landed exactly on a midpoint
 * between two floats (double rounding) or the result is not a normal float;
 * those rare cases go to fmaf(). */
static inline uint64_t fma32(uint64_t a, uint64_t b, uint64_t c) {
  double d = (double)f32(a) * (double)f32(b) + (double)f32(c);
  uint64_t u;
  memcpy(&u, &d, 8);
  uint64_t e = (u >> 52) & 0x7ff;
  if ((u & 0x1fffffffull) == 0x10000000ull || e < 1023 - 126 || e > 1023 + 127)
    return bf32(fmaf(f32(a), f32(b), f32(c)));
  return bf32((float)d);
}

EXEC(F32_ADD) { IBIN(bf32(f32(a) + f32(b))); }
EXEC(F32_SUB) { IBIN(bf32(f32(a) - f32(b))); }
EXEC(F32_MUL) { IBIN(bf32(f32(a) * f32(b))); }
EXEC(F32_FMA) { ITER(fma32(a, b, c)); }
/* IEEE division and square root are correctly rounded on the host */
EXEC(F32_DIV_RN) { IBIN(bf32(f32(a) / f32(b))); }
EXEC(F32_SQRT_RN) { IUN(bf32(sqrtf(f32(a)))); }
EXEC(F32_RCP_RN) { IUN(bf32(1.0f / f32(a))); }

#define RND ((ws_emu_num_rnd)in->rnd)
LIB_EXEC(F32_ADD_X) { IBIN(ws_emu_num_f32_add((uint32_t)a, (uint32_t)b, RND, in->ftz, in->sat)); }
LIB_EXEC(F32_SUB_X) { IBIN(ws_emu_num_f32_sub((uint32_t)a, (uint32_t)b, RND, in->ftz, in->sat)); }
LIB_EXEC(F32_MUL_X) { IBIN(ws_emu_num_f32_mul((uint32_t)a, (uint32_t)b, RND, in->ftz, in->sat)); }
LIB_EXEC(F32_FMA_X) { ITER(ws_emu_num_f32_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, RND, in->ftz, in->sat)); }
LIB_EXEC(F32_DIV) { IBIN(ws_emu_num_f32_div((uint32_t)a, (uint32_t)b, RND, in->ftz)); }
LIB_EXEC(F32_DIV_APPROX) { IBIN(ws_emu_num_f32_div_approx((uint32_t)a, (uint32_t)b, in->ftz)); }
LIB_EXEC(F32_DIV_FULL) { IBIN(ws_emu_num_f32_div_full((uint32_t)a, (uint32_t)b, in->ftz)); }
LIB_EXEC(F32_MIN) { IBIN(ws_emu_num_f32_min((uint32_t)a, (uint32_t)b, in->ftz, in->nan)); }
LIB_EXEC(F32_MAX) { IBIN(ws_emu_num_f32_max((uint32_t)a, (uint32_t)b, in->ftz, in->nan)); }
LIB_EXEC(F32_ABS) { IUN(ws_emu_num_f32_abs((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_NEG) { IUN(ws_emu_num_f32_neg((uint32_t)a, in->ftz)); }

/* rcp, sqrt (f32 and f64): .rn on the host, other roundings, .ftz and
 * .approx in num.c */
DECODER(rcp_sqrt) {
  int t = T->t;
  int approx = HAS(APPROX), host = di->rnd == WS_NUM_RN && !di->ftz;
  if (T->isf32) {
    if (in->op == WS_PTX_OP_RCP) {
      if (approx) UN(F32_RCP_APPROX);
      if (host) UN(F32_RCP_RN);
      UN(F32_RCP);
    }
    if (approx) UN(F32_SQRT_APPROX);
    if (host) UN(F32_SQRT_RN);
    UN(F32_SQRT);
  }
  if (!T->isf64) REFUSE();
  if (in->op == WS_PTX_OP_RCP) {
    if (approx) {
      if (!di->ftz) REFUSE();
      UN(F64_RCP_APPROX);
    }
    if (di->rnd == WS_NUM_RN) UN(F64_RCP_RN);
    UN(F64_RCP);
  }
  if (approx) REFUSE();
  if (di->rnd == WS_NUM_RN) UN(F64_SQRT_RN);
  UN(F64_SQRT);
}
LIB_EXEC(F32_RCP) { IUN(ws_emu_num_f32_rcp((uint32_t)a, RND, in->ftz)); }
LIB_EXEC(F32_RCP_APPROX) { IUN(ws_emu_num_f32_rcp_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_SQRT) { IUN(ws_emu_num_f32_sqrt((uint32_t)a, RND, in->ftz)); }
LIB_EXEC(F32_SQRT_APPROX) { IUN(ws_emu_num_f32_sqrt_approx((uint32_t)a, in->ftz)); }
#undef RND

/* rsqrt (f32, f64), sin, cos, lg2, ex2, tanh (f32): the approximate functions */
DECODER(approx) {
  int t = T->t;
  if (T->isf64 && in->op == WS_PTX_OP_RSQRT) UN(F64_RSQRT);
  if (!T->isf32) REFUSE();
  switch (in->op) {
  case WS_PTX_OP_RSQRT: UN(F32_RSQRT);
  case WS_PTX_OP_SIN: UN(F32_SIN);
  case WS_PTX_OP_COS: UN(F32_COS);
  case WS_PTX_OP_LG2: UN(F32_LG2);
  case WS_PTX_OP_EX2: UN(F32_EX2);
  default: UN(F32_TANH);
  }
}
LIB_EXEC(F32_RSQRT) { IUN(ws_emu_num_f32_rsqrt_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_SIN) { IUN(ws_emu_num_f32_sin_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_COS) { IUN(ws_emu_num_f32_cos_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_EX2) { IUN(ws_emu_num_f32_ex2_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_LG2) { IUN(ws_emu_num_f32_lg2_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_TANH) { IUN(ws_emu_num_f32_tanh_approx((uint32_t)a)); }

/* copysign (f32, f64) */
DECODER(copysign) {
  int t = T->t;
  if (T->isf32) BIN(F32_COPYSIGN);
  BIN(F64_COPYSIGN);
}
LIB_EXEC(F32_COPYSIGN) { IBIN(ws_emu_num_f32_copysign((uint32_t)a, (uint32_t)b)); }
