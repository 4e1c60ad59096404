/*
 * emu_shim.h — TEMPORARY: the emulator's device-memory API (contract in the
 * emu work, include/warpsight/emu.h once it lands), declared here so the
 * runtime builds before it does.  CMake defines WS_HAVE_EMU_DEVICE when
 * emu.h declares it, and then neither this nor emu_shim.c is used.
 */
#ifndef WS_CUDART_EMU_SHIM_H
#define WS_CUDART_EMU_SHIM_H

#include "warpsight/emu.h"

#if !WS_HAVE_EMU_DEVICE
typedef struct ws_emu_device ws_emu_device;
typedef struct ws_emu_device_options {
  uint64_t memory_budget; /* total bytes of allocations; 0: a default */
} ws_emu_device_options;
int ws_emu_device_new(ws_emu_device **out, const ws_emu_device_options *o, ws_diag *d);
void ws_emu_device_free(ws_emu_device *dev);
int ws_emu_mem_alloc(ws_emu_device *dev, uint64_t bytes, const char *name, uint64_t *addr,
                     ws_diag *d);
int ws_emu_mem_free(ws_emu_device *dev, uint64_t addr, ws_diag *d);
void *ws_emu_mem_host(ws_emu_device *dev, uint64_t addr, uint64_t bytes);
int ws_emu_var_find(ws_emu_device *dev, const ws_emu_program *p, const char *name,
                    uint64_t *addr, uint64_t *bytes, ws_diag *d);
int ws_emu_params_pack(const ws_ptx_function *k, void *const *args, void *buf, size_t cap,
                       size_t *used, ws_diag *d);
typedef struct ws_emu_launch_config {
  uint32_t grid[3], block[3]; /* geometry */
  uint64_t dynamic_shared;    /* dynamic shared bytes */
  const void *params;         /* packed image */
  size_t params_bytes;        /* its size */
} ws_emu_launch_config;
int ws_emu_launch_raw(ws_emu_launch **out, ws_emu_device *dev, const ws_emu_program *p,
                      const ws_emu_launch_config *c, ws_diag *d);
#endif
#endif
