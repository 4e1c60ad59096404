// A 1D convolution whose filter is a __constant__ array set by cudaMemcpyToSymbol.
#include "check.h"
#include <vector>

#define R 4
__constant__ float filter[2 * R + 1];

__global__ void conv(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int k = -R; k <= R; k++) {
    int j = i + k;
    if (j >= 0 && j < n) s += filter[k + R] * in[j];
  }
  out[i] = s;
}

int main() {
  const int n = 3000;
  float f[2 * R + 1];
  for (int k = 0; k < 2 * R + 1; k++) f[k] = 1.0f / (1 + (k - R) * (k - R));
  std::vector<float> h(n), got(n), ref(n);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 13) % 17) - 8.0f;
  float *din, *dout;
  CK(cudaMalloc(&din, n * sizeof(float)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  CK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(filter, f, sizeof f));
  conv<<<(n + 127) / 128, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {  // C reference
    float s = 0;
    for (int k = -R; k <= R; k++)
      if (i + k >= 0 && i + k < n) s += f[k + R] * h[i + k];
    ref[i] = s;
  }
  float back[2 * R + 1];
  CK(cudaMemcpyFromSymbol(back, filter, sizeof back));
  bool ok = close_all("filter read back", back, f, 2 * R + 1, 0.0f);
  ok = close_all("convolution", got.data(), ref.data(), n) && ok;
  return ok ? 0 : 1;
}
