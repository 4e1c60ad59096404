/*
 * exec.c — the SIMT executor: runs the warps of one block.
 *
 * Each warp instruction is executed for all its active lanes in a tight
 * loop over lanes (one switch per instruction, never per lane).  Divergence
 * is handled with a reconvergence stack per warp: a divergent branch turns
 * the top entry into the reconvergence entry (pc = the branch's immediate
 * post-dominator) and pushes one entry per side; an entry is popped when its
 * pc reaches its reconvergence pc or it has no lanes left.  Calls push a
 * frame (fresh registers, a fresh local frame) and a base entry; `ret`
 * removes lanes up to the base entry, and the frame is popped when its base
 * entry is empty.  Warps of a block are scheduled round-robin; a warp runs
 * until it finishes, waits at a barrier, or uses its quantum.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "emu/num.h"
#include "util/checked.h"
#include "util/bits.h"
#include "util/vec.h"

#define QUANTUM 100000u

#define LANES(M, ...)                                        \
  do {                                                        \
    uint32_t m_ = (M);                                        \
    if (m_ == 0xffffffffu) {                                  \
      for (uint32_t l = 0; l < 32; l++) { __VA_ARGS__; }             \
    } else {                                                  \
      while (m_) {                                            \
        uint32_t l = (uint32_t)__builtin_ctz(m_);             \
        m_ &= m_ - 1;                                         \
        __VA_ARGS__;                                          \
      }                                                       \
    }                                                         \
  } while (0)

#define S(s) (R + (size_t)(s) * 32)

static inline float f32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t bf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (f != f) u = 0x7fffffffu;
  return u;
}
static inline double f64(uint64_t v) {
  double f;
  memcpy(&f, &v, 8);
  return f;
}
static inline uint64_t bf64(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  if (f != f) u = 0x7fffffffffffffffull;
  return u;
}

/* fma.rn.f32 without a libm call: the product of two floats is exact in
 * double, so d = a*b + c rounds once (to 53 bits).  Rounding d to float then
 * equals rounding the exact value unless d landed exactly on a midpoint
 * between two floats (double rounding) or the result is not a normal float;
 * those rare cases go to fmaf(). */
static inline uint64_t fma32(uint64_t a, uint64_t b, uint64_t c) {
  double d = (double)f32(a) * (double)f32(b) + (double)f32(c);
  uint64_t u;
  memcpy(&u, &d, 8);
  uint64_t e = (u >> 52) & 0x7ff;
  if ((u & 0x1fffffffull) == 0x10000000ull || e < 1023 - 126 || e > 1023 + 127)
    return bf32(fmaf(f32(a), f32(b), f32(c)));
  return bf32((float)d);
}

/* ---- memory ------------------------------------------------------------------ */

static void set_fault(blockctx *B, warp *w, uint32_t lane, const dfunc *F, uint32_t pc, int kind,
                      uint64_t addr, int space, int bytes) {
  if (B->flt.kind) return;
  B->flt.kind = kind;
  B->flt.block = B->block;
  B->flt.warp = w->id;
  B->flt.lane = lane;
  B->flt.f = F;
  B->flt.pc = pc;
  B->flt.addr = addr;
  B->flt.space = space;
  B->flt.bytes = bytes;
}

/* Host pointer for an access of n bytes at addr in space sp (MS_*), or NULL
 * after recording a fault.  *rsp receives the resolved space. */
static inline uint8_t *resolve(blockctx *B, warp *w, int sp, uint64_t addr, uint32_t n, uint32_t lane,
                               int write, const dfunc *F, uint32_t pc) {
  struct ws_emu_launch *L = B->L;
  int osp = sp;
  uint64_t a = addr;
  if (addr & (n - 1)) {
    set_fault(B, w, lane, F, pc, FAULT_MISALIGNED, addr, osp, (int)n);
    return NULL;
  }
  if (sp == MS_GENERIC) {
    uint64_t win = addr >> WIN_SHIFT;
    if (win == (SHARED_WIN >> WIN_SHIFT)) {
      sp = MS_SHARED;
      a = addr - SHARED_WIN;
    } else if (win == (LOCAL_WIN >> WIN_SHIFT)) {
      sp = MS_LOCAL;
      a = addr - LOCAL_WIN;
    } else if (win == (CONST_WIN >> WIN_SHIFT)) {
      sp = MS_CONST;
      a = addr - CONST_WIN;
    } else {
      sp = MS_GLOBAL;
    }
  }
  switch (sp) {
  case MS_GLOBAL: {
    const gobj *o = &L->gobjs[w->gcache];
    if (L->ngobjs && a - o->base < o->size && o->size - (a - o->base) >= n)
      return L->gmem[w->gcache] + (a - o->base);
    /* binary search for the last object with base <= a */
    uint32_t lo = 0, hi = L->ngobjs;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (L->gobjs[mid].base <= a) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) {
      o = &L->gobjs[lo - 1];
      if (a - o->base < o->size && o->size - (a - o->base) >= n) {
        w->gcache = (int)(lo - 1);
        if (write && o->var >= 0 && L->p->m->vars[o->var].space == WS_PTX_SP_CONST) break;
        return L->gmem[lo - 1] + (a - o->base);
      }
    }
    break;
  }
  case MS_SHARED:
    if (a < L->shared_bytes && L->shared_bytes - a >= n) return B->shared + a;
    break;
  case MS_LOCAL:
    if (a < w->local_top && w->local_top - a >= n) return w->local + lane * w->local_cap + a;
    break;
  case MS_CONST:
    if (write) {
      set_fault(B, w, lane, F, pc, FAULT_READONLY, addr, osp, (int)n);
      return NULL;
    }
    if (a < L->p->const_bytes && L->p->const_bytes - a >= n) return L->const_bank + a;
    break;
  case MS_KPARAM:
    if (write) {
      set_fault(B, w, lane, F, pc, FAULT_READONLY, addr, osp, (int)n);
      return NULL;
    }
    if (a < L->param_bytes && L->param_bytes - a >= n) return L->param_image + a;
    break;
  }
  set_fault(B, w, lane, F, pc, FAULT_OOB, addr, osp, (int)n);
  return NULL;
}

static inline uint64_t rd(const uint8_t *p, int n) {
  switch (n) {
  case 1: return *p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}

static inline void wr(uint8_t *p, int n, uint64_t v) {
  switch (n) {
  case 1: *p = (uint8_t)v; break;
  case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

/* Generic read for vprintf. */
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

/* ---- atomics ---------------------------------------------------------------- */

/* New value of an atomic op; ty: 0 int, 1 f32, 2 f64. */
static inline uint64_t atom_new(const dinst *in, uint64_t old, uint64_t v, uint64_t cmpv) {
  int bits = in->size * 8;
  uint64_t wm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  switch (in->aop) {
  case WS_PTX_MOD_ADD:
    if (in->ty == 1) return ws_emu_num_f32_add((uint32_t)old, (uint32_t)v, WS_NUM_RN, 1, 0);
    if (in->ty == 2) return ws_emu_num_f64_add(old, v, WS_NUM_RN);
    if (in->ty == 3) return ws_emu_num_f16_add((uint16_t)old, (uint16_t)v, WS_NUM_RN, 0, 0);
    if (in->ty == 4) return ws_emu_num_bf16_add((uint16_t)old, (uint16_t)v, WS_NUM_RN);
    if (in->ty == 5) return ws_emu_num_f16x2_add((uint32_t)old, (uint32_t)v, WS_NUM_RN, 0, 0);
    if (in->ty == 6) return ws_emu_num_bf16x2_add((uint32_t)old, (uint32_t)v, WS_NUM_RN);
    return (old + v) & wm;
  case WS_PTX_MOD_MIN:
    if (in->ty == 1) return ws_emu_num_f32_min((uint32_t)old, (uint32_t)v, 0, 0);
    if (in->ty == 2) return ws_emu_num_f64_min(old, v, 0);
    return ws_emu_num_min(old, v, bits, in->sgn);
  case WS_PTX_MOD_MAX:
    if (in->ty == 1) return ws_emu_num_f32_max((uint32_t)old, (uint32_t)v, 0, 0);
    if (in->ty == 2) return ws_emu_num_f64_max(old, v, 0);
    return ws_emu_num_max(old, v, bits, in->sgn);
  case WS_PTX_MOD_INC: return ((uint32_t)old >= (uint32_t)v) ? 0 : (old + 1) & wm;
  case WS_PTX_MOD_DEC: return ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)v) ? v & wm : (old - 1) & wm;
  case WS_PTX_MOD_AND: return old & v;
  case WS_PTX_MOD_OR: return old | v;
  case WS_PTX_MOD_XOR: return old ^ v;
  case WS_PTX_MOD_EXCH: return v & wm;
  case WS_PTX_MOD_CAS: return ((old & wm) == (v & wm)) ? cmpv & wm : old;
  default: return old;
  }
}

/* Apply one lane's atomic at p; shared memory is private to the worker. */
static inline uint64_t atom_apply(const dinst *in, uint8_t *p, int global, uint64_t v, uint64_t c) {
  int n = in->size;
  if (!global) {
    uint64_t old = rd(p, n);
    wr(p, n, atom_new(in, old, v, c));
    return old;
  }
  if (n == 4) {
    uint32_t *q = (uint32_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
    for (;;) {
      uint32_t nv = (uint32_t)atom_new(in, old, v, c);
      if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  if (n == 8) {
    uint64_t *q = (uint64_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
    for (;;) {
      uint64_t nv = atom_new(in, old, v, c);
      if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  uint16_t *q = (uint16_t *)(void *)p, old = __atomic_load_n(q, __ATOMIC_SEQ_CST);
  for (;;) {
    uint16_t nv = (uint16_t)atom_new(in, old, v, c);
    if (__atomic_compare_exchange_n(q, &old, nv, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
  }
}

/* ---- comparisons --------------------------------------------------------------- */

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

/* Compare for lanes m; bit l of the result (and of *hi for x2 forms: the
 * upper element's result) is the outcome of lane l. */
static uint32_t compare(const dinst *in, const uint64_t *A, const uint64_t *Bv, uint32_t m, uint32_t *hi) {
  uint32_t r = 0, h = 0;
  int sh = 64 - in->bits;
  switch (in->e) {
  case 0:
    if (in->sgn) {
#define IC(OP) LANES(m, { int64_t a = (int64_t)(A[l] << sh) >> sh, b = (int64_t)(Bv[l] << sh) >> sh; r |= (uint32_t)(a OP b) << l; })
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
#define UC(OP) LANES(m, { uint64_t a = A[l] & wm, b = Bv[l] & wm; r |= (uint32_t)(a OP b) << l; })
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
#define FC(OP) LANES(m, r |= (uint32_t)(f32(A[l]) OP f32(Bv[l])) << l)
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
  case 5:
    LANES(m, {
      unsigned x = ws_emu_num_f16x2_cmp((uint32_t)A[l], (uint32_t)Bv[l], (ws_emu_num_cmp)in->cmp, in->ftz);
      r |= (x & 1u) << l;
      h |= ((x >> 1) & 1u) << l;
    });
    break;
  default:
    LANES(m, {
      unsigned x = ws_emu_num_bf16x2_cmp((uint32_t)A[l], (uint32_t)Bv[l], (ws_emu_num_cmp)in->cmp);
      r |= (x & 1u) << l;
      h |= ((x >> 1) & 1u) << l;
    });
    break;
  }
  if (hi) *hi = h;
  return r;
}

static inline uint32_t combine(int bop, uint32_t x, uint32_t c) {
  switch (bop) {
  case 1: return x & c;
  case 2: return x | c;
  case 3: return x ^ c;
  default: return x;
  }
}

/* ---- special registers ------------------------------------------------------ */

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
  case WS_PTX_SR_CLOCK: return (uint32_t)w->insts;
  case WS_PTX_SR_CLOCK_HI: return (uint32_t)(w->insts >> 32);
  case WS_PTX_SR_CLOCK64: return w->insts;
  case WS_PTX_SR_GLOBALTIMER: return w->insts;
  case WS_PTX_SR_GLOBALTIMER_LO: return (uint32_t)w->insts;
  case WS_PTX_SR_GLOBALTIMER_HI: return (uint32_t)(w->insts >> 32);
  case WS_PTX_SR_DYNAMIC_SMEM_SIZE: return s->dynamic_shared;
  case WS_PTX_SR_TOTAL_SMEM_SIZE:
  case WS_PTX_SR_AGGR_SMEM_SIZE: return B->L->shared_bytes;
  case WS_PTX_SR_CLUSTERID: return c < 3 ? B->ctaid[c] : 0;
  case WS_PTX_SR_NCLUSTERID: return c < 3 ? s->grid[c] : 1;
  case WS_PTX_SR_CLUSTER_NCTAID: return 1;
  case WS_PTX_SR_CLUSTER_NCTARANK: return 1;
  default: return 0;
  }
}

/* ---- frames ------------------------------------------------------------------- */

/* Make room for `bytes` more local memory per lane.  Lane-major layout:
 * every lane's block moves to its new stride, so this is a copy per lane,
 * not the plain realloc of WS_VEC_RESERVE. */
static int grow_local(warp *w, uint64_t need) {
  if (need <= w->local_cap) return 0;
  uint64_t c = w->local_cap ? w->local_cap : 256;
  while (c < need) c *= 2;
  if (c > WS_EMU_MAX_LOCAL_BYTES && need <= WS_EMU_MAX_LOCAL_BYTES) c = WS_EMU_MAX_LOCAL_BYTES;
  if (c > WS_EMU_MAX_LOCAL_BYTES) return -1;
  uint8_t *n = calloc(32, c);
  if (!n) return -1;
  for (uint32_t l = 0; l < 32 && w->local; l++) memcpy(n + l * c, w->local + l * w->local_cap, w->local_top);
  free(w->local);
  w->local = n;
  w->local_cap = c;
  return 0;
}

/* Push an activation of f; returns -1 when memory runs out. */
static int push_frame(warp *w, const dfunc *f, uint32_t call_pc) {
  size_t roff = w->regs_used, poff = w->preds_used;
  if (WS_VEC_RESERVE(w->frames, w->frames_cap, w->nframes + 1) ||
      WS_VEC_RESERVE(w->regs, w->regs_cap, roff + (size_t)f->nslots * 32) ||
      WS_VEC_RESERVE(w->preds, w->preds_cap, poff + f->npreds + 1))
    return -1;
  if (w->nframes > 4096 || grow_local(w, w->local_top + f->frame_bytes)) return -1;
  uint64_t *R = w->regs + roff;
  memset(R, 0, (size_t)f->nconst_first * 32 * sizeof *R);
  for (uint32_t s = f->nconst_first; s < f->nslots; s++) {
    uint64_t v = f->const_vals[s - f->nconst_first];
    for (int l = 0; l < 32; l++) R[(size_t)s * 32 + l] = v;
  }
  memset(w->preds + poff, 0, (f->npreds + 1) * sizeof *w->preds);
  if (f->frame_bytes)
    for (uint32_t l = 0; l < 32; l++) memset(w->local + l * w->local_cap + w->local_top, 0, f->frame_bytes);
  frame *fr = &w->frames[w->nframes++];
  fr->f = f;
  fr->reg_off = roff;
  fr->pred_off = poff;
  fr->local_base = w->local_top;
  fr->call_pc = call_pc;
  w->regs_used = roff + (size_t)f->nslots * 32;
  w->preds_used = poff + f->npreds + 1;
  w->local_top += f->frame_bytes;
  return 0;
}

static int push_entry(warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t fr) {
  if (WS_VEC_PUSH(w->stk, w->sp, w->stk_cap, ((sentry){pc, rpc, mask, fr}))) return -1;
  return 0;
}

/* Pop the top frame; copy return values for the lanes in `mask`. */
static void pop_frame(warp *w, uint32_t mask) {
  frame *cal = &w->frames[w->nframes - 1], *caller = &w->frames[w->nframes - 2];
  const dfunc *cf = caller->f, *f = cal->f;
  const dinst *ci = &cf->code[cal->call_pc];
  for (uint32_t i = 0; i < ci->size && mask; i++) {
    uint32_t s = cf->vslots[ci->vbase + i];
    uint64_t sz = f->f->rets[i].size;
    if (!(s & 0x80000000u)) continue;
    uint64_t dst = caller->local_base + (s & 0x7fffffffu), srco = cal->local_base + f->ret_off[i];
    LANES(mask, memcpy(w->local + l * w->local_cap + dst, w->local + l * w->local_cap + srco, sz));
  }
  w->regs_used = cal->reg_off;
  w->preds_used = cal->pred_off;
  w->local_top = cal->local_base;
  w->nframes--;
}

/* ---- barriers ------------------------------------------------------------------ */

typedef struct barwait {
  const dinst *in;   /* the bar instruction */
  uint64_t *R;       /* its frame's registers */
  uint32_t *P;       /* and predicates */
  uint32_t m;        /* lanes that executed it */
} barwait;

/* ---- the warp loop -------------------------------------------------------------- */

static void emit(blockctx *B, warp *w, const dfunc *F, const dinst *in, uint32_t active, uint32_t m,
                 uint32_t taken, int mem) {
  ws_emu_event ev;
  memset(&ev, 0, sizeof ev);
  ev.worker = B->worker;
  ev.block_linear = B->block;
  memcpy(ev.block, B->ctaid, sizeof ev.block);
  ev.warp = w->id;
  ev.func = F->f;
  ev.pc = in->pc;
  ev.inst = in->pc < F->f->ninsts ? &F->f->insts[in->pc] : NULL;
  ev.active = active;
  ev.exec = m;
  ev.taken = taken;
  ev.bb_entry = in->bb_entry;
  if (mem) {
    int sp = in->space;
    static const uint8_t tosp[] = {WS_PTX_SP_GLOBAL, WS_PTX_SP_SHARED, WS_PTX_SP_LOCAL, WS_PTX_SP_CONST,
                                   WS_PTX_SP_PARAM, WS_PTX_SP_NONE};
    if (sp == MS_GENERIC && m) {
      uint64_t a = w->addr[__builtin_ctz(m)], win = a >> WIN_SHIFT;
      sp = win == (SHARED_WIN >> WIN_SHIFT) ? MS_SHARED : win == (LOCAL_WIN >> WIN_SHIFT) ? MS_LOCAL
           : win == (CONST_WIN >> WIN_SHIFT) ? MS_CONST : MS_GLOBAL;
    }
    ev.space = tosp[sp];
    ev.bytes = (uint8_t)(in->size * in->vec);
    ev.addr = w->addr;
  }
  B->o->hooks->inst(B->o->hooks->user, &ev);
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
 * bounds and aligned beforehand; n and st are loop-invariant, so the
 * compiler unswitches the branches out of the loop. */
static inline void warp_copy(uint8_t *mem, uint64_t delta, const uint64_t *A, uint64_t *V,
                             uint32_t n, int st, uint64_t wm) {
  for (uint32_t l = 0; l < 32; l++) lane_copy(mem + (A[l] + delta), &V[l], n, st, wm);
}

/* Warps of the block that have finished (exited or returned from the kernel). */
static uint32_t live_done(const blockctx *B) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < B->nwarps; i++) n += B->warps[i].state == WS_DONE;
  return n;
}

/* Releases every warp waiting at barrier `id` (and `w`, the warp completing
 * it, if any), delivering bar.red results when `red` is set. */
static void release_barrier(blockctx *B, uint32_t id, warp *w, int red) {
  uint32_t res = B->bar_red[id];
  B->bar_count[id] = 0;
  for (uint32_t i = 0; i < B->nwarps; i++) {
    warp *x = &B->warps[i];
    if (x != w && !(x->state == WS_WAIT && x->bar_id == (int)id)) continue;
    if (red) { /* deliver bar.red results */
      frame *xf = &x->frames[x->nframes - 1];
      const dinst *xi = &xf->f->code[x->bar_pc];
      uint64_t *XR = x->regs + xf->reg_off;
      uint32_t *XP = x->preds + xf->pred_off;
      uint32_t xm = x->stk[x->sp - 1].mask;
      if (xi->bop == 1) LANES(xm, XR[(size_t)xi->d * 32 + l] = res);
      else XP[xi->d] = (XP[xi->d] & ~xm) | (res ? xm : 0);
    }
    if (x != w) x->state = WS_RUN;
  }
}

/* When every warp still running waits at the same all-threads barrier, the
 * warps that exited were holding it up: release it.  Returns 1 if it did. */
static int release_after_exits(blockctx *B) {
  int id = -1, red = 0;
  for (uint32_t i = 0; i < B->nwarps; i++) {
    const warp *x = &B->warps[i];
    if (x->state == WS_DONE) continue;
    if (x->state != WS_WAIT || !x->bar_all || (id >= 0 && x->bar_id != id)) return 0;
    id = x->bar_id;
    red = x->bar_f->code[x->bar_pc].bop != 0;
  }
  if (id < 0) return 0;
  release_barrier(B, (uint32_t)id, NULL, red);
  return 1;
}

/* ---- the instruction families ------------------------------------------------------ */

/* What an instruction's executor sees: the block, the warp and the running
 * frame.  The control family also reads and moves pc and the active lanes
 * (run_warp copies them in and out); the other families leave them alone. */
typedef struct xctx {
  blockctx *B;            /* block */
  warp *w;                /* warp */
  const dfunc *F;         /* function of the running frame */
  uint64_t *R;            /* the frame's value slots (S() reads them) */
  uint32_t *P;            /* the frame's predicate masks */
  uint64_t lbase;         /* the frame's local-memory base */
  const ws_emu_hooks *H;  /* instruction hook, or NULL when none is attached */
  sentry *top;            /* the warp's top reconvergence entry */
  uint32_t pc;            /* control family: this instruction in, the next one out */
  uint32_t active;        /* control family: the entry's active lanes */
  uint64_t limit;         /* the count at which the warp must stop (warp_cap) */
  uint64_t qend;          /* instruction count that ends the warp's quantum */
} xctx;

/* What an instruction asks of the warp loop. */
enum {
  FL_NEXT,   /* go on with the next instruction */
  FL_JUMP,   /* go on at X->pc with X->active (the instruction reported itself) */
  FL_RELOAD, /* the reconvergence stack changed: start from its top entry */
  FL_YIELD,  /* the warp stops for now (quantum used, or waiting at a barrier) */
  FL_FAULT   /* B->flt says why */
};

/* The family executors are inlined into the warp loop: one function each
 * for the reader, one block of machine code for the CPU (called out of
 * line, the calls and the spilled context cost about 5% on bench_emu's
 * reduce6; docs/emulator.md, "Speed").
 *
 * Library forms: the families whose names end in _LIB call num.c once per
 * lane.  Inlined, the warp loop's state lives in registers that every such
 * call clobbers, so GCC spills and reloads it around each lane's call;
 * out of line it costs one call per warp instruction instead (about 1 % of
 * blackscholes' instructions, under callgrind). */
#define EXECUTOR static inline __attribute__((always_inline))
#define LIB_EXECUTOR static __attribute__((noinline))

/* Families (DF_*) of the decoded opcodes, from dops.def. */
enum {
#define F(x) DF_##x,
  F(CTRL) F(STACK) F(MOVE) F(INT) F(BITS) F(F32) F(F32_LIB) F(F64) F(F64_LIB) F(HALF_LIB) F(CMP) F(CVT) F(CVT_LIB)
  F(MEM) F(ATOM) F(WARP)
#undef F
};

static const uint8_t dop_family[D_COUNT] = {
#define D(x, f) [D_##x] = DF_##f,
#include "emu/dops.def"
#undef D
};

/* The instruction's index in its function (fault reports). */
#define PC(in) ((uint32_t)((in) - X->F->code))

/* An opcode listed in a family whose executor lacks it (a bug, never input). */
static int no_executor(const xctx *X, const dinst *in) {
  set_fault(X->B, X->w, 0, X->F, PC(in), FAULT_OTHER, 0, 0, 0);
  snprintf(X->B->flt.msg, sizeof X->B->flt.msg, "internal error: decoded opcode %d has no executor", in->op);
  return -1;
}

/* Per-lane forms: d = f(a, b), f(a, b, c) or f(a), for the lanes of m; a,
 * b, c and wm (the result width's mask) are in scope of the expression. */
#define IBIN(...)                                                  \
  {                                                                 \
    const uint64_t *A = S(in->a), *Bv = S(in->b);                   \
    uint64_t *Dd = S(in->d), wm = in->wmask;                        \
    (void)wm;                                                       \
    LANES(m, { uint64_t a = A[l], b = Bv[l]; (void)a; (void)b; Dd[l] = (__VA_ARGS__); }); \
    break;                                                          \
  }
#define ITER(...)                                                  \
  {                                                                 \
    const uint64_t *A = S(in->a), *Bv = S(in->b), *C = S(in->c);    \
    uint64_t *Dd = S(in->d), wm = in->wmask;                        \
    (void)wm;                                                       \
    LANES(m, { uint64_t a = A[l], b = Bv[l], c = C[l]; (void)c; Dd[l] = (__VA_ARGS__); }); \
    break;                                                          \
  }
#define IUN(...)                                                   \
  {                                                                 \
    const uint64_t *A = S(in->a);                                   \
    uint64_t *Dd = S(in->d), wm = in->wmask;                        \
    (void)wm;                                                       \
    LANES(m, { uint64_t a = A[l]; Dd[l] = (__VA_ARGS__); });               \
    break;                                                          \
  }

/* mov and its forms: predicates, special registers, vector pack/unpack. */
EXECUTOR int ex_move(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  switch (in->op) {
  case D_NOP:
    break;
  case D_MOV: {
    const uint64_t *A = S(in->a);
    uint64_t *Dd = S(in->d), wm = in->wmask;
    LANES(m, Dd[l] = A[l] & wm);
    break;
  }
  case D_MOV_PRED:
    if (in->a == NO_SLOT) P[in->d] = (P[in->d] & ~m) | (in->imm ? m : 0);
    else P[in->d] = (P[in->d] & ~m) | (P[in->a] & m);
    break;
  case D_MOV_SREG: {
    uint64_t *Dd = S(in->d);
    uint32_t c = in->comp ? in->comp - 1u : 0;
    if (in->imm == WS_PTX_SR_TID && c < 3) {
      const uint32_t *T = X->w->tid[c];
      LANES(m, Dd[l] = T[l]);
    } else if (in->imm == WS_PTX_SR_NTID || in->imm == WS_PTX_SR_CTAID || in->imm == WS_PTX_SR_NCTAID) {
      uint64_t v = sreg(X->B, X->w, in, 0);
      LANES(m, Dd[l] = v);
    } else {
      LANES(m, Dd[l] = sreg(X->B, X->w, in, l));
    }
    break;
  }
  case D_MOV_PACK: {
    uint64_t *Dd = S(in->d);
    const uint32_t *vs = X->F->vslots + in->vbase;
    uint64_t em = in->size >= 64 ? ~0ull : (1ull << in->size) - 1;
    LANES(m, {
      uint64_t v = 0;
      for (int e = in->vec - 1; e >= 0; e--) v = (v << in->size) | (S(vs[e])[l] & em);
      Dd[l] = v;
    });
    break;
  }
  case D_MOV_UNPACK: {
    const uint64_t *A = S(in->a);
    const uint32_t *vs = X->F->vslots + in->vbase;
    uint64_t em = in->size >= 64 ? ~0ull : (1ull << in->size) - 1;
    LANES(m, {
      uint64_t v = A[l];
      for (int e = 0; e < in->vec; e++) {
        S(vs[e])[l] = v & em;
        v = in->size >= 64 ? 0 : v >> in->size;
      }
    });
    break;
  }
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* The per-thread stack: alloca, stacksave/stackrestore, addresses of
 * .local variables. */
EXECUTOR int ex_stack(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  warp *w = X->w;
  const dfunc *F = X->F;
  switch (in->op) {
  case D_ALLOCA: { /* room for the largest request of the lanes, the same offset in each lane */
    const uint64_t *A = S(in->a);
    uint64_t need = 0, al = (uint64_t)in->imm;
    LANES(m, need = A[l] > need ? A[l] : need);
    uint64_t base = (w->local_top + al - 1) / al * al;
    if (need > WS_EMU_MAX_LOCAL_BYTES || grow_local(w, base + need)) {
      set_fault(X->B, w, (uint32_t)__builtin_ctz(m), F, PC(in), FAULT_STACK, 0, 0, 0);
      return -1;
    }
    for (uint32_t l = 0; l < 32; l++) memset(w->local + l * w->local_cap + w->local_top, 0, base + need - w->local_top);
    w->local_top = base + need;
    uint64_t *Dd = S(in->d), wm = in->wmask;
    LANES(m, Dd[l] = base & wm);
    break;
  }
  case D_STACKSAVE: {
    uint64_t *Dd = S(in->d), v = w->local_top & in->wmask;
    LANES(m, Dd[l] = v);
    break;
  }
  case D_STACKRESTORE: {
    uint64_t v = S(in->a)[__builtin_ctz(m)];
    if (v < X->lbase + F->frame_bytes || v > w->local_top) {
      set_fault(X->B, w, (uint32_t)__builtin_ctz(m), F, PC(in), FAULT_OTHER, v, MS_LOCAL, 0);
      snprintf(X->B->flt.msg, sizeof X->B->flt.msg,
               "stackrestore to 0x%llx, outside this frame's stack (0x%llx..0x%llx)", (unsigned long long)v,
               (unsigned long long)(X->lbase + F->frame_bytes), (unsigned long long)w->local_top);
      return -1;
    }
    w->local_top = v;
    break;
  }
  case D_MOV_LOCALSYM: {
    uint64_t *Dd = S(in->d), v = X->lbase + (uint64_t)in->imm;
    LANES(m, Dd[l] = v);
    break;
  }
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* addc/subc/madc: the carry flag per lane (in->carry bit 0: carry in, bit 1:
 * carry out). */
static void carry_ops(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *cc = X->w->cc;
  const uint64_t *A = S(in->a), *Bv = S(in->b);
  uint64_t *Dd = S(in->d);
  if (in->op == D_MADC) {
    const uint64_t *C = S(in->c);
    LANES(m, {
      unsigned cout = 0, cin = (in->carry & 1) ? cc[l] : 0;
      uint64_t p = in->e ? ws_emu_num_mul_hi(A[l], Bv[l], in->bits, in->sgn) : ws_emu_num_mul_lo(A[l], Bv[l], in->bits);
      Dd[l] = ws_emu_num_addc(p, C[l], cin, in->bits, &cout);
      if (in->carry & 2) cc[l] = cout;
    });
    return;
  }
  int sub = in->op == D_SUBC;
  LANES(m, {
    unsigned cout = 0, cin = (in->carry & 1) ? cc[l] : 0;
    Dd[l] = sub ? ws_emu_num_subc(A[l], Bv[l], cin, in->bits, &cout) : ws_emu_num_addc(A[l], Bv[l], cin, in->bits, &cout);
    if (in->carry & 2) cc[l] = cout;
  });
}

/* Integer arithmetic. */
EXECUTOR int ex_int(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_ADD: IBIN((a + b) & wm)
  case D_SUB: IBIN((a - b) & wm)
  case D_MUL_LO: IBIN((a * b) & wm)
  case D_MAD_LO: ITER((a * b + c) & wm)
  case D_MUL_HI:
    if (in->bits == 32) {
      if (in->sgn) IBIN((uint64_t)(uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
      IBIN(((uint64_t)(uint32_t)a * (uint32_t)b) >> 32)
    }
    IBIN(ws_emu_num_mul_hi(a, b, in->bits, in->sgn))
  case D_MUL_WIDE:
    if (in->bits == 32) {
      if (in->sgn) IBIN((uint64_t)((int64_t)(int32_t)a * (int32_t)b))
      IBIN((uint64_t)(uint32_t)a * (uint32_t)b)
    }
    IBIN(ws_emu_num_mul_wide(a, b, in->bits, in->sgn))
  case D_MAD_HI: ITER(ws_emu_num_mad_hi(a, b, c, in->bits, in->sgn, in->sat))
  case D_MAD_WIDE:
    if (in->bits == 32) {
      if (in->sgn) ITER((uint64_t)((int64_t)(int32_t)a * (int32_t)b) + c)
      ITER((uint64_t)(uint32_t)a * (uint32_t)b + c)
    }
    ITER(ws_emu_num_mad_wide(a, b, c, in->bits, in->sgn))
  case D_MUL24: IBIN(ws_emu_num_mul24((uint32_t)a, (uint32_t)b, (int)in->e, in->sgn))
  case D_MAD24: ITER(ws_emu_num_mad24((uint32_t)a, (uint32_t)b, (uint32_t)c, (int)in->e, in->sgn, in->sat))
  case D_SAD: ITER(ws_emu_num_sad(a, b, c, in->bits, in->sgn))
  case D_DIV: IBIN(ws_emu_num_div(a, b, in->bits, in->sgn))
  case D_REM: IBIN(ws_emu_num_rem(a, b, in->bits, in->sgn))
  case D_MIN:
    if (in->sgn) {
      int sh = 64 - in->bits;
      IBIN(((int64_t)(a << sh) >> sh) < ((int64_t)(b << sh) >> sh) ? a & wm : b & wm)
    }
    IBIN((a & wm) < (b & wm) ? a & wm : b & wm)
  case D_MAX:
    if (in->sgn) {
      int sh = 64 - in->bits;
      IBIN(((int64_t)(a << sh) >> sh) > ((int64_t)(b << sh) >> sh) ? a & wm : b & wm)
    }
    IBIN((a & wm) > (b & wm) ? a & wm : b & wm)
  case D_ABS: IUN(ws_emu_num_abs(a, in->bits))
  case D_NEG: IUN((0 - a) & wm)
  case D_ADD_SAT: IBIN(ws_emu_num_s32_add_sat((uint32_t)a, (uint32_t)b))
  case D_SUB_SAT: IBIN(ws_emu_num_s32_sub_sat((uint32_t)a, (uint32_t)b))
  case D_ADDC:
  case D_SUBC:
  case D_MADC:
    carry_ops(X, in, m);
    break;
  case D_DP4A: ITER(ws_emu_num_dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sgn, in->sgn_b))
  case D_DP2A: ITER(ws_emu_num_dp2a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sgn, in->sgn_b, (int)in->e))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* bmsk and szext (in->wrap: .wrap). */
static void mask_ops(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  const uint64_t *A = S(in->a), *Bv = S(in->b);
  uint64_t *Dd = S(in->d);
  if (in->op == D_BMSK) {
    LANES(m, {
      uint32_t pos = (uint32_t)A[l], len = (uint32_t)Bv[l];
      if (in->wrap) { pos &= 31; len &= 31; } else { if (pos > 32) pos = 32; if (len > 32) len = 32; }
      uint64_t mk = ((len >= 32 ? 0xffffffffull : ((1ull << len) - 1)) << pos) & 0xffffffffull;
      Dd[l] = mk;
    });
    return;
  }
  LANES(m, {
    uint32_t n = (uint32_t)Bv[l];
    if (in->wrap) n &= 31; else if (n > 32) n = 32;
    uint32_t a = (uint32_t)A[l];
    uint32_t r = n == 0 ? 0 : n >= 32 ? a : (a & ((1u << n) - 1));
    if (in->sgn && n > 0 && n < 32 && ((a >> (n - 1)) & 1)) r |= ~((1u << n) - 1);
    Dd[l] = r;
  });
}

/* Logic, shifts and bit fields. */
EXECUTOR int ex_bits(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_AND: IBIN(a & b)
  case D_OR: IBIN(a | b)
  case D_XOR: IBIN(a ^ b)
  case D_NOT: IUN(~a & wm)
  case D_CNOT: IUN((uint64_t)((a & wm) == 0))
  case D_SHL: IBIN((uint32_t)b >= in->bits ? 0 : (a << (uint32_t)b) & wm)
  case D_SHR:
    if (in->sgn) {
      int sh = 64 - in->bits;
      IBIN((uint64_t)(((int64_t)(a << sh) >> sh) >> ((uint32_t)b >= in->bits ? (uint32_t)in->bits - 1u : (uint32_t)b)) & wm)
    }
    IBIN((uint32_t)b >= in->bits ? 0 : (a & wm) >> (uint32_t)b)
  case D_POPC: IUN((uint64_t)ws_popc64(a & (in->bits >= 64 ? ~0ull : (1ull << in->bits) - 1)))
  case D_CLZ: IUN(ws_emu_num_clz(a, in->bits))
  case D_BREV: IUN(ws_emu_num_brev(a, in->bits))
  case D_BFIND: IUN(ws_emu_num_bfind(a, in->bits, in->sgn, in->shiftamt))
  case D_BFE: ITER(ws_emu_num_bfe(a, (uint32_t)b, (uint32_t)c, in->bits, in->sgn))
  case D_BFI: {
    const uint64_t *A = S(in->a), *Bv = S(in->b), *C = S(in->c), *E = S(in->e);
    uint64_t *Dd = S(in->d);
    LANES(m, Dd[l] = ws_emu_num_bfi(A[l], Bv[l], (uint32_t)C[l], (uint32_t)E[l], in->bits));
    break;
  }
  case D_PRMT: ITER(ws_emu_num_prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, (ws_emu_num_prmt_mode)in->prmt))
  case D_SHF: ITER(ws_emu_num_shf((uint32_t)a, (uint32_t)b, (uint32_t)c, in->left, (int)in->e))
  case D_LOP3: ITER(ws_emu_num_lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint8_t)in->imm))
  case D_FNS: ITER(ws_emu_num_fns((uint32_t)a, (uint32_t)b, (int32_t)(uint32_t)c))
  case D_BMSK:
  case D_SZEXT:
    mask_ops(X, in, m);
    break;
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* Single precision. */
EXECUTOR int ex_f32(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_F32_ADD: IBIN(bf32(f32(a) + f32(b)))
  case D_F32_SUB: IBIN(bf32(f32(a) - f32(b)))
  case D_F32_MUL: IBIN(bf32(f32(a) * f32(b)))
  case D_F32_FMA: ITER(fma32(a, b, c))
  /* IEEE division and square root are correctly rounded on the host */
  case D_F32_DIV_RN: IBIN(bf32(f32(a) / f32(b)))
  case D_F32_SQRT_RN: IUN(bf32(sqrtf(f32(a))))
  case D_F32_RCP_RN: IUN(bf32(1.0f / f32(a)))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* Single precision, the forms num.c computes (rounding modes, ftz, sat,
 * approximations). */
LIB_EXECUTOR int ex_f32_lib(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_F32_ADD_X: IBIN(ws_emu_num_f32_add((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->ftz, in->sat))
  case D_F32_SUB_X: IBIN(ws_emu_num_f32_sub((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->ftz, in->sat))
  case D_F32_MUL_X: IBIN(ws_emu_num_f32_mul((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->ftz, in->sat))
  case D_F32_FMA_X: ITER(ws_emu_num_f32_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, (ws_emu_num_rnd)in->rnd, in->ftz, in->sat))
  case D_F32_DIV: IBIN(ws_emu_num_f32_div((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->ftz))
  case D_F32_DIV_APPROX: IBIN(ws_emu_num_f32_div_approx((uint32_t)a, (uint32_t)b, in->ftz))
  case D_F32_DIV_FULL: IBIN(ws_emu_num_f32_div_full((uint32_t)a, (uint32_t)b, in->ftz))
  case D_F32_RCP: IUN(ws_emu_num_f32_rcp((uint32_t)a, (ws_emu_num_rnd)in->rnd, in->ftz))
  case D_F32_RCP_APPROX: IUN(ws_emu_num_f32_rcp_approx((uint32_t)a, in->ftz))
  case D_F32_SQRT: IUN(ws_emu_num_f32_sqrt((uint32_t)a, (ws_emu_num_rnd)in->rnd, in->ftz))
  case D_F32_SQRT_APPROX: IUN(ws_emu_num_f32_sqrt_approx((uint32_t)a, in->ftz))
  case D_F32_RSQRT: IUN(ws_emu_num_f32_rsqrt_approx((uint32_t)a, in->ftz))
  case D_F32_SIN: IUN(ws_emu_num_f32_sin_approx((uint32_t)a, in->ftz))
  case D_F32_COS: IUN(ws_emu_num_f32_cos_approx((uint32_t)a, in->ftz))
  case D_F32_EX2: IUN(ws_emu_num_f32_ex2_approx((uint32_t)a, in->ftz))
  case D_F32_LG2: IUN(ws_emu_num_f32_lg2_approx((uint32_t)a, in->ftz))
  case D_F32_TANH: IUN(ws_emu_num_f32_tanh_approx((uint32_t)a))
  case D_F32_MIN: IBIN(ws_emu_num_f32_min((uint32_t)a, (uint32_t)b, in->ftz, in->nan))
  case D_F32_MAX: IBIN(ws_emu_num_f32_max((uint32_t)a, (uint32_t)b, in->ftz, in->nan))
  case D_F32_ABS: IUN(ws_emu_num_f32_abs((uint32_t)a, in->ftz))
  case D_F32_NEG: IUN(ws_emu_num_f32_neg((uint32_t)a, in->ftz))
  case D_F32_COPYSIGN: IBIN(ws_emu_num_f32_copysign((uint32_t)a, (uint32_t)b))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* Double precision. */
EXECUTOR int ex_f64(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_F64_ADD: IBIN(bf64(f64(a) + f64(b)))
  case D_F64_SUB: IBIN(bf64(f64(a) - f64(b)))
  case D_F64_MUL: IBIN(bf64(f64(a) * f64(b)))
  case D_F64_FMA: ITER(bf64(fma(f64(a), f64(b), f64(c))))
  /* IEEE division and square root are correctly rounded on the host */
  case D_F64_DIV_RN: IBIN(bf64(f64(a) / f64(b)))
  case D_F64_SQRT_RN: IUN(bf64(sqrt(f64(a))))
  case D_F64_RCP_RN: IUN(bf64(1.0 / f64(a)))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* Double precision, the forms num.c computes. */
LIB_EXECUTOR int ex_f64_lib(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_F64_ADD_X: IBIN(ws_emu_num_f64_add(a, b, (ws_emu_num_rnd)in->rnd))
  case D_F64_SUB_X: IBIN(ws_emu_num_f64_sub(a, b, (ws_emu_num_rnd)in->rnd))
  case D_F64_MUL_X: IBIN(ws_emu_num_f64_mul(a, b, (ws_emu_num_rnd)in->rnd))
  case D_F64_FMA_X: ITER(ws_emu_num_f64_fma(a, b, c, (ws_emu_num_rnd)in->rnd))
  case D_F64_DIV: IBIN(ws_emu_num_f64_div(a, b, (ws_emu_num_rnd)in->rnd))
  case D_F64_RCP: IUN(ws_emu_num_f64_rcp(a, (ws_emu_num_rnd)in->rnd))
  case D_F64_RCP_APPROX: IUN(ws_emu_num_f64_rcp_approx_ftz(a))
  case D_F64_SQRT: IUN(ws_emu_num_f64_sqrt(a, (ws_emu_num_rnd)in->rnd))
  case D_F64_RSQRT: IUN(ws_emu_num_f64_rsqrt_approx(a, in->ftz))
  case D_F64_MIN: IBIN(ws_emu_num_f64_min(a, b, in->nan))
  case D_F64_MAX: IBIN(ws_emu_num_f64_max(a, b, in->nan))
  case D_F64_ABS: IUN(ws_emu_num_f64_abs(a))
  case D_F64_NEG: IUN(ws_emu_num_f64_neg(a))
  case D_F64_COPYSIGN: IBIN(ws_emu_num_f64_copysign(a, b))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* add, sub, mul of one half kind (in->ty) and operation (o: 0 add, 1 sub, 2 mul). */
static uint64_t half_arith(const dinst *in, int o, uint64_t a, uint64_t b) {
  ws_emu_num_rnd rn = (ws_emu_num_rnd)in->rnd;
  switch (in->ty * 3 + o) {
  case 0: return ws_emu_num_f16_add((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 1: return ws_emu_num_f16_sub((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 2: return ws_emu_num_f16_mul((uint16_t)a, (uint16_t)b, rn, in->ftz, in->sat);
  case 3: return ws_emu_num_bf16_add((uint16_t)a, (uint16_t)b, rn);
  case 4: return ws_emu_num_bf16_sub((uint16_t)a, (uint16_t)b, rn);
  case 5: return ws_emu_num_bf16_mul((uint16_t)a, (uint16_t)b, rn);
  case 6: return ws_emu_num_f16x2_add((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 7: return ws_emu_num_f16x2_sub((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 8: return ws_emu_num_f16x2_mul((uint32_t)a, (uint32_t)b, rn, in->ftz, in->sat);
  case 9: return ws_emu_num_bf16x2_add((uint32_t)a, (uint32_t)b, rn);
  case 10: return ws_emu_num_bf16x2_sub((uint32_t)a, (uint32_t)b, rn);
  default: return ws_emu_num_bf16x2_mul((uint32_t)a, (uint32_t)b, rn);
  }
}

static uint64_t half_fma(const dinst *in, uint64_t a, uint64_t b, uint64_t c) {
  ws_emu_num_rnd rn = (ws_emu_num_rnd)in->rnd;
  switch (in->ty) {
  case 0: return ws_emu_num_f16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, rn, in->ftz, in->sat, in->relu);
  case 1: return ws_emu_num_bf16_fma((uint16_t)a, (uint16_t)b, (uint16_t)c, rn, in->relu);
  case 2: return ws_emu_num_f16x2_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, rn, in->ftz, in->sat, in->relu);
  default: return ws_emu_num_bf16x2_fma((uint32_t)a, (uint32_t)b, (uint32_t)c, rn, in->relu);
  }
}

/* neg or abs (ab) of one half kind. */
static uint64_t half_sign(const dinst *in, int ab, uint64_t a) {
  switch (in->ty) {
  case 0: return ab ? ws_emu_num_f16_abs((uint16_t)a, in->ftz) : ws_emu_num_f16_neg((uint16_t)a, in->ftz);
  case 1: return ab ? ws_emu_num_bf16_abs((uint16_t)a) : ws_emu_num_bf16_neg((uint16_t)a);
  case 2: return ab ? ws_emu_num_f16x2_abs((uint32_t)a, in->ftz) : ws_emu_num_f16x2_neg((uint32_t)a, in->ftz);
  default: return ab ? ws_emu_num_bf16x2_abs((uint32_t)a) : ws_emu_num_bf16x2_neg((uint32_t)a);
  }
}

/* min or max (mx) of one half kind; relu clamps at zero. */
static uint64_t half_minmax(const dinst *in, int mx, uint64_t a, uint64_t b) {
  int relu = (int)in->e;
  switch (in->ty) {
  case 0: return mx ? ws_emu_num_f16_max((uint16_t)a, (uint16_t)b, in->ftz, in->nan, relu) : ws_emu_num_f16_min((uint16_t)a, (uint16_t)b, in->ftz, in->nan, relu);
  case 1: return mx ? ws_emu_num_bf16_max((uint16_t)a, (uint16_t)b, in->nan, relu) : ws_emu_num_bf16_min((uint16_t)a, (uint16_t)b, in->nan, relu);
  case 2: return mx ? ws_emu_num_f16x2_max((uint32_t)a, (uint32_t)b, in->ftz, in->nan, relu) : ws_emu_num_f16x2_min((uint32_t)a, (uint32_t)b, in->ftz, in->nan, relu);
  default: return mx ? ws_emu_num_bf16x2_max((uint32_t)a, (uint32_t)b, in->nan, relu) : ws_emu_num_bf16x2_min((uint32_t)a, (uint32_t)b, in->nan, relu);
  }
}

/* f16, bf16, f16x2, bf16x2 (in->ty selects the kind), all in num.c. */
LIB_EXECUTOR int ex_half(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_H_ADD: IBIN(half_arith(in, 0, a, b))
  case D_H_SUB: IBIN(half_arith(in, 1, a, b))
  case D_H_MUL: IBIN(half_arith(in, 2, a, b))
  case D_H_FMA: ITER(half_fma(in, a, b, c))
  case D_H_NEG: IUN(half_sign(in, 0, a))
  case D_H_ABS: IUN(half_sign(in, 1, a))
  case D_H_MIN: IBIN(half_minmax(in, 0, a, b))
  case D_H_MAX: IBIN(half_minmax(in, 1, a, b))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* setp: p (and q, the complement or an x2 form's upper element). */
EXECUTOR void setp(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  uint32_t hi = 0;
  uint32_t r = compare(in, S(in->a), S(in->b), m, &hi);
  uint32_t c = 0;
  if (in->bop) c = (in->flags & 4) ? ~P[in->c] : P[in->c];
  if (in->e >= 5) { /* x2: p gets the lower element, q the upper */
    P[in->d] = (P[in->d] & ~m) | (combine(in->bop, r, c) & m);
    if (in->d2 != NO_SLOT) P[in->d2] = (P[in->d2] & ~m) | (combine(in->bop, hi, c) & m);
    return;
  }
  if (in->d != NO_SLOT) P[in->d] = (P[in->d] & ~m) | (combine(in->bop, r, c) & m);
  if (in->d2 != NO_SLOT) P[in->d2] = (P[in->d2] & ~m) | (combine(in->bop, ~r, c) & m);
}

/* Comparison, selection, testp and predicate logic. */
EXECUTOR int ex_cmp(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  switch (in->op) {
  case D_SETP:
    setp(X, in, m);
    break;
  case D_SET: {
    uint32_t r = compare(in, S(in->a), S(in->b), m, NULL);
    uint32_t c = 0;
    if (in->bop) c = (in->flags & 4) ? ~P[in->c] : P[in->c];
    r = combine(in->bop, r, c);
    uint64_t *Dd = S(in->d);
    uint64_t tv = in->ty ? 0x3f800000u : (in->size >= 64 ? ~0ull : (1ull << in->size) - 1);
    LANES(m, Dd[l] = ((r >> l) & 1) ? tv : 0);
    break;
  }
  case D_SELP: {
    const uint64_t *A = S(in->a), *Bv = S(in->b);
    uint64_t *Dd = S(in->d);
    uint32_t c = (in->flags & 4) ? ~P[in->c] : P[in->c];
    LANES(m, Dd[l] = ((c >> l) & 1) ? A[l] : Bv[l]);
    break;
  }
  case D_SLCT: {
    const uint64_t *A = S(in->a), *Bv = S(in->b), *C = S(in->c);
    uint64_t *Dd = S(in->d);
    if (in->ty)
      LANES(m, {
        uint32_t c = (uint32_t)C[l];
        if (in->ftz && (c & 0x7f800000u) == 0) c &= 0x80000000u;
        Dd[l] = f32(c) >= 0.0f ? A[l] : Bv[l];
      });
    else
      LANES(m, Dd[l] = (int32_t)(uint32_t)C[l] >= 0 ? A[l] : Bv[l]);
    break;
  }
  case D_PAND:
  case D_POR:
  case D_PXOR: {
    uint32_t a = (in->flags & 1) ? ~P[in->a] : P[in->a], b = (in->flags & 2) ? ~P[in->b] : P[in->b];
    uint32_t r = in->op == D_PAND ? a & b : in->op == D_POR ? a | b : a ^ b;
    P[in->d] = (P[in->d] & ~m) | (r & m);
    break;
  }
  case D_PNOT:
    P[in->d] = (P[in->d] & ~m) | (~P[in->a] & m);
    break;
  case D_F32_TESTP:
  case D_F64_TESTP: {
    const uint64_t *A = S(in->a);
    uint32_t r = 0;
    if (in->op == D_F32_TESTP) LANES(m, r |= (uint32_t)ws_emu_num_f32_testp((uint32_t)A[l], (ws_emu_num_testp)in->testp) << l);
    else LANES(m, r |= (uint32_t)ws_emu_num_f64_testp(A[l], (ws_emu_num_testp)in->testp) << l);
    P[in->d] = (P[in->d] & ~m) | r;
    break;
  }
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* Conversions: cvt, cvta, isspacep. */
EXECUTOR int ex_cvt(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_CVT_INT: {
    const uint64_t *A = S(in->a);
    uint64_t *Dd = S(in->d);
    int sh = 64 - in->bits, dsh = 64 - in->size;
    uint64_t rm = in->sext ? (in->imm >= 64 ? ~0ull : (1ull << in->imm) - 1) : 0;
    LANES(m, {
      uint64_t v = in->sgn ? (uint64_t)((int64_t)(A[l] << sh) >> sh) : (A[l] & (~0ull >> sh));
      v &= in->wmask;
      if (in->sext) v = (uint64_t)((int64_t)(v << dsh) >> dsh) & rm;
      Dd[l] = v;
    });
    break;
  }
  case D_CVTA_TO:
  case D_CVTA_FROM: {
    static const uint64_t win[] = {0, SHARED_WIN, LOCAL_WIN, CONST_WIN};
    uint64_t wv = in->space < 4 ? win[in->space] : 0;
    if (in->op == D_CVTA_TO) wv = 0 - wv;
    if (in->bits == 32) IUN((a + wv) & 0xffffffffu)
    IUN(a + wv)
  }
  case D_ISSPACEP: {
    uint32_t *const P = X->P;
    const uint64_t *A = S(in->a);
    uint32_t r = 0;
    LANES(m, {
      uint64_t wv = A[l] >> WIN_SHIFT;
      int sp = wv == (SHARED_WIN >> WIN_SHIFT) ? MS_SHARED : wv == (LOCAL_WIN >> WIN_SHIFT) ? MS_LOCAL
               : wv == (CONST_WIN >> WIN_SHIFT) ? MS_CONST : MS_GLOBAL;
      r |= (uint32_t)(sp == in->space) << l;
    });
    P[in->d] = (P[in->d] & ~m) | r;
    break;
  }
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* cvt between kinds that num.c converts, and the packing conversions. */
LIB_EXECUTOR int ex_cvt_lib(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  switch (in->op) {
  case D_CVT: {
    const uint64_t *A = S(in->a);
    uint64_t *Dd = S(in->d);
    int dsh = 64 - in->size;
    LANES(m, {
      uint64_t r = ws_emu_num_cvt(A[l], (ws_emu_num_type)in->ty, (ws_emu_num_type)in->ty2, (ws_emu_num_rnd)in->rnd, in->ftz, in->sat);
      if (in->sext) r = (uint64_t)((int64_t)(r << dsh) >> dsh) & (in->imm >= 64 ? ~0ull : (1ull << in->imm) - 1);
      Dd[l] = r;
    });
    break;
  }
  case D_CVT_PACK:
    if (in->ty) IBIN(ws_emu_num_cvt_bf16x2_f32((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->relu, (int)in->e))
    IBIN(ws_emu_num_cvt_f16x2_f32((uint32_t)a, (uint32_t)b, (ws_emu_num_rnd)in->rnd, in->relu, (int)in->e))
  default:
    return no_executor(X, in);
  }
  return 0;
}

/* ld.param of a kernel parameter: one address for the warp. */
EXECUTOR int ld_kparam(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  warp *w = X->w;
  uint64_t a = (uint64_t)in->imm + S(in->a)[__builtin_ctz(m)];
  uint8_t *p = resolve(X->B, w, MS_KPARAM, a, in->size, (uint32_t)__builtin_ctz(m), 0, X->F, PC(in));
  if (!p) return -1;
  uint64_t v = rd(p, in->size);
  if (in->sgn && in->size < 8) v = (uint64_t)((int64_t)(v << (64 - 8 * in->size)) >> (64 - 8 * in->size));
  v &= in->wmask;
  uint64_t *Dd = S(X->F->vslots[in->vbase]);
  const int hooked = X->H != NULL;
  LANES(m, { Dd[l] = v; if (hooked) w->addr[l] = a; });
  return 0;
}

/* Scalar 4- or 8-byte global load or store.  Fast path: the warp's last
 * global object; anything else (another object, a fault, misalignment)
 * goes through resolve(). */
EXECUTOR int ld_st_global(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  blockctx *B = X->B;
  warp *w = X->w;
  struct ws_emu_launch *L = B->L;
  const int hooked = X->H != NULL;
  const uint64_t *A = S(in->a);
  uint64_t *V = S(X->F->vslots[in->vbase]);
  const uint32_t n = in->size;
  const uint64_t off = (uint64_t)in->imm, wm = in->wmask;
  const int st = in->op == D_ST_G;
  const gobj *o = &L->gobjs[w->gcache];
  uint64_t base = L->ngobjs ? o->base : 1, lim = L->ngobjs && o->size >= n ? o->size - n : 0;
  uint8_t *hp = L->ngobjs ? L->gmem[w->gcache] : NULL;
  if (m == 0xffffffffu && !hooked && hp) { /* whole warp in the cached object: straight loops */
    uint64_t bad = 0;
    for (uint32_t l = 0; l < 32; l++) {
      uint64_t a = A[l] + off;
      bad |= (uint64_t)((a - base) > lim) | (a & (n - 1));
    }
    if (!bad) {
      warp_copy(hp, off - base, A, V, n, st, wm);
      return 0;
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
      if (!p) return -1;
      o = &L->gobjs[w->gcache];
      base = o->base;
      lim = o->size >= n ? o->size - n : 0;
      hp = L->gmem[w->gcache];
    }
    lane_copy(p, &V[l], n, st, wm);
  });
  return 0;
}

/* Scalar 4- or 8-byte shared load or store: straight loops when the whole
 * warp is in bounds and aligned. */
EXECUTOR int ld_st_shared(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  blockctx *B = X->B;
  struct ws_emu_launch *L = B->L;
  const int hooked = X->H != NULL;
  const uint64_t *A = S(in->a);
  uint64_t *V = S(X->F->vslots[in->vbase]);
  const uint32_t n = in->size;
  const uint64_t off = (uint64_t)in->imm, wm = in->wmask;
  const uint64_t lim = L->shared_bytes >= n ? L->shared_bytes - n : 0;
  const int st = in->op == D_ST_S;
  uint8_t *const sh = B->shared;
  if (m == 0xffffffffu && !hooked && L->shared_bytes >= n) {
    uint64_t bad = 0;
    for (uint32_t l = 0; l < 32; l++) {
      uint64_t a = A[l] + off;
      bad |= (uint64_t)(a > lim) | (a & (n - 1));
    }
    if (!bad) {
      warp_copy(sh, off, A, V, n, st, wm);
      return 0;
    }
  }
  LANES(m, {
    uint64_t a = A[l] + off;
    uint8_t *p;
    if (hooked) X->w->addr[l] = a;
    if (a <= lim && L->shared_bytes >= n && !(a & (n - 1))) {
      p = sh + a;
    } else {
      p = resolve(B, X->w, MS_SHARED, a, n, l, st, X->F, PC(in));
      if (!p) return -1;
    }
    lane_copy(p, &V[l], n, st, wm);
  });
  return 0;
}

/* Any other load: any space, vectors, sign extension. */
EXECUTOR int ld_any(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = S(in->a);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t n = in->size, tot = n * in->vec;
  int sh = 64 - 8 * (int)n;
  uint64_t off = (uint64_t)in->imm + (in->frel ? X->lbase : 0);
  LANES(m, {
    uint64_t a = A[l] + off;
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(X->B, w, in->space, a, tot, l, 0, X->F, PC(in));
    if (!p) return -1;
    for (uint32_t e = 0; e < in->vec; e++) {
      uint64_t v = rd(p + e * n, (int)n);
      if (in->sgn && n < 8) v = (uint64_t)((int64_t)(v << sh) >> sh);
      S(vs[e])[l] = v & in->wmask;
    }
  });
  return 0;
}

/* Any other store. */
EXECUTOR int st_any(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = S(in->a);
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t n = in->size, tot = n * in->vec;
  uint64_t off = (uint64_t)in->imm + (in->frel ? X->lbase : 0);
  LANES(m, {
    uint64_t a = A[l] + off;
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(X->B, w, in->space, a, tot, l, 1, X->F, PC(in));
    if (!p) return -1;
    for (uint32_t e = 0; e < in->vec; e++) wr(p + e * n, (int)n, S(vs[e])[l]);
  });
  return 0;
}

/* Loads and stores. */
EXECUTOR int ex_mem(const xctx *X, const dinst *in, uint32_t m) {
  switch (in->op) {
  case D_LD_KPARAM: return ld_kparam(X, in, m);
  case D_LD_G:
  case D_ST_G: return ld_st_global(X, in, m);
  case D_LD_S:
  case D_ST_S: return ld_st_shared(X, in, m);
  case D_LD: return ld_any(X, in, m);
  case D_ST: return st_any(X, in, m);
  default: return no_executor(X, in);
  }
}

/* atom (old value to d) and red. */
EXECUTOR int ex_atom(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  blockctx *B = X->B;
  warp *w = X->w;
  const int hooked = X->H != NULL;
  const uint64_t *A = S(in->a), *V = S(in->b), *C = in->c != NO_SLOT ? S(in->c) : NULL;
  uint64_t *Dd = in->d != NO_SLOT ? S(in->d) : NULL;
  uint64_t off = (uint64_t)in->imm;
  LANES(m, {
    uint64_t a = A[l] + off;
    if (hooked) w->addr[l] = a;
    uint8_t *p = resolve(B, w, in->space, a, in->size, l, 1, X->F, PC(in));
    if (!p) return -1;
    int global = !(p >= B->shared && p < B->shared + B->L->shared_bytes);
    uint64_t old = atom_apply(in, p, global, V[l], C ? C[l] : 0);
    if (Dd) Dd[l] = old;
  });
  return 0;
}

/* shfl: d from the source lane, p (d2) whether the source lane was in range. */
static void shfl(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  const uint64_t *A = S(in->a), *Bv = S(in->b), *C = S(in->c);
  uint64_t *Dd = S(in->d);
  uint64_t tmp[32];
  uint32_t pv = 0;
  memcpy(tmp, A, sizeof tmp);
  LANES(m, {
    uint32_t bval = (uint32_t)Bv[l] & 31, c = (uint32_t)C[l];
    uint32_t seg = (c >> 8) & 31, cval = c & 31;
    int32_t maxl = (int32_t)((l & seg) | (cval & ~seg)), minl = (int32_t)(l & seg), j;
    int ok;
    switch (in->mode) {
    case 0: j = (int32_t)l - (int32_t)bval; ok = j >= maxl; break;
    case 1: j = (int32_t)l + (int32_t)bval; ok = j <= maxl; break;
    case 2: j = (int32_t)(l ^ bval); ok = j <= maxl; break;
    default: j = minl | (int32_t)(bval & ~seg); ok = j <= maxl; break;
    }
    if (!ok) j = (int32_t)l;
    Dd[l] = tmp[j & 31] & 0xffffffffu;
    pv |= (uint32_t)ok << l;
  });
  if (in->d2 != NO_SLOT) P[in->d2] = (P[in->d2] & ~m) | pv;
}

/* match.any (lanes with the same value) or match.all (every lane the same). */
static void match(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  const uint64_t *A = S(in->a);
  uint64_t *Dd = S(in->d);
  uint64_t wm = in->bits >= 64 ? ~0ull : (1ull << in->bits) - 1;
  if (in->mode) { /* all */
    int same = 1;
    uint64_t v0 = A[__builtin_ctz(m)] & wm;
    LANES(m, same &= (A[l] & wm) == v0);
    LANES(m, Dd[l] = same ? m : 0);
    if (in->d2 != NO_SLOT) P[in->d2] = (P[in->d2] & ~m) | (same ? m : 0);
    return;
  }
  uint32_t res[32];
  LANES(m, {
    uint32_t r = 0;
    for (uint32_t k = 0; k < 32; k++)
      if (((m >> k) & 1) && (A[k] & wm) == (A[l] & wm)) r |= 1u << k;
    res[l] = r;
  });
  LANES(m, Dd[l] = res[l]);
}

/* redux.sync over the lanes of m. */
static void redux(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  const uint64_t *A = S(in->a);
  uint64_t *Dd = S(in->d);
  uint32_t first = (uint32_t)__builtin_ctz(m);
  uint32_t acc = (uint32_t)A[first];
  LANES(m & (m - 1) & ~((1u << first) - 1), {
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
  LANES(m, Dd[l] = acc);
}

/* Warp-level: shuffles, votes, match, redux, activemask, elect. */
EXECUTOR int ex_warp(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  switch (in->op) {
  case D_SHFL:
    shfl(X, in, m);
    break;
  case D_VOTE: {
    uint32_t v = ((in->flags & 1) ? ~P[in->a] : P[in->a]) & m;
    switch (in->mode) {
    case 0: P[in->d] = (P[in->d] & ~m) | (v == m ? m : 0); break;
    case 1: P[in->d] = (P[in->d] & ~m) | (v ? m : 0); break;
    case 2: P[in->d] = (P[in->d] & ~m) | ((v == 0 || v == m) ? m : 0); break;
    default: {
      uint64_t *Dd = S(in->d);
      LANES(m, Dd[l] = v);
      break;
    }
    }
    break;
  }
  case D_MATCH:
    match(X, in, m);
    break;
  case D_REDUX:
    redux(X, in, m);
    break;
  case D_ACTIVEMASK: {
    uint64_t *Dd = S(in->d);
    LANES(m, Dd[l] = m);
    break;
  }
  case D_ELECT: {
    uint32_t leader = (uint32_t)__builtin_ctz(m);
    if (in->d != NO_SLOT) {
      uint64_t *Dd = S(in->d);
      LANES(m, Dd[l] = leader);
    }
    if (in->d2 != NO_SLOT) P[in->d2] = (P[in->d2] & ~m) | (1u << leader);
    break;
  }
  default:
    return no_executor(X, in);
  }
  return 0;
}

#undef IBIN
#undef ITER
#undef IUN

/* ---- control ------------------------------------------------------------------------ */

/* A stack overflow at a branch or a call (the lane is the first of m, or 0). */
static int stack_fault(const xctx *X, uint32_t lane) {
  set_fault(X->B, X->w, lane, X->F, X->pc, FAULT_STACK, 0, 0, 0);
  return FL_FAULT;
}

/* The instruction count at which w must stop at its next branch: its own
 * limit (max_warp_insts), or the count at which the launch's total would
 * pass max_launch_insts, whichever comes first; UINT64_MAX when neither
 * applies.  Loops need a branch, so checking there catches every runaway. */
static uint64_t warp_cap(const blockctx *B, const warp *w) {
  uint64_t cap = B->o->max_warp_insts ? B->o->max_warp_insts : UINT64_MAX;
  uint64_t ml = B->o->max_launch_insts;
  if (ml) {
    uint64_t used = __atomic_load_n(B->launch_insts, __ATOMIC_RELAXED), c2;
    if (ws_add_u64(&c2, w->insts, used >= ml ? 0 : ml - used)) c2 = UINT64_MAX;
    if (c2 < cap) cap = c2;
  }
  return cap;
}

/* Which limit stopped w. */
static int limit_kind(const blockctx *B, const warp *w) {
  return B->o->max_warp_insts && w->insts > B->o->max_warp_insts ? FAULT_LIMIT : FAULT_LAUNCH_LIMIT;
}

/* The warp ran past its instruction limit (checked at branches). */
EXECUTOR int over_limit(const xctx *X) {
  if (X->w->insts <= X->limit) return 0;
  set_fault(X->B, X->w, (uint32_t)__builtin_ctz(X->active), X->F, X->pc, limit_kind(X->B, X->w), 0, 0, 0);
  return 1;
}

/* bra: uniform, or divergent (the top entry becomes the reconvergence
 * entry; one entry per side is pushed). */
EXECUTOR int ex_bra(xctx *X, const dinst *in, uint32_t m) {
  warp *w = X->w;
  if (over_limit(X)) return FL_FAULT;
  if (X->H) emit(X->B, w, X->F, in, X->active, m, m, 0);
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

/* brx.idx: a multi-way branch; one entry per distinct target, in order of
 * the lowest lane taking it; all reconverge at the ipdom. */
static int ex_brx(xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  warp *w = X->w;
  if (over_limit(X)) return FL_FAULT;
  if (!m) {
    if (X->H) emit(X->B, w, X->F, in, X->active, m, 0, 0);
    X->pc++;
    return FL_JUMP;
  }
  const uint64_t *A = S(in->a);
  const uint32_t *tg = X->F->vslots + in->vbase;
  uint32_t tgt[32], tmask[32], nt = 0;
  LANES(m, {
    uint32_t ix = (uint32_t)A[l];
    if (ix >= (uint64_t)in->imm) {
      set_fault(X->B, w, l, X->F, X->pc, FAULT_OTHER, ix, 0, 0);
      snprintf(X->B->flt.msg, sizeof X->B->flt.msg, "brx.idx index %u is outside its %u-entry table", ix,
               (uint32_t)in->imm);
      return FL_FAULT;
    }
    uint32_t k = 0;
    while (k < nt && tgt[k] != tg[ix]) k++;
    if (k == nt) {
      tgt[nt] = tg[ix];
      tmask[nt++] = 0;
    }
    tmask[k] |= 1u << l;
  });
  if (X->H) emit(X->B, w, X->F, in, X->active, m, m, 0);
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

/* exit (the lanes leave every entry) and ret (they leave the entries of
 * this call). */
EXECUTOR int ex_exit_ret(xctx *X, const dinst *in, uint32_t m) {
  warp *w = X->w;
  if (X->H) emit(X->B, w, X->F, in, X->active, m, 0, 0);
  if (in->op == D_EXIT) {
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

/* The callee of call.uni (direct) or of an indirect call for the lanes
 * *sub that share the first lane's target; NULL after a fault. */
static const dfunc *callee(xctx *X, const dinst *in, uint32_t m, uint32_t *sub) {
  uint64_t *const R = X->R;
  const ws_emu_program *Pg = X->B->L->p;
  *sub = m;
  if (in->op != D_CALLI) return &Pg->funcs[in->target];
  /* the callee is a register: split lanes by its value */
  const uint64_t *A = S(in->a);
  uint32_t f0 = (uint32_t)__builtin_ctz(m);
  uint64_t v = A[f0], rel = v - FUNC_ADDR_BASE;
  int fi = (rel % 16 == 0 && rel / 16 < Pg->m->nfuncs) ? Pg->func_of_ir[rel / 16] : -1;
  if (fi < 0 || Pg->funcs[fi].f->nparams != in->vec || Pg->funcs[fi].f->nrets != in->size) {
    set_fault(X->B, X->w, f0, X->F, X->pc, FAULT_OTHER, v, 0, 0);
    snprintf(X->B->flt.msg, sizeof X->B->flt.msg,
             fi < 0 ? "indirect call to 0x%llx, which is not the address of a function"
                    : "indirect call to 0x%llx: the callee's parameters differ from the call's",
             (unsigned long long)v);
    return NULL;
  }
  *sub = 0;
  LANES(m, *sub |= (uint32_t)(A[l] == v) << l);
  return &Pg->funcs[fi];
}

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
      LANES(m, memcpy(w->local + l * w->local_cap + dsto, w->local + l * w->local_cap + so, sz));
    } else {
      LANES(m, memcpy(w->local + l * w->local_cap + dsto, &CR[(size_t)s * 32 + l], sz));
    }
  }
}

/* call and indirect call: a new frame and a base entry for the lanes. */
static int ex_call(xctx *X, const dinst *in, uint32_t m) {
  warp *w = X->w;
  uint32_t pc = X->pc, sub;
  if (X->H) emit(X->B, w, X->F, in, X->active, m, 0, 0);
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

/* One call argument of lane l: a register value or `bytes` of the frame. */
static uint64_t call_arg(const xctx *X, uint32_t slot, uint32_t l, size_t bytes) {
  uint64_t *const R = X->R;
  uint64_t v = 0;
  if (slot & 0x80000000u)
    memcpy(&v, X->w->local + l * X->w->local_cap + X->lbase + (slot & 0x7fffffffu), bytes);
  else
    v = S(slot)[l];
  return v;
}

/* __assertfail(message, file, line, function, char size): stop the launch
 * like a trap, quoting the assertion. */
static int ex_assertfail(xctx *X, const dinst *in, uint32_t m) {
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
  set_fault(B, X->w, l, X->F, X->pc, FAULT_ASSERT, 0, 0, 0);
  snprintf(B->flt.msg, sizeof B->flt.msg, "device assertion '%s' failed at %s:%u in %s", msg, file,
           (uint32_t)a[2], fn);
  return FL_FAULT;
}

/* vprintf(format, args) of each lane; the return value (if asked for) is
 * written to the frame. */
static int ex_vprintf(xctx *X, const dinst *in, uint32_t m) {
  blockctx *B = X->B;
  warp *w = X->w;
  const uint32_t *vs = X->F->vslots + in->vbase;
  uint32_t nr = in->size;
  LANES(m, {
    uint64_t fa = call_arg(X, vs[nr], l, 8), aa = call_arg(X, vs[nr + 1], l, 8);
    vpctx vc = {B, w, l, X->F, X->pc};
    vp_budget budget = {B->printf_bytes, WS_EMU_MAX_PRINTF_BYTES};
    int r = ws_emu_vprintf(&B->pout, vp_fetch_fn, &vc, fa, aa, &budget);
    if (r == -1 && B->flt.kind) return FL_FAULT;
    if (r == -2) {
      set_fault(B, w, l, X->F, X->pc, FAULT_OTHER, 0, 0, 0);
      snprintf(B->flt.msg, sizeof B->flt.msg, "device printf output passed the limit of %llu bytes per launch",
               (unsigned long long)WS_EMU_MAX_PRINTF_BYTES);
      return FL_FAULT;
    }
    if (nr && (vs[0] & 0x80000000u)) {
      int32_t rv = r;
      memcpy(w->local + l * w->local_cap + X->lbase + (vs[0] & 0x7fffffffu), &rv, 4);
    }
  });
  return FL_NEXT;
}

/* Warps bar.sync/bar.arrive waits for (b: an optional thread count), or 0
 * after a fault. */
static uint32_t bar_expect(const xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  blockctx *B = X->B;
  /* Without a thread count every warp that has not exited takes part:
   * exited threads do not hold a barrier up (PTX ISA, exit). */
  uint32_t expect = B->nwarps - live_done(B);
  if (in->b == NO_SLOT) return expect;
  uint32_t cnt = (uint32_t)S(in->b)[__builtin_ctz(m)];
  expect = (cnt + 31) / 32;
  if (cnt % 32 || expect > B->nwarps || cnt == 0) {
    set_fault(B, X->w, (uint32_t)__builtin_ctz(m), X->F, X->pc, FAULT_OTHER, cnt, 0, 0);
    snprintf(B->flt.msg, sizeof B->flt.msg,
             "barrier thread count %u must be a non-zero multiple of 32 and at most the block's %u threads", cnt,
             B->nthreads);
    return 0;
  }
  return expect;
}

/* bar.sync, bar.arrive, bar.red: arrive; wait unless the barrier completes
 * or this is an arrive. */
EXECUTOR int ex_bar(xctx *X, const dinst *in, uint32_t m) {
  uint64_t *const R = X->R;
  uint32_t *const P = X->P;
  blockctx *B = X->B;
  warp *w = X->w;
  uint32_t id = (uint32_t)S(in->a)[__builtin_ctz(m)];
  if (id >= 16) {
    set_fault(B, w, (uint32_t)__builtin_ctz(m), X->F, X->pc, FAULT_OTHER, id, 0, 0);
    snprintf(B->flt.msg, sizeof B->flt.msg, "barrier number %u is out of range (0..15)", id);
    return FL_FAULT;
  }
  uint32_t expect = bar_expect(X, in, m);
  if (!expect) return FL_FAULT;
  if (in->bop) {
    uint32_t pv = ((in->flags & 4) ? ~P[in->c] : P[in->c]) & m;
    if (B->bar_count[id] == 0) B->bar_red[id] = in->bop == 2 ? 1 : 0;
    if (in->bop == 1) B->bar_red[id] += ws_popc32(pv);
    else if (in->bop == 2) B->bar_red[id] &= pv == m;
    else B->bar_red[id] |= pv != 0;
  }
  if (X->H) emit(B, w, X->F, in, X->active, m, 0, 0);
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

/* Control: branches, exit/ret, calls, traps, barriers. */
EXECUTOR int ex_ctrl(xctx *X, const dinst *in, uint32_t m) {
  switch (in->op) {
  case D_BRA: return ex_bra(X, in, m);
  case D_BRX: return ex_brx(X, in, m);
  case D_EXIT:
  case D_RET: return ex_exit_ret(X, in, m);
  case D_TRAP:
    set_fault(X->B, X->w, (uint32_t)__builtin_ctz(m), X->F, X->pc, FAULT_TRAP, 0, 0, 0);
    return FL_FAULT;
  case D_CALL:
  case D_CALLI: return ex_call(X, in, m);
  case D_ASSERTFAIL: return ex_assertfail(X, in, m);
  case D_VPRINTF: return ex_vprintf(X, in, m);
  case D_BAR: return ex_bar(X, in, m);
  default:
    no_executor(X, in);
    return FL_FAULT;
  }
}

/* ---- the warp loop -------------------------------------------------------------------- */

/* run_FAMILY: a family's executor as the warp loop sees it (FL_*). */
#define FAMILY_RUN(f, call)                                               \
  EXECUTOR int run_##f(xctx *X, const dinst *in, uint32_t m) {            \
    return call(X, in, m) ? FL_FAULT : FL_NEXT;                           \
  }
EXECUTOR int run_CTRL(xctx *X, const dinst *in, uint32_t m) { return ex_ctrl(X, in, m); }
FAMILY_RUN(STACK, ex_stack)
FAMILY_RUN(MOVE, ex_move)
FAMILY_RUN(INT, ex_int)
FAMILY_RUN(BITS, ex_bits)
FAMILY_RUN(F32, ex_f32)
FAMILY_RUN(F32_LIB, ex_f32_lib)
FAMILY_RUN(F64, ex_f64)
FAMILY_RUN(F64_LIB, ex_f64_lib)
FAMILY_RUN(HALF_LIB, ex_half)
FAMILY_RUN(CMP, ex_cmp)
FAMILY_RUN(CVT, ex_cvt)
FAMILY_RUN(CVT_LIB, ex_cvt_lib)
FAMILY_RUN(MEM, ex_mem)
FAMILY_RUN(ATOM, ex_atom)
FAMILY_RUN(WARP, ex_warp)
#undef FAMILY_RUN

/* Runs one instruction for the lanes m (at least one, or a branch): the
 * executor of the opcode's family.  Returns FL_*.
 *
 * One switch on the opcode, generated from dops.def, not a switch on the
 * family followed by the executor's switch on the opcode: in each case the
 * opcode is known, so GCC folds the inlined executor's own switch away and
 * the case jumps straight to the instruction's code, as the single warp
 * loop before the split into executors did.  The two-level dispatch cost
 * reduce6 about 6 % of its instructions (bench_emu under callgrind,
 * docs/emulator.md, "Speed").  execute() and the executors are inlined
 * into the warp loop; out of line, the call per warp instruction cost
 * about 8 %. */
EXECUTOR int execute(xctx *X, const dinst *in, uint32_t m) {
  switch ((int)in->op) {
#define D(x, f)                                                           \
  case D_##x:                                                             \
    return run_##f(X, in, m);
#include "emu/dops.def"
#undef D
  default:
    no_executor(X, in);
    return FL_FAULT;
  }
}

/* Pops finished entries (and the frames of finished calls) off w's
 * reconvergence stack; returns 0 when the warp is done. */
static int settle(warp *w) {
  for (;;) {
    if (w->sp == 0) {
      w->state = WS_DONE;
      return 0;
    }
    sentry *t = &w->stk[w->sp - 1];
    if (t->mask != 0 && t->pc != t->rpc) return 1;
    if (t->frame) {
      uint32_t lanes = w->sp >= 2 ? w->stk[w->sp - 2].mask : 0;
      if (t->mask) return 1; /* a frame base never reconverges by pc */
      pop_frame(w, lanes);
    }
    w->sp--;
  }
}

/* Runs warp w until it is done, waits at a barrier, faults (returns -1) or
 * uses up its quantum. */
static int run_warp(blockctx *B, warp *w) {
  xctx X = {.B = B, .w = w, .limit = warp_cap(B, w), .qend = w->insts + QUANTUM};
  X.H = B->o->hooks && B->o->hooks->inst ? B->o->hooks : NULL;
reload:
  if (!settle(w)) return 0;
  frame *fr = &w->frames[w->nframes - 1];
  X.F = fr->f;
  X.R = w->regs + fr->reg_off;
  X.P = w->preds + fr->pred_off;
  X.lbase = fr->local_base;
  X.top = &w->stk[w->sp - 1];
  const dinst *code = X.F->code;
  uint32_t pc = X.top->pc, active = X.top->mask;
  const uint32_t rpc = X.top->rpc;
  for (;;) {
    if (pc == rpc) {
      X.top->pc = pc;
      goto reload;
    }
    const dinst *in = &code[pc];
    uint32_t m = active;
    if (in->guard >= 0) m &= in->gnot ? ~X.P[in->guard] : X.P[in->guard];
    w->insts++;
    w->thread_insts += ws_popc32(m);
    if (m || in->op == D_BRA || in->op == D_BRX) { /* no lane left: only branches still act */
      X.pc = pc;
      X.active = active;
      switch (execute(&X, in, m)) {
      case FL_NEXT: break;
      case FL_JUMP:
        pc = X.pc;
        active = X.active;
        continue;
      case FL_RELOAD: goto reload;
      case FL_YIELD: return 0;
      default: return -1;
      }
    }
    if (X.H) {
      int fam = dop_family[in->op];
      emit(B, w, X.F, in, active, m, 0, m && (fam == DF_MEM || fam == DF_ATOM));
    }
    pc++;
  }
}

/* A warp stopped by an instruction limit while another waits at a barrier
 * is a barrier-spin deadlock (the spinning warp waits for something the
 * waiting one would do after the barrier): say so instead of "limit". */
static void spin_deadlock(blockctx *B, const warp *spinner) {
  const warp *x = NULL;
  for (uint32_t i = 0; i < B->nwarps && !x; i++)
    if (B->warps[i].state == WS_WAIT) x = &B->warps[i];
  if (!x) return;
  const ws_ptx_inst *bi = &x->bar_f->f->insts[x->bar_pc];
  snprintf(B->flt.msg, sizeof B->flt.msg,
           "warp %u spins past the limit of %llu warp instructions (%s) while warp %u waits at barrier %d "
           "(PTX line %u)",
           spinner->id,
           (unsigned long long)(B->flt.kind == FAULT_LIMIT ? B->o->max_warp_insts : B->o->max_launch_insts),
           B->flt.kind == FAULT_LIMIT ? "--max-warp-insts" : "--max-launch-insts", x->id, x->bar_id, bi->line);
  B->flt.kind = FAULT_DEADLOCK;
}

/* Runs every warp of block B->block to completion.  Returns 0, or -1 with
 * B->flt set. */
int ws_emu_run_block(blockctx *B) {
  struct ws_emu_launch *L = B->L, *s = L;
  uint32_t b = B->block;
  B->ctaid[0] = b % s->grid[0];
  B->ctaid[1] = (b / s->grid[0]) % s->grid[1];
  B->ctaid[2] = b / (s->grid[0] * s->grid[1]);
  memset(B->shared, 0, L->shared_bytes);
  memset(B->bar_count, 0, sizeof B->bar_count);
  memset(B->bar_red, 0, sizeof B->bar_red);
  const dfunc *K = &L->p->funcs[0];
  for (uint32_t i = 0; i < B->nwarps; i++) {
    warp *w = &B->warps[i];
    w->id = i;
    uint32_t nt = B->nthreads - i * 32;
    w->exists = nt >= 32 ? 0xffffffffu : (1u << nt) - 1;
    w->exited = 0;
    w->state = WS_RUN;
    w->sp = 0;
    w->nframes = 0;
    w->regs_used = w->preds_used = 0;
    w->local_top = 0;
    w->insts = 0;
    w->thread_insts = 0;
    w->gcache = 0;
    memset(w->cc, 0, sizeof w->cc);
    for (uint32_t l = 0; l < 32; l++) {
      uint32_t t = i * 32 + l;
      w->tid[0][l] = t % s->block[0];
      w->tid[1][l] = (t / s->block[0]) % s->block[1];
      w->tid[2][l] = t / (s->block[0] * s->block[1]);
    }
    if (push_frame(w, K, 0) || push_entry(w, 0, NO_PC, w->exists, 0)) {
      set_fault(B, w, 0, K, 0, FAULT_STACK, 0, 0, 0);
      snprintf(B->flt.msg, sizeof B->flt.msg, "the kernel's frame (%llu bytes of local memory per thread) does not fit",
               (unsigned long long)K->frame_bytes);
      return -1;
    }
  }
  for (;;) {
    int ran = 0, done = 0;
    for (uint32_t i = 0; i < B->nwarps; i++) {
      warp *w = &B->warps[i];
      if (w->state == WS_DONE) {
        done++;
        continue;
      }
      if (w->state != WS_RUN) continue;
      ran = 1;
      uint64_t before = w->insts;
      int r = run_warp(B, w);
      __atomic_add_fetch(B->launch_insts, w->insts - before, __ATOMIC_RELAXED);
      if (r) {
        if (B->flt.kind == FAULT_LIMIT || B->flt.kind == FAULT_LAUNCH_LIMIT) spin_deadlock(B, w);
        goto out_fault;
      }
      if (w->state == WS_DONE) done++;
    }
    if ((uint32_t)done == B->nwarps) break;
    if (!ran && release_after_exits(B)) continue;
    if (!ran) {
      /* every live warp waits at a barrier that cannot complete */
      char *p = B->flt.msg;
      size_t left = sizeof B->flt.msg;
      warp *first = NULL;
      for (uint32_t i = 0; i < B->nwarps && left > 64; i++) {
        warp *w = &B->warps[i];
        int n;
        if (w->state == WS_WAIT) {
          const ws_ptx_inst *bi = &w->bar_f->f->insts[w->bar_pc];
          if (!first) first = w;
          n = snprintf(p, left, "%swarp %u waits at barrier %d (PTX line %u)", p == B->flt.msg ? "" : "; ",
                       w->id, w->bar_id, bi->line);
        } else {
          n = snprintf(p, left, "%swarp %u has exited", p == B->flt.msg ? "" : "; ", w->id);
        }
        if (n < 0 || (size_t)n >= left) break;
        p += n;
        left -= (size_t)n;
      }
      if (first) {
        char keep[sizeof B->flt.msg];
        memcpy(keep, B->flt.msg, sizeof keep);
        set_fault(B, first, (uint32_t)__builtin_ctz(first->stk[first->sp - 1].mask | 1), first->bar_f,
                  first->bar_pc, FAULT_DEADLOCK, 0, 0, 0);
        memcpy(B->flt.msg, keep, sizeof keep);
      }
      goto out_fault;
    }
  }
  for (uint32_t i = 0; i < B->nwarps; i++) {
    B->warp_insts += B->warps[i].insts;
    B->thread_insts += B->warps[i].thread_insts;
  }
  return 0;
out_fault:
  for (uint32_t i = 0; i < B->nwarps; i++) {
    B->warp_insts += B->warps[i].insts;
    B->thread_insts += B->warps[i].thread_insts;
  }
  return -1;
}
