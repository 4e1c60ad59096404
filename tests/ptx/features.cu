// features.cu — wide coverage for the PTX front end: printf/assert (extern
// .func), function pointers (.callprototype), recursion, textures, wmma,
// cp.async, atomics, warp intrinsics, fp16/bf16, fp64 math.
// PTX: nvcc -ptx -arch=sm_XX features.cu -o features_smXX.ptx (75, 80, 86, 90)
#include <cstdio>
#include <cassert>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern __shared__ float dyn[];
typedef float (*fn_t)(float);
__device__ float f1(float x) { return x + 1; }
__device__ float f2(float x) { return x * 2; }
__device__ fn_t tab[2] = {f1, f2};
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__global__ void reduce(const float *in, float *out, int n) {
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) dyn[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) { float t = 0; for (int w = 0; w < blockDim.x / 32; w++) t += dyn[w]; atomicAdd(out, t); }
}
__global__ void misc(int *a, double *d, __half2 *h, __nv_bfloat16 *b, cudaTextureObject_t tex, int n, fn_t *ft) {
  int i = threadIdx.x;
  if (i == 0) printf("hello %d %f\n", n, d[0]);
  assert(n > 0);
  a[i] = a[i] / n + a[i] % 7 + fact(n) + __match_any_sync(0xffffffff, a[i]);
  unsigned u = (unsigned)a[i]; a[i+1] = u / (unsigned)n + __funnelshift_l(u, u, 3) + __byte_perm(u, 0, 0x3210) + __dp4a(u, u, 0u) + __ffs(u) + __fns(u, 0, 1);
  d[i] = sin(d[i]) + exp(d[i]) + log(d[i]) + pow(d[i], 1.5) + d[i] / d[i+1] + rsqrt(d[i]) + __ddiv_rn(d[i], 3.0);
  h[i] = __hfma2(h[i], h[i], h[i]);
  b[i] = __hadd(b[i], b[i+1]);
  float4 t = tex2D<float4>(tex, 0.5f, 0.5f);
  a[i+2] = (int)t.x + atomicCAS(a, 1, 2) + atomicExch(a+1, 3) + atomicInc((unsigned*)a+2, 5) + __syncthreads_count(i > 3) + __syncthreads_or(i>1) + __all_sync(0xffffffff, i) + __activemask();
  a[i+3] = (int)tab[i & 1]((float)i) + (int)(*ft)(1.0f);
  __threadfence(); __threadfence_block(); __threadfence_system();
  a[i+4] = __ldg(a+5) + __ldcs(a+6) + __ldcg(a+7); __stcs(a+8, 1); __stwt(a+9, 2);
  long long v = atomicAdd((unsigned long long*)d, 1ULL); a[i+5] = (int)v + __brevll(v) + __popcll(v) + __clzll(v);
  cg::grid_group g = cg::this_grid(); (void)g;
  __nanosleep(100);
  unsigned m; asm volatile("mov.u32 %0, %%smid;" : "=r"(m)); a[i+6] = m;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(m)); a[i+7] = m;
}
__global__ void tc(const half *a, const half *b, float *c, float4 *dst, const float4 *src) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  __shared__ float4 s[32];
  __pipeline_memcpy_async(&s[threadIdx.x], &src[threadIdx.x], sizeof(float4));
  __pipeline_commit(); __pipeline_wait_prior(0);
  dst[threadIdx.x] = s[threadIdx.x];
}
#if __CUDA_ARCH__ >= 800
__global__ void red80(int *a) { a[threadIdx.x] = __reduce_add_sync(0xffffffff, a[threadIdx.x]) + __reduce_max_sync(0xffffffff, (unsigned)a[1]); }
#endif
