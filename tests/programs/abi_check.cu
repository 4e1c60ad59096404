// The runtime's view of the ABI (src/cudart/abi.h, written without CUDA's
// headers) against CUDA 13's own headers: every error code and device
// attribute value, and the size and field offsets of every structure that
// crosses the boundary.  It fails to compile when one differs; run under
// exec it only prints PASS.
#include <cstddef>
#include <cstdio>
#include <cuda_runtime.h>

// CUDA's flags are macros; abi.h's are enumerators of the same names
#pragma push_macro("cudaHostAllocDefault")
#undef cudaHostAllocDefault
#pragma push_macro("cudaHostAllocPortable")
#undef cudaHostAllocPortable
#pragma push_macro("cudaHostAllocMapped")
#undef cudaHostAllocMapped
#pragma push_macro("cudaHostAllocWriteCombined")
#undef cudaHostAllocWriteCombined
#pragma push_macro("cudaHostRegisterDefault")
#undef cudaHostRegisterDefault
#pragma push_macro("cudaHostRegisterPortable")
#undef cudaHostRegisterPortable
#pragma push_macro("cudaHostRegisterMapped")
#undef cudaHostRegisterMapped
#pragma push_macro("cudaHostRegisterIoMemory")
#undef cudaHostRegisterIoMemory
#pragma push_macro("cudaHostRegisterReadOnly")
#undef cudaHostRegisterReadOnly
#pragma push_macro("cudaDeviceScheduleMask")
#undef cudaDeviceScheduleMask
#pragma push_macro("cudaDeviceMapHost")
#undef cudaDeviceMapHost
#pragma push_macro("cudaDeviceLmemResizeToMax")
#undef cudaDeviceLmemResizeToMax
#pragma push_macro("cudaDeviceSyncMemops")
#undef cudaDeviceSyncMemops
#pragma push_macro("cudaDeviceMask")
#undef cudaDeviceMask
#pragma push_macro("cudaStreamDefault")
#undef cudaStreamDefault
#pragma push_macro("cudaStreamNonBlocking")
#undef cudaStreamNonBlocking
#pragma push_macro("cudaMemAttachGlobal")
#undef cudaMemAttachGlobal
#pragma push_macro("cudaMemAttachHost")
#undef cudaMemAttachHost
#pragma push_macro("cudaMemAttachSingle")
#undef cudaMemAttachSingle
#pragma push_macro("cudaArrayDefault")
#undef cudaArrayDefault
#pragma push_macro("cudaArrayLayered")
#undef cudaArrayLayered
#pragma push_macro("cudaArraySurfaceLoadStore")
#undef cudaArraySurfaceLoadStore
#pragma push_macro("cudaArrayCubemap")
#undef cudaArrayCubemap
#pragma push_macro("cudaArrayTextureGather")
#undef cudaArrayTextureGather
#define _Static_assert static_assert /* abi.h is C11 */
namespace ws {
#include "cudart/abi.h"
#include "cudart/abi_tex.h"
}
constexpr int abi_cudaArrayDefault = (int)ws::cudaArrayDefault;
constexpr int abi_cudaArrayLayered = (int)ws::cudaArrayLayered;
constexpr int abi_cudaArraySurfaceLoadStore = (int)ws::cudaArraySurfaceLoadStore;
constexpr int abi_cudaArrayCubemap = (int)ws::cudaArrayCubemap;
constexpr int abi_cudaArrayTextureGather = (int)ws::cudaArrayTextureGather;
#pragma pop_macro("cudaArrayDefault")
#pragma pop_macro("cudaArrayLayered")
#pragma pop_macro("cudaArraySurfaceLoadStore")
#pragma pop_macro("cudaArrayCubemap")
#pragma pop_macro("cudaArrayTextureGather")
static_assert(abi_cudaArrayDefault == cudaArrayDefault, "cudaArrayDefault");
static_assert(abi_cudaArrayLayered == cudaArrayLayered, "cudaArrayLayered");
static_assert(abi_cudaArraySurfaceLoadStore == cudaArraySurfaceLoadStore, "cudaArraySurfaceLoadStore");
static_assert(abi_cudaArrayCubemap == cudaArrayCubemap, "cudaArrayCubemap");
static_assert(abi_cudaArrayTextureGather == cudaArrayTextureGather, "cudaArrayTextureGather");
constexpr int abi_cudaHostAllocDefault = (int)ws::cudaHostAllocDefault;
constexpr int abi_cudaHostAllocPortable = (int)ws::cudaHostAllocPortable;
constexpr int abi_cudaHostAllocMapped = (int)ws::cudaHostAllocMapped;
constexpr int abi_cudaHostAllocWriteCombined = (int)ws::cudaHostAllocWriteCombined;
constexpr int abi_cudaHostRegisterDefault = (int)ws::cudaHostRegisterDefault;
constexpr int abi_cudaHostRegisterPortable = (int)ws::cudaHostRegisterPortable;
constexpr int abi_cudaHostRegisterMapped = (int)ws::cudaHostRegisterMapped;
constexpr int abi_cudaHostRegisterIoMemory = (int)ws::cudaHostRegisterIoMemory;
constexpr int abi_cudaHostRegisterReadOnly = (int)ws::cudaHostRegisterReadOnly;
constexpr int abi_cudaDeviceScheduleMask = (int)ws::cudaDeviceScheduleMask;
constexpr int abi_cudaDeviceMapHost = (int)ws::cudaDeviceMapHost;
constexpr int abi_cudaDeviceLmemResizeToMax = (int)ws::cudaDeviceLmemResizeToMax;
constexpr int abi_cudaDeviceSyncMemops = (int)ws::cudaDeviceSyncMemops;
constexpr int abi_cudaDeviceMask = (int)ws::cudaDeviceMask;
constexpr int abi_cudaStreamDefault = (int)ws::cudaStreamDefault;
constexpr int abi_cudaStreamNonBlocking = (int)ws::cudaStreamNonBlocking;
constexpr int abi_cudaMemAttachGlobal = (int)ws::cudaMemAttachGlobal;
constexpr int abi_cudaMemAttachHost = (int)ws::cudaMemAttachHost;
constexpr int abi_cudaMemAttachSingle = (int)ws::cudaMemAttachSingle;
#pragma pop_macro("cudaHostAllocDefault")
#pragma pop_macro("cudaHostAllocPortable")
#pragma pop_macro("cudaHostAllocMapped")
#pragma pop_macro("cudaHostAllocWriteCombined")
#pragma pop_macro("cudaHostRegisterDefault")
#pragma pop_macro("cudaHostRegisterPortable")
#pragma pop_macro("cudaHostRegisterMapped")
#pragma pop_macro("cudaHostRegisterIoMemory")
#pragma pop_macro("cudaHostRegisterReadOnly")
#pragma pop_macro("cudaDeviceScheduleMask")
#pragma pop_macro("cudaDeviceMapHost")
#pragma pop_macro("cudaDeviceLmemResizeToMax")
#pragma pop_macro("cudaDeviceSyncMemops")
#pragma pop_macro("cudaDeviceMask")
#pragma pop_macro("cudaStreamDefault")
#pragma pop_macro("cudaStreamNonBlocking")
#pragma pop_macro("cudaMemAttachGlobal")
#pragma pop_macro("cudaMemAttachHost")
#pragma pop_macro("cudaMemAttachSingle")
static_assert(abi_cudaHostAllocDefault == cudaHostAllocDefault, "cudaHostAllocDefault");
static_assert(abi_cudaHostAllocPortable == cudaHostAllocPortable, "cudaHostAllocPortable");
static_assert(abi_cudaHostAllocMapped == cudaHostAllocMapped, "cudaHostAllocMapped");
static_assert(abi_cudaHostAllocWriteCombined == cudaHostAllocWriteCombined, "cudaHostAllocWriteCombined");
static_assert(abi_cudaHostRegisterDefault == cudaHostRegisterDefault, "cudaHostRegisterDefault");
static_assert(abi_cudaHostRegisterPortable == cudaHostRegisterPortable, "cudaHostRegisterPortable");
static_assert(abi_cudaHostRegisterMapped == cudaHostRegisterMapped, "cudaHostRegisterMapped");
static_assert(abi_cudaHostRegisterIoMemory == cudaHostRegisterIoMemory, "cudaHostRegisterIoMemory");
static_assert(abi_cudaHostRegisterReadOnly == cudaHostRegisterReadOnly, "cudaHostRegisterReadOnly");
static_assert(abi_cudaDeviceScheduleMask == cudaDeviceScheduleMask, "cudaDeviceScheduleMask");
static_assert(abi_cudaDeviceMapHost == cudaDeviceMapHost, "cudaDeviceMapHost");
static_assert(abi_cudaDeviceLmemResizeToMax == cudaDeviceLmemResizeToMax, "cudaDeviceLmemResizeToMax");
static_assert(abi_cudaDeviceSyncMemops == cudaDeviceSyncMemops, "cudaDeviceSyncMemops");
static_assert(abi_cudaDeviceMask == cudaDeviceMask, "cudaDeviceMask");
static_assert(abi_cudaStreamDefault == cudaStreamDefault, "cudaStreamDefault");
static_assert(abi_cudaStreamNonBlocking == cudaStreamNonBlocking, "cudaStreamNonBlocking");
static_assert(abi_cudaMemAttachGlobal == cudaMemAttachGlobal, "cudaMemAttachGlobal");
static_assert(abi_cudaMemAttachHost == cudaMemAttachHost, "cudaMemAttachHost");
static_assert(abi_cudaMemAttachSingle == cudaMemAttachSingle, "cudaMemAttachSingle");

#define ERR(name, value, text)                                        \
  static_assert((int)ws::name == (int)::name && (int)::name == value, \
                #name " differs from CUDA's");
#include "cudart/errors.def"
#undef ERR
#define ATTR(name, value, expr) static_assert((int)::name == value, #name " differs from CUDA's");
#include "cudart/device_attrs.def"
#undef ATTR

#define SAME_SIZE(T) static_assert(sizeof(ws::T) == sizeof(::T), "sizeof " #T);
#define SAME_OFFSET(T, f) \
  static_assert(offsetof(ws::T, f) == offsetof(::T, f), "offset of " #T "." #f);
SAME_SIZE(cudaDeviceProp)
SAME_OFFSET(cudaDeviceProp, totalGlobalMem)
SAME_OFFSET(cudaDeviceProp, multiProcessorCount)
SAME_OFFSET(cudaDeviceProp, l2CacheSize)
SAME_OFFSET(cudaDeviceProp, maxBlocksPerMultiProcessor)
SAME_OFFSET(cudaDeviceProp, hostNumaMultinodeIpcSupported)
SAME_SIZE(cudaFuncAttributes)
SAME_OFFSET(cudaFuncAttributes, maxDynamicSharedSizeBytes)
SAME_SIZE(cudaPitchedPtr)
SAME_SIZE(cudaExtent)
SAME_SIZE(cudaMemcpy3DParms)
SAME_OFFSET(cudaMemcpy3DParms, dstPtr)
SAME_OFFSET(cudaMemcpy3DParms, extent)
SAME_OFFSET(cudaMemcpy3DParms, kind)
SAME_SIZE(cudaMemcpy3DPeerParms)
SAME_OFFSET(cudaMemcpy3DPeerParms, dstDevice)
SAME_OFFSET(cudaMemcpy3DPeerParms, extent)
SAME_SIZE(cudaKernelNodeParams)
SAME_OFFSET(cudaKernelNodeParams, sharedMemBytes)
SAME_OFFSET(cudaKernelNodeParams, kernelParams)
SAME_SIZE(cudaMemsetParams)
SAME_OFFSET(cudaMemsetParams, elementSize)
SAME_OFFSET(cudaMemsetParams, height)
SAME_SIZE(cudaHostNodeParams)
SAME_SIZE(cudaGraphEdgeData)
SAME_SIZE(cudaGraphInstantiateParams)
SAME_OFFSET(cudaGraphInstantiateParams, result_out)
SAME_SIZE(cudaGraphExecUpdateResultInfo)
SAME_SIZE(cudaLaunchAttributeValue)
SAME_SIZE(cudaLaunchAttribute)
SAME_OFFSET(cudaLaunchAttribute, val)
SAME_SIZE(cudaLaunchConfig_t)
SAME_OFFSET(cudaLaunchConfig_t, attrs)
SAME_OFFSET(cudaLaunchConfig_t, numAttrs)
SAME_SIZE(cudaMemLocation)
SAME_SIZE(cudaMemPoolProps)
SAME_OFFSET(cudaMemPoolProps, maxSize)
SAME_SIZE(cudaMemAllocNodeParams)
SAME_OFFSET(cudaMemAllocNodeParams, accessDescCount)
SAME_OFFSET(cudaMemAllocNodeParams, bytesize)
SAME_OFFSET(cudaMemAllocNodeParams, dptr)
SAME_SIZE(cudaPointerAttributes)
SAME_OFFSET(cudaPointerAttributes, hostPointer)
SAME_SIZE(cudaIpcMemHandle_t)
SAME_SIZE(cudaChannelFormatDesc)
SAME_OFFSET(cudaChannelFormatDesc, f)
SAME_SIZE(cudaResourceDesc)
SAME_OFFSET(cudaResourceDesc, res)
SAME_OFFSET(cudaResourceDesc, res.linear.desc)
SAME_OFFSET(cudaResourceDesc, res.linear.sizeInBytes)
SAME_OFFSET(cudaResourceDesc, res.pitch2D.width)
SAME_OFFSET(cudaResourceDesc, res.pitch2D.pitchInBytes)
SAME_OFFSET(cudaResourceDesc, flags)
SAME_SIZE(cudaResourceViewDesc)
SAME_OFFSET(cudaResourceViewDesc, depth)
SAME_OFFSET(cudaResourceViewDesc, lastLayer)
SAME_SIZE(cudaTextureDesc)
SAME_OFFSET(cudaTextureDesc, filterMode)
SAME_OFFSET(cudaTextureDesc, readMode)
SAME_OFFSET(cudaTextureDesc, borderColor)
SAME_OFFSET(cudaTextureDesc, normalizedCoords)
SAME_OFFSET(cudaTextureDesc, maxMipmapLevelClamp)
SAME_OFFSET(cudaTextureDesc, seamlessCubemap)
static_assert(sizeof(ws::cudaTextureObject_t) == sizeof(::cudaTextureObject_t), "cudaTextureObject_t");
static_assert(sizeof(ws::cudaSurfaceObject_t) == sizeof(::cudaSurfaceObject_t), "cudaSurfaceObject_t");
static_assert((int)ws::cudaChannelFormatKindSignedNormalized16X4 == (int)::cudaChannelFormatKindSignedNormalized16X4,
              "channel kinds");
static_assert((int)ws::cudaResourceTypePitch2D == (int)::cudaResourceTypePitch2D, "resource types");
static_assert((int)ws::cudaAddressModeBorder == (int)::cudaAddressModeBorder &&
                  (int)ws::cudaAddressModeMirror == (int)::cudaAddressModeMirror, "address modes");
static_assert((int)ws::cudaFilterModeLinear == (int)::cudaFilterModeLinear, "filter modes");
static_assert((int)ws::cudaReadModeNormalizedFloat == (int)::cudaReadModeNormalizedFloat, "read modes");
static_assert(sizeof(ws::dim3) == sizeof(::dim3), "dim3");
static_assert((int)ws::cudaGraphNodeTypeEventRecord == (int)::cudaGraphNodeTypeEventRecord, "node types");
static_assert((int)ws::cudaGraphNodeTypeMemAlloc == (int)::cudaGraphNodeTypeMemAlloc &&
                  (int)ws::cudaGraphNodeTypeMemFree == (int)::cudaGraphNodeTypeMemFree, "node types");
static_assert((int)ws::cudaMemAllocationTypePinned == (int)::cudaMemAllocationTypePinned &&
                  (int)ws::cudaMemLocationTypeDevice == (int)::cudaMemLocationTypeDevice, "pool props");
static_assert((int)ws::cudaMemPoolAttrUsedMemHigh == (int)::cudaMemPoolAttrUsedMemHigh, "pool attrs");
static_assert((int)ws::cudaLimitPersistingL2CacheSize == (int)::cudaLimitPersistingL2CacheSize, "limits");
static_assert((int)ws::cudaLaunchAttributePriority == (int)::cudaLaunchAttributePriority, "attrs");
static_assert((int)ws::cudaStreamCaptureModeRelaxed == (int)::cudaStreamCaptureModeRelaxed, "modes");

int main() {
  std::printf("PASS abi.h matches CUDA's headers\n");
  return 0;
}
