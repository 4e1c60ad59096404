/*
 * ops/cmp.h — comparison, selection, testp and predicate logic (and, or,
 * xor, not of predicates are decoded in ops/bits.h).  Decoders and
 * executors of the CMP family (dops.def); compiled in exec.c.
 */

/* setp p[|q], a, b[, c]; set d, a, b[, c] (.bop with predicate c) */
DECODER(setp_set) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int ok;
  int is_set = in->op == WS_PTX_OP_SET;
  int ct = is_set ? in->type[1] : t;
  int i = 1;
  di->cmp = (uint8_t)ws_emu_dec_cmp(in->cmp, &ok);
  if (!ok) REFUSE();
  di->bop = in->bop == WS_PTX_MOD_AND ? 1 : in->bop == WS_PTX_MOD_OR ? 2 : in->bop == WS_PTX_MOD_XOR ? 3 : 0;
  di->op = is_set ? D_SET : D_SETP;
  if (is_set) {
    DST(0);
    di->size = (uint8_t)tbits(t);
  } else {
    PRED(0, d);
    if (in->nops > 1 && (o[1].flags & WS_PTX_OF_PIPE)) {
      PRED(1, d2);
      i = 2;
    }
  }
  int cbits = tbits(ct), ck = tkind(ct), hk = ws_emu_dec_hkind(ct);
  di->bits = (uint8_t)(cbits < 8 ? 8 : cbits);
  di->sgn = ck == WS_PTX_TK_S;
  /* e = comparison kind: 0 int, 1 f32, 2 f64, 3.. half kinds (5, 6: x2,
   * whose p and q get the two elements' results) */
  di->e = ct == WS_PTX_T_F32 ? 1 : ct == WS_PTX_T_F64 ? 2 : hk >= 0 ? 3 + (uint32_t)hk : 0;
  if (di->e == 0 && !(ck & (WS_PTX_TK_U | WS_PTX_TK_S | WS_PTX_TK_B))) REFUSE();
  if (di->e == 0 && di->cmp > WS_NUM_GE) REFUSE();
  if (is_set) { /* d's value for true (per half when comparing pairs) */
    di->imm = (int64_t)ws_emu_dec_set_true(T->t, di->e >= 5);
    if (di->imm == 0) REFUSE();
  }
  t = ct;
  SRC(i, a);
  SRC(i + 1, b);
  if (di->bop) {
    if (i + 2 >= in->nops) REFUSE();
    PRED(i + 2, c);
    if (o[i + 2].flags & WS_PTX_OF_NOT) di->flags |= 4;
  }
  return WS_OK;
}

static inline int fcmp64(double a, double b, int c) {
  int un = (a != a) || (b != b);
  switch (c) {
  case WS_NUM_EQ: return a == b;
  case WS_NUM_NE: return !un && a != b;
  case WS_NUM_LT: return a < b;
  case WS_NUM_LE: return a <= b;
  case WS_NUM_GT: return a > b;
  case WS_NUM_GE: return a >= b;
  case WS_NUM_EQU: return un || a == b;
  case WS_NUM_NEU: return a != b;
  case WS_NUM_LTU: return un || a < b;
  case WS_NUM_LEU: return un || a <= b;
  case WS_NUM_GTU: return un || a > b;
  case WS_NUM_GEU: return un || a >= b;
  case WS_NUM_NUM: return !un;
  default: return un;
  }
}

/* float -> double is exact and keeps NaNs, so one comparison serves both. */
static inline int fcmp32(float a, float b, int c) { return fcmp64(a, b, c); }

/* The lanes' outcomes t[l] (0 or 1) as a mask: one pass the compiler
 * vectorises (a whole warp's compare is two vector passes, not 32 branches). */
EXECUTOR uint32_t pack_lanes(const uint32_t *t) {
  uint32_t r = 0;
  for (uint32_t l = 0; l < 32; l++) r |= t[l] << l;
  return r;
}

/* r = the mask of lanes m where EXPR (of lane l) holds: for a whole warp
 * each lane's outcome into t, then pack_lanes. */
#define CMP_LANES(EXPR)                                       \
  do {                                                        \
    if (m == 0xffffffffu) {                                   \
      uint32_t t_[32];                                        \
      for (uint32_t l = 0; l < 32; l++) t_[l] = (EXPR);       \
      r = pack_lanes(t_);                                     \
    } else {                                                  \
      LANES(m, r |= (uint32_t)(EXPR) << l);                   \
    }                                                         \
  } while (0)

/* Compare for lanes m; bit l of the result (and of *hi for x2 forms: the
 * upper element's result) is the outcome of lane l.  Inlined into SETP and
 * SET, so that the warp loop's x86-64-v3 clone (exec.c) vectorises it. */
EXECUTOR uint32_t compare(const dinst *in, const uint64_t *A, const uint64_t *Bv, uint32_t m, uint32_t *hi) {
  uint32_t r = 0, h = 0;
  int sh = 64 - in->bits;
  switch (in->e) {
  case 0:
    if (in->sgn) {
#define IC(OP) CMP_LANES(((int64_t)(A[l] << sh) >> sh) OP ((int64_t)(Bv[l] << sh) >> sh))
      switch (in->cmp) {
      case WS_NUM_EQ: IC(==); break;
      case WS_NUM_NE: IC(!=); break;
      case WS_NUM_LT: IC(<); break;
      case WS_NUM_LE: IC(<=); break;
      case WS_NUM_GT: IC(>); break;
      default: IC(>=); break;
      }
#undef IC
    } else {
      uint64_t wm = in->bits >= 64 ? ~0ull : (1ull << in->bits) - 1;
#define UC(OP) CMP_LANES((A[l] & wm) OP (Bv[l] & wm))
      switch (in->cmp) {
      case WS_NUM_EQ: UC(==); break;
      case WS_NUM_NE: UC(!=); break;
      case WS_NUM_LT: UC(<); break;
      case WS_NUM_LE: UC(<=); break;
      case WS_NUM_GT: UC(>); break;
      default: UC(>=); break;
      }
#undef UC
    }
    break;
  case 1:
    if (in->ftz) {
      LANES(m, r |= (uint32_t)ws_emu_num_f32_cmp((uint32_t)A[l], (uint32_t)Bv[l], (ws_emu_num_cmp)in->cmp, 1) << l);
      break;
    }
#define FC(OP) CMP_LANES(f32(A[l]) OP f32(Bv[l]))
    switch (in->cmp) {
    case WS_NUM_EQ: FC(==); break;
    case WS_NUM_LT: FC(<); break;
    case WS_NUM_LE: FC(<=); break;
    case WS_NUM_GT: FC(>); break;
    case WS_NUM_GE: FC(>=); break;
    default: LANES(m, r |= (uint32_t)fcmp32(f32(A[l]), f32(Bv[l]), in->cmp) << l); break;
    }
#undef FC
    break;
  case 2:
    LANES(m, r |= (uint32_t)fcmp64(f64(A[l]), f64(Bv[l]), in->cmp) << l);
    break;
  case 3:
    LANES(m, r |= (uint32_t)ws_emu_num_f16_cmp((uint16_t)A[l], (uint16_t)Bv[l], (ws_emu_num_cmp)in->cmp, in->ftz) << l);
    break;
  case 4:
    LANES(m, r |= (uint32_t)ws_emu_num_bf16_cmp((uint16_t)A[l], (uint16_t)Bv[l], (ws_emu_num_cmp)in->cmp) << l);
    break;
  default: { /* x2: two results per lane */
    int bf = in->e == 6;
    LANES(m, {
      unsigned x = bf ? ws_emu_num_bf16x2_cmp((uint32_t)A[l], (uint32_t)Bv[l], (ws_emu_num_cmp)in->cmp)
                      : ws_emu_num_f16x2_cmp((uint32_t)A[l], (uint32_t)Bv[l], (ws_emu_num_cmp)in->cmp, in->ftz);
      r |= (x & 1u) << l;
      h |= ((x >> 1) & 1u) << l;
    });
    break;
  }
  }
  if (hi) *hi = h;
  return r;
}

/* x combined with c by the boolean operation bop (0: none). */
static inline uint32_t combine(int bop, uint32_t x, uint32_t c) {
  switch (bop) {
  case 1: return x & c;
  case 2: return x | c;
  case 3: return x ^ c;
  default: return x;
  }
}

/* p (and q: the complement, or an x2 form's upper element) */
EXEC(SETP) {
  uint32_t hi = 0;
  uint32_t r = compare(in, lanes(X, in->a), lanes(X, in->b), m, &hi);
  uint32_t c = in->bop ? pmask_not(X, in->c, in->flags & 4) : 0;
  if (in->d != NO_SLOT) pset(X, in->d, m, combine(in->bop, r, c));
  if (in->d2 != NO_SLOT) pset(X, in->d2, m, combine(in->bop, in->e >= 5 ? hi : ~r, c));
  return FL_NEXT;
}

/* d = 1.0 in d's format or all ones (d's width) where true, else 0
 * (in->imm, ws_emu_dec_set_true); comparing f16x2/bf16x2 pairs, each
 * 16-bit half of d gets its own element's outcome */
EXEC(SET) {
  uint32_t hi = 0;
  uint32_t r = compare(in, lanes(X, in->a), lanes(X, in->b), m, &hi);
  uint32_t c = in->bop ? pmask_not(X, in->c, in->flags & 4) : 0;
  r = combine(in->bop, r, c);
  uint64_t *Dd = lanes(X, in->d);
  uint64_t tv = (uint64_t)in->imm;
  if (in->e >= 5) {
    hi = combine(in->bop, hi, c);
    LANES(m, Dd[l] = (((r >> l) & 1) ? tv : 0) | (((hi >> l) & 1) ? tv << 16 : 0));
  } else {
    LANES(m, Dd[l] = ((r >> l) & 1) ? tv : 0);
  }
  return FL_NEXT;
}

/* selp d, a, b, c: a where predicate c, else b */
DECODER(selp) {
  int t = T->t;
  di->op = D_SELP;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  PRED(3, c);
  if (in->ops[3].flags & WS_PTX_OF_NOT) di->flags |= 4;
  return WS_OK;
}
EXEC(SELP) {
  uint32_t c = pmask_not(X, in->c, in->flags & 4);
  IBIN(((c >> l) & 1) ? a : b);
}

/* slct d, a, b, c: a where c >= 0 (c of the second type, s32 or f32) */
DECODER(slct) {
  int t = T->t;
  di->op = D_SLCT;
  di->ty = in->type[1] == WS_PTX_T_F32;
  di->ftz = (uint8_t)HAS(FTZ);
  DST(0);
  SRC(1, a);
  SRC(2, b);
  t = in->type[1];
  SRC(3, c);
  return WS_OK;
}
/* slct.f32's test: c >= 0 (with .ftz a subnormal c counts as a zero) */
static inline int slct_f32(uint64_t c, int ftz) {
  uint32_t cv = (uint32_t)c;
  if (ftz && (cv & 0x7f800000u) == 0) cv &= 0x80000000u;
  return f32(cv) >= 0.0f;
}
EXEC(SLCT) {
  if (in->ty) ITER(slct_f32(c, in->ftz) ? a : b);
  ITER((int32_t)(uint32_t)c >= 0 ? a : b);
}

/* and, or, xor, not of predicates (decoded by logic, ops/bits.h); flags
 * 1 and 2 negate a and b */
EXEC(PAND) {
  pset(X, in->d, m, pmask_not(X, in->a, in->flags & 1) & pmask_not(X, in->b, in->flags & 2));
  return FL_NEXT;
}
EXEC(POR) {
  pset(X, in->d, m, pmask_not(X, in->a, in->flags & 1) | pmask_not(X, in->b, in->flags & 2));
  return FL_NEXT;
}
EXEC(PXOR) {
  pset(X, in->d, m, pmask_not(X, in->a, in->flags & 1) ^ pmask_not(X, in->b, in->flags & 2));
  return FL_NEXT;
}
EXEC(PNOT) {
  pset(X, in->d, m, ~pmask(X, in->a));
  return FL_NEXT;
}

/* testp.op p, a (f32, f64) */
DECODER(testp) {
  int t = T->t;
  static const int modes[] = {WS_PTX_MOD_FINITE, WS_PTX_MOD_INFINITE, WS_PTX_MOD_NUMBER,
                              WS_PTX_MOD_NOTANUMBER, WS_PTX_MOD_NORMAL, WS_PTX_MOD_SUBNORMAL};
  static const int nm[] = {WS_NUM_FINITE, WS_NUM_INFINITE, WS_NUM_NUMBER, WS_NUM_NOTANUMBER,
                           WS_NUM_NORMAL, WS_NUM_SUBNORMAL};
  for (int i = 0; i < 6; i++)
    if (in->mode == modes[i]) di->testp = (uint8_t)nm[i];
  di->op = T->isf32 ? D_F32_TESTP : D_F64_TESTP;
  PRED(0, d);
  SRC(1, a);
  return WS_OK;
}
EXEC(F32_TESTP) {
  const uint64_t *A = lanes(X, in->a);
  uint32_t r = 0;
  LANES(m, r |= (uint32_t)ws_emu_num_f32_testp((uint32_t)A[l], (ws_emu_num_testp)in->testp) << l);
  pset(X, in->d, m, r);
  return FL_NEXT;
}
EXEC(F64_TESTP) {
  const uint64_t *A = lanes(X, in->a);
  uint32_t r = 0;
  LANES(m, r |= (uint32_t)ws_emu_num_f64_testp(A[l], (ws_emu_num_testp)in->testp) << l);
  pset(X, in->d, m, r);
  return FL_NEXT;
}
