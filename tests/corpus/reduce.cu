// reduce: the seven parallel reduction kernels K0..K6 of the classic CUDA
// reduction sequence (M. Harris, "Optimizing parallel reduction in CUDA"),
// which Sim et al. (PPoPP'12, GPUPerf) use as their case study. Each block
// writes the sum of its share of in[0..n) to out[blockIdx.x]; the sum of out
// is the sum of in. Integer data, so every version is exact.
// K0-K4 use dynamic shared memory of blockDim.x ints and need a power-of-two
// blockDim.x (K4: at least 64); K5 and K6 are instantiated for 256 threads.
//   reduce0  interleaved addressing, divergent branch on tid % (2s)
//   reduce1  interleaved addressing with strided index (bank conflicts, no divergence)
//   reduce2  sequential addressing
//   reduce3  first add during the global load (each block covers 2*blockDim)
//   reduce4  reduce3 with the last warp unrolled
//   reduce5  completely unrolled, block size a template parameter
//   reduce6  multiple elements per thread (grid-stride loop), as reduce5
// The unrolled last warp keeps each step's read and write apart with
// __syncwarp(): the original volatile-only form relies on lockstep warps,
// which Volta and later do not promise.

extern __shared__ int sdata[];

extern "C" __global__ void reduce0(const int *in, int *out, int n)
{
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned)n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce1(const int *in, int *out, int n)
{
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned)n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce2(const int *in, int *out, int n)
{
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned)n) ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce3(const int *in, int *out, int n)
{
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int sum = (i < (unsigned)n) ? in[i] : 0;
    if (i + blockDim.x < (unsigned)n)
        sum += in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sum;
}

// Last-warp reduction of sdata[0..64) into lane 0's return value.
__device__ static int warp_reduce(volatile int *sd, unsigned tid)
{
    int v = sd[tid] + sd[tid + 32];
    __syncwarp();
    sd[tid] = v;
    __syncwarp();
    for (unsigned off = 16; off > 0; off >>= 1) {
        v += sd[tid + off];
        __syncwarp();
        sd[tid] = v;
        __syncwarp();
    }
    return v;
}

extern "C" __global__ void reduce4(const int *in, int *out, int n)
{
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int sum = (i < (unsigned)n) ? in[i] : 0;
    if (i + blockDim.x < (unsigned)n)
        sum += in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        sum = warp_reduce(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sum;
}

// Shared tree of reduce5 and reduce6 once every thread holds its sum.
template <unsigned BS>
__device__ static void block_tree(int sum, int *out)
{
    unsigned tid = threadIdx.x;
    sdata[tid] = sum;
    __syncthreads();
    if (BS >= 512) { if (tid < 256) sdata[tid] = sum = sum + sdata[tid + 256]; __syncthreads(); }
    if (BS >= 256) { if (tid < 128) sdata[tid] = sum = sum + sdata[tid + 128]; __syncthreads(); }
    if (BS >= 128) { if (tid < 64)  sdata[tid] = sum = sum + sdata[tid + 64];  __syncthreads(); }
    if (tid < 32)
        sum = warp_reduce(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sum;
}

template <unsigned BS>
__device__ static void reduce5_impl(const int *in, int *out, int n)
{
    unsigned i = blockIdx.x * (BS * 2) + threadIdx.x;
    int sum = (i < (unsigned)n) ? in[i] : 0;
    if (i + BS < (unsigned)n)
        sum += in[i + BS];
    block_tree<BS>(sum, out);
}

template <unsigned BS>
__device__ static void reduce6_impl(const int *in, int *out, int n)
{
    unsigned i = blockIdx.x * (BS * 2) + threadIdx.x;
    unsigned grid_size = BS * 2 * gridDim.x;
    int sum = 0;
    while (i < (unsigned)n) {
        sum += in[i];
        if (i + BS < (unsigned)n)
            sum += in[i + BS];
        i += grid_size;
    }
    block_tree<BS>(sum, out);
}

extern "C" __global__ void reduce5(const int *in, int *out, int n)
{
    reduce5_impl<256>(in, out, n);
}

extern "C" __global__ void reduce6(const int *in, int *out, int n)
{
    reduce6_impl<256>(in, out, n);
}
