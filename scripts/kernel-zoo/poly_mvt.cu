// PolyBench-GPU style mvt: x1 += A*y1 (rows), x2 += A^T*y2 (columns); double precision
extern "C" __global__ void mvt_k1(int n, const double *a, double *x1, const double *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = x1[i];
        for (int j = 0; j < n; j++) s += a[i * n + j] * y1[j];
        x1[i] = s;
    }
}
extern "C" __global__ void mvt_k2(int n, const double *a, double *x2, const double *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = x2[i];
        for (int j = 0; j < n; j++) s += a[j * n + i] * y2[j];
        x2[i] = s;
    }
}
