// warp_reduce: block sums with warp shuffles. Each warp folds its 32 values
// with __shfl_down_sync (offsets 16, 8, 4, 2, 1), lane 0 stores the warp
// total in shared memory, and warp 0 folds those the same way; out[b] is
// block b's sum of in[0..n). blockDim.x must be a multiple of 32 (at most
// 1024). Lanes past n contribute 0.
extern "C" __global__ void warp_reduce(const float *in, float *out, int n)
{
    __shared__ float warp_sums[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = (i < n) ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}
