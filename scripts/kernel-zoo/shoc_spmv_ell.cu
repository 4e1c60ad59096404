// SHOC style SpMV, ELLPACK (column-major padded), one row per thread, x read through __ldg
extern "C" __global__ void spmv_ell(const float *__restrict__ val, const int *__restrict__ cols,
                                    const int *__restrict__ rowlen, const float *__restrict__ x,
                                    float *__restrict__ y, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        float s = 0.0f;
        int len = rowlen[r];
        for (int k = 0; k < len; k++) s += val[k * nrows + r] * __ldg(&x[cols[k * nrows + r]]);
        y[r] = s;
    }
}
