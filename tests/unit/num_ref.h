/*
 * num_ref.h — independent references for the PTX numeric library, shared by
 * tests/unit/test_num.c (short runs) and bench/num_check.c (long runs).
 *
 * None of this calls the library's rounding code. Round-to-nearest results
 * come from the host's IEEE arithmetic (float, double, fmaf, sqrtf, ...:
 * correctly rounded in the default environment, which nothing here changes).
 * Directed results are derived from that RN result r and the sign of the
 * exact error x - r, found with error-free transformations (TwoSum; products
 * of two floats are exact in double, of two doubles exact in __float128), then
 * stepping to the neighbour with nextafter. Half precision (f16/bf16) results
 * are rounded from an exact __float128 value by binary search in a table of
 * every finite value of the format.
 */
#ifndef WS_NUM_REF_H
#define WS_NUM_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "emu/num.h"

#if defined(__SIZEOF_FLOAT128__)
#define WS_HAVE_F128 1
__extension__ typedef __float128 ref_q;
#endif

static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double bitsd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* xorshift64* — deterministic test inputs. */
static inline uint64_t ref_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

/* Random f32 bits biased toward hard cases: specials, subnormals, values
 * near 1, near overflow, and near a previous value (cancellation). */
static inline uint32_t ref_rand_f32(uint64_t *s, uint32_t near) {
  static const uint32_t special[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                     0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000,
                                     0xBF800000, 0x3F000000, 0x33800000, 0x4B000000, 0x7F800001};
  uint64_t r = ref_rand(s);
  uint32_t sign = (uint32_t)(r >> 63) << 31;
  uint32_t man = (uint32_t)(r >> 8) & 0x7FFFFF;
  switch ((r >> 40) & 15) {
  case 0: case 1: case 2: return (uint32_t)(r >> 16);
  case 3: return special[(r >> 45) % (sizeof special / sizeof special[0])];
  case 4: return sign | man;                              /* subnormal */
  case 5: return sign | ((uint32_t)(0x7C + ((r >> 45) & 7)) << 23) << 0 | man;   /* near 1 */
  case 6: return sign | ((uint32_t)(0xF8 + ((r >> 45) & 6)) << 23) | man;        /* near max */
  case 7: return sign | ((uint32_t)(1 + ((r >> 45) & 31)) << 23) | man;          /* small */
  case 8: case 9: return (near ^ ((uint32_t)(r >> 50) & 0xFF)) ^ (uint32_t)((r >> 30) & 1) << 31;
  case 10: return (near & 0xFFFFFF00u) | ((uint32_t)r & 0xFF);
  default: return sign | ((uint32_t)(0x60 + ((r >> 45) & 63)) << 23) | man;
  }
}

static inline uint64_t ref_rand_f64(uint64_t *s, uint64_t near) {
  static const uint64_t special[] = {0, 0x8000000000000000ull, 0x7FF0000000000000ull,
                                     0xFFF0000000000000ull, 0x7FF8000000000000ull, 1,
                                     0x000FFFFFFFFFFFFFull, 0x0010000000000000ull,
                                     0x7FEFFFFFFFFFFFFFull, 0x3FF0000000000000ull};
  uint64_t r = ref_rand(s), r2 = ref_rand(s);
  uint64_t sign = r >> 63 << 63, man = r2 & 0xFFFFFFFFFFFFFull;
  switch ((r >> 40) & 15) {
  case 0: case 1: case 2: return r2;
  case 3: return special[(r >> 45) % (sizeof special / sizeof special[0])];
  case 4: return sign | man;
  case 5: return sign | ((0x3FCull + ((r >> 45) & 7)) << 52) | man;
  case 6: return sign | ((0x7F8ull + ((r >> 45) & 6)) << 52) | man;
  case 7: return sign | ((1ull + ((r >> 45) & 63)) << 52) | man;
  case 8: case 9: return (near ^ ((r >> 50) & 0xFF)) ^ ((r >> 30) & 1) << 63;
  default: return sign | ((0x3A0ull + ((r >> 45) & 127)) << 52) | man;
  }
}

/* The directed result from the RN result r and sgn = sign(x - r). */
static inline float ref_dir_f(float r, int sgn, ws_emu_num_rnd m) {
  if (m == WS_NUM_RZ) m = (r > 0 || (r == 0 && !signbit(r))) ? WS_NUM_RM : WS_NUM_RP;
  if (m == WS_NUM_RM && sgn < 0) return nextafterf(r, -INFINITY);
  if (m == WS_NUM_RP && sgn > 0) return nextafterf(r, INFINITY);
  return r;
}
static inline double ref_dir_d(double r, int sgn, ws_emu_num_rnd m) {
  if (m == WS_NUM_RZ) m = (r > 0 || (r == 0 && !signbit(r))) ? WS_NUM_RM : WS_NUM_RP;
  if (m == WS_NUM_RM && sgn < 0) return nextafter(r, -INFINITY);
  if (m == WS_NUM_RP && sgn > 0) return nextafter(r, INFINITY);
  return r;
}
static inline int ref_sign(double d) { return d > 0 ? 1 : d < 0 ? -1 : 0; }

/* sign(s + e - r) where s + e is exact (|e| <= ulp(s)/2) and r = RN(s + e). */
static inline int ref_sgn_sum(double s, double e, float r) {
  if (isinf(r)) return r > 0 ? -1 : 1;
  double d = s - (double)r; /* exact: see the header comment of num_ref.h */
  return d != 0 ? ref_sign(d) : ref_sign(e);
}

static inline void ref_two_sum(double a, double b, double *s, double *e) {
  *s = a + b;
  double bb = *s - a;
  *e = (a - (*s - bb)) + (b - bb);
}

/* Exact-zero results take their sign from the rounding mode (IEEE 754 6.3):
 * +0 except in RM, unless both addends are zeros of the same sign. */
static inline float ref_zero_sum(float r, int sa, int sb, int both_zero, ws_emu_num_rnd m) {
  if (r != 0) return r;
  if (both_zero && sa == sb) return sa ? -0.0f : 0.0f;
  return m == WS_NUM_RM ? -0.0f : 0.0f;
}

/* ---- f32 references, all modes ---- */
static inline uint32_t ref_f32_add(uint32_t ua, uint32_t ub, ws_emu_num_rnd m) {
  float a = bitsf(ua), b = bitsf(ub);
  float r = a + b;
  if (isnan(r)) return 0x7FFFFFFFu;
  if (isinf(a) || isinf(b)) return fbits(r);
  double s, e;
  ref_two_sum(a, b, &s, &e);
  if (s == 0 && e == 0)
    return fbits(ref_zero_sum(r, signbit(a) != 0, signbit(b) != 0, a == 0 && b == 0, m));
  return fbits(ref_dir_f(r, ref_sgn_sum(s, e, r), m));
}
static inline uint32_t ref_f32_mul(uint32_t ua, uint32_t ub, ws_emu_num_rnd m) {
  float a = bitsf(ua), b = bitsf(ub);
  float r = a * b;
  if (isnan(r)) return 0x7FFFFFFFu;
  if (isinf(a) || isinf(b) || a == 0 || b == 0) return fbits(r);
  double p = (double)a * b; /* exact: 24 x 24 bits */
  return fbits(ref_dir_f(r, ref_sgn_sum(p, 0, r), m));
}
static inline uint32_t ref_f32_fma(uint32_t ua, uint32_t ub, uint32_t uc, ws_emu_num_rnd m) {
  float a = bitsf(ua), b = bitsf(ub), c = bitsf(uc);
  float r = fmaf(a, b, c);
  if (isnan(r)) return 0x7FFFFFFFu;
  if (isinf(a) || isinf(b) || isinf(c)) return fbits(r);
  double p = (double)a * b, s, e;
  ref_two_sum(p, c, &s, &e);
  if (s == 0 && e == 0)
    return fbits(ref_zero_sum(r, signbit(p) != 0, signbit(c) != 0, p == 0 && c == 0, m));
  return fbits(ref_dir_f(r, ref_sgn_sum(s, e, r), m));
}
static inline uint32_t ref_f32_div(uint32_t ua, uint32_t ub, ws_emu_num_rnd m) {
  float a = bitsf(ua), b = bitsf(ub);
  float r = a / b;
  if (isnan(r)) return 0x7FFFFFFFu;
  if (isinf(a) || isinf(b) || a == 0 || b == 0) return fbits(r);
  int sgn;
  if (isinf(r)) sgn = r > 0 ? -1 : 1;
  else sgn = ref_sign((double)a - (double)r * b) * (b > 0 ? 1 : -1);
  return fbits(ref_dir_f(r, sgn, m));
}
static inline uint32_t ref_f32_sqrt(uint32_t ua, ws_emu_num_rnd m) {
  float a = bitsf(ua);
  float r = sqrtf(a);
  if (isnan(r)) return 0x7FFFFFFFu;
  if (isinf(a) || a == 0) return fbits(r);
  return fbits(ref_dir_f(r, ref_sign((double)a - (double)r * r), m));
}

#ifdef WS_HAVE_F128
static inline int ref_qsign(ref_q d) { return d > 0 ? 1 : d < 0 ? -1 : 0; }
static inline void ref_two_sum_q(ref_q a, ref_q b, ref_q *s, ref_q *e) {
  *s = a + b;
  ref_q bb = *s - a;
  *e = (a - (*s - bb)) + (b - bb);
}
static inline int ref_sgn_sum_q(ref_q s, ref_q e, double r) {
  if (isinf(r)) return r > 0 ? -1 : 1;
  ref_q d = s - (ref_q)r;
  return d != 0 ? ref_qsign(d) : ref_qsign(e);
}
static inline double ref_zero_sum_d(double r, int sa, int sb, int both_zero, ws_emu_num_rnd m) {
  if (r != 0) return r;
  if (both_zero && sa == sb) return sa ? -0.0 : 0.0;
  return m == WS_NUM_RM ? -0.0 : 0.0;
}
static inline uint64_t ref_f64_add(uint64_t ua, uint64_t ub, ws_emu_num_rnd m) {
  double a = bitsd(ua), b = bitsd(ub), r = a + b;
  if (isnan(r)) return 0x7FFFFFFFFFFFFFFFull;
  if (isinf(a) || isinf(b)) return dbits(r);
  ref_q s, e;
  ref_two_sum_q(a, b, &s, &e);
  if (s == 0 && e == 0)
    return dbits(ref_zero_sum_d(r, signbit(a) != 0, signbit(b) != 0, a == 0 && b == 0, m));
  return dbits(ref_dir_d(r, ref_sgn_sum_q(s, e, r), m));
}
static inline uint64_t ref_f64_mul(uint64_t ua, uint64_t ub, ws_emu_num_rnd m) {
  double a = bitsd(ua), b = bitsd(ub), r = a * b;
  if (isnan(r)) return 0x7FFFFFFFFFFFFFFFull;
  if (isinf(a) || isinf(b) || a == 0 || b == 0) return dbits(r);
  return dbits(ref_dir_d(r, ref_sgn_sum_q((ref_q)a * b, 0, r), m));
}
static inline uint64_t ref_f64_fma(uint64_t ua, uint64_t ub, uint64_t uc, ws_emu_num_rnd m) {
  double a = bitsd(ua), b = bitsd(ub), c = bitsd(uc), r = fma(a, b, c);
  if (isnan(r)) return 0x7FFFFFFFFFFFFFFFull;
  if (isinf(a) || isinf(b) || isinf(c)) return dbits(r);
  ref_q p = (ref_q)a * b, s, e;
  ref_two_sum_q(p, c, &s, &e);
  if (s == 0 && e == 0)
    return dbits(ref_zero_sum_d(r, (a == 0 || b == 0) ? (signbit(a) != 0) ^ (signbit(b) != 0) : p < 0,
                                signbit(c) != 0, (a == 0 || b == 0) && c == 0, m));
  return dbits(ref_dir_d(r, ref_sgn_sum_q(s, e, r), m));
}
static inline uint64_t ref_f64_div(uint64_t ua, uint64_t ub, ws_emu_num_rnd m) {
  double a = bitsd(ua), b = bitsd(ub), r = a / b;
  if (isnan(r)) return 0x7FFFFFFFFFFFFFFFull;
  if (isinf(a) || isinf(b) || a == 0 || b == 0) return dbits(r);
  int sgn;
  if (isinf(r)) sgn = r > 0 ? -1 : 1;
  else sgn = ref_qsign((ref_q)a - (ref_q)r * b) * (b > 0 ? 1 : -1);
  return dbits(ref_dir_d(r, sgn, m));
}
static inline uint64_t ref_f64_sqrt(uint64_t ua, ws_emu_num_rnd m) {
  double a = bitsd(ua), r = sqrt(a);
  if (isnan(r)) return 0x7FFFFFFFFFFFFFFFull;
  if (isinf(a) || a == 0) return dbits(r);
  return dbits(ref_dir_d(r, ref_qsign((ref_q)a - (ref_q)r * r), m));
}

/* ---- 16-bit formats: round an exact value by table search ---- */
typedef struct ref_h {
  int mbits, ebits;
  uint16_t maxbits; /* largest finite positive pattern */
  double val[0x7F81]; /* val[i] = value of positive pattern i, i <= maxbits + 1 */
} ref_h;

/* Fill the table from the format definition (value = 1.f * 2^(e - bias) or
 * 0.f * 2^(1 - bias)); val[maxbits + 1] is 2^(emax + 1), the value an
 * unbounded exponent range would give, used for overflow decisions. */
static inline void ref_h_init(ref_h *t, int mbits, int ebits) {
  int bias = (1 << (ebits - 1)) - 1;
  t->mbits = mbits;
  t->ebits = ebits;
  t->maxbits = (uint16_t)((((1u << ebits) - 2) << mbits) | ((1u << mbits) - 1));
  for (unsigned i = 0; i <= (unsigned)t->maxbits + 1u; i++) {
    unsigned e = i >> mbits, f = i & ((1u << mbits) - 1);
    t->val[i] = e ? ldexp((double)((1u << mbits) + f), (int)e - bias - mbits)
                  : ldexp((double)f, 1 - bias - mbits);
  }
}
static inline uint16_t ref_h_round(const ref_h *t, ref_q x, ws_emu_num_rnd m) {
  int neg = x < 0 || (x == 0 && signbit((double)x));
  ref_q ax = neg ? -x : x;
  uint16_t sbit = (uint16_t)(neg << 15);
  if (ax == 0) return sbit;
  unsigned lo = 0, hi = (unsigned)t->maxbits + 1u; /* val[lo] <= ax */
  if (ax >= (ref_q)t->val[hi]) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      unsigned mid = (lo + hi) / 2;
      if ((ref_q)t->val[mid] <= ax) lo = mid;
      else hi = mid;
    }
  }
  unsigned up = lo + 1, pick;
  if (lo <= t->maxbits && (ref_q)t->val[lo] == ax) {
    pick = lo;
  } else if (m == WS_NUM_RZ || (m == WS_NUM_RM && !neg) || (m == WS_NUM_RP && neg)) {
    pick = lo > t->maxbits ? t->maxbits : lo;
  } else if (m == WS_NUM_RM || m == WS_NUM_RP) {
    pick = up;
  } else if (lo > t->maxbits) {
    pick = lo; /* beyond 2^(emax+1): infinity */
  } else {
    ref_q dl = ax - (ref_q)t->val[lo], du = (ref_q)t->val[up] - ax;
    pick = dl < du ? lo : du < dl ? up : (m == WS_NUM_RNA ? up : ((lo & 1) ? up : lo));
  }
  if (pick > t->maxbits) pick = (unsigned)t->maxbits + 1u; /* the infinity pattern */
  return (uint16_t)(sbit | pick);
}
static inline ref_q ref_h_value(const ref_h *t, uint16_t v) {
  unsigned mag = v & 0x7FFFu;
  ref_q x = (ref_q)t->val[mag];
  return (v & 0x8000u) ? -x : x;
}
#endif /* WS_HAVE_F128 */

#endif
