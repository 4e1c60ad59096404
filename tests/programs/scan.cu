// An inclusive prefix sum over cudaMallocManaged memory in several launches:
// per-block scans, a scan of the block totals, then the offsets added.  The
// host reads and writes the managed arrays directly.
#include "check.h"

#define B 128
__global__ void block_scan(int *v, int *sums, int n) {
  __shared__ int s[B];
  int i = blockIdx.x * B + threadIdx.x;
  s[threadIdx.x] = i < n ? v[i] : 0;
  __syncthreads();
  for (int off = 1; off < B; off *= 2) {
    int t = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] += t;
    __syncthreads();
  }
  if (i < n) v[i] = s[threadIdx.x];
  if (threadIdx.x == B - 1) sums[blockIdx.x] = s[B - 1];
}

__global__ void add_offsets(int *v, const int *sums, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (blockIdx.x > 0 && i < n) v[i] += sums[blockIdx.x - 1];
}

int main() {
  const int n = 100 * B + 37, nb = (n + B - 1) / B;
  int *v, *sums, *dummy;
  CK(cudaMallocManaged(&v, n * sizeof(int)));
  CK(cudaMallocManaged(&sums, B * sizeof(int)));
  CK(cudaMallocManaged(&dummy, sizeof(int)));
  int *ref = new int[n];
  for (int i = 0; i < n; i++) v[i] = (i * 5) % 11 - 3;  // the host writes managed memory
  for (int i = 0, s = 0; i < n; i++) ref[i] = s += v[i];  // C reference
  block_scan<<<nb, B>>>(v, sums, n);
  block_scan<<<1, B>>>(sums, dummy, nb);  // nb <= B: one block scans the totals
  add_offsets<<<nb, B>>>(v, sums, n);
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++)
    if (v[i] != ref[i]) {
      std::printf("FAIL v[%d] = %d, reference %d\n", i, v[i], ref[i]);
      return 1;
    }
  std::printf("PASS prefix sum over managed memory (%d values match the C reference)\n", n);
  CK(cudaFree(v));
  CK(cudaFree(sums));
  CK(cudaFree(dummy));
  delete[] ref;
  return 0;
}
