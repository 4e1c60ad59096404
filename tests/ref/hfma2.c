/* ref_hfma2: reference for tests/corpus/hfma2.cu, launch/hfma2.json.
 * Per half element: t = rn(a * b + c) (fma.rn.f16x2), m = rn(a * a)
 * (mul.rn.f16x2), result rn(t + m) (add.f16x2; nothing left to fuse it
 * with). Each exact value is computed in double: products of two halves
 * have at most 22 significant bits, and with |a|, |b|, |c| <= 2 every sum
 * spans at most 2^3 down to 2^-48 (51 bits < 53), so double holds it
 * exactly and ref_f16_from_double rounds once, to nearest even. Half
 * arithmetic keeps subnormals (no flush to zero). Bit-exact. */
#include "ref.h"

#define N (2 * 3000)

static uint16_t rn(double v) { return ref_f16_from_double(v); }
static double d(uint16_t h) { return ref_f16_to_double(h); }

int main(int argc, char **argv) {
  ref_ctx c;
  static uint16_t a[N], b[N], cc[N], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f16(a, N, 32, -2, 2);
  ref_random_f16(b, N, 33, -2, 2);
  ref_random_f16(cc, N, 34, -2, 2);
  for (int i = 0; i < N; i++) {
    uint16_t t = rn(d(a[i]) * d(b[i]) + d(cc[i]));
    uint16_t m = rn(d(a[i]) * d(a[i]));
    e[i] = rn(d(t) + d(m));
  }
  ref_check_exact(&c, "c.bin", e, N, sizeof e[0]);
  return ref_finish(&c);
}
