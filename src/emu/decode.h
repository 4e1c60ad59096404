/*
 * decode.h — the decoders' toolkit: the decoding context and the helpers
 * (decode.c) with which the decoders of ops/ turn one IR instruction into
 * one dinst: its dense opcode, operand slots and sub-operation.
 *
 * Before an opcode's decoder runs, ws_emu_dec_inst has filled the fields
 * every form shares: width (bits, wmask) and sign of the first type,
 * rounding, .ftz, .sat, and NO_SLOT in every operand.  A decoder returns
 * WS_OK, or the status of the diagnostic it added (an instruction form the
 * emulator does not implement: REFUSE() or UNSUP("why")).
 */
#ifndef WS_EMU_DECODE_H
#define WS_EMU_DECODE_H

#include "emu/emu_int.h"
#include "warpsight/analysis.h"

/* Decoding state of one program (load.c drives it). */
typedef struct dec {
  ws_emu_program *P;          /* the program being built */
  const ws_ptx_module *m;     /* its module */
  ws_diag *d;                 /* where refusals go */
  dfunc *df;                  /* function being decoded */
  const ws_ptx_function *f;   /* its IR */
  const ws_cfg *cfg;          /* its CFG (member masks: ws_emu_full_mask) */
  uint64_t *consts;           /* constant slot values being collected */
  uint32_t nconsts;           /* entries used */
  size_t cconsts;             /* entries allocated */
  uint32_t *vs;               /* vector slots being collected */
  uint32_t nvs;               /* entries used */
  size_t cvs;                 /* entries allocated */
  uint32_t scratch;           /* sink slot */
  int *queue;                 /* module function indices to decode */
  int nqueue;                 /* entries */
  uint32_t cur_mf;            /* module index of the function being decoded */
  int ninit_funcs;            /* functions named by variable initialisers */
  int *init_q;                /* kernel + functions named by initialisers */
} dec;

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


/* A decoder: fills di for one PTX opcode (dops.def names it). */
typedef int dec_fn(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T);
#define DECODER(name) static int dec_##name(dec *D, const ws_ptx_inst *in, dinst *di, const optype *T)

/* ---- decode.c ---------------------------------------------------------------- */

/* Member-mask operand o of shfl, vote or match: DF_FULLMASK on di where
 * ws_emu_full_mask holds, with a warning naming the instruction when the
 * mask is the constant 0 (run as under a full mask). */
void ws_emu_dec_member_mask(dec *D, const ws_ptx_inst *in, dinst *di, const ws_ptx_operand *o);
/* Decode one instruction: the shared fields, then its opcode's decoder. */
int ws_emu_dec_inst(dec *D, const ws_ptx_inst *in, dinst *di);
/* Refuse the instruction, naming it, its place and why (NULL: no reason). */
int ws_emu_dec_unsup(dec *D, const ws_ptx_inst *in, const char *why);
/* The constant slot holding v (broadcast to every lane). */
int ws_emu_dec_const(dec *D, uint64_t v, uint32_t *out);
/* A source operand of type t as a slot (registers, immediates, addresses
 * of variables). */
int ws_emu_dec_src(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, uint32_t *out);
/* A destination register (or `_`, the scratch slot). */
int ws_emu_dec_dst(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out);
/* A predicate operand as a predicate index (`_`: NO_SLOT). */
int ws_emu_dec_pred(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, uint32_t *out);
/* Appends slot s to the function's vector slots. */
int ws_emu_dec_push_vs(dec *D, uint32_t s);
/* A vector operand {a, b, ...} (or a scalar) into vector slots: di->vbase,
 * di->vec. */
int ws_emu_dec_vec(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, int t, int is_dst, dinst *di);
/* The MS_* space of a memory instruction (addr: its address operand). */
int ws_emu_dec_space(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *addr, int *ms);
/* [base+imm] into di->a (slot), di->imm, di->frel and di->a32 (di->space
 * must be set). */
int ws_emu_dec_address(dec *D, const ws_ptx_inst *in, const ws_ptx_operand *o, dinst *di);
/* Queues module function mf for decoding; *out its decoded index. */
int ws_emu_dec_queue_func(dec *D, uint32_t mf, uint32_t *out);

/* ---- exec.c (generated from dops.def) --------------------------------------- */

/* The decoder of PTX opcode op, or NULL when the emulator refuses it. */
dec_fn *ws_emu_decoder(ws_ptx_opcode op);

/* ---- small facts of types and registers --------------------------------------- */

static inline int tbits(int t) { return ws_ptx_type_bits((ws_ptx_type)t); }
static inline int tkind(int t) { return ws_ptx_type_kind((ws_ptx_type)t); }
static inline uint64_t wmask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static inline int is_pred_reg(const dec *D, uint32_t r) { return D->f->regs[r].type == WS_PTX_T_PRED; }
/* Width of register r's slot (predicates and 1-bit types count as 8). */
static inline int reg_bits(const dec *D, uint32_t r) {
  int b = tbits(D->f->regs[r].type);
  return b < 8 ? 8 : b;
}

/* ---- the decoders' shorthand (D, in, di and a local type t in scope) ----------- */

#define TRY(call) do { int st_ = (call); if (st_) return st_; } while (0)
/* operand i as source slot di->s of type t, as the destination, as
 * predicate di->f; constant v into slot di->f */
#define SRC(i, s) TRY(ws_emu_dec_src(D, in, &in->ops[i], t, &di->s))
#define DST(i) TRY(ws_emu_dec_dst(D, in, &in->ops[i], &di->d))
#define PRED(i, f) TRY(ws_emu_dec_pred(D, in, &in->ops[i], &di->f))
#define CONST(v, f) TRY(ws_emu_dec_const(D, (v), &di->f))
/* the common shapes: d = op(a), op(a, b), op(a, b, c) */
#define UN(OP) do { di->op = D_##OP; DST(0); SRC(1, a); return WS_OK; } while (0)
#define BIN(OP) do { di->op = D_##OP; DST(0); SRC(1, a); SRC(2, b); return WS_OK; } while (0)
#define TER(OP) do { di->op = D_##OP; DST(0); SRC(1, a); SRC(2, b); SRC(3, c); return WS_OK; } while (0)
/* this form is one the emulator does not implement (with a reason) */
#define REFUSE() return ws_emu_dec_unsup(D, in, NULL)
#define UNSUP(why) return ws_emu_dec_unsup(D, in, why)
/* a modifier of the instruction */
#define HAS(mod) ws_ptx_inst_has(in, WS_PTX_MOD_##mod)

#endif
