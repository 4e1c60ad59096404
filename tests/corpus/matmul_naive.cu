// matmul_naive: C = A * B with A m x k, B k x n, C m x n, all row-major;
// one thread per element of C, no shared memory.
// Stands for the naive matrix multiplication of Hong & Kim (and the
// untiled baseline of Sim et al.): A is read along rows (broadcast within a
// warp), B along columns (coalesced), k loads of each per thread.
extern "C" __global__ void matmul_naive(const float *A, const float *B, float *C,
                                        int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int t = 0; t < k; ++t)
            sum = fmaf(A[row * k + t], B[t * n + col], sum);
        C[row * n + col] = sum;
    }
}
