// pairs.cu — 27 realistic kernels for the model check of
// tests/cli/model_pairs.sh (docs/models/warpsight.md) and the advisor's
// check of tests/cli/advise_corpus.sh (docs/advisor.md): stencils, SpMV
// scalar and vector, transposes naive/tiled/padded, histograms in shared and
// in global memory, reductions, atomics one per block and per element, dot
// products with a naive, a warp-aggregated and a block-privatised atomic,
// coalesced and uncoalesced copies, and a few compute kernels.  Written for
// warpsight; regen-ptx.sh rebuilds pairs.sm_75.ptx with nvcc -ptx
// -arch=sm_75 -O3 -lineinfo.

#define TILE 32

// --- memory access patterns -------------------------------------------------

// Each element read once, consecutive threads on consecutive words.
extern "C" __global__ void copy_coalesced(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// The same elements, but consecutive threads read words n/32 apart: every
// warp request touches 32 sectors.
extern "C" __global__ void copy_uncoalesced(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = n / 32;
  if (i < n) out[i] = in[(i % 32) * stride + i / 32];
}

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Random gather through an index array.
extern "C" __global__ void gather(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// --- stencils -----------------------------------------------------------------

extern "C" __global__ void stencil_1d(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 2 && i < n - 2)
    out[i] = 0.1f * in[i - 2] + 0.2f * in[i - 1] + 0.4f * in[i] + 0.2f * in[i + 1] +
             0.1f * in[i + 2];
}

extern "C" __global__ void stencil_2d(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1)
    out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] +
                              in[(y + 1) * w + x]) - in[y * w + x];
}

// --- sparse matrix-vector product (CSR) ----------------------------------------

// One thread per row.
extern "C" __global__ void spmv_scalar(const int *rowptr, const int *col, const float *val,
                                       const float *x, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) s += val[j] * x[col[j]];
    y[r] = s;
  }
}

// One warp per row, lanes stride over the row, shuffle reduction.
extern "C" __global__ void spmv_vector(const int *rowptr, const int *col, const float *val,
                                       const float *x, float *y, int rows) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int r = t / 32, lane = t % 32;
  if (r < rows) {
    float s = 0;
    for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += 32) s += val[j] * x[col[j]];
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[r] = s;
  }
}

// --- transposes (n x n, n a multiple of 32; blocks of 32 x 8) -----------------

extern "C" __global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8) out[x * n + y + k] = in[(y + k) * n + x];
}

extern "C" __global__ void transpose_tiled(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8) tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8) out[(y + k) * n + x] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" __global__ void transpose_padded(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8) tile[threadIdx.y + k][threadIdx.x] = in[(y + k) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8) out[(y + k) * n + x] = tile[threadIdx.x][threadIdx.y + k];
}

// --- histograms (256 bins in shared memory, then merged) ------------------------

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i] & 255u], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// Every element's bin updated in global memory directly (no privatisation).
extern "C" __global__ void histogram_global(const unsigned *in, unsigned *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[in[i] & 255u], 1u);
}

// --- reductions and atomics ------------------------------------------------------

extern "C" __global__ void reduce_tree(const float *in, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o /= 2) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shuffle(const float *in, float *out, int n) {
  __shared__ float w[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) w[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

// A block sums its elements, then one atomic per block.
extern "C" __global__ void atomic_per_block(const float *in, float *sum, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o /= 2) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}

// Every element added with its own atomic to the same address.
extern "C" __global__ void atomic_per_element(const float *in, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

// Dot products: every product added to the result with its own atomic ...
extern "C" __global__ void dot_atomic_naive(const float *a, const float *b, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, a[i] * b[i]);
}

// ... summed within the warp first, one atomic per warp ...
extern "C" __global__ void dot_atomic_warp(const float *a, const float *b, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] * b[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, v);
}

// ... or summed per block in shared memory, one atomic per block.
extern "C" __global__ void dot_atomic_block(const float *a, const float *b, float *sum, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o /= 2) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, s[0]);
}

// --- matrix products (n x n, blocks 16 x 16) ----------------------------------------

extern "C" __global__ void matmul_naive(const float *a, const float *b, float *c, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}

extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n) {
  __shared__ float as[16][16], bs[16][16];
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  float s = 0;
  for (int t = 0; t < n; t += 16) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < 16; k++) s += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = s;
}

// --- compute ------------------------------------------------------------------------

extern "C" __global__ void sfu_heavy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    for (int k = 0; k < 16; k++) v = __sinf(v) + __expf(-v);
    out[i] = v;
  }
}

extern "C" __global__ void fp64_poly(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double x = in[i], s = 0;
    for (int k = 0; k < 16; k++) s = s * x + 1.0 / (k + 1);
    out[i] = s;
  }
}

// Half of each warp takes a long branch.
extern "C" __global__ void divergent(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    if (threadIdx.x % 2)
      for (int k = 0; k < 32; k++) v = v * 1.0001f + 0.5f;
    out[i] = v;
  }
}
