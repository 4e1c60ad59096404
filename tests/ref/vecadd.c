/* ref_vecadd: reference for tests/corpus/vecadd.cu, launch/vecadd.json.
 * c = a + b: one correctly rounded f32 add per element, exactly what the
 * kernel does, so the result must be bit-exact (tolerance 0). */
#include "ref.h"

#define N 10000

int main(int argc, char **argv) {
  ref_ctx c;
  static float a[N], b[N], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(a, N, 1, 0, 1);
  ref_random_f32(b, N, 2, 0, 1);
  for (int i = 0; i < N; i++)
    e[i] = a[i] + b[i];
  ref_check_f32(&c, "c.bin", e, N, 0, 0, NULL);
  return ref_finish(&c);
}
