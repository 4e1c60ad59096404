// basics.cu — test kernel for the PTX front end (globals, constants, a .func
// with a return value, call sequences, loops, atomics, shuffles, half types).
// PTX: nvcc -ptx -arch=sm_80 basics.cu -o basics_sm80.ptx; -G gives basics_debug_sm80.ptx
#include <cuda_fp16.h>
__device__ float gtab[4] = {1.f, 2.f, 3.f, 4.f};
__constant__ int ctab[8];
__device__ __noinline__ float helper(float x, int y) { return x * y + gtab[y & 3]; }
extern "C" __global__ void __launch_bounds__(256, 2) k1(const float* __restrict__ a, float* b, int n, double d) {
  __shared__ float sm[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (i < n) v = a[i];
  sm[threadIdx.x] = v;
  __syncthreads();
  for (int k = 0; k < n; k++) v += sinf(sm[(threadIdx.x + k) & 255]) * __expf(v) + helper(v, k) + ctab[k&7];
  v += __shfl_down_sync(0xffffffff, v, 1);
  unsigned m = __ballot_sync(0xffffffff, v > 0);
  atomicAdd(b, v);
  atomicMax((int*)b + 1, (int)m);
  double dd = d * v; dd = sqrt(dd);
  b[i] = (float)dd + __popc(m) + __clz(m) + __brev(m);
  __half h = __float2half(v); h = __hmul(h, h); b[i+1] = __half2float(h);
  long long t = clock64(); b[i+2] = t;
}
