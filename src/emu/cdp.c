/*
 * cdp.c — device-side launches (dynamic parallelism, docs/emulator.md,
 * "Device-side launches"): the parameter buffers a kernel's threads get
 * from the device runtime and the grids they launch with them.
 *
 * A buffer lives in the CDP window of generic addresses (one CDP_STRIDE
 * slot each, numbered launch-wide), owned by the block that asked for it:
 * its threads write the child's arguments there, and resolve() finds it
 * (ws_emu_cdp_at) on a global miss.  At the block's end its launched
 * buffers move to the launch (the children), the others are freed.  The
 * emulator runs no child: ws_emu_launch_children hands them to the
 * caller, ordered by launching block and launch.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "util/vec.h"

uint64_t ws_emu_cdp_buffer(blockctx *B, uint32_t func, const uint32_t grid[3], const uint32_t block[3],
                           uint32_t shared) {
  ws_emu_launch *L = B->L;
  uint64_t bytes = L->p->m->funcs[func].param_bytes;
  if (bytes > CDP_STRIDE) return 0;
  uint64_t slot = __atomic_fetch_add(&L->cdp_next, 1, __ATOMIC_RELAXED);
  if (slot >= (1ull << WIN_SHIFT) / CDP_STRIDE) return 0; /* the window is full */
  cdpbuf c = {0};
  c.addr = CDP_WIN + slot * CDP_STRIDE;
  c.mem = calloc(bytes + 1, 1);
  c.bytes = (uint32_t)bytes;
  c.func = func;
  memcpy(c.grid, grid, sizeof c.grid);
  memcpy(c.block, block, sizeof c.block);
  c.shared = shared;
  c.block_linear = B->block;
  if (!c.mem || WS_VEC_PUSH(B->cdp, B->ncdp, B->cap_cdp, c)) {
    free(c.mem);
    return 0;
  }
  return c.addr;
}

/* The block's buffer whose slot holds a, or NULL. */
static cdpbuf *find(blockctx *B, uint64_t a) {
  for (size_t i = B->ncdp; i-- > 0;)
    if (a - B->cdp[i].addr < CDP_STRIDE) return &B->cdp[i];
  return NULL;
}

int ws_emu_cdp_launch(blockctx *B, uint64_t buf) {
  cdpbuf *c = find(B, buf);
  if (!c || c->addr != buf || c->launched) return -1;
  c->launched = 1;
  c->seq = B->cdp_seq++;
  return 0;
}

uint8_t *ws_emu_cdp_at(blockctx *B, uint64_t a, uint32_t n) {
  cdpbuf *c = find(B, a);
  if (!c || a - c->addr > c->bytes || c->bytes - (a - c->addr) < n) return NULL;
  return c->mem + (a - c->addr);
}

int ws_emu_cdp_block_end(blockctx *B) {
  ws_emu_launch *L = B->L;
  int st = 0;
  for (size_t i = 0; i < B->ncdp; i++) {
    cdpbuf *c = &B->cdp[i];
    if (c->launched) {
      if (WS_VEC_PUSH(L->children, L->nchildren, L->cap_children, *c) == 0) continue; /* the launch owns it */
      st = -1; /* a launch lost to an allocation failure */
    }
    free(c->mem);
  }
  B->ncdp = 0;
  B->cdp_seq = 0;
  return st;
}

void ws_emu_cdp_block_free(blockctx *B) {
  for (size_t i = 0; i < B->ncdp; i++) free(B->cdp[i].mem);
  free(B->cdp);
  B->cdp = NULL;
  B->ncdp = B->cap_cdp = 0;
}

void ws_emu_cdp_reset(ws_emu_launch *L) {
  for (size_t i = 0; i < L->nchildren; i++) free(L->children[i].mem);
  free(L->children);
  free(L->child_view);
  L->children = NULL;
  L->child_view = NULL;
  L->nchildren = L->cap_children = 0;
  L->cdp_next = 0;
}

static int cmp_child(const void *a, const void *b) {
  const cdpbuf *x = a, *y = b;
  if (x->block_linear != y->block_linear) return x->block_linear < y->block_linear ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t ws_emu_launch_children(ws_emu_launch *l, const ws_emu_child **out, int *err) {
  *out = NULL;
  if (err) *err = 0;
  if (!l->nchildren) return 0;
  if (!l->child_view) {
    qsort(l->children, l->nchildren, sizeof *l->children, cmp_child);
    l->child_view = calloc(l->nchildren, sizeof *l->child_view);
    if (!l->child_view) {
      if (err) *err = WS_ENOMEM;
      return 0;
    }
    for (size_t i = 0; i < l->nchildren; i++) {
      const cdpbuf *c = &l->children[i];
      ws_emu_child *v = &l->child_view[i];
      v->kernel = &l->p->m->funcs[c->func];
      memcpy(v->grid, c->grid, sizeof v->grid);
      memcpy(v->block, c->block, sizeof v->block);
      v->shared_bytes = c->shared;
      v->params = c->mem;
      v->block_linear = c->block_linear;
    }
  }
  *out = l->child_view;
  return l->nchildren;
}
