/*
 * diag.c — the diagnostics list every library call reports into.
 * Invariant: `errors` counts the WS_SEV_ERROR entries ever added (even when
 * their text could not be stored), so callers can trust it after ENOMEM.
 */
#include "warpsight/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s);
  char *p = malloc(n + 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

/* Cut s (n bytes) to at most max bytes at a UTF-8 character boundary and
 * end it with an ellipsis: a 100 MB kernel name or source line in a
 * message must not be echoed whole.  s has room for it. */
static void clip(char *s, size_t n, size_t max) {
  if (n <= max + 3) return; /* room for the ellipsis */
  size_t k = max;
  while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--; /* not inside a character */
  memcpy(s + k, "\xe2\x80\xa6", 4);                          /* U+2026 and the NUL */
}

int ws_diag_addv(ws_diag *d, ws_severity sev, const char *file, int line,
                 int col, const char *fmt, va_list ap) {
  if (!d) return WS_EINVAL;
  if (sev == WS_SEV_ERROR) d->errors++;
  if (d->count == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 8;
    ws_diag_entry *items = realloc(d->items, cap * sizeof *items);
    if (!items) return WS_EINVAL;
    d->items = items;
    d->cap = cap;
  }
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return WS_EINVAL;
  char *msg = malloc((size_t)n + 1);
  if (!msg) return WS_EINVAL;
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  clip(msg, (size_t)n, WS_DIAG_MAX_MESSAGE);
  ws_diag_entry *e = &d->items[d->count++];
  e->severity = sev;
  e->file = dup_str(file);
  e->line = line;
  e->col = col;
  e->message = msg;
  e->source_line = NULL;
  return WS_EINVAL;
}

int ws_diag_add(ws_diag *d, ws_severity sev, const char *file, int line,
                int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = ws_diag_addv(d, sev, file, line, col, fmt, ap);
  va_end(ap);
  return r;
}

int ws_diag_error(ws_diag *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = ws_diag_addv(d, WS_SEV_ERROR, NULL, 0, 0, fmt, ap);
  va_end(ap);
  return r;
}

int ws_diag_oom(ws_diag *d, int st, size_t errors_before, const char *file, const char *fmt, ...) {
  if (st != WS_ENOMEM || !d || d->errors != errors_before) return st;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  ws_diag_add(d, WS_SEV_ERROR, file, 0, 0, "out of memory while %s", what);
  return st;
}

void ws_diag_set_source(ws_diag *d, const char *line_start, size_t len) {
  if (!d || d->count == 0 || !line_start) return;
  ws_diag_entry *e = &d->items[d->count - 1];
  free(e->source_line);
  e->source_line = malloc(len + 1);
  if (!e->source_line) return;
  memcpy(e->source_line, line_start, len);
  e->source_line[len] = '\0';
  clip(e->source_line, len, WS_DIAG_MAX_MESSAGE);
}

static const char *sev_name(ws_severity s) {
  switch (s) {
  case WS_SEV_ERROR: return "error";
  case WS_SEV_WARNING: return "warning";
  case WS_SEV_NOTE: return "note";
  }
  return "error";
}

/* Appends to a growable buffer; returns 0 or -1 on ENOMEM. */
typedef struct buf {
  char *p;
  size_t len, cap;
} buf;

static int buf_printf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int buf_printf(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return -1;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

/* Appends entry e as "file:line:col: error: msg\n" (+ source and caret). */
static int format_entry(buf *b, const ws_diag_entry *e) {
  int r = 0;
  if (e->file && e->line > 0 && e->col > 0)
    r = buf_printf(b, "%s:%d:%d: ", e->file, e->line, e->col);
  else if (e->file && e->line > 0)
    r = buf_printf(b, "%s:%d: ", e->file, e->line);
  else if (e->file)
    r = buf_printf(b, "%s: ", e->file);
  if (r == 0) r = buf_printf(b, "%s: %s\n", sev_name(e->severity), e->message);
  if (r == 0 && e->source_line) {
    r = buf_printf(b, "  %s\n  ", e->source_line);
    size_t n = strlen(e->source_line);
    for (int c = 1; r == 0 && c < e->col; c++) {
      char ch = (size_t)(c - 1) < n ? e->source_line[c - 1] : ' ';
      r = buf_printf(b, "%c", ch == '\t' ? '\t' : ' ');
    }
    if (r == 0) r = buf_printf(b, "^\n");
  }
  return r;
}

char *ws_diag_format_entry(const ws_diag_entry *e) {
  buf b = {NULL, 0, 0};
  if (buf_printf(&b, "%s", "") < 0 || format_entry(&b, e) < 0) {
    free(b.p);
    return NULL;
  }
  return b.p;
}

char *ws_diag_format(const ws_diag *d) {
  buf b = {NULL, 0, 0};
  if (buf_printf(&b, "%s", "") < 0) return NULL;
  for (size_t i = 0; d && i < d->count; i++) {
    if (format_entry(&b, &d->items[i]) < 0) {
      free(b.p);
      return NULL;
    }
  }
  return b.p;
}

void ws_diag_clear(ws_diag *d) {
  if (!d) return;
  for (size_t i = 0; i < d->count; i++) {
    free(d->items[i].file);
    free(d->items[i].message);
    free(d->items[i].source_line);
  }
  d->count = 0;
  d->errors = 0;
}

void ws_diag_free(ws_diag *d) {
  if (!d) return;
  ws_diag_clear(d);
  free(d->items);
  d->items = NULL;
  d->cap = 0;
}
