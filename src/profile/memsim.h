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

/* Caches -----------------------------------------------------------------*/

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
  uint64_t *mem;        /* sets x set_words: each set's entries together (one
                           set's lookup touches one place, not four arrays):
                           ws_cache_tags, _stamps, _valid, _dirty; those of
                           ways at or past the set's fill are undefined */
  uint32_t set_words;   /* 64-bit words of one set: 3 x ways */
  uint32_t *fill;       /* per set: its filled ways.  A line only ever
                           replaces another (nothing is invalidated), and a
                           miss fills the first empty way, so the filled
                           ways are always ways 0 .. fill - 1: a lookup
                           searches those alone, and a miss in a set not yet
                           full takes way `fill` without a search (the same
                           way the LRU search would pick) */
  uint64_t clock;       /* access counter */
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
  uint64_t last_line;   /* the line of the last access, present at way
                           last_way of set last_set */
  uint32_t last_set;    /* UINT32_MAX: none; so that the next access to the
                           same line skips the search of its set */
  uint32_t last_way;
} ws_cache;

/* Set s's entries, way by way: tags (line address + 1), LRU stamps (last
 * use), filled sectors' and written sectors' bit masks; defined for ways
 * 0 .. fill[s] - 1 alone (the others are empty, their entries not set). */
static inline uint64_t *ws_cache_tags(const ws_cache *c, uint32_t s) {
  return c->mem + (size_t)s * c->set_words;
}
static inline uint64_t *ws_cache_stamps(const ws_cache *c, uint32_t s) {
  return ws_cache_tags(c, s) + c->ways;
}
static inline uint32_t *ws_cache_valid(const ws_cache *c, uint32_t s) {
  return (uint32_t *)(ws_cache_tags(c, s) + 2 * (size_t)c->ways);
}
static inline uint32_t *ws_cache_dirty(const ws_cache *c, uint32_t s) {
  return ws_cache_valid(c, s) + c->ways;
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

/* The set of line `line` (ws_prof_cache_set's definition, without a
 * division). */
static inline uint32_t ws_cache_set_of_line(const ws_cache *c, uint64_t line) {
  uint64_t q, h, r = ws_cache_divmod_sets(c, line, &q);
  r += ws_cache_divmod_sets(c, ws_cache_mix64(q), &h); /* < 2 sets */
  return (uint32_t)(r >= c->sets ? r - c->sets : r);
}

/* ws_prof_cache_access_rw, inline for the replay's loop (replay.c): the
 * cache's fields are read into locals once, since stores through the
 * entries' pointers could otherwise alias them. */
static inline int ws_cache_access(ws_cache *c, uint64_t addr, int allocate, int write) {
  c->evicted_dirty = 0;
  const uint32_t ways = c->ways;
  if (!c->sets) {
    c->misses++;
    return 0;
  }
  /* line and sector sizes are powers of two (ws_prof_cache_init) */
  const uint64_t line = addr >> c->line_shift;
  const uint32_t bit = 1u << (uint32_t)((addr & (c->line_bytes - 1)) >> c->sector_shift);
  const uint64_t clock = ++c->clock;
  uint32_t set, w0 = 0;
  if (c->last_set != UINT32_MAX && c->last_line == line) { /* the last access's line: still there */
    set = c->last_set;
    w0 = c->last_way;
  } else {
    set = ws_cache_set_of_line(c, line);
  }
  uint64_t *tags = c->mem + (size_t)set * c->set_words, *stamp = tags + ways;
  uint32_t *valid = (uint32_t *)(stamp + ways), *dirty = valid + ways;
  const uint32_t filled = c->fill[set];
  for (uint32_t w = w0; w < filled; w++) {
    if (tags[w] != line + 1) continue;
    c->last_line = line;
    c->last_set = set;
    c->last_way = w;
    stamp[w] = clock;
    if (valid[w] & bit) {
      c->hits++;
      if (write) c->ndirty += !(dirty[w] & bit), dirty[w] |= bit;
      return 1;
    }
    c->misses++; /* line present, sector not yet filled */
    if (allocate) {
      valid[w] |= bit;
      if (write) c->ndirty += !(dirty[w] & bit), dirty[w] |= bit;
    }
    return 0;
  }
  /* Miss: fill the first empty way if there is one (`filled`: see fill),
   * else evict the least recently used. */
  uint32_t victim = filled;
  if (filled == ways) {
    victim = 0;
    for (uint32_t w = 1; w < ways; w++)
      if (stamp[w] < stamp[victim]) victim = w;
  }
  c->misses++;
  if (allocate) {
    /* an empty way (victim == filled) has nothing to write back: its
     * entries are not read, so that filling a set the host has not
     * touched yet waits for no load from it */
    if (victim != filled && dirty[victim]) {
      c->writebacks += ws_popc32(dirty[victim]);
      c->ndirty -= ws_popc32(dirty[victim]);
      c->evicted_line = (tags[victim] - 1) * c->line_bytes;
      c->evicted_dirty = dirty[victim];
    }
    if (victim == filled) c->fill[set] = filled + 1;
    tags[victim] = line + 1;
    stamp[victim] = clock;
    valid[victim] = bit;
    dirty[victim] = write ? bit : 0;
    c->ndirty += write != 0;
    c->last_line = line;
    c->last_set = set;
    c->last_way = victim;
  } else {
    c->last_set = UINT32_MAX; /* the line is not in the cache */
  }
  return 0;
}


/* size_bytes = sets x ways x line_bytes; returns 0, or -1 on bad geometry
 * or ENOMEM.  A cache of size 0 is valid and misses always. */
int ws_prof_cache_init(ws_cache *c, uint64_t size_bytes, uint32_t ways,
                  uint32_t line_bytes, uint32_t sector_bytes);
void ws_prof_cache_free(ws_cache *c);
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
/* Dirty sectors still in the cache (what a flush at the end would write). */
uint64_t ws_prof_cache_dirty_sectors(const ws_cache *c);

#ifdef __cplusplus
}
#endif
#endif
