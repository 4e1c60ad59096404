// PolyBench-GPU style gesummv: y = alpha*A*x + beta*B*x
extern "C" __global__ void gesummv(int n, float alpha, float beta, const float *A, const float *B,
                                   const float *x, float *y, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f, u = 0.0f;
        for (int j = 0; j < n; j++) {
            t += A[i * n + j] * x[j];
            u += B[i * n + j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * u;
    }
}
