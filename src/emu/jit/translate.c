/*
 * translate.c — a loaded program's PTX to C, for the translated engine.
 *
 * Input: the IR of the kernel and of every function it reaches (the
 * program's functions, in the program's order), and the program's layout
 * (module variable addresses, frame offsets).  Each PTX instruction is
 * translated from the IR with the same decisions load.c takes (which form,
 * which num.c function, which masks), and the exactness test
 * (tests/cli/jit_exact.sh) runs every corpus kernel under both engines and
 * compares the outputs byte for byte.  Of the interpreter's decoded form
 * only each instruction's opcode is read, as a gate: a kernel with a
 * decoded opcode outside JIT_DOPS (below) is not translated at all.
 *
 * Output shape, per function (docs/emulator.md, "The translated engine"):
 *
 *   struct jr_F { predicates; registers read before written; the global
 *                 load sites' objects (these zeroed when a frame is pushed);
 *                 the other registers (32 lanes each); prefetch strides }
 *   static int jf_F(jit_ctx *X, jit_warp *w) {
 *     dispatch: switch (top entry's pc) { case L: goto L_L; ... }
 *     L_L: if (rpc == L) reconverge;  w->insts += segment length;
 *          one block of C per instruction: m = active & guard; lane loops
 *     ...
 *   }
 *
 * The code mirrors the interpreter's warp loop: a label (and a dispatch
 * case) at every instruction where a warp can resume — basic-block starts,
 * after every branch, exit, call and barrier, and at every call (a guarded
 * call runs again for its lanes) — and the reconvergence check (pc == the
 * top entry's rpc) at each label, where the interpreter checks it at every
 * instruction (rpcs are block starts).  Instruction counts are added per
 * segment (label to label), so %clock, the limits and the statistics are
 * the interpreter's; reads of %clock subtract what the segment has not run
 * yet.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/jit/jit.h"
#include "emu/jit/jit_lane.h"
#include "emu/num.h"
#include "util/bits.h"
#include "util/vec.h"
#include "warpsight/analysis.h"

/* Where a register lives: its group in the registers struct and its row. */
enum { RG_PRED, RG_Z32, RG_Z64, RG_R32, RG_R64 };
static const char *const group_name[] = {"p", "z32", "z64", "r32", "r64"};

typedef struct reginfo {
  uint8_t group; /* RG_* */
  uint32_t row;  /* index in its group */
} reginfo;

typedef struct tr {
  const ws_emu_program *P;      /* the program */
  const ws_ptx_module *m;       /* its module */
  ws_diag *d;                   /* diagnostics */
  ws_strbuf *o;                 /* the file */
  ws_strbuf data;               /* static data of the function (call sites, tables) */
  ws_strbuf b;                  /* the function's body */
  uint32_t fi;                  /* function index */
  const dfunc *df;              /* its layout */
  const ws_ptx_function *f;     /* its IR */
  ws_cfg *cfg;                  /* its CFG */
  reginfo *ri;                  /* per IR register */
  uint32_t ng[5];               /* rows per group */
  uint8_t *label;               /* per pc (0..ninsts): a resumable label */
  uint32_t *seg_end;            /* per label pc: the segment's last pc */
  const ws_ptx_inst *in;        /* the instruction being translated */
  uint32_t pc;                  /* its index */
  uint32_t seg_last;            /* last pc of its segment */
  int guarded;                  /* it has a guard */
  /* fused lane loops: consecutive lane operations (arithmetic, compares,
   * moves, conversions: per-lane, pure) of a segment share one loop over
   * the lanes, their registers in locals (v<reg>, predicates q<pred>) */
  ws_strbuf *cur;               /* where E() writes: &b, or &ib for a lane operation */
  int fused;                    /* translating a lane operation */
  int novec;                    /* it calls num.c: runs alone, lane by lane */
  ws_strbuf ib;                 /* the lane operation's code for lane l */
  ws_strbuf ipre;               /* its code before the loop (uniform values) */
  ws_strbuf ipost;              /* its code after the loop (num.c for the lanes its fast form left) */
  int close_after;              /* it ends its group (it has an after-the-loop part) */
  uint32_t *ilist;              /* registers it touches (IR index | 1 << 31 when written) */
  uint32_t nilist;              /* entries */
  size_t cilist;                /* allocated */
  uint32_t *iplist;             /* predicates it touches (index | 1 << 31 when written) */
  uint32_t niplist;             /* entries */
  size_t ciplist;               /* allocated */
  int gopen;                    /* a group is open */
  int gguards;                  /* guarded operations in it (thread_insts per lane) */
  uint32_t npf;                 /* global loads so far (their prefetch slots) */
  uint32_t ngs;                 /* global load sites with a fast path (their objects, R->gs) */
  ws_strbuf gpre, gbody, gpost; /* the open group's preamble, lane code and after-the-loop part */
  uint8_t *gr;                  /* per IR register: 1 touched, 2 written, in the group */
  uint8_t *gp;                  /* per predicate: the same */
  /* shared-memory address analyses (sa_shared): per IR register, the slot
   * (+1) of the analysis of its lanes made earlier in the segment, still
   * valid (nothing wrote the register since), and the access size it
   * classified the lanes for; 0: none */
  uint32_t *sa_slot;
  uint32_t *sa_n;
  uint32_t nsa;                 /* slots used in the function */
} tr;

/* An operand for lane l: a C expression of width w (32 or 64). */
typedef struct val {
  char s[96];  /* the expression */
  int w;       /* its C width: 32 (uint32_t) or 64 (uint64_t) */
} val;

/* A destination register: its lanes' row (or, in a lane operation, its
 * local) and storage width, or a sink. */
typedef struct dreg {
  char s[48];  /* "R->r32[3]", or "v12" */
  int w;       /* 32 or 64 */
  int sink;    /* `_`: nothing is written */
  uint32_t reg;/* IR register */
} dreg;

#define E(...) ws_sb_printf(T->cur, __VA_ARGS__)

/* Room for one C expression the translator builds. */
#define XBUF 4096

static uint64_t wmask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static int tbits(int t) { return ws_ptx_type_bits((ws_ptx_type)t); }
static int tkind(int t) { return ws_ptx_type_kind((ws_ptx_type)t); }
static const char *ctype(int w) { return w == 64 ? "uint64_t" : "uint32_t"; }

/* The instruction is not translated: the kernel runs in the interpreter. */
static int refuse(tr *T, const char *why) {
  char *txt = NULL;
  ws_ptx_print_inst(&txt, T->m, T->f, T->in);
  ws_diag_add(T->d, WS_SEV_ERROR, T->m->path, (int)T->in->line, (int)T->in->col,
              "the translated engine does not handle %s%s%s%s (in %s)",
              txt ? txt : ws_ptx_opcode_name((ws_ptx_opcode)T->in->op), why ? " (" : "", why ? why : "",
              why ? ")" : "", T->f->name);
  free(txt);
  return WS_EUNSUP;
}

/* ---- operands ------------------------------------------------------------------ */

static int is_pred(const tr *T, uint32_t r) { return T->f->regs[r].type == WS_PTX_T_PRED; }

static int reg_storage(const tr *T, uint32_t r) {
  int g = T->ri[r].group;
  return g == RG_Z64 || g == RG_R64 ? 64 : 32;
}

/* The interpreter's reg_bits: a register's declared width, at least 8. */
static int reg_bits(const tr *T, uint32_t r) {
  int b = tbits(T->f->regs[r].type);
  return b < 8 ? 8 : b;
}

/* An immediate as the bits an operand of type t expects (load.c's imm_bits). */
static uint64_t imm_bits(const ws_ptx_operand *o, int t) {
  int bits = tbits(t);
  if (o->kind == WS_PTX_O_IMM_F64 && t == WS_PTX_T_F32)
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, 0, 0);
  if (o->kind == WS_PTX_O_IMM_F32 && t == WS_PTX_T_F64)
    return ws_emu_num_cvt((uint64_t)o->imm, WS_NUM_F32, WS_NUM_F64, WS_NUM_RN, 0, 0);
  return (uint64_t)o->imm & wmask_of(bits < 8 ? 64 : bits);
}

static void const_val(val *v, uint64_t c, int w) {
  if (w == 32 && c <= 0xffffffffu) snprintf(v->s, sizeof v->s, "0x%" PRIx64 "u", c);
  else snprintf(v->s, sizeof v->s, "0x%" PRIx64 "ull", c), w = 64;
  v->w = w;
}

/* A lane operation touches register r (written: it writes it). */
static void touch(tr *T, uint32_t r, int written) {
  WS_VEC_PUSH(T->ilist, T->nilist, T->cilist, r | (written ? 1u << 31 : 0));
}
static void ptouch(tr *T, uint32_t p, int written) {
  WS_VEC_PUSH(T->iplist, T->niplist, T->ciplist, p | (written ? 1u << 31 : 0));
}

/* Register r as a value of width w for lane l; a 64-bit register read at
 * 32 bits only where `trunc` says the instruction uses its low bits. */
static int reg_val(tr *T, uint32_t r, int w, int trunc, val *v) {
  int sw = reg_storage(T, r);
  const reginfo *ri = &T->ri[r];
  if (sw == 64 && w == 32 && !trunc) return refuse(T, "a 64-bit register in a 32-bit operation");
  const char *cast = sw == w ? "" : w == 32 ? "(uint32_t)" : "(uint64_t)";
  if (T->fused) {
    touch(T, r, 0);
    snprintf(v->s, sizeof v->s, "%sv%u", cast, r);
  } else {
    snprintf(v->s, sizeof v->s, "%sR->%s[%u][l]", cast, group_name[ri->group], ri->row);
  }
  v->w = w;
  return WS_OK;
}

/* Source operand o of type t as a value of width w (load.c's src()). */
static int src_w(tr *T, const ws_ptx_operand *o, int t, int w, int trunc, val *v) {
  const dfunc *df = T->df;
  switch (o->kind) {
  case WS_PTX_O_REG:
    if (is_pred(T, o->reg)) return refuse(T, "predicate used as a value");
    if (o->flags & WS_PTX_OF_NEG) return refuse(T, "negated register operand");
    return reg_val(T, o->reg, w, trunc, v);
  case WS_PTX_O_IMM_INT:
  case WS_PTX_O_IMM_F32:
  case WS_PTX_O_IMM_F64:
    const_val(v, imm_bits(o, t), w);
    break;
  case WS_PTX_O_SYM:
    if (o->symkind == WS_PTX_S_GLOBAL) const_val(v, T->P->mvar_addr[o->reg] + (uint64_t)o->imm, w);
    else if (o->symkind == WS_PTX_S_LOCAL && T->f->vars[o->reg].space == WS_PTX_SP_SHARED)
      const_val(v, df->var_off[o->reg] + (uint64_t)o->imm, w);
    else if (o->symkind == WS_PTX_S_PARAM && T->f->is_entry)
      const_val(v, T->f->params[o->reg].offset + (uint64_t)o->imm, w);
    else
      return refuse(T, "symbol used as a value here");
    break;
  default:
    return refuse(T, "operand kind");
  }
  if (v->w != w) return refuse(T, "a 64-bit constant in a 32-bit operation");
  return WS_OK;
}

static int src(tr *T, int i, int t, int w, val *v) { return src_w(T, &T->in->ops[i], t, w, 0, v); }

/* Destination operand o (load.c's dst()). */
static int dst_of(tr *T, const ws_ptx_operand *o, dreg *dr) {
  memset(dr, 0, sizeof *dr);
  if (o->kind == WS_PTX_O_SINK) {
    dr->sink = 1;
    dr->w = 64;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || is_pred(T, o->reg)) return refuse(T, "destination operand");
  const reginfo *ri = &T->ri[o->reg];
  if (T->fused) snprintf(dr->s, sizeof dr->s, "v%u", o->reg);
  else snprintf(dr->s, sizeof dr->s, "R->%s[%u]", group_name[ri->group], ri->row);
  dr->w = reg_storage(T, o->reg);
  dr->reg = o->reg;
  return WS_OK;
}

static int dst(tr *T, int i, dreg *dr) { return dst_of(T, &T->in->ops[i], dr); }

/* Predicate operand (load.c's pred()): its index, or -1 for `_`. */
static int pred_of(tr *T, const ws_ptx_operand *o, int *out) {
  if (o->kind == WS_PTX_O_SINK) {
    *out = -1;
    return WS_OK;
  }
  if (o->kind != WS_PTX_O_REG || !is_pred(T, o->reg)) return refuse(T, "expected a predicate");
  *out = (int)T->ri[o->reg].row;
  return WS_OK;
}

/* ---- lane loops ------------------------------------------------------------------- */

/* d = expr (of width rw) for the lanes of m.  `vec`: expr is pure, cheap
 * and safe on any lane's values, so it runs for all 32 lanes and is
 * blended (the compiler vectorises it); otherwise it runs for the lanes of
 * m only (num.c calls). */
static int assign(tr *T, const dreg *dr, int rw, int vec, const char *expr) {
  if (!vec) T->novec = 1;
  if (dr->sink) return WS_OK;
  if (rw == 64 && dr->w == 32) return refuse(T, "a 64-bit result in a 32-bit register");
  const char *ct = ctype(dr->w);
  if (T->fused) { /* the lane's local, under its condition c_ */
    touch(T, dr->reg, 1);
    if (vec) E("    %s = jsel%d(c_, (%s)(%s), %s);\n", dr->s, dr->w, ct, expr, dr->s);
    else E("    if (c_) %s = (%s)(%s);\n", dr->s, ct, expr);
    return WS_OK;
  }
  if (vec)
    E("  JFOR { %s jv_ = (%s)(%s); %s[l] = JSEL(m, jv_, %s[l]); }\n", ct, ct, expr, dr->s, dr->s);
  else
    E("  JEACH(m) %s[l] = (%s)(%s);\n", dr->s, ct, expr);
  return WS_OK;
}

/* A predicate's bits for lanes m: P = (P & ~m) | (x & m). */
static void pred_set(tr *T, int p, const char *x) {
  if (p < 0) return;
  E("  R->p[%d] = (R->p[%d] & ~m) | ((%s) & m);\n", p, p, x);
}

/* In a lane operation: predicate p of lane l as 0/1 (negated: 1 - it). */
static const char *pread(tr *T, int p, int neg, char *buf, size_t n) {
  ptouch(T, (uint32_t)p, 0);
  snprintf(buf, n, neg ? "(q%d ^ 1u)" : "q%d", p);
  return buf;
}

/* In a lane operation: predicate p of lane l = x (0 or not) under c_;
 * `lib`: x calls num.c (evaluated only for the lanes that run it). */
static void pwrite(tr *T, int p, const char *x, int lib) {
  if (p < 0) return;
  ptouch(T, (uint32_t)p, 1);
  if (lib) {
    T->novec = 1;
    E("    if (c_) q%d = (uint32_t)((%s) != 0);\n", p, x);
  } else {
    E("    q%d = jsel32(c_, (uint32_t)((%s) != 0), q%d);\n", p, x, p);
  }
}

/* In a lane operation: d = `fast` (an expression that clears ok_ where it
 * is not num.c's answer) under c_; after the group's loop, the lanes it
 * left get num.c's `fn`(saved operands, `args`).  The operation ends its
 * group, so later ones read the fixed registers. */
static int assign_fix(tr *T, const dreg *dr, const char *fast, int n, const val *ops, const char *fn, const char *args) {
  if (dr->sink) return WS_OK;
  if (dr->w != 32) return refuse(T, "a 32-bit result in a 64-bit register");
  uint32_t pc = T->pc;
  touch(T, dr->reg, 1);
  ws_sb_printf(&T->ipre, "  uint32_t xo%u_[3][32], xm%u_ = 0;\n", pc, pc);
  E("    { uint32_t ok_ = 1; const uint32_t f_ = %s;\n", fast);
  for (int k = 0; k < n; k++) E("      xo%u_[%d][l] = %s;\n", pc, k, ops[k].s);
  E("      %s = jsel32(c_, f_, %s); xm%u_ |= (c_ & (ok_ ^ 1u)) << l; }\n", dr->s, dr->s, pc);
  const reginfo *ri = &T->ri[dr->reg];
  ws_sb_printf(&T->ipost, "  JEACH(xm%u_) R->%s[%u][l] = X->num->%s(", pc, group_name[ri->group], ri->row, fn);
  for (int k = 0; k < n; k++) ws_sb_printf(&T->ipost, "%sxo%u_[%d][l]", k ? ", " : "", pc, k);
  ws_sb_printf(&T->ipost, "%s%s);\n", args[0] ? ", " : "", args);
  T->close_after = 1;
  return WS_OK;
}

/* ---- the instruction's type ----------------------------------------------------------- */

typedef struct ty {
  int t;       /* first type */
  int bits;    /* its width, clamped to 8..64 (the interpreter's dinst.bits) */
  int w;       /* C width of the operation: 32 or 64 */
  uint64_t wm; /* mask of bits */
  int sgn;     /* signed type */
  int isf32, isf64, hk, isint;
  int rnd;     /* ws_emu_num_rnd */
  int ftz, sat;
  int plain;   /* RN or none, no .ftz, no .sat */
} ty;

static void type_of(ty *y, const ws_ptx_inst *in) {
  memset(y, 0, sizeof *y);
  y->t = in->ntypes ? in->type[0] : WS_PTX_T_NONE;
  int b = y->t ? tbits(y->t) : 0, k = y->t ? tkind(y->t) : 0;
  y->bits = b < 8 ? 8 : b > 64 ? 64 : b;
  y->w = y->bits > 32 ? 64 : 32;
  y->wm = wmask_of(y->bits);
  y->sgn = k == WS_PTX_TK_S;
  y->isf32 = y->t == WS_PTX_T_F32;
  y->isf64 = y->t == WS_PTX_T_F64;
  y->hk = ws_emu_dec_hkind(y->t);
  y->isint = k == WS_PTX_TK_U || k == WS_PTX_TK_S || k == WS_PTX_TK_B;
  y->rnd = ws_emu_dec_rnd(in->round);
  y->ftz = ws_ptx_inst_has(in, WS_PTX_MOD_FTZ);
  y->sat = ws_ptx_inst_has(in, WS_PTX_MOD_SAT);
  y->plain = (y->rnd == WS_NUM_RND_NONE || y->rnd == WS_NUM_RN) && !y->ftz && !y->sat;
}

/* "& wm" when the operation's C width holds more than its bits. */
static const char *maskstr(const ty *y, char *buf, size_t n) {
  if ((y->w == 32 && y->bits == 32) || y->bits == 64) return "";
  snprintf(buf, n, " & 0x%" PRIx64 "u", y->wm);
  return buf;
}

/* ---- per opcode ------------------------------------------------------------------------ */

/* d = f(a, b[, c]) with operands of the instruction's type at width y->w. */
static int ops3(tr *T, const ty *y, int n, val *a, val *b, val *c) {
  int st = src(T, 1, y->t, y->w, a);
  if (!st && n > 1) st = src(T, 2, y->t, y->w, b);
  if (!st && n > 2) st = src(T, 3, y->t, y->w, c);
  return st;
}

/* add, sub, mul, mad, fma, ... for integers */
static int tr_int(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  val a, b, c;
  dreg dr;
  char mb[32], x[XBUF];
  const char *M = maskstr(y, mb, sizeof mb), *W = ctype(y->w);
  int isadd = in->op == WS_PTX_OP_ADD, issub = in->op == WS_PTX_OP_SUB, st;
  int cc = ws_ptx_inst_has(in, WS_PTX_MOD_CC);
  int bits = y->bits, sg = y->sgn;
  if ((st = dst(T, 0, &dr))) return st;
  switch (in->op) {
  case WS_PTX_OP_ADD:
  case WS_PTX_OP_SUB:
  case WS_PTX_OP_MUL:
    if (cc) {
      if (in->op == WS_PTX_OP_MUL || (bits != 32 && bits != 64)) return refuse(T, NULL);
      goto carry;
    }
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    if ((isadd || issub) && y->sat) {
      if (bits != 32 || !sg) return refuse(T, NULL);
      snprintf(x, sizeof x, "X->num->s32_%s_sat(%s, %s)", isadd ? "add" : "sub", a.s, b.s);
      return assign(T, &dr, 32, 0, x);
    }
    if (isadd || issub) {
      snprintf(x, sizeof x, "(%s)(%s %c %s)%s", W, a.s, isadd ? '+' : '-', b.s, M);
      return assign(T, &dr, y->w, 1, x);
    }
    if (in->mode == WS_PTX_MOD_HI) {
      if (bits == 32 && sg)
        snprintf(x, sizeof x, "(uint32_t)(((int64_t)(int32_t)%s * (int32_t)%s) >> 32)", a.s, b.s);
      else if (bits == 32)
        snprintf(x, sizeof x, "(uint32_t)(((uint64_t)%s * %s) >> 32)", a.s, b.s);
      else {
        snprintf(x, sizeof x, "X->num->mul_hi(%s, %s, %d, %d)", a.s, b.s, bits, sg);
        return assign(T, &dr, y->w, 0, x);
      }
      return assign(T, &dr, 32, 1, x);
    }
    if (in->mode == WS_PTX_MOD_WIDE) {
      if (bits > 32) return refuse(T, NULL);
      if (bits == 32 && sg) snprintf(x, sizeof x, "(uint64_t)((int64_t)(int32_t)%s * (int32_t)%s)", a.s, b.s);
      else if (bits == 32) snprintf(x, sizeof x, "(uint64_t)%s * %s", a.s, b.s);
      else {
        snprintf(x, sizeof x, "X->num->mul_wide(%s, %s, %d, %d)", a.s, b.s, bits, sg);
        return assign(T, &dr, 32, 0, x);
      }
      return assign(T, &dr, 64, 1, x);
    }
    snprintf(x, sizeof x, "(%s)(%s * %s)%s", W, a.s, b.s, M);
    return assign(T, &dr, y->w, 1, x);
  case WS_PTX_OP_ADDC:
  case WS_PTX_OP_SUBC:
    if (bits != 32 && bits != 64) return refuse(T, NULL);
    goto carry;
  case WS_PTX_OP_MAD:
  case WS_PTX_OP_MADC:
    if (in->op == WS_PTX_OP_MADC || cc) {
      if ((bits != 32 && bits != 64) || in->mode == WS_PTX_MOD_WIDE) return refuse(T, NULL);
      goto carry;
    }
    if (in->mode == WS_PTX_MOD_HI) {
      if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
      snprintf(x, sizeof x, "X->num->mad_hi(%s, %s, %s, %d, %d, %d)", a.s, b.s, c.s, bits, sg, y->sat);
      return assign(T, &dr, y->w, 0, x);
    }
    if (in->mode == WS_PTX_MOD_WIDE) {
      if (bits > 32) return refuse(T, NULL);
      if ((st = ops3(T, y, 2, &a, &b, &c)) ||
          (st = src(T, 3, sg ? WS_PTX_T_S64 : WS_PTX_T_U64, 64, &c)))
        return st;
      if (bits == 32 && sg)
        snprintf(x, sizeof x, "(uint64_t)((int64_t)(int32_t)%s * (int32_t)%s) + %s", a.s, b.s, c.s);
      else if (bits == 32)
        snprintf(x, sizeof x, "(uint64_t)%s * %s + %s", a.s, b.s, c.s);
      else {
        snprintf(x, sizeof x, "X->num->mad_wide(%s, %s, %s, %d, %d)", a.s, b.s, c.s, bits, sg);
        return assign(T, &dr, 64, 0, x);
      }
      return assign(T, &dr, 64, 1, x);
    }
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "(%s)(%s * %s + %s)%s", W, a.s, b.s, c.s, M);
    return assign(T, &dr, y->w, 1, x);
  case WS_PTX_OP_MUL24:
  case WS_PTX_OP_MAD24:
    if (bits != 32) return refuse(T, NULL);
    if (in->op == WS_PTX_OP_MUL24) {
      if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
      snprintf(x, sizeof x, "X->num->mul24(%s, %s, %d, %d)", a.s, b.s, in->mode == WS_PTX_MOD_HI, sg);
    } else {
      if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
      snprintf(x, sizeof x, "X->num->mad24(%s, %s, %s, %d, %d, %d)", a.s, b.s, c.s, in->mode == WS_PTX_MOD_HI,
               sg, y->sat);
    }
    return assign(T, &dr, 32, 0, x);
  case WS_PTX_OP_SAD:
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->sad(%s, %s, %s, %d, %d)", a.s, b.s, c.s, bits, sg);
    return assign(T, &dr, y->w, 0, x);
  case WS_PTX_OP_DIV:
  case WS_PTX_OP_REM:
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->%s(%s, %s, %d, %d)", in->op == WS_PTX_OP_DIV ? "div" : "rem", a.s, b.s,
             bits, sg);
    return assign(T, &dr, y->w, 0, x);
  case WS_PTX_OP_MIN:
  case WS_PTX_OP_MAX: {
    if (ws_ptx_inst_has(in, WS_PTX_MOD_RELU)) return refuse(T, NULL);
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    char op = in->op == WS_PTX_OP_MIN ? '<' : '>';
    if (sg) {
      const char *S = y->w == 64 ? "int64_t" : "int32_t";
      int sh = y->w - bits;
      snprintf(x, sizeof x, "jsel%d(((%s)(%s << %d) >> %d) %c ((%s)(%s << %d) >> %d), (%s)(%s)%s, (%s)(%s)%s)", y->w,
               S, a.s, sh, sh, op, S, b.s, sh, sh, W, a.s, M, W, b.s, M);
    } else {
      snprintf(x, sizeof x, "jsel%d((%s)(%s)%s %c (%s)(%s)%s, (%s)(%s)%s, (%s)(%s)%s)", y->w, W, a.s, M, op, W, b.s, M,
               W, a.s, M, W, b.s, M);
    }
    return assign(T, &dr, y->w, 1, x);
  }
  case WS_PTX_OP_ABS:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->abs(%s, %d)", a.s, bits);
    return assign(T, &dr, y->w, 0, x);
  case WS_PTX_OP_NEG:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "(%s)(0u - %s)%s", W, a.s, M);
    return assign(T, &dr, y->w, 1, x);
  default:
    return refuse(T, NULL);
  }
carry:
  /* addc/subc/madc and the .cc forms: the carry flag per lane in w->cc */
  {
    int madc = in->op == WS_PTX_OP_MAD || in->op == WS_PTX_OP_MADC;
    int cin = in->op == WS_PTX_OP_ADDC || in->op == WS_PTX_OP_SUBC || in->op == WS_PTX_OP_MADC;
    int sub = in->op == WS_PTX_OP_SUB || in->op == WS_PTX_OP_SUBC;
    if ((st = ops3(T, y, madc ? 3 : 2, &a, &b, &c))) return st;
    if (dr.sink) return refuse(T, "a carry chain into `_`");
    if (y->w == 64 && dr.w == 32) return refuse(T, "a 64-bit result in a 32-bit register");
    E("  { %s *D_ = %s; JEACH(m) { unsigned co_ = 0, ci_ = %s; ", ctype(dr.w), dr.s, cin ? "w->cc[l]" : "0u");
    if (madc && in->mode == WS_PTX_MOD_HI)
      E("uint64_t p_ = X->num->mul_hi(%s, %s, %d, %d); ", a.s, b.s, bits, sg);
    else if (madc)
      E("uint64_t p_ = X->num->mul_lo(%s, %s, %d); ", a.s, b.s, bits);
    if (madc)
      E("D_[l] = (%s)X->num->addc(p_, %s, ci_, %d, &co_); ", ctype(dr.w), c.s, bits);
    else
      E("D_[l] = (%s)X->num->%s(%s, %s, ci_, %d, &co_); ", ctype(dr.w), sub ? "subc" : "addc", a.s, b.s, bits);
    E("%s(void)co_; } }\n", cc ? "w->cc[l] = co_; " : "");
    return WS_OK;
  }
}

/* The num.c call of an f32 form: name(a[, b[, c]], args). */
static int num_call(tr *T, const dreg *dr, int rw, const char *fn, int n, const val *a, const val *b,
                    const val *c, const char *args) {
  char x[XBUF];
  snprintf(x, sizeof x, "X->num->%s(%s%s%s%s%s%s%s)", fn, a->s, n > 1 ? ", " : "", n > 1 ? b->s : "",
           n > 2 ? ", " : "", n > 2 ? c->s : "", args[0] ? ", " : "", args);
  return assign(T, dr, rw, 0, x);
}

/* Single and double precision (load.c's f32/f64 decoders). */
static int tr_float(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  val a, b, c;
  dreg dr;
  char x[XBUF], args[64];
  int st, w = y->w, f32 = y->isf32;
  const char *k = f32 ? "f32" : "f64", *B = f32 ? "jb32" : "jb64", *F = f32 ? "jf32" : "jf64";
  int approx = ws_ptx_inst_has(in, WS_PTX_MOD_APPROX);
  char fn[40];
  if (in->op == WS_PTX_OP_TESTP) {
    static const int modes[] = {WS_PTX_MOD_FINITE, WS_PTX_MOD_INFINITE, WS_PTX_MOD_NUMBER,
                                WS_PTX_MOD_NOTANUMBER, WS_PTX_MOD_NORMAL, WS_PTX_MOD_SUBNORMAL};
    static const int nm[] = {WS_NUM_FINITE, WS_NUM_INFINITE, WS_NUM_NUMBER, WS_NUM_NOTANUMBER,
                             WS_NUM_NORMAL, WS_NUM_SUBNORMAL};
    int mode = 0, p;
    for (int i = 0; i < 6; i++)
      if (in->mode == modes[i]) mode = nm[i];
    if ((st = pred_of(T, &in->ops[0], &p)) || (st = src(T, 1, y->t, w, &a))) return st;
    snprintf(x, sizeof x, "X->num->%s_testp(%s, %d)", k, a.s, mode);
    pwrite(T, p, x, 1);
    return WS_OK;
  }
  if ((st = dst(T, 0, &dr))) return st;
  switch (in->op) {
  case WS_PTX_OP_ADD:
  case WS_PTX_OP_SUB:
  case WS_PTX_OP_MUL: {
    const char *nmf = in->op == WS_PTX_OP_ADD ? "add" : in->op == WS_PTX_OP_SUB ? "sub" : "mul";
    if (f32 && ws_ptx_inst_has(in, WS_PTX_MOD_CC)) return refuse(T, NULL);
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    if (y->plain) {
      snprintf(x, sizeof x, "%s(%s(%s) %c %s(%s))", B, F, a.s,
               in->op == WS_PTX_OP_ADD ? '+' : in->op == WS_PTX_OP_SUB ? '-' : '*', F, b.s);
      return assign(T, &dr, w, 1, x);
    }
    snprintf(fn, sizeof fn, "%s_%s", k, nmf);
    if (f32) { /* num.c's fast path inline, num.c for the lanes it leaves */
      val ab[2] = {a, b};
      snprintf(args, sizeof args, "%d, %d, %d", y->rnd, y->ftz, y->sat);
      if (in->op == WS_PTX_OP_MUL) snprintf(x, sizeof x, "jl_f32_mul(%s, %s, %d, %d, &ok_)", a.s, b.s, y->rnd, y->sat);
      else snprintf(x, sizeof x, "jl_f32_add(%s, %s%s, %d, %d, &ok_)", a.s, b.s,
                    in->op == WS_PTX_OP_SUB ? " ^ 0x80000000u" : "", y->rnd, y->sat);
      return assign_fix(T, &dr, x, 2, ab, fn, args);
    }
    snprintf(args, sizeof args, "%d", y->rnd);
    return num_call(T, &dr, w, fn, 2, &a, &b, &c, args);
  }
  case WS_PTX_OP_MAD:
  case WS_PTX_OP_FMA:
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    if (y->plain) {
      snprintf(x, sizeof x, "%s(%s(%s(%s), %s(%s), %s(%s)))", B, f32 ? "fmaf" : "fma", F, a.s, F, b.s, F, c.s);
      return assign(T, &dr, w, 1, x);
    }
    snprintf(fn, sizeof fn, "%s_fma", k);
    if (f32) {
      val abc[3] = {a, b, c};
      snprintf(args, sizeof args, "%d, %d, %d", y->rnd, y->ftz, y->sat);
      snprintf(x, sizeof x, "jl_f32_fma(%s, %s, %s, %d, %d, &ok_)", a.s, b.s, c.s, y->rnd, y->sat);
      return assign_fix(T, &dr, x, 3, abc, fn, args);
    }
    snprintf(args, sizeof args, "%d", y->rnd);
    return num_call(T, &dr, w, fn, 3, &a, &b, &c, args);
  case WS_PTX_OP_DIV:
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    if (f32 && approx) { /* num.c's fast path inline, num.c for the lanes it leaves */
      val ab[2] = {a, b};
      snprintf(args, sizeof args, "%d", y->ftz);
      snprintf(x, sizeof x, "jl_f32_div_approx(%s, %s, &ok_)", a.s, b.s);
      return assign_fix(T, &dr, x, 2, ab, "f32_div_approx", args);
    }
    if (f32 && (ws_ptx_inst_has(in, WS_PTX_MOD_FULL) || y->rnd == WS_NUM_RN)) { /* correctly rounded */
      snprintf(x, sizeof x, "jl_f32_div_rn(%s, %s, %d)", a.s, b.s, y->ftz);
      return assign(T, &dr, w, 1, x);
    }
    if (y->rnd == WS_NUM_RN && !(f32 && y->ftz)) {
      snprintf(x, sizeof x, "%s(%s(%s) / %s(%s))", B, F, a.s, F, b.s);
      return assign(T, &dr, w, 1, x);
    }
    snprintf(fn, sizeof fn, "%s_div", k);
    if (f32) { /* the directed modes: num.c's fast path inline */
      val ab[2] = {a, b};
      snprintf(args, sizeof args, "%d, %d", y->rnd, y->ftz);
      snprintf(x, sizeof x, "jl_f32_div(%s, %s, %d, &ok_)", a.s, b.s, y->rnd);
      return assign_fix(T, &dr, x, 2, ab, fn, args);
    }
    snprintf(args, sizeof args, "%d", y->rnd);
    return num_call(T, &dr, w, fn, 2, &a, &b, &c, args);
  case WS_PTX_OP_ABS:
  case WS_PTX_OP_NEG:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(fn, sizeof fn, "%s_%s", k, in->op == WS_PTX_OP_ABS ? "abs" : "neg");
    if (f32) snprintf(args, sizeof args, "%d", y->ftz);
    else args[0] = '\0';
    return num_call(T, &dr, w, fn, 1, &a, &b, &c, args);
  case WS_PTX_OP_MIN:
  case WS_PTX_OP_MAX:
    if (in->nops != 3) return refuse(T, NULL);
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    snprintf(fn, sizeof fn, "%s_%s", k, in->op == WS_PTX_OP_MIN ? "min" : "max");
    if (f32) snprintf(args, sizeof args, "%d, %d", y->ftz, ws_ptx_inst_has(in, WS_PTX_MOD_NANMODE));
    else snprintf(args, sizeof args, "%d", ws_ptx_inst_has(in, WS_PTX_MOD_NANMODE));
    return num_call(T, &dr, w, fn, 2, &a, &b, &c, args);
  case WS_PTX_OP_COPYSIGN:
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    snprintf(fn, sizeof fn, "%s_copysign", k);
    return num_call(T, &dr, w, fn, 2, &a, &b, &c, "");
  case WS_PTX_OP_RCP:
  case WS_PTX_OP_SQRT: {
    int rcp = in->op == WS_PTX_OP_RCP;
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    if (f32 && (approx || y->rnd == WS_NUM_RN)) { /* correctly rounded, with .ftz */
      snprintf(x, sizeof x, "jl_f32_%s_rn(%s, %d)", rcp ? "rcp" : "sqrt", a.s, y->ftz);
      return assign(T, &dr, w, 1, x);
    }
    if (!f32 && approx) {
      if (!rcp || !y->ftz) return refuse(T, NULL);
      return num_call(T, &dr, w, "f64_rcp_approx_ftz", 1, &a, &b, &c, "");
    }
    if (y->rnd == WS_NUM_RN && !(f32 && y->ftz)) {
      if (rcp) snprintf(x, sizeof x, "%s(%s / %s(%s))", B, f32 ? "1.0f" : "1.0", F, a.s);
      else snprintf(x, sizeof x, "%s(%s(%s(%s)))", B, f32 ? "sqrtf" : "sqrt", F, a.s);
      return assign(T, &dr, w, 1, x);
    }
    snprintf(fn, sizeof fn, "%s_%s", k, rcp ? "rcp" : "sqrt");
    if (f32) snprintf(args, sizeof args, "%d, %d", y->rnd, y->ftz);
    else snprintf(args, sizeof args, "%d", y->rnd);
    return num_call(T, &dr, w, fn, 1, &a, &b, &c, args);
  }
  case WS_PTX_OP_RSQRT:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    if (f32) {
      snprintf(x, sizeof x, "jl_f32_rsqrt(%s, %d)", a.s, y->ftz);
      return assign(T, &dr, w, 1, x);
    }
    snprintf(args, sizeof args, "%d", y->ftz);
    return num_call(T, &dr, w, "f64_rsqrt_approx", 1, &a, &b, &c, args);
  case WS_PTX_OP_SIN:
  case WS_PTX_OP_COS:
  case WS_PTX_OP_LG2:
  case WS_PTX_OP_EX2:
  case WS_PTX_OP_TANH:
    if (!f32) return refuse(T, NULL);
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    /* libm in double, rounded once (lane by lane: libm is scalar) */
    if (in->op == WS_PTX_OP_TANH) snprintf(x, sizeof x, "jl_f32_tanh(%s)", a.s);
    else if (in->op == WS_PTX_OP_SIN || in->op == WS_PTX_OP_COS)
      snprintf(x, sizeof x, "jl_f32_sincos(%s, %d, %d)", a.s, y->ftz, in->op == WS_PTX_OP_COS);
    else snprintf(x, sizeof x, "jl_f32_%s(%s, %d)", in->op == WS_PTX_OP_EX2 ? "ex2" : "lg2", a.s, y->ftz);
    return assign(T, &dr, w, 0, x);
  default:
    return refuse(T, NULL);
  }
}

/* f16, bf16, f16x2, bf16x2 (load.c's H_* forms). */
static int tr_half(tr *T, const ty *y) {
  static const char *const kn[] = {"f16", "bf16", "f16x2", "bf16x2"};
  const ws_ptx_inst *in = T->in;
  val a, b, c;
  dreg dr;
  char fn[40], args[64], x[XBUF];
  int st, hk = y->hk, bf = hk == HK_BF16 || hk == HK_BF16X2, x2 = hk >= HK_F16X2;
  int rw = x2 ? 32 : 32; /* packed pairs and scalars all fit 32-bit lanes */
  const char *cast = x2 ? "(uint32_t)" : "(uint16_t)";
  if ((st = dst(T, 0, &dr))) return st;
  int n = in->op == WS_PTX_OP_FMA || in->op == WS_PTX_OP_MAD ? 3
          : in->op == WS_PTX_OP_NEG || in->op == WS_PTX_OP_ABS ? 1 : 2;
  if ((in->op == WS_PTX_OP_MIN || in->op == WS_PTX_OP_MAX) && in->nops != 3) return refuse(T, NULL);
  if ((st = ops3(T, y, n, &a, &b, &c))) return st;
  int relu = ws_ptx_inst_has(in, WS_PTX_MOD_RELU), nan = ws_ptx_inst_has(in, WS_PTX_MOD_NANMODE);
  switch (in->op) {
  case WS_PTX_OP_ADD:
  case WS_PTX_OP_SUB:
  case WS_PTX_OP_MUL:
    snprintf(fn, sizeof fn, "%s_%s", kn[hk], in->op == WS_PTX_OP_ADD ? "add" : in->op == WS_PTX_OP_SUB ? "sub" : "mul");
    if (bf) snprintf(args, sizeof args, "%d", y->rnd);
    else snprintf(args, sizeof args, "%d, %d, %d", y->rnd, y->ftz, y->sat);
    break;
  case WS_PTX_OP_FMA:
  case WS_PTX_OP_MAD:
    snprintf(fn, sizeof fn, "%s_fma", kn[hk]);
    if (bf) snprintf(args, sizeof args, "%d, %d", y->rnd, relu);
    else snprintf(args, sizeof args, "%d, %d, %d, %d", y->rnd, y->ftz, y->sat, relu);
    break;
  case WS_PTX_OP_NEG:
  case WS_PTX_OP_ABS:
    snprintf(fn, sizeof fn, "%s_%s", kn[hk], in->op == WS_PTX_OP_NEG ? "neg" : "abs");
    if (bf) args[0] = '\0';
    else snprintf(args, sizeof args, "%d", y->ftz);
    break;
  case WS_PTX_OP_MIN:
  case WS_PTX_OP_MAX:
    snprintf(fn, sizeof fn, "%s_%s", kn[hk], in->op == WS_PTX_OP_MIN ? "min" : "max");
    if (bf) snprintf(args, sizeof args, "%d, %d", nan, relu);
    else snprintf(args, sizeof args, "%d, %d, %d", y->ftz, nan, relu);
    break;
  default:
    return refuse(T, NULL);
  }
  snprintf(x, sizeof x, "X->num->%s(%s%s%s%s%s%s%s%s%s%s)", fn, cast, a.s, n > 1 ? ", " : "", n > 1 ? cast : "",
           n > 1 ? b.s : "", n > 2 ? ", " : "", n > 2 ? cast : "", n > 2 ? c.s : "", args[0] ? ", " : "", args);
  return assign(T, &dr, rw, 0, x);
}

/* and, or, xor, not, cnot, shifts, bit fields, lop3, prmt, ... */
static int tr_bits(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  val a, b, c, e;
  dreg dr;
  char x[XBUF], mb[32];
  int st, bits = y->bits, sg = y->sgn;
  const char *W = ctype(y->w), *M = maskstr(y, mb, sizeof mb);
  if (y->t == WS_PTX_T_PRED) {
    int pd, pa, pb = -1;
    const ws_ptx_operand *o = in->ops;
    if ((st = pred_of(T, &o[0], &pd)) || (st = pred_of(T, &o[1], &pa))) return st;
    char qa[32], qb[32];
    if (in->op == WS_PTX_OP_NOT) {
      if (pd < 0 || pa < 0) return refuse(T, "`_` in predicate logic");
      pwrite(T, pd, pread(T, pa, 1, qa, sizeof qa), 0);
      return WS_OK;
    }
    if (in->op == WS_PTX_OP_CNOT) return refuse(T, NULL);
    if ((st = pred_of(T, &o[2], &pb))) return st;
    if (pd < 0 || pa < 0 || pb < 0) return refuse(T, "`_` in predicate logic");
    snprintf(x, sizeof x, "%s %c %s", pread(T, pa, (o[1].flags & WS_PTX_OF_NOT) != 0, qa, sizeof qa),
             in->op == WS_PTX_OP_AND ? '&' : in->op == WS_PTX_OP_OR ? '|' : '^',
             pread(T, pb, (o[2].flags & WS_PTX_OF_NOT) != 0, qb, sizeof qb));
    pwrite(T, pd, x, 0);
    return WS_OK;
  }
  if ((st = dst(T, 0, &dr))) return st;
  switch (in->op) {
  case WS_PTX_OP_AND:
  case WS_PTX_OP_OR:
  case WS_PTX_OP_XOR:
    if ((st = ops3(T, y, 2, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "%s %c %s", a.s, in->op == WS_PTX_OP_AND ? '&' : in->op == WS_PTX_OP_OR ? '|' : '^', b.s);
    return assign(T, &dr, y->w, 1, x);
  case WS_PTX_OP_NOT:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "(%s)(~%s)%s", W, a.s, M);
    return assign(T, &dr, y->w, 1, x);
  case WS_PTX_OP_CNOT:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "(uint32_t)(((%s)(%s)%s) == 0)", W, a.s, M);
    return assign(T, &dr, 32, 1, x);
  case WS_PTX_OP_SHL:
  case WS_PTX_OP_SHR:
    if ((st = src(T, 1, y->t, y->w, &a)) || (st = src(T, 2, WS_PTX_T_U32, 32, &b))) return st;
    if (in->op == WS_PTX_OP_SHL)
      snprintf(x, sizeof x, "jsel%d(%s >= %du, 0, (%s)(%s << (%s & %du))%s)", y->w, b.s, bits, W, a.s, b.s, y->w - 1, M);
    else if (sg) {
      const char *S = y->w == 64 ? "int64_t" : "int32_t";
      int sh = y->w - bits;
      snprintf(x, sizeof x, "(%s)(((%s)(%s << %d) >> %d) >> jsel32(%s >= %du, %du, %s))%s", W, S, a.s, sh, sh, b.s,
               bits, bits - 1, b.s, M);
    } else
      snprintf(x, sizeof x, "jsel%d(%s >= %du, 0, (%s)(((%s)(%s)%s) >> (%s & %du)))", y->w, b.s, bits, W, W, a.s, M, b.s,
               y->w - 1);
    return assign(T, &dr, y->w, 1, x);
  case WS_PTX_OP_POPC:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    if (y->w == 64) snprintf(x, sizeof x, "jl_popc64(%s)", a.s);
    else snprintf(x, sizeof x, "jl_popc32((uint32_t)((%s)%s))", a.s, M);
    return assign(T, &dr, 32, 1, x);
  case WS_PTX_OP_CLZ:
  case WS_PTX_OP_BREV:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->%s(%s, %d)", in->op == WS_PTX_OP_CLZ ? "clz" : "brev", a.s, bits);
    return assign(T, &dr, in->op == WS_PTX_OP_CLZ ? 32 : y->w, 0, x);
  case WS_PTX_OP_BFIND:
    if ((st = ops3(T, y, 1, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->bfind(%s, %d, %d, %d)", a.s, bits, sg, ws_ptx_inst_has(in, WS_PTX_MOD_SHIFTAMT));
    return assign(T, &dr, 32, 0, x);
  case WS_PTX_OP_BFE:
    if ((st = src(T, 1, y->t, y->w, &a)) || (st = src(T, 2, WS_PTX_T_U32, 32, &b)) ||
        (st = src(T, 3, WS_PTX_T_U32, 32, &c)))
      return st;
    snprintf(x, sizeof x, "X->num->bfe(%s, %s, %s, %d, %d)", a.s, b.s, c.s, bits, sg);
    return assign(T, &dr, y->w, 0, x);
  case WS_PTX_OP_BFI:
    if ((st = ops3(T, y, 2, &a, &b, &c)) || (st = src(T, 3, WS_PTX_T_U32, 32, &c)) ||
        (st = src(T, 4, WS_PTX_T_U32, 32, &e)))
      return st;
    snprintf(x, sizeof x, "X->num->bfi(%s, %s, %s, %s, %d)", a.s, b.s, c.s, e.s, bits);
    return assign(T, &dr, y->w, 0, x);
  case WS_PTX_OP_PRMT: {
    static const int pm[][2] = {{WS_PTX_MOD_F4E, WS_NUM_PRMT_F4E}, {WS_PTX_MOD_B4E, WS_NUM_PRMT_B4E},
                                {WS_PTX_MOD_RC8, WS_NUM_PRMT_RC8}, {WS_PTX_MOD_ECL, WS_NUM_PRMT_ECL},
                                {WS_PTX_MOD_ECR, WS_NUM_PRMT_ECR}, {WS_PTX_MOD_RC16, WS_NUM_PRMT_RC16}};
    int mode = WS_NUM_PRMT_DEFAULT;
    for (int i = 0; i < 6; i++)
      if (in->mode == pm[i][0]) mode = pm[i][1];
    if (y->w != 32 || (st = ops3(T, y, 3, &a, &b, &c))) return st ? st : refuse(T, NULL);
    snprintf(x, sizeof x, "X->num->prmt(%s, %s, %s, %d)", a.s, b.s, c.s, mode);
    return assign(T, &dr, 32, 0, x);
  }
  case WS_PTX_OP_SHF:
    if (y->w != 32) return refuse(T, NULL);
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->shf(%s, %s, %s, %d, %d)", a.s, b.s, c.s, in->mode == WS_PTX_MOD_L,
             ws_ptx_inst_has(in, WS_PTX_MOD_WRAP));
    return assign(T, &dr, 32, 0, x);
  case WS_PTX_OP_LOP3:
    if (y->w != 32) return refuse(T, NULL);
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    if (in->ops[4].kind != WS_PTX_O_IMM_INT) return refuse(T, NULL);
    snprintf(x, sizeof x, "X->num->lop3(%s, %s, %s, %d)", a.s, b.s, c.s, (int)(in->ops[4].imm & 0xff));
    return assign(T, &dr, 32, 0, x);
  case WS_PTX_OP_FNS:
    if (y->w != 32) return refuse(T, NULL);
    if ((st = ops3(T, y, 3, &a, &b, &c))) return st;
    snprintf(x, sizeof x, "X->num->fns(%s, %s, (int32_t)%s)", a.s, b.s, c.s);
    return assign(T, &dr, 32, 0, x);
  default: /* bmsk, szext: the interpreter's own forms, not translated */
    return refuse(T, NULL);
  }
}

/* dp4a, dp2a */
static int tr_dp(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  val a, b, c;
  dreg dr;
  char x[XBUF];
  int st, sa = tkind(in->type[0]) == WS_PTX_TK_S, sb = tkind(in->type[1]) == WS_PTX_TK_S;
  if ((st = dst(T, 0, &dr)) || (st = ops3(T, y, 3, &a, &b, &c))) return st;
  if (in->op == WS_PTX_OP_DP4A) snprintf(x, sizeof x, "X->num->dp4a(%s, %s, %s, %d, %d)", a.s, b.s, c.s, sa, sb);
  else
    snprintf(x, sizeof x, "X->num->dp2a(%s, %s, %s, %d, %d, %d)", a.s, b.s, c.s, sa, sb, in->mode == WS_PTX_MOD_HI);
  return assign(T, &dr, 32, 0, x);
}

/* x combined with c_ by the boolean op of setp/set (load.c's bop). */
static void combined(char *buf, size_t n, int bop, const char *x) {
  static const char ops[] = {0, '&', '|', '^'};
  if (bop) snprintf(buf, n, "((%s) %c bq_)", x, ops[bop]);
  else snprintf(buf, n, "(%s)", x);
}

/* setp, set (load.c's dec_setp_set and the interpreter's compare()). */
static int tr_setp(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int is_set = in->op == WS_PTX_OP_SET, ok, st, pd = -1, pd2 = -1, pc = -1, i = 1;
  int ct = is_set ? in->type[1] : y->t;
  int cmp = ws_emu_dec_cmp(in->cmp, &ok);
  if (!ok) return refuse(T, NULL);
  int bop = in->bop == WS_PTX_MOD_AND ? 1 : in->bop == WS_PTX_MOD_OR ? 2 : in->bop == WS_PTX_MOD_XOR ? 3 : 0;
  dreg dr;
  memset(&dr, 0, sizeof dr);
  if (is_set) {
    if ((st = dst(T, 0, &dr))) return st;
  } else {
    if ((st = pred_of(T, &o[0], &pd))) return st;
    if (in->nops > 1 && (o[1].flags & WS_PTX_OF_PIPE)) {
      if ((st = pred_of(T, &o[1], &pd2))) return st;
      i = 2;
    }
  }
  int cbits = tbits(ct), ck = tkind(ct);
  int bits = cbits < 8 ? 8 : cbits, sg = ck == WS_PTX_TK_S, hk = ws_emu_dec_hkind(ct);
  int e = ct == WS_PTX_T_F32 ? 1 : ct == WS_PTX_T_F64 ? 2 : hk >= 0 ? 3 + hk : 0;
  if (e == 0 && !(ck & (WS_PTX_TK_U | WS_PTX_TK_S | WS_PTX_TK_B))) return refuse(T, NULL);
  if (e == 0 && cmp > WS_NUM_GE) return refuse(T, NULL);
  uint64_t tv = is_set ? ws_emu_dec_set_true(y->t, e >= 5) : 0;
  if (is_set && tv == 0) return refuse(T, NULL);
  if (e >= 5 && !is_set && pd < 0) return refuse(T, "`_` as the first result of a packed comparison");
  int w = (e == 0 && bits > 32) || e == 2 ? 64 : 32;
  val a, b;
  if ((st = src(T, i, ct, w, &a)) || (st = src(T, i + 1, ct, w, &b))) return st;
  int cneg = 0;
  if (bop) {
    if (i + 2 >= in->nops) return refuse(T, NULL);
    if ((st = pred_of(T, &o[i + 2], &pc))) return st;
    if (pc < 0) return refuse(T, "`_` as a predicate source");
    cneg = (o[i + 2].flags & WS_PTX_OF_NOT) != 0;
  }
  static const char *const cops[] = {"==", "!=", "<", "<=", ">", ">="};
  char cond[XBUF];
  int lib = 0, x2 = 0;
  if (e == 0) {
    if (sg) {
      const char *S = w == 64 ? "int64_t" : "int32_t";
      int sh = w - bits;
      snprintf(cond, sizeof cond, "((%s)(%s << %d) >> %d) %s ((%s)(%s << %d) >> %d)", S, a.s, sh, sh, cops[cmp], S,
               b.s, sh, sh);
    } else if (bits == w) {
      snprintf(cond, sizeof cond, "%s %s %s", a.s, cops[cmp], b.s);
    } else {
      uint64_t wm = wmask_of(bits);
      snprintf(cond, sizeof cond, "(%s & 0x%" PRIx64 "u) %s (%s & 0x%" PRIx64 "u)", a.s, wm, cops[cmp], b.s, wm);
    }
  } else if (e == 1) {
    if (ws_ptx_inst_has(in, WS_PTX_MOD_FTZ)) {
      snprintf(cond, sizeof cond, "X->num->f32_cmp(%s, %s, %d, 1)", a.s, b.s, cmp);
      lib = 1;
    } else if (cmp == WS_NUM_EQ || (cmp >= WS_NUM_LT && cmp <= WS_NUM_GE)) {
      snprintf(cond, sizeof cond, "jf32(%s) %s jf32(%s)", a.s, cops[cmp], b.s);
    } else {
      snprintf(cond, sizeof cond, "jfcmp(jf32(%s), jf32(%s), %d)", a.s, b.s, cmp);
    }
  } else if (e == 2) {
    snprintf(cond, sizeof cond, "jfcmp(jf64(%s), jf64(%s), %d)", a.s, b.s, cmp);
  } else {
    static const char *const hn[] = {"f16", "bf16", "f16x2", "bf16x2"};
    int ftz = ws_ptx_inst_has(in, WS_PTX_MOD_FTZ), bf = hk == HK_BF16 || hk == HK_BF16X2;
    char fz[8];
    snprintf(fz, sizeof fz, ", %d", ftz);
    snprintf(cond, sizeof cond, "X->num->%s_cmp(%s%s, %s%s, %d%s)", hn[hk], e < 5 ? "(uint16_t)" : "", a.s,
             e < 5 ? "(uint16_t)" : "", b.s, cmp, bf ? "" : fz);
    lib = 1;
    x2 = e >= 5;
  }
  /* per lane: r_ the comparison (h_ the upper element's), bq_ the combined predicate */
  E("    { uint32_t r_ = 0, h_ = 0, bq_ = 0; (void)h_; (void)bq_;\n");
  if (x2) {
    T->novec = 1;
    E("    if (c_) { unsigned x_ = %s; r_ = x_ & 1u; h_ = (x_ >> 1) & 1u; }\n", cond);
  } else if (lib) {
    T->novec = 1;
    E("    if (c_) r_ = (uint32_t)((%s) != 0);\n", cond);
  } else {
    E("    r_ = (uint32_t)((%s) != 0);\n", cond);
  }
  char qc[32];
  if (bop) E("    bq_ = %s;\n", pread(T, pc, cneg, qc, sizeof qc));
  char x[128];
  if (is_set) {
    int size = tbits(y->t);
    combined(x, sizeof x, bop, "r_");
    char ex[XBUF];
    if (x2) { /* each half of d from its own element's outcome */
      char xh[128];
      combined(xh, sizeof xh, bop, "h_");
      snprintf(ex, sizeof ex, "(jsel64(%s, 0x%" PRIx64 "ull, 0) | jsel64(%s, 0x%" PRIx64 "ull, 0))", x, tv, xh,
               tv << 16);
    } else {
      snprintf(ex, sizeof ex, "jsel64(%s, 0x%" PRIx64 "ull, 0)", x, tv);
    }
    if ((st = assign(T, &dr, size > 32 ? 64 : 32, !lib, ex))) return st;
    E("    }\n");
    return WS_OK;
  }
  combined(x, sizeof x, bop, "r_");
  pwrite(T, pd, x, lib);
  combined(x, sizeof x, bop, x2 ? "h_" : "(r_ ^ 1u)");
  pwrite(T, pd2, x, lib);
  E("    }\n");
  return WS_OK;
}

/* selp, slct */
static int tr_sel(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  val a, b, c;
  dreg dr;
  char x[XBUF];
  int st;
  if ((st = dst(T, 0, &dr)) || (st = src(T, 1, y->t, y->w, &a)) || (st = src(T, 2, y->t, y->w, &b))) return st;
  if (in->op == WS_PTX_OP_SELP) {
    int p;
    if ((st = pred_of(T, &in->ops[3], &p))) return st;
    if (p < 0) return refuse(T, "`_` as a predicate source");
    char q[32];
    snprintf(x, sizeof x, "jsel%d(%s, %s, %s)", y->w, pread(T, p, (in->ops[3].flags & WS_PTX_OF_NOT) != 0, q, sizeof q),
             a.s, b.s);
    return assign(T, &dr, y->w, 1, x);
  }
  int ct = in->type[1];
  if ((st = src(T, 3, ct, tbits(ct) > 32 ? 64 : 32, &c))) return st;
  if (ct == WS_PTX_T_F32) {
    int ftz = ws_ptx_inst_has(in, WS_PTX_MOD_FTZ);
    if (ftz)
      snprintf(x, sizeof x,
               "jsel%d(jf32(jsel32(((uint32_t)%s & 0x7f800000u) == 0, (uint32_t)%s & 0x80000000u, (uint32_t)%s)) >= 0.0f, %s, %s)",
               y->w, c.s, c.s, c.s, a.s, b.s);
    else
      snprintf(x, sizeof x, "jsel%d(jf32((uint32_t)%s) >= 0.0f, %s, %s)", y->w, c.s, a.s, b.s);
  } else {
    snprintf(x, sizeof x, "jsel%d((int32_t)(uint32_t)%s >= 0, %s, %s)", y->w, c.s, a.s, b.s);
  }
  return assign(T, &dr, y->w, 1, x);
}

/* The exact inline forms of ws_emu_num_cvt (jit_lane.h) for the common
 * conversions between f32, f64 and integers; 0 where num.c is called. */
static int cvt_fast(char *v, size_t n, const char *a, int ft, int tt, const ty *y) {
  int rn = y->rnd == WS_NUM_RND_NONE || y->rnd == WS_NUM_RN, fk = tkind(ft), tk = tkind(tt);
  int fint = fk == WS_PTX_TK_U || fk == WS_PTX_TK_S || fk == WS_PTX_TK_B;
  int tint = tk == WS_PTX_TK_U || tk == WS_PTX_TK_S || tk == WS_PTX_TK_B;
  int irnd = y->rnd == WS_NUM_RND_NONE || y->rnd == WS_NUM_RNI || y->rnd == WS_NUM_RZI || y->rnd == WS_NUM_RMI ||
             y->rnd == WS_NUM_RPI;
  if (ft == WS_PTX_T_F32 && tt == WS_PTX_T_F32 && rn)
    snprintf(v, n, "jl_cvt_f32_f32((uint32_t)%s, %d, %d)", a, y->ftz, y->sat);
  else if (ft == WS_PTX_T_F32 && tt == WS_PTX_T_F64 && rn && !y->sat)
    snprintf(v, n, "jl_cvt_f64_f32((uint32_t)%s, %d)", a, y->ftz);
  else if (ft == WS_PTX_T_F64 && tt == WS_PTX_T_F32 && rn)
    snprintf(v, n, "jl_cvt_f32_f64(%s, %d, %d)", a, y->ftz, y->sat);
  else if (fint && tt == WS_PTX_T_F32 && rn)
    snprintf(v, n, y->sat ? "jl_sat32(jl_cvt_f32_int(%s, %d, %d))" : "jl_cvt_f32_int(%s, %d, %d)", a, tbits(ft),
             fk == WS_PTX_TK_S);
  else if (fint && tt == WS_PTX_T_F64 && rn && !y->sat)
    snprintf(v, n, "jb64(jl_int_as_double(%s, %d, %d))", a, tbits(ft), fk == WS_PTX_TK_S);
  else if (ft == WS_PTX_T_F32 && tint && irnd)
    snprintf(v, n, "jl_cvt_int_f(jl_f32_in((uint32_t)%s, %d), %d, %d, %d)", a, y->ftz, y->rnd, tbits(tt),
             tk == WS_PTX_TK_S);
  else if (ft == WS_PTX_T_F64 && tint && irnd)
    snprintf(v, n, "jl_cvt_int_f(jf64(%s), %d, %d, %d)", a, y->rnd, tbits(tt), tk == WS_PTX_TK_S);
  else
    return 0;
  return 1;
}

/* cvt (load.c's dec_cvt and the interpreter's D_CVT_INT / D_CVT / D_CVT_PACK). */
static int tr_cvt(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int tt = in->type[0], ft = in->type[1], st;
  val a, b;
  dreg dr;
  char x[XBUF];
  if ((st = dst(T, 0, &dr))) return st;
  if (in->nops == 3) {
    if ((tt != WS_PTX_T_F16X2 && tt != WS_PTX_T_BF16X2) || ft != WS_PTX_T_F32) return refuse(T, NULL);
    if ((st = src(T, 1, WS_PTX_T_F32, 32, &a)) || (st = src(T, 2, WS_PTX_T_F32, 32, &b))) return st;
    snprintf(x, sizeof x, "X->num->%s(%s, %s, %d, %d, %d)", tt == WS_PTX_T_BF16X2 ? "cvt_bf16x2_f32" : "cvt_f16x2_f32",
             a.s, b.s, y->rnd, ws_ptx_inst_has(in, WS_PTX_MOD_RELU), ws_ptx_inst_has(in, WS_PTX_MOD_SATFINITE));
    return assign(T, &dr, 32, 0, x);
  }
  int nt = ws_emu_dec_numtype(tt), nf = ws_emu_dec_numtype(ft);
  if (nt < 0 || nf < 0) return refuse(T, NULL);
  int bits = tbits(ft), size = tbits(tt), sg = tkind(ft) == WS_PTX_TK_S, sext = 0, rb = 0;
  if (o[0].kind == WS_PTX_O_REG) {
    rb = reg_bits(T, o[0].reg);
    if (rb > tbits(tt) && tkind(tt) == WS_PTX_TK_S) sext = 1;
  }
  int isint = tkind(tt) != WS_PTX_TK_F && tkind(tt) != WS_PTX_TK_H && tkind(ft) != WS_PTX_TK_F &&
              tkind(ft) != WS_PTX_TK_H && !y->sat;
  int rw = (sext ? rb : size) > 32 ? 64 : 32;
  if ((st = src_w(T, &o[1], ft, 64, 1, &a))) return st;
  int dsh = 64 - size;
  if (dr.sink) return refuse(T, "cvt into `_`");
  char v[XBUF], ex[XBUF * 2];
  if (isint) {
    int sh = 64 - bits;
    if (sg) snprintf(v, sizeof v, "((uint64_t)((int64_t)(%s << %d) >> %d) & 0x%" PRIx64 "ull)", a.s, sh, sh, wmask_of(size));
    else snprintf(v, sizeof v, "(%s & 0x%" PRIx64 "ull)", a.s, (uint64_t)(~0ull >> sh) & wmask_of(size));
  } else if (!cvt_fast(v, sizeof v, a.s, ft, tt, y)) {
    snprintf(v, sizeof v, "X->num->cvt(%s, %d, %d, %d, %d, %d)", a.s, nf, nt, y->rnd, y->ftz, y->sat);
  } else {
    isint = 1; /* vectorised */
  }
  if (sext)
    snprintf(ex, sizeof ex, "(uint64_t)((int64_t)(%s << %d) >> %d) & 0x%" PRIx64 "ull", v, dsh, dsh, wmask_of(rb));
  else
    snprintf(ex, sizeof ex, "%s", v);
  return assign(T, &dr, rw, isint, ex);
}

/* The interpreter's memory-space number for a state space (mspace()). */
static int mspace(tr *T, const ws_ptx_operand *addr, int *ms) {
  *ms = JS_GENERIC;
  switch (T->in->space) {
  case WS_PTX_SP_NONE: *ms = JS_GENERIC; return WS_OK;
  case WS_PTX_SP_GLOBAL: *ms = JS_GLOBAL; return WS_OK;
  case WS_PTX_SP_SHARED: *ms = JS_SHARED; return WS_OK;
  case WS_PTX_SP_LOCAL: *ms = JS_LOCAL; return WS_OK;
  case WS_PTX_SP_CONST: *ms = JS_CONST; return WS_OK;
  case WS_PTX_SP_PARAM:
    if (T->f->is_entry && addr && (addr->symkind == WS_PTX_S_PARAM || addr->symkind == WS_PTX_S_NONE))
      *ms = JS_KPARAM;
    else
      *ms = JS_LOCAL; /* call-sequence and .func parameters live in the frame */
    return WS_OK;
  default:
    return refuse(T, "state space");
  }
}

/* [base+imm]: the base register as a 64-bit value for lane l (or "0"),
 * the offset, whether it is relative to the frame, and whether the address
 * wraps modulo 2^32 (a 32-bit register addressing .shared or .local, as
 * nvcc computes them and the hardware wraps them; decode.c's a32). */
static int address(tr *T, const ws_ptx_operand *o, int ms, val *base, int64_t *off, int *frel, int *a32) {
  *off = o->imm;
  *frel = 0;
  *a32 = 0;
  strcpy(base->s, "(uint64_t)0");
  base->w = 64;
  if (o->kind != WS_PTX_O_ADDR) return refuse(T, "expected an address");
  switch (o->symkind) {
  case WS_PTX_S_NONE:
    if (is_pred(T, o->reg)) return refuse(T, "predicate as an address");
    *a32 = (ms == JS_SHARED || ms == JS_LOCAL) && tbits(T->f->regs[o->reg].type) == 32;
    return reg_val(T, o->reg, 64, 0, base);
  case WS_PTX_S_ABS:
    return WS_OK;
  case WS_PTX_S_GLOBAL:
    *off += (int64_t)T->P->mvar_addr[o->reg];
    return WS_OK;
  case WS_PTX_S_PARAM:
    if (T->f->is_entry) *off += (int64_t)T->f->params[o->reg].offset;
    else *off += (int64_t)T->df->param_off[o->reg], *frel = 1;
    return WS_OK;
  case WS_PTX_S_RET:
    *off += (int64_t)T->df->ret_off[o->reg];
    *frel = 1;
    return WS_OK;
  case WS_PTX_S_LOCAL:
    *off += (int64_t)T->df->var_off[o->reg];
    if (T->f->vars[o->reg].space != WS_PTX_SP_SHARED) *frel = 1;
    return WS_OK;
  default:
    return refuse(T, "address base");
  }
}

static int lane_op(const ws_ptx_inst *in);

/* ---- shared-memory address analyses ------------------------------------------------
 * A shared access [%r+imm] through a 32-bit register (the tiles of a tiled
 * kernel: a run of loads off one base register in a segment) analyses the
 * register's 32 lanes once: their minimum, maximum and OR (so that the
 * bounds and the alignment of any offset are three scalar tests) and their
 * pattern for the access size (contiguous; each half-warp contiguous or one
 * address; other).  The accesses after it in the segment off the same
 * register reuse the analysis while nothing can have written the register:
 * every label, every instruction that is neither a lane operation nor a
 * load or store, and every instruction that names the register (a load:
 * as its destination) forget it.  An access whose lanes are all active and
 * all in bounds and aligned by those tests reads or writes the block's
 * shared memory at exactly the host addresses jl_map's shared fast path
 * gives (no wrap modulo 2^32 is possible there); anything else takes the
 * general path, so faults and partial warps are unchanged. */
static void sa_forget_all(tr *T) {
  if (T->sa_slot) memset(T->sa_slot, 0, (T->f->nregs + 1) * sizeof *T->sa_slot);
}
static void sa_forget(tr *T, const ws_ptx_operand *o) {
  if (o->kind == WS_PTX_O_VEC) {
    for (uint32_t e = 0; e < o->comp; e++) sa_forget(T, &T->f->extra[o->reg + e]);
    return;
  }
  if ((o->kind == WS_PTX_O_REG || o->kind == WS_PTX_O_ADDR) && o->reg < T->f->nregs) T->sa_slot[o->reg] = 0;
}
/* After instruction `in`: forget what it may have changed. */
static void sa_after(tr *T, const ws_ptx_inst *in) {
  if (!T->sa_slot || in->op == WS_PTX_OP_ST) return;
  if (in->op == WS_PTX_OP_LD || in->op == WS_PTX_OP_LDU) {
    if (in->nops) sa_forget(T, &in->ops[0]);
    return;
  }
  if (!lane_op(in)) {
    sa_forget_all(T);
    return;
  }
  for (uint32_t i = 0; i < in->nops; i++) sa_forget(T, &in->ops[i]);
}

/* A vector ld or st (vec 1) of n bytes in .shared at [r + off], r a 32-bit
 * register: the analysed fast path before the general one, or -1 when the
 * access does not qualify (then nothing was emitted).  On 0 the caller's
 * general path is emitted inside the `else` this opened; sa_close ends it. */
static int sa_open(tr *T, uint32_t r, uint32_t n) {
  if (!T->sa_slot || reg_storage(T, r) != 32) return -1;
  char row[48];
  snprintf(row, sizeof row, "R->%s[%u]", group_name[T->ri[r].group], T->ri[r].row);
  uint32_t k;
  if (T->sa_slot[r] && T->sa_n[r] == n) {
    k = T->sa_slot[r] - 1;
  } else {
    if (T->guarded) return -1; /* the analysis must run whatever the guard */
    k = T->nsa++;
    T->sa_slot[r] = k + 1;
    T->sa_n[r] = n;
    E("  { const uint32_t *ra_ = %s; uint32_t mn_ = ra_[0], mx_ = ra_[0], or_ = 0;\n", row);
    E("    uint64_t c_ = 0, c0_ = 0, c1_ = 0, b0_ = 0, b1_ = 0;\n");
    E("    JFOR { mn_ = ra_[l] < mn_ ? ra_[l] : mn_; mx_ = ra_[l] > mx_ ? ra_[l] : mx_; or_ |= ra_[l];\n"
      "      c_ |= (uint64_t)ra_[l] ^ ((uint64_t)ra_[0] + (uint64_t)%uu * l); }\n", n);
    E("    for (uint32_t l = 0; l < 16; l++) { c0_ |= (uint64_t)ra_[l] ^ ((uint64_t)ra_[0] + (uint64_t)%uu * l);\n"
      "      c1_ |= (uint64_t)ra_[l + 16] ^ ((uint64_t)ra_[16] + (uint64_t)%uu * l); b0_ |= ra_[l] ^ ra_[0]; b1_ |= ra_[l + 16] ^ ra_[16]; }\n",
      n, n);
    E("    samn_[%u] = mn_; samx_[%u] = mx_; saor_[%u] = or_;\n", k, k, k);
    E("    sak_[%u] = !c_ ? 1u : (!c0_ || !b0_) && (!c1_ || !b1_) ? 2u | (!b0_ ? 4u : 0u) | (!b1_ ? 8u : 0u) : 0u; }\n", k);
  }
  return (int)k;
}
/* A load's value as its destination register's C type: the n bytes at the
 * host address `p`, sign-extended when sg, masked to the register (wm). */
static void ld_expr(char *buf, size_t nb, const char *p, uint32_t n, int sg, uint64_t wm, int dw) {
  if (sg)
    snprintf(buf, nb, "(%s)((uint64_t)(int64_t)(int%u_t)jl_rd(%s, %uu) & 0x%" PRIx64 "ull)", ctype(dw), 8 * n, p, n, wm);
  else
    snprintf(buf, nb, "(%s)(jl_rd(%s, %uu) & 0x%" PRIx64 "ull)", ctype(dw), p, n, wm);
}

/* The fast path of analysis k for an access of n bytes at [r + off], up to
 * the `else {` of the general path.  A store writes t_ (the values); a
 * load writes its destination row `dr` directly (every lane is active
 * there, so nothing is blended), each value ld_expr(sg, wm). */
static void sa_fast(tr *T, uint32_t k, uint32_t r, int64_t off, uint32_t n, const dreg *dr, int sg, uint64_t wm) {
  char row[48], offs[48];
  snprintf(row, sizeof row, "R->%s[%u]", group_name[T->ri[r].group], T->ri[r].row);
  snprintf(offs, sizeof offs, "(int64_t)0x%" PRIx64 "ull", (uint64_t)off);
  E("  if (m == JL_FULL && (int64_t)samn_[%u] + %s >= 0 && (int64_t)samx_[%u] + %s + %u <= (int64_t)X->shared_bytes &&\n"
    "      !((saor_[%u] | (uint32_t)%s) & %uu)) {\n",
    k, offs, k, offs, n, k, offs, n - 1);
  E("    const uint32_t *ra_ = %s; uint8_t *q_ = X->shared;\n", row);
  if (dr) {
    char x1[256], x2[256], x3[256], x4[256];
    char p1[64], p3[96];
    snprintf(p1, sizeof p1, "p_ + (size_t)%uu * l", n);
    ld_expr(x1, sizeof x1, p1, n, sg, wm, dr->w);
    ld_expr(x2, sizeof x2, "p_", n, sg, wm, dr->w);
    snprintf(p3, sizeof p3, "q_ + (uint64_t)((int64_t)ra_[l] + %s)", offs);
    ld_expr(x3, sizeof x3, p3, n, sg, wm, dr->w);
    snprintf(x4, sizeof x4, "%s", ctype(dr->w));
    /* The base row is read before the destination is written where they
     * are the same register: its first lanes (ra_[0], ra_[16]) up front,
     * each other lane by the lane that writes it.  The bytes as they are
     * (unsigned, as wide as the register) are copies, which the compiler
     * makes vector moves (a lane loop between emulated memory and the
     * registers could alias, and stays scalar). */
    int plain = !sg && (uint32_t)dr->w == 8 * n && (wm & wmask_of(dr->w)) == wmask_of(dr->w);
    E("    %s *d_ = %s;\n", x4, dr->s);
    if (plain)
      E("    if (sak_[%u] == 1u) memcpy(d_, q_ + (uint64_t)((int64_t)ra_[0] + %s), %uu);\n", k, offs, 32 * n);
    else
      E("    if (sak_[%u] == 1u) { const uint8_t *p_ = q_ + (uint64_t)((int64_t)ra_[0] + %s); JFOR d_[l] = %s; }\n", k, offs, x1);
    E("    else if (sak_[%u] & 2u) { const uint32_t r0_ = ra_[0], r1_ = ra_[16]; for (uint32_t h_ = 0; h_ < 2; h_++) {\n"
      "      const uint8_t *p_ = q_ + (uint64_t)((int64_t)(h_ ? r1_ : r0_) + %s); %s *dh_ = d_ + 16 * h_;\n"
      "      if (sak_[%u] & (4u << h_)) { const %s v_ = %s; for (uint32_t l = 0; l < 16; l++) dh_[l] = v_; }\n",
      k, offs, x4, k, x4, x2);
    if (plain) E("      else memcpy(dh_, p_, %uu); } }\n", 16 * n);
    else E("      else for (uint32_t l = 0; l < 16; l++) dh_[l] = %s; } }\n", x1);
    E("    else JFOR d_[l] = %s;\n", x3);
  } else {
    E("    if (sak_[%u] == 1u) { uint8_t *p_ = q_ + (uint64_t)((int64_t)ra_[0] + %s); JFOR jl_wr(p_ + (size_t)%uu * l, %uu, t_[l]); }\n",
      k, offs, n, n);
    E("    else JFOR jl_wr(q_ + (uint64_t)((int64_t)ra_[l] + %s), %uu, t_[l]);\n", offs, n);
  }
  E("  } else {\n");
}

/* A global (or generic) ld or st of one n-byte element at [r + off], r a
 * 64-bit register, every lane active and each half-warp contiguous (a warp
 * reading or writing 32 consecutive elements, or the two rows of a 16 x 16
 * block's tile): the bounds are each half's first and last bytes in one
 * global object, the alignment the first lane's, and the access is one or
 * two copies between the registers and the object.  The object is the
 * load site's own (gk: R->gs[gk], filled by the general path after a whole
 * warp hit the warp's object, so a kernel alternating between buffers
 * hits at every site), made the warp's object as the interpreter's lookup
 * would; a store (gk -2) uses the warp's object, as jl_map does (every
 * object of the map is writable: ws_emu_launch_map).  Anything
 * else takes the general path in the `else {` this opens, so faults and
 * partial warps are unchanged. */
static void g_fast(tr *T, uint32_t r, int64_t off, uint32_t n, const dreg *dr, const ws_ptx_operand *vo,
                   const char *sval, int sg, uint64_t wm, int gk, uint32_t pfk) {
  char row[48];
  snprintf(row, sizeof row, "R->%s[%u]", group_name[T->ri[r].group], T->ri[r].row);
  E("  { const uint64_t *ra_ = %s; uint64_t c0_ = 0, c1_ = 0;\n", row);
  E("    for (uint32_t l = 0; l < 16; l++) { c0_ |= ra_[l] ^ (ra_[0] + (uint64_t)%uu * l); "
    "c1_ |= ra_[l + 16] ^ (ra_[16] + (uint64_t)%uu * l); }\n", n, n);
  E("    const uint64_t a0_ = ra_[0] + 0x%" PRIx64 "ull, a1_ = ra_[16] + 0x%" PRIx64 "ull;\n", (uint64_t)off, (uint64_t)off);
  if (gk >= 0) E("    const jit_gsite *gs_ = &R->gs[%d]; const uint64_t gb_ = gs_->base, gz_ = gs_->size;\n", gk);
  else E("    const uint64_t gb_ = w->gbase, gz_ = w->gsize;\n");
  E("    const uint64_t o0_ = a0_ - gb_, o1_ = a1_ - gb_;\n");
  E("    if (m == JL_FULL && !(c0_ | c1_) && o0_ < gz_ && gz_ - o0_ >= %uu && o1_ < gz_ && gz_ - o1_ >= %uu &&\n"
    "        !((a0_ | a1_) & %uu)) {\n", 16 * n, 16 * n, n - 1);
  if (gk >= 0) {
    E("    w->gcache = gs_->idx; w->gbase = gb_; w->gsize = gz_; w->ghost = gs_->host;\n");
    E("    uint8_t *h_ = gs_->host;\n");
  } else {
    E("    uint8_t *h_ = w->ghost;\n");
  }
  if (dr) {
    int plain = !sg && (uint32_t)dr->w == 8 * n && (wm & wmask_of(dr->w)) == wmask_of(dr->w);
    E("    %s *d_ = %s;\n", ctype(dr->w), dr->s);
    if (plain) {
      E("    if (o1_ == o0_ + %uu) memcpy(d_, h_ + o0_, %uu);\n", 16 * n, 32 * n);
      E("    else { memcpy(d_, h_ + o0_, %uu); memcpy(d_ + 16, h_ + o1_, %uu); }\n", 16 * n, 16 * n);
    } else {
      char pl[64], y[256];
      snprintf(pl, sizeof pl, "p_ + (size_t)%uu * l", n);
      ld_expr(y, sizeof y, pl, n, sg, wm, dr->w);
      E("    for (uint32_t h_i = 0; h_i < 2; h_i++) { const uint8_t *p_ = h_ + (h_i ? o1_ : o0_); %s *dh_ = d_ + 16 * h_i;\n"
        "      for (uint32_t l = 0; l < 16; l++) dh_[l] = %s; }\n", ctype(dr->w), y);
    }
    /* the prefetch of the general path, from the same slot */
    E("    { uint64_t d_ = a0_ - R->pf[%u]; R->pf[%u] = a0_;\n", pfk, pfk);
    E("      if (d_ - 1 < (1ull << 28)) { uint8_t *b_ = h_ - gb_;\n"
      "        if (o1_ == o0_ + %uu) jl_prefetch(b_, a0_, d_, %uu, JL_PREFETCH_WARP);\n"
      "        else { jl_prefetch(b_, a0_, d_, %uu, JL_PREFETCH_ROW); jl_prefetch(b_, a1_, d_, %uu, JL_PREFETCH_ROW); } } }\n",
      16 * n, 32 * n, 16 * n, 16 * n);
  } else {
    int plain = vo->kind == WS_PTX_O_REG && reg_storage(T, vo->reg) == (int)(8 * n);
    if (plain) {
      char vrow[48];
      snprintf(vrow, sizeof vrow, "R->%s[%u]", group_name[T->ri[vo->reg].group], T->ri[vo->reg].row);
      E("    if (o1_ == o0_ + %uu) memcpy(h_ + o0_, %s, %uu);\n", 16 * n, vrow, 32 * n);
      E("    else { memcpy(h_ + o0_, %s, %uu); memcpy(h_ + o1_, %s + 16, %uu); }\n", vrow, 16 * n, vrow, 16 * n);
    } else {
      E("    JFOR t_[l] = %s;\n", sval);
      E("    for (uint32_t l = 0; l < 16; l++) jl_wr(h_ + o0_ + (size_t)%uu * l, %uu, t_[l]);\n", n, n);
      E("    for (uint32_t l = 16; l < 32; l++) jl_wr(h_ + o1_ + (size_t)%uu * (l - 16), %uu, t_[l]);\n", n, n);
    }
  }
  E("  } else {\n");
}

/* ld, ldu, st (load.c's dec_ld_st; the interpreter's ld_kparam, ld_st_global,
 * ld_st_shared, ld_any and st_any, which agree on what they compute). */
static int tr_ldst(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int isld = in->op != WS_PTX_OP_ST, st, ms, frel;
  const ws_ptx_operand *ao = isld ? &o[1] : &o[0], *vo = isld ? &o[0] : &o[1];
  int rawbits = y->t ? tbits(y->t) : 0;
  if ((in->nops != 2 && !(in->nops == 3 && ws_ptx_inst_has(in, WS_PTX_MOD_L2_CACHE_HINT))) ||
      y->t == WS_PTX_T_PRED || rawbits > 64)
    return refuse(T, NULL);
  if ((st = mspace(T, ao, &ms))) return st;
  uint32_t n = (uint32_t)(rawbits / 8);
  if (n == 0) return refuse(T, NULL);
  val base;
  int64_t off;
  int a32;
  if ((st = address(T, ao, ms, &base, &off, &frel, &a32))) return st;
  if (ms == JS_KPARAM && !isld) return refuse(T, "store to the kernel's parameters");
  /* the data operand: a register, or a vector of registers / sinks / immediates */
  uint32_t vec = vo->kind == WS_PTX_O_VEC ? vo->comp : 1;
  if (vec != (in->vec ? in->vec : 1) || vec > 4) return refuse(T, "vector width");
  const ws_ptx_operand *el[4];
  for (uint32_t e = 0; e < vec; e++) el[e] = vo->kind == WS_PTX_O_VEC ? &T->f->extra[vo->reg + e] : vo;
  uint64_t wm = ~0ull;
  if (isld && vo->kind == WS_PTX_O_REG) wm = wmask_of(reg_bits(T, vo->reg));
  if (isld && vo->kind == WS_PTX_O_VEC && vo->comp && T->f->extra[vo->reg].kind == WS_PTX_O_REG)
    wm = wmask_of(reg_bits(T, T->f->extra[vo->reg].reg));
  int sg = y->sgn && n < 8;
  /* each element's value expression (st) or destination (ld) */
  dreg dd[4];
  val sv[4];
  for (uint32_t e = 0; e < vec; e++) {
    if (isld) {
      if (el[e]->kind != WS_PTX_O_SINK && el[e]->kind != WS_PTX_O_REG) return refuse(T, "destination operand");
      if ((st = dst_of(T, el[e], &dd[e]))) return st;
      int vw = sg ? (wm == ~0ull ? 64 : (int)ws_popc64(wm)) : (int)(8 * n);
      if (!sg && wm != ~0ull && (int)ws_popc64(wm) < vw) vw = (int)ws_popc64(wm);
      if (!dd[e].sink && vw > dd[e].w) return refuse(T, "a 64-bit value in a 32-bit register");
    } else {
      if (el[e]->kind == WS_PTX_O_SINK) return refuse(T, "sink as a source");
      if ((st = src_w(T, el[e], y->t, n > 4 ? 64 : 32, 1, &sv[e]))) return st;
    }
  }
  char conv[XBUF];
  if (sg) snprintf(conv, sizeof conv, "(uint64_t)(int64_t)(int%u_t)jl_rd(P_, %u)", 8 * n, n);
  else snprintf(conv, sizeof conv, "jl_rd(P_, %u)", n);
  char offs[80], conv_t[64];
  snprintf(offs, sizeof offs, "0x%" PRIx64 "ull%s", (uint64_t)off, frel ? " + lbase_" : "");
  snprintf(conv_t, sizeof conv_t, sg ? "(uint64_t)(int64_t)(int%u_t)t_[l]" : "t_[l]", 8 * n);
  uint32_t tot = n * vec;
  if (ms == JS_KPARAM && vec == 1) {
    /* one address for the warp: its first lane's */
    E("  { uint64_t v_; { const uint32_t l = (uint32_t)__builtin_ctz(m); uint64_t a_ = %s + %s;\n", base.s, offs);
    E("    const uint8_t *P_ = !(a_ & %uu) && a_ < X->param_bytes && X->param_bytes - a_ >= %uu ? X->params + a_ "
      ": X->rt->resolve(X, w, JS_KPARAM, a_, %uu, l, 0, %uu, %uu);\n",
      n - 1, n, n, T->fi, T->pc);
    E("    if (JL_UNLIKELY(!P_)) return JR_FAULT; v_ = (%s) & 0x%" PRIx64 "ull; }\n", conv, wm);
    if (!dd[0].sink) E("    JFOR %s[l] = JSEL(m, (%s)v_, %s[l]);\n", dd[0].s, ctype(dd[0].w), dd[0].s);
    E("  }\n");
    return WS_OK;
  }
  int sk = -1;
  if (ms == JS_SHARED && a32 && !frel && ao->symkind == WS_PTX_S_NONE && vec == 1 && (!isld || !dd[0].sink))
    sk = sa_open(T, ao->reg, tot);
  E("  { uint64_t ad_[32], t_[32]; uint8_t *hp_[32], *b_;\n");
  if (sk >= 0) { /* the analysed fast path, else the general one */
    if (!isld) E("    JFOR t_[l] = %s;\n", sv[0].s);
    sa_fast(T, (uint32_t)sk, ao->reg, off, tot, isld ? &dd[0] : NULL, sg, wm);
    E("    JFOR ad_[l] = (uint32_t)(%s + %s);\n", base.s, offs);
    E("    const int c_ = jl_contig(ad_, %uu);\n", tot);
    E("    if (JL_UNLIKELY(jl_map(X, w, %d, m, ad_, %uu, %d, &b_, hp_, %uu, %uu, c_))) return JR_FAULT;\n", ms, tot,
      !isld, T->fi, T->pc);
    if (isld) {
      E("    if (JL_LIKELY(b_)) jl_gather(t_, b_, ad_, 0u, %uu, %uu, c_); else JEACH(m) t_[l] = jl_rd(hp_[l], %uu);\n",
        n, tot, n);
      E("    JFOR { %s v_ = (%s)((%s) & 0x%" PRIx64 "ull); %s[l] = JSEL(m, v_, %s[l]); }\n  }\n", ctype(dd[0].w),
        ctype(dd[0].w), conv_t, wm, dd[0].s, dd[0].s);
    } else {
      E("    if (JL_LIKELY(b_)) jl_scatter(b_, ad_, %uu, c_, t_); else JEACH(m) jl_wr(hp_[l], %uu, t_[l]);\n  }\n", n, n);
    }
    E("  }\n");
    return WS_OK;
  }
  int gk = -1; /* the whole-warp global fast path's load site, or -2 for a store */
  uint32_t pfk = 0;
  if (isld && (ms == JS_GLOBAL || ms == JS_GENERIC)) pfk = T->npf++;
  if ((ms == JS_GLOBAL || ms == JS_GENERIC) && vec == 1 && !frel && !a32 && ao->symkind == WS_PTX_S_NONE &&
      reg_storage(T, ao->reg) == 64 && (!isld || !dd[0].sink)) {
    gk = isld ? (int)T->ngs++ : -2;
    g_fast(T, ao->reg, off, n, isld ? &dd[0] : NULL, isld ? NULL : vo, isld ? NULL : sv[0].s, sg, wm, gk, pfk);
  }
  if (a32) E("    JFOR ad_[l] = (uint32_t)(%s + %s);\n", base.s, offs);
  else E("    JFOR ad_[l] = %s + %s;\n", base.s, offs);
  E("    const int c_ = jl_contig(ad_, %uu);\n", tot);
  E("    if (JL_UNLIKELY(jl_map(X, w, %d, m, ad_, %uu, %d, &b_, hp_, %uu, %uu, c_))) return JR_FAULT;\n", ms, tot, !isld,
    T->fi, T->pc);
  if (isld) {
    if (ms == JS_GLOBAL || ms == JS_GENERIC) {
      /* a warp that walks through memory (a grid-stride loop) is served
       * from DRAM at each step: fetch the next steps ahead (jl_prefetch), guessed
       * from this load's last address (no effect on the results) */
      uint32_t k = pfk;
      if (gk >= 0) /* the site's object for its fast path next time */
        E("    if (b_ && m == JL_FULL) { jit_gsite *gs_ = &R->gs[%d]; gs_->base = w->gbase; gs_->size = w->gsize;\n"
          "      gs_->host = w->ghost; gs_->idx = w->gcache; }\n", gk);
      E("    if (JL_LIKELY(b_)) { uint64_t d_ = ad_[0] - R->pf[%u]; R->pf[%u] = ad_[0];\n", k, k);
      E("      if (d_ - 1 < (1ull << 28)) { if (c_) jl_prefetch(b_, ad_[0], d_, %uu, JL_PREFETCH_WARP);\n"
        "        else { jl_prefetch(b_, ad_[0], d_, %uu, JL_PREFETCH_ROW); jl_prefetch(b_, ad_[16], d_, %uu, JL_PREFETCH_ROW); } } }\n",
        tot * 32, tot * 16, tot * 16);
    }
    /* each element into t_ (a gather, a contiguous block, or lane by lane),
     * then converted into its register */
    for (uint32_t e = 0; e < vec; e++) {
      if (dd[e].sink) continue;
      /* a full, contiguous warp of unsigned elements as wide as their
       * registers: the bytes as they are (little-endian lanes) */
      int whole = vec == 1 && !sg && (uint32_t)dd[e].w == 8 * n && (wm & wmask_of(dd[e].w)) == wmask_of(dd[e].w);
      if (whole) E("    if (JL_LIKELY(b_ && c_ && m == JL_FULL)) memcpy(%s, b_ + ad_[0], %uu); else {\n", dd[e].s, 32 * n);
      E("    if (JL_LIKELY(b_)) jl_gather(t_, b_, ad_, %uu, %uu, %uu, c_); else JEACH(m) t_[l] = jl_rd(hp_[l] + %uu, %uu);\n", e * n,
        n, tot, e * n, n);
      E("    JFOR { %s v_ = (%s)((%s) & 0x%" PRIx64 "ull); %s[l] = JSEL(m, v_, %s[l]); }\n", ctype(dd[e].w),
        ctype(dd[e].w), conv_t, wm, dd[e].s, dd[e].s);
      if (whole) E("    }\n");
    }
    E("  }\n");
    if (gk != -1) E("  }\n  }\n");
    return WS_OK;
  }
  if (vec == 1) {
    E("    JFOR t_[l] = %s;\n", sv[0].s);
    E("    if (JL_LIKELY(b_)) jl_scatter(b_, ad_, %uu, c_, t_); else JEACH(m) jl_wr(hp_[l], %uu, t_[l]);\n  }\n", n, n);
    if (gk != -1) E("  }\n  }\n");
    return WS_OK;
  }
  /* a vector store: lane by lane, element by element, as the interpreter */
  E("    uint64_t u_[%u][32];\n", vec);
  for (uint32_t e = 0; e < vec; e++) E("    JFOR u_[%u][l] = %s;\n", e, sv[e].s);
  E("    JEACH(m) { uint8_t *P_ = b_ ? b_ + ad_[l] : hp_[l]; for (uint32_t e_ = 0; e_ < %uu; e_++) jl_wr(P_ + e_ * %uu, %uu, "
    "u_[e_][l]); }\n  }\n",
    vec, n, n);
  return WS_OK;
}

/* atom, red (load.c's dec_atom_red; the host applies them, lane by lane). */
static int tr_atom(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int isatom = in->op == WS_PTX_OP_ATOM, ms, st, i = 0, frel;
  const ws_ptx_operand *ao = isatom ? &o[1] : &o[0];
  int bits = y->t ? tbits(y->t) : 0;
  if ((st = mspace(T, ao, &ms))) return st;
  if (ms != JS_GLOBAL && ms != JS_SHARED && ms != JS_GENERIC) return refuse(T, "atomic state space");
  if (in->vec > 1) return refuse(T, NULL);
  int f = y->isf32 || y->isf64;
  switch (in->bop) {
  case WS_PTX_MOD_ADD: break;
  case WS_PTX_MOD_MIN: case WS_PTX_MOD_MAX: if (y->hk >= 0) return refuse(T, "half-precision atomic"); break;
  case WS_PTX_MOD_INC: case WS_PTX_MOD_DEC: if (f || bits != 32) return refuse(T, "atomic type"); break;
  case WS_PTX_MOD_AND: case WS_PTX_MOD_OR: case WS_PTX_MOD_XOR: case WS_PTX_MOD_EXCH: case WS_PTX_MOD_CAS:
    if (bits < 32 && !(in->bop == WS_PTX_MOD_CAS && bits == 16)) return refuse(T, "atomic type");
    break;
  default: return refuse(T, "atomic operation");
  }
  if (bits < 32 && in->bop != WS_PTX_MOD_CAS && !(y->hk >= 0 && in->bop == WS_PTX_MOD_ADD))
    return refuse(T, "atomic type");
  int tyk = y->isf32 ? 1 : y->isf64 ? 2 : y->hk >= 0 ? 3 + y->hk : 0;
  dreg dr;
  memset(&dr, 0, sizeof dr);
  dr.sink = 1;
  if (isatom) {
    if ((st = dst(T, 0, &dr))) return st;
    i = 1;
  }
  val base, v, cv;
  int64_t off;
  int w = bits > 32 ? 64 : 32, a32;
  if ((st = address(T, &o[i], ms, &base, &off, &frel, &a32)) || (st = src_w(T, &o[i + 1], y->t, w, 0, &v))) return st;
  int cas = in->bop == WS_PTX_MOD_CAS;
  if (cas) {
    if (!isatom || in->nops < 4) return refuse(T, NULL);
    if ((st = src_w(T, &o[i + 2], y->t, w, 0, &cv))) return st;
  }
  if (!dr.sink && bits > dr.w) return refuse(T, "a 64-bit value in a 32-bit register");
  E("  { uint64_t ad_[32], v_[32], c_[32], o_[32];\n");
  E("    JFOR { ad_[l] = %s(%s + 0x%" PRIx64 "ull); v_[l] = %s; c_[l] = %s; }\n", a32 ? "(uint32_t)" : "", base.s,
    (uint64_t)off, v.s, cas ? cv.s : "0");
  E("    if (X->rt->atom(X, w, %uu, %uu, %d, %d, %d, %d, %d, m, ad_, v_, c_, o_)) return JR_FAULT;\n", T->fi, T->pc,
    ms, bits / 8, in->bop, tyk, y->sgn);
  if (!dr.sink) E("    { %s *D_ = %s; JEACH(m) D_[l] = (%s)o_[l]; }\n", ctype(dr.w), dr.s, ctype(dr.w));
  E("  }\n");
  return WS_OK;
}

/* A special register's value for lane l (the interpreter's sreg()), of
 * width *w; K: instructions of the segment still to run after this one. */
static int sreg_expr(tr *T, int sr, int comp, char *x, size_t n, int *w) {
  uint32_t c = comp ? (uint32_t)comp - 1u : 0, K = T->seg_last - T->pc;
  *w = 32;
  switch (sr) {
  case WS_PTX_SR_TID: snprintf(x, n, c < 3 ? "w->tid[%u][l]" : "0u", c); break;
  case WS_PTX_SR_NTID: snprintf(x, n, c < 3 ? "X->ntid[%u]" : "1u", c); break;
  case WS_PTX_SR_CTAID: case WS_PTX_SR_CLUSTERID: snprintf(x, n, c < 3 ? "X->ctaid[%u]" : "0u", c); break;
  case WS_PTX_SR_NCTAID: case WS_PTX_SR_NCLUSTERID: snprintf(x, n, c < 3 ? "X->nctaid[%u]" : "1u", c); break;
  case WS_PTX_SR_LANEID: snprintf(x, n, "l"); break;
  case WS_PTX_SR_WARPID: snprintf(x, n, "w->id"); break;
  case WS_PTX_SR_NWARPID: snprintf(x, n, "X->nwarps"); break;
  case WS_PTX_SR_SMID: snprintf(x, n, "0u"); break;
  case WS_PTX_SR_NSMID: case WS_PTX_SR_GRIDID: case WS_PTX_SR_CLUSTER_NCTAID: case WS_PTX_SR_CLUSTER_NCTARANK:
    snprintf(x, n, "1u");
    break;
  case WS_PTX_SR_LANEMASK_EQ: snprintf(x, n, "1u << l"); break;
  case WS_PTX_SR_LANEMASK_LE: snprintf(x, n, "((2u << l) - 1u)"); break; /* l = 31: all ones */
  case WS_PTX_SR_LANEMASK_LT: snprintf(x, n, "((1u << l) - 1u)"); break;
  case WS_PTX_SR_LANEMASK_GE: snprintf(x, n, "(0xffffffffu << l)"); break;
  case WS_PTX_SR_LANEMASK_GT: snprintf(x, n, "(0xfffffffeu << l)"); break; /* l = 31: none */
  case WS_PTX_SR_CLOCK: case WS_PTX_SR_GLOBALTIMER_LO:
    snprintf(x, n, "(uint32_t)jl_clock(X, w->insts - %uu, %d)", K, sr == WS_PTX_SR_GLOBALTIMER_LO);
    break;
  case WS_PTX_SR_CLOCK_HI: case WS_PTX_SR_GLOBALTIMER_HI:
    snprintf(x, n, "(uint32_t)(jl_clock(X, w->insts - %uu, %d) >> 32)", K, sr == WS_PTX_SR_GLOBALTIMER_HI);
    break;
  case WS_PTX_SR_CLOCK64: case WS_PTX_SR_GLOBALTIMER:
    snprintf(x, n, "jl_clock(X, w->insts - %uu, %d)", K, sr == WS_PTX_SR_GLOBALTIMER);
    *w = 64;
    break;
  case WS_PTX_SR_DYNAMIC_SMEM_SIZE: snprintf(x, n, "X->dynamic_shared"); *w = 64; break;
  /* the user's static + dynamic bytes; aggr adds the reserved region */
  case WS_PTX_SR_TOTAL_SMEM_SIZE:
    snprintf(x, n, "(0x%" PRIx64 "ull + X->dynamic_shared)", T->P->shared_dyn_base);
    *w = 64;
    break;
  case WS_PTX_SR_AGGR_SMEM_SIZE: snprintf(x, n, "X->shared_bytes"); *w = 64; break;
  /* the reserved region after the user's: _0 its first half, _1 its second */
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_BEGIN: case WS_PTX_SR_RESERVED_SMEM_OFFSET_0:
    snprintf(x, n, "X->reserved_base");
    *w = 64;
    break;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_END:
    snprintf(x, n, "(X->reserved_base + 0x%" PRIx64 "ull)", T->P->reserved_smem);
    *w = 64;
    break;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_CAP: snprintf(x, n, "0x%" PRIx64 "ull", T->P->reserved_smem); *w = 64; break;
  case WS_PTX_SR_RESERVED_SMEM_OFFSET_1:
    snprintf(x, n, "(X->reserved_base + 0x%" PRIx64 "ull)", T->P->reserved_smem / 2);
    *w = 64;
    break;
  default: snprintf(x, n, "0u"); break;
  }
  return WS_OK;
}

/* mov and its forms (load.c's dec_mov), createpolicy. */
static int tr_mov(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int st;
  dreg dr;
  val a;
  char x[XBUF];
  if (in->op == WS_PTX_OP_CREATEPOLICY) { /* an opaque cache policy: 0 */
    if ((st = dst(T, 0, &dr))) return st;
    return assign(T, &dr, y->w, 1, "0u");
  }
  if (y->t == WS_PTX_T_PRED) {
    int pd, pa;
    if ((st = pred_of(T, &o[0], &pd))) return st;
    if (o[1].kind == WS_PTX_O_IMM_INT) {
      pwrite(T, pd, o[1].imm ? "1u" : "0u", 0);
      return WS_OK;
    }
    if ((st = pred_of(T, &o[1], &pa))) return st;
    if (pa < 0) return refuse(T, "`_` as a predicate source");
    char q[32];
    pwrite(T, pd, pread(T, pa, 0, q, sizeof q), 0);
    return WS_OK;
  }
  int tb = tbits(y->t);
  if (o[0].kind == WS_PTX_O_VEC) { /* mov.b64 {lo, hi}, %rd */
    int eb = tb / o[0].comp;
    if (eb < 8 || eb > 32 || tb > 64) return refuse(T, NULL);
    if ((st = src_w(T, &o[1], y->t, tb > 32 ? 64 : 32, 0, &a))) return st;
    uint64_t em = wmask_of(eb);
    /* element e: the value's bits e * eb .. (the interpreter shifts eb at a time) */
    for (uint32_t e = 0; e < o[0].comp; e++) {
      dreg de;
      if ((st = dst_of(T, &T->f->extra[o[0].reg + e], &de))) return st;
      snprintf(x, sizeof x, "((uint64_t)%s >> %u) & 0x%" PRIx64 "ull", a.s, e * (uint32_t)eb, em);
      if ((st = assign(T, &de, eb > 32 ? 64 : 32, 1, x))) return st;
    }
    return WS_OK;
  }
  if ((st = dst(T, 0, &dr))) return st;
  if (o[1].kind == WS_PTX_O_VEC) { /* mov.b64 %rd, {lo, hi} */
    int eb = tb / o[1].comp;
    if (eb < 8 || eb > 32 || tb > 64) return refuse(T, NULL);
    int et = eb == 8 ? WS_PTX_T_B8 : eb == 16 ? WS_PTX_T_B16 : WS_PTX_T_B32;
    uint64_t em = wmask_of(eb);
    ws_strbuf e = WS_STRBUF_INIT;
    ws_sb_puts(&e, "(uint64_t)0");
    for (int k = (int)o[1].comp - 1; k >= 0; k--) {
      val v;
      const ws_ptx_operand *el = &T->f->extra[o[1].reg + (uint32_t)k];
      if (el->kind == WS_PTX_O_SINK) {
        ws_sb_free(&e);
        return refuse(T, "sink as a source");
      }
      if ((st = src_w(T, el, et, 64, 0, &v))) {
        ws_sb_free(&e);
        return st;
      }
      char part[XBUF];
      snprintf(part, sizeof part, "((%s) << %d | (%s & 0x%" PRIx64 "ull))", ws_sb_str(&e), eb, v.s, em);
      ws_sb_free(&e);
      ws_sb_puts(&e, part);
    }
    st = e.oom ? WS_ENOMEM : assign(T, &dr, tb > 32 ? 64 : 32, 1, ws_sb_str(&e));
    ws_sb_free(&e);
    return st;
  }
  if (o[1].kind == WS_PTX_O_SREG) {
    int w, sr = (int)o[1].reg;
    uint32_t c = o[1].comp ? (uint32_t)o[1].comp - 1u : 0;
    sreg_expr(T, sr, o[1].comp, x, sizeof x, &w);
    if (w == 64 && dr.w == 32 && (sr == WS_PTX_SR_CLOCK64 || sr == WS_PTX_SR_GLOBALTIMER))
      return refuse(T, "a 64-bit special register in a 32-bit register");
    /* uniform values and the thread ids are read before the lane loop (a
     * load inside it could alias the registers, and the loop would stay
     * scalar) */
    char ex[XBUF + 32];
    if (sr == WS_PTX_SR_TID && c < 3) {
      ws_sb_printf(&T->ipre, "  uint32_t t%u_[32]; memcpy(t%u_, w->tid[%u], sizeof t%u_);\n", T->pc, T->pc, c, T->pc);
      snprintf(ex, sizeof ex, "(%s)t%u_[l]", ctype(dr.w), T->pc);
    } else if (sr == WS_PTX_SR_LANEID || (sr >= WS_PTX_SR_LANEMASK_EQ && sr <= WS_PTX_SR_LANEMASK_GT)) {
      snprintf(ex, sizeof ex, "(%s)(%s)", ctype(dr.w), x);
    } else {
      ws_sb_printf(&T->ipre, "  const uint64_t u%u_ = (uint64_t)(%s);\n", T->pc, x);
      snprintf(ex, sizeof ex, "(%s)u%u_", ctype(dr.w), T->pc);
    }
    return assign(T, &dr, dr.w, 1, ex);
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_LOCAL &&
      T->f->vars[o[1].reg].space != WS_PTX_SP_SHARED) { /* a .local variable's address */
    snprintf(x, sizeof x, "(%s)(lbase_ + 0x%" PRIx64 "ull)", ctype(dr.w),
             T->df->var_off[o[1].reg] + (uint64_t)o[1].imm);
    return assign(T, &dr, dr.w, 1, x);
  }
  if (o[1].kind == WS_PTX_O_SYM && o[1].symkind == WS_PTX_S_FUNC) { /* a function's address */
    if (!T->m->funcs[o[1].reg].has_body) return refuse(T, "address of a function without a body");
    snprintf(x, sizeof x, "0x%" PRIx64 "ull", (uint64_t)(FUNC_ADDR_BASE + 16 * (uint64_t)o[1].reg));
    return assign(T, &dr, 64, 1, x);
  }
  /* the value masked to the narrower of the type and the register */
  int mb = y->bits;
  if (o[0].kind == WS_PTX_O_REG && reg_bits(T, o[0].reg) < mb) mb = reg_bits(T, o[0].reg);
  int w = mb > 32 ? 64 : 32;
  if ((st = src_w(T, &o[1], y->t, y->w, 1, &a))) return st;
  if (mb == 32 || mb == 64) snprintf(x, sizeof x, "(%s)%s", ctype(w), a.s);
  else snprintf(x, sizeof x, "(%s)(%s & 0x%" PRIx64 "ull)", ctype(w), a.s, wmask_of(mb));
  return assign(T, &dr, w, 1, x);
}

/* cvta, isspacep */
static int tr_space(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  int st, ms;
  val a;
  char x[XBUF];
  static const uint64_t win[] = {0, JL_SHARED_WIN, JL_LOCAL_WIN, JL_CONST_WIN};
  int sp = in->op == WS_PTX_OP_CVTA && !in->space ? in->space2 : in->space;
  switch (sp) {
  case WS_PTX_SP_GLOBAL: ms = JS_GLOBAL; break;
  case WS_PTX_SP_SHARED: ms = JS_SHARED; break;
  case WS_PTX_SP_LOCAL: ms = JS_LOCAL; break;
  case WS_PTX_SP_CONST: ms = JS_CONST; break;
  default: return refuse(T, "state space");
  }
  if (in->op == WS_PTX_OP_ISSPACEP) {
    int p;
    if ((st = pred_of(T, &in->ops[0], &p)) || (st = src(T, 1, WS_PTX_T_U64, 64, &a))) return st;
    if (ms == JS_GLOBAL) /* not in the shared, local or const window */
      snprintf(x, sizeof x, "((%s >> %d) != 0x7full) & ((%s >> %d) != 0x7eull) & ((%s >> %d) != 0x7dull)", a.s,
               JL_WIN_SHIFT, a.s, JL_WIN_SHIFT, a.s, JL_WIN_SHIFT);
    else
      snprintf(x, sizeof x, "(%s >> %d) == 0x%xull", a.s, JL_WIN_SHIFT,
               ms == JS_SHARED ? 0x7fu : ms == JS_LOCAL ? 0x7eu : 0x7du);
    pwrite(T, p, x, 0);
    return WS_OK;
  }
  dreg dr;
  if ((st = dst(T, 0, &dr)) || (st = src(T, 1, y->t, 64, &a))) return st;
  uint64_t wv = win[ms];
  if (ws_ptx_inst_has(in, WS_PTX_MOD_TO)) wv = 0 - wv;
  if (y->bits == 32) snprintf(x, sizeof x, "(uint32_t)(%s + 0x%" PRIx64 "ull)", a.s, wv);
  else snprintf(x, sizeof x, "%s + 0x%" PRIx64 "ull", a.s, wv);
  return assign(T, &dr, y->bits == 32 ? 32 : 64, 1, x);
}

/* In a lane loop with k_ the lane's member mask: the interpreter's
 * mask_fault when lane l is not in it. */
static void mask_own(tr *T) {
  E("      if (!((k_ >> l) & 1u)) return X->rt->fault(X, w, %d, l, %uu, %uu, k_, 0, -1, NULL);\n",
    WS_EMU_FAULT_MEMBERMASK, T->fi, T->pc);
}

/* shfl, vote, match, redux, activemask, elect (the interpreter's ex_warp).
 * A shfl, vote or match whose mask is 0xffffffff in every lane
 * (ws_emu_full_mask, the interpreter's DF_FULLMASK) or absent is
 * translated as for a full warp, without mask checks; any other mask gets
 * the interpreter's checks (ops/warp.h). */
static int tr_warp(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int st, i = 1, d2 = -1;
  dreg dr;
  val a, b, c, mk;
  switch (in->op) {
  case WS_PTX_OP_SHFL: {
    static const int sm[][2] = {{WS_PTX_MOD_UP, 0}, {WS_PTX_MOD_DOWN, 1}, {WS_PTX_MOD_BFLY, 2}, {WS_PTX_MOD_IDX, 3}};
    int mode = -1, sync = ws_ptx_inst_has(in, WS_PTX_MOD_SYNC);
    for (int j = 0; j < 4; j++)
      if (in->mode == sm[j][0]) mode = sm[j][1];
    if (mode < 0) return refuse(T, NULL);
    if ((st = dst(T, 0, &dr))) return st;
    if (o[1].flags & WS_PTX_OF_PIPE) {
      if ((st = pred_of(T, &o[1], &d2))) return st;
      i = 2;
    }
    if (in->nops - i != (sync ? 4 : 3)) return refuse(T, NULL);
    if ((st = src(T, i, y->t, 32, &a)) || (st = src(T, i + 1, WS_PTX_T_U32, 32, &b)) ||
        (st = src(T, i + 2, WS_PTX_T_U32, 32, &c)))
      return st;
    int full = !sync || ws_emu_full_mask(T->cfg, T->pc, &o[i + 3]);
    if (!full && (st = src(T, i + 3, WS_PTX_T_U32, 32, &mk))) return st;
    if (dr.sink) return refuse(T, "shfl into `_`");
    static const char *const jx[] = {"j_ = (int32_t)l - (int32_t)bv_; ok_ = j_ >= maxl_;",
                                     "j_ = (int32_t)l + (int32_t)bv_; ok_ = j_ <= maxl_;",
                                     "j_ = (int32_t)(l ^ bv_); ok_ = j_ <= maxl_;",
                                     "j_ = minl_ | (int32_t)(bv_ & ~seg_); ok_ = j_ <= maxl_;"};
    E("  { uint32_t t_[32], pv_ = 0; JFOR t_[l] = %s;\n", a.s);
    E("    JEACH(m) { uint32_t bv_ = (%s) & 31u, cw_ = %s, seg_ = (cw_ >> 8) & 31u, cv_ = cw_ & 31u;\n", b.s, c.s);
    E("      int32_t maxl_ = (int32_t)((l & seg_) | (cv_ & ~seg_)), minl_ = (int32_t)(l & seg_), j_; int ok_;\n");
    if (!full) { /* the interpreter's order: the lane's own membership, then its source's */
      E("      %s if (!ok_) j_ = (int32_t)l; uint32_t k_ = (uint32_t)(%s);\n", jx[mode], mk.s);
      mask_own(T);
      E("      if (!((k_ >> (j_ & 31)) & 1u)) return X->rt->fault(X, w, %d, l, %uu, %uu, k_, 0, j_ & 31, NULL);\n",
        WS_EMU_FAULT_MEMBERMASK, T->fi, T->pc);
      E("      %s[l] = (%s)t_[j_ & 31]; pv_ |= (uint32_t)ok_ << l; }\n", dr.s, ctype(dr.w));
    } else {
      E("      %s if (!ok_) j_ = (int32_t)l; %s[l] = (%s)t_[j_ & 31]; pv_ |= (uint32_t)ok_ << l; }\n", jx[mode],
        dr.s, ctype(dr.w));
    }
    if (d2 >= 0) E("    R->p[%d] = (R->p[%d] & ~m) | pv_;\n", d2, d2);
    E("  }\n");
    return WS_OK;
  }
  case WS_PTX_OP_VOTE: {
    int mode = in->mode == WS_PTX_MOD_ALL ? 0 : in->mode == WS_PTX_MOD_ANY ? 1 : in->mode == WS_PTX_MOD_BALLOT ? 3 : 2;
    int pd = -1, pa;
    if (in->mode != WS_PTX_MOD_ALL && in->mode != WS_PTX_MOD_ANY && in->mode != WS_PTX_MOD_BALLOT &&
        !ws_ptx_inst_has(in, WS_PTX_MOD_UNI))
      return refuse(T, NULL);
    if (mode == 3) {
      if ((st = dst(T, 0, &dr))) return st;
    } else if ((st = pred_of(T, &o[0], &pd))) {
      return st;
    }
    if ((st = pred_of(T, &o[1], &pa))) return st;
    if (pa < 0) return refuse(T, "`_` as a predicate source");
    if (in->nops > 2 && !ws_emu_full_mask(T->cfg, T->pc, &o[2])) { /* each lane over the executing lanes of its mask */
      static const char *const vx[] = {"vg_ == g_", "vg_ != 0", "vg_ == 0 || vg_ == g_"};
      if ((st = src(T, 2, WS_PTX_T_U32, 32, &mk))) return st;
      E("  { uint32_t v_ = (%sR->p[%d]) & m, r_ = 0;\n", (o[1].flags & WS_PTX_OF_NOT) ? "~" : "", pa);
      E("    JEACH(m) { uint32_t k_ = (uint32_t)(%s), g_ = m & k_, vg_ = v_ & k_; (void)g_;\n", mk.s);
      mask_own(T);
      if (mode < 3) E("      r_ |= (uint32_t)(%s) << l; }\n", vx[mode]);
      else if (dr.sink) E("    }\n");
      else E("      %s[l] = (%s)vg_; }\n", dr.s, ctype(dr.w));
      if (mode < 3) pred_set(T, pd, "r_");
      E("  }\n");
      return WS_OK;
    }
    E("  { uint32_t v_ = (%sR->p[%d]) & m;\n  ", (o[1].flags & WS_PTX_OF_NOT) ? "~" : "", pa);
    if (mode == 0) pred_set(T, pd, "v_ == m ? m : 0u");
    else if (mode == 1) pred_set(T, pd, "v_ ? m : 0u");
    else if (mode == 2) pred_set(T, pd, "(v_ == 0 || v_ == m) ? m : 0u");
    else if ((st = assign(T, &dr, 32, 1, "v_"))) return st;
    E("  }\n");
    return WS_OK;
  }
  case WS_PTX_OP_MATCH: {
    if ((st = dst(T, 0, &dr))) return st;
    if (o[1].flags & WS_PTX_OF_PIPE) {
      if ((st = pred_of(T, &o[1], &d2))) return st;
      i = 2;
    }
    if (in->nops - i != 2) return refuse(T, NULL);
    if ((st = src(T, i, y->t, y->w, &a))) return st;
    if (dr.sink) return refuse(T, "match into `_`");
    E("  { %s t_[32]; JFOR t_[l] = (%s)(%s) & 0x%" PRIx64 "ull;\n", ctype(y->w), ctype(y->w), a.s, y->wm);
    if (!ws_emu_full_mask(T->cfg, T->pc, &o[i + 1])) { /* each lane over the executing lanes of its mask */
      if ((st = src(T, i + 1, WS_PTX_T_U32, 32, &mk))) return st;
      E("    uint32_t res_[32], pv_ = 0;\n    JEACH(m) { uint32_t k_ = (uint32_t)(%s), g_ = m & k_, r_ = 0;\n", mk.s);
      mask_own(T);
      E("      for (uint32_t q_ = 0; q_ < 32; q_++) if (((g_ >> q_) & 1u) && t_[q_] == t_[l]) r_ |= 1u << q_;\n");
      if (in->mode == WS_PTX_MOD_ALL) E("      pv_ |= (uint32_t)(r_ == g_) << l; r_ = r_ == g_ ? g_ : 0u;\n");
      E("      res_[l] = r_; }\n    (void)pv_;\n");
      if (in->mode == WS_PTX_MOD_ALL && d2 >= 0) E("    R->p[%d] = (R->p[%d] & ~m) | pv_;\n", d2, d2);
      E("    JEACH(m) %s[l] = res_[l];\n  }\n", dr.s);
      return WS_OK;
    }
    if (in->mode == WS_PTX_MOD_ALL) {
      E("    int same_ = 1; %s v0_ = t_[__builtin_ctz(m)]; JEACH(m) same_ &= t_[l] == v0_;\n", ctype(y->w));
      E("    JEACH(m) %s[l] = same_ ? m : 0u;\n", dr.s);
      if (d2 >= 0) E("    R->p[%d] = (R->p[%d] & ~m) | (same_ ? m : 0u);\n", d2, d2);
    } else {
      E("    uint32_t res_[32]; JEACH(m) { uint32_t r_ = 0; for (uint32_t k_ = 0; k_ < 32; k_++) "
        "if (((m >> k_) & 1u) && t_[k_] == t_[l]) r_ |= 1u << k_; res_[l] = r_; }\n");
      E("    JEACH(m) %s[l] = res_[l];\n", dr.s);
    }
    E("  }\n");
    return WS_OK;
  }
  case WS_PTX_OP_REDUX: {
    /* over the lanes of m that name the same member mask and are in it
     * (a lane outside its mask neither contributes nor receives) */
    if (!(y->isint && tbits(y->t) == 32)) return refuse(T, NULL);
    if ((st = dst(T, 0, &dr)) || (st = src(T, 1, y->t, 32, &a)) || (st = src(T, 2, WS_PTX_T_U32, 32, &b))) return st;
    if (dr.sink) return refuse(T, "redux into `_`");
    const char *op;
    switch (in->bop) {
    case WS_PTX_MOD_ADD: op = "acc_ += v_;"; break;
    case WS_PTX_MOD_AND: op = "acc_ &= v_;"; break;
    case WS_PTX_MOD_OR: op = "acc_ |= v_;"; break;
    case WS_PTX_MOD_XOR: op = "acc_ ^= v_;"; break;
    case WS_PTX_MOD_MIN: op = y->sgn ? "acc_ = (int32_t)v_ < (int32_t)acc_ ? v_ : acc_;" : "acc_ = v_ < acc_ ? v_ : acc_;"; break;
    default: op = y->sgn ? "acc_ = (int32_t)v_ > (int32_t)acc_ ? v_ : acc_;" : "acc_ = v_ > acc_ ? v_ : acc_;"; break;
    }
    E("  { uint32_t t_[32], k_[32], todo_ = m; JFOR { t_[l] = %s; k_[l] = %s; }\n", a.s, b.s);
    E("    while (todo_) { uint32_t mk_ = k_[__builtin_ctz(todo_)], grp_ = 0;\n");
    E("      JEACH(todo_) grp_ |= (uint32_t)(k_[l] == mk_) << l;\n      todo_ &= ~grp_;\n");
    E("      uint32_t g_ = grp_ & mk_, in_ = mk_ & m; if (!g_) continue;\n");
    E("      uint32_t acc_ = t_[__builtin_ctz(in_)]; JEACH(in_ & (in_ - 1)) { uint32_t v_ = t_[l]; %s }\n", op);
    E("      JEACH(g_) %s[l] = (%s)acc_; } }\n", dr.s, ctype(dr.w));
    return WS_OK;
  }
  case WS_PTX_OP_ACTIVEMASK:
    if ((st = dst(T, 0, &dr))) return st;
    return assign(T, &dr, 32, 1, "m");
  case WS_PTX_OP_ELECT: {
    memset(&dr, 0, sizeof dr);
    dr.sink = 1;
    i = 0;
    if (o[0].kind == WS_PTX_O_REG && !is_pred(T, o[0].reg)) {
      if ((st = dst(T, 0, &dr))) return st;
      i = 1;
    } else if (o[0].kind == WS_PTX_O_SINK) {
      i = 1;
    }
    if (i < in->nops && (st = pred_of(T, &o[i], &d2))) return st;
    E("  { uint32_t ld_ = (uint32_t)__builtin_ctz(m); (void)ld_;\n  ");
    if ((st = assign(T, &dr, 32, 1, "ld_"))) return st;
    if (d2 >= 0) E("    R->p[%d] = (R->p[%d] & ~m) | (1u << ld_);\n", d2, d2);
    E("  }\n");
    return WS_OK;
  }
  default:
    return refuse(T, NULL);
  }
}

/* alloca, stacksave, stackrestore (the interpreter's ex_stack). */
static int tr_stack(tr *T, const ty *y) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int st;
  dreg dr;
  val a;
  char x[XBUF];
  switch (in->op) {
  case WS_PTX_OP_ALLOCA: {
    uint64_t al = 8;
    if ((st = dst(T, 0, &dr)) || (st = src(T, 1, y->t, 64, &a))) return st;
    if (in->nops > 2) {
      if (o[2].kind != WS_PTX_O_IMM_INT || o[2].imm < 1 || o[2].imm > 4096 || (o[2].imm & (o[2].imm - 1)))
        return refuse(T, "alloca alignment");
      al = (uint64_t)o[2].imm;
    }
    E("  { uint64_t n_[32], b_; JFOR n_[l] = %s;\n", a.s);
    E("    if (X->rt->alloca_(X, w, %uu, %uu, m, n_, %" PRIu64 "u, &b_)) return JR_FAULT;\n  ", T->fi, T->pc, al);
    snprintf(x, sizeof x, "b_ & 0x%" PRIx64 "ull", y->wm);
    if ((st = assign(T, &dr, y->w, 1, x))) return st;
    E("  }\n");
    return WS_OK;
  }
  case WS_PTX_OP_STACKSAVE:
    if ((st = dst(T, 0, &dr))) return st;
    ws_sb_printf(&T->ipre, "  const uint64_t u%u_ = w->local_top;\n", T->pc);
    snprintf(x, sizeof x, "u%u_ & 0x%" PRIx64 "ull", T->pc, y->wm);
    return assign(T, &dr, y->w, 1, x);
  default: /* stackrestore */
    if ((st = src(T, 0, y->t, 64, &a))) return st;
    E("  { const uint32_t l = (uint32_t)__builtin_ctz(m);\n");
    E("    if (X->rt->stackrestore(X, w, %uu, %uu, l, %s)) return JR_FAULT; }\n", T->fi, T->pc, a.s);
    return WS_OK;
  }
}

/* call, vprintf, __assertfail (load.c's dec_call; the host pushes frames). */
static int tr_call(tr *T) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int fi = -1, st;
  for (int i = 0; i < in->nops; i++)
    if (o[i].kind == WS_PTX_O_SYM && o[i].symkind == WS_PTX_S_FUNC) fi = i;
  if (fi < 0) {
    for (int i = 0; i < in->nops; i++)
      if (o[i].kind == WS_PTX_O_REG) fi = i;
    if (fi < 0 || is_pred(T, o[fi].reg)) return refuse(T, "call target");
  }
  int indirect = o[fi].kind == WS_PTX_O_REG;
  const ws_ptx_function *cf = indirect ? NULL : &T->m->funcs[o[fi].reg];
  const ws_ptx_operand *rl = fi > 0 ? &o[fi - 1] : NULL;
  const ws_ptx_operand *al = fi + 1 < in->nops ? &o[fi + 1] : NULL;
  if (rl && rl->kind != WS_PTX_O_LIST) return refuse(T, "call return list");
  if (al && al->kind != WS_PTX_O_LIST) return refuse(T, "call argument list");
  uint32_t nr = rl ? rl->comp : 0, na = al ? al->comp : 0;
  int kind = 0; /* 0 call, 1 vprintf, 2 __assertfail */
  uint32_t callee = 0;
  if (!indirect && !cf->has_body) {
    if (strcmp(cf->name, "vprintf") == 0 && na == 2) kind = 1;
    else if (strcmp(cf->name, "__assertfail") == 0 && na == 5) kind = 2;
    else return refuse(T, "call to an external function without a body");
  } else if (!indirect) {
    if (na != cf->nparams || nr != cf->nrets) return refuse(T, "argument count differs from the callee");
    if (T->P->func_of_ir[o[fi].reg] < 0) return refuse(T, "callee not loaded");
    callee = (uint32_t)T->P->func_of_ir[o[fi].reg];
  }
  /* static data: the arguments, the return slots, the call */
  ws_sb_printf(&T->data, "static const uint32_t CR_%u_%u[] = {0", T->fi, T->pc);
  for (uint32_t i = 0; i < nr; i++) {
    const ws_ptx_operand *e = &T->f->extra[rl->reg + i];
    uint64_t off;
    if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_LOCAL) off = T->df->var_off[e->reg] + (uint64_t)e->imm;
    else if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_PARAM && !T->f->is_entry) off = T->df->param_off[e->reg];
    else return refuse(T, "call operand");
    ws_sb_printf(&T->data, ", %" PRIu64 "u", (uint64_t)(uint32_t)off);
  }
  ws_sb_printf(&T->data, "};\nstatic const jit_arg CA_%u_%u[] = {{0, 0, 0}", T->fi, T->pc);
  for (uint32_t i = 0; i < na; i++) {
    const ws_ptx_operand *e = &T->f->extra[al->reg + i];
    if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_LOCAL) {
      ws_sb_printf(&T->data, ", {JA_FRAME, %uu, 0}", (uint32_t)(T->df->var_off[e->reg] + (uint64_t)e->imm));
    } else if (e->kind == WS_PTX_O_SYM && e->symkind == WS_PTX_S_PARAM && !T->f->is_entry) {
      ws_sb_printf(&T->data, ", {JA_FRAME, %uu, 0}", (uint32_t)T->df->param_off[e->reg]);
    } else if (e->kind == WS_PTX_O_REG) {
      if (is_pred(T, e->reg)) return refuse(T, "predicate used as a value");
      if (e->flags & WS_PTX_OF_NEG) return refuse(T, "negated register operand");
      const reginfo *ri = &T->ri[e->reg];
      ws_sb_printf(&T->data, ", {%s, (uint32_t)offsetof(struct jr_%u, %s[%u]), 0}",
                   reg_storage(T, e->reg) == 64 ? "JA_REG64" : "JA_REG32", T->fi, group_name[ri->group], ri->row);
    } else if (e->kind == WS_PTX_O_IMM_INT) {
      int at = cf && i < cf->nparams ? cf->params[i].type : WS_PTX_T_B64;
      ws_sb_printf(&T->data, ", {JA_CONST, 0, 0x%" PRIx64 "ull}", imm_bits(e, at));
    } else {
      return refuse(T, "call operand");
    }
  }
  ws_sb_printf(&T->data, "};\nstatic const jit_call CS_%u_%u = {%uu, %uu, %uu, %d, %uu, %uu, CA_%u_%u + 1, CR_%u_%u + 1};\n",
               T->fi, T->pc, T->fi, T->pc, callee, indirect, na, nr, T->fi, T->pc, T->fi, T->pc);
  if (kind == 1) {
    E("  if (X->rt->vprintf(X, w, &CS_%u_%u, m)) return JR_FAULT;\n", T->fi, T->pc);
    return WS_OK;
  }
  if (kind == 2) {
    E("  return X->rt->assertfail(X, w, &CS_%u_%u, m);\n", T->fi, T->pc);
    return WS_OK;
  }
  if (indirect) {
    val t;
    if ((st = reg_val(T, o[fi].reg, 64, 0, &t))) return st;
    E("  { uint64_t t_[32]; JFOR t_[l] = %s;\n", t.s);
    E("    if (X->rt->call(X, w, &CS_%u_%u, m, active, t_) == JR_FAULT) return JR_FAULT; goto reload_; }\n", T->fi,
      T->pc);
    return WS_OK;
  }
  E("  if (X->rt->call(X, w, &CS_%u_%u, m, active, NULL) == JR_FAULT) return JR_FAULT;\n  goto reload_;\n", T->fi,
    T->pc);
  return WS_OK;
}

/* bar, barrier (load.c's dec_bar; the host counts arrivals). */
static int tr_bar(tr *T) {
  const ws_ptx_inst *in = T->in;
  const ws_ptx_operand *o = in->ops;
  int arrive = ws_ptx_inst_has(in, WS_PTX_MOD_ARRIVE), red = ws_ptx_inst_has(in, WS_PTX_MOD_RED);
  int i = 0, st, rk = 0, pc = -1, cneg = 0, has_b = 0;
  uint32_t roff = 0;
  val a, b;
  strcpy(a.s, "0u");
  strcpy(b.s, "0u");
  if (red) {
    if (in->bop != WS_PTX_MOD_POPC && in->bop != WS_PTX_MOD_AND && in->bop != WS_PTX_MOD_OR) return refuse(T, NULL);
    red = in->bop == WS_PTX_MOD_POPC ? 1 : in->bop == WS_PTX_MOD_AND ? 2 : 3;
    if (red == 1) {
      dreg dr;
      if ((st = dst(T, 0, &dr))) return st;
      if (!dr.sink) {
        rk = dr.w == 64 ? 3 : 1;
        const reginfo *ri = &T->ri[o[0].reg];
        ws_sb_printf(&T->data, "#define BR_%u_%u (uint32_t)offsetof(struct jr_%u, %s[%u])\n", T->fi, T->pc, T->fi,
                     group_name[ri->group], ri->row);
      }
    } else {
      int pd;
      if ((st = pred_of(T, &o[0], &pd))) return st;
      if (pd >= 0) rk = 2, roff = (uint32_t)pd;
    }
    i = 1;
  }
  if (in->nops <= i) {
    if (in->op == WS_PTX_OP_BAR) return refuse(T, NULL);
  } else {
    if ((st = src(T, i, WS_PTX_T_U32, 32, &a))) return st;
    if (in->nops > i + 1 && !(red && i + 2 == in->nops && o[i + 1].kind == WS_PTX_O_REG && is_pred(T, o[i + 1].reg))) {
      if ((st = src(T, i + 1, WS_PTX_T_U32, 32, &b))) return st;
      has_b = 1;
      i++;
    }
  }
  if (red) {
    if (in->nops <= i + 1) return refuse(T, NULL);
    if ((st = pred_of(T, &o[i + 1], &pc))) return st;
    if (pc < 0) return refuse(T, "`_` as a predicate source");
    cneg = (o[i + 1].flags & WS_PTX_OF_NOT) != 0;
  }
  if (rk == 1 || rk == 3)
    ws_sb_printf(&T->data, "static const jit_bar BS_%u_%u = {%uu, %uu, %d, %d, %d, %d, BR_%u_%u};\n", T->fi, T->pc,
                 T->fi, T->pc, arrive, has_b, red, rk, T->fi, T->pc);
  else
    ws_sb_printf(&T->data, "static const jit_bar BS_%u_%u = {%uu, %uu, %d, %d, %d, %d, %uu};\n", T->fi, T->pc, T->fi,
                 T->pc, arrive, has_b, red, rk, roff);
  E("  { uint32_t id_, cnt_; { const uint32_t l = (uint32_t)__builtin_ctz(m); id_ = %s; cnt_ = %s; }\n", a.s, b.s);
  if (red) E("    uint32_t pv_ = (%sR->p[%d]) & m;\n", cneg ? "~" : "", pc);
  E("    int r_ = X->rt->bar(X, w, &BS_%u_%u, m, active, id_, cnt_, %s); if (r_) return r_; }\n", T->fi, T->pc,
    red ? "pv_" : "0u");
  return WS_OK;
}

/* bra (the interpreter's ex_bra): limit, then uniform, divergent or not taken. */
static int tr_bra(tr *T, uint32_t rpc) {
  const ws_ptx_operand *o = T->in->ops;
  if (o[0].kind != WS_PTX_O_LABEL) return refuse(T, NULL);
  uint32_t tg = (uint32_t)o[0].imm, P = T->pc;
  E("  if (JL_UNLIKELY(w->insts > w->limit)) return X->rt->limit(X, w, %uu, %uu, active);\n", T->fi, P);
  if (T->guarded) {
    E("  if (m == active) { if (JL_UNLIKELY(w->insts >= w->qend)) { top->pc = %uu; return JR_YIELD; } goto L%u; }\n", tg, tg);
    E("  if (m) { if (X->rt->diverge(X, w, %uu, %uu, %uu, %uu, active & ~m, %uu, m) == JR_FAULT) return JR_FAULT; goto reload_; }\n",
      T->fi, P, rpc, P + 1, tg);
    E("  if (JL_UNLIKELY(w->insts >= w->qend)) { top->pc = %uu; return JR_YIELD; }\n", P + 1);
  } else {
    E("  if (JL_UNLIKELY(w->insts >= w->qend)) { top->pc = %uu; return JR_YIELD; }\n  goto L%u;\n", tg, tg);
  }
  return WS_OK;
}

/* brx.idx (the host splits the lanes by target). */
static int tr_brx(tr *T, uint32_t rpc) {
  const ws_ptx_operand *o = T->in->ops;
  if (o[1].kind != WS_PTX_O_SYM || o[1].symkind != WS_PTX_S_BTABLE || o[1].reg >= T->f->nbtables)
    return refuse(T, "brx.idx without a branch-target table");
  const ws_ptx_btable *bt = &T->f->btables[o[1].reg];
  val a;
  int st;
  if ((st = src(T, 0, WS_PTX_T_U32, 32, &a))) return st;
  ws_sb_printf(&T->data, "static const uint32_t BT_%u_%u[] = {0", T->fi, T->pc);
  for (uint32_t i = 0; i < bt->ntargets; i++) ws_sb_printf(&T->data, ", %uu", T->f->labels[bt->labels[i]].inst);
  ws_sb_printf(&T->data, "};\nstatic const jit_brx BX_%u_%u = {%uu, %uu, %uu, %uu, BT_%u_%u + 1};\n", T->fi, T->pc,
               T->fi, T->pc, rpc, bt->ntargets, T->fi, T->pc);
  E("  if (JL_UNLIKELY(w->insts > w->limit)) return X->rt->limit(X, w, %uu, %uu, active);\n", T->fi, T->pc);
  E("  if (m) { uint64_t i_[32]; JFOR i_[l] = %s;\n", a.s);
  E("    int r_ = X->rt->brx(X, w, &BX_%u_%u, m, active, i_); if (r_ == JR_FAULT) return r_;\n", T->fi, T->pc);
  E("    if (r_ == JR_RELOAD) goto reload_; goto dispatch_; }\n");
  return WS_OK;
}

/* exit (and ret in a kernel), ret in a function (the interpreter's ex_exit_ret). */
static void tr_exit(tr *T, int is_exit) {
  E("  if (m) {\n");
  if (is_exit) E("    w->exited |= m; for (uint32_t i_ = 0; i_ < w->sp; i_++) w->stk[i_].mask &= ~m;\n");
  else E("    for (uint32_t i_ = w->sp; i_-- > 0;) { w->stk[i_].mask &= ~m; if (w->stk[i_].frame) break; }\n");
  E("    if (m == active) goto reload_;\n    active &= ~m;\n  }\n");
}

/* One instruction: its lanes (active & guard), then its code. */
/* Operations that act on each lane alone and have no effect but their
 * destinations (no memory, no control, no other lane): they go into fused
 * lane loops. */
static int lane_op(const ws_ptx_inst *in) {
  switch (in->op) {
  case WS_PTX_OP_ADD: case WS_PTX_OP_SUB: case WS_PTX_OP_MAD:
    return !ws_ptx_inst_has(in, WS_PTX_MOD_CC); /* the carry chain lives in the warp */
  case WS_PTX_OP_MUL: case WS_PTX_OP_FMA: case WS_PTX_OP_DIV: case WS_PTX_OP_ABS: case WS_PTX_OP_NEG:
  case WS_PTX_OP_MIN: case WS_PTX_OP_MAX: case WS_PTX_OP_MUL24: case WS_PTX_OP_MAD24: case WS_PTX_OP_SAD:
  case WS_PTX_OP_REM: case WS_PTX_OP_COPYSIGN: case WS_PTX_OP_TESTP: case WS_PTX_OP_RCP: case WS_PTX_OP_SQRT:
  case WS_PTX_OP_RSQRT: case WS_PTX_OP_SIN: case WS_PTX_OP_COS: case WS_PTX_OP_LG2: case WS_PTX_OP_EX2:
  case WS_PTX_OP_TANH: case WS_PTX_OP_DP4A: case WS_PTX_OP_DP2A: case WS_PTX_OP_AND: case WS_PTX_OP_OR:
  case WS_PTX_OP_XOR: case WS_PTX_OP_NOT: case WS_PTX_OP_CNOT: case WS_PTX_OP_LOP3: case WS_PTX_OP_SHL:
  case WS_PTX_OP_SHR: case WS_PTX_OP_SHF: case WS_PTX_OP_POPC: case WS_PTX_OP_CLZ: case WS_PTX_OP_BREV:
  case WS_PTX_OP_BFIND: case WS_PTX_OP_BFE: case WS_PTX_OP_BFI: case WS_PTX_OP_PRMT: case WS_PTX_OP_FNS:
  case WS_PTX_OP_BMSK: case WS_PTX_OP_SZEXT: case WS_PTX_OP_SETP: case WS_PTX_OP_SET: case WS_PTX_OP_SELP:
  case WS_PTX_OP_SLCT: case WS_PTX_OP_MOV: case WS_PTX_OP_CREATEPOLICY: case WS_PTX_OP_CVT: case WS_PTX_OP_CVTA:
  case WS_PTX_OP_ISSPACEP: case WS_PTX_OP_STACKSAVE: case WS_PTX_OP_PREFETCH: case WS_PTX_OP_PREFETCHU:
  case WS_PTX_OP_MEMBAR: case WS_PTX_OP_FENCE: case WS_PTX_OP_BAR_WARP_SYNC: case WS_PTX_OP_NANOSLEEP:
  case WS_PTX_OP_PMEVENT: case WS_PTX_OP_GRIDDEP_WAIT: case WS_PTX_OP_GRIDDEP_LAUNCH:
    return 1;
  default:
    return 0;
  }
}

/* One loop of the open group (flush_group), opened by `head`: the touched
 * registers and predicates into locals, the group's lane code, the
 * written ones back (a scalar loop sets its predicates' bits one by one). */
static void group_loop(tr *T, const char *head, int scalar) {
  ws_strbuf *b = &T->b;
  const ws_ptx_function *f = T->f;
  ws_sb_puts(b, head);
  for (uint32_t r = 0; r < f->nregs; r++)
    if (T->gr[r])
      ws_sb_printf(b, "    %s v%u = R->%s[%u][l];\n", ctype(reg_storage(T, r)), r, group_name[T->ri[r].group],
                   T->ri[r].row);
  for (uint32_t k = 0; k < T->ng[RG_PRED]; k++)
    if (T->gp[k]) ws_sb_printf(b, "    uint32_t q%u = (P%u_ >> l) & 1u;\n", k, k);
  ws_sb_puts(b, ws_sb_str(&T->gbody));
  for (uint32_t r = 0; r < f->nregs; r++)
    if (T->gr[r] & 2) ws_sb_printf(b, "    R->%s[%u][l] = v%u;\n", group_name[T->ri[r].group], T->ri[r].row, r);
  for (uint32_t k = 0; k < T->ng[RG_PRED]; k++)
    if (T->gp[k] & 2) {
      if (scalar) ws_sb_printf(b, "    B%u_ = (B%u_ & ~(1u << l)) | (q%u << l);\n", k, k, k);
      else ws_sb_printf(b, "    B%u_ |= q%u << l;\n", k, k);
    }
  ws_sb_puts(b, "  }\n");
}

/* Emit the open group of lane operations: its uniform values, one loop
 * over the lanes (all 32, each operation blended under its lane's
 * condition c_, so the compiler vectorises it; or the active lanes one by
 * one for an operation that calls num.c) with the registers it touches in
 * locals, then the registers and predicates it wrote. */
static void flush_group(tr *T) {
  if (!T->gopen) return;
  ws_strbuf *b = &T->b;
  int scalar = T->gopen == 2;
  ws_sb_puts(b, "  { uint32_t ti_ = 0; (void)ti_;\n");
  ws_sb_puts(b, ws_sb_str(&T->gpre));
  for (uint32_t k = 0; k < T->ng[RG_PRED]; k++) {
    if (!T->gp[k]) continue;
    ws_sb_printf(b, "  const uint32_t P%u_ = R->p[%u];\n", k, k);
    if (T->gp[k] & 2) ws_sb_printf(b, scalar ? "  uint32_t B%u_ = P%u_;\n" : "  uint32_t B%u_ = 0u;\n", k, k);
  }
  /* a vector group runs in one of two copies of its loop: one for a
   * whole warp, where every lane is active and the compiler drops the
   * blends into the destinations (and their loads), and one for the
   * others; the same code, a_ constant in the first */
  if (scalar) {
    group_loop(T, "  JEACH(active) {\n    const uint32_t a_ = 1u;\n", 1);
  } else {
    group_loop(T, "  if (active == JL_FULL) JFOR {\n    const uint32_t a_ = 1u;\n", 0);
    group_loop(T, "  else JFOR {\n    const uint32_t a_ = (active >> l) & 1u;\n", 0);
  }
  for (uint32_t k = 0; k < T->ng[RG_PRED]; k++)
    if (T->gp[k] & 2) ws_sb_printf(b, "  R->p[%u] = B%u_;\n", k, k);
  ws_sb_puts(b, ws_sb_str(&T->gpost));
  if (T->gguards) ws_sb_puts(b, "  w->thread_insts += ti_;\n");
  ws_sb_puts(b, "  }\n");
  T->gopen = 0;
}

/* Add the lane operation just translated (T->ib, T->ipre, its touched
 * lists) to the open group, opening one (kind 1 vector, 2 scalar). */
static void group_add(tr *T, int kind) {
  if (!T->gopen) {
    T->gopen = kind;
    T->gguards = 0;
    ws_sb_free(&T->gpre);
    ws_sb_free(&T->gbody);
    ws_sb_free(&T->gpost);
    memset(T->gr, 0, T->f->nregs + 1);
    memset(T->gp, 0, T->ng[RG_PRED] + 1);
  }
  ws_sb_puts(&T->gpre, ws_sb_str(&T->ipre));
  ws_sb_puts(&T->gbody, ws_sb_str(&T->ib));
  ws_sb_puts(&T->gpost, ws_sb_str(&T->ipost));
  for (uint32_t i = 0; i < T->nilist; i++) T->gr[T->ilist[i] & 0x7fffffffu] |= (uint8_t)(1 | ((T->ilist[i] >> 31) << 1));
  for (uint32_t i = 0; i < T->niplist; i++) T->gp[T->iplist[i] & 0x7fffffffu] |= (uint8_t)(1 | ((T->iplist[i] >> 31) << 1));
  T->gguards += T->guarded;
}

static int tr_lane(tr *T, const ty *y);

static int tr_inst1(tr *T, uint32_t pc, uint32_t rpc) {
  const ws_ptx_inst *in = &T->f->insts[pc];
  T->in = in;
  T->pc = pc;
  T->guarded = in->guard >= 0;
  ty y;
  type_of(&y, in);
  if (T->guarded && ((uint32_t)in->guard >= T->f->nregs || !is_pred(T, (uint32_t)in->guard)))
    return refuse(T, "guard is not a predicate");
  if (lane_op(in)) {
    T->fused = 1;
    T->novec = 0;
    T->cur = &T->ib;
    ws_sb_free(&T->ib);
    ws_sb_free(&T->ipre);
    ws_sb_free(&T->ipost);
    T->close_after = 0;
    T->nilist = T->niplist = 0;
    E("    /* %u: line %u */\n", pc, in->line);
    char q[32];
    if (T->guarded)
      E("    { const uint32_t c_ = a_ & %s; ti_ += c_;\n", pread(T, (int)T->ri[in->guard].row, in->guard_not, q, sizeof q));
    else
      E("    { const uint32_t c_ = a_;\n");
    int st = tr_lane(T, &y);
    E("    }\n");
    T->fused = 0;
    T->cur = &T->b;
    if (st) return st;
    if (T->novec) { /* alone, lane by lane */
      flush_group(T);
      group_add(T, 2);
      flush_group(T);
    } else {
      group_add(T, 1);
      if (T->close_after) flush_group(T);
    }
    return T->ib.oom || T->ipre.oom || T->ipost.oom ? WS_ENOMEM : WS_OK;
  }
  flush_group(T);
  E("  /* %u: line %u */\n", pc, in->line);
  if (T->guarded) {
    E("  m = active & %sR->p[%u];\n  w->thread_insts += (uint64_t)jl_popc32(m);\n", in->guard_not ? "~" : "",
      T->ri[in->guard].row);
  } else {
    E("  m = active;\n");
  }
  int op = in->op, st;
  if (op == WS_PTX_OP_BRA) return tr_bra(T, rpc);
  if (op == WS_PTX_OP_BRX_IDX) return tr_brx(T, rpc);
  E(T->guarded ? "  if (m) {\n" : "  {\n");
  switch (op) {
  case WS_PTX_OP_ADD: case WS_PTX_OP_SUB: case WS_PTX_OP_MAD: case WS_PTX_OP_ADDC: case WS_PTX_OP_SUBC:
  case WS_PTX_OP_MADC: /* the carry forms */
    st = y.isint ? tr_int(T, &y) : refuse(T, NULL);
    break;
  case WS_PTX_OP_LD: case WS_PTX_OP_LDU: case WS_PTX_OP_ST: st = tr_ldst(T, &y); break;
  case WS_PTX_OP_ATOM: case WS_PTX_OP_RED: st = tr_atom(T, &y); break;
  case WS_PTX_OP_ALLOCA: case WS_PTX_OP_STACKRESTORE: st = tr_stack(T, &y); break;
  case WS_PTX_OP_BAR: case WS_PTX_OP_BARRIER: st = tr_bar(T); break;
  case WS_PTX_OP_EXIT: tr_exit(T, 1); st = WS_OK; break;
  case WS_PTX_OP_RET: tr_exit(T, T->f->is_entry); st = WS_OK; break;
  case WS_PTX_OP_TRAP:
    E("  return X->rt->fault(X, w, %d, (uint32_t)__builtin_ctz(m), %uu, %uu, 0, 0, 0, NULL);\n", WS_EMU_FAULT_TRAP,
      T->fi, pc);
    st = WS_OK;
    break;
  case WS_PTX_OP_CALL: st = tr_call(T); break;
  case WS_PTX_OP_SHFL: case WS_PTX_OP_VOTE: case WS_PTX_OP_MATCH: case WS_PTX_OP_REDUX: case WS_PTX_OP_ACTIVEMASK:
  case WS_PTX_OP_ELECT:
    st = tr_warp(T, &y);
    break;
  default:
    st = refuse(T, NULL);
    break;
  }
  E("  }\n");
  return st;
}

/* Instruction pc, then what it may have written forgotten. */
static int tr_inst(tr *T, uint32_t pc, uint32_t rpc) {
  int st = tr_inst1(T, pc, rpc);
  sa_after(T, &T->f->insts[pc]);
  return st;
}

/* A lane operation's code for lane l (T->fused). */
static int tr_lane(tr *T, const ty *yp) {
  const ws_ptx_inst *in = T->in;
  const ty *y = yp;
  int op = in->op, st;
  switch (op) {
  case WS_PTX_OP_ADD: case WS_PTX_OP_SUB: case WS_PTX_OP_MUL:
  case WS_PTX_OP_MAD: case WS_PTX_OP_FMA: case WS_PTX_OP_DIV: case WS_PTX_OP_ABS: case WS_PTX_OP_NEG:
  case WS_PTX_OP_MIN: case WS_PTX_OP_MAX:
    if ((op == WS_PTX_OP_MIN || op == WS_PTX_OP_MAX) && in->nops != 3) st = refuse(T, NULL);
    else if (y->isf32 || y->isf64) st = tr_float(T, y);
    else if (y->hk >= 0 && op != WS_PTX_OP_DIV) st = tr_half(T, y);
    else if (!y->isint || op == WS_PTX_OP_FMA) st = refuse(T, NULL);
    else st = tr_int(T, y);
    break;
  case WS_PTX_OP_MUL24: case WS_PTX_OP_MAD24: case WS_PTX_OP_SAD: case WS_PTX_OP_REM:
    st = y->isint ? tr_int(T, y) : refuse(T, NULL);
    break;
  case WS_PTX_OP_COPYSIGN: case WS_PTX_OP_TESTP: case WS_PTX_OP_RCP: case WS_PTX_OP_SQRT: case WS_PTX_OP_RSQRT:
  case WS_PTX_OP_SIN: case WS_PTX_OP_COS: case WS_PTX_OP_LG2: case WS_PTX_OP_EX2: case WS_PTX_OP_TANH:
    st = y->isf32 || y->isf64 ? tr_float(T, y) : refuse(T, NULL);
    break;
  case WS_PTX_OP_DP4A: case WS_PTX_OP_DP2A: st = tr_dp(T, y); break;
  case WS_PTX_OP_AND: case WS_PTX_OP_OR: case WS_PTX_OP_XOR: case WS_PTX_OP_NOT: case WS_PTX_OP_CNOT:
  case WS_PTX_OP_LOP3: case WS_PTX_OP_SHL: case WS_PTX_OP_SHR: case WS_PTX_OP_SHF: case WS_PTX_OP_POPC:
  case WS_PTX_OP_CLZ: case WS_PTX_OP_BREV: case WS_PTX_OP_BFIND: case WS_PTX_OP_BFE: case WS_PTX_OP_BFI:
  case WS_PTX_OP_PRMT: case WS_PTX_OP_FNS: case WS_PTX_OP_BMSK: case WS_PTX_OP_SZEXT:
    st = tr_bits(T, y);
    break;
  case WS_PTX_OP_SETP: case WS_PTX_OP_SET: st = tr_setp(T, y); break;
  case WS_PTX_OP_SELP: case WS_PTX_OP_SLCT: st = tr_sel(T, y); break;
  case WS_PTX_OP_MOV: case WS_PTX_OP_CREATEPOLICY: st = tr_mov(T, y); break;
  case WS_PTX_OP_CVT: st = tr_cvt(T, y); break;
  case WS_PTX_OP_CVTA: case WS_PTX_OP_ISSPACEP: st = tr_space(T, y); break;
  case WS_PTX_OP_STACKSAVE: st = tr_stack(T, y); break;
  default:
    st = WS_OK; /* prefetch, membar, fence, bar.warp.sync, ...: no effect in the emulator */
    break;
  }
  return st;
}

/* The decoded opcodes (dops.def's D rows) the translator handles: every
 * instruction of a translated kernel must decode to one of them.  The
 * others run in the interpreter only, by rule rather than by omission: the
 * device-side launch calls (CDP_*), the ASYNC, MBAR, MMA and TEX families,
 * and any row dops.def gains later until it is added here with its
 * translation and a case in tests/cli/jit_exact.sh.  LD_SPIN is here: it is
 * a spin point only in a cooperative launch (ops/mem.h), which never runs
 * translated (the CUDA runtime's coop_engine, ws_emu_run's cooperative
 * path); anywhere else it is a plain load, as translated (the `spin`
 * program of jit_exact.sh compares it).  F32_ABS_B, F32_NEG_B, F32_FMA_DIR
 * and CVT_F32_SAT are the interpreter's host forms of abs/neg.f32 without
 * .ftz, fma.rz/rm/rp.f32 and cvt.sat.f32.f32, num.c's results
 * (test_emu_hostnum), which the translator computes from the IR as for the
 * other forms (the numerics kernels of jit_exact.sh compare them). */
#define JIT_DOPS(X)                                                                                               \
  X(NOP) X(BRA) X(BRX) X(EXIT) X(RET) X(CALL) X(CALLI) X(VPRINTF) X(ASSERTFAIL) X(BAR) X(TRAP) X(ALLOCA)          \
  X(STACKSAVE) X(STACKRESTORE) X(MOV_LOCALSYM) X(MOV) X(MOV_PRED) X(MOV_SREG) X(MOV_PACK) X(MOV_UNPACK) X(ADD)    \
  X(SUB) X(MUL_LO) X(MUL_HI) X(MUL_WIDE) X(ADD_SAT) X(SUB_SAT) X(ADDC) X(SUBC) X(MAD_LO) X(MAD_HI) X(MAD_WIDE)    \
  X(MADC) X(MUL24) X(MAD24) X(SAD) X(DIV) X(REM) X(MIN) X(MAX) X(ABS) X(NEG) X(DP4A) X(DP2A) X(AND) X(OR) X(XOR)  \
  X(NOT) X(CNOT) X(SHL) X(SHR) X(POPC) X(CLZ) X(BREV) X(BFIND) X(BFE) X(BFI) X(PRMT) X(SHF) X(LOP3) X(FNS)        \
  X(BMSK) X(SZEXT) X(F32_ADD) X(F32_SUB) X(F32_MUL) X(F32_FMA) X(F32_DIV_RN) X(F32_SQRT_RN) X(F32_RCP_RN)         \
  X(F32_ADD_X) X(F32_SUB_X) X(F32_MUL_X) X(F32_FMA_X) X(F32_FMA_DIR) X(F32_DIV) X(F32_DIV_APPROX) X(F32_DIV_FULL) \
  X(F32_RCP) X(F32_RCP_APPROX) X(F32_SQRT) X(F32_SQRT_APPROX) X(F32_RSQRT) X(F32_SIN) X(F32_COS) X(F32_EX2)       \
  X(F32_LG2) X(F32_TANH) X(F32_MIN) X(F32_MAX) X(F32_ABS) X(F32_NEG) X(F32_ABS_B) X(F32_NEG_B) X(F32_COPYSIGN)    \
  X(F64_ADD) X(F64_SUB) X(F64_MUL) X(F64_FMA) X(F64_DIV_RN) X(F64_SQRT_RN) X(F64_RCP_RN) X(F64_ADD_X)             \
  X(F64_SUB_X) X(F64_MUL_X) X(F64_FMA_X) X(F64_DIV) X(F64_RCP) X(F64_RCP_APPROX) X(F64_SQRT) X(F64_RSQRT)         \
  X(F64_MIN) X(F64_MAX) X(F64_ABS) X(F64_NEG) X(F64_COPYSIGN) X(H_ADD) X(H_SUB) X(H_MUL) X(H_FMA) X(H_NEG)        \
  X(H_ABS) X(H_MIN) X(H_MAX) X(SETP) X(SET) X(SELP) X(SLCT) X(PAND) X(POR) X(PXOR) X(PNOT) X(F32_TESTP)           \
  X(F64_TESTP) X(CVT_INT) X(CVT) X(CVT_PACK) X(CVT_F32_SAT) X(CVTA_TO) X(CVTA_FROM) X(ISSPACEP) X(LD) X(ST)       \
  X(LD_KPARAM) X(LD_G) X(ST_G) X(LD_S) X(ST_S) X(LD_SPIN) X(ATOM) X(RED) X(SHFL) X(VOTE) X(MATCH) X(REDUX)        \
  X(ACTIVEMASK) X(ELECT)

#define JIT_DOP_YES(x) [D_##x] = 1,
static const uint8_t jit_dop_ok[D_COUNT] = {JIT_DOPS(JIT_DOP_YES)};
#undef JIT_DOP_YES

static const char *const dop_name[D_COUNT] = {
#define D(x, family, ptx, form) [D_##x] = #x,
#include "emu/dops.def"
};

int ws_emu_jit_dop_translated(int op) { return op >= 0 && op < D_COUNT && jit_dop_ok[op]; }

int ws_emu_jit_gated(const ws_emu_program *p) {
  for (uint32_t fi = 0; fi < p->nfuncs; fi++)
    for (uint32_t pc = 0; pc < p->funcs[fi].f->ninsts && pc < p->funcs[fi].ncode; pc++)
      if (!ws_emu_jit_dop_translated((int)p->funcs[fi].code[pc].op)) return 1;
  return 0;
}

/* The gate: the first instruction of function fi whose decoded opcode the
 * translator leaves to the interpreter, refused with its name and line. */
static int gate_func(tr *T, uint32_t fi) {
  const dfunc *df = &T->P->funcs[fi];
  for (uint32_t pc = 0; pc < df->f->ninsts && pc < df->ncode; pc++) {
    int op = (int)df->code[pc].op;
    if (ws_emu_jit_dop_translated(op)) continue;
    char why[96];
    snprintf(why, sizeof why, "decoded as %s, which runs in the interpreter only",
             op >= 0 && op < D_COUNT && dop_name[op] ? dop_name[op] : "?");
    T->f = df->f;
    T->in = &df->f->insts[pc];
    return refuse(T, why);
  }
  return WS_OK;
}

static int refuse_func(tr *T, const char *why) {
  ws_diag_add(T->d, WS_SEV_ERROR, T->m->path, (int)T->f->line, 0, "the translated engine does not handle %s (in %s)",
              why, T->f->name);
  return WS_EUNSUP;
}

/* Registers that some path reads before it writes them (a per-thread
 * "definitely assigned" analysis: an unguarded write defines the register
 * for every lane that runs it, a guarded one defines nothing), and the
 * sources of shfl, which reads other lanes: these are zeroed when a frame
 * is pushed, as the interpreter zeroes every register; the others are
 * always written first, so their stale lanes are never read. */
static int zero_regs(tr *T, uint8_t *zero) {
  const ws_cfg *c = T->cfg;
  const ws_ptx_function *f = T->f;
  uint32_t nb = c->nblocks, nr = f->nregs;
  size_t W = (nr + 63) / 64 + 1;
  uint64_t *in = calloc((size_t)nb * W + 1, 8), *out = calloc((size_t)nb * W + 1, 8);
  uint64_t *gen = calloc((size_t)nb * W + 1, 8), *cur = calloc(W, 8);
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu, st = WS_OK;
  if (!in || !out || !gen || !cur) {
    st = WS_ENOMEM;
    goto done;
  }
  for (uint32_t b = 0; b < nb; b++) {
    uint64_t *g = gen + (size_t)b * W;
    for (uint32_t i = c->blocks[b].first; i < c->blocks[b].end; i++) {
      if (ws_analysis_inst_regs(f, &f->insts[i], defs, &nd, uses, &nu)) {
        T->in = &f->insts[i];
        st = refuse(T, "more registers than the analysis lists");
        goto done;
      }
      if (f->insts[i].guard < 0)
        for (int k = 0; k < nd; k++) g[defs[k] / 64] |= 1ull << (defs[k] % 64);
    }
    memset(out + (size_t)b * W, 0xff, W * 8);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t b = 0; b < nb; b++) {
      uint64_t *ib = in + (size_t)b * W, *ob = out + (size_t)b * W, *g = gen + (size_t)b * W;
      if (b == 0) memset(ib, 0, W * 8);
      else memset(ib, 0xff, W * 8);
      for (uint32_t e = 0; b != 0 && e < c->blocks[b].npred; e++) {
        const uint64_t *op = out + (size_t)c->blocks[b].pred[e] * W;
        for (size_t k = 0; k < W; k++) ib[k] &= op[k];
      }
      for (size_t k = 0; k < W; k++) {
        uint64_t v = ib[k] | g[k];
        if (v != ob[k]) ob[k] = v, changed = 1;
      }
    }
  }
  for (uint32_t b = 0; b < nb; b++) {
    if (!c->blocks[b].reachable) continue;
    memcpy(cur, in + (size_t)b * W, W * 8);
    for (uint32_t i = c->blocks[b].first; i < c->blocks[b].end; i++) {
      const ws_ptx_inst *x = &f->insts[i];
      ws_analysis_inst_regs(f, x, defs, &nd, uses, &nu);
      for (int k = 0; k < nu; k++)
        if (!((cur[uses[k] / 64] >> (uses[k] % 64)) & 1)) zero[uses[k]] = 1;
      if (x->guard < 0)
        for (int k = 0; k < nd; k++) cur[defs[k] / 64] |= 1ull << (defs[k] % 64);
      if (x->op == WS_PTX_OP_SHFL)
        for (int k = 0; k < x->nops; k++)
          if (x->ops[k].kind == WS_PTX_O_REG && !(x->ops[k].flags & WS_PTX_OF_PIPE) && k > 0 &&
              !is_pred(T, x->ops[k].reg))
            zero[x->ops[k].reg] = 1;
    }
  }
done:
  free(in);
  free(out);
  free(gen);
  free(cur);
  return st;
}

/* Translate function fi of the program into T->o. */
static int tr_func(tr *T, uint32_t fi) {
  const ws_ptx_function *f = T->P->funcs[fi].f;
  T->fi = fi;
  T->df = &T->P->funcs[fi];
  T->f = f;
  T->cfg = NULL;
  T->ri = calloc(f->nregs + 1, sizeof *T->ri);
  uint8_t *zero = calloc(f->nregs + 1, 1);
  T->label = calloc(f->ninsts + 2, 1);
  T->seg_end = calloc(f->ninsts + 2, sizeof *T->seg_end);
  uint32_t *rpcs = calloc(f->ninsts + 1, sizeof *rpcs);
  ws_sb_free(&T->data);
  ws_sb_free(&T->b);
  int st = WS_ENOMEM;
  if (!T->ri || !zero || !T->label || !T->seg_end || !rpcs) goto done;
  if ((st = ws_analysis_build(&T->cfg, T->m, f, T->d))) goto done;
  memset(T->ng, 0, sizeof T->ng);
  for (uint32_t r = 0; r < f->nregs; r++) {
    int bits = tbits(f->regs[r].type);
    if (f->regs[r].type == WS_PTX_T_PRED) {
      T->ri[r].group = RG_PRED;
      T->ri[r].row = T->ng[RG_PRED]++;
    } else if (f->regs[r].vec > 1 || bits > 64) {
      st = refuse_func(T, "vector or 128-bit registers");
      goto done;
    }
  }
  if ((st = zero_regs(T, zero))) goto done;
  T->gr = calloc(f->nregs + 1, 1);
  T->gp = calloc(T->ng[RG_PRED] + 1, 1);
  T->sa_slot = calloc(f->nregs + 1, sizeof *T->sa_slot);
  T->sa_n = calloc(f->nregs + 1, sizeof *T->sa_n);
  T->nsa = 0;
  T->gopen = 0;
  T->npf = 0;
  T->ngs = 0;
  T->cur = &T->b;
  if (!T->gr || !T->gp || !T->sa_slot || !T->sa_n) {
    st = WS_ENOMEM;
    goto done;
  }
  for (uint32_t r = 0; r < f->nregs; r++) {
    if (f->regs[r].type == WS_PTX_T_PRED) continue;
    int wide = tbits(f->regs[r].type) > 32;
    int g = zero[r] ? (wide ? RG_Z64 : RG_Z32) : (wide ? RG_R64 : RG_R32);
    T->ri[r].group = (uint8_t)g;
    T->ri[r].row = T->ng[g]++;
  }
  /* labels: where a warp can resume or the reconvergence check is due */
  T->label[0] = T->label[f->ninsts] = 1;
  for (uint32_t b = 0; b < T->cfg->nblocks; b++)
    if (T->cfg->blocks[b].first <= f->ninsts) T->label[T->cfg->blocks[b].first] = 1;
  for (uint32_t i = 0; i < f->ninsts; i++) {
    const ws_ptx_inst *in = &f->insts[i];
    switch (in->op) {
    case WS_PTX_OP_BRA: case WS_PTX_OP_BRX_IDX:
      rpcs[i] = ws_analysis_cfg_reconverge_inst(T->cfg, i);
      if (rpcs[i] <= f->ninsts) T->label[rpcs[i]] = 1;
      if (in->op == WS_PTX_OP_BRA && in->ops[0].kind == WS_PTX_O_LABEL && (uint64_t)in->ops[0].imm <= f->ninsts)
        T->label[in->ops[0].imm] = 1;
      if (in->op == WS_PTX_OP_BRX_IDX && in->ops[1].kind == WS_PTX_O_SYM && in->ops[1].symkind == WS_PTX_S_BTABLE &&
          in->ops[1].reg < f->nbtables) {
        const ws_ptx_btable *bt = &f->btables[in->ops[1].reg];
        for (uint32_t k = 0; k < bt->ntargets; k++) T->label[f->labels[bt->labels[k]].inst] = 1;
      }
      T->label[i + 1] = 1;
      break;
    case WS_PTX_OP_CALL:
      T->label[i] = 1;
      /* fall through */
    case WS_PTX_OP_EXIT: case WS_PTX_OP_RET: case WS_PTX_OP_BAR: case WS_PTX_OP_BARRIER: case WS_PTX_OP_TRAP:
      T->label[i + 1] = 1;
      break;
    default:
      break;
    }
  }
  T->seg_end[f->ninsts] = f->ninsts;
  for (uint32_t i = f->ninsts; i-- > 0;) T->seg_end[i] = T->label[i + 1] ? i : T->seg_end[i + 1];
  /* the body */
  for (uint32_t pc = 0; pc <= f->ninsts; pc++) {
    if (T->label[pc]) {
      flush_group(T);
      sa_forget_all(T);
      uint32_t n = T->seg_end[pc] - pc + 1, un = 0;
      for (uint32_t i = pc; i <= T->seg_end[pc]; i++) un += i == f->ninsts || f->insts[i].guard < 0;
      E("L%u:\n  if (JL_UNLIKELY(rpc == %uu)) { top->pc = %uu; goto reload_; }\n  w->insts += %uu;", pc, pc, pc, n);
      if (un) E(" w->thread_insts += %uu * (uint64_t)jl_popc32(active);", un);
      E("\n");
      T->seg_last = T->seg_end[pc];
    }
    if (pc == f->ninsts) { /* the implicit exit or ret after the last instruction */
      flush_group(T);
      E("  m = active;\n");
      tr_exit(T, f->is_entry);
      E("  goto reload_;\n");
      break;
    }
    if ((st = tr_inst(T, pc, rpcs[pc]))) goto done;
  }
  /* the registers, the static data, the function */
  ws_strbuf *o = T->o;
  ws_sb_printf(o, "\n/* %s */\nstruct jr_%u {\n  uint32_t p[%u];\n", f->name, fi, T->ng[RG_PRED] + 1);
  ws_sb_printf(o, "  uint32_t z32[%u][32] __attribute__((aligned(64)));\n", T->ng[RG_Z32] + 1);
  ws_sb_printf(o, "  uint64_t z64[%u][32] __attribute__((aligned(64)));\n", T->ng[RG_Z64] + 1);
  ws_sb_printf(o, "  jit_gsite gs[%u]; /* each global load site's object (zeroed: none) */\n", T->ngs + 1);
  ws_sb_printf(o, "  uint32_t r32[%u][32] __attribute__((aligned(64)));\n", T->ng[RG_R32] + 1);
  ws_sb_printf(o, "  uint64_t r64[%u][32] __attribute__((aligned(64)));\n", T->ng[RG_R64] + 1);
  ws_sb_printf(o, "  uint64_t pf[%u]; /* each global load's last address (prefetching) */\n};\n", T->npf + 1);
  ws_sb_puts(o, ws_sb_str(&T->data));
  ws_sb_printf(o,
               "static int jf_%u(jit_ctx *X, jit_warp *w) {\n"
               "  const uint32_t depth_ = w->nframes;\n"
               "  struct jr_%u *const R = (struct jr_%u *)(void *)(w->regmem + w->frames[depth_ - 1].reg_off);\n"
               "  const uint64_t lbase_ = w->frames[depth_ - 1].local_base;\n"
               "  jit_entry *top;\n  uint32_t active, rpc, m;\n  (void)lbase_;\n"
               "  uint32_t samn_[%u], samx_[%u], saor_[%u], sak_[%u]; /* shared-address analyses */\n"
               "  (void)samn_; (void)samx_; (void)saor_; (void)sak_;\n  goto dispatch_;\n"
               "reload_:\n  if (!X->rt->settle(X, w)) return JR_DONE;\n"
               "  if (w->nframes != depth_) return JR_RELOAD;\n"
               "dispatch_:\n  top = &w->stk[w->sp - 1];\n  active = top->mask;\n  rpc = top->rpc;\n"
               "  switch (top->pc) {\n",
               fi, fi, fi, T->nsa + 1, T->nsa + 1, T->nsa + 1, T->nsa + 1);
  for (uint32_t pc = 0; pc <= f->ninsts; pc++)
    if (T->label[pc]) ws_sb_printf(o, "  case %uu: goto L%u;\n", pc, pc);
  ws_sb_printf(o,
               "  default: return X->rt->fault(X, w, %d, 0, %uu, top->pc, 0, 0, 0, "
               "\"internal error: the translated code cannot resume at this instruction\");\n  }\n",
               WS_EMU_FAULT_OTHER, fi);
  ws_sb_puts(o, ws_sb_str(&T->b));
  ws_sb_puts(o, "}\n");
  st = T->b.oom || T->data.oom ? WS_ENOMEM : WS_OK;
done:
  ws_analysis_free(T->cfg);
  T->cfg = NULL;
  free(T->gr);
  free(T->gp);
  T->gr = T->gp = NULL;
  free(T->sa_slot);
  free(T->sa_n);
  T->sa_slot = T->sa_n = NULL;
  free(T->ri);
  free(zero);
  free(T->label);
  free(T->seg_end);
  free(rpcs);
  T->ri = NULL;
  T->label = NULL;
  T->seg_end = NULL;
  return st;
}

extern const char ws_emu_jit_text_num_h[], ws_emu_jit_text_abi_h[], ws_emu_jit_text_lane_h[];

int ws_emu_jit_translate(ws_strbuf *out, const ws_emu_program *p, ws_diag *d) {
  tr T;
  memset(&T, 0, sizeof T);
  T.P = p;
  T.m = p->m;
  T.d = d;
  T.o = out;
  ws_sb_printf(out, "/* generated by warpsight's translated engine (translator %d, ABI %d): kernel %s */\n",
               WS_JIT_TRANSLATOR_VERSION, WS_JIT_ABI_VERSION, p->funcs[0].f->name);
  ws_sb_puts(out, "#define WS_JIT_GENERATED 1\n#include <math.h>\n#include <stddef.h>\n");
  ws_sb_puts(out, ws_emu_jit_text_num_h);
  ws_sb_puts(out, ws_emu_jit_text_abi_h);
  ws_sb_puts(out, ws_emu_jit_text_lane_h);
  int st = WS_OK;
  for (uint32_t fi = 0; fi < p->nfuncs && !st; fi++) st = gate_func(&T, fi); /* before any work */
  for (uint32_t fi = 0; fi < p->nfuncs && !st; fi++) st = tr_func(&T, fi);
  if (!st) {
    ws_sb_puts(out, "\nstatic const jit_func jit_funcs_[] = {\n");
    for (uint32_t fi = 0; fi < p->nfuncs; fi++)
      ws_sb_printf(out, "  {jf_%u, (uint32_t)sizeof(struct jr_%u), (uint32_t)offsetof(struct jr_%u, r32)},\n", fi, fi,
                   fi);
    ws_sb_printf(out, "};\n#define JIT_NFUNCS %uu\n", p->nfuncs);
  }
  ws_sb_free(&T.data);
  ws_sb_free(&T.b);
  ws_sb_free(&T.ib);
  ws_sb_free(&T.ipre);
  ws_sb_free(&T.gpre);
  ws_sb_free(&T.gbody);
  ws_sb_free(&T.gpost);
  ws_sb_free(&T.ipost);
  free(T.ilist);
  free(T.iplist);
  if (!st && out->oom) st = WS_ENOMEM;
  return st;
}
