/* ref_coalesce: reference for tests/corpus/coalesce.cu with
 * launch/coalesce.{s1o0,s1o1,s2o0,s32o0}.json (stride s, offset o).
 * out[i] = 2 * a[i * s + o]: doubling is exact, so bit-exact. */
#include "ref.h"

#define N 5000

int main(int argc, char **argv) {
  static const char *const variants[] = {"s1o0", "s1o1", "s2o0", "s32o0", NULL};
  ref_ctx c;
  static float e[N];
  ref_init(&c, argc, argv, variants);
  int stride = ref_is(&c, "s2o0") ? 2 : ref_is(&c, "s32o0") ? 32 : 1;
  int offset = ref_is(&c, "s1o1") ? 1 : 0;
  size_t count = (size_t)(N - 1) * stride + offset + 1; /* the spec's count */
  float *a = ref_alloc(count, sizeof *a);
  ref_random_f32(a, count, 19, 0, 1);
  for (int i = 0; i < N; i++)
    e[i] = 2.0f * a[i * stride + offset];
  ref_check_f32(&c, "out.bin", e, N, 0, 0, NULL);
  free(a);
  return ref_finish(&c);
}
