/* ref_sfu_mix: reference for tests/corpus/sfu_mix.cu, launch/sfu_mix.json.
 * Iterates x <- 0.5 sin(x) + 0.25 exp(-x^2) + 0.25 x0 (x0 the input, where x
 * starts) 32 times in double (exact functions). The kernel's __sinf has
 * an absolute error of at most 2^-21.41 on [-pi, pi] and __expf(y) at most 2 + floor(|1.173 y|) ulp (CUDA
 * Programming Guide, intrinsic functions): y = -x^2 >= -9 in the first step
 * (12 ulp, 1.4e-6 relative), y >= -2.25 afterwards (4 ulp). One step is thus
 * off by at most 0.5 * 3.6e-7 + 0.25 * 1.4e-6 + f32 rounding ~ 6e-7. The map
 * is a contraction (|f'| <= 0.5 + 0.25 * 2 * 0.43 < 0.72), so the error after
 * any number of steps stays below 6e-7 / (1 - 0.72) ~ 2.2e-6.
 * Tolerance: atol 1e-5. Inputs are in [-3, 3], inside __sinf's accurate
 * range; later iterates stay in [-1.5, 1.5]. */
#include "ref.h"

#define N 3000
#define ITERS 32

int main(int argc, char **argv) {
  ref_ctx c;
  static float in[N], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(in, N, 18, -3, 3);
  for (int i = 0; i < N; i++) {
    double x0 = in[i], x = x0;
    for (int k = 0; k < ITERS; k++)
      x = 0.5 * sin(x) + 0.25 * exp(-x * x) + 0.25 * x0;
    e[i] = (float)x;
  }
  ref_check_f32(&c, "out.bin", e, N, 1e-5, 0, NULL);
  return ref_finish(&c);
}
