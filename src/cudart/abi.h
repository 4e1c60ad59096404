/*
 * abi.h — the CUDA 13 runtime's ABI as the runtime sees it: the types,
 * enumerations and structures that cross the boundary between a program
 * built by `nvcc -cudart shared` and libcudart.so.13.  Written from the
 * layout of CUDA 13.0's driver_types.h / vector_types.h (the facts of the
 * ABI), not included from it: the project builds without the CUDA toolkit.
 * Values are the ABI's: never renumber.  tests/programs/abi_check.cu checks
 * values, sizes and offsets against the real headers when nvcc is present.
 */
#ifndef WS_CUDART_ABI_H
#define WS_CUDART_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef struct dim3 { unsigned x, y, z; } dim3;     /* vector_types.h: 12 bytes */
typedef struct uint3 { unsigned x, y, z; } uint3;
typedef struct CUstream_st *cudaStream_t;           /* opaque handles */
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef int cudaError_t;                            /* enum cudaError (int-sized) */
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* enum cudaError: every value of CUDA 13.0 (errors.def). */
enum {
#define ERR(name, value, text) name = value,
#include "cudart/errors.def"
#undef ERR
};

/* enum cudaMemcpyKind */
enum { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
       cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };

/* enum cudaDeviceAttr: every attribute of CUDA 13.0 (device_attrs.def). */
enum {
#define ATTR(name, value, expr) name = value,
#include "cudart/device_attrs.def"
#undef ATTR
};

/* enum cudaLimit */
enum { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
       cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
       cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };

/* enum cudaFuncCache */
enum { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
       cudaFuncCachePreferEqual = 3 };

/* cudaHostAlloc / cudaHostRegister / cudaSetDeviceFlags / stream and event flags */
enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2,
       cudaHostAllocWriteCombined = 4 };
enum { cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 1, cudaHostRegisterMapped = 2,
       cudaHostRegisterIoMemory = 4, cudaHostRegisterReadOnly = 8 };
enum { cudaDeviceScheduleMask = 7, cudaDeviceMapHost = 8, cudaDeviceLmemResizeToMax = 16,
       cudaDeviceSyncMemops = 0x80, cudaDeviceMask = 0xff };
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaMemAttachSingle = 4 };

/* enum cudaMemoryType (cudaPointerAttributes.type) */
enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
       cudaMemoryTypeManaged = 3 };

/* enum cudaGraphNodeType */
enum { cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
       cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5,
       cudaGraphNodeTypeWaitEvent = 6, cudaGraphNodeTypeEventRecord = 7,
       cudaGraphNodeTypeMemAlloc = 10, cudaGraphNodeTypeMemFree = 11 };

/* enum cudaStreamCaptureStatus, cudaStreamCaptureMode */
enum { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
       cudaStreamCaptureStatusInvalidated = 2 };
enum { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
       cudaStreamCaptureModeRelaxed = 2 };

/* enum cudaMemPoolAttr */
enum { cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
       cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
       cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
       cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8 };

/* enum cudaLaunchAttributeID (also cudaStreamAttrID), the ones read here */
enum { cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1,
       cudaLaunchAttributeCooperative = 2, cudaLaunchAttributeSynchronizationPolicy = 3,
       cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributePriority = 8 };

/* enum cudaDriverEntryPointQueryResult */
enum { cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1,
       cudaDriverEntryPointVersionNotSufficent = 2 };

/* enum cudaGraphExecUpdateResult, cudaGraphInstantiateResult */
enum { cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1,
       cudaGraphExecUpdateErrorTopologyChanged = 2, cudaGraphExecUpdateErrorNodeTypeChanged = 3,
       cudaGraphExecUpdateErrorFunctionChanged = 4 };
enum { cudaGraphInstantiateSuccess = 0, cudaGraphInstantiateError = 1 };

/* enum cudaFuncAttribute */
enum { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
       cudaFuncAttributePreferredSharedMemoryCarveout = 9 };

/* struct cudaDeviceProp of CUDA 13.0: 1008 bytes. */
typedef struct cudaDeviceProp {
  char name[256];
  unsigned char uuid[16];
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
} cudaDeviceProp;

_Static_assert(sizeof(cudaDeviceProp) == 1008, "cudaDeviceProp of CUDA 13.0 is 1008 bytes");

/* struct cudaFuncAttributes of CUDA 13.0. */
typedef struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
} cudaFuncAttributes;

/* Pitched and 3D memory (driver_types.h). */
typedef struct cudaPitchedPtr {
  void *ptr;                  /* first byte */
  size_t pitch;               /* bytes of one row, padding included */
  size_t xsize, ysize;        /* logical width (bytes) and height */
} cudaPitchedPtr;
typedef struct cudaExtent { size_t width, height, depth; } cudaExtent;
typedef struct cudaPos { size_t x, y, z; } cudaPos;
typedef struct cudaArray *cudaArray_t;
typedef struct cudaMemcpy3DParms {
  cudaArray_t srcArray;       /* CUDA arrays: not supported (rt-device) */
  cudaPos srcPos;             /* bytes in x, rows in y, slices in z */
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;          /* width in bytes (linear memory) */
  int kind;                   /* enum cudaMemcpyKind */
} cudaMemcpy3DParms;

typedef struct cudaMemcpy3DPeerParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  int srcDevice;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  int dstDevice;
  cudaExtent extent;
} cudaMemcpy3DPeerParms;

/* Graph node parameters (driver_types.h). */
typedef struct cudaKernelNodeParams {
  void *func;                 /* the kernel's host stub */
  dim3 gridDim, blockDim;
  unsigned sharedMemBytes;    /* dynamic shared bytes */
  void **kernelParams;        /* one pointer per parameter, or NULL with extra */
  void **extra;               /* not supported (NULL) */
} cudaKernelNodeParams;
typedef struct cudaMemsetParams {
  void *dst;
  size_t pitch;               /* bytes per row (height > 1) */
  unsigned value;
  unsigned elementSize;       /* 1, 2 or 4 */
  size_t width, height;       /* elements per row, rows */
} cudaMemsetParams;
typedef struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void *userData;
} cudaHostNodeParams;
typedef struct cudaGraphEdgeData {
  unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;
typedef struct cudaGraphInstantiateParams {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  int result_out;             /* enum cudaGraphInstantiateResult */
} cudaGraphInstantiateParams;
typedef struct cudaGraphExecUpdateResultInfo {
  int result;                 /* enum cudaGraphExecUpdateResult */
  cudaGraphNode_t errorNode, errorFromNode;
} cudaGraphExecUpdateResultInfo;

/* Launch attributes (cudaLaunchKernelExC, cudaStreamSetAttribute): a
 * 64-byte union; only the members read here are named. */
typedef union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;            /* cudaLaunchAttributeCooperative */
  int syncPolicy;             /* cudaLaunchAttributeSynchronizationPolicy */
  struct { unsigned x, y, z; } clusterDim; /* cudaLaunchAttributeClusterDimension */
  int priority;               /* cudaLaunchAttributePriority */
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute {
  int id;                     /* enum cudaLaunchAttributeID */
  char pad[4];
  cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_t {
  dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
} cudaLaunchConfig_t;

/* Memory pools and locations. */
typedef struct cudaMemLocation { int type; int id; } cudaMemLocation;
typedef struct cudaMemPoolProps {
  int allocType, handleTypes;
  cudaMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
} cudaMemPoolProps;
/* enum cudaMemAllocationType, cudaMemLocationType (the values a graph's
 * allocation node takes) */
enum { cudaMemAllocationTypePinned = 1 };
enum { cudaMemLocationTypeDevice = 1 };
typedef struct cudaMemAllocNodeParams {
  cudaMemPoolProps poolProps;
  const void *accessDescs;    /* const struct cudaMemAccessDesc * */
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;                 /* out: the allocation's address */
} cudaMemAllocNodeParams;

typedef struct cudaPointerAttributes {
  int type;                   /* enum cudaMemoryType */
  int device;
  void *devicePointer, *hostPointer;
  long reserved[8];
} cudaPointerAttributes;

typedef struct cudaIpcMemHandle_st { char reserved[64]; } cudaIpcMemHandle_t;
typedef struct cudaIpcEventHandle_st { char reserved[64]; } cudaIpcEventHandle_t;

_Static_assert(sizeof(cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms of CUDA 13.0");
_Static_assert(sizeof(cudaLaunchAttribute) == 72, "cudaLaunchAttribute of CUDA 13.0");
_Static_assert(sizeof(cudaLaunchConfig_t) == 56, "cudaLaunchConfig_t of CUDA 13.0");
_Static_assert(sizeof(cudaKernelNodeParams) == 56, "cudaKernelNodeParams of CUDA 13.0");

/* The fat-binary wrapper __cudaRegisterFatBinary receives (fatbinary_section.h). */
typedef struct ws_fatbin_wrapper {
  int magic;                  /* WS_FATBINC_MAGIC */
  int version;                /* 1; 2 for an -rdc linked image */
  const void *data;           /* the fat-binary container */
  void *filename_or_fatbins;  /* v1: 0; v2: NULL-terminated prelinked fatbins */
} ws_fatbin_wrapper;

#define WS_FATBINC_MAGIC 0x466243B1

#endif
