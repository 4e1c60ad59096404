/*
 * util/checked.h — arithmetic on sizes that come from input (array extents,
 * counts, products of grid dimensions): every helper returns 0 and stores
 * the exact result, or returns 1 on overflow and leaves *out alone, so a
 * caller can never allocate a wrapped-around size.  Internal to the library.
 */
#ifndef WS_UTIL_CHECKED_H
#define WS_UTIL_CHECKED_H

#include <stdint.h>

static inline int ws_mul_u64(uint64_t *out, uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return 1;
  *out = r;
  return 0;
}

static inline int ws_add_u64(uint64_t *out, uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return 1;
  *out = r;
  return 0;
}

/* a * b * c without overflow (grid and block products). */
static inline int ws_mul3_u64(uint64_t *out, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t ab;
  return ws_mul_u64(&ab, a, b) || ws_mul_u64(out, ab, c);
}

/* a + b + c without overflow (an address, a size and a gap). */
static inline int ws_add3_u64(uint64_t *out, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t ab;
  return ws_add_u64(&ab, a, b) || ws_add_u64(out, ab, c);
}

#endif
