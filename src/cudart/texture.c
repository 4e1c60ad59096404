/*
 * texture.c — texture and surface objects (docs/exec.md, "Textures and
 * surfaces"): cudaCreateTextureObject over a CUDA array, linear or pitched
 * memory; cudaCreateSurfaceObject over an array made with
 * cudaArraySurfaceLoadStore; their destruction and queries.  Each becomes an
 * object of the emulator's device (ws_emu_tex_create), which the kernels'
 * tex/tld4/suld/sust instructions read by its handle; the runtime keeps the
 * descriptors the program gave, for the Get* queries.
 */
#include <stdlib.h>
#include <string.h>

#include "cudart/exports_device.h"
#include "cudart/rt.h"
#include "cudart/tex.h"
#include "util/vec.h"

typedef struct rt_texobj {
  uint64_t handle;          /* the emulator's handle = the program's object */
  int surface;              /* 1: a surface object */
  cudaResourceDesc res;     /* as given */
  cudaTextureDesc tex;      /* as given (textures) */
  cudaResourceViewDesc view;/* as given, or zeros */
} rt_texobj;

void rt_tex_free_all(ws_rt *rt) {
  free(rt->texobjs);
  rt->texobjs = NULL;
  rt->ntexobjs = rt->cap_texobjs = 0;
}

static rt_texobj *find(ws_rt *rt, uint64_t h, int surface) {
  for (size_t i = 0; i < rt->ntexobjs; i++)
    if (rt->texobjs[i].handle == h && rt->texobjs[i].surface == surface) return &rt->texobjs[i];
  return NULL;
}

/* The emulator's description of a resource (surface: an array only). */
static cudaError_t resource(ws_rt *rt, const cudaResourceDesc *r, int surface, ws_emu_tex_desc *d, rt_chan *c) {
  memset(d, 0, sizeof *d);
  d->depth = d->height = 1;
  switch (r->resType) {
  case cudaResourceTypeArray: {
    struct cudaArray *a = rt_array_find(rt, r->res.array.array);
    if (!a) return cudaErrorInvalidResourceHandle;
    if (surface && !(a->flags & cudaArraySurfaceLoadStore)) return cudaErrorInvalidValue;
    *c = a->chan;
    d->addr = a->addr;
    d->dims = (uint32_t)a->dims;
    d->width = a->width;
    d->height = a->height;
    d->depth = a->depth;
    d->layers = (a->flags & cudaArrayCubemap) && !(a->flags & cudaArrayLayered) ? 0 : a->layers;
    d->cubemap = (a->flags & cudaArrayCubemap) != 0;
    if (a->flags & cudaArrayLayered) d->dims = a->extent.height ? 2 : 1;
    return cudaSuccess;
  }
  case cudaResourceTypeLinear:
    if (surface) return cudaErrorInvalidValue;
    if (!r->res.linear.devPtr || rt_chan_format(&r->res.linear.desc, c)) return cudaErrorInvalidValue;
    if (!rt_host_ptr(rt, (uint64_t)(uintptr_t)r->res.linear.devPtr, r->res.linear.sizeInBytes ? r->res.linear.sizeInBytes : 1))
      return cudaErrorInvalidValue;
    d->addr = (uint64_t)(uintptr_t)r->res.linear.devPtr;
    d->dims = 1;
    d->width = (uint32_t)(r->res.linear.sizeInBytes / c->elem);
    d->linear_memory = 1;
    return d->width ? cudaSuccess : cudaErrorInvalidValue;
  case cudaResourceTypePitch2D: {
    if (surface) return cudaErrorInvalidValue;
    void *ptr = r->res.pitch2D.devPtr;
    size_t w = r->res.pitch2D.width, h = r->res.pitch2D.height, pitch = r->res.pitch2D.pitchInBytes;
    if (!ptr || rt_chan_format(&r->res.pitch2D.desc, c) || !w || !h || w > UINT32_MAX || h > UINT32_MAX ||
        pitch < w * c->elem)
      return cudaErrorInvalidValue;
    if (!rt_host_ptr(rt, (uint64_t)(uintptr_t)ptr, pitch * (h - 1) + w * c->elem)) return cudaErrorInvalidValue;
    d->addr = (uint64_t)(uintptr_t)ptr;
    d->dims = 2;
    d->width = (uint32_t)w;
    d->height = (uint32_t)h;
    d->pitch = pitch;
    return cudaSuccess;
  }
  default: /* mipmapped arrays: not emulated */
    return rt_unsupported("cudaCreateTextureObject of a mipmapped array");
  }
}

/* Create the emulator's object and record the program's descriptors. */
static cudaError_t create(ws_rt *rt, unsigned long long *out, const cudaResourceDesc *r, const cudaTextureDesc *t,
                          const cudaResourceViewDesc *v, int surface) {
  ws_emu_tex_desc d;
  rt_chan c;
  cudaError_t e = resource(rt, r, surface, &d, &c);
  if (e) return e;
  d.nchan = c.nchan;
  d.chan_bits = c.bits;
  d.kind = c.kind;
  d.surface = surface;
  if (t) {
    for (int i = 0; i < 3; i++) {
      if (t->addressMode[i] < cudaAddressModeWrap || t->addressMode[i] > cudaAddressModeBorder)
        return cudaErrorInvalidValue;
      d.addr_mode[i] = (ws_emu_addr_mode)t->addressMode[i];
    }
    if ((t->filterMode != cudaFilterModePoint && t->filterMode != cudaFilterModeLinear) ||
        (t->readMode != cudaReadModeElementType && t->readMode != cudaReadModeNormalizedFloat))
      return cudaErrorInvalidValue;
    /* CUDA: normalised reads of 8- and 16-bit integers only; linear
     * filtering only of what reads as floats */
    int norm = c.always_normalized || t->readMode == cudaReadModeNormalizedFloat;
    if (norm && (c.kind == WS_EMU_CHAN_FLOAT || c.bits == 32)) norm = 0;
    if (t->filterMode == cudaFilterModeLinear && c.kind != WS_EMU_CHAN_FLOAT && !norm) return cudaErrorInvalidValue;
    d.filter_linear = t->filterMode == cudaFilterModeLinear && !d.linear_memory;
    d.read_normalized = norm;
    d.normalized_coords = t->normalizedCoords != 0;
    memcpy(d.border, t->borderColor, sizeof d.border);
    if (t->sRGB) return rt_unsupported("cudaCreateTextureObject with sRGB conversion");
  }
  if (v && v->format) return rt_unsupported("cudaCreateTextureObject with a resource view");
  ws_emu_device *dev = rt_device(rt);
  if (!dev) return cudaErrorInitializationError;
  ws_diag dg = WS_DIAG_INIT;
  uint64_t h = 0;
  int st = ws_emu_tex_create(dev, &d, &h, &dg);
  rt_print_diag(&dg);
  ws_diag_free(&dg);
  if (st) return st == WS_ENOMEM ? cudaErrorMemoryAllocation : cudaErrorInvalidValue;
  rt_texobj *o = find(rt, h, surface); /* a handle of a device since reset: reused */
  if (!o) {
    if (WS_VEC_RESERVE(rt->texobjs, rt->cap_texobjs, rt->ntexobjs + 1)) return cudaErrorMemoryAllocation;
    o = &rt->texobjs[rt->ntexobjs++];
  }
  memset(o, 0, sizeof *o);
  o->handle = h;
  o->surface = surface;
  o->res = *r;
  if (t) o->tex = *t;
  if (v) o->view = *v;
  *out = h;
  return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const cudaResourceDesc *pResDesc,
                                    const cudaTextureDesc *pTexDesc, const cudaResourceViewDesc *pResViewDesc) {
  if (!pTexObject || !pResDesc || !pTexDesc) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) e = create(rt, pTexObject, pResDesc, pTexDesc, pResViewDesc, 0);
  return rt_done(e);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const cudaResourceDesc *pResDesc) {
  if (!pSurfObject || !pResDesc) return rt_error(cudaErrorInvalidValue);
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  if (!e) e = create(rt, pSurfObject, pResDesc, NULL, NULL, 1);
  return rt_done(e);
}

static cudaError_t destroy(uint64_t h, int surface) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_texobj *o = e ? NULL : find(rt, h, surface);
  if (!e && h) { /* destroying object 0 is a no-op, as in CUDA */
    ws_diag d = WS_DIAG_INIT;
    if (!o || !rt->dev || ws_emu_tex_destroy(rt->dev, h, &d)) e = cudaErrorInvalidValue;
    ws_diag_free(&d);
    if (o) *o = rt->texobjs[--rt->ntexobjs];
  }
  return rt_done(e);
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) { return destroy(texObject, 0); }
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) { return destroy(surfObject, 1); }

/* The recorded descriptors of a live object. */
static cudaError_t query(uint64_t h, int surface, cudaResourceDesc *r, cudaTextureDesc *t, cudaResourceViewDesc *v) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_texobj *o = e ? NULL : find(rt, h, surface);
  if (!e && (!o || !rt->dev || !ws_emu_tex_find(rt->dev, h))) e = cudaErrorInvalidValue;
  if (!e) {
    if (r) *r = o->res;
    if (t) *t = o->tex;
    if (v) *v = o->view;
  }
  return rt_done(e);
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc, cudaTextureObject_t texObject) {
  if (!pResDesc) return rt_error(cudaErrorInvalidValue);
  return query(texObject, 0, pResDesc, NULL, NULL);
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject) {
  if (!pTexDesc) return rt_error(cudaErrorInvalidValue);
  return query(texObject, 0, NULL, pTexDesc, NULL);
}
cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject) {
  if (!pResViewDesc) return rt_error(cudaErrorInvalidValue);
  return query(texObject, 0, NULL, NULL, pResViewDesc);
}
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject) {
  if (!pResDesc) return rt_error(cudaErrorInvalidValue);
  return query(surfObject, 1, pResDesc, NULL, NULL);
}

/* The widest 1D texture over linear memory: cudaDeviceProp.maxTexture1DLinear
 * elements whatever the format (2^27 on every supported GPU: the guide's
 * technical specifications). */
cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, const cudaChannelFormatDesc *fmtDesc,
                                                 int device) {
  if (!maxWidthInElements || !fmtDesc) return rt_error(cudaErrorInvalidValue);
  if (device != 0) return rt_error(cudaErrorInvalidDevice);
  rt_chan c;
  if (rt_chan_format(fmtDesc, &c)) return rt_error(cudaErrorInvalidChannelDescriptor);
  *maxWidthInElements = (size_t)1 << 27;
  return cudaSuccess;
}
