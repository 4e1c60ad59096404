// matmul_tiled: C = A * B (A m x k, B k x n, C m x n, row-major) with
// TILE x TILE shared-memory tiles, the shape of Hong & Kim Figure 12:
// an outer loop over tiles, two global loads into two shared tiles,
// __syncthreads, an inner k loop over the tile, __syncthreads.
// Sizes need not be multiples of TILE: loads outside A or B store 0 into the
// tile, so the inner loop is the same for every thread.
#define TILE 16

extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C,
                                        int m, int n, int k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t0 = 0; t0 < k; t0 += TILE) {
        As[ty][tx] = (row < m && t0 + tx < k) ? A[row * k + t0 + tx] : 0.0f;
        Bs[ty][tx] = (t0 + ty < k && col < n) ? B[(t0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int t = 0; t < TILE; ++t)
            sum = fmaf(As[ty][t], Bs[t][tx], sum);
        __syncthreads();
    }
    if (row < m && col < n)
        C[row * n + col] = sum;
}
