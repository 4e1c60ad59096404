/*
 * jit_run.c — runs a block with the translated engine: the block's warps
 * (one jit_warp each, with typed registers), the scheduler, and the host
 * side of every instruction the generated code does not run inline
 * (memory faults and slow paths, calls and returns, barriers, brx.idx,
 * atomics, alloca, printf, assert).
 *
 * Every rule here is the interpreter's (exec.c), applied to the
 * translated engine's state: the same reconvergence stack and frames, the
 * same round-robin schedule with the same quantum, the same barrier and
 * deadlock rules, the same limits checked at the same branches, the same
 * fault for the same lane.  So a block gives the same results, counts and
 * fault reports in both engines (tests/cli/jit_exact.sh checks it).
 */
#include <stdlib.h>
#include <string.h>

#include "emu/jit/jit.h"
#include "emu/num.h"
#include "util/bits.h"
#include "util/checked.h"
#include "util/vec.h"

/* A worker's state for translated blocks (blockctx.jit). */
typedef struct jblock {
  jit_ctx X;              /* what the generated code sees (X.host = this) */
  blockctx *B;            /* the host block being run */
  const jit_program *prog;/* the code */
  jit_warp *warps;        /* the block's warps */
  uint32_t nwarps;        /* their number */
  uint32_t ndone;         /* those done (JW_DONE), for the barriers' counts */
} jblock;

#define JB(X) ((jblock *)(X)->host)

/* ---- faults -------------------------------------------------------------------- */

static void set_fault(jit_ctx *X, jit_warp *w, int kind, uint32_t lane, uint32_t func, uint32_t pc, uint64_t addr,
                      int space, int bytes) {
  blockctx *B = JB(X)->B;
  if (B->flt.kind) return;
  B->flt.kind = kind;
  B->flt.block = B->block;
  B->flt.warp = w->id;
  B->flt.lane = lane;
  B->flt.f = &B->L->p->funcs[func];
  B->flt.pc = pc;
  B->flt.addr = addr;
  B->flt.space = space;
  B->flt.bytes = bytes;
}

static int rt_fault(jit_ctx *X, jit_warp *w, int kind, uint32_t lane, uint32_t func, uint32_t pc, uint64_t addr,
                    int space, int bytes, const char *msg) {
  blockctx *B = JB(X)->B;
  int first = !B->flt.kind;
  set_fault(X, w, kind, lane, func, pc, addr, space, bytes);
  if (first && msg) snprintf(B->flt.msg, sizeof B->flt.msg, "%s", msg);
  return JR_FAULT;
}

/* A stack overflow at a branch or a call. */
static int stack_fault(jit_ctx *X, jit_warp *w, uint32_t lane, uint32_t func, uint32_t pc) {
  return rt_fault(X, w, FAULT_STACK, lane, func, pc, 0, 0, 0, NULL);
}

static int rt_limit(jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t active) {
  const blockctx *B = JB(X)->B;
  int kind = B->o->max_warp_insts && w->insts > B->o->max_warp_insts ? FAULT_LIMIT : FAULT_LAUNCH_LIMIT;
  return rt_fault(X, w, kind, (uint32_t)__builtin_ctz(active), func, pc, 0, 0, 0, NULL);
}

/* ---- memory ---------------------------------------------------------------------- */

static void set_gcache(jit_warp *w, const struct ws_emu_launch *L, int i) {
  w->gcache = i;
  w->gbase = L->gobjs[i].base;
  w->gsize = L->gobjs[i].size;
  w->ghost = L->gmem[i];
}

/* The global object holding addr as w's cached one. */
static int rt_gfind(jit_ctx *X, jit_warp *w, uint64_t addr) {
  const struct ws_emu_launch *L = JB(X)->B->L;
  uint32_t lo = 0, hi = L->ngobjs;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (L->gobjs[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return 0;
  const gobj *o = &L->gobjs[lo - 1];
  if (addr - o->base >= o->size) return 0;
  set_gcache(w, L, (int)(lo - 1));
  return 1;
}

/* The interpreter's resolve(): host pointer for an access of n bytes at
 * addr in space sp, or NULL after recording the fault. */
static uint8_t *rt_resolve(jit_ctx *X, jit_warp *w, int sp, uint64_t addr, uint32_t n, uint32_t lane, int write,
                           uint32_t func, uint32_t pc) {
  blockctx *B = JB(X)->B;
  int kind, gc = w->gcache;
  uint8_t *p = ws_emu_locate(B, &gc, w->local, w->local_cap, w->local_top, sp, addr, n, lane, write, &kind);
  if (gc != w->gcache) set_gcache(w, B->L, gc);
  if (!p) set_fault(X, w, kind, lane, func, pc, addr, sp, (int)n);
  return p;
}

/* ---- frames and the reconvergence stack ------------------------------------------------- */

static int push_entry(jit_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t fr) {
  return WS_VEC_PUSH(w->stk, w->sp, w->stk_cap, ((jit_entry){pc, rpc, mask, fr})) ? -1 : 0;
}

static int grow_local(jit_warp *w, uint64_t need) {
  return ws_emu_grow_local(&w->local, &w->local_cap, w->local_top, need);
}

/* Room for `need` bytes of registers, 64-byte aligned (the lane loops'
 * vectors); the frames' offsets stay valid. */
static int grow_regs(jit_warp *w, size_t need) {
  if (need <= w->regs_cap) return 0;
  size_t c = w->regs_cap ? w->regs_cap : 4096;
  while (c < need) {
    if (c > SIZE_MAX / 2) return -1;
    c *= 2;
  }
  uint8_t *nr = aligned_alloc(64, c);
  if (!nr) return -1;
  if (w->regmem) memcpy(nr, w->regmem, w->regs_used);
  free(w->regmem);
  w->regmem = nr;
  w->regs_cap = c;
  return 0;
}

/* Push an activation of function fi (its registers' leading part zeroed,
 * its local frame zeroed, as the interpreter's push_frame). */
static int push_frame(jblock *J, jit_warp *w, uint32_t fi, uint32_t call_pc, const jit_call *cs) {
  const jit_func *jf = &J->prog->funcs[fi];
  const dfunc *df = &J->B->L->p->funcs[fi];
  size_t roff = (w->regs_used + 63) & ~(size_t)63;
  if (WS_VEC_RESERVE(w->frames, w->frames_cap, (size_t)w->nframes + 1) || grow_regs(w, roff + jf->regs_bytes))
    return -1;
  if (w->nframes > 4096 || grow_local(w, w->local_top + df->frame_bytes)) return -1;
  memset(w->regmem + roff, 0, jf->zero_bytes);
  if (df->frame_bytes)
    for (uint32_t l = 0; l < 32; l++) memset(w->local + l * w->local_cap + w->local_top, 0, df->frame_bytes);
  w->frames[w->nframes++] = (jit_frame){fi, call_pc, roff, w->local_top, cs};
  w->regs_used = roff + jf->regs_bytes;
  w->local_top += df->frame_bytes;
  return 0;
}

/* Pop the top frame; copy its return values for the lanes of mask. */
static void pop_frame(jblock *J, jit_warp *w, uint32_t mask) {
  const jit_frame *cal = &w->frames[w->nframes - 1], *caller = &w->frames[w->nframes - 2];
  const dfunc *df = &J->B->L->p->funcs[cal->func];
  for (uint32_t i = 0; cal->cs && i < cal->cs->nrets && mask; i++) {
    uint64_t sz = df->f->rets[i].size, dst = caller->local_base + cal->cs->rets[i], so = cal->local_base + df->ret_off[i];
    for (uint32_t m = mask; m; m &= m - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(m);
      memcpy(w->local + l * w->local_cap + dst, w->local + l * w->local_cap + so, sz);
    }
  }
  w->regs_used = cal->reg_off;
  w->local_top = cal->local_base;
  w->nframes--;
}

/* The interpreter's settle(): pop finished entries and frames. */
static int rt_settle(jit_ctx *X, jit_warp *w) {
  for (;;) {
    if (w->sp == 0) {
      if (w->state != JW_DONE) JB(X)->ndone++;
      w->state = JW_DONE;
      return 0;
    }
    jit_entry *t = &w->stk[w->sp - 1];
    if (t->mask != 0 && t->pc != t->rpc) return 1;
    if (t->frame) {
      uint32_t lanes = w->sp >= 2 ? w->stk[w->sp - 2].mask : 0;
      if (t->mask) return 1;
      pop_frame(JB(X), w, lanes);
    }
    w->sp--;
  }
}

static int rt_diverge(jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t rpc, uint32_t npc, uint32_t nmask,
                      uint32_t tpc, uint32_t tmask) {
  w->stk[w->sp - 1].pc = rpc;
  if (push_entry(w, npc, rpc, nmask, 0) || push_entry(w, tpc, rpc, tmask, 0)) return stack_fault(X, w, 0, func, pc);
  return JR_RELOAD;
}

/* Argument k of a call for lane l: a register, a constant or `bytes` of
 * the caller's frame. */
static uint64_t call_arg(const jit_warp *w, const jit_frame *cr, const jit_arg *a, uint32_t l, size_t bytes) {
  uint64_t v = 0;
  switch (a->kind) {
  case JA_REG32: v = ((const uint32_t *)(const void *)(w->regmem + cr->reg_off + a->off))[l]; break;
  case JA_REG64: v = ((const uint64_t *)(const void *)(w->regmem + cr->reg_off + a->off))[l]; break;
  case JA_CONST: v = a->value; break;
  default: memcpy(&v, w->local + l * w->local_cap + cr->local_base + a->off, bytes); break;
  }
  return v;
}

static int rt_call(jit_ctx *X, jit_warp *w, const jit_call *c, uint32_t m, uint32_t active, const uint64_t *target) {
  jblock *J = JB(X);
  const ws_emu_program *Pg = J->B->L->p;
  uint32_t pc = c->pc, sub = m, fi = c->callee;
  if (c->indirect) { /* split the lanes by the pointer's value */
    uint32_t f0 = (uint32_t)__builtin_ctz(m);
    uint64_t v = target[f0], rel = v - FUNC_ADDR_BASE;
    int k = (rel % 16 == 0 && rel / 16 < Pg->m->nfuncs) ? Pg->func_of_ir[rel / 16] : -1;
    if (k < 0 || Pg->funcs[k].f->nparams != c->nargs || Pg->funcs[k].f->nrets != c->nrets) {
      char msg[160];
      snprintf(msg, sizeof msg,
               k < 0 ? "indirect call to 0x%llx, which is not the address of a function"
                     : "indirect call to 0x%llx: the callee's parameters differ from the call's",
               (unsigned long long)v);
      return rt_fault(X, w, FAULT_OTHER, f0, c->func, pc, v, 0, 0, msg);
    }
    fi = (uint32_t)k;
    sub = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(mm);
      sub |= (uint32_t)(target[l] == v) << l;
    }
  }
  if (sub != active) { /* run the call for one group of lanes at a time */
    w->stk[w->sp - 1].pc = pc + 1;
    if ((m & ~sub) && push_entry(w, pc, pc + 1, m & ~sub, 0)) return stack_fault(X, w, 0, c->func, pc);
    if (push_entry(w, pc, pc + 1, sub, 0)) return stack_fault(X, w, 0, c->func, pc);
    return JR_RELOAD;
  }
  uint32_t caller = w->nframes - 1;
  w->stk[w->sp - 1].pc = pc + 1;
  if (push_frame(J, w, fi, pc, c) || push_entry(w, 0, NO_PC, m, w->nframes))
    return stack_fault(X, w, (uint32_t)__builtin_ctz(m), c->func, pc);
  /* the arguments into the callee's parameters (the interpreter's copy_args) */
  const jit_frame *cr = &w->frames[caller], *cal = &w->frames[w->nframes - 1];
  const dfunc *cf = &Pg->funcs[fi];
  for (uint32_t i = 0; i < c->nargs; i++) {
    const jit_arg *a = &c->args[i];
    uint64_t sz = cf->f->params[i].size, dsto = cal->local_base + cf->param_off[i];
    if (sz > 8 && a->kind != JA_FRAME) sz = 8;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
      uint32_t l = (uint32_t)__builtin_ctz(mm);
      uint8_t *dp = w->local + l * w->local_cap + dsto;
      if (a->kind == JA_FRAME) {
        memcpy(dp, w->local + l * w->local_cap + cr->local_base + a->off, sz);
      } else {
        uint64_t v = call_arg(w, cr, a, l, 8);
        memcpy(dp, &v, sz);
      }
    }
  }
  return JR_RELOAD;
}

/* ---- printf and assert ---------------------------------------------------------------- */

typedef struct jvpctx {
  jit_ctx *X;
  jit_warp *w;
  uint32_t lane, func, pc;
} jvpctx;

static int jvp_fetch(void *ctx, uint64_t addr, void *dst, size_t n) {
  jvpctx *c = ctx;
  for (size_t i = 0; i < n; i++) {
    uint8_t *p = rt_resolve(c->X, c->w, MS_GENERIC, addr + i, 1, c->lane, 0, c->func, c->pc);
    if (!p) return -1;
    ((uint8_t *)dst)[i] = *p;
  }
  return 0;
}

static int rt_vprintf(jit_ctx *X, jit_warp *w, const jit_call *c, uint32_t m) {
  blockctx *B = JB(X)->B;
  const jit_frame *fr = &w->frames[w->nframes - 1];
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    uint64_t fa = call_arg(w, fr, &c->args[0], l, 8), aa = call_arg(w, fr, &c->args[1], l, 8);
    jvpctx vc = {X, w, l, c->func, c->pc};
    vp_budget budget = {B->printf_bytes, WS_EMU_MAX_PRINTF_BYTES}; /* the launch's, shared (printf.c) */
    int r = ws_emu_vprintf(&B->pout, jvp_fetch, &vc, fa, aa, &budget);
    if (r == -1 && B->flt.kind) return JR_FAULT;
    if (r == -2) {
      char msg[120];
      snprintf(msg, sizeof msg, "device printf output passed the limit of %llu bytes per launch",
               (unsigned long long)WS_EMU_MAX_PRINTF_BYTES);
      return rt_fault(X, w, FAULT_OTHER, l, c->func, c->pc, 0, 0, 0, msg);
    }
    if (c->nrets) {
      int32_t rv = r;
      memcpy(w->local + l * w->local_cap + fr->local_base + c->rets[0], &rv, 4);
    }
  }
  return 0;
}

static int rt_assertfail(jit_ctx *X, jit_warp *w, const jit_call *c, uint32_t m) {
  blockctx *B = JB(X)->B;
  const jit_frame *fr = &w->frames[w->nframes - 1];
  uint32_t l = (uint32_t)__builtin_ctz(m);
  uint64_t a[5];
  for (int k = 0; k < 5; k++) a[k] = call_arg(w, fr, &c->args[k], l, k == 2 ? 4 : 8);
  char msg[120] = "", file[120] = "", fn[120] = "";
  jvpctx vc = {X, w, l, c->func, c->pc};
  for (int k = 0; k < 3; k++) {
    char *dst = k == 0 ? msg : k == 1 ? file : fn;
    uint64_t src = a[k == 0 ? 0 : k == 1 ? 1 : 3];
    for (size_t i = 0; i + 1 < 120; i++) {
      if (jvp_fetch(&vc, src + i, &dst[i], 1)) {
        dst[i] = '\0';
        memset(&B->flt, 0, sizeof B->flt); /* an unreadable string is not the fault to report */
        break;
      }
      if (!dst[i]) break;
    }
    dst[119] = 0;
  }
  set_fault(X, w, FAULT_ASSERT, l, c->func, c->pc, 0, 0, 0);
  snprintf(B->flt.msg, sizeof B->flt.msg, "device assertion '%s' failed at %s:%u in %s", msg, file, (uint32_t)a[2],
           fn);
  return JR_FAULT;
}

/* ---- barriers ----------------------------------------------------------------------------- */

/* Release every warp waiting at barrier id (and w, the warp completing
 * it, if any), delivering bar.red results (the interpreter's
 * release_barrier). */
static void release_barrier(jblock *J, uint32_t id, jit_warp *w, int red) {
  blockctx *B = J->B;
  uint32_t res = B->bar_red[id];
  B->bar_count[id] = 0;
  for (uint32_t i = 0; i < J->nwarps; i++) {
    jit_warp *x = &J->warps[i];
    if (x != w && !(x->state == JW_WAIT && x->bar_id == (int)id)) continue;
    if (red && x->bar_red) {
      uint8_t *regs = x->regmem + x->frames[x->nframes - 1].reg_off;
      uint32_t xm = x->stk[x->sp - 1].mask;
      if (x->bar_red == 2) {
        uint32_t *P = (uint32_t *)(void *)regs;
        P[x->bar_red_off] = (P[x->bar_red_off] & ~xm) | (res ? xm : 0);
      } else {
        for (uint32_t m = xm; m; m &= m - 1) {
          uint32_t l = (uint32_t)__builtin_ctz(m);
          if (x->bar_red == 1) ((uint32_t *)(void *)(regs + x->bar_red_off))[l] = res;
          else ((uint64_t *)(void *)(regs + x->bar_red_off))[l] = res;
        }
      }
    }
    if (x != w) x->state = JW_RUN;
  }
}

/* When every warp still running waits at the same all-threads barrier, the
 * warps that exited were holding it up: release it. */
static int release_after_exits(jblock *J) {
  int id = -1, red = 0;
  for (uint32_t i = 0; i < J->nwarps; i++) {
    const jit_warp *x = &J->warps[i];
    if (x->state == JW_DONE) continue;
    if (x->state != JW_WAIT || !x->bar_all || (id >= 0 && x->bar_id != id)) return 0;
    id = x->bar_id;
    red = x->bar_redop != 0;
  }
  if (id < 0) return 0;
  release_barrier(J, (uint32_t)id, NULL, red);
  return 1;
}

static int rt_bar(jit_ctx *X, jit_warp *w, const jit_bar *b, uint32_t m, uint32_t active, uint32_t id, uint32_t cnt,
                  uint32_t pv) {
  jblock *J = JB(X);
  blockctx *B = J->B;
  uint32_t l0 = (uint32_t)__builtin_ctz(m);
  (void)active;
  if (id >= 16) {
    char msg[80];
    snprintf(msg, sizeof msg, "barrier number %u is out of range (0..15)", id);
    return rt_fault(X, w, FAULT_OTHER, l0, b->func, b->pc, id, 0, 0, msg);
  }
  uint32_t expect = J->nwarps - J->ndone; /* every warp not done (a loop over the warps was 1/4 of rt_bar) */
  if (b->has_count) {
    expect = (cnt + 31) / 32;
    if (cnt % 32 || expect > J->nwarps || cnt == 0) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "barrier thread count %u must be a non-zero multiple of 32 and at most the block's %u threads", cnt,
               B->nthreads);
      return rt_fault(X, w, FAULT_OTHER, l0, b->func, b->pc, cnt, 0, 0, msg);
    }
  }
  if (b->red) {
    if (B->bar_count[id] == 0) B->bar_red[id] = b->red == 2 ? 1 : 0;
    if (b->red == 1) B->bar_red[id] += ws_popc32(pv);
    else if (b->red == 2) B->bar_red[id] &= pv == m;
    else B->bar_red[id] |= pv != 0;
  }
  B->bar_count[id]++;
  w->stk[w->sp - 1].pc = b->pc + 1;
  w->bar_id = (int)id;
  w->bar_pc = b->pc;
  w->bar_func = b->func;
  w->bar_all = !b->has_count;
  w->bar_red = b->red_kind;
  w->bar_redop = b->red;
  w->bar_red_off = b->red_off;
  if ((uint32_t)B->bar_count[id] >= expect) {
    release_barrier(J, id, w, b->red != 0);
    return 0;
  }
  if (b->arrive) return 0;
  w->state = JW_WAIT;
  return JR_YIELD;
}

/* brx.idx: one entry per distinct target, in order of the lowest lane
 * taking it; all reconverge at rpc (the interpreter's ex_brx). */
static int rt_brx(jit_ctx *X, jit_warp *w, const jit_brx *b, uint32_t m, uint32_t active, const uint64_t *idx) {
  uint32_t tgt[32], tmask[32], nt = 0;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm), ix = (uint32_t)idx[l];
    if (ix >= b->ntargets) {
      char msg[100];
      snprintf(msg, sizeof msg, "brx.idx index %u is outside its %u-entry table", ix, b->ntargets);
      return rt_fault(X, w, FAULT_OTHER, l, b->func, b->pc, ix, 0, 0, msg);
    }
    uint32_t k = 0;
    while (k < nt && tgt[k] != b->targets[ix]) k++;
    if (k == nt) {
      tgt[nt] = b->targets[ix];
      tmask[nt++] = 0;
    }
    tmask[k] |= 1u << l;
  }
  if (m != active || nt > 1) {
    w->stk[w->sp - 1].pc = b->rpc;
    if (m != active && push_entry(w, b->pc + 1, b->rpc, active & ~m, 0)) return stack_fault(X, w, 0, b->func, b->pc);
    for (uint32_t k = nt; k-- > 0;)
      if (push_entry(w, tgt[k], b->rpc, tmask[k], 0)) return stack_fault(X, w, 0, b->func, b->pc);
    return JR_RELOAD;
  }
  w->stk[w->sp - 1].pc = tgt[0];
  return 0;
}

/* ---- atomics ---------------------------------------------------------------------------------- */

/* Apply one lane's atomic at p: shared memory belongs to the worker, global
 * memory is shared by the workers (compare-and-swap), as atom_apply. */
static uint64_t atom_apply(int size, int aop, int ty, int sgn, uint8_t *p, int global, uint64_t v, uint64_t c) {
  if (!global) {
    uint64_t old = 0;
    memcpy(&old, p, (size_t)size);
    uint64_t nv = ws_emu_atom_value(size, aop, ty, sgn, old, v, c);
    memcpy(p, &nv, (size_t)size);
    return old;
  }
  if (size == 4) {
    uint32_t *q = (uint32_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
    for (;;) {
      uint32_t nv = (uint32_t)ws_emu_atom_value(size, aop, ty, sgn, old, v, c);
      if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  if (size == 8) {
    uint64_t *q = (uint64_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
    for (;;) {
      uint64_t nv = ws_emu_atom_value(size, aop, ty, sgn, old, v, c);
      if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  uint16_t *q = (uint16_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
  for (;;) {
    uint16_t nv = (uint16_t)ws_emu_atom_value(size, aop, ty, sgn, old, v, c);
    if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
  }
}

static int rt_atom(jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, int space, int size, int aop, int ty, int sgn,
                   uint32_t m, const uint64_t *addr, const uint64_t *v, const uint64_t *c, uint64_t *old) {
  blockctx *B = JB(X)->B;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    uint8_t *p = rt_resolve(X, w, space, addr[l], (uint32_t)size, l, 1, func, pc);
    if (!p) return JR_FAULT;
    int global = !(p >= B->shared && p < B->shared + B->L->shared_bytes);
    uint64_t o = atom_apply(size, aop, ty, sgn, p, global, v[l], c ? c[l] : 0);
    if (old) old[l] = o;
  }
  return 0;
}

/* ---- the per-thread stack -------------------------------------------------------------------------- */

static int rt_alloca(jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t m, const uint64_t *need,
                     uint64_t align, uint64_t *base) {
  uint64_t n = 0;
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    n = need[l] > n ? need[l] : n;
  }
  uint64_t b = (w->local_top + align - 1) / align * align;
  if (n > WS_EMU_MAX_LOCAL_BYTES || grow_local(w, b + n))
    return stack_fault(X, w, (uint32_t)__builtin_ctz(m), func, pc);
  for (uint32_t l = 0; l < 32; l++) memset(w->local + l * w->local_cap + w->local_top, 0, b + n - w->local_top);
  w->local_top = b + n;
  *base = b;
  return 0;
}

static int rt_stackrestore(jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t lane, uint64_t v) {
  const jit_frame *fr = &w->frames[w->nframes - 1];
  uint64_t lo = fr->local_base + JB(X)->B->L->p->funcs[func].frame_bytes;
  if (v < lo || v > w->local_top) {
    char msg[160];
    snprintf(msg, sizeof msg, "stackrestore to 0x%llx, outside this frame's stack (0x%llx..0x%llx)",
             (unsigned long long)v, (unsigned long long)lo, (unsigned long long)w->local_top);
    return rt_fault(X, w, FAULT_OTHER, lane, func, pc, v, MS_LOCAL, 0, msg);
  }
  w->local_top = v;
  return 0;
}

const jit_rt ws_emu_jit_rt = {rt_resolve, rt_gfind, rt_fault,   rt_limit, rt_settle, rt_diverge, rt_call,   rt_vprintf,
                              rt_assertfail, rt_bar, rt_brx, rt_atom, rt_alloca,  rt_stackrestore};

const jit_num ws_emu_jit_num = {
#define WS_JIT_NUM_ENTRY(n) ws_emu_num_##n,
    WS_JIT_NUM_FUNCS(WS_JIT_NUM_ENTRY)
#undef WS_JIT_NUM_ENTRY
};

/* ---- the block ------------------------------------------------------------------------------------- */

/* Run w until it is done, waits, yields or faults (-1). */
static int run_warp(jblock *J, jit_warp *w) {
  jit_ctx *X = &J->X;
  w->limit = ws_emu_warp_cap(J->B, w->insts);
  w->qend = w->insts + WS_EMU_QUANTUM;
  for (;;) {
    if (!rt_settle(X, w)) return 0;
    int r = J->prog->funcs[w->frames[w->nframes - 1].func].fn(X, w);
    if (r == JR_RELOAD) continue;
    return r == JR_FAULT ? -1 : 0;
  }
}

/* A warp stopped by an instruction limit while another waits at a barrier
 * is a barrier-spin deadlock (the interpreter's spin_deadlock). */
static void spin_deadlock(jblock *J, const jit_warp *spinner) {
  const jit_warp *x = NULL;
  for (uint32_t i = 0; i < J->nwarps && !x; i++)
    if (J->warps[i].state == JW_WAIT) x = &J->warps[i];
  if (x) ws_emu_spin_fault(J->B, spinner->id, x->id, x->bar_id, J->B->L->p->funcs[x->bar_func].f->insts[x->bar_pc].line);
}

/* Every live warp waits at a barrier that cannot complete: the deadlock
 * report (the interpreter's, warp by warp). */
static void deadlock(jblock *J) {
  blockctx *B = J->B;
  char *p = B->flt.msg;
  size_t left = sizeof B->flt.msg;
  jit_warp *first = NULL;
  for (uint32_t i = 0; i < J->nwarps && left > 64; i++) {
    jit_warp *w = &J->warps[i];
    int waits = w->state == JW_WAIT;
    if (waits && !first) first = w;
    if (ws_emu_deadlock_part(B->flt.msg, &p, &left, w->id, waits, w->bar_id,
                             waits ? B->L->p->funcs[w->bar_func].f->insts[w->bar_pc].line : 0))
      break;
  }
  if (first) {
    char keep[sizeof B->flt.msg];
    memcpy(keep, B->flt.msg, sizeof keep);
    set_fault(&J->X, first, FAULT_DEADLOCK, (uint32_t)__builtin_ctz(first->stk[first->sp - 1].mask | 1),
              first->bar_func, first->bar_pc, 0, 0, 0);
    memcpy(B->flt.msg, keep, sizeof keep);
  }
}

void ws_emu_jit_block_free(void *state) {
  jblock *J = state;
  if (!J) return;
  for (uint32_t i = 0; J->warps && i < J->nwarps; i++) {
    jit_warp *w = &J->warps[i];
    free(w->stk);
    free(w->frames);
    free(w->regmem);
    free(w->local);
  }
  free(J->warps);
  free(J);
}

/* The worker's state for B's launch, made on first use: the warps and
 * their thread ids (the same for every block of the launch). */
static jblock *block_state(blockctx *B) {
  if (B->jit) return B->jit;
  jblock *J = calloc(1, sizeof *J);
  if (!J) return NULL;
  const struct ws_emu_launch *L = B->L;
  J->nwarps = B->nwarps;
  J->warps = calloc(J->nwarps, sizeof *J->warps);
  if (!J->warps) {
    free(J);
    return NULL;
  }
  J->prog = L->p->jit->prog;
  for (uint32_t i = 0; i < J->nwarps; i++)
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t t = i * 32 + l;
      J->warps[i].tid[0][l] = t % L->block[0];
      J->warps[i].tid[1][l] = (t / L->block[0]) % L->block[1];
      J->warps[i].tid[2][l] = t / (L->block[0] * L->block[1]);
    }
  jit_ctx *X = &J->X;
  X->rt = &ws_emu_jit_rt;
  X->num = &ws_emu_jit_num;
  X->host = J;
  X->shared_bytes = L->shared_bytes;
  X->const_bank = L->const_bank;
  X->const_bytes = L->p->const_bytes;
  X->params = L->param_image;
  X->param_bytes = L->param_bytes;
  X->dynamic_shared = L->dynamic_shared;
  X->reserved_base = L->reserved_base;
  X->clock_per_inst = B->o->clock_per_inst;
  X->timer_ns_per_inst = B->o->timer_ns_per_inst;
  X->timer_base_ns = B->o->timer_base_ns;
  memcpy(X->ntid, L->block, sizeof X->ntid);
  memcpy(X->nctaid, L->grid, sizeof X->nctaid);
  X->nwarps = B->nwarps;
  B->jit = J;
  return J;
}

int ws_emu_jit_run_block(blockctx *B) {
  struct ws_emu_launch *L = B->L;
  jblock *J = block_state(B);
  if (!J) return -1; /* flt.kind 0: out of memory */
  J->B = B;
  jit_ctx *X = &J->X;
  uint32_t b = B->block;
  B->ctaid[0] = b % L->grid[0];
  B->ctaid[1] = (b / L->grid[0]) % L->grid[1];
  B->ctaid[2] = b / (L->grid[0] * L->grid[1]);
  memcpy(X->ctaid, B->ctaid, sizeof X->ctaid);
  X->shared = B->shared;
  memset(B->shared, 0, L->shared_bytes);
  memset(B->bar_count, 0, sizeof B->bar_count);
  memset(B->bar_red, 0, sizeof B->bar_red);
  J->ndone = 0;
  int r = 0;
  for (uint32_t i = 0; i < J->nwarps; i++) {
    jit_warp *w = &J->warps[i];
    w->id = i;
    uint32_t nt = B->nthreads - i * 32;
    w->exists = nt >= 32 ? 0xffffffffu : (1u << nt) - 1;
    w->exited = 0;
    w->state = JW_RUN;
    w->sp = 0;
    w->nframes = 0;
    w->regs_used = 0;
    w->local_top = 0;
    w->insts = 0;
    w->thread_insts = 0;
    w->bar_red = w->bar_redop = 0;
    set_gcache(w, L, (int)L->ngobjs); /* the empty object (ws_emu_launch_map) */
    memset(w->cc, 0, sizeof w->cc);
    if (push_frame(J, w, 0, 0, NULL) || push_entry(w, 0, NO_PC, w->exists, 0)) {
      set_fault(X, w, FAULT_STACK, 0, 0, 0, 0, 0, 0);
      snprintf(B->flt.msg, sizeof B->flt.msg, "the kernel's frame (%llu bytes of local memory per thread) does not fit",
               (unsigned long long)L->p->funcs[0].frame_bytes);
      return -1;
    }
  }
  for (;;) {
    int ran = 0;
    for (uint32_t i = 0; i < J->nwarps; i++) {
      jit_warp *w = &J->warps[i];
      if (w->state != JW_RUN) continue; /* done, or waiting */
      ran = 1;
      uint64_t before = w->insts;
      int rr = run_warp(J, w);
      ws_emu_count_insts(B, w->insts - before); /* cooperative launches run in the interpreter */
      if (rr) {
        if (B->flt.kind == FAULT_LIMIT) spin_deadlock(J, w); /* as the interpreter: not the launch limit */
        r = -1;
        goto out;
      }
    }
    if (J->ndone == J->nwarps) break; /* (rt_settle counts them) */
    if (!ran && release_after_exits(J)) continue;
    if (!ran) {
      deadlock(J);
      r = -1;
      goto out;
    }
  }
out:
  for (uint32_t i = 0; i < J->nwarps; i++) {
    B->warp_insts += J->warps[i].insts;
    B->thread_insts += J->warps[i].thread_insts;
  }
  return r;
}
