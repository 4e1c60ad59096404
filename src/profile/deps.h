/*
 * deps.h — the profiler's dependency section (internal to src/profile):
 * per warp, the length of the path through its executed instruction stream
 * when it runs alone (in-order issue, one instruction per cycle, each
 * instruction waiting for the registers it reads), with the warps of a block
 * joined at every barrier; and the same-address serialization of atomics.
 * docs/profile.md, "dependencies", says what each figure means.
 *
 * A path's length is kept in two parts so the model can price memory per
 * GPU: `mem`, the global/local/texture loads (and atomics with a result) on
 * the path, and `cyc`, every other cycle on it (issue slots, the nominal
 * latencies of deps_latency() below, bank-conflict replays).  The longest
 * path is chosen with a nominal DRAM latency of WS_DEPS_NOMINAL_MEM cycles.
 *
 * One ws_deps per profiler worker; all calls for it come from one thread.
 */
#ifndef WS_PROFILE_DEPS_H
#define WS_PROFILE_DEPS_H

#include <stdint.h>

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define WS_DEPS_NOMINAL_MEM 400.0 /* cycles; only to compare two paths */
/* At most this many path nodes per block (two per executed warp
 * instruction at most, 16 bytes each: 16 MiB per worker); a longer block's
 * critical path is not attributed to instructions (docs/profile.md,
 * "lines"), and a block that needed more than 2^16 gives its memory back. */
#define WS_DEPS_MAX_NODES ((size_t)1 << 20)

typedef struct ws_deps ws_deps;

/* Totals over a worker's profiled blocks (summed by the profiler). */
typedef struct ws_deps_sum {
  double blocks;          /* blocks whose paths were measured */
  double path_mem;        /* sum over blocks of the longest warp path: loads */
  double path_cyc;        /* ... and its other cycles */
  double gatom_reqs;      /* global atomic/reduction requests */
  double gatom_serial;    /* sum over them of the most lanes on one address */
  double satom_reqs;      /* shared atomic/reduction requests */
  double satom_serial;    /* sum over them of the most lanes on one address */
  double gatom_req_addresses; /* sum over the global requests of their distinct
                                 addresses */
  double gatom_addresses; /* sum over blocks of the distinct global addresses their
                             atomics update */
  int gatom_addresses_short; /* a block's set could not grow: the sum is short */
} ws_deps_sum;

/* The global atomics' contention across warps: each lane operation counted
 * in a bucket of each of WS_DEPS_HOT_ROWS rows (independent hashes of its
 * address), with the blocks that touched the bucket.  A bucket holds at
 * least its addresses' operations, so a row's fullest bucket bounds the
 * most-updated address from above, by at most the operations that share
 * its bucket (about total / WS_DEPS_HOT_BUCKETS); the least of the rows'
 * bounds is taken (ws_prof_deps_hot).  Sums, so workers merge exactly. */
enum { WS_DEPS_HOT_ROWS = 2, WS_DEPS_HOT_BUCKETS = 4096 };

/* A worker's state for kernel k; NULL when out of memory. */
ws_deps *ws_prof_deps_new(const ws_ptx_function *k);
void ws_prof_deps_free(ws_deps *d);
/* Attribute each block's longest path to the instructions on it, by the
 * profiler's instruction ids (func_base[function index in m] + pc, ninst
 * in all; borrowed until d is freed).  0, or -1 out of memory. */
int ws_prof_deps_track(ws_deps *d, const ws_ptx_module *m, const uint32_t *func_base,
                       uint32_t ninst);
/* Add d's attribution into mem[id] and cyc[id] (ninst entries: the loads
 * and other cycles each instruction put on its blocks' longest paths,
 * summed over blocks), the blocks attributed into *blocks and the blocks
 * too long to attribute into *skipped.  Nothing without tracking. */
void ws_prof_deps_crit_add(const ws_deps *d, double *mem, double *cyc, double *blocks,
                           double *skipped);
void ws_prof_deps_block_begin(ws_deps *d);
/* One executed warp instruction of class iclass (ws_iclass); replays: the
 * extra shared-memory passes it needed (bank conflicts). */
void ws_prof_deps_inst(ws_deps *d, const ws_emu_event *ev, int iclass, uint32_t replays);
void ws_prof_deps_block_end(ws_deps *d);
/* Add d's totals into *out. */
void ws_prof_deps_add(ws_deps_sum *out, const ws_deps *d);

/* The most lanes of `exec` whose addr[] are equal (1 for distinct
 * addresses, 32 for one address for the whole warp, 0 for no lane); with
 * `distinct` non-NULL, also the number of distinct addresses. */
uint32_t ws_prof_deps_same_address(uint32_t exec, const uint64_t *addr);
uint32_t ws_prof_deps_addresses(uint32_t exec, const uint64_t *addr, uint32_t *distinct);

/* The most global atomic lane operations on one address in the launch,
 * from the workers' buckets: a bucket touched by two or more profiled
 * blocks is shared by blocks, and its count is scaled to the grid (x
 * scale); one touched by one block is that block's own.  0 without
 * atomics; -1 when a worker lost its buckets to an allocation failure. */
double ws_prof_deps_hot(ws_deps *const *d, int n, double scale);

#endif
