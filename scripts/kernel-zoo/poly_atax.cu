// PolyBench-GPU style atax: tmp = A*x (row per thread), y = A^T*tmp (column per thread)
extern "C" __global__ void atax_k1(const float *A, const float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float s = 0.0f;
        for (int j = 0; j < ny; j++) s += A[i * ny + j] * x[j];
        tmp[i] = s;
    }
}
extern "C" __global__ void atax_k2(const float *A, float *y, const float *tmp, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float s = 0.0f;
        for (int i = 0; i < nx; i++) s += A[i * ny + j] * tmp[i];
        y[j] = s;
    }
}
