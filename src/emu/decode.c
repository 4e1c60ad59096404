/*
 * decode.c — the decoders' toolkit (decode.h): IR operands into slots,
 * constants, vector operands, addresses and state spaces, refusals; and
 * ws_emu_dec_inst, which fills the fields every form shares and calls the
 * decoder that dops.def names for the opcode (the decoders live beside
 * their executors in ops/, compiled in exec.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/decode.h"
#include "emu/num.h"
#include "util/vec.h"
#include "warpsight/analysis.h"

int ws_emu_dec_unsup(dec *D, const ws_ptx_inst *in, const char *why) {
  char *txt = NULL;
  ws_ptx_print_inst(&txt, D->m, D->f, in);
  ws_diag_add(D->d, WS_SEV_ERROR, ws_ptx_func_path(D->m, D->f), (int)in->line, (int)in->col,
              "instruction not implemented by the emulator%s%s%s: %s (in %s)", why ? " (" : "", why ? why : "",
              why ? ")" : "", txt ? txt : ws_ptx_opcode_name((ws_ptx_opcode)in->op), D->f->name);
  free(txt);
  return WS_EUNSUP;
}

int ws_emu_dec_const(dec *D, uint64_t v, uint32_t *out) {
  for (uint32_t i = 0; i < D->nconsts; i++)
    if (D->consts[i] == v) {
      *out = D->df->nconst_first + i;
      return WS_OK;
    }
  if (WS_VEC_RESERVE(D->consts, D->cconsts, (size_t)D->nconsts + 1)) return WS_ENOMEM;
  D->consts[D->nconsts] = v;
  *out = D->df->nconst_first + D->nconsts++;
  return WS_OK;
}

/* An immediate converted to the bits an operand of type t expects. */
static uint64_t imm_bits(const ws_ptx_operand *o, int t) {
  if (o->kind == WS_PTX_O_IMM_F64 && t == WS_PTX_T_F32)
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, 0, 0);
  if (o->kind == WS_PTX_O_IMM_F32 && t == WS_PTX_T_F64)
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F32, WS_NUM_F64, WS_NUM_RN, 0, 0);
  int bits = tbits(t);
  return (uint64_t)o->imm & wmask_of(bits < 8 ? 64 : bits);
}

int ws_emu_dec_src(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, uint32_t *out) {
  switch (o->kind) {
  case WS_PTX_O_REG:
    if (is_pred_reg(D, o->reg)) return ws_emu_dec_unsup(D, in, "predicate used as a value");
    if (o->flags & WS_PTX_OF_NEG) return ws_emu_dec_unsup(D, in, "negated register operand");
    *out = o->reg;
    return WS_OK;
  case WS_PTX_O_IMM_INT:
  case WS_PTX_O_IMM_F32:
  case WS_PTX_O_IMM_F64:
    return ws_emu_dec_const(D, imm_bits(o, t), out);
  case WS_PTX_O_SYM:
    if (o->symkind == WS_PTX_S_GLOBAL) /* a module variable: its address in its space */
      return ws_emu_dec_const(D, D->P->mvar_addr[o->reg] + (uint64_t)o->imm, out);
    if (o->symkind == WS_PTX_S_LOCAL && D->f->vars[o->reg].space == WS_PTX_SP_SHARED)
      return ws_emu_dec_const(D, D->df->var_off[o->reg] + (uint64_t)o->imm, out);
    if (o->symkind == WS_PTX_S_PARAM && D->f->is_entry)
      return ws_emu_dec_const(D, D->f->params[o->reg].offset + (uint64_t)o->imm, out);
    return ws_emu_dec_unsup(D, in, "symbol used as a value here");
  default:
    return ws_emu_dec_unsup(D, in, "operand kind");
  }
}

int ws_emu_dec_dst(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out) {
  if (o->kind == WS_PTX_O_SINK) {
    *out = D->scratch;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || is_pred_reg(D, o->reg)) return ws_emu_dec_unsup(D, in, "destination operand");
  *out = o->reg;
  return WS_OK;
}

int ws_emu_dec_pred(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out) {
  if (o->kind == WS_PTX_O_SINK) {
    *out = NO_SLOT;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || !is_pred_reg(D, o->reg)) return ws_emu_dec_unsup(D, in, "expected a predicate");
  *out = D->df->pred_of_reg[o->reg];
  return WS_OK;
}

int ws_emu_dec_push_vs(dec *D, uint32_t s) {
  if (WS_VEC_RESERVE(D->vs, D->cvs, (size_t)D->nvs + 1)) return WS_ENOMEM;
  D->vs[D->nvs++] = s;
  return WS_OK;
}

int ws_emu_dec_vec(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, int is_dst, dinst *di) {
  di->vbase = D->nvs;
  if (o->kind != WS_PTX_O_VEC) {
    uint32_t s;
    TRY(is_dst ? ws_emu_dec_dst(D, in, o, &s) : ws_emu_dec_src(D, in, o, t, &s));
    di->vec = 1;
    return ws_emu_dec_push_vs(D, s);
  }
  di->vec = o->comp;
  for (uint32_t i = 0; i < o->comp; i++) {
    const ws_ptx_operand *e = &D->f->extra[o->reg + i];
    uint32_t s;
    if (e->kind == WS_PTX_O_SINK)
      s = is_dst ? D->scratch : NO_SLOT;
    else
      TRY(is_dst ? ws_emu_dec_dst(D, in, e, &s) : ws_emu_dec_src(D, in, e, t, &s));
    if (s == NO_SLOT) return ws_emu_dec_unsup(D, in, "sink as a source");
    TRY(ws_emu_dec_push_vs(D, s));
  }
  return WS_OK;
}

int ws_emu_dec_space(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *addr, int *ms) {
  switch (in->space) {
  case WS_PTX_SP_NONE: *ms = MS_GENERIC; return WS_OK;
  case WS_PTX_SP_GLOBAL: *ms = MS_GLOBAL; return WS_OK;
  case WS_PTX_SP_SHARED: *ms = MS_SHARED; return WS_OK;
  case WS_PTX_SP_LOCAL: *ms = MS_LOCAL; return WS_OK;
  case WS_PTX_SP_CONST: *ms = MS_CONST; return WS_OK;
  case WS_PTX_SP_PARAM:
    /* a kernel's own parameters; call-sequence and .func parameters live
     * in the frame */
    *ms = D->f->is_entry && addr && (addr->symkind == WS_PTX_S_PARAM || addr->symkind == WS_PTX_S_NONE)
              ? MS_KPARAM
              : MS_LOCAL;
    return WS_OK;
  default:
    return ws_emu_dec_unsup(D, in, "state space");
  }
}

int ws_emu_dec_address(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, dinst *di) {
  if (o->kind != WS_PTX_O_ADDR) return ws_emu_dec_unsup(D, in, "expected an address");
  di->imm = o->imm;
  di->frel = 0;
  di->a32 = 0;
  switch (o->symkind) {
  case WS_PTX_S_NONE:
    if (is_pred_reg(D, o->reg)) return ws_emu_dec_unsup(D, in, "predicate as an address");
    di->a = o->reg;
    /* nvcc computes .shared and .local addresses in 32 bits: [%r+4] with
     * %r = 0xfffffffc is address 0 on the hardware */
    di->a32 = (di->space == MS_SHARED || di->space == MS_LOCAL) && tbits(D->f->regs[o->reg].type) == 32;
    return WS_OK;
  case WS_PTX_S_ABS:
    break;
  case WS_PTX_S_GLOBAL:
    di->imm += (int64_t)D->P->mvar_addr[o->reg];
    break;
  case WS_PTX_S_PARAM:
    if (D->f->is_entry) {
      di->imm += (int64_t)D->f->params[o->reg].offset;
    } else {
      di->imm += (int64_t)D->df->param_off[o->reg];
      di->frel = 1;
    }
    break;
  case WS_PTX_S_RET:
    di->imm += (int64_t)D->df->ret_off[o->reg];
    di->frel = 1;
    break;
  case WS_PTX_S_LOCAL:
    di->imm += (int64_t)D->df->var_off[o->reg];
    di->frel = D->f->vars[o->reg].space != WS_PTX_SP_SHARED;
    break;
  default:
    return ws_emu_dec_unsup(D, in, "address base");
  }
  return ws_emu_dec_const(D, 0, &di->a); /* a symbol: the address is all offset */
}

int ws_emu_dec_queue_func(dec *D, uint32_t mf, uint32_t *out) {
  if (D->P->func_of_ir[mf] < 0) {
    D->P->func_of_ir[mf] = D->nqueue;
    D->queue[D->nqueue++] = (int)mf;
  }
  *out = (uint32_t)D->P->func_of_ir[mf];
  return WS_OK;
}

int ws_emu_dec_hkind(int t) {
  switch (t) {
  case WS_PTX_T_F16: return HK_F16;
  case WS_PTX_T_BF16: return HK_BF16;
  case WS_PTX_T_F16X2: return HK_F16X2;
  case WS_PTX_T_BF16X2: return HK_BF16X2;
  default: return -1;
  }
}

/* The value set writes for a true result into a destination of type dtype
 * (PTX ISA, "Half Precision Comparison Instructions: set"): 1.0 in the
 * destination's format for f32, f16, bf16, all ones of its width for an
 * integer type.  x2: the comparison is of f16x2/bf16x2 pairs, and the value
 * is per 16-bit half: 1.0 as f16 (.f16x2) or bf16 (.bf16x2), 0xffff for
 * .u32/.s32.  0 for a destination type set cannot have. */
uint64_t ws_emu_dec_set_true(int dtype, int x2) {
  if (x2) {
    switch (dtype) {
    case WS_PTX_T_F16X2: return 0x3c00u;
    case WS_PTX_T_BF16X2: return 0x3f80u;
    case WS_PTX_T_U32: case WS_PTX_T_S32: return 0xffffu;
    default: return 0;
    }
  }
  switch (dtype) {
  case WS_PTX_T_F32: return 0x3f800000u;
  case WS_PTX_T_F16: return 0x3c00u;
  case WS_PTX_T_BF16: return 0x3f80u;
  case WS_PTX_T_U16: case WS_PTX_T_S16: case WS_PTX_T_B16: return 0xffffu;
  case WS_PTX_T_U32: case WS_PTX_T_S32: case WS_PTX_T_B32: return 0xffffffffu;
  case WS_PTX_T_U64: case WS_PTX_T_S64: case WS_PTX_T_B64: return ~0ull;
  default: return 0;
  }
}

int ws_emu_dec_rnd(int mod) {
  switch (mod) {
  case WS_PTX_MOD_RN: return WS_NUM_RN;
  case WS_PTX_MOD_RZ: return WS_NUM_RZ;
  case WS_PTX_MOD_RM: return WS_NUM_RM;
  case WS_PTX_MOD_RP: return WS_NUM_RP;
  case WS_PTX_MOD_RNA: return WS_NUM_RNA;
  case WS_PTX_MOD_RNI: return WS_NUM_RNI;
  case WS_PTX_MOD_RZI: return WS_NUM_RZI;
  case WS_PTX_MOD_RMI: return WS_NUM_RMI;
  case WS_PTX_MOD_RPI: return WS_NUM_RPI;
  default: return WS_NUM_RND_NONE;
  }
}

int ws_emu_dec_cmp(int mod, int *ok) {
  *ok = 1;
  switch (mod) {
  case WS_PTX_MOD_EQ: return WS_NUM_EQ;
  case WS_PTX_MOD_NE: return WS_NUM_NE;
  case WS_PTX_MOD_LT: case WS_PTX_MOD_LO: return WS_NUM_LT;
  case WS_PTX_MOD_LE: case WS_PTX_MOD_LS: return WS_NUM_LE;
  case WS_PTX_MOD_GT: case WS_PTX_MOD_HI: return WS_NUM_GT;
  case WS_PTX_MOD_GE: case WS_PTX_MOD_HS: return WS_NUM_GE;
  case WS_PTX_MOD_EQU: return WS_NUM_EQU;
  case WS_PTX_MOD_NEU: return WS_NUM_NEU;
  case WS_PTX_MOD_LTU: return WS_NUM_LTU;
  case WS_PTX_MOD_LEU: return WS_NUM_LEU;
  case WS_PTX_MOD_GTU: return WS_NUM_GTU;
  case WS_PTX_MOD_GEU: return WS_NUM_GEU;
  case WS_PTX_MOD_NUM: return WS_NUM_NUM;
  case WS_PTX_MOD_NAN: return WS_NUM_NAN;
  default: *ok = 0; return 0;
  }
}

int ws_emu_dec_numtype(int t) {
  switch (t) {
  case WS_PTX_T_U8: case WS_PTX_T_B8: return WS_NUM_U8;
  case WS_PTX_T_S8: return WS_NUM_S8;
  case WS_PTX_T_U16: case WS_PTX_T_B16: return WS_NUM_U16;
  case WS_PTX_T_S16: return WS_NUM_S16;
  case WS_PTX_T_U32: case WS_PTX_T_B32: return WS_NUM_U32;
  case WS_PTX_T_S32: return WS_NUM_S32;
  case WS_PTX_T_U64: case WS_PTX_T_B64: return WS_NUM_U64;
  case WS_PTX_T_S64: return WS_NUM_S64;
  case WS_PTX_T_F16: return WS_NUM_F16;
  case WS_PTX_T_BF16: return WS_NUM_BF16;
  case WS_PTX_T_F32: return WS_NUM_F32;
  case WS_PTX_T_F64: return WS_NUM_F64;
  case WS_PTX_T_TF32: return WS_NUM_TF32;
  default: return -1;
  }
}

/* What instruction x writes into register r, whatever the lane, as a
 * member mask: an unguarded integer mov of an immediate whose low 32 bits
 * (what shfl, vote and match read) are all ones (1) or all zeros (2);
 * 0 for anything else. */
static int writes_const_mask(const ws_ptx_inst *x, uint32_t r) {
  if (x->op != WS_PTX_OP_MOV || x->guard >= 0 || x->nops != 2 || x->ntypes < 1) return 0;
  int t = x->type[0];
  if (t == WS_PTX_T_F32 || t == WS_PTX_T_F64 || ws_ptx_type_bits((ws_ptx_type)t) < 32) return 0;
  return x->ops[0].kind == WS_PTX_O_REG && x->ops[0].reg == r ? ws_emu_full_mask(NULL, 0, &x->ops[1]) : 0;
}

int ws_emu_full_mask(const ws_cfg *c, uint32_t inst, const ws_ptx_operand *o) {
  if (o->kind == WS_PTX_O_IMM_INT)
    return (uint32_t)o->imm == 0xffffffffu ? 1 : (uint32_t)o->imm == 0 ? 2 : 0;
  /* the chains miss registers of a cut instruction: trust none of them */
  if (!c || o->kind != WS_PTX_O_REG || c->regs_cut || inst >= c->func->ninsts) return 0;
  const ws_ptx_function *f = c->func;
  uint32_t b = c->block_of[inst];
  for (uint32_t u = c->use_start[inst]; u < c->use_start[inst + 1]; u++) {
    const ws_use *us = &c->uses[u];
    if (us->reg != o->reg) continue;
    int dominated = 0, kind = 1;
    for (uint32_t k = 0; k < us->ndefs; k++) {
      uint32_t di = us->defs[k], db = c->block_of[di];
      int w = writes_const_mask(&f->insts[di], o->reg);
      if (!w) return 0;
      if (w == 2) kind = 2;
      if (db == b ? di < inst : ws_analysis_cfg_dominates(c, db, b)) dominated = 1;
    }
    return dominated ? kind : 0;
  }
  return 0;
}

void ws_emu_dec_member_mask(dec *D, const ws_ptx_inst *in, dinst *di, const ws_ptx_operand *o) {
  int fm = ws_emu_full_mask(D->cfg, di->pc, o);
  if (fm) di->flags |= DF_FULLMASK;
  if (fm != 2) return;
  char *txt = NULL;
  ws_ptx_print_inst(&txt, D->m, D->f, in);
  ws_diag_add(D->d, WS_SEV_WARNING, ws_ptx_func_path(D->m, D->f), (int)in->line, (int)in->col,
              "member mask 0 names no lane (undefined in the PTX ISA): run as GPUs run it, over the lanes "
              "that execute it, as with 0xffffffff (docs/emulator.md, \"Member masks\"): %s (in %s)",
              txt ? txt : ws_ptx_opcode_name((ws_ptx_opcode)in->op), D->f->name);
  free(txt);
}

int ws_emu_dec_inst(dec *D, const ws_ptx_inst *in, dinst *di) {
  optype T;
  T.t = in->ntypes ? in->type[0] : WS_PTX_T_NONE;
  T.bits = T.t ? tbits(T.t) : 0;
  int k = T.t ? tkind(T.t) : 0;
  di->bits = (uint8_t)(T.bits < 8 ? 8 : T.bits > 64 ? 64 : T.bits);
  di->sgn = k == WS_PTX_TK_S;
  di->wmask = wmask_of(di->bits);
  di->rnd = (uint8_t)ws_emu_dec_rnd(in->round);
  di->ftz = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_FTZ);
  di->sat = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_SAT);
  di->d2 = NO_SLOT;
  di->d = di->a = di->b = di->c = di->e = NO_SLOT;
  T.isf32 = T.t == WS_PTX_T_F32;
  T.isf64 = T.t == WS_PTX_T_F64;
  T.hk = ws_emu_dec_hkind(T.t);
  T.isint = k == WS_PTX_TK_U || k == WS_PTX_TK_S || k == WS_PTX_TK_B;
  T.plain = (di->rnd == WS_NUM_RND_NONE || di->rnd == WS_NUM_RN) && !di->ftz && !di->sat;
  dec_fn *f = ws_emu_decoder((ws_ptx_opcode)in->op);
  if (f) {
    int st = f(D, in, di, &T);
    /* the memory and atomic families report their addresses to the hooks
     * (the others that do set hookmem themselves): decided here, once */
    if (!st && ws_emu_dop_reports_addrs(di->op)) di->hookmem = 1;
    return st;
  }
  const char *why = NULL;
  if (in->op == WS_PTX_OP_UNKNOWN) { /* kept by a lenient parse: say what the parser found */
    uint64_t u = (uint64_t)in->ops[0].imm;
    char buf[400];
    snprintf(buf, sizeof buf, "warpsight's PTX front end does not understand it: %s",
             u < D->f->nunknown ? D->f->unknown[u].why : "?");
    return ws_emu_dec_unsup(D, in, buf);
  }
  ws_emu_opcode_supported((ws_ptx_opcode)in->op, &why);
  return ws_emu_dec_unsup(D, in, why);
}
