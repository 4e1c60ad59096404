/*
 * array.c — CUDA arrays (docs/exec.md, "Textures and surfaces"):
 * cudaMallocArray, cudaMalloc3DArray (1D, 2D, 3D, layered, cube maps),
 * cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc, cudaCreateChannelDesc
 * and the copies to, from and between arrays.
 *
 * An array's texels live in an ordinary allocation of the device (so that
 * kernels' texture and surface fetches are memory accesses the profiler
 * sees), row-major without padding: element (x, y) of 2D slice s (a depth
 * slice, a layer, or face f of layer l as s = 6 l + f) is at
 * addr + ((s * height) + y) * width * elem + x * elem.  A copy involving an
 * array is the same copy on that storage as pitched memory (rt_copy3d).
 */
#include <stdlib.h>
#include <string.h>

#include "cudart/exports_device.h"
#include "cudart/rt.h"
#include "cudart/tex.h"
#include "util/checked.h"

#define ARRAY_MAGIC 0x41525259u /* "ARRY" */

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
  cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

int rt_chan_format(const cudaChannelFormatDesc *d, rt_chan *c) {
  memset(c, 0, sizeof *c);
  int f = d->f;
  if (f >= cudaChannelFormatKindUnsignedNormalized8X1 && f <= cudaChannelFormatKindSignedNormalized16X4) {
    /* the normalized kinds: 1, 2 or 4 channels of 8 or 16 bits, read as floats */
    int k = f - cudaChannelFormatKindUnsignedNormalized8X1; /* 0..11 */
    c->kind = k < 6 ? WS_EMU_CHAN_UNSIGNED : WS_EMU_CHAN_SIGNED;
    c->bits = (k % 6) < 3 ? 8 : 16;
    c->nchan = (uint32_t[]){1, 2, 4}[k % 3];
    c->always_normalized = 1;
  } else {
    if (f != cudaChannelFormatKindSigned && f != cudaChannelFormatKindUnsigned && f != cudaChannelFormatKindFloat)
      return -1;
    int ch[4] = {d->x, d->y, d->z, d->w}, n = 0;
    for (int i = 0; i < 4; i++)
      if (ch[i]) {
        if (i != n || ch[i] != d->x) return -1; /* every channel alike, from x on */
        n++;
      }
    if ((n != 1 && n != 2 && n != 4) || (d->x != 8 && d->x != 16 && d->x != 32)) return -1;
    if (f == cudaChannelFormatKindFloat && d->x == 8) return -1;
    c->kind = f == cudaChannelFormatKindFloat ? WS_EMU_CHAN_FLOAT
              : f == cudaChannelFormatKindSigned ? WS_EMU_CHAN_SIGNED : WS_EMU_CHAN_UNSIGNED;
    c->bits = (uint32_t)d->x;
    c->nchan = (uint32_t)n;
  }
  c->elem = c->nchan * c->bits / 8;
  return 0;
}

struct cudaArray *rt_array_find(ws_rt *rt, const void *a) {
  for (struct cudaArray *x = rt->arrays; x; x = x->next)
    if (x == a && x->magic == ARRAY_MAGIC) return x;
  return NULL;
}

/* A new array of e (width, height, depth as cudaMalloc3DArray takes them)
 * with flags; the geometry and storage set. */
static cudaError_t array_new(cudaArray_t *out, const cudaChannelFormatDesc *desc, cudaExtent e, unsigned flags) {
  if (!out || !desc) return rt_error(cudaErrorInvalidValue);
  *out = NULL;
  rt_chan c;
  if (rt_chan_format(desc, &c)) return rt_error(cudaErrorInvalidChannelDescriptor);
  if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
    return rt_error(cudaErrorInvalidValue);
  int layered = (flags & cudaArrayLayered) != 0, cube = (flags & cudaArrayCubemap) != 0;
  if (!e.width || (e.depth && !e.height && !layered) || (cube && (e.width != e.height || !e.depth || e.depth % 6)))
    return rt_error(cudaErrorInvalidValue);
  if (layered && !e.depth) return rt_error(cudaErrorInvalidValue);
  if (e.width > UINT32_MAX || e.height > UINT32_MAX || e.depth > UINT32_MAX) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t err = rt_sticky(rt);
  struct cudaArray *a = err ? NULL : calloc(1, sizeof *a);
  if (!err && !a) err = cudaErrorMemoryAllocation;
  if (!err) {
    a->magic = ARRAY_MAGIC;
    a->desc = *desc;
    a->extent = e;
    a->flags = flags;
    a->chan = c;
    a->width = (uint32_t)e.width;
    a->height = e.height ? (uint32_t)e.height : 1;
    a->dims = e.height ? 2 : 1;
    if (layered || cube) { /* layers (cube maps: 6 faces per layer) along depth */
      a->depth = 1;
      a->slices = (uint32_t)e.depth;
      a->layers = cube ? (uint32_t)e.depth / 6 : (uint32_t)e.depth;
    } else {
      a->depth = e.depth ? (uint32_t)e.depth : 1;
      a->slices = a->depth;
      if (e.depth) a->dims = 3;
    }
    uint64_t bytes;
    if (ws_mul3_u64(&bytes, (uint64_t)a->width * c.elem, a->height, a->slices)) err = cudaErrorMemoryAllocation;
    if (!err) err = rt_dev_alloc(rt, &a->addr, bytes, "cudaArray", NULL);
    a->bytes = bytes;
    if (err) {
      free(a);
      a = NULL;
    } else {
      a->next = rt->arrays;
      rt->arrays = a;
      *out = a;
    }
  }
  return rt_done(err);
}

cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return rt_error(cudaErrorInvalidValue);
  return array_new(array, desc, (cudaExtent){width, height, 0}, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, cudaExtent extent,
                              unsigned flags) {
  return array_new(array, desc, extent, flags);
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e && array) {
    struct cudaArray **pp = &rt->arrays;
    while (*pp && *pp != array) pp = &(*pp)->next;
    if (!*pp) {
      e = cudaErrorInvalidValue;
    } else {
      struct cudaArray *a = *pp;
      *pp = a->next;
      rt_dev_free(rt, a->addr);
      a->magic = 0;
      free(a);
    }
  }
  return rt_done(e);
}

void rt_array_free_all(ws_rt *rt) {
  while (rt->arrays) {
    struct cudaArray *a = rt->arrays;
    rt->arrays = a->next;
    free(a);
  }
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *extent, unsigned *flags, cudaArray_t array) {
  ws_rt *rt = rt_enter();
  struct cudaArray *a = rt_array_find(rt, array);
  cudaError_t e = a ? cudaSuccess : cudaErrorInvalidResourceHandle;
  if (a) {
    if (desc) *desc = a->desc;
    if (extent) *extent = a->extent;
    if (flags) *flags = a->flags;
  }
  return rt_done(e);
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  if (!desc) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  struct cudaArray *a = rt_array_find(rt, array);
  if (a) *desc = a->desc;
  return rt_done(a ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

/* ---- copies ---------------------------------------------------------------------------- */

/* One side of a copy as pitched memory: an array's storage, its position
 * in elements made bytes.  cudaErrorInvalidValue when the region does not
 * fit the array. */
static cudaError_t array_side(ws_rt *rt, cudaArray_t arr, cudaPos *pos, cudaPitchedPtr *ptr, const cudaExtent *x,
                              uint32_t *elem) {
  struct cudaArray *a = rt_array_find(rt, arr);
  if (!a) return cudaErrorInvalidResourceHandle;
  if (*elem && *elem != a->chan.elem) return cudaErrorInvalidValue; /* two arrays: one element size */
  *elem = a->chan.elem;
  if (pos->x > a->width || x->width > a->width - pos->x || pos->y > a->height || x->height > a->height - pos->y ||
      pos->z > a->slices || x->depth > a->slices - pos->z)
    return cudaErrorInvalidValue;
  *ptr = (cudaPitchedPtr){(void *)(uintptr_t)a->addr, (size_t)a->width * a->chan.elem, a->width, a->height};
  pos->x *= a->chan.elem;
  return cudaSuccess;
}

cudaError_t rt_array_copy3d(ws_rt *rt, const cudaMemcpy3DParms *p) {
  cudaMemcpy3DParms q = *p;
  uint32_t elem = 0;
  cudaError_t e = cudaSuccess;
  if (p->srcArray) e = array_side(rt, p->srcArray, &q.srcPos, &q.srcPtr, &p->extent, &elem);
  if (!e && p->dstArray) e = array_side(rt, p->dstArray, &q.dstPos, &q.dstPtr, &p->extent, &elem);
  if (e) return e;
  q.srcArray = q.dstArray = NULL;
  q.extent.width *= elem; /* with an array, the width is in elements */
  return rt_copy3d(rt, &q);
}

/* A 2D copy with an array side given in bytes (wOffset, width): as 3D. */
static cudaError_t copy2d(cudaArray_t dst, size_t dw, size_t dh, cudaArray_const_t src, size_t sw, size_t sh,
                          void *dptr, size_t dpitch, const void *sptr, size_t spitch, size_t width, size_t height,
                          int kind, cudaStream_t s, int async) {
  ws_rt *rt = rt_enter();
  uint32_t elem = 0;
  struct cudaArray *a = dst ? rt_array_find(rt, dst) : NULL, *b = src ? rt_array_find(rt, src) : NULL;
  cudaError_t e = (dst && !a) || (src && !b) ? cudaErrorInvalidResourceHandle : cudaSuccess;
  if (!e) {
    elem = a ? a->chan.elem : b->chan.elem;
    if ((a && b && a->chan.elem != b->chan.elem) || width % elem || dw % elem || sw % elem) e = cudaErrorInvalidValue;
  }
  rt_leave();
  if (e) return rt_error(e);
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.dstArray = dst;
  p.srcArray = (cudaArray_t)(uintptr_t)src;
  p.dstPos = (cudaPos){dst ? dw / elem : 0, dst ? dh : 0, 0};
  p.srcPos = (cudaPos){src ? sw / elem : 0, src ? sh : 0, 0};
  if (!dst) p.dstPtr = (cudaPitchedPtr){dptr, dpitch, width, height};
  if (!src) p.srcPtr = (cudaPitchedPtr){(void *)(uintptr_t)sptr, spitch, width, height};
  p.extent = (cudaExtent){width / elem, height, 1};
  p.kind = kind;
  return async ? cudaMemcpy3DAsync(&p, s) : cudaMemcpy3D(&p);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, int kind) {
  return copy2d(dst, wOffset, hOffset, NULL, 0, 0, NULL, 0, src, spitch, width, height, kind, NULL, 0);
}
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, int kind) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                     size_t width, size_t height, int kind, cudaStream_t stream) {
  return copy2d(dst, wOffset, hOffset, NULL, 0, 0, NULL, 0, src, spitch, width, height, kind, stream, 1);
}
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                          size_t spitch, size_t width, size_t height, int kind, cudaStream_t stream) {
  return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, int kind) {
  return copy2d(NULL, 0, 0, src, wOffset, hOffset, dst, dpitch, NULL, 0, width, height, kind, NULL, 0);
}
cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, int kind) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, int kind, cudaStream_t stream) {
  return copy2d(NULL, 0, 0, src, wOffset, hOffset, dst, dpitch, NULL, 0, width, height, kind, stream, 1);
}
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, int kind,
                                            cudaStream_t stream) {
  return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, int kind) {
  return copy2d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, NULL, 0, NULL, 0, width, height, kind, NULL,
                0);
}
cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                          size_t height, int kind) {
  return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}

/* The deprecated 1D forms: count bytes from (wOffset bytes, hOffset rows)
 * on, row after row (the rows of an array are contiguous here). */
static cudaError_t linear_at(ws_rt *rt, cudaArray_const_t arr, size_t w, size_t h, size_t count, void **at) {
  struct cudaArray *a = rt_array_find(rt, arr);
  if (!a) return cudaErrorInvalidResourceHandle;
  uint64_t row = (uint64_t)a->width * a->chan.elem, off;
  if (w > row || ws_mul_u64(&off, h, row) || ws_add_u64(&off, off, w) || off > a->bytes || count > a->bytes - off)
    return cudaErrorInvalidValue;
  *at = (void *)(uintptr_t)(a->addr + off);
  return cudaSuccess;
}

static cudaError_t copy1d(cudaArray_t dst, size_t dw, size_t dh, cudaArray_const_t src, size_t sw, size_t sh,
                          void *dptr, const void *sptr, size_t count, int kind, cudaStream_t s, int async) {
  ws_rt *rt = rt_enter();
  void *d = dptr, *so = (void *)(uintptr_t)sptr;
  cudaError_t e = cudaSuccess;
  if (dst) e = linear_at(rt, dst, dw, dh, count, &d);
  if (!e && src) e = linear_at(rt, src, sw, sh, count, &so);
  rt_leave();
  if (e) return rt_error(e);
  return async ? cudaMemcpyAsync(d, so, count, kind, s) : cudaMemcpy(d, so, count, kind);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              int kind) {
  return copy1d(dst, wOffset, hOffset, NULL, 0, 0, NULL, src, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   int kind) {
  return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                                   int kind, cudaStream_t stream) {
  return copy1d(dst, wOffset, hOffset, NULL, 0, 0, NULL, src, count, kind, stream, 1);
}
cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                        size_t count, int kind, cudaStream_t stream) {
  return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, stream);
}
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                int kind) {
  return copy1d(NULL, 0, 0, src, wOffset, hOffset, dst, NULL, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     int kind) {
  return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}
cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                     int kind, cudaStream_t stream) {
  return copy1d(NULL, 0, 0, src, wOffset, hOffset, dst, NULL, count, kind, stream, 1);
}
cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, int kind, cudaStream_t stream) {
  return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, stream);
}
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind) {
  return copy1d(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, NULL, NULL, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                        size_t wOffsetSrc, size_t hOffsetSrc, size_t count, int kind) {
  return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}
