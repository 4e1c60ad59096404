/*
 * replay.h — the profiler's cache replay (internal): the global/local
 * sectors of each profiled block, recorded per warp in issue order, are
 * replayed through per-SM L1s and the shared L2 in an order that
 * interleaves what a GPU interleaves (docs/profile.md, "Caches"):
 *   - profiled block i (slot i, linear block order) runs on SM i mod S,
 *     S = min(SMs, profiled blocks); an SM holds up to `blocks_per_sm`
 *     resident blocks (the occupancy) and admits its next block when one
 *     retires;
 *   - an SM issues its resident warps' requests round-robin, one request
 *     (all the sectors of one warp instruction) per turn;
 *   - the SMs take turns at the L2: one request from SM 0, one from SM 1,
 *     ..., SM S-1, and again.
 * The result depends only on the records, never on when they arrive: the
 * replay advances as far as the records present allow and waits for the
 * next one it needs.  Not thread-safe: the profiler calls it under its lock.
 */
#ifndef WS_PROFILE_REPLAY_H
#define WS_PROFILE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/gpu.h"
#include "warpsight/profiler.h"
#include "profile/memsim.h"

/* DRAM sectors in one window of the partition count: this many passes
 * over every partition's chunk (docs/profile.md, "DRAM partitions"). */
enum { WS_RP_WINDOW_CHUNKS = 2 };

/* Flags in the low bits of a recorded sector address (sectors are 32-byte
 * aligned).  WS_RP_NC: a load through the non-coherent (read-only) path,
 * ld.global.nc. */
enum { WS_RP_WRITE = 1, WS_RP_ATOMIC = 2, WS_RP_LOCAL = 4, WS_RP_FIRST = 8, WS_RP_NC = 16,
       WS_RP_FLAGS = 31 };

/* A growable list of recorded sectors (one warp's, during a block). */
typedef struct ws_rp_trace {
  uint64_t *v;
  size_t n, cap;
  int short_of_memory; /* a push failed: the trace lost entries */
} ws_rp_trace;

void ws_prof_rp_trace_push(ws_rp_trace *t, uint64_t v);
void ws_prof_rp_trace_free(ws_rp_trace *t);

/* What the replay counted. */
typedef struct ws_rp_stats {
  int have_l1, have_l2, have_ro;  /* the caches simulated (ro: read-only) */
  uint64_t l1_access, l1_hit;     /* load sectors looked up in L1 */
  uint64_t ro_access, ro_hit;     /* ld.global.nc sectors looked up in the
                                     read-only cache */
  uint64_t l2_access, l2_hit;     /* sectors looked up in L2 */
  uint64_t load_sectors;          /* load (and atomic) sectors requested */
  uint64_t dram_read_sectors;     /* load sectors that missed everywhere */
  uint64_t dram_write_sectors;    /* dirty L2 sectors written back or flushed */
  uint64_t requests;              /* requests replayed */
  uint32_t l1_bytes, l1_ways, l1_line, l2_bytes, l2_ways, l2_line, sector;
  uint32_t l1_full;               /* the GPU's L1 (l1_bytes, whole sets)
                                     before the shared carve-out */
  uint32_t ro_bytes, ro_ways;     /* read-only cache per SM */
  int l1_assumed, l2_assumed, ro_assumed; /* ways not given by the GPU file */
  int l2_start;                   /* WS_PROF_L2_COLD / _WARM / _CARRIED */
  int l2_carry_refused;           /* a carried L2 was given but not used
                                     (a sample, or another geometry) */
  int footprint_over;             /* warm: the launch's sectors passed the
                                     L2's (tracking stopped) */
  /* DRAM partition load (docs/profile.md, "DRAM partitions"): the sectors
   * that miss the L2 (each one DRAM transfer, now or at write-back)
   * counted per partition in windows of WS_RP_WINDOW_CHUNKS passes over
   * every partition's chunk; a window's imbalance is its busiest
   * partition's count over the count a contiguous run of as many sectors
   * would put there (at least 1), weighted by those sectors. */
  uint32_t partitions, interleave; /* the GPU's facts (0: unknown, not counted) */
  double part_weighted;           /* sum of sectors x imbalance */
  uint64_t part_sectors;          /* sum of sectors */
  uint32_t nsm;                   /* SMs the replay uses */
  uint32_t blocks_per_sm;         /* resident blocks per SM */
  int lost_records;               /* some block's record was lost (out of memory) */
} ws_rp_stats;

typedef struct ws_replay ws_replay;

/* A global memory object the DRAM traffic is attributed to. */
typedef struct ws_rp_region {
  uint64_t base, bytes; /* address range */
} ws_rp_region;

/* What a replay replays (ws_prof_rp_new). */
typedef struct ws_rp_config {
  uint64_t nslots;           /* profiled blocks */
  uint64_t grid_blocks;      /* blocks of the whole launch */
  uint32_t blocks_per_sm;    /* resident blocks per SM (>= 1) */
  int track;                 /* a sample: attribute DRAM traffic to regions */
  const ws_rp_region *regions; /* the launch's buffers, ascending,
                                  non-overlapping (copied); may be NULL */
  size_t nregions;
  uint64_t shared_per_sm;    /* shared memory the resident blocks of one SM
                                take from a unified L1/shared array (GPUs
                                whose L1 caches global loads, CC >= 7.0) */
  int l2_start;              /* WS_PROF_L2_COLD, _WARM (the previous
                                identical launch's data) or _CARRIED */
  const ws_cache *l2_carried;/* _CARRIED: the L2 the previous launch left
                                (copied; used by a full replay of the same
                                geometry, else the start is cold) */
} ws_rp_config;

/* A replay of c->nslots profiled blocks of a launch of c->grid_blocks on
 * GPU g.  With track = 1 (a sample) it also attributes DRAM traffic to the
 * regions, remembers which sectors it read and wrote back and how far each
 * block's accesses spread in each region, for ws_prof_rp_estimate_grid,
 * and keeps the data of regions the blocks do not spread over in the
 * sample's share of the L2, the others in a whole L2 (docs/profile.md,
 * "Sampling").  A warm start counts the launch's distinct sectors (at most
 * the L2's; more means the previous launch's data is gone).  NULL when out
 * of memory or when the GPU's cache geometry is unusable. */
ws_replay *ws_prof_rp_new(const ws_gpu *g, const ws_rp_config *c);
void ws_prof_rp_free(ws_replay *r);

/* Hand over slot `slot`'s record: warp w's sectors are warps[w] (nwarps of
 * them; copied).  Replays whatever became possible. */
void ws_prof_rp_put(ws_replay *r, uint64_t slot, const ws_rp_trace *warps, uint32_t nwarps);

/* Replay to the end (a slot never handed over counts as a block without
 * requests: only a faulted run leaves one) and flush the L2's dirty
 * sectors into dram_write_sectors. */
void ws_prof_rp_finish(ws_replay *r);

const ws_rp_stats *ws_prof_rp_stats_of(const ws_replay *r);

/* The L2 as the launch leaves it, every sector clean (its dirty sectors
 * were counted as this launch's writes), for the next launch to start
 * from; 0, or -1 out of memory.  Call after ws_prof_rp_finish. */
int ws_prof_rp_l2_end(ws_cache *out, const ws_replay *r);

/* The whole grid's DRAM traffic and cache ratios from a replay of a sample
 * of its blocks, `scale` = grid blocks / replayed blocks (docs/profile.md,
 * "Sampling", says why): per region, with R the sectors the replay moved,
 * U the distinct ones, S the region's sectors and F = min(S, U x scale):
 *   not shared (U x scale <= S): R x scale;
 *   shared with neighbours: min(R x scale, F + (R - U) x scale);
 *   shared globally (blocks span half of it or more): F plus the
 *     re-references that miss under Che's approximation of the L2.
 * Writes use the neighbour rule; traffic outside every region scales.
 * scale = 1, or a replay without tracking: the replay's own figures.
 * A warm start (the previous identical launch's data in the L2): when the
 * grid's footprint (its distinct sectors read or written, per region
 * min(S, distinct x scale)) fits the L2, its compulsory reads (per region
 * min(S, U x scale)) hit and are taken off (docs/profile.md, "Cold and
 * warm").  Ratios are NaN where they have no denominator. */
typedef struct ws_rp_estimate {
  double dram_read_bytes;   /* whole grid */
  double dram_write_bytes;  /* whole grid */
  double l2_hit_ratio;      /* the replay's L2 hits plus the misses the
                               estimate removes, over its L2 accesses */
  double miss_ratio;        /* estimated DRAM-read sectors / load sectors */
  double footprint_bytes;   /* the grid's distinct bytes at the L2 (NaN
                               unless counted: a sample, or a warm start) */
  int warm_hits;            /* warm start: 1 when the footprint fits the L2
                               and the compulsory reads were taken off */
} ws_rp_estimate;
void ws_prof_rp_estimate_grid(ws_rp_estimate *out, const ws_replay *r, double scale);

/* The DRAM partition of byte address `addr` (partitions P, interleave G
 * bytes): the base-2^b digits of addr / G summed, mod P, with 2^b the
 * smallest power of two >= P: an approximation of the GPUs' undocumented
 * address hash that, unlike plain addr / G mod P, spreads power-of-two
 * strides (docs/profile.md, "DRAM partitions"). */
uint32_t ws_prof_rp_partition(uint64_t addr, uint32_t partitions, uint32_t interleave);
/* The imbalance of one request's DRAM sectors: `counts[p]` sectors in
 * partition p, n in all, g sectors per interleave chunk (docs/profile.md). */
double ws_prof_rp_request_imbalance(const uint32_t *counts, uint32_t partitions, uint32_t n, uint32_t g);

/* Resident blocks per SM for the replay: the occupancy calculator's
 * figure for the block size and resources (NaN: not limiting), at least 1. */
uint32_t ws_prof_rp_blocks_per_sm(const ws_gpu *g, uint64_t threads_per_block, double regs,
                             double shared_bytes);

#endif
