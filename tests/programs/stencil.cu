// A 2D five-point Jacobi stencil iterated with ping-pong buffers.
#include "check.h"
#include <vector>

__global__ void jacobi(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    out[y * n + x] = in[y * n + x];
    return;
  }
  out[y * n + x] = 0.25f * (in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] +
                            in[(y + 1) * n + x]);
}

int main() {
  const int n = 48, iters = 6;
  std::vector<float> a(n * n), ref(n * n), tmp(n * n), got(n * n);
  for (int i = 0; i < n * n; i++) a[i] = (float)((i * 37) % 101) / 10.0f;
  float *d0, *d1;
  CK(cudaMalloc(&d0, n * n * sizeof(float)));
  CK(cudaMalloc(&d1, n * n * sizeof(float)));
  CK(cudaMemcpy(d0, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  for (int it = 0; it < iters; it++) {
    jacobi<<<grid, block>>>(d0, d1, n);
    std::swap(d0, d1);
  }
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), d0, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  ref = a;
  for (int it = 0; it < iters; it++) {  // C reference
    for (int y = 0; y < n; y++)
      for (int x = 0; x < n; x++)
        tmp[y * n + x] = (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                             ? ref[y * n + x]
                             : 0.25f * (ref[y * n + x - 1] + ref[y * n + x + 1] +
                                        ref[(y - 1) * n + x] + ref[(y + 1) * n + x]);
    ref.swap(tmp);
  }
  bool ok = close_all("stencil", got.data(), ref.data(), n * n);
  CK(cudaFree(d0));
  CK(cudaFree(d1));
  return ok ? 0 : 1;
}
