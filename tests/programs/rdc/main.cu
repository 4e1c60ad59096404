// An -rdc=true program: the kernel here calls scaled() and reads bias, both
// defined in scale.cu; the host also launches scale.cu's kernel and sets
// bias with cudaMemcpyToSymbol.  Checked against a C reference.
#include <cstdio>
#include <vector>
#include "common.h"

__global__ void apply(const int *x, int *y, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scaled(x[i], k);
}

int main() {
  const int n = 1000, k = 3;
  std::vector<int> h(n), got(n);
  for (int i = 0; i < n; i++) h[i] = i % 97 - 40;
  int *x, *y;
  if (cudaMalloc(&x, n * sizeof(int)) || cudaMalloc(&y, n * sizeof(int))) return 3;
  cudaMemcpy(x, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  apply<<<(n + 255) / 256, 256>>>(x, y, n, k);  // bias = 7 (its initialiser)
  add_bias<<<(n + 255) / 256, 256>>>(y, n);     // + 7 again
  int b = 100;
  cudaMemcpyToSymbol(bias, &b, sizeof b);
  add_bias<<<(n + 255) / 256, 256>>>(y, n);     // + 100
  cudaError_t e = cudaGetLastError();
  cudaMemcpy(got.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  for (int i = 0; i < n && ok; i++)
    if (got[i] != h[i] * k + 7 + 7 + 100) {
      std::printf("FAIL y[%d] = %d, reference %d\n", i, got[i], h[i] * k + 114);
      ok = false;
    }
  std::printf("%s -rdc=true program: a __device__ function and variable of another file (%s)\n",
              ok ? "PASS" : "FAIL", cudaGetErrorName(e));
  return ok ? 0 : 1;
}
