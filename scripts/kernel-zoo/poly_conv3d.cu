// PolyBench-GPU style convolution-3d: 3x3x3 weighted stencil, one i-plane per launch
extern "C" __global__ void conv3d(int ni, int nj, int nk, const float *A, float *B, int i)
{
    const float c11 = +2, c21 = +5, c31 = -8, c12 = -3, c22 = +6, c32 = -9, c13 = +4, c23 = +7, c33 = +10;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1 && k > 0 && k < nk - 1) {
#define IX(a, b, c) ((a) * (nj * nk) + (b) * nk + (c))
        B[IX(i, j, k)] = c11 * A[IX(i - 1, j - 1, k - 1)] + c13 * A[IX(i + 1, j - 1, k - 1)]
                       + c21 * A[IX(i - 1, j - 1, k - 1)] + c23 * A[IX(i + 1, j - 1, k - 1)]
                       + c31 * A[IX(i - 1, j - 1, k - 1)] + c33 * A[IX(i + 1, j - 1, k - 1)]
                       + c12 * A[IX(i, j - 1, k)] + c22 * A[IX(i, j, k)] + c32 * A[IX(i, j + 1, k)]
                       + c11 * A[IX(i - 1, j - 1, k + 1)] + c13 * A[IX(i + 1, j - 1, k + 1)]
                       + c21 * A[IX(i - 1, j, k + 1)] + c23 * A[IX(i + 1, j, k + 1)]
                       + c31 * A[IX(i - 1, j + 1, k + 1)] + c33 * A[IX(i + 1, j + 1, k + 1)];
#undef IX
    }
}
