/*
 * printf.c — device printf: nvcc lowers printf(fmt, ...) to
 * vprintf(fmt, args) where `args` points to a buffer holding each argument
 * at its natural alignment (int/unsigned/char: 4 bytes, long/size_t/
 * pointers/doubles: 8; floats are promoted to double).  This reads the
 * format string and the buffer through the emulator's memory and formats
 * with the host's snprintf, one conversion at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "util/strbuf.h"

/* Appends n bytes of s: 0, or -1 once out has run out of memory. */
static int append(ws_strbuf *out, const char *s, size_t n) {
  ws_sb_putn(out, s, n);
  return out->oom ? -1 : 0;
}

/* Reads a NUL-terminated string of at most max bytes. */
static int fetch_str(char *out, size_t max, vp_fetch fetch, void *ctx, uint64_t addr) {
  for (size_t i = 0; i + 1 < max; i++) {
    if (fetch(ctx, addr + i, &out[i], 1)) return -1;
    if (!out[i]) return 0;
  }
  out[max - 1] = '\0';
  return 0;
}

int ws_emu_vprintf(ws_strbuf *out, vp_fetch fetch, void *ctx, uint64_t fmt, uint64_t args) {
  char f[4096], tmp[4096 + 64];
  if (fetch_str(f, sizeof f, fetch, ctx, fmt)) return -1;
  size_t start = out->n;
  uint64_t off = 0;
  for (const char *p = f; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      if (append(out, p, n)) return -1;
      p += n;
      continue;
    }
    if (p[1] == '%') {
      if (append(out, "%", 1)) return -1;
      p += 2;
      continue;
    }
    /* %[flags][width][.prec][length]conv */
    char spec[64];
    size_t k = 0;
    const char *q = p + 1;
    spec[k++] = '%';
    while (*q && strchr("-+ #0", *q) && k < 40) spec[k++] = *q++;
    while (*q >= '0' && *q <= '9' && k < 40) spec[k++] = *q++;
    if (*q == '.') {
      spec[k++] = *q++;
      while (*q >= '0' && *q <= '9' && k < 40) spec[k++] = *q++;
    }
    int wide = 0;
    while (*q && strchr("hlLqjzt", *q)) {
      if (*q == 'l' || *q == 'L' || *q == 'q' || *q == 'j' || *q == 'z' || *q == 't') wide = 1;
      q++;
    }
    char conv = *q;
    if (!conv) break;
    q++;
    int n = 0;
    switch (conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
      uint64_t v = 0;
      int sz = (wide || conv == 'p') ? 8 : 4;
      off = (off + (uint64_t)sz - 1) & ~(uint64_t)(sz - 1);
      if (fetch(ctx, args + off, &v, (size_t)sz)) return -1;
      off += (uint64_t)sz;
      spec[k++] = 'l';
      spec[k++] = 'l';
      spec[k++] = conv;
      spec[k] = '\0';
      if (conv == 'd' || conv == 'i') {
        long long sv = sz == 4 ? (long long)(int32_t)(uint32_t)v : (long long)v;
        n = snprintf(tmp, sizeof tmp, spec, sv);
      } else if (conv == 'c') {
        spec[k - 3] = 'c';
        spec[k - 2] = '\0';
        n = snprintf(tmp, sizeof tmp, spec, (int)(v & 0xff));
      } else {
        unsigned long long uv = sz == 4 ? (unsigned long long)(uint32_t)v : (unsigned long long)v;
        n = snprintf(tmp, sizeof tmp, spec, uv);
      }
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      double v;
      off = (off + 7) & ~(uint64_t)7;
      if (fetch(ctx, args + off, &v, 8)) return -1;
      off += 8;
      spec[k++] = conv;
      spec[k] = '\0';
      n = snprintf(tmp, sizeof tmp, spec, v);
      break;
    }
    case 's': {
      uint64_t a;
      char s[4096];
      off = (off + 7) & ~(uint64_t)7;
      if (fetch(ctx, args + off, &a, 8)) return -1;
      off += 8;
      if (fetch_str(s, sizeof s, fetch, ctx, a)) return -1;
      spec[k++] = 's';
      spec[k] = '\0';
      n = snprintf(tmp, sizeof tmp, spec, s);
      break;
    }
    case 'p': {
      uint64_t a;
      off = (off + 7) & ~(uint64_t)7;
      if (fetch(ctx, args + off, &a, 8)) return -1;
      off += 8;
      n = snprintf(tmp, sizeof tmp, "0x%llx", (unsigned long long)a);
      break;
    }
    default:
      n = snprintf(tmp, sizeof tmp, "%%%c", conv);
      break;
    }
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof tmp) n = (int)sizeof tmp - 1;
    if (append(out, tmp, (size_t)n)) return -1;
    p = q;
  }
  return (int)(out->n - start);
}
