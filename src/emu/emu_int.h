/*
 * emu_int.h — the emulator's private structures: the decoded executable form
 * of a function, the memory map and the per-warp state.
 *
 * Decoded form (built once by load.c, with the decoders of ops/): every
 * instruction becomes a dinst with a dense opcode (D_*, from dops.def; the
 * warp loop in exec.c switches on it once) and pre-resolved operand slots.
 * Registers of a frame are a struct of arrays regs[slot * 32 + lane] of
 * 64-bit slots (the executors reach them through exec.h's lanes());
 * immediates and symbol addresses are "constant slots" (slots after the IR
 * registers, broadcast to all lanes when a frame is created), so every
 * source operand is a slot index.
 * Predicates are bit masks, one uint32 per predicate register per frame.
 *
 * Invariant: a value register slot holds its value zero-extended from the
 * register's declared width (writers mask their result).
 */
#ifndef WS_EMU_INT_H
#define WS_EMU_INT_H

#include <pthread.h>
#include <stdint.h>

#include "util/checked.h"
#include "util/strbuf.h"
#include "warpsight/emu.h"

/* Generic address windows (docs/emulator.md "Memory map").  Global objects
 * live below 2^46; each window holds one space's addresses at an offset. */
#define WIN_SHIFT 40
#define CONST_WIN (0x7dull << WIN_SHIFT)
#define LOCAL_WIN (0x7eull << WIN_SHIFT)
#define SHARED_WIN (0x7full << WIN_SHIFT)
#define GLOBAL_BASE 0x100000000ull /* first global object */
#define GLOBAL_GAP 0x10000ull      /* unmapped bytes between global objects */
#define FUNC_ADDR_BASE (0x7cull << WIN_SHIFT) /* values of function symbols (never mapped) */
#define CDP_WIN (0x80ull << WIN_SHIFT)        /* device-launch parameter buffers (cdp.c) */
#define CDP_STRIDE 0x10000ull                 /* bytes of the window per buffer */

#define NO_PC 0xFFFFFFFFu    /* no reconvergence point inside the function */
/* A warp runs at most this many instructions since it was scheduled (checked
 * at taken branches) before the next warp of its block runs (both engines). */
#define WS_EMU_QUANTUM 100000u
#define NO_SLOT 0xFFFFFFFFu  /* sink `_` or absent operand */

/* Decoded opcodes. */
enum {
#define D(x, family, ptx, form) D_##x,
#include "emu/dops.def"
  D_COUNT
};

/* Memory spaces as the executor resolves them. */
enum { MS_GLOBAL, MS_SHARED, MS_LOCAL, MS_CONST, MS_KPARAM, MS_GENERIC };

typedef struct dinst {
  uint16_t op;      /* D_* */
  uint8_t bits;     /* operand width (8/16/32/64); cvt: source width */
  uint8_t sgn;      /* signed operand type */
  uint8_t rnd;      /* ws_emu_num_rnd */
  uint8_t ftz;      /* .ftz */
  uint8_t sat;      /* .sat */
  union {           /* the sub-operation; op says which member holds it */
    uint8_t cmp;      /* setp, set: ws_emu_num_cmp */
    uint8_t testp;    /* testp: ws_emu_num_testp */
    uint8_t carry;    /* addc, subc, madc: 1 = add the carry in, 2 = write the carry out */
    uint8_t nan;      /* min, max (f32, f64, half kinds): .NaN */
    uint8_t relu;     /* fma (half kinds), cvt packing to f16x2/bf16x2: .relu */
    uint8_t sgn_b;    /* dp4a, dp2a: b is signed (sgn: a is) */
    uint8_t prmt;     /* prmt: ws_emu_num_prmt_mode */
    uint8_t left;     /* shf: .l (else .r) */
    uint8_t shiftamt; /* bfind: .shiftamt */
    uint8_t wrap;     /* bmsk, szext: .wrap (else .clamp) */
    uint8_t sext;     /* cvt: sign-extend the result into the wider register (imm: its bits) */
    uint8_t aop;      /* atom, red, redux: the operation (WS_PTX_MOD_ADD, _MIN, ...) */
    uint8_t arrive;   /* bar: bar.arrive (no wait) */
    uint8_t comp;     /* mov of a special register: 1 + its component (x, y, z), 0 none */
    uint8_t mode;     /* shfl: 0 up, 1 down, 2 bfly, 3 idx; vote: 0 all, 1 any, 2 uni, 3 ballot; match: 1 all */
  };
  uint8_t bop;      /* setp/set boolean combine: 0 none, 1 and, 2 or, 3 xor */
  uint8_t space;    /* MS_* for memory ops */
  uint8_t vec;      /* vector elements (1, 2, 4) */
  uint8_t size;     /* bytes per element for memory ops; cvt: dest width */
  uint8_t frel;     /* address is relative to the frame's local base */
  uint8_t ty;       /* ws_emu_num_type (cvt source) or float kind */
  uint8_t ty2;      /* ws_emu_num_type (cvt destination) */
  uint8_t flags;    /* operand negation flags: 1 = !a, 2 = !b, 4 = !c;
                       DF_FULLMASK (shfl, vote, match) */
  int32_t guard;    /* predicate index, or -1 */
  uint8_t gnot;     /* guard negated */
  uint8_t bb_entry; /* this pc starts a basic block */
  uint8_t a32;      /* memory ops: the address register is 32 bits wide and
                       the space .shared or .local: the address wraps modulo
                       2^32, as on the hardware */
  uint8_t hookmem;  /* reports addresses to the hooks (w->addr, space,
                       size x vec bytes): set by ws_emu_dec_inst for the
                       MEM and ATOM families, by the decoder for others */
  uint32_t d, a, b, c, e; /* slots (or predicate indices for pred operands) */
  uint32_t d2;      /* second destination (setp |q, shfl |p), NO_SLOT if none */
  uint32_t vbase;   /* first of `vec` slots in dfunc.vslots (ld/st/mov vectors) */
  uint64_t wmask;   /* mask of the result width */
  int64_t imm;      /* address offset, sreg id, barrier info, ... */
  uint32_t target;  /* branch target / callee function index */
  uint32_t rpc;     /* reconvergence pc of a branch (NO_PC if none) */
  uint32_t pc;      /* index in the IR function */
  uint32_t run;     /* a plain instruction for the hooks (ws_emu_dop_plain,
                       unguarded, no hookmem): the instructions from it to
                       the end of its run, itself included (load.c,
                       mark_runs); 0 for any other */
} dinst;

/* dinst.flags of shfl, vote and match: the member mask is 0xffffffff (or
 * 0, which GPUs run the same way) in every lane that executes the
 * instruction, or absent (pre-sm_70 shfl,
 * vote without a mask), so no lane can fault on it and each lane's group
 * is the executing lanes: the executors (ops/warp.h) then read no masks and
 * check none.  The decoders set it where ws_emu_full_mask holds. */
#define DF_FULLMASK 8

/* Whether member-mask operand o of instruction `inst` of c's function is
 * 0xffffffff in every lane that executes the instruction (1), or 0 in
 * every such lane (2; the PTX ISA leaves a mask that names no lane
 * undefined, GPUs run the instruction over the lanes that execute it, as
 * under a full mask: docs/emulator.md, "Member masks"), or neither (0):
 * the immediate, or a register that nvcc loads with it (`mov.u32 %r, -1;`
 * or `mov.u32 %r, 0;` before `shfl.sync ... %r;`): every definition
 * reaching this use is an unguarded mov of such an immediate, and one of
 * them dominates the use, so no path reaches it without writing the
 * register.  Decided once for both engines: by the interpreter's decoders
 * (DF_FULLMASK) and by jit/translate.c.  c may be NULL (then only the
 * immediate counts).  decode.c. */
struct ws_cfg;
int ws_emu_full_mask(const struct ws_cfg *c, uint32_t inst, const ws_ptx_operand *o);

typedef struct dfunc {
  const ws_ptx_function *f; /* the IR */
  dinst *code;              /* f->ninsts + 1 (a final implicit ret/exit) */
  uint32_t ncode;           /* instructions incl. the implicit one */
  uint32_t nslots;          /* value slots (IR registers + constants + scratch) */
  uint32_t nconst_first;    /* first constant slot */
  uint64_t *const_vals;     /* value of each constant slot (nslots - nconst_first) */
  uint32_t *zero_slots;     /* the value slots a new frame clears: registers
                               a lane may read before writing them (load.c,
                               zero_slots()); the others keep what an earlier
                               block left, which no lane reads */
  uint32_t nzero;           /* entries */
  uint32_t npreds;          /* predicate registers */
  uint32_t *pred_of_reg;    /* IR reg -> predicate index (or NO_SLOT) */
  uint32_t *vslots;         /* vector operand element slots */
  uint64_t frame_bytes;     /* per-thread frame: .local vars, call .params, params, rets */
  uint64_t *var_off;        /* f->vars[i]: frame offset (local/param) or shared offset */
  uint64_t *param_off;      /* f->params[i] frame offset (.func) */
  uint64_t *ret_off;        /* f->rets[i] frame offset (.func) */
  int index;                /* index in the program */
} dfunc;

/* A global-space object of a launch's map (allocation or module variable). */
typedef struct gobj {
  uint64_t base;     /* global address */
  uint64_t size;     /* bytes */
  const char *name;  /* allocation (spec buffer) or variable name */
  int arg;           /* >= 0 for an allocation, -1 for a module variable */
  int var;           /* module variable index, or -1 */
} gobj;

/* A named object in a non-global space, for fault reports. */
typedef struct sobj {
  uint8_t space;     /* MS_SHARED / MS_CONST */
  uint64_t base;     /* offset in the space */
  uint64_t size;     /* bytes (dynamic shared: the launch's size) */
  const char *name;  /* variable name */
} sobj;

struct ws_emu_program {
  const ws_ptx_module *m;   /* borrowed */
  dfunc *funcs;             /* decoded functions (index 0 = the kernel) */
  uint32_t nfuncs;          /* decoded functions */
  int *func_of_ir;          /* module function index -> decoded index or -1 */
  uint64_t *mvar_addr;      /* module variable -> address in its space */
  uint64_t shared_static;   /* bytes of static shared memory */
  uint64_t shared_dyn_align;/* alignment of the dynamic shared region */
  uint64_t shared_dyn_base; /* offset of the dynamic shared region */
  uint64_t fsh_base;        /* offset of the function-scope .shared variables */
  uint64_t **fsh;           /* per module function: its .shared variables' offsets from fsh_base */
  uint64_t const_bytes;     /* constant bank size */
  uint8_t *const_image;     /* initial const bank */
  uint64_t gvar_end;        /* end of module .global variables */
  sobj *sobjs;              /* shared and const objects for reports */
  uint32_t nsobjs;          /* entries */
  uint64_t mem_budget;      /* bytes of global memory a launch may allocate
                               (0: no limit; ws_emu_program_set_memory_budget) */
  struct ws_jit_code *jit;  /* translated code (ws_emu_jit_prepare), or NULL (owned) */
  uint64_t reserved_smem;   /* bytes of the system-reserved shared region a
                               block gets: WS_EMU_RESERVED_SMEM_BYTES when the
                               kernel reads %reserved_smem_offset_*, else 0 */
};

/* One entry of a warp's reconvergence stack. */
typedef struct sentry {
  uint32_t pc;       /* next instruction of these lanes */
  uint32_t rpc;      /* pop when pc reaches it (NO_PC: never) */
  uint32_t mask;     /* lanes of this entry */
  uint32_t frame;    /* 1 + frame index when this entry is a call's base, else 0 */
} sentry;

/* One function activation of a warp. */
typedef struct frame {
  const dfunc *f;       /* function */
  size_t reg_off;       /* offset of its slots in warp.regs (in uint64) */
  size_t pred_off;      /* offset of its predicates in warp.preds */
  uint64_t local_base;  /* local-space offset of its frame */
  uint32_t call_pc;     /* caller's call instruction (for the return copy) */
} frame;

enum { WS_RUN, WS_WAIT, WS_DONE };

typedef struct warp {
  uint32_t id;          /* index in the block */
  uint32_t exists;      /* lanes that are threads of the block */
  uint32_t exited;      /* lanes that executed exit */
  int state;            /* WS_RUN, WS_WAIT, WS_DONE */
  int bar_id;           /* barrier it waits at */
  uint32_t bar_pc;      /* and the instruction */
  const dfunc *bar_f;   /* function of that instruction */
  int bar_all;          /* the barrier has no thread count: all non-exited warps take part */
  sentry *stk;          /* reconvergence stack */
  uint32_t sp;          /* entries used */
  size_t stk_cap;       /* entries allocated (WS_VEC_PUSH) */
  frame *frames;        /* activations */
  uint32_t nframes;     /* activations in use */
  size_t frames_cap;    /* allocated (WS_VEC_RESERVE) */
  uint64_t *regs;       /* all frames' slots */
  const dfunc *consts_of; /* the function whose constant slots the kernel
                           frame (offset 0 of regs) holds, or NULL */
  size_t regs_used, regs_cap;
  uint32_t *preds;      /* all frames' predicate masks */
  size_t preds_used, preds_cap;
  uint8_t *local;       /* per-lane local memory: lane * local_cap + offset */
  uint64_t local_cap;   /* bytes per lane allocated */
  uint64_t local_top;   /* bytes per lane in use (all frames) */
  uint64_t insts;       /* warp instructions executed (%clock) */
  int spin;             /* why its last run ended: 0 not at a spin point;
                           1 at a wait that had not completed (mbarrier
                           test_wait/try_wait), or at a spin point of a
                           cooperative launch that saw what it saw there
                           last time; 2 at one that saw something new */
  uint32_t spin_pc;     /* the spin point and the signature of the values */
  uint64_t spin_sig;    /*   it loaded there last time */
  uint64_t thread_insts;/* lanes x instructions */
  uint32_t cc[32];      /* carry flag per lane (add.cc chains) */
  uint64_t addr[32];    /* scratch: per-lane addresses for hooks */
  int gcache;           /* last global object hit (ws_emu_locate) */
  uint32_t tid[3][32];  /* %tid.x/y/z of each lane */
} warp;

/* A fault found while running (turned into a diagnostic by launch.c). */
typedef struct fault {
  int kind;             /* FAULT_* */
  uint32_t block;       /* linear block */
  uint32_t warp, lane;  /* where */
  const dfunc *f;       /* function */
  uint32_t pc;          /* instruction */
  uint64_t addr;        /* address (memory faults) */
  int space;            /* MS_* of the access */
  int bytes;            /* access size */
  char msg[512];        /* extra detail */
} fault;

/* Fault kinds: the public ws_emu_fault values. */
enum {
  FAULT_NONE = WS_EMU_FAULT_NONE, FAULT_OOB = WS_EMU_FAULT_OOB,
  FAULT_MISALIGNED = WS_EMU_FAULT_MISALIGNED, FAULT_READONLY = WS_EMU_FAULT_READONLY,
  FAULT_DEADLOCK = WS_EMU_FAULT_DEADLOCK, FAULT_LIMIT = WS_EMU_FAULT_LIMIT,
  FAULT_TRAP = WS_EMU_FAULT_TRAP, FAULT_STACK = WS_EMU_FAULT_STACK,
  FAULT_ASSERT = WS_EMU_FAULT_ASSERT, FAULT_OTHER = WS_EMU_FAULT_OTHER,
  FAULT_LAUNCH_LIMIT = WS_EMU_FAULT_LAUNCH_LIMIT, FAULT_SPIN_DEADLOCK = WS_EMU_FAULT_SPIN_DEADLOCK,
  FAULT_MEMBERMASK = WS_EMU_FAULT_MEMBERMASK /* addr: the mask; bytes: the lane read, or -1 */
};

/* ---- device (device.c) ---------------------------------------------------- */

#define DEVICE_BASE (1ull << 44)   /* first allocation of a ws_emu_device_new device */
#define DEVICE_END FUNC_ADDR_BASE  /* allocations end below the function-address window */

/* One allocation. */
typedef struct dalloc {
  uint64_t base;    /* device address */
  uint64_t size;    /* bytes */
  uint8_t *mem;     /* host storage (size + 1 bytes, zeroed at allocation) */
  char *name;       /* name for fault reports (owned), or NULL */
} dalloc;

/* The variables of one module on a device. */
typedef struct dmodule {
  const ws_ptx_module *m;  /* borrowed */
  uint64_t *addr;          /* per module variable: .global address, .const bank offset */
  uint8_t **mem;           /* per module variable: storage of a .global one, else NULL */
  uint8_t *const_bank;     /* the module's constant bank (const_bytes + 1 bytes) */
  uint64_t const_bytes;    /* its size */
} dmodule;

/* A texture or surface object (ws_emu_tex_create). */
typedef struct texobj {
  ws_emu_tex_desc d;       /* as created (pitch filled in) */
  uint64_t slice;          /* bytes of one 2D slice (pitch x height) */
  uint32_t texel;          /* bytes per texel */
  int live;                /* 0 once destroyed (handles are never reused) */
} texobj;

struct ws_emu_device {
  struct wpool *pool;      /* the worker threads of its launches (pool.c; NULL:
                              none could be made, launches run on the caller) */
  uint64_t budget;         /* bytes of allocations allowed */
  uint64_t used;           /* bytes of live allocations */
  uint64_t next;           /* lowest address of the next allocation */
  dalloc *allocs;          /* live allocations, sorted by base */
  size_t nallocs, callocs;
  dmodule *mods;           /* modules used on the device, in first-use order */
  size_t nmods, cmods;
  size_t cur_mod;          /* module whose variables ws_emu_mem_host resolves */
  texobj *texs;            /* texture and surface objects; handle = index + 1 */
  size_t ntexs, ctexs;
};

/* A device whose allocations start at `first` (a spec launch's private
 * device starts right after its module's variables, as before devices). */
int ws_emu_dev_new_at(ws_emu_device **out, uint64_t budget, uint64_t first);
/* Allocate without a diagnostic: WS_ENOMEM when the host has no memory,
 * WS_EINVAL when past the budget or the address space. */
int ws_emu_dev_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr);
/* The allocation whose base is addr, or NULL. */
dalloc *ws_emu_dev_find(ws_emu_device *dev, uint64_t addr);
/* The module of p on dev (created on first use); *idx its index. */
int ws_emu_dev_module(ws_emu_device *dev, const ws_emu_program *p, size_t *idx, ws_diag *d);

/* ---- worker threads (pool.c) ------------------------------------------------ */

#define WS_EMU_MAX_THREADS 256  /* worker threads of one launch, at most */

/* A pool with no thread yet; NULL when out of memory. */
struct wpool *ws_emu_pool_new(void);
/* Runs fn(arg, i) for i = 0 .. n-1 at once: i = 0 on the calling thread,
 * the others on idle threads of p (started when too few are idle); returns
 * when every part has returned.  Returns the parts that ran: fewer than n
 * when threads could not be started (fn must not depend on n parts). */
int ws_emu_pool_run(struct wpool *p, int n, void (*fn)(void *arg, int index), void *arg);
/* Ends p's threads (none may be running a job) and frees it. */
void ws_emu_pool_free(struct wpool *p);

/* ---- launch ----------------------------------------------------------------- */

/* A parameter buffer of a device-side launch (cdp.c). */
typedef struct cdpbuf {
  uint64_t addr;            /* in the CDP window */
  uint8_t *mem;             /* its bytes (owned) */
  uint32_t bytes;           /* the kernel's parameter bytes */
  uint32_t func;            /* IR index of the kernel */
  uint32_t grid[3], block[3], shared;
  uint32_t block_linear;    /* the launching block */
  uint32_t seq;             /* launched: the order among the block's launches */
  int launched;
} cdpbuf;

struct ws_emu_launch {
  const ws_emu_program *p;  /* borrowed */
  const ws_launch_spec *s;  /* borrowed; NULL for a raw launch */
  ws_emu_device *dev;       /* borrowed (own_dev for a spec launch) */
  ws_emu_device *own_dev;   /* private device of a spec launch (owned) */
  size_t mod;               /* index of p's module on dev */
  uint32_t grid[3];         /* blocks per dimension */
  uint32_t block[3];        /* threads per dimension */
  uint64_t dynamic_shared;  /* dynamic shared bytes per block */
  gobj *gobjs;              /* global objects sorted by base (rebuilt by ws_emu_run) */
  uint32_t ngobjs;
  uint8_t **gmem;           /* host storage of each global object */
  size_t gobjs_cap, gmem_cap; /* allocated entries of gobjs and gmem (WS_VEC_RESERVE) */
  uint8_t *param_image;     /* kernel parameter space (owned copy) */
  uint64_t param_bytes;
  uint8_t *const_bank;      /* the module's constant bank on dev (borrowed) */
  uint64_t shared_bytes;    /* shared bytes per block: static + dynamic, then
                               the reserved region (p->reserved_smem bytes) */
  uint64_t reserved_base;   /* offset of the reserved region (the end of the
                               dynamic one, 128-byte aligned) */
  uint64_t *arg_addr;       /* spec argument -> its buffer's address, or 0 */
  uint64_t grid_ws;         /* cooperative launch: the grid-sync workspace
                               (%envreg1:%envreg2), else 0 */
  uint64_t cdp_next;        /* device launches: parameter buffers handed out (atomic) */
  cdpbuf *children;         /* the launched ones of finished blocks */
  size_t nchildren, cap_children;
  ws_emu_child *child_view; /* ws_emu_launch_children's array (owned) */
};

/* Build L's global map from its device: the module's .global variables,
 * then every live allocation. */
int ws_emu_launch_map(ws_emu_launch *L);

/* Per-worker block context. */
typedef struct blockctx {
  struct ws_emu_launch *L;  /* launch */
  const ws_emu_options *o;  /* options */
  int worker;               /* worker index */
  uint32_t block;           /* linear block index */
  uint32_t ctaid[3];        /* block coordinates */
  uint8_t *shared;          /* shared memory of the block */
  warp *warps;              /* warps of the block */
  uint32_t nwarps;          /* warps per block */
  uint32_t nthreads;        /* threads per block */
  int bar_count[16];        /* warps arrived per barrier */
  uint32_t bar_red[16];     /* bar.red accumulators */
  uint32_t bar_red_n[16];   /* bar.red: threads counted */
  fault flt;                /* the first fault of this block */
  ws_emu_event ev;          /* the hooks' event (exec.c, emit()) */
  uint64_t progress;        /* changes to the block's mbarriers, barriers
                               released, warps finished (a round of spinning
                               warps that changes none cannot end) */
  int stuck;                /* rounds in a row that were only spinning */
  int spinning;             /* the last round was only spinning (see
                               ws_emu_block_step) */
  ws_strbuf pout;           /* printf output of this block */
  uint64_t warp_insts, thread_insts;
  uint64_t *launch_insts;   /* warp instructions of the whole launch so far,
                               shared by the workers (atomic; updated
                               between quanta) */
  uint64_t insts_unshared;  /* this worker's warp instructions not yet added
                               to *launch_insts (fewer than a quantum; 0 in a
                               cooperative launch, whose blocks share one
                               thread and add theirs at once) */
  uint64_t *printf_bytes;   /* printf output of the whole launch so far, every
                               worker's (atomic), for WS_EMU_MAX_PRINTF_BYTES */
  cdpbuf *cdp;              /* parameter buffers the block got (cdp.c) */
  size_t ncdp, cap_cdp;
  uint32_t cdp_seq;         /* launches the block made */
  void *jit;                /* the translated engine's warps (jit/jit_run.c), or NULL */
} blockctx;

/* coop.c: a cooperative launch's grid, every block resident, taking turns
 * on the calling thread.  Returns 0, or -1 with res->flt the fault (or
 * res->oom). */
typedef struct coop_result {
  fault flt;                /* the fault, when -1 */
  int oom;                  /* an allocation failed */
  uint64_t launch_insts;    /* warp instructions so far (the blocks' shared counter) */
  uint64_t printf_bytes;    /* printf output of the launch so far (printf.c counts it) */
  uint64_t warp_insts, thread_insts, warps, blocks;
} coop_result;
int ws_emu_coop_run(ws_emu_launch *L, const ws_emu_options *o, uint32_t nblocks, coop_result *res);

/* exec.c: run a block to completion; or set it up and run it round by
 * round (a cooperative grid's blocks take turns: coop.c). */
int ws_emu_run_block(blockctx *B);
/* launch.c: free what a block context holds (its warps, shared memory,
 * printf output, parameter buffers). */
void ws_emu_block_free(blockctx *B);
/* launch.c: the warps' thread ids (%tid), the same in every block of the
 * launch: set once per block context, not per block. */
void ws_emu_block_tids(blockctx *B);
int ws_emu_block_start(blockctx *B);
int ws_emu_block_step(blockctx *B);
/* cdp.c: device-side launches.  A parameter buffer for kernel func (IR
 * index) with its configuration: its address, or 0 when out of memory or
 * of buffers.  Launch buffer buf: 0, or -1 when it is no unlaunched buffer
 * of the block.  The bytes at a (n of them) of one of the block's buffers,
 * or NULL.  At a block's end (the caller serialises it with the other
 * blocks' ends): its launched buffers become the launch's children, the
 * others are freed; -1 out of memory. */
uint64_t ws_emu_cdp_buffer(blockctx *B, uint32_t func, const uint32_t grid[3], const uint32_t block[3],
                           uint32_t shared);
int ws_emu_cdp_launch(blockctx *B, uint64_t buf);
uint8_t *ws_emu_cdp_at(blockctx *B, uint64_t a, uint32_t n);
int ws_emu_cdp_block_end(blockctx *B);
void ws_emu_cdp_block_free(blockctx *B);
void ws_emu_cdp_reset(struct ws_emu_launch *L);

/* The instruction count at which a warp that has run `insts` must stop at
 * its next branch, for both engines: its own limit (max_warp_insts), or
 * the count at which the launch's total (published and this worker's
 * unpublished part) would pass max_launch_insts, whichever comes first;
 * UINT64_MAX when neither applies.  Loops need a branch, so checking there
 * catches every runaway. */
static inline uint64_t ws_emu_warp_cap(const blockctx *B, uint64_t insts) {
  uint64_t cap = B->o->max_warp_insts ? B->o->max_warp_insts : UINT64_MAX;
  uint64_t ml = B->o->max_launch_insts;
  if (ml) {
    uint64_t used = __atomic_load_n(B->launch_insts, __ATOMIC_RELAXED) + B->insts_unshared, c2;
    if (ws_add_u64(&c2, insts, used >= ml ? 0 : ml - used)) c2 = UINT64_MAX;
    if (c2 < cap) cap = c2;
  }
  return cap;
}

/* n more warp instructions run by B's worker, for both engines: the
 * launch's total is shared by the workers and published once this worker
 * has a quantum of its own (an atomic add per warp run bounced its cache
 * line between the cores), which ws_emu_warp_cap adds; a cooperative
 * grid's blocks take turns on one thread and publish at once, so that
 * each one's check sees the others'. */
static inline void ws_emu_count_insts(blockctx *B, uint64_t n) {
  B->insts_unshared += n;
  if (B->insts_unshared >= WS_EMU_QUANTUM || B->L->grid_ws) {
    __atomic_add_fetch(B->launch_insts, B->insts_unshared, __ATOMIC_RELAXED);
    B->insts_unshared = 0;
  }
}

/* Where an access of n bytes at addr in space sp (MS_*) of lane `lane`
 * lands, for both engines: the host pointer, or NULL with *kind the
 * FAULT_* (misaligned, read-only, out of bounds).  A generic address is
 * resolved by its window.  *gcache is the warp's cached global object
 * (updated on a hit elsewhere; every object of the map is writable:
 * ws_emu_launch_map); local, local_cap and local_top its local memory. */
static inline uint8_t *ws_emu_locate(blockctx *B, int *gcache, uint8_t *local, uint64_t local_cap,
                                     uint64_t local_top, int sp, uint64_t addr, uint32_t n, uint32_t lane,
                                     int write, int *kind) {
  struct ws_emu_launch *L = B->L;
  uint64_t a = addr;
  *kind = FAULT_OOB;
  if (addr & (n - 1)) {
    *kind = FAULT_MISALIGNED;
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
    const gobj *o = &L->gobjs[*gcache];
    if (L->ngobjs && a - o->base < o->size && o->size - (a - o->base) >= n)
      return L->gmem[*gcache] + (a - o->base);
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
        *gcache = (int)(lo - 1);
        return L->gmem[lo - 1] + (a - o->base);
      }
    }
    if ((a >> WIN_SHIFT) == (CDP_WIN >> WIN_SHIFT)) { /* a device launch's parameter buffer */
      uint8_t *p = ws_emu_cdp_at(B, a, n);
      if (p) return p;
    }
    break;
  }
  case MS_SHARED:
    if (a < L->shared_bytes && L->shared_bytes - a >= n) return B->shared + a;
    break;
  case MS_LOCAL:
    if (a < local_top && local_top - a >= n) return local + lane * local_cap + a;
    break;
  case MS_CONST:
    if (write) *kind = FAULT_READONLY;
    else if (a < L->p->const_bytes && L->p->const_bytes - a >= n) return L->const_bank + a;
    break;
  case MS_KPARAM:
    if (write) *kind = FAULT_READONLY;
    else if (a < L->param_bytes && L->param_bytes - a >= n) return L->param_image + a;
    break;
  }
  return NULL;
}

/* Half-precision kinds (dinst.ty of the H_* forms). */
enum { HK_F16, HK_BF16, HK_F16X2, HK_BF16X2 };

/* decode.c: the IR's modifiers and types as num.c's enums, shared with the
 * translated engine, which takes the same decisions from the IR: a
 * rounding modifier (WS_NUM_RND_NONE if none), a comparison modifier
 * (*ok = 0 if it is none), a PTX type (b types are unsigned; -1 for one
 * num.c has not), a type's HK_* half kind (-1 if none). */
int ws_emu_dec_rnd(int mod);
int ws_emu_dec_cmp(int mod, int *ok);
int ws_emu_dec_numtype(int t);
int ws_emu_dec_hkind(int t);
uint64_t ws_emu_dec_set_true(int dtype, int x2);

/* exec.c */
/* Whether decoded opcode op (D_*) is of a family whose addresses the
 * hooks get (MEM, ATOM): dinst.hookmem. */
int ws_emu_dop_reports_addrs(int op);
/* Whether decoded opcode op can be part of a run of plain instructions for
 * the hooks (ws_emu_hooks.runs): its executor neither accesses memory nor
 * moves pc, the active lanes or the warp's state (it returns FL_NEXT or
 * FL_FAULT only), and it is no no-op standing for a fence, a barrier or a
 * prefetch. */
int ws_emu_dop_plain(int op);
/* The barrier-spin deadlock: warp `spinner` passed --max-warp-insts while
 * warp `waiter` waits at barrier `bar` (PTX line `line`): B's fault
 * message, and its kind FAULT_SPIN_DEADLOCK. */
void ws_emu_spin_fault(blockctx *B, uint32_t spinner, uint32_t waiter, int bar, uint32_t line);
/* One warp's part of a deadlock's message, appended at *p (*left bytes
 * left; the list of parts begins at start, and the parts after the first
 * are separated by "; "): "warp W waits at barrier B (PTX line N)" or
 * "warp W has exited".  -1 when it does not fit. */
int ws_emu_deadlock_part(const char *start, char **p, size_t *left, uint32_t warp_id, int waits, int bar,
                         uint32_t line);
/* Room for `need` bytes of local memory per lane in *local (lane-major,
 * *cap bytes per lane, `top` of them in use): every lane's bytes move to
 * the new stride, so this is a copy per lane, not the plain realloc of
 * WS_VEC_RESERVE.  -1 past WS_EMU_MAX_LOCAL_BYTES or out of memory. */
int ws_emu_grow_local(uint8_t **local, uint64_t *cap, uint64_t top, uint64_t need);
/* The new value an atomic of `size` bytes writes: aop its operation
 * (WS_PTX_MOD_*), ty 0 integer (sgn: signed), 1 f32, 2 f64, 3 + HK_* the
 * half kinds; cmpv the compare-and-swap's new value. */
uint64_t ws_emu_atom_value(int size, int aop, int ty, int sgn, uint64_t old, uint64_t v, uint64_t cmpv);
/* printf.c: format one vprintf call; fetch reads generic memory (returns 0
 * on success).  Appends to out; returns the characters written, -1 when a
 * fetch failed or out ran out of memory (out->oom, sticky), or -2 when the
 * launch's output passed its budget (formatting stops there). */
typedef int (*vp_fetch)(void *ctx, uint64_t addr, void *dst, size_t n);
typedef struct vp_budget {
  uint64_t *used;  /* bytes the launch printed so far (atomic, shared) */
  uint64_t limit;  /* at most this many */
} vp_budget;
int ws_emu_vprintf(ws_strbuf *out, vp_fetch fetch, void *ctx, uint64_t fmt, uint64_t args,
                   const vp_budget *b);

#endif
