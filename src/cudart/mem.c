/*
 * mem.c — memory: device allocations live in the emulator's device (one
 * global address space for every launch); host allocations are plain host
 * memory; managed memory is a device allocation whose bytes are also mapped
 * on the host AT THE SAME ADDRESS (mmap with MAP_FIXED_NOREPLACE), so one
 * pointer value works on both sides, also when stored inside device data.
 * The host mirror holds the truth between launches; a launch copies every
 * managed range to the device before it runs and back after it
 * (rt_managed_sync).  docs/exec.md, "Memory".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
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

static rt_managed *find_managed(ws_rt *rt, uint64_t addr, uint64_t bytes) {
  for (size_t i = 0; i < rt->nmanaged; i++) {
    rt_managed *m = &rt->managed[i];
    if (addr >= m->addr && bytes <= m->bytes && addr - m->addr <= m->bytes - bytes) return m;
  }
  return NULL;
}

void *rt_host_ptr(ws_rt *rt, uint64_t addr, uint64_t bytes) {
  if (find_managed(rt, addr, bytes)) return (void *)(uintptr_t)addr;
  ws_emu_device *dev = rt_device(rt);
  return dev ? ws_emu_mem_host(dev, addr, bytes) : NULL;
}

int rt_is_device(ws_rt *rt, uint64_t addr, uint64_t bytes) {
  if (find_managed(rt, addr, bytes)) return 0;
  ws_emu_device *dev = rt_device(rt);
  return dev && ws_emu_mem_host(dev, addr, bytes ? bytes : 1) != NULL;
}

static int page_mapped(const ws_rt *rt, uint64_t page) {
  for (size_t i = 0; i < rt->nmaps; i++)
    if (page >= rt->maps[i].lo && page < rt->maps[i].hi) return 1;
  return 0;
}

/* Map the pages of [lo, hi) not mapped yet, each run of them at once. */
static int map_pages(ws_rt *rt, uint64_t lo, uint64_t hi, uint64_t ps) {
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

int rt_managed_map(ws_rt *rt, uint64_t addr, uint64_t bytes, int owned) {
  uint64_t ps = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t lo = addr & ~(ps - 1), hi = (addr + (bytes ? bytes : 1) + ps - 1) & ~(ps - 1);
  void *dev = rt_host_ptr(rt, addr, bytes);
  if (!dev || map_pages(rt, lo, hi, ps)) return -1;
  rt_managed m = {addr, bytes, owned};
  if (WS_VEC_PUSH(rt->managed, rt->nmanaged, rt->cap_managed, m)) return -1;
  memcpy((void *)(uintptr_t)addr, dev, bytes); /* initial values (a PTX initialiser) */
  return 0;
}

void rt_managed_sync(ws_rt *rt, int to_device) {
  if (!rt->dev) return;
  for (size_t i = 0; i < rt->nmanaged; i++) {
    rt_managed *m = &rt->managed[i];
    void *d = ws_emu_mem_host(rt->dev, m->addr, m->bytes), *h = (void *)(uintptr_t)m->addr;
    if (!d || !m->bytes) continue;
    if (to_device)
      memcpy(d, h, m->bytes);
    else
      memcpy(h, d, m->bytes);
  }
}

void rt_managed_unmap(ws_rt *rt) {
  for (size_t i = 0; i < rt->nmaps; i++)
    munmap((void *)(uintptr_t)rt->maps[i].lo, rt->maps[i].hi - rt->maps[i].lo);
  rt->nmaps = 0;
  rt->nmanaged = 0;
}

/* --- allocation ------------------------------------------------------------ */

/* The GPU's memory size is not in the database: the device has
 * rt->memory_budget bytes (RT_MEMORY_BUDGET unless WARPSIGHT_MAX_MEMORY). */
static cudaError_t dev_alloc(ws_rt *rt, uint64_t *addr, size_t size, const char *name) {
  ws_emu_device *dev = rt_device(rt);
  if (!dev) return cudaErrorInitializationError;
  ws_diag d = WS_DIAG_INIT;
  int st = ws_emu_mem_alloc(dev, size, name, addr, &d);
  if (st) rt_print_diag(&d);
  ws_diag_free(&d);
  return st ? cudaErrorMemoryAllocation : cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (!devPtr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t a = 0;
  if (!e) e = dev_alloc(rt, &a, size, "cudaMalloc");
  *devPtr = e ? NULL : (void *)(uintptr_t)a;
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  (void)flags; /* cudaMemAttachGlobal or Host: one address space either way */
  if (!devPtr) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  uint64_t a = 0, ps = (uint64_t)sysconf(_SC_PAGESIZE);
  /* One spare page beyond the last used one keeps mirrors of neighbouring
   * allocations on pages of their own (mem.c's header). */
  uint64_t padded = ((size + ps - 1) & ~(ps - 1)) + ps;
  if (!e) e = dev_alloc(rt, &a, padded, "cudaMallocManaged");
  if (!e && rt_managed_map(rt, a, size, 1)) {
    ws_diag d = WS_DIAG_INIT;
    ws_emu_mem_free(rt->dev, a, &d);
    ws_diag_free(&d);
    e = cudaErrorMemoryAllocation;
  }
  *devPtr = e ? NULL : (void *)(uintptr_t)a;
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaFree(void *devPtr) {
  if (!devPtr) return cudaSuccess;
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    uint64_t a = (uint64_t)(uintptr_t)devPtr;
    for (size_t i = 0; i < rt->nmanaged; i++)
      if (rt->managed[i].addr == a && rt->managed[i].owned) {
        rt->managed[i] = rt->managed[--rt->nmanaged]; /* its pages stay mapped until exit */
        break;
      }
    ws_diag d = WS_DIAG_INIT;
    if (!rt->dev || ws_emu_mem_free(rt->dev, a, &d)) e = cudaErrorInvalidDevicePointer;
    ws_diag_free(&d);
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  (void)flags; /* portable/mapped/write-combined: all plain host memory here */
  if (!pHost) return rt_error(cudaErrorInvalidValue);
  void *p = NULL;
  if (posix_memalign(&p, 256, size ? size : 1)) return rt_error(cudaErrorMemoryAllocation);
  memset(p, 0, size);
  *pHost = p;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return cudaHostAlloc(ptr, size, 0); }

cudaError_t cudaFreeHost(void *ptr) {
  free(ptr);
  return cudaSuccess;
}

/* --- copies ----------------------------------------------------------------- */

/* Host bytes for one side of a copy; NULL when a side that must be device
 * memory is not.  `dev` says whether that side must be device memory. */
static void *side(ws_rt *rt, const void *p, size_t n, int dev) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  void *h = rt_host_ptr(rt, a, n);
  if (h) return h;
  return dev ? NULL : (void *)(uintptr_t)p;
}

static cudaError_t copy(void *dst, const void *src, size_t count, int kind) {
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return rt_error(cudaErrorInvalidValue);
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return rt_error(cudaErrorInvalidMemcpyDirection);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    int ddev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int sdev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    void *d = side(rt, dst, count, ddev);
    const void *s = side(rt, src, count, sdev);
    if (!d || !s)
      e = cudaErrorInvalidValue;
    else
      memmove(d, s, count);
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
  return copy(dst, src, count, kind);
}
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind) {
  return copy(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, cudaStream_t s) {
  (void)s;
  return copy(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                 cudaStream_t s) {
  (void)s;
  return copy(dst, src, count, kind);
}

static cudaError_t set(void *devPtr, int value, size_t count) {
  if (count == 0) return cudaSuccess;
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    void *h = rt_host_ptr(rt, (uint64_t)(uintptr_t)devPtr, count);
    if (h)
      memset(h, value, count);
    else
      e = cudaErrorInvalidValue;
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) { return set(devPtr, value, count); }
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count) {
  return set(devPtr, value, count);
}
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t s) {
  (void)s;
  return set(devPtr, value, count);
}
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t s) {
  (void)s;
  return set(devPtr, value, count);
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

/* Host bytes of [offset, offset+count) of the variable whose host shadow is
 * `symbol`; NULL with *e set otherwise. */
static void *symbol_bytes(ws_rt *rt, const void *symbol, size_t count, size_t offset,
                          cudaError_t *e) {
  rt_var *v = rt_find_var(rt, symbol);
  uint64_t a, n;
  if (!v) {
    *e = cudaErrorInvalidSymbol;
    return NULL;
  }
  if ((*e = rt_var_addr(rt, v, &a, &n))) return NULL;
  if (offset > n || count > n - offset) {
    *e = cudaErrorInvalidValue;
    return NULL;
  }
  return rt_host_ptr(rt, a + offset, count ? count : 1);
}

static cudaError_t symbol_copy(void *dst, const void *src, const void *symbol, size_t count,
                               size_t offset, int to_symbol) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) {
    void *h = symbol_bytes(rt, symbol, count, offset, &e);
    if (h && count) {
      void *other = side(rt, to_symbol ? src : dst, count, 0);
      if (to_symbol)
        memmove(h, other, count);
      else
        memmove(other, h, count);
    }
  }
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               int kind) {
  (void)kind;
  return symbol_copy(NULL, src, symbol, count, offset, 1);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind, cudaStream_t s) {
  (void)s;
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                         size_t offset, int kind, cudaStream_t s) {
  (void)s;
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 int kind) {
  (void)kind;
  return symbol_copy(dst, NULL, symbol, count, offset, 0);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      int kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      int kind, cudaStream_t s) {
  (void)s;
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                           size_t offset, int kind, cudaStream_t s) {
  (void)s;
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_var *v = e ? NULL : rt_find_var(rt, symbol);
  uint64_t a = 0, n;
  if (!e && !v) e = cudaErrorInvalidSymbol;
  if (!e) e = rt_var_addr(rt, v, &a, &n);
  if (!e) *devPtr = (void *)(uintptr_t)a;
  rt_leave();
  return rt_error(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_var *v = e ? NULL : rt_find_var(rt, symbol);
  uint64_t a, n = 0;
  if (!e && !v) e = cudaErrorInvalidSymbol;
  if (!e) e = rt_var_addr(rt, v, &a, &n);
  if (!e) *size = (size_t)n;
  rt_leave();
  return rt_error(e);
}
