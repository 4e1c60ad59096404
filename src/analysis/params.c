/*
 * params.c — which bytes of a kernel's parameters can change what the
 * kernel does, as opposed to only the values it computes
 * (ws_analysis_param_use, warpsight/analysis.h).  The CUDA runtime keys its
 * launch reuse on them (docs/exec.md, "Launch reuse").
 *
 * A flow-insensitive taint: every `ld.param` of the kernel is a source;
 * a register is tainted by the sources of every register any instruction
 * that defines it reads (iterated to a fixed point, so loops and any
 * definition order are covered; conservative: a register reused for two
 * values carries both).  A source is CONTROL when its taint reaches a
 * sink: a guard predicate (it decides which lanes run an instruction,
 * branches included), a register an address is formed from, an indirect
 * branch or call, a barrier's operands, texture and surface coordinates, an
 * alloca size or sleep time, or a value stored to shared, local, parameter
 * or generic memory (a later load could bring it back to a sink; stores to
 * global memory are only results).  Taking a parameter's address (a
 * `mov` of its symbol) makes all of that parameter CONTROL.
 */
#include <stdlib.h>
#include <string.h>

#include "warpsight/analysis.h"

/* The registers an operand reads: a register, a vector's registers, an
 * address's base register. */
static int op_regs(const ws_ptx_function *f, const ws_ptx_operand *o, uint32_t *out, int cap) {
  int n = 0;
  if (o->kind == WS_PTX_O_REG) {
    out[n++] = o->reg;
  } else if (o->kind == WS_PTX_O_ADDR && o->symkind == WS_PTX_S_NONE) {
    out[n++] = o->reg;
  } else if (o->kind == WS_PTX_O_VEC || o->kind == WS_PTX_O_LIST || o->kind == WS_PTX_O_TEXADDR) {
    for (uint32_t i = 0; i < o->comp && o->reg + i < f->nextra && n < cap; i++) {
      const ws_ptx_operand *e = &f->extra[o->reg + i];
      if (e->kind == WS_PTX_O_REG || (e->kind == WS_PTX_O_ADDR && e->symkind == WS_PTX_S_NONE))
        out[n++] = e->reg;
    }
  }
  return n;
}

/* Is every use of this instruction a sink (not only its guard and
 * addresses)? */
static int all_uses_sink(const ws_ptx_inst *in) {
  switch (in->op) {
  case WS_PTX_OP_BRX_IDX: case WS_PTX_OP_CALL: case WS_PTX_OP_BAR: case WS_PTX_OP_BARRIER:
  case WS_PTX_OP_BAR_WARP_SYNC: case WS_PTX_OP_TEX: case WS_PTX_OP_TLD4: case WS_PTX_OP_SULD:
  case WS_PTX_OP_SUST: case WS_PTX_OP_SURED: case WS_PTX_OP_ALLOCA: case WS_PTX_OP_NANOSLEEP:
  case WS_PTX_OP_STACKRESTORE:
    return 1;
  default:
    return 0;
  }
}

/* A store (or atomic) whose values could come back to a sink through a
 * later load: not to global memory. */
static int stores_back(const ws_ptx_inst *in) {
  if (in->op != WS_PTX_OP_ST && in->op != WS_PTX_OP_ATOM && in->op != WS_PTX_OP_RED) return 0;
  return in->space != WS_PTX_SP_GLOBAL;
}

int ws_analysis_param_use(uint8_t **out, uint64_t *nbytes, const ws_ptx_function *k, ws_diag *d) {
  *out = NULL;
  *nbytes = 0;
  uint64_t size = 0;
  for (uint32_t i = 0; i < k->nparams; i++) {
    uint64_t end = k->params[i].offset + k->params[i].size;
    if (end > size) size = end;
  }
  uint32_t nsrc = 0;
  for (uint32_t i = 0; i < k->ninsts; i++) {
    const ws_ptx_inst *in = &k->insts[i];
    nsrc += in->op == WS_PTX_OP_LD && in->nops > 1 && in->ops[1].kind == WS_PTX_O_ADDR &&
            in->ops[1].symkind == WS_PTX_S_PARAM;
  }
  size_t words = (nsrc + 63) / 64 ? (nsrc + 63) / 64 : 1;
  uint8_t *use = calloc(size ? size : 1, 1);
  uint64_t *taint = calloc((size_t)k->nregs * words + 1, sizeof *taint);
  uint64_t *sunk = calloc(words, sizeof *sunk), *acc = calloc(words, sizeof *acc);
  uint32_t *src_inst = calloc(nsrc ? nsrc : 1, sizeof *src_inst);
  if (!use || !taint || !sunk || !acc || !src_inst) {
    free(use), free(taint), free(sunk), free(acc), free(src_inst);
    return ws_diag_error(d, "out of memory analysing the parameters of kernel '%s'", k->name),
           WS_ENOMEM;
  }
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu, changed = 1;
  /* the sources, and a parameter whose address is taken */
  for (uint32_t i = 0, s = 0; i < k->ninsts; i++) {
    const ws_ptx_inst *in = &k->insts[i];
    if (in->op == WS_PTX_OP_LD && in->nops > 1 && in->ops[1].kind == WS_PTX_O_ADDR &&
        in->ops[1].symkind == WS_PTX_S_PARAM) {
      src_inst[s++] = i;
      continue;
    }
    for (int o = 0; o < in->nops; o++) {
      const ws_ptx_operand *x = &in->ops[o];
      if ((x->kind == WS_PTX_O_SYM || x->kind == WS_PTX_O_ADDR) && x->symkind == WS_PTX_S_PARAM &&
          x->reg < k->nparams)
        memset(use + k->params[x->reg].offset, 1, k->params[x->reg].size);
    }
  }
  /* taint to a fixed point (each pass can only add bits) */
  while (changed) {
    changed = 0;
    for (uint32_t i = 0, s = 0; i < k->ninsts; i++) {
      const ws_ptx_inst *in = &k->insts[i];
      ws_analysis_inst_regs(k, in, defs, &nd, uses, &nu);
      memset(acc, 0, words * sizeof *acc);
      if (s < nsrc && src_inst[s] == i) {
        acc[s / 64] |= 1ull << (s % 64);
        s++;
      }
      for (int u = 0; u < nu; u++)
        for (size_t w = 0; w < words; w++) acc[w] |= taint[(size_t)uses[u] * words + w];
      for (int x = 0; x < nd; x++)
        for (size_t w = 0; w < words; w++) {
          uint64_t *t = &taint[(size_t)defs[x] * words + w];
          if ((*t | acc[w]) != *t) *t |= acc[w], changed = 1;
        }
    }
  }
  /* the sinks */
  for (uint32_t i = 0; i < k->ninsts; i++) {
    const ws_ptx_inst *in = &k->insts[i];
    uint32_t r[WS_ANALYSIS_MAX_REGS];
    int n = 0;
    if (in->guard >= 0) r[n++] = (uint32_t)in->guard;
    if (all_uses_sink(in)) {
      ws_analysis_inst_regs(k, in, defs, &nd, uses, &nu);
      for (int u = 0; u < nu && n < WS_ANALYSIS_MAX_REGS; u++) r[n++] = uses[u];
    }
    for (int o = 0; o < in->nops && n < WS_ANALYSIS_MAX_REGS - 8; o++) {
      const ws_ptx_operand *x = &in->ops[o];
      int value_of_store = stores_back(in) && x->kind != WS_PTX_O_ADDR && o > 0;
      if (x->kind == WS_PTX_O_ADDR || value_of_store)
        n += op_regs(k, x, r + n, WS_ANALYSIS_MAX_REGS - n);
    }
    for (int j = 0; j < n; j++)
      if (r[j] < k->nregs)
        for (size_t w = 0; w < words; w++) sunk[w] |= taint[(size_t)r[j] * words + w];
  }
  for (uint32_t s = 0; s < nsrc; s++) {
    const ws_ptx_inst *in = &k->insts[src_inst[s]];
    const ws_ptx_operand *a = &in->ops[1];
    if (a->reg >= k->nparams) continue;
    uint64_t off = k->params[a->reg].offset + (uint64_t)a->imm;
    int t = in->ntypes ? in->type[0] : WS_PTX_T_NONE;
    uint64_t width = (uint64_t)ws_ptx_type_size((ws_ptx_type)t) * (in->vec ? in->vec : 1);
    if (off >= size) continue;
    if (width > size - off) width = size - off;
    if (sunk[s / 64] >> (s % 64) & 1)
      for (uint64_t b = 0; b < width; b++) use[off + b] |= WS_PARAM_CONTROL;
    if (width == 8 && in->vec <= 1 &&
        (t == WS_PTX_T_U64 || t == WS_PTX_T_S64 || t == WS_PTX_T_B64))
      use[off] |= WS_PARAM_WIDE;
  }
  free(taint), free(sunk), free(acc), free(src_inst);
  *out = use;
  *nbytes = size;
  return WS_OK;
}
