// gridstride.cu — grid-stride streaming kernels written for warpsight from
// the formulas of the older cuda-stream table in the public gpu-benches
// README (a Tesla V100 PCIe; docs/validation.md, "Public microbenchmarks"):
// each thread walks the n doubles with the grid's stride.  Bytes counted as
// the benchmark counts them: streams x n x 8 (init 1, sum1 1, dot 2, tdot 3,
// scale 2, triad 3, sch_triad 4).  The sums are stored only when they equal a
// value they never take, so the loads cannot be dropped and nothing is written.
// nvcc -ptx -arch=sm_80 -O3 (regen-ptx.sh).

#define GRID_STRIDE(i, n)                                                        \
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; \
       i < (n); i += (unsigned long long)gridDim.x * blockDim.x)

extern "C" __global__ void gs_init(double *a, unsigned long long n) {
  GRID_STRIDE(i, n) a[i] = 0.1;
}

extern "C" __global__ void gs_sum1(double *a, const double *__restrict__ b, unsigned long long n) {
  double s = 0;
  GRID_STRIDE(i, n) s += b[i];
  if (s == 123.33) a[threadIdx.x] = s;
}

extern "C" __global__ void gs_dot(double *a, const double *__restrict__ b,
                                  const double *__restrict__ c, unsigned long long n) {
  double s = 0;
  GRID_STRIDE(i, n) s += b[i] * c[i];
  if (s == 123.33) a[threadIdx.x] = s;
}

extern "C" __global__ void gs_tdot(double *a, const double *__restrict__ b,
                                   const double *__restrict__ c, const double *__restrict__ d,
                                   unsigned long long n) {
  double s = 0;
  GRID_STRIDE(i, n) s += b[i] * c[i] * d[i];
  if (s == 123.33) a[threadIdx.x] = s;
}

extern "C" __global__ void gs_scale(double *a, const double *__restrict__ b, unsigned long long n) {
  GRID_STRIDE(i, n) a[i] = 0.2 * b[i];
}

extern "C" __global__ void gs_triad(double *a, const double *__restrict__ b,
                                    const double *__restrict__ c, unsigned long long n) {
  GRID_STRIDE(i, n) a[i] = b[i] + 0.2 * c[i];
}

extern "C" __global__ void gs_schtriad(double *a, const double *__restrict__ b,
                                       const double *__restrict__ c, const double *__restrict__ d,
                                       unsigned long long n) {
  GRID_STRIDE(i, n) a[i] = b[i] + c[i] * d[i];
}
