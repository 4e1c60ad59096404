/*
 * tex.h — CUDA arrays, texture and surface objects inside the runtime
 * (array.c, texture.c): what mem.c's copies and rt.c's exit need of them.
 */
#ifndef WS_CUDART_TEX_H
#define WS_CUDART_TEX_H

#include "cudart/abi_tex.h"
#include "cudart/rt.h"

/* A channel format: channels, bits per channel, their kind, bytes per
 * element; always_normalized for the cudaChannelFormatKind*Normalized*
 * kinds (read as floats whatever the texture's read mode). */
typedef struct rt_chan {
  uint32_t nchan, bits, elem;
  ws_emu_chan_kind kind;
  int always_normalized;
} rt_chan;

/* A CUDA array (the handle programs hold). */
struct cudaArray {
  uint32_t magic;            /* live while ARRAY_MAGIC (array.c) */
  cudaChannelFormatDesc desc; /* as allocated */
  cudaExtent extent;         /* as allocated (elements; 0 for an unused dimension) */
  unsigned flags;            /* cudaArray* flags */
  rt_chan chan;
  uint32_t width, height;    /* texels of a row, rows of a slice (>= 1) */
  uint32_t depth;            /* 3D: slices of the volume; else 1 */
  uint32_t slices;           /* 2D slices stored: depth, or layers (x 6 faces) */
  uint32_t layers;           /* layered or cube map: layers, else 0 */
  int dims;                  /* 1, 2 or 3 */
  uint64_t addr, bytes;      /* its storage: an allocation of the device */
  struct cudaArray *next;    /* the rest of ws_rt.arrays */
};

/* The channel format of a descriptor; -1 when warpsight cannot sample it
 * (1, 2 or 4 channels of 8, 16 or 32 bits, every channel alike; floats
 * of 16 or 32 bits; the normalized 8/16-bit kinds). */
int rt_chan_format(const cudaChannelFormatDesc *d, rt_chan *c);
/* The live array of a handle, or NULL. */
struct cudaArray *rt_array_find(ws_rt *rt, const void *a);
/* rt_copy3d of a copy with an array on either side. */
cudaError_t rt_array_copy3d(ws_rt *rt, const cudaMemcpy3DParms *p);
/* Free every array's handle (at exit). */
void rt_array_free_all(ws_rt *rt);
/* Free every texture and surface object's record (at exit). */
void rt_tex_free_all(ws_rt *rt);

#endif
