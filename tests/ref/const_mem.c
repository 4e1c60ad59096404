/* ref_const_mem: reference for tests/corpus/const_mem.cu,
 * launch/const_mem.json. Same nine taps, same clamping, same fmaf chain in
 * tap order: bit-exact. */
#include "ref.h"

#define N 5000

static const float taps[9] = {0.0625f, 0.0625f, 0.125f, 0.125f, 0.25f,
                              0.125f, 0.125f, 0.0625f, 0.0625f};

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[N], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, N, 37, 0, 1);
  for (int i = 0; i < N; i++) {
    float acc = 0.0f;
    for (int k = 0; k < 9; k++) {
      int j = i + k - 4;
      j = j < 0 ? 0 : j > N - 1 ? N - 1 : j;
      acc = fmaf(taps[k], in[j], acc);
    }
    e[i] = acc;
  }
  ref_check_f32(&c, "out.bin", e, N, 0, 0, NULL);
  return ref_finish(&c);
}
