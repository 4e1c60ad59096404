/*
 * advice_text.c — the advisor's findings as plain text (warpsight/report.h).
 *
 *   bottleneck: memory-bound (gpuperf: T_mem' = ... > T_comp = ...)
 *    1. [gpuperf] B_memlp = 38 % of run time (...): ...
 *       try: raise memory-level parallelism: ...
 *    2. [transit] thread bound: ...
 *       try: ...
 */
#include "warpsight/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
  char *s;    /* NUL-terminated text (owned) */
  size_t len; /* characters in s */
  size_t cap; /* bytes allocated */
  int oom;    /* an append failed */
} buf;

static void put(buf *b, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *f, ...) {
  if (b->oom) return;
  va_list ap, ap2;
  va_start(ap, f);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, f, ap2);
  va_end(ap2);
  if (n < 0) {
    b->oom = 1;
    va_end(ap);
    return;
  }
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)n;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = 1;
      va_end(ap);
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  vsnprintf(b->s + b->len, b->cap - b->len, f, ap);
  b->len += (size_t)n;
  va_end(ap);
}

char *ws_report_advice_text(const ws_advice *a) {
  buf b = {0};
  put(&b, "bottleneck: %s\n",
      a && a->bottleneck ? a->bottleneck : "unknown (no model gave one)");
  for (size_t i = 0; a && i < a->count; i++) {
    const ws_advice_item *it = &a->items[i];
    put(&b, "%2zu. [%s] %s\n", i + 1, it->model ? it->model : "?",
        it->finding);
    if (it->action && *it->action) put(&b, "    try: %s\n", it->action);
  }
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  if (!b.s) { /* unreachable: the first put always writes */
    b.s = malloc(1);
    if (b.s) b.s[0] = '\0';
  }
  return b.s;
}
