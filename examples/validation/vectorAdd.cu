// vectorAdd — c[i] = a[i] + b[i], one element per thread, 1-D grid.
// Validation kernel for the Amarís et al. data set (docs/validation.md):
// launched with grid = ceil(n / block), as in data/validation/amaris-measured-dev.csv.
extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
