/*
 * ops/bits.h — logic, shifts and bit fields.  and/or/xor/not of
 * predicates are decoded here and run in ops/cmp.h (PAND, ...).  Decoders
 * and executors of the BITS family (dops.def); compiled in exec.c.
 */

/* and, or, xor, not: of bits, or of predicates (with !p operands) */
DECODER(logic) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int op = in->op, un = op == WS_PTX_OP_NOT;
  if (t == WS_PTX_T_PRED) {
    di->op = un ? D_PNOT : op == WS_PTX_OP_AND ? D_PAND : op == WS_PTX_OP_OR ? D_POR : D_PXOR;
    PRED(0, d);
    PRED(1, a);
    if (un) return WS_OK;
    PRED(2, b);
    di->flags = (uint8_t)(((o[1].flags & WS_PTX_OF_NOT) ? 1 : 0) | ((o[2].flags & WS_PTX_OF_NOT) ? 2 : 0));
    return WS_OK;
  }
  if (un) UN(NOT);
  if (op == WS_PTX_OP_AND) BIN(AND);
  if (op == WS_PTX_OP_OR) BIN(OR);
  BIN(XOR);
}
EXEC(AND) { IBIN(a & b); }
EXEC(OR) { IBIN(a | b); }
EXEC(XOR) { IBIN(a ^ b); }
EXEC(NOT) { IUN(~a & wm); }

/* cnot d, a: 1 if a is 0 (decoder generated: UN) */
EXEC(CNOT) { IUN((uint64_t)((a & wm) == 0)); }

/* shl, shr: the shift amount is a u32 */
DECODER(shift) {
  int t = T->t;
  di->op = in->op == WS_PTX_OP_SHL ? D_SHL : D_SHR;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  return WS_OK;
}
EXEC(SHL) { IBIN((uint32_t)b >= in->bits ? 0 : (a << (uint32_t)b) & wm); }
EXEC(SHR) {
  if (in->sgn) {
    int sh = 64 - in->bits;
    IBIN((uint64_t)(((int64_t)(a << sh) >> sh) >> ((uint32_t)b >= in->bits ? (uint32_t)in->bits - 1u : (uint32_t)b)) & wm);
  }
  IBIN((uint32_t)b >= in->bits ? 0 : (a & wm) >> (uint32_t)b);
}

/* popc, clz, brev d, a (decoders generated: UN) */
EXEC(POPC) { IUN((uint64_t)ws_popc64(a & wm)); }
EXEC(CLZ) { IUN(ws_emu_num_clz(a, in->bits)); }
EXEC(BREV) { IUN(ws_emu_num_brev(a, in->bits)); }

/* bfind (.shiftamt) */
DECODER(bfind) {
  int t = T->t;
  di->shiftamt = (uint8_t)HAS(SHIFTAMT);
  UN(BFIND);
}
EXEC(BFIND) { IUN(ws_emu_num_bfind(a, in->bits, in->sgn, in->shiftamt)); }

/* bfe d, a, pos, len: pos and len are u32 */
DECODER(bfe) {
  int t = T->t;
  di->op = D_BFE;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  SRC(3, c);
  return WS_OK;
}
EXEC(BFE) { ITER(ws_emu_num_bfe(a, (uint32_t)b, (uint32_t)c, in->bits, in->sgn)); }

/* bfi d, f, b, pos, len: pos and len are u32 */
DECODER(bfi) {
  int t = T->t;
  di->op = D_BFI;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  t = WS_PTX_T_U32;
  SRC(3, c);
  SRC(4, e);
  return WS_OK;
}
EXEC(BFI) {
  const uint64_t *A = lanes(X, in->a), *Bv = lanes(X, in->b), *C = lanes(X, in->c), *E = lanes(X, in->e);
  uint64_t *Dd = lanes(X, in->d);
  LANES(m, Dd[l] = ws_emu_num_bfi(A[l], Bv[l], (uint32_t)C[l], (uint32_t)E[l], in->bits));
  return FL_NEXT;
}

/* prmt (.f4e, .b4e, .rc8, .ecl, .ecr, .rc16 or the default mode) */
DECODER(prmt) {
  int t = T->t;
  static const int pm[][2] = {{WS_PTX_MOD_F4E, WS_NUM_PRMT_F4E}, {WS_PTX_MOD_B4E, WS_NUM_PRMT_B4E},
                              {WS_PTX_MOD_RC8, WS_NUM_PRMT_RC8}, {WS_PTX_MOD_ECL, WS_NUM_PRMT_ECL},
                              {WS_PTX_MOD_ECR, WS_NUM_PRMT_ECR}, {WS_PTX_MOD_RC16, WS_NUM_PRMT_RC16}};
  di->prmt = WS_NUM_PRMT_DEFAULT;
  for (int i = 0; i < 6; i++)
    if (in->mode == pm[i][0]) di->prmt = (uint8_t)pm[i][1];
  TER(PRMT);
}
EXEC(PRMT) { ITER(ws_emu_num_prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, (ws_emu_num_prmt_mode)in->prmt)); }

/* shf.l/.r (.wrap: e) */
DECODER(shf) {
  int t = T->t;
  di->left = in->mode == WS_PTX_MOD_L;
  di->e = HAS(WRAP);
  TER(SHF);
}
EXEC(SHF) { ITER(ws_emu_num_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, in->left, (int)in->e)); }

/* lop3 d, a, b, c, immLut */
DECODER(lop3) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  di->op = D_LOP3;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  SRC(3, c);
  if (o[4].kind != WS_PTX_O_IMM_INT) REFUSE();
  di->imm = o[4].imm & 0xff;
  return WS_OK;
}
EXEC(LOP3) { ITER(ws_emu_num_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint8_t)in->imm)); }

/* fns d, mask, base, offset (decoder generated: TER) */
EXEC(FNS) { ITER(ws_emu_num_fns((uint32_t)a, (uint32_t)b, (int32_t)(uint32_t)c)); }

/* bmsk, szext (.wrap or .clamp) */
DECODER(bmsk_szext) {
  int t = T->t;
  di->wrap = HAS(WRAP);
  if (in->op == WS_PTX_OP_BMSK) BIN(BMSK);
  BIN(SZEXT);
}
/* the mask of len bits from pos (.wrap: both mod 32, else clamped at 32) */
static inline uint32_t bmsk32(uint32_t pos, uint32_t len, int wrap) {
  if (wrap) {
    pos &= 31;
    len &= 31;
  } else {
    pos = pos > 32 ? 32 : pos;
    len = len > 32 ? 32 : len;
  }
  return (uint32_t)(((len >= 32 ? 0xffffffffull : ((1ull << len) - 1)) << pos) & 0xffffffffull);
}
EXEC(BMSK) { IBIN(bmsk32((uint32_t)a, (uint32_t)b, in->wrap)); }

/* the low n bits of v, sign-extended when sgn (.wrap: n mod 32, else
 * clamped at 32) */
static inline uint32_t szext32(uint32_t v, uint32_t n, int wrap, int sgn) {
  if (wrap) n &= 31;
  else if (n > 32) n = 32;
  uint32_t r = n == 0 ? 0 : n >= 32 ? v : (v & ((1u << n) - 1));
  if (sgn && n > 0 && n < 32 && ((v >> (n - 1)) & 1)) r |= ~((1u << n) - 1);
  return r;
}
EXEC(SZEXT) { IBIN(szext32((uint32_t)a, (uint32_t)b, in->wrap, in->sgn)); }
