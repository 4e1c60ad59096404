// bankconf: Kothapalli et al. (HiPC'09) shared-memory bank-conflict
// experiment. Each block copies its 1024-float slice of in into shared
// memory, then thread t reads s[(t * bank + k) mod 1024] for k = 0..iters-1
// and sums them. bank = 1 is conflict-free; an even bank stride makes
// threads of a warp collide in the same bank (bank = 32: 32-way); an odd
// stride such as 33 is conflict-free again.
// in holds gridDim.x * 1024 floats; threads with global index >= n read
// but do not write.
#define SLICE 1024

extern "C" __global__ void bankconf(const float *in, float *out, int n, int bank, int iters)
{
    __shared__ float s[SLICE];
    for (int j = threadIdx.x; j < SLICE; j += blockDim.x)
        s[j] = in[blockIdx.x * SLICE + j];
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < iters; ++k)
        acc += s[(threadIdx.x * bank + k) & (SLICE - 1)];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = acc;
}
