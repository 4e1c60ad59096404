// emu_async.cu — kernels of tests/unit/test_emu_async.c (asynchronous
// copies and mbarrier objects).  Generated PTX:
//   nvcc -arch=sm_80 -ptx emu_async.cu -o emu_async.sm_80.ptx
//   nvcc -arch=sm_90 -ptx emu_async.cu -o emu_async.sm_90.ptx
// (sm_80: mbarrier.test_wait loops; sm_90: try_wait.parity and the bulk
// copies.)
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// Thread t copies 16 bytes of g[16t..] to shared memory reading only
// t % 17 of them (the rest zero-filled), and 4 bytes of h[t] with
// ignore-src set in odd threads; then the block writes both out.
extern "C" __global__ void cp_zfill(const unsigned char *g, const unsigned *h, unsigned char *o, unsigned *o2) {
  __shared__ __align__(16) unsigned char s[32 * 16];
  __shared__ unsigned s2[32];
  int t = threadIdx.x;
  for (int i = 0; i < 16; i++) s[t * 16 + i] = 0xee;
  s2[t] = 0xeeeeeeee;
  __syncthreads();
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(&s[t * 16])), "l"(g + t * 16), "r"(t % 17));
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 4, p; }"
               ::"r"(smem(&s2[t])), "l"(h + t), "r"(t & 1));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  for (int i = 0; i < 16; i++) o[t * 16 + i] = s[t * 16 + i];
  o2[t] = s2[t];
}

// A double-buffered pipeline: stage i + 1 is in flight while stage i is
// used; out[i][t] = 2 * in[i][255 - t].
extern "C" __global__ void cp_pipeline(const float *g, float *o, int n) {
  __shared__ float s[2][256];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s[0][t], &g[t], 4);
  __pipeline_commit();
  for (int i = 1; i < n; i++) {
    __pipeline_memcpy_async(&s[i & 1][t], &g[i * 256 + t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    o[(i - 1) * 256 + t] = 2 * s[(i - 1) & 1][255 - t];
    __syncthreads();
  }
  __pipeline_wait_prior(0);
  __syncthreads();
  o[(n - 1) * 256 + t] = 2 * s[(n - 1) & 1][255 - t];
}

// cuda::barrier with cuda::memcpy_async: block b copies 256 ints of g and
// writes them reversed.
extern "C" __global__ void bar_copy(const int *g, int *o) {
  __shared__ int s[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto blk = cg::this_thread_block();
  if (blk.thread_rank() == 0) init(&bar, blk.size());
  blk.sync();
  cuda::memcpy_async(blk, s, g + blockIdx.x * 256, sizeof(int) * 256, bar);
  bar.arrive_and_wait();
  o[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// A two-stage cuda::pipeline shared by the block (producer/consumer).
extern "C" __global__ void pipe_stages(const int *g, int *o) {
  __shared__ __align__(16) int s[2][128];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st;
  auto blk = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(blk, &st);
  for (int i = 0; i < 2; i++) {
    pipe.producer_acquire();
    cuda::memcpy_async(blk, s[i], g + i * 128, cuda::aligned_size_t<16>(sizeof(int) * 128), pipe);
    pipe.producer_commit();
  }
  for (int i = 0; i < 2; i++) {
    pipe.consumer_wait();
    o[i * 128 + threadIdx.x] = s[i][127 - threadIdx.x] + i;
    pipe.consumer_release();
  }
}

__device__ __forceinline__ void mb_wait_parity(unsigned bar, unsigned parity) {
#if __CUDA_ARCH__ >= 900
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }" ::"r"(bar), "r"(parity));
#else
  asm volatile("{ .reg .pred p; W: mbarrier.test_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }" ::"r"(bar), "r"(parity));
#endif
}

// 64 threads.  Phase 0: warp 1 computes for a while, stores x, arrives;
// warp 0 arrives and waits (it must let warp 1 run), then reads x.
// Phase 1: warp 0 arrives with arrive_drop (the expected count falls to
// 32) recording pending_count of each state, warp 1 arrives: phase 1
// completes with 32 arrivals pending for phase 2.
extern "C" __global__ void mb_phases(int *o, int n) {
  __shared__ unsigned long long bar;
  __shared__ int x;
  unsigned b = smem(&bar);
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(64));
  __syncthreads();
  unsigned long long st;
  if (t >= 32) {
    int v = 0;
    for (int i = 0; i < n; i++) v = v * 3 + i;
    if (t == 32) x = v;
  }
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
  mb_wait_parity(b, 0);
  o[t] = x;
  unsigned pend;
  if (t < 32) {
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
    o[64 + t] = pend;
  } else {
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
  }
  mb_wait_parity(b, 1);
  if (t == 0) { /* phase 2 expects 32 arrivals: one arrive of 31 leaves 1 pending */
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(st) : "r"(b), "r"(31) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
    o[96] = pend;
  }
}

// The barrier expects 64 arrivals; the 32 threads arrive and wait: the
// phase can never complete.
extern "C" __global__ void mb_deadlock(int *o) {
  __shared__ unsigned long long bar;
  unsigned b = smem(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(64));
  __syncthreads();
  unsigned long long st;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
  mb_wait_parity(b, 0);
  o[threadIdx.x] = 1;
}

#if __CUDA_ARCH__ >= 900
// Thread 0 expects 1024 bytes on the barrier and starts a bulk copy that
// completes them; everyone waits for the phase, reads the data, and a bulk
// copy writes it back to global memory reversed in 16-byte chunks.
extern "C" __global__ void bulk_copy(const int4 *g, int *o, int4 *o2) {
  __shared__ __align__(128) int4 s[64];
  __shared__ __align__(128) int4 r[64];
  __shared__ unsigned long long bar;
  unsigned b = smem(&bar);
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(1));
  __syncthreads();
  if (t == 0) {
    unsigned long long st;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(b), "r"(1024) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(s)), "l"(g), "r"(1024), "r"(b) : "memory");
  }
  mb_wait_parity(b, 0);
  o[t] = s[t].x + s[t].w;
  r[t] = s[63 - t];
  r[t + 32] = s[31 - t];
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(o2), "r"(smem(r)), "r"(1024) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;");
  }
}
#endif
