/*
 * diag.c — the diagnostics list every library call reports into.
 * Invariant: `errors` counts the WS_SEV_ERROR entries ever added (even when
 * their text could not be stored), so callers can trust it after ENOMEM.
 */
#include "warpsight/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/vec.h"

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
  if (WS_VEC_RESERVE(d->items, d->cap, d->count + 1)) return WS_EINVAL;
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_vprintf(&b, fmt, ap);
  size_t n = b.n;
  char *msg = ws_sb_take(&b);
  if (!msg) return WS_EINVAL;
  clip(msg, n, WS_DIAG_MAX_MESSAGE);
  ws_diag_entry *e = &d->items[d->count++];
  e->severity = sev;
  e->file = ws_strdup(file);
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
  ws_strbuf what = WS_STRBUF_INIT; /* a kernel's name can be long: no fixed buffer */
  va_list ap;
  va_start(ap, fmt);
  ws_sb_vprintf(&what, fmt, ap);
  va_end(ap);
  ws_diag_add(d, WS_SEV_ERROR, file, 0, 0, "out of memory while %s", what.oom ? "(no memory to say what)" : ws_sb_str(&what));
  ws_sb_free(&what);
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

void ws_diag_append(ws_diag *d, const ws_diag *from) {
  for (size_t i = 0; d && from && i < from->count; i++) {
    const ws_diag_entry *x = &from->items[i];
    ws_diag_add(d, x->severity, x->file, x->line, x->col, "%s", x->message);
    if (x->source_line) ws_diag_set_source(d, x->source_line, strlen(x->source_line));
  }
}

static const char *sev_name(ws_severity s) {
  switch (s) {
  case WS_SEV_ERROR: return "error";
  case WS_SEV_WARNING: return "warning";
  case WS_SEV_NOTE: return "note";
  }
  return "error";
}

/* Appends entry e as "file:line:col: error: msg\n" (+ source and caret). */
static void format_entry(ws_strbuf *b, const ws_diag_entry *e) {
  if (e->file && e->line > 0 && e->col > 0)
    ws_sb_printf(b, "%s:%d:%d: ", e->file, e->line, e->col);
  else if (e->file && e->line > 0)
    ws_sb_printf(b, "%s:%d: ", e->file, e->line);
  else if (e->file)
    ws_sb_printf(b, "%s: ", e->file);
  ws_sb_printf(b, "%s: %s\n", sev_name(e->severity), e->message);
  if (e->source_line) {
    ws_sb_printf(b, "  %s\n  ", e->source_line);
    size_t len = strlen(e->source_line);
    for (int c = 1; c < e->col; c++) {
      char ch = (size_t)(c - 1) < len ? e->source_line[c - 1] : ' ';
      ws_sb_putc(b, ch == '\t' ? '\t' : ' ');
    }
    ws_sb_puts(b, "^\n");
  }
}

char *ws_diag_format_entry(const ws_diag_entry *e) {
  ws_strbuf b = WS_STRBUF_INIT;
  format_entry(&b, e);
  return ws_sb_take(&b);
}

char *ws_diag_format(const ws_diag *d) {
  ws_strbuf b = WS_STRBUF_INIT;
  for (size_t i = 0; d && i < d->count; i++) format_entry(&b, &d->items[i]);
  return ws_sb_take(&b);
}

int ws_diag_print(FILE *f, const ws_diag *d, const char *who) {
  char *s = ws_diag_format(d);
  if (!s) return WS_ENOMEM;
  for (const char *p = s; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    int bare = strncmp(p, "error:", 6) == 0 || strncmp(p, "warning:", 8) == 0 ||
               strncmp(p, "note:", 5) == 0;
    fprintf(f, "%s%s%.*s\n", bare && who ? who : "", bare && who ? ": " : "", (int)n, p);
    p += n + (nl ? 1 : 0);
  }
  free(s);
  return WS_OK;
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
