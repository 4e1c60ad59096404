/*
 * ops/ctrl.h — control: branches, exit and ret, calls (direct, indirect,
 * vprintf, __assertfail), traps and barriers.  These executors move the
 * warp's pc and active lanes (X->pc, X->active) and its reconvergence
 * stack, and report themselves to the hooks.  Divergence: a divergent
 * branch turns the top entry into the reconvergence entry (pc = the
 * branch's immediate post-dominator, dinst.rpc) and pushes one entry per
 * side; calls push a frame and a base entry (frames: exec.c).  Decoders and
 * executors of the CTRL family (dops.def); compiled in exec.c.
 */

/* A stack overflow at a branch or a call (the lane is the first of m, or 0). */
static int stack_fault(const xctx *X, uint32_t lane) {
  set_fault(X->B, X->w, lane, X->F, X->pc, FAULT_STACK, 0, 0, 0);
  return FL_FAULT;
}

/* The warp ran past its instruction limit (checked at branches: loops
 * need one, so no runaway escapes). */
EXECUTOR int over_limit(const xctx *X) {
  if (X->w->insts <= X->limit) return 0;
  set_fault(X->B, X->w, (uint32_t)__builtin_ctz(X->active), X->F, X->pc, limit_kind(X->B, X->w), 0, 0, 0);
  return 1;
}

/* bra target */
DECODER(bra) {
  (void)D; (void)T;
  if (in->ops[0].kind != WS_PTX_O_LABEL) REFUSE();
  di->op = D_BRA;
  di->target = (uint32_t)in->ops[0].imm;
  return WS_OK;
}
/* uniform, or divergent (the top entry becomes the reconvergence entry;
 * one entry per side is pushed) */
CTRL_EXEC(BRA) {
  warp *w = X->w;
  if (over_limit(X)) return FL_FAULT;
  if (X->H) emit(X, in, X->active, m, m, 0);
  if (m == X->active) {
    X->pc = in->target;
  } else if (m == 0) {
    X->pc++;
  } else {
    uint32_t nt = X->active & ~m;
    X->top->pc = in->rpc;
    if (push_entry(w, X->pc + 1, in->rpc, nt, 0) || push_entry(w, in->target, in->rpc, m, 0))
      return stack_fault(X, 0);
    return FL_RELOAD;
  }
  if (w->insts >= X->qend) {
    X->top->pc = X->pc;
    return FL_YIELD;
  }
  return FL_JUMP;
}

/* brx.idx index, table: the targets go to vslots as instruction indices */
DECODER(brx_idx) {
  const ws_ptx_operand *o = in->ops;
  int t = WS_PTX_T_U32;
  (void)T;
  if (o[1].kind != WS_PTX_O_SYM || o[1].symkind != WS_PTX_S_BTABLE || o[1].reg >= D->f->nbtables)
    UNSUP("brx.idx without a branch-target table");
  const ws_ptx_btable *bt = &D->f->btables[o[1].reg];
  di->op = D_BRX;
  SRC(0, a);
  di->vbase = D->nvs;
  di->imm = bt->ntargets;
  for (uint32_t i = 0; i < bt->ntargets; i++) TRY(ws_emu_dec_push_vs(D, D->f->labels[bt->labels[i]].inst));
  return WS_OK;
}
/* a multi-way branch: one entry per distinct target, in order of the
 * lowest lane taking it; all reconverge at the ipdom */
CTRL_EXEC(BRX) {
  warp *w = X->w;
  if (over_limit(X)) return FL_FAULT;
  if (!m) {
    if (X->H) emit(X, in, X->active, m, 0, 0);
    X->pc++;
    return FL_JUMP;
  }
  const uint64_t *A = lanes(X, in->a);
  const uint32_t *tg = X->F->vslots + in->vbase;
  uint32_t tgt[32], tmask[32], nt = 0;
  LANES(m, {
    uint32_t ix = (uint32_t)A[l];
    if (ix >= (uint64_t)in->imm)
      return fault_msg(X, in, l, FAULT_OTHER, ix, "brx.idx index %u is outside its %u-entry table", ix, (uint32_t)in->imm);
    uint32_t k = 0;
    while (k < nt && tgt[k] != tg[ix]) k++;
    if (k == nt) {
      tgt[nt] = tg[ix];
      tmask[nt++] = 0;
    }
    tmask[k] |= 1u << l;
  });
  if (X->H) emit(X, in, X->active, m, m, 0);
  if (m != X->active || nt > 1) {
    X->top->pc = in->rpc;
    if (m != X->active && push_entry(w, X->pc + 1, in->rpc, X->active & ~m, 0)) /* lanes with a false guard fall through */
      return stack_fault(X, 0);
    for (uint32_t k = nt; k-- > 0;)
      if (push_entry(w, tgt[k], in->rpc, tmask[k], 0)) return stack_fault(X, 0);
    return FL_RELOAD;
  }
  X->pc = tgt[0];
  return FL_JUMP;
}

/* ret: in a kernel, exit */
DECODER(ret) {
  (void)in; (void)T;
  di->op = D->f->is_entry ? D_EXIT : D_RET;
  return WS_OK;
}
/* exit (the lanes leave every entry) and ret (they leave the entries of
 * this call) */
EXECUTOR int exit_ret(xctx *X, const dinst *in, uint32_t m, int is_exit) {
  warp *w = X->w;
  if (X->H) emit(X, in, X->active, m, 0, 0);
  if (is_exit) {
    w->exited |= m;
    for (uint32_t i = 0; i < w->sp; i++) w->stk[i].mask &= ~m;
  } else {
    for (uint32_t i = w->sp; i-- > 0;) {
      w->stk[i].mask &= ~m;
      if (w->stk[i].frame) break;
    }
  }
  if (m == X->active) return FL_RELOAD;
  X->active &= ~m;
  X->pc++;
  return FL_JUMP;
}
CTRL_EXEC(EXIT) { return exit_ret(X, in, m, 1); }
CTRL_EXEC(RET) { return exit_ret(X, in, m, 0); }

/* trap (decoder generated: ZERO) */
CTRL_EXEC(TRAP) {
  set_fault(X->B, X->w, (uint32_t)__builtin_ctz(m), X->F, PC(in), FAULT_TRAP, 0, 0, 0);
  return FL_FAULT;
}

/* ---- calls --------------------------------------------------------------------- */

/* call[.uni] (rets), f, (args); call (rets), %reg, (args), proto; calls to
 * vprintf and __assertfail (no body) */
DECODER(call) {
  const ws_ptx_operand *o = in->ops;
  (void)T;
  int fi = -1;
  for (int i = 0; i < in->nops; i++)
    if (o[i].kind == WS_PTX_O_SYM && o[i].symkind == WS_PTX_S_FUNC) fi = i;
  if (fi < 0) { /* call (r), %reg, (args), proto: the prototype gives the shape */
    for (int i = 0; i < in->nops; i++)
      if (o[i].kind == WS_PTX_O_REG) fi = i;
    if (fi < 0 || is_pred_reg(D, o[fi].reg)) UNSUP("call target");
  }
  int indirect = o[fi].kind == WS_PTX_O_REG;
  const ws_ptx_function *cf = indirect ? NULL : &D->m->funcs[o[fi].reg];
  const ws_ptx_operand *rl = fi > 0 ? &o[fi - 1] : NULL;
  const ws_ptx_operand *al = fi + 1 < in->nops ? &o[fi + 1] : NULL;
  if (rl && rl->kind != WS_PTX_O_LIST) UNSUP("call return list");
  if (al && al->kind != WS_PTX_O_LIST) UNSUP("call argument list");
  uint32_t nr = rl ? rl->comp : 0, na = al ? al->comp : 0;
  /* vslots: [ret frame offsets...][arg sources...]; for SYM params the
   * slot is the caller's frame offset with the top bit set */
  di->vbase = D->nvs;
  di->vec = (uint8_t)na;
  di->size = (uint8_t)nr;
  for (uint32_t i = 0; i < nr + na; i++) {
    const ws_ptx_operand *e = &D->f->extra[i < nr ? rl->reg + i : al->reg + (i - nr)];
    uint32_t s;
    if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_LOCAL) {
      s = 0x80000000u | (uint32_t)(D->df->var_off[e->reg] + (uint64_t)e->imm);
    } else if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_PARAM && !D->f->is_entry) {
      s = 0x80000000u | (uint32_t)D->df->param_off[e->reg];
    } else if (i >= nr && (e->kind == WS_PTX_O_REG || e->kind == WS_PTX_O_IMM_INT)) {
      int at = cf && (i - nr) < cf->nparams ? cf->params[i - nr].type : WS_PTX_T_B64;
      TRY(ws_emu_dec_src(D, in, e, at, &s));
    } else {
      UNSUP("call operand");
    }
    TRY(ws_emu_dec_push_vs(D, s));
  }
  if (indirect) {
    di->op = D_CALLI;
    di->a = o[fi].reg;
    return WS_OK;
  }
  if (!cf->has_body) {
    if (strcmp(cf->name, "vprintf") == 0 && na == 2) {
      di->op = D_VPRINTF;
      return WS_OK;
    }
    if (strcmp(cf->name, "__assertfail") == 0 && na == 5) { /* assert() failing in device code */
      di->op = D_ASSERTFAIL;
      return WS_OK;
    }
    /* the device runtime's system calls (libcudadevrt's PTX calls them): a
     * kernel's k<<<...>>> (cdp.c) and its error state */
    if (!strncmp(cf->name, "__cuda_syscall_cnpv2", 20) && nr == 1 &&
        (D->vs[di->vbase] & 0x80000000u)) {
      const char *sc = cf->name + 20;
      if (!strcmp(sc, "GetParameterBufferV2") && na == 4) di->op = D_CDP_PARAMBUF;
      else if (!strcmp(sc, "LaunchDeviceV2") && na == 2) di->op = D_CDP_LAUNCH;
      else if ((!strcmp(sc, "GetLastError") && na == 0) || (!strcmp(sc, "PeekAtLastError") && na == 0) ||
               (!strcmp(sc, "SetLastError") && na == 1))
        di->op = D_CDP_ERROR;
      if (di->op == D_CDP_PARAMBUF || di->op == D_CDP_LAUNCH || di->op == D_CDP_ERROR) return WS_OK;
      UNSUP("a device runtime call other than a kernel launch (<<< >>>) or cudaGetLastError");
    }
    UNSUP("call to an external function without a body");
  }
  if (na != cf->nparams || nr != cf->nrets) UNSUP("argument count differs from the callee");
  di->op = D_CALL;
  return ws_emu_dec_queue_func(D, o[fi].reg, &di->target);
}

/* The callee of call.uni (direct) or of an indirect call for the lanes
 * *sub that share the first lane's target; NULL after a fault. */
static const dfunc *callee(xctx *X, const dinst *in, uint32_t m, uint32_t *sub) {
  const ws_emu_program *Pg = X->B->L->p;
  *sub = m;
  if (in->op != D_CALLI) return &Pg->funcs[in->target];
  /* the callee is a register: split lanes by its value */
  const uint64_t *A = lanes(X, in->a);
  uint32_t f0 = (uint32_t)__builtin_ctz(m);
  uint64_t v = A[f0], rel = v - FUNC_ADDR_BASE;
  int fi = (rel % 16 == 0 && rel / 16 < Pg->m->nfuncs) ? Pg->func_of_ir[rel / 16] : -1;
  if (fi < 0 || Pg->funcs[fi].f->nparams != in->vec || Pg->funcs[fi].f->nrets != in->size) {
    fault_msg(X, in, f0, FAULT_OTHER, v,
              fi < 0 ? "indirect call to 0x%llx, which is not the address of a function"
                     : "indirect call to 0x%llx: the callee's parameters differ from the call's",
              (unsigned long long)v);
    return NULL;
  }
  *sub = 0;
  LANES(m, *sub |= (uint32_t)(A[l] == v) << l);
  return &Pg->funcs[fi];
}

/* The local memory of lane l at offset o. */
static inline uint8_t *local_at(const warp *w, uint32_t l, uint64_t o) { return w->local + l * w->local_cap + o; }

/* Copy the call's arguments (vslots after the returns) into the callee's
 * parameters, from the caller's frame cr to the callee's frame cal. */
static void copy_args(warp *w, const dfunc *F, const dinst *in, const frame *cr, const frame *cal, uint32_t m) {
  const dfunc *cf = cal->f;
  uint64_t *CR = w->regs + cr->reg_off;
  for (uint32_t i = 0; i < in->vec; i++) {
    uint32_t s = F->vslots[in->vbase + in->size + i];
    uint64_t sz = cf->f->params[i].size, dsto = cal->local_base + cf->param_off[i];
    if (sz > 8 && !(s & 0x80000000u)) sz = 8;
    if (s & 0x80000000u) {
      uint64_t so = cr->local_base + (s & 0x7fffffffu);
      LANES(m, memcpy(local_at(w, l, dsto), local_at(w, l, so), sz));
    } else {
      LANES(m, memcpy(local_at(w, l, dsto), &CR[(size_t)s * 32 + l], sz));
    }
  }
}

/* call and indirect call: a new frame and a base entry for the lanes */
EXECUTOR int call(xctx *X, const dinst *in, uint32_t m) {
  warp *w = X->w;
  uint32_t pc = X->pc, sub;
  if (X->H) emit(X, in, X->active, m, 0, 0);
  const dfunc *cf = callee(X, in, m, &sub);
  if (!cf) return FL_FAULT;
  if (sub != X->active) { /* run the call for one group of lanes at a time */
    X->top->pc = pc + 1;
    if ((m & ~sub) && push_entry(w, pc, pc + 1, m & ~sub, 0)) return stack_fault(X, 0);
    if (push_entry(w, pc, pc + 1, sub, 0)) return stack_fault(X, 0);
    return FL_RELOAD;
  }
  uint32_t caller_frame = w->nframes - 1;
  X->top->pc = pc + 1;
  if (push_frame(w, cf, pc) || push_entry(w, 0, NO_PC, m, w->nframes))
    return stack_fault(X, (uint32_t)__builtin_ctz(m));
  copy_args(w, X->F, in, &w->frames[caller_frame], &w->frames[w->nframes - 1], m);
  return FL_RELOAD;
}
CTRL_EXEC(CALL) { return call(X, in, m); }
CTRL_EXEC(CALLI) { return call(X, in, m); }

/* One call argument of lane l: a register value or `bytes` of the frame. */
static uint64_t call_arg(const xctx *X, uint32_t slot, uint32_t l, size_t bytes) {
  uint64_t v = 0;
  if (slot & 0x80000000u)
    memcpy(&v, local_at(X->w, l, X->lbase + (slot & 0x7fffffffu)), bytes);
  else
    v = lanes(X, slot)[l];
  return v;
}

/* Generic reads for vprintf and __assertfail: a lane's view of memory. */
typedef struct vpctx {
  blockctx *B;
  warp *w;
  uint32_t lane;
  const dfunc *F;
  uint32_t pc;
} vpctx;

static int vp_fetch_fn(void *ctx, uint64_t addr, void *dst, size_t n) {
  vpctx *c = ctx;
  for (size_t i = 0; i < n; i++) {
    uint8_t *p = resolve(c->B, c->w, MS_GENERIC, addr + i, 1, c->lane, 0, c->F, c->pc);
    if (!p) return -1;
    ((uint8_t *)dst)[i] = *p;
  }
  return 0;
}

/* __assertfail(message, file, line, function, char size): stop the launch
 * like a trap, quoting the assertion */
CTRL_EXEC(ASSERTFAIL) {
  blockctx *B = X->B;
  const uint32_t *vs = X->F->vslots + in->vbase + in->size;
  uint32_t l = (uint32_t)__builtin_ctz(m);
  uint64_t a[5];
  for (int k = 0; k < 5; k++) a[k] = call_arg(X, vs[k], l, k == 2 ? 4 : 8);
  char msg[120] = "", file[120] = "", fn[120] = "";
  vpctx vc = {B, X->w, l, X->F, X->pc};
  for (int k = 0; k < 3; k++) {
    char *dst = k == 0 ? msg : k == 1 ? file : fn;
    uint64_t src = a[k == 0 ? 0 : k == 1 ? 1 : 3];
    for (size_t i = 0; i + 1 < 120; i++) {
      if (vp_fetch_fn(&vc, src + i, &dst[i], 1)) {
        dst[i] = '\0';
        memset(&B->flt, 0, sizeof B->flt); /* an unreadable string is not the fault to report */
        break;
      }
      if (!dst[i]) break;
    }
    dst[119] = 0;
  }
  return fault_msg(X, in, l, FAULT_ASSERT, 0, "device assertion '%s' failed at %s:%u in %s", msg, file, (uint32_t)a[2], fn);
}

/* ---- device-side launches (cdp.c) ------------------------------------------------ */

/* Write a lane's 32- or 64-bit return value of a builtin call into its
 * frame (the decoder made sure the return is a frame slot). */
static void call_ret(const xctx *X, const dinst *in, uint32_t l, uint64_t v, size_t bytes) {
  uint32_t s = X->F->vslots[in->vbase];
  memcpy(local_at(X->w, l, X->lbase + (s & 0x7fffffffu)), &v, bytes);
}

/* __cuda_syscall_cnpv2GetParameterBufferV2(kernel, gridDim, blockDim,
 * sharedMem): a parameter buffer for the launch each lane configures */
CTRL_EXEC(CDP_PARAMBUF) {
  const ws_ptx_module *M = X->B->L->p->m;
  const uint32_t *vs = X->F->vslots + in->vbase + in->size;
  LANES(m, {
    uint64_t k = call_arg(X, vs[0], l, 8), rel = k - FUNC_ADDR_BASE;
    uint32_t dims[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (int a = 0; a < 2; a++) { /* the dim3 arguments: 12 bytes of the frame */
      if (!(vs[1 + a] & 0x80000000u))
        return fault_msg(X, in, l, FAULT_OTHER, 0, "device-side launch: the grid and block sizes must be .param arrays");
      memcpy(dims[a], local_at(X->w, l, X->lbase + (vs[1 + a] & 0x7fffffffu)), 12);
    }
    uint32_t shared = (uint32_t)call_arg(X, vs[3], l, 4);
    if (rel % 16 || rel / 16 >= M->nfuncs || !M->funcs[rel / 16].is_entry || !M->funcs[rel / 16].has_body)
      return fault_msg(X, in, l, FAULT_OTHER, k, "device-side launch of 0x%llx, which is not a kernel of the module",
                       (unsigned long long)k);
    const uint32_t *g = dims[0], *b = dims[1];
    if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2] || (uint64_t)b[0] * b[1] * b[2] > 1024 || b[2] > 64 ||
        g[1] > 65535 || g[2] > 65535)
      return fault_msg(X, in, l, FAULT_OTHER, 0,
                       "device-side launch of '%s' with an invalid configuration: grid %u x %u x %u, block %u x %u x %u",
                       M->funcs[rel / 16].name, g[0], g[1], g[2], b[0], b[1], b[2]);
    uint64_t buf = ws_emu_cdp_buffer(X->B, (uint32_t)(rel / 16), g, b, shared);
    if (!buf)
      return fault_msg(X, in, l, FAULT_OTHER, 0,
                       "device-side launch of '%s': out of memory for its parameter buffer (or more than 2^24 "
                       "launches in one grid)", M->funcs[rel / 16].name);
    call_ret(X, in, l, buf, 8);
  });
  return FL_NEXT;
}

/* __cuda_syscall_cnpv2LaunchDeviceV2(buffer, stream): launch it (every
 * stream alike: the children run after the parent grid) */
CTRL_EXEC(CDP_LAUNCH) {
  const uint32_t *vs = X->F->vslots + in->vbase + in->size;
  LANES(m, {
    uint64_t buf = call_arg(X, vs[0], l, 8);
    if (ws_emu_cdp_launch(X->B, buf))
      return fault_msg(X, in, l, FAULT_OTHER, buf,
                       "device-side launch with 0x%llx, which is not a parameter buffer this block got and has "
                       "not launched yet", (unsigned long long)buf);
    call_ret(X, in, l, 0, 4); /* success */
  });
  return FL_NEXT;
}

/* __cuda_syscall_cnpv2{Get,Peek,Set}LastError: every device launch that
 * returns succeeds (a failing one faults), so the error is always none */
CTRL_EXEC(CDP_ERROR) {
  LANES(m, call_ret(X, in, l, 0, 4));
  return FL_NEXT;
}

/* vprintf(format, args) of each lane; the return value (if asked for) is
 * written to the frame */
CTRL_EXEC(VPRINTF) {
  blockctx *B = X->B;
  warp *w = X->w;
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t nr = in->size;
  LANES(m, {
    uint64_t fa = call_arg(X, vs[nr], l, 8), aa = call_arg(X, vs[nr + 1], l, 8);
    vpctx vc = {B, w, l, X->F, X->pc};
    /* the launch's budget, shared by the workers (printf.c) */
    vp_budget budget = {B->printf_bytes, WS_EMU_MAX_PRINTF_BYTES};
    int r = ws_emu_vprintf(&B->pout, vp_fetch_fn, &vc, fa, aa, &budget);
    if (r == -1 && B->flt.kind) return FL_FAULT;
    if (r == -2)
      return fault_msg(X, in, l, FAULT_OTHER, 0, "device printf output passed the limit of %llu bytes per launch",
                       (unsigned long long)WS_EMU_MAX_PRINTF_BYTES);
    if (nr && (vs[0] & 0x80000000u)) {
      int32_t rv = r;
      memcpy(local_at(w, l, X->lbase + (vs[0] & 0x7fffffffu)), &rv, 4);
    }
  });
  return FL_NEXT;
}

/* ---- barriers -------------------------------------------------------------------- */

/* bar.sync / bar.arrive / bar.red.op / barrier.sync [.aligned] a{, b} */
DECODER(bar) {
  const ws_ptx_operand *o = in->ops;
  int t = WS_PTX_T_U32;
  (void)T;
  int red = HAS(RED), i = 0;
  di->op = D_BAR;
  di->arrive = (uint8_t)(HAS(ARRIVE) ? 1 : 0);
  if (red) {
    if (in->bop != WS_PTX_MOD_POPC && in->bop != WS_PTX_MOD_AND && in->bop != WS_PTX_MOD_OR) REFUSE();
    di->bop = in->bop == WS_PTX_MOD_POPC ? 1 : in->bop == WS_PTX_MOD_AND ? 2 : 3;
    if (in->bop == WS_PTX_MOD_POPC) DST(0);
    else PRED(0, d);
    i = 1;
  }
  if (in->nops <= i) {
    if (in->op == WS_PTX_OP_BAR) REFUSE();
    CONST(0, a);
    return WS_OK;
  }
  SRC(i, a);
  if (in->nops > i + 1 && !(red && i + 2 == in->nops && o[i + 1].kind == WS_PTX_O_REG &&
                            is_pred_reg(D, o[i + 1].reg))) {
    SRC(i + 1, b);
    i++;
  }
  if (red) {
    if (in->nops <= i + 1) REFUSE();
    PRED(i + 1, c);
    if (o[i + 1].flags & WS_PTX_OF_NOT) di->flags |= 4;
  }
  return WS_OK;
}

/* Warps bar.sync/bar.arrive waits for (b: an optional thread count), or 0
 * after a fault. */
static uint32_t bar_expect(const xctx *X, const dinst *in, uint32_t m) {
  blockctx *B = X->B;
  /* Without a thread count every warp that has not exited takes part:
   * exited threads do not hold a barrier up (PTX ISA, exit). */
  uint32_t expect = B->nwarps - live_done(B);
  if (in->b == NO_SLOT) return expect;
  uint32_t cnt = (uint32_t)lanes(X, in->b)[__builtin_ctz(m)];
  expect = (cnt + 31) / 32;
  if (cnt % 32 || expect > B->nwarps || cnt == 0) {
    fault_msg(X, in, (uint32_t)__builtin_ctz(m), FAULT_OTHER, cnt,
              "barrier thread count %u must be a non-zero multiple of 32 and at most the block's %u threads", cnt,
              B->nthreads);
    return 0;
  }
  return expect;
}

/* bar.sync, bar.arrive, bar.red: arrive; wait unless the barrier completes
 * or this is an arrive */
CTRL_EXEC(BAR) {
  blockctx *B = X->B;
  warp *w = X->w;
  uint32_t id = (uint32_t)lanes(X, in->a)[__builtin_ctz(m)];
  if (id >= 16) return fault_msg(X, in, (uint32_t)__builtin_ctz(m), FAULT_OTHER, id, "barrier number %u is out of range (0..15)", id);
  uint32_t expect = bar_expect(X, in, m);
  if (!expect) return FL_FAULT;
  if (in->bop) {
    uint32_t pv = pmask_not(X, in->c, in->flags & 4) & m;
    if (B->bar_count[id] == 0) B->bar_red[id] = in->bop == 2 ? 1 : 0;
    if (in->bop == 1) B->bar_red[id] += ws_popc32(pv);
    else if (in->bop == 2) B->bar_red[id] &= pv == m;
    else B->bar_red[id] |= pv != 0;
  }
  if (X->H) emit(X, in, X->active, m, 0, 0);
  B->bar_count[id]++;
  X->top->pc = X->pc + 1;
  w->bar_id = (int)id;
  w->bar_pc = X->pc;
  w->bar_f = X->F;
  w->bar_all = in->b == NO_SLOT;
  if ((uint32_t)B->bar_count[id] >= expect) {
    release_barrier(B, id, w, in->bop != 0);
    X->pc++;
    return FL_JUMP;
  }
  if (in->arrive) { /* bar.arrive: no wait */
    X->pc++;
    return FL_JUMP;
  }
  w->state = WS_WAIT;
  return FL_YIELD;
}
