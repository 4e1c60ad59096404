/* ref_svm: reference for tests/corpus/svm.cu, launch/svm.json.
 * Same loops and the same fmaf() order as the kernel; only expf differs:
 * CUDA's expf has a maximum error of 2 ulp (CUDA Programming Guide, math
 * functions table), glibc's is below 1 ulp. Each of the 64 non-negative
 * terms can so differ by about 3 ulp (3 * 2^-24 relative) and the sums by as
 * much, relative; tolerance rtol 1e-5 (about 170 ulp) leaves a wide margin
 * while still catching any wrong term (each term is >= 1/64 of a typical
 * sum). */
#include "ref.h"

#define N 1000
#define NSV 64
#define DIM 16

int main(int argc, char **argv) {
  ref_ctx c;
  static float x[N * DIM], sv[NSV * DIM], alpha[NSV], e[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(x, N * DIM, 5, 0, 1);
  ref_random_f32(sv, NSV * DIM, 6, 0, 1);
  ref_random_f32(alpha, NSV, 7, 0, 1);
  const float gamma = 0.5f;
  for (int i = 0; i < N; i++) {
    float acc = 0.0f;
    for (int j = 0; j < NSV; j++) {
      float d2 = 0.0f;
      for (int k = 0; k < DIM; k++) {
        float d = x[i * DIM + k] - sv[j * DIM + k];
        d2 = fmaf(d, d, d2);
      }
      acc = fmaf(alpha[j], expf(-gamma * d2), acc);
    }
    e[i] = acc;
  }
  ref_check_f32(&c, "out.bin", e, N, 0, 1e-5, NULL);
  return ref_finish(&c);
}
