/*
 * ops/cvt.h — conversions: cvt between integer kinds (CVT_INT, inline),
 * every cvt that num.c converts (to or from floating point, or .sat) and
 * the packing conversions to f16x2/bf16x2 and FP8 pairs (LIB_EXEC); cvta and isspacep
 * between generic and state-space addresses.  Decoders and executors of
 * the CVT family (dops.def); compiled in exec.c.
 */

/* cvt.to.from d, a; cvt.rn.f16x2.f32 d, a, b */
DECODER(cvt) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int tt = in->type[0], ft = in->type[1];
  int f8t = tt == WS_PTX_T_E4M3X2 || tt == WS_PTX_T_E5M2X2, f8f = ft == WS_PTX_T_E4M3X2 || ft == WS_PTX_T_E5M2X2;
  if (in->nops == 3) {
    /* ty: 0 f16x2, 1 bf16x2, 2 e4m3x2, 3 e5m2x2 */
    if ((tt != WS_PTX_T_F16X2 && tt != WS_PTX_T_BF16X2 && !f8t) || ft != WS_PTX_T_F32) REFUSE();
    di->ty = tt == WS_PTX_T_BF16X2 ? 1 : tt == WS_PTX_T_E4M3X2 ? 2 : tt == WS_PTX_T_E5M2X2 ? 3 : 0;
    di->relu = (uint8_t)HAS(RELU);
    di->e = HAS(SATFINITE);
    t = WS_PTX_T_F32;
    BIN(CVT_PACK);
  }
  /* FP8 pairs to and from f16x2 (ty: bit 0 E5M2, bit 1 to FP8) */
  if ((f8t && ft == WS_PTX_T_F16X2) || (f8f && tt == WS_PTX_T_F16X2)) {
    di->ty = (uint8_t)((tt == WS_PTX_T_E5M2X2 || ft == WS_PTX_T_E5M2X2) | (f8t << 1));
    di->relu = (uint8_t)HAS(RELU);
    t = ft;
    UN(CVT_F8);
  }
  int nt = ws_emu_dec_numtype(tt), nf = ws_emu_dec_numtype(ft);
  if (nt < 0 || nf < 0) REFUSE();
  di->ty = (uint8_t)nf;
  di->ty2 = (uint8_t)nt;
  di->bits = (uint8_t)tbits(ft);
  di->size = (uint8_t)tbits(tt);
  di->sgn = tkind(ft) == WS_PTX_TK_S;
  di->wmask = wmask_of(tbits(tt));
  if (o[0].kind == WS_PTX_O_REG) {
    int rb = reg_bits(D, o[0].reg);
    if (rb > tbits(tt) && tkind(tt) == WS_PTX_TK_S) di->sext = 1; /* sign-extend into the register */
    di->imm = rb;
  }
  int fl = tkind(tt) == WS_PTX_TK_F || tkind(tt) == WS_PTX_TK_H || tkind(ft) == WS_PTX_TK_F || tkind(ft) == WS_PTX_TK_H;
  di->op = !fl && !di->sat ? D_CVT_INT : D_CVT;
  if (nt == WS_NUM_F32 && nf == WS_NUM_F32 && di->sat && di->rnd < WS_NUM_RNI) di->op = D_CVT_F32_SAT;
  DST(0);
  t = ft;
  SRC(1, a);
  return WS_OK;
}

/* v sign-extended from the result's width (size) into the register's (imm) */
static inline uint64_t cvt_sext(const dinst *in, uint64_t v) {
  int dsh = 64 - in->size;
  return (uint64_t)((int64_t)(v << dsh) >> dsh) & (in->imm >= 64 ? ~0ull : (1ull << in->imm) - 1);
}

/* integer to integer: truncate or extend from the source's width */
static inline uint64_t cvt_int(const dinst *in, uint64_t a) {
  int sh = 64 - in->bits;
  uint64_t v = in->sgn ? (uint64_t)((int64_t)(a << sh) >> sh) : (a & (~0ull >> sh));
  v &= in->wmask;
  return in->sext ? cvt_sext(in, v) : v;
}
EXEC(CVT_INT) { IUN(cvt_int(in, a)); }

/* every cvt num.c converts (floating point, .sat) */
static inline uint64_t cvt_num(const dinst *in, uint64_t a) {
  uint64_t r = ws_emu_num_cvt(a, (ws_emu_num_type)in->ty, (ws_emu_num_type)in->ty2, (ws_emu_num_rnd)in->rnd,
                              in->ftz, in->sat);
  return in->sext ? cvt_sext(in, r) : r;
}
LIB_EXEC(CVT) { IUN(cvt_num(in, a)); }

/* cvt.sat.f32.f32 (any rounding but an integral one: f32 to f32 is exact),
 * as num.c: NaN and negative values (-0 too) become +0, values above 1.0
 * (+inf too) 1.0; with .ftz a subnormal becomes +0.  Branch-free: as
 * unsigned integers, the positive NaNs and every negative value (sign bit
 * set) are the encodings above +inf's. */
static inline uint64_t sat_f32(uint64_t a, int ftz) {
  uint32_t u = (uint32_t)a;
  uint32_t r = u > 0x7f800000u ? 0 : u > 0x3f800000u ? 0x3f800000u : u;
  return ftz && (u & 0x7f800000u) == 0 ? 0 : r;
}
EXEC(CVT_F32_SAT) { IUN(sat_f32(a, in->ftz)); }

/* d = {a, b} packed: b in the low half (.relu, .satfinite: e); FP8 pairs
 * are always .rn.satfinite, as PTX requires */
LIB_EXEC(CVT_PACK) {
  ws_emu_num_rnd rn = (ws_emu_num_rnd)in->rnd;
  if (in->ty >= 2) IBIN(ws_emu_num_cvt_f8x2_f32((uint32_t)a, (uint32_t)b, in->ty == 3, in->relu));
  if (in->ty) IBIN(ws_emu_num_cvt_bf16x2_f32((uint32_t)a, (uint32_t)b, rn, in->relu, (int)in->e));
  IBIN(ws_emu_num_cvt_f16x2_f32((uint32_t)a, (uint32_t)b, rn, in->relu, (int)in->e));
}

/* FP8 pairs: to f16x2 (exact), or from f16x2 (.rn.satfinite) */
LIB_EXEC(CVT_F8) {
  if (in->ty & 2) IUN(ws_emu_num_cvt_f8x2_f16x2((uint32_t)a, in->ty & 1, in->relu));
  IUN(ws_emu_num_cvt_f16x2_f8x2((uint32_t)a, in->ty & 1, in->relu));
}

/* The MS_* of a cvta or isspacep state space. */
static int window_space(dec *D, const ws_ptx_inst *in, int sp, int *ms) {
  switch (sp) {
  case WS_PTX_SP_GLOBAL: *ms = MS_GLOBAL; return WS_OK;
  case WS_PTX_SP_SHARED: *ms = MS_SHARED; return WS_OK;
  case WS_PTX_SP_LOCAL: *ms = MS_LOCAL; return WS_OK;
  case WS_PTX_SP_CONST: *ms = MS_CONST; return WS_OK;
  default: return ws_emu_dec_unsup(D, in, in->op == WS_PTX_OP_CVTA ? "cvta state space" : "isspacep state space");
  }
}

/* cvta.space d, a (generic from the space's address); cvta.to.space */
DECODER(cvta) {
  int t = T->t, ms = 0;
  TRY(window_space(D, in, in->space ? in->space : in->space2, &ms));
  di->space = (uint8_t)ms;
  DST(0);
  SRC(1, a);
  di->op = HAS(TO) ? D_CVTA_TO : D_CVTA_FROM;
  return WS_OK;
}

/* The generic window's base of an MS_* space (0 for global). */
static inline uint64_t window_base(int ms) {
  static const uint64_t win[] = {[MS_GLOBAL] = 0, [MS_SHARED] = SHARED_WIN, [MS_LOCAL] = LOCAL_WIN,
                                 [MS_CONST] = CONST_WIN};
  return ms <= MS_CONST ? win[ms] : 0;
}
EXEC(CVTA_TO) {
  uint64_t wv = 0 - window_base(in->space);
  if (in->bits == 32) IUN((a + wv) & 0xffffffffu);
  IUN(a + wv);
}
EXEC(CVTA_FROM) {
  uint64_t wv = window_base(in->space);
  if (in->bits == 32) IUN((a + wv) & 0xffffffffu);
  IUN(a + wv);
}

/* isspacep.space p, a */
DECODER(isspacep) {
  int t = WS_PTX_T_U64, ms = 0;
  (void)T;
  TRY(window_space(D, in, in->space, &ms));
  di->space = (uint8_t)ms;
  di->op = D_ISSPACEP;
  PRED(0, d);
  SRC(1, a);
  return WS_OK;
}
EXEC(ISSPACEP) {
  const uint64_t *A = lanes(X, in->a);
  uint32_t r = 0;
  LANES(m, r |= (uint32_t)(generic_space(A[l]) == in->space) << l);
  pset(X, in->d, m, r);
  return FL_NEXT;
}
