// matmul_tiled: P = M * N, the tiled matrix multiplication of Hong & Kim
// (ISCA'09) Figure 12, in their example's configuration: 80 blocks of 128
// threads, and an outer loop that runs 3 times.
//
// Figure 12 uses square BLOCKSIZE x BLOCKSIZE tiles, one element of each
// tile per thread; 128 threads cannot form a square, so this version uses
// 16 x 8 blocks: each block computes an 8-row x 16-column tile of P, and the
// k dimension advances 8 at a time. Per outer iteration a thread makes the
// figure's two global loads into two shared tiles (Nsub: all 128 threads,
// 8 x 16; Msub: the 64 threads with tx < 8, 8 x 8), __syncthreads, the inner
// k loop, __syncthreads.
//
// matmul_tiled.launch.json: M is 64 x 24, N is 24 x 160, P is 64 x 160
// (row-major) -> grid (160/16, 64/8) = (10, 8) = 80 blocks, 24/8 = 3 outer
// iterations. Sizes must be multiples of the tile (as in the paper's code).
#define TX 16   // columns of a P tile = blockDim.x
#define TY 8    // rows of a P tile = blockDim.y = k step

extern "C" __global__ void matmul_tiled(const float *M, const float *N, float *P,
                                        int wM, int wN)
{
    __shared__ float Msub[TY][TY];
    __shared__ float Nsub[TY][TX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TY + ty;
    int col = blockIdx.x * TX + tx;
    float subsum = 0.0f;

    for (int k0 = 0; k0 < wM; k0 += TY) {
        if (tx < TY)
            Msub[ty][tx] = M[row * wM + k0 + tx];
        Nsub[ty][tx] = N[(k0 + ty) * wN + col];
        __syncthreads();
        for (int k = 0; k < TY; ++k)
            subsum += Msub[ty][k] * Nsub[k][tx];
        __syncthreads();
    }
    P[row * wN + col] = subsum;
}
