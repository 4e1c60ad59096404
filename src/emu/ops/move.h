/*
 * ops/move.h — moves: mov between registers and predicates, from special
 * registers, vector packing and unpacking; createpolicy; the no-effect
 * instructions (fences and hints: the emulator is sequentially consistent
 * and models no cache).  Decoders and executors of the MOVE family
 * (dops.def); compiled in exec.c.
 */

/* membar, fence, prefetch, bar.warp.sync, nanosleep, ...: nothing to do */
DECODER(nop) {
  (void)D; (void)in; (void)T;
  di->op = D_NOP;
  return WS_OK;
}
EXEC(NOP) {
  (void)X; (void)in; (void)m;
  return FL_NEXT;
}

/* createpolicy: an opaque cache-policy value (caches are not modelled) */
DECODER(createpolicy) {
  (void)T;
  di->op = D_MOV;
  DST(0);
  CONST(0, a);
  return WS_OK;
}

/* mov d, a (register, immediate, address of a variable or function, a
 * special register, a vector to pack or unpack, predicates) */
DECODER(mov) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  if (t == WS_PTX_T_PRED) {
    di->op = D_MOV_PRED;
    PRED(0, d);
    if (o[1].kind == WS_PTX_O_IMM_INT) {
      di->a = NO_SLOT;
      di->imm = o[1].imm != 0;
      return WS_OK;
    }
    PRED(1, a);
    return WS_OK;
  }
  if (o[0].kind == WS_PTX_O_VEC || o[1].kind == WS_PTX_O_VEC) { /* mov.b64 {lo, hi}, %rd; mov.b64 %rd, {lo, hi} */
    int unpack = o[0].kind == WS_PTX_O_VEC;
    int eb = T->bits / o[unpack ? 0 : 1].comp;
    if (eb < 8) REFUSE();
    di->op = unpack ? D_MOV_UNPACK : D_MOV_PACK;
    di->size = (uint8_t)eb;
    if (unpack) {
      TRY(ws_emu_dec_vec(D, in, &o[0], t, 1, di));
      SRC(1, a);
      return WS_OK;
    }
    DST(0);
    return ws_emu_dec_vec(D, in, &o[1], eb == 8 ? WS_PTX_T_B8 : eb == 16 ? WS_PTX_T_B16 : WS_PTX_T_B32, 0, di);
  }
  if (o[1].kind == WS_PTX_O_SREG) {
    di->op = D_MOV_SREG;
    DST(0);
    di->imm = o[1].reg;
    di->comp = o[1].comp;
    if (o[1].reg >= WS_PTX_SR_RESERVED_SMEM_OFFSET_BEGIN && o[1].reg <= WS_PTX_SR_RESERVED_SMEM_OFFSET_1)
      D->P->reserved_smem = WS_EMU_RESERVED_SMEM_BYTES; /* the block gets the region */
    return WS_OK;
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_LOCAL &&
      D->f->vars[o[1].reg].space != WS_PTX_SP_SHARED) {
    di->op = D_MOV_LOCALSYM;
    DST(0);
    di->imm = (int64_t)D->df->var_off[o[1].reg] + o[1].imm;
    return WS_OK;
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_FUNC) { /* address of a function */
    uint32_t fidx;
    if (!D->m->funcs[o[1].reg].has_body) UNSUP("address of a function without a body");
    TRY(ws_emu_dec_queue_func(D, o[1].reg, &fidx));
    di->op = D_MOV;
    DST(0);
    CONST(FUNC_ADDR_BASE + 16 * (uint64_t)o[1].reg, a);
    return WS_OK;
  }
  di->wmask = wmask_of(reg_bits(D, o[0].kind == WS_PTX_O_REG ? o[0].reg : 0));
  if (o[0].kind == WS_PTX_O_REG) {
    int rb = reg_bits(D, o[0].reg);
    di->wmask = wmask_of(rb < di->bits ? rb : di->bits);
  }
  UN(MOV);
}

EXEC(MOV) { IUN(a & wm); }

EXEC(MOV_PRED) {
  pset(X, in->d, m, in->a == NO_SLOT ? (in->imm ? m : 0) : pmask(X, in->a));
  return FL_NEXT;
}

/* mov.b64 %rd, {lo, hi}: the elements from the lowest */
EXEC(MOV_PACK) {
  uint64_t *Dd = lanes(X, in->d);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint64_t em = in->size >= 64 ? ~0ull : (1ull << in->size) - 1;
  LANES(m, {
    uint64_t v = 0;
    for (int e = in->vec - 1; e >= 0; e--) v = (v << in->size) | (lanes(X, vs[e])[l] & em);
    Dd[l] = v;
  });
  return FL_NEXT;
}

/* mov.b64 {lo, hi}, %rd */
EXEC(MOV_UNPACK) {
  const uint64_t *A = lanes(X, in->a);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint64_t em = in->size >= 64 ? ~0ull : (1ull << in->size) - 1;
  LANES(m, {
    uint64_t v = A[l];
    for (int e = 0; e < in->vec; e++) {
      lanes(X, vs[e])[l] = v & em;
      v = in->size >= 64 ? 0 : v >> in->size;
    }
  });
  return FL_NEXT;
}

/* ---- special registers ------------------------------------------------------ */

/* %clock (timer 0) and %globaltimer (1): the warp's instruction count at
 * the caller's rate (ws_emu_options.clock_per_inst, timer_ns_per_inst), so
 * a kernel that waits on the clock runs as many iterations as the
 * predicted time allows (docs/emulator.md). */
static uint64_t clock_of(const blockctx *B, const warp *w, int timer) {
  double r = timer ? B->o->timer_ns_per_inst : B->o->clock_per_inst;
  uint64_t base = timer ? B->o->timer_base_ns : 0;
  return base + (r > 0 ? (uint64_t)((double)w->insts * r) : w->insts);
}

/* Lane l's value of the special register in->imm (component in->comp). */
static uint64_t sreg(blockctx *B, warp *w, const dinst *in, uint32_t l) {
  const struct ws_emu_launch *s = B->L;
  uint32_t c = in->comp ? in->comp - 1u : 0;
  switch ((int)in->imm) {
  case WS_PTX_SR_TID: return c < 3 ? w->tid[c][l] : 0;
  case WS_PTX_SR_NTID: return c < 3 ? s->block[c] : 1;
  case WS_PTX_SR_CTAID: return c < 3 ? B->ctaid[c] : 0;
  case WS_PTX_SR_NCTAID: return c < 3 ? s->grid[c] : 1;
  case WS_PTX_SR_LANEID: return l;
  case WS_PTX_SR_WARPID: return w->id;
  case WS_PTX_SR_NWARPID: return B->nwarps;
  case WS_PTX_SR_SMID: return 0;
  case WS_PTX_SR_NSMID: return 1;
  case WS_PTX_SR_GRIDID: return 1;
  case WS_PTX_SR_LANEMASK_EQ: return 1u << l;
  case WS_PTX_SR_LANEMASK_LE: return l == 31 ? 0xffffffffu : (2u << l) - 1;
  case WS_PTX_SR_LANEMASK_LT: return (1u << l) - 1;
  case WS_PTX_SR_LANEMASK_GE: return 0xffffffffu << l;
  case WS_PTX_SR_LANEMASK_GT: return l == 31 ? 0 : 0xffffffffu << (l + 1);
  case WS_PTX_SR_CLOCK: return (uint32_t)clock_of(B, w, 0);
  case WS_PTX_SR_CLOCK_HI: return (uint32_t)(clock_of(B, w, 0) >> 32);
  case WS_PTX_SR_CLOCK64: return clock_of(B, w, 0);
  case WS_PTX_SR_GLOBALTIMER: return clock_of(B, w, 1);
  case WS_PTX_SR_GLOBALTIMER_LO: return (uint32_t)clock_of(B, w, 1);
  case WS_PTX_SR_GLOBALTIMER_HI: return (uint32_t)(clock_of(B, w, 1) >> 32);
  case WS_PTX_SR_DYNAMIC_SMEM_SIZE: return s->dynamic_shared;
  /* the user's static + dynamic bytes; aggr adds the reserved region */
  case WS_PTX_SR_TOTAL_SMEM_SIZE: return s->p->shared_dyn_base + s->dynamic_shared;
  case WS_PTX_SR_AGGR_SMEM_SIZE: return s->shared_bytes;
  /* the reserved region after the user's (docs/emulator.md, "Memory map"):
   * offset_0 its first half, offset_1 its second */
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_BEGIN:
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_0: return s->reserved_base;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_END: return s->reserved_base + s->p->reserved_smem;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_CAP: return s->p->reserved_smem;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_1: return s->reserved_base + s->p->reserved_smem / 2;
  case WS_PTX_SR_CLUSTERID: return c < 3 ? B->ctaid[c] : 0;
  case WS_PTX_SR_NCLUSTERID: return c < 3 ? s->grid[c] : 1;
  case WS_PTX_SR_CLUSTER_NCTAID: return 1;
  case WS_PTX_SR_CLUSTER_NCTARANK: return 1;
  /* the grid-sync workspace of a cooperative launch (0 otherwise: grid.sync()
   * then traps, as on a GPU) */
  case WS_PTX_SR_ENVREG1: return s->grid_ws >> 32;
  case WS_PTX_SR_ENVREG2: return (uint32_t)s->grid_ws;
  default: return 0;
  }
}

EXEC(MOV_SREG) {
  uint32_t c = in->comp ? in->comp - 1u : 0;
  if (in->imm == WS_PTX_SR_TID && c < 3) {
    uint64_t *Dd = lanes(X, in->d);
    const uint32_t *Tid = X->w->tid[c];
    LANES(m, Dd[l] = Tid[l]);
    return FL_NEXT;
  }
  if (in->imm == WS_PTX_SR_NTID || in->imm == WS_PTX_SR_CTAID || in->imm == WS_PTX_SR_NCTAID)
    ISET(sreg(X->B, X->w, in, 0));
  uint64_t *Dd = lanes(X, in->d);
  LANES(m, Dd[l] = sreg(X->B, X->w, in, l));
  return FL_NEXT;
}
