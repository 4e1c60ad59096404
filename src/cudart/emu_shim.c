/*
 * emu_shim.c — TEMPORARY stand-in for the emulator's device-memory API
 * (emu_shim.h) until it lands: allocations in a synthetic address space as
 * the emulator's, no module variables, no launches (WS_EUNSUP).
 */
#include "cudart/emu_shim.h"

#include <stdlib.h>
#include <string.h>

#if !WS_HAVE_EMU_DEVICE
#define SHIM_BASE 0x100000000ull
#define SHIM_GAP 0x10000ull
#define SHIM_MAX 4096

struct ws_emu_device {
  uint64_t next;                 /* next free address */
  uint64_t base[SHIM_MAX];       /* allocation bases */
  uint64_t size[SHIM_MAX];       /* sizes */
  unsigned char *mem[SHIM_MAX];  /* storage, NULL: freed */
  int n;                         /* allocations made */
};

int ws_emu_device_new(ws_emu_device **out, const ws_emu_device_options *o, ws_diag *d) {
  (void)o, (void)d;
  *out = calloc(1, sizeof **out);
  if (!*out) return WS_ENOMEM;
  (*out)->next = SHIM_BASE;
  return WS_OK;
}
void ws_emu_device_free(ws_emu_device *dev) {
  if (!dev) return;
  for (int i = 0; i < dev->n; i++) free(dev->mem[i]);
  free(dev);
}
int ws_emu_mem_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr,
                     ws_diag *d) {
  (void)name;
  if (dev->n == SHIM_MAX) return ws_diag_error(d, "shim: too many allocations"), WS_ENOMEM;
  unsigned char *m = calloc(1, bytes ? bytes : 1);
  if (!m) return WS_ENOMEM;
  dev->base[dev->n] = dev->next, dev->size[dev->n] = bytes, dev->mem[dev->n] = m;
  *addr = dev->next;
  dev->next += (bytes + SHIM_GAP + 255) & ~255ull;
  dev->n++;
  return WS_OK;
}
int ws_emu_mem_free(ws_emu_device *dev, uint64_t addr, ws_diag *d) {
  for (int i = 0; i < dev->n; i++)
    if (dev->mem[i] && dev->base[i] == addr) {
      free(dev->mem[i]);
      dev->mem[i] = NULL;
      return WS_OK;
    }
  return ws_diag_error(d, "shim: 0x%llx is not an allocation", (unsigned long long)addr);
}
void *ws_emu_mem_host(ws_emu_device *dev, uint64_t addr, uint64_t bytes) {
  for (int i = 0; i < dev->n; i++)
    if (dev->mem[i] && addr >= dev->base[i] && bytes <= dev->size[i] &&
        addr - dev->base[i] <= dev->size[i] - bytes)
      return dev->mem[i] + (addr - dev->base[i]);
  return NULL;
}
int ws_emu_var_find(ws_emu_device *dev, const ws_emu_program *p, const char *name,
                    uint64_t *addr, uint64_t *bytes, ws_diag *d) {
  (void)dev, (void)p, (void)addr, (void)bytes;
  return ws_diag_error(d, "shim: no module variable '%s' before the emulator's device API", name);
}
int ws_emu_params_pack(const ws_ptx_function *k, void *const *args, void *buf, size_t cap,
                       size_t *used, ws_diag *d) {
  (void)k, (void)args, (void)buf, (void)cap;
  *used = 0;
  return ws_diag_error(d, "shim: no parameter packing before the emulator's device API"), WS_EUNSUP;
}
int ws_emu_launch_raw(ws_emu_launch **out, ws_emu_device *dev, const ws_emu_program *p,
                      const ws_emu_launch_config *c, ws_diag *d) {
  (void)dev, (void)p, (void)c;
  *out = NULL;
  return ws_diag_error(d, "shim: no launches before the emulator's device API"), WS_EUNSUP;
}
#else
typedef int ws_emu_shim_unused; /* ISO C forbids an empty translation unit */
#endif
