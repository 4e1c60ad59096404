// spmv_csr: y = A x for a sparse matrix in CSR form (row_ptr[nrows + 1],
// col[nnz], val[nnz]), one row per thread ("scalar" CSR kernel). Irregular,
// data-dependent loads of x; row lengths may differ between threads.
extern "C" __global__ void spmv_csr(const int *row_ptr, const int *col, const float *val,
                                    const float *x, float *y, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        float sum = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
            sum = fmaf(val[k], x[col[k]], sum);
        y[r] = sum;
    }
}
