/*
 * emu/rng.h — the random generator behind launch-spec initialisers
 * ({"random": {"seed": S, "min": A, "max": B}}).  It is part of the launch
 * spec contract: C reference implementations in tests/ref/ use the same
 * functions to rebuild a kernel's inputs, so its output must never change.
 *
 * Sequence: splitmix64 with state = seed; element i of a buffer takes the
 * i-th draw (i = 0, 1, ...).  u = (draw >> 11) * 2^-53, in [0, 1).
 *   floating types: v = A + u * (B - A), computed in double, then rounded to
 *                   the element type (round to nearest even);
 *   integer types:  v = A + floor(u * (B - A + 1)), capped at B.
 */
#ifndef WS_EMU_RNG_H
#define WS_EMU_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Next 64-bit draw (splitmix64); advances *state. */
static inline uint64_t ws_rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform double in [0, 1). */
static inline double ws_rng_uniform(uint64_t *state) {
  return (double)(ws_rng_next(state) >> 11) * 0x1.0p-53;
}

/* A floating value in [min, max) (before rounding to the element type). */
static inline double ws_rng_real(uint64_t *state, double min, double max) {
  return min + ws_rng_uniform(state) * (max - min);
}

/* An integer in [min, max] of 64-bit two's complement values, min <= max
 * in the values' own signedness: min + floor(u * span), span = (max - min)
 * (exact, modulo 2^64) + 1 in double, capped at max.  Unsigned arithmetic,
 * so the widest ranges (INT64_MIN .. INT64_MAX, 0 .. UINT64_MAX) cannot
 * overflow; for |min|, |max| < 2^53 this equals the double formula
 * (double)max - (double)min + 1 that earlier versions used. */
static inline uint64_t ws_rng_uint(uint64_t *state, uint64_t min, uint64_t max) {
  uint64_t w = max - min;
  double span = (double)w + 1.0;            /* <= 2^64 */
  uint64_t off = (uint64_t)(ws_rng_uniform(state) * span); /* < 2^64: u <= 1 - 2^-53 */
  return min + (off > w ? w : off);
}

/* An integer value in [min, max]. */
static inline int64_t ws_rng_int(uint64_t *state, int64_t min, int64_t max) {
  return (int64_t)ws_rng_uint(state, (uint64_t)min, (uint64_t)max);
}

#ifdef __cplusplus
}
#endif
#endif
