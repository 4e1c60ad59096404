/* ref_nbody: reference for tests/corpus/nbody.cu, launch/nbody.json.
 * Computed in double (an independent, near-exact value) and compared with
 * a tolerance scaled by the magnitude of the sum: for component x of body i
 *   |got - exp| <= 1e-4 * sum_j |m_j dx_ij / r_ij^3|.
 * Why: the kernel uses rsqrtf (rsqrt.approx.f32, relative error about
 * 2^-22.9 per the PTX ISA), cubes it (three times that), and rounds dx, d2
 * and the products in f32: a few 1e-7 relative per term. The 500-term f32
 * sum adds at most 499 * 2^-24 ~ 3e-5 of the magnitude sum in the worst
 * case (typically far less). 1e-4 covers both; a missing or doubled term
 * is ~1/500 of the magnitude, 20 times the tolerance. */
#include "ref.h"

#define N 500

int main(int argc, char **argv) {
  ref_ctx c;
  static float pos[4 * N], e[3 * N];
  static double scale[3 * N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(pos, 4 * N, 17, 0, 1);
  const double eps2 = (double)0.01f;
  for (int i = 0; i < N; i++) {
    double a[3] = {0, 0, 0}, m[3] = {0, 0, 0};
    for (int j = 0; j < N; j++) {
      double d[3], d2 = eps2;
      for (int k = 0; k < 3; k++) {
        d[k] = (double)pos[4 * j + k] - (double)pos[4 * i + k];
        d2 += d[k] * d[k];
      }
      double s = pos[4 * j + 3] / (d2 * sqrt(d2));
      for (int k = 0; k < 3; k++) {
        a[k] += d[k] * s;
        m[k] += fabs(d[k] * s);
      }
    }
    for (int k = 0; k < 3; k++) {
      e[3 * i + k] = (float)a[k];
      scale[3 * i + k] = m[k];
    }
  }
  ref_check_f32(&c, "acc.bin", e, 3 * N, 0, 1e-4, scale);
  return ref_finish(&c);
}
