/* ref_noinline: reference for tests/corpus/noinline.cu, launch/noinline.json.
 * outf[i] = fmaf(fmaf(0.5, x, -1.25), x, 2) exactly as poly3 computes it
 * (bit-exact); outi[i] = fib(i % 10) (exact). */
#include "ref.h"

#define N 2000

static int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

int main(int argc, char **argv) {
  ref_ctx c;
  static float x[N], ef[N];
  static int32_t ei[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(x, N, 35, -4, 4);
  for (int i = 0; i < N; i++) {
    ef[i] = fmaf(fmaf(0.5f, x[i], -1.25f), x[i], 2.0f);
    ei[i] = fib(i % 10);
  }
  ref_check_f32(&c, "outf.bin", ef, N, 0, 0, NULL);
  ref_check_exact(&c, "outi.bin", ei, N, sizeof ei[0]);
  return ref_finish(&c);
}
