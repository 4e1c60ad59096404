/* util/number.c — see number.h. */
#include "util/number.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ws_parse_count(const char *s, int bytes, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  /* strtoull takes a minus sign and negates: refuse it */
  if (errno || end == s || s[strspn(s, " \t")] == '-') return -1;
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
