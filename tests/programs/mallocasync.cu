// Stream-ordered allocation: cudaMallocAsync / cudaFreeAsync in a stream
// around the kernels that use the memory, the default pool's attributes
// (release threshold, bytes in use), and a pool of our own.  Results
// against a C reference.
#include "check.h"
#include <cstdint>
#include <vector>

__global__ void iota(int *v, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = base + i;
}
__global__ void add(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 3000;
  int supported = 0;
  CK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  if (!supported) { std::printf("FAIL memory pools not supported\n"); return 1; }
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  cudaMemPool_t pool;
  CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t threshold = UINT64_MAX;
  CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int *a, *b, *c;
  CK(cudaMallocAsync((void **)&a, n * sizeof(int), s));
  CK(cudaMallocAsync((void **)&b, n * sizeof(int), s));
  CK(cudaMallocAsync((void **)&c, n * sizeof(int), s));
  uint64_t used = 0;
  CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  std::printf("in use: %llu bytes\n", (unsigned long long)used);
  iota<<<(n + 255) / 256, 256, 0, s>>>(a, 10, n);
  iota<<<(n + 255) / 256, 256, 0, s>>>(b, -3, n);
  add<<<(n + 255) / 256, 256, 0, s>>>(a, b, c, n);
  std::vector<int> got(n);
  CK(cudaMemcpyAsync(got.data(), c, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaFreeAsync(a, s));
  CK(cudaFreeAsync(b, s));
  CK(cudaFreeAsync(c, s));
  CK(cudaStreamSynchronize(s));
  uint64_t after = 1;
  CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &after));
  bool ok = used >= 3 * n * sizeof(int) && after == 0;
  for (int i = 0; i < n && ok; i++)  // C reference
    if (got[i] != (10 + i) + (-3 + i)) {
      std::printf("FAIL c[%d] = %d\n", i, got[i]);
      ok = false;
    }
  // a pool of our own
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CK(cudaMemPoolCreate(&mine, &props));
  int *d;
  CK(cudaMallocFromPoolAsync((void **)&d, n * sizeof(int), mine, s));
  iota<<<(n + 255) / 256, 256, 0, s>>>(d, 5, n);
  CK(cudaMemcpyAsync(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaFreeAsync(d, s));
  CK(cudaStreamSynchronize(s));
  for (int i = 0; i < n && ok; i++)
    if (got[i] != 5 + i) ok = false;
  CK(cudaMemPoolDestroy(mine));
  CK(cudaStreamDestroy(s));
  std::printf("%s stream-ordered allocation (%llu bytes in use, then %llu)\n", ok ? "PASS" : "FAIL",
              (unsigned long long)used, (unsigned long long)after);
  return ok ? 0 : 1;
}
