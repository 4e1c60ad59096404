/*
 * ops/int.h — integer arithmetic: every result is masked to the width of
 * its type; sgn and bits select the signed forms.  The decoders of add,
 * sub, mul, mad, fma, div, min, max, abs and neg choose the form of every
 * type (the f32, f64 and half forms run in ops/f32.h, f64.h, half.h).
 * Decoders and executors of the INT family (dops.def); compiled in exec.c.
 */

/* add, sub, mul */
DECODER(add_sub_mul) {
  int t = T->t;
  int isadd = in->op == WS_PTX_OP_ADD, issub = in->op == WS_PTX_OP_SUB;
  if (T->isf32) {
    if (HAS(CC)) REFUSE();
    if (T->plain) {
      if (isadd) BIN(F32_ADD);
      if (issub) BIN(F32_SUB);
      BIN(F32_MUL);
    }
    if (isadd) BIN(F32_ADD_X);
    if (issub) BIN(F32_SUB_X);
    BIN(F32_MUL_X);
  }
  if (T->isf64) {
    if (T->plain) {
      if (isadd) BIN(F64_ADD);
      if (issub) BIN(F64_SUB);
      BIN(F64_MUL);
    }
    if (isadd) BIN(F64_ADD_X);
    if (issub) BIN(F64_SUB_X);
    BIN(F64_MUL_X);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    if (isadd) BIN(H_ADD);
    if (issub) BIN(H_SUB);
    BIN(H_MUL);
  }
  if (!T->isint) REFUSE();
  if (HAS(CC)) {
    if (in->op == WS_PTX_OP_MUL || (T->bits != 32 && T->bits != 64)) REFUSE();
    di->carry = 2; /* set carry-out, no carry-in */
    if (isadd) BIN(ADDC);
    BIN(SUBC);
  }
  if ((isadd || issub) && di->sat) {
    if (T->bits != 32 || !di->sgn) REFUSE();
    if (isadd) BIN(ADD_SAT);
    BIN(SUB_SAT);
  }
  if (isadd) BIN(ADD);
  if (issub) BIN(SUB);
  if (in->mode == WS_PTX_MOD_HI) BIN(MUL_HI);
  if (in->mode == WS_PTX_MOD_WIDE) {
    if (T->bits > 32) REFUSE();
    BIN(MUL_WIDE);
  }
  BIN(MUL_LO);
}

EXEC(ADD) { IBIN((a + b) & wm); }
EXEC(SUB) { IBIN((a - b) & wm); }
EXEC(MUL_LO) { IBIN((a * b) & wm); }
EXEC(MUL_HI) {
  if (in->bits == 32) {
    if (in->sgn) IBIN((uint64_t)(uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32));
    IBIN(((uint64_t)(uint32_t)a * (uint32_t)b) >> 32);
  }
  IBIN(ws_emu_num_mul_hi(a, b, in->bits, in->sgn));
}
EXEC(MUL_WIDE) {
  if (in->bits == 32) {
    if (in->sgn) IBIN((uint64_t)((int64_t)(int32_t)a * (int32_t)b));
    IBIN((uint64_t)(uint32_t)a * (uint32_t)b);
  }
  IBIN(ws_emu_num_mul_wide(a, b, in->bits, in->sgn));
}
EXEC(ADD_SAT) { IBIN(ws_emu_num_s32_add_sat((uint32_t)a, (uint32_t)b)); }
EXEC(SUB_SAT) { IBIN(ws_emu_num_s32_sub_sat((uint32_t)a, (uint32_t)b)); }

/* addc, subc: carry in, and carry out with .cc */
DECODER(addc) {
  int t = T->t;
  if (T->bits != 32 && T->bits != 64) REFUSE();
  di->carry = (uint8_t)(1 | (HAS(CC) ? 2 : 0));
  if (in->op == WS_PTX_OP_ADDC) BIN(ADDC);
  BIN(SUBC);
}

/* addc/subc/madc: the carry flag per lane (in->carry bit 0: carry in, bit 1:
 * carry out); madc multiplies first (in->e: the high half). */
EXECUTOR int carry_ops(const xctx *X, const dinst *in, uint32_t m, int op) {
  uint32_t *cc = X->w->cc;
  const uint64_t *A = lanes(X, in->a), *Bv = lanes(X, in->b);
  uint64_t *Dd = lanes(X, in->d);
  if (op == D_MADC) {
    const uint64_t *C = lanes(X, in->c);
    LANES(m, {
      unsigned cout = 0, cin = (in->carry & 1) ? cc[l] : 0;
      uint64_t p = in->e ? ws_emu_num_mul_hi(A[l], Bv[l], in->bits, in->sgn) : ws_emu_num_mul_lo(A[l], Bv[l], in->bits);
      Dd[l] = ws_emu_num_addc(p, C[l], cin, in->bits, &cout);
      if (in->carry & 2) cc[l] = cout;
    });
    return FL_NEXT;
  }
  LANES(m, {
    unsigned cout = 0, cin = (in->carry & 1) ? cc[l] : 0;
    Dd[l] = op == D_SUBC ? ws_emu_num_subc(A[l], Bv[l], cin, in->bits, &cout)
                         : ws_emu_num_addc(A[l], Bv[l], cin, in->bits, &cout);
    if (in->carry & 2) cc[l] = cout;
  });
  return FL_NEXT;
}
EXEC(ADDC) { return carry_ops(X, in, m, D_ADDC); }
EXEC(SUBC) { return carry_ops(X, in, m, D_SUBC); }
EXEC(MADC) { return carry_ops(X, in, m, D_MADC); }

/* mad, fma, madc */
DECODER(mad_fma) {
  int t = T->t;
  if (T->isf32) {
    if (T->plain) TER(F32_FMA);
    if (!di->ftz && !di->sat && (di->rnd == WS_NUM_RZ || di->rnd == WS_NUM_RM || di->rnd == WS_NUM_RP))
      TER(F32_FMA_DIR);
    TER(F32_FMA_X);
  }
  if (T->isf64) {
    if (T->plain) TER(F64_FMA);
    TER(F64_FMA_X);
  }
  if (T->hk >= 0) {
    if (HAS(RELU)) di->relu = 1;
    di->ty = (uint8_t)T->hk;
    TER(H_FMA);
  }
  if (!T->isint || in->op == WS_PTX_OP_FMA) REFUSE();
  if (in->op == WS_PTX_OP_MADC || HAS(CC)) {
    if ((T->bits != 32 && T->bits != 64) || in->mode == WS_PTX_MOD_WIDE) REFUSE();
    di->carry = (uint8_t)((in->op == WS_PTX_OP_MADC ? 1 : 0) | (HAS(CC) ? 2 : 0));
    di->e = in->mode == WS_PTX_MOD_HI;
    TER(MADC);
  }
  if (in->mode == WS_PTX_MOD_HI) TER(MAD_HI);
  if (in->mode == WS_PTX_MOD_WIDE) {
    if (T->bits > 32) REFUSE();
    di->op = D_MAD_WIDE;
    DST(0);
    SRC(1, a);
    SRC(2, b);
    t = di->sgn ? WS_PTX_T_S64 : WS_PTX_T_U64; /* c is as wide as d */
    SRC(3, c);
    return WS_OK;
  }
  TER(MAD_LO);
}

EXEC(MAD_LO) { ITER((a * b + c) & wm); }
EXEC(MAD_HI) { ITER(ws_emu_num_mad_hi(a, b, c, in->bits, in->sgn, in->sat)); }
EXEC(MAD_WIDE) {
  if (in->bits == 32) {
    if (in->sgn) ITER((uint64_t)((int64_t)(int32_t)a * (int32_t)b) + c);
    ITER((uint64_t)(uint32_t)a * (uint32_t)b + c);
  }
  ITER(ws_emu_num_mad_wide(a, b, c, in->bits, in->sgn));
}

/* mul24, mad24 (.hi: e) */
DECODER(mul24) {
  int t = T->t;
  if (T->bits != 32) REFUSE();
  di->e = in->mode == WS_PTX_MOD_HI;
  if (in->op == WS_PTX_OP_MUL24) BIN(MUL24);
  TER(MAD24);
}
EXEC(MUL24) { IBIN(ws_emu_num_mul24((uint32_t)a, (uint32_t)b, (int)in->e, in->sgn)); }
EXEC(MAD24) { ITER(ws_emu_num_mad24((uint32_t)a, (uint32_t)b, (uint32_t)c, (int)in->e, in->sgn, in->sat)); }

/* sad d, a, b, c (decoder generated: TER) */
EXEC(SAD) { ITER(ws_emu_num_sad(a, b, c, in->bits, in->sgn)); }

/* div */
DECODER(div) {
  int t = T->t;
  if (T->isf32) {
    if (HAS(APPROX)) BIN(F32_DIV_APPROX);
    if (HAS(FULL)) BIN(F32_DIV_FULL);
    if (di->rnd == WS_NUM_RN && !di->ftz) BIN(F32_DIV_RN);
    BIN(F32_DIV);
  }
  if (T->isf64) {
    if (di->rnd == WS_NUM_RN) BIN(F64_DIV_RN);
    BIN(F64_DIV);
  }
  if (!T->isint) REFUSE();
  BIN(DIV);
}
EXEC(DIV) { IBIN(ws_emu_num_div(a, b, in->bits, in->sgn)); }

/* rem d, a, b (decoder generated: BIN) */
EXEC(REM) { IBIN(ws_emu_num_rem(a, b, in->bits, in->sgn)); }

/* min, max (.NaN for floating point, .relu for the half kinds) */
DECODER(min_max) {
  int t = T->t;
  int ismin = in->op == WS_PTX_OP_MIN;
  if (in->nops != 3) REFUSE();
  di->nan = (uint8_t)HAS(NANMODE);
  if (T->isf32) {
    if (ismin) BIN(F32_MIN);
    BIN(F32_MAX);
  }
  if (T->isf64) {
    if (ismin) BIN(F64_MIN);
    BIN(F64_MAX);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    di->e = HAS(RELU);
    if (ismin) BIN(H_MIN);
    BIN(H_MAX);
  }
  if (!T->isint || HAS(RELU)) REFUSE();
  if (ismin) BIN(MIN);
  BIN(MAX);
}
EXEC(MIN) {
  if (in->sgn) {
    int sh = 64 - in->bits;
    IBIN(((int64_t)(a << sh) >> sh) < ((int64_t)(b << sh) >> sh) ? a & wm : b & wm);
  }
  IBIN((a & wm) < (b & wm) ? a & wm : b & wm);
}
EXEC(MAX) {
  if (in->sgn) {
    int sh = 64 - in->bits;
    IBIN(((int64_t)(a << sh) >> sh) > ((int64_t)(b << sh) >> sh) ? a & wm : b & wm);
  }
  IBIN((a & wm) > (b & wm) ? a & wm : b & wm);
}

/* abs, neg */
DECODER(abs_neg) {
  int t = T->t;
  int isabs = in->op == WS_PTX_OP_ABS;
  if (T->isf32) {
    if (isabs) {
      if (!di->ftz) UN(F32_ABS_B);
      UN(F32_ABS);
    }
    if (!di->ftz) UN(F32_NEG_B);
    UN(F32_NEG);
  }
  if (T->isf64) {
    if (isabs) UN(F64_ABS);
    UN(F64_NEG);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    if (isabs) UN(H_ABS);
    UN(H_NEG);
  }
  if (!T->isint) REFUSE();
  if (isabs) UN(ABS);
  UN(NEG);
}
EXEC(ABS) { IUN(ws_emu_num_abs(a, in->bits)); }
EXEC(NEG) { IUN((0 - a) & wm); }

/* dp4a, dp2a (.hi: e); the two types give the signs of a and b */
DECODER(dp4a) {
  int t = T->t;
  di->sgn = tkind(in->type[0]) == WS_PTX_TK_S;
  di->sgn_b = tkind(in->type[1]) == WS_PTX_TK_S;
  di->e = in->mode == WS_PTX_MOD_HI;
  if (in->op == WS_PTX_OP_DP4A) TER(DP4A);
  TER(DP2A);
}
EXEC(DP4A) { ITER(ws_emu_num_dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sgn, in->sgn_b)); }
EXEC(DP2A) { ITER(ws_emu_num_dp2a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sgn, in->sgn_b, (int)in->e)); }
