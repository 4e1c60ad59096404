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
  ws_ptx_module **parts;    /* -rdc=true: each translation unit's module, linked
                               into m (owned, m borrows them) */
  char **part_ptx;          /* their PTX texts (owned) */
  size_t nparts;
  struct rt_modres *res;    /* its kernels' registers and shared bytes from the
                               compiler, found once (resources.c; owned) */
} rt_module;
#define RT_MAX_TUS 4096     /* translation units of one -rdc=true program */

/* One registered kernel. */
typedef struct rt_func {
  const void *host_fun;     /* the host stub's address: the program's handle */
  char *name;               /* mangled name (owned) */
  size_t module;            /* index in ws_rt.modules */
  ws_emu_program *prog;     /* loaded on first launch (owned), or NULL */
  int max_dyn_shared;       /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1: unset */
  int static_shared;        /* static shared bytes (launch.c), -1: not known yet */
  int cache_config;         /* cudaFuncSetCacheConfig (recorded) */
  unsigned char *key_mask;  /* per parameter byte, RT_KEY_* (launch.c's reuse
                               rule; owned, made with prog), NULL: every byte */
  size_t key_bytes;         /* bytes of key_mask */
  int jit_state;            /* the translated engine: 0 not tried yet, 1 the
                               program has code, 2 not for this kernel */
  uint64_t interp_insts;    /* thread instructions its launches ran in the
                               interpreter (what decides a compile, auto) */
  int coop_noted;           /* verbose: its cooperative launches' engine was said */
} rt_func;

/* What a parameter byte contributes to the launch-reuse key (docs/exec.md,
 * "Launch reuse"): nothing (it only flows into computed values), its value,
 * or, for the first byte of an 8-byte field, its value unless that is a
 * device address, then only the address modulo 256. */
enum { RT_KEY_IGNORE = 0, RT_KEY_EXACT = 1, RT_KEY_PTR = 2 };

/* One registered __device__, __constant__ or __managed__ variable. */
typedef struct rt_var {
  const void *host_var;     /* host shadow (the symbol the program names) */
  void **managed_ptr;       /* __managed__: the host pointer to set, else NULL */
  char *name;               /* name in the PTX (owned) */
  size_t module;            /* index in ws_rt.modules */
  uint64_t size;            /* bytes, from the registration */
  int constant;             /* 1: __constant__ */
} rt_var;

/* Device memory with a host copy that holds the truth between launches: a
 * managed allocation or __managed__ variable (host copy at the same
 * address), or mapped/registered host memory (host copy at `host`).  Every
 * launch copies them to the device before it runs and back after (mem.c). */
typedef struct rt_mirror {
  uint64_t addr;            /* device address */
  unsigned char *host;      /* its host copy (== addr for managed memory) */
  uint64_t bytes;           /* size */
  int kind;                 /* RT_MIRROR_* */
  int readonly;             /* host memory registered with
                               cudaHostRegisterReadOnly: never copied back
                               (its pages may be read-only) */
} rt_mirror;
enum { RT_MIRROR_MANAGED = 1,  /* cudaMallocManaged: freed by cudaFree */
       RT_MIRROR_VAR = 2,      /* a __managed__ variable */
       RT_MIRROR_HOST = 3 };   /* mapped or registered host memory */

/* Host pages mapped for mirrors, [lo, hi); unmapped at exit only. */
typedef struct rt_map {
  uint64_t lo, hi;          /* page-aligned bounds */
} rt_map;

/* A live device allocation (cudaMalloc and its pitched, 3D, stream-ordered
 * and managed forms): the registry that answers cudaMemGetInfo,
 * cudaPointerGetAttributes and the pools' statistics. */
typedef struct rt_alloc {
  uint64_t addr, bytes;     /* device address and size */
  int managed;              /* 1: cudaMallocManaged */
  struct rt_pool *pool;     /* stream-ordered: its pool, else NULL */
  unsigned char *advice;    /* managed: per 4 KiB page, the advice and last
                               prefetch (RT_ADV_*), NULL until the first
                               cudaMemAdvise or cudaMemPrefetchAsync */
  int graph;                /* 1: a graph's allocation (an allocation node, or
                               cudaMallocAsync in a capturing stream): its
                               address is the graph's for the process's life,
                               so a free of it (a free node, cudaFree,
                               cudaFreeAsync) releases nothing (graph.c) */
} rt_alloc;
/* The bits of rt_alloc.advice: read-mostly; the preferred location and the
 * last prefetch's (RT_LOC_*, 2 bits each); accessed by the device, by the
 * host.  A page's advice answers cudaMemRangeGetAttribute (mem.c). */
enum { RT_ADV_PAGE = 4096,
       RT_ADV_READ_MOSTLY = 1, RT_ADV_PREF_SHIFT = 1, RT_ADV_ACC_DEV = 8, RT_ADV_ACC_HOST = 16,
       RT_ADV_PREFETCH_SHIFT = 5 };
enum { RT_LOC_NONE = 0, RT_LOC_DEVICE = 1, RT_LOC_HOST = 2, RT_LOC_NUMA = 3 };

/* Host memory the runtime allocated (cudaMallocHost, cudaHostAlloc) or
 * registered (cudaHostRegister): the registry that answers a foreign or
 * stale pointer with CUDA's error instead of a crash (issue 24, row 3). */
typedef struct rt_hostmem {
  unsigned char *ptr;       /* host address */
  uint64_t bytes;           /* size */
  unsigned flags;           /* cudaHostAlloc* / cudaHostRegister* flags */
  int registered;           /* 1: cudaHostRegister (the program owns the bytes) */
  uint64_t dev;             /* device address of its mirror, 0: none yet */
  int mapped_at_dev;        /* 1: ptr was mapped at dev (munmap'd at exit) */
} rt_hostmem;

/* A memory pool (cudaMemPool_t): the device's default one or one from
 * cudaMemPoolCreate.  Allocations are the device's own; a pool keeps the
 * attributes a program sets and the statistics it reads. */
typedef struct rt_pool {
  uint64_t threshold;       /* cudaMemPoolAttrReleaseThreshold */
  int reuse[3];             /* the three cudaMemPoolReuse* flags */
  uint64_t used, used_high; /* bytes in use, and the most so far */
  struct rt_pool *next;     /* the rest of ws_rt.pools */
} rt_pool;

/* Per-model figures of one kernel configuration. */
typedef struct rt_pred {
  double ms[RT_MAX_MODELS]; /* per-launch predicted time per model, NaN: none */
  char *bottleneck;         /* the primary model's limiter (owned) */
} rt_pred;

/* Kernel statistics: one entry per (kernel, grid, block, dynamic shared,
 * reuse key of the parameters) — the launch cache (launch.c). */
typedef struct rt_kstat {
  size_t func;              /* index in ws_rt.funcs */
  uint32_t grid[3], block[3];
  uint64_t dyn_shared;      /* dynamic shared bytes */
  unsigned char *key;       /* the parameters' reuse key (owned) */
  size_t key_bytes;
  uint64_t launches;        /* launches with this key */
  rt_pred pred;             /* per-launch prediction */
  int ok;                   /* 1: pred is valid */
} rt_kstat;

struct rt_gnode;
struct rt_graph;

/* A stream-capture sequence (cudaStreamBeginCapture .. EndCapture): the
 * graph being recorded, shared by every stream that joined it. */
typedef struct rt_capture {
  struct rt_graph *graph;   /* what is recorded (owned until EndCapture) */
  struct rt_stream *origin; /* the stream it began on */
  unsigned long long id;    /* cudaStreamGetCaptureInfo's id */
  int mode;                 /* enum cudaStreamCaptureMode */
} rt_capture;

/* A set of graph nodes: what the next captured operation depends on. */
typedef struct rt_nodeset {
  struct rt_gnode **v;      /* nodes (borrowed from the capture's graph) */
  size_t n, cap;
} rt_nodeset;

/* A stream.  Every operation has finished when its call returns, so a
 * stream needs no queue; it keeps its properties and, while capturing, the
 * capture it belongs to. */
typedef struct rt_stream {
  unsigned flags;           /* cudaStreamNonBlocking or 0 */
  int priority;             /* clamped to cudaDeviceGetStreamPriorityRange */
  unsigned long long id;    /* cudaStreamGetId */
  cudaLaunchAttributeValue policy; /* cudaLaunchAttributeAccessPolicyWindow, as set */
  int has_policy;           /* policy was set */
  rt_capture *cap;          /* the capture it takes part in, or NULL */
  rt_nodeset deps;          /* while capturing: the nodes its next op follows */
  struct rt_stream *next;   /* the rest of ws_rt.streams */
} rt_stream;

/* An event: the predicted clock when recorded; recorded in a capturing
 * stream, the nodes a stream that waits on it joins after. */
typedef struct rt_event {
  double t_ms;              /* the predicted clock when recorded, NaN: never */
  unsigned flags;           /* cudaEventCreateWithFlags */
  rt_capture *cap;          /* recorded during that capture, or NULL */
  rt_nodeset deps;          /* the capturing stream's nodes at the record */
  struct rt_event *next;    /* the rest of ws_rt.events */
} rt_event;

/* One operation on a stream: run at once, or recorded as a graph node while
 * the stream captures (stream.c), or run as a node of a launched graph
 * (graph.c). */
typedef enum rt_op_kind {
  RT_OP_KERNEL, RT_OP_COPY, RT_OP_SET, RT_OP_HOST, RT_OP_EMPTY, RT_OP_GRAPH,
  RT_OP_EVENT_RECORD, RT_OP_EVENT_WAIT, RT_OP_MEM_ALLOC, RT_OP_MEM_FREE
} rt_op_kind;
typedef struct rt_op {
  rt_op_kind kind;
  union {
    struct {
      size_t func;              /* index in ws_rt.funcs */
      dim3 grid, block;
      uint64_t shared;          /* dynamic shared bytes */
      unsigned char *params;    /* packed parameter image */
      size_t params_bytes;
      int coop;                 /* a cooperative launch (coop.c) */
    } k;                        /* RT_OP_KERNEL */
    cudaMemcpy3DParms copy;     /* RT_OP_COPY (a 1D copy is one row) */
    cudaMemsetParams set;       /* RT_OP_SET */
    cudaHostNodeParams host;    /* RT_OP_HOST */
    struct rt_graph *child;     /* RT_OP_GRAPH */
    rt_event *event;            /* RT_OP_EVENT_RECORD, RT_OP_EVENT_WAIT */
    struct {
      uint64_t addr, bytes;     /* the graph's allocation */
    } mem;                      /* RT_OP_MEM_ALLOC, RT_OP_MEM_FREE */
  } u;
} rt_op;

typedef struct ws_rt {
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
  int engine;               /* WARPSIGHT_ENGINE: ws_emu_engine (default auto) */
  int verbose;              /* WARPSIGHT_VERBOSE: say which engine runs a kernel */
  ws_emu_jit *jit;          /* the translator, made on first use, or NULL */
  int jit_none;             /* no C compiler: the translator is not tried again */
  int jit_noted;            /* that was said (once, when a kernel's work would pay) */
  int primary_warned;       /* the primary model's failure was reported */
  int init_failed;          /* the environment was bad: every call fails */
  const char *unsup_seen[RT_MAX_UNSUP]; /* unsupported calls reported (static names) */
  size_t unsup_nseen;
  rt_module *modules; size_t nmodules, cap_modules;
  rt_func *funcs; size_t nfuncs, cap_funcs;
  rt_var *vars; size_t nvars, cap_vars;
  rt_mirror *mirrors; size_t nmirrors, cap_mirrors;
  rt_map *maps; size_t nmaps, cap_maps;
  rt_alloc *allocs; size_t nallocs, cap_allocs;
  rt_hostmem *hostmem; size_t nhostmem, cap_hostmem;
  rt_kstat *kstats; size_t nkstats, cap_kstats;
  rt_event *events;         /* live events */
  rt_stream *streams;       /* live streams */
  struct rt_graph *graphs;  /* live graphs and instantiated graphs (graph.c) */
  rt_pool default_pool;     /* the device's default memory pool */
  rt_pool *pools;           /* pools from cudaMemPoolCreate */
  rt_pool *current_pool;    /* cudaDeviceSetMemPool (default: &default_pool) */
  uint64_t alloc_bytes;     /* bytes of live device allocations */
  unsigned long long next_id; /* stream and capture ids */
  ws_emu_device *dev;       /* the device (one context), created lazily */
  cudaError_t sticky;       /* a kernel fault: returned by every later call */
  double clock_ms;          /* predicted GPU time so far (events read it) */
  uint64_t launches;        /* launches so far */
  ws_prof_l2 *l2;           /* the L2 the previous launch left, when it was
                               profiled in full (the next profiled launch
                               starts from it); NULL: unknown, cold */
  int ncpu;                 /* online processors (ws_emu_cores) */
  unsigned device_flags;    /* cudaSetDeviceFlags */
  int cache_config;         /* cudaDeviceSetCacheConfig */
  int shmem_config;         /* cudaDeviceSetSharedMemConfig */
  size_t limits[7];         /* cudaDeviceSetLimit, by enum cudaLimit */
  int log_fd;               /* WARPSIGHT_EXEC_LOG: the launch log, or -1 */
  struct cudaArray *arrays; /* live CUDA arrays (array.c) */
  struct rt_texobj *texobjs; size_t ntexobjs, cap_texobjs; /* texture and surface objects (texture.c) */
  int unloading;            /* the exit handler ran: cudaErrorCudartUnloading */
  int cdp_depth;            /* device-side launches: the nesting of the one running (cdp.c) */
} ws_rt;

extern ws_rt ws_rt_state;

/* Enter and leave a runtime entry point: initialise on first use, lock. */
ws_rt *rt_enter(void);
void rt_leave(void);
/* Record err as the thread's last error (not for cudaSuccess) and return it. */
cudaError_t rt_error(cudaError_t err);
/* What every call returns before doing anything: cudaErrorCudartUnloading
 * once the exit handler ran (issue 24, row 4), cudaErrorInitializationError
 * when the environment was bad (an unknown WARPSIGHT_GPU: rt->gpu is NULL),
 * the sticky error of a faulted kernel, else cudaSuccess. */
cudaError_t rt_sticky(const ws_rt *rt);
/* Leave (rt_leave) and return rt_error(e): the end of most entry points. */
cudaError_t rt_done(cudaError_t e);
/* Report an unimplemented call on stderr, once per name; cudaErrorNotSupported. */
cudaError_t rt_unsupported(const char *name);
/* Print a diagnostic list on stderr as the CLI does ("warpsight: ..."). */
void rt_print_diag(const ws_diag *d);

/* --- memory (mem.c) --- */
/* The device, created on first use; NULL after printing why it could not be. */
ws_emu_device *rt_device(ws_rt *rt);
/* Host bytes for device (or mirrored) address [addr, addr+bytes), NULL
 * when the range is not inside one allocation or variable. */
void *rt_host_ptr(ws_rt *rt, uint64_t addr, uint64_t bytes);
/* Copy every mirror host -> device (to_device 1, before a launch) or back
 * (0, after it). */
void rt_mirror_sync(ws_rt *rt, int to_device);
/* Unmap every host page mapped for a mirror (at exit). */
void rt_mirror_unmap(ws_rt *rt);
/* Mirror device range [addr, addr+bytes) on the host: at `host`, or, when
 * host is NULL, on pages mapped at the device address itself. */
int rt_mirror_add(ws_rt *rt, uint64_t addr, unsigned char *host, uint64_t bytes, int kind);
/* Allocate device memory (registered in ws_rt.allocs); cudaSuccess or
 * cudaErrorMemoryAllocation after a line naming the budget. */
cudaError_t rt_dev_alloc(ws_rt *rt, uint64_t *addr, uint64_t size, const char *name,
                         rt_pool *pool);
/* Free one: cudaErrorInvalidDevicePointer when addr is not a live base. */
cudaError_t rt_dev_free(ws_rt *rt, uint64_t addr);
/* A program's free (cudaFree, cudaFreeAsync): rt_dev_free, except for a
 * graph's allocation, which keeps its address (rt_alloc.graph). */
cudaError_t rt_user_free(ws_rt *rt, uint64_t addr);
/* The live allocation holding addr, or NULL. */
rt_alloc *rt_find_alloc(ws_rt *rt, uint64_t addr);
/* The graph's allocation (rt_alloc.graph) that starts at addr, or NULL: what
 * a free node or a free of graph memory names. */
rt_alloc *rt_graph_alloc(ws_rt *rt, uint64_t addr);
/* The copy of RT_OP_COPY and the fill of RT_OP_SET. */
cudaError_t rt_copy3d(ws_rt *rt, const cudaMemcpy3DParms *p);
cudaError_t rt_set2d(ws_rt *rt, const cudaMemsetParams *p);

/* --- modules, functions, variables (register.c) --- */
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
/* Whether a copy to (to_symbol 1) or from a symbol may have this kind: it
 * must have device memory on the symbol's side (to: HostToDevice,
 * DeviceToDevice or Default; from: DeviceToHost, DeviceToDevice or
 * Default), as CUDA requires.  cudaSuccess or
 * cudaErrorInvalidMemcpyDirection; the symbol copies and a graph's
 * memcpy node to or from a symbol both ask it. */
cudaError_t rt_symbol_kind(int kind, int to_symbol);

/* --- streams and operations (stream.c) --- */
/* The stream of a handle: *out NULL for the default streams (0, legacy,
 * per-thread); cudaErrorInvalidResourceHandle for a handle never created
 * or destroyed. */
cudaError_t rt_find_stream(ws_rt *rt, cudaStream_t s, rt_stream **out);
/* The live event of a handle, or NULL. */
rt_event *rt_find_event(ws_rt *rt, cudaEvent_t e);
/* Submit op to stream s: recorded as a node when s captures (its owned
 * data copied), else run now. */
cudaError_t rt_submit(ws_rt *rt, cudaStream_t s, const rt_op *op);
/* Run one operation now. */
cudaError_t rt_op_run(ws_rt *rt, const rt_op *op);
/* Free what an op recorded in a graph owns. */
void rt_op_free(rt_op *op);
/* Copy op into *out, duplicating what it points to (kernel parameters). */
int rt_op_copy(rt_op *out, const rt_op *op);

/* --- graphs (graph.c) --- */
/* A new empty graph (listed in ws_rt.graphs), or NULL. */
struct rt_graph *rt_graph_new(ws_rt *rt);
void rt_graph_free(ws_rt *rt, struct rt_graph *g);
/* Add op (copied) as a node after deps; *out the node (may be NULL). */
cudaError_t rt_graph_add(ws_rt *rt, struct rt_graph *g, const rt_op *op,
                         struct rt_gnode *const *deps, size_t ndeps, struct rt_gnode **out);
/* Run every node of g in an order that respects its dependencies. */
cudaError_t rt_graph_run(ws_rt *rt, struct rt_graph *g);
/* Free every graph (at exit). */
void rt_graph_free_all(ws_rt *rt);

/* --- launches (launch.c) --- */
/* Pack a launch's arguments (one pointer per kernel parameter) into buf. */
cudaError_t rt_pack(ws_rt *rt, rt_func *f, void **args, unsigned char *buf, size_t cap,
                    size_t *used);
/* Launch a registered function on a packed parameter image: run it,
 * profile it (or reuse a profile, "Launch reuse"), advance the clock.  The
 * launch status (cudaSuccess, or the error). */
cudaError_t rt_launch(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, const unsigned char *params,
                      size_t params_bytes, uint64_t dyn_shared, int coop);
/* The launch path's entry: check, pack and submit a kernel to a stream
 * (coop: a cooperative launch, every block resident: coop.c). */
cudaError_t rt_launch_call(ws_rt *rt, const void *func, dim3 grid, dim3 block, void **args,
                           size_t shared, cudaStream_t stream, int coop);
/* A launch configuration CUDA refuses (grid, block, shared memory): the
 * configuration error CUDA gives, else cudaSuccess. */
cudaError_t rt_check_config(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, uint64_t dyn_shared);
#define RT_PARAM_BYTES 32768 /* CUDA 12.1+: up to 32764 bytes of kernel parameters */

/* --- device-side launches (cdp.c) --- */
/* A grid a launch's threads launched, copied out of the launch. */
typedef struct rt_child {
  size_t func;              /* index in rt->funcs */
  dim3 grid, block;
  uint32_t shared;          /* dynamic shared bytes */
  unsigned char *params;    /* its parameter image (owned) */
  size_t bytes;
} rt_child;
/* The children of a finished launch l of parent (*out owned; none: NULL,
 * 0); cudaSuccess, or the error (a child the program did not register). */
cudaError_t rt_children_take(ws_rt *rt, const rt_func *parent, ws_emu_launch *l, rt_child **out, size_t *n);
/* Launch each child (rt_launch: their own children follow them), then
 * free them: the first error, else cudaSuccess. */
cudaError_t rt_children_run(ws_rt *rt, rt_child *c, size_t n);
void rt_children_free(rt_child *c, size_t n);

/* --- cooperative launches (coop.c) --- */
/* cudaLaunchCooperativeKernel's checks and launch (for cudaLaunchKernelExC's
 * cooperative attribute). */
cudaError_t rt_launch_cooperative(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                  cudaStream_t stream);

/* --- kernels' resources (resources.c) --- */
/* The registers per thread, static shared bytes per block and local bytes
 * per thread of f: from the cubin's .nv.info when the fat binary has a
 * cubin for the GPU's architecture, else from ptxas (when installed),
 * else from the PTX; *source says which (docs/exec.md, "Kernel
 * resources").  cudaSuccess or the error of loading f. */
cudaError_t rt_func_resources(ws_rt *rt, rt_func *f, ws_prof_resources *r, const char **source);
/* Active blocks per SM of blocks of blockSize threads with dynSmem dynamic
 * shared bytes, by the occupancy rules (device.c); 0 when none fits. */
int rt_active_blocks(const ws_rt *rt, const ws_prof_resources *r, int blockSize, uint64_t dynSmem);
/* Free what rt_func_resources kept in a module. */
void rt_module_res_free(rt_module *m);

/* --- the report (report.c) --- */
/* Write the run's report (WARPSIGHT_EXEC_JSON) and the stderr summary. */
void rt_report(ws_rt *rt);
/* The launch log (WARPSIGHT_EXEC_LOG, docs/exec.md): a configuration's
 * prediction when first profiled, and each launch, so that `exec` reports
 * every kernel that ran even when the program dies without exiting. */
void rt_log_kstat(ws_rt *rt, size_t kstat);
void rt_log_launch(ws_rt *rt, size_t kstat);
void rt_log_fault(ws_rt *rt);

#endif
