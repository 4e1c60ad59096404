/*
 * ops/f32.h — single precision.  The plain round-to-nearest forms run on
 * the host FPU (its default rounding, never changed); so do fma with a
 * directed rounding, ex2.approx, and abs and neg without .ftz, exactly as
 * num.c computes them (each case argued beside it; num.c for the rest);
 * every other form with another rounding, .ftz, .sat or .approx calls
 * num.c once per lane (LIB_EXEC: out of line).  add, sub, mul, fma, div, min, max, abs and neg
 * are decoded in ops/int.h; rcp, sqrt, copysign and the approximate
 * functions (of f32 and f64) here.  Decoders and executors of the F32
 * family (dops.def); compiled in exec.c.
 */

/* fma.rn.f32 without a libm call: the product of two floats is exact in
 * double, so d = a*b + c rounds once (to 53 bits).  Rounding d to float then
 * equals rounding the exact value unless d landed exactly on a midpoint
 * between two floats (double rounding) or the result is not a normal float;
 * those rare cases go to fmaf(). */
static inline double fma32_d(uint64_t a, uint64_t b, uint64_t c) {
  return (double)f32(a) * (double)f32(b) + (double)f32(c);
}
/* Whether d (fma32_d) may not round to the exact result's float: a
 * midpoint, or not a normal float. */
static inline uint64_t fma32_doubt(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  uint64_t e = (u >> 52) & 0x7ff;
  return (uint64_t)((u & 0x1fffffffull) == 0x10000000ull) | (uint64_t)(e < 1023 - 126) | (uint64_t)(e > 1023 + 127);
}
static inline uint64_t fma32(uint64_t a, uint64_t b, uint64_t c) {
  double d = fma32_d(a, b, c);
  if (fma32_doubt(d)) return bf32(fmaf(f32(a), f32(b), f32(c)));
  return bf32((float)d);
}

EXEC(F32_ADD) { IBIN(bf32(f32(a) + f32(b))); }
EXEC(F32_SUB) { IBIN(bf32(f32(a) - f32(b))); }
EXEC(F32_MUL) { IBIN(bf32(f32(a) * f32(b))); }
/* A whole warp: every lane in one branch-free pass (vectorised), then the
 * rare doubtful lanes again with fmaf. */
EXEC(F32_FMA) {
  if (m != 0xffffffffu) ITER(fma32(a, b, c));
  const uint64_t *A = lanes(X, in->a), *Bv = lanes(X, in->b), *C = lanes(X, in->c);
  uint64_t r[32], doubt = 0;
  for (uint32_t l = 0; l < 32; l++) {
    double d = fma32_d(A[l], Bv[l], C[l]);
    doubt |= fma32_doubt(d);
    r[l] = bf32((float)d);
  }
  if (doubt)
    for (uint32_t l = 0; l < 32; l++)
      if (fma32_doubt(fma32_d(A[l], Bv[l], C[l]))) r[l] = bf32(fmaf(f32(A[l]), f32(Bv[l]), f32(C[l])));
  memcpy(lanes(X, in->d), r, sizeof r);
  return FL_NEXT;
}

/* fma.rz/rm/rp.f32 (no .ftz, no .sat) on the host.  For normal a, b, c the
 * product is exact in double and TwoSum gives s + e = a*b + c exactly
 * (s the double nearest, |e| <= half an ulp of s).  When s is not a float,
 * the exact value lies strictly between the two floats around s (they are
 * doubles too, at least an ulp of s away), so it rounds as s does; when s
 * is a float, e says on which side of it the exact value lies.  Results
 * that are not normal floats, and other operands, go to num.c. */
static inline uint64_t fma32_dir(uint64_t a, uint64_t b, uint64_t c, int rnd) {
  uint32_t ua = (uint32_t)a, ub = (uint32_t)b, uc = (uint32_t)c;
  uint32_t ea = (ua >> 23) & 0xff, eb = (ub >> 23) & 0xff, ec = (uc >> 23) & 0xff;
  if (ea == 0 || ea == 0xff || eb == 0 || eb == 0xff || ec == 0 || ec == 0xff) goto lib;
  double p = (double)f32(a) * (double)f32(b), q = (double)f32(c), s = p + q, t = s - p;
  double e = (p - (s - t)) + (q - t);
  uint64_t u;
  memcpy(&u, &s, 8);
  uint32_t sign = (uint32_t)(u >> 63);
  int ef = (int)((u >> 52) & 0x7ff) - 1023 + 127;
  if (ef < 2 || ef > 254) goto lib; /* not normal, or at the edge of the normal range */
  uint32_t res = sign << 31 | (uint32_t)ef << 23 | (uint32_t)((u >> 29) & 0x7fffff); /* s toward zero */
  int above = (u & 0x1fffffffu) != 0 || (e != 0 && (e > 0) == !sign); /* |exact| > |res| */
  int below = (u & 0x1fffffffu) == 0 && e != 0 && (e > 0) == sign;    /* |exact| < |res| */
  /* toward zero: res, or the next float toward zero; -inf / +inf: away
   * from zero for negative / positive values */
  int away = rnd == WS_NUM_RZ ? 0 : rnd == WS_NUM_RM ? (int)sign : !sign;
  if (above && away) res++;
  if (below && !away) res--;
  return res;
lib:
  return ws_emu_num_f32_fma(ua, ub, uc, (ws_emu_num_rnd)rnd, 0, 0);
}
LIB_EXEC(F32_FMA_DIR) { ITER(fma32_dir(a, b, c, in->rnd)); }

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
/* without .ftz: the sign bit alone (a NaN keeps its payload), as num.c */
EXEC(F32_ABS_B) { IUN(a & 0x7fffffffu); }
EXEC(F32_NEG_B) { IUN((a ^ 0x80000000u) & 0xffffffffu); }

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
/* ex2.approx: num.c rounds the host's exp2 of the exact double to f32 (a
 * subnormal input flushed with .ftz); a normal result is the host's
 * conversion to float, which rounds to nearest even as num.c does.  NaN is
 * the canonical NaN; results near or past the ends of the normal range
 * (subnormal, flushed, infinite) go to num.c. */
static inline uint64_t ex2_f32(uint64_t a, int ftz) {
  uint32_t u = (uint32_t)a;
  if (ftz && (u & 0x7f800000u) == 0) u &= 0x80000000u;
  double d = exp2((double)f32(u));
  if (d >= 0x1p-125 && d <= 0x1p127) return bf32((float)d);
  if (d != d) return 0x7fffffffu;
  return ws_emu_num_f32_ex2_approx((uint32_t)a, ftz);
}
LIB_EXEC(F32_EX2) { IUN(ex2_f32(a, in->ftz)); }
LIB_EXEC(F32_LG2) { IUN(ws_emu_num_f32_lg2_approx((uint32_t)a, in->ftz)); }
LIB_EXEC(F32_TANH) { IUN(ws_emu_num_f32_tanh_approx((uint32_t)a)); }

/* copysign (f32, f64) */
DECODER(copysign) {
  int t = T->t;
  if (T->isf32) BIN(F32_COPYSIGN);
  BIN(F64_COPYSIGN);
}
LIB_EXEC(F32_COPYSIGN) { IBIN(ws_emu_num_f32_copysign((uint32_t)a, (uint32_t)b)); }
