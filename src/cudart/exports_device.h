/*
 * exports_device.h — prototypes of the exported entry points of the
 * device-side features: cooperative launches (coop.c), CUDA arrays,
 * texture and surface objects (array.c, texture.c).  As exports.h: the
 * declarations of CUDA 13.0's cuda_runtime_api.h with abi.h's and
 * abi_tex.h's types; api.def lists them with their status.
 */
#ifndef WS_CUDART_EXPORTS_DEVICE_H
#define WS_CUDART_EXPORTS_DEVICE_H

#include "cudart/exports.h"

/* cooperative launches (coop.c) */
WS_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                       void **args, size_t sharedMem, cudaStream_t stream);

#endif
