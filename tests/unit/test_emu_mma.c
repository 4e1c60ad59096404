/*
 * test_emu_mma.c — the matrix instructions (src/emu/ops/mma.h) against a C
 * reference: mma.sync for every shape and type the emulator implements,
 * wmma load/mma/store, ldmatrix, stmatrix and movmatrix.
 *
 * The kernels are tests/unit/kernels/emu_mma.cu (PTX generated from it).
 * The fragment layouts here are written from the PTX ISA's tables
 * ("Matrix fragments for mma.m16n8k16" ...), one function per shape, not
 * from the emulator's generic formula; the arithmetic is the one
 * docs/emulator.md documents ("Matrix instructions"): exact products,
 * summed from c in k order in double precision, rounded once (f64: a
 * chain of fma; integers exact, wrapping or saturating).  Inputs are
 * random, so a wrong layout or order shows in many elements.
 */
#include "testutil.h"

#include "emu_fixture.h"
#include "num_ref.h"

typedef emu_fix fix;

EMU_FIXTURE("emu_mma.ptx", NULL, 1)
static void get(fix *f, void *dst, uint64_t a, size_t n) { memcpy(dst, emu_host(f, a, n), n); }

/* Run kernel k on one warp with the given device addresses (and int
 * scalars after them: nint of them). */
static void run(fix *f, const char *k, const uint64_t *addr, int naddr, const int *ints, int nint) {
  void *args[8];
  for (int i = 0; i < naddr; i++) args[i] = (void *)&addr[i];
  for (int i = 0; i < nint; i++) args[naddr + i] = (void *)&ints[i];
  assert_ok_diag(emu_run(f, 0, k, 1, 32, 1, args, 0, NULL), &f->d);
}

/* ---- values ---------------------------------------------------------------- */

static ref_h H16, HB16; /* f16 and bf16 tables (num_ref.h) */

/* A random f16 or bf16 of moderate size (exponent -6 .. 5, either sign),
 * so that sums keep many significant bits. */
static uint16_t rnd_half(uint64_t *s, int bf) {
  uint64_t r = ref_rand(s);
  if (bf) { /* bf16: sign, 8-bit exponent, 7-bit fraction */
    uint32_t e = 127 - 6 + (uint32_t)(r % 12);
    return (uint16_t)((((r >> 8) & 1) << 15) | (e << 7) | ((r >> 16) & 0x7f));
  }
  uint32_t e = 15 - 6 + (uint32_t)(r % 12);
  return (uint16_t)((((r >> 8) & 1) << 15) | (e << 10) | ((r >> 16) & 0x3ff));
}
static double hval(uint16_t v, int bf) { return (double)ref_h_value(bf ? &HB16 : &H16, v); }
/* k/64 - 15.625 is exact in float.  With 15.6 (inexact), this test's
 * reference differed from the emulator by one ulp when the test was built
 * at -O3 with GCC 12 (not at -O2, nor at -O3 -fno-tree-slp-vectorize): a
 * value whose float rounding the compiler handled differently; exact
 * inputs leave nothing to round. */
static float rnd_float(uint64_t *s) { return (float)((double)(int64_t)(ref_rand(s) % 2001) / 64.0 - 15.625); }

/* A tf32 operand: a random float with its low 13 bits set randomly too
 * (the tensor core ignores them); its value as the mma reads it. */
static uint32_t rnd_tf32_bits(uint64_t *s) { return fbits(rnd_float(s)) ^ (uint32_t)(ref_rand(s) & 0x1fff); }
static double tf32val(uint32_t b) { return (double)bitsf(b & 0xffffe000u); }

/* ---- the ISA's layouts (groupID g = lane >> 2, t = lane % 4) ------------------- */

/* C/D of an M x 8 product, M = 16: element i of lane l. */
static void c16(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + (i >= 2 ? 8 : 0);
  *c = (int)(l % 4) * 2 + (i & 1);
}
/* m16n8k16 f16/bf16: A element i (0..7), B element i (0..3) */
static void a16x16(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + ((i < 2 || (i >= 4 && i < 6)) ? 0 : 8);
  *c = (int)(l % 4) * 2 + (i & 1) + (i >= 4 ? 8 : 0);
}
static void b16x8(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l % 4) * 2 + (i & 1) + (i >= 2 ? 8 : 0);
  *c = (int)(l >> 2);
}
/* m16n8k8 f16: A element i (0..3), B element i (0..1) */
static void a16x8h(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + (i >= 2 ? 8 : 0);
  *c = (int)(l % 4) * 2 + (i & 1);
}
static void b8x8h(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l % 4) * 2 + i;
  *c = (int)(l >> 2);
}
/* m16n8k8 tf32: A element i (0..3), B element i (0..1) */
static void a16x8t(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + ((i == 1 || i == 3) ? 8 : 0);
  *c = (int)(l % 4) + (i >= 2 ? 4 : 0);
}
static void b8x8t(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l % 4) + (i == 1 ? 4 : 0);
  *c = (int)(l >> 2);
}
/* m16n8k4 tf32: A element i (0..1), B element 0 */
static void a16x4t(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + (i == 1 ? 8 : 0);
  *c = (int)(l % 4);
}
static void b4x8t(uint32_t l, int i, int *r, int *c) {
  (void)i;
  *r = (int)(l % 4);
  *c = (int)(l >> 2);
}
/* m16n8k32 s8: A element i (0..15), B element i (0..7) */
static void a16x32b(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + ((i < 4 || (i >= 8 && i < 12)) ? 0 : 8);
  *c = (int)(l % 4) * 4 + (i & 3) + (i >= 8 ? 16 : 0);
}
static void b32x8b(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l % 4) * 4 + (i & 3) + (i >= 4 ? 16 : 0);
  *c = (int)(l >> 2);
}
/* m16n8k16 u8/s8: A element i (0..7), B element i (0..3) */
static void a16x16b(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l >> 2) + (i >= 4 ? 8 : 0);
  *c = (int)(l % 4) * 4 + (i & 3);
}
static void b16x8b(uint32_t l, int i, int *r, int *c) {
  *r = (int)(l % 4) * 4 + i;
  *c = (int)(l >> 2);
}

typedef void layout_fn(uint32_t l, int i, int *r, int *c);

/* ---- mma.sync, floating point ------------------------------------------------------ */

/* One m16n8kK f16/bf16 (bf) or tf32 (tf) product with an f32 accumulator
 * (or f16: hacc), checked element by element. */
static void check_mma_float(fix *f, const char *kname, int K, int nareg, int nbreg, layout_fn *la, layout_fn *lb,
                            int bf, int tf, int hacc, uint64_t seed) {
  double A[16][16], B[16][8], C[16][8];
  uint32_t areg[32 * 4] = {0}, breg[32 * 2] = {0}, creg[32 * 4] = {0};
  uint64_t s = seed;
  int per = tf ? 1 : 2; /* elements per 32-bit register */
  for (uint32_t l = 0; l < 32; l++) {
    for (int i = 0; i < nareg * per; i++) {
      int r, c;
      la(l, i, &r, &c);
      uint32_t bits;
      if (tf) {
        bits = rnd_tf32_bits(&s);
        A[r][c] = tf32val(bits);
      } else {
        bits = rnd_half(&s, bf);
        A[r][c] = hval((uint16_t)bits, bf);
      }
      areg[l * nareg + i / per] |= per == 2 ? bits << (16 * (i % 2)) : bits;
    }
    for (int i = 0; i < nbreg * per; i++) {
      int r, c;
      lb(l, i, &r, &c);
      uint32_t bits;
      if (tf) {
        bits = rnd_tf32_bits(&s);
        B[r][c] = tf32val(bits);
      } else {
        bits = rnd_half(&s, bf);
        B[r][c] = hval((uint16_t)bits, bf);
      }
      breg[l * nbreg + i / per] |= per == 2 ? bits << (16 * (i % 2)) : bits;
    }
    for (int i = 0; i < 4; i++) {
      int r, c;
      c16(l, i, &r, &c);
      if (hacc) {
        uint16_t h = rnd_half(&s, 0);
        C[r][c] = hval(h, 0);
        creg[l * 2 + i / 2] |= (uint32_t)h << (16 * (i % 2));
      } else {
        /* the reference reads C back from the register's bits */
        creg[l * 4 + i] = fbits(rnd_float(&s));
        C[r][c] = bitsf(creg[l * 4 + i]);
      }
    }
  }
  uint64_t a[4] = {emu_buf(f, areg, sizeof areg), emu_buf(f, breg, sizeof breg), emu_buf(f, creg, sizeof creg),
                   emu_buf(f, NULL, sizeof creg)};
  run(f, kname, a, 4, NULL, 0);
  uint32_t dreg[32 * 4];
  get(f, dreg, a[3], sizeof dreg);
  int checked = 0;
  for (uint32_t l = 0; l < 32; l++)
    for (int i = 0; i < 4; i++) {
      int r, c;
      c16(l, i, &r, &c);
      double sum = C[r][c];
      for (int k = 0; k < K; k++) sum += A[r][k] * B[k][c];
      if (hacc) {
        uint16_t want = ref_h_round(&H16, (ref_q)sum, WS_NUM_RN);
        uint16_t got = (uint16_t)(dreg[l * 2 + i / 2] >> (16 * (i % 2)));
        if (got != want) print_error("%s lane %u element %d (%d, %d): 0x%04x, expected 0x%04x\n", kname, l, i, r, c, got, want);
        assert_int_equal(got, want);
      } else {
        uint32_t want = fbits((float)sum);
        if (dreg[l * 4 + i] != want)
          print_error("%s lane %u element %d (%d, %d): %.9g, expected %.9g\n", kname, l, i, r, c, bitsf(dreg[l * 4 + i]),
                      (double)(float)sum);
        assert_int_equal(dreg[l * 4 + i], want);
      }
      checked++;
    }
  assert_int_equal(checked, 128);
}

static void test_mma_f16(void **state) {
  fix *f = *state;
  check_mma_float(f, "mma_f16_f32_k16", 16, 4, 2, a16x16, b16x8, 0, 0, 0, 1);
  check_mma_float(f, "mma_f16_f16_k16", 16, 4, 2, a16x16, b16x8, 0, 0, 1, 2);
  check_mma_float(f, "mma_f16_f32_k8", 8, 2, 1, a16x8h, b8x8h, 0, 0, 0, 3);
  check_mma_float(f, "mma_bf16_k16", 16, 4, 2, a16x16, b16x8, 1, 0, 0, 4);
}

/* tf32 inputs with random low bits: the reference drops them. */
static void test_mma_tf32(void **state) {
  fix *f = *state;
  check_mma_float(f, "mma_tf32_k8", 8, 4, 2, a16x8t, b8x8t, 0, 1, 0, 5);
  check_mma_float(f, "mma_tf32_k4", 4, 2, 1, a16x4t, b4x8t, 0, 1, 0, 6);
}

/* m8n8k4 f64: d = fma chain over k from c. */
static void test_mma_f64(void **state) {
  fix *f = *state;
  double A[8][4], B[4][8], C[8][8], areg[32], breg[32], creg[64];
  uint64_t s = 7;
  for (uint32_t l = 0; l < 32; l++) {
    uint32_t g = l >> 2, t = l % 4;
    areg[l] = A[g][t] = ldexp((double)(int64_t)(ref_rand(&s) % 100001) - 50000.0, -7) + 1e-9 * (double)(l + 1);
    breg[l] = B[t][g] = ldexp((double)(int64_t)(ref_rand(&s) % 100001) - 50000.0, -9) / 3.0;
    for (int i = 0; i < 2; i++) creg[l * 2 + i] = C[g][t * 2 + i] = (double)(int64_t)(ref_rand(&s) % 1000) / 7.0;
  }
  uint64_t a[4] = {emu_buf(f, areg, sizeof areg), emu_buf(f, breg, sizeof breg), emu_buf(f, creg, sizeof creg),
                   emu_buf(f, NULL, sizeof creg)};
  run(f, "mma_f64", a, 4, NULL, 0);
  double dreg[64];
  get(f, dreg, a[3], sizeof dreg);
  for (uint32_t l = 0; l < 32; l++)
    for (int i = 0; i < 2; i++) {
      uint32_t g = l >> 2, t = l % 4;
      double want = C[g][t * 2 + i];
      for (int k = 0; k < 4; k++) want = fma(A[g][k], B[k][t * 2 + i], want);
      assert_int_equal(dbits(dreg[l * 2 + i]), dbits(want));
    }
}

/* ---- mma.sync, integers -------------------------------------------------------------- */

/* s8 x s8 m16n8k32, wrapping and .satfinite: c near the s32 limits so
 * that some sums pass them. */
static void test_mma_s8(void **state) {
  fix *f = *state;
  int A[16][32], B[32][8];
  int64_t C[16][8];
  uint32_t areg[32 * 4] = {0}, breg[32 * 2] = {0};
  int32_t creg[32 * 4];
  uint64_t s = 8;
  for (uint32_t l = 0; l < 32; l++) {
    for (int i = 0; i < 16; i++) {
      int r, c;
      a16x32b(l, i, &r, &c);
      int8_t v = (int8_t)ref_rand(&s);
      A[r][c] = v;
      areg[l * 4 + i / 4] |= (uint32_t)(uint8_t)v << (8 * (i % 4));
    }
    for (int i = 0; i < 8; i++) {
      int r, c;
      b32x8b(l, i, &r, &c);
      int8_t v = (int8_t)ref_rand(&s);
      B[r][c] = v;
      breg[l * 2 + i / 4] |= (uint32_t)(uint8_t)v << (8 * (i % 4));
    }
    for (int i = 0; i < 4; i++) {
      int r, c;
      c16(l, i, &r, &c);
      int32_t v = (ref_rand(&s) & 1) ? INT32_MAX - (int32_t)(ref_rand(&s) % 20000) : INT32_MIN + (int32_t)(ref_rand(&s) % 20000);
      creg[l * 4 + i] = v;
      C[r][c] = v;
    }
  }
  uint64_t a[5] = {emu_buf(f, areg, sizeof areg), emu_buf(f, breg, sizeof breg), emu_buf(f, creg, sizeof creg),
                   emu_buf(f, NULL, sizeof creg), emu_buf(f, NULL, sizeof creg)};
  run(f, "mma_s8_k32", a, 5, NULL, 0);
  int32_t d[128], ds[128];
  get(f, d, a[3], sizeof d);
  get(f, ds, a[4], sizeof ds);
  int wrapped = 0;
  for (uint32_t l = 0; l < 32; l++)
    for (int i = 0; i < 4; i++) {
      int r, c;
      c16(l, i, &r, &c);
      int64_t sum = C[r][c];
      for (int k = 0; k < 32; k++) sum += (int64_t)A[r][k] * B[k][c];
      int64_t sat = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
      wrapped += sat != sum;
      assert_int_equal((uint32_t)d[l * 4 + i], (uint32_t)(uint64_t)sum);
      assert_int_equal(ds[l * 4 + i], (int32_t)sat);
    }
  assert_true(wrapped > 10); /* the data did test both */
}

/* u8 x s8 m16n8k16 and s8 m8n8k16. */
static void test_mma_u8_m8(void **state) {
  fix *f = *state;
  int A[16][16], B[16][8], C[16][8];
  uint32_t areg[64] = {0}, breg[32] = {0};
  int32_t creg[128];
  uint64_t s = 9;
  for (uint32_t l = 0; l < 32; l++) {
    for (int i = 0; i < 8; i++) {
      int r, c;
      a16x16b(l, i, &r, &c);
      uint8_t v = (uint8_t)ref_rand(&s);
      A[r][c] = v;
      areg[l * 2 + i / 4] |= (uint32_t)v << (8 * (i % 4));
    }
    for (int i = 0; i < 4; i++) {
      int r, c;
      b16x8b(l, i, &r, &c);
      int8_t v = (int8_t)ref_rand(&s);
      B[r][c] = v;
      breg[l] |= (uint32_t)(uint8_t)v << (8 * i);
      c16(l, i, &r, &c);
      creg[l * 4 + i] = C[r][c] = (int32_t)(ref_rand(&s) % 20001) - 10000;
    }
  }
  uint64_t a[4] = {emu_buf(f, areg, sizeof areg), emu_buf(f, breg, sizeof breg), emu_buf(f, creg, sizeof creg),
                   emu_buf(f, NULL, sizeof creg)};
  run(f, "mma_u8s8_k16", a, 4, NULL, 0);
  int32_t d[128];
  get(f, d, a[3], sizeof d);
  for (uint32_t l = 0; l < 32; l++)
    for (int i = 0; i < 4; i++) {
      int r, c;
      c16(l, i, &r, &c);
      int sum = C[r][c];
      for (int k = 0; k < 16; k++) sum += A[r][k] * B[k][c];
      assert_int_equal(d[l * 4 + i], sum);
    }
  /* m8n8k16 s8: A row g, columns t*4+i; B rows t*4+i, column g; C row g, columns t*2+i */
  int A8[8][16], B8[16][8], C8[8][8];
  uint32_t a8[32] = {0}, b8[32] = {0};
  int32_t c8[64];
  for (uint32_t l = 0; l < 32; l++) {
    uint32_t g = l >> 2, t = l % 4;
    for (int i = 0; i < 4; i++) {
      int8_t va = (int8_t)ref_rand(&s), vb = (int8_t)ref_rand(&s);
      A8[g][t * 4 + i] = va;
      B8[t * 4 + i][g] = vb;
      a8[l] |= (uint32_t)(uint8_t)va << (8 * i);
      b8[l] |= (uint32_t)(uint8_t)vb << (8 * i);
    }
    for (int i = 0; i < 2; i++) c8[l * 2 + i] = C8[g][t * 2 + i] = (int32_t)(ref_rand(&s) % 1001) - 500;
  }
  uint64_t b[4] = {emu_buf(f, a8, sizeof a8), emu_buf(f, b8, sizeof b8), emu_buf(f, c8, sizeof c8), emu_buf(f, NULL, sizeof c8)};
  run(f, "mma_s8_m8n8k16", b, 4, NULL, 0);
  int32_t d8[64];
  get(f, d8, b[3], sizeof d8);
  for (uint32_t l = 0; l < 32; l++)
    for (int i = 0; i < 2; i++) {
      uint32_t g = l >> 2, t = l % 4;
      int sum = C8[g][t * 2 + i];
      for (int k = 0; k < 16; k++) sum += A8[g][k] * B8[k][t * 2 + i];
      assert_int_equal(d8[l * 2 + i], sum);
    }
}

/* ---- ldmatrix, stmatrix, movmatrix ------------------------------------------------ */

/* The tile: 32 rows of 8 16-bit values (row l at lane l's address);
 * matrix q is rows 8q .. 8q+7.  Register q of thread t holds row t/4,
 * columns 2(t%4), 2(t%4)+1 of matrix q; .trans holds column t/4, rows
 * 2(t%4), 2(t%4)+1. */
static void test_ldmatrix(void **state) {
  fix *f = *state;
  uint16_t tile[256];
  for (int i = 0; i < 256; i++) tile[i] = (uint16_t)(0x1000 + i * 7);
  for (int x1 = 0; x1 < 2; x1++) {
    uint64_t a[3] = {emu_buf(f, tile, sizeof tile), emu_buf(f, NULL, 512), emu_buf(f, NULL, 512)};
    int ix[1] = {x1};
    run(f, "ldmatrix_x4", a, 3, ix, 1);
    uint32_t r[128], t[128];
    get(f, r, a[1], sizeof r);
    get(f, t, a[2], sizeof t);
    for (uint32_t th = 0; th < 32; th++)
      for (uint32_t q = 0; q < (x1 ? 1u : 4u); q++) {
        uint32_t row = q * 8 + th / 4, c0 = 2 * (th % 4);
        uint32_t want = (uint32_t)tile[row * 8 + c0] | (uint32_t)tile[row * 8 + c0 + 1] << 16;
        uint32_t wantt = (uint32_t)tile[(q * 8 + c0) * 8 + th / 4] | (uint32_t)tile[(q * 8 + c0 + 1) * 8 + th / 4] << 16;
        assert_int_equal(r[th * 4 + q], want);
        assert_int_equal(t[th * 4 + q], wantt);
      }
  }
}

/* stmatrix writes the tile ldmatrix reads; movmatrix transposes one 8x8. */
static void test_stmatrix_movmatrix(void **state) {
  fix *f = *state;
  uint32_t regs[128];
  for (int i = 0; i < 128; i++) regs[i] = 0x00010002u * (uint32_t)i + 0x30004000u;
  uint64_t a[3] = {emu_buf(f, regs, sizeof regs), emu_buf(f, NULL, 512), emu_buf(f, NULL, 512)};
  run(f, "stmatrix_x4", a, 3, NULL, 0);
  uint16_t out[256], outt[256];
  get(f, out, a[1], sizeof out);
  get(f, outt, a[2], sizeof outt);
  for (uint32_t th = 0; th < 32; th++)
    for (uint32_t q = 0; q < 4; q++)
      for (uint32_t h = 0; h < 2; h++) {
        uint16_t v = (uint16_t)(regs[th * 4 + q] >> (16 * h));
        uint32_t row = th / 4, col = 2 * (th % 4) + h;
        assert_int_equal(out[(q * 8 + row) * 8 + col], v);
        assert_int_equal(outt[(q * 8 + col) * 8 + row], v);
      }
  /* movmatrix: thread t's register holds row t/4, columns 2(t%4), +1 */
  uint32_t in[32], mat[8][8];
  for (uint32_t th = 0; th < 32; th++) {
    in[th] = (uint32_t)(th * 3 + 1) | (uint32_t)(th * 5 + 100) << 16;
    mat[th / 4][2 * (th % 4)] = in[th] & 0xffff;
    mat[th / 4][2 * (th % 4) + 1] = in[th] >> 16;
  }
  uint64_t b[2] = {emu_buf(f, in, sizeof in), emu_buf(f, NULL, sizeof in)};
  run(f, "movmatrix_t", b, 2, NULL, 0);
  uint32_t o[32];
  get(f, o, b[1], sizeof o);
  for (uint32_t th = 0; th < 32; th++) {
    uint32_t want = mat[2 * (th % 4)][th / 4] | mat[2 * (th % 4) + 1][th / 4] << 16;
    assert_int_equal(o[th], want);
  }
}

/* ---- wmma ------------------------------------------------------------------------------ */

/* m16n16k16 f16, A row-major, B column-major, C and D row-major f32. */
static void test_wmma_f16(void **state) {
  fix *f = *state;
  uint16_t a[256], b[256];
  float c[256], d[256];
  uint64_t s = 11;
  for (int i = 0; i < 256; i++) {
    a[i] = rnd_half(&s, 0);
    b[i] = rnd_half(&s, 0);
    c[i] = rnd_float(&s);
  }
  uint64_t ad[4] = {emu_buf(f, a, sizeof a), emu_buf(f, b, sizeof b), emu_buf(f, c, sizeof c), emu_buf(f, NULL, sizeof d)};
  run(f, "wmma_f16_rc", ad, 4, NULL, 0);
  get(f, d, ad[3], sizeof d);
  for (int r = 0; r < 16; r++)
    for (int col = 0; col < 16; col++) {
      double sum = c[r * 16 + col];
      for (int k = 0; k < 16; k++) sum += hval(a[r * 16 + k], 0) * hval(b[col * 16 + k], 0); /* B column-major */
      assert_int_equal(fbits(d[r * 16 + col]), fbits((float)sum));
    }
}

/* m32n8k16, f16 accumulators: A column-major (ld 32), B row-major (ld 8),
 * C and D column-major (ld 32); the kernel doubles every element of the
 * result fragment (an element-wise operation on a fragment). */
static void test_wmma_f16_acc(void **state) {
  fix *f = *state;
  uint16_t a[32 * 16], b[16 * 8], c[32 * 8], d[32 * 8];
  uint64_t s = 12;
  for (int i = 0; i < 512; i++) a[i] = rnd_half(&s, 0);
  for (int i = 0; i < 128; i++) b[i] = rnd_half(&s, 0);
  for (int i = 0; i < 256; i++) c[i] = rnd_half(&s, 0);
  uint64_t ad[4] = {emu_buf(f, a, sizeof a), emu_buf(f, b, sizeof b), emu_buf(f, c, sizeof c), emu_buf(f, NULL, sizeof d)};
  run(f, "wmma_f16h_32x8", ad, 4, NULL, 0);
  get(f, d, ad[3], sizeof d);
  for (int r = 0; r < 32; r++)
    for (int col = 0; col < 8; col++) {
      double sum = hval(c[col * 32 + r], 0);
      for (int k = 0; k < 16; k++) sum += hval(a[k * 32 + r], 0) * hval(b[k * 8 + col], 0);
      uint16_t h = ref_h_round(&H16, (ref_q)sum, WS_NUM_RN);
      uint16_t twice = ref_h_round(&H16, 2 * ref_h_value(&H16, h), WS_NUM_RN);
      assert_int_equal(d[col * 32 + r], twice);
    }
}

/* m16n16k8 tf32, both row-major: without conversion the low 13 bits are
 * ignored; with __float_to_tf32 (cvt.rna.tf32.f32) they are rounded away
 * from zero at the tie. */
static void test_wmma_tf32(void **state) {
  fix *f = *state;
  uint32_t a[128], b[128];
  float d[256];
  uint64_t s = 13;
  for (int i = 0; i < 128; i++) {
    a[i] = rnd_tf32_bits(&s);
    b[i] = rnd_tf32_bits(&s);
  }
  for (int conv = 0; conv < 2; conv++) {
    uint64_t ad[3] = {emu_buf(f, a, sizeof a), emu_buf(f, b, sizeof b), emu_buf(f, NULL, sizeof d)};
    int ci[1] = {conv};
    run(f, "wmma_tf32", ad, 3, ci, 1);
    get(f, d, ad[2], sizeof d);
    for (int r = 0; r < 16; r++)
      for (int col = 0; col < 16; col++) {
        double sum = 0;
        for (int k = 0; k < 8; k++) {
          uint32_t x = a[r * 8 + k], y = b[k * 16 + col];
          if (conv) { /* round to nearest, ties away: add half of the dropped part's unit */
            x = (x + 0x1000u) & 0xffffe000u;
            y = (y + 0x1000u) & 0xffffe000u;
          }
          sum += tf32val(x) * tf32val(y);
        }
        assert_int_equal(fbits(d[r * 16 + col]), fbits((float)sum));
      }
  }
}

/* m8n32k16 bf16 (A row-major, B column-major, C = 1), D column-major. */
static void test_wmma_bf16(void **state) {
  fix *f = *state;
  uint16_t a[8 * 16], b[16 * 32];
  float d[256];
  uint64_t s = 14;
  for (int i = 0; i < 128; i++) a[i] = rnd_half(&s, 1);
  for (int i = 0; i < 512; i++) b[i] = rnd_half(&s, 1);
  uint64_t ad[3] = {emu_buf(f, a, sizeof a), emu_buf(f, b, sizeof b), emu_buf(f, NULL, sizeof d)};
  run(f, "wmma_bf16_8x32", ad, 3, NULL, 0);
  get(f, d, ad[2], sizeof d);
  for (int r = 0; r < 8; r++)
    for (int col = 0; col < 32; col++) {
      double sum = 1.0;
      for (int k = 0; k < 16; k++) sum += hval(a[r * 16 + k], 1) * hval(b[col * 16 + k], 1);
      assert_int_equal(fbits(d[col * 8 + r]), fbits((float)sum));
    }
}

/* m16n16k16 s8 with .satfinite, and m8n8k4 f64 (c = 0.5). */
static void test_wmma_s8_f64(void **state) {
  fix *f = *state;
  int8_t a[256], b[256];
  int32_t c[256], d[256];
  uint64_t s = 15;
  for (int i = 0; i < 256; i++) {
    a[i] = (int8_t)ref_rand(&s);
    b[i] = (int8_t)ref_rand(&s);
    c[i] = i % 3 ? (int32_t)(ref_rand(&s) % 1000) : INT32_MAX - 1000;
  }
  uint64_t ad[4] = {emu_buf(f, a, sizeof a), emu_buf(f, b, sizeof b), emu_buf(f, c, sizeof c), emu_buf(f, NULL, sizeof d)};
  run(f, "wmma_s8", ad, 4, NULL, 0);
  get(f, d, ad[3], sizeof d);
  for (int r = 0; r < 16; r++)
    for (int col = 0; col < 16; col++) {
      int64_t sum = c[r * 16 + col];
      for (int k = 0; k < 16; k++) sum += (int64_t)a[r * 16 + k] * b[col * 16 + k];
      if (sum > INT32_MAX) sum = INT32_MAX;
      if (sum < INT32_MIN) sum = INT32_MIN;
      assert_int_equal(d[r * 16 + col], (int32_t)sum);
    }
  double fa[32], fb[32], fd[64];
  for (int i = 0; i < 32; i++) {
    fa[i] = (double)(int64_t)(ref_rand(&s) % 2001 - 1000) / 7.0;
    fb[i] = (double)(int64_t)(ref_rand(&s) % 2001 - 1000) / 3.0;
  }
  uint64_t bd[3] = {emu_buf(f, fa, sizeof fa), emu_buf(f, fb, sizeof fb), emu_buf(f, NULL, sizeof fd)};
  run(f, "wmma_f64", bd, 3, NULL, 0);
  get(f, fd, bd[2], sizeof fd);
  for (int r = 0; r < 8; r++)
    for (int col = 0; col < 8; col++) {
      double want = 0.5;
      for (int k = 0; k < 4; k++) want = fma(fa[r * 4 + k], fb[col * 4 + k], want);
      assert_int_equal(dbits(fd[r * 8 + col]), dbits(want));
    }
}

int main(void) {
  ref_h_init(&H16, 10, 5);
  ref_h_init(&HB16, 7, 8);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_mma_f16, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_tf32, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_f64, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_s8, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mma_u8_m8, setup, teardown),
      cmocka_unit_test_setup_teardown(test_ldmatrix, setup, teardown),
      cmocka_unit_test_setup_teardown(test_stmatrix_movmatrix, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wmma_f16, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wmma_f16_acc, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wmma_tf32, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wmma_bf16, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wmma_s8_f64, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
