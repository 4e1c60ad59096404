/*
 * occupancy.c — resident blocks per SM from the four limits (blocks, warps,
 * registers, shared memory), following the CUDA Occupancy Calculator rules
 * tabulated in cc_limits.def.
 *
 * Registers, CC 1.x (allocated per block):
 *   regs/block = roundup(roundup(warps, warp_gran) * warp_size * regs, unit)
 *   blocks     = floor(regs_per_sm / regs/block)
 * Registers, CC >= 2.0 (allocated per warp, register file split into P
 * sub-partitions as in cuda_occupancy.h):
 *   regs/warp  = roundup(regs * warp_size, unit)
 *   warps/SM   = floor(regs_per_sm / P / regs/warp) * P
 *   blocks     = floor(warps/SM / warps per block)
 * Shared memory:
 *   bytes/block = roundup(shared + reserved, unit);  blocks = floor(shared_per_sm / bytes/block)
 */
#include "warpsight/gpu.h"

#include <limits.h>

#include "gpu/gpu_check.h"

static const struct {
  int major, minor;
  ws_sm_limits lim;
} cc_table[] = {
#define CCL(ma, mi, tsm, wsm, bsm, tb, rsm, rt, rb, ru, rpw, wg, sp, ssm, sb, su, res) \
  {ma, mi, {tsm, wsm, bsm, tb, rsm, rt, rb, ru, rpw, wg, sp, ssm, sb, su, res}},
#include "cc_limits.def"
#undef CCL
};

int ws_gpu_sm_limits_for_cc(ws_sm_limits *out, int major, int minor) {
  for (size_t i = 0; i < sizeof cc_table / sizeof cc_table[0]; i++)
    if (cc_table[i].major == major && cc_table[i].minor == minor) {
      *out = cc_table[i].lim;
      return WS_OK;
    }
  return WS_EINVAL;
}

const char *ws_gpu_sm_limits_newest_cc(void) {
  static const char *const names[] = {
#define CCL(ma, mi, ...) #ma "." #mi,
#include "cc_limits.def"
#undef CCL
  };
  return names[sizeof names / sizeof names[0] - 1];
}

/* In long long: the limits are bounded (gpu_check.c) but the products of a
 * block's warps, the warp size and its registers need not fit an int. */
static long long round_up(long long x, long long unit) {
  return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

/* Clamp a count of registers or bytes to an int for the result fields. */
static int clamp_int(long long x) { return x > INT_MAX ? INT_MAX : (int)x; }

const char *ws_gpu_occ_limiter_name(ws_occ_limiter l) {
  switch (l) {
  case WS_OCC_BLOCKS: return "blocks per SM";
  case WS_OCC_WARPS: return "warps per SM";
  case WS_OCC_REGISTERS: return "registers";
  case WS_OCC_SHARED: return "shared memory";
  }
  return "?";
}

int ws_gpu_occupancy_compute(ws_occupancy *out, const ws_sm_limits *lim,
                         int warp_size, const ws_occupancy_in *in,
                         ws_diag *d) {
  *out = (ws_occupancy){0};
  if (in->threads_per_block <= 0)
    return ws_diag_error(d, "occupancy: threads per block must be positive, got %d",
                         in->threads_per_block);
  if (in->threads_per_block > lim->max_threads_per_block)
    return ws_diag_error(d, "occupancy: %d threads per block exceed the limit of %d",
                         in->threads_per_block, lim->max_threads_per_block);
  if (in->regs_per_thread < 0 || in->regs_per_thread > lim->max_regs_per_thread)
    return ws_diag_error(d, "occupancy: %d registers per thread exceed the limit of %d",
                         in->regs_per_thread, lim->max_regs_per_thread);
  if (in->shared_bytes_per_block < 0 || in->shared_bytes_per_block > lim->max_shared_per_block)
    return ws_diag_error(d, "occupancy: %d bytes of shared memory per block exceed the limit of %d",
                         in->shared_bytes_per_block, lim->max_shared_per_block);

  if (warp_size <= 0 || lim->max_warps_per_sm <= 0)
    return ws_diag_error(d, "occupancy: warp size %d and %d warps per SM must be positive",
                         warp_size, lim->max_warps_per_sm);
  int warps = (int)(((long long)in->threads_per_block + warp_size - 1) / warp_size);
  out->limit_blocks = lim->max_blocks_per_sm;
  int by_warps = lim->max_warps_per_sm / warps;
  int by_threads = (int)(lim->max_threads_per_sm / ((long long)warps * warp_size));
  out->limit_warps = by_warps < by_threads ? by_warps : by_threads;

  if (in->regs_per_thread == 0) {
    out->limit_regs = INT_MAX;
  } else if (!lim->reg_alloc_per_warp) {
    long long rb = round_up(round_up(warps, lim->warp_alloc_granularity) * warp_size *
                                in->regs_per_thread, lim->reg_alloc_unit);
    out->regs_per_block_alloc = clamp_int(rb);
    if (rb > lim->max_regs_per_block)
      return ws_diag_error(d, "occupancy: a block needs %lld registers, more than the %d one block may have",
                           rb, lim->max_regs_per_block);
    out->limit_regs = (int)(lim->regs_per_sm / rb);
  } else {
    long long rw = round_up((long long)in->regs_per_thread * warp_size, lim->reg_alloc_unit);
    int parts = lim->reg_sub_partitions > 0 ? lim->reg_sub_partitions : 1;
    out->regs_per_block_alloc = clamp_int(rw * warps);
    if (rw * round_up(warps, parts) > lim->max_regs_per_block)
      return ws_diag_error(d, "occupancy: a block needs %lld registers, more than the %d one block may have",
                           rw * round_up(warps, parts), lim->max_regs_per_block);
    long long warps_sm = (lim->regs_per_sm / parts / rw) * parts;
    out->limit_regs = (int)(warps_sm / warps);
  }

  int sb = in->shared_bytes_per_block;
  if (sb == 0 && lim->shared_reserved_per_block == 0) {
    out->limit_shared = INT_MAX;
  } else {
    long long alloc = round_up((long long)sb + lim->shared_reserved_per_block, lim->shared_alloc_unit);
    out->shared_per_block_alloc = clamp_int(alloc);
    out->limit_shared = alloc > 0 ? (int)(lim->shared_per_sm / alloc) : INT_MAX;
  }

  int best = out->limit_blocks;
  out->limiter = WS_OCC_BLOCKS;
  if (out->limit_warps < best) best = out->limit_warps, out->limiter = WS_OCC_WARPS;
  if (out->limit_regs < best) best = out->limit_regs, out->limiter = WS_OCC_REGISTERS;
  if (out->limit_shared < best) best = out->limit_shared, out->limiter = WS_OCC_SHARED;
  out->active_blocks_per_sm = best;
  out->active_warps_per_sm = best * warps;
  out->occupancy = (double)out->active_warps_per_sm / lim->max_warps_per_sm;
  if (best == 0)
    return ws_diag_error(d, "occupancy: not one block fits on an SM (limited by %s)",
                         ws_gpu_occ_limiter_name(out->limiter));
  return WS_OK;
}
