// vecadd: c[i] = a[i] + b[i].
// The smallest streaming kernel: two coalesced loads, one add, one coalesced
// store per thread. Baseline for every model (Hong & Kim's "memory bound"
// case with no computation to hide latency).
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
