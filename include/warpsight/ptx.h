/*
 * warpsight/ptx.h — the PTX front end: parse PTX text into an IR, print it
 * back.
 *
 * The IR is built for a fast emulator and for static analysis:
 *  - opcodes, types, state spaces, modifiers and special registers are enums
 *    generated from the X-macro files in warpsight/ptx/ (each fact once);
 *    the parser resolves every modifier at parse time into fields of
 *    ws_ptx_inst, so nothing downstream looks at text;
 *  - registers are numbered densely per function (0 .. nregs-1) with their
 *    type; `%r<42>` declares 42 consecutive registers;
 *  - the instructions of a function lie in one array; labels and branch
 *    targets are instruction indices;
 *  - immediates are decoded to their exact bits (0f3F800000 is F32 bits
 *    0x3F800000, never a host double);
 *  - every instruction keeps its PTX line and column, and the source line of
 *    the last `.loc` before it (with its `inlined_at` call site, for code
 *    the compiler inlined from another function).
 *
 * Invariants (established by ws_ptx_parse when it returns WS_OK):
 *  - ws_ptx_function.insts[i].ops[k] with kind WS_PTX_O_REG has reg < nregs;
 *    vector/list operands refer to func->extra[reg .. reg+count-1];
 *  - every WS_PTX_O_LABEL operand has target in [0, ninsts] (ninsts when the
 *    label is the function's last line) and label < nlabels;
 *  - symbol references (WS_PTX_O_SYM and address bases) name an existing
 *    module variable, function, parameter, return parameter, local
 *    variable, call prototype or branch table (ws_ptx_symkind + index);
 *    a call names the function's definition when it has one;
 *  - every label index in a branch table is < nlabels;
 *  - function variables of .local/.shared/.param space have offsets in
 *    their frame, and local_bytes/shared_bytes/callparam_bytes cover them;
 *  - parameter offsets are laid out in declaration order with each
 *    parameter's alignment (the emulator's param space image);
 *  - `items` lists, in source order, everything the printer needs to give
 *    back equivalent PTX (declarations, labels, scopes, .loc, .pragma);
 *    the emulator and analysis never need it.
 *
 * Ownership: ws_ptx_parse returns a module that owns all its memory in one
 * arena; free it with ws_ptx_module_free() (NULL is a no-op).  Strings in
 * the IR are borrowed from the module and live until it is freed.
 * The library never prints; errors go to the caller's ws_diag as
 * "file:line:col: error: ..." with the source line for the caret.
 */
#ifndef WARPSIGHT_PTX_H
#define WARPSIGHT_PTX_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Type kinds (bit mask), used by opcodes.def for the allowed types. */
enum {
  WS_PTX_TK_B = 1,  /* b8 .. b128 */
  WS_PTX_TK_U = 2,  /* u8 .. u64 */
  WS_PTX_TK_S = 4,  /* s8 .. s64 */
  WS_PTX_TK_F = 8,  /* f32, f64 */
  WS_PTX_TK_H = 16, /* f16, f16x2, bf16, bf16x2, tf32, fp8 */
  WS_PTX_TK_P = 32, /* pred */
  WS_PTX_TK_O = 64  /* .texref .samplerref .surfref (declarations only) */
};

typedef enum ws_ptx_opcode {
  WS_PTX_OP_NONE = 0,
#define OP(id, name, omin, omax, tmin, tmax, types, kind) WS_PTX_OP_##id,
#include "warpsight/ptx/opcodes.def"
#undef OP
  WS_PTX_OP_COUNT
} ws_ptx_opcode;

/* What an opcode does; the basis of analysis classes (see opcodes.def). */
typedef enum ws_ptx_kind {
  WS_PTX_K_ARITH,      /* integer or floating-point arithmetic (by type) */
  WS_PTX_K_SFU,        /* special-function unit: rcp sqrt sin ex2 ... */
  WS_PTX_K_LOGIC,      /* bitwise, shifts, bit fields */
  WS_PTX_K_COMPARE,    /* setp set selp slct */
  WS_PTX_K_MOVE,       /* mov (incl. special registers), stack ops */
  WS_PTX_K_CONVERT,    /* cvt cvta isspacep */
  WS_PTX_K_LOAD,       /* ld ldu ldmatrix (state space from the modifier) */
  WS_PTX_K_STORE,      /* st stmatrix */
  WS_PTX_K_PREFETCH,   /* prefetch */
  WS_PTX_K_ASYNC_COPY, /* cp.async family */
  WS_PTX_K_ATOMIC,     /* atom */
  WS_PTX_K_REDUCTION,  /* red */
  WS_PTX_K_TEXTURE,    /* tex tld4 txq suq */
  WS_PTX_K_SURF_LOAD,  /* suld */
  WS_PTX_K_SURF_STORE, /* sust sured */
  WS_PTX_K_BARRIER,    /* bar barrier */
  WS_PTX_K_WARP_SYNC,  /* bar.warp.sync */
  WS_PTX_K_FENCE,      /* membar fence griddepcontrol */
  WS_PTX_K_BRANCH,     /* bra brx.idx */
  WS_PTX_K_CALL,       /* call */
  WS_PTX_K_RETURN,     /* ret */
  WS_PTX_K_EXIT,       /* exit trap */
  WS_PTX_K_WARP,       /* shfl vote match redux activemask elect */
  WS_PTX_K_MMA,        /* mma */
  WS_PTX_K_MISC,       /* brkpt nanosleep pmevent, unknown instructions */
  WS_PTX_K_MBARRIER    /* mbarrier.* (shared-memory transaction barriers) */
} ws_ptx_kind;

typedef enum ws_ptx_type {
  WS_PTX_T_NONE = 0,
#define TYPE(id, name, bits, kind) WS_PTX_T_##id,
#include "warpsight/ptx/types.def"
#undef TYPE
  WS_PTX_T_COUNT
} ws_ptx_type;

typedef enum ws_ptx_space {
  WS_PTX_SP_NONE = 0, /* generic address */
#define SPACE(id, name) WS_PTX_SP_##id,
#include "warpsight/ptx/spaces.def"
#undef SPACE
  WS_PTX_SP_COUNT
} ws_ptx_space;

typedef enum ws_ptx_mod {
  WS_PTX_MOD_NONE = 0,
#define MOD(id, text, group) WS_PTX_MOD_##id,
#include "warpsight/ptx/modifiers.def"
#undef MOD
  WS_PTX_MOD_COUNT
} ws_ptx_mod;

typedef enum ws_ptx_modgroup {
  WS_PTX_MG_SPACE, WS_PTX_MG_ROUND, WS_PTX_MG_CMP, WS_PTX_MG_OP,
  WS_PTX_MG_CACHE, WS_PTX_MG_VEC, WS_PTX_MG_SEM, WS_PTX_MG_SCOPE,
  WS_PTX_MG_MODE, WS_PTX_MG_SHAPE, WS_PTX_MG_GEOM, WS_PTX_MG_FLAG,
  WS_PTX_MG_LAYOUT
} ws_ptx_modgroup;

typedef enum ws_ptx_sreg {
  WS_PTX_SR_NONE = 0,
#define SREG(id, name, vec, bits) WS_PTX_SR_##id,
#include "warpsight/ptx/sregs.def"
#undef SREG
  WS_PTX_SR_COUNT
} ws_ptx_sreg;

/* Static facts about the enums (tables generated from the .def files). */
const char *ws_ptx_opcode_name(ws_ptx_opcode op);  /* "add", "bar.warp.sync" */
ws_ptx_kind ws_ptx_opcode_kind(ws_ptx_opcode op);
const char *ws_ptx_kind_name(ws_ptx_kind k);       /* "ARITH" ... */
const char *ws_ptx_type_name(ws_ptx_type t);       /* "f32" (no dot) */
int ws_ptx_type_bits(ws_ptx_type t);               /* 32 for f32, 1 for pred */
int ws_ptx_type_kind(ws_ptx_type t);               /* one WS_PTX_TK_* bit */
const char *ws_ptx_space_name(ws_ptx_space s);     /* "global" */
const char *ws_ptx_mod_name(ws_ptx_mod m);         /* "rn", "shared::cta" */
ws_ptx_modgroup ws_ptx_mod_group(ws_ptx_mod m);
/* A matrix shape modifier's M, N and K (.m16n8k16: 16, 8, 16); 0 when m
 * is not a shape with all three (.m8n8). */
int ws_ptx_shape_mnk(ws_ptx_mod m, unsigned *M, unsigned *N, unsigned *K);
const char *ws_ptx_sreg_name(ws_ptx_sreg s);       /* "tid" (no %) */
/* Size in bytes of a value of type t (pred counts as 1, b128 as 16). */
int ws_ptx_type_size(ws_ptx_type t);

/* --- operands ----------------------------------------------------------- */

typedef enum ws_ptx_opkind {
  WS_PTX_O_NONE = 0,
  WS_PTX_O_REG,     /* reg = register index */
  WS_PTX_O_VEC,     /* {a, b, ...}: extra[reg .. reg+count-1] (REG, IMM or SINK) */
  WS_PTX_O_SINK,    /* `_` (bit bucket) */
  WS_PTX_O_IMM_INT, /* imm = the integer's 64 bits (two's complement) */
  WS_PTX_O_IMM_F32, /* imm = IEEE single bits (0fXXXXXXXX) */
  WS_PTX_O_IMM_F64, /* imm = IEEE double bits (0dXXXX..., or a decimal literal) */
  WS_PTX_O_ADDR,    /* [base+imm]: base is a register (symkind NONE, reg),
                       a symbol (symkind, reg = index), or absent (ABS) */
  WS_PTX_O_SYM,     /* a symbol used as a value (its address, or for call,
                       the callee): symkind + reg = index; imm = offset */
  WS_PTX_O_LABEL,   /* branch target: reg = label index, imm = instruction index */
  WS_PTX_O_SREG,    /* special register: reg = ws_ptx_sreg, comp = component */
  WS_PTX_O_LIST,    /* (a, b, ...) call arguments: extra[reg .. reg+count-1] */
  WS_PTX_O_TEXADDR  /* [tex, {c...}] or [tex, c]: extra[reg .. reg+count-1] */
} ws_ptx_opkind;

typedef enum ws_ptx_symkind {
  WS_PTX_S_NONE = 0, /* address base is a register (or no symbol) */
  WS_PTX_S_ABS,      /* absolute address [imm] */
  WS_PTX_S_GLOBAL,   /* module variable: module->vars[index] */
  WS_PTX_S_FUNC,     /* module->funcs[index] */
  WS_PTX_S_PARAM,    /* this function's params[index] */
  WS_PTX_S_RET,      /* this function's rets[index] */
  WS_PTX_S_LOCAL,    /* this function's vars[index] (.local/.shared/.param) */
  WS_PTX_S_PROTO,    /* this function's protos[index] (.callprototype) */
  WS_PTX_S_BTABLE    /* this function's btables[index] (.branchtargets) */
} ws_ptx_symkind;

enum {
  WS_PTX_OF_NOT = 1,  /* !%p (negated predicate operand) */
  WS_PTX_OF_PIPE = 2, /* joined to the previous operand by `|` (d|p) */
  WS_PTX_OF_HEX = 4,  /* integer immediate was written in hex (printing only) */
  WS_PTX_OF_NEG = 8   /* -%r (negated register operand, rare) */
};

/* Component of a special register (%tid.x).  NONE for scalars. */
enum { WS_PTX_C_NONE = 0, WS_PTX_C_X, WS_PTX_C_Y, WS_PTX_C_Z, WS_PTX_C_W };

typedef struct ws_ptx_operand {
  uint8_t kind;    /* ws_ptx_opkind */
  uint8_t flags;   /* WS_PTX_OF_* */
  uint8_t comp;    /* SREG component, or element count of VEC/LIST/TEXADDR */
  uint8_t symkind; /* ws_ptx_symkind of an ADDR base or a SYM */
  uint32_t reg;    /* register/sreg/symbol/label index, or first extra[] */
  int64_t imm;     /* immediate bits, address offset, or branch target */
} ws_ptx_operand;

/* --- instructions ------------------------------------------------------- */

enum { WS_PTX_MAX_OPS = 8, WS_PTX_MAX_MODS = 10 };

typedef struct ws_ptx_inst {
  uint16_t op;        /* ws_ptx_opcode */
  uint8_t nops;       /* operands in ops[] (a `d|p` pair is two) */
  uint8_t ntypes;     /* type suffixes in type[] */
  uint8_t type[4];    /* ws_ptx_type, in source order (cvt: dst, src) */
  uint8_t space;      /* ws_ptx_space of the first state-space modifier */
  uint8_t space2;     /* the second one (cvta.to.global: NONE/GLOBAL ..) */
  uint8_t round;      /* WS_PTX_MOD_RN .. or 0 */
  uint8_t cmp;        /* WS_PTX_MOD_EQ .. or 0 */
  uint8_t bop;        /* WS_PTX_MOD_ADD/AND/... (atom/red/redux/bar.red op,
                         setp/set boolean) or 0 */
  uint8_t cache;      /* WS_PTX_MOD_CA .. or 0 */
  uint8_t vec;        /* vector width 1, 2, 4 or 8 */
  uint8_t sem;        /* WS_PTX_MOD_RELAXED .. or 0 */
  uint8_t scope;      /* WS_PTX_MOD_CTA .. or 0 */
  uint8_t mode;       /* WS_PTX_MOD_WIDE/HI/LO/DOWN/BALLOT/F4E/L/... or 0 */
  uint8_t shape;      /* WS_PTX_MOD_M16N8K16 .. or 0 */
  uint8_t geom;       /* WS_PTX_MOD_G2D .. or 0 */
  uint8_t nmods;      /* modifiers in mods[] */
  uint8_t guard_not;  /* 1 for @!%p */
  uint8_t mods_pre;   /* how many mods[] were written before the first type
                         (suld.b.2d.b32.trap has 2); for the printer */
  uint8_t mods[WS_PTX_MAX_MODS]; /* ws_ptx_mod in source order (printer) */
  int32_t guard;      /* predicate register index, or -1 when unguarded */
  uint64_t modset[4]; /* bit m set when modifier m is present */
  uint32_t line;      /* PTX line of the opcode (1-based) */
  uint32_t col;       /* PTX column of the opcode (1-based) */
  uint32_t loc_file;  /* .loc file number in effect, 0 if none */
  uint32_t loc_line;  /* .loc source line in effect, 0 if none */
  uint32_t loc_at_file; /* that .loc's `inlined_at` call site: file number, 0 if none */
  uint32_t loc_at_line; /* ... and line, 0 if none */
  ws_ptx_operand ops[WS_PTX_MAX_OPS]; /* operands in source order */
} ws_ptx_inst;

static inline int ws_ptx_inst_has(const ws_ptx_inst *in, ws_ptx_mod m) {
  return (int)((in->modset[m >> 6] >> (m & 63)) & 1u);
}

/* --- declarations ------------------------------------------------------- */

/* A register of a function: dense index = position in regs[]. */
typedef struct ws_ptx_reg {
  const char *name;  /* declared prefix ("%r" of %r<9>) or full name */
  int32_t num;       /* the number within a %r<N> range, -1 for plain names */
  uint8_t type;      /* ws_ptx_type */
  uint8_t vec;       /* 1, or 2/4 for `.reg .v4 .f32 %v` */
  uint16_t scope;    /* scope number it was declared in (0 = function body) */
} ws_ptx_reg;

/* One initializer element of a variable. */
typedef struct ws_ptx_init {
  uint8_t kind;    /* WS_PTX_O_IMM_INT/F32/F64, or WS_PTX_O_SYM (address of) */
  uint8_t symkind; /* for SYM: WS_PTX_S_GLOBAL or WS_PTX_S_FUNC */
  uint8_t generic; /* for SYM: written generic(sym) */
  uint32_t sym;    /* for SYM: index */
  int64_t value;   /* bits, or the offset added to the symbol's address */
} ws_ptx_init;

enum {
  WS_PTX_L_EXTERN = 1, WS_PTX_L_VISIBLE = 2, WS_PTX_L_WEAK = 4,
  WS_PTX_L_COMMON = 8
};

/* Largest variable the parser accepts, in bytes: 2^40 (1 TiB), more than
 * the device memory of any GPU (the largest in data/gpus, an H100, has
 * 80 GB).  A declaration whose extents multiply past it, or past 64 bits,
 * is an error at its name, so no later size computation can wrap. */
#define WS_PTX_MAX_VAR_BYTES (1ull << 40)

/* A variable: module scope (.global/.const/.shared/...), function scope
 * (.local depot, demoted .shared, call-sequence .param), or a parameter. */
typedef struct ws_ptx_var {
  const char *name;      /* symbol name */
  uint8_t space;         /* ws_ptx_space (PARAM for parameters) */
  uint8_t type;          /* element type */
  uint8_t vec;           /* 1, 2 or 4 (.v4 .f32) */
  uint8_t linkage;       /* WS_PTX_L_* */
  uint8_t ndims;         /* array dimensions (0 = scalar) */
  uint8_t ptr_space;     /* parameters: .ptr .global -> GLOBAL, else NONE */
  uint8_t is_ptr;        /* parameters: .ptr given */
  uint8_t unsized;       /* last dimension written [] (extern shared) */
  uint8_t managed;       /* .attribute(.managed): a __managed__ .global variable */
  uint32_t align;        /* alignment in bytes (declared, or element size) */
  uint32_t ptr_align;    /* parameters: .ptr .align N, 0 if not given */
  uint64_t dims[4];      /* dimension sizes */
  uint64_t size;         /* total bytes (0 for an unsized extern array) */
  uint64_t offset;       /* parameters: byte offset in the param space;
                            function variables: offset in the function's
                            frame of that space (local_bytes, shared_bytes,
                            callparam_bytes), declaration order, aligned */
  uint32_t ninit;        /* initializer elements, 0 if none */
  uint8_t init_braced;   /* initializer written with braces */
  ws_ptx_init *init;     /* ninit elements, flattened */
  uint16_t scope;        /* function scope number (function variables) */
  uint32_t line;         /* PTX line of the declaration */
} ws_ptx_var;

typedef struct ws_ptx_label {
  const char *name; /* "$L__BB0_2" */
  uint32_t inst;    /* index of the instruction it precedes (may be ninsts) */
  uint32_t line;    /* PTX line */
} ws_ptx_label;

/* A .callprototype: `proto: .callprototype (.param .b32 _) _ (.param .b64 _);` */
typedef struct ws_ptx_proto {
  const char *name;    /* label naming the prototype */
  uint32_t nrets;      /* return parameters */
  uint32_t nparams;    /* parameters */
  ws_ptx_var *rets;    /* nrets */
  ws_ptx_var *params;  /* nparams */
  uint8_t noreturn;    /* .noreturn given */
} ws_ptx_proto;

typedef enum ws_ptx_itemkind {
  WS_PTX_I_INST,       /* index = instruction */
  WS_PTX_I_LABEL,      /* index = label */
  WS_PTX_I_REGDECL,    /* index = first register, count = registers */
  WS_PTX_I_VAR,        /* index = function variable */
  WS_PTX_I_PROTO,      /* index = prototype */
  WS_PTX_I_BTABLE,     /* index = branch-target table */
  WS_PTX_I_OPEN,       /* `{` opening scope number index */
  WS_PTX_I_CLOSE,      /* `}` closing scope number index */
  WS_PTX_I_LOC,        /* .loc: index = file, count = line, extra = column */
  WS_PTX_I_PRAGMA,     /* .pragma: text = the quoted string's content */
  WS_PTX_I_RAW         /* other directive kept verbatim in text */
} ws_ptx_itemkind;

/* A function-body element in source order (for the printer). */
typedef struct ws_ptx_item {
  uint32_t kind;     /* ws_ptx_itemkind */
  uint32_t index;    /* see ws_ptx_itemkind */
  uint32_t count;    /* see ws_ptx_itemkind */
  uint32_t extra;    /* see ws_ptx_itemkind */
  const char *text;  /* PRAGMA/RAW text, else NULL */
} ws_ptx_item;

/* A .branchtargets table for brx.idx: `tbl: .branchtargets L0, L1;` */
typedef struct ws_ptx_btable {
  const char *name;    /* label naming the table */
  uint32_t ntargets;   /* entries */
  uint32_t *labels;    /* ntargets label indices; labels[k].inst is the
                          target instruction */
} ws_ptx_btable;

/* An instruction a lenient parse (WS_PTX_PARSE_KEEP_UNKNOWN) kept without
 * understanding it: opcode WS_PTX_OP_UNKNOWN, no operands, ops[0].imm =
 * its index in ws_ptx_function.unknown. */
typedef struct ws_ptx_unknown {
  const char *text;  /* the statement as written, up to and with its ';' */
  const char *why;   /* the parser's error for it ("unknown opcode 'foo'") */
} ws_ptx_unknown;

/* Performance directives; 0 means not given. */
typedef struct ws_ptx_perf {
  uint32_t maxntid[3];      /* .maxntid x, y, z (missing dims = 1) */
  uint32_t reqntid[3];      /* .reqntid */
  uint32_t minnctapersm;    /* .minnctapersm */
  uint32_t maxnctapersm;    /* .maxnctapersm */
  uint32_t maxnreg;         /* .maxnreg */
  uint32_t reqnctapercluster[3]; /* .reqnctapercluster */
  uint32_t maxclusterrank;  /* .maxclusterrank */
  uint8_t nmaxntid;         /* dimensions written for .maxntid */
  uint8_t nreqntid;         /* dimensions written for .reqntid */
  uint8_t nreqncta;         /* dimensions written for .reqnctapercluster */
  uint8_t explicitcluster;  /* .explicitcluster */
  uint8_t noreturn;         /* .noreturn */
  uint32_t npragmas;        /* .pragma strings between header and body */
  const char **pragmas;     /* npragmas strings (without quotes) */
} ws_ptx_perf;

typedef struct ws_ptx_function {
  const char *name;        /* symbol name */
  uint8_t is_entry;        /* .entry (kernel) rather than .func */
  uint8_t linkage;         /* WS_PTX_L_* */
  uint8_t has_body;        /* 0 for a prototype declaration `...;` */
  uint32_t line;           /* PTX line of .entry/.func */
  uint32_t nparams;        /* parameters */
  ws_ptx_var *params;      /* offsets set, space PARAM */
  uint64_t param_bytes;    /* size of the parameter space */
  uint32_t nrets;          /* return parameters (.func only) */
  ws_ptx_var *rets;        /* offsets set */
  ws_ptx_perf perf;        /* performance directives */
  uint32_t nregs;          /* registers (dense numbering) */
  ws_ptx_reg *regs;        /* nregs */
  uint64_t local_bytes;    /* function-scope .local variables, laid out */
  uint64_t shared_bytes;   /* function-scope .shared variables (demoted
                              __shared__), laid out; module .shared excluded */
  uint64_t callparam_bytes;/* call-sequence .param variables, laid out */
  uint32_t nvars;          /* function-scope variables */
  ws_ptx_var *vars;        /* nvars (.local, .shared, call-site .param) */
  uint32_t nlabels;        /* labels */
  ws_ptx_label *labels;    /* nlabels, in source order */
  uint32_t nprotos;        /* .callprototype declarations */
  ws_ptx_proto *protos;    /* nprotos */
  uint32_t nbtables;       /* .branchtargets tables */
  ws_ptx_btable *btables;  /* nbtables */
  uint32_t ninsts;         /* instructions */
  ws_ptx_inst *insts;      /* ninsts, in program order */
  uint32_t nextra;         /* vector/list elements */
  ws_ptx_operand *extra;   /* nextra, referenced by VEC/LIST/TEXADDR */
  uint32_t nscopes;        /* scopes (0 = the body; nested `{}` after) */
  uint32_t nitems;         /* body elements for the printer */
  ws_ptx_item *items;      /* nitems in source order */
  uint32_t end_line;       /* PTX line of the closing `}` */
  uint32_t nunknown;       /* instructions kept without being understood */
  ws_ptx_unknown *unknown; /* nunknown (WS_PTX_PARSE_KEEP_UNKNOWN only) */
  const char *src;         /* a linked module's function (ws_ptx_link): the
                              path of the module it came from, whose lines
                              its instructions carry; NULL: the module's own */
} ws_ptx_function;

/* Module-level element in source order (for the printer). */
typedef struct ws_ptx_mitem {
  uint32_t kind;    /* 0 variable, 1 function, 2 .file, 3 raw text */
  uint32_t index;   /* variable/function/file index */
  const char *text; /* raw text (.section, .pragma) or NULL */
} ws_ptx_mitem;
enum { WS_PTX_MI_VAR, WS_PTX_MI_FUNC, WS_PTX_MI_FILE, WS_PTX_MI_RAW };

typedef struct ws_ptx_file {
  uint32_t number;   /* .file N */
  const char *name;  /* the quoted name */
  const char *rest;  /* anything after the name (timestamps), or NULL */
} ws_ptx_file;

typedef struct ws_ptx_module {
  const char *path;        /* file name used in diagnostics */
  uint32_t version_major;  /* .version 9.0 -> 9 */
  uint32_t version_minor;  /* -> 0 */
  const char *target;      /* "sm_80" (first .target word) */
  uint32_t sm;             /* 80 for sm_80/sm_80a, 0 if unknown */
  const char *target_extra;/* further .target words ("texmode_independent"), or NULL */
  uint32_t address_size;   /* 32 or 64 (64 if not given) */
  uint32_t nvars;          /* module variables */
  ws_ptx_var *vars;        /* nvars */
  uint32_t nfuncs;         /* functions and entries (declarations included) */
  ws_ptx_function *funcs;  /* nfuncs, source order */
  uint32_t nfiles;         /* .file directives */
  ws_ptx_file *files;      /* nfiles */
  uint32_t nitems;         /* module elements in source order */
  ws_ptx_mitem *items;     /* nitems */
  ws_arena *arena;         /* owns everything above */
} ws_ptx_module;

/* Parse PTX text `src` of `len` bytes (need not be NUL-terminated).  `path`
 * names the file in diagnostics.  On success *out is the module (caller frees
 * with ws_ptx_module_free) and WS_OK is returned.  On malformed input returns
 * WS_EINVAL with one diagnostic per error found (the parser keeps going
 * where it can) and *out = NULL. */
int ws_ptx_parse(ws_ptx_module **out, const char *src, size_t len,
                 const char *path, ws_diag *d);
/* Flags of ws_ptx_parse_opts. */
enum {
  /* An instruction the parser rejects (an opcode, modifier or operand it
   * does not know) is kept as a WS_PTX_OP_UNKNOWN instruction with its
   * text and the reason, instead of failing the module: for PTX that
   * nvcc generated (a CUDA program's fat binary), where such an
   * instruction is valid PTX the front end lacks.  The emulator refuses a
   * kernel that reaches one, naming it (docs/ptx-frontend.md). */
  WS_PTX_PARSE_KEEP_UNKNOWN = 1
};
/* ws_ptx_parse with flags (WS_PTX_PARSE_*). */
int ws_ptx_parse_opts(ws_ptx_module **out, const char *src, size_t len,
                      const char *path, unsigned flags, ws_diag *d);
/* Read and parse a file (WS_EIO when it cannot be read). */
int ws_ptx_parse_file(ws_ptx_module **out, const char *path, ws_diag *d);
void ws_ptx_module_free(ws_ptx_module *m);

/* The file a function's line numbers refer to (its own module's, for a
 * function of a linked module). */
static inline const char *ws_ptx_func_path(const ws_ptx_module *m, const ws_ptx_function *f) {
  return f && f->src ? f->src : m->path;
}

/* Link modules by symbol, as nvlink links the translation units of a
 * program built with -rdc=true (docs/ptx-frontend.md, "Linking"): one
 * module with every module's variables and functions; a declaration
 * (.extern variable, function without a body) that some module defines
 * becomes that definition; internal symbols stay their module's.  Two
 * definitions of one visible name (neither .weak nor .common) are an error
 * naming both modules.  `path` names the result.  The result borrows the
 * inputs (keep them alive as long as it) and is freed with
 * ws_ptx_module_free. */
int ws_ptx_link(ws_ptx_module **out, ws_ptx_module *const *mods, size_t n, const char *path, ws_diag *d);

/* Find a function by name; NULL if absent. */
const ws_ptx_function *ws_ptx_find_function(const ws_ptx_module *m,
                                            const char *name);
/* The kernel `query` names: the function of that exact name, else the one
 * entry whose C++ name demangles to it (`array_add<float>`, with or
 * without its parameter list); NULL when none or, demangled, several. */
const ws_ptx_function *ws_ptx_find_kernel(const ws_ptx_module *m, const char *query);

/* Print the module as PTX into a malloc'd NUL-terminated string (caller
 * frees).  The output parses back to an equal module and printing that again
 * gives the same text.  Returns WS_OK or WS_ENOMEM. */
int ws_ptx_print(char **out, const ws_ptx_module *m);
/* Print one instruction (no indentation, no newline, with `;`). */
int ws_ptx_print_inst(char **out, const ws_ptx_module *m,
                      const ws_ptx_function *f, const ws_ptx_inst *in);
/* Name of register r of f ("%r12"), written into buf (size >= 64). */
const char *ws_ptx_reg_name(char *buf, size_t size, const ws_ptx_function *f,
                            uint32_t r);

#ifdef __cplusplus
}
#endif
#endif
