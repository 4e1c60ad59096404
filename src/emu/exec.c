/*
 * exec.c — the SIMT executor: runs the warps of one block; and the
 * translation unit of the instruction set, whose decoders and executors
 * (src/emu/ops/, one file per family) it includes, with the tables that
 * dops.def generates: the dispatch switch, the decoder table, the trivial
 * decoders and the refusals.
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
#include <stdlib.h>
#include <string.h>

#include "emu/exec.h"
#include "util/bits.h"
#include "util/checked.h"
#include "util/vec.h"

/* Keep emit() and emit_run() out of line and out of GCC's interprocedural
 * analysis (noipa: their arguments stay in registers at every call site);
 * clang has no noipa, noinline is its nearest. */
#if defined(__has_attribute)
#if __has_attribute(noipa)
#define WS_NOIPA __attribute__((noipa))
#endif
#endif
#ifndef WS_NOIPA
#define WS_NOIPA __attribute__((noinline))
#endif

#define QUANTUM WS_EMU_QUANTUM

/* ---- frames ------------------------------------------------------------------- */

int ws_emu_grow_local(uint8_t **local, uint64_t *cap, uint64_t top, uint64_t need) {
  if (need <= *cap) return 0;
  uint64_t c = *cap ? *cap : 256;
  while (c < need) c *= 2;
  if (c > WS_EMU_MAX_LOCAL_BYTES && need <= WS_EMU_MAX_LOCAL_BYTES) c = WS_EMU_MAX_LOCAL_BYTES;
  if (c > WS_EMU_MAX_LOCAL_BYTES) return -1;
  uint8_t *n = calloc(32, c);
  if (!n) return -1;
  for (uint32_t l = 0; l < 32 && *local; l++) memcpy(n + l * c, *local + l * *cap, top);
  free(*local);
  *local = n;
  *cap = c;
  return 0;
}

uint64_t ws_emu_atom_value(int size, int aop, int ty, int sgn, uint64_t old, uint64_t v, uint64_t cmpv) {
  int bits = size * 8;
  uint64_t wm = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  switch (aop) {
  case WS_PTX_MOD_ADD:
    switch (ty) {
    case 1: return ws_emu_num_f32_add((uint32_t)old, (uint32_t)v, WS_NUM_RN, 1, 0);
    case 2: return ws_emu_num_f64_add(old, v, WS_NUM_RN);
    case 3 + HK_F16: return ws_emu_num_f16_add((uint16_t)old, (uint16_t)v, WS_NUM_RN, 0, 0);
    case 3 + HK_BF16: return ws_emu_num_bf16_add((uint16_t)old, (uint16_t)v, WS_NUM_RN);
    case 3 + HK_F16X2: return ws_emu_num_f16x2_add((uint32_t)old, (uint32_t)v, WS_NUM_RN, 0, 0);
    case 3 + HK_BF16X2: return ws_emu_num_bf16x2_add((uint32_t)old, (uint32_t)v, WS_NUM_RN);
    default: return (old + v) & wm;
    }
  case WS_PTX_MOD_MIN:
    if (ty == 1) return ws_emu_num_f32_min((uint32_t)old, (uint32_t)v, 0, 0);
    if (ty == 2) return ws_emu_num_f64_min(old, v, 0);
    return ws_emu_num_min(old, v, bits, sgn);
  case WS_PTX_MOD_MAX:
    if (ty == 1) return ws_emu_num_f32_max((uint32_t)old, (uint32_t)v, 0, 0);
    if (ty == 2) return ws_emu_num_f64_max(old, v, 0);
    return ws_emu_num_max(old, v, bits, sgn);
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

static int grow_local(warp *w, uint64_t need) {
  return ws_emu_grow_local(&w->local, &w->local_cap, w->local_top, need);
}

static int push_frame(warp *w, const dfunc *f, uint32_t call_pc) {
  size_t roff = w->regs_used, poff = w->preds_used;
  if (WS_VEC_RESERVE(w->frames, w->frames_cap, w->nframes + 1) ||
      WS_VEC_RESERVE(w->regs, w->regs_cap, roff + (size_t)f->nslots * 32) ||
      WS_VEC_RESERVE(w->preds, w->preds_cap, poff + f->npreds + 1))
    return -1;
  if (w->nframes > 4096 || grow_local(w, w->local_top + f->frame_bytes)) return -1;
  uint64_t *R = w->regs + roff;
  /* only the registers a lane may read before writing them are cleared
   * (dfunc.zero_slots); the kernel's frame keeps its constants from the
   * warp's previous block */
  for (uint32_t i = 0; i < f->nzero; i++) memset(R + (size_t)f->zero_slots[i] * 32, 0, 32 * sizeof *R);
  if (roff != 0 || w->consts_of != f) {
    for (uint32_t s = f->nconst_first; s < f->nslots; s++) {
      uint64_t v = f->const_vals[s - f->nconst_first];
      for (int l = 0; l < 32; l++) R[(size_t)s * 32 + l] = v;
    }
    w->consts_of = roff == 0 ? f : w->consts_of;
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

static uint32_t live_done(const blockctx *B) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < B->nwarps; i++) n += B->warps[i].state == WS_DONE;
  return n;
}

/* Releases every warp waiting at barrier `id` (and `w`, the warp completing
 * it, if any), delivering bar.red results when `red` is set. */
static void release_barrier(blockctx *B, uint32_t id, warp *w, int red) {
  uint32_t res = B->bar_red[id];
  B->progress++;
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

/* ---- hooks and limits ------------------------------------------------------------- */

/* The block's fields of B->ev are set when the block starts
 * (ws_emu_block_start), the warp's and the function's when run_warp
 * (re)loads the warp's frame (they change nowhere else); the others here,
 * every one of them each time.  Six arguments, all in registers (noipa:
 * GCC would otherwise pass the instruction's fields one by one, on the stack). */
static inline ws_emu_event *fill(const xctx *X, const dinst *in, uint32_t active, uint32_t m, uint32_t taken,
                                 uint32_t count) {
  ws_emu_event *ev = &X->B->ev;
  const ws_ptx_function *f = ev->func;
  ev->pc = in->pc;
  ev->inst = in->pc < f->ninsts ? &f->insts[in->pc] : NULL;
  ev->active = active;
  ev->exec = m;
  ev->taken = taken;
  ev->bb_entry = in->bb_entry;
  ev->space = 0;
  ev->bytes = 0;
  ev->addr = NULL;
  ev->count = count;
  return ev;
}

WS_NOIPA static void emit(const xctx *X, const dinst *in, uint32_t active, uint32_t m, uint32_t taken,
                                         int mem) {
  ws_emu_event *ev = fill(X, in, active, m, taken, 1);
  if (mem) {
    static const uint8_t tosp[] = {WS_PTX_SP_GLOBAL, WS_PTX_SP_SHARED, WS_PTX_SP_LOCAL, WS_PTX_SP_CONST,
                                   WS_PTX_SP_PARAM, WS_PTX_SP_NONE};
    const warp *w = X->w;
    int sp = in->space == MS_GENERIC && m ? generic_space(w->addr[__builtin_ctz(m)]) : in->space;
    ev->space = tosp[sp];
    ev->bytes = (uint8_t)(in->size * in->vec);
    ev->addr = w->addr;
  }
  X->H->inst(X->H->user, ev);
}

/* The event of n instructions of a run of plain ones (hooks->runs), the
 * first at `in` (dinst.run; docs/emulator.md, "Profiler hooks"). */
WS_NOIPA static void emit_run(const xctx *X, const dinst *in, uint32_t active, uint32_t n) {
  X->H->inst(X->H->user, fill(X, in, active, active, 0, n));
}

static int limit_kind(const blockctx *B, const warp *w) {
  return B->o->max_warp_insts && w->insts > B->o->max_warp_insts ? FAULT_LIMIT : FAULT_LAUNCH_LIMIT;
}

/* ---- spin points of cooperative launches ----------------------------------------------- */

/* After a load that may be a spin on another block's write (ld.acquire,
 * ld.volatile, ld.relaxed with a scope; an atom) in a cooperative launch
 * (docs/emulator.md, "Cooperative launches"): the warp yields so that the
 * grid's other blocks run, remembering what it loaded (n values from the
 * slots at vs, or the one slot d) to tell a spin that sees something new
 * from one that cannot end.  Emits the instruction to the hooks itself. */
static int spin_point(const xctx *X, const dinst *in, uint32_t m, const uint32_t *vs, uint32_t n, int mem) {
  warp *w = X->w;
  uint64_t sig = 1469598103934665603ull;
  for (uint32_t e = 0; e < n; e++) {
    const uint64_t *V = lanes(X, vs[e]);
    LANES(m, sig = (sig ^ V[l] ^ ((uint64_t)l << 56)) * 1099511628211ull);
  }
  uint32_t pc = (uint32_t)(in - X->F->code);
  w->spin = w->spin_pc == pc && w->spin_sig == sig ? 1 : 2;
  w->spin_pc = pc;
  w->spin_sig = sig;
  if (X->H) emit(X, in, X->active, m, 0, mem);
  X->top->pc = pc + 1;
  return FL_YIELD;
}

/* ---- the instruction set ------------------------------------------------------------ */

#include "emu/ops/ctrl.h"
#include "emu/ops/stack.h"
#include "emu/ops/move.h"
#include "emu/ops/int.h"
#include "emu/ops/bits.h"
#include "emu/ops/f32.h"
#include "emu/ops/f64.h"
#include "emu/ops/half.h"
#include "emu/ops/cmp.h"
#include "emu/ops/cvt.h"
#include "emu/ops/mem.h"
#include "emu/ops/atom.h"
#include "emu/ops/warp.h"
#include "emu/ops/mbar.h"
#include "emu/ops/async.h"
#include "emu/ops/mma.h"
#include "emu/ops/tex.h"

/* The trivial decoders (dops.def forms ZERO, DST, UN, BIN, TER). */
#define GEN_SEL(n)
#define GEN_ZERO(n) DECODER(gen_##n) { (void)D; (void)in; (void)T; di->op = D_##n; return WS_OK; }
#define GEN_DST(n) DECODER(gen_##n) { (void)T; di->op = D_##n; DST(0); return WS_OK; }
#define GEN_UN(n) DECODER(gen_##n) { int t = T->t; UN(n); }
#define GEN_BIN(n) DECODER(gen_##n) { int t = T->t; BIN(n); }
#define GEN_TER(n) DECODER(gen_##n) { int t = T->t; TER(n); }
#define D(n, family, ptx, form) GEN_##form(n)
#include "emu/dops.def"

/* The decoder of each PTX opcode (NULL: refused).  A PTX opcode listed
 * twice is a build error (-Woverride-init). */
#define TAB_SEL(n, ptx)
#define TAB_ZERO(n, ptx) [WS_PTX_OP_##ptx] = dec_gen_##n,
#define TAB_DST TAB_ZERO
#define TAB_UN TAB_ZERO
#define TAB_BIN TAB_ZERO
#define TAB_TER TAB_ZERO
static dec_fn *const decoders[WS_PTX_OP_COUNT] = {
#define D(n, family, ptx, form) TAB_##form(n, ptx)
#define PTX(op, fn) [WS_PTX_OP_##op] = dec_##fn,
#include "emu/dops.def"
};

/* Why the emulator refuses each refused opcode. */
static const char *const refusals[WS_PTX_OP_COUNT] = {
#define REFUSED(op, why) [WS_PTX_OP_##op] = why,
#include "emu/dops.def"
};

dec_fn *ws_emu_decoder(ws_ptx_opcode op) {
  return (unsigned)op < WS_PTX_OP_COUNT ? decoders[op] : NULL;
}

int ws_emu_opcode_supported(ws_ptx_opcode op, const char **why) {
  if (why) *why = NULL;
  if (op <= WS_PTX_OP_NONE || op >= WS_PTX_OP_COUNT) return -1;
  if (decoders[op] && refusals[op]) return -2; /* dops.def contradicts itself */
  if (decoders[op]) return 1;
  if (!refusals[op]) return -1;
  if (why) *why = refusals[op];
  return 0;
}

/* Families (DF_*) of the decoded opcodes, from dops.def: the hooks report
 * the addresses of the memory and atomic families. */
enum { DF_CTRL, DF_STACK, DF_MOVE, DF_INT, DF_BITS, DF_F32, DF_F64, DF_HALF, DF_CMP, DF_CVT, DF_MEM, DF_ATOM, DF_WARP,
       DF_ASYNC, DF_MBAR, DF_MMA, DF_TEX };
static const uint8_t dop_family[D_COUNT] = {
#define D(x, family, ptx, form) [D_##x] = DF_##family,
#include "emu/dops.def"
};

int ws_emu_dop_reports_addrs(int op) {
  return (unsigned)op < D_COUNT && (dop_family[op] == DF_MEM || dop_family[op] == DF_ATOM);
}

/* The families whose executors only compute on registers (lanes of one
 * warp included: shfl, vote, the matrix instructions), returning FL_NEXT
 * or FL_FAULT; their memory forms (wmma.load, ldmatrix, ...) set hookmem
 * and are kept out by mark_runs (load.c).  Not CTRL (pc, lanes, barriers,
 * calls), STACK (the frame), MEM, ATOM, ASYNC, MBAR (memory, waits that
 * yield), TEX, nor D_NOP (membar, fence, prefetch, bar.warp.sync: reported
 * one by one as the instructions they stand for). */
int ws_emu_dop_plain(int op) {
  if ((unsigned)op >= D_COUNT || op == D_NOP) return 0;
  switch (dop_family[op]) {
  case DF_MOVE: case DF_INT: case DF_BITS: case DF_F32: case DF_F64: case DF_HALF: case DF_CMP: case DF_CVT:
  case DF_WARP: case DF_MMA:
    return 1;
  default: return 0;
  }
}

/* Runs one instruction for the lanes m (at least one, or a branch): its
 * executor.  Returns FL_*.
 *
 * One switch on the opcode, generated from dops.def; each case is its
 * executor, inlined (EXEC), so the machine code is one jump table into one
 * block per opcode, as a single hand-written loop would be.  A switch on
 * the family followed by a switch on the opcode cost reduce6 about 6 % of
 * its instructions (bench_emu under callgrind, docs/emulator.md, "Speed");
 * execute() is inlined into the warp loop too (out of line, the call per
 * warp instruction cost about 8 %). */
EXECUTOR int execute(xctx *X, const dinst *in, uint32_t m) {
  switch ((int)in->op) {
#define D(x, family, ptx, form) \
  case D_##x:                   \
    return x_##x(X, in, m);
#include "emu/dops.def"
  default:
    set_fault(X->B, X->w, 0, X->F, PC(in), FAULT_OTHER, 0, 0, 0);
    snprintf(X->B->flt.msg, sizeof X->B->flt.msg, "internal error: decoded opcode %d has no executor", in->op);
    return FL_FAULT;
  }
}

/* ---- the warp loop -------------------------------------------------------------------- */

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
      uint32_t lanes_below = w->sp >= 2 ? w->stk[w->sp - 2].mask : 0;
      if (t->mask) return 1; /* a frame base never reconverges by pc */
      pop_frame(w, lanes_below);
    }
    w->sp--;
  }
}
/* Runs warp w until it is done, waits at a barrier, faults (returns -1) or
 * uses up its quantum.
 *
 * With GCC on x86-64 the warp loop (with every executor it inlines) is
 * compiled twice, for baseline x86-64 and for x86-64-v3 (AVX2: four 64-bit
 * lanes per vector instruction, 64-bit compares and multiplies by
 * constants, POPCNT), and the loader picks the one the CPU runs (an
 * ifunc): a portable build needs no -march (docs/emulator.md, "Speed"). */
WS_CLONES_V3
static int run_warp(blockctx *B, warp *w) {
  xctx X = {.B = B, .w = w, .limit = ws_emu_warp_cap(B, w->insts), .qend = w->insts + QUANTUM};
  w->spin = 0; /* set again if this run ends at a wait that has not completed */
  X.H = B->o->hooks && B->o->hooks->inst ? B->o->hooks : NULL;
  /* With hooks->runs, a run of plain instructions is one event, emitted
   * once its last instruction has run (no other warp runs in between, so
   * the hook sees the same order of instructions) from its first pc,
   * run_pc; NO_PC: no run under way.  A fault inside a run emits the
   * instructions before it, as one event each would have.  A warp starts
   * and resumes only at a run's first instruction (load.c, mark_runs), but
   * one entering a run in the middle would emit its remainder. */
  const uint32_t runs = X.H && X.H->runs ? 0xffffffffu : 0;
  uint32_t run_pc = NO_PC;
reload:
  if (!settle(w)) return 0;
  frame *fr = &w->frames[w->nframes - 1];
  X.F = fr->f;
  X.R = w->regs + fr->reg_off;
  X.P = w->preds + fr->pred_off;
  X.lbase = fr->local_base;
  if (X.H) B->ev.warp = w->id, B->ev.func = X.F->f; /* the event's, until the next reload (emit()) */
  X.top = &w->stk[w->sp - 1];
  const dinst *code = X.F->code;
  uint32_t pc = X.top->pc, active = X.top->mask;
  const uint32_t rpc = X.top->rpc;
  for (;;) {
    if (pc == rpc) {
      if (run_pc != NO_PC) { /* (never: a reconvergence pc starts a run) */
        emit_run(&X, &code[run_pc], active, pc - run_pc);
        run_pc = NO_PC;
      }
      X.top->pc = pc;
      goto reload;
    }
    const dinst *in = &code[pc];
    uint32_t m = active;
    if (in->guard >= 0) m &= in->gnot ? ~X.P[in->guard] : X.P[in->guard];
    w->insts++;
    w->thread_insts += ws_lanes32(m);
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
      default:
        if (run_pc != NO_PC) emit_run(&X, &code[run_pc], active, pc - run_pc);
        return -1;
      }
    }
    if (X.H) {
      if (!(in->run & runs)) {
        emit(&X, in, active, m, 0, m && in->hookmem);
      } else {
        if (run_pc == NO_PC) run_pc = pc;
        if (in->run == 1) {
          emit_run(&X, &code[run_pc], active, pc + 1 - run_pc);
          run_pc = NO_PC;
        }
      }
    }
    pc++;
  }
}

/* A warp stopped by an instruction limit while another waits at a barrier
 * is a barrier-spin deadlock (the spinning warp waits for something the
 * waiting one would do after the barrier): say so instead of "limit". */
void ws_emu_spin_fault(blockctx *B, uint32_t spinner, uint32_t waiter, int bar, uint32_t line) {
  snprintf(B->flt.msg, sizeof B->flt.msg,
           "warp %u spins past the limit of %llu warp instructions (--max-warp-insts) while warp %u waits at "
           "barrier %d (PTX line %u)",
           spinner, (unsigned long long)B->o->max_warp_insts, waiter, bar, line);
  B->flt.kind = FAULT_SPIN_DEADLOCK;
}

int ws_emu_deadlock_part(const char *start, char **p, size_t *left, uint32_t warp_id, int waits, int bar,
                         uint32_t line) {
  const char *sep = *p == start ? "" : "; ";
  int n = waits ? snprintf(*p, *left, "%swarp %u waits at barrier %d (PTX line %u)", sep, warp_id, bar, line)
                : snprintf(*p, *left, "%swarp %u has exited", sep, warp_id);
  if (n < 0 || (size_t)n >= *left) return -1;
  *p += n;
  *left -= (size_t)n;
  return 0;
}

static void spin_deadlock(blockctx *B, const warp *spinner) {
  const warp *x = NULL;
  for (uint32_t i = 0; i < B->nwarps && !x; i++)
    if (B->warps[i].state == WS_WAIT) x = &B->warps[i];
  if (x) ws_emu_spin_fault(B, spinner->id, x->id, x->bar_id, x->bar_f->f->insts[x->bar_pc].line);
}

/* Every warp still running spins at an mbarrier wait or waits at a
 * barrier, and a round of them changed no mbarrier: nothing can complete
 * the waits.  Records the deadlock, naming every warp. */
static void spin_stuck(blockctx *B) {
  char *p = B->flt.msg;
  size_t left = sizeof B->flt.msg;
  warp *first = NULL;
  int n = snprintf(p, left, "mbarrier wait that cannot complete: ");
  p += n;
  left -= (size_t)n;
  const char *start = p; /* the list of warps (ws_emu_deadlock_part's parts, and the spinning ones) */
  for (uint32_t i = 0; i < B->nwarps && left > 64; i++) {
    warp *w = &B->warps[i];
    if (w->state == WS_DONE || w->state == WS_WAIT) {
      int waits = w->state == WS_WAIT;
      if (ws_emu_deadlock_part(start, &p, &left, w->id, waits, w->bar_id,
                               waits ? w->bar_f->f->insts[w->bar_pc].line : 0))
        break;
      continue;
    }
    const dfunc *f = w->frames[w->nframes - 1].f;
    uint32_t pc = w->stk[w->sp - 1].pc - 1;
    if (!first) first = w;
    n = snprintf(p, left, "%swarp %u waits on an mbarrier phase that never completes (PTX line %u)",
                 p == start ? "" : "; ", w->id, pc < f->f->ninsts ? f->f->insts[pc].line : 0);
    if (n < 0 || (size_t)n >= left) break;
    p += n;
    left -= (size_t)n;
  }
  char keep[sizeof B->flt.msg];
  memcpy(keep, B->flt.msg, sizeof keep);
  if (first) {
    const dfunc *f = first->frames[first->nframes - 1].f;
    set_fault(B, first, (uint32_t)__builtin_ctz(first->stk[first->sp - 1].mask | 1), f,
              first->stk[first->sp - 1].pc - 1, FAULT_DEADLOCK, 0, 0, 0);
  }
  memcpy(B->flt.msg, keep, sizeof keep);
}

/* Sets block B->block up: its coordinates, shared memory, warps and their
 * first frames.  Returns 0, or -1 with B->flt set. */
int ws_emu_block_start(blockctx *B) {
  struct ws_emu_launch *L = B->L, *s = L;
  uint32_t b = B->block;
  B->ctaid[0] = b % s->grid[0];
  B->ctaid[1] = (b / s->grid[0]) % s->grid[1];
  B->ctaid[2] = b / (s->grid[0] * s->grid[1]);
  memset(&B->ev, 0, sizeof B->ev); /* the hooks' event: this block's fields (emit() sets the rest) */
  B->ev.worker = B->worker;
  B->ev.block_linear = b;
  memcpy(B->ev.block, B->ctaid, sizeof B->ev.block);
  memset(B->shared, 0, L->shared_bytes);
  memset(B->bar_count, 0, sizeof B->bar_count);
  memset(B->bar_red, 0, sizeof B->bar_red);
  B->progress = 0;
  B->stuck = 0;
  B->spinning = 0;
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
    w->gcache = (int)L->ngobjs; /* the empty object (ws_emu_launch_map) */
    w->spin = 0;
    memset(w->cc, 0, sizeof w->cc); /* w->tid: set once per block context (ws_emu_block_tids) */
    if (push_frame(w, K, 0) || push_entry(w, 0, NO_PC, w->exists, 0)) {
      set_fault(B, w, 0, K, 0, FAULT_STACK, 0, 0, 0);
      snprintf(B->flt.msg, sizeof B->flt.msg, "the kernel's frame (%llu bytes of local memory per thread) does not fit",
               (unsigned long long)K->frame_bytes);
      return -1;
    }
  }
  return 0;
}

/* Accounts the block's instructions once it is finished (or faulted). */
static void block_totals(blockctx *B) {
  for (uint32_t i = 0; i < B->nwarps; i++) {
    B->warp_insts += B->warps[i].insts;
    B->thread_insts += B->warps[i].thread_insts;
  }
}

/* One round of the block's scheduler: every warp that can run, runs until
 * it finishes, waits at a barrier, yields (a wait that has not completed,
 * a spin point of a cooperative launch) or uses its quantum.  Returns 1
 * when the block is done, 0 when it has more to do, -1 after a fault
 * (B->flt).  B->spinning: every warp that ran this round stopped at a spin
 * point that saw nothing new and no mbarrier, barrier or warp changed. */
int ws_emu_block_step(blockctx *B) {
  int ran = 0, done = 0, spinning = 1, spun = 0;
  uint64_t progress = B->progress;
  B->spinning = 0;
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
    ws_emu_count_insts(B, w->insts - before);
    if (r) {
      /* a warp over its own limit while another waits at a barrier; the
       * launch limit says nothing of one warp (a long kernel reaches it
       * with warps waiting at barriers as they should) */
      if (B->flt.kind == FAULT_LIMIT) spin_deadlock(B, w);
      goto out_fault;
    }
    if (w->state == WS_DONE) {
      done++;
      B->progress++;
    } else if (w->state == WS_RUN) {
      spinning &= w->spin == 1;
      spun |= w->spin != 0;
    }
  }
  if ((uint32_t)done == B->nwarps) {
    block_totals(B);
    return 1;
  }
  B->spinning = spun && spinning && B->progress == progress;
  /* Within a block alone (not a cooperative grid, whose other blocks may
   * still change what the warps wait for), a second such round means no
   * warp can make another's wait complete. */
  B->stuck = B->spinning ? B->stuck + 1 : 0;
  if (B->stuck >= 2 && !B->L->grid_ws) {
    spin_stuck(B);
    goto out_fault;
  }
  if (!ran && release_after_exits(B)) return 0;
  if (!ran) {
    /* every live warp waits at a barrier that cannot complete */
    char *p = B->flt.msg;
    size_t left = sizeof B->flt.msg;
    warp *first = NULL;
    for (uint32_t i = 0; i < B->nwarps && left > 64; i++) {
      warp *w = &B->warps[i];
      int waits = w->state == WS_WAIT;
      if (waits && !first) first = w;
      if (ws_emu_deadlock_part(B->flt.msg, &p, &left, w->id, waits, w->bar_id,
                               waits ? w->bar_f->f->insts[w->bar_pc].line : 0))
        break;
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
  return 0;
out_fault:
  block_totals(B);
  return -1;
}

/* Runs every warp of block B->block to completion.  Returns 0, or -1 with
 * B->flt set. */
int ws_emu_run_block(blockctx *B) {
  if (ws_emu_block_start(B)) {
    block_totals(B);
    return -1;
  }
  for (;;) {
    int r = ws_emu_block_step(B);
    if (r) return r < 0 ? -1 : 0;
  }
}
