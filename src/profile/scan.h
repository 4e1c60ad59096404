/*
 * scan.h — sampling that finds the work (internal to src/profile;
 * docs/profile.md, "Sampling"): before a sampled profile runs, candidate
 * blocks of a copy of the launch are probed (WS_EMU_BLOCK_PROBE: each runs
 * until its warps pass WS_EMU_PROBE_WARP_INSTS instructions or it ends) to
 * tell the blocks that do work (a global memory access, or more than the
 * leash) from those that exit at once; the sample is then drawn among the
 * working blocks, a few idle blocks are profiled beside it, and the two
 * profiles are combined with the idle fraction as weight.
 *
 * Stage 1 probes min(blocks, WS_SCAN_FIRST) blocks of a Hammersley set;
 * when none is idle the sample is the usual one (ws_prof_sample_plan) and
 * nothing changes.  Otherwise stage 2 probes min(blocks, WS_SCAN_SECOND)
 * blocks; the idle fraction is its idle share, the sample the strata
 * centres of its working blocks, the idle sample up to WS_SCAN_IDLE of its
 * idle ones.  The probes run on one thread in block order, so the result
 * depends on the launch only.
 */
#ifndef WS_PROFILE_SCAN_H
#define WS_PROFILE_SCAN_H

#include <stdint.h>

#include "warpsight/emu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"

enum { WS_SCAN_FIRST = 32, WS_SCAN_SECOND = 1024, WS_SCAN_IDLE = 2 };

typedef struct ws_scan {
  int stages;             /* probe runs made (1 or 2; 0: no scan) */
  uint64_t probed;        /* blocks probed by the last stage */
  uint64_t idle;          /* of them, idle */
  double idle_fraction;   /* idle / probed */
  uint64_t *work;         /* the sample: working blocks, ascending (NULL:
                             the usual plan) */
  uint64_t nwork;
  uint64_t *idle_blocks;  /* idle blocks to profile beside it, ascending */
  uint64_t nidle;
} ws_scan;

/* Probe `scratch` (a launch nobody reads afterwards) for a sample of n
 * blocks of `grid`.  WS_OK (out filled; a scan that found no idle block
 * leaves out->work NULL), WS_ENOMEM, or the emulator's status. */
int ws_prof_scan(ws_scan *out, ws_emu_launch *scratch, const uint32_t grid[3], uint64_t n,
                 ws_diag *d);
void ws_prof_scan_free(ws_scan *s);

/* The grid's mean warp from the working blocks' profile `work` and the
 * idle blocks' `idle` (may be NULL): per-warp counts, the dependency path
 * and the sectors per warp weighted (1 - f) and f, the rest the working
 * blocks'; the idle fraction and the scan recorded (work.idle_block_fraction,
 * sampling.scan).  WS_OK or WS_ENOMEM. */
int ws_prof_scan_combine(ws_profile *work, const ws_profile *idle, const ws_scan *s);

#endif
