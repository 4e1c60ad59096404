/*
 * cdp.c — device-side launches (dynamic parallelism, docs/exec.md,
 * "Device-side launches"): the grids a kernel's threads launch with
 * k<<<...>>> are recorded by the emulator (src/emu/cdp.c); after the
 * parent grid has run, each runs here as a launch of its own — profiled,
 * predicted, reported and on the clock like a host launch — in the order
 * of the launching blocks and, within a block, of the launches.  A child's
 * own children follow it the same way, down to CUDA's nesting limit.
 *
 * The order is one CUDA allows: a child grid may start any time after its
 * launch, and without device-side synchronisation (gone since CUDA 12) a
 * parent cannot wait for it; the parent grid completes only when its
 * children have.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/rt.h"

#define RT_CDP_MAX_DEPTH 24 /* cudaLimitDevRuntimeSyncDepth's ceiling: nesting CUDA allows */

cudaError_t rt_children_take(ws_rt *rt, const rt_func *parent, ws_emu_launch *l, rt_child **out, size_t *n) {
  *out = NULL;
  *n = 0;
  const ws_emu_child *c = NULL;
  int err = 0;
  size_t nc = ws_emu_launch_children(l, &c, &err);
  if (err) return cudaErrorMemoryAllocation;
  if (!nc) return cudaSuccess;
  rt_child *k = calloc(nc, sizeof *k);
  if (!k) return cudaErrorMemoryAllocation;
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; i < nc && !e; i++) {
    const ws_emu_child *ch = &c[i];
    size_t fi = rt->nfuncs;
    for (size_t j = 0; j < rt->nfuncs && fi == rt->nfuncs; j++)
      if (rt->funcs[j].module == parent->module && !strcmp(rt->funcs[j].name, ch->kernel->name)) fi = j;
    if (fi == rt->nfuncs) {
      fprintf(stderr, "warpsight: error: kernel '%s' launched kernel '%s', which the program did not register\n",
              parent->name, ch->kernel->name);
      e = cudaErrorLaunchFailure;
      break;
    }
    k[i].func = fi;
    k[i].grid = (dim3){ch->grid[0], ch->grid[1], ch->grid[2]};
    k[i].block = (dim3){ch->block[0], ch->block[1], ch->block[2]};
    k[i].shared = ch->shared_bytes;
    k[i].bytes = (size_t)ch->kernel->param_bytes;
    k[i].params = malloc(k[i].bytes + 1);
    if (!k[i].params) e = cudaErrorMemoryAllocation;
    else memcpy(k[i].params, ch->params, k[i].bytes);
    *n = i + 1;
  }
  *out = k;
  if (e) {
    rt_children_free(k, *n);
    *out = NULL;
    *n = 0;
  }
  return e;
}

void rt_children_free(rt_child *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) free(c[i].params);
  free(c);
}

cudaError_t rt_children_run(ws_rt *rt, rt_child *c, size_t n) {
  cudaError_t e = cudaSuccess;
  if (n && rt->cdp_depth >= RT_CDP_MAX_DEPTH) {
    fprintf(stderr, "warpsight: error: device-side launches nested more than %d deep\n", RT_CDP_MAX_DEPTH);
    e = cudaErrorLaunchMaxDepthExceeded;
  }
  rt->cdp_depth++;
  for (size_t i = 0; i < n && !e; i++)
    e = rt_launch(rt, &rt->funcs[c[i].func], c[i].grid, c[i].block, c[i].params, c[i].bytes, c[i].shared, 0);
  rt->cdp_depth--;
  rt_children_free(c, n);
  return e;
}
