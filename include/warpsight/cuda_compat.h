/*
 * warpsight/cuda_compat.h — for programs written for CUDA 11 or older that
 * call what CUDA 12 and 13 removed (docs/exec.md, "What CUDA 13 removed"):
 * include it after <cuda_runtime.h> to build such a program against CUDA
 * 13's headers, for `warpsight exec` or a GPU alike.  Macros only; the
 * functions are defined when CUDA's runtime header came first.
 *
 *   cudaThreadSynchronize(), cudaThreadExit() and the cudaThread* limit and
 *   cache calls map to their cudaDevice* successors (same arguments);
 *   cudaDeviceProp.clockRate, .memoryClockRate, .computeMode,
 *   .kernelExecTimeoutEnabled and .deviceOverlap are attributes now:
 *   cudaCompatClockRate(dev) and the others below read them.
 * Texture references have no such mapping: a program moves to texture
 * objects.
 */
#ifndef WARPSIGHT_CUDA_COMPAT_H
#define WARPSIGHT_CUDA_COMPAT_H

#define cudaThreadSynchronize() cudaDeviceSynchronize()
#define cudaThreadExit() cudaDeviceReset()
#define cudaThreadSetLimit(limit, value) cudaDeviceSetLimit(limit, value)
#define cudaThreadGetLimit(value, limit) cudaDeviceGetLimit(value, limit)
#define cudaThreadSetCacheConfig(config) cudaDeviceSetCacheConfig(config)
#define cudaThreadGetCacheConfig(config) cudaDeviceGetCacheConfig(config)

#ifdef __CUDA_RUNTIME_API_H__
/* A device attribute, 0 when the call fails. */
static inline int cudaCompatAttribute(enum cudaDeviceAttr attr, int device) {
  int v = 0;
  return cudaDeviceGetAttribute(&v, attr, device) == cudaSuccess ? v : 0;
}
/* The cudaDeviceProp fields CUDA 13 removed. */
static inline int cudaCompatClockRate(int device) {
  return cudaCompatAttribute(cudaDevAttrClockRate, device); /* kHz */
}
static inline int cudaCompatMemoryClockRate(int device) {
  return cudaCompatAttribute(cudaDevAttrMemoryClockRate, device); /* kHz */
}
static inline int cudaCompatComputeMode(int device) {
  return cudaCompatAttribute(cudaDevAttrComputeMode, device);
}
static inline int cudaCompatKernelExecTimeoutEnabled(int device) {
  return cudaCompatAttribute(cudaDevAttrKernelExecTimeout, device);
}
static inline int cudaCompatDeviceOverlap(int device) {
  return cudaCompatAttribute(cudaDevAttrGpuOverlap, device);
}
#endif

#endif
