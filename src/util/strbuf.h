/*
 * util/strbuf.h — a growable NUL-terminated string for building messages,
 * labels and reports without fixed-size buffers.  Internal to the library.
 *
 * An allocation failure is sticky: later appends do nothing, `oom` stays 1,
 * and ws_sb_take() returns NULL, so callers check once at the end.
 * Zero-initialise (WS_STRBUF_INIT) before use; ws_sb_free() or ws_sb_take()
 * when done.
 */
#ifndef WS_UTIL_STRBUF_H
#define WS_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct ws_strbuf {
  char *s;    /* the text, NUL-terminated once anything was appended (owned) */
  size_t n;   /* bytes in use, NUL excluded */
  size_t cap; /* bytes allocated */
  int oom;    /* 1 after an allocation failure */
} ws_strbuf;

#define WS_STRBUF_INIT {NULL, 0, 0, 0}

void ws_sb_puts(ws_strbuf *b, const char *s);
void ws_sb_putn(ws_strbuf *b, const char *s, size_t n);
void ws_sb_putc(ws_strbuf *b, char c);
void ws_sb_printf(ws_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ws_sb_vprintf(ws_strbuf *b, const char *fmt, va_list ap);
/* The text (never NULL: "" when empty), borrowed until the next append. */
const char *ws_sb_str(const ws_strbuf *b);
/* Hand the text to the caller (malloc'd, caller frees; NULL after an
 * allocation failure) and reset the buffer. */
char *ws_sb_take(ws_strbuf *b);
void ws_sb_free(ws_strbuf *b);

/* A malloc'd copy of s (NULL for NULL or on failure). */
char *ws_strdup(const char *s);

#endif
