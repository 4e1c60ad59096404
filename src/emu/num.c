/*
 * num.c — PTX numeric semantics (see num.h for the conventions).
 *
 * Every floating-point result is produced by one software rounding routine,
 * round_pack(), from an exact value m * 2^e (m a 128-bit integer) plus a
 * "sticky" flag meaning "the true value lies strictly between m and m + 1
 * units of 2^e". Each operation computes that exact form with integer
 * arithmetic: sums are aligned exactly (far-apart operands collapse into the
 * sticky flag), products are exact (53 x 53 bits fit in 128), quotients and
 * square roots are computed to at least p + 3 bits with the remainder as the
 * sticky flag. A producer that sets sticky always supplies at least p + 3
 * significant bits, which is what makes one rounding step correct for every
 * mode (no double rounding anywhere). The host floating-point environment
 * is never read or changed; host floating point is used only for the .approx
 * functions (libm in double, then rounded here) and for comparisons, which
 * are exact.
 */
#include "emu/num.h"

#include <math.h>
#include <string.h>

#include "util/bits.h"

/* The core routines are forced inline so that each public entry point gets a
 * copy specialised for its constant format (halves the time per call). */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

/* ---- formats ----------------------------------------------------------- */

enum { FM_F16, FM_BF16, FM_F32, FM_F64, FM_TF32 };

static const struct {
  int mbits; /* explicit fraction bits */
  int ebits; /* exponent bits */
  int shift; /* where the packed value sits in the word (tf32: f32 layout) */
} FMT[] = {
    {10, 5, 0}, {7, 8, 0}, {23, 8, 0}, {52, 11, 0}, {10, 8, 13},
};

static const uint64_t CANON_NAN[] = {0x7FFFu, 0x7FFFu, 0x7FFFFFFFu, 0x7FFFFFFFFFFFFFFFull,
                                     0x7FFFFFFFu};

enum { C_ZERO, C_FIN, C_INF, C_NAN };

typedef struct unp {
  int cls;    /* C_ZERO, C_FIN (normal or subnormal), C_INF, C_NAN */
  int sign;   /* 1 = negative */
  uint64_t m; /* integer significand (implicit bit included) */
  int e;      /* exponent of m's least significant bit */
} unp;

HOT int bias(int f) { return (1 << (FMT[f].ebits - 1)) - 1; }

HOT unp decode(int f, uint64_t bits, int ftz) {
  int mb = FMT[f].mbits, eb = FMT[f].ebits;
  bits >>= FMT[f].shift;
  unp u;
  u.sign = (int)((bits >> (mb + eb)) & 1);
  uint64_t frac = bits & ((1ull << mb) - 1);
  int ex = (int)((bits >> mb) & ((1u << eb) - 1));
  u.m = 0;
  u.e = 0;
  if (ex == (1 << eb) - 1) {
    u.cls = frac ? C_NAN : C_INF;
  } else if (ex == 0) {
    if (frac == 0 || ftz) {
      u.cls = C_ZERO;
    } else {
      u.cls = C_FIN;
      u.m = frac;
      u.e = 1 - bias(f) - mb;
    }
  } else {
    u.cls = C_FIN;
    u.m = frac | (1ull << mb);
    u.e = ex - bias(f) - mb;
  }
  return u;
}

HOT uint64_t pack(int f, int sign, uint64_t biased, uint64_t frac) {
  int mb = FMT[f].mbits, eb = FMT[f].ebits;
  return (((uint64_t)sign << (mb + eb)) | (biased << mb) | frac) << FMT[f].shift;
}

HOT uint64_t fzero(int f, int sign) { return pack(f, sign, 0, 0); }
HOT uint64_t finf(int f, int sign) {
  return pack(f, sign, (1u << FMT[f].ebits) - 1, 0);
}
HOT uint64_t fmaxfin(int f, int sign) {
  return pack(f, sign, (1u << FMT[f].ebits) - 2, (1ull << FMT[f].mbits) - 1);
}

HOT int bitlen128(u128 m) {
  uint64_t hi = (uint64_t)(m >> 64), lo = (uint64_t)m;
  if (hi) return 128 - __builtin_clzll(hi);
  if (lo) return 64 - __builtin_clzll(lo);
  return 0;
}

/* Integer rounding modes mean their float counterparts here. */
HOT ws_emu_num_rnd frnd(ws_emu_num_rnd r) {
  switch (r) {
  case WS_NUM_RZ: case WS_NUM_RZI: return WS_NUM_RZ;
  case WS_NUM_RM: case WS_NUM_RMI: return WS_NUM_RM;
  case WS_NUM_RP: case WS_NUM_RPI: return WS_NUM_RP;
  case WS_NUM_RNA: return WS_NUM_RNA;
  default: return WS_NUM_RN;
  }
}

/* Whether to add one unit after truncation: kept's low bit, the first
 * discarded bit, and whether anything below it is nonzero. */
HOT int round_up(ws_emu_num_rnd r, int sign, int odd, int rbit, int sticky) {
  switch (r) {
  case WS_NUM_RZ: return 0;
  case WS_NUM_RM: return sign && (rbit || sticky);
  case WS_NUM_RP: return !sign && (rbit || sticky);
  case WS_NUM_RNA: return rbit;
  default: return rbit && (sticky || odd);
  }
}

/* m with its low s >= 1 bits cut off; *rbit = the highest bit cut (the
 * round bit), *st = whether any lower bit cut was set (past 128 bits: 0
 * kept, and *st = 1, as m is not zero there). */
HOT u128 cut_bits(u128 m, int s, int *rbit, int *st) {
  if (s > 128) {
    *rbit = 0;
    *st = 1;
    return 0;
  }
  *rbit = (int)((m >> (s - 1)) & 1);
  *st = s > 1 && (m & (((u128)1 << (s - 1)) - 1)) != 0;
  return s == 128 ? 0 : m >> s;
}

/* Round (-1)^sign * (m + sticky*eps) * 2^e to format f in mode r. When
 * sticky is set, m has at least p + 3 significant bits. ftz flushes a
 * subnormal result (after rounding) to zero of the same sign. */
HOT uint64_t round_pack(int f, int sign, u128 m, int e, int sticky, ws_emu_num_rnd r, int ftz) {
  int mb = FMT[f].mbits, eb = FMT[f].ebits;
  int emin = 1 - bias(f);
  r = frnd(r);
  if (m == 0) {
    /* Only an underflowed value reaches here with sticky set (never in
     * practice: producers keep p + 3 bits); treat it as a tiny number. */
    if (!sticky) return fzero(f, sign);
    m = 1;
    e -= 200;
  }
  int L = bitlen128(m);
  int E = e + L - 1; /* exponent of the leading bit */
  int q = (E > emin ? E : emin) - mb; /* exponent of the result's ulp */
  int s = q - e;                      /* bits of m to discard */
  u128 kept;
  if (s <= 0) {
    kept = m << (-s); /* exact: fits in p bits */
  } else {
    int rbit, st;
    kept = cut_bits(m, s, &rbit, &st);
    st |= sticky;
    if (round_up(r, sign, (int)(kept & 1), rbit, st)) kept++;
  }
  if (kept >> (mb + 1)) { /* carried to p + 1 bits */
    kept >>= 1;
    q++;
  }
  uint64_t biased, frac;
  if (kept >> mb) {
    long be = (long)q + mb + bias(f);
    if (be >= (1L << eb) - 1) { /* overflow */
      int to_inf = r == WS_NUM_RN || r == WS_NUM_RNA || (r == WS_NUM_RP && !sign) ||
                   (r == WS_NUM_RM && sign);
      return to_inf ? finf(f, sign) : fmaxfin(f, sign);
    }
    biased = (uint64_t)be;
    frac = (uint64_t)kept & ((1ull << mb) - 1);
  } else {
    biased = 0;
    frac = (uint64_t)kept;
    if (ftz) frac = 0;
  }
  return pack(f, sign, biased, frac);
}

/* ---- exact arithmetic on unpacked finite values -------------------------- */

typedef struct xv {
  int sign;
  u128 m;
  int e;
  int sticky;
} xv;

/* (-1)^s1 m1 2^e1 + (-1)^s2 m2 2^e2, m1 and m2 at most 106 bits. An exact
 * zero comes back with m == 0 and sticky == 0 (the caller picks its sign). */
HOT xv exact_add(int s1, u128 m1, int e1, int s2, u128 m2, int e2) {
  xv r = {0, 0, 0, 0};
  if (m1 == 0) { r.sign = s2; r.m = m2; r.e = e2; return r; }
  if (m2 == 0) { r.sign = s1; r.m = m1; r.e = e1; return r; }
  if (e1 < e2) {
    int ts = s1; s1 = s2; s2 = ts;
    u128 tm = m1; m1 = m2; m2 = tm;
    int te = e1; e1 = e2; e2 = te;
  }
  long d = (long)e1 - e2;
  int b1 = bitlen128(m1);
  if (b1 + d <= 126) { /* align exactly */
    m1 <<= d;
    r.e = e2;
    if (s1 == s2) {
      r.sign = s1;
      r.m = m1 + m2;
    } else if (m1 >= m2) {
      r.sign = s1;
      r.m = m1 - m2;
    } else {
      r.sign = s2;
      r.m = m2 - m1;
    }
    return r;
  }
  /* Far apart: m1 gets 126 bits; m2 (< 2^107) shrinks and leaves a sticky
   * remainder, always smaller than m1. */
  int k = 126 - b1;
  m1 <<= k;
  long d2 = d - k; /* > 0 */
  u128 m2s;
  int st;
  if (d2 >= 128) {
    m2s = 0;
    st = 1;
  } else {
    m2s = m2 >> d2;
    st = (m2 & (((u128)1 << d2) - 1)) != 0;
  }
  r.sign = s1;
  r.e = (int)(e1 - k);
  r.sticky = st;
  if (s1 == s2) r.m = m1 + m2s;
  else r.m = m1 - m2s - (st ? 1 : 0);
  return r;
}

static u128 isqrt128(u128 n, int *inexact) {
  u128 x = 0, bit = (u128)1 << 126;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= x + bit) {
      n -= x + bit;
      x = (x >> 1) + bit;
    } else {
      x >>= 1;
    }
    bit >>= 2;
  }
  *inexact = n != 0;
  return x;
}

/* ---- generic operations on format f ---------------------------------------- */

HOT uint64_t zero_sum_sign(int f, int sa, int sb, ws_emu_num_rnd r) {
  if (sa == sb) return fzero(f, sa);
  return fzero(f, frnd(r) == WS_NUM_RM);
}

/* An exact sum rounded to format f: an exact zero is +0, or -0 when
 * rounding toward minus infinity (IEEE 754-2008 6.3). */
HOT uint64_t round_sum(int f, xv s, ws_emu_num_rnd r, int ftz) {
  if (s.m == 0 && !s.sticky) return fzero(f, frnd(r) == WS_NUM_RM);
  return round_pack(f, s.sign, s.m, s.e, s.sticky, r, ftz);
}

HOT uint64_t g_add(int f, uint64_t a, uint64_t b, int negb, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, a, ftz), y = decode(f, b, ftz);
  y.sign ^= negb;
  if (x.cls == C_NAN || y.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_INF && y.cls == C_INF && x.sign != y.sign) return CANON_NAN[f];
    return finf(f, x.cls == C_INF ? x.sign : y.sign);
  }
  if (x.cls == C_ZERO && y.cls == C_ZERO) return zero_sum_sign(f, x.sign, y.sign, r);
  xv s = exact_add(x.sign, x.m, x.e, y.sign, y.m, y.e);
  return round_sum(f, s, r, ftz);
}

HOT uint64_t g_mul(int f, uint64_t a, uint64_t b, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, a, ftz), y = decode(f, b, ftz);
  int sign = x.sign ^ y.sign;
  if (x.cls == C_NAN || y.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_ZERO || y.cls == C_ZERO) return CANON_NAN[f];
    return finf(f, sign);
  }
  if (x.cls == C_ZERO || y.cls == C_ZERO) return fzero(f, sign);
  return round_pack(f, sign, (u128)x.m * y.m, x.e + y.e, 0, r, ftz);
}

HOT uint64_t g_fma(int f, uint64_t a, uint64_t b, uint64_t c, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, a, ftz), y = decode(f, b, ftz), z = decode(f, c, ftz);
  int ps = x.sign ^ y.sign;
  if (x.cls == C_NAN || y.cls == C_NAN || z.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_ZERO || y.cls == C_ZERO) return CANON_NAN[f];
    if (z.cls == C_INF && z.sign != ps) return CANON_NAN[f];
    return finf(f, ps);
  }
  if (z.cls == C_INF) return finf(f, z.sign);
  if (x.cls == C_ZERO || y.cls == C_ZERO) {
    if (z.cls == C_ZERO) return zero_sum_sign(f, ps, z.sign, r);
    return round_pack(f, z.sign, z.m, z.e, 0, r, ftz);
  }
  xv s = exact_add(ps, (u128)x.m * y.m, x.e + y.e, z.sign, z.m, z.e);
  return round_sum(f, s, r, ftz);
}

static uint64_t g_div(int f, uint64_t a, uint64_t b, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, a, ftz), y = decode(f, b, ftz);
  int sign = x.sign ^ y.sign;
  if (x.cls == C_NAN || y.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_INF) return y.cls == C_INF ? CANON_NAN[f] : finf(f, sign);
  if (y.cls == C_INF) return fzero(f, sign);
  if (y.cls == C_ZERO) return x.cls == C_ZERO ? CANON_NAN[f] : finf(f, sign);
  if (x.cls == C_ZERO) return fzero(f, sign);
  int p = FMT[f].mbits + 1;
  int k = bitlen128(y.m) + p + 4 - bitlen128(x.m);
  if (k < 0) k = 0;
  u128 n = (u128)x.m << k;
  u128 q = n / y.m, rem = n % y.m;
  return round_pack(f, sign, q, x.e - k - y.e, rem != 0, r, ftz);
}

static uint64_t g_sqrt(int f, uint64_t a, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, a, ftz);
  if (x.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_ZERO) return fzero(f, x.sign);
  if (x.sign) return CANON_NAN[f];
  if (x.cls == C_INF) return finf(f, 0);
  int p = FMT[f].mbits + 1;
  u128 m = x.m;
  int e = x.e;
  /* Make the integer have about 2(p + 4) bits with an even exponent. */
  int sh = 2 * (p + 4) - bitlen128(m);
  if (sh < 0) sh = 0;
  if (((e - sh) & 1) != 0) sh++;
  m <<= sh;
  e -= sh;
  int inexact;
  u128 s = isqrt128(m, &inexact);
  return round_pack(f, 0, s, e / 2, inexact, r, ftz);
}

HOT uint64_t g_sat(int f, uint64_t v) {
  unp x = decode(f, v, 0);
  if (x.cls == C_NAN || x.sign) return fzero(f, 0);
  /* v >= +0: compare with 1.0 by bits (same sign, ordered encoding). */
  uint64_t one = pack(f, 0, (uint64_t)bias(f), 0);
  return v > one ? one : v;
}

static uint64_t g_relu(int f, uint64_t v) {
  unp x = decode(f, v, 0);
  if (x.cls == C_NAN) return CANON_NAN[f];
  return x.sign ? fzero(f, 0) : v;
}

/* Total order for min/max: -0 < +0. Both not NaN. */
static int g_less(int f, uint64_t a, uint64_t b) {
  unp x = decode(f, a, 0), y = decode(f, b, 0);
  int w = FMT[f].mbits + FMT[f].ebits;
  uint64_t mag_a = (a >> FMT[f].shift) & ((1ull << w) - 1);
  uint64_t mag_b = (b >> FMT[f].shift) & ((1ull << w) - 1);
  if (x.sign != y.sign) return x.sign; /* includes -0 < +0 */
  return x.sign ? mag_a > mag_b : mag_a < mag_b;
}

static uint64_t g_flush(int f, uint64_t v, int ftz) {
  if (!ftz) return v;
  unp x = decode(f, v, 0);
  if (x.cls == C_FIN && (((v >> FMT[f].shift) >> FMT[f].mbits) & ((1u << FMT[f].ebits) - 1)) == 0)
    return fzero(f, x.sign);
  return v;
}

static uint64_t g_minmax(int f, uint64_t a, uint64_t b, int ftz, int nanmode, int relu, int want_max) {
  a = g_flush(f, a, ftz);
  b = g_flush(f, b, ftz);
  int an = decode(f, a, 0).cls == C_NAN, bn = decode(f, b, 0).cls == C_NAN;
  uint64_t res;
  if (an || bn) {
    if (nanmode || (an && bn)) return CANON_NAN[f];
    res = an ? b : a;
  } else {
    int lt = g_less(f, a, b);
    res = want_max ? (lt ? b : a) : (lt ? a : b);
  }
  return relu ? g_relu(f, res) : res;
}

/* Host double holding the exact value (all our formats fit in double). */
static double to_double(int f, uint64_t v, int ftz) {
  unp x = decode(f, v, ftz);
  switch (x.cls) {
  case C_NAN: return NAN;
  case C_INF: return x.sign ? -INFINITY : INFINITY;
  case C_ZERO: return x.sign ? -0.0 : 0.0;
  default: {
    double d = ldexp((double)x.m, x.e);
    return x.sign ? -d : d;
  }
  }
}

static int g_cmp(int f, uint64_t a, uint64_t b, ws_emu_num_cmp op, int ftz) {
  double x = to_double(f, a, ftz), y = to_double(f, b, ftz);
  int un = isnan(x) || isnan(y);
  switch (op) {
  case WS_NUM_EQ: return !un && x == y;
  case WS_NUM_NE: return !un && x != y;
  case WS_NUM_LT: return !un && x < y;
  case WS_NUM_LE: return !un && x <= y;
  case WS_NUM_GT: return !un && x > y;
  case WS_NUM_GE: return !un && x >= y;
  case WS_NUM_EQU: return un || x == y;
  case WS_NUM_NEU: return un || x != y;
  case WS_NUM_LTU: return un || x < y;
  case WS_NUM_LEU: return un || x <= y;
  case WS_NUM_GTU: return un || x > y;
  case WS_NUM_GEU: return un || x >= y;
  case WS_NUM_NUM: return !un;
  case WS_NUM_NAN: return un;
  }
  return 0;
}

static int g_testp(int f, uint64_t v, ws_emu_num_testp op) {
  unp x = decode(f, v, 0);
  int sub = x.cls == C_FIN && ((v >> FMT[f].shift >> FMT[f].mbits) & ((1u << FMT[f].ebits) - 1)) == 0;
  switch (op) {
  case WS_NUM_FINITE: return x.cls == C_ZERO || x.cls == C_FIN;
  case WS_NUM_INFINITE: return x.cls == C_INF;
  case WS_NUM_NUMBER: return x.cls != C_NAN;
  case WS_NUM_NOTANUMBER: return x.cls == C_NAN;
  case WS_NUM_NORMAL: return x.cls == C_FIN && !sub;
  case WS_NUM_SUBNORMAL: return sub;
  }
  return 0;
}

/* Round a double (exact or from libm) to format f, nearest even. */
static uint64_t from_double(int f, double d, int ftz) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  unp x = decode(FM_F64, bits, 0);
  switch (x.cls) {
  case C_NAN: return CANON_NAN[f];
  case C_INF: return finf(f, x.sign);
  case C_ZERO: return fzero(f, x.sign);
  default: return round_pack(f, x.sign, x.m, x.e, 0, WS_NUM_RN, ftz);
  }
}

/* ---- f32 --------------------------------------------------------------- */

/* Fast path for the common case: normal operands whose exact sum, product or
 * fma fits in a double's 53 bits (checked from the exponents), and a normal
 * f32 result. The host computes only exact double values (so its rounding
 * mode, DAZ and FTZ cannot matter); the rounding to f32 is done here on the
 * bits. Anything else (zero, subnormal, overflow, NaN, far exponents) returns
 * 0 and takes the general path. */
static inline int f32_normal(uint32_t x) {
  uint32_t e = (x >> 23) & 0xFF;
  return e != 0 && e != 0xFF;
}
static inline int f32_exp(uint32_t x) { return (int)((x >> 23) & 0xFF); }
static inline int exact_to_f32(double d, ws_emu_num_rnd r, uint32_t *out) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << 31;
  int e = (int)((b >> 52) & 0x7FF) - 1023 + 127;
  if (e < 1 || e > 254) return 0;
  uint64_t frac = b & 0xFFFFFFFFFFFFFull, rem = frac & 0x1FFFFFFFu, half = 0x10000000u;
  uint32_t res = sign | ((uint32_t)e << 23) | (uint32_t)(frac >> 29);
  int up;
  switch (frnd(r)) {
  case WS_NUM_RZ: up = 0; break;
  case WS_NUM_RM: up = rem != 0 && sign; break;
  case WS_NUM_RP: up = rem != 0 && !sign; break;
  case WS_NUM_RNA: up = rem >= half; break;
  default: up = rem > half || (rem == half && (res & 1)); break;
  }
  *out = res + (uint32_t)up; /* a carry into the exponent is right, up to inf */
  return 1;
}
static inline double f32_as_double(uint32_t x) {
  float f;
  memcpy(&f, &x, sizeof f);
  return (double)f;
}

uint32_t ws_emu_num_f32_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  uint32_t fast;
  int d = f32_exp(a) - f32_exp(b);
  if (f32_normal(a) && f32_normal(b) && d <= 28 && d >= -28 &&
      exact_to_f32(f32_as_double(a) + f32_as_double(b), rnd, &fast))
    return sat ? (uint32_t)g_sat(FM_F32, fast) : fast;
  uint64_t r = g_add(FM_F32, a, b, 0, rnd, ftz);
  return (uint32_t)(sat ? g_sat(FM_F32, r) : r);
}
uint32_t ws_emu_num_f32_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return ws_emu_num_f32_add(a, b ^ 0x80000000u, rnd, ftz, sat);
}
uint32_t ws_emu_num_f32_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  uint32_t fast;
  if (f32_normal(a) && f32_normal(b) && exact_to_f32(f32_as_double(a) * f32_as_double(b), rnd, &fast))
    return sat ? (uint32_t)g_sat(FM_F32, fast) : fast;
  uint64_t r = g_mul(FM_F32, a, b, rnd, ftz);
  return (uint32_t)(sat ? g_sat(FM_F32, r) : r);
}
uint32_t ws_emu_num_f32_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int ftz, int sat) {
  uint32_t fast;
  if (f32_normal(a) && f32_normal(b) && f32_normal(c)) {
    /* Exponents of the least significant bits; the product spans 48 bits,
     * c 24. Exact in a double when the whole span is at most 52 bits. */
    int lp = f32_exp(a) + f32_exp(b) - 2 * 150, lc = f32_exp(c) - 150;
    int top = lp + 47 > lc + 23 ? lp + 47 : lc + 23, low = lp < lc ? lp : lc;
    if (top - low + 1 <= 52 &&
        exact_to_f32(f32_as_double(a) * f32_as_double(b) + f32_as_double(c), rnd, &fast))
      return sat ? (uint32_t)g_sat(FM_F32, fast) : fast;
  }
  uint64_t r = g_fma(FM_F32, a, b, c, rnd, ftz);
  return (uint32_t)(sat ? g_sat(FM_F32, r) : r);
}
/* Quotients of normal operands take the same fast path, although a
 * quotient is not exact in a double: with a = A 2^i and b = B 2^j (A, B
 * 24-bit integers), a point of the 25-bit grid (every f32 value and every
 * midpoint between two) that is not a / b differs from it by at least
 * |A 2^t - B G| 2^k / B >= 2^k / 2^24 where 2^(k + 24) <= |a / b| and t
 * >= 0: a relative distance above 2^-49.  The host's quotient in any
 * rounding mode is within 2^-52 of a / b (relative), and a grid point is
 * a double, so the host's quotient is exact when a / b is a grid point and
 * has no grid point between it and a / b otherwise: its low 29 bits round
 * to f32 exactly as a / b would, in every mode.  Normal operands give a
 * normal double (no DAZ/FTZ effect); a result outside f32's normal range
 * takes the general path. */
static inline int f32_div_fast(uint32_t a, uint32_t b, ws_emu_num_rnd r, uint32_t *out) {
  return f32_normal(a) && f32_normal(b) && exact_to_f32(f32_as_double(a) / f32_as_double(b), r, out);
}
uint32_t ws_emu_num_f32_div(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz) {
  uint32_t fast;
  if (f32_div_fast(a, b, rnd, &fast)) return fast;
  return (uint32_t)g_div(FM_F32, a, b, rnd, ftz);
}
uint32_t ws_emu_num_f32_div_full(uint32_t a, uint32_t b, int ftz) {
  return ws_emu_num_f32_div(a, b, WS_NUM_RN, ftz);
}
uint32_t ws_emu_num_f32_div_approx(uint32_t a, uint32_t b, int ftz) {
  /* a * (1/b) with 1/b rounded to nearest; for 2^126 < |b| < 2^128 the
   * reciprocal underflows to zero as the ISA states (result 0, or NaN for an
   * infinite a). */
  unp y = decode(FM_F32, b, ftz);
  if (y.cls == C_FIN && y.e + 23 >= 126 && !(y.e + 23 == 126 && y.m == (1u << 23))) {
    unp x = decode(FM_F32, a, ftz);
    if (x.cls == C_NAN || x.cls == C_INF) return (uint32_t)CANON_NAN[FM_F32];
    return (uint32_t)fzero(FM_F32, x.sign ^ y.sign);
  }
  uint32_t rcp = ws_emu_num_f32_div(0x3F800000u, b, WS_NUM_RN, ftz);
  return ws_emu_num_f32_mul(a, rcp, WS_NUM_RN, ftz, 0);
}
uint32_t ws_emu_num_f32_rcp(uint32_t a, ws_emu_num_rnd rnd, int ftz) {
  return ws_emu_num_f32_div(0x3F800000u, a, rnd, ftz);
}
uint32_t ws_emu_num_f32_rcp_approx(uint32_t a, int ftz) {
  return ws_emu_num_f32_div(0x3F800000u, a, WS_NUM_RN, ftz);
}
uint32_t ws_emu_num_f32_sqrt(uint32_t a, ws_emu_num_rnd rnd, int ftz) {
  return (uint32_t)g_sqrt(FM_F32, a, rnd, ftz);
}
uint32_t ws_emu_num_f32_sqrt_approx(uint32_t a, int ftz) {
  return (uint32_t)g_sqrt(FM_F32, a, WS_NUM_RN, ftz);
}
uint32_t ws_emu_num_f32_rsqrt_approx(uint32_t a, int ftz) {
  double x = to_double(FM_F32, a, ftz);
  if (isnan(x) || (x < 0)) return (uint32_t)CANON_NAN[FM_F32];
  if (x == 0) return (uint32_t)finf(FM_F32, signbit(x) != 0); /* rsqrt(-0) = -inf */
  return (uint32_t)from_double(FM_F32, 1.0 / sqrt(x), ftz);
}

typedef double (*d2d)(double);
static uint32_t approx1(uint32_t a, int ftz, d2d fn) {
  double x = to_double(FM_F32, a, ftz);
  if (isnan(x)) return (uint32_t)CANON_NAN[FM_F32];
  return (uint32_t)from_double(FM_F32, fn(x), ftz);
}
uint32_t ws_emu_num_f32_sin_approx(uint32_t a, int ftz) {
  if (decode(FM_F32, a, 0).cls == C_INF) return (uint32_t)CANON_NAN[FM_F32];
  return approx1(a, ftz, sin);
}
uint32_t ws_emu_num_f32_cos_approx(uint32_t a, int ftz) {
  if (decode(FM_F32, a, 0).cls == C_INF) return (uint32_t)CANON_NAN[FM_F32];
  return approx1(a, ftz, cos);
}
uint32_t ws_emu_num_f32_ex2_approx(uint32_t a, int ftz) { return approx1(a, ftz, exp2); }
uint32_t ws_emu_num_f32_lg2_approx(uint32_t a, int ftz) {
  double x = to_double(FM_F32, a, ftz);
  if (isnan(x) || x < 0) return (uint32_t)CANON_NAN[FM_F32];
  if (x == 0) return (uint32_t)finf(FM_F32, 1);
  return (uint32_t)from_double(FM_F32, log2(x), ftz);
}
uint32_t ws_emu_num_f32_tanh_approx(uint32_t a) { return approx1(a, 0, tanh); }

uint32_t ws_emu_num_f32_min(uint32_t a, uint32_t b, int ftz, int nanmode) {
  return (uint32_t)g_minmax(FM_F32, a, b, ftz, nanmode, 0, 0);
}
uint32_t ws_emu_num_f32_max(uint32_t a, uint32_t b, int ftz, int nanmode) {
  return (uint32_t)g_minmax(FM_F32, a, b, ftz, nanmode, 0, 1);
}
uint32_t ws_emu_num_f32_abs(uint32_t a, int ftz) {
  return (uint32_t)g_flush(FM_F32, a, ftz) & 0x7FFFFFFFu;
}
uint32_t ws_emu_num_f32_neg(uint32_t a, int ftz) {
  return (uint32_t)g_flush(FM_F32, a, ftz) ^ 0x80000000u;
}
uint32_t ws_emu_num_f32_copysign(uint32_t a, uint32_t b) {
  return (b & 0x7FFFFFFFu) | (a & 0x80000000u);
}
int ws_emu_num_f32_testp(uint32_t a, ws_emu_num_testp op) { return g_testp(FM_F32, a, op); }
int ws_emu_num_f32_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op, int ftz) {
  return g_cmp(FM_F32, a, b, op, ftz);
}

/* ---- f64 --------------------------------------------------------------- */

uint64_t ws_emu_num_f64_add(uint64_t a, uint64_t b, ws_emu_num_rnd rnd) { return g_add(FM_F64, a, b, 0, rnd, 0); }
uint64_t ws_emu_num_f64_sub(uint64_t a, uint64_t b, ws_emu_num_rnd rnd) { return g_add(FM_F64, a, b, 1, rnd, 0); }
uint64_t ws_emu_num_f64_mul(uint64_t a, uint64_t b, ws_emu_num_rnd rnd) { return g_mul(FM_F64, a, b, rnd, 0); }
uint64_t ws_emu_num_f64_fma(uint64_t a, uint64_t b, uint64_t c, ws_emu_num_rnd rnd) {
  return g_fma(FM_F64, a, b, c, rnd, 0);
}
uint64_t ws_emu_num_f64_div(uint64_t a, uint64_t b, ws_emu_num_rnd rnd) { return g_div(FM_F64, a, b, rnd, 0); }
uint64_t ws_emu_num_f64_rcp(uint64_t a, ws_emu_num_rnd rnd) {
  return g_div(FM_F64, 0x3FF0000000000000ull, a, rnd, 0);
}
uint64_t ws_emu_num_f64_rcp_approx_ftz(uint64_t a) {
  return g_div(FM_F64, 0x3FF0000000000000ull, a, WS_NUM_RN, 1);
}
uint64_t ws_emu_num_f64_sqrt(uint64_t a, ws_emu_num_rnd rnd) { return g_sqrt(FM_F64, a, rnd, 0); }
uint64_t ws_emu_num_f64_rsqrt_approx(uint64_t a, int ftz) {
  unp x = decode(FM_F64, a, ftz);
  if (x.cls == C_NAN || (x.sign && x.cls != C_ZERO)) return CANON_NAN[FM_F64];
  if (x.cls == C_ZERO) return finf(FM_F64, x.sign);
  if (x.cls == C_INF) return fzero(FM_F64, 0);
  /* 1/sqrt in two correctly rounded steps: error below 1.5 ulp. */
  uint64_t s = g_sqrt(FM_F64, a, WS_NUM_RN, ftz);
  return g_div(FM_F64, 0x3FF0000000000000ull, s, WS_NUM_RN, ftz);
}
uint64_t ws_emu_num_f64_min(uint64_t a, uint64_t b, int nanmode) { return g_minmax(FM_F64, a, b, 0, nanmode, 0, 0); }
uint64_t ws_emu_num_f64_max(uint64_t a, uint64_t b, int nanmode) { return g_minmax(FM_F64, a, b, 0, nanmode, 0, 1); }
uint64_t ws_emu_num_f64_abs(uint64_t a) { return a & 0x7FFFFFFFFFFFFFFFull; }
uint64_t ws_emu_num_f64_neg(uint64_t a) { return a ^ 0x8000000000000000ull; }
uint64_t ws_emu_num_f64_copysign(uint64_t a, uint64_t b) {
  return (b & 0x7FFFFFFFFFFFFFFFull) | (a & 0x8000000000000000ull);
}
int ws_emu_num_f64_testp(uint64_t a, ws_emu_num_testp op) { return g_testp(FM_F64, a, op); }
int ws_emu_num_f64_cmp(uint64_t a, uint64_t b, ws_emu_num_cmp op) { return g_cmp(FM_F64, a, b, op, 0); }

/* ---- f16 / bf16 ------------------------------------------------------------ */

static uint64_t h_post(int f, uint64_t r, int sat, int relu) {
  if (sat) r = g_sat(f, r);
  if (relu) r = g_relu(f, r);
  return r;
}

uint16_t ws_emu_num_f16_add(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return (uint16_t)h_post(FM_F16, g_add(FM_F16, a, b, 0, rnd, ftz), sat, 0);
}
uint16_t ws_emu_num_f16_sub(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return (uint16_t)h_post(FM_F16, g_add(FM_F16, a, b, 1, rnd, ftz), sat, 0);
}
uint16_t ws_emu_num_f16_mul(uint16_t a, uint16_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return (uint16_t)h_post(FM_F16, g_mul(FM_F16, a, b, rnd, ftz), sat, 0);
}
uint16_t ws_emu_num_f16_fma(uint16_t a, uint16_t b, uint16_t c, ws_emu_num_rnd rnd, int ftz, int sat, int relu) {
  return (uint16_t)h_post(FM_F16, g_fma(FM_F16, a, b, c, rnd, ftz), sat, relu);
}
uint16_t ws_emu_num_f16_neg(uint16_t a, int ftz) { return (uint16_t)(g_flush(FM_F16, a, ftz) ^ 0x8000u); }
uint16_t ws_emu_num_f16_abs(uint16_t a, int ftz) { return (uint16_t)(g_flush(FM_F16, a, ftz) & 0x7FFFu); }
uint16_t ws_emu_num_f16_min(uint16_t a, uint16_t b, int ftz, int nanmode, int relu) {
  return (uint16_t)g_minmax(FM_F16, a, b, ftz, nanmode, relu, 0);
}
uint16_t ws_emu_num_f16_max(uint16_t a, uint16_t b, int ftz, int nanmode, int relu) {
  return (uint16_t)g_minmax(FM_F16, a, b, ftz, nanmode, relu, 1);
}
int ws_emu_num_f16_cmp(uint16_t a, uint16_t b, ws_emu_num_cmp op, int ftz) { return g_cmp(FM_F16, a, b, op, ftz); }

static uint16_t h_approx(int f, uint16_t a, int ftz, d2d fn) {
  double x = to_double(f, a, ftz);
  if (isnan(x)) return (uint16_t)CANON_NAN[f];
  return (uint16_t)from_double(f, fn(x), ftz);
}
uint16_t ws_emu_num_f16_ex2_approx(uint16_t a, int ftz) { return h_approx(FM_F16, a, ftz, exp2); }
uint16_t ws_emu_num_bf16_ex2_approx(uint16_t a, int ftz) { return h_approx(FM_BF16, a, ftz, exp2); }
uint16_t ws_emu_num_f16_tanh_approx(uint16_t a) { return h_approx(FM_F16, a, 0, tanh); }
uint16_t ws_emu_num_bf16_tanh_approx(uint16_t a) { return h_approx(FM_BF16, a, 0, tanh); }

uint16_t ws_emu_num_bf16_add(uint16_t a, uint16_t b, ws_emu_num_rnd rnd) { return (uint16_t)g_add(FM_BF16, a, b, 0, rnd, 0); }
uint16_t ws_emu_num_bf16_sub(uint16_t a, uint16_t b, ws_emu_num_rnd rnd) { return (uint16_t)g_add(FM_BF16, a, b, 1, rnd, 0); }
uint16_t ws_emu_num_bf16_mul(uint16_t a, uint16_t b, ws_emu_num_rnd rnd) { return (uint16_t)g_mul(FM_BF16, a, b, rnd, 0); }
uint16_t ws_emu_num_bf16_fma(uint16_t a, uint16_t b, uint16_t c, ws_emu_num_rnd rnd, int relu) {
  return (uint16_t)h_post(FM_BF16, g_fma(FM_BF16, a, b, c, rnd, 0), 0, relu);
}
uint16_t ws_emu_num_bf16_neg(uint16_t a) { return (uint16_t)(a ^ 0x8000u); }
uint16_t ws_emu_num_bf16_abs(uint16_t a) { return (uint16_t)(a & 0x7FFFu); }
uint16_t ws_emu_num_bf16_min(uint16_t a, uint16_t b, int nanmode, int relu) {
  return (uint16_t)g_minmax(FM_BF16, a, b, 0, nanmode, relu, 0);
}
uint16_t ws_emu_num_bf16_max(uint16_t a, uint16_t b, int nanmode, int relu) {
  return (uint16_t)g_minmax(FM_BF16, a, b, 0, nanmode, relu, 1);
}
int ws_emu_num_bf16_cmp(uint16_t a, uint16_t b, ws_emu_num_cmp op) { return g_cmp(FM_BF16, a, b, op, 0); }

/* Packed forms: element i is bits 16i..16i+15. */
#define LO(x) ((uint16_t)((x) & 0xFFFFu))
#define HI(x) ((uint16_t)((x) >> 16))
#define PK(lo, hi) ((uint32_t)(lo) | ((uint32_t)(hi) << 16))

uint32_t ws_emu_num_f16x2_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return PK(ws_emu_num_f16_add(LO(a), LO(b), rnd, ftz, sat), ws_emu_num_f16_add(HI(a), HI(b), rnd, ftz, sat));
}
uint32_t ws_emu_num_f16x2_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return PK(ws_emu_num_f16_sub(LO(a), LO(b), rnd, ftz, sat), ws_emu_num_f16_sub(HI(a), HI(b), rnd, ftz, sat));
}
uint32_t ws_emu_num_f16x2_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int ftz, int sat) {
  return PK(ws_emu_num_f16_mul(LO(a), LO(b), rnd, ftz, sat), ws_emu_num_f16_mul(HI(a), HI(b), rnd, ftz, sat));
}
uint32_t ws_emu_num_f16x2_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int ftz, int sat, int relu) {
  return PK(ws_emu_num_f16_fma(LO(a), LO(b), LO(c), rnd, ftz, sat, relu),
            ws_emu_num_f16_fma(HI(a), HI(b), HI(c), rnd, ftz, sat, relu));
}
uint32_t ws_emu_num_f16x2_neg(uint32_t a, int ftz) { return PK(ws_emu_num_f16_neg(LO(a), ftz), ws_emu_num_f16_neg(HI(a), ftz)); }
uint32_t ws_emu_num_f16x2_abs(uint32_t a, int ftz) { return PK(ws_emu_num_f16_abs(LO(a), ftz), ws_emu_num_f16_abs(HI(a), ftz)); }
uint32_t ws_emu_num_f16x2_min(uint32_t a, uint32_t b, int ftz, int nanmode, int relu) {
  return PK(ws_emu_num_f16_min(LO(a), LO(b), ftz, nanmode, relu), ws_emu_num_f16_min(HI(a), HI(b), ftz, nanmode, relu));
}
uint32_t ws_emu_num_f16x2_max(uint32_t a, uint32_t b, int ftz, int nanmode, int relu) {
  return PK(ws_emu_num_f16_max(LO(a), LO(b), ftz, nanmode, relu), ws_emu_num_f16_max(HI(a), HI(b), ftz, nanmode, relu));
}
unsigned ws_emu_num_f16x2_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op, int ftz) {
  return (unsigned)ws_emu_num_f16_cmp(LO(a), LO(b), op, ftz) | ((unsigned)ws_emu_num_f16_cmp(HI(a), HI(b), op, ftz) << 1);
}

uint32_t ws_emu_num_bf16x2_add(uint32_t a, uint32_t b, ws_emu_num_rnd rnd) {
  return PK(ws_emu_num_bf16_add(LO(a), LO(b), rnd), ws_emu_num_bf16_add(HI(a), HI(b), rnd));
}
uint32_t ws_emu_num_bf16x2_sub(uint32_t a, uint32_t b, ws_emu_num_rnd rnd) {
  return PK(ws_emu_num_bf16_sub(LO(a), LO(b), rnd), ws_emu_num_bf16_sub(HI(a), HI(b), rnd));
}
uint32_t ws_emu_num_bf16x2_mul(uint32_t a, uint32_t b, ws_emu_num_rnd rnd) {
  return PK(ws_emu_num_bf16_mul(LO(a), LO(b), rnd), ws_emu_num_bf16_mul(HI(a), HI(b), rnd));
}
uint32_t ws_emu_num_bf16x2_fma(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_rnd rnd, int relu) {
  return PK(ws_emu_num_bf16_fma(LO(a), LO(b), LO(c), rnd, relu), ws_emu_num_bf16_fma(HI(a), HI(b), HI(c), rnd, relu));
}
uint32_t ws_emu_num_bf16x2_neg(uint32_t a) { return PK(ws_emu_num_bf16_neg(LO(a)), ws_emu_num_bf16_neg(HI(a))); }
uint32_t ws_emu_num_bf16x2_abs(uint32_t a) { return PK(ws_emu_num_bf16_abs(LO(a)), ws_emu_num_bf16_abs(HI(a))); }
uint32_t ws_emu_num_bf16x2_min(uint32_t a, uint32_t b, int nanmode, int relu) {
  return PK(ws_emu_num_bf16_min(LO(a), LO(b), nanmode, relu), ws_emu_num_bf16_min(HI(a), HI(b), nanmode, relu));
}
uint32_t ws_emu_num_bf16x2_max(uint32_t a, uint32_t b, int nanmode, int relu) {
  return PK(ws_emu_num_bf16_max(LO(a), LO(b), nanmode, relu), ws_emu_num_bf16_max(HI(a), HI(b), nanmode, relu));
}
unsigned ws_emu_num_bf16x2_cmp(uint32_t a, uint32_t b, ws_emu_num_cmp op) {
  return (unsigned)ws_emu_num_bf16_cmp(LO(a), LO(b), op) | ((unsigned)ws_emu_num_bf16_cmp(HI(a), HI(b), op) << 1);
}

/* ---- cvt ------------------------------------------------------------------ */

static int type_bits(ws_emu_num_type t) {
  switch (t) {
  case WS_NUM_U8: case WS_NUM_S8: return 8;
  case WS_NUM_U16: case WS_NUM_S16: case WS_NUM_F16: case WS_NUM_BF16: return 16;
  case WS_NUM_U32: case WS_NUM_S32: case WS_NUM_F32: case WS_NUM_TF32: return 32;
  default: return 64;
  }
}
static int type_signed(ws_emu_num_type t) {
  return t == WS_NUM_S8 || t == WS_NUM_S16 || t == WS_NUM_S32 || t == WS_NUM_S64;
}
static int type_fmt(ws_emu_num_type t) {
  switch (t) {
  case WS_NUM_F16: return FM_F16;
  case WS_NUM_BF16: return FM_BF16;
  case WS_NUM_F32: return FM_F32;
  case WS_NUM_F64: return FM_F64;
  case WS_NUM_TF32: return FM_TF32;
  default: return -1;
  }
}
static uint64_t mask_bits(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint64_t ws_emu_num_sext(uint64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t m = 1ull << (bits - 1);
  v &= mask_bits(bits);
  return (v ^ m) - m;
}

static int is_irnd(ws_emu_num_rnd r) {
  return r == WS_NUM_RNI || r == WS_NUM_RZI || r == WS_NUM_RMI || r == WS_NUM_RPI;
}

/* Round |value| = m * 2^e to an integer in mode r (sign needed for RM/RP).
 * *big is set when the magnitude is >= 2^64. */
static uint64_t round_int(int sign, uint64_t m, int e, ws_emu_num_rnd r, int *big) {
  *big = 0;
  if (m == 0) return 0;
  if (e >= 0) {
    if (e >= 64 || bitlen128(m) + e > 64) {
      *big = 1;
      return 0;
    }
    return m << e;
  }
  int rbit, st;
  u128 kept = cut_bits(m, -e, &rbit, &st);
  if (round_up(frnd(r), sign, (int)(kept & 1), rbit, st)) kept++;
  if (kept >> 64) {
    *big = 1;
    return 0;
  }
  return (uint64_t)kept;
}

static uint64_t cvt_float_to_int(int f, uint64_t src, ws_emu_num_type to, ws_emu_num_rnd r, int ftz) {
  int bits = type_bits(to), sgn = type_signed(to);
  s128 lo = sgn ? -((s128)1 << (bits - 1)) : 0;
  s128 hi = sgn ? ((s128)1 << (bits - 1)) - 1 : (s128)mask_bits(bits);
  unp x = decode(f, src, ftz);
  s128 v;
  if (x.cls == C_NAN) return 0;
  if (x.cls == C_INF) {
    v = x.sign ? lo : hi;
  } else {
    int big;
    if (r == WS_NUM_RND_NONE) r = WS_NUM_RZI;
    uint64_t mag = round_int(x.sign, x.m, x.e, r, &big);
    if (big) v = x.sign ? lo : hi;
    else v = x.sign ? -(s128)mag : (s128)mag;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
  }
  return (uint64_t)v & mask_bits(bits);
}

static uint64_t cvt_int_to_float(uint64_t src, ws_emu_num_type from, int f, ws_emu_num_rnd r, int ftz) {
  int bits = type_bits(from);
  uint64_t mag;
  int sign = 0;
  if (type_signed(from)) {
    int64_t v = (int64_t)ws_emu_num_sext(src, bits);
    sign = v < 0;
    mag = sign ? 0 - (uint64_t)v : (uint64_t)v;
  } else {
    mag = src & mask_bits(bits);
  }
  return round_pack(f, sign, mag, 0, 0, r, ftz);
}

/* Round to an integral value in the same format (cvt.rni.f32.f32 etc.). */
static uint64_t round_integral(int f, uint64_t src, ws_emu_num_rnd r, int ftz) {
  unp x = decode(f, src, ftz);
  if (x.cls == C_NAN) return CANON_NAN[f];
  if (x.cls == C_INF) return src;
  if (x.cls == C_ZERO) return fzero(f, x.sign);
  if (x.e >= 0) return src;
  int big;
  uint64_t k = round_int(x.sign, x.m, x.e, r, &big); /* < 2^54, no overflow */
  return k == 0 ? fzero(f, x.sign) : round_pack(f, x.sign, k, 0, 0, WS_NUM_RN, ftz);
}

/* The common conversions between 32-bit integers and floats, faster than
 * the general code below and equal to it (the interpreter spent 37 % of
 * NVIDIA's simplePitchLinearTexture sample there, on cvt.rn.f32.s32 of
 * indices), with no reliance on the host's rounding mode: a 32-bit integer
 * is exact in a double, which exact_to_f32 rounds in software in any of
 * the four modes, and C's float-to-integer conversion truncates (as .rzi
 * does) for values inside the destination's range.  NaN, values outside
 * the range, other types and modes, and .sat take the general path.
 * Returns 1 with *out set, else 0. */
static int cvt_host(uint64_t src, ws_emu_num_type from, ws_emu_num_type to, ws_emu_num_rnd rnd,
                    uint64_t *out) {
  if ((from == WS_NUM_S32 || from == WS_NUM_U32) && (to == WS_NUM_F32 || to == WS_NUM_F64) &&
      (rnd == WS_NUM_RN || rnd == WS_NUM_RZ || rnd == WS_NUM_RM || rnd == WS_NUM_RP)) {
    double d = from == WS_NUM_S32 ? (double)(int32_t)(uint32_t)src : (double)(uint32_t)src;
    uint32_t f;
    if (to == WS_NUM_F64) {
      memcpy(out, &d, 8);
      return 1;
    }
    if (d == 0) { /* +0 (exact_to_f32 takes normal values only) */
      *out = 0;
      return 1;
    }
    if (!exact_to_f32(d, rnd, &f)) return 0;
    *out = f;
    return 1;
  }
  if ((from == WS_NUM_F32 || from == WS_NUM_F64) && (to == WS_NUM_S32 || to == WS_NUM_U32) &&
      (rnd == WS_NUM_RZI || rnd == WS_NUM_RND_NONE)) {
    double d;
    if (from == WS_NUM_F32) {
      float f;
      uint32_t b = (uint32_t)src;
      memcpy(&f, &b, 4);
      d = f;
    } else {
      memcpy(&d, &src, 8);
    }
    if (to == WS_NUM_S32 && d > -2147483649.0 && d < 2147483648.0) {
      *out = (uint32_t)(int32_t)d;
      return 1;
    }
    if (to == WS_NUM_U32 && d > -1.0 && d < 4294967296.0) {
      *out = d < 1.0 ? 0 : (uint32_t)d;
      return 1;
    }
  }
  return 0;
}

uint64_t ws_emu_num_cvt(uint64_t src, ws_emu_num_type from, ws_emu_num_type to, ws_emu_num_rnd rnd, int ftz, int sat) {
  uint64_t fast;
  if (!sat && cvt_host(src, from, to, rnd, &fast)) return fast;
  int ff = type_fmt(from), tf = type_fmt(to);
  int ftz_in = ftz && from == WS_NUM_F32, ftz_out = ftz && to == WS_NUM_F32;
  uint64_t r;
  if (ff < 0 && tf < 0) { /* int -> int */
    int fb = type_bits(from), tb = type_bits(to);
    s128 v = type_signed(from) ? (s128)(int64_t)ws_emu_num_sext(src, fb) : (s128)(src & mask_bits(fb));
    if (sat) {
      s128 lo = type_signed(to) ? -((s128)1 << (tb - 1)) : 0;
      s128 hi = type_signed(to) ? ((s128)1 << (tb - 1)) - 1 : (s128)mask_bits(tb);
      if (v < lo) v = lo;
      if (v > hi) v = hi;
    }
    return (uint64_t)v & mask_bits(tb);
  }
  if (ff >= 0 && tf < 0) return cvt_float_to_int(ff, src, to, rnd, ftz_in);
  if (ff < 0) {
    r = cvt_int_to_float(src, from, tf, rnd, ftz_out);
  } else if (is_irnd(rnd)) {
    /* Round to integral in the source format, then convert to nearest. */
    uint64_t i = round_integral(ff, src, rnd, ftz_in);
    if (ff == tf) {
      r = ftz_out ? g_flush(tf, i, 1) : i;
    } else {
      unp x = decode(ff, i, 0);
      r = x.cls == C_NAN ? CANON_NAN[tf]
          : x.cls == C_INF ? finf(tf, x.sign)
          : x.cls == C_ZERO ? fzero(tf, x.sign)
          : round_pack(tf, x.sign, x.m, x.e, 0, WS_NUM_RN, ftz_out);
    }
  } else {
    unp x = decode(ff, src, ftz_in);
    r = x.cls == C_NAN ? CANON_NAN[tf]
        : x.cls == C_INF ? finf(tf, x.sign)
        : x.cls == C_ZERO ? fzero(tf, x.sign)
        : round_pack(tf, x.sign, x.m, x.e, 0, rnd, ftz_out);
  }
  if (sat) r = g_sat(tf, r);
  return r;
}

static uint64_t satfinite(int f, uint64_t v) {
  unp x = decode(f, v, 0);
  return x.cls == C_INF ? fmaxfin(f, x.sign) : v;
}

/* f32 a rounded to the narrower format f (a NaN as f's canonical NaN);
 * sf (.satfinite): an infinite result as the largest finite of its sign. */
static uint64_t narrow_f32(int f, uint32_t a, ws_emu_num_rnd rnd, int sf) {
  unp x = decode(FM_F32, a, 0);
  uint64_t r = x.cls == C_NAN ? CANON_NAN[f]
               : x.cls == C_INF ? finf(f, x.sign)
               : x.cls == C_ZERO ? fzero(f, x.sign)
               : round_pack(f, x.sign, x.m, x.e, 0, rnd, 0);
  return sf ? satfinite(f, r) : r;
}

static uint16_t cvt_half(int f, uint32_t a, ws_emu_num_rnd rnd, int relu, int sf) {
  uint64_t r = narrow_f32(f, a, rnd, sf);
  if (relu) r = g_relu(f, r);
  return (uint16_t)r;
}

uint16_t ws_emu_num_cvt_half(uint32_t a, ws_emu_num_type to, ws_emu_num_rnd rnd, int relu, int satf) {
  return cvt_half(to == WS_NUM_BF16 ? FM_BF16 : FM_F16, a, rnd, relu, satf);
}
uint32_t ws_emu_num_cvt_f16x2_f32(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int relu, int satf) {
  return PK(cvt_half(FM_F16, b, rnd, relu, satf), cvt_half(FM_F16, a, rnd, relu, satf));
}
uint32_t ws_emu_num_cvt_bf16x2_f32(uint32_t a, uint32_t b, ws_emu_num_rnd rnd, int relu, int satf) {
  return PK(cvt_half(FM_BF16, b, rnd, relu, satf), cvt_half(FM_BF16, a, rnd, relu, satf));
}
uint32_t ws_emu_num_cvt_tf32_f32(uint32_t a, ws_emu_num_rnd rnd, int satf) {
  if (rnd == WS_NUM_RND_NONE) rnd = WS_NUM_RNA;
  return (uint32_t)narrow_f32(FM_TF32, a, rnd, satf);
}

/* ---- FP8 ------------------------------------------------------------------ */

/* The FP8 formats (PTX ISA, "Alternate floating-point data formats"):
 * E4M3 (bias 7, no infinities: exponent 15 holds normal numbers up to
 * 448, 0x7f is NaN) and E5M2 (bias 15, IEEE-like: largest finite 57344).
 * Every value of both is exact in f16 and in f32. */
typedef struct fp8fmt { int mb, bias; double maxv; } fp8fmt;
static const fp8fmt FP8[2] = {{3, 7, 448.0}, {2, 15, 57344.0}};

/* The f32 value x (finite or not) to FP8 with .rn and .satfinite: round
 * to nearest even at the format's precision (its subnormals below 2^(1 -
 * bias)), a result past the largest finite (infinities too) clamped to it,
 * NaN as 0x7f; .relu: negative results as +0.  x is exact in double and
 * every step below is too. */
static uint8_t to_fp8(double x, int e5m2, int relu) {
  const fp8fmt *F = &FP8[e5m2];
  if (isnan(x)) return 0x7f;
  int sign = signbit(x) != 0;
  if (relu && sign) return 0;
  x = fabs(x);
  if (x == 0) return (uint8_t)(sign << 7);
  int emin = 1 - F->bias, E;
  if (isinf(x) || x >= 2 * F->maxv) {
    x = F->maxv;
  } else {
    frexp(x, &E);
    int q = (E - 1 > emin ? E - 1 : emin) - F->mb; /* the result's ulp: 2^q */
    double v = ldexp(x, -q), fl = floor(v), rest = v - fl;
    if (rest > 0.5 || (rest == 0.5 && fmod(fl, 2.0) != 0)) fl += 1;
    x = ldexp(fl, q);
    if (x > F->maxv) x = F->maxv;
    if (x == 0) return (uint8_t)(sign << 7);
  }
  frexp(x, &E);
  unsigned biased, mant;
  if (E - 1 < emin) { /* subnormal */
    biased = 0;
    mant = (unsigned)ldexp(x, F->mb - emin);
  } else {
    biased = (unsigned)(E - 1 + F->bias);
    mant = (unsigned)(ldexp(x, F->mb - (E - 1)) - (1 << F->mb));
  }
  return (uint8_t)((unsigned)sign << 7 | biased << F->mb | mant);
}

/* FP8 byte b as a double (NaN for E4M3's 0x7f/0xff and E5M2's NaNs). */
static double from_fp8(unsigned b, int e5m2) {
  const fp8fmt *F = &FP8[e5m2];
  int eb = 7 - F->mb, sign = (b >> 7) & 1;
  unsigned ex = (b >> F->mb) & ((1u << eb) - 1), fr = b & ((1u << F->mb) - 1);
  double v;
  if (!e5m2 && ex == 15 && fr == 7) return NAN;
  if (e5m2 && ex == 31) v = fr ? NAN : INFINITY;
  else if (ex == 0) v = ldexp(fr, 1 - F->bias - F->mb);
  else v = ldexp(fr | (1u << F->mb), (int)ex - F->bias - F->mb);
  return sign ? -v : v;
}

static double f32_val(uint32_t a) {
  float f;
  memcpy(&f, &a, 4);
  return f;
}

static double f16_val(uint16_t h) {
  unp x = decode(FM_F16, h, 0);
  double v = x.cls == C_NAN ? NAN : x.cls == C_INF ? INFINITY : ldexp((double)x.m, x.e);
  return x.sign ? -v : v;
}

uint16_t ws_emu_num_cvt_f8x2_f32(uint32_t a, uint32_t b, int e5m2, int relu) {
  return (uint16_t)(to_fp8(f32_val(a), e5m2, relu) << 8 | to_fp8(f32_val(b), e5m2, relu));
}
uint16_t ws_emu_num_cvt_f8x2_f16x2(uint32_t a, int e5m2, int relu) {
  return (uint16_t)(to_fp8(f16_val((uint16_t)(a >> 16)), e5m2, relu) << 8 |
                    to_fp8(f16_val((uint16_t)a), e5m2, relu));
}

/* One FP8 byte to f16: exact; NaN as f16's canonical NaN, .relu a
 * negative value as +0. */
static uint16_t fp8_to_f16(unsigned b, int e5m2, int relu) {
  double v = from_fp8(b, e5m2);
  if (isnan(v)) return (uint16_t)CANON_NAN[FM_F16];
  int sign = signbit(v) != 0;
  if (relu && sign) return 0;
  if (isinf(v)) return (uint16_t)finf(FM_F16, sign);
  if (v == 0) return (uint16_t)fzero(FM_F16, sign);
  int E;
  double fr = frexp(fabs(v), &E); /* |v| = fr * 2^E, fr in [0.5, 1) */
  return (uint16_t)round_pack(FM_F16, sign, (u128)(uint64_t)ldexp(fr, 53), E - 53, 0, WS_NUM_RN, 0);
}
uint32_t ws_emu_num_cvt_f16x2_f8x2(uint32_t a, int e5m2, int relu) {
  return PK(fp8_to_f16(a & 0xff, e5m2, relu), fp8_to_f16((a >> 8) & 0xff, e5m2, relu));
}

/* ---- integers -------------------------------------------------------------- */

static int64_t sval(uint64_t v, int bits) { return (int64_t)ws_emu_num_sext(v, bits); }

uint32_t ws_emu_num_s32_add_sat(uint32_t a, uint32_t b) {
  int64_t s = (int64_t)(int32_t)a + (int32_t)b;
  if (s > INT32_MAX) s = INT32_MAX;
  if (s < INT32_MIN) s = INT32_MIN;
  return (uint32_t)s;
}
uint32_t ws_emu_num_s32_sub_sat(uint32_t a, uint32_t b) {
  int64_t s = (int64_t)(int32_t)a - (int32_t)b;
  if (s > INT32_MAX) s = INT32_MAX;
  if (s < INT32_MIN) s = INT32_MIN;
  return (uint32_t)s;
}
uint64_t ws_emu_num_addc(uint64_t a, uint64_t b, unsigned cin, int bits, unsigned *cout) {
  u128 s = (u128)(a & mask_bits(bits)) + (b & mask_bits(bits)) + (cin & 1);
  if (cout) *cout = (unsigned)((s >> bits) & 1);
  return (uint64_t)s & mask_bits(bits);
}
uint64_t ws_emu_num_subc(uint64_t a, uint64_t b, unsigned cin, int bits, unsigned *cout) {
  u128 x = a & mask_bits(bits), y = (u128)(b & mask_bits(bits)) + (cin & 1);
  if (cout) *cout = x < y;
  return (uint64_t)(x - y) & mask_bits(bits);
}

/* Full 2*bits-wide product, as a 128-bit two's complement pattern. */
static u128 full_product(uint64_t a, uint64_t b, int bits, int sgn) {
  if (sgn) return (u128)((s128)sval(a, bits) * (s128)sval(b, bits));
  return (u128)(a & mask_bits(bits)) * (b & mask_bits(bits));
}
uint64_t ws_emu_num_mul_lo(uint64_t a, uint64_t b, int bits) {
  return (uint64_t)full_product(a, b, bits, 0) & mask_bits(bits);
}
uint64_t ws_emu_num_mul_hi(uint64_t a, uint64_t b, int bits, int sgn) {
  return (uint64_t)(full_product(a, b, bits, sgn) >> bits) & mask_bits(bits);
}
uint64_t ws_emu_num_mul_wide(uint64_t a, uint64_t b, int bits, int sgn) {
  return (uint64_t)full_product(a, b, bits, sgn) & mask_bits(2 * bits);
}
uint64_t ws_emu_num_mad_lo(uint64_t a, uint64_t b, uint64_t c, int bits) {
  return (ws_emu_num_mul_lo(a, b, bits) + c) & mask_bits(bits);
}
uint64_t ws_emu_num_mad_hi(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn, int sat) {
  if (sat && sgn && bits == 32) {
    int64_t t = sval(ws_emu_num_mul_hi(a, b, 32, 1), 32) + sval(c, 32);
    if (t > INT32_MAX) t = INT32_MAX;
    if (t < INT32_MIN) t = INT32_MIN;
    return (uint64_t)t & 0xFFFFFFFFu;
  }
  return (ws_emu_num_mul_hi(a, b, bits, sgn) + c) & mask_bits(bits);
}
uint64_t ws_emu_num_mad_wide(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn) {
  return (ws_emu_num_mul_wide(a, b, bits, sgn) + c) & mask_bits(2 * bits);
}
uint64_t ws_emu_num_madc(uint64_t a, uint64_t b, uint64_t c, unsigned cin, int hi, int sgn, int bits,
                     unsigned *cout) {
  uint64_t p = hi ? ws_emu_num_mul_hi(a, b, bits, sgn) : ws_emu_num_mul_lo(a, b, bits);
  return ws_emu_num_addc(p, c, cin, bits, cout);
}
uint32_t ws_emu_num_mul24(uint32_t a, uint32_t b, int hi, int sgn) {
  int64_t x = sgn ? sval(a, 24) : (int64_t)(a & 0xFFFFFFu);
  int64_t y = sgn ? sval(b, 24) : (int64_t)(b & 0xFFFFFFu);
  uint64_t p = (uint64_t)(x * y); /* 48 bits, fits */
  return (uint32_t)(hi ? p >> 16 : p);
}
uint32_t ws_emu_num_mad24(uint32_t a, uint32_t b, uint32_t c, int hi, int sgn, int sat) {
  uint32_t t = ws_emu_num_mul24(a, b, hi, sgn);
  if (sat && sgn && hi) {
    int64_t s = (int64_t)(int32_t)t + (int32_t)c;
    if (s > INT32_MAX) s = INT32_MAX;
    if (s < INT32_MIN) s = INT32_MIN;
    return (uint32_t)s;
  }
  return t + c;
}

uint64_t ws_emu_num_div(uint64_t a, uint64_t b, int bits, int sgn) {
  uint64_t m = mask_bits(bits);
  if (!sgn) {
    a &= m;
    b &= m;
    return b == 0 ? m : a / b;
  }
  int64_t x = sval(a, bits), y = sval(b, bits);
  if (y == 0) return (x >= 0 ? ~0ull : 1ull) & m;
  if (y == -1) return (0 - (uint64_t)x) & m; /* MIN / -1 wraps to MIN */
  return (uint64_t)(x / y) & m;
}
uint64_t ws_emu_num_rem(uint64_t a, uint64_t b, int bits, int sgn) {
  uint64_t m = mask_bits(bits);
  if (!sgn) {
    a &= m;
    b &= m;
    return b == 0 ? a : a % b;
  }
  int64_t x = sval(a, bits), y = sval(b, bits);
  if (y == 0) return (uint64_t)x & m;
  if (y == -1) return 0;
  return (uint64_t)(x % y) & m;
}
uint64_t ws_emu_num_min(uint64_t a, uint64_t b, int bits, int sgn) {
  if (sgn) return (uint64_t)(sval(a, bits) < sval(b, bits) ? a : b) & mask_bits(bits);
  return ((a & mask_bits(bits)) < (b & mask_bits(bits)) ? a : b) & mask_bits(bits);
}
uint64_t ws_emu_num_max(uint64_t a, uint64_t b, int bits, int sgn) {
  if (sgn) return (uint64_t)(sval(a, bits) > sval(b, bits) ? a : b) & mask_bits(bits);
  return ((a & mask_bits(bits)) > (b & mask_bits(bits)) ? a : b) & mask_bits(bits);
}
uint64_t ws_emu_num_abs(uint64_t a, int bits) {
  int64_t x = sval(a, bits);
  return (x < 0 ? 0 - (uint64_t)x : (uint64_t)x) & mask_bits(bits);
}
uint64_t ws_emu_num_neg(uint64_t a, int bits) { return (0 - a) & mask_bits(bits); }
int ws_emu_num_int_cmp(uint64_t a, uint64_t b, ws_emu_num_cmp op, int bits, int sgn) {
  int lt, eq;
  if (sgn) {
    int64_t x = sval(a, bits), y = sval(b, bits);
    lt = x < y;
    eq = x == y;
  } else {
    uint64_t x = a & mask_bits(bits), y = b & mask_bits(bits);
    lt = x < y;
    eq = x == y;
  }
  switch (op) {
  case WS_NUM_EQ: return eq;
  case WS_NUM_NE: return !eq;
  case WS_NUM_LT: return lt;
  case WS_NUM_LE: return lt || eq;
  case WS_NUM_GT: return !lt && !eq;
  case WS_NUM_GE: return !lt;
  default: return 0; /* unordered forms do not exist for integers */
  }
}
uint32_t ws_emu_num_popc(uint64_t a, int bits) { return ws_popc64(a & mask_bits(bits)); }
uint32_t ws_emu_num_clz(uint64_t a, int bits) {
  a &= mask_bits(bits);
  if (a == 0) return (uint32_t)bits;
  return (uint32_t)(__builtin_clzll(a) - (64 - bits));
}
uint64_t ws_emu_num_brev(uint64_t a, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; i++)
    if ((a >> i) & 1) r |= 1ull << (bits - 1 - i);
  return r;
}
uint32_t ws_emu_num_bfind(uint64_t a, int bits, int sgn, int shiftamt) {
  a &= mask_bits(bits);
  if (sgn && ((a >> (bits - 1)) & 1)) a = ~a & mask_bits(bits);
  if (a == 0) return 0xFFFFFFFFu;
  uint32_t d = (uint32_t)(63 - __builtin_clzll(a));
  return shiftamt ? (uint32_t)(bits - 1) - d : d;
}
uint64_t ws_emu_num_bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sgn) {
  int msb = bits - 1;
  uint32_t p = pos & 0xFF, l = len & 0xFF;
  int sbit = 0;
  if (sgn && l != 0) {
    uint32_t top = p + l - 1;
    sbit = (int)((a >> (top < (uint32_t)msb ? top : (uint32_t)msb)) & 1);
  }
  uint64_t d = 0;
  for (int i = 0; i <= msb; i++) {
    int bit = ((uint32_t)i < l && p + (uint32_t)i <= (uint32_t)msb) ? (int)((a >> (p + i)) & 1) : sbit;
    d |= (uint64_t)bit << i;
  }
  return d;
}
uint64_t ws_emu_num_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int bits) {
  int msb = bits - 1;
  uint32_t p = pos & 0xFF, l = len & 0xFF;
  uint64_t f = b & mask_bits(bits);
  for (uint32_t i = 0; i < l && p + i <= (uint32_t)msb; i++) {
    uint64_t bit = 1ull << (p + i);
    f = ((a >> i) & 1) ? (f | bit) : (f & ~bit);
  }
  return f;
}

/* prmt modes: for each selector value 0..3, the source byte for result
 * bytes 0..3 (ISA table, written from byte 0 up). */
static const uint8_t PRMT_TABLE[6][4][4] = {
    /* f4e  */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    /* b4e  */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    /* rc8  */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    /* ecl  */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    /* ecr  */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

uint32_t ws_emu_num_prmt(uint32_t a, uint32_t b, uint32_t c, ws_emu_num_prmt_mode mode) {
  uint64_t src = ((uint64_t)b << 32) | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t byte;
    if (mode == WS_NUM_PRMT_DEFAULT) {
      uint32_t sel = (c >> (4 * i)) & 0xF;
      byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xFF;
      if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
    } else {
      uint32_t sel = c & 3;
      byte = (uint32_t)(src >> (8 * PRMT_TABLE[mode - 1][sel][i])) & 0xFF;
    }
    d |= byte << (8 * i);
  }
  return d;
}

uint32_t ws_emu_num_shf(uint32_t a, uint32_t b, uint32_t c, int left, int wrap) {
  uint32_t n = wrap ? (c & 31) : (c < 32 ? c : 32);
  uint64_t v = ((uint64_t)b << 32) | a;
  if (left) return (uint32_t)((v << n) >> 32);
  return (uint32_t)(v >> n);
}
uint64_t ws_emu_num_shl(uint64_t a, uint32_t n, int bits) {
  if (n >= (uint32_t)bits) return 0;
  return (a << n) & mask_bits(bits);
}
uint64_t ws_emu_num_shr(uint64_t a, uint32_t n, int bits, int sgn) {
  if (sgn) {
    int64_t x = sval(a, bits);
    return (uint64_t)(x >> (n >= (uint32_t)bits ? bits - 1 : (int)n)) & mask_bits(bits);
  }
  if (n >= (uint32_t)bits) return 0;
  return (a & mask_bits(bits)) >> n;
}
uint32_t ws_emu_num_lop3(uint32_t a, uint32_t b, uint32_t c, uint8_t lut) {
  /* Bit i of the result is lut[(a_i << 2) | (b_i << 1) | c_i], the encoding
   * in which the ISA's ta = 0xF0, tb = 0xCC, tc = 0xAA. */
  uint32_t d = 0;
  for (int k = 0; k < 8; k++) {
    if (!((lut >> k) & 1)) continue;
    uint32_t ma = (k & 4) ? a : ~a, mb = (k & 2) ? b : ~b, mc = (k & 1) ? c : ~c;
    d |= ma & mb & mc;
  }
  return d;
}
static int32_t ext_part(uint32_t v, int i, int width, int sgn) {
  uint32_t x = (v >> (i * width)) & ((1u << width) - 1);
  return sgn ? (int32_t)sval(x, width) : (int32_t)x;
}
uint32_t ws_emu_num_dp4a(uint32_t a, uint32_t b, uint32_t c, int a_sgn, int b_sgn) {
  uint32_t d = c;
  for (int i = 0; i < 4; i++)
    d += (uint32_t)(ext_part(a, i, 8, a_sgn) * ext_part(b, i, 8, b_sgn));
  return d;
}
uint32_t ws_emu_num_dp2a(uint32_t a, uint32_t b, uint32_t c, int a_sgn, int b_sgn, int hi) {
  uint32_t d = c;
  for (int i = 0; i < 2; i++)
    d += (uint32_t)(ext_part(a, i, 16, a_sgn) * ext_part(b, (hi ? 2 : 0) + i, 8, b_sgn));
  return d;
}
uint64_t ws_emu_num_sad(uint64_t a, uint64_t b, uint64_t c, int bits, int sgn) {
  uint64_t m = mask_bits(bits);
  int lt = sgn ? sval(a, bits) < sval(b, bits) : (a & m) < (b & m);
  uint64_t diff = lt ? (b - a) : (a - b);
  return (c + diff) & m;
}
uint32_t ws_emu_num_fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31) return 0xFFFFFFFFu; /* undefined in the ISA; we say "not found" */
  if (offset == 0) return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
  int pos = (int)base, inc = offset > 0 ? 1 : -1;
  int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
  while (pos >= 0 && pos < 32) {
    if ((mask >> pos) & 1) {
      if (count == 0) return (uint32_t)pos;
      count--;
    }
    pos += inc;
  }
  return 0xFFFFFFFFu;
}

uint32_t ws_emu_num_szext(uint32_t a, uint32_t b, int wrap, int sgn) {
  uint32_t b1 = b & 0x1F;
  int too_large = b >= 32 && !wrap;
  uint32_t mask = too_large ? 0 : ~0u << b1;
  uint32_t sign_pos = (b1 - 1) & 0x1F;
  int sign_bit = (b1 == 0 || too_large || !sgn) ? 0 : (int)((a >> sign_pos) & 1);
  return (a & ~mask) | (sign_bit ? mask : 0);
}
uint32_t ws_emu_num_bmsk(uint32_t a, uint32_t b, int wrap) {
  uint32_t a1 = a & 0x1F, b1 = b & 0x1F, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  uint32_t mask1 = sum < 32 ? ~0u << sum : 0;
  int overflow = sum >= 32;
  if (!wrap) {
    if (a >= 32) {
      overflow = 1;
      mask0 = 0;
    }
    if (b >= 32) overflow = 1;
  }
  if (overflow) mask1 = 0;
  else if (b1 == 0) mask1 = ~0u;
  return mask0 & ~mask1;
}
uint32_t ws_emu_num_add16x2(uint32_t a, uint32_t b, int sub) {
  uint32_t lo = sub ? LO(a) - LO(b) : LO(a) + LO(b);
  uint32_t hi = sub ? HI(a) - HI(b) : HI(a) + HI(b);
  return PK(lo & 0xFFFFu, hi & 0xFFFFu);
}
static uint32_t minmax16(uint16_t x, uint16_t y, int sgn, int relu, int want_max) {
  uint64_t r = want_max ? ws_emu_num_max(x, y, 16, sgn) : ws_emu_num_min(x, y, 16, sgn);
  if (relu && sgn && (r & 0x8000u)) r = 0;
  return (uint32_t)r;
}
uint32_t ws_emu_num_min16x2(uint32_t a, uint32_t b, int sgn, int relu) {
  return PK(minmax16(LO(a), LO(b), sgn, relu, 0), minmax16(HI(a), HI(b), sgn, relu, 0));
}
uint32_t ws_emu_num_max16x2(uint32_t a, uint32_t b, int sgn, int relu) {
  return PK(minmax16(LO(a), LO(b), sgn, relu, 1), minmax16(HI(a), HI(b), sgn, relu, 1));
}
