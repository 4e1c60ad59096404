/*
 * util/bits.h — bit helpers shared by the emulator, the profiler and the
 * memory simulator (lane masks are 32-bit).  Internal to the library.
 */
#ifndef WS_UTIL_BITS_H
#define WS_UTIL_BITS_H

#include <stdint.h>

/* Population counts, branch-free and without relying on the host having
 * POPCNT: the build targets baseline x86-64, where __builtin_popcount is a
 * call into libgcc, and a loop over the set bits takes 32 rounds for a
 * full warp's mask. */
static inline uint32_t ws_popc32(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
}
/* The lanes of a warp mask: a whole warp (the common case) without the
 * arithmetic. */
static inline uint32_t ws_lanes32(uint32_t m) { return m == 0xffffffffu ? 32 : ws_popc32(m); }
static inline uint32_t ws_popc64(uint64_t x) { return ws_popc32((uint32_t)x) + ws_popc32((uint32_t)(x >> 32)); }
/* A function compiled twice, with GCC on x86-64: for baseline x86-64 and
 * for x86-64-v3 (AVX2: four 64-bit lanes per vector instruction, 64-bit
 * compares, POPCNT), the loader choosing by the CPU (an ifunc), so that a
 * portable build needs no -march (docs/emulator.md, "Speed").  Nothing
 * elsewhere, or with -DWS_NO_CLONES. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(WS_NO_CLONES)
#define WS_CLONES_V3 __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WS_CLONES_V3
#endif
/* Index of the lowest set bit; x must not be 0. */
static inline uint32_t ws_ctz32(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
/* 1 when x is a power of two (0 is not). */
static inline int ws_is_pow2_u64(uint64_t x) { return x && !(x & (x - 1)); }
/* floor(log2(x)); x must not be 0. */
static inline uint32_t ws_log2_u64(uint64_t x) { return 63u - (uint32_t)__builtin_clzll(x); }

#endif
