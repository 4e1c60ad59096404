/*
 * jit_abi.h — what the translated engine's generated code and the host
 * share: the state of a warp and of a block as the generated code sees it,
 * the table of host functions it calls (the slow paths: memory faults,
 * calls, barriers, printf), the table of num.c functions (the numeric
 * semantics, the interpreter's own code), and the descriptor a compiled
 * kernel exports.
 *
 * This header is compiled twice: into the library (jit_run.c, jit.c) and,
 * as text embedded in the library, at the top of every generated C file
 * (WS_JIT_GENERATED is defined there, where no project header exists: num.h
 * is embedded just before it).  It therefore includes only C headers, and
 * any change to it changes the generated text and with it the cache key.
 *
 * The state mirrors the interpreter's (src/emu/emu_int.h) field for field
 * where the semantics live (reconvergence stack, frames, local memory,
 * instruction counts, the warp's last global object); only the registers
 * differ: a function's registers are one generated struct per activation,
 * 32-bit registers in 32-bit lanes, 64-bit ones in 64-bit lanes.
 */
#ifndef WS_JIT_ABI_H
#define WS_JIT_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef WS_JIT_GENERATED
#include "emu/num.h"
#endif

/* Bumped when a structure below changes meaning (the text changes anyway). */
#define WS_JIT_ABI_VERSION 3

/* What a generated function returns to the host's warp loop. */
enum {
  JR_RELOAD = 1, /* the warp's stack or frames changed: settle, then run the top frame */
  JR_YIELD,      /* the warp stops for now (waits at a barrier, or used its quantum) */
  JR_FAULT,      /* the block's fault says why */
  JR_DONE        /* the warp has finished */
};

/* Warp states, as the interpreter's WS_RUN/WS_WAIT/WS_DONE. */
enum { JW_RUN, JW_WAIT, JW_DONE };

/* Memory spaces, the interpreter's MS_* values. */
enum { JS_GLOBAL, JS_SHARED, JS_LOCAL, JS_CONST, JS_KPARAM, JS_GENERIC };

#define JIT_NO_PC 0xFFFFFFFFu

/* One entry of a warp's reconvergence stack (the interpreter's sentry). */
typedef struct jit_entry {
  uint32_t pc;    /* next instruction of these lanes */
  uint32_t rpc;   /* pop when pc reaches it (JIT_NO_PC: never) */
  uint32_t mask;  /* lanes of this entry */
  uint32_t frame; /* 1 + frame index when this entry is a call's base, else 0 */
} jit_entry;

/* One function activation. */
typedef struct jit_frame {
  uint32_t func;        /* the function's index (the program's decoded function index) */
  uint32_t call_pc;     /* the caller's call instruction */
  size_t reg_off;       /* its registers: byte offset in jit_warp.regmem (64-byte aligned) */
  uint64_t local_base;  /* local-space offset of its frame */
  const struct jit_call *cs; /* the call that made it (return values), NULL for the kernel */
} jit_frame;

typedef struct jit_warp {
  uint32_t id;          /* index in the block */
  uint32_t exists;      /* lanes that are threads of the block */
  uint32_t exited;      /* lanes that executed exit */
  int state;            /* JW_* */
  int bar_id;           /* barrier it waits at */
  uint32_t bar_pc;      /* and the instruction */
  uint32_t bar_func;    /* function of that instruction */
  int bar_all;          /* the barrier has no thread count */
  int bar_redop;        /* bar.red's operation at that barrier: 0 none, 1 popc, 2 and, 3 or */
  int bar_red;          /* where its result goes: 0 nowhere, 1 a 32-bit register, 2 a predicate,
                           3 a 64-bit register */
  uint32_t bar_red_off; /* its byte offset in the frame's registers (predicate: index) */
  jit_entry *stk;       /* reconvergence stack */
  uint32_t sp;          /* entries used */
  size_t stk_cap;       /* entries allocated */
  jit_frame *frames;    /* activations */
  uint32_t nframes;     /* activations in use */
  size_t frames_cap;    /* allocated */
  uint8_t *regmem;      /* every frame's registers */
  size_t regs_used, regs_cap; /* bytes in use, allocated */
  uint8_t *local;       /* per-lane local memory: lane * local_cap + offset */
  uint64_t local_cap;   /* bytes per lane allocated */
  uint64_t local_top;   /* bytes per lane in use (all frames) */
  uint64_t insts;       /* warp instructions executed (%clock) */
  uint64_t thread_insts;/* lanes x instructions */
  uint64_t limit;       /* the count past which the warp faults (checked at branches) */
  uint64_t qend;        /* the count that ends its quantum */
  int gcache;           /* the last global object it hit (index in the launch's map) */
  uint64_t gbase;       /* its address */
  uint64_t gsize;       /* its bytes (0: none) */
  uint8_t *ghost;       /* its host storage */
  uint32_t cc[32];      /* carry flag per lane (add.cc chains) */
  uint32_t tid[3][32];  /* %tid.x/y/z of each lane */
} jit_warp;

struct jit_ctx;
struct jit_call;
struct jit_bar;
struct jit_brx;

/* The host's side: slow paths the generated code calls through pointers
 * (a compiled kernel links against nothing of warpsight). */
typedef struct jit_rt {
  /* Host pointer for an n-byte access at addr in space sp by lane, or
   * NULL after recording the fault (the interpreter's resolve()). */
  uint8_t *(*resolve)(struct jit_ctx *X, jit_warp *w, int sp, uint64_t addr, uint32_t n, uint32_t lane,
                      int write, uint32_t func, uint32_t pc);
  /* Make the global object holding addr the warp's cached one (gbase,
   * gsize, ghost); 0 when no object holds it (nothing recorded). */
  int (*gfind)(struct jit_ctx *X, jit_warp *w, uint64_t addr);
  /* Record a fault (kind: ws_emu_fault) and return JR_FAULT. */
  int (*fault)(struct jit_ctx *X, jit_warp *w, int kind, uint32_t lane, uint32_t func, uint32_t pc,
               uint64_t addr, int space, int bytes, const char *msg);
  /* The warp passed w->limit at a branch: record which limit, JR_FAULT. */
  int (*limit)(struct jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t active);
  /* Pop finished entries and frames; 0 when the warp is done. */
  int (*settle)(struct jit_ctx *X, jit_warp *w);
  /* A divergent branch: the top entry reconverges at rpc; push (npc,
   * nmask) then (tpc, tmask).  JR_RELOAD or JR_FAULT. */
  int (*diverge)(struct jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t rpc, uint32_t npc,
                 uint32_t nmask, uint32_t tpc, uint32_t tmask);
  /* call / indirect call of lanes m (target: the pointer's value per
   * lane for an indirect call).  JR_RELOAD or JR_FAULT. */
  int (*call)(struct jit_ctx *X, jit_warp *w, const struct jit_call *c, uint32_t m, uint32_t active,
              const uint64_t *target);
  /* vprintf and __assertfail for lanes m.  0 or JR_FAULT. */
  int (*vprintf)(struct jit_ctx *X, jit_warp *w, const struct jit_call *c, uint32_t m);
  int (*assertfail)(struct jit_ctx *X, jit_warp *w, const struct jit_call *c, uint32_t m);
  /* bar.sync/arrive/red of lanes m with barrier id and thread count (cnt,
   * when the instruction has one) of the first lane; pv: bar.red's
   * predicate over m.  0 (go on at pc + 1), JR_YIELD or JR_FAULT. */
  int (*bar)(struct jit_ctx *X, jit_warp *w, const struct jit_bar *b, uint32_t m, uint32_t active,
             uint32_t id, uint32_t cnt, uint32_t pv);
  /* brx.idx for lanes m != 0 with their indices.  0 (top->pc holds where
   * to go on), JR_RELOAD or JR_FAULT. */
  int (*brx)(struct jit_ctx *X, jit_warp *w, const struct jit_brx *b, uint32_t m, uint32_t active,
             const uint64_t *idx);
  /* atom/red for lanes m: op a ws_ptx_mod, ty 0 int 1 f32 2 f64 3.. half
   * kinds; old values into old (NULL for red).  0 or JR_FAULT. */
  int (*atom)(struct jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, int space, int size, int aop,
              int ty, int sgn, uint32_t m, const uint64_t *addr, const uint64_t *v, const uint64_t *c,
              uint64_t *old);
  /* alloca of the largest of need[] over m, aligned: the frame offset
   * into *base.  0 or JR_FAULT. */
  int (*alloca_)(struct jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t m,
                 const uint64_t *need, uint64_t align, uint64_t *base);
  /* stackrestore to v.  0 or JR_FAULT. */
  int (*stackrestore)(struct jit_ctx *X, jit_warp *w, uint32_t func, uint32_t pc, uint32_t lane,
                      uint64_t v);
} jit_rt;

/* num.c, as pointers: every numeric form the translated code does not
 * compute inline runs the interpreter's own function. */
#define WS_JIT_NUM_FUNCS(X)                                                                 \
  X(f32_add) X(f32_sub) X(f32_mul) X(f32_fma) X(f32_div) X(f32_div_approx) X(f32_div_full)  \
  X(f32_rcp) X(f32_rcp_approx) X(f32_sqrt) X(f32_sqrt_approx) X(f32_rsqrt_approx)            \
  X(f32_sin_approx) X(f32_cos_approx) X(f32_ex2_approx) X(f32_lg2_approx) X(f32_tanh_approx) \
  X(f32_min) X(f32_max) X(f32_abs) X(f32_neg) X(f32_copysign) X(f32_testp) X(f32_cmp)        \
  X(f64_add) X(f64_sub) X(f64_mul) X(f64_fma) X(f64_div) X(f64_rcp) X(f64_rcp_approx_ftz)    \
  X(f64_sqrt) X(f64_rsqrt_approx) X(f64_min) X(f64_max) X(f64_abs) X(f64_neg) X(f64_copysign) \
  X(f64_testp) X(f16_add) X(f16_sub) X(f16_mul) X(f16_fma) X(f16_neg) X(f16_abs) X(f16_min)  \
  X(f16_max) X(f16_cmp) X(bf16_add) X(bf16_sub) X(bf16_mul) X(bf16_fma) X(bf16_neg)          \
  X(bf16_abs) X(bf16_min) X(bf16_max) X(bf16_cmp) X(f16x2_add) X(f16x2_sub) X(f16x2_mul)     \
  X(f16x2_fma) X(f16x2_neg) X(f16x2_abs) X(f16x2_min) X(f16x2_max) X(f16x2_cmp) X(bf16x2_add) \
  X(bf16x2_sub) X(bf16x2_mul) X(bf16x2_fma) X(bf16x2_neg) X(bf16x2_abs) X(bf16x2_min)        \
  X(bf16x2_max) X(bf16x2_cmp) X(cvt) X(cvt_f16x2_f32) X(cvt_bf16x2_f32) X(s32_add_sat)       \
  X(s32_sub_sat) X(addc) X(subc) X(mul_lo) X(mul_hi) X(mul_wide) X(mad_hi) X(mad_wide)       \
  X(mul24) X(mad24) X(div) X(rem) X(abs) X(popc) X(clz) X(brev) X(bfind) X(bfe) X(bfi)       \
  X(prmt) X(shf) X(lop3) X(dp4a) X(dp2a) X(sad) X(fns)

typedef struct jit_num {
#define WS_JIT_NUM_MEMBER(n) __typeof__(ws_emu_num_##n) *n;
  WS_JIT_NUM_FUNCS(WS_JIT_NUM_MEMBER)
#undef WS_JIT_NUM_MEMBER
} jit_num;

/* What a block looks like to the generated code (one per worker). */
typedef struct jit_ctx {
  const jit_rt *rt;           /* host functions */
  const jit_num *num;         /* num.c */
  void *host;                 /* the host's block (jit_run.c) */
  uint8_t *shared;            /* the block's shared memory */
  uint64_t shared_bytes;      /* its size (static + dynamic) */
  const uint8_t *const_bank;  /* the module's constant bank */
  uint64_t const_bytes;       /* its size */
  const uint8_t *params;      /* the kernel's parameter image */
  uint64_t param_bytes;       /* its size */
  uint64_t dynamic_shared;    /* %dynamic_smem_size */
  uint64_t reserved_base;     /* offset of the reserved shared region (%reserved_smem_offset_begin) */
  uint32_t ctaid[3];          /* %ctaid */
  uint32_t ntid[3];           /* %ntid */
  uint32_t nctaid[3];         /* %nctaid */
  uint32_t nwarps;            /* %nwarpid */
  double clock_per_inst;      /* ws_emu_options.clock_per_inst: %clock's cycles per warp instruction (0: 1) */
  double timer_ns_per_inst;   /* ws_emu_options.timer_ns_per_inst: %globaltimer's ns per instruction (0: 1) */
  uint64_t timer_base_ns;     /* ws_emu_options.timer_base_ns: %globaltimer at the launch's start */
} jit_ctx;

/* An argument of a call, vprintf or __assertfail: a register (byte offset
 * of its lanes in the caller's registers, 4- or 8-byte lanes), a constant,
 * or bytes of the caller's frame (a .param or .local variable). */
enum { JA_REG32, JA_REG64, JA_CONST, JA_FRAME };
typedef struct jit_arg {
  uint8_t kind;    /* JA_* */
  uint32_t off;    /* JA_REG*: byte offset of the register's lanes; JA_FRAME: frame offset */
  uint64_t value;  /* JA_CONST */
} jit_arg;

/* A call site. */
typedef struct jit_call {
  uint32_t func;          /* the caller */
  uint32_t pc;            /* the call instruction */
  uint32_t callee;        /* the callee's function index (direct calls) */
  int indirect;           /* the callee comes from a register */
  uint32_t nargs, nrets;  /* arguments and return values */
  const jit_arg *args;    /* nargs */
  const uint32_t *rets;   /* nrets frame offsets in the caller receiving the return values */
} jit_call;

/* A bar / barrier instruction. */
typedef struct jit_bar {
  uint32_t func, pc;      /* where it is */
  int arrive;             /* bar.arrive: no wait */
  int has_count;          /* a thread count operand */
  int red;                /* bar.red: 0 none, 1 popc, 2 and, 3 or */
  int red_kind;           /* its destination: 0 none, 1 a 32-bit register, 2 a predicate,
                             3 a 64-bit register */
  uint32_t red_off;       /* byte offset of the register's lanes, or the predicate index */
} jit_bar;

/* A brx.idx instruction. */
typedef struct jit_brx {
  uint32_t func, pc, rpc; /* where it is, where its lanes meet again */
  uint32_t ntargets;      /* entries of its table */
  const uint32_t *targets;/* their instruction indices */
} jit_brx;

/* A global load site's object (the generated registers struct holds one
 * per site, zeroed with the frame: size 0 is none): the warp's cached
 * object (jit_warp's gcache, gbase, gsize, ghost) when the site last took
 * its general path with every lane in it. */
typedef struct jit_gsite {
  uint64_t base;   /* the object's address */
  uint64_t size;   /* its bytes (0: none) */
  uint8_t *host;   /* its host storage */
  int idx;         /* its index in the launch's map */
} jit_gsite;

/* A translated function: runs the top frame of w until it must return. */
typedef int (*jit_fn)(jit_ctx *X, jit_warp *w);

/* One function of a translated program. */
typedef struct jit_func {
  jit_fn fn;              /* its code */
  uint32_t regs_bytes;    /* its registers struct */
  uint32_t zero_bytes;    /* leading bytes zeroed when a frame is pushed (the
                             predicates, the registers that may be read
                             before they are written, the global load
                             sites' objects) */
} jit_func;

/* What a compiled program exports as `ws_jit_program`. */
typedef struct jit_program {
  uint32_t abi;           /* WS_JIT_ABI_VERSION */
  const char *key;        /* the cache key it was compiled under */
  uint32_t nfuncs;        /* functions (index 0: the kernel) */
  const jit_func *funcs;  /* nfuncs */
} jit_program;

#endif
