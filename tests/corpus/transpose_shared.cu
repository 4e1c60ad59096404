// transpose_shared: the same transpose through a 32 x 33 shared tile
// (padded by one column so the column-wise reads hit 32 different banks).
// Launch with blockDim (32, 8); each thread moves 4 elements. Both the global
// reads and the global writes are coalesced.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_shared(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;   // column of out = row of in
    y = blockIdx.x * TILE + threadIdx.y;   // row of out = column of in
    for (int j = 0; j < TILE; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
