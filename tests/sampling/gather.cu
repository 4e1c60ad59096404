// gather: out[i] = table[idx[i]] for n indices; random idx make the table
// reads scattered over the whole table (sampling tests, tests/cli/
// profile_sampling_dram.sh).
extern "C" __global__ void gather(const int *idx, const float *table, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[idx[i]];
}
