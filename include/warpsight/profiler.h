/*
 * warpsight/profiler.h — the dynamic profiler: turns the stream of executed
 * warp instructions of one launch into a warpsight-profile/1 document
 * (docs/profile.md, "Measured by the profiler").
 *
 * Feeding it: the emulator's hooks (warpsight/emu.h) call ws_prof_inst()
 * for every warp instruction and ws_prof_block_begin/_end around every
 * profiled block; ws_prof_event carries the same facts as ws_emu_event, so
 * the adapter is a field copy (src/cli/prof_run.c).  Tests feed synthetic
 * events directly.  Calls for different workers may run concurrently; all
 * calls for one worker come from one thread.  Each worker keeps its own
 * accumulators.  Each profiled block's memory sectors are replayed through
 * the caches in linear block order (independent of the number of workers),
 * as soon as every earlier profiled block has finished; ws_prof_finish()
 * merges the workers and writes the profile.
 *
 * Ownership: ws_prof_new() gives a profiler to free with ws_prof_free(); it
 * borrows the module, the kernel and the GPU (keep them alive until
 * ws_prof_finish() returns).  The profile from ws_prof_finish() is the
 * caller's (ws_profile_free).
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

/* One executed warp instruction (mirrors ws_emu_event). */
typedef struct ws_prof_event {
  int worker;                   /* worker index, 0 .. workers-1 */
  uint32_t block_linear;        /* linear block index */
  uint32_t warp;                /* warp index within the block */
  const ws_ptx_function *func;  /* function of the instruction */
  const ws_ptx_inst *inst;      /* the instruction */
  uint32_t pc;                  /* index in func->insts */
  uint32_t active;              /* lanes active at the instruction */
  uint32_t exec;                /* lanes that executed it (guard applied) */
  uint32_t taken;               /* branches: lanes that jumped */
  int bb_entry;                 /* 1 when pc starts a basic block */
  uint8_t space;                /* memory ops: resolved ws_ptx_space */
  uint8_t bytes;                /* memory ops: bytes per lane */
  const uint64_t *addr;         /* memory ops: 32 lane addresses, else NULL */
} ws_prof_event;

typedef struct ws_prof_config {
  const ws_ptx_module *module;  /* the module (functions are indexed in it) */
  const ws_ptx_function *kernel;/* the kernel launched */
  const ws_gpu *gpu;            /* target GPU: coalescing, banks, caches */
  uint32_t grid[3];             /* launch grid */
  uint32_t block[3];            /* block dimensions */
  int workers;                  /* worker threads that will call in (>= 1) */
  uint64_t sample_blocks;       /* 0: every block is profiled; else N */
  int functional_rest;          /* unsampled blocks are run without hooks */
  /* Resources for the profile (NaN = absent); resources_source says where
   * they come from ("ptxas -v", "PTX declarations"). */
  double registers_per_thread;
  double shared_bytes_per_block;
  double local_bytes_per_thread;
  const char *resources_source;
} ws_prof_config;

typedef struct ws_prof ws_prof;

int ws_prof_new(ws_prof **out, const ws_prof_config *cfg, ws_diag *d);
void ws_prof_free(ws_prof *p);

/* Hooks. */
void ws_prof_inst(ws_prof *p, const ws_prof_event *ev);
void ws_prof_block_begin(ws_prof *p, int worker, uint32_t block_linear);
void ws_prof_block_end(ws_prof *p, int worker, uint32_t block_linear);

/* Merge, replay the caches and build the profile.  WS_OK, WS_ENOMEM, or
 * WS_EINVAL when no block was profiled. */
int ws_prof_finish(ws_prof *p, ws_profile **out, ws_diag *d);

/* Sampling: N blocks of `total`, the linear indices floor(i * total / N)
 * for i = 0 .. N-1 (every block when N = 0 or N >= total). */
uint64_t ws_prof_sample_count(uint64_t total, uint64_t n);
int ws_prof_block_sampled(uint64_t block, uint64_t total, uint64_t n);

/* Resources from the PTX declarations: registers declared in the kernel
 * (a 64-bit register counts two, predicates none), capped at the GPU's
 * per-thread limit, and the static .shared bytes of the module and the
 * kernel.  For when ptxas is not available. */
void ws_prof_resources_from_ptx(const ws_ptx_module *m, const ws_ptx_function *k,
                                const ws_gpu *g, double *regs, double *shared_bytes,
                                double *local_bytes);


/* Feeding the profiler from the emulator: fill a ws_emu_hooks whose
 * callbacks forward every event to state->prof and pick the blocks to
 * profile (ws_prof_block_sampled).  `state` is borrowed for the run. */
typedef struct ws_prof_emu_state {
  ws_prof *prof;          /* the profiler fed by the hooks */
  uint64_t total_blocks;  /* blocks in the grid */
  uint64_t sample_blocks; /* blocks to profile (0: all) */
  int functional_rest;    /* run unsampled blocks without hooks instead of skipping them */
} ws_prof_emu_state;

void ws_prof_emu_hooks(ws_emu_hooks *out, ws_prof_emu_state *state);

#ifdef __cplusplus
}
#endif
#endif
