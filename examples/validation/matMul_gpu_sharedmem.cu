// matMul_gpu_sharedmem — tiled C = A x B for n x n row-major matrices through
// shared memory, tile = block width T (square blocks; n a multiple of T).
// Each step loads a T x T tile of A and of B (coalesced: threadIdx.x walks a
// row), synchronises, and accumulates T products from shared memory.
// Shared memory: 2 * T * T floats, given as dynamic shared memory (the
// measured builds had it static, sized per tile width).
// The measured builds had T fixed at compile time and the k loop fully
// unrolled (their instructions per warp: ~35 per tile at T = 8); so T = 8,
// 16 and 32 (the data's block widths) get compile-time copies, any other
// width the rolled loop.
template <int T>
__device__ static float tiled(const float *a, const float *b, int n, float *As, float *Bs) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[ty * T + tx] = a[row * n + t * T + tx];
    Bs[ty * T + tx] = b[(t * T + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; k++) sum += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  return sum;
}

__device__ static float tiled_any(const float *a, const float *b, int n, float *As, float *Bs) {
  int T = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[ty * T + tx] = a[row * n + t * T + tx];
    Bs[ty * T + tx] = b[(t * T + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) sum += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  return sum;
}

extern "C" __global__ void matMul_gpu_sharedmem(float *a, float *b, float *c, int n) {
  extern __shared__ float tiles[];
  int T = blockDim.x;
  float *As = tiles, *Bs = tiles + T * T;
  float sum;
  switch (T) {
  case 8: sum = tiled<8>(a, b, n, As, Bs); break;
  case 16: sum = tiled<16>(a, b, n, As, Bs); break;
  case 32: sum = tiled<32>(a, b, n, As, Bs); break;
  default: sum = tiled_any(a, b, n, As, Bs); break;
  }
  c[(blockIdx.y * T + threadIdx.y) * n + blockIdx.x * T + threadIdx.x] = sum;
}
