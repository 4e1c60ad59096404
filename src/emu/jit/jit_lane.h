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

#ifndef WS_JIT_GENERATED
#include "emu/jit/jit_abi.h"
#endif

#define JINL static inline __attribute__((always_inline))
/* The fault and reconvergence paths are rare: said so, the compiler keeps
 * the straight-line lane loops hot (and vectorised) in big functions. */
#define JL_LIKELY(x) __builtin_expect(!!(x), 1)
#define JL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define JL_FULL 0xffffffffu
/* A loop over the 32 lanes, `l` the lane. */
#define JFOR for (uint32_t l = 0; l < 32; l++)
/* A loop over the lanes of m, lowest first, `l` the lane. */
#define JEACH(m) for (uint32_t mm_ = (m), l = 0; mm_ && ((l = (uint32_t)__builtin_ctz(mm_)), 1); mm_ &= mm_ - 1)
/* c ? a : b without a branch: lane loops stay free of control flow, which
 * the vectoriser needs (it does not if-convert every ternary). */
JINL uint32_t jsel32(uint32_t c, uint32_t a, uint32_t b) {
  uint32_t k = 0u - (uint32_t)(c != 0);
  return (a & k) | (b & ~k);
}
JINL uint64_t jsel64(uint32_t c, uint64_t a, uint64_t b) {
  uint64_t k = 0ull - (uint64_t)(c != 0);
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
 * fault of the first faulting lane. */
JINL int jl_map(jit_ctx *X, jit_warp *w, int sp, uint32_t m, const uint64_t *ad, uint32_t n, int write,
                uint8_t **base, uint8_t **hp, uint32_t func, uint32_t pc) {
  *base = NULL;
  /* the warp's cached global object; else the object of its first lane
   * becomes the cached one (a warp alternating between buffers) */
  for (int k = 0; m == JL_FULL && (sp == JS_GLOBAL || sp == JS_GENERIC) && k < 2; k++) {
    if (w->gsize >= n) {
      uint64_t bad = 0, lim = w->gsize - n, gb = w->gbase;
      JFOR bad |= (uint64_t)((ad[l] - gb) > lim) | (ad[l] & (n - 1));
      if (JL_LIKELY(!bad)) {
        *base = (uint8_t *)((uintptr_t)w->ghost - (uintptr_t)gb);
        return 0;
      }
    }
    if (k || (ad[0] >> JL_WIN_SHIFT) >= 0x7d || !X->rt->gfind(X, w, ad[0])) break;
  }
  if (m == JL_FULL && (sp == JS_SHARED || sp == JS_GENERIC) && X->shared_bytes >= n) {
    uint64_t bad = 0, lim = X->shared_bytes - n, off = sp == JS_GENERIC ? JL_SHARED_WIN : 0;
    JFOR bad |= (uint64_t)((ad[l] - off) > lim) | (ad[l] & (n - 1));
    if (JL_LIKELY(!bad)) {
      *base = (uint8_t *)((uintptr_t)X->shared - (uintptr_t)off);
      return 0;
    }
  }
  for (uint32_t mm = m; mm; mm &= mm - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(mm);
    uint8_t *p = jl_fast(X, w, sp, ad[l], n, l, write);
    if (!p && !(p = X->rt->resolve(X, w, sp, ad[l], n, l, write, func, pc))) return JR_FAULT;
    hp[l] = p;
  }
  return 0;
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
    JFOR t[l] = jl_rd(b + ad[l] + off, n);
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

/* Every lane's address follows the previous one by n bytes. */
JINL int jl_contig(const uint64_t *ad, uint32_t n) {
  uint64_t bad = 0;
  JFOR bad |= ad[l] ^ (ad[0] + (uint64_t)n * l);
  return bad == 0;
}

#endif
