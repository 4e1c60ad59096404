// Rodinia style pathfinder: dynamic programming over rows with a shared "previous row" buffer
#define PBS 256
extern "C" __global__ void pathfinder(int iteration, const int *wall, const int *src, int *dst, int cols, int start_row)
{
    __shared__ int prev[PBS];
    __shared__ int result[PBS];
    int tx = threadIdx.x;
    int x = blockIdx.x * PBS + tx;
    prev[tx] = x < cols ? src[x] : 0x3fffffff;
    __syncthreads();
    for (int i = 0; i < iteration; i++) {
        int left = tx > 0 ? prev[tx - 1] : prev[tx];
        int right = tx < PBS - 1 ? prev[tx + 1] : prev[tx];
        int m = min(min(left, prev[tx]), right);
        result[tx] = x < cols ? m + wall[(start_row + i) * cols + x] : 0x3fffffff;
        __syncthreads();
        prev[tx] = result[tx];
        __syncthreads();
    }
    if (x < cols) dst[x] = prev[tx];
}
