/*
 * printf.c — device printf: nvcc lowers printf(fmt, ...) to
 * vprintf(fmt, args) where `args` points to a buffer holding each argument
 * at its natural alignment (int/unsigned/char: 4 bytes, long/size_t/
 * pointers/doubles: 8; floats are promoted to double).  This reads the
 * format string and the buffer through the emulator's memory and formats
 * with the host's printf, one conversion at a time, into the block's
 * ws_strbuf (no fixed-size buffer: nothing is cut).  The output limit
 * (WS_EMU_MAX_PRINTF_BYTES) is the launch's: every byte is counted in one
 * counter the workers share as it is formatted, so the launch's output
 * and what its workers hold stay bounded by it whatever -j is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "util/strbuf.h"

/* Bytes the launch may still print under b (0 once it is spent). */
static uint64_t room(const vp_budget *b) {
  uint64_t used = __atomic_load_n(b->used, __ATOMIC_RELAXED);
  return used < b->limit ? b->limit - used : 0;
}

/* Counts n more bytes of output against the launch's budget: 0, or 1 when
 * the launch has now passed its limit. */
static int spend(const vp_budget *b, size_t n) {
  return __atomic_add_fetch(b->used, (uint64_t)n, __ATOMIC_RELAXED) > b->limit;
}

/* Appends the NUL-terminated string at addr to *s, at most max bytes of it:
 * 0, or -1 when a fetch failed (the fetch says why) or s ran out of memory.
 * No cut at a fixed length: max is one more than the launch may still
 * print, so a longer string passes the limit, which the caller reports. */
static int fetch_str(ws_strbuf *s, vp_fetch fetch, void *ctx, uint64_t addr, uint64_t max) {
  for (uint64_t i = 0; i < max; i++) {
    char c;
    if (fetch(ctx, addr + i, &c, 1)) return -1;
    if (!c) break;
    ws_sb_putc(s, c);
  }
  return s->oom ? -1 : 0;
}

/* The next argument of sz bytes (4 or 8) of the buffer at args, at its
 * natural alignment from *off, which moves past it: 0 or -1 (fetch). */
static int next_arg(vp_fetch fetch, void *ctx, uint64_t args, uint64_t *off, void *dst, uint64_t sz) {
  *off = (*off + sz - 1) & ~(sz - 1);
  if (fetch(ctx, args + *off, dst, (size_t)sz)) return -1;
  *off += sz;
  return 0;
}

int ws_emu_vprintf(ws_strbuf *out, vp_fetch fetch, void *ctx, uint64_t fmt, uint64_t args,
                   const vp_budget *b) {
  ws_strbuf fs = WS_STRBUF_INIT;
  int st = fetch_str(&fs, fetch, ctx, fmt, room(b) + 1), over = 0;
  size_t start = out->n, counted = out->n;
  uint64_t off = 0;
  /* every piece appended is counted against the launch's budget at once,
   * so that all workers together stop at the limit */
  for (const char *p = ws_sb_str(&fs); !st && *p && !out->oom;
       over = spend(b, out->n - counted), counted = out->n) {
    if (over) break;
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      ws_sb_putn(out, p, n);
      p += n;
      continue;
    }
    if (p[1] == '%') {
      ws_sb_putc(out, '%');
      p += 2;
      continue;
    }
    /* %[flags][width][.prec][length]conv; a width or precision of `*`
     * takes the next argument, an int, as the host's printf does (the
     * Programming Guide lists `*` among the widths): its digits are
     * written into spec, a negative width as the `-` flag, a negative
     * precision as none */
    char spec[96];
    size_t k = 0;
    const char *q = p + 1;
    spec[k++] = '%';
    while (*q && strchr("-+ #0", *q) && k < 40) spec[k++] = *q++;
    if (*q == '*') {
      int32_t w = 0;
      q++;
      if ((st = next_arg(fetch, ctx, args, &off, &w, 4)) != 0) break;
      k += (size_t)snprintf(spec + k, 16, "%lld", (long long)w);
    }
    while (*q >= '0' && *q <= '9' && k < 56) spec[k++] = *q++;
    if (*q == '.') {
      q++;
      if (*q == '*') {
        int32_t pr = 0;
        q++;
        if ((st = next_arg(fetch, ctx, args, &off, &pr, 4)) != 0) break;
        if (pr >= 0) k += (size_t)snprintf(spec + k, 16, ".%d", (int)pr);
      } else {
        spec[k++] = '.';
        while (*q >= '0' && *q <= '9' && k < 72) spec[k++] = *q++;
      }
    }
    int wide = 0;
    while (*q && strchr("hlLqjzt", *q)) {
      if (*q == 'l' || *q == 'L' || *q == 'q' || *q == 'j' || *q == 'z' || *q == 't') wide = 1;
      q++;
    }
    char conv = *q;
    if (!conv) break;
    q++;
    /* spec is the program's own format, checked above to one conversion */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
      uint64_t v = 0;
      int sz = wide ? 8 : 4;
      if ((st = next_arg(fetch, ctx, args, &off, &v, (uint64_t)sz)) != 0) break;
      spec[k++] = 'l';
      spec[k++] = 'l';
      spec[k++] = conv;
      spec[k] = '\0';
      if (conv == 'd' || conv == 'i') {
        ws_sb_printf(out, spec, sz == 4 ? (long long)(int32_t)(uint32_t)v : (long long)v);
      } else if (conv == 'c') {
        spec[k - 3] = 'c';
        spec[k - 2] = '\0';
        ws_sb_printf(out, spec, (int)(v & 0xff));
      } else {
        ws_sb_printf(out, spec, sz == 4 ? (unsigned long long)(uint32_t)v : (unsigned long long)v);
      }
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      double v;
      if ((st = next_arg(fetch, ctx, args, &off, &v, 8)) != 0) break;
      spec[k++] = conv;
      spec[k] = '\0';
      ws_sb_printf(out, spec, v);
      break;
    }
    case 's': {
      uint64_t a;
      if ((st = next_arg(fetch, ctx, args, &off, &a, 8)) != 0) break;
      ws_strbuf sv = WS_STRBUF_INIT;
      spec[k++] = 's';
      spec[k] = '\0';
      if ((st = fetch_str(&sv, fetch, ctx, a, room(b) + 1)) == 0) ws_sb_printf(out, spec, ws_sb_str(&sv));
      ws_sb_free(&sv);
      break;
    }
    case 'p': {
      uint64_t a;
      if ((st = next_arg(fetch, ctx, args, &off, &a, 8)) != 0) break;
      ws_sb_printf(out, "0x%llx", (unsigned long long)a);
      break;
    }
    default:
      ws_sb_printf(out, "%%%c", conv);
      break;
    }
#pragma GCC diagnostic pop
    p = q;
  }
  ws_sb_free(&fs);
  if (over || spend(b, out->n - counted)) return -2;
  if (st || out->oom) return -1;
  return (int)(out->n - start);
}
