// matMul_gpu_uncoalesced — the naive product with the thread-to-element map
// transposed: row = x index, col = y index.  Consecutive threads of a warp
// read A n floats apart (one transaction each) and write C n floats apart.
extern "C" __global__ void matMul_gpu_uncoalesced(float *a, float *b, float *c, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float sum = 0.0f;
    // Not unrolled: the measured build's 2,973 warp instructions per warp at
    // n = 256 are ~11.6 per k step, a rolled loop (docs/validation.md).
#pragma unroll 1
    for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}
