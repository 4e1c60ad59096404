// SHOC style stencil2d: 9-point weighted stencil, double precision, shared halo tile
#define TX 32
#define TY 8
extern "C" __global__ void stencil2d(const double *in, double *out, int rows, int cols, double wc, double wa, double wd)
{
    __shared__ double sh[TY + 2][TX + 2];
    int gx = blockIdx.x * TX + threadIdx.x + 1, gy = blockIdx.y * TY + threadIdx.y + 1;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    bool in_range = gx < cols - 1 && gy < rows - 1;
    if (in_range) {
        sh[ly][lx] = in[gy * cols + gx];
        if (threadIdx.x == 0) sh[ly][0] = in[gy * cols + gx - 1];
        if (threadIdx.x == TX - 1 || gx == cols - 2) sh[ly][lx + 1] = in[gy * cols + gx + 1];
        if (threadIdx.y == 0) {
            sh[0][lx] = in[(gy - 1) * cols + gx];
            if (threadIdx.x == 0) sh[0][0] = in[(gy - 1) * cols + gx - 1];
            if (threadIdx.x == TX - 1 || gx == cols - 2) sh[0][lx + 1] = in[(gy - 1) * cols + gx + 1];
        }
        if (threadIdx.y == TY - 1 || gy == rows - 2) {
            sh[ly + 1][lx] = in[(gy + 1) * cols + gx];
            if (threadIdx.x == 0) sh[ly + 1][0] = in[(gy + 1) * cols + gx - 1];
            if (threadIdx.x == TX - 1 || gx == cols - 2) sh[ly + 1][lx + 1] = in[(gy + 1) * cols + gx + 1];
        }
    }
    __syncthreads();
    if (in_range)
        out[gy * cols + gx] = wc * sh[ly][lx]
            + wa * (sh[ly - 1][lx] + sh[ly + 1][lx] + sh[ly][lx - 1] + sh[ly][lx + 1])
            + wd * (sh[ly - 1][lx - 1] + sh[ly - 1][lx + 1] + sh[ly + 1][lx - 1] + sh[ly + 1][lx + 1]);
}
