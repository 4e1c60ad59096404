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
 * ws_prof_deps_inst runs for every profiled warp instruction: it is inline,
 * with the state it reads, so the profiler pays no call for it.
 */
#ifndef WS_PROFILE_DEPS_H
#define WS_PROFILE_DEPS_H

#include <stdint.h>
#include <string.h>

#include "warpsight/analysis.h"
#include "warpsight/emu.h"
#include "warpsight/ptx.h"

#define WS_DEPS_NOMINAL_MEM 400.0 /* cycles; only to compare two paths */
/* At most this many path nodes per block (two per executed warp
 * instruction at most, 16 bytes each: 16 MiB per worker); a longer block's
 * critical path is not attributed to instructions (docs/profile.md,
 * "lines"), and a block that needed more than 2^16 gives its memory back. */
#define WS_DEPS_MAX_NODES ((size_t)1 << 20)

/* A time as (mem, cyc), kept as mem and the nominal value nom = mem x
 * WS_DEPS_NOMINAL_MEM + cyc, in integers: every latency, replay and issue
 * slot is a whole number of cycles, so these are the exact values the
 * doubles of the definition hold (up to 2^53), and comparing two times is
 * one comparison of nom. */
typedef struct ws_dtime {
  uint64_t nom;  /* mem x WS_DEPS_NOMINAL_MEM + cyc */
  uint32_t mem;  /* memory latencies on the path (cyc = nom - mem x WS_DEPS_NOMINAL_MEM;
                    a block's path has fewer than 2^32: its warps stop at 2^26
                    instructions each, --max-warp-insts) */
  uint32_t node; /* the path's last node (0: the block's start, or not tracked) */
} ws_dtime;

#define WS_DEPS_NOMINAL_MEM_U ((uint64_t)WS_DEPS_NOMINAL_MEM) /* the same, as an integer */

/* One step of a path: instruction `id` added dmem loads and dcyc cycles to
 * the path that ends at node `parent`. */
typedef struct ws_dnode {
  uint32_t parent; /* the node before it (0: the block's start) */
  uint32_t id;     /* the profiler's instruction id */
  uint32_t dcyc;   /* cycles it added */
  uint32_t dmem;   /* loads it added (0 or 1) */
} ws_dnode;

typedef struct ws_dwarp {
  ws_dtime issue;  /* when its last instruction issued */
  ws_dtime end;    /* the latest ready time it produced */
  int pending;     /* 1 + barrier slot to leave at the next instruction, or 0 */
  uint32_t nbar;   /* barriers it arrived at in this block */
} ws_dwarp;

/* The registers one kernel instruction writes (defs) and reads (uses):
 * regs[off .. off + ndefs) and regs[off + ndefs .. off + ndefs + nuses);
 * and what its result costs the path. */
typedef struct ws_dinst_regs {
  uint32_t off;         /* its defs' first entry in ws_deps.regs */
  uint8_t ndefs, nuses; /* how many it writes, then reads */
  uint8_t memk;         /* its result comes from memory: 0 no, 1 yes, 2 unless the access is shared */
  uint16_t lat;         /* otherwise it is ready this many cycles after issue (deps_latency) */
} ws_dinst_regs;

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

/* A worker's state (deps.c; here for the inline ws_prof_deps_inst). */
struct ws_deps {
  const ws_ptx_function *kernel; /* registers are this function's */
  uint32_t nregs;                /* kernel->nregs */
  uint32_t kninsts;              /* kernel->ninsts */
  ws_dinst_regs *iregs;          /* per instruction of the kernel */
  uint32_t *regs;                /* their register lists (in iregs' block) */
  ws_dtime *ready;               /* 32 warps x nregs */
  ws_dwarp w[32];                /* per warp of the block */
  uint32_t seen;                 /* warps of the block seen */
  ws_dtime bar[2];               /* barrier slots */
  ws_deps_sum sum;               /* totals */
  uint64_t block_seq;            /* blocks begun by this worker */
  struct hot_bucket *hot;        /* WS_DEPS_HOT_ROWS x BUCKETS, at the first
                                    global atomic (NULL before) */
  int hot_oom;                   /* allocating them failed */
  /* critical-path attribution (ws_prof_deps_track), NULL crit_mem: off */
  const ws_ptx_module *module;   /* instruction ids: func_base[function] + pc */
  const uint32_t *func_base;
  uint32_t ninst;                /* ids in all */
  ws_dnode *nodes;               /* this block's nodes; [0] is the start */
  size_t nnodes, capnodes;
  size_t nroom;                  /* nodes ws_deps_node may fill without a call:
                                    min(capnodes, WS_DEPS_MAX_NODES), 0 when
                                    overflowed or not tracking (deps_room) */
  int overflow;                  /* this block ran past WS_DEPS_MAX_NODES */
  double *crit_mem, *crit_cyc;   /* per id, summed over attributed blocks */
  double crit_blocks;            /* blocks attributed */
  double crit_skipped;           /* blocks not attributed (too long, out of memory) */
  /* the distinct global addresses this block's atomics update: an
   * open-addressing set of addr + 1 (0: empty), acap a power of two */
  uint64_t *aset;
  size_t an, acap;
  int aset_oom;                  /* an insertion failed: the count is short */
};

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
void ws_prof_deps_block_end(ws_deps *d);
/* Add d's totals into *out. */
void ws_prof_deps_add(ws_deps_sum *out, const ws_deps *d);

/* The atomics' figures of one atomic or reduction (deps.c); returns its
 * most lanes on one address (ws_prof_deps_same_address; 0 without lanes
 * or addresses). */
uint32_t ws_prof_deps_atomics(ws_deps *d, const ws_emu_event *ev);
/* A node for instruction id on top of parent's path (deps.c); 0 (no
 * attribution) when nothing is tracked or the block ran out of nodes. */
uint32_t ws_prof_deps_node(ws_deps *d, uint32_t parent, uint32_t id, uint32_t dmem, uint32_t dcyc);

/* The same, without a call while the block's node array has room. */
static inline uint32_t ws_deps_node(ws_deps *d, uint32_t parent, uint32_t id, uint32_t dmem, uint32_t dcyc) {
  if (d->nnodes < d->nroom) {
    d->nodes[d->nnodes] = (ws_dnode){parent, id, dcyc, dmem};
    return (uint32_t)d->nnodes++;
  }
  return ws_prof_deps_node(d, parent, id, dmem, dcyc);
}

/* The later of a and b: b only when its nominal value is larger. */
static inline ws_dtime ws_deps_later(ws_dtime a, ws_dtime b) { return b.nom > a.nom ? b : a; }

/* One executed warp instruction of class c (ws_iclass); replays: the extra
 * shared-memory passes it needed (bank conflicts); inst: the profiler's id
 * of the instruction (func_base[function] + pc, as ws_prof_deps_track), or
 * UINT32_MAX.  Returns an atomic's or reduction's most lanes on one address
 * (ws_prof_deps_atomics; 0 for other instructions), so that the profiler's
 * per-line figures need not count them again. */
static inline uint32_t ws_prof_deps_inst(ws_deps *d, const ws_emu_event *ev, int c, uint32_t replays,
                                     uint32_t inst) {
  /* The event's fields and the warp's times are read once into locals:
   * the stores below (through uint32_t and uint64_t pointers) could alias
   * them, and the compiler would read them again after each. */
  const uint32_t wi = ev->warp & 31, pc = ev->pc;
  const int own = ev->func == d->kernel && pc < d->kninsts; /* a kernel instruction */
  const int shared = ev->space == WS_PTX_SP_SHARED;
  ws_dwarp *w = &d->w[wi];
  ws_dtime *rr = d->ready + (size_t)wi * d->nregs;
  if (!(d->seen >> wi & 1)) { /* the warp's first instruction in this block */
    memset(w, 0, sizeof *w);
    memset(rr, 0, (size_t)d->nregs * sizeof *rr);
    d->seen |= 1u << wi;
  }
  uint32_t deg = c == WS_IC_ATOMIC || c == WS_IC_REDUCTION ? ws_prof_deps_atomics(d, ev) : 0;
  ws_dtime t = w->issue;
  if (w->pending) {
    t = ws_deps_later(t, d->bar[w->pending - 1]);
    w->pending = 0;
  }
  t.nom += 1;
  uint32_t slot = 1; /* what this instruction adds to the path it issues on */
  int nd = 0;
  const uint32_t *defs = NULL;
  const ws_dinst_regs *ir = NULL;
  if (own) {
    ir = &d->iregs[pc];
    defs = d->regs + ir->off;
    nd = ir->ndefs;
    const uint32_t *uses = defs + nd;
    for (int k = 0; k < ir->nuses; k++)
      if (rr[uses[k]].nom > t.nom) t = rr[uses[k]], slot = 0;
  }
  const uint32_t id = d->crit_mem ? inst : UINT32_MAX;
  ws_dtime issue = t;
  issue.nom += replays; /* each replay takes an issue slot */
  if (slot + replays > 0 && id != UINT32_MAX) issue.node = ws_deps_node(d, t.node, id, 0, slot + replays);
  ws_dtime end = ws_deps_later(w->end, issue);
  w->issue = issue;
  if (c == WS_IC_BARRIER) {
    uint32_t s = w->nbar++ & 1;
    d->bar[s] = ws_deps_later(d->bar[s], issue);
    w->pending = (int)s + 1;
  } else if (nd) { /* (nd > 0 only for the kernel's own instructions) */
    ws_dtime r = issue;
    uint32_t mem = ir->memk == 1 || (ir->memk == 2 && !shared);
    uint32_t lat = mem ? 0 : ir->lat;
    if (mem) r.mem += 1, r.nom += WS_DEPS_NOMINAL_MEM_U;
    else r.nom += lat;
    if (id != UINT32_MAX) r.node = ws_deps_node(d, issue.node, id, mem, lat);
    for (int k = 0; k < nd; k++) rr[defs[k]] = r;
    end = ws_deps_later(end, r);
  }
  w->end = end;
  return deg;
}

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
