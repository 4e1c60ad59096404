// scan: work-efficient exclusive prefix sum (Blelloch up-sweep/down-sweep)
// of each block's 2 * blockDim.x elements of in, in dynamic shared memory
// (2 * blockDim.x ints). out[i] is the sum of the elements of i's block
// segment before i; sums[b] is block b's segment total. Elements past n
// count as 0. blockDim.x must be a power of two.
extern __shared__ int temp[];

extern "C" __global__ void scan(const int *in, int *out, int *sums, int n)
{
    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;
    temp[tid] = (base + tid < n) ? in[base + tid] : 0;
    temp[tid + blockDim.x] = (base + tid + (int)blockDim.x < n) ? in[base + tid + blockDim.x] : 0;

    int offset = 1;
    for (int d = blockDim.x; d > 0; d >>= 1) {   // up-sweep
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) {
        sums[blockIdx.x] = temp[m - 1];
        temp[m - 1] = 0;
    }
    for (int d = 1; d < m; d *= 2) {             // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + tid < n)
        out[base + tid] = temp[tid];
    if (base + tid + (int)blockDim.x < n)
        out[base + tid + blockDim.x] = temp[tid + blockDim.x];
}
