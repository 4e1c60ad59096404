// PolyBench-GPU style syrk: C = alpha*A*A^T + beta*C, 2-D grid
extern "C" __global__ void syrk(int n, int m, float alpha, float beta, const float *a, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float s = c[i * n + j] * beta;
        for (int k = 0; k < m; k++) s += alpha * a[i * m + k] * a[j * m + k];
        c[i * n + j] = s;
    }
}
