// N empty launches (default 10000): the runtime's overhead per launch
// (bench/exec_overhead.sh).
#include <cstdio>
#include <cstdlib>

__global__ void empty() {}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  for (int i = 0; i < n; i++) empty<<<1, 32>>>();
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%d empty launches: %s\n", n, cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
