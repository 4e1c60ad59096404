/*
 * pool.c — stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and
 * memory pools.  Every operation has finished when its call returns
 * (rt.h), so an allocation in stream order is an allocation now; a pool
 * keeps the attributes a program sets and the statistics it reads (bytes in
 * use and their high-water mark), and its allocations are the device's own
 * (ws_rt.allocs, each marked with its pool).
 *
 * In a capturing stream, cudaMallocAsync allocates at once (a graph's
 * allocation has one address for the graph's life in CUDA too) and records
 * an allocation node, cudaFreeAsync a free node; such an allocation is a
 * graph's (rt_alloc.graph): it keeps its address until exit, whoever frees
 * it (docs/exec.md, "Graphs").
 */
#include <stdlib.h>
#include <string.h>

#include "cudart/exports.h"
#include "cudart/rt.h"

static int capturing(ws_rt *rt, cudaStream_t s, cudaError_t *e) {
  rt_stream *st = NULL;
  *e = rt_find_stream(rt, s, &st);
  return st && st->cap;
}

static rt_pool *find_pool(ws_rt *rt, cudaMemPool_t h) {
  if (h == (cudaMemPool_t)&rt->default_pool) return &rt->default_pool;
  for (rt_pool *p = rt->pools; p; p = p->next)
    if (p == (rt_pool *)h) return p;
  return NULL;
}

/* From pool h, or the current pool when h is NULL. */
static cudaError_t malloc_async(void **ptr, size_t size, cudaMemPool_t h, cudaStream_t s) {
  if (!ptr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t a = 0;
  rt_pool *pool = e ? NULL : h ? find_pool(rt, h) : rt->current_pool;
  if (!e && !pool) e = cudaErrorInvalidValue;
  int cap = e ? 0 : capturing(rt, s, &e);
  /* a graph's allocation comes from the graph's memory, as in CUDA, not
   * from the pool: the pool's statistics leave it out */
  if (!e) e = rt_dev_alloc(rt, &a, size, "cudaMallocAsync", cap ? NULL : pool);
  if (!e && cap) {
    rt_alloc *ra = rt_find_alloc(rt, a);
    if (ra) ra->graph = 1;
    rt_op op = {.kind = RT_OP_MEM_ALLOC, .u.mem = {a, size}};
    e = rt_submit(rt, s, &op);
  }
  *ptr = e ? NULL : (void *)(uintptr_t)a;
  return rt_done(e);
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t s) {
  return malloc_async(devPtr, size, NULL, s);
}
cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t s) {
  return malloc_async(devPtr, size, NULL, s);
}
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t s) {
  if (!pool) return rt_error(cudaErrorInvalidValue);
  return malloc_async(ptr, size, pool, s);
}
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t pool,
                                         cudaStream_t s) {
  return cudaMallocFromPoolAsync(ptr, size, pool, s);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t s) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  int cap = e ? 0 : capturing(rt, s, &e);
  uint64_t addr = (uint64_t)(uintptr_t)devPtr;
  if (!e && !cap && devPtr) e = rt_user_free(rt, addr);
  rt_alloc *a = !e && cap ? rt_graph_alloc(rt, addr) : NULL;
  /* a free node frees a graph's allocation only, as in CUDA */
  if (!e && cap && !a) e = cudaErrorInvalidValue;
  if (!e && cap) {
    rt_op op = {.kind = RT_OP_MEM_FREE, .u.mem = {addr, a->bytes}};
    e = rt_submit(rt, s, &op);
  }
  return rt_done(e);
}
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t s) { return cudaFreeAsync(devPtr, s); }

/* --- pools --------------------------------------------------------------------- */

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  if (!memPool) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  if (!e) *memPool = (cudaMemPool_t)&rt->default_pool;
  return rt_done(e);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  if (!memPool) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  if (!e) *memPool = (cudaMemPool_t)rt->current_pool;
  return rt_done(e);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_pool *p = e ? NULL : find_pool(rt, memPool);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  if (!e && !p) e = cudaErrorInvalidValue;
  if (!e) rt->current_pool = p;
  return rt_done(e);
}

/* Pinned device pools on device 0 only (no IPC handle types). */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const cudaMemPoolProps *props) {
  if (!memPool || !props) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && (props->allocType != 1 || props->location.type != 1 || props->location.id != 0))
    e = cudaErrorInvalidValue; /* cudaMemAllocationTypePinned on cudaMemLocationTypeDevice 0 */
  if (!e && props->handleTypes) e = rt_unsupported("cudaMemPoolCreate with shareable handle types");
  rt_pool *p = e ? NULL : calloc(1, sizeof *p);
  if (!e && !p) e = cudaErrorMemoryAllocation;
  if (!e) {
    p->next = rt->pools;
    rt->pools = p;
    *memPool = (cudaMemPool_t)p;
  }
  return rt_done(e);
}

/* A pool's live allocations are freed with it, as CUDA does when the pool
 * is destroyed. */
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_pool **pp = &rt->pools;
  while (!e && *pp && *pp != (rt_pool *)memPool) pp = &(*pp)->next;
  if (!e && !*pp) e = cudaErrorInvalidValue; /* the default pool cannot be destroyed */
  if (!e) {
    rt_pool *p = *pp;
    for (size_t i = rt->nallocs; i-- > 0;)
      if (rt->allocs[i].pool == p) rt_dev_free(rt, rt->allocs[i].addr);
    *pp = p->next;
    if (rt->current_pool == p) rt->current_pool = &rt->default_pool;
    free(p);
  }
  return rt_done(e);
}

/* Nothing is reserved beyond what is in use: trimming has nothing to do. */
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  (void)minBytesToKeep;
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && !find_pool(rt, memPool)) e = cudaErrorInvalidValue;
  return rt_done(e);
}

/* A pool attribute read (out) or written (in): the reuse flags are ints,
 * the threshold and the statistics uint64_t; "reserved" is what is in use
 * (no memory is held back); of the statistics only the high marks can be
 * written, and only 0 (a reset). */
static cudaError_t pool_attr(cudaMemPool_t memPool, int attr, void *out, const void *in) {
  ws_rt *rt = rt_enter();
  cudaError_t e = out || in ? rt_sticky(rt) : cudaErrorInvalidValue;
  rt_pool *p = e ? NULL : find_pool(rt, memPool);
  if (!e && !p) e = cudaErrorInvalidValue;
  int reuse = attr >= cudaMemPoolReuseFollowEventDependencies &&
              attr <= cudaMemPoolReuseAllowInternalDependencies;
  int high = attr == cudaMemPoolAttrReservedMemHigh || attr == cudaMemPoolAttrUsedMemHigh;
  int current = attr == cudaMemPoolAttrReservedMemCurrent || attr == cudaMemPoolAttrUsedMemCurrent;
  uint64_t v = 0;
  if (!e && reuse) {
    if (in) p->reuse[attr - 1] = *(const int *)in != 0;
    else *(int *)out = p->reuse[attr - 1];
  } else if (!e && attr == cudaMemPoolAttrReleaseThreshold) {
    if (in) p->threshold = *(const uint64_t *)in;
    else v = p->threshold;
  } else if (!e && (high || current) && in) {
    if (!high || *(const uint64_t *)in != 0) e = cudaErrorInvalidValue;
    else p->used_high = p->used;
  } else if (!e && (high || current)) {
    v = high ? p->used_high : p->used;
  } else if (!e) {
    e = cudaErrorInvalidValue;
  }
  if (!e && out && !reuse) *(uint64_t *)out = v;
  return rt_done(e);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, int attr, void *value) {
  return pool_attr(memPool, attr, NULL, value);
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, int attr, void *value) {
  return pool_attr(memPool, attr, value, NULL);
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const void *descList, size_t count) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && (!find_pool(rt, memPool) || (count && !descList))) e = cudaErrorInvalidValue;
  return rt_done(e);
}

/* The device always has read-write access to its own pools. */
cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t memPool, cudaMemLocation *location) {
  if (!flags || !location) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && !find_pool(rt, memPool)) e = cudaErrorInvalidValue;
  if (!e) *flags = location->type == 1 && location->id == 0 ? 3 : 0; /* cudaMemAccessFlagsProtReadWrite */
  return rt_done(e);
}

/* CUDA 13's pools by location: device 0's pinned pools only (no host
 * pools: cudaDevAttrHostMemoryPoolsSupported is 0). */
static cudaError_t device_pool(const cudaMemLocation *location, int type) {
  if (!location || location->type != 1 || type != 1) return cudaErrorInvalidValue;
  return location->id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, cudaMemLocation *location, int type) {
  cudaError_t e = device_pool(location, type);
  return e ? rt_error(e) : cudaDeviceGetDefaultMemPool(memPool, 0);
}
cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, cudaMemLocation *location, int type) {
  cudaError_t e = device_pool(location, type);
  return e ? rt_error(e) : cudaDeviceGetMemPool(memPool, 0);
}
cudaError_t cudaMemSetMemPool(cudaMemLocation *location, int type, cudaMemPool_t memPool) {
  cudaError_t e = device_pool(location, type);
  return e ? rt_error(e) : cudaDeviceSetMemPool(0, memPool);
}

/* --- graph memory ---------------------------------------------------------------
 * A graph's allocations stay until exit (rt_alloc.graph), so there is
 * nothing to trim, and the memory in use is also the memory reserved and
 * the high-water mark of both: the bytes of every graph allocation. */

cudaError_t cudaDeviceGraphMemTrim(int device) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  return rt_done(e);
}

enum { GRAPH_MEM_USED = 0, GRAPH_MEM_USED_HIGH, GRAPH_MEM_RESERVED, GRAPH_MEM_RESERVED_HIGH };

cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  if (!value || attr < GRAPH_MEM_USED || attr > GRAPH_MEM_RESERVED_HIGH)
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  uint64_t bytes = 0;
  for (size_t i = 0; !e && i < rt->nallocs; i++)
    if (rt->allocs[i].graph) bytes += rt->allocs[i].bytes;
  if (!e) *(uint64_t *)value = bytes;
  return rt_done(e);
}

/* Only the high-water marks can be set, and only to 0 (CUDA's rule); they
 * are the memory in use, so resetting changes nothing. */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  if (!value || (attr != GRAPH_MEM_USED_HIGH && attr != GRAPH_MEM_RESERVED_HIGH) ||
      *(const uint64_t *)value != 0)
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && device != 0) e = cudaErrorInvalidDevice;
  return rt_done(e);
}
