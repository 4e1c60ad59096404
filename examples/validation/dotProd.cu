// dotProd — per-block partial dot product: each thread multiplies its
// elements (grid-stride loop; one element per thread with grid = n / block),
// the block reduces the products with a shared-memory tree, thread 0 writes
// the block's partial sum to c[blockIdx.x].
// Shared memory: one float per thread, given as dynamic shared memory
// (blockDim.x * 4 bytes; the measured builds had it static, sized per block).
// The tree needs blockDim.x to be a power of two (64, 256, 1024 in the data).
extern "C" __global__ void dotProd(float *a, float *b, float *c, int n) {
  extern __shared__ float cache[];
  float temp = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    temp += a[i] * b[i];
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[blockIdx.x] = cache[0];
}
