/*
 * classes.c — instruction classes (classes.def) and which registers an
 * instruction reads and writes.
 */
#include "warpsight/analysis.h"

static const char *const class_names[] = {
#define CLASS(id, name, desc) name,
#include "warpsight/analysis/classes.def"
#undef CLASS
};

const char *ws_analysis_class_name(ws_iclass c) {
  return (unsigned)c < WS_IC_COUNT ? class_names[c] : "?";
}

static ws_iclass by_type(ws_ptx_type t) {
  if (t == WS_PTX_T_F32) return WS_IC_FP32;
  if (t == WS_PTX_T_F64) return WS_IC_FP64;
  if (ws_ptx_type_kind(t) == WS_PTX_TK_H) return WS_IC_FP16;
  return WS_IC_INT;
}

static ws_iclass load_class(ws_ptx_space s) {
  switch (s) {
  case WS_PTX_SP_GLOBAL: return WS_IC_LD_GLOBAL;
  case WS_PTX_SP_LOCAL: return WS_IC_LD_LOCAL;
  case WS_PTX_SP_SHARED: return WS_IC_LD_SHARED;
  case WS_PTX_SP_CONST: return WS_IC_LD_CONST;
  case WS_PTX_SP_PARAM: return WS_IC_LD_PARAM;
  case WS_PTX_SP_TEX: return WS_IC_LD_TEX;
  default: return WS_IC_LD_GENERIC;
  }
}

static ws_iclass store_class(ws_ptx_space s) {
  switch (s) {
  case WS_PTX_SP_GLOBAL: return WS_IC_ST_GLOBAL;
  case WS_PTX_SP_LOCAL: return WS_IC_ST_LOCAL;
  case WS_PTX_SP_SHARED: return WS_IC_ST_SHARED;
  case WS_PTX_SP_PARAM: return WS_IC_ST_PARAM;
  default: return WS_IC_ST_GENERIC;
  }
}

ws_iclass ws_analysis_opcode_class(ws_ptx_opcode op, ws_ptx_type type, ws_ptx_space space) {
  switch (ws_ptx_opcode_kind(op)) {
  case WS_PTX_K_ARITH:
  case WS_PTX_K_COMPARE: return by_type(type);
  case WS_PTX_K_LOGIC: return WS_IC_INT;
  case WS_PTX_K_SFU: return type == WS_PTX_T_F64 ? WS_IC_FP64 : WS_IC_SFU;
  case WS_PTX_K_MOVE:
  case WS_PTX_K_CONVERT: return WS_IC_CONV;
  case WS_PTX_K_LOAD: return load_class(space);
  case WS_PTX_K_STORE: return store_class(space);
  case WS_PTX_K_PREFETCH: return WS_IC_OTHER;
  case WS_PTX_K_ASYNC_COPY:
    return op == WS_PTX_OP_CP_ASYNC || op == WS_PTX_OP_CP_ASYNC_BULK ? WS_IC_LD_GLOBAL : WS_IC_FENCE;
  case WS_PTX_K_ATOMIC: return WS_IC_ATOMIC;
  case WS_PTX_K_REDUCTION: return WS_IC_REDUCTION;
  case WS_PTX_K_TEXTURE:
  case WS_PTX_K_SURF_LOAD: return WS_IC_LD_TEX;
  case WS_PTX_K_SURF_STORE: return WS_IC_ST_SURF;
  case WS_PTX_K_BARRIER: return WS_IC_BARRIER;
  case WS_PTX_K_WARP_SYNC:
  case WS_PTX_K_WARP: return WS_IC_WARP;
  case WS_PTX_K_FENCE: return WS_IC_FENCE;
  case WS_PTX_K_BRANCH: return WS_IC_BRANCH;
  case WS_PTX_K_CALL: return WS_IC_CALL;
  case WS_PTX_K_RETURN: return WS_IC_RET;
  case WS_PTX_K_EXIT: return WS_IC_EXIT;
  case WS_PTX_K_MMA: return WS_IC_TENSOR;
  case WS_PTX_K_MBARRIER: return WS_IC_BARRIER;
  case WS_PTX_K_MISC: return WS_IC_OTHER;
  }
  return WS_IC_OTHER;
}

ws_iclass ws_analysis_class(const ws_ptx_inst *in) {
  ws_ptx_kind k = ws_ptx_opcode_kind((ws_ptx_opcode)in->op);
  if (k == WS_PTX_K_MOVE && in->op == WS_PTX_OP_MOV && in->nops >= 2 &&
      in->ops[1].kind == WS_PTX_O_SREG)
    return WS_IC_SREG;
  /* compares classify by the source type (set.lt.u32.f32 compares f32) */
  ws_ptx_type t = in->ntypes ? (ws_ptx_type)in->type[in->ntypes - 1] : WS_PTX_T_NONE;
  if (k == WS_PTX_K_ARITH || k == WS_PTX_K_SFU) t = in->ntypes ? (ws_ptx_type)in->type[0] : t;
  ws_ptx_space sp = (ws_ptx_space)in->space;
  /* cvta.to.global etc. keep their class; ld.param::entry is param */
  return ws_analysis_opcode_class((ws_ptx_opcode)in->op, t, sp);
}

int ws_analysis_is_mem_request(ws_iclass c) {
  switch (c) {
  case WS_IC_LD_GLOBAL: case WS_IC_ST_GLOBAL: case WS_IC_LD_LOCAL: case WS_IC_ST_LOCAL:
  case WS_IC_LD_GENERIC: case WS_IC_ST_GENERIC: case WS_IC_LD_TEX: case WS_IC_ST_SURF:
  case WS_IC_ATOMIC: case WS_IC_REDUCTION:
    return 1;
  default:
    return 0;
  }
}

int ws_analysis_is_mem_load(ws_iclass c) {
  return c == WS_IC_LD_GLOBAL || c == WS_IC_LD_LOCAL || c == WS_IC_LD_GENERIC ||
         c == WS_IC_LD_TEX || c == WS_IC_ATOMIC;
}

/* Does the instruction write its first operand? */
static int writes_first(const ws_ptx_inst *in) {
  switch (ws_ptx_opcode_kind((ws_ptx_opcode)in->op)) {
  case WS_PTX_K_STORE: case WS_PTX_K_REDUCTION: case WS_PTX_K_PREFETCH:
  case WS_PTX_K_ASYNC_COPY: case WS_PTX_K_SURF_STORE: case WS_PTX_K_WARP_SYNC:
  case WS_PTX_K_FENCE: case WS_PTX_K_BRANCH: case WS_PTX_K_CALL: case WS_PTX_K_RETURN:
  case WS_PTX_K_EXIT: case WS_PTX_K_MISC:
    return 0;
  case WS_PTX_K_BARRIER:
    return ws_ptx_inst_has(in, WS_PTX_MOD_RED); /* bar.red.popc.u32 d, ... */
  case WS_PTX_K_MBARRIER: /* mbarrier.init/inval/expect_tx/complete_tx [a], ... write memory only */
    return in->nops > 0 && in->ops[0].kind != WS_PTX_O_ADDR;
  case WS_PTX_K_MOVE:
    return in->op != WS_PTX_OP_STACKRESTORE;
  default:
    return 1;
  }
}

/* Appends r, or counts it in *dropped when the array is full. */
static void add(uint32_t *a, int *n, uint32_t r, int *dropped) {
  if (*n < WS_ANALYSIS_MAX_REGS) a[(*n)++] = r;
  else (*dropped)++;
}

static void reads_of(const ws_ptx_function *f, const ws_ptx_operand *o, uint32_t *uses,
                     int *nuses, int depth, int *dropped) {
  switch (o->kind) {
  case WS_PTX_O_REG: add(uses, nuses, o->reg, dropped); break;
  case WS_PTX_O_ADDR:
    if (o->symkind == WS_PTX_S_NONE) add(uses, nuses, o->reg, dropped);
    break;
  case WS_PTX_O_VEC: case WS_PTX_O_LIST: case WS_PTX_O_TEXADDR:
    if (depth < 3)
      for (uint32_t i = 0; i < o->comp && o->reg + i < f->nextra; i++)
        reads_of(f, &f->extra[o->reg + i], uses, nuses, depth + 1, dropped);
    break;
  default: break;
  }
}

int ws_analysis_inst_regs(const ws_ptx_function *f, const ws_ptx_inst *in, uint32_t *defs,
                          int *ndefs, uint32_t *uses, int *nuses) {
  int dropped = 0;
  *ndefs = *nuses = 0;
  if (in->guard >= 0) add(uses, nuses, (uint32_t)in->guard, &dropped);
  int k0 = 0;
  if (in->nops > 0 && writes_first(in)) {
    const ws_ptx_operand *d = &in->ops[0];
    if (d->kind == WS_PTX_O_REG) {
      add(defs, ndefs, d->reg, &dropped);
    } else if (d->kind == WS_PTX_O_VEC) {
      for (uint32_t i = 0; i < d->comp && d->reg + i < f->nextra; i++)
        if (f->extra[d->reg + i].kind == WS_PTX_O_REG) add(defs, ndefs, f->extra[d->reg + i].reg, &dropped);
    } else {
      reads_of(f, d, uses, nuses, 0, &dropped);
    }
    k0 = 1;
    if (in->nops > 1 && (in->ops[1].flags & WS_PTX_OF_PIPE) && in->ops[1].kind == WS_PTX_O_REG) {
      add(defs, ndefs, in->ops[1].reg, &dropped);
      k0 = 2;
    }
  }
  for (int k = k0; k < in->nops; k++) reads_of(f, &in->ops[k], uses, nuses, 0, &dropped);
  return dropped;
}
