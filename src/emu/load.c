/*
 * load.c — decode a kernel (and every function it calls) into the
 * emulator's executable form, once: each instruction through its decoder
 * (decode.c, ops/), branch reconvergence points (immediate post-dominators),
 * frame and shared-memory layouts, the constant bank and module variable
 * addresses.  Any instruction the executor does not implement is refused
 * here, naming it and its PTX line.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/decode.h"
#include "emu/jit/jit.h"
#include "emu/num.h"
#include "util/checked.h"
#include "util/vec.h"
#include "warpsight/analysis.h"

static uint64_t align_up(uint64_t v, uint64_t a) {
  if (a < 1) a = 1;
  return (v + a - 1) / a * a;
}

/* ---- from the control-flow graph: reconvergence, registers to clear ----- */

/* Which registers an instruction reads in lanes other than those that
 * execute it: CROSS_NONE; CROSS_A its source a (shfl: the source lane may
 * have exited, or not exist); CROSS_ALL every register it reads (the
 * warp-wide matrix instructions read all 32 lanes' operands, mma.h).  An
 * executor that reads other lanes' registers names itself here, so that
 * frames clear them (zero_slots). */
enum { CROSS_NONE, CROSS_A, CROSS_ALL };
static int cross_lane_reads(const dinst *di) {
  switch (di->op) {
  case D_SHFL: return CROSS_A;
  case D_MMA:
  case D_WMMA_LD:
  case D_WMMA_ST:
  case D_LDMATRIX:
  case D_STMATRIX:
  case D_MOVMATRIX: return CROSS_ALL;
  default: return CROSS_NONE;
  }
}

/* The value slots a new frame of df must clear (df->zero_slots): the
 * registers some lane may read before writing them, i.e. those live at
 * the function's entry (a guarded write does not count: its guard may be
 * false), and every register an instruction reads in other lanes
 * (cross_lane_reads: shfl's source, the matrix instructions' operands),
 * since those lanes need not have run the code before it (an exited or
 * absent lane supplies its register as it is).  Every other register is written before any lane
 * reads it, so a frame that reuses a warp's registers from an earlier
 * block needs no clearing: the results are the same as with cleared
 * registers (docs/emulator.md, "Registers"), and clearing ~30 KB per warp
 * was a fifth of Black-Scholes' time (issue 22).  When the analysis left
 * registers out (WS_ANALYSIS_MAX_REGS) every register is cleared. */
static int zero_slots(dfunc *df, const ws_cfg *c) {
  const ws_ptx_function *f = df->f;
  uint32_t nr = f->nregs, nb = c->nblocks;
  size_t W = (nr + 63) / 64 + 1;
  uint64_t *live = calloc((size_t)nb * W, sizeof *live);  /* per block: live at its start */
  uint64_t *use = calloc((size_t)nb * W, sizeof *use);   /* read before written in it */
  uint64_t *kill = calloc((size_t)nb * W, sizeof *kill); /* written unguarded in it */
  uint64_t *tmp = calloc(W, sizeof *tmp), *need = calloc(W, sizeof *need);
  int st = WS_ENOMEM;
  if (!live || !use || !kill || !tmp || !need) goto done;
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu, all = c->regs_cut != 0;
  for (uint32_t b = 0; b < nb && !all; b++) {
    uint64_t *u = use + (size_t)b * W, *k = kill + (size_t)b * W;
    for (uint32_t i = c->blocks[b].first; i < c->blocks[b].end && i < f->ninsts; i++) {
      const ws_ptx_inst *in = &f->insts[i];
      if (ws_analysis_inst_regs(f, in, defs, &nd, uses, &nu)) all = 1;
      for (int j = 0; j < nu; j++)
        if (uses[j] < nr && !(k[uses[j] / 64] >> (uses[j] % 64) & 1)) u[uses[j] / 64] |= 1ull << (uses[j] % 64);
      if (in->guard < 0)
        for (int j = 0; j < nd; j++)
          if (defs[j] < nr) k[defs[j] / 64] |= 1ull << (defs[j] % 64);
    }
  }
  /* live(b) = use(b) | (union of live(successors) & ~kill(b)), to a fixed point */
  for (int changed = !all; changed;) {
    changed = 0;
    for (uint32_t b = nb; b-- > 0;) {
      memset(tmp, 0, W * sizeof *tmp);
      for (uint32_t e = 0; e < c->blocks[b].nsucc; e++) {
        uint32_t s = c->blocks[b].succ[e];
        if (s < nb)
          for (size_t w = 0; w < W; w++) tmp[w] |= live[(size_t)s * W + w];
      }
      uint64_t *lb = live + (size_t)b * W;
      for (size_t w = 0; w < W; w++) {
        uint64_t v = use[(size_t)b * W + w] | (tmp[w] & ~kill[(size_t)b * W + w]);
        if (v != lb[w]) lb[w] = v, changed = 1;
      }
    }
  }
  if (nb) memcpy(need, live, W * sizeof *need); /* block 0 is the entry */
  for (uint32_t i = 0; i < f->ninsts && !all; i++) {
    int x = cross_lane_reads(&df->code[i]);
    if (x == CROSS_A && df->code[i].a < nr) {
      uses[0] = df->code[i].a;
      nu = 1;
    } else if (x != CROSS_ALL || ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu)) {
      all |= x == CROSS_ALL;
      nu = 0;
    }
    for (int j = 0; j < nu; j++)
      if (uses[j] < nr) need[uses[j] / 64] |= 1ull << (uses[j] % 64);
  }
  uint32_t n = 0;
  for (uint32_t r = 0; r < nr; r++) n += all || (need[r / 64] >> (r % 64) & 1);
  df->zero_slots = malloc((n + 1) * sizeof *df->zero_slots);
  if (!df->zero_slots) goto done;
  for (uint32_t r = 0; r < nr; r++)
    if (all || (need[r / 64] >> (r % 64) & 1)) df->zero_slots[df->nzero++] = r;
  st = WS_OK;
done:
  free(live), free(use), free(kill), free(tmp), free(need);
  return st;
}

/* Each branch reconverges at the first instruction of its block's immediate
 * post-dominator (analysis/cfg.c); func->ninsts, the implicit return at the
 * end, when only the function's exit post-dominates it.  And the registers
 * a frame clears (zero_slots).  From the function's CFG, D->cfg. */
static int compute_rpcs(dec *D, dfunc *df) {
  const ws_cfg *c = D->cfg;
  for (uint32_t b = 0; b < c->nblocks; b++)
    if (c->blocks[b].first < df->f->ninsts) df->code[c->blocks[b].first].bb_entry = 1;
  for (uint32_t i = 0; i < df->f->ninsts; i++)
    if (df->code[i].op == D_BRA || df->code[i].op == D_BRX) df->code[i].rpc = ws_analysis_cfg_reconverge_inst(c, i);
  return zero_slots(df, c);
}

/* The runs of plain instructions the hooks may get as one event
 * (ws_emu_hooks.runs): each instruction's dinst.run, the instructions from
 * it to the end of its run.  A run is a maximal sequence of consecutive
 * unguarded instructions of one basic block whose executors only compute
 * on registers (ws_emu_dop_plain) and report no addresses (hookmem).  It
 * starts at a basic block's first instruction or after an instruction that
 * is not plain, and every point where a warp starts or resumes running is
 * one of these (run_warp in exec.c relies on it), so a warp runs a run
 * whole from its first instruction, or stops in it only at a fault:
 *  - a branch's target and its reconvergence pc start basic blocks
 *    (compute_rpcs: the first instruction of a block); a call's callee
 *    starts at its pc 0, a block's first;
 *  - a warp resumes after a call, a return, a barrier, a yield (an
 *    mbarrier wait, a spin point) or its quantum (counted at branches)
 *    just after the instruction that stopped it, none of them plain, or
 *    at a reconvergence stack entry's pc, which a branch or a call pushed
 *    (a target, the pc after a branch or a call, the call itself);
 *  - no plain instruction changes the warp's lanes, pc or state (its
 *    executor returns FL_NEXT or FL_FAULT), so the warp loop goes on to
 *    the next instruction of the run.
 * run_warp still emits the remainder of a run it enters in the middle, so
 * the events stay exact even if one of these ever stopped holding. */
static void mark_runs(dfunc *df) {
  uint32_t next = 0; /* dinst.run of the instruction after i, or 0 */
  for (uint32_t i = df->f->ninsts; i-- > 0;) {
    dinst *di = &df->code[i];
    int plain = di->guard < 0 && !di->hookmem && ws_emu_dop_plain(di->op);
    di->run = plain ? 1 + next : 0;
    next = di->bb_entry ? 0 : di->run;
  }
}

/* ---- layout ---------------------------------------------------------------- */

static int layout_frame(dec *D, dfunc *df, const ws_ptx_function *f) {
  uint64_t off = 0;
  df->var_off = calloc(f->nvars + 1, sizeof *df->var_off);
  df->param_off = calloc(f->nparams + 1, sizeof *df->param_off);
  df->ret_off = calloc(f->nrets + 1, sizeof *df->ret_off);
  if (!df->var_off || !df->param_off || !df->ret_off) return WS_ENOMEM;
  for (uint32_t i = 0; i < f->nvars; i++) {
    const ws_ptx_var *v = &f->vars[i];
    if (v->space == WS_PTX_SP_SHARED) {
      /* a function-scope .shared variable: static shared memory (prepass) */
      df->var_off[i] = D->P->fsh_base + D->P->fsh[D->cur_mf][i];
      continue;
    }
    if (v->space != WS_PTX_SP_LOCAL && v->space != WS_PTX_SP_PARAM) continue;
    off = align_up(off, v->align > 8 ? v->align : 8);
    df->var_off[i] = off;
    off += v->size ? v->size : 8;
  }
  if (!f->is_entry) {
    for (uint32_t i = 0; i < f->nparams; i++) {
      off = align_up(off, f->params[i].align > 8 ? f->params[i].align : 8);
      df->param_off[i] = off;
      off += f->params[i].size ? f->params[i].size : 8;
    }
    for (uint32_t i = 0; i < f->nrets; i++) {
      off = align_up(off, f->rets[i].align > 8 ? f->rets[i].align : 8);
      df->ret_off[i] = off;
      off += f->rets[i].size ? f->rets[i].size : 8;
    }
  }
  df->frame_bytes = align_up(off, 16);
  return WS_OK;
}

static int decode_body(dec *D, dfunc *df, const ws_ptx_function *f) {
  int st;
  D->df = df;
  D->f = f;
  D->nconsts = 0;
  df->f = f;
  df->ncode = f->ninsts + 1;
  df->code = calloc(df->ncode, sizeof *df->code);
  df->pred_of_reg = malloc((f->nregs + 1) * sizeof *df->pred_of_reg);
  if (!df->code || !df->pred_of_reg) return WS_ENOMEM;
  for (uint32_t r = 0; r < f->nregs; r++)
    df->pred_of_reg[r] = f->regs[r].type == WS_PTX_T_PRED ? df->npreds++ : NO_SLOT;
  D->scratch = f->nregs;
  df->nconst_first = f->nregs + 1;
  if ((st = layout_frame(D, df, f))) return st;
  for (uint32_t i = 0; i < f->ninsts; i++) {
    const ws_ptx_inst *in = &f->insts[i];
    dinst *di = &df->code[i];
    di->pc = i;
    di->guard = -1;
    if (in->guard >= 0) {
      if ((uint32_t)in->guard >= f->nregs || f->regs[in->guard].type != WS_PTX_T_PRED)
        return ws_emu_dec_unsup(D, in, "guard is not a predicate");
      di->guard = (int32_t)df->pred_of_reg[in->guard];
      di->gnot = in->guard_not;
    }
    if ((st = ws_emu_dec_inst(D, in, di))) return st;
  }
  dinst *last = &df->code[f->ninsts];
  last->op = f->is_entry ? D_EXIT : D_RET;
  last->guard = -1;
  last->pc = f->ninsts;
  last->d = last->a = last->b = last->c = last->e = last->d2 = NO_SLOT;
  if ((st = compute_rpcs(D, df))) return st;
  mark_runs(df);
  df->nslots = df->nconst_first + D->nconsts;
  df->const_vals = malloc((D->nconsts + 1) * sizeof *df->const_vals);
  if (!df->const_vals) return WS_ENOMEM;
  if (D->nconsts) memcpy(df->const_vals, D->consts, D->nconsts * sizeof *df->const_vals);
  return WS_OK;
}

/* Decode function f into df, with its CFG at hand (D->cfg): the decoders
 * of shfl, vote and match read it (ws_emu_full_mask), compute_rpcs after
 * them. */
static int decode_func(dec *D, dfunc *df, const ws_ptx_function *f) {
  ws_cfg *c = NULL;
  int st = ws_analysis_build(&c, D->m, f, D->d);
  if (st) return st;
  D->cfg = c;
  st = decode_body(D, df, f);
  D->cfg = NULL;
  ws_analysis_free(c);
  return st;
}

/* A module variable whose address would pass 2^64 (each is at most
 * WS_PTX_MAX_VAR_BYTES, but there may be very many). */
static int too_big(dec *D, const ws_ptx_var *v) {
  ws_diag_add(D->d, WS_SEV_ERROR, D->m->path, (int)v->line, 0,
              "module variables up to '%s' need more than 2^64 bytes of address space", v->name);
  return WS_EINVAL;
}

/* Module variables: .global in the global window, .const in the constant
 * bank, .shared in static shared memory. */
static int layout_module(dec *D, const uint8_t *used, uint64_t func_shared) {
  ws_emu_program *P = D->P;
  const ws_ptx_module *m = D->m;
  uint64_t g = GLOBAL_BASE, c = 0, s = 0, dynalign = 16;
  P->mvar_addr = calloc(m->nvars + 1, sizeof *P->mvar_addr);
  P->sobjs = calloc(m->nvars + 1, sizeof *P->sobjs);
  if (!P->mvar_addr || !P->sobjs) return WS_ENOMEM;
  for (uint32_t i = 0; i < m->nvars; i++) {
    const ws_ptx_var *v = &m->vars[i];
    uint64_t al = v->align ? v->align : 1;
    switch (v->space) {
    case WS_PTX_SP_GLOBAL:
      g = align_up(g, al > 256 ? al : 256);
      P->mvar_addr[i] = g;
      if (ws_add3_u64(&g, g, v->size, GLOBAL_GAP)) return too_big(D, v);
      break;
    case WS_PTX_SP_CONST:
      c = align_up(c, al);
      P->mvar_addr[i] = c;
      P->sobjs[P->nsobjs++] = (sobj){MS_CONST, c, v->size, v->name};
      if (ws_add_u64(&c, c, v->size)) return too_big(D, v);
      break;
    case WS_PTX_SP_SHARED:
      if (!used[i]) break;
      if (v->unsized || v->size == 0) {
        if (al > dynalign) dynalign = al;
        P->mvar_addr[i] = UINT64_MAX; /* set after the static layout */
        break;
      }
      s = align_up(s, al);
      P->mvar_addr[i] = s;
      P->sobjs[P->nsobjs++] = (sobj){MS_SHARED, s, v->size, v->name};
      if (ws_add_u64(&s, s, v->size)) return too_big(D, v);
      break;
    default:
      break;
    }
  }
  P->gvar_end = g;
  P->const_bytes = c;
  P->shared_static = s;
  P->shared_dyn_align = dynalign;
  /* dynamic (extern, unsized) arrays all start after the static ones, which
   * include the function-scope .shared variables decode_func() lays out */
  P->fsh_base = align_up(s, 256);
  uint64_t dyn = align_up(P->fsh_base + func_shared, dynalign);
  if (s > WS_EMU_MAX_SHARED_BYTES || func_shared > WS_EMU_MAX_SHARED_BYTES || dyn > WS_EMU_MAX_SHARED_BYTES) {
    ws_diag_add(D->d, WS_SEV_ERROR, m->path, 0, 0,
                "the kernel's static shared memory (at least %llu bytes) exceeds the limit of %llu bytes per block",
                (unsigned long long)(s > func_shared ? (s > dyn ? s : dyn) : (func_shared > dyn ? func_shared : dyn)),
                (unsigned long long)WS_EMU_MAX_SHARED_BYTES);
    return WS_EINVAL;
  }
  for (uint32_t i = 0; i < m->nvars; i++)
    if (m->vars[i].space == WS_PTX_SP_SHARED && used[i] && P->mvar_addr[i] == UINT64_MAX) {
      P->mvar_addr[i] = dyn;
      P->sobjs[P->nsobjs++] = (sobj){MS_SHARED, dyn, 0, m->vars[i].name};
    }
  P->shared_dyn_base = dyn;
  P->shared_static = align_up(s, 16);
  return WS_OK;
}

/* Which functions the kernel reaches and which module .shared variables they
 * use; bytes of their function-scope .shared variables (laid out in the
 * same order and with the same alignment as layout_frame). */
static int prepass(dec *D, uint32_t kernel) {
  const ws_ptx_module *m = D->m;
  int *q = malloc((m->nfuncs + 1) * sizeof *q);
  uint8_t *seen = calloc(m->nfuncs + 1, 1), *used = calloc(m->nvars + 1, 1);
  int nq = 0, st = WS_ENOMEM;
  uint64_t fs = 0;
  D->P->fsh = calloc(m->nfuncs + 1, sizeof *D->P->fsh);
  if (!q || !seen || !used || !D->P->fsh) goto out;
  q[nq++] = (int)kernel;
  seen[kernel] = 1;
  /* functions whose addresses initialise module variables (indirect calls) */
  for (uint32_t v = 0; v < m->nvars; v++)
    for (uint32_t i = 0; i < m->vars[v].ninit; i++) {
      const ws_ptx_init *e = &m->vars[v].init[i];
      if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_FUNC && e->sym < m->nfuncs &&
          m->funcs[e->sym].has_body && !seen[e->sym]) {
        seen[e->sym] = 1;
        q[nq++] = (int)e->sym;
      }
    }
  D->ninit_funcs = nq - 1;
  for (int qi = 0; qi < nq; qi++) {
    const ws_ptx_function *f = &m->funcs[q[qi]];
    /* function-scope .shared variables: offsets relative to fsh_base */
    D->P->fsh[q[qi]] = calloc(f->nvars + 1, sizeof **D->P->fsh);
    if (!D->P->fsh[q[qi]]) goto out;
    for (uint32_t i = 0; i < f->nvars; i++)
      if (f->vars[i].space == WS_PTX_SP_SHARED) {
        fs = align_up(fs, f->vars[i].align ? f->vars[i].align : 4);
        D->P->fsh[q[qi]][i] = fs;
        fs += f->vars[i].size; /* each <= WS_PTX_MAX_VAR_BYTES: no wrap before the check */
      }
    for (uint32_t i = 0; i < f->ninsts; i++) {
      const ws_ptx_inst *in = &f->insts[i];
      for (int k = 0; k < in->nops; k++) {
        const ws_ptx_operand *o = &in->ops[k];
        if ((o->kind == WS_PTX_O_ADDR || o->kind == WS_PTX_O_SYM) && o->symkind == WS_PTX_S_GLOBAL)
          used[o->reg] = 1;
        if (o->kind == WS_PTX_O_SYM && o->symkind == WS_PTX_S_FUNC && !seen[o->reg]) {
          seen[o->reg] = 1;
          q[nq++] = (int)o->reg;
        }
      }
    }
  }
  st = layout_module(D, used, fs);
  if (!st) {
    /* keep the initialiser-referenced functions for ws_emu_load to decode */
    D->init_q = malloc(((size_t)nq + 1) * sizeof *D->init_q);
    if (!D->init_q) st = WS_ENOMEM;
    else memcpy(D->init_q, q, (size_t)nq * sizeof *q);
  }
out:
  free(q);
  free(seen);
  free(used);
  return st;
}

/* Store initializer element e of variable v at image[off]. */
static void put_init(const ws_emu_program *P, uint8_t *img, uint64_t size, uint64_t off,
                     const ws_ptx_var *v, const ws_ptx_init *e) {
  int es = ws_ptx_type_size((ws_ptx_type)v->type);
  uint64_t bits = (uint64_t)e->value;
  if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_FUNC) {
    bits = FUNC_ADDR_BASE + 16 * (uint64_t)e->sym; /* decoded by ws_emu_load */
    es = 8;
  } else if (e->kind == WS_PTX_O_SYM) {
    bits = P->mvar_addr[e->sym] + (uint64_t)e->value;
    if (e->generic && P->m->vars[e->sym].space == WS_PTX_SP_CONST) bits += CONST_WIN;
    es = 8;
  } else if (e->kind == WS_PTX_O_IMM_F64 && v->type == WS_PTX_T_F32) {
    bits = ws_emu_num_cvt(bits, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, 0, 0);
  } else if (e->kind == WS_PTX_O_IMM_F32 && v->type == WS_PTX_T_F64) {
    bits = ws_emu_num_cvt(bits, WS_NUM_F32, WS_NUM_F64, WS_NUM_RN, 0, 0);
  }
  if (es < 1 || es > 8) es = 8;
  if (off + (uint64_t)es <= size) memcpy(img + off, &bits, (size_t)es);
}

/* Initial bytes of a module variable (zero where there is no initializer). */
void ws_emu_var_image(const ws_emu_program *P, const ws_ptx_var *v, uint8_t *img);
void ws_emu_var_image(const ws_emu_program *P, const ws_ptx_var *v, uint8_t *img) {
  int es = ws_ptx_type_size((ws_ptx_type)v->type);
  if (es < 1) es = 1;
  for (uint32_t i = 0; i < v->ninit; i++) {
    uint64_t step = v->init[i].kind == WS_PTX_O_SYM && es < 8 ? 8 : (uint64_t)es;
    put_init(P, img, v->size, (uint64_t)i * step, v, &v->init[i]);
  }
}

void ws_emu_program_free(ws_emu_program *p) {
  if (!p) return;
  ws_emu_jit_code_free(p->jit);
  for (uint32_t i = 0; i < p->nfuncs; i++) {
    dfunc *df = &p->funcs[i];
    free(df->code);
    free(df->const_vals);
    free(df->pred_of_reg);
    free(df->zero_slots);
    free(df->vslots);
    free(df->var_off);
    free(df->param_off);
    free(df->ret_off);
  }
  free(p->funcs);
  if (p->fsh)
    for (uint32_t i = 0; i < p->m->nfuncs; i++) free(p->fsh[i]);
  free(p->fsh);
  free(p->func_of_ir);
  free(p->mvar_addr);
  free(p->const_image);
  free(p->sobjs);
  free(p);
}

uint64_t ws_emu_default_memory_budget(void) {
  /* half the machine's memory: from /proc/meminfo (Linux), else sysconf */
  unsigned long long kb = 0;
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) break;
    fclose(f);
  }
  uint64_t total = (uint64_t)kb * 1024;
  if (!total) {
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    total = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 8ull << 30;
  }
  return total / 2;
}

void ws_emu_program_set_memory_budget(ws_emu_program *p, uint64_t bytes) {
  p->mem_budget = bytes;
}

const ws_ptx_function *ws_emu_program_kernel(const ws_emu_program *p) {
  return p->funcs[0].f;
}

static int load_program(ws_emu_program **out, const ws_ptx_module *m, const char *kernel, ws_diag *d) {
  *out = NULL;
  int ki = -1;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].is_entry && m->funcs[i].has_body && strcmp(m->funcs[i].name, kernel) == 0) ki = (int)i;
  if (ki < 0) {
    ws_diag_add(d, WS_SEV_ERROR, m->path, 0, 0, "no kernel named '%s' in this module", kernel);
    int n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
      if (m->funcs[i].is_entry) {
        if (!n++) ws_diag_add(d, WS_SEV_NOTE, m->path, 0, 0, "kernels in this module:");
        ws_diag_add(d, WS_SEV_NOTE, m->path, (int)m->funcs[i].line, 0, "  %s", m->funcs[i].name);
      }
    return WS_EINVAL;
  }
  ws_emu_program *P = calloc(1, sizeof *P);
  dec D = {0};
  int st = WS_ENOMEM;
  if (!P) return st;
  P->m = m;
  P->mem_budget = ws_emu_default_memory_budget();
  P->func_of_ir = malloc((m->nfuncs + 1) * sizeof *P->func_of_ir);
  P->funcs = calloc(m->nfuncs + 1, sizeof *P->funcs);
  D.queue = malloc((m->nfuncs + 1) * sizeof *D.queue);
  if (!P->func_of_ir || !P->funcs || !D.queue) goto fail;
  for (uint32_t i = 0; i < m->nfuncs; i++) P->func_of_ir[i] = -1;
  D.P = P;
  D.m = m;
  D.d = d;
  if ((st = prepass(&D, (uint32_t)ki))) goto fail;
  uint32_t dummy;
  ws_emu_dec_queue_func(&D, (uint32_t)ki, &dummy);
  for (int i = 0; i < D.ninit_funcs; i++) ws_emu_dec_queue_func(&D, (uint32_t)D.init_q[i + 1], &dummy);
  for (int qi = 0; qi < D.nqueue; qi++) {
    D.cur_mf = (uint32_t)D.queue[qi];
    dfunc *df = &P->funcs[qi];
    df->index = qi;
    P->nfuncs = (uint32_t)qi + 1;
    D.nvs = 0;
    if ((st = decode_func(&D, df, &m->funcs[D.queue[qi]]))) goto fail;
    df->vslots = malloc((D.nvs + 1) * sizeof *df->vslots);
    if (!df->vslots) {
      st = WS_ENOMEM;
      goto fail;
    }
    if (D.nvs) memcpy(df->vslots, D.vs, D.nvs * sizeof *D.vs);
  }
  st = WS_OK;
  P->const_image = calloc(P->const_bytes + 1, 1);
  if (!P->const_image) {
    st = WS_ENOMEM;
    goto fail;
  }
  for (uint32_t i = 0; i < m->nvars; i++)
    if (m->vars[i].space == WS_PTX_SP_CONST) ws_emu_var_image(P, &m->vars[i], P->const_image + P->mvar_addr[i]);
  free(D.consts);
  free(D.vs);
  free(D.queue);
  free(D.init_q);
  *out = P;
  return WS_OK;
fail:
  free(D.consts);
  free(D.vs);
  free(D.queue);
  free(D.init_q);
  ws_emu_program_free(P);
  return st;
}

int ws_emu_load(ws_emu_program **out, const ws_ptx_module *m, const char *kernel, ws_diag *d) {
  size_t before = d ? d->errors : 0;
  int st = load_program(out, m, kernel, d);
  return ws_diag_oom(d, st, before, m->path, "loading kernel '%s' into the emulator (decoding %u functions)",
                     kernel, m->nfuncs);
}
