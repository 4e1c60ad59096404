/*
 * ops/warp.h — warp-level instructions: shuffles, votes, match, redux,
 * activemask and elect.  They operate on the lanes that execute them (m:
 * active and guard true) within each lane's member mask: shfl, vote and
 * match fault when an executing lane is not in its own mask, shfl also
 * when it reads a lane outside it (the PTX ISA leaves both undefined;
 * docs/emulator.md, "Member masks"); redux.sync groups lanes by mask.
 * A shfl, vote or match whose mask is 0xffffffff or 0 (the immediate, or a
 * register nvcc set to it: ws_emu_full_mask; 0 with a warning) or absent
 * has DF_FULLMASK
 * from its decoder: its executor reads no masks and checks none (no lane
 * can fault; each lane's group is the executing lanes).
 * Decoders and executors of the WARP family (dops.def); compiled in exec.c.
 */

/* The fault of lane l, whose member mask k does not hold it (src -1) or
 * the lane src it reads (shfl): FAULT_MEMBERMASK with the mask as its
 * address and src as its byte count (launch.c words it). */
static int mask_fault(const xctx *X, const dinst *in, uint32_t l, uint32_t k, int src) {
  set_fault(X->B, X->w, l, X->F, PC(in), FAULT_MEMBERMASK, k, 0, src);
  return FL_FAULT;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (pre-sm_70 shfl: no mask) */
DECODER(shfl) {
  int t = T->t;
  static const int sm[][2] = {{WS_PTX_MOD_UP, 0}, {WS_PTX_MOD_DOWN, 1}, {WS_PTX_MOD_BFLY, 2}, {WS_PTX_MOD_IDX, 3}};
  int i = 1, sync = HAS(SYNC);
  di->mode = 255;
  for (int j = 0; j < 4; j++)
    if (in->mode == sm[j][0]) di->mode = (uint8_t)sm[j][1];
  if (di->mode == 255) REFUSE();
  di->op = D_SHFL;
  DST(0);
  if (in->ops[1].flags & WS_PTX_OF_PIPE) {
    PRED(1, d2);
    i = 2;
  }
  if (in->nops - i != (sync ? 4 : 3)) REFUSE();
  SRC(i, a);
  t = WS_PTX_T_U32;
  SRC(i + 1, b);
  SRC(i + 2, c);
  if (sync) SRC(i + 3, e);
  else CONST(0xffffffffu, e);
  if (!sync) di->flags |= DF_FULLMASK;
  else ws_emu_dec_member_mask(D, in, di, &in->ops[i + 3]);
  return WS_OK;
}

/* The lane that lane l of a shfl reads (the ISA's pseudocode: segment mask
 * c[12:8], clamp c[4:0]; mode as dinst.mode), and in *ok whether it was in
 * range; out of range, the lane itself. */
static inline uint32_t shfl_src(int mode, uint32_t l, uint32_t bval, uint32_t c, int *ok) {
  uint32_t seg = (c >> 8) & 31, cval = c & 31;
  int32_t maxl = (int32_t)((l & seg) | (cval & ~seg)), minl = (int32_t)(l & seg), j;
  bval &= 31;
  switch (mode) {
  case 0: j = (int32_t)l - (int32_t)bval; *ok = j >= maxl; break;
  case 1: j = (int32_t)l + (int32_t)bval; *ok = j <= maxl; break;
  case 2: j = (int32_t)(l ^ bval); *ok = j <= maxl; break;
  default: j = minl | (int32_t)(bval & ~seg); *ok = j <= maxl; break;
  }
  return *ok ? (uint32_t)j & 31 : l;
}

/* d from the source lane (shfl_src); p (d2): whether the source lane was in
 * range.  An inactive source lane in the mask supplies whatever its
 * register holds (a partial warp's missing lanes under a full mask); a
 * lane outside its mask, or reading a lane outside it, faults (lanes in
 * order, its own membership first). */
EXEC(SHFL) {
  const uint64_t *A = lanes(X, in->a), *Bv = lanes(X, in->b), *C = lanes(X, in->c);
  uint64_t *Dd = lanes(X, in->d);
  uint64_t tmp[32];
  uint32_t pv = 0;
  int ok;
  memcpy(tmp, A, sizeof tmp);
  if (in->flags & DF_FULLMASK) {
    LANES(m, {
      uint32_t j = shfl_src(in->mode, l, (uint32_t)Bv[l], (uint32_t)C[l], &ok);
      Dd[l] = tmp[j] & 0xffffffffu;
      pv |= (uint32_t)ok << l;
    });
  } else {
    const uint64_t *Mk = lanes(X, in->e);
    LANES(m, {
      uint32_t j = shfl_src(in->mode, l, (uint32_t)Bv[l], (uint32_t)C[l], &ok), k = (uint32_t)Mk[l];
      if (!((k >> l) & 1)) return mask_fault(X, in, l, k, -1);
      if (!((k >> j) & 1)) return mask_fault(X, in, l, k, (int)j);
      Dd[l] = tmp[j] & 0xffffffffu;
      pv |= (uint32_t)ok << l;
    });
  }
  if (in->d2 != NO_SLOT) pset(X, in->d2, m, pv);
  return FL_NEXT;
}

/* vote.sync.mode p, {!}a, membermask; vote.ballot.b32 d, ... */
DECODER(vote) {
  int t = WS_PTX_T_U32;
  (void)T;
  di->op = D_VOTE;
  di->mode = in->mode == WS_PTX_MOD_ALL ? 0 : in->mode == WS_PTX_MOD_ANY ? 1 : in->mode == WS_PTX_MOD_BALLOT ? 3 : 2;
  if (in->mode != WS_PTX_MOD_ALL && in->mode != WS_PTX_MOD_ANY && in->mode != WS_PTX_MOD_BALLOT && !HAS(UNI))
    REFUSE();
  if (di->mode == 3) DST(0);
  else PRED(0, d);
  PRED(1, a);
  if (in->ops[1].flags & WS_PTX_OF_NOT) di->flags |= 1;
  if (in->nops > 2) SRC(2, b);
  else CONST(0xffffffffu, b);
  if (in->nops <= 2) di->flags |= DF_FULLMASK;
  else ws_emu_dec_member_mask(D, in, di, &in->ops[2]);
  return WS_OK;
}
/* Each lane votes over the executing lanes of its member mask (g); under a
 * full mask g is m for every lane, one vote for the warp. */
EXEC(VOTE) {
  uint32_t v = pmask_not(X, in->a, in->flags & 1) & m, r = 0;
  if (in->flags & DF_FULLMASK) {
    switch (in->mode) {
    case 0: pset(X, in->d, m, v == m ? m : 0); break;             /* all */
    case 1: pset(X, in->d, m, v ? m : 0); break;                  /* any */
    case 2: pset(X, in->d, m, (v == 0 || v == m) ? m : 0); break; /* uni */
    default: ISET(v);                                             /* ballot */
    }
    return FL_NEXT;
  }
  const uint64_t *Mk = lanes(X, in->b);
  uint64_t *Dd = in->mode == 3 ? lanes(X, in->d) : NULL;
  LANES(m, {
    uint32_t k = (uint32_t)Mk[l], g = m & k, vg = v & k, t;
    if (!((k >> l) & 1)) return mask_fault(X, in, l, k, -1);
    switch (in->mode) {
    case 0: t = vg == g; break;              /* all */
    case 1: t = vg != 0; break;              /* any */
    case 2: t = vg == 0 || vg == g; break;   /* uni */
    default: Dd[l] = vg; t = 0; break;       /* ballot */
    }
    r |= t << l;
  });
  if (in->mode != 3) pset(X, in->d, m, r);
  return FL_NEXT;
}

/* match.any.sync.b32/b64 d, a, membermask; match.all d[|p], a, membermask */
DECODER(match) {
  int t = T->t, i = 1;
  di->op = D_MATCH;
  di->mode = in->mode == WS_PTX_MOD_ALL;
  DST(0);
  if (in->ops[1].flags & WS_PTX_OF_PIPE) {
    PRED(1, d2);
    i = 2;
  }
  if (in->nops - i != 2) REFUSE();
  SRC(i, a);
  t = WS_PTX_T_U32;
  SRC(i + 1, b);
  ws_emu_dec_member_mask(D, in, di, &in->ops[i + 1]);
  return WS_OK;
}
/* Over the executing lanes of each lane's member mask (g; m itself under a
 * full mask): any, the lanes with the lane's value; all, g itself if all
 * hold the same value, else 0 (and p whether they do). */
EXEC(MATCH) {
  const uint64_t *A = lanes(X, in->a);
  uint64_t *Dd = lanes(X, in->d);
  uint64_t wm = in->bits >= 64 ? ~0ull : (1ull << in->bits) - 1;
  uint32_t res[32], pv = 0;
  if (in->flags & DF_FULLMASK) {
    if (in->mode) {
      int same = 1;
      uint64_t v0 = A[__builtin_ctz(m)] & wm;
      LANES(m, same &= (A[l] & wm) == v0);
      if (in->d2 != NO_SLOT) pset(X, in->d2, m, same ? m : 0);
      ISET(same ? m : 0);
    }
    LANES(m, {
      uint32_t r = 0;
      for (uint32_t q = 0; q < 32; q++)
        if (((m >> q) & 1) && (A[q] & wm) == (A[l] & wm)) r |= 1u << q;
      res[l] = r;
    });
  } else {
    const uint64_t *Mk = lanes(X, in->b);
    LANES(m, {
      uint32_t k = (uint32_t)Mk[l], g = m & k, r = 0;
      if (!((k >> l) & 1)) return mask_fault(X, in, l, k, -1);
      for (uint32_t q = 0; q < 32; q++)
        if (((g >> q) & 1) && (A[q] & wm) == (A[l] & wm)) r |= 1u << q;
      if (in->mode) {
        pv |= (uint32_t)(r == g) << l;
        r = r == g ? g : 0;
      }
      res[l] = r;
    });
    if (in->mode && in->d2 != NO_SLOT) pset(X, in->d2, m, pv);
  }
  LANES(m, Dd[l] = res[l]);
  return FL_NEXT;
}

/* redux.sync.op.type d, a, membermask (32-bit integers) */
DECODER(redux) {
  int t = T->t;
  if (!T->isint || T->bits != 32) REFUSE();
  di->op = D_REDUX;
  di->aop = in->bop;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  return WS_OK;
}

/* The reduction of the 32-bit values of A over the lanes of g. */
static uint32_t redux_over(const dinst *in, const uint64_t *A, uint32_t g) {
  uint32_t first = (uint32_t)__builtin_ctz(g);
  uint32_t acc = (uint32_t)A[first];
  LANES(g & (g - 1), {
    uint32_t v = (uint32_t)A[l];
    switch (in->aop) {
    case WS_PTX_MOD_ADD: acc += v; break;
    case WS_PTX_MOD_AND: acc &= v; break;
    case WS_PTX_MOD_OR: acc |= v; break;
    case WS_PTX_MOD_XOR: acc ^= v; break;
    case WS_PTX_MOD_MIN: acc = in->sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
    default: acc = in->sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
    }
  });
  return acc;
}

/* Each executing lane gets the reduction over the executing lanes of its
 * member mask (lanes that name the same mask form one group, as in
 * cooperative groups' labeled partitions); a lane outside its own mask
 * neither contributes (its mask's group does not hold it) nor receives (the
 * ISA leaves it undefined; its d is left unchanged). */
EXEC(REDUX) {
  const uint64_t *A = lanes(X, in->a), *Mk = lanes(X, in->b);
  uint64_t *Dd = lanes(X, in->d);
  uint32_t todo = m;
  while (todo) {
    uint32_t mask = (uint32_t)Mk[__builtin_ctz(todo)], group = 0;
    LANES(todo, group |= (uint32_t)((uint32_t)Mk[l] == mask) << l);
    todo &= ~group;
    uint32_t g = group & mask; /* the lanes that name this mask and are in it */
    if (!g) continue;
    uint32_t acc = redux_over(in, A, mask & m);
    LANES(g, Dd[l] = acc);
  }
  return FL_NEXT;
}

EXEC(ACTIVEMASK) { ISET(m); }

/* elect.sync d|p, membermask (d may be `_`) */
DECODER(elect) {
  const ws_ptx_operand *o = in->ops;
  (void)T;
  int i = 0;
  di->op = D_ELECT;
  if (o[0].kind == WS_PTX_O_REG && !is_pred_reg(D, o[0].reg)) {
    DST(0);
    i = 1;
  } else if (o[0].kind == WS_PTX_O_SINK) {
    di->d = D->scratch;
    i = 1;
  }
  if (i < in->nops) PRED(i, d2);
  return WS_OK;
}
/* the lowest executing lane is the leader */
EXEC(ELECT) {
  uint32_t leader = (uint32_t)__builtin_ctz(m);
  if (in->d2 != NO_SLOT) pset(X, in->d2, m, 1u << leader);
  if (in->d != NO_SLOT) ISET(leader);
  return FL_NEXT;
}
