/* ref_ubench_mem: reference for tests/corpus/ubench_mem.cu with
 * launch/ubench_mem.coal.json (stride 1) and launch/ubench_mem.uncoal.json
 * (stride 32). Same u32 index arithmetic (wrapping), same fmaf chain:
 * bit-exact, tolerance 0. */
#include "ref.h"

#define N 10000
#define LEN 16384u
#define T (40u * 256u) /* gridDim.x * blockDim.x */
#define ITERS 8

int main(int argc, char **argv) {
  static const char *const variants[] = {"coal", "uncoal", NULL};
  ref_ctx c;
  static float in[LEN], e[N];
  ref_init(&c, argc, argv, variants);
  uint32_t stride = ref_is(&c, "coal") ? 1u : 32u;
  ref_random_f32(in, LEN, 15, 0, 1);
  for (uint32_t i = 0; i < N; i++) {
    float acc = 0.0f;
    for (uint32_t j = 0; j < ITERS; j++)
      acc = fmaf(acc, 0.5f, in[((i + j * T) * stride) % LEN]);
    e[i] = acc;
  }
  ref_check_f32(&c, "out.bin", e, N, 0, 0, NULL);
  return ref_finish(&c);
}
