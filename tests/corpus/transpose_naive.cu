// transpose_naive: out (width x height) = transpose of in (height x width),
// row-major. Reads are coalesced, writes stride by height words (the
// uncoalesced half of the classic transpose pair).
extern "C" __global__ void transpose_naive(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[x * height + y] = in[y * width + x];
}
