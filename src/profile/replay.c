/*
 * replay.c — the profiler's interleaved cache replay (replay.h; the order
 * and why: docs/profile.md, "Caches").
 *
 * A slot's record is one allocation: nwarps + 1 offsets (warp w's sectors
 * are rec[off[w] .. off[w + 1]), counted from the start), then the
 * sectors.  Each SM keeps its resident blocks (at most blocks_per_sm) and
 * their warps that still have requests, in admission order; `rr` is the
 * warp whose turn is next.  A round gives each SM, in index order, one
 * step: admit blocks while there is room (stop the whole replay if the next
 * block's record has not arrived: resuming re-runs the same step, so the
 * result never depends on arrival order), then issue one request of the
 * warp whose turn it is.  A block retires when its last warp has issued
 * its last request, and its record is freed.
 */
#include "replay.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

typedef struct rp_slot {
  uint64_t *rec;    /* the record (NULL: none, or freed once retired) */
  uint32_t nwarps;  /* warps in the record */
  uint8_t done;     /* handed over (or given up at the end) */
} rp_slot;

typedef struct rp_warp {
  uint64_t slot;    /* its block's slot */
  uint32_t res;     /* index of its block in the SM's res[] */
  size_t pos, end;  /* next and end entry in the block's record */
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

struct ws_replay {
  const ws_gpu *g;      /* borrowed */
  uint64_t nslots;      /* profiled blocks */
  rp_slot *slots;       /* per slot */
  rp_sm *sm;            /* per SM used */
  uint32_t cur;         /* SM whose step comes next in the current round */
  int l1_global;        /* L1 caches global loads */
  ws_cache *l1;         /* per SM */
  ws_cache l2;          /* shared */
  ws_rp_stats cs;       /* what was counted */
};

void ws_rp_trace_push(ws_rp_trace *t, uint64_t v) {
  if (WS_VEC_PUSH(t->v, t->n, t->cap, v)) t->short_of_memory = 1;
}

void ws_rp_trace_free(ws_rp_trace *t) {
  free(t->v);
  memset(t, 0, sizeof *t);
}

/* Round a cache size down to whole sets of ways x line bytes. */
static uint64_t cache_fit(uint64_t size, uint32_t ways, uint32_t line) {
  uint64_t set = (uint64_t)ways * line;
  return set ? size / set * set : 0;
}

uint32_t ws_rp_blocks_per_sm(const ws_gpu *g, uint64_t threads_per_block, double regs,
                             double shared_bytes) {
  ws_occupancy_in in = {
      .threads_per_block = threads_per_block > 0x7fffffff ? 0x7fffffff : (int)threads_per_block,
      .regs_per_thread = regs >= 0 && regs < 1e6 ? (int)regs : 0,
      .shared_bytes_per_block = shared_bytes >= 0 && shared_bytes < 1e9 ? (int)shared_bytes : 0};
  ws_occupancy occ;
  ws_diag d = WS_DIAG_INIT;
  int r = ws_occupancy_compute(&occ, &g->limits, g->warp_size > 0 ? g->warp_size : 32, &in, &d);
  ws_diag_free(&d);
  /* A block the calculator says cannot run has run in the emulator: one. */
  return r || occ.active_blocks_per_sm < 1 ? 1 : (uint32_t)occ.active_blocks_per_sm;
}

/* The caches and their facts (defaults: L1 4 ways, L2 16 ways, 128-byte
 * lines, 32-byte sectors, as docs/profile.md states). */
static int caches_init(ws_replay *r) {
  ws_rp_stats *cs = &r->cs;
  const ws_cache_facts *cf = &r->g->cache;
  cs->sector = cf->l2_sector_bytes > 0 ? (uint32_t)cf->l2_sector_bytes : 32;
  cs->l1_line = cf->l1_line_bytes > 0 ? (uint32_t)cf->l1_line_bytes : 128;
  cs->l1_ways = cf->l1_assoc > 0 ? (uint32_t)cf->l1_assoc : 4;
  cs->l2_line = cf->l2_line_bytes > 0 ? (uint32_t)cf->l2_line_bytes : 128;
  cs->l2_ways = cf->l2_assoc > 0 ? (uint32_t)cf->l2_assoc : 16;
  cs->l1_bytes = (uint32_t)cache_fit((uint64_t)(cf->l1_bytes > 0 ? cf->l1_bytes : 0), cs->l1_ways,
                                     cs->l1_line);
  cs->l2_bytes = (uint32_t)cache_fit((uint64_t)(cf->l2_bytes > 0 ? cf->l2_bytes : 0), cs->l2_ways,
                                     cs->l2_line);
  cs->have_l1 = cs->l1_bytes > 0;
  cs->have_l2 = cs->l2_bytes > 0;
  r->l1_global = cs->have_l1 && cf->l1_caches_global;
  r->l1 = calloc(cs->nsm, sizeof *r->l1);
  if (!r->l1) return -1;
  if (ws_cache_init(&r->l2, cs->l2_bytes, cs->l2_ways, cs->l2_line, cs->sector)) return -1;
  for (uint32_t s = 0; s < cs->nsm; s++)
    if (ws_cache_init(&r->l1[s], cs->l1_bytes, cs->l1_ways, cs->l1_line,
                      cs->sector < cs->l1_line ? cs->sector : cs->l1_line))
      return -1;
  return 0;
}

ws_replay *ws_rp_new(const ws_gpu *g, uint64_t nslots, uint32_t blocks_per_sm) {
  ws_replay *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->g = g;
  r->nslots = nslots;
  uint64_t sms = g->sms > 0 ? (uint64_t)g->sms : 1;
  r->cs.nsm = (uint32_t)(nslots < sms ? (nslots ? nslots : 1) : sms);
  r->cs.blocks_per_sm = blocks_per_sm ? blocks_per_sm : 1;
  r->slots = calloc(nslots + 1, sizeof *r->slots);
  r->sm = calloc(r->cs.nsm, sizeof *r->sm);
  if (!r->slots || !r->sm || caches_init(r)) goto fail;
  for (uint32_t s = 0; s < r->cs.nsm; s++) {
    r->sm[s].next = s;
    r->sm[s].res = malloc(r->cs.blocks_per_sm * sizeof *r->sm[s].res);
    if (!r->sm[s].res) goto fail;
    for (uint32_t i = 0; i < r->cs.blocks_per_sm; i++) r->sm[s].res[i].slot = UINT64_MAX;
  }
  return r;
fail:
  ws_rp_free(r);
  return NULL;
}

void ws_rp_free(ws_replay *r) {
  if (!r) return;
  for (uint64_t i = 0; r->slots && i < r->nslots; i++) free(r->slots[i].rec);
  for (uint32_t s = 0; r->sm && s < r->cs.nsm; s++) {
    free(r->sm[s].res);
    free(r->sm[s].w);
  }
  for (uint32_t s = 0; r->l1 && s < r->cs.nsm; s++) ws_cache_free(&r->l1[s]);
  free(r->l1);
  ws_cache_free(&r->l2);
  free(r->slots);
  free(r->sm);
  free(r);
}

const ws_rp_stats *ws_rp_stats_of(const ws_replay *r) { return &r->cs; }

/* One sector through the caches of SM `sm`. */
static void access_sector(ws_replay *r, ws_cache *c1, uint64_t e) {
  ws_rp_stats *cs = &r->cs;
  uint64_t sec = e & ~(uint64_t)WS_RP_FLAGS;
  int write = (e & WS_RP_WRITE) != 0, atomic = (e & WS_RP_ATOMIC) != 0;
  int local = (e & WS_RP_LOCAL) != 0;
  if (!write || atomic) cs->load_sectors++;
  if (!write) {
    if (cs->have_l1 && (r->l1_global || local)) {
      cs->l1_access++;
      if (ws_cache_access_rw(c1, sec, 1, 0)) {
        cs->l1_hit++;
        return;
      }
    }
    cs->l2_access++;
    if (ws_cache_access_rw(&r->l2, sec, 1, 0)) cs->l2_hit++;
    else cs->dram_read_sectors++;
    return;
  }
  /* L1: write-through, no allocate (a present sector is updated). */
  if (cs->have_l1 && !atomic) ws_cache_access_rw(c1, sec, 0, 0);
  /* L2: write-back, write-allocate; an atomic reads the sector first. */
  cs->l2_access++;
  if (ws_cache_access_rw(&r->l2, sec, 1, 1)) cs->l2_hit++;
  else if (atomic) cs->dram_read_sectors++;
}

/* Admit slot `slot` on SM m (which has a free res entry): its warps with
 * requests join the rotation; a block without requests retires at once.
 * Out of memory, a warp is dropped and the loss recorded. */
static void admit(ws_replay *r, rp_sm *m, uint64_t slot) {
  rp_slot *s = &r->slots[slot];
  uint32_t ri = 0;
  while (m->res[ri].slot != UINT64_MAX) ri++;
  uint32_t left = 0;
  for (uint32_t w = 0; s->rec && w < s->nwarps; w++) {
    size_t a = (size_t)s->rec[w], b = (size_t)s->rec[w + 1];
    if (a == b) continue;
    rp_warp x = {slot, ri, a, b};
    if (WS_VEC_PUSH(m->w, m->nw, m->capw, x)) {
      r->cs.lost_records = 1;
      continue;
    }
    left++;
  }
  if (!left) {
    free(s->rec);
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
  const uint64_t *rec = r->slots[w->slot].rec;
  ws_cache *c1 = &r->l1[si];
  size_t i = w->pos;
  do access_sector(r, c1, rec[i++]);
  while (i < w->end && !(rec[i] & WS_RP_FIRST));
  r->cs.requests++;
  w->pos = i;
  if (i < w->end) {
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
    free(r->slots[slot].rec);
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

void ws_rp_put(ws_replay *r, uint64_t slot, const ws_rp_trace *warps, uint32_t nwarps) {
  if (slot >= r->nslots || r->slots[slot].done) return;
  rp_slot *s = &r->slots[slot];
  size_t total = nwarps + 1;
  for (uint32_t w = 0; w < nwarps; w++) {
    total += warps[w].n;
    if (warps[w].short_of_memory) r->cs.lost_records = 1;
  }
  s->rec = malloc(total * sizeof *s->rec);
  if (s->rec) {
    size_t at = nwarps + 1;
    for (uint32_t w = 0; w < nwarps; w++) {
      s->rec[w] = at;
      if (warps[w].n) memcpy(s->rec + at, warps[w].v, warps[w].n * sizeof *s->rec);
      at += warps[w].n;
    }
    s->rec[nwarps] = at;
    s->nwarps = nwarps;
  } else {
    r->cs.lost_records = 1;
  }
  s->done = 1;
  advance(r);
}

void ws_rp_finish(ws_replay *r) {
  for (uint64_t i = 0; i < r->nslots; i++) r->slots[i].done = 1;
  advance(r);
  if (r->cs.have_l2) r->cs.dram_write_sectors = r->l2.writebacks + ws_cache_dirty_sectors(&r->l2);
}
