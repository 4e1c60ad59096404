// A kernel that never ends (a warp waits for a flag nobody sets) and a large
// allocation, for exec's emulated-work limits (issue 14; run.sh "spin"
// checks the messages).  With the defaults the spin is stopped by the limit
// of 2^26 warp instructions per warp and the 64 MiB allocation fits in the
// 4 GiB device; under --max-memory 16M it does not.
#include <cstdio>

__global__ void spin(volatile int *flag) {
  while (*flag == 0) {
  }
}

int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 3;
  std::printf("totalGlobalMem %zu\n", p.totalGlobalMem);
  void *big = nullptr;
  cudaError_t m = cudaMalloc(&big, 64 << 20);
  std::printf("cudaMalloc of 64 MiB: %s\n", cudaGetErrorName(m));
  if (m == cudaSuccess) cudaFree(big);
  cudaGetLastError(); // a failed cudaMalloc is not sticky
  int *flag;
  if (cudaMalloc(&flag, sizeof *flag) != cudaSuccess) return 3;
  cudaMemset(flag, 0, sizeof *flag);
  spin<<<1, 32>>>(flag);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("spin: %s\n", cudaGetErrorName(e));
  bool ok = e == cudaErrorLaunchTimeout; // as a GPU's watchdog reports it
  std::printf("%s the spinning kernel is stopped by a limit\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
