// matMul_gpu_sharedmem_uncoalesced — the tiled product with threadIdx.x and
// threadIdx.y swapped: consecutive threads of a warp walk a COLUMN of each
// tile, so global loads and the store of C are n floats apart (uncoalesced)
// and shared accesses are T words apart (bank conflicts).
// Shared memory: 2 * T * T floats, dynamic; compile-time copies for T = 8, 16
// and 32 with the k loop unrolled (see matMul_gpu_sharedmem.cu).
template <int T>
__device__ static float tiled(const float *a, const float *b, int n, float *As, float *Bs) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * T + tx, col = blockIdx.y * T + ty;
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[tx * T + ty] = a[row * n + t * T + ty];
    Bs[tx * T + ty] = b[(t * T + tx) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; k++) sum += As[tx * T + k] * Bs[k * T + ty];
    __syncthreads();
  }
  return sum;
}

__device__ static float tiled_any(const float *a, const float *b, int n, float *As, float *Bs) {
  int T = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * T + tx, col = blockIdx.y * T + ty;
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[tx * T + ty] = a[row * n + t * T + ty];
    Bs[tx * T + ty] = b[(t * T + tx) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) sum += As[tx * T + k] * Bs[k * T + ty];
    __syncthreads();
  }
  return sum;
}

extern "C" __global__ void matMul_gpu_sharedmem_uncoalesced(float *a, float *b, float *c, int n) {
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
  c[(blockIdx.x * T + threadIdx.x) * n + blockIdx.y * T + threadIdx.y] = sum;
}
