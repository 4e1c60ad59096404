/* ref_matmul_tiled: reference for tests/corpus/matmul_tiled.cu, launch/matmul_tiled.json.
 * The tiled kernel visits t = 0..k-1 in the same ascending order (tile by tile) and pads
 * the last tile with zeros: fmaf(0, 0, sum) == sum, so it accumulates
 * with fmaf in ascending t, as this reference does: bit-exact, tolerance 0.
 * Sizes 70 x 50 times 50 x 90 are not multiples of the 16 x 16 block. */
#include "ref.h"

#define M 70
#define N 90
#define K 50

int main(int argc, char **argv) {
  ref_ctx c;
  static float A[M * K], B[K * N], e[M * N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(A, M * K, 10, 0, 1);
  ref_random_f32(B, K * N, 11, 0, 1);
  for (int r = 0; r < M; r++)
    for (int col = 0; col < N; col++) {
      float sum = 0.0f;
      for (int t = 0; t < K; t++)
        sum = fmaf(A[r * K + t], B[t * N + col], sum);
      e[r * N + col] = sum;
    }
  ref_check_f32(&c, "C.bin", e, M * N, 0, 0, NULL);
  return ref_finish(&c);
}
