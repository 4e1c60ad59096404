/*
 * replay.c — the profiler's interleaved cache replay (replay.h; the order
 * and why: docs/profile.md, "Caches").
 *
 * A slot's record is the block's warps' traces as the profiler recorded
 * them (lists of chunks, no request straddling two; shared with the other
 * replays it is given to).  Each SM keeps its resident blocks (at most blocks_per_sm) and
 * their warps that still have requests, in admission order; `rr` is the
 * warp whose turn is next.  A round gives each SM, in index order, one
 * step: admit blocks while there is room (stop the whole replay if the next
 * block's record has not arrived: resuming re-runs the same step, so the
 * result never depends on arrival order), then issue one request of the
 * warp whose turn it is.  A block retires when its last warp has issued
 * its last request, and its record is released.
 */
#include "replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/bits.h"
#include "util/vec.h"

/* Sectors one batch of a request takes through the caches at once (a
 * request has at most 128: memsim.h, ws_prof_sectors). */
enum { WS_RP_BATCH = 128 };

typedef struct rp_slot {
  ws_rp_record *rec; /* the record (NULL: none, or released once retired) */
  uint8_t done;     /* handed over (or given up at the end) */
} rp_slot;

typedef struct rp_warp {
  uint64_t slot;    /* its block's slot */
  const ws_rp_chunk *c; /* the chunk of its next request (never empty) */
  uint32_t pos;     /* its first entry in c */
  uint32_t res;     /* index of its block in the SM's res[] */
} rp_warp;

typedef struct rp_res {
  uint64_t slot;      /* resident block's slot (UINT64_MAX: free entry) */
  uint32_t warps_left;/* its warps that still have requests */
} rp_res;

typedef struct rp_sm {
  uint64_t next;      /* next slot this SM admits (slots sm, sm + S, ...) */
  rp_res *res;        /* blocks_per_sm entries, free ones marked */
  uint32_t nres;      /* resident blocks (used entries of res) */
  rp_warp *w;         /* resident warps with requests left, admission order */
  size_t nw, capw;
  size_t rr;          /* index in w of the warp whose turn is next */
} rp_sm;

/* DRAM traffic of one region (or of none: the last entry). */
typedef struct rp_region {
  uint64_t base, end;   /* byte range [base, end) */
  uint64_t sectors;     /* S: sectors overlapping it */
  uint64_t reads;       /* R: sectors read from DRAM */
  uint64_t reads_distinct;  /* U: distinct sectors read */
  uint64_t writes;      /* sectors written back */
  uint64_t writes_distinct; /* distinct sectors written back */
  uint64_t touched_distinct; /* distinct sectors read or written back */
  double span_sum;      /* sum over (block, touching it) of the block's span
                           in it (last - first touched byte + 1) */
  uint64_t span_blocks; /* blocks that touched it */
  uint64_t lo, hi;      /* the current block's first and last byte (lo > hi: none) */
} rp_region;

/* The sectors seen at DRAM: per sector one entry, its address | 16 (so no
 * entry is 0) | 1 once read | 2 once written back; open addressing. */
typedef struct rp_set {
  uint64_t *v;
  size_t n, cap;        /* used, slots (a power of two or 0) */
} rp_set;

/* How chunk_digit_sum sums a chunk's base-2^b digits (replay's partitions). */
typedef struct digit_sum {
  unsigned b;     /* digit bits */
  uint64_t mask;  /* the low b bits of each 2b-bit field */
  uint64_t mul;   /* 1 at the start of each field */
  unsigned top;   /* the last field's first bit */
} digit_sum;

/* The digit sum of ws_prof_rp_partition: chunk c's base-2^b digits
 * summed.  For b >= 4, without a loop over the digits: the digits in pairs
 * (d0 + d1, d2 + d3, ...) in fields of 2b bits, then the fields summed by
 * one multiplication into the top field.  No sum overflows a field: c has
 * at most ceil(64 / b) digits, and ceil(64 / b) (2^b - 1) < 2^(2b) for
 * b >= 4 (a pair's sum needs b + 1 bits).  Below 4 bits and above 16
 * (fields wider than 32 bits; the database's GPUs have at most 4,096
 * partitions: 12 bits), digit by digit (mul 0). */
static digit_sum digit_sum_for(unsigned b) {
  digit_sum d = {b, 0, 0, 0};
  if (b < 4 || b > 16) return d;
  for (unsigned at = 0; at < 64; at += 2 * b) {
    d.mask |= ((1ull << b) - 1) << at;
    d.mul |= 1ull << at;
    d.top = at;
  }
  return d;
}

static inline uint32_t chunk_digit_sum(uint64_t c, const digit_sum *d) {
  if (d->mul) {
    const uint64_t pairs = (c & d->mask) + ((c >> d->b) & d->mask);
    return (uint32_t)((uint64_t)(((unsigned __int128)pairs * d->mul) >> d->top) &
                      ((1ull << 2 * d->b) - 1));
  }
  uint64_t sum = 0;
  for (; c; c >>= d->b) sum += c & ((1ull << d->b) - 1); /* b up to 32 */
  return (uint32_t)sum;
}

struct ws_replay {
  const ws_gpu *g;      /* borrowed */
  int track;            /* a sample: estimate the grid per region */
  int count;            /* attribute DRAM traffic to regions and count the
                           distinct sectors (a sample, or a warm start) */
  uint64_t count_cap;   /* a full replay's warm start: distinct sectors
                           beyond which counting stops (the L2's) */
  uint64_t shared_per_sm; /* carve-out of a unified L1 (ws_rp_config) */
  uint64_t grid_blocks; /* blocks of the whole launch */
  rp_region *reg;       /* nreg regions + one for traffic outside them */
  size_t nreg;
  rp_set seen;          /* sectors read / written back so far */
  uint64_t nslots;      /* profiled blocks */
  rp_slot *slots;       /* per slot */
  rp_sm *sm;            /* per SM used */
  uint32_t cur;         /* SM whose step comes next in the current round */
  int l1_global;        /* L1 caches global loads */
  uint32_t l1_fetch;    /* L2 sectors one L1 miss fetches: 1, or the
                           L2 sectors of the L1's fetch unit where that is
                           larger (a line-fetching L1: 4 on Fermi) */
  int l1_lines;         /* L1 lookups and hits counted per line of a
                           request (a line-fetching L1 that caches global
                           loads: Fermi's; line_lookups) */
  ws_cache *l1;         /* per SM */
  ws_cache *ro;         /* per SM: the read-only cache (NULL: none) */
  ws_cache l2;          /* shared (a sample: its share, for data not spread) */
  ws_cache l2g;         /* a sample: the whole L2, for regions its blocks
                           spread over (empty otherwise) */
  ws_rp_stats cs;       /* what was counted */
  uint32_t *pcnt;       /* per partition: the current window's DRAM sectors */
  uint32_t pn;          /* the current window's DRAM sectors */
  uint32_t pchunk;      /* sectors per interleave chunk (set once) */
  uint32_t pwindow;     /* DRAM sectors per window (set once) */
  unsigned pshift;      /* log2 of the interleave when a power of two, else 0 */
  digit_sum pdigits;    /* the digits' sum (ws_prof_rp_partition) */
  uint64_t plast;       /* the last DRAM sector's interleave chunk (UINT64_MAX:
                           none yet; no chunk is, the interleave being >= 32) */
  uint32_t plast_part;  /* its partition */
};

struct ws_rp_slab {
  struct ws_rp_slab *next;
  ws_rp_chunk c[WS_RP_SLAB];
};

/* A chunk from the pool (a new slab's when it has none), or of its own
 * allocation without one; NULL when out of memory. */
static ws_rp_chunk *chunk_new(ws_rp_pool *pool) {
  ws_rp_chunk *c;
  if (!pool) {
    c = malloc(sizeof *c);
    if (!c) return NULL;
    c->own = 1;
  } else {
    if (!pool->head) {
      struct ws_rp_slab *sl = malloc(sizeof *sl);
      if (!sl) return NULL;
      sl->next = pool->slabs;
      pool->slabs = sl;
      for (int i = WS_RP_SLAB - 1; i >= 0; i--) {
        sl->c[i].next = pool->head;
        sl->c[i].own = 0;
        pool->head = &sl->c[i];
      }
      pool->n += WS_RP_SLAB;
    }
    c = pool->head;
    pool->head = c->next;
    pool->n--;
  }
  c->next = NULL;
  c->n = 0;
  return c;
}

static void chunks_to_pool(ws_rp_chunk *c, ws_rp_pool *pool) {
  while (c) {
    ws_rp_chunk *next = c->next;
    if (c->own) {
      free(c);
    } else if (pool) {
      c->next = pool->head;
      pool->head = c;
      pool->n++;
    }
    c = next;
  }
}

uint64_t *ws_prof_rp_trace_grow(ws_rp_trace *t, uint32_t k, ws_rp_pool *pool) {
  if (t->tail && t->tail->n + k <= WS_RP_CHUNK) return t->tail->v + t->tail->n;
  ws_rp_chunk *c = k <= WS_RP_CHUNK ? chunk_new(pool) : NULL;
  if (!c) {
    t->short_of_memory = 1;
    return NULL;
  }
  if (t->tail) t->tail->next = c;
  else t->head = c;
  t->tail = c;
  return c->v;
}

void ws_prof_rp_trace_push(ws_rp_trace *t, uint64_t v) {
  ws_rp_chunk *last = t->tail;
  uint64_t *o = ws_prof_rp_trace_room(t, 1, NULL);
  if (!o) return;
  ws_rp_chunk *c = t->tail;
  if (last && c != last && !(v & WS_RP_FIRST)) {
    /* The request this entry continues moves to the new chunk with it. */
    uint32_t j = last->n; /* its first entry, when it is not the chunk's first */
    while (j > 0 && !(last->v[j - 1] & WS_RP_FIRST)) j--;
    if (j > 1) {
      j--;
      memcpy(c->v, last->v + j, (last->n - j) * sizeof *c->v);
      c->n = last->n - j;
      last->n = j;
      o = c->v + c->n;
    }
  }
  *o = v;
  c->n++;
}

void ws_prof_rp_trace_clear(ws_rp_trace *t, ws_rp_pool *pool) {
  chunks_to_pool(t->head, pool);
  t->head = t->tail = NULL;
  t->short_of_memory = 0;
}

void ws_prof_rp_trace_free(ws_rp_trace *t) { ws_prof_rp_trace_clear(t, NULL); }

void ws_prof_rp_pool_move(ws_rp_pool *dst, ws_rp_pool *src, size_t most) {
  for (; most && src->head; most--) {
    ws_rp_chunk *c = src->head;
    src->head = c->next;
    src->n--;
    c->next = dst->head;
    dst->head = c;
    dst->n++;
  }
}

void ws_prof_rp_pool_free(ws_rp_pool *pool) {
  while (pool->slabs) {
    struct ws_rp_slab *next = pool->slabs->next;
    free(pool->slabs);
    pool->slabs = next;
  }
  pool->head = NULL;
  pool->n = 0;
}

ws_rp_record *ws_prof_rp_record_take(ws_rp_trace *warps, uint32_t nwarps, ws_rp_pool *pool) {
  ws_rp_record *rec = nwarps <= 32 ? malloc(sizeof *rec) : NULL;
  if (!rec) {
    for (uint32_t w = 0; w < nwarps; w++) ws_prof_rp_trace_clear(&warps[w], pool);
    return NULL;
  }
  rec->refs = 1;
  rec->nwarps = nwarps;
  rec->lost = 0;
  rec->pool = pool;
  for (uint32_t w = 0; w < nwarps; w++) {
    rec->w[w] = warps[w].head;
    rec->lost |= warps[w].short_of_memory;
    warps[w] = (ws_rp_trace){0};
  }
  return rec;
}

void ws_prof_rp_record_release(ws_rp_record *rec) {
  if (!rec || --rec->refs) return;
  for (uint32_t w = 0; w < rec->nwarps; w++) chunks_to_pool(rec->w[w], rec->pool);
  free(rec);
}

/* Round a cache size down to whole sets of ways x line bytes. */
static uint64_t cache_fit(uint64_t size, uint32_t ways, uint32_t line) {
  uint64_t set = (uint64_t)ways * line;
  return set ? size / set * set : 0;
}

uint32_t ws_prof_rp_blocks_per_sm(const ws_gpu *g, uint64_t threads_per_block, double regs,
                             double shared_bytes) {
  ws_occupancy_in in = {
      .threads_per_block = threads_per_block > 0x7fffffff ? 0x7fffffff : (int)threads_per_block,
      .regs_per_thread = regs >= 0 && regs < 1e6 ? (int)regs : 0,
      .shared_bytes_per_block = shared_bytes >= 0 && shared_bytes < 1e9 ? (int)shared_bytes : 0};
  ws_occupancy occ;
  ws_diag d = WS_DIAG_INIT;
  int r = ws_gpu_occupancy_compute(&occ, &g->limits, g->warp_size > 0 ? g->warp_size : 32, &in, &d);
  ws_diag_free(&d);
  /* A block the calculator says cannot run has run in the emulator: one. */
  return r || occ.active_blocks_per_sm < 1 ? 1 : (uint32_t)occ.active_blocks_per_sm;
}

/* Ways where the GPU gives none (a user's file the loader derived nothing
 * for): 16, the database's assumption (docs/gpu-parameters.md, "GPU
 * facts"), the profile's caches.defaults says so. */
enum { DEFAULT_WAYS = 16 };

/* Whether the GPU's fact `id` is an assumption (derived, an estimate) or
 * absent: the profile states it. */
static int assumed(const ws_gpu *g, int id, int value) {
  return !(value > 0) || (g->facts[id].origin == WS_GFO_DERIVED && g->facts[id].estimate);
}

/* The caches and their facts (defaults: DEFAULT_WAYS, 128-byte lines,
 * 32-byte sectors, as docs/profile.md states). */
static int caches_init(ws_replay *r, const ws_rp_config *rc) {
  ws_rp_stats *cs = &r->cs;
  const ws_cache_facts *cf = &r->g->cache;
  cs->sector = cf->l2_sector_bytes > 0 ? (uint32_t)cf->l2_sector_bytes : 32;
  cs->l1_line = cf->l1_line_bytes > 0 ? (uint32_t)cf->l1_line_bytes : 128;
  cs->l1_assumed = assumed(r->g, WS_GF_L1_ASSOC, cf->l1_assoc);
  cs->l1_ways = cf->l1_assoc > 0 ? (uint32_t)cf->l1_assoc : DEFAULT_WAYS;
  cs->l2_line = cf->l2_line_bytes > 0 ? (uint32_t)cf->l2_line_bytes : 128;
  cs->l2_assumed = assumed(r->g, WS_GF_L2_ASSOC, cf->l2_assoc);
  cs->l2_ways = cf->l2_assoc > 0 ? (uint32_t)cf->l2_assoc : DEFAULT_WAYS;
  cs->l1_full = (uint32_t)cache_fit((uint64_t)(cf->l1_bytes > 0 ? cf->l1_bytes : 0), cs->l1_ways,
                                    cs->l1_line);
  /* A unified L1 less the shared-memory carve-out of the resident blocks
   * (ws_gpu_l1_bytes_for_shared: the compute capability's carve-outs) */
  uint64_t l1 = cs->l1_full;
  if (cf->l1_caches_global && rc->shared_per_sm) {
    int left = ws_gpu_l1_bytes_for_shared(r->g, (long long)rc->shared_per_sm);
    if (left >= 0 && (uint64_t)left < l1) l1 = (uint64_t)left;
  }
  cs->l1_bytes = (uint32_t)cache_fit(l1, cs->l1_ways, cs->l1_line);
  cs->l2_bytes = (uint32_t)cache_fit((uint64_t)(cf->l2_bytes > 0 ? cf->l2_bytes : 0), cs->l2_ways,
                                     cs->l2_line);
  cs->have_l1 = cs->l1_bytes > 0;
  cs->have_l2 = cs->l2_bytes > 0;
  r->l1_global = cs->have_l1 && cf->l1_caches_global;
  /* The read-only path: where L1 does not cache global loads, ld.global.nc
   * goes through the read-only (texture) cache when the GPU has one. */
  if (!cf->l1_caches_global && cf->readonly_bytes > 0) {
    cs->ro_assumed = 1;
    cs->ro_ways = DEFAULT_WAYS;
    cs->ro_bytes = (uint32_t)cache_fit((uint64_t)cf->readonly_bytes, cs->ro_ways, cs->l1_line);
    cs->have_ro = cs->ro_bytes > 0;
  }
  r->l1 = calloc(cs->nsm, sizeof *r->l1);
  if (!r->l1) return -1;
  if (cs->have_ro && !(r->ro = calloc(cs->nsm, sizeof *r->ro))) return -1;
  /* A sample's blocks keep their own data in their share of the L2: the
   * blocks resident at once in the sample over those of the full launch
   * (every SM holding blocks_per_sm), so that their working sets meet the
   * pressure they meet in the full run.  Regions the blocks spread over
   * (shared globally) go through a whole L2 of their own: the estimate
   * models their reuse (ws_prof_rp_estimate_grid). */
  uint64_t l2_mine = cs->l2_bytes;
  if (r->track && cs->have_l2) {
    double sms = r->g->sms > 0 ? r->g->sms : 1;
    double full = sms * cs->blocks_per_sm, mine = (double)cs->nsm * cs->blocks_per_sm;
    if (full > (double)r->grid_blocks) full = (double)r->grid_blocks;
    if (mine > (double)r->nslots) mine = (double)r->nslots;
    if (mine < full) {
      uint64_t set = (uint64_t)cs->l2_ways * cs->l2_line;
      l2_mine = cache_fit((uint64_t)((double)cs->l2_bytes * mine / full), cs->l2_ways, cs->l2_line);
      if (l2_mine < set) l2_mine = set;
    }
    if (ws_prof_cache_init(&r->l2g, cs->l2_bytes, cs->l2_ways, cs->l2_line, cs->sector)) return -1;
  }
  if (ws_prof_cache_init(&r->l2, l2_mine, cs->l2_ways, cs->l2_line, cs->sector)) return -1;
  /* what an L1 miss fetches: a 32-byte sector (Maxwell on), the whole
   * 128-byte line (Fermi, Kepler): cache.l1_sector_bytes */
  uint32_t sec1 = cf->l1_sector_bytes > 0 ? (uint32_t)cf->l1_sector_bytes : cs->sector;
  if (sec1 > cs->l1_line || cs->l1_line / sec1 > 32) sec1 = cs->l1_line;
  /* and what it asks of the L2: every L2 sector of that unit.  An L1
   * without sectors smaller than its 128-byte line (Fermi's; Kepler's,
   * which caches local loads only) fetches the whole line: "L1
   * transactions are 128 bytes, and L2 ... transactions are 32 bytes ...
   * each thread will incur one 128-byte L1 transaction and four 32-byte L2
   * transactions" (Nsight VSE, Memory Statistics - Caches); CUDA C
   * Programming Guide, Compute Capability 2.x, Global Memory: accesses
   * cached in L1 and L2 are serviced with 128-byte transactions, those
   * cached in L2 only with 32-byte ones.  A sectored L1 (Maxwell on: 32-byte
   * sectors, the L2's) fetches the missed sector alone (l1_fetch 1). */
  r->l1_fetch = 1;
  if (sec1 > cs->sector && sec1 % cs->sector == 0 && sec1 / cs->sector <= 32)
    r->l1_fetch = sec1 / cs->sector;
  r->l1_lines = r->l1_fetch > 1 && r->l1_global;
  for (uint32_t s = 0; s < cs->nsm; s++) {
    if (ws_prof_cache_init(&r->l1[s], cs->l1_bytes, cs->l1_ways, cs->l1_line, sec1)) return -1;
    if (r->ro && ws_prof_cache_init(&r->ro[s], cs->ro_bytes, cs->ro_ways, cs->l1_line, cs->sector))
      return -1;
  }
  return 0;
}

/* The lines of src (same geometry) into dst, clean: each set's filled
 * ways (the others are undefined) with their dirty masks cleared (the
 * launch that wrote them counted them), and the LRU clock; dst forgets
 * where it found lines before (correct for a cache used before, not only
 * a fresh one). */
static void copy_lines(ws_cache *dst, const ws_cache *src) {
  for (uint32_t s = 0; s < src->sets; s++) {
    uint32_t f = dst->fill[s] = src->fill[s];
    if (!f) continue;
    memcpy(ws_cache_group_of(dst, s, 0), ws_cache_group_of(src, s, 0),
           (f + 3) / 4 * sizeof *src->grp);
    memset(ws_cache_dirty(dst, s), 0, f * sizeof(uint32_t));
  }
  dst->clock = src->clock;
  ws_prof_cache_forget_places(dst); /* its last line and recent table named its old ways */
}

/* Start from the L2 the previous launch left: a full replay of the same
 * geometry takes it over; otherwise the start is cold, and the stats say
 * the carried state was refused. */
static int l2_carry(ws_replay *r, const ws_cache *prev) {
  ws_cache *c = &r->l2;
  if (r->track || !prev || prev->sets != c->sets || prev->ways != c->ways ||
      prev->line_bytes != c->line_bytes || prev->sector_bytes != c->sector_bytes) {
    r->cs.l2_carry_refused = 1;
    return 0;
  }
  copy_lines(c, prev);
  return 0;
}

int ws_prof_rp_l2_end(ws_cache *out, const ws_replay *r) {
  const ws_cache *c = &r->l2;
  if (ws_prof_cache_init(out, (uint64_t)c->sets * c->ways * c->line_bytes, c->ways ? c->ways : 1,
                         c->line_bytes ? c->line_bytes : 128,
                         c->sector_bytes ? c->sector_bytes : 32))
    return -1;
  copy_lines(out, c);
  return 0;
}

ws_replay *ws_prof_rp_new(const ws_gpu *g, const ws_rp_config *rc) {
  ws_replay *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  uint64_t nslots = rc->nslots;
  r->g = g;
  r->grid_blocks = rc->grid_blocks;
  r->track = rc->track;
  r->count = rc->track || rc->l2_start == WS_PROF_L2_WARM;
  r->cs.l2_start = rc->l2_start;
  r->nreg = r->count ? rc->nregions : 0;
  r->reg = calloc(r->nreg + 1, sizeof *r->reg);
  if (!r->reg) goto fail;
  for (size_t i = 0; i < r->nreg; i++) {
    const ws_rp_region *x = &rc->regions[i];
    r->reg[i].base = x->base;
    r->reg[i].end = x->base + x->bytes;
    r->reg[i].sectors = x->bytes ? ((r->reg[i].end - 1) / 32 - x->base / 32 + 1) : 0;
  }
  r->nslots = nslots;
  uint64_t sms = g->sms > 0 ? (uint64_t)g->sms : 1;
  r->cs.nsm = (uint32_t)(nslots < sms ? (nslots ? nslots : 1) : sms);
  r->cs.blocks_per_sm = rc->blocks_per_sm ? rc->blocks_per_sm : 1;
  if (g->dram.partitions > 0 && g->dram.interleave_bytes > 0) {
    r->cs.partitions = (uint32_t)g->dram.partitions;
    r->cs.interleave = (uint32_t)g->dram.interleave_bytes;
    r->pcnt = calloc(r->cs.partitions, sizeof *r->pcnt);
    if (!r->pcnt) goto fail;
  }
  r->slots = calloc(nslots + 1, sizeof *r->slots);
  r->sm = calloc(r->cs.nsm, sizeof *r->sm);
  if (!r->slots || !r->sm || caches_init(r, rc)) goto fail;
  if (rc->l2_start == WS_PROF_L2_CARRIED && l2_carry(r, rc->l2_carried)) goto fail;
  /* A full replay counts a warm start's footprint only up to the L2's
   * sectors: past them the previous launch's data is gone anyway. */
  if (r->count && !r->track) r->count_cap = (uint64_t)r->cs.l2_bytes / r->cs.sector + 1;
  if (r->pcnt) { /* cs.sector is known now */
    r->pchunk = r->cs.interleave / r->cs.sector ? r->cs.interleave / r->cs.sector : 1;
    r->pwindow = WS_RP_WINDOW_CHUNKS * r->cs.partitions * r->pchunk;
    r->pshift = ws_is_pow2_u64(r->cs.interleave) ? ws_log2_u64(r->cs.interleave) : 0;
    r->pdigits = digit_sum_for(r->cs.partitions > 1 ? ws_log2_u64(r->cs.partitions - 1) + 1 : 1);
    r->plast = UINT64_MAX;
  }
  for (uint32_t s = 0; s < r->cs.nsm; s++) {
    r->sm[s].next = s;
    r->sm[s].res = malloc(r->cs.blocks_per_sm * sizeof *r->sm[s].res);
    if (!r->sm[s].res) goto fail;
    for (uint32_t i = 0; i < r->cs.blocks_per_sm; i++) r->sm[s].res[i].slot = UINT64_MAX;
  }
  return r;
fail:
  ws_prof_rp_free(r);
  return NULL;
}

void ws_prof_rp_free(ws_replay *r) {
  if (!r) return;
  for (uint64_t i = 0; r->slots && i < r->nslots; i++) ws_prof_rp_record_release(r->slots[i].rec);
  for (uint32_t s = 0; r->sm && s < r->cs.nsm; s++) {
    free(r->sm[s].res);
    free(r->sm[s].w);
  }
  for (uint32_t s = 0; r->l1 && s < r->cs.nsm; s++) ws_prof_cache_free(&r->l1[s]);
  for (uint32_t s = 0; r->ro && s < r->cs.nsm; s++) ws_prof_cache_free(&r->ro[s]);
  free(r->l1);
  free(r->ro);
  ws_prof_cache_free(&r->l2);
  ws_prof_cache_free(&r->l2g);
  free(r->slots);
  free(r->sm);
  free(r->reg);
  free(r->seen.v);
  free(r->pcnt);
  free(r);
}

/* Mark sector `sec` read (flag 1) or written back (flag 2); returns the
 * flags it had before (0: a new sector).  Out of memory the sector counts
 * as new (the estimate then leans to the replay's own figures) and the
 * loss is noted. */
static unsigned set_mark(ws_replay *r, uint64_t sec, unsigned flag) {
  rp_set *t = &r->seen;
  if (2 * (t->n + 1) > t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    uint64_t *nv = calloc(cap, sizeof *nv);
    if (!nv) {
      r->cs.lost_records = 1;
      return 0;
    }
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->v[i]) continue;
      size_t j = (size_t)((t->v[i] >> 5) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
      while (nv[j]) j = (j + 1) & (cap - 1);
      nv[j] = t->v[i];
    }
    free(t->v);
    t->v = nv;
    t->cap = cap;
  }
  size_t j = (size_t)((sec >> 5) * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);
  while (t->v[j]) {
    if ((t->v[j] & ~(uint64_t)WS_RP_FLAGS) == sec) {
      unsigned had = (unsigned)(t->v[j] & 3);
      t->v[j] |= flag;
      return had | 4;
    }
    j = (j + 1) & (t->cap - 1);
  }
  t->v[j] = sec | 16 | flag;
  t->n++;
  return 0;
}

/* The region holding byte address a (the last entry when none does). */
static rp_region *region_of(ws_replay *r, uint64_t a) {
  size_t lo = 0, hi = r->nreg;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->reg[mid].end <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->nreg && r->reg[lo].base <= a ? &r->reg[lo] : &r->reg[r->nreg];
}

/* Whether the blocks admitted so far spread over region g (each spans half
 * of it or more, on average): the rule of ws_prof_rp_estimate_grid. */
static int spread(const ws_replay *r, const rp_region *g) {
  if (g == &r->reg[r->nreg] || !g->span_blocks) return 0;
  return g->span_sum / (double)g->span_blocks >= 0.5 * (double)(g->end - g->base);
}

/* A sector read from DRAM, or written back to it; g its region
 * (region_of), NULL: not found yet. */
static void note_dram(ws_replay *r, rp_region *g, uint64_t sec, int write) {
  if (!r->count) return;
  if (!g) g = region_of(r, sec);
  unsigned flag = write ? 2 : 1, had = set_mark(r, sec, flag);
  if (write) g->writes++, g->writes_distinct += !(had & flag);
  else g->reads++, g->reads_distinct += !(had & flag);
  g->touched_distinct += !had;
  /* A full replay's warm start: once the footprint passes the L2, the
   * previous launch's data is gone; stop counting (the set is freed). */
  if (r->count_cap && r->seen.n >= r->count_cap) {
    r->count = 0;
    r->cs.footprint_over = 1;
    free(r->seen.v);
    memset(&r->seen, 0, sizeof r->seen);
  }
}

/* The dirty sectors of an evicted (or flushed) L2 line. */
static void note_writeback(ws_replay *r, uint64_t line, uint32_t dirty) {
  for (uint32_t i = 0; dirty; i++, dirty >>= 1)
    if (dirty & 1) note_dram(r, NULL, line + (uint64_t)i * r->cs.sector, 1);
}

const ws_rp_stats *ws_prof_rp_stats_of(const ws_replay *r) { return &r->cs; }

uint32_t ws_prof_rp_partition(uint64_t addr, uint32_t partitions, uint32_t interleave) {
  if (partitions <= 1 || !interleave) return 0;
  unsigned b = ws_log2_u64(partitions - 1) + 1; /* the smallest 2^b >= partitions */
  /* a shift where the interleave is a power of two (every database GPU's):
   * a division per DRAM sector was a visible part of the replay */
  const digit_sum ds = digit_sum_for(b);
  return chunk_digit_sum(ws_is_pow2_u64(interleave) ? addr >> ws_log2_u64(interleave) : addr / interleave,
                         &ds) % partitions;
}

double ws_prof_rp_request_imbalance(const uint32_t *counts, uint32_t partitions, uint32_t n, uint32_t g) {
  if (!n || !partitions) return 1;
  uint32_t mx = 0;
  for (uint32_t p = 0; p < partitions; p++)
    if (counts[p] > mx) mx = counts[p];
  /* a contiguous run of n sectors: min(n, g) in its first chunk's
   * partition, and never fewer than n / P anywhere */
  double ideal = n < g ? n : g, even = ceil((double)n / partitions);
  if (even > ideal) ideal = even;
  double v = mx / ideal;
  return v > 1 ? v : 1;
}

/* The current window's imbalance into the totals. */
static void end_window(ws_replay *r) {
  if (!r->pcnt || !r->pn) return;
  r->cs.part_weighted += r->pn * ws_prof_rp_request_imbalance(r->pcnt, r->cs.partitions, r->pn, r->pchunk);
  r->cs.part_sectors += r->pn;
  memset(r->pcnt, 0, r->cs.partitions * sizeof *r->pcnt);
  r->pn = 0;
}

/* The interleave chunk of byte address a. */
static inline uint64_t chunk_of(const ws_replay *r, uint64_t a) {
  return r->pshift ? a >> r->pshift : a / r->cs.interleave;
}

/* Sectors sent to DRAM (read misses, or store or atomic sectors missing
 * the L2, which are written back later), in order: each counted in the
 * current window; a full window's imbalance goes into the totals.  A run
 * of sectors of one interleave chunk (a coalesced request's sectors share
 * one: 8 of 256 bytes) finds its partition once (ws_prof_rp_partition,
 * the last chunk's memoised) and is counted at once, split where a window
 * fills, so the windows are those of one sector at a time. */
static inline void note_partitions(ws_replay *r, const uint64_t *sec, uint32_t n) {
  if (!r->pcnt) return;
  for (uint32_t i = 0; i < n;) {
    const uint64_t c = chunk_of(r, sec[i]);
    if (c != r->plast) {
      r->plast = c;
      r->plast_part = r->cs.partitions > 1 ? chunk_digit_sum(c, &r->pdigits) % r->cs.partitions : 0;
    }
    uint32_t run = 1;
    while (i + run < n && chunk_of(r, sec[i + run]) == c) run++;
    i += run;
    while (run) { /* pn < pwindow: room for one at least */
      const uint32_t room = r->pwindow - r->pn, take = run < room ? run : room;
      r->pcnt[r->plast_part] += take;
      r->pn += take;
      run -= take;
      if (r->pn >= r->pwindow) end_window(r);
    }
  }
}

/* What an L2 access of sector `sec` leads to: a miss goes to DRAM (a
 * load's or an atomic's read now; a store's sector is written back
 * later), and a dirty line it evicted is written back. */
static inline void l2_notes(ws_replay *r, rp_region *g, uint64_t sec, int hit,
                            const ws_cache_evict *ev, int write, int atomic) {
  if (hit) {
    r->cs.l2_hit++;
  } else {
    if (!write || atomic) {
      r->cs.dram_read_sectors++;
      note_dram(r, g, sec, 0);
    }
    note_partitions(r, &sec, 1);
  }
  if (ev->dirty) note_writeback(r, ev->line, ev->dirty);
}

/* The L2 part of a request: the sectors `miss` (nmiss <= WS_RP_BATCH, in
 * the request's order) that missed the first level or bypass it. */
static inline __attribute__((always_inline)) void l2_request(ws_replay *r, const uint64_t *miss,
                                                             uint32_t nmiss, const int write,
                                                             const int atomic) {
  ws_rp_stats *cs = &r->cs;
  uint8_t hit[WS_RP_BATCH];
  ws_cache_evict ev[WS_RP_BATCH];
  cs->l2_access += nmiss;
  if (!r->track && !r->count) {
    /* nothing attributed to regions (note_dram does nothing): the L2's
     * run lists its misses, which go to DRAM in order */
    uint64_t dram[WS_RP_BATCH];
    const uint32_t nd = write ? ws_cache_access_run(&r->l2, miss, nmiss, 1, 1, NULL, NULL, dram)
                              : ws_cache_access_run(&r->l2, miss, nmiss, 1, 0, NULL, NULL, dram);
    cs->l2_hit += nmiss - nd;
    if (!write || atomic) cs->dram_read_sectors += nd;
    note_partitions(r, dram, nd);
    return;
  }
  if (!r->track) {
    if (write) ws_cache_access_run(&r->l2, miss, nmiss, 1, 1, hit, ev, NULL);
    else ws_cache_access_run(&r->l2, miss, nmiss, 1, 0, hit, ev, NULL);
    for (uint32_t k = 0; k < nmiss; k++) l2_notes(r, NULL, miss[k], hit[k], &ev[k], write, atomic);
    return;
  }
  /* A sample: the whole L2 (regions the blocks spread over) or its share,
   * by the sector's region, found once per sector.  Each of the two takes
   * its sectors of the request in one run, in order: they are separate
   * state, so each sees what one sector at a time would give it.  The
   * notes follow in the request's order. */
  rp_region *where[WS_RP_BATCH];
  uint64_t whole[WS_RP_BATCH], share[WS_RP_BATCH];
  uint8_t to_whole[WS_RP_BATCH], hit_whole[WS_RP_BATCH];
  ws_cache_evict ev_whole[WS_RP_BATCH];
  uint32_t nw = 0, ns = 0;
  for (uint32_t k = 0; k < nmiss; k++) {
    where[k] = region_of(r, miss[k]);
    to_whole[k] = (uint8_t)spread(r, where[k]);
    if (to_whole[k]) whole[nw++] = miss[k];
    else share[ns++] = miss[k];
  }
  if (ns) ws_prof_cache_access_n(&r->l2, share, ns, 1, write, hit, ev);
  if (nw) ws_prof_cache_access_n(&r->l2g, whole, nw, 1, write, hit_whole, ev_whole);
  for (uint32_t k = 0, iw = 0, is = 0; k < nmiss; k++) {
    if (to_whole[k]) l2_notes(r, where[k], miss[k], hit_whole[iw], &ev_whole[iw], write, atomic), iw++;
    else l2_notes(r, where[k], miss[k], hit[is], &ev[is], write, atomic), is++;
  }
}

/* The L1 part of a request on an L1 whose sector is its whole line and
 * which caches global loads (Fermi): the sectors looked up in order as
 * elsewhere (the same hits, fills and LRU order; a line's first sector
 * misses and fills it, the others hit), but lookups and hits counted once
 * per distinct line of the request, by its first sector, as nvprof's
 * l1_global_load_hit / _miss count cache lines per request (a coalesced
 * 4-byte read: one line, one lookup): a stream's hit ratio is 0, not the
 * 0.75 of per-sector counts (docs/profile.md, "Caches").  Returns the
 * sectors that missed, listed in missv. */
static uint32_t line_lookups(ws_replay *r, ws_cache *c, const uint64_t *sec, uint32_t n,
                             uint64_t *missv) {
  uint8_t hit[WS_RP_BATCH];
  const uint32_t nmiss = ws_cache_access_run(c, sec, n, 1, 0, hit, NULL, missv);
  const unsigned sh = c->line_shift;
  uint64_t lines = 0, lhits = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t j = 0;
    while (j < k && sec[j] >> sh != sec[k] >> sh) j++;
    if (j < k) continue; /* a later sector of a line already counted */
    lines++;
    lhits += hit[k];
  }
  r->cs.l1_access += lines;
  r->cs.l1_hit += lhits;
  return nmiss;
}

/* One request's entries from rec[0] (at most `avail`; one warp
 * instruction: the same flags on each; it ends before the next entry
 * marked WS_RP_FIRST), WS_RP_BATCH at most, through the caches of SM si;
 * returns the entries taken.  Loads go through the read-only cache or L1
 * (not those marked WS_RP_L1_BYPASS: the L2 serves them), stores through L1 (write-through, no allocate: a present sector is
 * updated), then where they miss (stores and atomics always) the L2
 * (write-back, write-allocate; an atomic reads the sector first; a load
 * that misses a line-fetching L1 asks for every sector of the line).  The
 * caches are separate state: each is given its accesses of the request in
 * one batch (ws_cache_access_run), in the request's order, so it sees the
 * sequence the sector-by-sector order gives it; the DRAM notes follow in
 * that order. */
WS_CLONES_V3
static uint32_t request(ws_replay *r, uint32_t si, const uint64_t *rec, size_t avail) {
  ws_rp_stats *cs = &r->cs;
  const uint64_t e = rec[0];
  const int write = (e & WS_RP_WRITE) != 0, atomic = (e & WS_RP_ATOMIC) != 0;
  uint64_t sec[WS_RP_BATCH], missv[WS_RP_BATCH];
  const uint32_t most = avail < WS_RP_BATCH ? (uint32_t)avail : WS_RP_BATCH;
  uint32_t n = 1;
  sec[0] = e & ~(uint64_t)WS_RP_FLAGS;
  /* four entries at a time while none starts the next request, then one
   * at a time */
  while (n + 4 <= most && !((rec[n] | rec[n + 1] | rec[n + 2] | rec[n + 3]) & WS_RP_FIRST)) {
    for (uint32_t k = 0; k < 4; k++) sec[n + k] = rec[n + k] & ~(uint64_t)WS_RP_FLAGS;
    n += 4;
  }
  for (; n < most && !(rec[n] & WS_RP_FIRST); n++) sec[n] = rec[n] & ~(uint64_t)WS_RP_FLAGS;
  if (!write || atomic) cs->load_sectors += n;
  /* the first level: the read-only cache or L1 for loads */
  ws_cache *c1 = NULL;
  uint64_t *hits = NULL;
  int per_line = 0; /* L1 lookups and hits counted per line (line_lookups) */
  if (!write && (e & WS_RP_NC) && r->ro) {
    c1 = &r->ro[si], hits = &cs->ro_hit;
    cs->ro_access += n;
  } else if (!write && cs->have_l1 && (r->l1_global || (e & WS_RP_LOCAL)) && !(e & WS_RP_L1_BYPASS)) {
    c1 = &r->l1[si], hits = &cs->l1_hit;
    per_line = r->l1_lines;
    if (!per_line) cs->l1_access += n;
  }
  const uint64_t *miss = sec;
  uint32_t nmiss = n;
  if (per_line) {
    nmiss = line_lookups(r, c1, sec, n, missv);
    miss = missv;
  } else if (c1) {
    nmiss = ws_cache_access_run(c1, sec, n, 1, 0, NULL, NULL, missv);
    *hits += n - nmiss;
    miss = missv;
  } else if (write && !atomic && cs->have_l1) {
    ws_cache_access_run(&r->l1[si], sec, n, 0, 0, NULL, NULL, NULL);
  }
  if (!nmiss) return n;
  if (c1 == &r->l1[si] && r->l1_fetch > 1) {
    /* a line-fetching L1 (caches_init): each miss asks the L2 for its
     * whole fetch unit, sector by sector in address order, a batch at a
     * time (the L2 sees the sequence one at a time would give it) */
    const uint32_t k = r->l1_fetch;
    const uint64_t unit = (uint64_t)k * cs->sector;
    uint64_t fetch[WS_RP_BATCH];
    uint32_t m = 0;
    for (uint32_t i = 0; i < nmiss; i++) {
      if (m + k > WS_RP_BATCH) l2_request(r, fetch, m, 0, 0), m = 0;
      const uint64_t base = miss[i] & ~(unit - 1);
      for (uint32_t j = 0; j < k; j++) fetch[m++] = base + (uint64_t)j * cs->sector;
    }
    l2_request(r, fetch, m, 0, 0);
    return n;
  }
  l2_request(r, miss, nmiss, write, atomic);
  return n;
}

/* Each region's span in one block (its record): from its first to its
 * last touched sector.  Counted when the block is admitted, so the
 * running means do not depend on the order records arrive in. */
static void note_spans(ws_replay *r, const ws_rp_record *rec) {
  for (size_t i = 0; i < r->nreg; i++) r->reg[i].lo = UINT64_MAX, r->reg[i].hi = 0;
  for (uint32_t w = 0; w < rec->nwarps; w++)
    for (const ws_rp_chunk *c = rec->w[w]; c; c = c->next)
      for (uint32_t i = 0; i < c->n; i++) {
        uint64_t sec = c->v[i] & ~(uint64_t)WS_RP_FLAGS;
        rp_region *g = region_of(r, sec);
        if (g == &r->reg[r->nreg]) continue;
        if (sec < g->lo) g->lo = sec;
        if (sec > g->hi) g->hi = sec;
      }
  for (size_t i = 0; i < r->nreg; i++)
    if (r->reg[i].lo <= r->reg[i].hi) {
      r->reg[i].span_sum += (double)(r->reg[i].hi - r->reg[i].lo + 32);
      r->reg[i].span_blocks++;
    }
}

/* The first non-empty chunk from c on (NULL: none). */
static const ws_rp_chunk *nonempty(const ws_rp_chunk *c) {
  while (c && !c->n) c = c->next;
  return c;
}

/* Admit slot `slot` on SM m (which has a free res entry): its warps with
 * requests join the rotation; a block without requests retires at once.
 * Out of memory, a warp is dropped and the loss recorded. */
static void admit(ws_replay *r, rp_sm *m, uint64_t slot) {
  rp_slot *s = &r->slots[slot];
  if (r->track && s->rec) note_spans(r, s->rec);
  uint32_t ri = 0;
  while (m->res[ri].slot != UINT64_MAX) ri++;
  uint32_t left = 0;
  for (uint32_t w = 0; s->rec && w < s->rec->nwarps; w++) {
    const ws_rp_chunk *c = nonempty(s->rec->w[w]);
    if (!c) continue;
    rp_warp x = {slot, c, 0, ri};
    if (WS_VEC_PUSH(m->w, m->nw, m->capw, x)) {
      r->cs.lost_records = 1;
      continue;
    }
    left++;
  }
  if (!left) {
    ws_prof_rp_record_release(s->rec);
    s->rec = NULL;
    return;
  }
  m->res[ri].slot = slot;
  m->res[ri].warps_left = left;
  m->nres++;
}

enum { STEP_RAN, STEP_IDLE, STEP_WAIT };

/* One step of SM `si` (see the file comment). */
static int sm_step(ws_replay *r, uint32_t si) {
  rp_sm *m = &r->sm[si];
  while (m->next < r->nslots && m->nres < r->cs.blocks_per_sm) {
    if (!r->slots[m->next].done) return STEP_WAIT;
    admit(r, m, m->next);
    m->next += r->cs.nsm;
  }
  if (!m->nw) return STEP_IDLE;
  if (m->rr >= m->nw) m->rr = 0;
  rp_warp *w = &m->w[m->rr];
  const uint64_t *rec = w->c->v;
  const uint32_t end = w->c->n;
  uint32_t i = w->pos; /* the request: rec[w->pos .. i), in batches; it
                          ends in its chunk */
  do i += request(r, si, rec + i, end - i);
  while (i < end && !(rec[i] & WS_RP_FIRST));
  r->cs.requests++;
  w->pos = i;
  if (i == end) {
    w->c = nonempty(w->c->next);
    w->pos = 0;
  }
  if (w->c) {
    m->rr++;
    return STEP_RAN;
  }
  /* The warp is done: out of the rotation (the next warp takes its index);
   * its block retires with its last warp. */
  rp_res *res = &m->res[w->res];
  uint64_t slot = w->slot;
  memmove(w, w + 1, (m->nw - m->rr - 1) * sizeof *w);
  m->nw--;
  if (--res->warps_left == 0) {
    res->slot = UINT64_MAX;
    m->nres--;
    ws_prof_rp_record_release(r->slots[slot].rec);
    r->slots[slot].rec = NULL;
  }
  return STEP_RAN;
}

/* Run rounds until a needed record is missing or everything is replayed. */
static void advance(ws_replay *r) {
  for (;;) {
    int ran = 0;
    for (; r->cur < r->cs.nsm; r->cur++) {
      int st = sm_step(r, r->cur);
      if (st == STEP_WAIT) return;
      ran |= st == STEP_RAN;
    }
    r->cur = 0;
    if (!ran) return; /* every SM idle with nothing left to admit */
  }
}

void ws_prof_rp_give(ws_replay *r, uint64_t slot, ws_rp_record *rec) {
  if (slot >= r->nslots || r->slots[slot].done) return;
  rp_slot *s = &r->slots[slot];
  if (rec) rec->refs++;
  s->rec = rec;
  if (!rec || rec->lost) r->cs.lost_records = 1;
  s->done = 1;
  advance(r);
}

void ws_prof_rp_put(ws_replay *r, uint64_t slot, ws_rp_trace *warps, uint32_t nwarps) {
  ws_rp_record *rec = ws_prof_rp_record_take(warps, nwarps, NULL);
  ws_prof_rp_give(r, slot, rec);
  ws_prof_rp_record_release(rec);
}

void ws_prof_rp_finish(ws_replay *r) {
  for (uint64_t i = 0; i < r->nslots; i++) r->slots[i].done = 1;
  advance(r);
  end_window(r);
  if (!r->cs.have_l2) return;
  r->cs.dram_write_sectors = r->l2.writebacks + ws_prof_cache_dirty_sectors(&r->l2) +
                             r->l2g.writebacks + ws_prof_cache_dirty_sectors(&r->l2g);
  /* The flush at the end of the launch. */
  for (int k = 0; r->count && k < 2; k++) {
    const ws_cache *c = k ? &r->l2g : &r->l2;
    for (uint32_t s = 0; c->ndirty && s < c->sets; s++) {
      const uint32_t *dirty = ws_cache_dirty(c, s);
      for (uint32_t w = 0; w < c->fill[s]; w++) {
        uint64_t tag = ws_cache_group_of(c, s, w)->tag[w % 4];
        if (tag && dirty[w]) note_writeback(r, (tag - 1) * c->line_bytes, dirty[w]);
      }
    }
  }
}

/* A region's grid reads (docs/profile.md, "Sampling").  `moved`, `distinct`:
 * the replay's DRAM sectors of the region and the distinct ones; S: its
 * sectors (0: no cap). */
typedef struct rp_guess {
  double own;        /* moved x scale: no reuse between blocks */
  double footprint;  /* min(S, distinct x scale) */
  double remiss;     /* (moved - distinct) x scale: what the blocks re-fetch */
  double lines;      /* L2 lines the footprint occupies */
  int global;        /* shared by blocks spread over the whole region */
} rp_guess;

static rp_guess guess(const ws_replay *r, const rp_region *g, double moved, double distinct,
                      double S, double scale) {
  rp_guess q;
  double spl = (double)r->cs.l2_line / r->cs.sector; /* sectors per line */
  q.own = moved * scale;
  q.footprint = distinct * scale;
  if (S > 0 && q.footprint > S) q.footprint = S;
  q.remiss = (moved - distinct) * scale;
  /* Blocks share it when their footprints add up to more than it has;
   * globally when each block's accesses span most of it (a gathered table,
   * a matrix read by column strips), else with neighbours (a stencil's
   * halo rows), which the L2 holds while the neighbours run. */
  double mean_span = g && g->span_blocks ? g->span_sum / (double)g->span_blocks : 0;
  q.global = S > 0 && distinct * scale > S && mean_span >= 0.5 * S * r->cs.sector;
  double fill = S > 0 ? q.footprint / S : 1;
  q.lines = S > 0 ? S / spl * (1 - pow(1 - fill, spl)) : q.footprint / spl;
  return q;
}

/* Che's approximation of an LRU cache of C lines: the characteristic time
 * T (in launches) at which the global regions' lines (each accessed at its
 * rate, independently) and the other traffic (each line used once, kept T)
 * fill the cache; INFINITY when everything fits. */
static double che_time(const rp_guess *q, size_t n, double other_lines, double C) {
  double hi = 1;
  for (int k = 0; k < 60; k++, hi *= 2) {
    double occ = other_lines * (hi < 1 ? hi : 1);
    for (size_t i = 0; i < n; i++)
      if (q[i].global && q[i].lines > 0) occ += q[i].lines * (1 - exp(-q[i].own / q[i].lines * hi));
    if (occ >= C) break;
  }
  if (hi > 1e15) return INFINITY;
  double lo = 0;
  for (int k = 0; k < 100; k++) {
    double mid = (lo + hi) / 2, occ = other_lines * (mid < 1 ? mid : 1);
    for (size_t i = 0; i < n; i++)
      if (q[i].global && q[i].lines > 0) occ += q[i].lines * (1 - exp(-q[i].own / q[i].lines * mid));
    if (occ < C) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/* Grid sectors written back: the footprint cap alone (written data is
 * rarely shared beyond neighbours). */
static double grid_writes(double moved, double distinct, double S, double scale) {
  double footprint = distinct * scale;
  if (S > 0 && footprint > S) footprint = S;
  double shared = footprint + (moved - distinct) * scale, own = moved * scale;
  return shared < own ? shared : own;
}

/* The grid's DRAM-read sectors: per region, its own reads scaled when
 * blocks do not share it; the footprint plus the blocks' re-fetches when
 * they share it with neighbours; for regions shared globally, the
 * footprint plus the re-references that miss under Che's approximation
 * (hit probability 1 - exp(-rate x T)). */
static double grid_reads(const ws_replay *r, double scale) {
  size_t n = r->nreg + 1;
  rp_guess *q = calloc(n, sizeof *q);
  if (!q) return (double)r->cs.dram_read_sectors * scale;
  double other_lines = 0, spl = (double)r->cs.l2_line / r->cs.sector, rd = 0;
  for (size_t i = 0; i < n; i++) {
    const rp_region *g = &r->reg[i];
    double S = i < r->nreg ? (double)g->sectors : 0; /* outside every region: no cap */
    q[i] = guess(r, i < r->nreg ? g : NULL, (double)g->reads, (double)g->reads_distinct, S, scale);
    double wr = grid_writes((double)g->writes, (double)g->writes_distinct, S, scale);
    if (!q[i].global) {
      double local = q[i].footprint + q[i].remiss;
      q[i].own = local < q[i].own ? local : q[i].own;
      rd += q[i].own;
      other_lines += q[i].own / spl;
    }
    other_lines += wr / spl;
  }
  double C = (double)r->cs.l2_bytes / r->cs.l2_line;
  double T = che_time(q, n, other_lines, C);
  for (size_t i = 0; i < n; i++) {
    if (!q[i].global) continue;
    double F = q[i].footprint, A = q[i].own;
    double hit = isinf(T) ? 1 : 1 - exp(-A / q[i].lines * T);
    double m = F + (A - F) * (1 - hit) + q[i].remiss * hit;
    rd += m < A ? m : A;
  }
  free(q);
  return rd;
}

/* The grid's footprint at the L2 and its compulsory reads, in sectors:
 * per region (and outside them) min(S, distinct x scale). */
static void grid_footprint(const ws_replay *r, double scale, double *touched, double *reads) {
  *touched = *reads = 0;
  for (size_t i = 0; i <= r->nreg; i++) {
    const rp_region *g = &r->reg[i];
    double S = i < r->nreg ? (double)g->sectors : INFINITY;
    double t = (double)g->touched_distinct * scale, rd = (double)g->reads_distinct * scale;
    *touched += t < S ? t : S;
    *reads += rd < S ? rd : S;
  }
}

void ws_prof_rp_estimate_grid(ws_rp_estimate *out, const ws_replay *r, double scale) {
  const ws_rp_stats *cs = &r->cs;
  double sb = cs->sector;
  double rd = (double)cs->dram_read_sectors * scale, wr = (double)cs->dram_write_sectors * scale;
  if (r->track && scale != 1) {
    rd = grid_reads(r, scale);
    wr = 0;
    for (size_t i = 0; i <= r->nreg; i++) {
      const rp_region *g = &r->reg[i];
      double S = i < r->nreg ? (double)g->sectors : 0;
      wr += grid_writes((double)g->writes, (double)g->writes_distinct, S, scale);
    }
  }
  out->footprint_bytes = NAN;
  out->warm_hits = 0;
  if (r->count || cs->footprint_over) {
    double touched, compulsory;
    grid_footprint(r, r->track ? scale : 1, &touched, &compulsory);
    out->footprint_bytes = cs->footprint_over ? NAN : touched * sb;
    /* Warm: the previous identical launch left its data in the L2; when
     * the whole footprint fits, every first read of a sector hits
     * (docs/profile.md, "Cold and warm"). */
    if (cs->l2_start == WS_PROF_L2_WARM && !cs->footprint_over &&
        touched <= (double)cs->l2_bytes / sb) {
      rd = rd > compulsory ? rd - compulsory : 0;
      out->warm_hits = 1;
    }
  }
  out->dram_read_bytes = rd * sb;
  out->dram_write_bytes = wr * sb;
  /* Misses the estimate removes became hits, in the replay's own units
   * (negative when it adds misses the sample's L2 did not see). */
  double removed = (double)cs->dram_read_sectors - rd / scale;
  out->l2_hit_ratio = cs->l2_access ? ((double)cs->l2_hit + removed) / (double)cs->l2_access : NAN;
  if (out->l2_hit_ratio < 0) out->l2_hit_ratio = 0;
  out->miss_ratio = cs->load_sectors ? rd / scale / (double)cs->load_sectors : NAN;
}
