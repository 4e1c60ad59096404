// matrix_sum_normal — C = A + B for n x n row-major matrices, one element per
// thread, 2-D grid of 2-D blocks.  x (threadIdx.x) selects the ROW, so
// consecutive threads of a warp walk down a column: addresses n floats apart,
// one memory transaction per distinct row (uncoalesced).
extern "C" __global__ void matrix_sum_normal(float *a, float *b, float *c, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    int idx = x * n + y;
    c[idx] = a[idx] + b[idx];
  }
}
