/* ref_blackscholes: reference for tests/corpus/blackscholes.cu,
 * launch/blackscholes.json. Same formulas in f32 in the same order.
 * Differences come from expf/logf (CUDA: 2 and 1 ulp maximum error, glibc
 * below 1 ulp), the division and sqrtf (both correctly rounded on each
 * side), and nvcc fusing a * b + c into one FMA where this file (built with
 * -ffp-contract=off) rounds twice. The prices are differences of terms up
 * to X <= 100, so an error of a few ulp in d1 or d2 (|d| <= ~15) moves a
 * price by up to about 100 * 0.4 * 15 * 2^-22 ~ 1.5e-4 in the very worst
 * case; measured on these inputs (docs/reference-tolerances.md), this f32
 * code is within 1.1e-5 of the same formulas in double, and within 7.7e-6
 * of itself compiled with FMA contraction. Tolerance: atol 2e-4 + rtol 1e-5,
 * above the loose bound and 20 times the measured spread. A wrong formula (e.g. a
 * missing term or a swapped cnd branch) moves prices by far more. */
#include "ref.h"

#define N 4000
#define RSQRT2PI 0.39894228040143267794f

static float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float c = RSQRT2PI * expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - c : c;
}

int main(int argc, char **argv) {
  ref_ctx c;
  static float S[N], X[N], T[N], call[N], put[N];
  ref_init(&c, argc, argv, NULL);
  ref_random_f32(S, N, 12, 5, 30);
  ref_random_f32(X, N, 13, 1, 100);
  ref_random_f32(T, N, 14, 0.25, 10);
  const float r = 0.02f, v = 0.3f;
  for (int i = 0; i < N; i++) {
    float s = S[i], x = X[i], t = T[i];
    float sqrt_t = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float c1 = cnd(d1), c2 = cnd(d2);
    float disc = x * expf(-r * t);
    call[i] = s * c1 - disc * c2;
    put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
  }
  ref_check_f32(&c, "call.bin", call, N, 2e-4, 1e-5, NULL);
  ref_check_f32(&c, "put.bin", put, N, 2e-4, 1e-5, NULL);
  return ref_finish(&c);
}
