/* ref_stencil5: reference for tests/corpus/stencil5.cu, launch/stencil5.json.
 * Same operations in the same order ((N + S) + (W + E), c1 * s, then one
 * fmaf with c0 * centre): bit-exact. Boundary points are copies. */
#include "ref.h"

#define W 90
#define H 60

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[W * H], e[W * H];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, W * H, 25, 0, 1);
  const float c0 = 0.5f, c1 = 0.125f;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int i = y * W + x;
      if (x == 0 || y == 0 || x == W - 1 || y == H - 1) {
        e[i] = in[i];
      } else {
        float s = (in[i - W] + in[i + W]) + (in[i - 1] + in[i + 1]);
        e[i] = fmaf(c0, in[i], c1 * s);
      }
    }
  ref_check_f32(&c, "out.bin", e, W * H, 0, 0, NULL);
  return ref_finish(&c);
}
