/*
 * util/vec.h — growable arrays, in the style of Lua's luaM_growvector: an
 * array is three plain variables (pointer, count, capacity), and one macro
 * makes room before a write.  Internal to the library (src/), not public.
 *
 *   double *v = NULL; size_t n = 0, cap = 0;
 *   if (WS_VEC_PUSH(v, n, cap, x)) return WS_ENOMEM;
 *
 * Invariants: `cap` is a size_t lvalue; `n <= cap`; the pointer is either
 * NULL (cap 0) or a malloc'd block of cap elements.  On failure (allocation
 * or size overflow) the array is left exactly as it was.
 */
#ifndef WS_UTIL_VEC_H
#define WS_UTIL_VEC_H

#include <stddef.h>

#include "warpsight/util.h"

/* The grown block (at least `need` elements of `elem` bytes, doubling from
 * 16), with *cap updated; on failure returns `p` and leaves *cap alone. */
void *ws_vec_grow_(void *p, size_t *cap, size_t need, size_t elem);

/* Make room for at least `need` elements: WS_OK or WS_ENOMEM. */
#define WS_VEC_RESERVE(v, cap, need)                                      \
  ((size_t)(need) <= (cap)                                                \
       ? WS_OK                                                            \
       : ((v) = ws_vec_grow_((v), &(cap), (size_t)(need), sizeof *(v)),  \
          (size_t)(need) <= (cap) ? WS_OK : WS_ENOMEM))

/* Append one element: WS_OK or WS_ENOMEM (nothing appended). */
#define WS_VEC_PUSH(v, n, cap, x) \
  (WS_VEC_RESERVE(v, cap, (size_t)(n) + 1) ? WS_ENOMEM : ((v)[(n)++] = (x), WS_OK))

#endif
