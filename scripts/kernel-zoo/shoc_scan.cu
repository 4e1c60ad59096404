// SHOC style scan: block-level inclusive scan with warp shuffles (__shfl_up_sync) and a shared carry
extern "C" __global__ void scan_block(const unsigned *in, unsigned *out, unsigned *block_sums, int n)
{
    __shared__ unsigned wsum[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned v = i < n ? in[i] : 0u;
    for (int off = 1; off < 32; off <<= 1) {
        unsigned t = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += t;
    }
    if (lane == 31) wsum[w] = v;
    __syncthreads();
    if (w == 0) {
        unsigned t = lane < (int)(blockDim.x >> 5) ? wsum[lane] : 0u;
        for (int off = 1; off < 32; off <<= 1) {
            unsigned u = __shfl_up_sync(0xffffffffu, t, off);
            if (lane >= off) t += u;
        }
        wsum[lane] = t;
    }
    __syncthreads();
    if (w > 0) v += wsum[w - 1];
    if (i < n) out[i] = v;
    if (threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = v;
}
