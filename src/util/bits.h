/*
 * util/bits.h — bit helpers shared by the emulator, the profiler and the
 * memory simulator (lane masks are 32-bit).  Internal to the library.
 */
#ifndef WS_UTIL_BITS_H
#define WS_UTIL_BITS_H

#include <stdint.h>

static inline uint32_t ws_popc32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static inline uint32_t ws_popc64(uint64_t x) { return (uint32_t)__builtin_popcountll(x); }
/* Index of the lowest set bit; x must not be 0. */
static inline uint32_t ws_ctz32(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
/* 1 when x is a power of two (0 is not). */
static inline int ws_is_pow2_u64(uint64_t x) { return x && !(x & (x - 1)); }
/* floor(log2(x)); x must not be 0. */
static inline uint32_t ws_log2_u64(uint64_t x) { return 63u - (uint32_t)__builtin_clzll(x); }

#endif
