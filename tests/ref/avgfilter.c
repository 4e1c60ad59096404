/* ref_avgfilter: reference for tests/corpus/avgfilter.cu, launch/avgfilter.json.
 * Same clamped 3x3 neighbourhood, summed in the same order (dy then dx) with
 * f32 adds, then one IEEE division by 9 (nvcc emits div.rn.f32 without
 * fast-math): bit-exact, tolerance 0. */
#include "ref.h"

#define W 100
#define H 75

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[W * H], e[W * H];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, W * H, 4, 0, 1);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float sum = 0.0f;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          sum += in[clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
      e[y * W + x] = sum / 9.0f;
    }
  ref_check_f32(&c, "out.bin", e, W * H, 0, 0, NULL);
  return ref_finish(&c);
}
