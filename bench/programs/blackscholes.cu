/*
 * bench/programs/blackscholes.cu — a whole CUDA program for the emulator's
 * speed under `warpsight exec` (bench/exec_programs.sh): European call and
 * put prices of N options (default 8M = 8,388,608) by the Black-Scholes
 * formula, with the cumulative normal distribution by the polynomial
 * approximation of Abramowitz and Stegun (26.2.17), ITER launches of the
 * same kernel on the same inputs (as a benchmark loop does), then checked
 * against the same formula in C.
 *
 * Prints the plain C reference's time ("C: S s"), the launches' wall time
 * including the synchronisation ("kernels: S s"), and PASS or FAIL.
 * Build: nvcc -cudart shared -arch=sm_80 -O2 blackscholes.cu.
 * Usage: blackscholes [N [ITER]].
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_));                                    \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

static const float RISKFREE = 0.02f, VOLATILITY = 0.30f;

/* N(d) by Abramowitz and Stegun 26.2.17 (|error| < 7.5e-8). */
__host__ __device__ static inline float cnd(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = rsqrt2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

__host__ __device__ static inline void price(float s, float x, float t, float r, float v, float *call,
                                             float *put) {
  float sq = sqrtf(t);
  float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
  float d2 = d1 - v * sq;
  float e = expf(-r * t);
  *call = s * cnd(d1) - x * e * cnd(d2);
  *put = x * e * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}

__global__ void blackscholes(float *call, float *put, const float *s, const float *x, const float *t,
                             float r, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) price(s[i], x[i], t[i], r, v, &call[i], &put[i]);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A deterministic value in [lo, hi). */
static float uniform(unsigned long long *st, float lo, float hi) {
  *st = *st * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (hi - lo) * (float)((*st >> 40) & 0xffffff) / 16777216.0f;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8 << 20;
  int iters = argc > 2 ? atoi(argv[2]) : 4;
  size_t bytes = (size_t)n * sizeof(float);
  float *s = (float *)malloc(bytes), *x = (float *)malloc(bytes), *t = (float *)malloc(bytes);
  float *call = (float *)malloc(bytes), *put = (float *)malloc(bytes);
  float *rc = (float *)malloc(bytes), *rp = (float *)malloc(bytes);
  if (!s || !x || !t || !call || !put || !rc || !rp) {
    printf("FAIL: out of memory\n");
    return 1;
  }
  unsigned long long st = 1;
  for (int i = 0; i < n; i++) {
    s[i] = uniform(&st, 5.0f, 30.0f);
    x[i] = uniform(&st, 1.0f, 100.0f);
    t[i] = uniform(&st, 0.25f, 10.0f);
  }
  float *ds, *dx, *dt, *dc, *dp;
  CHECK(cudaMalloc(&ds, bytes));
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&dt, bytes));
  CHECK(cudaMalloc(&dc, bytes));
  CHECK(cudaMalloc(&dp, bytes));
  CHECK(cudaMemcpy(ds, s, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dt, t, bytes, cudaMemcpyHostToDevice));
  int block = 128, grid = (n + block - 1) / block;
  double t0 = now();
  for (int it = 0; it < iters; it++) {
    blackscholes<<<grid, block>>>(dc, dp, ds, dx, dt, RISKFREE, VOLATILITY, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  double t1 = now();
  CHECK(cudaMemcpy(call, dc, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(put, dp, bytes, cudaMemcpyDeviceToHost));
  double t2 = now();
  for (int it = 0; it < iters; it++)
    for (int i = 0; i < n; i++) price(s[i], x[i], t[i], RISKFREE, VOLATILITY, &rc[i], &rp[i]);
  double t3 = now();
  /* the device's expf/logf/division differ from the host's in the last
   * bits: compare as the CUDA samples do, by the relative L1 norm, and
   * bound the largest difference */
  double num = 0, den = 0, worst = 0;
  for (int i = 0; i < n; i++) {
    double ec = fabs((double)call[i] - rc[i]), ep = fabs((double)put[i] - rp[i]);
    num += ec + ep;
    den += fabs((double)rc[i]) + fabs((double)rp[i]);
    if (ec > worst) worst = ec;
    if (ep > worst) worst = ep;
  }
  double l1 = num / den;
  printf("blackscholes: %d options, %d launches of %d x %d threads\n", n, iters, grid, block);
  printf("C: %.3f s\n", t3 - t2);
  printf("kernels: %.3f s\n", t1 - t0);
  printf("relative L1 error %.3g, largest difference %.3g\n", l1, worst);
  int ok = l1 < 1e-6 && worst < 1e-3;
  printf("%s blackscholes\n", ok ? "PASS" : "FAIL");
  cudaFree(ds), cudaFree(dx), cudaFree(dt), cudaFree(dc), cudaFree(dp);
  free(s), free(x), free(t), free(call), free(put), free(rc), free(rp);
  return ok ? 0 : 1;
}
