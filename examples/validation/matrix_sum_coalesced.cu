// matrix_sum_coalesced — C = A + B for n x n row-major matrices, one element
// per thread.  x (threadIdx.x) selects the COLUMN, so consecutive threads of
// a warp read consecutive floats of a row (coalesced).
extern "C" __global__ void matrix_sum_coalesced(float *a, float *b, float *c, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    int idx = y * n + x;
    c[idx] = a[idx] + b[idx];
  }
}
