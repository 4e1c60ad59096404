/*
 * device.c — the emulator's device memory (warpsight/emu.h "device
 * memory"): allocations in one global address space, each module's
 * variables with their PTX initialisers, parameter packing and the raw
 * launch that the spec launch and the CUDA runtime both build on.
 *
 * Invariants: allocations are sorted by base and never overlap; addresses
 * only grow (a bump allocator, so a freed address is never handed out
 * again and a use after free faults); `used` is the sum of live sizes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu/emu_int.h"
#include "util/checked.h"
#include "util/strbuf.h"
#include "util/vec.h"

void ws_emu_var_image(const ws_emu_program *P, const ws_ptx_var *v, uint8_t *img);

static uint64_t default_budget(void) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && psz > 0) return (uint64_t)pages * (uint64_t)psz;
  return 16ull << 30; /* the machine does not say */
}

int ws_emu_dev_new_at(ws_emu_device **out, uint64_t budget, uint64_t first) {
  *out = calloc(1, sizeof **out);
  if (!*out) return WS_ENOMEM;
  (*out)->budget = budget;
  (*out)->next = first;
  (*out)->pool = ws_emu_pool_new(); /* NULL: every launch runs on its caller alone */
  return WS_OK;
}

int ws_emu_device_new(ws_emu_device **out, const ws_emu_device_options *o, ws_diag *d) {
  uint64_t b = o && o->memory_budget ? o->memory_budget : default_budget();
  int st = ws_emu_dev_new_at(out, b, DEVICE_BASE);
  if (st) ws_diag_error(d, "out of memory creating an emulated device");
  return st;
}

static void free_module(dmodule *dm) {
  for (uint32_t i = 0; dm->mem && i < dm->m->nvars; i++) free(dm->mem[i]);
  free(dm->mem);
  free(dm->addr);
  free(dm->const_bank);
}

static void free_alloc(dalloc *a) {
  free(a->mem);
  free(a->name);
}

void ws_emu_device_free(ws_emu_device *dev) {
  if (!dev) return;
  for (size_t i = 0; i < dev->nallocs; i++) free_alloc(&dev->allocs[i]);
  free(dev->allocs);
  for (size_t i = 0; i < dev->nmods; i++) free_module(&dev->mods[i]);
  free(dev->mods);
  free(dev->texs);
  ws_emu_pool_free(dev->pool);
  free(dev);
}

/* ---- texture and surface objects ------------------------------------------- */

int ws_emu_tex_create(ws_emu_device *dev, const ws_emu_tex_desc *d, uint64_t *handle, ws_diag *diag) {
  uint64_t row, slice;
  *handle = 0;
  if (d->dims < 1 || d->dims > 3 || !d->width || !d->height || !d->depth)
    return ws_diag_error(diag, "texture of %u dimensions %u x %u x %u: every size must be at least 1", d->dims,
                         d->width, d->height, d->depth);
  if ((d->nchan != 1 && d->nchan != 2 && d->nchan != 4) ||
      (d->chan_bits != 8 && d->chan_bits != 16 && d->chan_bits != 32) ||
      (d->kind == WS_EMU_CHAN_FLOAT && d->chan_bits == 8))
    return ws_diag_error(diag, "texture format of %u channels of %u bits is not supported (1, 2 or 4 channels of "
                         "8, 16 or 32 bits; floats of 16 or 32)", d->nchan, d->chan_bits);
  texobj t;
  memset(&t, 0, sizeof t);
  t.d = *d;
  t.texel = d->nchan * d->chan_bits / 8;
  if (ws_mul_u64(&row, d->width, t.texel)) return ws_diag_error(diag, "texture too large");
  if (!t.d.pitch) t.d.pitch = row;
  if (t.d.pitch < row) return ws_diag_error(diag, "texture pitch %llu is less than a row's %llu bytes",
                                            (unsigned long long)t.d.pitch, (unsigned long long)row);
  if (ws_mul_u64(&slice, t.d.pitch, d->height)) return ws_diag_error(diag, "texture too large");
  t.slice = slice;
  t.live = 1;
  if (WS_VEC_PUSH(dev->texs, dev->ntexs, dev->ctexs, t)) return WS_ENOMEM;
  *handle = dev->ntexs;
  return WS_OK;
}

static texobj *tex_live(const ws_emu_device *dev, uint64_t handle) {
  if (!handle || handle > dev->ntexs || !dev->texs[handle - 1].live) return NULL;
  return &dev->texs[handle - 1];
}

int ws_emu_tex_destroy(ws_emu_device *dev, uint64_t handle, ws_diag *diag) {
  texobj *t = tex_live(dev, handle);
  if (!t) return ws_diag_error(diag, "no texture or surface object has handle %llu", (unsigned long long)handle);
  t->live = 0;
  return WS_OK;
}

int ws_emu_launch_cooperative(const ws_emu_launch *l) { return l->grid_ws != 0; }

/* The workspace grid.sync() counts arrivals in (%envreg1:%envreg2), on the
 * device; ws_emu_run maps it with the other allocations. */
int ws_emu_launch_set_cooperative(ws_emu_launch *l, ws_diag *d) {
  if (l->grid_ws) return WS_OK;
  int st = ws_emu_dev_alloc(l->dev, 256, "grid-sync workspace", &l->grid_ws);
  if (st == WS_EINVAL) return ws_diag_error(d, "no device memory left for a cooperative launch's grid-sync workspace");
  return st;
}

const ws_emu_tex_desc *ws_emu_tex_find(const ws_emu_device *dev, uint64_t handle) {
  texobj *t = tex_live(dev, handle);
  return t ? &t->d : NULL;
}

/* ---- allocations ------------------------------------------------------------ */

int ws_emu_dev_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr) {
  uint64_t base = (dev->next + 255) / 256 * 256, end, used;
  if (base < dev->next || ws_add_u64(&end, base, bytes) || end > DEVICE_END ||
      ws_add_u64(&used, dev->used, bytes) || used > dev->budget)
    return WS_EINVAL;
  if (bytes >= SIZE_MAX) return WS_ENOMEM;
  if (WS_VEC_RESERVE(dev->allocs, dev->callocs, dev->nallocs + 1)) return WS_ENOMEM;
  dalloc a = {base, bytes, NULL, NULL};
  /* calloc, not malloc + memset: large blocks come zeroed from mmap and
   * pages nobody touches never become resident (sampled launches of huge
   * buffers read and write only a few pages). */
  a.mem = calloc((size_t)bytes + 1, 1);
  if (!a.mem) return WS_ENOMEM;
  if (name && !(a.name = ws_strdup(name))) {
    free_alloc(&a);
    return WS_ENOMEM;
  }
  dev->allocs[dev->nallocs++] = a; /* addresses grow: stays sorted */
  dev->used = used;
  dev->next = end + GLOBAL_GAP;
  *addr = base;
  return WS_OK;
}

int ws_emu_mem_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr,
                     ws_diag *d) {
  *addr = 0;
  int st = ws_emu_dev_alloc(dev, bytes, name, addr);
  if (st == WS_EINVAL) {
    ws_diag_error(d,
                         "cannot allocate %llu bytes%s%s%s: the device memory budget is %llu bytes and %llu are in use",
                         (unsigned long long)bytes, name ? " for '" : "", name ? name : "", name ? "'" : "",
                         (unsigned long long)dev->budget, (unsigned long long)dev->used);
    return WS_ENOMEM;
  }
  if (st)
    ws_diag_error(d, "out of host memory allocating %llu bytes of device memory%s%s%s",
                  (unsigned long long)bytes, name ? " for '" : "", name ? name : "", name ? "'" : "");
  return st;
}

dalloc *ws_emu_dev_find(ws_emu_device *dev, uint64_t addr) {
  size_t lo = 0, hi = dev->nallocs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (dev->allocs[mid].base < addr) lo = mid + 1;
    else hi = mid;
  }
  return lo < dev->nallocs && dev->allocs[lo].base == addr ? &dev->allocs[lo] : NULL;
}

int ws_emu_mem_free(ws_emu_device *dev, uint64_t addr, ws_diag *d) {
  dalloc *a = ws_emu_dev_find(dev, addr);
  if (!a)
    return ws_diag_error(d, "device address 0x%llx is not the start of a live allocation",
                         (unsigned long long)addr);
  free(a->mem);
  free(a->name);
  dev->used -= a->size;
  size_t i = (size_t)(a - dev->allocs);
  memmove(a, a + 1, (dev->nallocs - i - 1) * sizeof *a);
  dev->nallocs--;
  return WS_OK;
}

/* [addr, addr+bytes) inside [base, base+size)? */
static int inside(uint64_t addr, uint64_t bytes, uint64_t base, uint64_t size) {
  return addr >= base && addr - base <= size && size - (addr - base) >= bytes;
}

void *ws_emu_mem_host(ws_emu_device *dev, uint64_t addr, uint64_t bytes) {
  /* the last allocation whose base is <= addr */
  size_t lo = 0, hi = dev->nallocs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (dev->allocs[mid].base <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) {
    const dalloc *a = &dev->allocs[lo - 1];
    if (inside(addr, bytes, a->base, a->size)) return a->mem + (addr - a->base);
  }
  if (dev->cur_mod >= dev->nmods) return NULL;
  const dmodule *dm = &dev->mods[dev->cur_mod];
  if ((addr >> WIN_SHIFT) == (CONST_WIN >> WIN_SHIFT)) {
    /* .const: the module's slot in bits 32..39, the bank offset below */
    uint64_t rel = addr - CONST_WIN;
    size_t slot = (size_t)(rel >> 32);
    if (slot >= dev->nmods) return NULL;
    dm = &dev->mods[slot];
    rel &= 0xffffffffull;
    return inside(rel, bytes, 0, dm->const_bytes) ? dm->const_bank + rel : NULL;
  }
  for (uint32_t i = 0; i < dm->m->nvars; i++)
    if (dm->mem[i] && inside(addr, bytes, dm->addr[i], dm->m->vars[i].size))
      return dm->mem[i] + (addr - dm->addr[i]);
  return NULL;
}

/* ---- module variables ---------------------------------------------------------- */

/* A module's variables laid out as program p decided (every program of a
 * module lays .global and .const variables out the same way), initialised. */
static int make_module(dmodule *dm, const ws_emu_program *p, ws_diag *d) {
  const ws_ptx_module *m = p->m;
  memset(dm, 0, sizeof *dm);
  dm->m = m;
  dm->addr = calloc(m->nvars + 1, sizeof *dm->addr);
  dm->mem = calloc(m->nvars + 1, sizeof *dm->mem);
  dm->const_bank = malloc(p->const_bytes + 1);
  dm->const_bytes = p->const_bytes;
  if (!dm->addr || !dm->mem || !dm->const_bank) goto oom;
  memcpy(dm->const_bank, p->const_image, p->const_bytes);
  for (uint32_t i = 0; i < m->nvars; i++) {
    const ws_ptx_var *v = &m->vars[i];
    if (v->space != WS_PTX_SP_GLOBAL && v->space != WS_PTX_SP_CONST) continue;
    dm->addr[i] = p->mvar_addr[i];
    if (v->space != WS_PTX_SP_GLOBAL) continue;
    if (v->size >= SIZE_MAX || !(dm->mem[i] = calloc((size_t)v->size + 1, 1))) goto oom;
    ws_emu_var_image(p, v, dm->mem[i]);
  }
  return WS_OK;
oom:
  free_module(dm);
  ws_diag_error(d, "out of memory creating the variables of module '%s'", m->path);
  return WS_ENOMEM;
}

int ws_emu_dev_module(ws_emu_device *dev, const ws_emu_program *p, size_t *idx, ws_diag *d) {
  for (size_t i = 0; i < dev->nmods; i++)
    if (dev->mods[i].m == p->m) {
      *idx = dev->cur_mod = i;
      return WS_OK;
    }
  if (p->gvar_end > DEVICE_BASE && dev->next >= DEVICE_BASE)
    return ws_diag_error(d, "the .global variables of module '%s' need %llu bytes, more than the device's variable window",
                         p->m->path, (unsigned long long)(p->gvar_end - GLOBAL_BASE));
  if (p->const_bytes > 0xffffffffull)
    return ws_diag_error(d, "the .const variables of module '%s' need %llu bytes, more than 4 GiB",
                         p->m->path, (unsigned long long)p->const_bytes);
  if (dev->nmods >= 256)
    return ws_diag_error(d, "more than 256 modules on one device");
  if (WS_VEC_RESERVE(dev->mods, dev->cmods, dev->nmods + 1)) return WS_ENOMEM;
  int st = make_module(&dev->mods[dev->nmods], p, d);
  if (st) return st;
  *idx = dev->cur_mod = dev->nmods++;
  return WS_OK;
}

int ws_emu_var_find(ws_emu_device *dev, const ws_emu_program *p, const char *name, uint64_t *addr,
                    uint64_t *bytes, ws_diag *d) {
  *addr = 0;
  if (bytes) *bytes = 0;
  const ws_ptx_module *m = p->m;
  for (uint32_t i = 0; i < m->nvars; i++) {
    const ws_ptx_var *v = &m->vars[i];
    if (strcmp(v->name, name) != 0) continue;
    if (v->space != WS_PTX_SP_GLOBAL && v->space != WS_PTX_SP_CONST)
      return ws_diag_error(d, "variable '%s' of module '%s' is not in .global or .const space", name, m->path);
    size_t mi;
    int st = ws_emu_dev_module(dev, p, &mi, d);
    if (st) return st;
    const dmodule *dm = &dev->mods[mi];
    *addr = v->space == WS_PTX_SP_GLOBAL ? dm->addr[i] : CONST_WIN + ((uint64_t)mi << 32) + dm->addr[i];
    if (bytes) *bytes = v->size;
    return WS_OK;
  }
  return ws_diag_error(d, "module '%s' has no .global or .const variable named '%s'", m->path, name);
}

/* ---- parameters and the raw launch ------------------------------------------------ */

int ws_emu_params_pack(const ws_ptx_function *k, void *const *args, void *buf, size_t cap, size_t *used,
                       ws_diag *d) {
  *used = 0;
  if (k->param_bytes > cap)
    return ws_diag_error(d, "kernel '%s' takes %llu bytes of parameters, the buffer holds %zu", k->name,
                         (unsigned long long)k->param_bytes, cap);
  memset(buf, 0, (size_t)k->param_bytes);
  for (uint32_t i = 0; i < k->nparams; i++) {
    const ws_ptx_var *pv = &k->params[i];
    if (!args || !args[i])
      return ws_diag_error(d, "kernel '%s': no value for parameter %u '%s'", k->name, i, pv->name);
    if (pv->offset + pv->size > k->param_bytes)
      return ws_diag_error(d, "kernel '%s': parameter %u '%s' lies outside the parameter space", k->name, i,
                           pv->name);
    memcpy((uint8_t *)buf + pv->offset, args[i], (size_t)pv->size);
  }
  *used = (size_t)k->param_bytes;
  return WS_OK;
}

/* Grid and block against CUDA's limits and the kernel's directives. */
static int check_shape(const ws_ptx_function *k, const ws_emu_launch_config *c, const char *origin,
                       ws_diag *d) {
  for (int i = 0; i < 3; i++)
    if (!c->grid[i] || !c->block[i])
      return ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "grid %ux%ux%u, block %ux%ux%u: every dimension must be at least 1",
                         c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1], c->block[2]);
  uint64_t th = (uint64_t)c->block[0] * c->block[1] * c->block[2];
  if (th > 1024 || c->block[2] > 64 || c->grid[0] > 2147483647u || c->grid[1] > 65535 || c->grid[2] > 65535)
    return ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0,
                       "grid %ux%ux%u, block %ux%ux%u: beyond CUDA's limits (at most 1024 threads per block, block z 64, grid x 2^31-1, grid y and z 65535)",
                       c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1], c->block[2]);
  if (k->perf.nreqntid && (k->perf.reqntid[0] != c->block[0] || k->perf.reqntid[1] != c->block[1] ||
                           k->perf.reqntid[2] != c->block[2]))
    return ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "block %ux%ux%u differs from the kernel's .reqntid %u, %u, %u",
                       c->block[0], c->block[1], c->block[2], k->perf.reqntid[0], k->perf.reqntid[1],
                       k->perf.reqntid[2]);
  if (k->perf.nmaxntid && th > (uint64_t)k->perf.maxntid[0] * k->perf.maxntid[1] * k->perf.maxntid[2])
    return ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "block of %u threads exceeds the kernel's .maxntid",
                       (unsigned)th);
  return WS_OK;
}

int ws_emu_launch_map(ws_emu_launch *L) {
  ws_emu_device *dev = L->dev;
  const dmodule *dm = &dev->mods[L->mod];
  const ws_ptx_module *m = dm->m;
  size_t n = dev->nallocs;
  for (uint32_t i = 0; i < m->nvars; i++) n += dm->mem[i] != NULL;
  if (n > 0x7fffffff) return WS_ENOMEM;
  /* n + 1: the empty object past the end, a warp's first cached object */
  if (WS_VEC_RESERVE(L->gobjs, L->gobjs_cap, n + 1) || WS_VEC_RESERVE(L->gmem, L->gmem_cap, n + 1))
    return WS_ENOMEM;
  gobj *go = L->gobjs;
  uint8_t **gm = L->gmem;
  uint32_t k = 0;
  for (uint32_t i = 0; i < m->nvars; i++)
    if (dm->mem[i]) {
      go[k] = (gobj){dm->addr[i], m->vars[i].size, m->vars[i].name, -1, (int)i};
      gm[k++] = dm->mem[i];
    }
  for (size_t i = 0; i < dev->nallocs; i++) {
    const dalloc *a = &dev->allocs[i];
    go[k] = (gobj){a->base, a->size, a->name ? a->name : "(unnamed)", (int)i, -1};
    gm[k++] = a->mem;
  }
  /* variables below DEVICE_BASE (or the spec device's first buffer), and
   * both lists in address order: the map is sorted, resolve() relies on it */
  for (uint32_t i = 1; i < k; i++)
    if (go[i].base < go[i - 1].base + go[i - 1].size) return WS_EINVAL;
  /* every object of the map is writable (.global variables and
   * allocations; a .const variable lives in the constant bank, reached
   * through the const window, which refuses writes), so the engines' fast
   * paths store to a warp's cached object unchecked.  Past the end: the
   * empty object, a warp's first cached one (no address is in it) */
  go[k] = (gobj){0, 0, "(none)", -1, -1};
  gm[k] = NULL;
  L->ngobjs = k;
  return WS_OK;
}

void ws_emu_launch_free(ws_emu_launch *l) {
  if (!l) return;
  if (l->grid_ws) {
    ws_diag d = WS_DIAG_INIT;
    ws_emu_mem_free(l->dev, l->grid_ws, &d);
    ws_diag_free(&d);
  }
  ws_emu_cdp_reset(l);
  free(l->gmem);
  free(l->gobjs);
  free(l->param_image);
  free(l->arg_addr);
  ws_emu_device_free(l->own_dev);
  free(l);
}

int ws_emu_launch_raw(ws_emu_launch **out, ws_emu_device *dev, const ws_emu_program *p,
                      const ws_emu_launch_config *c, ws_diag *d) {
  *out = NULL;
  const ws_ptx_function *k = p->funcs[0].f;
  int st = check_shape(k, c, p->m->path, d);
  if (st) return st;
  if (c->params_bytes != k->param_bytes || (c->params_bytes && !c->params))
    return ws_diag_error(d, "kernel '%s' takes %llu bytes of parameters, the launch gives %zu", k->name,
                         (unsigned long long)k->param_bytes, c->params ? c->params_bytes : 0);
  size_t mi;
  if ((st = ws_emu_dev_module(dev, p, &mi, d))) return st;
  ws_emu_launch *L = calloc(1, sizeof *L);
  if (!L) return WS_ENOMEM;
  L->p = p;
  L->dev = dev;
  L->mod = mi;
  memcpy(L->grid, c->grid, sizeof L->grid);
  memcpy(L->block, c->block, sizeof L->block);
  L->dynamic_shared = c->dynamic_shared;
  L->param_bytes = k->param_bytes;
  L->param_image = malloc(k->param_bytes + 1);
  L->const_bank = dev->mods[mi].const_bank;
  L->reserved_base = p->shared_dyn_base + c->dynamic_shared;
  if (p->reserved_smem) L->reserved_base = (L->reserved_base + 127) / 128 * 128;
  L->shared_bytes = L->reserved_base + p->reserved_smem;
  if (!L->param_image || (st = ws_emu_launch_map(L))) {
    ws_emu_launch_free(L);
    if (st == WS_EINVAL) return ws_diag_error(d, "module variables and allocations overlap on the device");
    return WS_ENOMEM;
  }
  if (k->param_bytes) memcpy(L->param_image, c->params, (size_t)k->param_bytes);
  *out = L;
  return WS_OK;
}
