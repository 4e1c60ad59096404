/*
 * ptx_int.h — private to src/ptx: the lexer, the name table, and the
 * per-opcode facts the parser checks.
 */
#ifndef WS_PTX_INT_H
#define WS_PTX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/ptx.h"

/* --- opcode facts (tables.c) --- */
typedef struct ptx_opinfo {
  unsigned char omin, omax; /* operand count range */
  unsigned char tmin, tmax; /* type suffix count range */
  unsigned char types;      /* allowed WS_PTX_TK_* */
} ptx_opinfo;
const ptx_opinfo *ws_ptx_opcode_info(ws_ptx_opcode op);

/* --- lexer (lex.c) --- */
typedef enum tok_kind {
  T_EOF, T_IDENT, T_DIR, T_INT, T_F32, T_F64, T_FLOAT, T_STRING,
  T_COMMA, T_SEMI, T_COLON, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
  T_LPAREN, T_RPAREN, T_LT, T_GT, T_PLUS, T_MINUS, T_BANG, T_AT, T_PIPE,
  T_EQ, T_BAD
} tok_kind;

typedef struct token {
  tok_kind kind;     /* what it is */
  const char *s;     /* start in the source */
  uint32_t len;      /* bytes */
  uint32_t line;     /* 1-based */
  uint32_t col;      /* 1-based */
  uint64_t ival;     /* T_INT value, T_F32/T_F64 bits, T_FLOAT double bits */
  int int_hex;       /* T_INT written in hex */
  int overflow;      /* T_INT did not fit in 64 bits / bad digits */
} token;

typedef struct lexer {
  const char *src;        /* text */
  const char *end;        /* one past the end */
  const char *p;          /* next byte */
  const char *line_start; /* start of the current line */
  uint32_t line;          /* current line */
} lexer;

void ws_ptx_lex_init(lexer *lx, const char *src, size_t len);
void ws_ptx_lex_next(lexer *lx, token *t);
/* Start and length of the source line containing `at`. */
const char *ws_ptx_lex_line_of(const lexer *lx, const char *at, size_t *len);

/* --- name table with scopes (symtab.c) --- */
typedef struct symtab_entry {
  const char *key;  /* borrowed */
  uint32_t len;     /* key length */
  uint32_t next;    /* next entry in the bucket chain (UINT32_MAX = end) */
  uint32_t depth;   /* scope depth it was declared at */
  uint32_t kind;    /* caller's tag */
  uint32_t value;   /* caller's value */
} symtab_entry;

typedef struct symtab {
  uint32_t *buckets;        /* heads, UINT32_MAX = empty */
  uint32_t nbuckets;        /* power of two */
  symtab_entry *entries;    /* in insertion order */
  uint32_t count;           /* entries used */
  size_t cap;               /* entries allocated (util/vec.h) */
} symtab;

int ws_ptx_symtab_init(symtab *t, uint32_t nbuckets);
void ws_ptx_symtab_free(symtab *t);
/* Most recent entry for the key, or NULL. */
symtab_entry *ws_ptx_symtab_find(const symtab *t, const char *key, size_t len);
/* Add an entry; returns 0 or -1 on ENOMEM. */
int ws_ptx_symtab_add(symtab *t, const char *key, size_t len, uint32_t depth,
               uint32_t kind, uint32_t value);
/* Drop every entry declared at depth >= `depth` (they are the newest). */
void ws_ptx_symtab_pop(symtab *t, uint32_t depth);
void ws_ptx_symtab_clear(symtab *t);

#endif
