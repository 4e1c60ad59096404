/* ref_sepia: reference for tests/corpus/sepia.cu, launch/sepia.json.
 * The kernel writes its weighted sums with explicit fmaf() in a fixed order
 * and the reference does the same (C fmaf is the correctly rounded fused
 * operation, like fma.rn.f32; this file is built with -ffp-contract=off so
 * the compiler adds no fusions of its own): bit-exact, tolerance 0. */
#include "ref.h"

#define NPIX 5000

int main(int argc, char **argv) {
  ref_ctx c;
  static float rgb[3 * NPIX], e[3 * NPIX];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(rgb, 3 * NPIX, 3, 0, 1);
  for (int p = 0; p < NPIX; p++) {
    float r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
    float nr = fmaf(0.393f, r, fmaf(0.769f, g, 0.189f * b));
    float ng = fmaf(0.349f, r, fmaf(0.686f, g, 0.168f * b));
    float nb = fmaf(0.272f, r, fmaf(0.534f, g, 0.131f * b));
    e[3 * p] = fminf(nr, 1.0f);
    e[3 * p + 1] = fminf(ng, 1.0f);
    e[3 * p + 2] = fminf(nb, 1.0f);
  }
  ref_check_f32(&c, "out.bin", e, 3 * NPIX, 0, 0, NULL);
  return ref_finish(&c);
}
