// A module where one kernel uses an instruction warpsight's emulator does not
// know (discard.global.L2, PTX ISA 7.4) and another kernel does not: the
// module still loads, the second kernel runs and gives the right result, and
// only a launch of the first fails (under warpsight: cudaErrorInvalidPtx,
// with a line naming the instruction and its PTX line; on a GPU it runs).
#include "check.h"
#include <vector>

__global__ void uses_discard(float *p) {
  asm volatile("discard.global.L2 [%0], 128;" ::"l"(p));
  p[threadIdx.x] = 1.0f;
}

__global__ void plain(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] * a[i] + 1.0f;
}

int main() {
  const int n = 1000;
  std::vector<float> h(n), ref(n), got(n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 37) * 0.5f;
  for (int i = 0; i < n; i++) ref[i] = h[i] * h[i] + 1.0f;
  float *a = dev_buf(n, h.data()), *b = dev_buf<float>(n);
  plain<<<(n + 127) / 128, 128>>>(a, b, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_all("the kernel without the unknown instruction", got.data(), ref.data(), n, 0.0f);
  uses_discard<<<1, 32>>>(a);
  cudaError_t e = cudaGetLastError();
  std::printf("the kernel with discard.global.L2: %s\n", cudaGetErrorName(e));
  // warpsight refuses it; a GPU runs it: both are correct
  ok &= e == cudaErrorInvalidPtx || e == cudaSuccess;
  // the module is still usable afterwards
  plain<<<(n + 127) / 128, 128>>>(a, b, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= close_all("the same kernel again", got.data(), ref.data(), n, 0.0f);
  std::printf("%s a module with an instruction the emulator lacks\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
