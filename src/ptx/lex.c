/*
 * lex.c — the PTX lexer.  Produces one token at a time with its line and
 * column; the parser keeps at most one token of lookahead.
 *
 * Tokens: identifiers ([A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+),
 * directives and dotted modifiers (".global", ".shared::cta",
 * ".L2::128B"), integers (decimal, 0x hex, 0b binary, leading-0 octal,
 * optional U suffix), 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX float bits, decimal
 * floats, strings, punctuation.  Comments (// and C style) are skipped.
 */
#include "ptx/ptx_int.h"

#include <stdlib.h>
#include <string.h>

void ws_ptx_lex_init(lexer *lx, const char *src, size_t len) {
  lx->src = src;
  lx->end = src + len;
  lx->p = src;
  lx->line_start = src;
  lx->line = 1;
}

const char *ws_ptx_lex_line_of(const lexer *lx, const char *at, size_t *len) {
  const char *s = at;
  while (s > lx->src && s[-1] != '\n') s--;
  const char *e = at;
  while (e < lx->end && *e != '\n' && *e != '\r') e++;
  *len = (size_t)(e - s);
  return s;
}

/* Character classes: 1 starts an identifier, 2 continues one. */
#define S3 3, 3, 3, 3, 3, 3, 3, 3, 3, 3
static const unsigned char cclass[256] = {
    ['$'] = 3, ['%'] = 3, ['_'] = 3,
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2,
    ['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
    ['a'] = S3, S3, 3, 3, 3, 3, 3, 3,
    ['A'] = S3, S3, 3, 3, 3, 3, 3, 3,
};
#undef S3
static int is_id_start(int c) { return cclass[c & 255] & 1; }
static int is_id_char(int c) { return cclass[c & 255] & 2; }
static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Skip blanks and comments, counting lines. */
static void skip_space(lexer *lx) {
  const char *p = lx->p, *e = lx->end;
  for (;;) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'))
      p++;
    if (p >= e) break;
    if (*p == '\n') {
      p++;
      lx->line++;
      lx->line_start = p;
      continue;
    }
    /* A comment ends at a NUL byte too: the NUL is then a bad token (PTX
     * is text), never part of a raw block kept verbatim and cut short
     * where it is printed as a C string. */
    if (*p == '/' && p + 1 < e && p[1] == '/') {
      while (p < e && *p != '\n' && *p != '\0') p++;
      continue;
    }
    if (*p == '/' && p + 1 < e && p[1] == '*') {
      p += 2;
      while (p < e && *p != '\0' && !(*p == '*' && p + 1 < e && p[1] == '/')) {
        if (*p == '\n') {
          lx->line++;
          lx->line_start = p + 1;
        }
        p++;
      }
      if (p < e && *p == '\0') break;
      p = p < e ? p + 2 : e;
      continue;
    }
    break;
  }
  lx->p = p;
}

static void lex_number(lexer *lx, token *t) {
  const char *p = lx->p, *e = lx->end;
  t->kind = T_INT;
  if (p + 1 < e && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
    int nd = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
    const char *q = p + 2;
    uint64_t v = 0;
    int n = 0;
    while (q < e && hexval(*q) >= 0) {
      v = (v << 4) | (uint64_t)hexval(*q);
      q++;
      n++;
    }
    t->kind = nd == 8 ? T_F32 : T_F64;
    t->ival = v;
    if (n != nd) t->overflow = 1;
    lx->p = q;
    return;
  }
  uint64_t v = 0;
  int over = 0;
  const char *q = p;
  if (p + 1 < e && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    q = p + 2;
    int n = 0;
    while (q < e && hexval(*q) >= 0) {
      if (v >> 60) over = 1;
      v = (v << 4) | (uint64_t)hexval(*q++);
      n++;
    }
    if (!n) over = 1;
    t->int_hex = 1;
  } else if (p + 1 < e && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
    q = p + 2;
    int n = 0;
    while (q < e && (*q == '0' || *q == '1')) {
      if (v >> 63) over = 1;
      v = (v << 1) | (uint64_t)(*q++ - '0');
      n++;
    }
    if (!n) over = 1;
  } else {
    /* decimal (or octal) integer, or a decimal float */
    const char *r = p;
    while (r < e && *r >= '0' && *r <= '9') r++;
    if (r < e && (*r == '.' || *r == 'e' || *r == 'E') &&
        (*r != '.' || (r + 1 < e && r[1] >= '0' && r[1] <= '9'))) {
      char buf[128];
      const char *s = p;
      size_t n = 0;
      while (s < e && n + 1 < sizeof buf &&
             ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' ||
              ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E'))))
        buf[n++] = *s++;
      buf[n] = '\0';
      char *endp;
      double d = strtod(buf, &endp);
      t->kind = T_FLOAT;
      memcpy(&t->ival, &d, sizeof d);
      if (endp != buf + n) t->overflow = 1;
      lx->p = s;
      return;
    }
    int octal = p[0] == '0' && r - p > 1;
    for (q = p; q < r; q++) {
      int dv = *q - '0';
      if (octal) {
        if (dv > 7) over = 1;
        if (v >> 61) over = 1;
        v = v * 8 + (uint64_t)dv;
      } else {
        if (v > (UINT64_MAX - (uint64_t)dv) / 10) over = 1;
        v = v * 10 + (uint64_t)dv;
      }
    }
  }
  if (q < e && (*q == 'U' || *q == 'u')) q++;
  if (q < e && is_id_char(*q)) {
    /* "12abc": a malformed number; swallow the rest for one clear error */
    while (q < e && is_id_char(*q)) q++;
    over = 1;
  }
  t->ival = v;
  t->overflow = over;
  lx->p = q;
}

void ws_ptx_lex_next(lexer *lx, token *t) {
  skip_space(lx);
  const char *p = lx->p, *e = lx->end;
  t->s = p;
  t->line = lx->line;
  t->col = (uint32_t)(p - lx->line_start) + 1;
  t->ival = 0;
  t->int_hex = 0;
  t->overflow = 0;
  if (p >= e) {
    t->kind = T_EOF;
    t->len = 0;
    return;
  }
  int c = (unsigned char)*p;
  if (is_id_start(c)) {
    const char *q = p + 1;
    while (q < e && is_id_char((unsigned char)*q)) q++;
    t->kind = T_IDENT;
    lx->p = q;
  } else if (c == '.' && p + 1 < e && (is_id_char((unsigned char)p[1]))) {
    /* .name, .shared::cta, .L2::128B, .1d */
    const char *q = p + 1;
    for (;;) {
      while (q < e && is_id_char((unsigned char)*q)) q++;
      if (q + 2 < e && q[0] == ':' && q[1] == ':' && is_id_char((unsigned char)q[2])) {
        q += 2;
        continue;
      }
      break;
    }
    t->kind = T_DIR;
    lx->p = q;
  } else if (c >= '0' && c <= '9') {
    lex_number(lx, t);
  } else if (c == '"') {
    const char *q = p + 1;
    while (q < e && *q != '"' && *q != '\n' && *q != '\0') {
      if (*q == '\\' && q + 1 < e) q++;
      q++;
    }
    if (q < e && *q == '"') {
      t->kind = T_STRING;
      lx->p = q + 1;
    } else {
      t->kind = T_BAD; /* unterminated string (a NUL byte in it: the token ends with it) */
      lx->p = q < e && *q == '\0' ? q + 1 : q;
    }
  } else {
    lx->p = p + 1;
    switch (c) {
    case ',': t->kind = T_COMMA; break;
    case ';': t->kind = T_SEMI; break;
    case ':': t->kind = T_COLON; break;
    case '{': t->kind = T_LBRACE; break;
    case '}': t->kind = T_RBRACE; break;
    case '[': t->kind = T_LBRACK; break;
    case ']': t->kind = T_RBRACK; break;
    case '(': t->kind = T_LPAREN; break;
    case ')': t->kind = T_RPAREN; break;
    case '<': t->kind = T_LT; break;
    case '>': t->kind = T_GT; break;
    case '+': t->kind = T_PLUS; break;
    case '-': t->kind = T_MINUS; break;
    case '!': t->kind = T_BANG; break;
    case '@': t->kind = T_AT; break;
    case '|': t->kind = T_PIPE; break;
    case '=': t->kind = T_EQ; break;
    default: t->kind = T_BAD; break;
    }
  }
  t->len = (uint32_t)(lx->p - p);
}
