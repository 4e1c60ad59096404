/*
 * profile/memsim.h — what one warp-level memory request costs: global
 * memory transactions under each compute capability's coalescing rules,
 * shared-memory bank conflicts, and a set-associative cache simulation.
 * Pure functions of the lanes' addresses; the profiler calls them from the
 * emulator's hooks (docs/profile.md, "Measured by the profiler").
 * Internal to the library (src/), not public.
 */
#ifndef WS_PROFILE_MEMSIM_H
#define WS_PROFILE_MEMSIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/bits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One warp-level request: the active lanes and the byte address each reads
 * or writes (lane i is active when bit i of mask is set). */
typedef struct ws_warp_access {
  uint32_t mask;        /* active lanes */
  uint32_t size;        /* bytes per lane: 1, 2, 4, 8 or 16 */
  uint64_t addr[32];    /* byte address of each lane (ignored when inactive) */
} ws_warp_access;

/* Coalescing rules (DESIGN.md, "Coalescing rules"). */
typedef enum ws_coal_rule {
  WS_COAL_CC1X_STRICT,  /* CC 1.0/1.1: per half-warp, k-th lane -> k-th word, else 1 per lane */
  WS_COAL_CC1X_RELAXED, /* CC 1.2/1.3: per half-warp, per segment, shrunk to 32/64/128 B */
  WS_COAL_CC2X_L1,      /* CC 2.x, loads cached in L1: per warp, one per 128-B line */
  WS_COAL_SECTORS       /* CC 2.x uncached / CC >= 3.0: per warp, one per 32-B sector */
} ws_coal_rule;

/* The rule of a compute capability for loads (cached_in_l1: the GPU caches
 * global loads in L1) and for stores (which never allocate in L1). */
ws_coal_rule ws_prof_coal_rule_for(int cc_major, int cc_minor, int cached_in_l1,
                              int is_store);
const char *ws_prof_coal_rule_name(ws_coal_rule r);

typedef struct ws_coal_result {
  uint32_t transactions;    /* memory transactions the request needs */
  uint32_t bytes_moved;     /* bytes of those transactions */
  uint32_t bytes_requested; /* active lanes x size */
  uint32_t sectors;         /* distinct 32-byte sectors touched */
  uint32_t lines;           /* distinct 128-byte lines touched */
} ws_coal_result;

/* Transactions for one request; a request with no active lane needs none. */
void ws_prof_coalesce(ws_coal_result *out, const ws_warp_access *a, ws_coal_rule rule);
/* The same when the request's distinct 32-byte sectors and 128-byte lines
 * are known (a caller that lists the sectors anyway). */
void ws_prof_coalesce_counted(ws_coal_result *out, const ws_warp_access *a, ws_coal_rule rule,
                              uint32_t sectors, uint32_t lines);
/* The same for the request given by its parts, the lanes' addresses read
 * in place (addr[i] for each lane i of mask; size 1, 2, 4, 8 or 16): what
 * the profiler calls, so that a request's 256 bytes of addresses are not
 * copied into a ws_warp_access. */
void ws_prof_coalesce_counted_at(ws_coal_result *out, uint32_t mask, uint32_t size,
                                 const uint64_t *addr, ws_coal_rule rule, uint32_t sectors,
                                 uint32_t lines);

/* The distinct 32-byte sectors and 128-byte lines of one request ----------*/

/* Scratch of ws_prof_sectors: a set of 128-byte lines and the sectors seen
 * of each, an entry valid when its gen is the set's (a request starts a
 * new generation, so the set is never cleared between requests).  Zeroed
 * before its first use (calloc); one per thread. */
typedef struct ws_sector_set {
  struct {
    uint64_t line; /* byte address >> 7 */
    uint32_t gen;  /* the request that filled it */
    uint32_t mask; /* its sectors seen (bit i: sector i of 4) */
  } e[256];        /* open addressing; at most 128 lines of a request */
  uint32_t gen;    /* the current request's */
} ws_sector_set;

/* The distinct 32-byte sectors the lanes in `exec` touch when each reads or
 * writes `bytes` (>= 1) from addr[lane]: the first 128 in lane order (the
 * first byte's sector of each lane, then its next ones) into sec, their
 * number returned (more than 128 needs lanes of more than 96 bytes), and
 * the distinct 128-byte lines of those sectors in *lines.  A whole warp at
 * contiguous addresses is listed from its ends; a whole warp (or more
 * than 12 active lanes) of lanes in one sector each by its runs
 * (stretches of lanes in one sector: listed as they are when they never
 * fall, a second half-warp in the first's sectors dropped, a few
 * deduplicated by compares, more through a table on the stack); other
 * requests in one pass while their sectors only grow, then, when they
 * fall, through that table (lanes in one sector each) or through t.  sec
 * and addr must not overlap. */
uint32_t ws_prof_sectors(ws_sector_set *t, uint32_t exec, const uint64_t *addr, uint32_t bytes,
                         uint64_t *sec, uint32_t *lines);

/* Shared memory ----------------------------------------------------------*/

typedef struct ws_bank_config {
  int banks;          /* 16 (CC 1.x) or 32 */
  int bank_bytes;     /* 4, or 8 in Kepler's 64-bit mode */
  int half_warp;      /* 1: requests are served per half-warp (CC 1.x) */
} ws_bank_config;

ws_bank_config ws_prof_bank_config_for(int cc_major, int cc_minor);

typedef struct ws_bank_result {
  uint32_t passes;    /* shared-memory passes the request takes */
  uint32_t min_passes;/* passes without conflicts (1; 2 or 4 for wide accesses) */
  uint32_t degree;    /* conflict degree: the most distinct words one bank serves in a pass */
} ws_bank_result;

/* Bank conflicts of one shared-memory request.  Lanes that touch the same
 * word do not conflict (broadcast for loads; one write wins for stores). */
void ws_prof_bank_conflicts(ws_bank_result *out, const ws_warp_access *a,
                       const ws_bank_config *cfg);
/* The same for the request given by its parts (as ws_prof_coalesce_counted_at). */
void ws_prof_bank_conflicts_at(ws_bank_result *out, uint32_t mask, uint32_t size,
                               const uint64_t *addr, const ws_bank_config *cfg);

/* Caches -----------------------------------------------------------------*/

/* Entries of a cache's table of recently found lines (ws_cache.recent). */
enum { WS_CACHE_RECENT = 512 };

/* Four ways of a set in one 64-byte host cache line (aligned): their
 * tags (line address + 1), LRU stamps (the clock at their last use) and
 * filled sectors' bit masks, so that a lookup in a set of up to four
 * filled ways touches one host line, and each further four ways one more.
 * The written sectors' masks, read on writes and evictions alone, follow a
 * set's groups (ws_cache_dirty). */
typedef struct ws_cache_group {
  uint64_t tag[4];   /* line address + 1 */
  uint32_t stamp[4]; /* clock at the last use */
  uint32_t valid[4]; /* filled sectors (bit i: sector i) */
} ws_cache_group;

/* A set-associative cache with LRU replacement and sectored lines.  Each
 * access names one sector; a hit needs the line present and that sector
 * filled.  Sets are chosen by a hash of the line address
 * (ws_prof_cache_set), never by line mod sets.  Owned by the caller:
 * ws_prof_cache_init / ws_prof_cache_free. */
typedef struct ws_cache {
  uint32_t sets;        /* number of sets */
  uint32_t ways;        /* associativity */
  uint32_t line_bytes;  /* line size (power of two) */
  uint32_t sector_bytes;/* sector size (power of two, <= line) */
  ws_cache_group *grp;  /* sets x stride groups, 64-byte aligned: way w of
                           set s is entry w % 4 of grp[s x stride + w / 4];
                           then the set's written sectors' masks, one
                           uint32_t per way (ws_cache_dirty).  Entries of
                           ways at or past the set's fill are undefined
                           (but for the tags in the group of the last
                           filled way: 0, so that a lookup reads no
                           undefined memory) */
  void *grp_mem;        /* the allocation grp lies in */
  uint32_t groups;      /* groups of one set's ways: ceil(ways / 4) */
  uint32_t stride;      /* groups of one set: its ways' and its dirty
                           masks' (ceil(ways / 16)) */
  uint32_t *fill;       /* per set: its filled ways.  A line only ever
                           replaces another (nothing is invalidated), and a
                           miss fills the first empty way, so the filled
                           ways are always ways 0 .. fill - 1: a lookup
                           searches those alone, and a miss in a set not yet
                           full takes way `fill` without a search (the same
                           way the LRU search would pick) */
  uint32_t *rank;       /* ways entries: the renumbering's scratch */
  uint32_t clock;       /* access counter: each access's stamp is a new
                           value; before it would wrap, every set's stamps
                           are renumbered by rank (the order within a set
                           is all the LRU choice reads) */
  uint64_t hits;        /* sector hits */
  uint64_t misses;      /* sector misses */
  uint64_t writebacks;  /* dirty sectors written back on eviction */
  uint64_t evicted_line;/* the last access's evicted line (byte address of
                           its first byte), valid when evicted_dirty != 0 */
  uint32_t evicted_dirty;/* its dirty sectors (bit i: sector i), 0 when the
                           last access evicted no dirty line */
  uint32_t line_shift;  /* log2(line_bytes) */
  uint32_t sector_shift;/* log2(sector_bytes) */
  uint64_t ndirty;      /* dirty sectors in the cache (the sum of dirty's bits) */
  uint64_t sets_magic;  /* floor((2^64 - 1) / sets): x div and mod sets by a
                           multiplication (ws_prof_cache_set) */
  uint64_t memo_q;      /* a q = line div sets and h(q) mod sets for it
                           (ws_prof_cache_set; 0 and h(0) = 0 at first),
                           kept by ws_prof_cache_access_n */
  uint64_t memo_hq;
  uint64_t last_line;   /* the line of the last access, present at way
                           last_way of set last_set */
  uint32_t last_set;    /* UINT32_MAX: none; so that the next access to the
                           same line skips the search of its set */
  uint32_t last_way;
  /* Where lines were last found by a search or filled by a miss,
   * direct-mapped by the line's low bits: a lookup whose entry names its
   * line and whose way there still holds it (the tag compared; a filled
   * way stays filled) skips the set's index and search.  A hint only: an
   * entry whose way holds another line now (evicted since) is searched
   * for as before. */
  struct {
    uint64_t tag;       /* the line's tag (line address + 1); 0: none */
    uint32_t group;     /* its way's group: grp[group], set x stride + way / 4 */
    uint32_t way;
  } recent[WS_CACHE_RECENT];
} ws_cache;

/* Way w of set s (w < fill[s] for defined entries). */
static inline ws_cache_group *ws_cache_group_of(const ws_cache *c, uint32_t s, uint32_t w) {
  return c->grp + (size_t)s * c->stride + w / 4;
}
/* Set s's written sectors' masks, way by way. */
static inline uint32_t *ws_cache_dirty(const ws_cache *c, uint32_t s) {
  return (uint32_t *)(c->grp + (size_t)s * c->stride + c->groups);
}

/* The splitmix64 finaliser (Steele, Lea and Flood, OOPSLA 2014): a
 * bijection of 64-bit words whose every output bit depends on every input
 * bit; mix(0) = 0. */
static inline uint64_t ws_cache_mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* x div sets (*q) and x mod sets (returned) by a multiplication: the high
 * half of x times floor((2^64 - 1) / sets) is at most 2 below the
 * quotient, so at most two corrections follow. */
static inline uint64_t ws_cache_divmod_sets(const ws_cache *c, uint64_t x, uint64_t *q) {
  uint64_t d = (uint64_t)(((unsigned __int128)x * c->sets_magic) >> 64);
  uint64_t r = x - d * c->sets;
  while (r >= c->sets) r -= c->sets, d++;
  *q = d;
  return r;
}

/* The stamps of every set renumbered 1, 2, ... in their order (they are
 * distinct: each access takes a new clock value) and the clock set past
 * the largest: every LRU choice after is the one unbounded stamps would
 * make.  Done before the clock would wrap. */
void ws_prof_cache_renumber(ws_cache *c);

/* The most accesses of one ws_cache_access_run. */
enum { WS_CACHE_RUN_MAX = 1 << 16 };

/* A dirty line an access evicted: its first byte's address and its dirty
 * sectors (bit i: sector i; 0: the access evicted none). */
typedef struct ws_cache_evict {
  uint64_t line;  /* byte address of its first byte (when dirty != 0) */
  uint32_t dirty; /* its dirty sectors */
} ws_cache_evict;

/* The ways of group e whose tag is t (bit i: way i of the group). */
static inline uint32_t ws_cache_group_match(const ws_cache_group *e, uint64_t t) {
  return (uint32_t)(e->tag[0] == t) | (uint32_t)(e->tag[1] == t) << 1 |
         (uint32_t)(e->tag[2] == t) << 2 | (uint32_t)(e->tag[3] == t) << 3;
}

/* Four 32-bit lanes (GCC's and Clang's vector extension: SSE2 on
 * baseline x86-64). */
typedef uint32_t ws_cache_v4u __attribute__((vector_size(16)));

/* The least recently used way of a full set of `ways` ways whose groups
 * start at g: the lowest stamp, the lowest way among equals (a set's
 * stamps are distinct: each access takes a new clock value).  Where the
 * ways fill whole groups (16, every database GPU's), each of a group's
 * four places keeps the lowest stamp it has seen over the groups and its
 * way, in one vector of four lanes, and the four are compared at the end:
 * about 80 x86 instructions for 16 ways, where the scan one way at a time
 * took about 190 (callgrind). */
static inline uint32_t ws_cache_lru_way(const ws_cache_group *g, uint32_t ways) {
  if (ways % 4 == 0) {
    const ws_cache_v4u four = {4, 4, 4, 4};
    ws_cache_v4u lo, at = {0, 1, 2, 3}, way = at;
    memcpy(&lo, g->stamp, sizeof lo);
    for (uint32_t i = 1; i < ways / 4; i++) {
      ws_cache_v4u t;
      memcpy(&t, g[i].stamp, sizeof t);
      way += four;
      const ws_cache_v4u less = (ws_cache_v4u)(t < lo); /* all ones where less */
      lo = (t & less) | (lo & ~less);
      at = (way & less) | (at & ~less);
    }
    uint32_t v = at[0], m = lo[0];
    for (uint32_t j = 1; j < 4; j++)
      if (lo[j] < m || (lo[j] == m && at[j] < v)) v = at[j], m = lo[j];
    return v;
  }
  uint32_t v = 0;
  for (uint32_t u = 1; u < ways; u++)
    if (g[u / 4].stamp[u % 4] < g[v / 4].stamp[v % 4]) v = u;
  return v;
}

/* ws_prof_cache_access_n for n <= WS_CACHE_RUN_MAX, inline so that the
 * replay (replay.c) and ws_prof_cache_access_n have one copy per kind of
 * access (allocate and write constant), each keeping only what its kind
 * needs in registers.  A plain lookup's work, less: the cache's
 * fields are read once a call; the next access to the last line (the
 * other sectors of a line a request touches) skips the hash and the
 * search, and reads the line's sector mask from a register, not back
 * from the store just made; h(q) is kept while q (line div sets) stays;
 * a set is searched four ways (one host line) at a time; the sector's
 * hit and the counts are computed without branches, since in a gather
 * they go either way at random and a mispredicted branch costs more than
 * the work.  What is left to branch on is whether the line is present.
 * hit (k-th access's result) and evicted may be NULL; when missed is not
 * NULL, the addresses of the accesses that missed go there in order, and
 * their number is returned (0 otherwise). */
static inline __attribute__((always_inline)) uint32_t ws_cache_access_run_shifts(
    ws_cache *c, const uint64_t *addr, uint32_t n, const int allocate, const int write, uint8_t *hit,
    ws_cache_evict *evicted, uint64_t *missed, const unsigned lsh, const unsigned ssh) {
  c->evicted_dirty = 0;
  if (!n) return 0;
  if (!c->sets) {
    c->misses += n;
    for (uint32_t k = 0; k < n; k++) {
      if (hit) hit[k] = 0;
      if (evicted) evicted[k].dirty = 0;
      if (missed) missed[k] = addr[k];
    }
    return n;
  }
  if (c->clock > UINT32_MAX - n) ws_prof_cache_renumber(c); /* this call's stamps must not wrap */
  /* the cache's fields in locals: stores through the entries' pointers
   * could otherwise alias them */
  const uint32_t ways = c->ways, stride = c->stride, sets = c->sets;
  const uint64_t lmask = ((uint64_t)1 << lsh) - 1;
  const size_t groups = c->groups;
  ws_cache_group *const grp = c->grp;
  uint32_t *const fill = c->fill;
  /* misses: the accesses less the hits, at the end (one counter fewer in
   * the loop's registers) */
  uint64_t hits = c->hits, ndirty = c->ndirty;
  const uint64_t hits0 = hits;
  const uint32_t s0 = c->last_set;
  uint32_t clock = c->clock, w = c->last_way;
  /* the last line's group index in grp (s x stride + w / 4; UINT32_MAX:
   * none), kept in the loop in place of the set, which is worked out from it at
   * the end: a line found by the table is known by its group alone */
  uint32_t lg = s0 == UINT32_MAX ? UINT32_MAX : s0 * stride + w / 4;
  /* the last access's line pl (UINT64_MAX: none; no line is, lines having
   * 2 bytes or more), present at way w of set s0, and its valid mask cv */
  uint64_t pl = s0 == UINT32_MAX ? UINT64_MAX : c->last_line;
  /* and its group pe, its index pj there, its dirty mask pd (write) */
  ws_cache_group *pe = s0 == UINT32_MAX ? NULL : ws_cache_group_of(c, s0, w);
  uint32_t pj = w % 4, *pd = s0 == UINT32_MAX ? NULL : ws_cache_dirty(c, s0) + w;
  uint32_t cv = s0 == UINT32_MAX ? 0 : pe->valid[pj];
  uint64_t ev_line = 0;
  uint32_t ev_dirty = 0, nmissed = 0;
  /* Two loops: the inner one takes accesses while their line is the last
   * one or one the recent table finds (the common case: nothing but the
   * present line's bookkeeping), so that GCC keeps its few values in
   * registers and spills the set's (the index, the search, the miss)
   * around it; the outer one takes the access the inner one stopped at
   * through its set: a line found there becomes the last line, and the
   * inner loop takes the access again; a miss is taken there.  The
   * inner loop's exits are marked unlikely, so that GCC's allocation
   * favours it (without them, before the memo was kept in the cache:
   * spmv_csr's hooks +0.9 % against one loop, the access's pointer, the
   * clock and the miss count on the stack).  The
   * last access's eviction is the one of ev_at, when that is the last. */
  const uint64_t *p = addr, *const pend = addr + n;
  const uint64_t *ev_at = NULL; /* the access that evicted ev_dirty */
  for (;;) {
    for (; p != pend; p++) {
      const uint64_t a = *p, line = a >> lsh;
      const uint32_t bit = 1u << (uint32_t)((a & lmask) >> ssh);
      if (line != pl) {
        /* a line found lately: its way, if it still holds it */
        const uint32_t ri = (uint32_t)line & (WS_CACHE_RECENT - 1);
        if (__builtin_expect(c->recent[ri].tag != line + 1, 0)) break;
        const uint32_t rg = c->recent[ri].group, rw = c->recent[ri].way;
        ws_cache_group *const re = grp + rg;
        if (__builtin_expect(re->tag[rw % 4] != line + 1, 0)) break;
        lg = rg, w = rw;
        pl = line, pe = re, pj = rw % 4, pd = (uint32_t *)(re - rw / 4 + groups) + rw;
        cv = pe->valid[pj];
      }
      /* present: the line pl at way pj of group pe, its valid mask cv */
      const size_t k = (size_t)(p - addr);
      clock++;
      if (evicted) evicted[k].dirty = 0;
      const uint32_t v = cv, h = (v & bit) != 0;
      cv = allocate ? v | bit : v;
      pe->stamp[pj] = clock;
      if (!missed) hits += h; /* else a sector not yet filled of a present line: a miss */
      if (hit) hit[k] = (uint8_t)h;
      if (missed) missed[nmissed] = a, nmissed += h ^ 1;
      if (allocate) pe->valid[pj] = v | bit;
      if (write) {
        const uint32_t mark = allocate ? bit : bit & (0u - h);
        ndirty += (mark & ~*pd) != 0;
        *pd |= mark;
      }
    }
    if (p == pend) break;
    /* access k through its set */
    const size_t k = (size_t)(p - addr);
    const uint64_t a = *p, line = a >> lsh;
    const uint32_t bit = 1u << (uint32_t)((a & lmask) >> ssh);
    const uint32_t ri = (uint32_t)line & (WS_CACHE_RECENT - 1);
    /* set_of_line, with h(q) mod sets kept while q (line div sets) stays;
     * the memo read and written in the cache, not kept in locals: GCC
     * stored the two as one vector at the end and kept it live through
     * the loop, two instructions and a register per access */
    uint64_t q, r = ws_cache_divmod_sets(c, line, &q);
    if (q != c->memo_q) {
      uint64_t h;
      c->memo_q = q;
      c->memo_hq = ws_cache_divmod_sets(c, ws_cache_mix64(q), &h);
    }
    r += c->memo_hq;
    const uint32_t s = (uint32_t)(r >= sets ? r - sets : r);
    ws_cache_group *g = grp + (size_t)s * stride;
    const uint32_t filled = fill[s], ng = (filled + 3) / 4;
    if (!filled) {
      /* an empty set (the common miss of a short launch): way 0 filled
       * without the search and the victim's choice, as below */
      clock++;
      if (evicted) evicted[k].dirty = 0;
      if (hit) hit[k] = 0;
      if (missed) missed[nmissed++] = a;
      p++;
      if (!allocate) {
        lg = UINT32_MAX, pl = UINT64_MAX;
        continue;
      }
      uint32_t *const d0 = (uint32_t *)(g + groups);
      fill[s] = 1;
      g->tag[0] = line + 1, g->tag[1] = g->tag[2] = g->tag[3] = 0;
      g->stamp[0] = clock, g->valid[0] = bit;
      *d0 = write ? bit : 0;
      ndirty += write != 0;
      cv = bit, w = 0, lg = (uint32_t)(g - grp);
      pl = line, pe = g, pj = 0, pd = d0;
      c->recent[ri].tag = line + 1, c->recent[ri].group = lg, c->recent[ri].way = 0;
      continue;
    }
    w = filled; /* not found */
    /* four ways at a time: the lowest match of the filled ways is the line
     * (one past them, in the last group, reads as a miss) */
    for (uint32_t i = 0; i < ng; i++) {
      uint32_t m = ws_cache_group_match(g + i, line + 1);
      if (m) {
        w = 4 * i + (uint32_t)__builtin_ctz(m);
        break;
      }
    }
    uint32_t *const dirty = (uint32_t *)(g + groups);
    if (w < filled) {
      /* found: the last line now; the inner loop takes the access */
      pl = line, pe = g + w / 4, pj = w % 4, pd = dirty + w, lg = (uint32_t)(pe - grp);
      cv = pe->valid[pj];
      c->recent[ri].tag = line + 1, c->recent[ri].group = lg, c->recent[ri].way = w;
      continue;
    }
    /* a miss: the first empty way, else the least recently used */
    clock++;
    if (evicted) evicted[k].dirty = 0;
    const uint32_t victim = filled == ways ? ws_cache_lru_way(g, ways) : filled;
    if (hit) hit[k] = 0;
    if (missed) missed[nmissed++] = a;
    if (!allocate) {
      lg = UINT32_MAX, pl = UINT64_MAX; /* the line is not in the cache */
      p++;
      continue;
    }
    uint32_t *d = dirty + victim;
    ws_cache_group *e = g + victim / 4;
    if (victim != filled && *d) {
      c->writebacks += ws_popc32(*d);
      ndirty -= ws_popc32(*d);
      ev_line = (e->tag[victim % 4] - 1) << lsh, ev_dirty = *d, ev_at = p;
      if (evicted) evicted[k].line = ev_line, evicted[k].dirty = ev_dirty;
    }
    if (victim == filled) {
      fill[s] = filled + 1;
      if (victim % 4 == 0) /* a group's first way: the others' tags defined */
        e->tag[1] = e->tag[2] = e->tag[3] = 0;
    }
    e->tag[victim % 4] = line + 1;
    e->stamp[victim % 4] = clock;
    e->valid[victim % 4] = bit;
    cv = bit;
    *d = write ? bit : 0;
    ndirty += write != 0;
    w = victim, lg = (uint32_t)(e - grp);
    pl = line, pe = e, pj = victim % 4, pd = d;
    /* a line just filled is the likeliest to be found next */
    c->recent[ri].tag = line + 1, c->recent[ri].group = lg, c->recent[ri].way = w;
    p++;
  }
  if (ev_at != pend - 1) ev_dirty = 0; /* the last access evicted nothing */
  if (missed) hits = hits0 + (n - nmissed); /* the hits are the accesses not listed */
  c->clock = clock, c->hits = hits, c->misses += n - (hits - hits0), c->ndirty = ndirty;
  /* what the one-by-one access leaves: the last line and where it is, the
   * last access's eviction */
  c->last_line = addr[n - 1] >> lsh, c->last_way = w;
  c->last_set = lg == UINT32_MAX ? UINT32_MAX : lg / stride;
  c->evicted_line = ev_line, c->evicted_dirty = ev_dirty;
  return nmissed;
}

/* The run for lines of 128 bytes in sectors of 32 (every cache of the
 * database's GPUs since Volta) with the shifts constant, so that the
 * loop keeps neither them nor the line's mask in registers (spilled
 * otherwise: the loop's other values fill them); any other geometry
 * with its shifts read from the cache. */
static inline __attribute__((always_inline)) uint32_t ws_cache_access_run(
    ws_cache *c, const uint64_t *addr, uint32_t n, const int allocate, const int write, uint8_t *hit,
    ws_cache_evict *evicted, uint64_t *missed) {
  if (c->line_shift == 7 && c->sector_shift == 5)
    return ws_cache_access_run_shifts(c, addr, n, allocate, write, hit, evicted, missed, 7, 5);
  return ws_cache_access_run_shifts(c, addr, n, allocate, write, hit, evicted, missed,
                                    c->line_shift, c->sector_shift);
}

/* size_bytes = sets x ways x line_bytes (line_bytes and sector_bytes
 * powers of two, 2 <= line_bytes, sector_bytes <= line_bytes <= 32
 * sectors); returns 0, or -1 on bad geometry or ENOMEM.  A cache of size
 * 0 is valid and misses always. */
int ws_prof_cache_init(ws_cache *c, uint64_t size_bytes, uint32_t ways,
                  uint32_t line_bytes, uint32_t sector_bytes);
void ws_prof_cache_free(ws_cache *c);
/* Forget where lines were last found (the last line, the recent-lines
 * table): what a cache whose ways are replaced wholesale (replay.c's
 * copy_lines) must do, since those places are trusted from the tags of
 * ways that may no longer be filled.  ws_prof_cache_init starts so. */
void ws_prof_cache_forget_places(ws_cache *c);
/* Access the sector holding byte address `addr`; returns 1 on a hit.  On a
 * miss the sector is filled (allocate = 1) or not (allocate = 0). */
int ws_prof_cache_access(ws_cache *c, uint64_t addr, int allocate);
/* Same, for a write-back cache: write = 1 marks the sector dirty when it is
 * (or becomes) present; evicting a line adds its dirty sectors to
 * c->writebacks.  A write that neither hits nor allocates leaves no trace
 * (write-through no-allocate). */
int ws_prof_cache_access_rw(ws_cache *c, uint64_t addr, int allocate, int write);
/* The set of byte address `addr`: with L = addr / line_bytes and S sets,
 * (L mod S + h(L div S)) mod S, h a 64-bit mixing hash (the splitmix64
 * finaliser) with h(0) = 0.  Each aligned run of S consecutive lines fills
 * every set once (a rotation), so a contiguous working set spreads evenly
 * (any run of n lines puts at most ceil(n / S) + 1 in a set); runs S lines
 * apart are rotated by unrelated amounts, so power-of-two pitches do not
 * pile into a few sets as they do under L mod S (docs/profile.md, "Caches").
 * Deterministic; works for any S (slices x sets need not be a power of two). */
uint32_t ws_prof_cache_set(const ws_cache *c, uint64_t addr);
/* The n accesses of byte addresses addr[0 .. n) in order, each as
 * ws_prof_cache_access_rw(c, addr[k], allocate, write) defines it (the
 * same hits, fills, LRU order, evictions, counts and final state as n
 * single accesses; that function is this one with n = 1): hit[k] the
 * k-th's result; evicted[k] (when not NULL) the dirty line it evicted.
 * Faster than one by one for a request's sectors (ws_cache_access_run).
 * tests/unit/test_memsim.c checks it against an LRU written in the test. */
void ws_prof_cache_access_n(ws_cache *c, const uint64_t *addr, uint32_t n, int allocate, int write,
                            uint8_t *hit, ws_cache_evict *evicted);
/* Dirty sectors still in the cache (what a flush at the end would write). */
uint64_t ws_prof_cache_dirty_sectors(const ws_cache *c);

#ifdef __cplusplus
}
#endif
#endif
