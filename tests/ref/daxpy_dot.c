/* ref_daxpy_dot: reference for tests/corpus/daxpy_dot.cu,
 * launch/daxpy_dot.json. y = fma(2.5, x, y) (C fma, correctly rounded, like
 * fma.rn.f64), then each block's products x * y_new are folded by the same
 * tree (sequential addressing, strides 128, 64, ..., 1): the same f64
 * operations in the same order, so y and partial are bit-exact. */
#include "ref.h"

#define N 10000
#define BS 256
#define GRID 40

int main(int argc, char **argv) {
  ref_ctx c;
  static double x[N], y[N], partial[GRID];
  ref_init(&c, argc, argv, NULL);
  ref_random_f64(x, N, 30, -1, 1);
  ref_random_f64(y, N, 31, -1, 1);
  const double a = 2.5;
  for (int i = 0; i < N; i++)
    y[i] = fma(a, x[i], y[i]);
  for (int b = 0; b < GRID; b++) {
    double s[BS];
    for (int t = 0; t < BS; t++) {
      int i = b * BS + t;
      s[t] = i < N ? x[i] * y[i] : 0.0;
    }
    for (int st = BS / 2; st > 0; st >>= 1)
      for (int t = 0; t < st; t++)
        s[t] += s[t + st];
    partial[b] = s[0];
  }
  ref_check_f64(&c, "y.bin", y, N, 0, 0, NULL);
  ref_check_f64(&c, "partial.bin", partial, GRID, 0, 0, NULL);
  return ref_finish(&c);
}
