// Kernels for the memory-model tests (tests/memmodel/README.md), written
// for warpsight: each isolates one behaviour of the cache simulation, the
// read-only path, atomics or block sampling.

// conv2d: a plain 2-D convolution, one output per thread, the mask in
// global memory, zero outside the image.  Neighbouring rows are w floats
// apart, so the row pitch is the image width.
extern "C" __global__ void conv2d(const float *in, const float *mask, float *out, int r, int w,
                                  int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= w || row >= h) return;
  int mw = 2 * r + 1;
  float s = 0.0f;
  for (int i = -r; i <= r; i++)
    for (int j = -r; j <= r; j++) {
      int y = row + i, x = col + j;
      if (y >= 0 && y < h && x >= 0 && x < w) s += mask[(i + r) * mw + (j + r)] * in[y * w + x];
    }
  out[row * w + col] = s;
}

// table_sum: every thread sums k entries of a small read-only table (the
// same ones for all threads of a warp), through const __restrict__ so that
// nvcc emits ld.global.nc.
extern "C" __global__ void table_sum(const float *__restrict__ table, float *__restrict__ out,
                                     int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int j = 0; j < k; j++) s += table[(blockIdx.x + j) % k];
  out[i] = s;
}

// inc_atomic / inc_plain: c[i] += 1 with an atomic and without; inc_one:
// every thread increments c[0].
extern "C" __global__ void inc_atomic(int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[i], 1);
}
extern "C" __global__ void inc_plain(int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] += 1;
}
extern "C" __global__ void inc_one(int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[0], 1);
}

// idle_grid: only the first `busy` blocks work (each thread sums `iters`
// inputs, a block's own rows of `in`: busy x blockDim floats apart);
// every other block exits at once, as a tuned grid that over-covers its
// problem does.
extern "C" __global__ void idle_grid(const float *in, float *out, int busy, int iters) {
  if (blockIdx.x >= busy) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < iters; k++) s += in[(k * busy + blockIdx.x) * blockDim.x + threadIdx.x];
  out[i] = s;
}

// array_add<float>: a C++ template kernel, named in PTX by its mangled name
// (_Z9array_addIfEvPKT_S2_PS0_i); validate and predict accept
// "array_add<float>".
template <typename T>
__global__ void array_add(const T *a, const T *b, T *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
template __global__ void array_add<float>(const float *, const float *, float *, int);
