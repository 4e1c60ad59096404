// matMul_gpu_sharedmem — tiled C = A x B for n x n row-major matrices through
// shared memory, tile = block width T (square blocks; n a multiple of T).
// Each step loads a T x T tile of A and of B (coalesced: threadIdx.x walks a
// row), synchronises, and accumulates T products from shared memory.
// Shared memory: 2 * T * T floats, given as dynamic shared memory (the
// measured builds had it static, sized per tile width).
extern "C" __global__ void matMul_gpu_sharedmem(float *a, float *b, float *c, int n) {
  extern __shared__ float tiles[];
  int T = blockDim.x;
  float *As = tiles, *Bs = tiles + T * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[ty * T + tx] = a[row * n + t * T + tx];
    Bs[ty * T + tx] = b[(t * T + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) sum += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  c[row * n + col] = sum;
}
