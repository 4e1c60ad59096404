/* strbuf.c — growable strings (util/strbuf.h). */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static int reserve(ws_strbuf *b, size_t extra) {
  if (b->oom) return 0;
  if (extra > (size_t)-1 - b->n - 1 || WS_VEC_RESERVE(b->s, b->cap, b->n + extra + 1)) {
    b->oom = 1;
    return 0;
  }
  return 1;
}

void ws_sb_putn(ws_strbuf *b, const char *s, size_t n) {
  if (!reserve(b, n)) return;
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

void ws_sb_puts(ws_strbuf *b, const char *s) { ws_sb_putn(b, s, strlen(s)); }

void ws_sb_putc(ws_strbuf *b, char c) { ws_sb_putn(b, &c, 1); }

void ws_sb_vprintf(ws_strbuf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int len = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (len < 0) {
    b->oom = 1; /* an encoding error: treat like a failed append */
    return;
  }
  if (!reserve(b, (size_t)len)) return;
  vsnprintf(b->s + b->n, (size_t)len + 1, fmt, ap);
  b->n += (size_t)len;
}

void ws_sb_printf(ws_strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ws_sb_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *ws_sb_str(const ws_strbuf *b) { return b->s && !b->oom ? b->s : ""; }

char *ws_sb_take(ws_strbuf *b) {
  char *s = NULL;
  if (!b->oom) s = b->s ? b->s : ws_strdup("");
  else free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
  b->oom = 0;
  return s;
}

void ws_sb_free(ws_strbuf *b) {
  free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
  b->oom = 0;
}

char *ws_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}
