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
enum { WS_RP_WRITE = 1, WS_RP_ATOMIC = 2, WS_RP_LOCAL = 4, WS_RP_FIRST = 8, WS_RP_NC = 16 };
/* WS_RP_L1_BYPASS: a global load the L1 does not serve -- a cache operator
 * (.cg, .cv) or a memory-model qualifier (.volatile, .mmio, .relaxed or
 * .acquire at a scope wider than the CTA) sends it to the L2
 * (docs/profile.md, "Cache operators").  The address's top bit: the low
 * five are taken, and no emulator address reaches bit 63 (every window
 * lies below 2^48: docs/emulator.md, "Memory map"). */
#define WS_RP_L1_BYPASS ((uint64_t)1 << 63)
/* Every flag: an entry & ~WS_RP_FLAGS is its sector's address. */
#define WS_RP_FLAGS ((uint64_t)31 | WS_RP_L1_BYPASS)

/* Entries of one chunk of a warp's trace.  A request (at most 128 entries:
 * memsim.h, ws_prof_sectors) never straddles two chunks. */
enum { WS_RP_CHUNK = 256 };
/* Chunks a pool allocates at once (one malloc: a slab). */
enum { WS_RP_SLAB = 32 };

/* A piece of one warp's recorded sectors: a trace is a list of them, so it
 * grows without copying what it holds, and is handed to the replay as it
 * is (docs/emulator.md, "Profiling"). */
typedef struct ws_rp_chunk {
  struct ws_rp_chunk *next;
  uint32_t n;                /* entries used */
  uint32_t own;              /* 1: allocated on its own (no pool), else in
                                a pool's slab */
  uint64_t v[WS_RP_CHUNK];
} ws_rp_chunk;

/* Chunks not in use, kept for reuse (a list through `next`), and the
 * slabs this pool allocated.  Chunks taken from a pool live in slabs and
 * move between pools (a worker's, the records', the profiler's); they are
 * freed only with their slabs, by ws_prof_rp_pool_free, so the pools that
 * share chunks are freed together, after every record holding them is
 * released.  A trace given no pool (NULL) has chunks of their own
 * allocation, freed (never pooled) when the trace or its record lets them
 * go. */
struct ws_rp_slab;
typedef struct ws_rp_pool {
  ws_rp_chunk *head;
  size_t n;
  struct ws_rp_slab *slabs;
} ws_rp_pool;

/* One warp's recorded sectors during a block. */
typedef struct ws_rp_trace {
  ws_rp_chunk *head, *tail; /* NULL: empty */
  int short_of_memory;      /* an append failed: the trace lost entries */
} ws_rp_trace;

/* Room for k <= WS_RP_CHUNK consecutive entries at the end of t, in its last
 * chunk or a new one (from `pool` when it has one; pool may be NULL): the
 * caller writes them and adds k to t->tail->n.  NULL when out of memory
 * (short_of_memory is set). */
uint64_t *ws_prof_rp_trace_grow(ws_rp_trace *t, uint32_t k, ws_rp_pool *pool);
static inline uint64_t *ws_prof_rp_trace_room(ws_rp_trace *t, uint32_t k, ws_rp_pool *pool) {
  if (t->tail && t->tail->n + k <= WS_RP_CHUNK) return t->tail->v + t->tail->n;
  return ws_prof_rp_trace_grow(t, k, pool);
}
/* One entry at the end of t; when it continues a request and a new chunk
 * is needed, the request's entries so far move to the new chunk with it
 * (unless the request began the last chunk). */
void ws_prof_rp_trace_push(ws_rp_trace *t, uint64_t v);
/* Empty t: its chunks of their own allocation freed, the others into pool
 * (left in their slabs when pool is NULL). */
void ws_prof_rp_trace_clear(ws_rp_trace *t, ws_rp_pool *pool);
void ws_prof_rp_trace_free(ws_rp_trace *t);
/* Move up to `most` free chunks from src to dst. */
void ws_prof_rp_pool_move(ws_rp_pool *dst, ws_rp_pool *src, size_t most);
void ws_prof_rp_pool_free(ws_rp_pool *pool);

/* One block's record: its warps' traces, shared by the replays it is
 * given to (counted references; the last release lets its chunks go as
 * ws_prof_rp_trace_clear does, into `pool`). */
typedef struct ws_rp_record {
  uint32_t refs, nwarps;
  int lost;                /* a trace had lost entries (out of memory) */
  ws_rp_pool *pool;
  ws_rp_chunk *w[32];      /* warp w's chunks (NULL: none) */
} ws_rp_record;

/* A record of the nwarps (<= 32) traces, taken as they are (the traces are
 * left empty), with one reference (the caller's); NULL when out of memory
 * (the traces are then cleared into pool). */
ws_rp_record *ws_prof_rp_record_take(ws_rp_trace *warps, uint32_t nwarps, ws_rp_pool *pool);
void ws_prof_rp_record_release(ws_rp_record *rec);

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

/* Give slot `slot` its record (a reference taken; NULL: the record was
 * lost, out of memory).  Replays whatever became possible. */
void ws_prof_rp_give(ws_replay *r, uint64_t slot, ws_rp_record *rec);
/* The same with a record of warps[0 .. nwarps), which are left empty. */
void ws_prof_rp_put(ws_replay *r, uint64_t slot, ws_rp_trace *warps, uint32_t nwarps);

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
