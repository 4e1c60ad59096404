// Rodinia style LUD: the diagonal block factorisation, one 16x16 block in shared memory
#define LB 16
extern "C" __global__ void lud_diagonal(float *m, int dim, int offset)
{
    __shared__ float sh[LB][LB];
    int tx = threadIdx.x;
    int base = offset * dim + offset;
    for (int i = 0; i < LB; i++) sh[i][tx] = m[base + i * dim + tx];
    __syncthreads();
    for (int i = 0; i < LB - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++) sh[tx][i] -= sh[tx][j] * sh[j][i];
            sh[tx][i] /= sh[i][i];
        }
        __syncthreads();
        if (tx > i) {
            for (int j = 0; j < i + 1; j++) sh[i + 1][tx] -= sh[i + 1][j] * sh[j][tx];
        }
        __syncthreads();
    }
    for (int i = 1; i < LB; i++) m[base + i * dim + tx] = sh[i][tx];
}
