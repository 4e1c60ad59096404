/*
 * warpsight/analysis.h — static analysis of one PTX function: instruction
 * classes, basic blocks, CFG, dominators and post-dominators, natural loops,
 * register def-use chains, and per-block static ILP and MLP (Sim et al.,
 * PPoPP'12, Section 5.3).
 *
 * Blocks are numbered 0 .. nblocks-1 in program order; block 0 is the entry.
 * WS_CFG_EXIT (== nblocks in every field that names a block) stands for the
 * virtual exit that every ret/exit and the end of the function lead to.
 * The emulator reconverges a divergent branch at the immediate
 * post-dominator of its block: ws_analysis_cfg_reconverge_inst() gives that
 * instruction index directly (ninsts = the function's end).
 *
 * Ownership: ws_analysis_build() returns a ws_cfg the caller frees with
 * ws_analysis_free() (NULL is a no-op).  The cfg borrows the module and the
 * function: they must outlive it.  The library never prints.
 */
#ifndef WARPSIGHT_ANALYSIS_H
#define WARPSIGHT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/ptx.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ws_iclass {
#define CLASS(id, name, desc) WS_IC_##id,
#include "warpsight/analysis/classes.def"
#undef CLASS
  WS_IC_COUNT
} ws_iclass;

/* Class of one instruction (opcode kind + type + state space). */
ws_iclass ws_analysis_class(const ws_ptx_inst *in);
const char *ws_analysis_class_name(ws_iclass c);   /* "ld.global" */
/* The class an opcode has when written with `type` (WS_PTX_T_NONE for none)
 * and state space `space` — what docs/instruction-classes.md tabulates. */
ws_iclass ws_analysis_opcode_class(ws_ptx_opcode op, ws_ptx_type type,
                                   ws_ptx_space space);

/* True memory traffic for MLP and Hong-Kim's memory instructions: loads,
 * stores, atomics and reductions to global, local, generic, texture or
 * surface memory (shared, const and param stay on chip). */
int ws_analysis_is_mem_request(ws_iclass c);
/* The subset that loads (defines a register from such memory). */
int ws_analysis_is_mem_load(ws_iclass c);

/* Registers an instruction writes and reads (guard included in reads).
 * Writes: the destination operand (a register, or each register of a
 * vector) and a `|p` partner.  Reads: every other register operand,
 * address base and list element.  Counts go to *ndefs and *nuses; arrays
 * hold at most WS_ANALYSIS_MAX_REGS entries each.  Returns how many
 * registers did not fit and were left out (0: the lists are complete). */
enum { WS_ANALYSIS_MAX_REGS = 40 };
int ws_analysis_inst_regs(const ws_ptx_function *f, const ws_ptx_inst *in,
                          uint32_t *defs, int *ndefs, uint32_t *uses, int *nuses);

#define WS_CFG_NONE UINT32_MAX

typedef struct ws_bb {
  uint32_t first;           /* first instruction */
  uint32_t end;             /* one past the last instruction */
  uint32_t line_first;      /* PTX line of the first instruction (or label) */
  uint32_t line_last;       /* PTX line of the last instruction */
  uint32_t nsucc;           /* successors (1..; exit counts as one; more
                               than 2 only after brx.idx) */
  uint32_t *succ;           /* nsucc block ids; nblocks = the virtual exit */
  uint32_t npred;           /* predecessors */
  uint32_t *pred;           /* npred block ids */
  uint32_t idom;            /* immediate dominator; WS_CFG_NONE for the entry
                               and for unreachable blocks */
  uint32_t ipdom;           /* immediate post-dominator; nblocks = exit */
  uint32_t loop;            /* innermost loop containing it, or WS_CFG_NONE */
  uint32_t loop_depth;      /* loops containing it (0 = not in a loop) */
  uint32_t reachable;       /* reached from the entry */
  uint32_t counts[WS_IC_COUNT]; /* instructions per class */
  uint32_t nloads;          /* memory loads (ws_analysis_is_mem_load) */
  uint32_t ngroups;         /* ILP dependence groups */
  double ilp;               /* instructions / groups (0 for an empty block) */
  double mlp;               /* mean local MLP over its loads (0 if none) */
} ws_bb;

typedef struct ws_loop {
  uint32_t header;          /* header block */
  uint32_t parent;          /* enclosing loop, or WS_CFG_NONE */
  uint32_t depth;           /* 1 for an outermost loop */
  uint32_t nblocks;         /* blocks in the loop (header included) */
  uint32_t *blocks;         /* nblocks ids, ascending */
  uint32_t nlatches;        /* blocks with a back edge to the header */
  uint32_t *latches;        /* nlatches ids */
} ws_loop;

/* A register use and the definitions that can reach it. */
typedef struct ws_use {
  uint32_t inst;            /* the using instruction */
  uint32_t reg;             /* the register read */
  uint32_t ndefs;           /* reaching definitions (0 = read before any
                               write, e.g. an uninitialised register) */
  uint32_t *defs;           /* ndefs instruction indices, ascending */
} ws_use;

typedef struct ws_cfg {
  const ws_ptx_module *module;   /* borrowed */
  const ws_ptx_function *func;   /* borrowed */
  uint32_t nblocks;              /* basic blocks (the exit is nblocks) */
  ws_bb *blocks;                 /* nblocks */
  uint32_t *block_of;            /* per instruction: its block */
  uint32_t nloops;               /* natural loops, outer before inner */
  ws_loop *loops;                /* nloops */
  uint32_t nuses;                /* register uses in the function */
  ws_use *uses;                  /* nuses, by instruction then operand */
  uint32_t *use_start;           /* per instruction i: its uses are
                                    uses[use_start[i] .. use_start[i+1]-1];
                                    ninsts+1 entries */
  uint32_t *du_start;            /* per instruction i: the instructions that
                                    use what i defines are du[du_start[i] ..
                                    du_start[i+1]-1]; ninsts+1 entries */
  uint32_t *du;                  /* def-use chains, ascending per def */
  uint32_t regs_cut;             /* instructions naming more registers than
                                    WS_ANALYSIS_MAX_REGS: the rest are missing
                                    from uses and chains (ws_analysis_build
                                    warns; 0 = the chains are complete) */
  uint32_t first_cut;            /* the first such instruction (if any) */
  void *mem;                     /* private: allocations */
} ws_cfg;

/* Build everything above for function f of module m.  WS_OK, or WS_ENOMEM,
 * or WS_EINVAL when f has no body. */
int ws_analysis_build(ws_cfg **out, const ws_ptx_module *m, const ws_ptx_function *f,
                      ws_diag *d);
void ws_analysis_free(ws_cfg *c);

/* Does block a dominate block b?  (post: post-dominate) */
int ws_analysis_cfg_dominates(const ws_cfg *c, uint32_t a, uint32_t b);
int ws_analysis_cfg_postdominates(const ws_cfg *c, uint32_t a, uint32_t b);
/* Where threads that diverge at the branch instruction `inst` meet again:
 * the first instruction of the immediate post-dominator of its block, or
 * func->ninsts when that is the exit. */
uint32_t ws_analysis_cfg_reconverge_inst(const ws_cfg *c, uint32_t inst);

/* What each byte of kernel k's parameter space can do (src/analysis/params.c
 * says how it is found): WS_PARAM_CONTROL when a value loaded from it can
 * reach a branch condition or guard, a memory address, a call, a barrier,
 * or a store to non-global memory — it can change which instructions run
 * and what memory they touch; 0 when it only flows into computed values or
 * is never read.  WS_PARAM_WIDE marks the first byte of an 8-byte integer
 * load (a pointer, or a 64-bit count).  *out (k->param_bytes entries,
 * caller frees) and *nbytes.  WS_OK or WS_ENOMEM. */
enum { WS_PARAM_CONTROL = 1, WS_PARAM_WIDE = 2 };
int ws_analysis_param_use(uint8_t **out, uint64_t *nbytes, const ws_ptx_function *k,
                          ws_diag *d);

#ifdef __cplusplus
}
#endif
#endif
