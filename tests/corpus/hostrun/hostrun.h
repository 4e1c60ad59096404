// hostrun.h — a minimal CUDA-on-the-host shim used only to cross-check the
// corpus: hostcheck.sh compiles a corpus .cu file as C++ against this header
// and runs each launch spec with one POSIX thread per CUDA thread of a block
// (blocks one after another), then runs the kernel's C reference on the
// outputs. It validates the references and launch specs against the kernel
// *source*, independently of warpsight's PTX front end and emulator. It is
// not a CUDA implementation: it supports what the corpus uses and no more
// (__syncthreads, __syncwarp, __shfl_down_sync on whole warps, atomicAdd,
// static and dynamic shared memory, printf, __half2 via _Float16), and its
// SFU intrinsics are the exact libm functions.
#ifndef HOSTRUN_H
#define HOSTRUN_H

#include <pthread.h>
#include <math.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

extern thread_local uint3 threadIdx;
extern thread_local uint3 blockIdx;
extern dim3 blockDim, gridDim;
extern unsigned char hostrun_dyn_shared[];

#define __global__
#define __device__
#define __host__
#define __constant__
#define __noinline__
#define __forceinline__
#define __shared__ static   // function-local shared arrays: one per process, blocks run in turn

void __syncthreads(void);
void __syncwarp(unsigned mask = 0xffffffffu);
float hostrun_shfl_down(float v, int off);

static inline float __shfl_down_sync(unsigned, float v, int off) { return hostrun_shfl_down(v, off); }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
// glibc declares its own __sinf/__expf: route the CUDA names around them.
static inline float hostrun_sinf(float x) { return (float)sin((double)x); }
static inline float hostrun_expf(float x) { return (float)exp((double)x); }
#define __sinf(x) hostrun_sinf(x)
#define __expf(x) hostrun_expf(x)
static inline float rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }

// Half precision through the compiler's _Float16 (correctly rounded
// conversions): each operation is done exactly in double, then rounded once.
struct __half2 { _Float16 x, y; };
static inline _Float16 hr(double v) { return (_Float16)v; }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return {hr((double)a.x * (double)b.x + (double)c.x), hr((double)a.y * (double)b.y + (double)c.y)};
}
static inline __half2 __hmul2_rn(__half2 a, __half2 b) {
  return {hr((double)a.x * (double)b.x), hr((double)a.y * (double)b.y)};
}
static inline __half2 __hadd2(__half2 a, __half2 b) {
  return {hr((double)a.x + (double)b.x), hr((double)a.y + (double)b.y)};
}

#endif
