/*
 * exec.h — the executors' toolkit: what an instruction's executor (ops/)
 * sees of the warp, how it reads and writes registers, predicates and
 * memory, and how it reports a fault.  Included by exec.c alone, before the
 * ops/ files: the executors are inlined into the warp loop's one dispatch
 * switch, so they must be in its translation unit.
 *
 * Registers.  Executors reach a frame's registers only through lanes()
 * (the 32 lanes of a value slot) and pmask()/pset() (a predicate's lane
 * mask), and write per-lane results through the LANES loop and the
 * IBIN/ITER/IUN forms, so the lane storage (today 64-bit slots, lane-major
 * per slot: regs[slot * 32 + lane], each value zero-extended from its
 * register's width) can change in one place.  A new frame clears only the
 * registers a lane may read before writing them (load.c, zero_slots): an
 * executor that reads registers of lanes outside m (as shfl and the matrix
 * instructions do) names itself in load.c's cross_lane_reads().
 *
 * Speed.  Helpers an executor calls for every lane are EXECUTOR (always
 * inlined), so that the warp loop's x86-64-v3 copy (exec.c, run_warp)
 * vectorises them too; LIB_EXEC executors (num.c per lane) stay out of
 * line.
 */
#ifndef WS_EMU_EXEC_H
#define WS_EMU_EXEC_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/emu_int.h"
#include "emu/num.h"
#include "util/bits.h"

/* What an instruction's executor sees: the block, the warp and the running
 * frame.  Control executors also read and move pc and the active lanes
 * (run_warp copies them in and out); the others leave them alone. */
typedef struct xctx {
  blockctx *B;            /* block */
  warp *w;                /* warp */
  const dfunc *F;         /* function of the running frame */
  uint64_t *R;            /* the frame's value slots (lanes()) */
  uint32_t *P;            /* the frame's predicate masks (pmask(), pset()) */
  uint64_t lbase;         /* the frame's local-memory base */
  const ws_emu_hooks *H;  /* instruction hook, or NULL when none is attached */
  sentry *top;            /* the warp's top reconvergence entry */
  uint32_t pc;            /* control: this instruction in, the next one out */
  uint32_t active;        /* control: the entry's active lanes */
  uint64_t limit;         /* the count at which the warp must stop (warp_cap) */
  uint64_t qend;          /* instruction count that ends the warp's quantum */
} xctx;

/* What an executor asks of the warp loop. */
enum {
  FL_NEXT,   /* go on with the next instruction */
  FL_JUMP,   /* go on at X->pc with X->active (the instruction reported itself) */
  FL_RELOAD, /* the reconvergence stack changed: start from its top entry */
  FL_YIELD,  /* the warp stops for now (quantum used, or waiting at a barrier) */
  FL_FAULT   /* B->flt says why */
};

/* EXEC(NAME): the executor of D_NAME, inlined into the dispatch (one block
 * of machine code per opcode; called out of line, the calls and the
 * spilled context cost about 5 % on bench_emu's reduce6, docs/emulator.md,
 * "Speed").  LIB_EXEC(NAME): an executor that calls num.c once per lane;
 * inlined, the warp loop's state lives in registers every such call
 * clobbers, so GCC spills and reloads it around each lane's call: out of
 * line it costs one call per warp instruction instead.  CTRL_EXEC(NAME):
 * an executor that moves pc, the active lanes or the warp's state. */
#define EXECUTOR static inline __attribute__((always_inline))
#define EXEC(name) EXECUTOR int x_##name(const xctx *X, const dinst *in, uint32_t m)
#define LIB_EXEC(name) static __attribute__((noinline)) int x_##name(const xctx *X, const dinst *in, uint32_t m)
#define CTRL_EXEC(name) EXECUTOR int x_##name(xctx *X, const dinst *in, uint32_t m)

/* The instruction's index in its function (fault reports). */
#define PC(in) ((uint32_t)((in) - X->F->code))

/* ---- registers and predicates --------------------------------------------------- */

/* The 32 lanes of value slot s of the running frame. */
static inline uint64_t *lanes(const xctx *X, uint32_t s) { return X->R + (size_t)s * 32; }
/* Predicate p: bit l is lane l's value. */
static inline uint32_t pmask(const xctx *X, uint32_t p) { return X->P[p]; }
/* Predicate p, complemented when neg. */
static inline uint32_t pmask_not(const xctx *X, uint32_t p, int neg) { return neg ? ~X->P[p] : X->P[p]; }
/* Sets predicate p to v for the lanes of m. */
static inline void pset(const xctx *X, uint32_t p, uint32_t m, uint32_t v) { X->P[p] = (X->P[p] & ~m) | (v & m); }

/* Runs the statement for each lane l of mask M, in lane order. */
#define LANES(M, ...)                                        \
  do {                                                        \
    uint32_t m_ = (M);                                        \
    if (m_ == 0xffffffffu) {                                  \
      for (uint32_t l = 0; l < 32; l++) { __VA_ARGS__; }      \
    } else {                                                  \
      while (m_) {                                            \
        uint32_t l = (uint32_t)__builtin_ctz(m_);             \
        m_ &= m_ - 1;                                         \
        __VA_ARGS__;                                          \
      }                                                       \
    }                                                         \
  } while (0)

/* The per-lane forms d = f(a), f(a, b), f(a, b, c) for the lanes of m,
 * then the next instruction; a, b, c (the lanes' values) and wm (the
 * result width's mask) are in scope of the expression. */
#define IUN(...)                                                             \
  do {                                                                       \
    const uint64_t *A_ = lanes(X, in->a);                                    \
    uint64_t *D_ = lanes(X, in->d), wm = in->wmask;                          \
    (void)wm;                                                                \
    LANES(m, { uint64_t a = A_[l]; D_[l] = (__VA_ARGS__); });                \
    return FL_NEXT;                                                          \
  } while (0)
#define IBIN(...)                                                            \
  do {                                                                       \
    const uint64_t *A_ = lanes(X, in->a), *B_ = lanes(X, in->b);             \
    uint64_t *D_ = lanes(X, in->d), wm = in->wmask;                          \
    (void)wm;                                                                \
    LANES(m, { uint64_t a = A_[l], b = B_[l]; (void)a; (void)b; D_[l] = (__VA_ARGS__); }); \
    return FL_NEXT;                                                          \
  } while (0)
#define ITER(...)                                                            \
  do {                                                                       \
    const uint64_t *A_ = lanes(X, in->a), *B_ = lanes(X, in->b), *C_ = lanes(X, in->c); \
    uint64_t *D_ = lanes(X, in->d), wm = in->wmask;                          \
    (void)wm;                                                                \
    LANES(m, { uint64_t a = A_[l], b = B_[l], c = C_[l]; (void)c; D_[l] = (__VA_ARGS__); }); \
    return FL_NEXT;                                                          \
  } while (0)
/* d = v in every lane of m */
#define ISET(v)                                                              \
  do {                                                                       \
    uint64_t *D_ = lanes(X, in->d), v_ = (v);                                \
    LANES(m, D_[l] = v_);                                                    \
    return FL_NEXT;                                                          \
  } while (0)

/* ---- values as floating point ---------------------------------------------------- */

static inline float f32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
/* NaN results are the canonical NaN, as on the hardware */
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

/* ---- faults ------------------------------------------------------------------------ */

/* Records the block's first fault (later ones are dropped). */
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

/* A fault of kind at instruction in, for lane, with a message (printf
 * format); returns FL_FAULT. */
static int __attribute__((format(printf, 6, 7)))
fault_msg(const xctx *X, const dinst *in, uint32_t lane, int kind, uint64_t addr, const char *fmt, ...) {
  va_list ap;
  set_fault(X->B, X->w, lane, X->F, (uint32_t)(in - X->F->code), kind, addr, 0, 0);
  va_start(ap, fmt);
  vsnprintf(X->B->flt.msg, sizeof X->B->flt.msg, fmt, ap);
  va_end(ap);
  return FL_FAULT;
}

/* ---- memory ------------------------------------------------------------------------- */

/* The space (MS_*) a generic address lies in. */
static inline int generic_space(uint64_t addr) {
  uint64_t win = addr >> WIN_SHIFT;
  return win == (SHARED_WIN >> WIN_SHIFT) ? MS_SHARED : win == (LOCAL_WIN >> WIN_SHIFT) ? MS_LOCAL
         : win == (CONST_WIN >> WIN_SHIFT) ? MS_CONST : MS_GLOBAL;
}

/* Host pointer for an access of n bytes at addr in space sp (MS_*), or NULL
 * after recording a fault. */
static inline uint8_t *resolve(blockctx *B, warp *w, int sp, uint64_t addr, uint32_t n, uint32_t lane,
                               int write, const dfunc *F, uint32_t pc) {
  int kind;
  uint8_t *p = ws_emu_locate(B, &w->gcache, w->local, w->local_cap, w->local_top, sp, addr, n, lane, write, &kind);
  if (!p) set_fault(B, w, lane, F, pc, kind, addr, sp, (int)n);
  return p;
}

/* The address of lane value a + off as the instruction's space sees it: a
 * 32-bit .shared or .local address register wraps modulo 2^32 (dinst.a32). */
static inline uint64_t eff_addr(const dinst *in, uint64_t a, uint64_t off) {
  uint64_t v = a + off;
  return in->a32 ? (uint32_t)v : v;
}

/* Reads or writes n (1, 2, 4 or 8) little-endian bytes. */
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

/* ---- defined in exec.c (frames, barriers, hooks, limits) ------------------------------ */

/* Makes room for `need` bytes of local memory per lane; -1 when it cannot. */
static int grow_local(warp *w, uint64_t need);
/* Pushes an activation of f (called from call_pc); -1 when memory runs out. */
static int push_frame(warp *w, const dfunc *f, uint32_t call_pc);
/* Pushes a reconvergence entry; -1 when memory runs out. */
static int push_entry(warp *w, uint32_t pc, uint32_t rpc, uint32_t mask, uint32_t fr);
/* Warps of the block that have finished. */
static uint32_t live_done(const blockctx *B);
/* Releases the warps waiting at barrier id (and w, the warp completing it). */
static void release_barrier(blockctx *B, uint32_t id, warp *w, int red);
/* Reports one warp instruction of X's warp to the hooks (mem: it accessed
 * memory, at X->w->addr). */
static void emit(const xctx *X, const dinst *in, uint32_t active, uint32_t m, uint32_t taken, int mem);
/* A cooperative launch's spin point: record what was loaded, yield. */
static int spin_point(const xctx *X, const dinst *in, uint32_t m, const uint32_t *vs, uint32_t n, int mem);
/* Which limit stopped w (FAULT_LIMIT or FAULT_LAUNCH_LIMIT). */
static int limit_kind(const blockctx *B, const warp *w);

#endif
