/*
 * mem.c — memory: device allocations live in the emulator's device (one
 * global address space for every launch), registered here (ws_rt.allocs)
 * so that sizes, pools and pointer queries can be answered; host
 * allocations are plain host memory, registered too (ws_rt.hostmem), so a
 * foreign, stale or device pointer given to cudaFreeHost is answered with
 * CUDA's error, never freed (issue 24, row 3).
 *
 * Mirrors (docs/exec.md, "Memory"): device memory with a host copy that
 * holds the truth between launches; every launch copies each mirror to the
 * device before it runs and back after it (rt_mirror_sync).  Managed memory
 * is mirrored AT THE SAME ADDRESS (mmap with MAP_FIXED_NOREPLACE), so one
 * pointer value works on both sides, also when stored inside device data.
 * Mapped host memory (cudaHostAllocMapped) is placed the same way when the
 * pages are free; registered host memory (cudaHostRegister), and mapped
 * memory where the address is taken (under AddressSanitizer), keeps its
 * host address and gets a device address of its own
 * (cudaHostGetDevicePointer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "cudart/tex.h"
#include "util/checked.h"
#include "util/vec.h"

ws_emu_device *rt_device(ws_rt *rt) {
  if (rt->dev) return rt->dev;
  ws_diag d = WS_DIAG_INIT;
  ws_emu_device_options o = {rt->memory_budget};
  if (ws_emu_device_new(&rt->dev, &o, &d)) {
    rt_print_diag(&d);
    rt->dev = NULL;
  }
  ws_diag_free(&d);
  return rt->dev;
}

static rt_mirror *find_mirror(ws_rt *rt, uint64_t addr, uint64_t bytes) {
  for (size_t i = 0; i < rt->nmirrors; i++) {
    rt_mirror *m = &rt->mirrors[i];
    if (addr >= m->addr && bytes <= m->bytes && addr - m->addr <= m->bytes - bytes) return m;
  }
  return NULL;
}

void *rt_host_ptr(ws_rt *rt, uint64_t addr, uint64_t bytes) {
  rt_mirror *m = find_mirror(rt, addr, bytes);
  if (m) return m->host + (addr - m->addr);
  ws_emu_device *dev = rt_device(rt);
  return dev ? ws_emu_mem_host(dev, addr, bytes) : NULL;
}

static int page_mapped(const ws_rt *rt, uint64_t page) {
  for (size_t i = 0; i < rt->nmaps; i++)
    if (page >= rt->maps[i].lo && page < rt->maps[i].hi) return 1;
  return 0;
}

/* Map the pages of [lo, hi) not mapped yet, each run of them at once;
 * quiet: no message when an address is taken (the caller falls back). */
static int map_pages(ws_rt *rt, uint64_t lo, uint64_t hi, uint64_t ps, int quiet) {
  uint64_t p = lo;
  while (p < hi) {
    if (page_mapped(rt, p)) {
      p += ps;
      continue;
    }
    uint64_t e = p;
    while (e < hi && !page_mapped(rt, e)) e += ps;
    void *r = mmap((void *)(uintptr_t)p, e - p, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (r == MAP_FAILED || (uint64_t)(uintptr_t)r != p) {
      if (r != MAP_FAILED) munmap(r, e - p); /* an old kernel ignored the hint */
      if (!quiet)
        fprintf(stderr, "warpsight: error: cannot map managed memory at 0x%llx on the host (%s)\n",
                (unsigned long long)p, r == MAP_FAILED ? strerror(errno) : "address taken");
      return -1;
    }
    rt_map m = {p, e};
    if (WS_VEC_PUSH(rt->maps, rt->nmaps, rt->cap_maps, m)) {
      munmap(r, e - p);
      return -1;
    }
    p = e;
  }
  return 0;
}

int rt_mirror_add(ws_rt *rt, uint64_t addr, unsigned char *host, uint64_t bytes, int kind) {
  uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
  void *dev = rt_host_ptr(rt, addr, bytes);
  if (!dev) return -1;
  if (!host) {
    uint64_t lo = addr & ~(ps - 1), hi = (addr + (bytes ? bytes : 1) + ps - 1) & ~(ps - 1);
    if (map_pages(rt, lo, hi, ps, kind == RT_MIRROR_HOST)) return -1;
    host = (unsigned char *)(uintptr_t)addr;
    memcpy(host, dev, bytes); /* initial values (a PTX initialiser) */
  }
  rt_mirror m = {addr, host, bytes, kind, 0};
  return WS_VEC_PUSH(rt->mirrors, rt->nmirrors, rt->cap_mirrors, m) ? -1 : 0;
}

void rt_mirror_sync(ws_rt *rt, int to_device) {
  if (!rt->dev) return;
  for (size_t i = 0; i < rt->nmirrors; i++) {
    rt_mirror *m = &rt->mirrors[i];
    void *d = ws_emu_mem_host(rt->dev, m->addr, m->bytes);
    if (!d || !m->bytes) continue;
    if (to_device)
      memcpy(d, m->host, m->bytes);
    else if (!m->readonly)
      memcpy(m->host, d, m->bytes);
  }
}

void rt_mirror_unmap(ws_rt *rt) {
  for (size_t i = 0; i < rt->nmaps; i++)
    munmap((void *)(uintptr_t)rt->maps[i].lo, rt->maps[i].hi - rt->maps[i].lo);
  rt->nmaps = 0;
  rt->nmirrors = 0;
}

static void drop_mirror(ws_rt *rt, uint64_t addr) {
  for (size_t i = 0; i < rt->nmirrors; i++)
    if (rt->mirrors[i].addr == addr) {
      rt->mirrors[i] = rt->mirrors[--rt->nmirrors]; /* mapped pages stay until exit */
      return;
    }
}

/* --- the allocation registry ---------------------------------------------- */

/* The GPU's memory size is not in the database: the device has
 * rt->memory_budget bytes (RT_MEMORY_BUDGET unless WARPSIGHT_MAX_MEMORY). */
cudaError_t rt_dev_alloc(ws_rt *rt, uint64_t *addr, uint64_t size, const char *name,
                         rt_pool *pool) {
  ws_emu_device *dev = rt_device(rt);
  if (!dev) return cudaErrorInitializationError;
  if (WS_VEC_RESERVE(rt->allocs, rt->cap_allocs, rt->nallocs + 1)) return cudaErrorMemoryAllocation;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_emu_mem_alloc(dev, size, name, addr, &d);
  if (st) rt_print_diag(&d);
  ws_diag_free(&d);
  if (st) return cudaErrorMemoryAllocation;
  rt->allocs[rt->nallocs++] = (rt_alloc){*addr, size, 0, pool, NULL, 0};
  rt->alloc_bytes += size;
  if (pool) {
    pool->used += size;
    if (pool->used > pool->used_high) pool->used_high = pool->used;
  }
  return cudaSuccess;
}

rt_alloc *rt_find_alloc(ws_rt *rt, uint64_t addr) {
  for (size_t i = rt->nallocs; i-- > 0;) {
    rt_alloc *a = &rt->allocs[i];
    if (addr >= a->addr && addr - a->addr < (a->bytes ? a->bytes : 1)) return a;
  }
  return NULL;
}

cudaError_t rt_dev_free(ws_rt *rt, uint64_t addr) {
  size_t i = rt->nallocs;
  while (i-- > 0 && rt->allocs[i].addr != addr) {
  }
  if (i == (size_t)-1 || !rt->dev) return cudaErrorInvalidDevicePointer;
  rt_alloc a = rt->allocs[i];
  ws_diag d = WS_DIAG_INIT;
  int st = ws_emu_mem_free(rt->dev, addr, &d);
  ws_diag_free(&d);
  if (st) return cudaErrorInvalidDevicePointer;
  if (a.managed) drop_mirror(rt, addr);
  free(a.advice);
  if (a.pool) a.pool->used -= a.bytes;
  rt->alloc_bytes -= a.bytes;
  rt->allocs[i] = rt->allocs[--rt->nallocs];
  return cudaSuccess;
}

rt_alloc *rt_graph_alloc(ws_rt *rt, uint64_t addr) {
  rt_alloc *a = rt_find_alloc(rt, addr);
  return a && a->addr == addr && a->graph ? a : NULL;
}

cudaError_t rt_user_free(ws_rt *rt, uint64_t addr) {
  return rt_graph_alloc(rt, addr) ? cudaSuccess : rt_dev_free(rt, addr);
}

/* --- device allocation ------------------------------------------------------ */

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (!devPtr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t a = 0;
  if (!e) e = rt_dev_alloc(rt, &a, size, "cudaMalloc", NULL);
  *devPtr = e ? NULL : (void *)(uintptr_t)a;
  return rt_done(e);
}

/* Rows of pitched allocations start at multiples of 512 bytes, the
 * texture alignment cudaDeviceProp reports (device.c). */
#define PITCH_ALIGN 512

/* pitch = width rounded up to PITCH_ALIGN, and pitch x rows, checked. */
static cudaError_t pitched_size(uint64_t width, uint64_t rows, uint64_t *pitch, uint64_t *bytes) {
  if (width > UINT64_MAX - PITCH_ALIGN) return cudaErrorInvalidValue;
  *pitch = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
  return ws_mul_u64(bytes, *pitch, rows) ? cudaErrorMemoryAllocation : cudaSuccess;
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  if (!devPtr || !pitch) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t p = 0, n = 0, a = 0;
  if (!e) e = pitched_size(width, height, &p, &n);
  if (!e) e = rt_dev_alloc(rt, &a, n, "cudaMallocPitch", NULL);
  *devPtr = e ? NULL : (void *)(uintptr_t)a;
  if (!e) *pitch = (size_t)p;
  return rt_done(e);
}

cudaError_t cudaMalloc3D(cudaPitchedPtr *pitchedDevPtr, cudaExtent extent) {
  if (!pitchedDevPtr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t p = 0, n = 0, a = 0, rows;
  if (!e && ws_mul_u64(&rows, extent.height, extent.depth)) e = cudaErrorMemoryAllocation;
  if (!e) e = pitched_size(extent.width, rows, &p, &n);
  if (!e) e = rt_dev_alloc(rt, &a, n, "cudaMalloc3D", NULL);
  if (!e) *pitchedDevPtr = (cudaPitchedPtr){(void *)(uintptr_t)a, p, extent.width, extent.height};
  return rt_done(e);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t a = 0, ps = (uint64_t)sysconf(_SC_PAGESIZE), padded = 0;
  /* One spare page beyond the last used one keeps mirrors of neighbouring
   * allocations on pages of their own (mem.c's header). */
  if (!e && (size > UINT64_MAX - 2 * ps)) e = cudaErrorMemoryAllocation;
  if (!e) padded = ((size + ps - 1) & ~(ps - 1)) + ps;
  if (!e) e = rt_dev_alloc(rt, &a, padded, "cudaMallocManaged", NULL);
  if (!e) {
    rt_find_alloc(rt, a)->managed = 1;
    if (rt_mirror_add(rt, a, NULL, size, RT_MIRROR_MANAGED)) {
      rt_dev_free(rt, a);
      e = cudaErrorMemoryAllocation;
    }
  }
  *devPtr = e ? NULL : (void *)(uintptr_t)a;
  return rt_done(e);
}

cudaError_t cudaFree(void *devPtr) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && devPtr) e = rt_user_free(rt, (uint64_t)(uintptr_t)devPtr);
  return rt_done(e);
}

/* Free and total device memory: the budget (cudaDeviceProp.totalGlobalMem)
 * less the live allocations. */
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
  if (!free_bytes || !total) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    uint64_t t = rt->memory_budget == UINT64_MAX ? ws_emu_default_memory_budget() : rt->memory_budget;
    *total = (size_t)t;
    *free_bytes = (size_t)(rt->alloc_bytes < t ? t - rt->alloc_bytes : 0);
  }
  return rt_done(e);
}

/* --- host memory -------------------------------------------------------------- */

static rt_hostmem *find_host(ws_rt *rt, const void *p, int exact) {
  uintptr_t a = (uintptr_t)p;
  for (size_t i = 0; i < rt->nhostmem; i++) {
    rt_hostmem *h = &rt->hostmem[i];
    uintptr_t b = (uintptr_t)h->ptr;
    if (exact ? a == b : a >= b && a - b < (h->bytes ? h->bytes : 1)) return h;
  }
  return NULL;
}

/* Give host memory h a device address: a device allocation mirrored by the
 * host bytes (at the same address when `same` asks for it and the pages
 * are free, else where they are). */
static cudaError_t host_mirror(ws_rt *rt, rt_hostmem *h, int same) {
  if (h->dev) return cudaSuccess;
  uint64_t a = 0, ps = (uint64_t)sysconf(_SC_PAGESIZE), padded = h->bytes;
  if (same) padded = ((h->bytes + ps - 1) & ~(ps - 1)) + ps; /* as cudaMallocManaged */
  cudaError_t e = rt_dev_alloc(rt, &a, padded, "mapped host memory", NULL);
  if (e) return e;
  if (same && rt_mirror_add(rt, a, NULL, h->bytes, RT_MIRROR_HOST) == 0) {
    memcpy((void *)(uintptr_t)a, h->ptr, h->bytes);
    free(h->ptr);
    h->ptr = (unsigned char *)(uintptr_t)a;
    h->mapped_at_dev = 1;
  } else if (rt_mirror_add(rt, a, h->ptr, h->bytes, RT_MIRROR_HOST)) {
    rt_dev_free(rt, a);
    return cudaErrorMemoryAllocation;
  } else { /* the device only reads it, and its pages may be read-only */
    rt->mirrors[rt->nmirrors - 1].readonly = (h->flags & cudaHostRegisterReadOnly) != 0;
  }
  h->dev = a;
  return cudaSuccess;
}

static void host_unmirror(ws_rt *rt, rt_hostmem *h) {
  if (!h->dev) return;
  drop_mirror(rt, h->dev);
  rt_dev_free(rt, h->dev);
  h->dev = 0;
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  if (!pHost || (flags & ~7u)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  void *p = NULL;
  if (!e && WS_VEC_RESERVE(rt->hostmem, rt->cap_hostmem, rt->nhostmem + 1))
    e = cudaErrorMemoryAllocation;
  if (!e && posix_memalign(&p, 256, size ? size : 1)) e = cudaErrorMemoryAllocation;
  if (!e) {
    memset(p, 0, size ? size : 1);
    rt->hostmem[rt->nhostmem++] = (rt_hostmem){p, size, flags, 0, 0, 0};
    /* mapped memory: a kernel may read it through the same pointer (UVA) */
    if (flags & cudaHostAllocMapped) {
      rt_hostmem *h = &rt->hostmem[rt->nhostmem - 1];
      e = host_mirror(rt, h, 1);
      if (e) {
        free(h->ptr);
        rt->nhostmem--;
      }
    }
  }
  *pHost = e ? NULL : rt->hostmem[rt->nhostmem - 1].ptr;
  return rt_done(e);
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

/* Only what cudaMallocHost/cudaHostAlloc returned, once: anything else
 * (a device pointer, a stack address, a second free) is
 * cudaErrorInvalidValue, as CUDA answers it. */
cudaError_t cudaFreeHost(void *ptr) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_hostmem *h = e || !ptr ? NULL : find_host(rt, ptr, 1);
  if (!e && ptr && (!h || h->registered)) e = cudaErrorInvalidValue;
  if (h && !e) {
    host_unmirror(rt, h);
    if (!h->mapped_at_dev) free(h->ptr); /* mapped pages stay until exit */
    *h = rt->hostmem[--rt->nhostmem];
  }
  return rt_done(e);
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  if (!ptr || !size || (flags & ~15u)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uintptr_t a = (uintptr_t)ptr;
  for (size_t i = 0; !e && i < rt->nhostmem; i++) {
    uintptr_t b = (uintptr_t)rt->hostmem[i].ptr;
    if (a < b + rt->hostmem[i].bytes && b < a + size) e = cudaErrorHostMemoryAlreadyRegistered;
  }
  if (!e && WS_VEC_RESERVE(rt->hostmem, rt->cap_hostmem, rt->nhostmem + 1))
    e = cudaErrorMemoryAllocation;
  if (!e) {
    rt_hostmem *h = &rt->hostmem[rt->nhostmem++];
    *h = (rt_hostmem){ptr, size, flags, 1, 0, 0};
    e = host_mirror(rt, h, 0); /* the program owns the bytes: its own device address */
    if (e) rt->nhostmem--;
  }
  return rt_done(e);
}

cudaError_t cudaHostUnregister(void *ptr) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_hostmem *h = e ? NULL : find_host(rt, ptr, 1);
  if (!e && (!h || !h->registered)) e = cudaErrorHostMemoryNotRegistered;
  if (!e) {
    host_unmirror(rt, h);
    *h = rt->hostmem[--rt->nhostmem];
  }
  return rt_done(e);
}

/* The device address of pinned host memory: mapped memory's own (the same
 * pointer where it could be placed so), else a mirror made now. */
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  if (!pDevice || flags) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_hostmem *h = e ? NULL : find_host(rt, pHost, 0);
  if (!e && !h) e = cudaErrorInvalidValue;
  if (!e) e = host_mirror(rt, h, 0);
  if (!e) *pDevice = (void *)(uintptr_t)(h->dev + ((uintptr_t)pHost - (uintptr_t)h->ptr));
  return rt_done(e);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) {
  if (!pFlags) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_hostmem *h = e ? NULL : find_host(rt, pHost, 0);
  if (!e && !h) e = cudaErrorInvalidValue;
  if (!e) *pFlags = h->flags;
  return rt_done(e);
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attr, const void *ptr) {
  if (!attr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    memset(attr, 0, sizeof *attr);
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    rt_alloc *al = rt_find_alloc(rt, a);
    rt_hostmem *h = find_host(rt, ptr, 0);
    if (h) {
      attr->type = cudaMemoryTypeHost;
      attr->hostPointer = (void *)ptr;
      if (h->dev) attr->devicePointer = (void *)(uintptr_t)(h->dev + (a - (uintptr_t)h->ptr));
    } else if (al && al->managed) {
      attr->type = cudaMemoryTypeManaged;
      attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (al) {
      attr->type = cudaMemoryTypeDevice;
      attr->devicePointer = (void *)ptr;
    } else {
      attr->type = cudaMemoryTypeUnregistered;
      attr->device = -2; /* CUDA 11+: not a CUDA pointer, no error */
    }
  }
  return rt_done(e);
}

/* Managed memory needs no migration (one copy, synchronous launches):
 * advice, prefetches and attachments are checked and kept per page (the
 * 4 KiB pages the range touches, rt_alloc.advice) for
 * cudaMemRangeGetAttribute, and change nothing else. */
static cudaError_t managed_range(ws_rt *rt, const void *p, size_t count) {
  rt_alloc *a = rt_find_alloc(rt, (uint64_t)(uintptr_t)p);
  if (!p || !a || !a->managed) return cudaErrorInvalidValue;
  return count <= a->bytes - ((uint64_t)(uintptr_t)p - a->addr) ? cudaSuccess : cudaErrorInvalidValue;
}

/* A location's RT_LOC_*: the one device (id 0), the host or its NUMA
 * node 0; 0 with *e set for another. */
static int advice_loc(cudaMemLocation l, cudaError_t *e) {
  switch (l.type) {
  case 1: /* cudaMemLocationTypeDevice */
    if (l.id == 0) return RT_LOC_DEVICE;
    if (l.id == -1) return RT_LOC_HOST; /* cudaCpuDeviceId, the older form */
    *e = cudaErrorInvalidDevice;
    return 0;
  case 2: return RT_LOC_HOST;
  case 3:
    if (l.id == 0) return RT_LOC_NUMA;
    *e = cudaErrorInvalidValue;
    return 0;
  case 4: return RT_LOC_NUMA; /* the NUMA node nearest the caller: the only one */
  default: *e = cudaErrorInvalidValue; return 0;
  }
}

/* The pages [*lo, *hi) of a that the count bytes at p touch (count 0: the
 * page of p). */
static void advice_pages(const rt_alloc *a, const void *p, size_t count, uint64_t *lo, uint64_t *hi) {
  uint64_t off = (uint64_t)(uintptr_t)p - a->addr;
  *lo = off / RT_ADV_PAGE;
  *hi = (off + (count ? count : 1) - 1) / RT_ADV_PAGE + 1;
}

/* Sets the bits `set` and clears `clear` on the pages of the range. */
static cudaError_t advise(ws_rt *rt, const void *p, size_t count, unsigned set, unsigned clear) {
  rt_alloc *a = rt_find_alloc(rt, (uint64_t)(uintptr_t)p);
  if (!a->advice && !(a->advice = calloc((a->bytes + RT_ADV_PAGE - 1) / RT_ADV_PAGE, 1)))
    return cudaErrorMemoryAllocation;
  uint64_t lo, hi;
  advice_pages(a, p, count, &lo, &hi);
  for (uint64_t i = lo; i < hi; i++) a->advice[i] = (unsigned char)((a->advice[i] & ~clear) | set);
  return cudaSuccess;
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice, cudaMemLocation location) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && (advice < 1 || advice > 6)) e = cudaErrorInvalidValue;
  if (!e) e = managed_range(rt, devPtr, count);
  /* the location matters to the set/unset of a preferred location and of
   * an accessing device */
  int loc = !e && advice >= 3 && advice != 4 ? advice_loc(location, &e) : 0;
  unsigned acc = loc == RT_LOC_DEVICE ? RT_ADV_ACC_DEV : RT_ADV_ACC_HOST;
  if (!e) switch (advice) {
    case 1: e = advise(rt, devPtr, count, RT_ADV_READ_MOSTLY, 0); break;
    case 2: e = advise(rt, devPtr, count, 0, RT_ADV_READ_MOSTLY); break;
    case 3: e = advise(rt, devPtr, count, (unsigned)loc << RT_ADV_PREF_SHIFT, 3u << RT_ADV_PREF_SHIFT); break;
    case 4: e = advise(rt, devPtr, count, 0, 3u << RT_ADV_PREF_SHIFT); break;
    case 5: e = advise(rt, devPtr, count, acc, 0); break;
    default: e = advise(rt, devPtr, count, 0, acc); break;
    }
  return rt_done(e);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  ws_rt *rt = rt_enter();
  rt_stream *s;
  cudaError_t e = rt_sticky(rt);
  if (!e && flags) e = cudaErrorInvalidValue;
  if (!e) e = rt_find_stream(rt, stream, &s);
  if (!e) e = managed_range(rt, devPtr, count);
  int loc = e ? 0 : advice_loc(location, &e);
  if (!e) e = advise(rt, devPtr, count, (unsigned)loc << RT_ADV_PREFETCH_SHIFT, 3u << RT_ADV_PREFETCH_SHIFT);
  return rt_done(e);
}
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

/* One attribute of the range's pages, as CUDA answers it: a value that
 * every page shares, else the "mixed" answer (0, cudaInvalidDeviceId or
 * cudaMemLocationTypeInvalid). */
static cudaError_t range_attr(const rt_alloc *a, uint64_t lo, uint64_t hi, void *data, size_t size,
                              int attr) {
  unsigned all = 0xff, any = 0; /* the bits every page has, and some page */
  for (uint64_t i = lo; i < hi; i++) {
    unsigned v = a->advice ? a->advice[i] : 0;
    all &= v, any |= v;
  }
  int shift = attr == 2 || attr == 5 || attr == 6 ? RT_ADV_PREF_SHIFT : RT_ADV_PREFETCH_SHIFT;
  /* the location when every page has the same one, else RT_LOC_NONE */
  unsigned loc = ((all >> shift) & 3) == ((any >> shift) & 3) ? (all >> shift) & 3 : RT_LOC_NONE;
  int32_t v;
  if (attr == 3) { /* cudaMemRangeAttributeAccessedBy: the devices, then -2s */
    if (!size || size % 4) return cudaErrorInvalidValue;
    int32_t *d = data;
    size_t n = 0;
    for (size_t i = 0; i < size / 4; i++) d[i] = -2;
    if ((all & RT_ADV_ACC_DEV) && n < size / 4) d[n++] = 0;
    if ((all & RT_ADV_ACC_HOST) && n < size / 4) d[n++] = -1; /* cudaCpuDeviceId */
    return cudaSuccess;
  }
  if (size != 4) return cudaErrorInvalidValue;
  switch (attr) {
  case 1: v = (all & RT_ADV_READ_MOSTLY) != 0; break;
  case 2: case 4: /* a device id, cudaCpuDeviceId, cudaInvalidDeviceId */
    v = loc == RT_LOC_DEVICE ? 0 : loc == RT_LOC_NONE ? -2 : -1;
    break;
  case 5: case 7: /* the cudaMemLocationType */
    v = loc == RT_LOC_DEVICE ? 1 : loc == RT_LOC_HOST ? 2 : loc == RT_LOC_NUMA ? 3 : 0;
    break;
  case 6: case 8: v = 0; break; /* device 0 or NUMA node 0 */
  default: return cudaErrorInvalidValue;
  }
  memcpy(data, &v, 4);
  return cudaSuccess;
}

cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, int *attributes,
                                      size_t numAttributes, const void *devPtr, size_t count) {
  if (!data || !dataSizes || !attributes || !numAttributes || !count)
    return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) e = managed_range(rt, devPtr, count);
  if (!e) {
    const rt_alloc *a = rt_find_alloc(rt, (uint64_t)(uintptr_t)devPtr);
    uint64_t lo, hi;
    advice_pages(a, devPtr, count, &lo, &hi);
    for (size_t i = 0; !e && i < numAttributes; i++)
      e = data[i] ? range_attr(a, lo, hi, data[i], dataSizes[i], attributes[i]) : cudaErrorInvalidValue;
  }
  return rt_done(e);
}

cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, int attribute, const void *devPtr,
                                     size_t count) {
  return cudaMemRangeGetAttributes(&data, &dataSize, &attribute, 1, devPtr, count);
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags) {
  ws_rt *rt = rt_enter();
  rt_stream *s;
  cudaError_t e = rt_sticky(rt);
  if (!e && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
      flags != cudaMemAttachSingle)
    e = cudaErrorInvalidValue;
  if (!e) e = rt_find_stream(rt, stream, &s);
  if (!e) e = managed_range(rt, devPtr, length);
  return rt_done(e);
}
cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                          unsigned int flags) {
  return cudaStreamAttachMemAsync(stream, devPtr, length, flags);
}

/* --- copies ----------------------------------------------------------------- */

/* Host bytes for one side of a copy spanning n bytes from p; NULL when a
 * side that must be device memory is not.  `dev`: that side must be device
 * memory (else it may be either: cudaMemcpyDefault, or the host side). */
static void *side(ws_rt *rt, const void *p, uint64_t n, int dev) {
  void *h = rt_host_ptr(rt, (uint64_t)(uintptr_t)p, n ? n : 1);
  if (h) return h;
  return dev ? NULL : (void *)(uintptr_t)p;
}

static int valid_kind(int kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

/* A pitched side's span: the bytes from its first row's start to its last
 * row's end; -1 on overflow. */
static int span(uint64_t *out, uint64_t pitch, uint64_t slice, uint64_t width, uint64_t rows,
                uint64_t depth) {
  uint64_t a, b;
  if (ws_mul_u64(&a, depth - 1, slice) || ws_mul_u64(&b, rows - 1, pitch)) return -1;
  return ws_add3_u64(out, a, b, width);
}

cudaError_t rt_copy3d(ws_rt *rt, const cudaMemcpy3DParms *p) {
  if (p->srcArray || p->dstArray) return rt_array_copy3d(rt, p); /* array.c */
  if (!valid_kind(p->kind)) return cudaErrorInvalidMemcpyDirection;
  const cudaExtent *x = &p->extent;
  if (!x->width || !x->height || !x->depth) return cudaSuccess;
  if (!p->srcPtr.ptr || !p->dstPtr.ptr) return cudaErrorInvalidValue;
  uint64_t sp = p->srcPtr.pitch, dp = p->dstPtr.pitch;
  if (x->width > sp || x->width > dp) return cudaErrorInvalidPitchValue;
  /* slices are ysize rows apart (a 2D copy is one slice) */
  uint64_t sslice, dslice, soff, doff, sn, dn, t;
  if (ws_mul_u64(&sslice, sp, x->depth > 1 ? p->srcPtr.ysize : 0) ||
      ws_mul_u64(&dslice, dp, x->depth > 1 ? p->dstPtr.ysize : 0) ||
      (x->depth > 1 && (p->srcPtr.ysize < x->height || p->dstPtr.ysize < x->height)))
    return cudaErrorInvalidValue;
  if (ws_mul_u64(&soff, p->srcPos.z, sslice) || ws_mul_u64(&t, p->srcPos.y, sp) ||
      ws_add3_u64(&soff, soff, t, p->srcPos.x) || ws_mul_u64(&doff, p->dstPos.z, dslice) ||
      ws_mul_u64(&t, p->dstPos.y, dp) || ws_add3_u64(&doff, doff, t, p->dstPos.x) ||
      span(&sn, sp, sslice, x->width, x->height, x->depth) ||
      span(&dn, dp, dslice, x->width, x->height, x->depth))
    return cudaErrorInvalidValue;
  int ddev = p->kind == cudaMemcpyHostToDevice || p->kind == cudaMemcpyDeviceToDevice;
  int sdev = p->kind == cudaMemcpyDeviceToHost || p->kind == cudaMemcpyDeviceToDevice;
  unsigned char *d = side(rt, (const unsigned char *)p->dstPtr.ptr + doff, dn, ddev);
  const unsigned char *s = side(rt, (const unsigned char *)p->srcPtr.ptr + soff, sn, sdev);
  if (!d || !s) return cudaErrorInvalidValue;
  for (uint64_t z = 0; z < x->depth; z++)
    for (uint64_t y = 0; y < x->height; y++)
      memmove(d + z * dslice + y * dp, s + z * sslice + y * sp, x->width);
  return cudaSuccess;
}

/* A 1D copy as the one-row copy of RT_OP_COPY. */
static rt_op copy_op(void *dst, const void *src, size_t count, int kind) {
  rt_op op = {.kind = RT_OP_COPY};
  op.u.copy.srcPtr = (cudaPitchedPtr){(void *)(uintptr_t)src, count, count, 1};
  op.u.copy.dstPtr = (cudaPitchedPtr){dst, count, count, 1};
  op.u.copy.extent = (cudaExtent){count, 1, 1};
  op.u.copy.kind = kind;
  return op;
}

static rt_op copy2d_op(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, int kind) {
  rt_op op = copy_op(dst, src, width, kind);
  op.u.copy.srcPtr.pitch = spitch;
  op.u.copy.dstPtr.pitch = dpitch;
  op.u.copy.extent.height = height;
  return op;
}

/* Submit a copy or fill to a stream (run now, or captured). */
static cudaError_t submit(const rt_op *op, cudaStream_t stream) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) e = rt_submit(rt, stream, op);
  return rt_done(e);
}

static cudaError_t copy(void *dst, const void *src, size_t count, int kind, cudaStream_t s) {
  if (!valid_kind(kind)) return rt_error(cudaErrorInvalidMemcpyDirection);
  if (count && (!dst || !src)) return rt_error(cudaErrorInvalidValue);
  rt_op op = copy_op(dst, src, count, kind);
  return submit(&op, s);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
  return copy(dst, src, count, kind, NULL);
}
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind) {
  return copy(dst, src, count, kind, NULL);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t s) {
  return copy(dst, src, count, kind, s);
}
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                 cudaStream_t s) {
  return copy(dst, src, count, kind, s);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, int kind, cudaStream_t s) {
  if (!valid_kind(kind)) return rt_error(cudaErrorInvalidMemcpyDirection);
  if (width > dpitch || width > spitch) return rt_error(cudaErrorInvalidPitchValue);
  rt_op op = copy2d_op(dst, dpitch, src, spitch, width, height, kind);
  return submit(&op, s);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, int kind) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, NULL);
}
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, int kind) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, NULL);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, int kind, cudaStream_t s) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, s);
}
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, int kind, cudaStream_t s) {
  return copy2d(dst, dpitch, src, spitch, width, height, kind, s);
}

static cudaError_t copy3d(const cudaMemcpy3DParms *p, cudaStream_t s) {
  if (!p) return rt_error(cudaErrorInvalidValue);
  rt_op op = {.kind = RT_OP_COPY};
  op.u.copy = *p;
  return submit(&op, s);
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) { return copy3d(p, NULL); }
cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms *p) { return copy3d(p, NULL); }
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t s) { return copy3d(p, s); }
cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms *p, cudaStream_t s) {
  return copy3d(p, s);
}

/* Peer copies on a single-GPU machine: between device 0 and itself only. */
static cudaError_t peer3d(const cudaMemcpy3DPeerParms *p, cudaStream_t s) {
  if (!p) return rt_error(cudaErrorInvalidValue);
  if (p->srcDevice != 0 || p->dstDevice != 0) return rt_error(cudaErrorInvalidDevice);
  cudaMemcpy3DParms c = {p->srcArray, p->srcPos, p->srcPtr, p->dstArray, p->dstPos, p->dstPtr,
                         p->extent, cudaMemcpyDefault};
  return copy3d(&c, s);
}
cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms *p) { return peer3d(p, NULL); }
cudaError_t cudaMemcpy3DPeer_ptds(const cudaMemcpy3DPeerParms *p) { return peer3d(p, NULL); }
cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms *p, cudaStream_t s) {
  return peer3d(p, s);
}
cudaError_t cudaMemcpy3DPeerAsync_ptsz(const cudaMemcpy3DPeerParms *p, cudaStream_t s) {
  return peer3d(p, s);
}

/* A single-GPU machine: device 0 to device 0 is a device-to-device copy,
 * any other device is invalid. */
static cudaError_t peer(void *dst, int dd, const void *src, int sd, size_t count, cudaStream_t s) {
  if (dd != 0 || sd != 0) return rt_error(cudaErrorInvalidDevice);
  return copy(dst, src, count, cudaMemcpyDeviceToDevice, s);
}
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  return peer(dst, dstDevice, src, srcDevice, count, NULL);
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t s) {
  return peer(dst, dstDevice, src, srcDevice, count, s);
}

cudaError_t rt_set2d(ws_rt *rt, const cudaMemsetParams *p) {
  uint64_t row, n;
  unsigned es = p->elementSize;
  if (es != 1 && es != 2 && es != 4) return cudaErrorInvalidValue;
  if (!p->width || !p->height) return cudaSuccess;
  if (ws_mul_u64(&row, p->width, es) || (p->height > 1 && row > p->pitch) ||
      span(&n, p->pitch, 0, row, p->height, 1))
    return cudaErrorInvalidValue;
  unsigned char *d = rt_host_ptr(rt, (uint64_t)(uintptr_t)p->dst, n);
  if (!d) return cudaErrorInvalidValue;
  for (uint64_t y = 0; y < p->height; y++) {
    unsigned char *r = d + y * p->pitch;
    if (es == 1) {
      memset(r, (int)(p->value & 0xff), row);
      continue;
    }
    for (uint64_t i = 0; i < p->width; i++) /* the value's low es bytes, little-endian */
      memcpy(r + i * es, &p->value, es);
  }
  return cudaSuccess;
}

static cudaError_t set2d(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                         cudaStream_t s) {
  if (height > 1 && width > pitch) return rt_error(cudaErrorInvalidValue);
  rt_op op = {.kind = RT_OP_SET};
  op.u.set = (cudaMemsetParams){devPtr, pitch, (unsigned)value & 0xffu, 1, width, height};
  return submit(&op, s);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  return set2d(devPtr, count, value, count, 1, NULL);
}
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) {
  return set2d(devPtr, count, value, count, 1, NULL);
}
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t s) {
  return set2d(devPtr, count, value, count, 1, s);
}
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t s) {
  return set2d(devPtr, count, value, count, 1, s);
}
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return set2d(devPtr, pitch, value, width, height, NULL);
}
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return set2d(devPtr, pitch, value, width, height, NULL);
}
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t s) {
  return set2d(devPtr, pitch, value, width, height, s);
}
cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height, cudaStream_t s) {
  return set2d(devPtr, pitch, value, width, height, s);
}

/* A 3D fill is a 2D fill of height x depth rows when the slices are
 * contiguous (ysize == height), else one 2D fill per slice. */
static cudaError_t set3d(cudaPitchedPtr p, int value, cudaExtent x, cudaStream_t s) {
  if (!x.width || !x.height || !x.depth) return cudaSuccess;
  if (x.depth > 1 && p.ysize < x.height) return rt_error(cudaErrorInvalidValue);
  uint64_t slice, rows;
  if (ws_mul_u64(&slice, p.pitch, x.depth > 1 ? p.ysize : 0) ||
      ws_mul_u64(&rows, x.height, x.depth))
    return rt_error(cudaErrorInvalidValue);
  if (x.depth == 1 || p.ysize == x.height)
    return set2d(p.ptr, p.pitch, value, x.width, rows, s);
  for (size_t z = 0; z < x.depth; z++) {
    cudaError_t e = set2d((unsigned char *)p.ptr + z * slice, p.pitch, value, x.width, x.height, s);
    if (e) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent extent) {
  return set3d(p, value, extent, NULL);
}
cudaError_t cudaMemset3D_ptds(cudaPitchedPtr p, int value, cudaExtent extent) {
  return set3d(p, value, extent, NULL);
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent extent, cudaStream_t s) {
  return set3d(p, value, extent, s);
}
cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr p, int value, cudaExtent extent,
                                   cudaStream_t s) {
  return set3d(p, value, extent, s);
}

/* --- symbols ----------------------------------------------------------------- */

cudaError_t rt_var_addr(ws_rt *rt, const rt_var *v, uint64_t *addr, uint64_t *bytes) {
  ws_emu_device *dev = rt_device(rt);
  if (!dev) return cudaErrorInitializationError;
  /* The emulator finds a module's variables through a program loaded from
   * it: any kernel of the module will do. */
  rt_func *f = NULL;
  for (size_t i = 0; i < rt->nfuncs && !f; i++)
    if (rt->funcs[i].module == v->module) f = &rt->funcs[i];
  cudaError_t e = cudaErrorInvalidSymbol;
  ws_emu_program *p = f ? rt_func_prog(rt, f, &e) : NULL;
  if (!p) {
    if (!f) fprintf(stderr, "warpsight: error: variable '%s': its module has no kernel\n", v->name);
    return e;
  }
  ws_diag d = WS_DIAG_INIT;
  int st = ws_emu_var_find(dev, p, v->name, addr, bytes, &d);
  if (st) rt_print_diag(&d);
  ws_diag_free(&d);
  return st ? cudaErrorInvalidSymbol : cudaSuccess;
}

/* The device address of [offset, offset+count) of the variable whose host
 * shadow is `symbol`. */
static cudaError_t symbol_addr(ws_rt *rt, const void *symbol, size_t count, size_t offset,
                               uint64_t *out) {
  rt_var *v = rt_find_var(rt, symbol);
  uint64_t a, n;
  if (!v) return cudaErrorInvalidSymbol;
  cudaError_t e = rt_var_addr(rt, v, &a, &n);
  if (e) return e;
  if (offset > n || count > n - offset) return cudaErrorInvalidValue;
  *out = a + offset;
  return cudaSuccess;
}

cudaError_t rt_symbol_kind(int kind, int to_symbol) {
  int ok = kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault ||
           kind == (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  return ok ? cudaSuccess : cudaErrorInvalidMemcpyDirection;
}

/* A copy to or from a symbol, as a copy with the symbol's device address
 * on its side (its kind checked by rt_symbol_kind). */
static cudaError_t symbol_copy(void *dst, const void *src, const void *symbol, size_t count,
                               size_t offset, int kind, int to_symbol, cudaStream_t s) {
  cudaError_t ke = rt_symbol_kind(kind, to_symbol);
  if (ke) return rt_error(ke);
  if (!symbol) return rt_error(cudaErrorInvalidSymbol);
  if (count && !(to_symbol ? src : dst)) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  uint64_t a = 0;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = symbol_addr(rt, symbol, count, offset, &a);
  void *sym = (void *)(uintptr_t)a;
  rt_op op = to_symbol ? copy_op(sym, src, count, kind) : copy_op(dst, sym, count, kind);
  if (!e && count) e = rt_submit(rt, s, &op);
  return rt_done(e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               int kind) {
  return symbol_copy(NULL, src, symbol, count, offset, kind, 1, NULL);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind) {
  return symbol_copy(NULL, src, symbol, count, offset, kind, 1, NULL);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind, cudaStream_t s) {
  return symbol_copy(NULL, src, symbol, count, offset, kind, 1, s);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind, cudaStream_t s) {
  return symbol_copy(NULL, src, symbol, count, offset, kind, 1, s);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 int kind) {
  return symbol_copy(dst, NULL, symbol, count, offset, kind, 0, NULL);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      int kind) {
  return symbol_copy(dst, NULL, symbol, count, offset, kind, 0, NULL);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      int kind, cudaStream_t s) {
  return symbol_copy(dst, NULL, symbol, count, offset, kind, 0, s);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind, cudaStream_t s) {
  return symbol_copy(dst, NULL, symbol, count, offset, kind, 0, s);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  if (!devPtr) return rt_error(cudaErrorInvalidValue);
  if (!symbol) return rt_error(cudaErrorInvalidSymbol);
  ws_rt *rt = rt_enter();
  uint64_t a = 0;
  cudaError_t e = rt_sticky(rt);
  if (!e) e = symbol_addr(rt, symbol, 0, 0, &a);
  if (!e) *devPtr = (void *)(uintptr_t)a;
  return rt_done(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  if (!size) return rt_error(cudaErrorInvalidValue);
  if (!symbol) return rt_error(cudaErrorInvalidSymbol);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_var *v = e ? NULL : rt_find_var(rt, symbol);
  uint64_t a, n = 0;
  if (!e && !v) e = cudaErrorInvalidSymbol;
  if (!e) e = rt_var_addr(rt, v, &a, &n);
  if (!e) *size = (size_t)n;
  return rt_done(e);
}
