// A templated reduction: warp shuffles (warpSize lanes) then shared memory.
#include "check.h"
#include <vector>

template <typename T>
__device__ T warp_sum(T v) {
  for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

template <typename T, int BLOCK>
__global__ void reduce(const T *in, T *out, int n) {
  __shared__ T partial[BLOCK / 32];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  v = warp_sum(v);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x < warpSize) {
    v = threadIdx.x < BLOCK / warpSize ? partial[threadIdx.x] : T(0);
    v = warp_sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

int main() {
  const int n = 5000, B = 256, nb = (n + B - 1) / B;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (i * 7919) % 1000 - 500;
  int *din, *dout;
  CK(cudaMalloc(&din, n * sizeof(int)));
  CK(cudaMalloc(&dout, nb * sizeof(int)));
  CK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reduce<int, B><<<nb, B>>>(din, dout, n);
  CK(cudaGetLastError());
  std::vector<int> part(nb);
  CK(cudaMemcpy(part.data(), dout, nb * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int b = 0; b < nb; b++) {  // C reference: each block's sum
    long s = 0;
    for (int i = b * B; i < n && i < (b + 1) * B; i++) s += h[i];
    if (s != part[b]) {
      std::printf("FAIL block %d: %d, reference %ld\n", b, part[b], s);
      ok = false;
    }
  }
  if (ok) std::printf("PASS reduce<int, 256> (%d block sums match the C reference)\n", nb);
  // The kernel's attributes and occupancy, from its PTX and the GPU's rules.
  cudaFuncAttributes fa;
  int active = 0;
  cudaDeviceProp prop;
  CK(cudaFuncGetAttributes(&fa, reduce<int, B>));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, reduce<int, B>, B, 0));
  CK(cudaGetDeviceProperties(&prop, 0));
  // partial[B / 32] ints: 8 x 4 = 32 bytes (hand count); at most 2048 / 256
  // = 8 blocks of 256 threads per SM on CC 8.0 (CUDA Programming Guide).
  bool attrs = fa.sharedSizeBytes == 32 && fa.numRegs > 0 && active >= 1 &&
               active <= prop.maxThreadsPerMultiProcessor / B && prop.warpSize == 32;
  std::printf("%s attributes: %zu shared bytes, %d registers, %d active blocks per SM on %s\n",
              attrs ? "PASS" : "FAIL", fa.sharedSizeBytes, fa.numRegs, active, prop.name);
  ok = ok && attrs;
  return ok ? 0 : 1;
}
