// Asynchronous copies: __pipeline_memcpy_async (cp.async.ca/cg) double-buffered tiles and cuda::memcpy_async
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
#define T 256
extern "C" __global__ void pipe_sum(const float4 *in, float *out, int tiles_per_block)
{
    __shared__ float4 buf[2][T];
    float acc = 0.0f;
    const float4 *base = in + (size_t)blockIdx.x * tiles_per_block * T;
    __pipeline_memcpy_async(&buf[0][threadIdx.x], &base[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    for (int t = 0; t < tiles_per_block; t++) {
        if (t + 1 < tiles_per_block)
            __pipeline_memcpy_async(&buf[(t + 1) & 1][threadIdx.x], &base[(t + 1) * T + threadIdx.x], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        float4 v = buf[t & 1][(threadIdx.x + 1) % T];
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[blockIdx.x * T + threadIdx.x] = acc;
}
extern "C" __global__ void cg_memcpy_async(const float *in, float *out, int n_per_block)
{
    extern __shared__ float sm[];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, sm, in + (size_t)blockIdx.x * n_per_block, sizeof(float) * n_per_block);
    cg::wait(block);
    float s = 0.0f;
    for (int i = threadIdx.x; i < n_per_block; i += blockDim.x) s += sm[n_per_block - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
