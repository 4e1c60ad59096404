// PolyBench-GPU style covariance: column means, centring, covariance (upper triangle loop)
extern "C" __global__ void cov_mean(int m, int n, float float_n, float *mean, const float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++) s += data[i * m + j];
        mean[j] = s / float_n;
    }
}
extern "C" __global__ void cov_reduce(int m, int n, const float *mean, float *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m) data[i * m + j] -= mean[j];
}
extern "C" __global__ void cov_covar(int m, int n, float *symmat, const float *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < m) {
        for (int j2 = j1; j2 < m; j2++) {
            float s = 0.0f;
            for (int i = 0; i < n; i++) s += data[i * m + j1] * data[i * m + j2];
            symmat[j1 * m + j2] = s;
            symmat[j2 * m + j1] = s;
        }
    }
}
