/*
 * device.c — the device (one: the chosen GPU of the database,
 * WARPSIGHT_GPU): its properties and every attribute (device_attrs.def),
 * device flags, limits and cache configuration, a single-GPU machine's
 * answers to peer queries, function attributes and occupancy (the
 * project's occupancy rules, ws_gpu_occupancy_compute).
 *
 * Facts the database does not hold are derived from those it does, or are
 * documented constants (fill_props says which, and docs/exec.md lists
 * them): never cudaErrorNotSupported for an attribute CUDA 13 defines.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "warpsight/profiler.h"

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt->unloading ? cudaErrorCudartUnloading : cudaSuccess;
  if (!e) *count = rt->gpu ? 1 : 0;
  if (!e && !rt->gpu) e = cudaErrorNoDevice;
  return rt_done(e);
}

/* The one device, 0; anything else is cudaErrorInvalidDevice. */
static cudaError_t device0(int device) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  return rt_done(e);
}

cudaError_t cudaSetDevice(int device) { return device0(device); }

cudaError_t cudaGetDevice(int *device) {
  if (!device) return rt_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (flags > 1) return rt_error(cudaErrorInvalidValue); /* cudaInitDeviceFlagsAreValid */
  cudaError_t e = device0(device);
  if (!e && flags) e = cudaSetDeviceFlags(deviceFlags);
  return e;
}

cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop) {
  if (!device || !prop) return rt_error(cudaErrorInvalidValue);
  *device = 0; /* the only one */
  return device0(0);
}

cudaError_t cudaSetValidDevices(int *device_arr, int len) {
  if (len < 0 || (len && !device_arr)) return rt_error(cudaErrorInvalidValue);
  for (int i = 0; i < len; i++)
    if (device_arr[i] != 0) return rt_error(cudaErrorInvalidDevice);
  return device0(0);
}

/* The scheduling flags are one of auto, spin, yield, blocking sync; the
 * others may be combined.  They are kept (nothing here waits). */
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  unsigned sched = flags & cudaDeviceScheduleMask;
  if ((flags & ~(unsigned)cudaDeviceMask) || (sched != 0 && sched != 1 && sched != 2 && sched != 4))
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) rt->device_flags = flags;
  return rt_done(e);
}

/* CUDA reports cudaDeviceMapHost always set: host memory can be mapped. */
cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) *flags = rt->device_flags | cudaDeviceMapHost;
  return rt_done(e);
}

cudaError_t cudaDriverGetVersion(int *version) {
  if (!version) return rt_error(cudaErrorInvalidValue);
  *version = 13000; /* the CUDA 13.0 ABI this runtime implements */
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

/* --- properties and attributes ------------------------------------------------ */

/* Facts CUDA 13 answers only as attributes (no cudaDeviceProp field). */
typedef struct dev_extra {
  int clock_khz;            /* the database's SM clock */
  int mem_clock_khz;        /* the database's memory clock, else bandwidth /
                               (2 x bus bytes), so that 2 x clock x bus width is
                               the database's bandwidth, the formula deviceQuery
                               and bandwidth samples use */
  int kernel_exec_timeout;  /* 0: no display watchdog */
  int compute_mode;         /* cudaComputeModeDefault */
  int tex1d_linear;         /* cudaDevAttrMaxTexture1DLinearWidth */
  int fp64_ratio;           /* FP32 : FP64 throughput */
  int mem_sync_domains;     /* cudaDevAttrMemSyncDomainCount */
} dev_extra;

/* CUDA's grid limits (Programming Guide, Technical Specifications: x up to
 * 2^31-1 from CC 3.0, 65535 before; y and z 65535) and 64 KB of constant
 * memory (every CC). */
static int max_grid_x(const ws_gpu *g) { return g->cc_major >= 3 ? 2147483647 : 65535; }
#define MAX_GRID_YZ 65535
#define CONST_BYTES 65536
/* The memory bus width where the database has none: 256 bits, a documented
 * constant (the memory clock is derived from it so that the bandwidth a
 * program computes is the database's either way). */
#define DEFAULT_BUS_BITS 256

/* Texture and surface limits (textures are not supported by the emulator
 * yet; the values let a program size its arrays): deviceQuery's figures for
 * compute capability 6.0 and later (V100, GTX 1080: 1D 131072, 2D 131072 x
 * 65536, 3D 16384^3, layered 32768 with 2048 layers), and for 3.x to 5.x
 * (GTX 980: 1D 65536, 2D 65536^2, 3D 4096^3, layered 16384 with 2048
 * layers), used for older ones too; the other limits scale with them. */
static void fill_textures(cudaDeviceProp *p, const ws_gpu *g) {
  int big = g->cc_major >= 6, w = big ? 131072 : 65536, l = big ? 32768 : 16384;
  p->maxTexture1D = w;
  p->maxTexture1DMipmap = l;
  p->maxTexture2D[0] = w, p->maxTexture2D[1] = 65536;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = l;
  p->maxTexture2DLinear[0] = w, p->maxTexture2DLinear[1] = 65000;
  p->maxTexture2DLinear[2] = big ? 2097120 : 1048544;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = l;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = big ? 16384 : 4096;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = big ? 8192 : 2048;
  p->maxTexture3DAlt[2] = big ? 32768 : 16384;
  p->maxTextureCubemap = l;
  p->maxTexture1DLayered[0] = l, p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = l, p->maxTexture2DLayered[2] = 2048;
  p->maxTextureCubemapLayered[0] = l, p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = 32768;
  p->maxSurface2D[0] = w, p->maxSurface2D[1] = 65536;
  p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = big ? 16384 : 4096;
  p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768, p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
}

static void fill_props(cudaDeviceProp *p, dev_extra *x, const ws_gpu *g, uint64_t memory) {
  const ws_sm_limits *l = &g->limits;
  int cc = g->cc_major * 10 + g->cc_minor;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s (warpsight)", g->full_name ? g->full_name : g->name);
  size_t nl = strlen(g->name); /* the uuid: the database name, stable per GPU */
  memcpy(p->uuid, g->name, nl < sizeof p->uuid ? nl : sizeof p->uuid);
  p->totalGlobalMem = (size_t)(memory == UINT64_MAX ? ws_emu_default_memory_budget() : memory);
  p->sharedMemPerBlock = (size_t)(l->max_shared_per_block < 49152 ? l->max_shared_per_block : 49152);
  p->regsPerBlock = l->max_regs_per_block;
  p->warpSize = g->warp_size;
  p->memPitch = 2147483647; /* deviceQuery's "maximum memory pitch" */
  p->maxThreadsPerBlock = l->max_threads_per_block;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = l->max_threads_per_block;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = max_grid_x(g);
  p->maxGridSize[1] = p->maxGridSize[2] = MAX_GRID_YZ;
  p->totalConstMem = CONST_BYTES;
  p->major = g->cc_major;
  p->minor = g->cc_minor;
  p->textureAlignment = 512;      /* CUDA's value since CC 2.0 */
  p->texturePitchAlignment = 32;
  p->surfaceAlignment = 512;
  p->multiProcessorCount = g->sms;
  p->integrated = 0;              /* every board of the database is discrete */
  p->canMapHostMemory = 1;        /* cudaHostAllocMapped, cudaHostRegister (mem.c) */
  fill_textures(p, g);
  p->concurrentKernels = cc >= 20;
  p->ECCEnabled = 0;
  p->pciBusID = 1;                /* "0000:01:00.0", cudaDeviceGetPCIBusId */
  p->asyncEngineCount = cc >= 20 ? 2 : 1; /* copy engines: a documented constant */
  p->unifiedAddressing = 1;
  int bus = g->dram.bus_bits > 0 ? g->dram.bus_bits : DEFAULT_BUS_BITS;
  p->memoryBusWidth = bus;
  p->l2CacheSize = g->cache.l2_bytes;
  /* CC 8.0+: a set-aside of three quarters of the L2 (A100: 30 of 40 MiB)
   * and a 128 MiB - 4 KiB window, as A100 reports them */
  p->persistingL2CacheMaxSize = cc >= 80 ? g->cache.l2_bytes / 4 * 3 : 0;
  p->accessPolicyMaxWindowSize = cc >= 80 ? 134213632 : 0;
  p->maxThreadsPerMultiProcessor = l->max_threads_per_sm;
  p->streamPrioritiesSupported = cc >= 35;
  p->globalL1CacheSupported = g->cache.l1_caches_global;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = (size_t)l->shared_per_sm;
  p->regsPerMultiprocessor = l->regs_per_sm;
  p->managedMemory = 1;
  p->computePreemptionSupported = cc >= 60;
  /* registered memory gets a device address of its own (mem.c) */
  p->canUseHostPointerForRegisteredMem = 0;
  p->cooperativeLaunch = 1;       /* cudaLaunchCooperativeKernel (coop.c) */
  p->sharedMemPerBlockOptin = (size_t)l->max_shared_per_block;
  p->maxBlocksPerMultiProcessor = l->max_blocks_per_sm;
  p->reservedSharedMemPerBlock = (size_t)l->shared_reserved_per_block;
  p->hostRegisterSupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->memoryPoolsSupported = 1;    /* cudaMallocAsync and pools (pool.c) */
  p->clusterLaunch = 0;           /* clusters are not supported */
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  x->clock_khz = (int)lround(g->clock_ghz * 1e6);
  /* the database's memory clock where it has one (as deviceQuery reports
   * it), else from the bandwidth, so that 2 x clock x bus bytes is it */
  x->mem_clock_khz = isfinite(g->dram.clock_mhz) && g->dram.clock_mhz > 0
                         ? (int)lround(g->dram.clock_mhz * 1e3)
                         : (int)lround(g->mem_bandwidth_gbs * 1e6 / (2.0 * bus / 8.0));
  x->kernel_exec_timeout = 0;
  x->compute_mode = 0;
  x->tex1d_linear = g->cc_major >= 6 ? 1 << 28 : 1 << 27;
  double fp64 = ws_gpu_p(g, WS_GP_WARPSIGHT_FP64_LANES_PER_SM);
  x->fp64_ratio = isfinite(fp64) && fp64 > 0 ? (int)lround(g->cores_per_sm / fp64) : 32;
  x->mem_sync_domains = 1;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  dev_extra x;
  if (!e) fill_props(prop, &x, rt->gpu, rt->memory_budget);
  return rt_done(e);
}

/* Every attribute of device_attrs.def; -1 for a value that is none. */
static int attr_value(int *v, int attr, const ws_gpu *g, uint64_t memory) {
  cudaDeviceProp prop;
  dev_extra ex;
  const cudaDeviceProp *p = &prop;
  const dev_extra *x = &ex;
  fill_props(&prop, &ex, g, memory);
  switch (attr) {
#define ATTR(name, value, expr) \
  case value: *v = (int)(expr); return 0;
#include "cudart/device_attrs.def"
#undef ATTR
  default: return -1;
  }
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device) {
  if (!value) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  /* a value CUDA 13 does not define is cudaErrorInvalidValue, as in CUDA */
  if (!e && attr_value(value, attr, rt->gpu, rt->memory_budget)) e = cudaErrorInvalidValue;
  return rt_done(e);
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  if (!pciBusId || len <= 0) return rt_error(cudaErrorInvalidValue);
  cudaError_t e = device0(device);
  if (!e) snprintf(pciBusId, (size_t)len, "0000:01:00.0");
  return e;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  if (!device || !pciBusId) return rt_error(cudaErrorInvalidValue);
  if (strcasecmp(pciBusId, "0000:01:00.0") != 0 && strcasecmp(pciBusId, "01:00.0") != 0 &&
      strcasecmp(pciBusId, "0000:01:00") != 0)
    return rt_error(cudaErrorInvalidDevice);
  *device = 0;
  return device0(0);
}

/* --- limits and cache configuration ---------------------------------------------
 * Kept and answered (cudaDeviceGetLimit returns what was set, CUDA's
 * defaults before); the emulator's own bounds apply whatever they say
 * (512 KiB of local memory per thread, 64 MiB of printf output per launch,
 * docs/emulator.md).  The cache configurations are preferences: the
 * profile and the models do not change with them. */

cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  int cc = rt->gpu ? rt->gpu->cc_major * 10 + rt->gpu->cc_minor : 0;
  if (!e && (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize ||
             (limit == cudaLimitPersistingL2CacheSize && cc < 80)))
    e = cudaErrorUnsupportedLimit;
  if (!e && limit == cudaLimitStackSize && value > WS_EMU_MAX_LOCAL_BYTES)
    e = cudaErrorMemoryAllocation; /* more stack than a thread may have */
  if (!e && limit == cudaLimitPersistingL2CacheSize && value > (size_t)rt->gpu->cache.l2_bytes)
    e = cudaErrorInvalidValue;
  if (!e) rt->limits[limit] = value;
  return rt_done(e);
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, int limit) {
  if (!pValue) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize))
    e = cudaErrorUnsupportedLimit;
  if (!e) *pValue = rt->limits[limit];
  return rt_done(e);
}

/* A device-wide configuration kept in the state (the cache configuration,
 * 0..3, or the deprecated shared-memory bank size, 0..2): written from
 * `in` when out is NULL, else read. */
static cudaError_t device_config(int bank, int in, int *out) {
  if (!out && (in < 0 || in > (bank ? 2 : cudaFuncCachePreferEqual)))
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  int *field = bank ? &rt->shmem_config : &rt->cache_config;
  cudaError_t e = rt_sticky(rt);
  if (!e && out) *out = *field;
  if (!e && !out) *field = in;
  return rt_done(e);
}

cudaError_t cudaDeviceSetCacheConfig(int cacheConfig) { return device_config(0, cacheConfig, NULL); }
cudaError_t cudaDeviceGetCacheConfig(int *pCacheConfig) {
  return pCacheConfig ? device_config(0, 0, pCacheConfig) : rt_error(cudaErrorInvalidValue);
}
/* Shared-memory bank configuration (deprecated in CUDA 13, 4-byte banks). */
cudaError_t cudaDeviceSetSharedMemConfig(int bankConfig) { return device_config(1, bankConfig, NULL); }
cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig) {
  return pConfig ? device_config(1, 0, pConfig) : rt_error(cudaErrorInvalidValue);
}

/* --- a single-GPU machine ------------------------------------------------------ */

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  if (!canAccessPeer) return rt_error(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return rt_error(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return device0(0);
}

/* The only peer there could be is the device itself: CUDA answers
 * cudaErrorInvalidDevice for that. */
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (flags) return rt_error(cudaErrorInvalidValue);
  (void)peerDevice;
  return rt_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  (void)peerDevice;
  return rt_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetP2PAttribute(int *value, int attr, int srcDevice, int dstDevice) {
  (void)attr, (void)srcDevice, (void)dstDevice;
  if (!value) return rt_error(cudaErrorInvalidValue);
  return rt_error(cudaErrorInvalidDevice);
}

/* No driver sits under this runtime: every driver entry point is "not
 * found", which a program must already handle for an older driver. */
static cudaError_t no_driver_entry(const char *symbol, void **funcPtr, int *status) {
  if (!symbol || !funcPtr) return rt_error(cudaErrorInvalidValue);
  *funcPtr = NULL;
  if (status) *status = cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}
cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    int *driverStatus) {
  (void)flags;
  return no_driver_entry(symbol, funcPtr, driverStatus);
}
cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                         unsigned long long flags, int *driverStatus) {
  (void)flags;
  return no_driver_entry(symbol, funcPtr, driverStatus);
}
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                             unsigned int cudaVersion, unsigned long long flags,
                                             int *driverStatus) {
  (void)cudaVersion, (void)flags;
  return no_driver_entry(symbol, funcPtr, driverStatus);
}
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                  unsigned int cudaVersion,
                                                  unsigned long long flags, int *driverStatus) {
  (void)cudaVersion, (void)flags;
  return no_driver_entry(symbol, funcPtr, driverStatus);
}

/* Profiling is always on (every launch is profiled): start and stop are
 * accepted. */
cudaError_t cudaProfilerStart(void) { return device0(0); }
cudaError_t cudaProfilerStop(void) { return device0(0); }
cudaError_t cudaCtxResetPersistingL2Cache(void) { return device0(0); }
cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(int target, int scope) {
  (void)target, (void)scope;
  return device0(0);
}

/* Frees every allocation and clears a kernel fault, as on a GPU; the
 * registered modules stay (their variables start again from the PTX). */
cudaError_t cudaDeviceReset(void) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt->unloading ? cudaErrorCudartUnloading : cudaSuccess;
  if (!e) {
    rt->nmirrors = 0; /* mapped pages stay (a stale host pointer reads, not crashes) */
    for (size_t i = 0; i < rt->nallocs; i++) free(rt->allocs[i].advice);
    rt->nallocs = 0;
    rt->alloc_bytes = 0;
    for (size_t i = 0; i < rt->nhostmem; i++) rt->hostmem[i].dev = 0;
    rt->default_pool.used = 0;
    for (rt_pool *p = rt->pools; p; p = p->next) p->used = 0;
    ws_emu_device_free(rt->dev);
    rt->dev = NULL;
    rt->sticky = cudaSuccess;
  }
  return rt_done(e);
}

/* --- functions --------------------------------------------------------------------- */

/* A kernel's resources (resources.c: the cubin's, ptxas's or the PTX's),
 * as the profiler records them; the sticky error first, if there is one. */
static cudaError_t func_resources(ws_rt *rt, const void *func, rt_func **fo,
                                  ws_prof_resources *r) {
  cudaError_t e = rt_sticky(rt);
  if (e) return e;
  rt_func *f = rt_find_func(rt, func);
  if (!f) return cudaErrorInvalidDeviceFunction;
  if ((e = rt_func_resources(rt, f, r, NULL))) return e;
  *fo = f;
  return cudaSuccess;
}

static int finite_int(double v) { return isfinite(v) && v < INT_MAX ? (int)v : 0; }

/* The most dynamic shared memory a launch of f may ask for: what
 * cudaFuncSetAttribute set, else 48 KiB less its static shared memory. */
static int max_dynamic(const rt_func *f, int static_bytes) {
  if (f->max_dyn_shared >= 0) return f->max_dyn_shared;
  return static_bytes < 49152 ? 49152 - static_bytes : 0;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  if (!attr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e) {
    const ws_ptx_perf *pf = &ws_emu_program_kernel(f->prog)->perf;
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = (size_t)finite_int(r.shared_bytes_per_block);
    attr->localSizeBytes = (size_t)finite_int(r.local_bytes_per_thread);
    attr->numRegs = finite_int(r.registers_per_thread);
    attr->maxThreadsPerBlock = rt->gpu->limits.max_threads_per_block;
    if (pf->nmaxntid) {
      uint64_t m = (uint64_t)pf->maxntid[0] * pf->maxntid[1] * pf->maxntid[2];
      if (m < (uint64_t)attr->maxThreadsPerBlock) attr->maxThreadsPerBlock = (int)m;
    }
    attr->ptxVersion = rt->modules[f->module].arch;
    attr->binaryVersion = rt->modules[f->module].arch;
    attr->maxDynamicSharedSizeBytes = max_dynamic(f, (int)attr->sharedSizeBytes);
    attr->preferredShmemCarveout = -1; /* no preference set */
  }
  return rt_done(e);
}

/* The sticky error first: with an unknown WARPSIGHT_GPU there is no GPU to
 * check the value against (issue 24, row 8). */
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e && attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    int st = finite_int(r.shared_bytes_per_block);
    if (value < 0 || value > rt->gpu->limits.max_shared_per_block - st)
      e = cudaErrorInvalidValue;
    else
      f->max_dyn_shared = value;
  } else if (!e && attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100) e = cudaErrorInvalidValue; /* a hint, kept by nobody */
  } else if (!e && attr >= 10 && attr <= 15) {
    /* the cluster attributes: named, so the user knows what is missing */
    /* static strings: rt_unsupported keeps the pointer to say each once */
#define CLUSTER_ATTR(a) "cudaFuncSetAttribute(cudaFuncAttribute" a ") (thread-block clusters)"
    static const char *const names[] = {
        CLUSTER_ATTR("ClusterDimMustBeSet"),        CLUSTER_ATTR("RequiredClusterWidth"),
        CLUSTER_ATTR("RequiredClusterHeight"),      CLUSTER_ATTR("RequiredClusterDepth"),
        CLUSTER_ATTR("NonPortableClusterSizeAllowed"), CLUSTER_ATTR("ClusterSchedulingPolicyPreference")};
#undef CLUSTER_ATTR
    e = rt_unsupported(names[attr - 10]);
  } else if (!e) {
    e = cudaErrorInvalidValue; /* no cudaFuncAttribute, as in CUDA */
  }
  return rt_done(e);
}

/* Kernel handles are the host stubs (__cudaGetKernel). */
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, int attr, int value, int device) {
  if (device != 0) return rt_error(cudaErrorInvalidDevice);
  return cudaFuncSetAttribute((const void *)kernel, attr, value);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig) {
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_func *f = e ? NULL : rt_find_func(rt, func);
  if (!e && !f) e = cudaErrorInvalidDeviceFunction;
  if (!e) f->cache_config = cacheConfig;
  return rt_done(e);
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config) {
  if (config < 0 || config > 2) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && !rt_find_func(rt, func)) e = cudaErrorInvalidDeviceFunction;
  return rt_done(e);
}

/* Active blocks per SM for blocks of blockSize threads and dynSmem dynamic
 * shared bytes; 0 when such a block cannot run at all.  Sizes are added in
 * 64 bits: 2^32 dynamic bytes are 0 blocks, not a wrapped int (issue 24,
 * row 9). */
int rt_active_blocks(const ws_rt *rt, const ws_prof_resources *r, int blockSize, uint64_t dynSmem) {
  uint64_t shared = (uint64_t)finite_int(r->shared_bytes_per_block) + dynSmem;
  if (shared > (uint64_t)rt->gpu->limits.max_shared_per_block || shared > INT_MAX) return 0;
  ws_occupancy_in in = {blockSize, finite_int(r->registers_per_thread), (int)shared};
  ws_occupancy o;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_gpu_occupancy_compute(&o, &rt->gpu->limits, rt->gpu->warp_size, &in, &d);
  ws_diag_free(&d);
  return st ? 0 : o.active_blocks_per_sm;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned flags) {
  if (!numBlocks || blockSize <= 0 || flags > 1) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e) *numBlocks = rt_active_blocks(rt, &r, blockSize, dynamicSMemSize);
  return rt_done(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

/* The most dynamic shared memory per block that still lets numBlocks
 * blocks of blockSize threads reside on one SM (0 when they cannot). */
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize) {
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e) {
    uint64_t lo = 0, hi = (uint64_t)rt->gpu->limits.max_shared_per_block;
    if (rt_active_blocks(rt, &r, blockSize, 0) < numBlocks) {
      *dynamicSmemSize = 0;
    } else { /* the largest size that keeps numBlocks: occupancy falls as it grows */
      while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (rt_active_blocks(rt, &r, blockSize, mid) >= numBlocks)
          lo = mid;
        else
          hi = mid - 1;
      }
      int cap = max_dynamic(f, finite_int(r.shared_bytes_per_block));
      *dynamicSmemSize = (size_t)(lo < (uint64_t)cap ? lo : (uint64_t)cap);
    }
  }
  return rt_done(e);
}
