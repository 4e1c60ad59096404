// histo_atomic: histogram with one global atomicAdd per element:
// bins[data[i] % nbins] += 1. Contended global atomics (many threads of a
// warp hit the same few addresses). bins (nbins u32) must start at zero.
extern "C" __global__ void histo_atomic(const unsigned *data, unsigned *bins, int n, unsigned nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i] % nbins], 1u);
}
