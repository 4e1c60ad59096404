/* ref_transpose_shared: reference for tests/corpus/transpose_shared.cu,
 * launch/transpose_shared.json. out[x * H + y] = in[y * W + x] for the
 * 70 x 100 input (W = 100, H = 70; neither a multiple of the tile): a
 * copy, so exact. */
#include "ref.h"

#define W 100
#define H 70

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[W * H], e[W * H];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, W * H, 23, 0, 1);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      e[x * H + y] = in[y * W + x];
  ref_check_exact(&c, "out.bin", e, W * H, sizeof e[0]);
  return ref_finish(&c);
}
