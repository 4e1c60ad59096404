/* ref_reduce: reference for the seven kernels of tests/corpus/reduce.cu,
 * launch/reduce.k0.json .. reduce.k6.json (--variant k0..k6). Each block's
 * output is the integer sum of the elements it covers, independent of the
 * order of the additions, so the comparison is exact:
 *   k0-k2: block b covers [256 b, 256 b + 256)
 *   k3-k5: block b covers [512 b, 512 b + 512)
 *   k6:    block b covers every i with (i mod (512 * 64)) in [512 b, 512 b + 512)
 * all clipped to [0, n). */
#include "ref.h"

#define N 100000

int main(int argc, char **argv) {
  static const char *const variants[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", NULL};
  ref_ctx c;
  static int32_t in[N], e[391];
  ref_init(&c, argc, argv, variants);
  int k = c.variant[1] - '0';
  int per_block = k <= 2 ? 256 : 512;
  int grid = k <= 2 ? 391 : k <= 5 ? 196 : 64;
  int period = k == 6 ? 512 * grid : N + per_block * grid; /* k6 wraps; the others never do */
  ref_random_s32(in, N, 16, -1000, 1000);
  memset(e, 0, sizeof e);
  for (int i = 0; i < N; i++)
    e[(i % period) / per_block] += in[i];
  ref_check_exact(&c, "out.bin", e, (size_t)grid, sizeof e[0]);
  return ref_finish(&c);
}
