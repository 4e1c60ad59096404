// Every device attribute CUDA 13.0 names (cudaDeviceAttr, reserved values
// left out) is answered by cudaDeviceGetAttribute, and the ones a program
// sizes its work by agree with cudaGetDeviceProperties; run.sh compares the
// printed values with `warpsight gpu GPU --json` (the database).
#include "check.h"

#define A(x) {x, #x}
static const struct {
  cudaDeviceAttr attr;
  const char *name;
} attrs[] = {
    A(cudaDevAttrMaxThreadsPerBlock),
    A(cudaDevAttrMaxBlockDimX),
    A(cudaDevAttrMaxBlockDimY),
    A(cudaDevAttrMaxBlockDimZ),
    A(cudaDevAttrMaxGridDimX),
    A(cudaDevAttrMaxGridDimY),
    A(cudaDevAttrMaxGridDimZ),
    A(cudaDevAttrMaxSharedMemoryPerBlock),
    A(cudaDevAttrTotalConstantMemory),
    A(cudaDevAttrWarpSize),
    A(cudaDevAttrMaxPitch),
    A(cudaDevAttrMaxRegistersPerBlock),
    A(cudaDevAttrClockRate),
    A(cudaDevAttrTextureAlignment),
    A(cudaDevAttrGpuOverlap),
    A(cudaDevAttrMultiProcessorCount),
    A(cudaDevAttrKernelExecTimeout),
    A(cudaDevAttrIntegrated),
    A(cudaDevAttrCanMapHostMemory),
    A(cudaDevAttrComputeMode),
    A(cudaDevAttrMaxTexture1DWidth),
    A(cudaDevAttrMaxTexture2DWidth),
    A(cudaDevAttrMaxTexture2DHeight),
    A(cudaDevAttrMaxTexture3DWidth),
    A(cudaDevAttrMaxTexture3DHeight),
    A(cudaDevAttrMaxTexture3DDepth),
    A(cudaDevAttrMaxTexture2DLayeredWidth),
    A(cudaDevAttrMaxTexture2DLayeredHeight),
    A(cudaDevAttrMaxTexture2DLayeredLayers),
    A(cudaDevAttrSurfaceAlignment),
    A(cudaDevAttrConcurrentKernels),
    A(cudaDevAttrEccEnabled),
    A(cudaDevAttrPciBusId),
    A(cudaDevAttrPciDeviceId),
    A(cudaDevAttrTccDriver),
    A(cudaDevAttrMemoryClockRate),
    A(cudaDevAttrGlobalMemoryBusWidth),
    A(cudaDevAttrL2CacheSize),
    A(cudaDevAttrMaxThreadsPerMultiProcessor),
    A(cudaDevAttrAsyncEngineCount),
    A(cudaDevAttrUnifiedAddressing),
    A(cudaDevAttrMaxTexture1DLayeredWidth),
    A(cudaDevAttrMaxTexture1DLayeredLayers),
    A(cudaDevAttrMaxTexture2DGatherWidth),
    A(cudaDevAttrMaxTexture2DGatherHeight),
    A(cudaDevAttrMaxTexture3DWidthAlt),
    A(cudaDevAttrMaxTexture3DHeightAlt),
    A(cudaDevAttrMaxTexture3DDepthAlt),
    A(cudaDevAttrPciDomainId),
    A(cudaDevAttrTexturePitchAlignment),
    A(cudaDevAttrMaxTextureCubemapWidth),
    A(cudaDevAttrMaxTextureCubemapLayeredWidth),
    A(cudaDevAttrMaxTextureCubemapLayeredLayers),
    A(cudaDevAttrMaxSurface1DWidth),
    A(cudaDevAttrMaxSurface2DWidth),
    A(cudaDevAttrMaxSurface2DHeight),
    A(cudaDevAttrMaxSurface3DWidth),
    A(cudaDevAttrMaxSurface3DHeight),
    A(cudaDevAttrMaxSurface3DDepth),
    A(cudaDevAttrMaxSurface1DLayeredWidth),
    A(cudaDevAttrMaxSurface1DLayeredLayers),
    A(cudaDevAttrMaxSurface2DLayeredWidth),
    A(cudaDevAttrMaxSurface2DLayeredHeight),
    A(cudaDevAttrMaxSurface2DLayeredLayers),
    A(cudaDevAttrMaxSurfaceCubemapWidth),
    A(cudaDevAttrMaxSurfaceCubemapLayeredWidth),
    A(cudaDevAttrMaxSurfaceCubemapLayeredLayers),
    A(cudaDevAttrMaxTexture1DLinearWidth),
    A(cudaDevAttrMaxTexture2DLinearWidth),
    A(cudaDevAttrMaxTexture2DLinearHeight),
    A(cudaDevAttrMaxTexture2DLinearPitch),
    A(cudaDevAttrMaxTexture2DMipmappedWidth),
    A(cudaDevAttrMaxTexture2DMipmappedHeight),
    A(cudaDevAttrComputeCapabilityMajor),
    A(cudaDevAttrComputeCapabilityMinor),
    A(cudaDevAttrMaxTexture1DMipmappedWidth),
    A(cudaDevAttrStreamPrioritiesSupported),
    A(cudaDevAttrGlobalL1CacheSupported),
    A(cudaDevAttrLocalL1CacheSupported),
    A(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
    A(cudaDevAttrMaxRegistersPerMultiprocessor),
    A(cudaDevAttrManagedMemory),
    A(cudaDevAttrIsMultiGpuBoard),
    A(cudaDevAttrMultiGpuBoardGroupID),
    A(cudaDevAttrHostNativeAtomicSupported),
    A(cudaDevAttrSingleToDoublePrecisionPerfRatio),
    A(cudaDevAttrPageableMemoryAccess),
    A(cudaDevAttrConcurrentManagedAccess),
    A(cudaDevAttrComputePreemptionSupported),
    A(cudaDevAttrCanUseHostPointerForRegisteredMem),
    A(cudaDevAttrCooperativeLaunch),
    A(cudaDevAttrMaxSharedMemoryPerBlockOptin),
    A(cudaDevAttrCanFlushRemoteWrites),
    A(cudaDevAttrHostRegisterSupported),
    A(cudaDevAttrPageableMemoryAccessUsesHostPageTables),
    A(cudaDevAttrDirectManagedMemAccessFromHost),
    A(cudaDevAttrMaxBlocksPerMultiprocessor),
    A(cudaDevAttrMaxPersistingL2CacheSize),
    A(cudaDevAttrMaxAccessPolicyWindowSize),
    A(cudaDevAttrSparseCudaArraySupported),
    A(cudaDevAttrHostRegisterReadOnlySupported),
    A(cudaDevAttrTimelineSemaphoreInteropSupported),
    A(cudaDevAttrMemoryPoolsSupported),
    A(cudaDevAttrGPUDirectRDMASupported),
    A(cudaDevAttrGPUDirectRDMAFlushWritesOptions),
    A(cudaDevAttrGPUDirectRDMAWritesOrdering),
    A(cudaDevAttrMemoryPoolSupportedHandleTypes),
    A(cudaDevAttrClusterLaunch),
    A(cudaDevAttrDeferredMappingCudaArraySupported),
    A(cudaDevAttrIpcEventSupport),
    A(cudaDevAttrMemSyncDomainCount),
    A(cudaDevAttrNumaConfig),
    A(cudaDevAttrNumaId),
    A(cudaDevAttrMpsEnabled),
    A(cudaDevAttrHostNumaId),
    A(cudaDevAttrD3D12CigSupported),
    A(cudaDevAttrVulkanCigSupported),
    A(cudaDevAttrGpuPciDeviceId),
    A(cudaDevAttrGpuPciSubsystemId),
    A(cudaDevAttrHostNumaMemoryPoolsSupported),
    A(cudaDevAttrHostNumaMultinodeIpcSupported),
    A(cudaDevAttrHostMemoryPoolsSupported),
    A(cudaDevAttrOnlyPartialHostNativeAtomicSupported),
};

int main() {
  int failed = 0, n = 0;
  for (const auto &a : attrs) {
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, a.attr, 0);
    if (e != cudaSuccess) {
      std::printf("FAIL %s: %s\n", a.name, cudaGetErrorName(e));
      failed++;
    } else {
      std::printf("%s = %d\n", a.name, v);
      n++;
    }
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int sms = 0, l2 = 0, major = 0, minor = 0, warp = 0, smem = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  CK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
  CK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
  bool same = sms == p.multiProcessorCount && l2 == p.l2CacheSize && major == p.major &&
              minor == p.minor && warp == p.warpSize &&
              (size_t)smem == p.sharedMemPerMultiprocessor && bus == p.memoryBusWidth;
  std::printf("%s %d of %zu attributes answered; attributes and properties %s\n",
              failed || !same ? "FAIL" : "PASS", n, sizeof attrs / sizeof *attrs,
              same ? "agree" : "differ");
  return failed || !same ? 1 : 0;
}
