// grid_sum.cu — a grid-stride sum whose trip count is known only at run
// time, once under #pragma unroll 4 (nvcc: a remainder loop, then a body
// of four loads) and once under #pragma unroll 1 (one load per trip).
// The advisor may tell grid_sum_u1 to unroll its loop by 4, never
// grid_sum_u4, whose loop already issues 4 loads per iteration
// (tests/cli/advise_unroll.sh; docs/advisor.md, "Unrolling").
// grid_sum.sm_80.ptx is this file compiled with nvcc -ptx -arch=sm_80 -O3
// -lineinfo (CUDA 13.0), the .file names stripped of their folders;
// grid_sum_u4.launch.json and grid_sum_u1.launch.json run 32 blocks of 128
// threads over 34 elements each (2 trips of the remainder loop, 8 of the body of four).
// the launch's threads, a constant as in Kernel Tuner's reduction: nvcc then
// computes the trip count and splits off the remainder loop
#define STRIDE (32 * 128)

extern "C" __global__ void grid_sum_u4(const float *a, float *out, int n) {
  float s = 0.0f;
#pragma unroll 4
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += STRIDE)
    s += a[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

extern "C" __global__ void grid_sum_u1(const float *a, float *out, int n) {
  float s = 0.0f;
#pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += STRIDE)
    s += a[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
