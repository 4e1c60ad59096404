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
 * with the state it reads, so the profiler pays no call for it, and it reads
 * what it needs of the instruction from a record the profiler keeps
 * (ws_dstep), not from the event or the IR.  It runs the step
 * (ws_prof_deps_step) for a warp of its own, or only checks the trace of
 * the block's leader for a shadow warp (deps.c, "Shadows").
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
  uint64_t nodes;  /* path nodes its steps asked for (made or not) */
} ws_dwarp;

/* What ws_prof_deps_step needs of one instruction, static: the registers
 * a kernel instruction writes (defs) and reads (uses),
 * regs[off .. off + ndefs) and regs[off + ndefs .. off + ndefs + nuses),
 * and what its result costs the path.  deps.c makes one per kernel
 * instruction (ws_prof_deps_regs_of); the profiler keeps a copy in its
 * record of every instruction, with `barrier` set for called functions'
 * too. */
typedef struct ws_dstep {
  uint32_t off;         /* its defs' first entry in ws_deps.regs, uses after them */
  uint8_t ndefs, nuses; /* registers it writes, then reads (0 and 0 for an
                           instruction of a called function: its registers
                           are another function's) */
  uint8_t memk;         /* its result comes from memory: bit 0 when its access
                           is not to shared memory, bit 1 when it is */
  uint8_t barrier;      /* 1 for the barrier class (WS_IC_BARRIER) */
  uint16_t lat;         /* otherwise its result is ready this many cycles
                           after issue (deps_latency) */
} ws_dstep;

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

/* A worker's state (deps.c; here for the inline ws_prof_deps_step). */
struct ws_deps {
  const ws_ptx_function *kernel; /* registers are this function's */
  uint32_t nregs;                /* kernel->nregs */
  uint32_t kninsts;              /* kernel->ninsts */
  ws_dstep *iregs;               /* per instruction of the kernel */
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
   * open-addressing set (acap a power of two, an entries of this block),
   * each entry stamped with the last global atomic request that updated
   * it; those of older blocks are out of the set but keep their address,
   * its buckets of the sketch and operations not yet added to them, so
   * nothing is cleared between blocks (deps.c, "Atomics") */
  struct atom_entry *aset;
  size_t an, acap;
  uint32_t aseq;                 /* global atomic requests so far (the stamps) */
  uint32_t ablock;               /* the first stamp of this block (> 0) */
  int aset_oom;                  /* an insertion failed: the count is short */
  /* shadow warps (ws_prof_deps_shadow; deps.c, "Shadows"), srec NULL: off */
  const char *srec;              /* the step record of id at srec + id x sstride */
  size_t sstride;
  uint32_t leader;               /* the warp that writes the trace (32: none yet) */
  uint32_t shadows;              /* warps that follow the trace */
  uint32_t fresh;                /* shadows whose ready times are not cleared yet */
  uint32_t spos[32];             /* per shadow: the trace's steps it matched, */
  uint32_t sres[32];             /* ... the barriers it left, */
  uint32_t sbase[32];            /* ... and the step its own state (w, ready) is at */
  int tracing;                   /* the trace grows with the leader (0: frozen) */
  size_t troom;                  /* the leader records without a call while
                                    ntrace < troom (0: frozen or not yet) */
  uint64_t *trace;               /* the leader's steps (ws_deps_key; WS_DEPS_RESUME
                                    where it left a barrier), then WS_DEPS_END */
  size_t ntrace, captrace;
  ws_dtime *bread;               /* per barrier k of the leader: the slot it read
                                    when it left it */
  size_t nbread, capbread;
  ws_dwarp snap;                 /* the leader's state before its last resume ... */
  ws_dtime *snap_ready;          /* ... its ready times (nregs) */
  size_t snap_pos;               /* ... its steps then (SIZE_MAX: none in this block) */
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

/* Shadow warps (deps.c, "Shadows"): the step record of instruction id is
 * at (const char *)recs + id x stride for ids < ninst (the profiler's
 * iinfo table, whose records stay put until d is freed).  Call it once,
 * after ws_prof_deps_new; without it every warp runs the step.  0, or -1
 * (out of memory, or ninst > 2^30): no shadows, the same results. */
int ws_prof_deps_shadow(ws_deps *d, const ws_dstep *recs, size_t stride, uint32_t ninst);

/* A trace entry: id, shared and replays exactly (id < 2^30); a shadow's
 * key never has bit 63, WS_DEPS_RESUME marks the leader's step after a
 * barrier and WS_DEPS_END (matching no key) follows the last entry. */
#define WS_DEPS_RESUME ((uint64_t)1 << 63)
#define WS_DEPS_END UINT64_MAX
static inline uint64_t ws_deps_key(uint32_t id, uint32_t shared, uint32_t replays) {
  return (uint64_t)(id | shared << 30) << 32 | replays;
}
/* A key's (or a trace entry's) parts back. */
static inline uint32_t ws_deps_key_id(uint64_t e) { return (uint32_t)(e >> 32) & (((uint32_t)1 << 30) - 1); }
static inline uint32_t ws_deps_key_shared(uint64_t e) { return (uint32_t)(e >> 62) & 1; }
static inline uint32_t ws_deps_key_replays(uint64_t e) { return (uint32_t)e; }

/* A warp's first instruction in the block: its times cleared (a block of 8
 * warps clears 8 rows, not 32) -- or, with shadows on and the block's
 * first warp already leading, the warp becomes a shadow at the trace's
 * start (its ready times are set when it stops being one, deps.c).  The
 * profiler calls it once per warp and block, before the warp's first
 * ws_prof_deps_inst. */
static inline void ws_prof_deps_warp_begin(ws_deps *d, uint32_t wi) {
  memset(&d->w[wi], 0, sizeof d->w[wi]);
  if (d->seen && d->tracing) {
    d->shadows |= 1u << wi;
    d->fresh |= 1u << wi;
    d->spos[wi] = d->sres[wi] = d->sbase[wi] = 0;
  } else {
    memset(d->ready + (size_t)wi * d->nregs, 0, (size_t)d->nregs * sizeof *d->ready);
    if (!d->seen && d->tracing) d->leader = wi;
  }
  d->seen |= 1u << wi;
}

/* The record of instruction pc of the kernel (pc < kernel->ninsts). */
static inline ws_dstep ws_prof_deps_regs_of(const ws_deps *d, uint32_t pc) { return d->iregs[pc]; }

/* Two nodes, for instruction id: one on top of parent adding dcyc cycles,
 * then (a result) one on top of it adding dmem2 loads and dcyc2 cycles;
 * returns the first, the second through *second.  Without a call while
 * the block's node array has room for both. */
static inline uint32_t ws_deps_node2(ws_deps *d, uint32_t parent, uint32_t id, uint32_t dcyc, uint32_t dmem2,
                                     uint32_t dcyc2, uint32_t *second) {
  size_t n = d->nnodes;
  if (n + 2 <= d->nroom) {
    ws_dnode *x = d->nodes + n;
    x[0] = (ws_dnode){parent, id, dcyc, 0};
    x[1] = (ws_dnode){(uint32_t)n, id, dcyc2, dmem2};
    d->nnodes = n + 2;
    *second = (uint32_t)n + 1;
    return (uint32_t)n;
  }
  uint32_t first = ws_prof_deps_node(d, parent, id, 0, dcyc);
  *second = ws_prof_deps_node(d, first, id, dmem2, dcyc2);
  return first;
}

/* One executed warp instruction of warp wi (ws_prof_deps_warp_begin called
 * for it in this block): s, its record; shared: 1 when its access went to
 * shared memory (a memory kind 2 result then comes without a load);
 * replays: the extra shared-memory passes it needed (bank conflicts); id:
 * the profiler's id of the instruction (func_base[function] + pc, as
 * ws_prof_deps_track).  Inline, with the state it reads, so the profiler
 * pays no call for it. */
static inline void ws_prof_deps_step(ws_deps *d, uint32_t wi, const ws_dstep *s, uint32_t shared,
                                     uint32_t replays, uint32_t id) {
  /* The warp's times are read once into locals: the stores below (through
   * uint32_t and uint64_t pointers) could alias them, and the compiler
   * would read them again after each. */
  ws_dwarp *w = &d->w[wi];
  ws_dtime *rr = d->ready + (size_t)wi * d->nregs;
  ws_dtime t = w->issue;
  if (__builtin_expect(w->pending, 0)) {
    t = ws_deps_later(t, d->bar[w->pending - 1]);
    w->pending = 0;
  }
  t.nom += 1;
  uint32_t slot = 1; /* what this instruction adds to the path it issues on */
  const uint32_t nd = s->ndefs, nu = s->nuses;
  const uint32_t *defs = d->regs + s->off, *uses = defs + nd;
  for (uint32_t k = 0; k < nu; k++)
    if (rr[uses[k]].nom > t.nom) t = rr[uses[k]], slot = 0;
  ws_dtime issue = t;
  issue.nom += replays; /* each replay takes an issue slot */
  ws_dtime end = w->end;
  /* (without tracking, or past the block's nodes, a node is 0: ws_prof_deps_node) */
  w->nodes += (slot + replays > 0) + (nd && !s->barrier);
  if (nd && !s->barrier) { /* (nd > 0 only for the kernel's own instructions) */
    ws_dtime r = issue;
    const uint32_t mem = s->memk >> shared & 1, lat = mem ? 0 : s->lat;
    r.mem += mem;
    r.nom += mem ? WS_DEPS_NOMINAL_MEM_U : lat;
    if (slot + replays > 0) issue.node = ws_deps_node2(d, t.node, id, slot + replays, mem, lat, &r.node);
    else r.node = ws_deps_node(d, issue.node, id, mem, lat);
    for (uint32_t k = 0; k < nd; k++) rr[defs[k]] = r;
    /* r is later than issue: both after the end only when r is */
    end = ws_deps_later(end, r);
  } else {
    if (slot + replays > 0) issue.node = ws_deps_node(d, t.node, id, 0, slot + replays);
    end = ws_deps_later(end, issue);
    if (s->barrier) {
      uint32_t b = w->nbar++ & 1;
      d->bar[b] = ws_deps_later(d->bar[b], issue);
      w->pending = (int)b + 1;
    }
  }
  w->issue = issue;
  w->end = end;
}

/* The leader's entry e when it leaves a barrier or the trace needs room
 * (deps.c), and a shadow's step when its instruction is not the next one
 * of the trace. */
void ws_prof_deps_record(ws_deps *d, uint32_t wi, uint64_t e);
void ws_prof_deps_unshadow(ws_deps *d, uint32_t wi, const ws_dstep *s, uint32_t shared, uint32_t replays,
                           uint32_t id);

/* One executed warp instruction, as ws_prof_deps_step: a shadow whose
 * instruction (id, shared, replays) is the leader's at its position only
 * moves on (about ten x86 instructions instead of the step's ~125); the
 * leader records its step; every other warp runs the step. */
static inline __attribute__((always_inline)) void ws_prof_deps_inst(ws_deps *d, uint32_t wi, const ws_dstep *s,
                                                                    uint32_t shared, uint32_t replays, uint32_t id) {
  if (d->shadows >> wi & 1) {
    const uint32_t pos = d->spos[wi];
    /* (trace[ntrace] is WS_DEPS_END, which no key matches) */
    if (__builtin_expect(d->trace[pos] == ws_deps_key(id, shared, replays), 1)) d->spos[wi] = pos + 1;
    else ws_prof_deps_unshadow(d, wi, s, shared, replays, id);
    return;
  }
  if (wi == d->leader) {
    const uint64_t e = ws_deps_key(id, shared, replays);
    if (d->ntrace < d->troom && !d->w[wi].pending) d->trace[d->ntrace++] = e, d->trace[d->ntrace] = WS_DEPS_END;
    else ws_prof_deps_record(d, wi, e);
  }
  ws_prof_deps_step(d, wi, s, shared, replays, id);
}

/* ws_prof_deps_inst for n instructions in a row of warp wi, with ids id ..
 * id + n - 1, no shared access and no replays (a run of plain ones: the
 * profiler's ws_prof_inst), their records `stride` bytes apart from s (the
 * profiler's iinfo table): a shadow checks them against the trace in one
 * loop and, at the first that differs, leaves the rest to
 * ws_prof_deps_inst (which takes it off the trace); every other warp runs
 * ws_prof_deps_inst for each. */
static inline void ws_prof_deps_run(ws_deps *d, uint32_t wi, const ws_dstep *s, size_t stride, uint32_t n,
                                    uint32_t id) {
  uint32_t k = 0;
  if (d->shadows >> wi & 1) {
    /* (the trace ends with WS_DEPS_END, which no key matches) */
    const uint64_t *tr = d->trace + d->spos[wi];
    while (k < n && tr[k] == ws_deps_key(id + k, 0, 0)) k++;
    d->spos[wi] += k;
  }
  for (; k < n; k++)
    ws_prof_deps_inst(d, wi, (const ws_dstep *)(const void *)((const char *)s + k * stride), 0, 0, id + k);
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
/* The bucket of address a in row r (< WS_DEPS_HOT_ROWS) of the sketch. */
uint32_t ws_prof_deps_hot_bucket(uint64_t a, int r);

#endif
