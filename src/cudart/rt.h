/*
 * rt.h — the state of warpsight's CUDA runtime (docs/exec.md), shared by the
 * files of src/cudart/.
 *
 * A CUDA runtime is process-wide by its ABI: the generated host code calls
 * free functions with no context argument.  So this part, alone in the
 * project, keeps one mutable state (`ws_rt`, in rt.c), created on the first
 * call and guarded by one mutex; every entry point takes the lock.  The rest
 * of warpsight stays free of globals and is called with explicit objects.
 *
 * Execution is synchronous: a launch runs to completion in the emulator
 * before the launching call returns, so streams are in order trivially and
 * events read the predicted-time clock (the sum of the predicted times of
 * every kernel launched so far; kernels are assumed not to overlap).
 */
#ifndef WS_CUDART_RT_H
#define WS_CUDART_RT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cudart/abi.h"
#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

/* Models per prediction: the registry's size (models.def), so "all" is never
 * cut short when a model is added. */
enum {
  RT_MAX_MODELS = 0
#define MODEL(fn, name, title) +1
#include "model/models.def"
#undef MODEL
};
#define RT_MAX_UNSUP 64  /* unsupported calls remembered (each is reported once) */
#define RT_MEMORY_BUDGET (4ull << 30) /* device memory by default: the emulator's
                                         budget and cudaDeviceProp.totalGlobalMem
                                         (WARPSIGHT_MAX_MEMORY sets another) */

/* One registered fat binary (one per .cu file of the program). */
typedef struct rt_module {
  void **handle;            /* the handle given to the program (owned cell) */
  const void *wrapper;      /* what __cudaRegisterFatBinary received */
  char *ptx;                /* decompressed PTX text (owned) */
  int arch;                 /* its architecture (80 = compute_80) */
  ws_ptx_module *m;         /* parsed once (owned), NULL when it failed */
  char *error;              /* why it could not be used, or NULL (owned) */
  int tried;                /* 1 once decompressing and parsing was tried */
} rt_module;

/* One registered kernel. */
typedef struct rt_func {
  const void *host_fun;     /* the host stub's address: the program's handle */
  char *name;               /* mangled name (owned) */
  size_t module;            /* index in ws_rt.modules */
  ws_emu_program *prog;     /* loaded on first launch (owned), or NULL */
  int max_dyn_shared;       /* cudaFuncAttributeMaxDynamicSharedMemorySize */
} rt_func;

/* One registered __device__, __constant__ or __managed__ variable. */
typedef struct rt_var {
  const void *host_var;     /* host shadow (the symbol the program names) */
  void **managed_ptr;       /* __managed__: the host pointer to set, else NULL */
  char *name;               /* name in the PTX (owned) */
  size_t module;            /* index in ws_rt.modules */
  uint64_t size;            /* bytes, from the registration */
  int constant;             /* 1: __constant__ */
} rt_var;

/* A managed allocation or __managed__ variable: device memory mirrored at
 * the same address on the host (mem.c). */
typedef struct rt_managed {
  uint64_t addr;            /* device address = host address */
  uint64_t bytes;           /* size */
  int owned;                /* 1: cudaMallocManaged (freed by cudaFree) */
} rt_managed;

/* Host pages mapped for mirrors, [lo, hi); unmapped at exit only. */
typedef struct rt_map {
  uint64_t lo, hi;          /* page-aligned bounds */
} rt_map;

/* Per-model figures of one kernel configuration. */
typedef struct rt_pred {
  double ms[RT_MAX_MODELS]; /* per-launch predicted time per model, NaN: none */
  char *bottleneck;         /* the primary model's limiter (owned) */
} rt_pred;

/* Kernel statistics: one entry per (kernel, grid, block, dynamic shared,
 * parameter image) — the launch cache. */
typedef struct rt_kstat {
  size_t func;              /* index in ws_rt.funcs */
  uint32_t grid[3], block[3];
  uint64_t dyn_shared;      /* dynamic shared bytes */
  unsigned char *params;    /* parameter image (owned) */
  size_t params_bytes;
  uint64_t launches;        /* launches with this key */
  rt_pred pred;             /* per-launch prediction */
  int ok;                   /* 1: pred is valid */
} rt_kstat;

/* A stream or an event: a node of the runtime's list of live streams or
 * live events.  A stream needs no state (every call has finished when it
 * returns); an event keeps the predicted clock. */
typedef struct rt_handle {
  double t_ms;              /* events: the predicted clock when recorded, NaN: never */
  struct rt_handle *next;   /* the rest of its list */
} rt_handle;
typedef rt_handle rt_event;
typedef rt_handle rt_stream;

typedef struct ws_rt {
  pthread_mutex_t lock;     /* every entry point holds it (recursive) */
  int ready;                /* rt_init done */
  ws_gpu *gpu;              /* the chosen GPU (WARPSIGHT_GPU, default a100) */
  const char *models[RT_MAX_MODELS]; /* models to run (WARPSIGHT_MODEL) */
  size_t nmodels;
  uint64_t sample_blocks;   /* WARPSIGHT_SAMPLE_BLOCKS (0: every block) */
  uint64_t max_warp_insts;  /* WARPSIGHT_MAX_WARP_INSTS (0: none; default
                               WS_EMU_DEFAULT_MAX_WARP_INSTS) */
  uint64_t max_launch_insts; /* WARPSIGHT_MAX_LAUNCH_INSTS (0: none; default
                                WS_EMU_DEFAULT_MAX_LAUNCH_INSTS) */
  uint64_t memory_budget;   /* WARPSIGHT_MAX_MEMORY: device memory in bytes
                               (default RT_MEMORY_BUDGET; UINT64_MAX: none) */
  char *json_out;           /* WARPSIGHT_EXEC_JSON: the run's report, or NULL */
  int quiet;                /* WARPSIGHT_QUIET: no summary on stderr */
  int primary_warned;       /* the primary model's failure was reported */
  int init_failed;          /* the environment was bad: every call fails */
  const char *unsup_seen[RT_MAX_UNSUP]; /* unsupported calls reported (static names) */
  size_t unsup_nseen;
  rt_module *modules; size_t nmodules, cap_modules;
  rt_func *funcs; size_t nfuncs, cap_funcs;
  rt_var *vars; size_t nvars, cap_vars;
  rt_managed *managed; size_t nmanaged, cap_managed;
  rt_map *maps; size_t nmaps, cap_maps;
  rt_kstat *kstats; size_t nkstats, cap_kstats;
  rt_event *events;         /* live events */
  rt_stream *streams;       /* live streams */
  ws_emu_device *dev;       /* the device (one context), created lazily */
  cudaError_t sticky;       /* a kernel fault: returned by every later call */
  double clock_ms;          /* predicted GPU time so far (events read it) */
  uint64_t launches;        /* launches so far */
  ws_prof_l2 *l2;           /* the L2 the previous launch left, when it was
                               profiled in full (the next profiled launch
                               starts from it); NULL: unknown, cold */
  int device;               /* cudaSetDevice (always 0) */
} ws_rt;

extern ws_rt ws_rt_state;

/* Enter and leave a runtime entry point: initialise on first use, lock. */
ws_rt *rt_enter(void);
void rt_leave(void);
/* Record err as the thread's last error (not for cudaSuccess) and return it. */
cudaError_t rt_error(cudaError_t err);
/* The sticky error of a faulted kernel, or cudaSuccess. */
cudaError_t rt_sticky(const ws_rt *rt);
/* Report an unimplemented call on stderr, once per name; cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name);
/* Print a diagnostic list on stderr as the CLI does ("warpsight: ..."). */
void rt_print_diag(const ws_diag *d);

/* The device, created on first use; NULL after printing why it could not be. */
ws_emu_device *rt_device(ws_rt *rt);
/* Host bytes for device (or managed, or host) address [addr, addr+bytes),
 * NULL when the range is not inside one allocation or variable. */
void *rt_host_ptr(ws_rt *rt, uint64_t addr, uint64_t bytes);
/* Is [addr, addr+bytes) device memory (not managed, not host)? */
int rt_is_device(ws_rt *rt, uint64_t addr, uint64_t bytes);
/* Copy every managed range host -> device (to_device 1, before a launch)
 * or back (0, after it). */
void rt_managed_sync(ws_rt *rt, int to_device);
/* Unmap every mirror (at exit). */
void rt_managed_unmap(ws_rt *rt);
/* Map a managed mirror for device range [addr, addr+bytes). */
int rt_managed_map(ws_rt *rt, uint64_t addr, uint64_t bytes, int owned);

/* The module of a function or variable, parsed; NULL after an error. */
const ws_ptx_module *rt_module_ptx(ws_rt *rt, size_t i);
/* The module registered under a handle, or NULL. */
rt_module *rt_find_module(ws_rt *rt, void **handle);
/* A function's loaded program (loading it on first use); NULL after
 * printing why, with *err the CUDA error to return. */
ws_emu_program *rt_func_prog(ws_rt *rt, rt_func *f, cudaError_t *err);
/* The registered function for a host stub, or NULL. */
rt_func *rt_find_func(ws_rt *rt, const void *host_fun);
/* The registered variable for a host shadow, or NULL. */
rt_var *rt_find_var(ws_rt *rt, const void *host_var);
/* Device address of a registered variable (creating the module's
 * variables); cudaErrorInvalidSymbol when absent. */
cudaError_t rt_var_addr(ws_rt *rt, const rt_var *v, uint64_t *addr, uint64_t *bytes);

/* Launch a registered function: run it, profile it (or reuse the cache),
 * advance the clock.  The launch status (cudaSuccess, or the error). */
cudaError_t rt_launch(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, void **args,
                      size_t dyn_shared);

/* Write the run's report (WARPSIGHT_EXEC_JSON) and the stderr summary. */
void rt_report(ws_rt *rt);

#endif
