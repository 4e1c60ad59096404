/*
 * emu_shim.h — TEMPORARY: the emulator's device-memory API (contract in the
 * emu work, include/warpsight/emu.h once it lands), declared here so the
 * runtime builds before it does.  Under other names (the macros below), so
 * a tree that has both this and the real API still builds; CMake's
 * WS_CUDART_REAL_EMU switches to the real one.
 */
#ifndef WS_CUDART_EMU_SHIM_H
#define WS_CUDART_EMU_SHIM_H

#include "warpsight/emu.h"

#if !WS_HAVE_EMU_DEVICE
#define ws_emu_device rt_shim_device
#define ws_emu_device_options rt_shim_device_options
#define ws_emu_device_new rt_shim_device_new
#define ws_emu_device_free rt_shim_device_free
#define ws_emu_mem_alloc rt_shim_mem_alloc
#define ws_emu_mem_free rt_shim_mem_free
#define ws_emu_mem_host rt_shim_mem_host
#define ws_emu_var_find rt_shim_var_find
#define ws_emu_params_pack rt_shim_params_pack
#define ws_emu_launch_config rt_shim_launch_config
#define ws_emu_launch_raw rt_shim_launch_raw
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
