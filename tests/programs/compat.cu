// A program in CUDA 11's style built against CUDA 13's headers through
// include/warpsight/cuda_compat.h: cudaThreadSynchronize, cudaThreadSetLimit
// and the clock rate CUDA 13 moved out of cudaDeviceProp.
#include "check.h"
#include "warpsight/cuda_compat.h"

__global__ void inc(int *v) { v[threadIdx.x] += 1; }

int main() {
  int *d, h[64] = {0};
  CK(cudaMalloc(&d, sizeof h));
  CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  inc<<<1, 64>>>(d);
  CK(cudaThreadSynchronize());
  CK(cudaThreadSetLimit(cudaLimitMallocHeapSize, 1 << 24));
  size_t heap = 0;
  CK(cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize));
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int clock = cudaCompatClockRate(0), mode = cudaCompatComputeMode(0);
  bool ok = heap == (1 << 24) && clock > 0 && mode == cudaComputeModeDefault;
  for (int i = 0; i < 64; i++) ok = ok && h[i] == 1;  // C reference: 0 + 1
  std::printf("%s compatibility macros (clock %d kHz, heap %zu)\n", ok ? "PASS" : "FAIL", clock, heap);
  CK(cudaThreadExit());
  return ok ? 0 : 1;
}
