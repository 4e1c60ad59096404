/* ref_warp_reduce: reference for tests/corpus/warp_reduce.cu,
 * launch/warp_reduce.json. Replays the kernel's shuffle tree exactly: at
 * each offset every lane adds the value of lane + offset, or its own value
 * when lane + offset >= 32 (what __shfl_down_sync returns then); lane 0's
 * value is the warp total. Same f32 additions in the same order, so
 * bit-exact. */
#include "ref.h"

#define N 10000
#define BLOCK 256
#define GRID 40

static float warp_fold(float v[32]) {
  for (int off = 16; off > 0; off >>= 1) {
    float nv[32];
    for (int l = 0; l < 32; l++)
      nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
    memcpy(v, nv, sizeof nv);
  }
  return v[0];
}

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[N], e[GRID];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, N, 29, 0, 1);
  for (int b = 0; b < GRID; b++) {
    float sums[32] = {0};
    for (int w = 0; w < BLOCK / 32; w++) {
      float v[32];
      for (int l = 0; l < 32; l++) {
        int i = b * BLOCK + w * 32 + l;
        v[l] = i < N ? in[i] : 0.0f;
      }
      sums[w] = warp_fold(v);
    }
    e[b] = warp_fold(sums); /* lanes >= BLOCK / 32 hold 0 */
  }
  ref_check_f32(&c, "out.bin", e, GRID, 0, 0, NULL);
  return ref_finish(&c);
}
