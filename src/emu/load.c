/*
 * load.c — decode a kernel (and every function it calls) into the
 * emulator's executable form, once: dense opcodes, operand slots, constant
 * slots for immediates and addresses, branch reconvergence points
 * (immediate post-dominators), frame and shared-memory layouts, the constant
 * bank and module variable addresses.  Any instruction the executor does not
 * implement is refused here, naming it and its PTX line.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "emu/jit/jit.h"
#include "emu/num.h"
#include "util/checked.h"
#include "util/vec.h"
#include "warpsight/analysis.h"

typedef struct dec {
  ws_emu_program *P;
  const ws_ptx_module *m;
  ws_diag *d;
  dfunc *df;                  /* function being decoded */
  const ws_ptx_function *f;   /* its IR */
  uint64_t *consts;           /* constant slot values being collected */
  uint32_t nconsts;
  size_t cconsts;
  uint32_t *vs;               /* vector slots being collected */
  uint32_t nvs;
  size_t cvs;
  uint32_t scratch;           /* sink slot */
  int *queue;                 /* module function indices to decode */
  int nqueue;
  uint32_t cur_mf;            /* module index of the function being decoded */
  int ninit_funcs;
  int *init_q;                /* kernel + functions named by initialisers */
} dec;

static uint64_t align_up(uint64_t v, uint64_t a) {
  if (a < 1) a = 1;
  return (v + a - 1) / a * a;
}

static int unsup(dec *D, const ws_ptx_inst *in, const char *why) {
  char *txt = NULL;
  ws_ptx_print_inst(&txt, D->m, D->f, in);
  ws_diag_add(D->d, WS_SEV_ERROR, D->m->path, (int)in->line, (int)in->col,
              "instruction not implemented by the emulator%s%s%s: %s (in %s)", why ? " (" : "", why ? why : "",
              why ? ")" : "", txt ? txt : ws_ptx_opcode_name((ws_ptx_opcode)in->op), D->f->name);
  free(txt);
  return WS_EUNSUP;
}

/* Constant slot holding v (broadcast to every lane). */
static int const_slot(dec *D, uint64_t v, uint32_t *out) {
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

static int is_pred_reg(dec *D, uint32_t r) {
  return D->f->regs[r].type == WS_PTX_T_PRED;
}

static int tbits(int t) { return ws_ptx_type_bits((ws_ptx_type)t); }
static int tkind(int t) { return ws_ptx_type_kind((ws_ptx_type)t); }
static uint64_t wmask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int reg_bits(dec *D, uint32_t r) {
  int b = tbits(D->f->regs[r].type);
  return b < 8 ? 8 : b;
}

/* An immediate converted to the bits an operand of type t expects. */
static uint64_t imm_bits(const ws_ptx_operand *o, int t) {
  int k = tkind(t), bits = tbits(t);
  if (o->kind == WS_PTX_O_IMM_F64 && t == WS_PTX_T_F32) {
    double v;
    memcpy(&v, &o->imm, 8);
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, 0, 0);
  }
  if (o->kind == WS_PTX_O_IMM_F32 && t == WS_PTX_T_F64)
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F32, WS_NUM_F64, WS_NUM_RN, 0, 0);
  (void)k;
  return (uint64_t)o->imm & wmask_of(bits < 8 ? 64 : bits);
}

/* Address of module variable v (in its own space). */
static uint64_t mvar_addr(dec *D, uint32_t v) { return D->P->mvar_addr[v]; }

/* A source operand of type t as a slot. */
static int src(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, uint32_t *out) {
  switch (o->kind) {
  case WS_PTX_O_REG:
    if (is_pred_reg(D, o->reg)) return unsup(D, in, "predicate used as a value");
    if (o->flags & WS_PTX_OF_NEG) return unsup(D, in, "negated register operand");
    *out = o->reg;
    return WS_OK;
  case WS_PTX_O_IMM_INT:
  case WS_PTX_O_IMM_F32:
  case WS_PTX_O_IMM_F64:
    return const_slot(D, imm_bits(o, t), out);
  case WS_PTX_O_SYM:
    if (o->symkind == WS_PTX_S_GLOBAL) {
      const ws_ptx_var *v = &D->m->vars[o->reg];
      uint64_t a = mvar_addr(D, o->reg) + (uint64_t)o->imm;
      (void)v;
      return const_slot(D, a, out);
    }
    if (o->symkind == WS_PTX_S_LOCAL && D->f->vars[o->reg].space == WS_PTX_SP_SHARED)
      return const_slot(D, D->df->var_off[o->reg] + (uint64_t)o->imm, out);
    if (o->symkind == WS_PTX_S_PARAM && D->f->is_entry)
      return const_slot(D, D->f->params[o->reg].offset + (uint64_t)o->imm, out);
    return unsup(D, in, "symbol used as a value here");
  default:
    return unsup(D, in, "operand kind");
  }
}

static int dst(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out) {
  if (o->kind == WS_PTX_O_SINK) {
    *out = D->scratch;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || is_pred_reg(D, o->reg)) return unsup(D, in, "destination operand");
  *out = o->reg;
  return WS_OK;
}

static int pred(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out) {
  if (o->kind == WS_PTX_O_SINK) {
    *out = NO_SLOT;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || !is_pred_reg(D, o->reg)) return unsup(D, in, "expected a predicate");
  *out = D->df->pred_of_reg[o->reg];
  return WS_OK;
}

static int push_vs(dec *D, uint32_t s) {
  if (WS_VEC_RESERVE(D->vs, D->cvs, (size_t)D->nvs + 1)) return WS_ENOMEM;
  D->vs[D->nvs++] = s;
  return WS_OK;
}

/* Vector operand {a, b, ...} (or a scalar) into vslots. */
static int vec_operand(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, int is_dst,
                       dinst *di) {
  di->vbase = D->nvs;
  if (o->kind != WS_PTX_O_VEC) {
    uint32_t s;
    int st = is_dst ? dst(D, in, o, &s) : src(D, in, o, t, &s);
    if (st) return st;
    di->vec = 1;
    return push_vs(D, s);
  }
  di->vec = o->comp;
  for (uint32_t i = 0; i < o->comp; i++) {
    const ws_ptx_operand *e = &D->f->extra[o->reg + i];
    uint32_t s;
    int st;
    if (e->kind == WS_PTX_O_SINK)
      s = is_dst ? D->scratch : NO_SLOT;
    else if ((st = is_dst ? dst(D, in, e, &s) : src(D, in, e, t, &s)))
      return st;
    if (s == NO_SLOT) return unsup(D, in, "sink as a source");
    if ((st = push_vs(D, s))) return st;
  }
  return WS_OK;
}

static ws_emu_num_rnd rnd_of(int mod) {
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

static int cmp_of(int mod, int *ok) {
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

/* ws_emu_num_type of a PTX type (b types are unsigned). -1 if none. */
static int numtype(int t) {
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

/* Float kinds for the H_* ops. */
enum { HK_F16, HK_BF16, HK_F16X2, HK_BF16X2 };

static int hkind(int t) {
  switch (t) {
  case WS_PTX_T_F16: return HK_F16;
  case WS_PTX_T_BF16: return HK_BF16;
  case WS_PTX_T_F16X2: return HK_F16X2;
  case WS_PTX_T_BF16X2: return HK_BF16X2;
  default: return -1;
  }
}

/* Memory space of an instruction's state-space modifier. */
static int mspace(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *addr, int *ms) {
  switch (in->space) {
  case WS_PTX_SP_NONE: *ms = MS_GENERIC; return WS_OK;
  case WS_PTX_SP_GLOBAL: *ms = MS_GLOBAL; return WS_OK;
  case WS_PTX_SP_SHARED: *ms = MS_SHARED; return WS_OK;
  case WS_PTX_SP_LOCAL: *ms = MS_LOCAL; return WS_OK;
  case WS_PTX_SP_CONST: *ms = MS_CONST; return WS_OK;
  case WS_PTX_SP_PARAM:
    if (D->f->is_entry && addr && addr->symkind == WS_PTX_S_PARAM) {
      *ms = MS_KPARAM;
      return WS_OK;
    }
    if (D->f->is_entry && addr && addr->symkind == WS_PTX_S_NONE) {
      *ms = MS_KPARAM;
      return WS_OK;
    }
    *ms = MS_LOCAL; /* call-sequence and .func parameters live in the frame */
    return WS_OK;
  default:
    return unsup(D, in, "state space");
  }
}

/* [base+imm] into di->a (slot), di->imm and di->frel. */
static int address(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, dinst *di) {
  if (o->kind != WS_PTX_O_ADDR) return unsup(D, in, "expected an address");
  di->imm = o->imm;
  di->frel = 0;
  uint64_t zero_slot;
  (void)zero_slot;
  switch (o->symkind) {
  case WS_PTX_S_NONE:
    if (is_pred_reg(D, o->reg)) return unsup(D, in, "predicate as an address");
    di->a = o->reg;
    return WS_OK;
  case WS_PTX_S_ABS:
    return const_slot(D, 0, &di->a);
  case WS_PTX_S_GLOBAL:
    di->imm += (int64_t)mvar_addr(D, o->reg);
    return const_slot(D, 0, &di->a);
  case WS_PTX_S_PARAM:
    if (D->f->is_entry)
      di->imm += (int64_t)D->f->params[o->reg].offset;
    else {
      di->imm += (int64_t)D->df->param_off[o->reg];
      di->frel = 1;
    }
    return const_slot(D, 0, &di->a);
  case WS_PTX_S_RET:
    di->imm += (int64_t)D->df->ret_off[o->reg];
    di->frel = 1;
    return const_slot(D, 0, &di->a);
  case WS_PTX_S_LOCAL: {
    const ws_ptx_var *v = &D->f->vars[o->reg];
    di->imm += (int64_t)D->df->var_off[o->reg];
    if (v->space != WS_PTX_SP_SHARED) di->frel = 1;
    return const_slot(D, 0, &di->a);
  }
  default:
    return unsup(D, in, "address base");
  }
}

static int queue_func(dec *D, uint32_t mf, uint32_t *out) {
  if (D->P->func_of_ir[mf] < 0) {
    D->P->func_of_ir[mf] = D->nqueue;
    D->queue[D->nqueue++] = (int)mf;
  }
  *out = (uint32_t)D->P->func_of_ir[mf];
  return WS_OK;
}

/* ---- one decoder per PTX opcode (or group of opcodes) ------------------------ */

/* What the decoders read of an instruction's first type. */
typedef struct optype {
  int t;      /* the first type (WS_PTX_T_NONE if none): the source operands' type */
  int bits;   /* its width */
  int isf32;  /* it is f32 */
  int isf64;  /* it is f64 */
  int hk;     /* its HK_* half kind, or -1 */
  int isint;  /* it is an integer (u, s or b) type */
  int plain;  /* round to nearest (or none), no .ftz, no .sat: the host FPU's forms */
} optype;

/* Fills di (opcode, operand slots, sub-operation) for one PTX opcode;
 * returns WS_OK or the status of a diagnostic it added. */
typedef int dec_fn(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T);

/* This form of the instruction is one the emulator does not implement. */
static int refuse(dec *D, const ws_ptx_inst *in) { return unsup(D, in, NULL); }

/* Operand i as source slot di->s (of type t, a local of each decoder), or
 * as the destination; the common shapes d = op(a, b), op(a), op(a, b, c). */
#define SRC(i, s) do { int st_ = src(D, in, &in->ops[i], t, &di->s); if (st_) return st_; } while (0)
#define DST(i) do { int st_ = dst(D, in, &in->ops[i], &di->d); if (st_) return st_; } while (0)
#define BIN(OP) do { di->op = D_##OP; DST(0); SRC(1, a); SRC(2, b); return WS_OK; } while (0)
#define UN(OP) do { di->op = D_##OP; DST(0); SRC(1, a); return WS_OK; } while (0)
#define TER(OP) do { di->op = D_##OP; DST(0); SRC(1, a); SRC(2, b); SRC(3, c); return WS_OK; } while (0)

/* add, sub, mul */
static int dec_add_sub_mul(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  int isadd = in->op == WS_PTX_OP_ADD, issub = in->op == WS_PTX_OP_SUB;
  if (T->isf32) {
    if (ws_ptx_inst_has(in, WS_PTX_MOD_CC)) return refuse(D, in);
    if (T->plain) {
      if (isadd) BIN(F32_ADD);
      if (issub) BIN(F32_SUB);
      BIN(F32_MUL);
    }
    if (isadd) BIN(F32_ADD_X);
    if (issub) BIN(F32_SUB_X);
    BIN(F32_MUL_X);
  }
  if (T->isf64) {
    if (T->plain) {
      if (isadd) BIN(F64_ADD);
      if (issub) BIN(F64_SUB);
      BIN(F64_MUL);
    }
    if (isadd) BIN(F64_ADD_X);
    if (issub) BIN(F64_SUB_X);
    BIN(F64_MUL_X);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    if (isadd) BIN(H_ADD);
    if (issub) BIN(H_SUB);
    BIN(H_MUL);
  }
  if (!T->isint) return refuse(D, in);
  if (ws_ptx_inst_has(in, WS_PTX_MOD_CC)) {
    if (in->op == WS_PTX_OP_MUL || (T->bits != 32 && T->bits != 64)) return refuse(D, in);
    di->carry = 2; /* set carry-out, no carry-in */
    if (isadd) BIN(ADDC);
    BIN(SUBC);
  }
  if (isadd && di->sat) {
    if (T->bits != 32 || !di->sgn) return refuse(D, in);
    BIN(ADD_SAT);
  }
  if (issub && di->sat) {
    if (T->bits != 32 || !di->sgn) return refuse(D, in);
    BIN(SUB_SAT);
  }
  if (isadd) BIN(ADD);
  if (issub) BIN(SUB);
  if (in->mode == WS_PTX_MOD_HI) BIN(MUL_HI);
  if (in->mode == WS_PTX_MOD_WIDE) {
    if (T->bits > 32) return refuse(D, in);
    BIN(MUL_WIDE);
  }
  BIN(MUL_LO);
}

/* addc, subc */
static int dec_addc(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->bits != 32 && T->bits != 64) return refuse(D, in);
  di->carry = (uint8_t)(1 | (ws_ptx_inst_has(in, WS_PTX_MOD_CC) ? 2 : 0));
  if (in->op == WS_PTX_OP_ADDC) BIN(ADDC);
  BIN(SUBC);
}

/* madc, mad, fma */
static int dec_mad_fma(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->isf32) {
    if (T->plain) TER(F32_FMA);
    TER(F32_FMA_X);
  }
  if (T->isf64) {
    if (T->plain) TER(F64_FMA);
    TER(F64_FMA_X);
  }
  if (T->hk >= 0) {
    if (ws_ptx_inst_has(in, WS_PTX_MOD_RELU)) di->relu = 1;
    di->ty = (uint8_t)T->hk;
    TER(H_FMA);
  }
  if (!T->isint || in->op == WS_PTX_OP_FMA) return refuse(D, in);
  if (in->op == WS_PTX_OP_MADC || ws_ptx_inst_has(in, WS_PTX_MOD_CC)) {
    if ((T->bits != 32 && T->bits != 64) || in->mode == WS_PTX_MOD_WIDE) return refuse(D, in);
    di->carry = (uint8_t)((in->op == WS_PTX_OP_MADC ? 1 : 0) | (ws_ptx_inst_has(in, WS_PTX_MOD_CC) ? 2 : 0));
    di->e = in->mode == WS_PTX_MOD_HI;
    TER(MADC);
  }
  if (in->mode == WS_PTX_MOD_HI) TER(MAD_HI);
  if (in->mode == WS_PTX_MOD_WIDE) {
    if (T->bits > 32) return refuse(D, in);
    di->op = D_MAD_WIDE;
    DST(0);
    SRC(1, a);
    SRC(2, b);
    t = di->sgn ? WS_PTX_T_S64 : WS_PTX_T_U64;
    SRC(3, c);
    return WS_OK;
  }
  TER(MAD_LO);
}

/* mul24 */
static int dec_mul24(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->bits != 32) return refuse(D, in);
  di->e = in->mode == WS_PTX_MOD_HI;
  BIN(MUL24);
}

/* mad24 */
static int dec_mad24(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->bits != 32) return refuse(D, in);
  di->e = in->mode == WS_PTX_MOD_HI;
  TER(MAD24);
}

/* sad */
static int dec_sad(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  TER(SAD);
}

/* div */
static int dec_div(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->isf32) {
    if (ws_ptx_inst_has(in, WS_PTX_MOD_APPROX)) BIN(F32_DIV_APPROX);
    if (ws_ptx_inst_has(in, WS_PTX_MOD_FULL)) BIN(F32_DIV_FULL);
    if (di->rnd == WS_NUM_RN && !di->ftz) BIN(F32_DIV_RN);
    BIN(F32_DIV);
  }
  if (T->isf64) {
    if (di->rnd == WS_NUM_RN) BIN(F64_DIV_RN);
    BIN(F64_DIV);
  }
  if (!T->isint) return refuse(D, in);
  BIN(DIV);
}

/* rem */
static int dec_rem(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  BIN(REM);
}

/* abs, neg */
static int dec_abs_neg(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  int isabs = in->op == WS_PTX_OP_ABS;
  if (T->isf32) {
    if (isabs) UN(F32_ABS);
    UN(F32_NEG);
  }
  if (T->isf64) {
    if (isabs) UN(F64_ABS);
    UN(F64_NEG);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    if (isabs) UN(H_ABS);
    UN(H_NEG);
  }
  if (!T->isint) return refuse(D, in);
  if (isabs) UN(ABS);
  UN(NEG);
}

/* min, max */
static int dec_min_max(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  int ismin = in->op == WS_PTX_OP_MIN;
  if (in->nops != 3) return refuse(D, in);
  di->nan = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_NANMODE);
  if (T->isf32) {
    if (ismin) BIN(F32_MIN);
    BIN(F32_MAX);
  }
  if (T->isf64) {
    if (ismin) BIN(F64_MIN);
    BIN(F64_MAX);
  }
  if (T->hk >= 0) {
    di->ty = (uint8_t)T->hk;
    di->e = ws_ptx_inst_has(in, WS_PTX_MOD_RELU);
    if (ismin) BIN(H_MIN);
    BIN(H_MAX);
  }
  if (!T->isint || ws_ptx_inst_has(in, WS_PTX_MOD_RELU)) return refuse(D, in);
  if (ismin) BIN(MIN);
  BIN(MAX);
}

/* copysign */
static int dec_copysign(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->isf32) BIN(F32_COPYSIGN);
  BIN(F64_COPYSIGN);
}

/* testp */
static int dec_testp(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  static const int modes[] = {WS_PTX_MOD_FINITE, WS_PTX_MOD_INFINITE, WS_PTX_MOD_NUMBER,
                              WS_PTX_MOD_NOTANUMBER, WS_PTX_MOD_NORMAL, WS_PTX_MOD_SUBNORMAL};
  static const int nm[] = {WS_NUM_FINITE, WS_NUM_INFINITE, WS_NUM_NUMBER, WS_NUM_NOTANUMBER,
                           WS_NUM_NORMAL, WS_NUM_SUBNORMAL};
  for (int i = 0; i < 6; i++)
    if (in->mode == modes[i]) di->testp = (uint8_t)nm[i];
  di->op = T->isf32 ? D_F32_TESTP : D_F64_TESTP;
  if ((st = pred(D, in, &o[0], &di->d))) return st;
  SRC(1, a);
  return WS_OK;
}

/* dp4a, dp2a */
static int dec_dp4a(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->sgn = tkind(in->type[0]) == WS_PTX_TK_S;
  di->sgn_b = tkind(in->type[1]) == WS_PTX_TK_S;
  di->e = in->mode == WS_PTX_MOD_HI;
  if (in->op == WS_PTX_OP_DP4A) TER(DP4A);
  TER(DP2A);
}

/* rcp, sqrt */
static int dec_rcp_sqrt(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  int approx = ws_ptx_inst_has(in, WS_PTX_MOD_APPROX);
  int isrcp = in->op == WS_PTX_OP_RCP;
  if (T->isf32) {
    if (isrcp) {
      if (approx) UN(F32_RCP_APPROX);
      if (di->rnd == WS_NUM_RN && !di->ftz) UN(F32_RCP_RN);
      UN(F32_RCP);
    }
    if (approx) UN(F32_SQRT_APPROX);
    if (di->rnd == WS_NUM_RN && !di->ftz) UN(F32_SQRT_RN);
    UN(F32_SQRT);
  }
  if (T->isf64) {
    if (isrcp) {
      if (approx) {
        if (!di->ftz) return refuse(D, in);
        UN(F64_RCP_APPROX);
      }
      if (di->rnd == WS_NUM_RN) UN(F64_RCP_RN);
      UN(F64_RCP);
    }
    if (approx) return refuse(D, in);
    if (di->rnd == WS_NUM_RN) UN(F64_SQRT_RN);
    UN(F64_SQRT);
  }
  return refuse(D, in);
}

/* rsqrt, sin, cos, lg2, ex2, tanh: the approximate functions */
static int dec_approx(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (T->isf64 && in->op == WS_PTX_OP_RSQRT) UN(F64_RSQRT);
  if (!T->isf32) return refuse(D, in);
  switch (in->op) {
  case WS_PTX_OP_RSQRT: UN(F32_RSQRT);
  case WS_PTX_OP_SIN: UN(F32_SIN);
  case WS_PTX_OP_COS: UN(F32_COS);
  case WS_PTX_OP_LG2: UN(F32_LG2);
  case WS_PTX_OP_EX2: UN(F32_EX2);
  default: UN(F32_TANH);
  }
}

/* and, or, xor */
static int dec_logic(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  if (t == WS_PTX_T_PRED) {
    di->op = in->op == WS_PTX_OP_AND ? D_PAND : in->op == WS_PTX_OP_OR ? D_POR : D_PXOR;
    if ((st = pred(D, in, &o[0], &di->d)) || (st = pred(D, in, &o[1], &di->a)) ||
        (st = pred(D, in, &o[2], &di->b)))
      return st;
    di->flags = (uint8_t)(((o[1].flags & WS_PTX_OF_NOT) ? 1 : 0) | ((o[2].flags & WS_PTX_OF_NOT) ? 2 : 0));
    return WS_OK;
  }
  if (in->op == WS_PTX_OP_AND) BIN(AND);
  if (in->op == WS_PTX_OP_OR) BIN(OR);
  BIN(XOR);
}

/* not */
static int dec_not(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  if (t == WS_PTX_T_PRED) {
    di->op = D_PNOT;
    if ((st = pred(D, in, &o[0], &di->d)) || (st = pred(D, in, &o[1], &di->a))) return st;
    return WS_OK;
  }
  UN(NOT);
}

/* cnot */
static int dec_cnot(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  UN(CNOT);
}

/* lop3 */
static int dec_lop3(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  di->op = D_LOP3;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  SRC(3, c);
  if (o[4].kind != WS_PTX_O_IMM_INT) return refuse(D, in);
  di->imm = o[4].imm & 0xff;
  return WS_OK;
}

/* shl, shr */
static int dec_shift(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->op = in->op == WS_PTX_OP_SHL ? D_SHL : D_SHR;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  return WS_OK;
}

/* shf */
static int dec_shf(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->left = in->mode == WS_PTX_MOD_L;
  di->e = ws_ptx_inst_has(in, WS_PTX_MOD_WRAP);
  TER(SHF);
}

/* popc */
static int dec_popc(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  UN(POPC);
}

/* clz */
static int dec_clz(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  UN(CLZ);
}

/* brev */
static int dec_brev(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  UN(BREV);
}

/* bfind */
static int dec_bfind(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->shiftamt = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_SHIFTAMT);
  UN(BFIND);
}

/* bfe */
static int dec_bfe(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->op = D_BFE;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  SRC(3, c);
  return WS_OK;
}

/* bfi */
static int dec_bfi(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  di->op = D_BFI;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  t = WS_PTX_T_U32;
  SRC(3, c);
  if ((st = src(D, in, &o[4], t, &di->e))) return st;
  return WS_OK;
}

/* prmt */
static int dec_prmt(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  static const int pm[][2] = {{WS_PTX_MOD_F4E, WS_NUM_PRMT_F4E}, {WS_PTX_MOD_B4E, WS_NUM_PRMT_B4E},
                              {WS_PTX_MOD_RC8, WS_NUM_PRMT_RC8}, {WS_PTX_MOD_ECL, WS_NUM_PRMT_ECL},
                              {WS_PTX_MOD_ECR, WS_NUM_PRMT_ECR}, {WS_PTX_MOD_RC16, WS_NUM_PRMT_RC16}};
  di->prmt = WS_NUM_PRMT_DEFAULT;
  for (int i = 0; i < 6; i++)
    if (in->mode == pm[i][0]) di->prmt = (uint8_t)pm[i][1];
  TER(PRMT);
}

/* fns */
static int dec_fns(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  TER(FNS);
}

/* bmsk */
static int dec_bmsk(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->wrap = ws_ptx_inst_has(in, WS_PTX_MOD_WRAP);
  BIN(BMSK);
}

/* szext */
static int dec_szext(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->wrap = ws_ptx_inst_has(in, WS_PTX_MOD_WRAP);
  BIN(SZEXT);
}

/* setp, set */
static int dec_setp_set(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  int ok;
  int is_set = in->op == WS_PTX_OP_SET;
  int ct = is_set ? in->type[1] : t;
  int i = 0;
  di->cmp = (uint8_t)cmp_of(in->cmp, &ok);
  if (!ok) return refuse(D, in);
  di->bop = in->bop == WS_PTX_MOD_AND ? 1 : in->bop == WS_PTX_MOD_OR ? 2 : in->bop == WS_PTX_MOD_XOR ? 3 : 0;
  di->op = is_set ? D_SET : D_SETP;
  if (is_set) {
    DST(0);
    di->size = (uint8_t)tbits(t);
    di->ty = t == WS_PTX_T_F32;
    i = 1;
  } else {
    if ((st = pred(D, in, &o[0], &di->d))) return st;
    i = 1;
    if (in->nops > 1 && (o[1].flags & WS_PTX_OF_PIPE)) {
      if ((st = pred(D, in, &o[1], &di->d2))) return st;
      i = 2;
    }
  }
  int cbits = tbits(ct), ck = tkind(ct);
  di->bits = (uint8_t)(cbits < 8 ? 8 : cbits);
  di->sgn = ck == WS_PTX_TK_S;
  /* e = comparison kind: 0 int, 1 f32, 2 f64, 3.. half kinds */
  di->e = ct == WS_PTX_T_F32 ? 1 : ct == WS_PTX_T_F64 ? 2 : hkind(ct) >= 0 ? 3 + (uint32_t)hkind(ct) : 0;
  if (di->e >= 5 && di->d2 == NO_SLOT && !is_set) { /* x2 forms write p|q */ }
  if (di->e == 0 && !(ck & (WS_PTX_TK_U | WS_PTX_TK_S | WS_PTX_TK_B))) return refuse(D, in);
  if (di->e == 0 && di->cmp > WS_NUM_GE) return refuse(D, in);
  if (di->e >= 5 && is_set) return refuse(D, in);
  if ((st = src(D, in, &o[i], ct, &di->a)) || (st = src(D, in, &o[i + 1], ct, &di->b))) return st;
  if (di->bop) {
    if (i + 2 >= in->nops) return refuse(D, in);
    if ((st = pred(D, in, &o[i + 2], &di->c))) return st;
    if (o[i + 2].flags & WS_PTX_OF_NOT) di->flags |= 4;
  }
  return WS_OK;
}

/* selp */
static int dec_selp(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  di->op = D_SELP;
  DST(0);
  SRC(1, a);
  SRC(2, b);
  if ((st = pred(D, in, &o[3], &di->c))) return st;
  if (o[3].flags & WS_PTX_OF_NOT) di->flags |= 4;
  return WS_OK;
}

/* slct */
static int dec_slct(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->op = D_SLCT;
  di->ty = in->type[1] == WS_PTX_T_F32;
  di->ftz = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_FTZ);
  DST(0);
  SRC(1, a);
  SRC(2, b);
  t = in->type[1];
  SRC(3, c);
  return WS_OK;
}

/* mov */
static int dec_mov(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  if (t == WS_PTX_T_PRED) {
    di->op = D_MOV_PRED;
    if ((st = pred(D, in, &o[0], &di->d))) return st;
    if (o[1].kind == WS_PTX_O_IMM_INT) {
      di->a = NO_SLOT;
      di->imm = o[1].imm != 0;
      return WS_OK;
    }
    return pred(D, in, &o[1], &di->a);
  }
  if (o[0].kind == WS_PTX_O_VEC) { /* mov.b64 {lo, hi}, %rd */
    di->op = D_MOV_UNPACK;
    int eb = T->bits / o[0].comp;
    if (eb < 8) return refuse(D, in);
    di->size = (uint8_t)eb;
    if ((st = vec_operand(D, in, &o[0], t, 1, di))) return st;
    SRC(1, a);
    return WS_OK;
  }
  if (o[1].kind == WS_PTX_O_VEC) {
    di->op = D_MOV_PACK;
    int eb = T->bits / o[1].comp;
    if (eb < 8) return refuse(D, in);
    di->size = (uint8_t)eb;
    DST(0);
    int et = eb == 8 ? WS_PTX_T_B8 : eb == 16 ? WS_PTX_T_B16 : WS_PTX_T_B32;
    return vec_operand(D, in, &o[1], et, 0, di);
  }
  if (o[1].kind == WS_PTX_O_SREG) {
    di->op = D_MOV_SREG;
    DST(0);
    di->imm = o[1].reg;
    di->comp = o[1].comp;
    return WS_OK;
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_LOCAL &&
      D->f->vars[o[1].reg].space != WS_PTX_SP_SHARED) {
    di->op = D_MOV_LOCALSYM;
    DST(0);
    di->imm = (int64_t)D->df->var_off[o[1].reg] + o[1].imm;
    return WS_OK;
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_FUNC) { /* address of a function */
    uint32_t fidx;
    if (!D->m->funcs[o[1].reg].has_body) return unsup(D, in, "address of a function without a body");
    if ((st = queue_func(D, o[1].reg, &fidx))) return st;
    di->op = D_MOV;
    DST(0);
    return const_slot(D, FUNC_ADDR_BASE + 16 * (uint64_t)o[1].reg, &di->a);
  }
  di->wmask = wmask_of(reg_bits(D, o[0].kind == WS_PTX_O_REG ? o[0].reg : 0));
  if (o[0].kind == WS_PTX_O_REG) {
    int rb = reg_bits(D, o[0].reg);
    if (rb < di->bits) di->wmask = wmask_of(rb);
    else di->wmask = wmask_of(di->bits);
  }
  UN(MOV);
}

/* cvt */
static int dec_cvt(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int tt = in->type[0], ft = in->type[1];
  if (in->nops == 3) { /* cvt.rn.f16x2.f32 d, a, b */
    if ((tt != WS_PTX_T_F16X2 && tt != WS_PTX_T_BF16X2) || ft != WS_PTX_T_F32) return refuse(D, in);
    di->ty = tt == WS_PTX_T_BF16X2;
    di->relu = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_RELU);
    di->e = ws_ptx_inst_has(in, WS_PTX_MOD_SATFINITE);
    t = WS_PTX_T_F32;
    BIN(CVT_PACK);
  }
  int nt = numtype(tt), nf = numtype(ft);
  if (nt < 0 || nf < 0) return refuse(D, in);
  di->ty = (uint8_t)nf;
  di->ty2 = (uint8_t)nt;
  di->bits = (uint8_t)tbits(ft);
  di->size = (uint8_t)tbits(tt);
  di->sgn = tkind(ft) == WS_PTX_TK_S;
  di->wmask = wmask_of(tbits(tt));
  if (o[0].kind == WS_PTX_O_REG) {
    int rb = reg_bits(D, o[0].reg);
    if (rb > tbits(tt) && tkind(tt) == WS_PTX_TK_S) di->sext = 1; /* sign-extend into the register */
    di->imm = rb;
  }
  di->op = (tkind(tt) != WS_PTX_TK_F && tkind(tt) != WS_PTX_TK_H && tkind(ft) != WS_PTX_TK_F &&
            tkind(ft) != WS_PTX_TK_H && !di->sat)
               ? D_CVT_INT
               : D_CVT;
  DST(0);
  t = ft;
  SRC(1, a);
  return WS_OK;
}

/* cvta */
static int dec_cvta(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  int ms;
  int sp = in->space ? in->space : in->space2;
  switch (sp) {
  case WS_PTX_SP_GLOBAL: ms = MS_GLOBAL; break;
  case WS_PTX_SP_SHARED: ms = MS_SHARED; break;
  case WS_PTX_SP_LOCAL: ms = MS_LOCAL; break;
  case WS_PTX_SP_CONST: ms = MS_CONST; break;
  default: return unsup(D, in, "cvta state space");
  }
  di->space = (uint8_t)ms;
  DST(0);
  SRC(1, a);
  di->op = ws_ptx_inst_has(in, WS_PTX_MOD_TO) ? D_CVTA_TO : D_CVTA_FROM;
  return WS_OK;
}

/* isspacep */
static int dec_isspacep(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  int ms;
  switch (in->space) {
  case WS_PTX_SP_GLOBAL: ms = MS_GLOBAL; break;
  case WS_PTX_SP_SHARED: ms = MS_SHARED; break;
  case WS_PTX_SP_LOCAL: ms = MS_LOCAL; break;
  case WS_PTX_SP_CONST: ms = MS_CONST; break;
  default: return unsup(D, in, "isspacep state space");
  }
  di->space = (uint8_t)ms;
  di->op = D_ISSPACEP;
  if ((st = pred(D, in, &o[0], &di->d))) return st;
  t = WS_PTX_T_U64;
  SRC(1, a);
  return WS_OK;
}

/* ld, ldu, st */
static int dec_ld_st(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  int isld = in->op != WS_PTX_OP_ST;
  const ws_ptx_operand *ao = isld ? &o[1] : &o[0], *vo = isld ? &o[0] : &o[1];
  int ms;
  /* a third operand is the L2::cache_hint policy: caches are not modelled */
  if ((in->nops != 2 && !(in->nops == 3 && ws_ptx_inst_has(in, WS_PTX_MOD_L2_CACHE_HINT))) ||
      t == WS_PTX_T_PRED || T->bits > 64)
    return refuse(D, in);
  if ((st = mspace(D, in, ao, &ms))) return st;
  di->space = (uint8_t)ms;
  di->size = (uint8_t)(T->bits / 8);
  if ((st = address(D, in, ao, di))) return st;
  if (ms == MS_KPARAM && !isld) return unsup(D, in, "store to the kernel's parameters");
  if ((st = vec_operand(D, in, vo, t, isld, di))) return st;
  if (di->vec != (in->vec ? in->vec : 1)) return unsup(D, in, "vector width");
  di->op = isld ? (ms == MS_KPARAM && di->vec == 1 ? D_LD_KPARAM : D_LD) : D_ST;
  if (di->vec == 1 && (di->size == 4 || di->size == 8) && !di->frel && !(isld && di->sgn && di->size == 4 &&
                                                                        vo->kind == WS_PTX_O_REG &&
                                                                        reg_bits(D, vo->reg) > 32)) {
    if (ms == MS_GLOBAL) di->op = isld ? D_LD_G : D_ST_G;
    if (ms == MS_SHARED) di->op = isld ? D_LD_S : D_ST_S;
  }
  /* loads sign-extend signed types into the destination register's width */
  di->wmask = ~0ull;
  if (isld && vo->kind == WS_PTX_O_REG) di->wmask = wmask_of(reg_bits(D, vo->reg));
  if (isld && vo->kind == WS_PTX_O_VEC && vo->comp && D->f->extra[vo->reg].kind == WS_PTX_O_REG)
    di->wmask = wmask_of(reg_bits(D, D->f->extra[vo->reg].reg));
  return WS_OK;
}

/* atom, red */
static int dec_atom_red(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  int isatom = in->op == WS_PTX_OP_ATOM;
  int ms, i = 0;
  const ws_ptx_operand *ao = isatom ? &o[1] : &o[0];
  if ((st = mspace(D, in, ao, &ms))) return st;
  if (ms != MS_GLOBAL && ms != MS_SHARED && ms != MS_GENERIC) return unsup(D, in, "atomic state space");
  if (in->vec > 1) return refuse(D, in);
  di->space = (uint8_t)ms;
  di->size = (uint8_t)(T->bits / 8);
  di->aop = in->bop;
  int f = T->isf32 || T->isf64;
  switch (in->bop) {
  case WS_PTX_MOD_ADD: break; /* f16/bf16/f16x2/bf16x2: .noftz, round to nearest */
  case WS_PTX_MOD_MIN: case WS_PTX_MOD_MAX: if (T->hk >= 0) return unsup(D, in, "half-precision atomic"); break;
  case WS_PTX_MOD_INC: case WS_PTX_MOD_DEC: if (f || T->bits != 32) return unsup(D, in, "atomic type"); break;
  case WS_PTX_MOD_AND: case WS_PTX_MOD_OR: case WS_PTX_MOD_XOR: case WS_PTX_MOD_EXCH: case WS_PTX_MOD_CAS:
    if (T->bits < 32 && !(in->bop == WS_PTX_MOD_CAS && T->bits == 16)) return unsup(D, in, "atomic type");
    break;
  default: return unsup(D, in, "atomic operation");
  }
  if (T->bits < 32 && in->bop != WS_PTX_MOD_CAS && !(T->hk >= 0 && in->bop == WS_PTX_MOD_ADD))
    return unsup(D, in, "atomic type");
  di->ty = (uint8_t)(T->isf32 ? 1 : T->isf64 ? 2 : T->hk >= 0 ? 3 + T->hk : 0);
  if (isatom) {
    DST(0);
    i = 1;
  } else {
    di->d = NO_SLOT;
  }
  if ((st = address(D, in, &o[i], di))) return st;
  if ((st = src(D, in, &o[i + 1], t, &di->b))) return st;
  if (in->bop == WS_PTX_MOD_CAS) {
    if (!isatom || in->nops < 4) return refuse(D, in);
    if ((st = src(D, in, &o[i + 2], t, &di->c))) return st;
  }
  di->op = isatom ? D_ATOM : D_RED;
  return WS_OK;
}

/* alloca */
static int dec_alloca(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  /* alloca.type ptr, size{, align} */
  di->op = D_ALLOCA;
  DST(0);
  SRC(1, a);
  di->imm = 8;
  if (in->nops > 2) {
    if (o[2].kind != WS_PTX_O_IMM_INT || o[2].imm < 1 || o[2].imm > 4096 || (o[2].imm & (o[2].imm - 1)))
      return unsup(D, in, "alloca alignment");
    di->imm = o[2].imm;
  }
  return WS_OK;
}

/* stacksave */
static int dec_stacksave(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  di->op = D_STACKSAVE;
  DST(0);
  return WS_OK;
}

/* stackrestore */
static int dec_stackrestore(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  di->op = D_STACKRESTORE;
  SRC(0, a);
  return WS_OK;
}

/* createpolicy */
static int dec_createpolicy(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  /* an opaque cache-policy value: caches are not modelled */
  di->op = D_MOV;
  DST(0);
  return const_slot(D, 0, &di->a);
}

/* no effect here: prefetch, prefetchu, membar, fence, bar_warp_sync, nanosleep, pmevent, griddep_wait, griddep_launch */
static int dec_nop(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)D; (void)in; (void)T;
  di->op = D_NOP;
  return WS_OK;
}

/* bar, barrier */
static int dec_bar(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  /* bar.sync / bar.arrive / bar.red.op / barrier.sync [.aligned] a{, b} */
  int arrive = ws_ptx_inst_has(in, WS_PTX_MOD_ARRIVE);
  int red = ws_ptx_inst_has(in, WS_PTX_MOD_RED);
  int i = 0;
  di->op = D_BAR;
  di->arrive = (uint8_t)(arrive ? 1 : 0);
  if (red) {
    if (in->bop != WS_PTX_MOD_POPC && in->bop != WS_PTX_MOD_AND && in->bop != WS_PTX_MOD_OR) return refuse(D, in);
    di->bop = in->bop == WS_PTX_MOD_POPC ? 1 : in->bop == WS_PTX_MOD_AND ? 2 : 3;
    if (in->bop == WS_PTX_MOD_POPC) DST(0);
    else if ((st = pred(D, in, &o[0], &di->d))) return st;
    i = 1;
  }
  if (in->nops <= i) {
    if (in->op == WS_PTX_OP_BAR) return refuse(D, in);
    return const_slot(D, 0, &di->a);
  }
  t = WS_PTX_T_U32;
  SRC(i, a);
  if (in->nops > i + 1 && !(red && i + 2 == in->nops && o[i + 1].kind == WS_PTX_O_REG &&
                            is_pred_reg(D, o[i + 1].reg))) {
    SRC(i + 1, b);
    i++;
  }
  if (red) {
    if (in->nops <= i + 1) return refuse(D, in);
    if ((st = pred(D, in, &o[i + 1], &di->c))) return st;
    if (o[i + 1].flags & WS_PTX_OF_NOT) di->flags |= 4;
  }
  return WS_OK;
}

/* bra */
static int dec_bra(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  const ws_ptx_operand *o = in->ops;
  if (o[0].kind != WS_PTX_O_LABEL) return refuse(D, in);
  di->op = D_BRA;
  di->target = (uint32_t)o[0].imm;
  return WS_OK;
}

/* brx_idx */
static int dec_brx_idx(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  /* brx.idx index, table: targets go to vslots as instruction indices */
  if (o[1].kind != WS_PTX_O_SYM || o[1].symkind != WS_PTX_S_BTABLE || o[1].reg >= D->f->nbtables)
    return unsup(D, in, "brx.idx without a branch-target table");
  const ws_ptx_btable *bt = &D->f->btables[o[1].reg];
  di->op = D_BRX;
  t = WS_PTX_T_U32;
  SRC(0, a);
  di->vbase = D->nvs;
  di->imm = bt->ntargets;
  for (uint32_t i = 0; i < bt->ntargets; i++)
    if ((st = push_vs(D, D->f->labels[bt->labels[i]].inst))) return st;
  return WS_OK;
}

/* exit */
static int dec_exit(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)D; (void)in; (void)T;
  di->op = D_EXIT;
  return WS_OK;
}

/* trap */
static int dec_trap(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)D; (void)in; (void)T;
  di->op = D_TRAP;
  return WS_OK;
}

/* ret */
static int dec_ret(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)in; (void)T;
  di->op = D->f->is_entry ? D_EXIT : D_RET;
  return WS_OK;
}

/* call */
static int dec_call(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  const ws_ptx_operand *o = in->ops;
  int st;
  int fi = -1;
  for (int i = 0; i < in->nops; i++)
    if (o[i].kind == WS_PTX_O_SYM && o[i].symkind == WS_PTX_S_FUNC) fi = i;
  if (fi < 0) { /* call (r), %reg, (args), proto: the prototype gives the shape */
    for (int i = 0; i < in->nops; i++)
      if (o[i].kind == WS_PTX_O_REG) fi = i;
    if (fi < 0 || is_pred_reg(D, o[fi].reg)) return unsup(D, in, "call target");
  }
  int indirect = o[fi].kind == WS_PTX_O_REG;
  const ws_ptx_function *cf = indirect ? NULL : &D->m->funcs[o[fi].reg];
  const ws_ptx_operand *rl = fi > 0 ? &o[fi - 1] : NULL;
  const ws_ptx_operand *al = fi + 1 < in->nops ? &o[fi + 1] : NULL;
  if (rl && rl->kind != WS_PTX_O_LIST) return unsup(D, in, "call return list");
  if (al && al->kind != WS_PTX_O_LIST) return unsup(D, in, "call argument list");
  uint32_t nr = rl ? rl->comp : 0, na = al ? al->comp : 0;
  /* vslots: [ret frame offsets...][arg sources...]; for SYM params the
   * slot is the caller's frame offset with the top bit set */
  di->vbase = D->nvs;
  di->vec = (uint8_t)na;
  di->size = (uint8_t)nr;
  for (uint32_t i = 0; i < nr + na; i++) {
    const ws_ptx_operand *e = &D->f->extra[i < nr ? rl->reg + i : al->reg + (i - nr)];
    uint32_t s;
    if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_LOCAL)
      s = 0x80000000u | (uint32_t)(D->df->var_off[e->reg] + (uint64_t)e->imm);
    else if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_PARAM && !D->f->is_entry)
      s = 0x80000000u | (uint32_t)D->df->param_off[e->reg];
    else if (i >= nr && (e->kind == WS_PTX_O_REG || e->kind == WS_PTX_O_IMM_INT)) {
      int at = cf && (i - nr) < cf->nparams ? cf->params[i - nr].type : WS_PTX_T_B64;
      if ((st = src(D, in, e, at, &s))) return st;
    } else
      return unsup(D, in, "call operand");
    if ((st = push_vs(D, s))) return st;
  }
  if (indirect) {
    di->op = D_CALLI;
    di->a = o[fi].reg;
    return WS_OK;
  }
  if (!cf->has_body) {
    if (strcmp(cf->name, "vprintf") == 0 && na == 2) {
      di->op = D_VPRINTF;
      return WS_OK;
    }
    if (strcmp(cf->name, "__assertfail") == 0 && na == 5) { /* assert() failing in device code */
      di->op = D_ASSERTFAIL;
      return WS_OK;
    }
    return unsup(D, in, "call to an external function without a body");
  }
  if (na != cf->nparams || nr != cf->nrets) return unsup(D, in, "argument count differs from the callee");
  di->op = D_CALL;
  return queue_func(D, o[fi].reg, &di->target);
}

/* shfl */
static int dec_shfl(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  static const int sm[][2] = {{WS_PTX_MOD_UP, 0}, {WS_PTX_MOD_DOWN, 1}, {WS_PTX_MOD_BFLY, 2}, {WS_PTX_MOD_IDX, 3}};
  int i = 1;
  int sync = ws_ptx_inst_has(in, WS_PTX_MOD_SYNC);
  di->mode = 255;
  for (int j = 0; j < 4; j++)
    if (in->mode == sm[j][0]) di->mode = (uint8_t)sm[j][1];
  if (di->mode == 255) return refuse(D, in);
  di->op = D_SHFL;
  DST(0);
  if (o[1].flags & WS_PTX_OF_PIPE) {
    if ((st = pred(D, in, &o[1], &di->d2))) return st;
    i = 2;
  }
  if (in->nops - i != (sync ? 4 : 3)) return refuse(D, in);
  SRC(i, a);
  t = WS_PTX_T_U32;
  SRC(i + 1, b);
  SRC(i + 2, c);
  if (sync) SRC(i + 3, e);
  else if ((st = const_slot(D, 0xffffffffu, &di->e))) return st; /* pre-sm_70 shfl: no member mask */
  return WS_OK;
}

/* vote */
static int dec_vote(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  di->op = D_VOTE;
  di->mode = in->mode == WS_PTX_MOD_ALL ? 0 : in->mode == WS_PTX_MOD_ANY ? 1 : in->mode == WS_PTX_MOD_BALLOT ? 3 : 2;
  if (in->mode != WS_PTX_MOD_ALL && in->mode != WS_PTX_MOD_ANY && in->mode != WS_PTX_MOD_BALLOT &&
      !ws_ptx_inst_has(in, WS_PTX_MOD_UNI))
    return refuse(D, in);
  if (di->mode == 3) DST(0);
  else if ((st = pred(D, in, &o[0], &di->d))) return st;
  if ((st = pred(D, in, &o[1], &di->a))) return st;
  if (o[1].flags & WS_PTX_OF_NOT) di->flags |= 1;
  if (in->nops > 2) {
    t = WS_PTX_T_U32;
    SRC(2, b);
  } else if ((st = const_slot(D, 0xffffffffu, &di->b))) {
    return st;
  }
  return WS_OK;
}

/* match */
static int dec_match(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  const ws_ptx_operand *o = in->ops;
  int t = T->t;
  int st;
  int i = 1;
  di->op = D_MATCH;
  di->mode = in->mode == WS_PTX_MOD_ALL;
  DST(0);
  if (o[1].flags & WS_PTX_OF_PIPE) {
    if ((st = pred(D, in, &o[1], &di->d2))) return st;
    i = 2;
  }
  if (in->nops - i != 2) return refuse(D, in);
  SRC(i, a);
  t = WS_PTX_T_U32;
  SRC(i + 1, b);
  di->d = di->d; /* result is a b32 mask */
  return WS_OK;
}

/* redux */
static int dec_redux(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  int t = T->t;
  if (!T->isint || T->bits != 32) return refuse(D, in);
  di->op = D_REDUX;
  di->aop = in->bop;
  DST(0);
  SRC(1, a);
  t = WS_PTX_T_U32;
  SRC(2, b);
  return WS_OK;
}

/* activemask */
static int dec_activemask(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  di->op = D_ACTIVEMASK;
  DST(0);
  return WS_OK;
}

/* elect */
static int dec_elect(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T) {
  (void)T;
  const ws_ptx_operand *o = in->ops;
  int st;
  di->op = D_ELECT;
  int i = 0;
  if (o[0].kind == WS_PTX_O_REG && !is_pred_reg(D, o[0].reg)) {
    DST(0);
    i = 1;
  } else if (o[0].kind == WS_PTX_O_SINK) {
    di->d = D->scratch;
    i = 1;
  }
  if (i < in->nops && (st = pred(D, in, &o[i], &di->d2))) return st;
  return WS_OK;
}
#undef SRC
#undef DST
#undef BIN
#undef UN
#undef TER

/* The decoder of each PTX opcode (NULL: not implemented). */
static dec_fn *const decoders[WS_PTX_OP_COUNT] = {
    [WS_PTX_OP_ADD] = dec_add_sub_mul,
    [WS_PTX_OP_SUB] = dec_add_sub_mul,
    [WS_PTX_OP_MUL] = dec_add_sub_mul,
    [WS_PTX_OP_ADDC] = dec_addc,
    [WS_PTX_OP_SUBC] = dec_addc,
    [WS_PTX_OP_MADC] = dec_mad_fma,
    [WS_PTX_OP_MAD] = dec_mad_fma,
    [WS_PTX_OP_FMA] = dec_mad_fma,
    [WS_PTX_OP_MUL24] = dec_mul24,
    [WS_PTX_OP_MAD24] = dec_mad24,
    [WS_PTX_OP_SAD] = dec_sad,
    [WS_PTX_OP_DIV] = dec_div,
    [WS_PTX_OP_REM] = dec_rem,
    [WS_PTX_OP_ABS] = dec_abs_neg,
    [WS_PTX_OP_NEG] = dec_abs_neg,
    [WS_PTX_OP_MIN] = dec_min_max,
    [WS_PTX_OP_MAX] = dec_min_max,
    [WS_PTX_OP_COPYSIGN] = dec_copysign,
    [WS_PTX_OP_TESTP] = dec_testp,
    [WS_PTX_OP_DP4A] = dec_dp4a,
    [WS_PTX_OP_DP2A] = dec_dp4a,
    [WS_PTX_OP_RCP] = dec_rcp_sqrt,
    [WS_PTX_OP_SQRT] = dec_rcp_sqrt,
    [WS_PTX_OP_RSQRT] = dec_approx,
    [WS_PTX_OP_SIN] = dec_approx,
    [WS_PTX_OP_COS] = dec_approx,
    [WS_PTX_OP_LG2] = dec_approx,
    [WS_PTX_OP_EX2] = dec_approx,
    [WS_PTX_OP_TANH] = dec_approx,
    [WS_PTX_OP_AND] = dec_logic,
    [WS_PTX_OP_OR] = dec_logic,
    [WS_PTX_OP_XOR] = dec_logic,
    [WS_PTX_OP_NOT] = dec_not,
    [WS_PTX_OP_CNOT] = dec_cnot,
    [WS_PTX_OP_LOP3] = dec_lop3,
    [WS_PTX_OP_SHL] = dec_shift,
    [WS_PTX_OP_SHR] = dec_shift,
    [WS_PTX_OP_SHF] = dec_shf,
    [WS_PTX_OP_POPC] = dec_popc,
    [WS_PTX_OP_CLZ] = dec_clz,
    [WS_PTX_OP_BREV] = dec_brev,
    [WS_PTX_OP_BFIND] = dec_bfind,
    [WS_PTX_OP_BFE] = dec_bfe,
    [WS_PTX_OP_BFI] = dec_bfi,
    [WS_PTX_OP_PRMT] = dec_prmt,
    [WS_PTX_OP_FNS] = dec_fns,
    [WS_PTX_OP_BMSK] = dec_bmsk,
    [WS_PTX_OP_SZEXT] = dec_szext,
    [WS_PTX_OP_SETP] = dec_setp_set,
    [WS_PTX_OP_SET] = dec_setp_set,
    [WS_PTX_OP_SELP] = dec_selp,
    [WS_PTX_OP_SLCT] = dec_slct,
    [WS_PTX_OP_MOV] = dec_mov,
    [WS_PTX_OP_CVT] = dec_cvt,
    [WS_PTX_OP_CVTA] = dec_cvta,
    [WS_PTX_OP_ISSPACEP] = dec_isspacep,
    [WS_PTX_OP_LD] = dec_ld_st,
    [WS_PTX_OP_LDU] = dec_ld_st,
    [WS_PTX_OP_ST] = dec_ld_st,
    [WS_PTX_OP_ATOM] = dec_atom_red,
    [WS_PTX_OP_RED] = dec_atom_red,
    [WS_PTX_OP_ALLOCA] = dec_alloca,
    [WS_PTX_OP_STACKSAVE] = dec_stacksave,
    [WS_PTX_OP_STACKRESTORE] = dec_stackrestore,
    [WS_PTX_OP_CREATEPOLICY] = dec_createpolicy,
    [WS_PTX_OP_PREFETCH] = dec_nop,
    [WS_PTX_OP_PREFETCHU] = dec_nop,
    [WS_PTX_OP_MEMBAR] = dec_nop,
    [WS_PTX_OP_FENCE] = dec_nop,
    [WS_PTX_OP_BAR_WARP_SYNC] = dec_nop,
    [WS_PTX_OP_NANOSLEEP] = dec_nop,
    [WS_PTX_OP_PMEVENT] = dec_nop,
    [WS_PTX_OP_GRIDDEP_WAIT] = dec_nop,
    [WS_PTX_OP_GRIDDEP_LAUNCH] = dec_nop,
    [WS_PTX_OP_BAR] = dec_bar,
    [WS_PTX_OP_BARRIER] = dec_bar,
    [WS_PTX_OP_BRA] = dec_bra,
    [WS_PTX_OP_BRX_IDX] = dec_brx_idx,
    [WS_PTX_OP_EXIT] = dec_exit,
    [WS_PTX_OP_TRAP] = dec_trap,
    [WS_PTX_OP_RET] = dec_ret,
    [WS_PTX_OP_CALL] = dec_call,
    [WS_PTX_OP_SHFL] = dec_shfl,
    [WS_PTX_OP_VOTE] = dec_vote,
    [WS_PTX_OP_MATCH] = dec_match,
    [WS_PTX_OP_REDUX] = dec_redux,
    [WS_PTX_OP_ACTIVEMASK] = dec_activemask,
    [WS_PTX_OP_ELECT] = dec_elect
};

/* Decode one instruction: the fields every form shares, then its opcode's
 * decoder. */
static int decode(dec *D, const ws_ptx_inst *in, dinst *di) {
  optype T;
  T.t = in->ntypes ? in->type[0] : WS_PTX_T_NONE;
  T.bits = T.t ? tbits(T.t) : 0;
  int k = T.t ? tkind(T.t) : 0;
  di->bits = (uint8_t)(T.bits < 8 ? 8 : T.bits > 64 ? 64 : T.bits);
  di->sgn = k == WS_PTX_TK_S;
  di->wmask = wmask_of(di->bits);
  di->rnd = (uint8_t)rnd_of(in->round);
  di->ftz = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_FTZ);
  di->sat = (uint8_t)ws_ptx_inst_has(in, WS_PTX_MOD_SAT);
  di->d2 = NO_SLOT;
  di->d = di->a = di->b = di->c = di->e = NO_SLOT;
  T.isf32 = T.t == WS_PTX_T_F32;
  T.isf64 = T.t == WS_PTX_T_F64;
  T.hk = hkind(T.t);
  T.isint = k == WS_PTX_TK_U || k == WS_PTX_TK_S || k == WS_PTX_TK_B;
  T.plain = (di->rnd == WS_NUM_RND_NONE || di->rnd == WS_NUM_RN) && !di->ftz && !di->sat;
  dec_fn *f = (unsigned)in->op < WS_PTX_OP_COUNT ? decoders[in->op] : NULL;
  return f ? f(D, in, di, &T) : refuse(D, in);
}

/* ---- reconvergence: immediate post-dominators --------------------------- */

/* Each branch reconverges at the first instruction of its block's immediate
 * post-dominator (analysis/cfg.c); func->ninsts, the implicit return at the
 * end, when only the function's exit post-dominates it. */
static int compute_rpcs(dec *D, dfunc *df) {
  ws_cfg *c = NULL;
  int st = ws_analysis_build(&c, D->m, df->f, D->d);
  if (st) return st;
  for (uint32_t b = 0; b < c->nblocks; b++)
    if (c->blocks[b].first < df->f->ninsts) df->code[c->blocks[b].first].bb_entry = 1;
  for (uint32_t i = 0; i < df->f->ninsts; i++)
    if (df->code[i].op == D_BRA || df->code[i].op == D_BRX) df->code[i].rpc = ws_analysis_cfg_reconverge_inst(c, i);
  ws_analysis_free(c);
  return WS_OK;
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

static int decode_func(dec *D, dfunc *df, const ws_ptx_function *f) {
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
        return unsup(D, in, "guard is not a predicate");
      di->guard = (int32_t)df->pred_of_reg[in->guard];
      di->gnot = in->guard_not;
    }
    if ((st = decode(D, in, di))) return st;
  }
  dinst *last = &df->code[f->ninsts];
  last->op = f->is_entry ? D_EXIT : D_RET;
  last->guard = -1;
  last->pc = f->ninsts;
  last->d = last->a = last->b = last->c = last->e = last->d2 = NO_SLOT;
  if ((st = compute_rpcs(D, df))) return st;
  df->nslots = df->nconst_first + D->nconsts;
  df->const_vals = malloc((D->nconsts + 1) * sizeof *df->const_vals);
  if (!df->const_vals) return WS_ENOMEM;
  if (D->nconsts) memcpy(df->const_vals, D->consts, D->nconsts * sizeof *df->const_vals);
  return WS_OK;
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
  queue_func(&D, (uint32_t)ki, &dummy);
  for (int i = 0; i < D.ninit_funcs; i++) queue_func(&D, (uint32_t)D.init_q[i + 1], &dummy);
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
