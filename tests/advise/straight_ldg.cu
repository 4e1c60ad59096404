// straight_ldg.cu — five independent __ldg loads interleaved with adds in
// straight-line code: no loop, so no advice may say to unroll one
// (tests/cli/advise_unroll.sh).  straight_ldg.sm_80.ptx is this file compiled
// with nvcc -ptx -arch=sm_80 -O3 -lineinfo (CUDA 13.0), the .file names
// stripped of their folders; straight_ldg.launch.json runs 64 blocks of 256.
extern "C" __global__ void straight_ldg(const float *__restrict__ a, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = __ldg(&a[i]);
  s += __ldg(&a[i + n]);
  s += __ldg(&a[i + 2 * n]);
  s += __ldg(&a[i + 3 * n]);
  s += __ldg(&a[i + 4 * n]);
  out[i] = s;
}
