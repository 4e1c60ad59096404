// SHOC style reduction: grid-stride accumulate, warp __shfl_down_sync tree, one partial per block (template)
template <typename T, int BLOCK>
__global__ void reduce_shfl(const T *in, T *out, int n)
{
    __shared__ T warp_sums[BLOCK / 32];
    T s = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) s += in[i];
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) warp_sums[w] = s;
    __syncthreads();
    if (w == 0) {
        s = lane < BLOCK / 32 ? warp_sums[lane] : 0;
        for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) out[blockIdx.x] = s;
    }
}
template __global__ void reduce_shfl<float, 256>(const float *, float *, int);
template __global__ void reduce_shfl<double, 256>(const double *, double *, int);
