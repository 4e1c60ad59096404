/* vec.c — the one growth routine behind WS_VEC_RESERVE/WS_VEC_PUSH (vec.h). */
#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>

void *ws_vec_grow_(void *p, size_t *cap, size_t need, size_t elem) {
  if (elem == 0) return p;
  size_t c = *cap ? *cap : 16;
  while (c < need) {
    if (c > SIZE_MAX / 2) {
      c = need;
      break;
    }
    c *= 2;
  }
  if (c > SIZE_MAX / elem) return p; /* the byte count would overflow */
  void *q = realloc(p, c * elem);
  if (!q) return p;
  *cap = c;
  return q;
}
