// A histogram in shared memory (shared atomics), merged with global atomics.
#include "check.h"
#include <vector>

#define BINS 64
__global__ void histogram(const unsigned char *data, int n, unsigned *hist) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&hist[b], local[b]);
}

int main() {
  const int n = 20000;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; i++) h[i] = (unsigned char)((i * 131 + (i >> 3)) & 255);
  unsigned char *dd;
  unsigned *dh;
  CK(cudaMalloc(&dd, n));
  CK(cudaMalloc(&dh, BINS * sizeof(unsigned)));
  CK(cudaMemset(dh, 0, BINS * sizeof(unsigned)));
  CK(cudaMemcpy(dd, h.data(), n, cudaMemcpyHostToDevice));
  histogram<<<8, 128>>>(dd, n, dh);
  CK(cudaGetLastError());
  unsigned got[BINS], ref[BINS] = {0};
  CK(cudaMemcpy(got, dh, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) ref[h[i] % BINS]++;  // C reference
  for (int b = 0; b < BINS; b++)
    if (got[b] != ref[b]) {
      std::printf("FAIL bin %d: %u, reference %u\n", b, got[b], ref[b]);
      return 1;
    }
  std::printf("PASS histogram (%d bins match the C reference)\n", BINS);
  return 0;
}
