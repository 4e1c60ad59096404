// PolyBench-GPU style 2mm: tmp = alpha*A*B ; D = tmp*C + beta*D (two kernels, one thread per element)
extern "C" __global__ void mm2_k1(int ni, int nj, int nk, float alpha, const float *A, const float *B, float *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float s = 0.0f;
        for (int k = 0; k < nk; k++) s += alpha * A[i * nk + k] * B[k * nj + j];
        tmp[i * nj + j] = s;
    }
}
extern "C" __global__ void mm2_k2(int ni, int nl, int nj, float beta, const float *tmp, const float *C, float *D)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nl) {
        float s = D[i * nl + j] * beta;
        for (int k = 0; k < nj; k++) s += tmp[i * nj + k] * C[k * nl + j];
        D[i * nl + j] = s;
    }
}
