/*
 * jit_lane.h — the inline helpers of generated code: lane loops, float bit
 * casts, comparisons and the fast paths of memory accesses.  Embedded in
 * every generated C file after jit_abi.h (see there); the library includes
 * it only to test it.
 *
 * Exactness rules every helper keeps (docs/emulator.md, "The translated
 * engine"): a result is computed for all 32 lanes and blended into the
 * destination under the instruction's lane mask (JSEL), so inactive lanes
 * keep their values as in the interpreter, and nothing that can trap or
 * has a side effect runs for an inactive lane; float results that the
 * interpreter canonicalises (its bf32/bf64) are canonicalised the same way;
 * a memory access takes its fast path only where the interpreter's
 * resolve() would succeed with the same host address, and otherwise asks
 * the host, lane by lane in lane order, which records the same fault.
 */
#ifndef WS_JIT_LANE_H
#define WS_JIT_LANE_H

#include <math.h>

#ifndef WS_JIT_GENERATED
#include "emu/jit/jit_abi.h"
#endif

#define JINL static inline __attribute__((always_inline))
/* The fault and reconvergence paths are rare: said so, the compiler keeps
 * the straight-line lane loops hot (and vectorised) in big functions. */
#define JL_LIKELY(x) __builtin_expect(!!(x), 1)
#define JL_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Population counts for the generated code, which is compiled with
 * -march=native where the host allows (one POPCNT instruction), unlike the
 * library's baseline build that util/bits.h serves. */
static inline uint32_t jl_popc32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static inline uint32_t jl_popc64(uint64_t x) { return (uint32_t)__builtin_popcountll(x); }
#define JL_FULL 0xffffffffu
/* A loop over the 32 lanes, `l` the lane. */
#define JFOR for (uint32_t l = 0; l < 32; l++)
/* A loop over the lanes of m, lowest first, `l` the lane. */
#define JEACH(m) for (uint32_t mm_ = (m), l = 0; mm_ && ((l = (uint32_t)__builtin_ctz(mm_)), 1); mm_ &= mm_ - 1)
/* c ? a : b for c 0 or 1, without a branch: lane loops stay free of
 * control flow, which the vectoriser needs (it does not if-convert every
 * ternary; and a `c != 0` here, a boolean, keeps loops that mix 32- and
 * 64-bit lanes scalar). */
JINL uint32_t jsel32(uint32_t c, uint32_t a, uint32_t b) {
  uint32_t k = 0u - c;
  return (a & k) | (b & ~k);
}
JINL uint64_t jsel64(uint32_t c, uint64_t a, uint64_t b) {
  uint64_t k = 0ull - (uint64_t)c;
  return (a & k) | (b & ~k);
}
/* Lane l's new value v under mask m, else its old value. */
#define JSEL(m, v, old) _Generic((old), uint64_t: jsel64, default: jsel32)(((m) >> l) & 1u, (v), (old))

/* Generic address windows (the interpreter's emu_int.h: WIN_SHIFT 40). */
#define JL_WIN_SHIFT 40
#define JL_CONST_WIN (0x7dull << JL_WIN_SHIFT)
#define JL_LOCAL_WIN (0x7eull << JL_WIN_SHIFT)
#define JL_SHARED_WIN (0x7full << JL_WIN_SHIFT)

/* Bit casts through unions (the vectoriser handles them, not memcpy). */
JINL float jf32(uint32_t u) {
  union { uint32_t u; float f; } x = {u};
  return x.f;
}
/* f32 result bits, NaN canonical (the interpreter's bf32). */
JINL uint32_t jb32(float f) {
  union { float f; uint32_t u; } x = {f};
  return jsel32(f != f, 0x7fffffffu, x.u);
}
JINL double jf64(uint64_t u) {
  union { uint64_t u; double f; } x = {u};
  return x.f;
}
JINL uint64_t jb64(double f) {
  union { double f; uint64_t u; } x = {f};
  return jsel64(f != f, 0x7fffffffffffffffull, x.u);
}

/* Float comparison c (ws_emu_num_cmp) on values widened to double, which is
 * exact and keeps NaNs (the interpreter's fcmp64). */
JINL int jfcmp(double a, double b, int c) {
  int un = (a != a) | (b != b); /* | and &: no branches in lane loops */
  switch (c) {
  case 0: return a == b;          /* EQ */
  case 1: return !un & (a != b);  /* NE */
  case 2: return a < b;           /* LT */
  case 3: return a <= b;          /* LE */
  case 4: return a > b;           /* GT */
  case 5: return a >= b;          /* GE */
  case 6: return un | (a == b);   /* EQU */
  case 7: return a != b;          /* NEU */
  case 8: return un | (a < b);    /* LTU */
  case 9: return un | (a <= b);   /* LEU */
  case 10: return un | (a > b);   /* GTU */
  case 11: return un | (a >= b);  /* GEU */
  case 12: return !un;            /* NUM */
  default: return un;             /* NAN */
  }
}

/* Emulated memory read and written as any type at any alignment (the
 * vectoriser turns typed accesses into vector loads, stores and gathers;
 * it leaves memcpy alone). */
typedef uint16_t ju16 __attribute__((may_alias, aligned(1)));
typedef uint32_t ju32 __attribute__((may_alias, aligned(1)));
typedef uint64_t ju64 __attribute__((may_alias, aligned(1)));

/* ---- exact fast forms of num.c's numerics ---------------------------------
 *
 * Each mirrors a num.c function on the inputs where it is simple (num.c's
 * own fast paths, or where the host's IEEE operation is the exact answer)
 * and says so in *ok; elsewhere the generated code calls num.c.  Where *ok
 * is 1 the result is num.c's, bit for bit: tests/unit/test_jit_lane.c
 * compares every one with num.c on special values and millions of random
 * inputs.  Rounding modes are ws_emu_num_rnd values. */

JINL uint32_t jl_f32_ex(uint32_t x) { return (x >> 23) & 0xffu; }
JINL uint32_t jl_f32_normal(uint32_t x) { return (uint32_t)(jl_f32_ex(x) != 0) & (uint32_t)(jl_f32_ex(x) != 0xffu); }
JINL uint32_t jl_f32_sub(uint32_t x) { return (jl_f32_ex(x) == 0) & ((x & 0x7fffffu) != 0); }

/* .sat on an f32 result (num.c's g_sat): NaN and negative -> +0, above 1 -> 1. */
JINL uint32_t jl_sat32(uint32_t v) {
  uint32_t nan = (v & 0x7fffffffu) > 0x7f800000u;
  return jsel32(nan | (v >> 31), 0, jsel32(v > 0x3f800000u, 0x3f800000u, v));
}

/* An exact double rounded to f32 in mode r (num.c's exact_to_f32); *ok 0
 * when the result is not a normal float. */
JINL uint32_t jl_f32_round(double d, int r, uint32_t *ok) {
  union { double d; uint64_t u; } x = {d};
  uint64_t b = x.u;
  uint32_t sign = (uint32_t)(b >> 63) << 31;
  int32_t e = (int32_t)((b >> 52) & 0x7ff) - 1023 + 127;
  *ok = (e >= 1) & (e <= 254);
  uint64_t frac = b & 0xfffffffffffffull, rem = frac & 0x1fffffffu, half = 0x10000000u;
  uint32_t res = sign | ((uint32_t)e << 23) | (uint32_t)(frac >> 29), up;
  switch (r) {
  case 2: case 7: up = 0; break;                          /* RZ, RZI */
  case 3: case 8: up = (rem != 0) & (sign != 0); break;   /* RM, RMI */
  case 4: case 9: up = (rem != 0) & (sign == 0); break;   /* RP, RPI */
  case 5: up = rem >= half; break;                        /* RNA */
  default: up = (rem > half) | ((rem == half) & (res & 1u)); break; /* RN */
  }
  return res + up;
}

/* add/sub/mul/fma{.rnd}{.ftz}{.sat}.f32 (num.c's ws_emu_num_f32_add, _mul,
 * _fma fast paths: normal inputs whose exact result a double holds). */
JINL uint32_t jl_f32_add(uint32_t a, uint32_t b, int r, int sat, uint32_t *ok) {
  int32_t dd = (int32_t)jl_f32_ex(a) - (int32_t)jl_f32_ex(b);
  uint32_t o, v = jl_f32_round((double)jf32(a) + (double)jf32(b), r, &o);
  *ok = o & jl_f32_normal(a) & jl_f32_normal(b) & (dd <= 28) & (dd >= -28);
  return sat ? jl_sat32(v) : v;
}
JINL uint32_t jl_f32_mul(uint32_t a, uint32_t b, int r, int sat, uint32_t *ok) {
  uint32_t o, v = jl_f32_round((double)jf32(a) * (double)jf32(b), r, &o);
  *ok = o & jl_f32_normal(a) & jl_f32_normal(b);
  return sat ? jl_sat32(v) : v;
}
/* div{.rnd}.f32 and div.approx.f32 (num.c's f32_div_fast: a quotient of
 * normal floats rounds from the host's double quotient exactly as from the
 * true one, whatever the host's rounding mode; num.c says why).  .approx is
 * a * (1 / b), each rounded to nearest: both steps must be fast. */
JINL uint32_t jl_f32_div(uint32_t a, uint32_t b, int r, uint32_t *ok) {
  uint32_t o, v = jl_f32_round((double)jf32(a) / (double)jf32(b), r, &o);
  *ok = o & jl_f32_normal(a) & jl_f32_normal(b);
  return v;
}
JINL uint32_t jl_f32_div_approx(uint32_t a, uint32_t b, uint32_t *ok) {
  uint32_t o1, o2, rcp = jl_f32_div(0x3f800000u, b, WS_NUM_RN, &o1);
  uint32_t v = jl_f32_mul(a, rcp, WS_NUM_RN, 0, &o2);
  *ok = o1 & o2;
  return v;
}
JINL uint32_t jl_f32_fma(uint32_t a, uint32_t b, uint32_t c, int r, int sat, uint32_t *ok) {
  int32_t lp = (int32_t)jl_f32_ex(a) + (int32_t)jl_f32_ex(b) - 300, lc = (int32_t)jl_f32_ex(c) - 150;
  int32_t top = lp + 47 > lc + 23 ? lp + 47 : lc + 23, low = lp < lc ? lp : lc;
  uint32_t o, v = jl_f32_round((double)jf32(a) * (double)jf32(b) + (double)jf32(c), r, &o);
  *ok = o & jl_f32_normal(a) & jl_f32_normal(b) & jl_f32_normal(c) & (top - low + 1 <= 52);
  return sat ? jl_sat32(v) : v;
}

/* cvt{.rn}{.ftz}{.sat}.f32.f32 (num.c's ws_emu_num_cvt, f32 to f32 without
 * an integer rounding): a NaN canonical, a subnormal flushed with .ftz. */
JINL uint32_t jl_cvt_f32_f32(uint32_t u, int ftz, int sat) {
  uint32_t nan = (u & 0x7fffffffu) > 0x7f800000u;
  uint32_t r = jsel32(nan, 0x7fffffffu, jsel32(ftz && jl_f32_sub(u), u & 0x80000000u, u));
  return sat ? jl_sat32(r) : r;
}

/* f32 (flushed with ftz) as a double, exactly. */
JINL double jl_f32_in(uint32_t a, int ftz) {
  return (double)jf32(ftz ? jsel32(jl_f32_sub(a), a & 0x80000000u, a) : a);
}
/* A double rounded to nearest f32 (num.c's from_double for f32): NaN
 * canonical, a subnormal result flushed with ftz. */
JINL uint32_t jl_f32_out(double d, int ftz) {
  uint32_t r = jb32((float)d);
  return ftz ? jsel32(jl_f32_sub(r), r & 0x80000000u, r) : r;
}

/* cvt{.rn}{.ftz}{.sat}.f32.f64 and cvt{.ftz}.f64.f32. */
JINL uint32_t jl_cvt_f32_f64(uint64_t a, int ftz, int sat) {
  uint32_t r = jl_f32_out(jf64(a), ftz);
  return sat ? jl_sat32(r) : r;
}
JINL uint64_t jl_cvt_f64_f32(uint32_t a, int ftz) { return jb64(jl_f32_in(a, ftz)); }

/* cvt{.rn}.f32/f64 from an integer of `bits` (sgn: signed): the host's
 * conversion rounds to nearest, as num.c's round_pack. */
JINL double jl_int_as_double(uint64_t v, int bits, int sgn) {
  uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  int sh = 64 - bits;
  return sgn ? (double)((int64_t)(v << sh) >> sh) : (double)(v & m);
}
JINL uint32_t jl_cvt_f32_int(uint64_t v, int bits, int sgn) {
  uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  int sh = 64 - bits;
  return jb32(sgn ? (float)((int64_t)(v << sh) >> sh) : (float)(v & m));
}

/* cvt.{rni,rzi,rmi,rpi}.int.f32/f64 (num.c's cvt_float_to_int): rounded
 * to an integer, NaN 0, out of range clamped to the destination's range
 * (bits, sgn). */
JINL double jl_round_int(double x, int r) {
  switch (r) {
  case 6: return rint(x);   /* RNI: nearest even (the host's default mode) */
  case 8: return floor(x);  /* RMI */
  case 9: return ceil(x);   /* RPI */
  default: return trunc(x); /* RZI (and none) */
  }
}
JINL uint64_t jl_cvt_int_f(double x, int r, int bits, int sgn) {
  double y = jl_round_int(x, r);
  double lo = sgn ? -ldexp(1.0, bits - 1) : 0.0, hi = sgn ? ldexp(1.0, bits - 1) : ldexp(1.0, bits);
  uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  uint64_t vhi = sgn ? m >> 1 : m, vlo = sgn ? 1ull << (bits - 1) : 0;
  double yin = ((y >= lo) & (y < hi)) ? y : 0.0; /* converted only in range (else C leaves it undefined) */
  uint64_t in = sgn ? (uint64_t)(int64_t)yin : (uint64_t)yin;
  return jsel64(x != x, 0, jsel64(y >= hi, vhi, jsel64(y < lo, vlo, in & m)));
}

/* rcp/sqrt/div .approx, .full and .rn with .ftz (num.c: correctly
 * rounded to nearest, .ftz flushing subnormal inputs and results; the
 * host's IEEE float operations round the same). */
JINL float jl_f32_flush(uint32_t a, int ftz) { return jf32(ftz ? jsel32(jl_f32_sub(a), a & 0x80000000u, a) : a); }
JINL uint32_t jl_f32_flushed(float f, int ftz) {
  uint32_t r = jb32(f);
  return ftz ? jsel32(jl_f32_sub(r), r & 0x80000000u, r) : r;
}
JINL uint32_t jl_f32_rcp_rn(uint32_t a, int ftz) { return jl_f32_flushed(1.0f / jl_f32_flush(a, ftz), ftz); }
JINL uint32_t jl_f32_sqrt_rn(uint32_t a, int ftz) { return jl_f32_flushed(sqrtf(jl_f32_flush(a, ftz)), ftz); }
JINL uint32_t jl_f32_div_rn(uint32_t a, uint32_t b, int ftz) {
  return jl_f32_flushed(jl_f32_flush(a, ftz) / jl_f32_flush(b, ftz), ftz);
}
/* rsqrt.approx{.ftz}.f32: 1 / sqrt in double, rounded once more to f32. */
JINL uint32_t jl_f32_rsqrt(uint32_t a, int ftz) {
  double x = jl_f32_in(a, ftz);
  uint32_t r = jl_f32_out(1.0 / sqrt(x), ftz);
  /* NaN or negative: NaN; +-0: +-inf (1 / sqrt(-0) is -inf already) */
  return jsel32((x != x) | (x < 0), 0x7fffffffu, r);
}

/* ex2/lg2/sin/cos/tanh.approx{.ftz}.f32 (num.c's approx1 and lg2): libm in
 * double, then rounded to nearest once.  Scalar (libm), but without
 * num.c's software rounding. */
JINL uint32_t jl_f32_ex2(uint32_t a, int ftz) {
  double x = jl_f32_in(a, ftz);
  return x != x ? 0x7fffffffu : jl_f32_out(exp2(x), ftz);
}
JINL uint32_t jl_f32_lg2(uint32_t a, int ftz) {
  double x = jl_f32_in(a, ftz);
  if ((x != x) | (x < 0)) return 0x7fffffffu;
  if (x == 0) return 0xff800000u;
  return jl_f32_out(log2(x), ftz);
}
JINL uint32_t jl_f32_sincos(uint32_t a, int ftz, int cosine) {
  if ((a & 0x7fffffffu) == 0x7f800000u) return 0x7fffffffu; /* sin/cos(inf): NaN */
  double x = jl_f32_in(a, ftz);
  return x != x ? 0x7fffffffu : jl_f32_out(cosine ? cos(x) : sin(x), ftz);
}
JINL uint32_t jl_f32_tanh(uint32_t a) {
  double x = jl_f32_in(a, 0);
  return x != x ? 0x7fffffffu : jl_f32_out(tanh(x), 0);
}

/* The low n bytes at p, and a store of v's low n bytes. */
JINL uint64_t jl_rd(const uint8_t *p, uint32_t n) {
  switch (n) {
  case 1: return *p;
  case 2: return *(const ju16 *)p;
  case 4: return *(const ju32 *)p;
  default: return *(const ju64 *)p;
  }
}
JINL void jl_wr(uint8_t *p, uint32_t n, uint64_t v) {
  switch (n) {
  case 1: *p = (uint8_t)v; break;
  case 2: *(ju16 *)p = (uint16_t)v; break;
  case 4: *(ju32 *)p = (uint32_t)v; break;
  default: *(ju64 *)p = v; break;
  }
}

/* Lane l's access of n bytes at a in space sp on its fast path: the host
 * address, or NULL where the host must look (another global object, a
 * fault, a window other than the expected one). */
JINL uint8_t *jl_fast(jit_ctx *X, jit_warp *w, int sp, uint64_t a, uint32_t n, uint32_t l, int write) {
  if (a & (n - 1)) return NULL;
  if (sp == JS_GENERIC) {
    uint64_t win = a >> JL_WIN_SHIFT;
    if (win == (JL_SHARED_WIN >> JL_WIN_SHIFT)) sp = JS_SHARED, a -= JL_SHARED_WIN;
    else if (win == (JL_LOCAL_WIN >> JL_WIN_SHIFT)) sp = JS_LOCAL, a -= JL_LOCAL_WIN;
    else if (win == (JL_CONST_WIN >> JL_WIN_SHIFT)) return NULL;
    else sp = JS_GLOBAL;
  }
  switch (sp) {
  case JS_GLOBAL:
    if (a - w->gbase < w->gsize && w->gsize - (a - w->gbase) >= n) return w->ghost + (a - w->gbase);
    return NULL;
  case JS_SHARED:
    if (a < X->shared_bytes && X->shared_bytes - a >= n) return X->shared + a;
    return NULL;
  case JS_LOCAL:
    if (a < w->local_top && w->local_top - a >= n) return w->local + l * w->local_cap + a;
    return NULL;
  case JS_CONST:
    if (!write && a < X->const_bytes && X->const_bytes - a >= n) return (uint8_t *)(uintptr_t)(X->const_bank + a);
    return NULL;
  default:
    return NULL;
  }
}

/* The lanes m of an n-byte access at ad[l] in space sp.  On success (0)
 * either *base is set and every lane's host address is *base + ad[l] (the
 * whole warp in one global object or in shared memory), or hp[l] holds
 * each lane of m's host address.  JR_FAULT after the host recorded the
 * fault of the first faulting lane.  A contiguous warp is in bounds and
 * aligned when its first and last lanes are. */
JINL uint64_t jl_bad(const uint64_t *ad, uint64_t off, uint64_t lim, uint32_t n, int contig) {
  uint64_t bad = 0;
  if (contig) bad = (uint64_t)((ad[0] - off) > lim) | ((ad[31] - off) > lim) | (ad[0] & (n - 1));
  else JFOR bad |= (uint64_t)((ad[l] - off) > lim) | (ad[l] & (n - 1));
  return bad;
}
/* Out of line, one copy for every access: a partial warp, another global
 * object than the warp's cached one (the object of the first lane becomes
 * the cached one: a warp alternating between buffers), lane by lane. */
static __attribute__((noinline)) int jl_map_slow(jit_ctx *X, jit_warp *w, int sp, uint32_t m, const uint64_t *ad,
                                                 uint32_t n, int write, uint8_t **base, uint8_t **hp, uint32_t func,
                                                 uint32_t pc, int contig) {
  if (m == JL_FULL && (sp == JS_GLOBAL || sp == JS_GENERIC) && (ad[0] >> JL_WIN_SHIFT) < 0x7d &&
      X->rt->gfind(X, w, ad[0]) && w->gsize >= n && !jl_bad(ad, w->gbase, w->gsize - n, n, contig)) {
    *base = (uint8_t *)((uintptr_t)w->ghost - (uintptr_t)w->gbase);
    return 0;
  }
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    uint8_t *p = jl_fast(X, w, sp, ad[l], n, l, write);
    if (!p && !(p = X->rt->resolve(X, w, sp, ad[l], n, l, write, func, pc))) return JR_FAULT;
    hp[l] = p;
  }
  return 0;
}
JINL int jl_map(jit_ctx *X, jit_warp *w, int sp, uint32_t m, const uint64_t *ad, uint32_t n, int write,
                uint8_t **base, uint8_t **hp, uint32_t func, uint32_t pc, int contig) {
  *base = NULL;
  if (m == JL_FULL && (sp == JS_GLOBAL || sp == JS_GENERIC) && w->gsize >= n &&
      JL_LIKELY(!jl_bad(ad, w->gbase, w->gsize - n, n, contig))) {
    *base = (uint8_t *)((uintptr_t)w->ghost - (uintptr_t)w->gbase);
    return 0;
  }
  if (m == JL_FULL && (sp == JS_SHARED || sp == JS_GENERIC) && X->shared_bytes >= n) {
    uint64_t off = sp == JS_GENERIC ? JL_SHARED_WIN : 0;
    if (JL_LIKELY(!jl_bad(ad, off, X->shared_bytes - n, n, contig))) {
      *base = (uint8_t *)((uintptr_t)X->shared - (uintptr_t)off);
      return 0;
    }
  }
  return jl_map_slow(X, w, sp, m, ad, n, write, base, hp, func, pc, contig);
}

/* t[l] = the n bytes at b + ad[l] + off for a warp whose addresses are not
 * contiguous: each half-warp contiguous or all one address (the rows and
 * columns of a 16 x 16 block's tiles) is two short loads; anything else a
 * gather.  Out of line: one copy serves every load. */
static __attribute__((noinline)) void jl_gather_any(uint64_t *restrict t, const uint8_t *restrict b,
                                                    const uint64_t *restrict ad, uint32_t off, uint32_t n,
                                                    uint32_t stride) {
  uint64_t c0 = 0, c1 = 0, b0 = 0, b1 = 0;
  for (uint32_t l = 0; l < 16; l++) {
    c0 |= ad[l] ^ (ad[0] + (uint64_t)stride * l);
    c1 |= ad[l + 16] ^ (ad[16] + (uint64_t)stride * l);
    b0 |= ad[l] ^ ad[0];
    b1 |= ad[l + 16] ^ ad[16];
  }
  if ((!c0 || !b0) && (!c1 || !b1)) {
    for (int h = 0; h < 2; h++) {
      const uint8_t *q = b + ad[16 * h] + off;
      uint64_t *th = t + 16 * h;
      if (!(h ? b1 : b0)) {
        uint64_t v = jl_rd(q, n);
        for (uint32_t l = 0; l < 16; l++) th[l] = v;
      } else {
        for (uint32_t l = 0; l < 16; l++) th[l] = jl_rd(q + (size_t)stride * l, n);
      }
    }
    return;
  }
  JFOR t[l] = jl_rd(b + ad[l] + off, n);
}

/* t[l] = the n bytes at b + ad[l] + off, or, for a contiguous warp, at
 * b + ad[0] + stride * l + off (restrict: emulated memory, the addresses and
 * t never overlap, which lets the compiler vectorise). */
JINL void jl_gather(uint64_t *restrict t, const uint8_t *restrict b, const uint64_t *restrict ad, uint32_t off,
                    uint32_t n, uint32_t stride, int contig) {
  if (contig) {
    const uint8_t *q = b + ad[0] + off;
    JFOR t[l] = jl_rd(q + (size_t)stride * l, n);
  } else {
    jl_gather_any(t, b, ad, off, n, stride);
  }
}

/* The low n bytes of t[l] at b + ad[l] (lane order: a later lane's bytes
 * win where two lanes overlap, as in the interpreter). */
JINL void jl_scatter(uint8_t *restrict b, const uint64_t *restrict ad, uint32_t n, int contig,
                     const uint64_t *restrict t) {
  if (contig) {
    uint8_t *q = b + ad[0];
    JFOR jl_wr(q + (size_t)n * l, n, t[l]);
  } else {
    JFOR jl_wr(b + ad[l], n, t[l]);
  }
}

/* Prefetch the bytes a contiguous access of `bytes` at b + a would touch
 * d, 2d, ..., steps * d further on (any address: a prefetch never faults).
 * A whole warp's 128 bytes go 16 steps ahead, each half-warp row of a tile
 * 8 (bench_emu: reduce6's grid-stride loads, DRAM-bound, ran 1.5 times
 * faster at 16 steps than at 8; matmul_tiled's rows 10 % slower). */
#define JL_PREFETCH_WARP 16
#define JL_PREFETCH_ROW 8
JINL void jl_prefetch(const uint8_t *b, uint64_t a, uint64_t d, uint32_t bytes, uint32_t steps) {
  uintptr_t p = (uintptr_t)b + (uintptr_t)a;
  for (uint32_t s = 1; s <= steps; s++)
    for (uint32_t k = 0; k < bytes; k += 64) __builtin_prefetch((const void *)(p + s * d + k));
}

/* %clock (timer 0) or %globaltimer (1) after n warp instructions: the
 * interpreter's clock_of (ops/move.h), at the caller's rates. */
JINL uint64_t jl_clock(const jit_ctx *X, uint64_t n, int timer) {
  double r = timer ? X->timer_ns_per_inst : X->clock_per_inst;
  uint64_t base = timer ? X->timer_base_ns : 0;
  return base + (r > 0 ? (uint64_t)((double)n * r) : n);
}

/* Every lane's address follows the previous one by n bytes. */
JINL int jl_contig(const uint64_t *ad, uint32_t n) {
  uint64_t bad = 0;
  JFOR bad |= ad[l] ^ (ad[0] + (uint64_t)n * l);
  return bad == 0;
}

#endif
