// stream.cu — streaming kernels written for warpsight from the formulas of
// the public cuda-stream benchmark (te42kyfo/gpu-benches, docs/validation.md,
// "Public microbenchmarks"): one double per thread, n elements, grid
// n / blockDim.x + 1.  Bytes counted as the benchmark counts them: streams x
// n x 8 (init 1 store stream, read 1 load, scale 1 + 1, triad 2 + 1, the
// stencils 1 load stream (neighbours reused) + 1 store).
// nvcc -ptx -arch=sm_80 -O3 (regen-ptx.sh).

extern "C" __global__ void stream_init(double *a, unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.23;
}

// Reads b; the store never happens for the data written (0.23), but the
// compiler cannot drop the load.
extern "C" __global__ void stream_read(double *a, const double *__restrict__ b,
                                       unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = b[i];
  if (v == 123.33) a[i] = v;
}

extern "C" __global__ void stream_scale(double *a, const double *__restrict__ b,
                                        unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.2 * b[i];
}

extern "C" __global__ void stream_triad(double *a, const double *__restrict__ b,
                                        const double *__restrict__ c, unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.2 * b[i] + c[i];
}

extern "C" __global__ void stream_stencil3(double *a, const double *__restrict__ b,
                                           unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i == 0 || i + 1 >= n) return;
  a[i] = 0.5 * b[i - 1] - b[i] + 0.5 * b[i + 1];
}

extern "C" __global__ void stream_stencil5(double *a, const double *__restrict__ b,
                                           unsigned long long n) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < 2 || i + 2 >= n) return;
  a[i] = 0.25 * (b[i - 2] + b[i - 1]) - b[i] + 0.5 * (b[i + 1] + b[i + 2]);
}
