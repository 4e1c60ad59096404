// PolyBench-GPU style bicg: s = r^T A (column per thread), q = A p (row per thread)
extern "C" __global__ void bicg_k1(const float *A, const float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float acc = 0.0f;
        for (int i = 0; i < nx; i++) acc += r[i] * A[i * ny + j];
        s[j] = acc;
    }
}
extern "C" __global__ void bicg_k2(const float *A, const float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float acc = 0.0f;
        for (int j = 0; j < ny; j++) acc += A[i * ny + j] * p[j];
        q[i] = acc;
    }
}
