// histo_shared: 256-bin byte histogram with a private histogram per block
// in shared memory (shared-memory atomics), merged into the global bins
// with one global atomicAdd per non-empty bin. Grid-stride loop over the n
// bytes, so any grid size works. Stands for Kothapalli et al.'s
// shared-memory histogram. bins (256 u32) must start at zero.
#define NBINS 256

extern "C" __global__ void histo_shared(const unsigned char *data, unsigned *bins, int n)
{
    __shared__ unsigned h[NBINS];
    for (int j = threadIdx.x; j < NBINS; j += blockDim.x)
        h[j] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    for (int j = threadIdx.x; j < NBINS; j += blockDim.x)
        if (h[j] != 0)
            atomicAdd(&bins[j], h[j]);
}
