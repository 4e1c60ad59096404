// Mapped (zero-copy) host memory: cudaHostAlloc(cudaHostAllocMapped) read
// and written by a kernel through cudaHostGetDevicePointer, and a buffer of
// the program's own registered with cudaHostRegister; the host sees the
// kernel's results when the stream is synchronised.  Against a C reference.
#include "check.h"
#include <cstdlib>
#include <vector>

__global__ void affine(const float *in, float *out, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i] + b;
}

int main() {
  const int n = 2048;
  int can = 0;
  CK(cudaDeviceGetAttribute(&can, cudaDevAttrCanMapHostMemory, 0));
  if (!can) { std::printf("FAIL cannot map host memory\n"); return 1; }
  CK(cudaSetDeviceFlags(cudaDeviceMapHost));
  float *in, *out, *din, *dout;
  CK(cudaHostAlloc((void **)&in, n * sizeof(float), cudaHostAllocMapped));
  CK(cudaHostAlloc((void **)&out, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable));
  for (int i = 0; i < n; i++) in[i] = (float)i * 0.25f;
  CK(cudaHostGetDevicePointer((void **)&din, in, 0));
  CK(cudaHostGetDevicePointer((void **)&dout, out, 0));
  affine<<<n / 256, 256>>>(din, dout, 4.0f, 1.0f, n);
  CK(cudaDeviceSynchronize());
  std::vector<float> ref(n);
  for (int i = 0; i < n; i++) ref[i] = 4.0f * in[i] + 1.0f;  // C reference
  bool ok = close_all("zero-copy output", out, ref.data(), n);
  // registered memory of the program's own
  float *mine = (float *)std::malloc(n * sizeof(float)), *dmine;
  for (int i = 0; i < n; i++) mine[i] = (float)(n - i);
  CK(cudaHostRegister(mine, n * sizeof(float), cudaHostRegisterMapped));
  CK(cudaHostGetDevicePointer((void **)&dmine, mine, 0));
  affine<<<n / 256, 256>>>(dmine, dmine, -1.0f, 0.5f, n);
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) ref[i] = -(float)(n - i) + 0.5f;
  ok = close_all("registered memory, in place", mine, ref.data(), n) && ok;
  CK(cudaHostUnregister(mine));
  std::free(mine);
  CK(cudaFreeHost(in));
  CK(cudaFreeHost(out));
  return ok ? 0 : 1;
}
