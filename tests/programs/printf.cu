// Device printf and a __device__ variable (with an initialiser) read back;
// a width and a precision given as arguments (`*`), formatted as the host's
// printf formats them (run.sh compares the line).
#include "check.h"

__device__ int counter = 100;
__device__ __managed__ int flag;

__global__ void hello(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    printf("hello from thread %d of block %d\n", threadIdx.x, blockIdx.x);
    atomicAdd(&counter, i);
  }
  if (i == 0) flag = 42;
  if (i == 5) printf("star: [%*d] [%-*d] [%.*f] [%*.*e] [%.*s] [%*.1f] [%.*d]\n", 6, 42, 4, 7, 3, 2.718281828, 12, 2, 1234.5,
                     3, "abcdef", -7, 2.25, -1, 5);
}

int main() {
  hello<<<2, 4>>>(6);
  CK(cudaDeviceSynchronize());
  int c = 0;
  CK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  int want = 100 + 0 + 1 + 2 + 3 + 4 + 5;  // C reference: the initialiser plus 0..5
  if (c != want || flag != 42) {
    std::printf("FAIL counter %d (reference %d), flag %d (reference 42)\n", c, want, flag);
    return 1;
  }
  std::printf("PASS counter %d and managed flag %d read back\n", c, flag);
  return 0;
}
