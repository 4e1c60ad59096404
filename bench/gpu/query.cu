// query.cu — prints device 0's identity as KEY=VALUE lines for
// bench/gpu/run.sh, which picks the nvcc architecture and the GPU database
// entry from them.  Host code only, so it builds and runs whatever the GPU.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  if (e != cudaSuccess) {
    fprintf(stderr, "query: no CUDA device: %s\n", cudaGetErrorString(e));
    return 1;
  }
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  printf("name=%s\ncc=%d.%d\nsms=%d\nmemory_bytes=%zu\nl2_bytes=%d\ndriver_api=%d\nruntime=%d\n",
         p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem, p.l2CacheSize, drv, rt);
  return 0;
}
