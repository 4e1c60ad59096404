/*
 * warpsight/profiler.h — the dynamic profiler: turns the stream of executed
 * warp instructions of one launch into a warpsight-profile/1 document
 * (docs/profile.md, "Measured by the profiler").
 *
 * Profiling a launch is one call: ws_prof_launch_spec() (a parsed module and
 * a typed launch spec) or ws_prof_launch() (a launch the caller prepared in
 * the emulator, from a spec or from raw parameter bytes).  Both run the
 * emulator with the profiler on its hooks under one rule for worker threads
 * (ws_prof_workers) and one for resources (the caller's compiler figures,
 * else ws_prof_kernel_resources), and return the profile.  `profile`,
 * `predict`, `validate`/`calibrate` and the CUDA runtime profile through
 * them.
 *
 * The lower level, for tests that feed synthetic events: ws_prof_new(),
 * then ws_prof_inst() for every warp instruction (the emulator's own
 * ws_emu_event) and ws_prof_block_begin/_end around every profiled block,
 * then ws_prof_finish().  Calls for different workers may run concurrently;
 * all calls for one worker come from one thread.  Each worker keeps its own
 * accumulators.  Each profiled block's memory sectors, recorded per warp,
 * are replayed through the caches with warps, resident blocks and SMs
 * interleaved as on a GPU (docs/profile.md, "Caches"; independent of the
 * number of workers), as far as the blocks finished so far allow;
 * ws_prof_finish() merges the workers and writes the profile.
 *
 * Ownership: ws_prof_new() gives a profiler to free with ws_prof_free(); it
 * borrows the module, the kernel and the GPU (keep them alive until
 * ws_prof_finish() returns).  Every profile returned through **out is the
 * caller's (ws_profile_free).  ws_prof_launch*() borrow their arguments for
 * the call only.
 */
#ifndef WARPSIGHT_PROFILER_H
#define WARPSIGHT_PROFILER_H

#include <stdint.h>

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/ptx.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The L2 at the start of a launch (docs/profile.md, "Cold and warm"):
 * empty (as after NVBench's flush), holding what the previous identical
 * launch left (back-to-back runs: Kernel Tuner, a loop), or holding what a
 * given earlier launch left (ws_prof_l2: `exec`'s launches one after
 * another). */
enum { WS_PROF_L2_COLD = 0, WS_PROF_L2_WARM = 1, WS_PROF_L2_CARRIED = 2 };

/* The L2 a launch left (tags and sectors, all clean): opaque; from
 * ws_prof_l2_end or ws_prof_options.l2_end, freed with ws_prof_l2_free
 * (NULL is a no-op). */
typedef struct ws_prof_l2 ws_prof_l2;
void ws_prof_l2_free(ws_prof_l2 *s);

/* A kernel's resources as the profile records them (NaN = unknown). */
typedef struct ws_prof_resources {
  double registers_per_thread;   /* registers per thread */
  double shared_bytes_per_block; /* static shared bytes per block (ws_prof_launch
                                    adds the launch's dynamic shared bytes) */
  double local_bytes_per_thread; /* local (stack) bytes per thread */
} ws_prof_resources;

typedef struct ws_prof_config {
  const ws_ptx_module *module;  /* the module (functions are indexed in it) */
  const ws_ptx_function *kernel;/* the kernel launched */
  const ws_gpu *gpu;            /* target GPU: coalescing, banks, caches */
  uint32_t grid[3];             /* launch grid */
  uint32_t block[3];            /* block dimensions */
  int workers;                  /* worker threads that will call in (>= 1) */
  uint64_t sample_blocks;       /* 0: every block is profiled; else N */
  int functional_rest;          /* unsampled blocks are run without hooks */
  ws_prof_resources resources;  /* for the profile (NaN = absent), dynamic
                                   shared bytes included */
  const char *resources_source; /* where they come from ("ptxas -v ...") */
  const char *input;            /* the kernel's file (profiler.input), or NULL */
  const ws_emu_region *regions; /* the launch's global objects (ws_emu_regions),
                                   ascending; a sample's DRAM traffic is
                                   estimated per object (may be NULL; read
                                   by ws_prof_new only) */
  size_t nregions;
  const uint64_t *plan;         /* the blocks to profile, ascending and
                                   distinct (copied); NULL: sample_blocks
                                   decides (ws_prof_sample_plan) */
  uint64_t nplan;               /* entries in plan */
  uint64_t represented_blocks;  /* the grid's blocks the profiled ones stand
                                   for (the DRAM estimate's scale); 0: all */
  int l2_start;                 /* WS_PROF_L2_COLD (0), _WARM or _CARRIED */
  const ws_prof_l2 *l2_carried; /* _CARRIED: the L2 to start from (borrowed
                                   until ws_prof_new returns; a sampled
                                   profile or another geometry starts cold
                                   and says so in caches.l2_start) */
} ws_prof_config;

typedef struct ws_prof ws_prof;

int ws_prof_new(ws_prof **out, const ws_prof_config *cfg, ws_diag *d);
void ws_prof_free(ws_prof *p);

/* Hooks.  ws_prof_inst takes one instruction, or a run of ev->count > 1
 * plain ones (ws_emu_hooks.runs: set it when passing ws_prof_inst to the
 * emulator); a count of 0 is one instruction, as for an event built by
 * hand without the field. */
void ws_prof_inst(ws_prof *p, const ws_emu_event *ev);
void ws_prof_block_begin(ws_prof *p, int worker, uint32_t block_linear);
void ws_prof_block_end(ws_prof *p, int worker, uint32_t block_linear);

/* Merge, replay the caches and build the profile.  WS_OK, WS_ENOMEM, or
 * WS_EINVAL when no block was profiled. */
int ws_prof_finish(ws_prof *p, ws_profile **out, ws_diag *d);
/* After ws_prof_finish: the L2 the launch left, for the next launch to
 * start from (WS_PROF_L2_CARRIED); *out = NULL for a sampled profile (its
 * L2 holds only the sampled blocks' data) or a GPU without L2.  WS_OK or
 * WS_ENOMEM. */
int ws_prof_l2_end(ws_prof_l2 **out, const ws_prof *p);

/* Sampling: how many blocks of `total` a sample of N profiles (every block
 * when N = 0 or N >= total). */
uint64_t ws_prof_sample_count(uint64_t total, uint64_t n);
/* The linear indices of the N blocks a sample profiles, ascending, into
 * out (ws_prof_sample_count(blocks, n) entries): a Hammersley set over the
 * grid, spread over every dimension (docs/profile.md, "Sampling"). */
void ws_prof_sample_plan(uint64_t *out, const uint32_t grid[3], uint64_t n);
/* Whether p profiles linear block `block` (its configuration's plan). */
int ws_prof_sampled(const ws_prof *p, uint64_t block);

/* --- profiling a launch in one call ------------------------------------------ */

/* A kernel's resources from its PTX, for when the compiler's figures (ptxas
 * -v) are not at hand; `analyze` and the profiler both use it.
 *   registers: the kernel's declared registers (a 64-bit register counts
 *       two, a vector register its elements, predicates none), capped at g's
 *       per-thread limit (255 when g is NULL or has none);
 *   shared: the .shared variables the kernel pays for — its own
 *       function-scope ones, those of every function it can reach (calls and
 *       function addresses, followed through variable initialisers), and the
 *       module-scope ones any of these names; each counted once, sizes
 *       summed without alignment padding.  A module's other kernels' shared
 *       variables are not counted;
 *   local: the kernel's own .local variables. */
void ws_prof_kernel_resources(ws_prof_resources *out, const ws_ptx_module *m,
                              const ws_ptx_function *k, const ws_gpu *g);

/* The one rule for worker threads: `requested` (0: the number of cores),
 * at most the blocks that run (the sampled ones, or the whole grid with
 * functional_rest) and at most WS_PROF_MAX_THREADS.  The profile does not
 * depend on the number; it only sets how many blocks run at once. */
#define WS_PROF_MAX_THREADS 256 /* ws_emu_run's pool never starts more */
int ws_prof_workers(int requested, uint64_t total_blocks, uint64_t sample_blocks,
                    int functional_rest);

typedef struct ws_prof_options {
  int version;                        /* WS_PROF_OPTIONS_VERSION */
  uint64_t sample_blocks;             /* profile N blocks spread over the grid
                                         (ws_prof_sample_plan); 0: every block */
  int functional_rest;                /* run the unsampled blocks without hooks
                                         (else they are skipped) */
  int threads;                        /* worker threads asked for; 0: the number
                                         of cores (ws_prof_workers decides) */
  uint64_t max_warp_insts;            /* per-warp instruction limit; 0: none
                                         (INIT: WS_EMU_DEFAULT_MAX_WARP_INSTS) */
  const ws_prof_resources *resources; /* the compiler's figures (ptxas -v), or
                                         NULL: ws_prof_kernel_resources() */
  const char *resources_source;       /* with resources: where they come from
                                         ("ptxas -v -arch=sm_80"); without: why
                                         the PTX is used instead, or NULL */
  const char *input;                  /* the kernel's file, recorded as
                                         profiler.input, or NULL */
  FILE *printf_out;                   /* the kernel's printf output; NULL: discarded */
  uint64_t max_launch_insts;          /* limit on the launch's warp instructions
                                         (the blocks that run); 0: none (INIT:
                                         WS_EMU_DEFAULT_MAX_LAUNCH_INSTS) */
  uint64_t max_memory;                /* ws_prof_launch_spec: the launch's global
                                         memory budget in bytes; 0: the default
                                         (ws_emu_default_memory_budget),
                                         UINT64_MAX: none */
  double clock_per_inst;              /* the emulator's clock rates (ws_emu_options:
                                         %clock cycles and %globaltimer ns per */
  double timer_ns_per_inst;           /* warp instruction; 0: 1) and the timer */
  uint64_t timer_base_ns;             /* at the launch's start */
  int l2_start;                       /* WS_PROF_L2_COLD (INIT), _WARM, or
                                         _CARRIED from l2_carried;
                                         ws_prof_launch_spec takes the spec's
                                         "l2" when this is COLD */
  const ws_prof_l2 *l2_carried;       /* _CARRIED: the L2 an earlier launch left */
  ws_prof_l2 **l2_end;                /* non-NULL: receives the L2 this launch
                                         leaves (ws_prof_l2_end; the caller
                                         frees it), NULL when it has none */
  uint64_t sample_auto_budget;        /* ws_prof_launch_spec, sample_blocks N
                                         >= 1: 0 (INIT) profiles N blocks; else
                                         "auto": the N blocks run first on the
                                         scan's copy of the launch, their warp
                                         instructions x blocks / N estimate
                                         the launch's, and every block is
                                         profiled when that is at most this
                                         budget, else the N blocks, the
                                         profile's sampling.auto saying so
                                         (docs/profile.md, "Sampling");
                                         ws_prof_launch ignores it */
} ws_prof_options;

/* "auto" (ws_prof_options.sample_auto_budget) as `profile`, `predict` and
 * `sweep` use it by default (docs/profile.md, "Sampling"): the sample's
 * size, and the budget, about 25 s of the profiler on one core. */
#define WS_PROF_AUTO_SAMPLE_BLOCKS 8
#define WS_PROF_AUTO_BUDGET_WARP_INSTS 200000000ull

#define WS_PROF_OPTIONS_VERSION 1
#define WS_PROF_OPTIONS_INIT                                                          \
  {WS_PROF_OPTIONS_VERSION, 0, 0, 0, WS_EMU_DEFAULT_MAX_WARP_INSTS, NULL, NULL, NULL, NULL, \
   WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, 0, 0, 0, 0, WS_PROF_L2_COLD, NULL, NULL, 0}

/* A launch prepared in the emulator (ws_emu_launch_new from a spec, or a
 * raw launch on a device) and what the profiler must know about it: the
 * launch object is opaque, so its geometry travels beside it. */
typedef struct ws_prof_target {
  const ws_ptx_module *module;    /* the module the program was loaded from */
  const ws_emu_program *program;  /* the loaded kernel (ws_emu_load) */
  ws_emu_launch *launch;          /* the prepared launch, run once */
  uint32_t grid[3];               /* its grid, blocks per dimension */
  uint32_t block[3];              /* its block, threads per dimension */
  uint64_t dynamic_shared;        /* its dynamic shared bytes per block */
  ws_emu_launch *scratch;         /* a second launch of the same spec that
                                     nobody reads, or NULL: a sample probes
                                     its blocks there for the ones that do
                                     work (docs/profile.md, "Sampling");
                                     without it the sample is the usual one */
} ws_prof_target;

/* Profile one prepared launch on GPU g: pick the workers (ws_prof_workers),
 * take the resources (o->resources, else ws_prof_kernel_resources, plus the
 * dynamic shared bytes), run the emulator with the profiler on its hooks and
 * the block sampling of `o` (NULL: WS_PROF_OPTIONS_INIT), and build the
 * profile.  stats (may be NULL) receives the emulator's figures whenever the
 * kernel ran, faulted or not.  Statuses: WS_OK; WS_EFAULT when the kernel
 * faulted (the diagnostic names block, thread, PTX line); WS_EINVAL for bad
 * options (a version this library does not know) or a launch with no
 * profiled warp; WS_ENOMEM. */
int ws_prof_launch(ws_profile **out, ws_emu_stats *stats, const ws_prof_target *t,
                   const ws_gpu *g, const ws_prof_options *o, ws_diag *d);

/* The same from a parsed module and a typed launch spec: loads the spec's
 * kernel (WS_EINVAL when absent, WS_EUNSUP for an instruction the emulator
 * does not implement), prepares the launch (errors name the argument) and
 * calls ws_prof_launch(). */
int ws_prof_launch_spec(ws_profile **out, ws_emu_stats *stats, const ws_ptx_module *m,
                        const ws_launch_spec *spec, const ws_gpu *g,
                        const ws_prof_options *o, ws_diag *d);

#ifdef __cplusplus
}
#endif
#endif
