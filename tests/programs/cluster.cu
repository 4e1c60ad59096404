// Thread-block clusters (sm_90) are not emulated: every way in is refused
// with a message naming the feature and the call, the program sees CUDA's
// error codes, nothing hangs or crashes, and no refused kernel writes
// anything.  What cudaLaunchKernelEx does run: a cluster of one block, and
// programmatic dependent launch (cudaGridDependencySynchronize), checked
// against the C reference.  run.sh builds it for sm_90 and checks the
// messages.
#include <cooperative_groups.h>

#include "check.h"
namespace cg = cooperative_groups;

// Each block reads its neighbour's shared memory through the cluster
// (distributed shared memory).
__global__ void __cluster_dims__(2, 1, 1) neighbours(int *out) {
  cg::cluster_group c = cg::this_cluster();
  __shared__ int s;
  if (threadIdx.x == 0) s = blockIdx.x * 10;
  c.sync();
  int *peer = c.map_shared_rank(&s, (c.block_rank() + 1) % c.num_blocks());
  if (threadIdx.x == 0) out[blockIdx.x] = *peer;
  c.sync();
}

__global__ void producer(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.f * i;
  cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void consumer(const float *a, float *b, int n, float s) {
  cudaGridDependencySynchronize();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] * s + 1.f;
}

static bool expect(const char *what, cudaError_t got, cudaError_t want) {
  if (got == want) return true;
  std::printf("FAIL %s: %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
  return false;
}

int main() {
  const int n = 3000;
  bool ok = true;
  int v = -1;
  CK(cudaDeviceGetAttribute(&v, cudaDevAttrClusterLaunch, 0));
  ok &= v == 0;
  int *d = dev_buf<int>(8), h[8];
  CK(cudaMemset(d, 0xff, sizeof h));
  // the cluster attributes of a kernel
  ok &= expect("cudaFuncSetAttribute(NonPortableClusterSizeAllowed)",
               cudaFuncSetAttribute(consumer, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
               cudaErrorNotSupported);
  ok &= expect("cudaFuncSetAttribute(99)", cudaFuncSetAttribute(consumer, (cudaFuncAttribute)99, 1),
               cudaErrorInvalidValue);
  // cudaLaunchKernelEx with clusters of 2 blocks
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8);
  cfg.blockDim = dim3(32);
  cudaLaunchAttribute at[2];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 2, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  ok &= expect("cudaLaunchKernelEx with clusters of 2", cudaLaunchKernelEx(&cfg, neighbours, d),
               cudaErrorNotSupported);
  int clusters = -1;
  ok &= expect("cudaOccupancyMaxActiveClusters", cudaOccupancyMaxActiveClusters(&clusters, neighbours, &cfg),
               cudaErrorNotSupported);
  cudaGetLastError();
  // the <<<>>> launch of a kernel with compile-time cluster dimensions: its
  // cluster instructions make the launch fail, as a launch error
  neighbours<<<8, 32>>>(d);
  ok &= expect("neighbours<<<8, 32>>>", cudaGetLastError(), cudaErrorInvalidPtx);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++)
    if (h[i] != -1) {
      std::printf("FAIL a refused launch wrote out[%d] = %d\n", i, h[i]);
      ok = false;
    }
  // what runs: programmatic dependent launch, and a cluster of 1 block
  float *a = dev_buf<float>(n), *b = dev_buf<float>(n), *hb = new float[n], *want = new float[n];
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  producer<<<(n + 255) / 256, 256, 0, st>>>(a, n);
  cfg.gridDim = dim3((n + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.stream = st;
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  at[1].id = cudaLaunchAttributeClusterDimension;
  at[1].val.clusterDim.x = 1, at[1].val.clusterDim.y = 1, at[1].val.clusterDim.z = 1;
  cfg.numAttrs = 2;
  CK(cudaLaunchKernelEx(&cfg, consumer, (const float *)a, b, n, 0.5f));
  CK(cudaStreamSynchronize(st));
  CK(cudaMemcpy(hb, b, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = 2.f * i * 0.5f + 1.f;
  ok &= close_all("consumer after producer (programmatic dependent launch)", hb, want, n, 0.f);
  delete[] hb;
  delete[] want;
  std::printf(ok ? "PASS cluster: refused as expected\n" : "FAIL cluster\n");
  return ok ? 0 : 1;
}
