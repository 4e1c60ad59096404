/*
 * deps.c — dependency paths of warps and atomic serialization (deps.h).
 *
 * Each register of each warp of the current block holds the time its value
 * is ready, as a pair (mem, cyc): loads from memory on the path that
 * produced it and the other cycles on that path.  An instruction issues at
 * the later of (its warp's previous issue + 1 cycle) and the ready times of
 * the registers it reads; what it writes is ready deps_latency() later.  The
 * later of two pairs is the one with the larger nominal value
 * mem x WS_DEPS_NOMINAL_MEM + cyc.  A barrier's arrival times are joined
 * (the latest one wins) and every warp leaves it at that time: a ring of two
 * barrier slots suffices because no warp can reach barrier k + 2 before
 * every warp has left barrier k (times only grow, so a slot is reused
 * without a reset).  Instructions of called functions only take their issue
 * slot (their registers are another function's).
 *
 * Speed: the registers each kernel instruction writes and reads, and what
 * its result costs, are listed once, when the worker's state is made (they
 * are static); a warp's ready times are cleared when the warp first shows
 * up in a block, so a block of 8 warps clears 8 rows, not 32; times are
 * integers with their nominal value kept (deps.h), and the step per
 * instruction is inline in the profiler (deps.h).
 *
 * Critical-path attribution (ws_prof_deps_track; docs/profile.md,
 * "lines"): every time also names the node of the path that produced it.
 * A node records the instruction that added to the path and by how much
 * (its issue slot and replays when the warp's own issue order decided, a
 * load or the nominal latency of its result); at block end the chain of
 * the latest time is walked back and each node's share is added to its
 * instruction, so the shares of a block sum exactly to its path.  Nodes
 * live for one block; a block that would need more than
 * WS_DEPS_MAX_NODES is not attributed (counted apart).
 *
 * Shadows (ws_prof_deps_shadow).  The step is a function of the warp's
 * state, of its instructions (id, shared, replays) in order, and of the
 * barrier slot it reads when it leaves a barrier.  Most warps of a block
 * run the same instructions, so they go through the same states: the same
 * times (nom, mem), and paths whose chains hold the same (id, dmem, dcyc)
 * (not the same node numbers).  One warp, the *leader* (the block's first
 * at the start), records each of its steps in a trace, 8 bytes each; every
 * other warp starts as a *shadow*: it runs no step, it only checks that
 * its instruction is the trace's at its position (spos).  A shadow leaving
 * a barrier also checks that the slot holds what the leader read there
 * (bread).  A shadow that catches up with the leader (the warp that
 * completes a barrier leaves it first) takes the leader's state and leads
 * from there, and the leader becomes a shadow, its own state at that step
 * (sbase).  When a check fails, or at block end short of the leader's
 * step, a shadow becomes a warp of its own (materialise): its state at its
 * position comes from the leader's state before its last resume from a
 * barrier (snap: in a block that syncs with bar.sync, its shadows are
 * between that resume and the next barrier), else from its own state (the
 * block's start for a fresh one), by running the step over the trace up to
 * its position, reading at each resume the value it checked there; then it
 * runs the step for its instruction.  Why the results are those of running
 * the step for every warp:
 *  - A shadow's barrier arrivals: each equals the arrival at that barrier
 *    of the warp that recorded the step (same state), already in the slot
 *    (the leader is never behind a shadow); slots only grow
 *    (ws_deps_later replaces only when strictly later), so the arrival
 *    would change nothing.  The same holds for the arrivals replayed.
 *  - What a shadow reads at a resume is checked against what the leader
 *    read (nom, mem and node alike): equal, its step gives the leader's;
 *    different, it materialises there and runs the step, which reads the
 *    slot.  So no argument about which warps a barrier joins is needed
 *    (mbarrier and bar.arrive are in the barrier class too).
 *  - Block end: a shadow at the leader's step ends as the leader did, with
 *    a chain of the same steps, so whichever of them the strict `later`
 *    picks in warp order, the block's path and its attribution are the
 *    same: the shadow is left out of the choice.
 *  - Nodes: each warp counts the nodes its steps asked for
 *    (ws_dwarp.nodes), and a state taken from another warp carries its
 *    count, so the block "ran past WS_DEPS_MAX_NODES" exactly when every
 *    warp running every step would have (the nodes made are never more).
 *  - When the trace (or bread) cannot grow, it stops where it is (freeze):
 *    shadows materialise at its end, later warps of the block are not
 *    shadows.  Speed only.
 */
#include "deps.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "util/bits.h"
#include "util/vec.h"
#include "warpsight/analysis.h"

/* One bucket of the atomics' contention sketch (deps.h). */
typedef struct hot_bucket {
  uint64_t ops;        /* lane operations on its addresses */
  uint64_t blocks;     /* blocks that touched it (exact below 2, at least 2
                          otherwise: ATOM_SAT below) */
  uint64_t last;       /* block_seq of the last of them, + 1 (0: none) */
} hot_bucket;

/* One entry of the set of atomic targets (ws_deps.aset; "Atomics" below). */
typedef struct atom_entry {
  uint64_t a;     /* the address (stamp > 0) */
  uint64_t ops;   /* its lane operations not yet added to its buckets */
  uint32_t stamp; /* the global atomic request that updated it last (ws_deps.aseq;
                     0: never used); in the block's set when >= ws_deps.ablock */
  uint32_t bw;    /* its bucket of the sketch in row 0 (bits 0-11) and row 1
                     (12-23); ATOM_SAT: both count two blocks or more; its
                     lanes in request `stamp` (25-31) */
} atom_entry;
#define ATOM_SAT ((uint32_t)1 << 24)
#define ATOM_LANE ((uint32_t)1 << 25) /* one lane in the request's count */
_Static_assert(WS_DEPS_HOT_ROWS == 2 && WS_DEPS_HOT_BUCKETS == 4096, "atom_entry.bw holds two buckets");
static void aset_renumber(ws_deps *d);

/* d->nroom from the node array's state (deps.h). */
static void deps_room(ws_deps *d) {
  d->nroom = d->overflow || !d->crit_mem ? 0 : d->capnodes < WS_DEPS_MAX_NODES ? d->capnodes : WS_DEPS_MAX_NODES;
}

/* A node for instruction id on top of parent's path; 0 (no attribution)
 * when nothing is tracked or the block ran out of nodes. */
uint32_t ws_prof_deps_node(ws_deps *d, uint32_t parent, uint32_t id, uint32_t dmem, uint32_t dcyc) {
  if (!d->crit_mem || d->overflow) return 0;
  if (d->nnodes >= WS_DEPS_MAX_NODES || WS_VEC_RESERVE(d->nodes, d->capnodes, d->nnodes + 1)) {
    d->overflow = 1;
    deps_room(d);
    return 0;
  }
  d->nodes[d->nnodes] = (ws_dnode){parent, id, dcyc, dmem};
  deps_room(d);
  return (uint32_t)d->nnodes++;
}

/* Nominal latencies in cycles of what an instruction writes (docs/profile.md,
 * "dependencies"): dependent-issue latencies of the Kepler/Maxwell
 * generation (about 6-9 cycles for ALU operations, ~20 for SFU, ~30 for
 * shared memory; Volkov 2016, ch. 4; Jia et al. 2018, table 3.1), one value
 * per class whatever the GPU: the model scales them. */
static uint64_t deps_latency(int c) {
  switch (c) {
  case WS_IC_INT: case WS_IC_FP32: case WS_IC_FP16: case WS_IC_CONV: return 6;
  case WS_IC_FP64: return 10;
  case WS_IC_SFU: case WS_IC_SREG: case WS_IC_LD_CONST: case WS_IC_LD_PARAM: return 20;
  case WS_IC_WARP: case WS_IC_LD_SHARED: return 30;
  case WS_IC_TENSOR: return 30;
  default: return 1;
  }
}

/* Whether an instruction of class c reads its result from global, local or
 * texture memory, as ws_dstep.memk: bit 0 when its access is not to shared
 * memory, bit 1 when it is (3: always; 1: unless its generic access is
 * shared; 0: never). */
static uint8_t memory_kind(int c) {
  switch (c) {
  case WS_IC_LD_GLOBAL: case WS_IC_LD_LOCAL: case WS_IC_LD_TEX: return 3;
  case WS_IC_LD_GENERIC: case WS_IC_ATOMIC: return 1;
  default: return 0;
  }
}

/* Lists the registers of every kernel instruction in one block (the
 * per-instruction entries, then the lists); -1 when out of memory. */
static int list_regs(ws_deps *d) {
  const ws_ptx_function *k = d->kernel;
  uint32_t defs[WS_ANALYSIS_MAX_REGS], uses[WS_ANALYSIS_MAX_REGS];
  int nd, nu;
  size_t total = 0;
  for (uint32_t i = 0; i < k->ninsts; i++) {
    ws_analysis_inst_regs(k, &k->insts[i], defs, &nd, uses, &nu);
    total += (size_t)nd + (size_t)nu;
  }
  size_t head = (k->ninsts ? k->ninsts : 1) * sizeof *d->iregs;
  d->iregs = malloc(head + total * sizeof *d->regs);
  if (!d->iregs) return -1;
  d->regs = (uint32_t *)((char *)d->iregs + head);
  size_t n = 0;
  for (uint32_t i = 0; i < k->ninsts; i++) { /* registers past nregs (none in a valid function) left out */
    ws_analysis_inst_regs(k, &k->insts[i], defs, &nd, uses, &nu);
    uint32_t off = (uint32_t)n, kd = 0, ku = 0;
    for (int j = 0; j < nd; j++)
      if (defs[j] < d->nregs) d->regs[n++] = defs[j], kd++;
    for (int j = 0; j < nu; j++)
      if (uses[j] < d->nregs) d->regs[n++] = uses[j], ku++;
    int c = (int)ws_analysis_class(&k->insts[i]); /* the class the profiler passes (profiler.c) */
    d->iregs[i] = (ws_dstep){off, (uint8_t)kd, (uint8_t)ku, memory_kind(c), c == WS_IC_BARRIER,
                             (uint16_t)deps_latency(c == WS_IC_LD_GENERIC ? WS_IC_LD_SHARED : c)};
  }
  return 0;
}

ws_deps *ws_prof_deps_new(const ws_ptx_function *k) {
  ws_deps *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->leader = 32;
  d->snap_pos = SIZE_MAX;
  d->ablock = 1; /* (an entry never updated has stamp 0) */
  d->kernel = k;
  d->nregs = k->nregs;
  d->kninsts = k->ninsts;
  d->ready = calloc((size_t)32 * (d->nregs ? d->nregs : 1), sizeof *d->ready);
  if (!d->ready || list_regs(d)) {
    ws_prof_deps_free(d);
    return NULL;
  }
  return d;
}

int ws_prof_deps_track(ws_deps *d, const ws_ptx_module *m, const uint32_t *func_base,
                       uint32_t ninst) {
  d->module = m;
  d->func_base = func_base;
  d->ninst = ninst;
  d->crit_mem = calloc(ninst ? ninst : 1, sizeof *d->crit_mem);
  d->crit_cyc = calloc(ninst ? ninst : 1, sizeof *d->crit_cyc);
  if (!d->crit_mem || !d->crit_cyc) {
    free(d->crit_mem), free(d->crit_cyc);
    d->crit_mem = d->crit_cyc = NULL;
    return -1;
  }
  return 0;
}

int ws_prof_deps_shadow(ws_deps *d, const ws_dstep *recs, size_t stride, uint32_t ninst) {
  if (ninst > ((uint32_t)1 << 30)) return -1; /* ids must fit ws_deps_key */
  d->snap_ready = calloc(d->nregs ? d->nregs : 1, sizeof *d->snap_ready);
  if (!d->snap_ready || WS_VEC_RESERVE(d->trace, d->captrace, 1)) {
    free(d->snap_ready);
    d->snap_ready = NULL;
    return -1;
  }
  d->srec = (const char *)recs;
  d->sstride = stride;
  return 0;
}

void ws_prof_deps_free(ws_deps *d) {
  if (!d) return;
  free(d->trace);
  free(d->bread);
  free(d->snap_ready);
  free(d->aset);
  free(d->nodes);
  free(d->crit_mem);
  free(d->crit_cyc);
  free(d->ready);
  free(d->iregs); /* and d->regs, in the same block */
  free(d->hot);
  free(d);
}

void ws_prof_deps_block_begin(ws_deps *d) {
  memset(d->bar, 0, sizeof d->bar);
  d->seen = 0; /* each warp's state is cleared when it first shows up */
  d->block_seq++;
  if (d->aseq == UINT32_MAX) aset_renumber(d);
  d->ablock = d->aseq + 1; /* every entry leaves the set */
  d->an = 0;
  d->nnodes = 1; /* node 0: the block's start */
  d->overflow = 0;
  if (d->crit_mem && WS_VEC_RESERVE(d->nodes, d->capnodes, 1)) d->overflow = 1;
  deps_room(d);
  d->leader = 32;
  d->shadows = d->fresh = 0;
  d->ntrace = d->nbread = 0;
  d->snap_pos = SIZE_MAX;
  d->tracing = d->srec && !WS_VEC_RESERVE(d->trace, d->captrace, 1);
  d->troom = 0; /* (ws_prof_deps_record sets it) */
  if (d->tracing) d->trace[0] = WS_DEPS_END;
}

/* Shadows (the file's comment) ---------------------------------------------*/

static ws_dtime *ready_of(ws_deps *d, uint32_t wi) { return d->ready + (size_t)wi * d->nregs; }

static int same_time(ws_dtime a, ws_dtime b) { return a.nom == b.nom && a.mem == b.mem && a.node == b.node; }

/* A warp's whole state (its times and its registers' ready times) into
 * *w and rr from *sw and sr. */
static void copy_state(const ws_deps *d, ws_dwarp *w, ws_dtime *rr, const ws_dwarp *sw, const ws_dtime *sr) {
  *w = *sw;
  memcpy(rr, sr, (size_t)d->nregs * sizeof *rr);
}

/* The trace stops growing where it is. */
static void freeze(ws_deps *d) {
  d->tracing = 0;
  d->troom = 0;
  d->leader = 32;
}

void ws_prof_deps_record(ws_deps *d, uint32_t wi, uint64_t e) {
  ws_dwarp *w = &d->w[wi];
  if (!d->tracing) return;
  if (w->pending) { /* it leaves barrier nbar - 1 (= nbread): what it reads, and its state */
    if (WS_VEC_PUSH(d->bread, d->nbread, d->capbread, d->bar[w->pending - 1])) {
      freeze(d);
      return;
    }
    copy_state(d, &d->snap, d->snap_ready, w, ready_of(d, wi));
    d->snap_pos = d->ntrace;
    e |= WS_DEPS_RESUME;
  }
  /* room for the entry and the end mark; positions are uint32_t */
  if (d->ntrace + 2 > UINT32_MAX || WS_VEC_RESERVE(d->trace, d->captrace, d->ntrace + 2)) {
    freeze(d);
    return;
  }
  d->trace[d->ntrace++] = e;
  d->trace[d->ntrace] = WS_DEPS_END;
  d->troom = (d->captrace < UINT32_MAX ? d->captrace : UINT32_MAX) - 1;
}

/* Runs the step for warp wi over the trace's entries [from, to), reading
 * at each resume from barrier k the value the leader read (bread[k]),
 * which the warp, as a shadow, checked was in the slot when it got there. */
static void replay(ws_deps *d, uint32_t wi, size_t from, size_t to) {
  ws_dwarp *w = &d->w[wi];
  for (size_t i = from; i < to; i++) {
    const uint64_t e = d->trace[i];
    const uint32_t id = ws_deps_key_id(e), shared = ws_deps_key_shared(e), replays = ws_deps_key_replays(e);
    const ws_dstep *s = (const ws_dstep *)(const void *)(d->srec + (size_t)id * d->sstride);
    if (w->pending) {
      const int b = w->pending - 1;
      const ws_dtime now = d->bar[b];
      d->bar[b] = d->bread[w->nbar - 1];
      ws_prof_deps_step(d, wi, s, shared, replays, id); /* (an arrival here goes to the other slot) */
      d->bar[b] = now;
    } else {
      ws_prof_deps_step(d, wi, s, shared, replays, id);
    }
  }
}

/* Shadow wi becomes a warp of its own, in the state it would have after
 * its spos steps: the leader's when the leader is there, else the
 * snapshot's or its own (at sbase, the block's start for a fresh one) and
 * replay() up to spos. */
static void materialise(ws_deps *d, uint32_t wi) {
  const uint32_t bit = 1u << wi;
  const size_t pos = d->spos[wi];
  ws_dwarp *w = &d->w[wi];
  ws_dtime *rr = ready_of(d, wi);
  d->shadows &= ~bit;
  if (d->tracing && pos == d->ntrace) {
    copy_state(d, w, rr, &d->w[d->leader], ready_of(d, d->leader));
    d->fresh &= ~bit;
    return;
  }
  size_t from = d->sbase[wi];
  if (d->snap_pos >= from && d->snap_pos <= pos) {
    copy_state(d, w, rr, &d->snap, d->snap_ready);
    from = d->snap_pos;
  } else if (d->fresh & bit) { /* (its w was cleared by warp_begin) */
    memset(rr, 0, (size_t)d->nregs * sizeof *rr);
  }
  d->fresh &= ~bit;
  replay(d, wi, from, pos);
}

void ws_prof_deps_unshadow(ws_deps *d, uint32_t wi, const ws_dstep *s, uint32_t shared, uint32_t replays,
                           uint32_t id) {
  const uint32_t pos = d->spos[wi];
  const uint64_t key = ws_deps_key(id, shared, replays);
  if (pos < d->ntrace) {
    if (d->trace[pos] == (key | WS_DEPS_RESUME) && same_time(d->bar[d->sres[wi] & 1], d->bread[d->sres[wi]])) {
      d->sres[wi]++, d->spos[wi]++; /* the leader's resume, from the same slot value */
      return;
    }
    materialise(d, wi);
  } else if (d->tracing) {
    /* It caught up with the leader (the warp that completes a barrier
     * leaves it first): it takes the leader's state and leads from here,
     * and the leader becomes a shadow whose own state is at this step. */
    const uint32_t l = d->leader;
    materialise(d, wi);
    d->shadows |= 1u << l;
    d->spos[l] = d->sbase[l] = (uint32_t)d->ntrace;
    d->sres[l] = (uint32_t)d->nbread;
    d->leader = wi;
    ws_prof_deps_record(d, wi, key);
  } else {
    materialise(d, wi);
  }
  ws_prof_deps_step(d, wi, s, shared, replays, id);
}

/* The lanes' distinct addresses and the most lanes on one, in two
 * phases.  First the lanes in order while their addresses never fall:
 * equal neighbours are one address (a run), a rise a new one, so a counter
 * (one address), rising distinct addresses (bins, one per lane) and sorted
 * ones with repeats are counted without a table, a few x86 instructions a
 * lane.  At the first fall, all the lanes again through a 64-slot
 * open-addressing table (at most 32 keys: at most half full) of addresses
 * and their lanes; which slots hold a key is one register (occ), so
 * nothing is cleared, and a slot's key and count are written when it is
 * taken. */
uint32_t ws_prof_deps_addresses(uint32_t exec, const uint64_t *addr, uint32_t *distinct) {
  uint32_t nd = 0, top = 0, m = exec;
  if (!m) goto out;
  uint64_t prev = addr[ws_ctz32(m)];
  uint32_t run = 1;
  nd = top = 1;
  for (m &= m - 1; m; m &= m - 1) {
    const uint64_t a = addr[ws_ctz32(m)];
    if (a < prev) break;
    run = a == prev ? run + 1 : 1;
    nd += a != prev;
    top = run > top ? run : top;
    prev = a;
  }
  if (!m) goto out;
  uint64_t occ = 0, key[64];
  uint8_t cnt[64];
  nd = top = 0;
  for (m = exec; m; m &= m - 1) {
    const uint64_t a = addr[ws_ctz32(m)];
    uint32_t h = (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> 58);
    while ((occ >> h & 1) && key[h] != a) h = (h + 1) & 63;
    if (occ >> h & 1) {
      const uint32_t c = ++cnt[h];
      top = c > top ? c : top;
    } else {
      occ |= (uint64_t)1 << h, key[h] = a, cnt[h] = 1, nd++;
    }
  }
  top = top ? top : 1; /* (every lane was a key's first) */
out:
  if (distinct) *distinct = nd;
  return top;
}

uint32_t ws_prof_deps_same_address(uint32_t exec, const uint64_t *addr) {
  return ws_prof_deps_addresses(exec, addr, NULL);
}

/* The bucket of address a in row r: independent multiplicative hashes. */
static uint32_t hot_bucket_of(uint64_t a, int r) {
  static const uint64_t mul[WS_DEPS_HOT_ROWS] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full};
  return (uint32_t)(((a ^ (a >> 29)) * mul[r]) >> 52) % WS_DEPS_HOT_BUCKETS;
}

uint32_t ws_prof_deps_hot_bucket(uint64_t a, int r) { return hot_bucket_of(a, r); }

/* n lane operations of this block on the addresses of bucket b of row r. */
static inline void hot_touch(ws_deps *d, int r, uint32_t b, uint32_t n) {
  hot_bucket *x = &d->hot[(size_t)r * WS_DEPS_HOT_BUCKETS + b];
  x->ops += n;
  if (x->last != d->block_seq + 1) x->blocks++, x->last = d->block_seq + 1;
}

/* Atomics.  The global requests' figures come from one set per worker,
 * looked up once per lane (a lane at its neighbour's address not even
 * that): an open-addressing table of addresses (linear probing, at most
 * half full with this block's), each entry stamped with the request that
 * updated it last.  A request takes a new stamp, so a lane whose entry
 * has it is not its address's first; the entry counts its lanes in the
 * request (the most lanes on one address is the largest such count).  A
 * new block takes the next stamp as its first (ablock): every entry
 * leaves the block's set at once, nothing cleared, and a slot stamped
 * before it is free for any address, but keeps its own.  A lookup stops
 * at the first slot that holds its address (in the set or not) or is
 * free, and the address takes that slot; a slot taken in this block stays
 * taken, so every lookup of the address in the block stops at the same
 * slot and it is in the set once.  (An older slot further on may still
 * hold it, with operations for the same buckets.)  The entry carries its
 * buckets of the sketch (hashed when it takes a slot with another
 * address) and its lane operations not yet in them, added when the slot
 * goes to another address or leaves the table, or when the sketch is read
 * (ws_prof_deps_hot).  So a block costs an address that comes back only
 * the count of the block in its two buckets, and not even that once both
 * count two blocks or more (all ws_prof_deps_hot asks: ATOM_SAT; a
 * bucket's count is exact below 2, since every address in it then
 * counts).  Memory: a block with n distinct addresses needs fewer than
 * 4 (n + 32) entries of 24 bytes. */

static size_t aset_home(uint64_t a, size_t mask) { return (size_t)(a * 0x9E3779B97F4A7C15ull >> 20) & mask; }

/* The operations entry e holds into its buckets. */
static void atom_ops_out(ws_deps *d, atom_entry *e) {
  const uint64_t ops = e->ops;
  e->ops = 0;
  if (d->hot && ops) {
    d->hot[e->bw & 0xfffu].ops += ops;
    d->hot[WS_DEPS_HOT_BUCKETS + (e->bw >> 12 & 0xfffu)].ops += ops;
  }
}

static void atom_ops_out_all(ws_deps *d) {
  for (size_t i = 0; i < d->acap; i++)
    if (d->aset[i].stamp) atom_ops_out(d, &d->aset[i]);
}

/* Entry e's address comes into the block's set: its buckets count the
 * block (until both count two). */
static void atom_blocks(ws_deps *d, atom_entry *e) {
  if (!d->hot || (e->bw & ATOM_SAT)) return;
  const uint64_t stamp = d->block_seq + 1;
  hot_bucket *x = &d->hot[e->bw & 0xfffu], *y = &d->hot[WS_DEPS_HOT_BUCKETS + (e->bw >> 12 & 0xfffu)];
  if (x->last != stamp) x->blocks++, x->last = stamp;
  if (y->last != stamp) y->blocks++, y->last = stamp;
  if (x->blocks >= 2 && y->blocks >= 2) e->bw |= ATOM_SAT;
}

/* The set with room for 32 more addresses at most half full: twice the
 * capacity, this block's entries moved over (the others' operations into
 * their buckets).  0, or -1 (out of memory: the set stays as it was,
 * d->aset_oom set). */
static int aset_grow(ws_deps *d) {
  const size_t ncap = d->acap ? 2 * d->acap : 64; /* (an <= acap / 2: enough) */
  atom_entry *n = calloc(ncap, sizeof *n);        /* (stamp 0: never used) */
  if (!n) {
    d->aset_oom = 1;
    return -1;
  }
  for (size_t i = 0; i < d->acap; i++) {
    atom_entry *e = &d->aset[i];
    if (e->stamp >= d->ablock) {
      size_t j = aset_home(e->a, ncap - 1);
      while (n[j].stamp) j = (j + 1) & (ncap - 1);
      n[j] = *e;
    } else if (e->stamp) {
      atom_ops_out(d, e);
    }
  }
  free(d->aset);
  d->aset = n, d->acap = ncap;
  return 0;
}

double ws_prof_deps_hot(ws_deps *const *d, int n, double scale) {
  double best = INFINITY;
  int any = 0;
  for (int k = 0; k < n; k++) {
    atom_ops_out_all(d[k]); /* (the operations the entries hold) */
    if (d[k]->hot_oom) return -1;
    any |= d[k]->hot != NULL;
  }
  if (!any) return 0;
  for (int r = 0; r < WS_DEPS_HOT_ROWS; r++) {
    double row = 0;
    for (uint32_t i = 0; i < WS_DEPS_HOT_BUCKETS; i++) {
      double ops = 0, blocks = 0;
      for (int k = 0; k < n; k++)
        if (d[k]->hot) {
          const hot_bucket *b = &d[k]->hot[(size_t)r * WS_DEPS_HOT_BUCKETS + i];
          ops += (double)b->ops, blocks += (double)b->blocks;
        }
      double v = blocks >= 2 ? ops * scale : ops;
      if (v > row) row = v;
    }
    if (row < best) best = row;
  }
  return best;
}

/* The stamps start again (aseq ran out): this block's entries get 2 (its
 * first), the others used 1. */
static void aset_renumber(ws_deps *d) {
  for (size_t i = 0; i < d->acap; i++) {
    atom_entry *e = &d->aset[i];
    e->stamp = e->stamp >= d->ablock ? 2 : e->stamp ? 1 : 0;
  }
  d->aseq = d->ablock = 2;
}

/* A global atomic request of the lanes of exec (not 0) on addr[]
 * ("Atomics" above).  Returns the most lanes on one address, the distinct
 * addresses in *ndist. */
static uint32_t atom_global(ws_deps *d, uint32_t exec, const uint64_t *addr, uint32_t *ndist) {
  if (2 * (d->an + 32) > d->acap && aset_grow(d)) {
    /* (the set is short, said by aset_oom; the sketch is not) */
    if (d->hot)
      for (uint32_t m = exec; m; m &= m - 1)
        for (int r = 0; r < WS_DEPS_HOT_ROWS; r++) hot_touch(d, r, hot_bucket_of(addr[ws_ctz32(m)], r), 1);
    return ws_prof_deps_addresses(exec, addr, ndist);
  }
  if (d->aseq == UINT32_MAX) aset_renumber(d);
  const uint32_t cur = ++d->aseq, ablock = d->ablock;
  atom_entry *const t = d->aset;
  const size_t mask = d->acap - 1;
  uint32_t nd = 0, top = 1, added = 0;
  uint64_t prev = addr[ws_ctz32(exec)] + 1; /* (the first lane looks up) */
  atom_entry *e = NULL;
  for (uint32_t m = exec; m; m &= m - 1) {
    const uint64_t a = addr[ws_ctz32(m)];
    if (a != prev) {
      prev = a;
      size_t j = aset_home(a, mask);
      for (;; j = (j + 1) & mask) {
        e = &t[j];
        if ((e->a == a && e->stamp) || e->stamp < ablock) break; /* its slot, or a free one */
      }
      if (e->stamp != cur) { /* its first lane in the request */
        if (e->stamp < ablock) { /* and in the block */
          if (e->a != a || !e->stamp) { /* a slot free for it */
            if (e->stamp) atom_ops_out(d, e);
            e->a = a, e->bw = hot_bucket_of(a, 0) | hot_bucket_of(a, 1) << 12;
          }
          atom_blocks(d, e);
          added++;
        }
        e->stamp = cur, e->bw = (e->bw & (ATOM_LANE - 1)) + ATOM_LANE, e->ops++, nd++;
        continue;
      }
    }
    e->bw += ATOM_LANE, e->ops++; /* a later lane */
    if (e->bw >> 25 > top) top = e->bw >> 25;
  }
  d->an += added;
  *ndist = nd;
  return top;
}

uint32_t ws_prof_deps_atomics(ws_deps *d, const ws_emu_event *ev) {
  if (!ev->addr || !ev->exec) return 0;
  uint32_t deg, nd;
  if (ev->space == WS_PTX_SP_SHARED) {
    deg = ws_prof_deps_addresses(ev->exec, ev->addr, NULL);
    d->sum.satom_reqs++, d->sum.satom_serial += deg;
    return deg;
  }
  if (!d->hot && !d->hot_oom) { /* the sketch, at the first global atomic */
    d->hot = calloc((size_t)WS_DEPS_HOT_ROWS * WS_DEPS_HOT_BUCKETS, sizeof *d->hot);
    if (!d->hot) d->hot_oom = 1;
  }
  deg = atom_global(d, ev->exec, ev->addr, &nd);
  d->sum.gatom_reqs++, d->sum.gatom_serial += deg, d->sum.gatom_req_addresses += nd;
  return deg;
}

void ws_prof_deps_block_end(ws_deps *d) {
  if (!d->seen) return;
  /* A shadow at the leader's step ends as the leader: it changes nothing
   * of the best path (the file's comment) and adds the leader's nodes;
   * the others materialise. */
  uint32_t warps = d->seen;
  uint64_t nodes = 0; /* the nodes every warp would have made (ws_dwarp.nodes) */
  for (uint32_t m = d->shadows; m; m &= m - 1) {
    const uint32_t wi = (uint32_t)__builtin_ctz(m);
    if (d->tracing && d->spos[wi] == d->ntrace) warps &= ~(1u << wi), nodes += d->w[d->leader].nodes;
    else materialise(d, wi);
  }
  d->shadows = 0;
  ws_dtime best = {0, 0, 0};
  for (int i = 0; i < 32; i++)
    if (warps >> i & 1) best = ws_deps_later(best, d->w[i].end), nodes += d->w[i].nodes;
  /* (past WS_DEPS_MAX_NODES - 1 nodes besides node 0, ws_prof_deps_node) */
  if (nodes >= WS_DEPS_MAX_NODES) d->overflow = 1;
  d->sum.blocks++;
  d->sum.gatom_addresses += (double)d->an;
  d->sum.path_mem += (double)best.mem;
  d->sum.path_cyc += (double)(best.nom - best.mem * WS_DEPS_NOMINAL_MEM_U);
  if (!d->crit_mem) return;
  if (d->overflow) {
    d->crit_skipped++;
  } else {
    for (uint32_t n = best.node; n; n = d->nodes[n].parent) {
      d->crit_mem[d->nodes[n].id] += d->nodes[n].dmem;
      d->crit_cyc[d->nodes[n].id] += d->nodes[n].dcyc;
    }
    d->crit_blocks++;
  }
  if (d->capnodes > ((size_t)1 << 16)) { /* a long block: its memory back */
    free(d->nodes);
    d->nodes = NULL;
    d->capnodes = 0;
    deps_room(d);
  }
  if (d->captrace > ((size_t)1 << 16)) { /* (block_begin makes room again) */
    free(d->trace);
    d->trace = NULL;
    d->captrace = 0;
  }
  if (d->capbread > ((size_t)1 << 16)) {
    free(d->bread);
    d->bread = NULL;
    d->capbread = 0;
  }
}

void ws_prof_deps_crit_add(const ws_deps *d, double *mem, double *cyc, double *blocks,
                           double *skipped) {
  if (!d->crit_mem) return;
  for (uint32_t i = 0; i < d->ninst; i++) mem[i] += d->crit_mem[i], cyc[i] += d->crit_cyc[i];
  *blocks += d->crit_blocks;
  *skipped += d->crit_skipped;
}

void ws_prof_deps_add(ws_deps_sum *out, const ws_deps *d) {
  const ws_deps_sum *s = &d->sum;
  out->blocks += s->blocks, out->path_mem += s->path_mem, out->path_cyc += s->path_cyc;
  out->gatom_reqs += s->gatom_reqs, out->gatom_serial += s->gatom_serial;
  out->satom_reqs += s->satom_reqs, out->satom_serial += s->satom_serial;
  out->gatom_addresses += s->gatom_addresses;
  out->gatom_req_addresses += s->gatom_req_addresses;
  out->gatom_addresses_short |= d->aset_oom;
}
