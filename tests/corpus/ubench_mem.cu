// ubench_mem: memory micro-benchmark in the style of Hong & Kim's
// coalesced/uncoalesced micro-benchmarks: each of n threads performs iters
// loads, each followed by one FMA. Load j of thread i reads
//     in[((i + j * T) * stride) mod len],  T = gridDim.x * blockDim.x,
// so stride 1 gives fully coalesced warps and a stride of 32 words or more
// gives one transaction per thread (uncoalesced). Unsigned 32-bit index
// arithmetic (wraps modulo 2^32 before the mod len).
extern "C" __global__ void ubench_mem(const float *in, float *out, int n, unsigned len,
                                      unsigned stride, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned T = gridDim.x * blockDim.x;
    if (i < (unsigned)n) {
        float acc = 0.0f;
        for (int j = 0; j < iters; ++j) {
            float v = in[((i + (unsigned)j * T) * stride) % len];
            acc = fmaf(acc, 0.5f, v);
        }
        out[i] = acc;
    }
}
