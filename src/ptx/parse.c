/*
 * parse.c — recursive-descent parser from PTX text to the IR of ptx.h.
 *
 * One parser object holds all state (no globals).  Each parse function
 * opens with its grammar rule.  Errors are collected as diagnostics with
 * file:line:col and the source line; after an error the parser skips to
 * the end of the statement and goes on, so one run reports several.
 *
 * Names are resolved while parsing: registers to dense indices, symbols to
 * (kind, index) pairs, modifiers to decoded fields.  Branch labels may be
 * used before they are defined; they are patched when the function ends.
 * Functions are used after their declaration (as PTX requires); a call to
 * a declared function that is defined later is redirected to the
 * definition when the module ends.
 */
#include "ptx/ptx_int.h"
#include "util/demangle.h"
#include "util/checked.h"
#include "util/file.h"
#include "util/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ERRORS = 50 };

/* Symbol-table tags. */
enum { K_REG, K_RANGE, K_PARAM, K_RET, K_LOCAL, K_PROTO, K_BTABLE, K_GVAR, K_FUNC };
enum { K_OPC, K_TYPE, K_MOD, K_SREG, K_SPACE };

/* A growable array: data, count, capacity (util/vec.h).  A failed push sets
 * p->oom and drops the item; the count stays below UINT32_MAX. */
#define VEC(T) struct { T *v; uint32_t n; size_t cap; }
#define VPUSH(p, vec, item)                                               \
  do {                                                                    \
    if ((vec).n == UINT32_MAX ||                                          \
        WS_VEC_PUSH((vec).v, (vec).n, (vec).cap, (item)))                 \
      (p)->oom = 1;                                                       \
  } while (0)

typedef struct range_decl {
  uint32_t first; /* first register */
  uint32_t count; /* registers */
} range_decl;

typedef struct label_b {
  const char *name;   /* arena copy */
  uint32_t inst;      /* instruction index, UINT32_MAX while undefined */
  uint32_t line;      /* definition line */
  uint32_t ref_line;  /* first use, for "undefined label" */
  uint32_t ref_col;   /* first use column */
  const char *ref_at; /* first use, in the source */
} label_b;

/* The function being parsed. */
typedef struct fbuild {
  VEC(ws_ptx_inst) insts;
  VEC(ws_ptx_reg) regs;
  VEC(ws_ptx_var) vars;
  VEC(ws_ptx_var) params;
  VEC(ws_ptx_var) rets;
  VEC(label_b) labels;
  VEC(ws_ptx_proto) protos;
  VEC(ws_ptx_btable) btables;
  VEC(ws_ptx_operand) extra;
  VEC(ws_ptx_item) items;
  VEC(range_decl) ranges;
  VEC(const char *) pragmas;
  VEC(ws_ptx_unknown) unknown;
  uint32_t depth;     /* current scope depth (1 = function body) */
  uint32_t nscopes;   /* scopes opened so far (0 = body) */
  uint32_t scope_id[64]; /* scope number per depth */
  uint32_t loc_file;  /* .loc in effect */
  uint32_t loc_line;
  uint32_t loc_at_file; /* its inlined_at call site, 0 if none */
  uint32_t loc_at_line;
} fbuild;

typedef struct parser {
  lexer lx;            /* the lexer */
  token tok;           /* current token */
  token ahead;         /* one token of lookahead */
  int has_ahead;       /* ahead is valid */
  const char *path;    /* file name for diagnostics */
  ws_diag *d;          /* where errors go */
  ws_arena *arena;     /* the module's arena */
  ws_ptx_module *m;    /* the module being built */
  int nerrors;         /* errors reported */
  int oom;             /* an allocation failed */
  symtab words;        /* opcodes, types, modifiers, sregs, spaces */
  symtab msyms;        /* module symbols */
  symtab fsyms;        /* function symbols (scoped) */
  symtab labels;       /* labels of the current function */
  VEC(ws_ptx_var) vars;
  VEC(ws_ptx_function) funcs;
  VEC(ws_ptx_file) files;
  VEC(ws_ptx_mitem) mitems;
  VEC(uint32_t) func_def; /* per function: index of its definition */
  fbuild fb;           /* current function */
  unsigned flags;      /* WS_PTX_PARSE_* */
  int in_inst;         /* parsing an instruction that may be kept unknown */
  char inst_err[256];  /* its first error, when in_inst */
} parser;

/* Copy a builder array into the arena. */
static void *arena_copy(parser *p, const void *src, size_t n, size_t elem) {
  if (!n) return NULL;
  void *dst = ws_arena_alloc(p->arena, n * elem);
  if (!dst) {
    p->oom = 1;
    return NULL;
  }
  memcpy(dst, src, n * elem);
  return dst;
}

static const char *intern(parser *p, const char *s, size_t n) {
  char *r = ws_arena_strndup(p->arena, s, n);
  if (!r) p->oom = 1;
  return r ? r : "";
}

/* --- diagnostics -------------------------------------------------------- */

static void error_at(parser *p, uint32_t line, uint32_t col, const char *at,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void error_at(parser *p, uint32_t line, uint32_t col, const char *at,
                     const char *fmt, ...) {
  if (p->in_inst) { /* WS_PTX_PARSE_KEEP_UNKNOWN: the instruction's reason, not an error */
    if (!p->inst_err[0]) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(p->inst_err, sizeof p->inst_err, fmt, ap);
      va_end(ap);
      if (!p->inst_err[0]) snprintf(p->inst_err, sizeof p->inst_err, "not understood");
    }
    return;
  }
  p->nerrors++;
  if (p->nerrors > MAX_ERRORS) return;
  va_list ap;
  va_start(ap, fmt);
  ws_diag_addv(p->d, WS_SEV_ERROR, p->path, (int)line, (int)col, fmt, ap);
  va_end(ap);
  if (at) {
    size_t len;
    const char *ls = ws_ptx_lex_line_of(&p->lx, at, &len);
    ws_diag_set_source(p->d, ls, len);
  }
  if (p->nerrors == MAX_ERRORS)
    ws_diag_add(p->d, WS_SEV_NOTE, p->path, 0, 0, "too many errors; stopping");
}

#define ERR_TOK(p, t, ...) error_at((p), (t)->line, (t)->col, (t)->s, __VA_ARGS__)

static const char *tok_desc(const token *t, char *buf, size_t n) {
  if (t->kind == T_EOF) return "end of file";
  if (t->len && memchr(t->s, '\0', t->len)) return "NUL byte (PTX is text)";
  snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
  return buf;
}

/* --- tokens ------------------------------------------------------------- */

static void next(parser *p) {
  if (p->has_ahead) {
    p->tok = p->ahead;
    p->has_ahead = 0;
  } else {
    ws_ptx_lex_next(&p->lx, &p->tok);
  }
}

static const token *peek(parser *p) {
  if (!p->has_ahead) {
    ws_ptx_lex_next(&p->lx, &p->ahead);
    p->has_ahead = 1;
  }
  return &p->ahead;
}

static int accept(parser *p, tok_kind k) {
  if (p->tok.kind != k) return 0;
  next(p);
  return 1;
}

static int tok_is(const token *t, const char *s) {
  size_t n = strlen(s);
  return t->len == n && memcmp(t->s, s, n) == 0;
}

/* "expected WHAT, found <the current token>". */
static void expected(parser *p, const char *what) {
  char b[64];
  ERR_TOK(p, &p->tok, "expected %s, found %s", what, tok_desc(&p->tok, b, sizeof b));
}

/* 1 when the current token is a k; else "expected WHAT, found ..." and 0.
 * Consumes nothing. */
static int want(parser *p, tok_kind k, const char *what) {
  if (p->tok.kind == k) return 1;
  expected(p, what);
  return 0;
}

/* want(), then past the token. */
static int expect(parser *p, tok_kind k, const char *what) {
  if (!want(p, k, what)) return 0;
  next(p);
  return 1;
}

/* Skip to the end of the current statement: past `;`, or before `}`/EOF. */
static void skip_statement(parser *p) {
  int depth = 0;
  for (;;) {
    switch (p->tok.kind) {
    case T_EOF: return;
    case T_SEMI:
      if (depth == 0) {
        next(p);
        return;
      }
      break;
    case T_LBRACE: depth++; break;
    case T_RBRACE:
      if (depth == 0) return;
      depth--;
      break;
    default: break;
    }
    next(p);
  }
}

/* The word table: what each dotted word or mnemonic means. */
static int build_words(parser *p) {
  symtab *t = &p->words;
  if (ws_ptx_symtab_init(t, 1024) < 0) return -1;
  int r = 0;
#define OP(id, name, omin, omax, tmin, tmax, types, kind) \
  r |= ws_ptx_symtab_add(t, name, strlen(name), 0, K_OPC, WS_PTX_OP_##id);
#include "warpsight/ptx/opcodes.def"
#undef OP
#define TYPE(id, name, bits, kind) r |= ws_ptx_symtab_add(t, "." name, strlen(name) + 1, 0, K_TYPE, WS_PTX_T_##id);
#include "warpsight/ptx/types.def"
#undef TYPE
#define MOD(id, text, group) r |= ws_ptx_symtab_add(t, "." text, strlen(text) + 1, 0, K_MOD, WS_PTX_MOD_##id);
#include "warpsight/ptx/modifiers.def"
#undef MOD
#define SREG(id, name, vec, bits) r |= ws_ptx_symtab_add(t, "%" name, strlen(name) + 1, 0, K_SREG, WS_PTX_SR_##id);
#include "warpsight/ptx/sregs.def"
#undef SREG
  return r;
}

static symtab_entry *word(parser *p, const char *s, size_t n, uint32_t kind) {
  symtab_entry *e = ws_ptx_symtab_find(&p->words, s, n);
  /* A word can be several things (".global" is a modifier only; "and" an
   * opcode, ".and" a modifier): keys differ by their leading dot. */
  return e && e->kind == kind ? e : NULL;
}

/* Declaration state spaces (.global x) */
static int decl_space(const token *t) {
  static const struct { const char *s; int sp; } tab[] = {
      {".global", WS_PTX_SP_GLOBAL}, {".const", WS_PTX_SP_CONST},
      {".shared", WS_PTX_SP_SHARED}, {".local", WS_PTX_SP_LOCAL},
      {".param", WS_PTX_SP_PARAM},   {".tex", WS_PTX_SP_TEX},
      {".reg", WS_PTX_SP_REG}};
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (tok_is(t, tab[i].s)) return tab[i].sp;
  return -1;
}

static ws_ptx_type type_of(parser *p, const token *t) {
  if (t->kind != T_DIR) return WS_PTX_T_NONE;
  symtab_entry *e = word(p, t->s, t->len, K_TYPE);
  return e ? (ws_ptx_type)e->value : WS_PTX_T_NONE;
}

/* --- numbers ------------------------------------------------------------ */

/* Two's-complement negation without signed overflow (-INT64_MIN wraps). */
static int64_t neg64(uint64_t v) { return (int64_t)(0 - v); }

/* int -> ['-'] INT */
static int parse_int(parser *p, int64_t *out, const char *what) {
  int neg = accept(p, T_MINUS);
  if (p->tok.kind != T_INT || p->tok.overflow) {
    expected(p, what);
    return 0;
  }
  *out = neg ? neg64(p->tok.ival) : (int64_t)p->tok.ival;
  next(p);
  return 1;
}

static int parse_uint(parser *p, uint64_t *out, const char *what, uint64_t max) {
  const token t = p->tok;
  int64_t v;
  if (!parse_int(p, &v, what)) return 0;
  if (v < 0 || (uint64_t)v > max) {
    ERR_TOK(p, &t, "%s out of range", what);
    return 0;
  }
  *out = (uint64_t)v;
  return 1;
}

/* --- module-level directives ------------------------------------------- */

/* version -> '.version' INT '.' INT   (lexed as a float "9.0" or "7.10") */
static void parse_version(parser *p) {
  next(p);
  const token t = p->tok;
  if (t.kind == T_FLOAT || t.kind == T_INT) {
    const char *s = t.s, *e = t.s + t.len;
    uint32_t maj = 0, min = 0;
    while (s < e && *s >= '0' && *s <= '9') maj = maj * 10 + (uint32_t)(*s++ - '0');
    if (s < e && *s == '.') {
      s++;
      while (s < e && *s >= '0' && *s <= '9') min = min * 10 + (uint32_t)(*s++ - '0');
    }
    if (s == e && maj > 0 && maj < 100 && t.kind == T_FLOAT) {
      p->m->version_major = maj;
      p->m->version_minor = min;
      next(p);
      return;
    }
  }
  char b[64];
  ERR_TOK(p, &t, "expected a version like 9.0 after .version, found %s",
          tok_desc(&t, b, sizeof b));
  skip_statement(p);
}

/* target -> '.target' IDENT { ',' IDENT } */
static void parse_target(parser *p) {
  next(p);
  if (!want(p, T_IDENT, "a target like sm_80")) {
    skip_statement(p);
    return;
  }
  p->m->target = intern(p, p->tok.s, p->tok.len);
  if (p->tok.len > 3 && memcmp(p->tok.s, "sm_", 3) == 0) {
    uint32_t sm = 0;
    for (uint32_t i = 3; i < p->tok.len && p->tok.s[i] >= '0' && p->tok.s[i] <= '9'; i++)
      sm = sm * 10 + (uint32_t)(p->tok.s[i] - '0');
    p->m->sm = sm;
  }
  next(p);
  const char *extra_start = NULL, *extra_end = NULL;
  while (accept(p, T_COMMA)) {
    if (!want(p, T_IDENT, "a target option")) {
      return;
    }
    if (!extra_start) extra_start = p->tok.s;
    extra_end = p->tok.s + p->tok.len;
    next(p);
  }
  if (extra_start) p->m->target_extra = intern(p, extra_start, (size_t)(extra_end - extra_start));
}

/* raw -> DIRECTIVE { token } ( ';' | '{' balanced '}' )   kept verbatim */
static const char *parse_raw_block(parser *p) {
  const token start = p->tok;
  next(p);
  int depth = 0;
  for (;;) {
    if (p->tok.kind == T_EOF) {
      ERR_TOK(p, &start, "unterminated %.*s block", (int)start.len, start.s);
      return NULL;
    }
    if (p->tok.kind == T_BAD) {
      char b[64];
      ERR_TOK(p, &p->tok, "unexpected %s", tok_desc(&p->tok, b, sizeof b));
      next(p);
      continue;
    }
    if (p->tok.kind == T_LBRACE) depth++;
    if (p->tok.kind == T_RBRACE && --depth == 0) break;
    if (p->tok.kind == T_SEMI && depth == 0) break;
    next(p);
  }
  const char *end = p->tok.s + p->tok.len;
  next(p);
  return intern(p, start.s, (size_t)(end - start.s));
}

/* file -> '.file' INT STRING { ',' INT } */
static void parse_file(parser *p) {
  next(p);
  uint64_t num;
  if (!parse_uint(p, &num, "a file number", UINT32_MAX)) {
    skip_statement(p);
    return;
  }
  if (!want(p, T_STRING, "a file name string")) {
    skip_statement(p);
    return;
  }
  ws_ptx_file f = {(uint32_t)num, intern(p, p->tok.s + 1, p->tok.len - 2), NULL};
  next(p);
  const char *rs = NULL, *re = NULL;
  while (accept(p, T_COMMA)) {
    if (!rs) rs = p->tok.s;
    if (!want(p, T_INT, "a number in .file")) {
      skip_statement(p);
      return;
    }
    re = p->tok.s + p->tok.len;
    next(p);
  }
  if (rs) f.rest = intern(p, rs, (size_t)(re - rs));
  VPUSH(p, p->files, f);
  ws_ptx_mitem mi = {WS_PTX_MI_FILE, p->files.n - 1, NULL};
  VPUSH(p, p->mitems, mi);
}

/* --- variables ---------------------------------------------------------- */

static uint32_t elem_align(const ws_ptx_var *v) {
  return (uint32_t)ws_ptx_type_size(v->type) * v->vec;
}

/* Bytes of v in checked arithmetic.  Returns 0, or 1 (v->size left alone)
 * when the product overflows 64 bits or exceeds WS_PTX_MAX_VAR_BYTES: an
 * extent like a[4294967295][641][6700417] must never reach an allocator
 * as a wrapped-around size. */
static int var_size(ws_ptx_var *v) {
  uint64_t n = (uint64_t)ws_ptx_type_size(v->type) * v->vec;
  for (int i = 0; i < v->ndims; i++)
    if (ws_mul_u64(&n, n, v->dims[i])) return 1;
  if (n > WS_PTX_MAX_VAR_BYTES) return 1;
  v->size = n;
  return 0;
}

/* var_size with the error at token t. */
static int set_var_size(parser *p, ws_ptx_var *v, const token *t) {
  if (!var_size(v)) return 1;
  ERR_TOK(p, t, "array '%s' is too large: more than %llu bytes", v->name ? v->name : "_",
          (unsigned long long)WS_PTX_MAX_VAR_BYTES);
  return 0;
}

/* initializer -> '{' init { ',' init } '}' | scalar
 * scalar -> ['-'] number | IDENT ['+' INT] | 'generic' '(' IDENT ')' ['+' INT] */
typedef VEC(ws_ptx_init) init_vec;

static int parse_init_elems(parser *p, init_vec *out, int depth) {
  if (accept(p, T_LBRACE)) {
    if (depth > 8) {
      ERR_TOK(p, &p->tok, "initializer nested too deeply");
      return 0;
    }
    do {
      if (!parse_init_elems(p, out, depth + 1)) return 0;
    } while (accept(p, T_COMMA));
    return expect(p, T_RBRACE, "',' or '}' in initializer");
  }
  ws_ptx_init e = {0, 0, 0, 0, 0};
  int neg = accept(p, T_MINUS);
  const token t = p->tok;
  if (t.kind == T_INT && !t.overflow) {
    e.kind = WS_PTX_O_IMM_INT;
    e.value = neg ? neg64(t.ival) : (int64_t)t.ival;
    next(p);
  } else if ((t.kind == T_F32 || t.kind == T_F64 || t.kind == T_FLOAT) && !t.overflow) {
    e.kind = t.kind == T_F32 ? WS_PTX_O_IMM_F32 : WS_PTX_O_IMM_F64;
    uint64_t bits = t.ival;
    if (neg) bits ^= t.kind == T_F32 ? 0x80000000u : 0x8000000000000000u;
    e.value = (int64_t)bits;
    next(p);
  } else if (t.kind == T_IDENT && !neg && t.s[0] != '%') {
    int generic = 0;
    token name = t;
    if (tok_is(&t, "generic")) {
      next(p);
      if (!expect(p, T_LPAREN, "'(' after generic")) return 0;
      name = p->tok;
      generic = 1;
    }
    if (name.kind != T_IDENT) {
      char b[64];
      ERR_TOK(p, &name, "expected a symbol, found %s", tok_desc(&name, b, sizeof b));
      return 0;
    }
    symtab_entry *s = ws_ptx_symtab_find(&p->msyms, name.s, name.len);
    if (!s) {
      ERR_TOK(p, &name, "undefined symbol '%.*s' in initializer", (int)name.len, name.s);
      return 0;
    }
    next(p);
    if (generic && !expect(p, T_RPAREN, "')'")) return 0;
    e.kind = WS_PTX_O_SYM;
    e.symkind = s->kind == K_FUNC ? WS_PTX_S_FUNC : WS_PTX_S_GLOBAL;
    e.sym = s->value;
    e.generic = (uint8_t)generic;
    if (accept(p, T_PLUS)) {
      int64_t off;
      if (!parse_int(p, &off, "an offset")) return 0;
      e.value = off;
    }
  } else {
    char b[64];
    ERR_TOK(p, &t, "bad initializer value %s", tok_desc(&t, b, sizeof b));
    return 0;
  }
  VPUSH(p, *out, e);
  return 1;
}

/* vardecl -> space { '.align' INT | '.vN' | '.ptr' ... } type name
 *            { '[' [INT] ']' } [ '=' initializer ]
 * The caller consumed linkage; `p->tok` is the space directive. */
static int parse_var_tail(parser *p, ws_ptx_var *v, int allow_init) {
  const token nt = p->tok;
  if (!want(p, T_IDENT, "a variable name")) {
    return 0;
  }
  v->name = intern(p, nt.s, nt.len);
  v->line = nt.line;
  next(p);
  while (p->tok.kind == T_LBRACK) {
    next(p);
    if (v->ndims >= 4) {
      ERR_TOK(p, &p->tok, "too many array dimensions");
      return 0;
    }
    if (p->tok.kind == T_RBRACK) {
      v->unsized = 1;
      v->dims[v->ndims++] = 0;
    } else {
      uint64_t n;
      if (!parse_uint(p, &n, "an array size", UINT32_MAX)) return 0;
      v->dims[v->ndims++] = n;
    }
    if (!expect(p, T_RBRACK, "']'")) return 0;
  }
  if (!v->align) v->align = elem_align(v);
  v->size = 0;
  if (!v->unsized && !set_var_size(p, v, &nt)) return 0;
  if (p->tok.kind == T_EQ) {
    if (!allow_init) {
      ERR_TOK(p, &p->tok, "initializer not allowed here");
      return 0;
    }
    next(p);
    init_vec init = {NULL, 0, 0};
    v->init_braced = p->tok.kind == T_LBRACE;
    int ok = parse_init_elems(p, &init, 0);
    if (ok) {
      v->ninit = init.n;
      v->init = arena_copy(p, init.v, init.n, sizeof *init.v);
      if (v->unsized && v->ndims == 1) {
        /* b8 a[] = {1,2,3}: the initializer gives the size */
        v->dims[0] = init.n / v->vec;
        v->unsized = 0;
        if (!set_var_size(p, v, &nt)) ok = 0;
      }
    }
    free(init.v);
    if (!ok) return 0;
  }
  return 1;
}

/* attrs -> { '.align' INT | '.vN' | '.ptr' [space] ['.align' INT]
 *          | '.attribute' '(' '.managed' ')' } type
 *          { '.ptr' ... }      (the order nvcc and people write them in) */
static int parse_var_attrs(parser *p, ws_ptx_var *v) {
  v->vec = 1;
  for (;;) {
    const token t = p->tok;
    if (t.kind != T_DIR) break;
    if (tok_is(&t, ".attribute")) {
      /* __managed__ variables; .unified(uuid) is not supported */
      next(p);
      if (!expect(p, T_LPAREN, "'(' after .attribute")) return 0;
      const token a = p->tok;
      if (!tok_is(&a, ".managed")) {
        ERR_TOK(p, &a, "unsupported variable attribute '%.*s' (only .managed is)", (int)a.len, a.s);
        return 0;
      }
      if (v->space != WS_PTX_SP_GLOBAL) {
        ERR_TOK(p, &a, ".attribute(.managed) needs a .global variable");
        return 0;
      }
      next(p);
      if (!expect(p, T_RPAREN, "')'")) return 0;
      v->managed = 1;
      continue;
    }
    if (tok_is(&t, ".align")) {
      next(p);
      uint64_t a;
      if (!parse_uint(p, &a, "an alignment", 1u << 20)) return 0;
      if (a == 0 || (a & (a - 1))) {
        ERR_TOK(p, &t, "alignment %llu is not a power of two", (unsigned long long)a);
        return 0;
      }
      if (v->is_ptr) v->ptr_align = (uint32_t)a;
      else v->align = (uint32_t)a;
      continue;
    }
    if (tok_is(&t, ".v2") || tok_is(&t, ".v4") || tok_is(&t, ".v8")) {
      v->vec = (uint8_t)(t.s[2] - '0');
      next(p);
      continue;
    }
    if (tok_is(&t, ".ptr")) {
      v->is_ptr = 1;
      next(p);
      continue;
    }
    int sp = decl_space(&t);
    if (v->is_ptr && sp > 0) {
      v->ptr_space = (uint8_t)sp;
      next(p);
      continue;
    }
    ws_ptx_type ty = type_of(p, &t);
    if (ty != WS_PTX_T_NONE) {
      if (v->type) {
        ERR_TOK(p, &t, "second type '%.*s' in declaration", (int)t.len, t.s);
        return 0;
      }
      v->type = (uint8_t)ty;
      next(p);
      continue;
    }
    ERR_TOK(p, &t, "unknown attribute '%.*s' in declaration", (int)t.len, t.s);
    return 0;
  }
  if (!v->type) {
    expected(p, "a type");
    return 0;
  }
  return 1;
}

/* globalvar -> linkage* space attrs name dims [= init] { ',' name dims [= init] } ';' */
/* Skip to just past the next ';' (braces of an initializer included). */
static void skip_declaration(parser *p) {
  while (p->tok.kind != T_EOF && p->tok.kind != T_SEMI) next(p);
  accept(p, T_SEMI);
}

static void parse_module_var(parser *p, uint8_t linkage) {
  int sp = decl_space(&p->tok);
  next(p);
  ws_ptx_var proto = {0};
  proto.space = (uint8_t)sp;
  proto.linkage = linkage;
  if (!parse_var_attrs(p, &proto)) {
    skip_declaration(p);
    return;
  }
  do {
    ws_ptx_var v = proto;
    const token nt = p->tok;
    if (!parse_var_tail(p, &v, 1)) {
      skip_declaration(p);
      return;
    }
    symtab_entry *old = ws_ptx_symtab_find(&p->msyms, nt.s, nt.len);
    if (old) {
      ERR_TOK(p, &nt, "duplicate symbol '%.*s'", (int)nt.len, nt.s);
    } else if (ws_ptx_symtab_add(&p->msyms, nt.s, nt.len, 0, K_GVAR, p->vars.n) < 0) {
      p->oom = 1;
    }
    VPUSH(p, p->vars, v);
    ws_ptx_mitem mi = {WS_PTX_MI_VAR, p->vars.n - 1, NULL};
    VPUSH(p, p->mitems, mi);
  } while (accept(p, T_COMMA));
  expect(p, T_SEMI, "';' after variable declaration");
}

/* --- functions ---------------------------------------------------------- */

static void fb_reset(fbuild *fb) {
  fb->insts.n = fb->regs.n = fb->vars.n = fb->params.n = fb->rets.n = 0;
  fb->labels.n = fb->protos.n = fb->extra.n = fb->items.n = fb->ranges.n = 0;
  fb->btables.n = 0;
  fb->pragmas.n = 0;
  fb->unknown.n = 0;
  fb->depth = 1;
  fb->nscopes = 1;
  fb->scope_id[1] = 0;
  fb->loc_file = fb->loc_line = fb->loc_at_file = fb->loc_at_line = 0;
}

static void fb_free(fbuild *fb) {
  free(fb->insts.v); free(fb->regs.v); free(fb->vars.v); free(fb->params.v);
  free(fb->rets.v); free(fb->labels.v); free(fb->protos.v); free(fb->extra.v);
  free(fb->items.v); free(fb->ranges.v); free(fb->pragmas.v); free(fb->btables.v);
  free(fb->unknown.v);
}

static void push_item(parser *p, uint32_t kind, uint32_t index, uint32_t count,
                      uint32_t extra, const char *text) {
  ws_ptx_item it = {kind, index, count, extra, text};
  VPUSH(p, p->fb.items, it);
}

/* Lay parameters out in the param space in order, each at its alignment. */
static uint64_t layout_params(ws_ptx_var *v, uint32_t n) {
  uint64_t off = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t a = v[i].align ? v[i].align : 1;
    off = (off + a - 1) / a * a;
    v[i].offset = off;
    /* each size is at most WS_PTX_MAX_VAR_BYTES; saturate all the same */
    if (ws_add_u64(&off, off, v[i].size)) off = UINT64_MAX - 4096;
  }
  return off;
}

/* param -> ('.param' | '.reg') attrs name dims */
static int parse_param(parser *p, ws_ptx_var *v, int allow_anon) {
  int sp = decl_space(&p->tok);
  if (sp != WS_PTX_SP_PARAM && sp != WS_PTX_SP_REG) {
    expected(p, ".param");
    return 0;
  }
  next(p);
  memset(v, 0, sizeof *v);
  v->space = (uint8_t)sp;
  if (!parse_var_attrs(p, v)) return 0;
  if (allow_anon && p->tok.kind == T_IDENT && tok_is(&p->tok, "_")) {
    v->name = "_";
    next(p);
    if (!v->align) v->align = elem_align(v);
    if (!set_var_size(p, v, &p->tok)) return 0;
    while (p->tok.kind == T_LBRACK) { /* _[16] */
      const token bt = p->tok;
      next(p);
      uint64_t n;
      if (!parse_uint(p, &n, "an array size", UINT32_MAX)) return 0;
      if (v->ndims < 4) v->dims[v->ndims++] = n;
      if (!expect(p, T_RBRACK, "']'")) return 0;
      if (!set_var_size(p, v, &bt)) return 0;
    }
    return 1;
  }
  return parse_var_tail(p, v, 0);
}

/* paramlist -> '(' [ param { ',' param } ] ')' */
static int parse_param_list(parser *p, void *vecp, int allow_anon) {
  VEC(ws_ptx_var) *out = vecp;
  if (!expect(p, T_LPAREN, "'('")) return 0;
  if (accept(p, T_RPAREN)) return 1;
  do {
    ws_ptx_var v;
    if (!parse_param(p, &v, allow_anon)) return 0;
    VPUSH(p, *out, v);
  } while (accept(p, T_COMMA));
  return expect(p, T_RPAREN, "',' or ')' after parameter");
}

/* perf -> '.maxntid' INT [',' INT [',' INT]] | '.reqntid' ... | '.minnctapersm' INT
 *       | '.maxnctapersm' INT | '.maxnreg' INT | '.pragma' STRING ';' | '.noreturn'
 *       | '.explicitcluster' | '.reqnctapercluster' ... | '.maxclusterrank' INT */
static int parse_perf(parser *p, ws_ptx_perf *perf) {
  const token t = p->tok;
  uint64_t v;
  if (tok_is(&t, ".maxntid") || tok_is(&t, ".reqntid") || tok_is(&t, ".reqnctapercluster")) {
    uint32_t *dst = tok_is(&t, ".maxntid") ? perf->maxntid
                    : tok_is(&t, ".reqntid") ? perf->reqntid : perf->reqnctapercluster;
    uint8_t *nd = tok_is(&t, ".maxntid") ? &perf->nmaxntid
                  : tok_is(&t, ".reqntid") ? &perf->nreqntid : &perf->nreqncta;
    next(p);
    int n = 0;
    do {
      if (n == 3) {
        ERR_TOK(p, &p->tok, "%.*s takes at most 3 values", (int)t.len, t.s);
        return 0;
      }
      if (!parse_uint(p, &v, "a thread count", UINT32_MAX)) return 0;
      dst[n++] = (uint32_t)v;
    } while (accept(p, T_COMMA));
    *nd = (uint8_t)n;
    for (; n < 3; n++) dst[n] = 1;
    return 1;
  }
  uint32_t *one = tok_is(&t, ".minnctapersm")    ? &perf->minnctapersm
                  : tok_is(&t, ".maxnctapersm")  ? &perf->maxnctapersm
                  : tok_is(&t, ".maxnreg")       ? &perf->maxnreg
                  : tok_is(&t, ".maxclusterrank") ? &perf->maxclusterrank : NULL;
  if (one) {
    next(p);
    if (!parse_uint(p, &v, "a count", UINT32_MAX)) return 0;
    *one = (uint32_t)v;
    return 1;
  }
  if (tok_is(&t, ".noreturn")) {
    perf->noreturn = 1;
    next(p);
    return 1;
  }
  if (tok_is(&t, ".explicitcluster")) {
    perf->explicitcluster = 1;
    next(p);
    return 1;
  }
  if (tok_is(&t, ".pragma")) {
    next(p);
    if (!want(p, T_STRING, "a string after .pragma")) {
      return 0;
    }
    const char *s = intern(p, p->tok.s + 1, p->tok.len - 2);
    VPUSH(p, p->fb.pragmas, s);
    next(p);
    return expect(p, T_SEMI, "';' after .pragma");
  }
  ERR_TOK(p, &t, "unknown directive '%.*s' in function header", (int)t.len, t.s);
  return 0;
}

/* --- registers ---------------------------------------------------------- */

/* Find a register by name; -1 if undeclared. */
static int64_t find_reg(parser *p, const char *s, size_t n) {
  size_t k = n;
  while (k > 1 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  if (k < n && (s[k] != '0' || k + 1 == n) && n - k < 10) {
    symtab_entry *e = ws_ptx_symtab_find(&p->fsyms, s, k);
    if (e && e->kind == K_RANGE) {
      uint32_t num = 0;
      for (size_t i = k; i < n; i++) num = num * 10 + (uint32_t)(s[i] - '0');
      const range_decl *r = &p->fb.ranges.v[e->value];
      if (num < r->count) return (int64_t)r->first + num;
    }
  }
  symtab_entry *e = ws_ptx_symtab_find(&p->fsyms, s, n);
  if (e && e->kind == K_REG) return e->value;
  return -1;
}

/* regdecl -> '.reg' ['.vN'] type regname { ',' regname } ';'
 * regname -> IDENT [ '<' INT '>' ] */
static void parse_reg_decl(parser *p) {
  next(p);
  ws_ptx_var attrs = {0};
  if (!parse_var_attrs(p, &attrs)) {
    skip_statement(p);
    return;
  }
  fbuild *fb = &p->fb;
  do {
    const token nt = p->tok;
    if (!want(p, T_IDENT, "a register name")) {
      skip_statement(p);
      return;
    }
    next(p);
    const char *name = intern(p, nt.s, nt.len);
    if (accept(p, T_LT)) {
      uint64_t count;
      if (!parse_uint(p, &count, "a register count", 1u << 24) ||
          !expect(p, T_GT, "'>'")) {
        skip_statement(p);
        return;
      }
      symtab_entry *old = ws_ptx_symtab_find(&p->fsyms, nt.s, nt.len);
      if (old && old->depth == fb->depth && (old->kind == K_RANGE || old->kind == K_REG)) {
        ERR_TOK(p, &nt, "duplicate register declaration '%.*s<%llu>'", (int)nt.len, nt.s,
                (unsigned long long)count);
        continue;
      }
      range_decl r = {fb->regs.n, (uint32_t)count};
      VPUSH(p, fb->ranges, r);
      if (ws_ptx_symtab_add(&p->fsyms, nt.s, nt.len, fb->depth, K_RANGE, fb->ranges.n - 1) < 0)
        p->oom = 1;
      push_item(p, WS_PTX_I_REGDECL, fb->regs.n, (uint32_t)count, 1, NULL);
      for (uint32_t i = 0; i < count && !p->oom; i++) {
        ws_ptx_reg rg = {name, (int32_t)i, attrs.type, attrs.vec,
                         (uint16_t)fb->scope_id[fb->depth]};
        VPUSH(p, fb->regs, rg);
      }
    } else {
      symtab_entry *old = ws_ptx_symtab_find(&p->fsyms, nt.s, nt.len);
      int64_t exist = find_reg(p, nt.s, nt.len);
      if ((old && old->depth == fb->depth) ||
          (exist >= 0 && fb->regs.v[exist].num >= 0 &&
           fb->regs.v[exist].scope == fb->scope_id[fb->depth])) {
        ERR_TOK(p, &nt, "duplicate register '%.*s'", (int)nt.len, nt.s);
        continue;
      }
      if (ws_ptx_symtab_add(&p->fsyms, nt.s, nt.len, fb->depth, K_REG, fb->regs.n) < 0) p->oom = 1;
      push_item(p, WS_PTX_I_REGDECL, fb->regs.n, 1, 0, NULL);
      ws_ptx_reg rg = {name, -1, attrs.type, attrs.vec, (uint16_t)fb->scope_id[fb->depth]};
      VPUSH(p, fb->regs, rg);
    }
  } while (accept(p, T_COMMA));
  if (!expect(p, T_SEMI, "';' after register declaration")) skip_statement(p);
}

/* localvar -> ('.local' | '.shared' | '.param' | '.const' | '.global') attrs name dims ';' */
static void parse_local_var(parser *p) {
  int sp = decl_space(&p->tok);
  next(p);
  ws_ptx_var proto = {0};
  proto.space = (uint8_t)sp;
  if (!parse_var_attrs(p, &proto)) {
    skip_statement(p);
    return;
  }
  fbuild *fb = &p->fb;
  do {
    ws_ptx_var v = proto;
    const token nt = p->tok;
    if (!parse_var_tail(p, &v, sp == WS_PTX_SP_GLOBAL || sp == WS_PTX_SP_CONST)) {
      skip_statement(p);
      return;
    }
    v.scope = (uint16_t)fb->scope_id[fb->depth];
    symtab_entry *old = ws_ptx_symtab_find(&p->fsyms, nt.s, nt.len);
    if (old && old->depth == fb->depth) {
      ERR_TOK(p, &nt, "duplicate symbol '%.*s'", (int)nt.len, nt.s);
      continue;
    }
    if (ws_ptx_symtab_add(&p->fsyms, nt.s, nt.len, fb->depth, K_LOCAL, fb->vars.n) < 0) p->oom = 1;
    push_item(p, WS_PTX_I_VAR, fb->vars.n, 0, 0, NULL);
    VPUSH(p, fb->vars, v);
  } while (accept(p, T_COMMA));
  if (!expect(p, T_SEMI, "';' after declaration")) skip_statement(p);
}

/* --- instructions ------------------------------------------------------- */

static uint32_t label_ref(parser *p, const token *t) {
  symtab_entry *e = ws_ptx_symtab_find(&p->labels, t->s, t->len);
  if (e) return e->value;
  label_b l = {intern(p, t->s, t->len), UINT32_MAX, 0, t->line, t->col, t->s};
  VPUSH(p, p->fb.labels, l);
  if (ws_ptx_symtab_add(&p->labels, t->s, t->len, p->fb.depth, 0, p->fb.labels.n - 1) < 0) p->oom = 1;
  return p->fb.labels.n - 1;
}

/* Labels are scoped by `{ }` blocks, as ptxas scopes them (inline asm such
 * as `{ .reg .pred p; W: mbarrier.try_wait... @!p bra W; }` repeats W in
 * one function): at the end of a block its labels go out of scope; a name
 * referenced in the block and not defined there yet stays pending in the
 * enclosing block. */
static void close_label_scope(parser *p, uint32_t depth) {
  symtab *t = &p->labels;
  uint32_t pending[64], npend = 0;
  for (uint32_t i = t->count; i-- > 0 && t->entries[i].depth >= depth;) {
    uint32_t li = t->entries[i].value;
    if (li < p->fb.labels.n && p->fb.labels.v[li].inst == UINT32_MAX && npend < 64) pending[npend++] = i;
  }
  symtab_entry keep[64];
  for (uint32_t k = 0; k < npend; k++) keep[k] = t->entries[pending[k]];
  ws_ptx_symtab_pop(t, depth);
  for (uint32_t k = npend; k-- > 0;)
    if (ws_ptx_symtab_add(t, keep[k].key, keep[k].len, depth - 1, 0, keep[k].value) < 0) p->oom = 1;
}

/* Resolve a name used as an operand: function scope, then module. */
static int resolve_symbol(parser *p, const token *t, ws_ptx_operand *o) {
  symtab_entry *e = ws_ptx_symtab_find(&p->fsyms, t->s, t->len);
  if (e) {
    switch (e->kind) {
    case K_PARAM: o->symkind = WS_PTX_S_PARAM; break;
    case K_RET: o->symkind = WS_PTX_S_RET; break;
    case K_LOCAL: o->symkind = WS_PTX_S_LOCAL; break;
    case K_PROTO: o->symkind = WS_PTX_S_PROTO; break;
    case K_BTABLE: o->symkind = WS_PTX_S_BTABLE; break;
    default: e = NULL; break;
    }
    if (e) {
      o->reg = e->value;
      return 1;
    }
  }
  e = ws_ptx_symtab_find(&p->msyms, t->s, t->len);
  if (!e) return 0;
  o->symkind = e->kind == K_FUNC ? WS_PTX_S_FUNC : WS_PTX_S_GLOBAL;
  o->reg = e->value;
  return 1;
}

static int parse_operand(parser *p, ws_ptx_operand *o, int opcode, int depth);

/* Element list for VEC/LIST/TEXADDR: stored contiguously in extra[]. */
static int parse_elements(parser *p, ws_ptx_operand *o, tok_kind close, int opcode,
                          int depth) {
  ws_ptx_operand tmp[64];
  uint32_t n = 0;
  if (p->tok.kind != close) {
    do {
      if (n == 64) {
        ERR_TOK(p, &p->tok, "too many elements in list");
        return 0;
      }
      memset(&tmp[n], 0, sizeof tmp[n]);
      if (close == T_RBRACE &&
          (p->tok.kind == T_LBRACK || p->tok.kind == T_LBRACE || p->tok.kind == T_LPAREN)) {
        expected(p, "a register, '_' or number in vector");
        return 0;
      }
      if (!parse_operand(p, &tmp[n], opcode, depth + 1)) return 0;
      if (tmp[n].kind == WS_PTX_O_VEC || tmp[n].kind == WS_PTX_O_LIST ||
          tmp[n].kind == WS_PTX_O_ADDR || tmp[n].kind == WS_PTX_O_TEXADDR) {
        if (!(close == T_RBRACK && tmp[n].kind == WS_PTX_O_VEC)) {
          ERR_TOK(p, &p->tok, "nested list not allowed here");
          return 0;
        }
      }
      n++;
    } while (accept(p, T_COMMA));
  }
  if (p->tok.kind != close) {
    char b[64];
    ERR_TOK(p, &p->tok, "expected ',' or '%c' in list, found %s",
            close == T_RBRACE ? '}' : close == T_RPAREN ? ')' : ']',
            tok_desc(&p->tok, b, sizeof b));
    return 0;
  }
  next(p);
  o->reg = p->fb.extra.n;
  o->comp = (uint8_t)n;
  for (uint32_t i = 0; i < n; i++) VPUSH(p, p->fb.extra, tmp[i]);
  return 1;
}

/* prefixed -> '!' predicate | '-' (reg | number) */
static int parse_prefixed(parser *p, ws_ptx_operand *o, int opcode, int depth) {
  const token t = p->tok;
  const int bang = t.kind == T_BANG;
  char b[64];
  next(p);
  const token n = p->tok;
  if (bang && n.kind != T_IDENT) {
    ERR_TOK(p, &n, "expected a predicate after '!', found %s", tok_desc(&n, b, sizeof b));
    return 0;
  }
  if (bang || (n.kind == T_IDENT && n.s[0] == '%')) {
    int ok = parse_operand(p, o, opcode, depth);
    if (ok && o->kind != WS_PTX_O_REG) {
      ERR_TOK(p, &t, "%s", bang ? "'!' applies to a predicate register" : "'-' applies to a register or a number");
      return 0;
    }
    o->flags |= bang ? WS_PTX_OF_NOT : WS_PTX_OF_NEG;
    return ok;
  }
  if (n.kind == T_INT && !n.overflow) {
    o->kind = WS_PTX_O_IMM_INT;
    o->imm = neg64(n.ival);
    next(p);
    return 1;
  }
  if ((n.kind == T_F32 || n.kind == T_F64 || n.kind == T_FLOAT) && !n.overflow) {
    o->kind = n.kind == T_F32 ? WS_PTX_O_IMM_F32 : WS_PTX_O_IMM_F64;
    o->imm = (int64_t)(n.ival ^ (n.kind == T_F32 ? 0x80000000ull : 0x8000000000000000ull));
    next(p);
    return 1;
  }
  ERR_TOK(p, &n, "expected a number after '-', found %s", tok_desc(&n, b, sizeof b));
  return 0;
}

/* texaddr -> (reg | symbol) (',' operand){1,3} ']'  (o holds the first
 * element; the ',' is next) */
static int parse_texaddr(parser *p, ws_ptx_operand *o, int opcode, int depth) {
  ws_ptx_operand el[4];
  el[0] = *o;
  el[0].kind = el[0].symkind == WS_PTX_S_NONE ? WS_PTX_O_REG : WS_PTX_O_SYM;
  uint32_t nel = 1;
  while (accept(p, T_COMMA)) {
    if (nel == 4) {
      ERR_TOK(p, &p->tok, "too many elements in texture operand");
      return 0;
    }
    memset(&el[nel], 0, sizeof el[nel]);
    if (!parse_operand(p, &el[nel], opcode, depth + 1)) return 0;
    nel++;
  }
  if (!expect(p, T_RBRACK, "']' after texture coordinates")) return 0;
  memset(o, 0, sizeof *o);
  o->kind = WS_PTX_O_TEXADDR;
  o->reg = p->fb.extra.n;
  o->comp = (uint8_t)nel;
  for (uint32_t i = 0; i < nel; i++) VPUSH(p, p->fb.extra, el[i]);
  return 1;
}

/* address -> (reg | symbol | INT) [('+' | '-') ['-'] INT] ']' | texaddr
 * (the '[' is read) */
static int parse_address(parser *p, ws_ptx_operand *o, int opcode, int depth) {
  char b[64];
  const token base = p->tok;
  o->kind = WS_PTX_O_ADDR;
  if (base.kind == T_INT && !base.overflow) {
    o->symkind = WS_PTX_S_ABS;
    o->imm = (int64_t)base.ival;
    next(p);
  } else if (base.kind == T_IDENT) {
    int64_t r = find_reg(p, base.s, base.len);
    if (r >= 0) {
      o->symkind = WS_PTX_S_NONE;
      o->reg = (uint32_t)r;
    } else if (base.s[0] == '%') {
      ERR_TOK(p, &base, "undefined register '%.*s'", (int)base.len, base.s);
      return 0;
    } else if (!resolve_symbol(p, &base, o)) {
      ERR_TOK(p, &base, "undefined symbol '%.*s'", (int)base.len, base.s);
      return 0;
    }
    next(p);
    if (p->tok.kind == T_COMMA) return parse_texaddr(p, o, opcode, depth); /* [tex, coords], [tex, sampler, coords] */
  } else {
    ERR_TOK(p, &base, "bad address: expected a register, symbol or number, found %s",
            tok_desc(&base, b, sizeof b));
    return 0;
  }
  if (p->tok.kind == T_PLUS || p->tok.kind == T_MINUS) {
    int neg = p->tok.kind == T_MINUS;
    next(p);
    int64_t off;
    if (!parse_int(p, &off, "an address offset")) return 0;
    o->imm = (int64_t)((uint64_t)o->imm + (neg ? 0 - (uint64_t)off : (uint64_t)off));
  }
  if (p->tok.kind != T_RBRACK) {
    ERR_TOK(p, &p->tok, "bad address: expected '+offset' or ']', found %s",
            tok_desc(&p->tok, b, sizeof b));
    return 0;
  }
  next(p);
  return 1;
}

/* named -> '_' | reg | sreg ['.' comp] | btable (brx.idx) | label (branches)
 *        | symbol ['+' INT] */
static int parse_named(parser *p, ws_ptx_operand *o, int opcode, int depth) {
  const token t = p->tok;
  if (t.len == 1 && t.s[0] == '_') {
    o->kind = WS_PTX_O_SINK;
    next(p);
    return 1;
  }
  if (t.s[0] == '%') {
    int64_t r = find_reg(p, t.s, t.len);
    if (r >= 0) {
      o->kind = WS_PTX_O_REG;
      o->reg = (uint32_t)r;
      next(p);
      return 1;
    }
    symtab_entry *s = word(p, t.s, t.len, K_SREG);
    if (s) {
      o->kind = WS_PTX_O_SREG;
      o->reg = s->value;
      next(p);
      const token *c = &p->tok;
      if (c->kind == T_DIR && c->s == t.s + t.len && c->len == 2) {
        static const char comps[] = "xyzw";
        const char *q = strchr(comps, c->s[1]);
        if (!q || !c->s[1]) {
          ERR_TOK(p, c, "bad special-register component '%.*s'", (int)c->len, c->s);
          return 0;
        }
        o->comp = (uint8_t)(WS_PTX_C_X + (q - comps));
        next(p);
      }
      return 1;
    }
    ERR_TOK(p, &t, "undefined register '%.*s'", (int)t.len, t.s);
    return 0;
  }
  int64_t r = find_reg(p, t.s, t.len); /* inline asm declares `.reg .b16 c;` */
  if (r >= 0) {
    o->kind = WS_PTX_O_REG;
    o->reg = (uint32_t)r;
    next(p);
    return 1;
  }
  if (opcode == WS_PTX_OP_BRX_IDX && depth == 0) {
    if (!resolve_symbol(p, &t, o) || o->symkind != WS_PTX_S_BTABLE) {
      ERR_TOK(p, &t, "'brx.idx' needs a .branchtargets table, found '%.*s'", (int)t.len, t.s);
      return 0;
    }
    o->kind = WS_PTX_O_SYM;
    next(p);
    return 1;
  }
  if (ws_ptx_opcode_kind((ws_ptx_opcode)opcode) == WS_PTX_K_BRANCH && depth == 0) {
    o->kind = WS_PTX_O_LABEL;
    o->reg = label_ref(p, &t);
    next(p);
    return 1;
  }
  if (t.len == 7 && memcmp(t.s, "WARP_SZ", 7) == 0) {
    /* the predefined warp size (CUDA's warpSize): 32 on every target
     * (PTX ISA, "Predefined identifiers") */
    o->kind = WS_PTX_O_IMM_INT;
    o->imm = 32;
    next(p);
    return 1;
  }
  if (!resolve_symbol(p, &t, o)) {
    ERR_TOK(p, &t, "undefined symbol '%.*s'", (int)t.len, t.s);
    return 0;
  }
  o->kind = WS_PTX_O_SYM;
  next(p);
  if (p->tok.kind == T_PLUS) {
    next(p);
    int64_t off;
    if (!parse_int(p, &off, "an offset")) return 0;
    o->imm = off;
  }
  return 1;
}

/* operand -> ['!' | '-'] reg ['|' reg] | ['-'] number | sreg ['.' comp]
 *          | '{' elems '}' | '[' address ']' | '(' elems ')' | '_' | symbol ['+' INT]
 *          | label */
static int parse_operand(parser *p, ws_ptx_operand *o, int opcode, int depth) {
  const token t = p->tok;
  char b[64];
  if (depth > 3) {
    ERR_TOK(p, &t, "operand nested too deeply");
    return 0;
  }
  if (t.kind == T_BANG || t.kind == T_MINUS) return parse_prefixed(p, o, opcode, depth);
  switch (t.kind) {
  case T_INT:
    if (t.overflow) {
      ERR_TOK(p, &t, "bad integer constant '%.*s'", (int)t.len, t.s);
      return 0;
    }
    o->kind = WS_PTX_O_IMM_INT;
    o->imm = (int64_t)t.ival;
    if (t.int_hex) o->flags |= WS_PTX_OF_HEX;
    next(p);
    return 1;
  case T_F32:
  case T_F64:
  case T_FLOAT:
    if (t.overflow) {
      ERR_TOK(p, &t, "bad floating-point constant '%.*s'", (int)t.len, t.s);
      return 0;
    }
    o->kind = t.kind == T_F32 ? WS_PTX_O_IMM_F32 : WS_PTX_O_IMM_F64;
    o->imm = (int64_t)t.ival;
    next(p);
    return 1;
  case T_LBRACE:
    next(p);
    o->kind = WS_PTX_O_VEC;
    if (!parse_elements(p, o, T_RBRACE, opcode, depth)) return 0;
    if (o->comp == 0) {
      ERR_TOK(p, &t, "empty vector operand");
      return 0;
    }
    for (uint32_t i = 0; i < o->comp; i++) {
      uint8_t k = p->fb.extra.v[o->reg + i].kind;
      if (k == WS_PTX_O_SYM || k == WS_PTX_O_LABEL || k == WS_PTX_O_SREG) {
        ERR_TOK(p, &t, "vector elements must be registers, '_' or numbers");
        return 0;
      }
    }
    return 1;
  case T_LPAREN:
    next(p);
    o->kind = WS_PTX_O_LIST;
    return parse_elements(p, o, T_RPAREN, opcode, depth);
  case T_LBRACK:
    next(p);
    return parse_address(p, o, opcode, depth);
  case T_IDENT:
    return parse_named(p, o, opcode, depth);
  default:
    ERR_TOK(p, &t, "expected an operand, found %s", tok_desc(&t, b, sizeof b));
    return 0;
  }
}

static ws_ptx_space mod_space(int m) {
  switch (m) {
  case WS_PTX_MOD_GLOBAL: return WS_PTX_SP_GLOBAL;
  case WS_PTX_MOD_SHARED:
  case WS_PTX_MOD_SHARED_CTA:
  case WS_PTX_MOD_SHARED_CLUSTER: return WS_PTX_SP_SHARED;
  case WS_PTX_MOD_LOCAL: return WS_PTX_SP_LOCAL;
  case WS_PTX_MOD_CONST: return WS_PTX_SP_CONST;
  case WS_PTX_MOD_PARAM:
  case WS_PTX_MOD_PARAM_ENTRY:
  case WS_PTX_MOD_PARAM_FUNC: return WS_PTX_SP_PARAM;
  case WS_PTX_MOD_TEXSP: return WS_PTX_SP_TEX;
  default: return WS_PTX_SP_NONE;
  }
}

/* Put modifier m into its decoded field; 0 on a conflict. */
static int decode_mod(ws_ptx_inst *in, int m) {
  uint8_t *slot = NULL;
  int group = ws_ptx_mod_group((ws_ptx_mod)m);
  int op = in->op;
  if ((m == WS_PTX_MOD_HI || m == WS_PTX_MOD_LO) &&
      (op == WS_PTX_OP_MUL || op == WS_PTX_OP_MAD || op == WS_PTX_OP_MUL24 ||
       op == WS_PTX_OP_MAD24 || op == WS_PTX_OP_MADC || op == WS_PTX_OP_DP2A))
    group = WS_PTX_MG_MODE;
  switch (group) {
  case WS_PTX_MG_SPACE:
    if (!in->space) in->space = (uint8_t)mod_space(m);
    else if (!in->space2) in->space2 = (uint8_t)mod_space(m);
    else return 0;
    return 1;
  case WS_PTX_MG_ROUND: slot = &in->round; break;
  case WS_PTX_MG_CMP: slot = &in->cmp; break;
  case WS_PTX_MG_OP: slot = &in->bop; break;
  case WS_PTX_MG_CACHE: slot = &in->cache; break;
  case WS_PTX_MG_VEC:
    if (in->vec != 1) return 0;
    in->vec = m == WS_PTX_MOD_V2 ? 2 : m == WS_PTX_MOD_V4 ? 4 : 8;
    return 1;
  case WS_PTX_MG_SEM: slot = &in->sem; break;
  case WS_PTX_MG_SCOPE: slot = &in->scope; break;
  case WS_PTX_MG_MODE: slot = &in->mode; break;
  case WS_PTX_MG_SHAPE: slot = &in->shape; break;
  case WS_PTX_MG_GEOM: slot = &in->geom; break;
  case WS_PTX_MG_LAYOUT: return 1; /* one per matrix operand (.row.row): mods[] keeps the order */
  default: return !ws_ptx_inst_has(in, (ws_ptx_mod)m);
  }
  if (*slot) return 0;
  *slot = (uint8_t)m;
  return 1;
}

/* Which modifier groups each opcode kind takes (FLAG is always allowed).
 * A known modifier in a group its opcode never uses (add.global, ld.eq)
 * is an error rather than a silent no-op. */
#define G(x) (1u << WS_PTX_MG_##x)
static unsigned allowed_groups(ws_ptx_kind k) {
  switch (k) {
  case WS_PTX_K_ARITH: return G(ROUND) | G(MODE);
  case WS_PTX_K_SFU: return G(ROUND);
  case WS_PTX_K_LOGIC: return G(MODE) | G(OP); /* lop3.or */
  case WS_PTX_K_COMPARE: return G(CMP) | G(OP);
  case WS_PTX_K_MOVE: return G(MODE);
  case WS_PTX_K_CONVERT: return G(ROUND) | G(SPACE);
  case WS_PTX_K_LOAD:
  case WS_PTX_K_STORE:
    return G(SPACE) | G(CACHE) | G(VEC) | G(SEM) | G(SCOPE) | G(SHAPE) | G(LAYOUT);
  case WS_PTX_K_PREFETCH: return G(SPACE) | G(CACHE);
  case WS_PTX_K_ASYNC_COPY: return G(SPACE) | G(CACHE) | G(SEM) | G(SCOPE);
  case WS_PTX_K_ATOMIC:
  case WS_PTX_K_REDUCTION: return G(SPACE) | G(OP) | G(VEC) | G(SEM) | G(SCOPE);
  case WS_PTX_K_TEXTURE:
  case WS_PTX_K_SURF_LOAD:
  case WS_PTX_K_SURF_STORE: return G(GEOM) | G(VEC) | G(OP) | G(CACHE) | G(MODE);
  case WS_PTX_K_BARRIER: return G(OP) | G(SEM) | G(SCOPE);
  case WS_PTX_K_FENCE: return G(SEM) | G(SCOPE) | G(SPACE);
  case WS_PTX_K_WARP: return G(MODE) | G(OP) | G(SHAPE);
  case WS_PTX_K_MMA: return G(SHAPE) | G(ROUND) | G(MODE) | G(LAYOUT);
  case WS_PTX_K_MBARRIER: return G(SPACE) | G(SEM) | G(SCOPE);
  case WS_PTX_K_WARP_SYNC: case WS_PTX_K_BRANCH: case WS_PTX_K_CALL:
  case WS_PTX_K_RETURN: case WS_PTX_K_EXIT: case WS_PTX_K_MISC:
    return 0;
  }
  return 0;
}
#undef G

/* Operands that must be vectors of the instruction's width (.vN). */
static void check_vector(parser *p, const ws_ptx_inst *in, const token *at) {
  if (in->op != WS_PTX_OP_LD && in->op != WS_PTX_OP_ST && in->op != WS_PTX_OP_LDU)
    return;
  const ws_ptx_operand *o = in->op == WS_PTX_OP_ST ? &in->ops[1] : &in->ops[0];
  if (in->nops < 2) return;
  if (in->vec > 1) {
    if (o->kind != WS_PTX_O_VEC)
      ERR_TOK(p, at, "'.v%d' needs a vector operand {...}", in->vec);
    else if (o->comp != in->vec)
      ERR_TOK(p, at, "vector operand has %d elements, '.v%d' needs %d", o->comp, in->vec,
              in->vec);
  } else if (o->kind == WS_PTX_O_VEC) {
    ERR_TOK(p, at, "vector operand without a '.vN' modifier");
  }
  const ws_ptx_operand *a = in->op == WS_PTX_OP_ST ? &in->ops[0] : &in->ops[1];
  if (a->kind != WS_PTX_O_ADDR)
    ERR_TOK(p, at, "'%s' needs an address operand [...]", ws_ptx_opcode_name(in->op));
}

/* An instruction at token t with its guard and the .loc in effect, nothing
 * else set yet. */
static void inst_begin(parser *p, ws_ptx_inst *in, const token *t, int32_t guard, int guard_not) {
  const fbuild *fb = &p->fb;
  memset(in, 0, sizeof *in);
  in->guard = guard;
  in->guard_not = (uint8_t)guard_not;
  in->vec = 1;
  in->line = t->line;
  in->col = t->col;
  in->loc_file = fb->loc_file;
  in->loc_line = fb->loc_line;
  in->loc_at_file = fb->loc_at_file;
  in->loc_at_line = fb->loc_at_line;
}

/* instruction -> ['@' ['!'] reg] mnemonic { '.' word } [operand { ',' operand }] ';'
 * mnemonic -> IDENT (an opcode, possibly dotted: "bar.warp.sync") */
static void parse_instruction_1(parser *p, int32_t guard, int guard_not) {
  fbuild *fb = &p->fb;
  const token op_tok = p->tok;
  ws_ptx_inst in;
  inst_begin(p, &in, &op_tok, guard, guard_not);
  /* Collect the dotted words glued to the mnemonic. */
  token parts[24];
  int nparts = 0;
  parts[nparts++] = p->tok;
  next(p);
  while (p->tok.kind == T_DIR &&
         p->tok.s == parts[nparts - 1].s + parts[nparts - 1].len) {
    if (nparts == 24) {
      ERR_TOK(p, &p->tok, "too many modifiers");
      skip_statement(p);
      return;
    }
    parts[nparts++] = p->tok;
    next(p);
  }
  /* Longest dotted opcode name first (cp.async.mbarrier.arrive has four words). */
  int used = 0;
  for (int k = nparts < 4 ? nparts : 4; k >= 1 && !used; k--) {
    size_t len = (size_t)(parts[k - 1].s + parts[k - 1].len - parts[0].s);
    symtab_entry *e = word(p, parts[0].s, len, K_OPC);
    if (e) {
      in.op = (uint16_t)e->value;
      used = k;
    }
  }
  if (!used) {
    ERR_TOK(p, &op_tok, "unknown opcode '%.*s'", (int)op_tok.len, op_tok.s);
    skip_statement(p);
    return;
  }
  const char *opname = ws_ptx_opcode_name(in.op);
  int bad = 0;
  for (int i = used; i < nparts; i++) {
    const token *w = &parts[i];
    symtab_entry *e = ws_ptx_symtab_find(&p->words, w->s, w->len);
    if (e && e->kind == K_TYPE) {
      if (in.ntypes == 4) {
        ERR_TOK(p, w, "too many types in '%s'", opname);
        bad = 1;
        break;
      }
      if (in.ntypes == 0) in.mods_pre = in.nmods;
      in.type[in.ntypes++] = (uint8_t)e->value;
    } else if (e && e->kind == K_MOD) {
      if (in.nmods == WS_PTX_MAX_MODS) {
        ERR_TOK(p, w, "too many modifiers in '%s'", opname);
        bad = 1;
        break;
      }
      int grp = ws_ptx_mod_group((ws_ptx_mod)e->value);
      if ((e->value == WS_PTX_MOD_HI || e->value == WS_PTX_MOD_LO) &&
          ws_ptx_opcode_kind((ws_ptx_opcode)in.op) == WS_PTX_K_ARITH)
        grp = WS_PTX_MG_MODE;
      if (grp != WS_PTX_MG_FLAG &&
          !(allowed_groups(ws_ptx_opcode_kind((ws_ptx_opcode)in.op)) & (1u << grp))) {
        ERR_TOK(p, w, "modifier '%.*s' does not apply to '%s'", (int)w->len, w->s, opname);
        bad = 1;
        break;
      }
      if (!decode_mod(&in, (int)e->value)) {
        ERR_TOK(p, w, "conflicting modifier '%.*s' in '%s'", (int)w->len, w->s, opname);
        bad = 1;
        break;
      }
      in.mods[in.nmods++] = (uint8_t)e->value;
      in.modset[e->value >> 6] |= 1ull << (e->value & 63);
    } else {
      ERR_TOK(p, w, "unknown modifier '%.*s' for '%s'", (int)w->len, w->s, opname);
      bad = 1;
      break;
    }
  }
  if (bad) {
    skip_statement(p);
    return;
  }
  const ptx_opinfo *info = ws_ptx_opcode_info((ws_ptx_opcode)in.op);
  if (in.ntypes < info->tmin || in.ntypes > info->tmax) {
    if (info->tmax == 0)
      ERR_TOK(p, &op_tok, "'%s' takes no type", opname);
    else if (in.ntypes == 0)
      ERR_TOK(p, &op_tok, "'%s' needs a type (like .%s)", opname,
              (info->types & WS_PTX_TK_F) ? "f32" : (info->types & WS_PTX_TK_S) ? "s32" : "b32");
    else
      ERR_TOK(p, &op_tok, "'%s' takes %d type%s, got %d", opname, info->tmax,
              info->tmax == 1 ? "" : "s", in.ntypes);
    skip_statement(p);
    return;
  }
  for (int i = 0; i < in.ntypes; i++) {
    if (!(ws_ptx_type_kind((ws_ptx_type)in.type[i]) & info->types)) {
      ERR_TOK(p, &op_tok, "type '.%s' is not valid for '%s'",
              ws_ptx_type_name((ws_ptx_type)in.type[i]), opname);
      skip_statement(p);
      return;
    }
  }
  /* Operands. */
  int slots = 0;
  if (p->tok.kind != T_SEMI) {
    for (;;) {
      if (in.nops == WS_PTX_MAX_OPS) {
        ERR_TOK(p, &p->tok, "too many operands for '%s'", opname);
        skip_statement(p);
        return;
      }
      ws_ptx_operand *o = &in.ops[in.nops];
      if (!parse_operand(p, o, in.op, 0)) {
        skip_statement(p);
        return;
      }
      in.nops++;
      slots++;
      if (p->tok.kind == T_PIPE) {
        next(p);
        if (in.nops == WS_PTX_MAX_OPS) {
          ERR_TOK(p, &p->tok, "too many operands for '%s'", opname);
          skip_statement(p);
          return;
        }
        ws_ptx_operand *q = &in.ops[in.nops];
        const token qt = p->tok;
        if (!parse_operand(p, q, in.op, 0)) {
          skip_statement(p);
          return;
        }
        if (q->kind != WS_PTX_O_REG) {
          ERR_TOK(p, &qt, "expected a predicate register after '|'");
          skip_statement(p);
          return;
        }
        q->flags |= WS_PTX_OF_PIPE;
        in.nops++;
      }
      if (!accept(p, T_COMMA)) break;
    }
  }
  if (!want(p, T_SEMI, "',' or ';' after operand")) {
    skip_statement(p);
    return;
  }
  next(p);
  if (slots < info->omin || slots > info->omax) {
    if (info->omin == info->omax)
      ERR_TOK(p, &op_tok, "'%s' expects %d operand%s, got %d", opname, info->omin,
              info->omin == 1 ? "" : "s", slots);
    else
      ERR_TOK(p, &op_tok, "'%s' expects %d to %d operands, got %d", opname, info->omin,
              info->omax, slots);
    return;
  }
  (void)0;
  if (in.op == WS_PTX_OP_BRA && in.ops[0].kind != WS_PTX_O_LABEL)
    ERR_TOK(p, &op_tok, "'bra' needs a label");
  check_vector(p, &in, &op_tok);
  push_item(p, WS_PTX_I_INST, fb->insts.n, 0, 0, NULL);
  VPUSH(p, fb->insts, in);
}

/* An instruction; with WS_PTX_PARSE_KEEP_UNKNOWN, one the parser rejects is
 * kept as WS_PTX_OP_UNKNOWN with its text and the first error as reason. */
static void parse_instruction(parser *p, int32_t guard, int guard_not) {
  if (!(p->flags & WS_PTX_PARSE_KEEP_UNKNOWN)) {
    parse_instruction_1(p, guard, guard_not);
    return;
  }
  fbuild *fb = &p->fb;
  const token op_tok = p->tok;
  uint32_t ninsts = fb->insts.n, nitems = fb->items.n, nextra = fb->extra.n;
  p->in_inst = 1;
  p->inst_err[0] = 0;
  parse_instruction_1(p, guard, guard_not);
  p->in_inst = 0;
  if (!p->inst_err[0]) return;
  /* drop what the failed statement left, keep it as text */
  fb->insts.n = ninsts;
  fb->items.n = nitems;
  fb->extra.n = nextra;
  const char *s = op_tok.s, *e = s, *end = p->lx.end;
  while (e < end && *e != ';' && *e != '\n') e++;
  if (e < end && *e == ';') e++;
  ws_ptx_inst in;
  inst_begin(p, &in, &op_tok, guard, guard_not);
  in.op = WS_PTX_OP_UNKNOWN;
  in.ops[0].imm = fb->unknown.n;
  ws_ptx_unknown u = {intern(p, s, (size_t)(e - s)), intern(p, p->inst_err, strlen(p->inst_err))};
  VPUSH(p, fb->unknown, u);
  push_item(p, WS_PTX_I_INST, fb->insts.n, 0, 0, NULL);
  VPUSH(p, fb->insts, in);
}

/* loc -> '.loc' INT INT INT [',' rest-of-line] */
static void parse_loc(parser *p) {
  const token t = p->tok;
  next(p);
  uint64_t file, line, col = 0;
  if (!parse_uint(p, &file, "a file number", UINT32_MAX) ||
      !parse_uint(p, &line, "a line number", UINT32_MAX)) {
    skip_statement(p);
    return;
  }
  if (p->tok.kind == T_INT && p->tok.line == t.line)
    if (!parse_uint(p, &col, "a column", UINT32_MAX)) return;
  const char *text = NULL;
  uint64_t at[2] = {0, 0}; /* inlined_at FILE LINE: the call site */
  int at_next = -1;        /* which of at[] the next integer is, -1: none */
  if (p->tok.kind == T_COMMA && p->tok.line == t.line) {
    /* ", function_name $L__info_string0, inlined_at 1 2 3": keep the text */
    const char *s = p->tok.s;
    const char *e = s;
    while (p->tok.kind != T_EOF && p->tok.line == t.line) {
      if (p->tok.kind == T_IDENT && tok_is(&p->tok, "inlined_at")) at_next = 0;
      else if (p->tok.kind == T_INT && at_next >= 0 && at_next < 2)
        at[at_next++] = strtoull(p->tok.s, NULL, 10);
      else if (at_next != 2) at_next = -1; /* the column after them is ignored */
      e = p->tok.s + p->tok.len;
      next(p);
    }
    text = intern(p, s, (size_t)(e - s));
  }
  p->fb.loc_file = (uint32_t)file;
  p->fb.loc_line = (uint32_t)line;
  int has_at = at_next == 2 && at[0] <= UINT32_MAX && at[1] <= UINT32_MAX;
  p->fb.loc_at_file = has_at ? (uint32_t)at[0] : 0;
  p->fb.loc_at_line = has_at ? (uint32_t)at[1] : 0;
  push_item(p, WS_PTX_I_LOC, (uint32_t)file, (uint32_t)line, (uint32_t)col, text);
}

/* proto -> IDENT ':' '.callprototype' ['(' param ')'] '_' paramlist [.noreturn] ';' */
static void parse_callprototype(parser *p, const token *name) {
  next(p); /* .callprototype */
  ws_ptx_proto pr;
  memset(&pr, 0, sizeof pr);
  pr.name = intern(p, name->s, name->len);
  VEC(ws_ptx_var) rets = {NULL, 0, 0};
  VEC(ws_ptx_var) params = {NULL, 0, 0};
  int ok = 1;
  if (p->tok.kind == T_LPAREN) ok = parse_param_list(p, &rets, 1);
  if (ok && !(p->tok.kind == T_IDENT && tok_is(&p->tok, "_"))) {
    expected(p, "'_' in .callprototype");
    ok = 0;
  }
  if (ok) {
    next(p);
    ok = parse_param_list(p, &params, 1);
  }
  if (ok && tok_is(&p->tok, ".noreturn")) {
    pr.noreturn = 1;
    next(p);
  }
  if (ok) ok = expect(p, T_SEMI, "';' after .callprototype");
  if (ok) {
    layout_params(rets.v, rets.n);
    layout_params(params.v, params.n);
    pr.nrets = rets.n;
    pr.rets = arena_copy(p, rets.v, rets.n, sizeof *rets.v);
    pr.nparams = params.n;
    pr.params = arena_copy(p, params.v, params.n, sizeof *params.v);
    if (ws_ptx_symtab_add(&p->fsyms, name->s, name->len, p->fb.depth, K_PROTO, p->fb.protos.n) < 0)
      p->oom = 1;
    push_item(p, WS_PTX_I_PROTO, p->fb.protos.n, 0, 0, NULL);
    VPUSH(p, p->fb.protos, pr);
  } else {
    skip_statement(p);
  }
  free(rets.v);
  free(params.v);
}

/* btable -> IDENT ':' '.branchtargets' label { ',' label } ';' */
static void parse_branchtargets(parser *p, const token *name) {
  next(p); /* .branchtargets */
  uint32_t tmp[256];
  uint32_t n = 0;
  do {
    if (p->tok.kind != T_IDENT || p->tok.s[0] == '%') {
      expected(p, "a label in .branchtargets");
      skip_statement(p);
      return;
    }
    if (n == 256) {
      ERR_TOK(p, &p->tok, "too many branch targets (at most 256)");
      skip_statement(p);
      return;
    }
    tmp[n++] = label_ref(p, &p->tok);
    next(p);
  } while (accept(p, T_COMMA));
  if (!expect(p, T_SEMI, "';' after .branchtargets")) {
    skip_statement(p);
    return;
  }
  ws_ptx_btable bt = {intern(p, name->s, name->len), n, arena_copy(p, tmp, n, sizeof *tmp)};
  symtab_entry *old = ws_ptx_symtab_find(&p->fsyms, name->s, name->len);
  if (old && old->depth == p->fb.depth) {
    ERR_TOK(p, name, "duplicate symbol '%.*s'", (int)name->len, name->s);
    return;
  }
  if (ws_ptx_symtab_add(&p->fsyms, name->s, name->len, p->fb.depth, K_BTABLE, p->fb.btables.n) < 0)
    p->oom = 1;
  push_item(p, WS_PTX_I_BTABLE, p->fb.btables.n, 0, 0, NULL);
  VPUSH(p, p->fb.btables, bt);
}

/* statement -> regdecl | localvar | label ':' | proto | instruction | block
 *            | loc | '.pragma' STRING ';'
 * block -> '{' { statement } '}' */
static void parse_body(parser *p) {
  fbuild *fb = &p->fb;
  for (;;) {
    if (p->nerrors > MAX_ERRORS) return;
    const token t = p->tok;
    switch (t.kind) {
    case T_EOF:
      return;
    case T_RBRACE:
      if (fb->depth == 1) return;
      ws_ptx_symtab_pop(&p->fsyms, fb->depth);
      close_label_scope(p, fb->depth);
      push_item(p, WS_PTX_I_CLOSE, fb->scope_id[fb->depth], 0, 0, NULL);
      fb->depth--;
      next(p);
      continue;
    case T_LBRACE:
      if (fb->depth == 63) {
        ERR_TOK(p, &t, "blocks nested too deeply");
        return;
      }
      fb->depth++;
      fb->scope_id[fb->depth] = fb->nscopes++;
      push_item(p, WS_PTX_I_OPEN, fb->scope_id[fb->depth], 0, 0, NULL);
      next(p);
      continue;
    case T_AT: {
      next(p);
      int neg = accept(p, T_BANG);
      const token g = p->tok;
      int64_t r = g.kind == T_IDENT ? find_reg(p, g.s, g.len) : -1;
      if (r < 0) {
        char b[64];
        if (g.kind == T_IDENT)
          ERR_TOK(p, &g, "undefined register '%.*s'", (int)g.len, g.s);
        else
          ERR_TOK(p, &g, "expected a predicate after '@', found %s", tok_desc(&g, b, sizeof b));
        skip_statement(p);
        continue;
      }
      if (fb->regs.v[r].type != WS_PTX_T_PRED) {
        ERR_TOK(p, &g, "guard register '%.*s' is not a predicate", (int)g.len, g.s);
        skip_statement(p);
        continue;
      }
      next(p);
      if (!want(p, T_IDENT, "an instruction after the guard")) {
        skip_statement(p);
        continue;
      }
      parse_instruction(p, (int32_t)r, neg);
      continue;
    }
    case T_IDENT:
      if (peek(p)->kind == T_COLON) {
        next(p);
        next(p);
        if (tok_is(&p->tok, ".callprototype")) {
          parse_callprototype(p, &t);
          continue;
        }
        if (tok_is(&p->tok, ".branchtargets")) {
          parse_branchtargets(p, &t);
          continue;
        }
        symtab_entry *e = ws_ptx_symtab_find(&p->labels, t.s, t.len);
        uint32_t li;
        if (e && e->depth < fb->depth && e->value < fb->labels.n && fb->labels.v[e->value].inst != UINT32_MAX) {
          /* an enclosing block's label of that name: this one shadows it */
          label_b nl = {intern(p, t.s, t.len), UINT32_MAX, 0, t.line, t.col, t.s};
          VPUSH(p, fb->labels, nl);
          li = fb->labels.n - 1;
          if (ws_ptx_symtab_add(&p->labels, t.s, t.len, fb->depth, 0, li) < 0) p->oom = 1;
        } else {
          li = e ? e->value : label_ref(p, &t);
        }
        if (li < fb->labels.n) {
          label_b *l = &fb->labels.v[li];
          if (l->inst != UINT32_MAX) {
            ERR_TOK(p, &t, "duplicate label '%.*s'", (int)t.len, t.s);
          } else {
            l->inst = fb->insts.n;
            l->line = t.line;
            push_item(p, WS_PTX_I_LABEL, li, 0, 0, NULL);
          }
        }
        continue;
      }
      parse_instruction(p, -1, 0);
      continue;
    case T_DIR: {
      int sp = decl_space(&t);
      if (sp == WS_PTX_SP_REG) {
        parse_reg_decl(p);
      } else if (sp > 0 && sp != WS_PTX_SP_TEX) {
        parse_local_var(p);
      } else if (tok_is(&t, ".loc")) {
        parse_loc(p);
      } else if (tok_is(&t, ".pragma")) {
        next(p);
        if (!want(p, T_STRING, "a string after .pragma")) {
          skip_statement(p);
          continue;
        }
        push_item(p, WS_PTX_I_PRAGMA, 0, 0, 0, intern(p, p->tok.s + 1, p->tok.len - 2));
        next(p);
        if (!expect(p, T_SEMI, "';' after .pragma")) skip_statement(p);
      } else {
        ERR_TOK(p, &t, "unknown directive '%.*s' in function body", (int)t.len, t.s);
        skip_statement(p);
      }
      continue;
    }
    default: {
      char b[64];
      ERR_TOK(p, &t, "expected a statement, found %s", tok_desc(&t, b, sizeof b));
      next(p);
      skip_statement(p);
      continue;
    }
    }
  }
}

/* Copy the builder into a ws_ptx_function in the arena. */
static void finish_function(parser *p, ws_ptx_function *f) {
  fbuild *fb = &p->fb;
  /* labels: resolve, report undefined ones */
  ws_ptx_label *labels = NULL;
  if (fb->labels.n) {
    labels = ws_arena_alloc(p->arena, fb->labels.n * sizeof *labels);
    if (!labels) {
      p->oom = 1;
      return;
    }
  }
  for (uint32_t i = 0; i < fb->labels.n; i++) {
    label_b *l = &fb->labels.v[i];
    if (l->inst == UINT32_MAX) {
      error_at(p, l->ref_line, l->ref_col, l->ref_at, "undefined label '%s'", l->name);
      l->inst = fb->insts.n;
    }
    labels[i].name = l->name;
    labels[i].inst = l->inst;
    labels[i].line = l->line;
  }
  for (uint32_t i = 0; i < fb->insts.n; i++) {
    ws_ptx_inst *in = &fb->insts.v[i];
    for (int k = 0; k < in->nops; k++)
      if (in->ops[k].kind == WS_PTX_O_LABEL) in->ops[k].imm = fb->labels.v[in->ops[k].reg].inst;
  }
  f->nlabels = fb->labels.n;
  f->labels = labels;
  f->nregs = fb->regs.n;
  f->regs = arena_copy(p, fb->regs.v, fb->regs.n, sizeof *fb->regs.v);
  /* function variables: one frame per state space, declaration order */
  uint64_t *frame[3] = {&f->local_bytes, &f->shared_bytes, &f->callparam_bytes};
  for (uint32_t i = 0; i < fb->vars.n; i++) {
    ws_ptx_var *v = &fb->vars.v[i];
    int k = v->space == WS_PTX_SP_LOCAL ? 0 : v->space == WS_PTX_SP_SHARED ? 1
            : v->space == WS_PTX_SP_PARAM ? 2 : -1;
    if (k < 0) continue;
    uint64_t a = v->align ? v->align : 1;
    v->offset = (*frame[k] + a - 1) / a * a;
    *frame[k] = v->offset + v->size;
  }
  /* each builder array into the arena: f->NAME (count f->nNAME) from fb->NAME */
#define FREEZE(count, name) \
  (f->count = fb->name.n, f->name = arena_copy(p, fb->name.v, fb->name.n, sizeof *fb->name.v))
  FREEZE(nvars, vars);
  FREEZE(nprotos, protos);
  FREEZE(nbtables, btables);
  FREEZE(ninsts, insts);
  FREEZE(nextra, extra);
  FREEZE(nitems, items);
  FREEZE(nunknown, unknown);
#undef FREEZE
  f->nscopes = fb->nscopes;
}

/* After an error in a function header: skip the rest of it and its body
 * (balanced braces), stopping before the next module-level directive. */
static void skip_module_item(parser *p) {
  int depth = 0;
  while (p->tok.kind != T_EOF) {
    if (p->tok.kind == T_LBRACE) depth++;
    else if (p->tok.kind == T_RBRACE) {
      if (--depth <= 0) {
        next(p);
        return;
      }
    } else if (depth == 0 && p->tok.kind == T_SEMI) {
      next(p);
      return;
    } else if (depth == 0 && p->tok.kind == T_DIR &&
               (tok_is(&p->tok, ".entry") || tok_is(&p->tok, ".func") ||
                tok_is(&p->tok, ".visible") || tok_is(&p->tok, ".extern") ||
                tok_is(&p->tok, ".weak") || tok_is(&p->tok, ".global") ||
                tok_is(&p->tok, ".const"))) {
      return;
    }
    next(p);
  }
}

/* function -> linkage* ('.entry' | '.func') [paramlist] IDENT [paramlist]
 *             { perf } ( ';' | '{' { statement } '}' ) */
/* Enters n parameters (or return values: kind K_RET) into the function's
 * symbols; a name already there is an error at `at`. */
static void declare_params(parser *p, const token *at, const ws_ptx_var *v, uint32_t n, int kind) {
  for (uint32_t i = 0; i < n; i++) {
    const char *name = v[i].name;
    if (ws_ptx_symtab_find(&p->fsyms, name, strlen(name))) {
      ERR_TOK(p, at, "duplicate parameter '%s'", name);
      continue;
    }
    if (ws_ptx_symtab_add(&p->fsyms, name, strlen(name), 0, kind, i) < 0) p->oom = 1;
  }
}

static void parse_function(parser *p, uint8_t linkage) {
  fbuild *fb = &p->fb;
  fb_reset(fb);
  ws_ptx_symtab_clear(&p->fsyms);
  ws_ptx_symtab_clear(&p->labels);
  ws_ptx_function f;
  memset(&f, 0, sizeof f);
  f.is_entry = tok_is(&p->tok, ".entry");
  f.linkage = linkage;
  f.line = p->tok.line;
  next(p);
  if (p->tok.kind == T_LPAREN) {
    if (f.is_entry) {
      ERR_TOK(p, &p->tok, ".entry has no return value");
      skip_module_item(p);
      return;
    }
    if (!parse_param_list(p, &fb->rets, 0)) {
      skip_module_item(p);
      return;
    }
  }
  const token nt = p->tok;
  if (!want(p, T_IDENT, "a function name")) {
    skip_module_item(p);
    return;
  }
  f.name = intern(p, nt.s, nt.len);
  next(p);
  if (p->tok.kind == T_LPAREN && !parse_param_list(p, &fb->params, 0)) {
    skip_module_item(p);
    return;
  }
  while (p->tok.kind == T_DIR) {
    if (!parse_perf(p, &f.perf)) {
      skip_module_item(p);
      return;
    }
  }
  /* names of params and rets */
  declare_params(p, &nt, fb->params.v, fb->params.n, K_PARAM);
  declare_params(p, &nt, fb->rets.v, fb->rets.n, K_RET);
  f.param_bytes = layout_params(fb->params.v, fb->params.n);
  layout_params(fb->rets.v, fb->rets.n);
  f.nparams = fb->params.n;
  f.params = arena_copy(p, fb->params.v, fb->params.n, sizeof *fb->params.v);
  f.nrets = fb->rets.n;
  f.rets = arena_copy(p, fb->rets.v, fb->rets.n, sizeof *fb->rets.v);
  f.perf.npragmas = fb->pragmas.n;
  f.perf.pragmas = arena_copy(p, fb->pragmas.v, fb->pragmas.n, sizeof *fb->pragmas.v);

  /* the symbol: a definition may follow a declaration */
  uint32_t index = p->funcs.n;
  symtab_entry *old = ws_ptx_symtab_find(&p->msyms, nt.s, nt.len);
  int is_def = p->tok.kind == T_LBRACE;
  if (old) {
    int ok = old->kind == K_FUNC &&
             (!p->funcs.v[old->value].has_body || !is_def);
    if (!ok) ERR_TOK(p, &nt, "duplicate symbol '%.*s'", (int)nt.len, nt.s);
  }
  if (!old) {
    if (ws_ptx_symtab_add(&p->msyms, nt.s, nt.len, 0, K_FUNC, index) < 0) p->oom = 1;
  } else if (old->kind == K_FUNC && is_def && !p->funcs.v[old->value].has_body &&
             old->value < p->func_def.n) {
    p->func_def.v[old->value] = index;
    old->value = index; /* later uses name the definition */
  }
  if (is_def) {
    const token open = p->tok;
    next(p);
    f.has_body = 1;
    parse_body(p);
    if (p->tok.kind != T_RBRACE) {
      if (p->nerrors <= MAX_ERRORS)
        ERR_TOK(p, &open, "unterminated function body of '%.*s' (missing '}')", (int)nt.len,
                nt.s);
    } else {
      f.end_line = p->tok.line;
      next(p);
    }
    finish_function(p, &f);
  } else {
    expect(p, T_SEMI, "';' or '{' after function header");
  }
  VPUSH(p, p->funcs, f);
  VPUSH(p, p->func_def, index);
  ws_ptx_mitem mi = {WS_PTX_MI_FUNC, index, NULL};
  VPUSH(p, p->mitems, mi);
}

/* module -> { '.version' v | '.target' t | '.address_size' INT | '.file' ...
 *           | '.section' raw | '.pragma' raw | linkage* (function | globalvar) } */
static void parse_module(parser *p) {
  next(p);
  int seen_version = 0;
  /* A text whose first token is no directive is not PTX at all (a password
   * file named where a kernel was expected): say so without quoting it. */
  if (p->tok.kind != T_EOF && p->tok.kind != T_DIR) {
    error_at(p, p->tok.line, p->tok.col, NULL,
             "not a PTX module: it does not begin with a directive such as .version (its text "
             "is not shown)");
    return;
  }
  while (p->tok.kind != T_EOF && p->nerrors <= MAX_ERRORS && !p->oom) {
    const token t = p->tok;
    if (t.kind != T_DIR) {
      char b[64];
      ERR_TOK(p, &t, "expected a directive at module level, found %s", tok_desc(&t, b, sizeof b));
      next(p);
      skip_statement(p);
      continue;
    }
    if (tok_is(&t, ".version")) {
      seen_version = 1;
      parse_version(p);
      continue;
    }
    if (!seen_version) {
      ERR_TOK(p, &t, "PTX must start with .version");
      seen_version = 1;
    }
    if (tok_is(&t, ".target")) {
      parse_target(p);
    } else if (tok_is(&t, ".address_size")) {
      next(p);
      uint64_t v;
      if (parse_uint(p, &v, "32 or 64", 64)) {
        if (v != 32 && v != 64) ERR_TOK(p, &t, ".address_size must be 32 or 64");
        else p->m->address_size = (uint32_t)v;
      }
    } else if (tok_is(&t, ".file")) {
      parse_file(p);
    } else if (tok_is(&t, ".section") || tok_is(&t, ".pragma")) {
      const char *raw = parse_raw_block(p);
      if (raw) {
        ws_ptx_mitem mi = {WS_PTX_MI_RAW, 0, raw};
        VPUSH(p, p->mitems, mi);
      }
    } else {
      uint8_t linkage = 0;
      for (;;) {
        if (tok_is(&p->tok, ".visible")) linkage |= WS_PTX_L_VISIBLE;
        else if (tok_is(&p->tok, ".extern")) linkage |= WS_PTX_L_EXTERN;
        else if (tok_is(&p->tok, ".weak")) linkage |= WS_PTX_L_WEAK;
        else if (tok_is(&p->tok, ".common")) linkage |= WS_PTX_L_COMMON;
        else break;
        next(p);
      }
      const token d = p->tok;
      int sp = decl_space(&d);
      if (tok_is(&d, ".entry") || tok_is(&d, ".func")) {
        parse_function(p, linkage);
      } else if (sp > 0 && sp != WS_PTX_SP_REG && sp != WS_PTX_SP_PARAM) {
        parse_module_var(p, linkage);
      } else {
        char b[64];
        ERR_TOK(p, &d, "unknown directive %s", tok_desc(&d, b, sizeof b));
        next(p);
        skip_statement(p);
      }
    }
  }
  if (!seen_version && p->nerrors == 0) {
    error_at(p, p->tok.line, p->tok.col, NULL, "empty PTX: no .version directive");
  }
}

/* Point calls to declared-then-defined functions at the definition. */
static void redirect_calls(parser *p) {
  for (uint32_t fi = 0; fi < p->funcs.n; fi++) {
    ws_ptx_function *f = &p->funcs.v[fi];
    for (uint32_t i = 0; i < f->ninsts; i++)
      for (int k = 0; k < f->insts[i].nops; k++) {
        ws_ptx_operand *o = &f->insts[i].ops[k];
        if (o->kind == WS_PTX_O_SYM && o->symkind == WS_PTX_S_FUNC && o->reg < p->func_def.n)
          o->reg = p->func_def.v[o->reg];
      }
  }
}

int ws_ptx_parse(ws_ptx_module **out, const char *src, size_t len, const char *path,
                 ws_diag *d) {
  return ws_ptx_parse_opts(out, src, len, path, 0, d);
}

int ws_ptx_parse_opts(ws_ptx_module **out, const char *src, size_t len, const char *path,
                      unsigned flags, ws_diag *d) {
  *out = NULL;
  parser p;
  memset(&p, 0, sizeof p);
  p.flags = flags;
  p.path = path ? path : "<input>";
  p.d = d;
  p.arena = ws_arena_new();
  if (!p.arena) return WS_ENOMEM;
  p.m = ws_arena_alloc(p.arena, sizeof *p.m);
  if (!p.m || build_words(&p) < 0 || ws_ptx_symtab_init(&p.msyms, 256) < 0 ||
      ws_ptx_symtab_init(&p.fsyms, 1024) < 0 || ws_ptx_symtab_init(&p.labels, 256) < 0) {
    p.oom = 1;
  } else {
    p.m->arena = p.arena;
    p.m->path = intern(&p, p.path, strlen(p.path));
    p.m->address_size = 64;
    ws_ptx_lex_init(&p.lx, src, len);
    parse_module(&p);
    redirect_calls(&p);
    ws_ptx_module *m = p.m;
    m->nvars = p.vars.n;
    m->vars = arena_copy(&p, p.vars.v, p.vars.n, sizeof *p.vars.v);
    m->nfuncs = p.funcs.n;
    m->funcs = arena_copy(&p, p.funcs.v, p.funcs.n, sizeof *p.funcs.v);
    m->nfiles = p.files.n;
    m->files = arena_copy(&p, p.files.v, p.files.n, sizeof *p.files.v);
    m->nitems = p.mitems.n;
    m->items = arena_copy(&p, p.mitems.v, p.mitems.n, sizeof *p.mitems.v);
  }
  ws_ptx_symtab_free(&p.words);
  ws_ptx_symtab_free(&p.msyms);
  ws_ptx_symtab_free(&p.fsyms);
  ws_ptx_symtab_free(&p.labels);
  free(p.vars.v);
  free(p.funcs.v);
  free(p.files.v);
  free(p.mitems.v);
  free(p.func_def.v);
  fb_free(&p.fb);
  if (p.oom) {
    ws_arena_free(p.arena);
    ws_diag_add(d, WS_SEV_ERROR, p.path, 0, 0, "out of memory while parsing");
    return WS_ENOMEM;
  }
  if (p.nerrors) {
    ws_arena_free(p.arena);
    return WS_EINVAL;
  }
  *out = p.m;
  return WS_OK;
}

static int parse_text(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  return ws_ptx_parse(out, text, len, path, d);
}

int ws_ptx_parse_file(ws_ptx_module **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_parse_file(out, path, d, parse_text);
}

void ws_ptx_module_free(ws_ptx_module *m) {
  if (m) ws_arena_free(m->arena);
}

const ws_ptx_function *ws_ptx_find_kernel(const ws_ptx_module *m, const char *query) {
  const ws_ptx_function *f = ws_ptx_find_function(m, query), *hit = NULL;
  if (f || !m || !query) return f;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].is_entry && ws_demangle_match(m->funcs[i].name, query)) {
      if (hit) return NULL; /* ambiguous */
      hit = &m->funcs[i];
    }
  return hit;
}

const ws_ptx_function *ws_ptx_find_function(const ws_ptx_module *m, const char *name) {
  if (!m || !name) return NULL;
  const ws_ptx_function *found = NULL;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (strcmp(m->funcs[i].name, name) == 0 && (!found || m->funcs[i].has_body))
      found = &m->funcs[i];
  return found;
}
