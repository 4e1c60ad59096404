/*
 * exports.h — prototypes of the functions warpsight's CUDA runtime exports,
 * as CUDA 13.0's cuda_runtime_api.h and crt/host_runtime.h declare them
 * (with abi.h's types; an enum parameter is an int, the ABI's size).  The
 * library exports exactly the cuda* and __cuda* functions defined in
 * src/cudart (cudart.map); api.def lists every one with its status (the
 * table of docs/exec.md), and those it does not implement are generated
 * from it (unsupported.c).
 */
#ifndef WS_CUDART_EXPORTS_H
#define WS_CUDART_EXPORTS_H

#include "cudart/abi.h"

#define WS_EXPORT __attribute__((visibility("default")))

/* start-up: registration and the call configuration (register.c) */
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
WS_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                 void *stream);
WS_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
WS_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr);
WS_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr);
WS_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func);
WS_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                              void **args, size_t sharedMem, cudaStream_t stream);

/* launches (launch.c) */
WS_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                       size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream);
WS_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                          void **args);
WS_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                               void **args);

/* errors (rt.c) */
WS_EXPORT const char *cudaGetErrorString(cudaError_t e);
WS_EXPORT const char *cudaGetErrorName(cudaError_t e);
WS_EXPORT cudaError_t cudaGetLastError(void);
WS_EXPORT cudaError_t cudaPeekAtLastError(void);

/* memory: allocation, host memory, copies, fills, symbols (mem.c) */
WS_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size);
WS_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
WS_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr *pitchedDevPtr, cudaExtent extent);
WS_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
WS_EXPORT cudaError_t cudaFree(void *devPtr);
WS_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
WS_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
WS_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size);
WS_EXPORT cudaError_t cudaFreeHost(void *ptr);
WS_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
WS_EXPORT cudaError_t cudaHostUnregister(void *ptr);
WS_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
WS_EXPORT cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
WS_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attr, const void *ptr);
WS_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                    cudaMemLocation location);
WS_EXPORT cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, int attribute,
                                               const void *devPtr, size_t count);
WS_EXPORT cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, int *attributes,
                                                size_t numAttributes, const void *devPtr, size_t count);
WS_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                           cudaMemLocation location, unsigned int flags,
                                           cudaStream_t stream);
WS_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                                cudaMemLocation location, unsigned int flags,
                                                cudaStream_t stream);
WS_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                               unsigned int flags);
WS_EXPORT cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
                                                    size_t length, unsigned int flags);
WS_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                      cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                           cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, int kind);
WS_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, int kind, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                             size_t spitch, size_t width, size_t height, int kind,
                                             cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms *p, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms *p);
WS_EXPORT cudaError_t cudaMemcpy3DPeer_ptds(const cudaMemcpy3DPeerParms *p);
WS_EXPORT cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms *p, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpy3DPeerAsync_ptsz(const cudaMemcpy3DPeerParms *p, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                     size_t count);
WS_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                          size_t count, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count);
WS_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
WS_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height);
WS_EXPORT cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height);
WS_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                             size_t height, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent extent);
WS_EXPORT cudaError_t cudaMemset3D_ptds(cudaPitchedPtr p, int value, cudaExtent extent);
WS_EXPORT cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent extent,
                                        cudaStream_t s);
WS_EXPORT cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr p, int value, cudaExtent extent,
                                             cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, int kind, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                   size_t count, size_t offset, int kind,
                                                   cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind);
WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, int kind, cudaStream_t s);
WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                     size_t offset, int kind, cudaStream_t s);
WS_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
WS_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);

/* stream-ordered allocation and memory pools (pool.c) */
WS_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t s);
WS_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t s);
WS_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                              cudaStream_t s);
WS_EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t pool,
                                                   cudaStream_t s);
WS_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t s);
WS_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t s);
WS_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
WS_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
WS_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
WS_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const cudaMemPoolProps *props);
WS_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
WS_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
WS_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, int attr, void *value);
WS_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, int attr, void *value);
WS_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const void *descList,
                                           size_t count);
WS_EXPORT cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t memPool,
                                           cudaMemLocation *location);
WS_EXPORT cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, cudaMemLocation *location,
                                               int type);
WS_EXPORT cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, cudaMemLocation *location,
                                        int type);
WS_EXPORT cudaError_t cudaMemSetMemPool(cudaMemLocation *location, int type, cudaMemPool_t memPool);

/* the device, limits, functions, occupancy (device.c) */
WS_EXPORT cudaError_t cudaGetDeviceCount(int *count);
WS_EXPORT cudaError_t cudaSetDevice(int device);
WS_EXPORT cudaError_t cudaGetDevice(int *device);
WS_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
WS_EXPORT cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop);
WS_EXPORT cudaError_t cudaSetValidDevices(int *device_arr, int len);
WS_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags);
WS_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags);
WS_EXPORT cudaError_t cudaDriverGetVersion(int *version);
WS_EXPORT cudaError_t cudaRuntimeGetVersion(int *version);
WS_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
WS_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
WS_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
WS_EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t value);
WS_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, int limit);
WS_EXPORT cudaError_t cudaDeviceSetCacheConfig(int cacheConfig);
WS_EXPORT cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig);
WS_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(int bankConfig);
WS_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig);
WS_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
WS_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
WS_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
WS_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice);
WS_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                              unsigned long long flags, int *driverStatus);
WS_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                   unsigned long long flags, int *driverStatus);
WS_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                       unsigned int cudaVersion,
                                                       unsigned long long flags, int *driverStatus);
WS_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
    unsigned int cudaVersion, unsigned long long flags, int *driverStatus);
WS_EXPORT cudaError_t cudaProfilerStart(void);
WS_EXPORT cudaError_t cudaProfilerStop(void);
WS_EXPORT cudaError_t cudaCtxResetPersistingL2Cache(void);
WS_EXPORT cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope);
WS_EXPORT cudaError_t cudaDeviceReset(void);
WS_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func);
WS_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
WS_EXPORT cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, int attr, int value,
                                                      int device);
WS_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig);
WS_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config);
WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
    const void *func, int blockSize, size_t dynamicSMemSize, unsigned flags);
WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
    const void *func, int blockSize, size_t dynamicSMemSize);
WS_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
    const void *func, int numBlocks, int blockSize);

/* streams, events, host functions, stream capture (stream.c) */
WS_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
WS_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
WS_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s);
WS_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
WS_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s);
WS_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
WS_EXPORT cudaError_t cudaDeviceSynchronize(void);
WS_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority);
WS_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t s, int *priority);
WS_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
WS_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned *flags);
WS_EXPORT cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id);
WS_EXPORT cudaError_t cudaStreamGetId_ptsz(cudaStream_t s, unsigned long long *id);
WS_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t s, int *device);
WS_EXPORT cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t s, int *device);
WS_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr,
                                             const cudaLaunchAttributeValue *value);
WS_EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t s, int attr,
                                                  const cudaLaunchAttributeValue *value);
WS_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr,
                                             cudaLaunchAttributeValue *out);
WS_EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t s, int attr,
                                                  cudaLaunchAttributeValue *out);
WS_EXPORT cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
WS_EXPORT cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
WS_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *userData);
WS_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn, void *userData);
WS_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData,
                                            unsigned flags);
WS_EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s, cudaStreamCallback_t cb,
                                                 void *userData, unsigned flags);
WS_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
WS_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e);
WS_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags);
WS_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
WS_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s);
WS_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned flags);
WS_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
WS_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned flags);
WS_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e);
WS_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
WS_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
WS_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode);
WS_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, int mode);
WS_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t graph,
                                                    const cudaGraphNode_t *deps,
                                                    const cudaGraphEdgeData *edges, size_t ndeps,
                                                    int mode);
WS_EXPORT cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t graph,
                                                         const cudaGraphNode_t *deps,
                                                         const cudaGraphEdgeData *edges,
                                                         size_t ndeps, int mode);
WS_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *pGraph);
WS_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *pGraph);
WS_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status);
WS_EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s, int *status);
WS_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
                                               cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                               const cudaGraphEdgeData **edges, size_t *ndeps);
WS_EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, int *status,
                                                    unsigned long long *id, cudaGraph_t *graph,
                                                    const cudaGraphNode_t **deps,
                                                    const cudaGraphEdgeData **edges, size_t *ndeps);
WS_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps,
                                                          const cudaGraphEdgeData *edges, size_t n,
                                                          unsigned flags);
WS_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s,
    cudaGraphNode_t *deps, const cudaGraphEdgeData *edges, size_t n, unsigned flags);

/* graphs (graph.c) */
WS_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
WS_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph);
WS_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const cudaKernelNodeParams *p);
WS_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *out, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps, size_t ndeps, void *dst,
                                               const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const cudaMemsetParams *p);
WS_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                           const cudaGraphNode_t *deps, size_t ndeps,
                                           const cudaHostNodeParams *p);
WS_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                            const cudaGraphNode_t *deps, size_t ndeps);
WS_EXPORT cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                                 const cudaGraphNode_t *deps, size_t ndeps,
                                                 cudaGraph_t child);
WS_EXPORT cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                                  const cudaGraphNode_t *deps, size_t ndeps,
                                                  cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                                const cudaGraphNode_t *deps, size_t ndeps,
                                                cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edgeData, size_t n);
WS_EXPORT cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to,
                                                  const cudaGraphEdgeData *edgeData, size_t n);
WS_EXPORT cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
WS_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num);
WS_EXPORT cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *num);
WS_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
                                        cudaGraphNode_t *to, cudaGraphEdgeData *edgeData,
                                        size_t *num);
WS_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int *type);
WS_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps,
                                                   cudaGraphEdgeData *edgeData, size_t *num);
WS_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *out,
                                                     cudaGraphEdgeData *edgeData, size_t *num);
WS_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p);
WS_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                   const cudaKernelNodeParams *p);
WS_EXPORT cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                   const cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps, size_t ndeps,
                                               cudaMemAllocNodeParams *p);
WS_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *out, cudaGraph_t graph,
                                              const cudaGraphNode_t *deps, size_t ndeps,
                                              void *dptr);
WS_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                     cudaMemAllocNodeParams *p);
WS_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
WS_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device);
WS_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value);
WS_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value);
WS_EXPORT cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams *p);
WS_EXPORT cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams *p);
WS_EXPORT cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams *p);
WS_EXPORT cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams *p);
WS_EXPORT cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
WS_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pClone, cudaGraph_t original);
WS_EXPORT cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t original,
                                               cudaGraph_t clone);
WS_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *out, cudaGraph_t graph,
                                           unsigned long long flags);
WS_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *out, cudaGraph_t graph,
                                                    unsigned long long flags);
WS_EXPORT cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *out, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *p);
WS_EXPORT cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *out, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *p);
WS_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
WS_EXPORT cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec, unsigned long long *flags);
WS_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
WS_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream);
WS_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
WS_EXPORT cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream);
WS_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const cudaKernelNodeParams *p);
WS_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const cudaMemcpy3DParms *p);
WS_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                         void *dst, const void *src, size_t count,
                                                         int kind);
WS_EXPORT cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                       const cudaMemsetParams *p);
WS_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                     const cudaHostNodeParams *p);
WS_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                          cudaGraphExecUpdateResultInfo *info);
WS_EXPORT cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path,
                                             unsigned int flags);
WS_EXPORT cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *out, cudaGraph_t graph,
                                                     const cudaGraphNode_t *deps, size_t ndeps,
                                                     const void *symbol, const void *src,
                                                     size_t count, size_t offset, int kind);
WS_EXPORT cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *out, cudaGraph_t graph,
                                                       const cudaGraphNode_t *deps, size_t ndeps,
                                                       void *dst, const void *symbol, size_t count,
                                                       size_t offset, int kind);
WS_EXPORT cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
                                                     const void *src, size_t count, int kind);
WS_EXPORT cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
                                                       cudaEvent_t *event_out);
WS_EXPORT cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
WS_EXPORT cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec,
                                                           cudaGraphNode_t node, cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                         cudaEvent_t event);
WS_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, int attr,
                                                      const cudaLaunchAttributeValue *value);
WS_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, int attr,
                                                      cudaLaunchAttributeValue *value);
WS_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src);
WS_EXPORT cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                              unsigned *isEnabled);
WS_EXPORT cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
                                              unsigned isEnabled);

/* the calls this runtime does not implement: cudaErrorNotSupported */
#define API(name, status, note) WS_API_##status(name)
#define WS_API_SUPPORTED(name)
#define WS_API_PARTIAL(name)
#define WS_API_NOT(name) WS_EXPORT cudaError_t name(void);
#include "cudart/api.def"
#undef WS_API_NOT
#undef WS_API_PARTIAL
#undef WS_API_SUPPORTED
#undef API

#endif
