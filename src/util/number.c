/* util/number.c — see number.h. */
#include "util/number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ws_parse_count(const char *s, int bytes, uint64_t *out) {
  /* digits first: strtoull would also take spaces, a sign (negating a
   * minus) and nothing at all */
  if (*s < '0' || *s > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno) return -1;
  int sh = 0;
  if (bytes && (*end == 'K' || *end == 'k')) sh = 10;
  else if (bytes && *end == 'M') sh = 20;
  else if (bytes && *end == 'G') sh = 30;
  else if (bytes && *end == 'T') sh = 40;
  if (sh) end++;
  if (*end || (sh && v > (~0ull >> sh))) return -1;
  *out = (uint64_t)v << sh;
  return 0;
}

int ws_parse_sample_blocks(const char *s, uint64_t *out) {
  if (strcmp(s, "all") == 0) {
    *out = 0;
    return 0;
  }
  return ws_parse_count(s, 0, out);
}

uint64_t ws_env_limit(const char *name, uint64_t dflt) {
  const char *e = getenv(name);
  uint64_t v;
  return e && *e && ws_parse_count(e, 0, &v) == 0 && v > 0 ? v : dflt;
}

int ws_parse_decimal(const char *s, double *out) {
  const char *p = s;
  if (*p == '+' || *p == '-') p++;
  size_t whole = strspn(p, "0123456789"), frac = 0;
  p += whole;
  if (*p == '.') {
    frac = strspn(p + 1, "0123456789");
    p += 1 + frac;
  }
  if (!whole && !frac) return -1;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    size_t e = strspn(p, "0123456789");
    if (!e) return -1;
    p += e;
  }
  if (*p) return -1;
  errno = 0;
  double v = strtod(s, NULL);
  if (!isfinite(v)) return -1;
  *out = v;
  return 0;
}
