// A kernel that writes out of bounds.  As on a GPU, the launch itself
// succeeds and the next call returns cudaErrorIllegalAddress, sticky.
#include <cstdio>

__global__ void overrun(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i * 1024] = i;  // far past the end for i > 0
}

int main() {
  int *v;
  if (cudaMalloc(&v, 64 * sizeof(int)) != cudaSuccess) return 3;
  overrun<<<1, 32>>>(v, 64);
  cudaError_t e = cudaDeviceSynchronize();
  cudaError_t again = cudaGetLastError();
  std::printf("cudaDeviceSynchronize: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  bool ok = e == cudaErrorIllegalAddress && again == cudaErrorIllegalAddress;
  std::printf("%s the fault is reported as cudaErrorIllegalAddress and stays\n", ok ? "PASS" : "FAIL");
  // cudaDeviceReset clears it, as on a GPU
  bool reset = cudaDeviceReset() == cudaSuccess && cudaMalloc(&v, 4) == cudaSuccess &&
               cudaGetLastError() == cudaSuccess;
  std::printf("%s cudaDeviceReset clears the fault\n", reset ? "PASS" : "FAIL");
  ok = ok && reset;
  return ok ? 0 : 1;
}
