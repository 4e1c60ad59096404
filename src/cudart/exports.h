/*
 * exports.h — prototypes of the functions warpsight's CUDA runtime exports,
 * as CUDA 13.0's cuda_runtime_api.h and crt/host_runtime.h declare them
 * (with abi.h's types).  The library exports exactly the cuda* and __cuda*
 * functions defined in src/cudart (cudart.map); the ones it does not
 * implement are listed in unsupported.def.
 */
#ifndef WS_CUDART_EXPORTS_H
#define WS_CUDART_EXPORTS_H

#include "cudart/abi.h"

#define WS_EXPORT __attribute__((visibility("default")))

/* start-up and launch, as the generated host code calls them */
WS_EXPORT void **__cudaRegisterFatBinary(void *fatCubin);
WS_EXPORT void __cudaRegisterFatBinaryEnd(void **handle);
WS_EXPORT void __cudaUnregisterFatBinary(void **handle);
WS_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid,
                                      uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
WS_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global);
WS_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                        char *deviceAddress, const char *deviceName, int ext,
                                        size_t size, int constant, int global);
WS_EXPORT char __cudaInitModule(void **handle);
WS_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               cudaStream_t stream);
WS_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                 size_t *sharedMem, void *stream);
WS_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
WS_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem,
                                              cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream);

/* errors */
WS_EXPORT cudaError_t cudaGetLastError(void);
WS_EXPORT cudaError_t cudaPeekAtLastError(void);
WS_EXPORT const char *cudaGetErrorString(cudaError_t error);
WS_EXPORT const char *cudaGetErrorName(cudaError_t error);

/* memory */
WS_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size);
WS_EXPORT cudaError_t cudaFree(void *devPtr);
WS_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size);
WS_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
WS_EXPORT cudaError_t cudaFreeHost(void *ptr);
WS_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
WS_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                      cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                           cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count);
WS_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
WS_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                           cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
                                              size_t count, size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
                                              size_t count, size_t offset, int kind,
                                              cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                   size_t count, size_t offset, int kind,
                                                   cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
                                                     size_t count, size_t offset, int kind,
                                                     cudaStream_t s);
WS_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
WS_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* devices */
WS_EXPORT cudaError_t cudaGetDeviceCount(int *count);
WS_EXPORT cudaError_t cudaSetDevice(int device);
WS_EXPORT cudaError_t cudaGetDevice(int *device);
WS_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
WS_EXPORT cudaError_t cudaDeviceSynchronize(void);
WS_EXPORT cudaError_t cudaDeviceReset(void);
WS_EXPORT cudaError_t cudaDriverGetVersion(int *version);
WS_EXPORT cudaError_t cudaRuntimeGetVersion(int *version);
WS_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func);
WS_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                    const void *func,
                                                                    int blockSize,
                                                                    size_t dynamicSMemSize);
WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags);

/* streams and events */
WS_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s);
WS_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
WS_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags,
                                                   int priority);
WS_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
WS_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned flags);
WS_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e);
WS_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
WS_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
WS_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s);
WS_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags);
WS_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* the calls this runtime does not implement: cudaErrorNotSupported */
#define WS_UNSUPPORTED(name) WS_EXPORT cudaError_t name(void);
#include "cudart/unsupported.def"
#undef WS_UNSUPPORTED

#endif
