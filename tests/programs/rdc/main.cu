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

// launch.cu's kernels launch kernels: each result against its reference.
static bool device_launches() {
  const int rows = 5, cols = 40, last = 3, n = 300;
  int *m, *count, *v;
  if (cudaMalloc(&m, rows * cols * sizeof(int)) || cudaMalloc(&count, 4 * sizeof(int)) ||
      cudaMalloc(&v, n * sizeof(int)))
    return false;
  cudaMemset(m, 0xff, rows * cols * sizeof(int));
  cudaMemset(count, 0, 4 * sizeof(int));
  cudaMemset(v, 0, n * sizeof(int));
  fill_rows<<<2, 4>>>(m, rows, cols);  // 8 threads, 5 of them launch a row
  tree<<<1, 32>>>(count, 0, last);
  int b = -3;
  cudaMemcpyToSymbol(bias, &b, sizeof b);
  bias_later<<<2, 32>>>(v, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<int> hm(rows * cols), hv(n);
  int hc[4];
  cudaMemcpy(hm.data(), m, hm.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, count, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(hv.data(), v, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess;
  for (int i = 0; i < rows * cols && ok; i++)
    if (hm[i] != (i / cols) * 1000 + i % cols) {
      std::printf("FAIL m[%d] = %d, reference %d\n", i, hm[i], (i / cols) * 1000 + i % cols);
      ok = false;
    }
  for (int l = 0; l <= last && ok; l++)
    if (hc[l] != 1 << l) {
      std::printf("FAIL level %d of the tree ran %d blocks, reference %d\n", l, hc[l], 1 << l);
      ok = false;
    }
  for (int i = 0; i < n && ok; i++)
    if (hv[i] != b) {
      std::printf("FAIL v[%d] = %d, reference %d\n", i, hv[i], b);
      ok = false;
    }
  std::printf("%s device-side launches: a child grid per row, a tree of grids, another file's kernel (%s)\n",
              ok ? "PASS" : "FAIL", cudaGetErrorName(e));
  return ok;
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
  return ok && device_launches() ? 0 : 1;
}
