// l2sum.cu — the L2 bandwidth kernel of the public gpu-l2-cache benchmark
// (te42kyfo/gpu-benches), written for warpsight from its description
// (docs/validation.md, "Public microbenchmarks"): blocks of 1024 threads;
// block b reads `iters` chunks of 2 x 1024 doubles, chunk number
// run x i + (b mod run), so the `run` blocks b, b + run, ... read the same
// data and the whole grid's footprint is run x iters x 16 KiB.  Bytes
// counted as the benchmark counts them: iters x 2 x 1024 x 8 per block (the
// loads requested), times the grid.  The sum is stored only when it equals
// a value it never takes, so nothing is written.
// nvcc -ptx -arch=sm_80 -O3 (regen-ptx.sh).

extern "C" __global__ void l2_sum(double *out, const double *__restrict__ b, int run,
                                  int iters) {
  double s = 0;
  for (int i = 0; i < iters; i++) {
    long long chunk = (long long)run * i + blockIdx.x % run;
    long long k = chunk * 2 * blockDim.x + threadIdx.x;
    s += b[k] * b[k + blockDim.x];
  }
  s *= 1.3;
  if (s == 23.12) out[threadIdx.x] += s;
}
