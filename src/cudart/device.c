/*
 * device.c — the device (one: the chosen GPU of the database, WARPSIGHT_GPU),
 * its properties and attributes, function attributes and occupancy (the
 * project's occupancy rules, ws_gpu_occupancy_compute), streams and events.
 *
 * Facts the database does not hold are answered with CUDA's limits for the
 * compute capability (grid and block dimensions, constant memory) and the
 * emulator's memory budget (RT_MEMORY_BUDGET, or WARPSIGHT_MAX_MEMORY) for the
 * global memory size;
 * docs/exec.md lists them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "warpsight/profiler.h"

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  *count = rt->gpu ? 1 : 0;
  rt_leave();
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : rt_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device) {
  if (!device) return rt_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version) {
  if (!version) return rt_error(cudaErrorInvalidValue);
  *version = 13000; /* the CUDA 13.0 ABI this runtime implements */
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

/* CUDA's grid limits (Programming Guide, Technical Specifications: x up to
 * 2^31-1 from CC 3.0, 65535 before; y and z 65535) and 64 KB of constant
 * memory (every CC). */
static int max_grid_x(const ws_gpu *g) { return g->cc_major >= 3 ? 2147483647 : 65535; }
#define MAX_GRID_YZ 65535
#define CONST_BYTES 65536

static void fill_props(cudaDeviceProp *p, const ws_gpu *g, uint64_t memory) {
  const ws_sm_limits *l = &g->limits;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s (warpsight)", g->full_name ? g->full_name : g->name);
  p->totalGlobalMem = (size_t)(memory == UINT64_MAX ? ws_emu_default_memory_budget() : memory);
  p->sharedMemPerBlock = (size_t)(l->max_shared_per_block < 49152 ? l->max_shared_per_block : 49152);
  p->regsPerBlock = l->max_regs_per_block;
  p->warpSize = g->warp_size;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = l->max_threads_per_block;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = l->max_threads_per_block;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = max_grid_x(g);
  p->maxGridSize[1] = p->maxGridSize[2] = MAX_GRID_YZ;
  p->totalConstMem = CONST_BYTES;
  p->major = g->cc_major;
  p->minor = g->cc_minor;
  p->textureAlignment = 512;
  p->multiProcessorCount = g->sms;
  p->concurrentKernels = 1;
  p->unifiedAddressing = 1;
  p->l2CacheSize = g->cache.l2_bytes;
  p->maxThreadsPerMultiProcessor = l->max_threads_per_sm;
  p->globalL1CacheSupported = g->cache.l1_caches_global;
  p->sharedMemPerMultiprocessor = (size_t)l->shared_per_sm;
  p->regsPerMultiprocessor = l->regs_per_sm;
  p->managedMemory = 1;
  p->sharedMemPerBlockOptin = (size_t)l->max_shared_per_block;
  p->maxBlocksPerMultiProcessor = l->max_blocks_per_sm;
  p->reservedSharedMemPerBlock = (size_t)l->shared_reserved_per_block;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop) return rt_error(cudaErrorInvalidValue);
  if (device != 0) return rt_error(cudaErrorInvalidDevice);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt->gpu ? cudaSuccess : cudaErrorInitializationError;
  if (!e) fill_props(prop, rt->gpu, rt->memory_budget);
  rt_leave();
  return rt_error(e);
}

static int attr_value(int *v, int attr, const ws_gpu *g) {
  cudaDeviceProp p;
  fill_props(&p, g, RT_MEMORY_BUDGET); /* no attribute answers the memory size */
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
  case cudaDevAttrWarpSize: *v = p.warpSize; break;
  case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
  case cudaDevAttrClockRate: *v = (int)lround(g->clock_ghz * 1e6); break; /* kHz */
  case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
  case cudaDevAttrCanMapHostMemory: *v = 0; break;
  case cudaDevAttrConcurrentKernels: *v = p.concurrentKernels; break;
  case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrAsyncEngineCount: *v = 0; break;
  case cudaDevAttrUnifiedAddressing: *v = p.unifiedAddressing; break;
  case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: *v = p.managedMemory; break;
  case cudaDevAttrConcurrentManagedAccess: *v = 0; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
  case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p.reservedSharedMemPerBlock; break;
  default: return -1;
  }
  return 0;
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device) {
  if (!value) return rt_error(cudaErrorInvalidValue);
  if (device != 0) return rt_error(cudaErrorInvalidDevice);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt->gpu ? cudaSuccess : cudaErrorInitializationError;
  if (!e && attr_value(value, attr, rt->gpu)) {
    fprintf(stderr, "warpsight: error: cudaDeviceGetAttribute: attribute %d is not supported by "
            "warpsight's CUDA runtime (returns cudaErrorNotSupported; docs/exec.md lists those "
            "that are)\n", attr);
    e = cudaErrorNotSupported;
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaDeviceSynchronize(void) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt); /* every launch has already finished */
  rt_leave();
  return rt_error(e);
}

/* Frees every allocation and clears a kernel fault, as on a GPU; the
 * registered modules stay (their variables start again from the PTX). */
cudaError_t cudaDeviceReset(void) {
  ws_rt *rt = rt_enter();
  rt->nmanaged = 0; /* the mirrors' pages stay mapped (a stale host pointer reads, not crashes) */
  ws_emu_device_free(rt->dev);
  rt->dev = NULL;
  rt->sticky = cudaSuccess;
  rt_leave();
  return cudaSuccess;
}

/* --- functions ------------------------------------------------------------- */

/* A kernel's resources from its PTX (ws_prof_kernel_resources), as the
 * profiler records them; the sticky error first, if there is one. */
static cudaError_t func_resources(ws_rt *rt, const void *func, rt_func **fo,
                                  ws_prof_resources *r) {
  cudaError_t e = rt_sticky(rt);
  if (e) return e;
  rt_func *f = rt_find_func(rt, func);
  if (!f) return cudaErrorInvalidDeviceFunction;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  if (!p) return e;
  ws_prof_kernel_resources(r, rt_module_ptx(rt, f->module), ws_emu_program_kernel(p), rt->gpu);
  *fo = f;
  return cudaSuccess;
}

static int finite_int(double v) { return isfinite(v) ? (int)v : 0; }

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  if (!attr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e) {
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = (size_t)finite_int(r.shared_bytes_per_block);
    attr->localSizeBytes = (size_t)finite_int(r.local_bytes_per_thread);
    attr->numRegs = finite_int(r.registers_per_thread);
    attr->maxThreadsPerBlock = rt->gpu->limits.max_threads_per_block;
    attr->ptxVersion = rt->modules[f->module].arch;
    attr->binaryVersion = rt->modules[f->module].arch;
    attr->maxDynamicSharedSizeBytes = f->max_dyn_shared
                                          ? f->max_dyn_shared
                                          : 49152 - (int)attr->sharedSizeBytes;
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  ws_rt *rt = rt_enter();
  rt_func *f = rt_find_func(rt, func);
  cudaError_t e = f ? cudaSuccess : cudaErrorInvalidDeviceFunction;
  if (!e && attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > rt->gpu->limits.max_shared_per_block)
      e = cudaErrorInvalidValue;
    else
      f->max_dyn_shared = value;
  } else if (!e && attr != cudaFuncAttributePreferredSharedMemoryCarveout) {
    e = rt_unsupported("cudaFuncSetAttribute with this attribute");
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned flags) {
  (void)flags;
  if (!numBlocks || blockSize <= 0) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_func *f = NULL;
  ws_prof_resources r;
  cudaError_t e = func_resources(rt, func, &f, &r);
  if (!e) {
    ws_occupancy_in in = {blockSize, finite_int(r.registers_per_thread),
                          finite_int(r.shared_bytes_per_block) + (int)dynamicSMemSize};
    ws_occupancy o;
    ws_diag d = WS_DIAG_INIT;
    /* a block that cannot run at all has 0 active blocks, not an error */
    *numBlocks = ws_gpu_occupancy_compute(&o, &rt->gpu->limits, rt->gpu->warp_size, &in, &d)
                     ? 0
                     : o.active_blocks_per_sm;
    ws_diag_free(&d);
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

/* --- streams and events ----------------------------------------------------
 * Every launch and copy has finished when its call returns, so streams need
 * no queue: a stream is a handle, synchronising is checking the sticky
 * error, and an event records the predicted-time clock (rt.h). */

/* A new handle at the head of *list, or NULL; the caller holds rt_enter. */
static rt_handle *handle_new(rt_handle **list) {
  rt_handle *h = calloc(1, sizeof *h);
  if (h) {
    h->t_ms = NAN;
    h->next = *list;
    *list = h;
  }
  return h;
}

/* Unlink and free handle h of *list; cudaErrorInvalidResourceHandle when it
 * is not there.  The caller holds rt_enter. */
static cudaError_t handle_destroy(rt_handle **list, const void *h) {
  for (rt_handle **p = list; *p; p = &(*p)->next)
    if (*p == h) {
      rt_handle *dead = *p;
      *p = dead->next;
      free(dead);
      return cudaSuccess;
    }
  return cudaErrorInvalidResourceHandle;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority) {
  (void)flags, (void)priority;
  if (!s) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_stream *st = handle_new(&rt->streams);
  *s = (cudaStream_t)st;
  rt_leave();
  return st ? cudaSuccess : rt_error(cudaErrorMemoryAllocation);
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithPriority(s, 0, 0); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
  return cudaStreamCreateWithPriority(s, flags, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  ws_rt *rt = rt_enter();
  cudaError_t e = handle_destroy(&rt->streams, s);
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return cudaDeviceSynchronize();
}
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  (void)s, (void)e, (void)flags;
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned flags) {
  return cudaStreamWaitEvent(s, e, flags);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
  (void)flags;
  if (!e) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_event *ev = handle_new(&rt->events);
  *e = (cudaEvent_t)ev;
  rt_leave();
  return ev ? cudaSuccess : rt_error(cudaErrorMemoryAllocation);
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }

static rt_event *find_event(ws_rt *rt, cudaEvent_t e) {
  for (rt_event *p = rt->events; p; p = p->next)
    if (p == (rt_event *)e) return p;
  return NULL;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  ws_rt *rt = rt_enter();
  cudaError_t err = handle_destroy(&rt->events, e);
  rt_leave();
  return rt_error(err);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags) {
  (void)s, (void)flags;
  ws_rt *rt = rt_enter();
  rt_event *ev = find_event(rt, e);
  if (ev) ev->t_ms = rt->clock_ms;
  rt_leave();
  return ev ? cudaSuccess : rt_error(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  return cudaEventRecordWithFlags(e, s, 0);
}
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) {
  return cudaEventRecordWithFlags(e, s, 0);
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  ws_rt *rt = rt_enter();
  cudaError_t err = find_event(rt, e) ? rt_sticky(rt) : cudaErrorInvalidResourceHandle;
  rt_leave();
  return rt_error(err);
}

cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }

/* The PREDICTED GPU time of the kernels launched between the two records
 * (the primary model's, docs/exec.md), not the emulator's wall time. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  rt_event *a = find_event(rt, start), *b = find_event(rt, end);
  cudaError_t err = cudaSuccess;
  if (!a || !b)
    err = cudaErrorInvalidResourceHandle;
  else if (isnan(a->t_ms) || isnan(b->t_ms))
    err = cudaErrorInvalidResourceHandle; /* never recorded, as CUDA says */
  else
    *ms = (float)(b->t_ms - a->t_ms);
  rt_leave();
  return rt_error(err);
}
