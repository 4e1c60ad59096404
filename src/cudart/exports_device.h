/*
 * exports_device.h — prototypes of the exported entry points of the
 * device-side features: cooperative launches (coop.c), CUDA arrays,
 * texture and surface objects (array.c, texture.c).  As exports.h: the
 * declarations of CUDA 13.0's cuda_runtime_api.h with abi.h's and
 * abi_tex.h's types; api.def lists them with their status.
 */
#ifndef WS_CUDART_EXPORTS_DEVICE_H
#define WS_CUDART_EXPORTS_DEVICE_H

#include "cudart/abi_tex.h"
#include "cudart/exports.h"

/* cooperative launches (coop.c) */
WS_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                  size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                                       void **args, size_t sharedMem, cudaStream_t stream);

/* CUDA arrays (array.c) */
WS_EXPORT cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f);
WS_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width,
                                      size_t height, unsigned flags);
WS_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, cudaExtent extent,
                                        unsigned flags);
WS_EXPORT cudaError_t cudaFreeArray(cudaArray_t array);
WS_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *extent, unsigned *flags,
                                       cudaArray_t array);
WS_EXPORT cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array);
WS_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                               size_t spitch, size_t width, size_t height, int kind,
                                               cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void *src, size_t spitch, size_t width, size_t height,
                                                    int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height, int kind,
                                                 cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t count, int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t count, int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, int kind, cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, int kind);

/* texture and surface objects (texture.c) */
WS_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const cudaResourceDesc *pResDesc,
                                              const cudaTextureDesc *pTexDesc,
                                              const cudaResourceViewDesc *pResViewDesc);
WS_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
WS_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc, cudaTextureObject_t texObject);
WS_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject);
WS_EXPORT cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc *pResViewDesc,
                                                           cudaTextureObject_t texObject);
WS_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const cudaResourceDesc *pResDesc);
WS_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
WS_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject);
WS_EXPORT cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                           const cudaChannelFormatDesc *fmtDesc, int device);

#endif
