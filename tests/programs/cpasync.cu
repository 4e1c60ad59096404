// A cp.async pipeline: each block walks its rows of a matrix tile by tile,
// copying tile t + 1 into shared memory with cp.async (__pipeline_memcpy_async)
// while it computes on tile t, waiting with cp.async.wait_group
// (__pipeline_wait_prior); then the same with cuda::memcpy_async completing
// on a cuda::barrier (mbarrier).  out[r][c] = in[r][c] * 2 + in[r][c ^ 1]:
// checked against the C reference.
#include "check.h"
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

// cuda::barrier in shared memory is initialised by init(), not by a constructor
#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int T = 128;  // floats per tile = threads per block

__global__ void pipelined(const float *in, float *out, int tiles_per_block) {
  __shared__ __align__(16) float buf[2][T];
  const float *src = in + (size_t)blockIdx.x * tiles_per_block * T;
  float *dst = out + (size_t)blockIdx.x * tiles_per_block * T;
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[0][t], &src[t], sizeof(float));
  __pipeline_commit();
  for (int k = 0; k < tiles_per_block; k++) {
    if (k + 1 < tiles_per_block) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &src[(k + 1) * T + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);  // tile k has landed, tile k + 1 may be in flight
    __syncthreads();
    dst[k * T + t] = buf[k & 1][t] * 2 + buf[k & 1][t ^ 1];
    __syncthreads();
  }
}

__global__ void with_barrier(const float *in, float *out, int tiles_per_block) {
  __shared__ __align__(16) float buf[T];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto blk = cg::this_thread_block();
  if (blk.thread_rank() == 0) init(&bar, blk.size());
  blk.sync();
  const float *src = in + (size_t)blockIdx.x * tiles_per_block * T;
  float *dst = out + (size_t)blockIdx.x * tiles_per_block * T;
  for (int k = 0; k < tiles_per_block; k++) {
    cuda::memcpy_async(blk, buf, src + k * T, sizeof(float) * T, bar);
    bar.arrive_and_wait();
    dst[k * T + threadIdx.x] = buf[threadIdx.x] * 2 + buf[threadIdx.x ^ 1];
    blk.sync();
  }
}

int main() {
  const int blocks = 6, tpb = 5, n = blocks * tpb * T;
  std::vector<float> h(n), ref(n), got(n);
  for (int i = 0; i < n; i++) h[i] = (float)((i * 29) % 101) * 0.125f - 3.0f;
  for (int i = 0; i < n; i++) ref[i] = h[i] * 2 + h[i ^ 1];
  float *din = dev_buf(n, h.data()), *dout = dev_buf<float>(n);
  bool ok = true;
  pipelined<<<blocks, T>>>(din, dout, tpb);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= close_all("cp.async double-buffered pipeline (wait_group)", got.data(), ref.data(), n, 0.0f);
  CK(cudaMemset(dout, 0, n * sizeof(float)));
  with_barrier<<<blocks, T>>>(din, dout, tpb);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= close_all("cuda::memcpy_async with cuda::barrier (mbarrier)", got.data(), ref.data(), n, 0.0f);
  std::printf("%s cp.async pipelines\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
