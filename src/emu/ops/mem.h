/*
 * ops/mem.h — loads and stores.  The hot forms have their own opcodes:
 * scalar 4- and 8-byte global and shared accesses (LD_G/ST_G, LD_S/ST_S:
 * one straight loop when the lanes are in bounds and aligned, with the
 * hooks or without) and
 * kernel-parameter loads (one address for the warp); LD and ST do the
 * rest (any space, vectors, sign extension, frame-relative addresses).
 * Every per-lane address is recorded in w->addr when hooks are attached.
 * Decoders and executors of the MEM family (dops.def); compiled in exec.c.
 */

/* ld, ldu, st [.space][.vN].type */
DECODER(ld_st) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int isld = in->op != WS_PTX_OP_ST;
  const ws_ptx_operand *ao = isld ? &o[1] : &o[0], *vo = isld ? &o[0] : &o[1];
  int ms;
  /* a third operand is the L2::cache_hint policy: caches are not modelled */
  if ((in->nops != 2 && !(in->nops == 3 && HAS(L2_CACHE_HINT))) || t == WS_PTX_T_PRED || T->bits > 64) REFUSE();
  TRY(ws_emu_dec_space(D, in, ao, &ms));
  di->space = (uint8_t)ms;
  di->size = (uint8_t)(T->bits / 8);
  TRY(ws_emu_dec_address(D, in, ao, di));
  if (ms == MS_KPARAM && !isld) UNSUP("store to the kernel's parameters");
  TRY(ws_emu_dec_vec(D, in, vo, t, isld, di));
  if (di->vec != (in->vec ? in->vec : 1)) UNSUP("vector width");
  di->op = isld ? (ms == MS_KPARAM && di->vec == 1 ? D_LD_KPARAM : D_LD) : D_ST;
  /* the scalar fast forms: no sign extension into a wider register */
  int sext64 = isld && di->sgn && di->size == 4 && vo->kind == WS_PTX_O_REG && reg_bits(D, vo->reg) > 32;
  if (di->vec == 1 && (di->size == 4 || di->size == 8) && !di->frel && !sext64) {
    if (ms == MS_GLOBAL) di->op = isld ? D_LD_G : D_ST_G;
    if (ms == MS_SHARED) di->op = isld ? D_LD_S : D_ST_S;
  }
  /* a load that may spin on another block's write: a spin point of a
   * cooperative launch (exec.c, spin_point) */
  if (isld && di->op != D_LD_KPARAM && (ms == MS_GLOBAL || ms == MS_GENERIC) &&
      (in->sem == WS_PTX_MOD_ACQUIRE || HAS(VOLATILE) ||
       (in->sem == WS_PTX_MOD_RELAXED && (in->scope == WS_PTX_MOD_GPU || in->scope == WS_PTX_MOD_SYS))))
    di->op = D_LD_SPIN;
  /* loads sign-extend signed types into the destination register's width */
  di->wmask = ~0ull;
  if (isld && vo->kind == WS_PTX_O_REG) di->wmask = wmask_of(reg_bits(D, vo->reg));
  if (isld && vo->kind == WS_PTX_O_VEC && vo->comp && D->f->extra[vo->reg].kind == WS_PTX_O_REG)
    di->wmask = wmask_of(reg_bits(D, D->f->extra[vo->reg].reg));
  return WS_OK;
}

/* ld.param of a kernel parameter: one address for the warp. */
EXEC(LD_KPARAM) {
  warp *w = X->w;
  uint32_t first = (uint32_t)__builtin_ctz(m);
  uint64_t a = (uint64_t)in->imm + lanes(X, in->a)[first];
  uint8_t *p = resolve(X->B, w, MS_KPARAM, a, in->size, first, 0, X->F, PC(in));
  if (!p) return FL_FAULT;
  uint64_t v = rd(p, in->size);
  if (in->sgn && in->size < 8) v = (uint64_t)((int64_t)(v << (64 - 8 * in->size)) >> (64 - 8 * in->size));
  v &= in->wmask;
  uint64_t *Dd = lanes(X, X->F->vslots[in->vbase]);
  const int hooked = X->H != NULL;
  LANES(m, { Dd[l] = v; if (hooked) w->addr[l] = a; });
  return FL_NEXT;
}

/* One lane's 4- or 8-byte load (masked to the register width) or store. */
static inline void lane_copy(uint8_t *p, uint64_t *v, uint32_t n, int st, uint64_t wm) {
  if (n == 4) {
    uint32_t x;
    if (st) {
      x = (uint32_t)*v;
      memcpy(p, &x, 4);
    } else {
      memcpy(&x, p, 4);
      *v = x & wm;
    }
  } else if (st) {
    memcpy(p, v, 8);
  } else {
    memcpy(v, p, 8);
  }
}

/* The whole warp's access at mem + A[l] + delta, every lane checked in
 * bounds and aligned beforehand: one straight loop per size and direction. */
static inline void warp_copy(uint8_t *mem, uint64_t delta, const uint64_t *A, uint64_t *V,
                             uint32_t n, int st, uint64_t wm) {
  if (n == 4 && st) {
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t x = (uint32_t)V[l];
      memcpy(mem + (A[l] + delta), &x, 4);
    }
  } else if (n == 4) {
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t x;
      memcpy(&x, mem + (A[l] + delta), 4);
      V[l] = x & wm;
    }
  } else if (st) {
    for (uint32_t l = 0; l < 32; l++) memcpy(mem + (A[l] + delta), &V[l], 8);
  } else {
    for (uint32_t l = 0; l < 32; l++) memcpy(&V[l], mem + (A[l] + delta), 8);
  }
}

/* Whether lane l's address is A[0] + l * n for every lane: a contiguous
 * access (the commonest; one compare per lane, vectorised). */
static inline int contiguous(const uint64_t *A, uint32_t n) {
  uint64_t d = 0, e = A[0]; /* e: lane l's address if contiguous (an addition per lane vectorises, a product does not) */
  for (uint32_t l = 0; l < 32; l++, e += n) d |= A[l] ^ e;
  return d == 0;
}

/* A whole warp's contiguous access of n bytes per lane at p: one copy
 * (loads widen 4-byte values into the lanes' slots, masked to the
 * register's width; stores narrow them). */
static inline void warp_copy_contig(uint8_t *p, uint64_t *restrict V, uint32_t n, int st, uint64_t wm) {
  if (n == 8) {
    if (st) memcpy(p, V, 256);
    else memcpy(V, p, 256);
    return;
  }
  uint32_t t[32];
  if (st) {
    for (uint32_t l = 0; l < 32; l++) t[l] = (uint32_t)V[l];
    memcpy(p, t, sizeof t);
  } else {
    memcpy(t, p, sizeof t);
    for (uint32_t l = 0; l < 32; l++) V[l] = t[l] & wm;
  }
}

/* The lanes of m whose access of n bytes at A[l] + off does not lie at most
 * lim bytes past base (its object's start) or is misaligned: 0 when the
 * whole access is in bounds.  A first pass over all 32 lanes, branch-free
 * (GCC vectorises it), answers the common case; the lanes are named only
 * when some lane, maybe one outside m, is out. */
static inline uint32_t warp_misfits(const uint64_t *A, uint64_t off, uint64_t base, uint64_t lim, uint32_t n,
                                    uint32_t m) {
  uint64_t any = 0;
  for (uint32_t l = 0; l < 32; l++) {
    uint64_t a = A[l] + off;
    any |= (uint64_t)((a - base) > lim) | (a & (n - 1));
  }
  if (!any) return 0;
  uint32_t bad = 0;
  LANES(m, {
    uint64_t a = A[l] + off;
    bad |= (uint32_t)(((a - base) > lim) | ((a & (n - 1)) != 0)) << l;
  });
  return bad;
}

/* The addresses of lanes m for the hooks (w->addr). */
static inline void note_addrs(uint64_t *restrict addr, const uint64_t *restrict A, uint64_t off, uint32_t m) {
  if (m == 0xffffffffu) {
    for (uint32_t l = 0; l < 32; l++) addr[l] = A[l] + off;
  } else {
    LANES(m, addr[l] = A[l] + off);
  }
}

/* Scalar 4- or 8-byte global load or store.  Fast path: every lane of m in
 * one object, the warp's last one or else that of m's first lane (found by
 * resolve(), which reports that lane's fault, the first the lane loop
 * would meet): one straight loop for a whole warp, a loop over m's lanes
 * otherwise.  Anything else (another object, a fault, misalignment) goes
 * lane by lane through resolve(). */
EXECUTOR int ld_st_global(const xctx *X, const dinst *in, uint32_t m, int st) {
  blockctx *B = X->B;
  warp *w = X->w;
  struct ws_emu_launch *L = B->L;
  const int hooked = X->H != NULL;
  const uint64_t *A = lanes(X, in->a);
  uint64_t *V = lanes(X, X->F->vslots[in->vbase]);
  const uint32_t n = in->size;
  const uint64_t off = (uint64_t)in->imm, wm = in->wmask;
  const gobj *o = &L->gobjs[w->gcache];
  uint64_t base = L->ngobjs ? o->base : 1, lim = L->ngobjs && o->size >= n ? o->size - n : 0;
  uint8_t *hp = L->ngobjs ? L->gmem[w->gcache] : NULL;
  if (hp) { /* every lane of m in one object */
    uint32_t f = (uint32_t)__builtin_ctz(m);
    if ((A[f] + off) - base > lim) {
      if (!resolve(B, w, MS_GLOBAL, A[f] + off, n, f, st, X->F, PC(in))) return FL_FAULT;
      o = &L->gobjs[w->gcache];
      base = o->base;
      lim = o->size >= n ? o->size - n : 0;
      hp = L->gmem[w->gcache];
    }
    uint64_t a0 = A[0] + off;
    if (m == 0xffffffffu && contiguous(A, n) && a0 - base <= lim && a0 + 31 * n - base <= lim &&
        !(a0 & (n - 1))) { /* first and last lane in the object: every lane is */
      if (hooked) note_addrs(w->addr, A, off, m);
      warp_copy_contig(hp + (a0 - base), V, n, st, wm);
      return FL_NEXT;
    }
    if (!warp_misfits(A, off, base, lim, n, m)) {
      if (hooked) note_addrs(w->addr, A, off, m);
      if (m == 0xffffffffu) warp_copy(hp, off - base, A, V, n, st, wm);
      else LANES(m, lane_copy(hp + (A[l] + off - base), &V[l], n, st, wm));
      return FL_NEXT;
    }
  }
  LANES(m, {
    uint64_t a = A[l] + off, rel = a - base;
    uint8_t *p;
    if (hooked) w->addr[l] = a;
    if (rel <= lim && hp && !(a & (n - 1))) {
      p = hp + rel;
    } else {
      p = resolve(B, w, MS_GLOBAL, a, n, l, st, X->F, PC(in));
      if (!p) return FL_FAULT;
      o = &L->gobjs[w->gcache];
      base = o->base;
      lim = o->size >= n ? o->size - n : 0;
      hp = L->gmem[w->gcache];
    }
    lane_copy(p, &V[l], n, st, wm);
  });
  return FL_NEXT;
}
EXEC(LD_G) { return ld_st_global(X, in, m, 0); }
EXEC(ST_G) { return ld_st_global(X, in, m, 1); }

/* Scalar 4- or 8-byte shared load or store: straight loops when the lanes
 * of m are in bounds and aligned; a 32-bit address that passed 2^32 wraps
 * (checked on the slow path only: a wrapped address is never in bounds
 * before it wraps). */
EXECUTOR int ld_st_shared(const xctx *X, const dinst *in, uint32_t m, int st) {
  blockctx *B = X->B;
  struct ws_emu_launch *L = B->L;
  const int hooked = X->H != NULL;
  const uint64_t *A = lanes(X, in->a);
  uint64_t *V = lanes(X, X->F->vslots[in->vbase]);
  const uint32_t n = in->size;
  const uint64_t off = (uint64_t)in->imm, wm = in->wmask;
  const uint64_t lim = L->shared_bytes >= n ? L->shared_bytes - n : 0;
  uint8_t *const sh = B->shared;
  uint64_t a0 = A[0] + off;
  if (m == 0xffffffffu && L->shared_bytes >= n && contiguous(A, n) && a0 <= lim && a0 + 31 * n <= lim &&
      !(a0 & (n - 1))) { /* first and last lane in bounds: every lane is */
    if (hooked) note_addrs(X->w->addr, A, off, m);
    warp_copy_contig(sh + a0, V, n, st, wm);
    return FL_NEXT;
  }
  if (L->shared_bytes >= n && !warp_misfits(A, off, 0, lim, n, m)) {
    if (hooked) note_addrs(X->w->addr, A, off, m);
    if (m == 0xffffffffu) warp_copy(sh, off, A, V, n, st, wm);
    else LANES(m, lane_copy(sh + (A[l] + off), &V[l], n, st, wm));
    return FL_NEXT;
  }
  LANES(m, {
    uint64_t a = A[l] + off;
    uint8_t *p;
    if (a <= lim && L->shared_bytes >= n && !(a & (n - 1))) {
      p = sh + a;
    } else {
      a = eff_addr(in, A[l], off);
      p = resolve(B, X->w, MS_SHARED, a, n, l, st, X->F, PC(in));
      if (!p) return FL_FAULT;
    }
    if (hooked) X->w->addr[l] = a;
    lane_copy(p, &V[l], n, st, wm);
  });
  return FL_NEXT;
}
EXEC(LD_S) { return ld_st_shared(X, in, m, 0); }
EXEC(ST_S) { return ld_st_shared(X, in, m, 1); }

/* Any other load: any space, vectors, sign extension. */
EXEC(LD) {
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = lanes(X, in->a);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t n = in->size, tot = n * in->vec;
  int sh = 64 - 8 * (int)n;
  uint64_t off = (uint64_t)in->imm + (in->frel ? X->lbase : 0);
  LANES(m, {
    uint64_t a = eff_addr(in, A[l], off);
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(X->B, w, in->space, a, tot, l, 0, X->F, PC(in));
    if (!p) return FL_FAULT;
    for (uint32_t e = 0; e < in->vec; e++) {
      uint64_t v = rd(p + e * n, (int)n);
      if (in->sgn && n < 8) v = (uint64_t)((int64_t)(v << sh) >> sh);
      lanes(X, vs[e])[l] = v & in->wmask;
    }
  });
  return FL_NEXT;
}

/* A load that may spin on another block (decoder above): in a cooperative
 * launch, a spin point after it loads; anywhere else a plain load, which
 * the translated engine relies on (jit/translate.c, JIT_DOPS). */
EXEC(LD_SPIN) {
  int r = x_LD(X, in, m);
  if (r != FL_NEXT || !X->B->L->grid_ws) return r;
  return spin_point(X, in, m, X->F->vslots + in->vbase, in->vec, 1);
}

/* Any other store. */
EXEC(ST) {
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = lanes(X, in->a);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t n = in->size, tot = n * in->vec;
  uint64_t off = (uint64_t)in->imm + (in->frel ? X->lbase : 0);
  LANES(m, {
    uint64_t a = eff_addr(in, A[l], off);
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(X->B, w, in->space, a, tot, l, 1, X->F, PC(in));
    if (!p) return FL_FAULT;
    for (uint32_t e = 0; e < in->vec; e++) wr(p + e * n, (int)n, lanes(X, vs[e])[l]);
  });
  return FL_NEXT;
}
