/*
 * test_memsim.c — coalescing, bank conflicts and caches against values
 * derived by hand from each compute capability's rules.
 *
 * The coalescing cases are warp 0's first access of Kothapalli et al.'s
 * coalescing kernel (HiPC'09, Appendix B.1):
 *   idx(t) = (t / STRIDE) * n_per * STRIDE + ((t + OFFSET) % STRIDE)
 * with n_per = 256 elements per thread and 4-byte floats at a 256-byte
 * aligned base.  Lanes form 32/STRIDE groups of STRIDE consecutive words;
 * groups lie n_per * STRIDE * 4 >= 1024 bytes apart, so no two groups share
 * a segment, line or sector.  A group of STRIDE words spans 4 * STRIDE bytes,
 * aligned to that size.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "profile/memsim.h"

static ws_warp_access kothapalli(int stride, int offset) {
  ws_warp_access a = {0xffffffffu, 4, {0}};
  const uint64_t base = 0x10000000, n_per = 256;
  for (int t = 0; t < 32; t++) {
    uint64_t idx = (uint64_t)(t / stride) * n_per * (uint64_t)stride + (uint64_t)((t + offset) % stride);
    a.addr[t] = base + 4 * idx;
  }
  return a;
}

static const int strides[6] = {1, 2, 4, 8, 16, 32};

static void check_row(ws_coal_rule rule, int offset, const uint32_t expect[6]) {
  for (int i = 0; i < 6; i++) {
    ws_warp_access a = kothapalli(strides[i], offset);
    ws_coal_result r;
    ws_prof_coalesce(&r, &a, rule);
    if (r.transactions != expect[i]) {
      print_error("%s, STRIDE %d, OFFSET %d: %u transactions, expected %u\n",
                  ws_prof_coal_rule_name(rule), strides[i], offset, r.transactions, expect[i]);
      fail();
    }
    assert_int_equal(r.bytes_requested, 128);
  }
}

/* CC 1.1 (strict).  STRIDE 16 and 32: each half-warp reads 16 consecutive
 * words of a 64-byte aligned segment in lane order -> 1 per half-warp = 2.
 * STRIDE <= 8: a half-warp spans several groups -> one per lane = 32.
 * OFFSET 1 rotates the words inside each group, so lane k no longer reads
 * word k: 32 for every STRIDE. */
static void coalescing_cc11(void **s) {
  (void)s;
  const uint32_t o0[6] = {32, 32, 32, 32, 2, 2}, o1[6] = {32, 32, 32, 32, 32, 32};
  ws_coal_rule r = ws_prof_coal_rule_for(1, 1, 0, 0);
  assert_int_equal(r, WS_COAL_CC1X_STRICT);
  check_row(r, 0, o0);
  check_row(r, 1, o1);
}

/* CC 1.3 (relaxed).  Per half-warp one transaction per 128-byte segment
 * touched: 16 lanes / STRIDE groups per half-warp (at least 1), so a warp
 * needs 32 / STRIDE transactions for STRIDE <= 16 and 2 for STRIDE 32.
 * STRIDE 1: 32; 2: 16; 4: 8; 8: 4; 16: 2; 32: 2.  A permutation inside a
 * group (OFFSET 1) changes nothing. */
static void coalescing_cc13(void **s) {
  (void)s;
  const uint32_t e[6] = {32, 16, 8, 4, 2, 2};
  ws_coal_rule r = ws_prof_coal_rule_for(1, 3, 0, 0);
  check_row(r, 0, e);
  check_row(r, 1, e);
  /* The transactions shrink to the bytes used: STRIDE 8 uses 32 bytes per
   * segment -> 4 transactions of 32 B; STRIDE 32 uses 64 B per half-warp. */
  ws_warp_access a = kothapalli(8, 0);
  ws_coal_result res;
  ws_prof_coalesce(&res, &a, r);
  assert_int_equal(res.bytes_moved, 4 * 32);
  a = kothapalli(32, 0);
  ws_prof_coalesce(&res, &a, r);
  assert_int_equal(res.bytes_moved, 2 * 64);
}

/* CC 2.0, loads through L1: one per 128-byte line; groups never share a
 * line and a group of up to 32 words fits in one line: 32 / STRIDE. */
static void coalescing_cc20(void **s) {
  (void)s;
  const uint32_t e[6] = {32, 16, 8, 4, 2, 1};
  ws_coal_rule r = ws_prof_coal_rule_for(2, 0, 1, 0);
  assert_int_equal(r, WS_COAL_CC2X_L1);
  check_row(r, 0, e);
  check_row(r, 1, e);
  /* Stores bypass L1: 32-byte sectors (STRIDE 32: 128 B = 4 sectors). */
  assert_int_equal(ws_prof_coal_rule_for(2, 0, 1, 1), WS_COAL_SECTORS);
}

/* CC 8.0: 32-byte sectors.  A group of STRIDE words is 4*STRIDE bytes:
 * STRIDE <= 8 -> 1 sector per group (32/STRIDE groups); 16 -> 2 groups x 2
 * sectors = 4; 32 -> 1 group x 4 sectors = 4. */
static void coalescing_cc80(void **s) {
  (void)s;
  const uint32_t e[6] = {32, 16, 8, 4, 4, 4};
  ws_coal_rule r = ws_prof_coal_rule_for(8, 0, 1, 0);
  assert_int_equal(r, WS_COAL_SECTORS);
  check_row(r, 0, e);
  check_row(r, 1, e);
}

static void coalescing_partial_and_empty(void **s) {
  (void)s;
  ws_warp_access a = kothapalli(32, 0);
  ws_coal_result r;
  a.mask = 0;
  ws_prof_coalesce(&r, &a, WS_COAL_SECTORS);
  assert_int_equal(r.transactions, 0);
  /* CC 1.1 allows inactive lanes in a coalesced half-warp: lanes 0-7 of
   * half-warp 0 only -> 1 transaction. */
  a.mask = 0xffu;
  ws_prof_coalesce(&r, &a, WS_COAL_CC1X_STRICT);
  assert_int_equal(r.transactions, 1);
}

/* Kothapalli et al. Appendix B.2: S[(t * BANK) % 512] = ..., 4-byte words.
 * Lane t writes word t*BANK (< 512 for BANK <= 16, so all distinct unless
 * BANK = 0).  With B banks, lanes t and u collide when (t-u)*BANK = 0 mod B,
 * so each bank serves gcd(BANK, B) words: degree gcd(BANK, B); BANK 0 is a
 * single word (no conflict).  32 banks per warp (CC >= 2.0); 16 banks per
 * half-warp (CC 1.x), two half-warps each with degree gcd(BANK, 16). */
static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

static void bank_conflicts(void **s) {
  (void)s;
  ws_bank_config c32 = ws_prof_bank_config_for(8, 0), c16 = ws_prof_bank_config_for(1, 3);
  assert_int_equal(c32.banks, 32);
  assert_int_equal(c16.banks, 16);
  for (unsigned bank = 0; bank <= 16; bank++) {
    ws_warp_access a = {0xffffffffu, 4, {0}};
    for (unsigned t = 0; t < 32; t++) a.addr[t] = 0x400 + 4 * ((t * bank) % 512);
    ws_bank_result r;
    ws_prof_bank_conflicts(&r, &a, &c32);
    unsigned want32 = bank ? gcd(bank, 32) : 1;
    if (r.degree != want32 || r.passes != want32) {
      print_error("32 banks, BANK %u: degree %u passes %u, expected %u\n", bank, r.degree, r.passes, want32);
      fail();
    }
    ws_prof_bank_conflicts(&r, &a, &c16);
    unsigned want16 = bank ? gcd(bank, 16) : 1;
    if (r.degree != want16 || r.passes != 2 * want16 || r.min_passes != 2) {
      print_error("16 banks, BANK %u: degree %u passes %u, expected %u\n", bank, r.degree, r.passes, want16);
      fail();
    }
  }
}

/* 8-byte words: consecutive doubles on 32 4-byte banks are served per
 * half-warp (16 lanes x 2 words = 32 words, one per bank): 2 passes, no
 * conflict.  On CC 1.x's 16 banks a half-warp's 32 words hit every bank
 * twice: degree 2 (the documented 2-way conflict of doubles). */
static void bank_doubles(void **s) {
  (void)s;
  ws_warp_access a = {0xffffffffu, 8, {0}};
  for (int t = 0; t < 32; t++) a.addr[t] = 8u * (unsigned)t;
  ws_bank_config c32 = ws_prof_bank_config_for(7, 0), c16 = ws_prof_bank_config_for(1, 0);
  ws_bank_result r;
  ws_prof_bank_conflicts(&r, &a, &c32);
  assert_int_equal(r.passes, 2);
  assert_int_equal(r.min_passes, 2);
  assert_int_equal(r.degree, 1);
  ws_prof_bank_conflicts(&r, &a, &c16);
  assert_int_equal(r.degree, 2);
}

/* Each 128-byte line read twice in a row: the second read hits -> 50 %. */
static void cache_each_line_twice(void **s) {
  (void)s;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 16 * 1024, 4, 128, 128), 0);
  for (uint64_t line = 0; line < 1000; line++) {
    ws_prof_cache_access(&c, line * 128, 1);
    ws_prof_cache_access(&c, line * 128 + 4, 1);
  }
  assert_int_equal(c.hits, 1000);
  assert_int_equal(c.misses, 1000);
  ws_prof_cache_free(&c);
}

/* LRU in one 2-way set: A B A C B -> only the second A hits (C evicts B,
 * the least recently used, so B misses again). */
static void cache_lru(void **s) {
  (void)s;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 256, 2, 128, 128), 0); /* 1 set */
  int h[5];
  uint64_t seq[5] = {0, 128, 0, 256, 128};
  for (int i = 0; i < 5; i++) h[i] = ws_prof_cache_access(&c, seq[i], 1);
  assert_int_equal(h[0] + h[1] + h[3] + h[4], 0);
  assert_int_equal(h[2], 1);
  ws_prof_cache_free(&c);
}

/* Only a set's filled ways count (memsim.h, ws_cache.fill): the entries
 * are not cleared when a cache is made, so a cache made where a freed one
 * was (glibc's malloc hands the same block back) must not see the old
 * lines.  One 8-way set: the first cache writes lines 0..7; the second,
 * of the same geometry, reads them: 8 misses (the first touch of each,
 * by definition), no dirty sector anywhere, and a ninth line evicts line 0
 * (the least recently used) with nothing to write back.  Then LRU by
 * hand (stamps 1..8 for lines 0..7, 9 for line 8): line 0 again evicts
 * line 1 (stamp 2); a hit on line 2, then line 9 evicts line 3 (stamp 4,
 * now the oldest): 2 and 4 hit, 3 misses. */
static void cache_fresh_after_reuse(void **s) {
  (void)s;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 8 * 128, 8, 128, 32), 0);
  for (uint64_t l = 0; l < 8; l++) ws_prof_cache_access_rw(&c, l * 128, 1, 1);
  assert_int_equal(ws_prof_cache_dirty_sectors(&c), 8);
  ws_prof_cache_free(&c);
  assert_int_equal(ws_prof_cache_init(&c, 8 * 128, 8, 128, 32), 0);
  for (uint64_t l = 0; l < 8; l++) assert_int_equal(ws_prof_cache_access(&c, l * 128, 1), 0);
  assert_int_equal(c.misses, 8);
  assert_int_equal(ws_prof_cache_dirty_sectors(&c), 0);
  assert_int_equal(ws_prof_cache_access(&c, 8 * 128, 1), 0);
  assert_int_equal(c.evicted_dirty, 0);
  assert_int_equal(c.writebacks, 0);
  assert_int_equal(ws_prof_cache_access(&c, 0, 1), 0); /* line 0 was the one evicted */
  /* now 2..8 and 0 present (line 1 evicted by line 0's return) */
  assert_int_equal(ws_prof_cache_access(&c, 2 * 128, 1), 1);
  assert_int_equal(ws_prof_cache_access(&c, 9 * 128, 1), 0); /* evicts line 3, the oldest */
  assert_int_equal(ws_prof_cache_access(&c, 2 * 128, 1), 1);
  assert_int_equal(ws_prof_cache_access(&c, 4 * 128, 1), 1);
  assert_int_equal(ws_prof_cache_access(&c, 3 * 128, 1), 0);
  ws_prof_cache_free(&c);
}

/* Sectors: a present line hits only for sectors already filled; a strided
 * walk touching one 32-byte sector per 128-byte line twice gives 50 %. */
static void cache_sectors(void **s) {
  (void)s;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 4096, 4, 128, 32), 0);
  assert_int_equal(ws_prof_cache_access(&c, 0, 1), 0);
  assert_int_equal(ws_prof_cache_access(&c, 32, 1), 0); /* same line, new sector */
  assert_int_equal(ws_prof_cache_access(&c, 8, 1), 1);
  assert_int_equal(ws_prof_cache_access(&c, 40, 1), 1);
  ws_prof_cache_free(&c);
  /* No allocation (write-around): repeated misses. */
  assert_int_equal(ws_prof_cache_init(&c, 4096, 4, 128, 32), 0);
  ws_prof_cache_access(&c, 0, 0);
  assert_int_equal(ws_prof_cache_access(&c, 0, 0), 0);
  ws_prof_cache_free(&c);
  /* Bad geometry is refused. */
  assert_int_equal(ws_prof_cache_init(&c, 1000, 3, 100, 32), -1);
}

/* Which line an eviction wrote back: one 2-way set of 128-byte lines with
 * 32-byte sectors.  Write sectors 1 and 3 of line 0 (byte 32 and 96), read
 * line 1 (byte 128): no eviction yet.  Reading line 2 (byte 256) evicts the
 * least recently used line, line 0, with dirty mask 0b1010 (2 sectors
 * written back); the next access evicts nothing dirty and clears it. */
static void cache_eviction_names_line(void **s) {
  (void)s;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 256, 2, 128, 32), 0);
  ws_prof_cache_access_rw(&c, 32, 1, 1);
  ws_prof_cache_access_rw(&c, 96, 1, 1);
  ws_prof_cache_access_rw(&c, 128, 1, 0);
  assert_int_equal(c.evicted_dirty, 0);
  ws_prof_cache_access_rw(&c, 256, 1, 0);
  assert_int_equal(c.evicted_dirty, 0xa);
  assert_int_equal(c.evicted_line, 0);
  assert_int_equal(c.writebacks, 2);
  ws_prof_cache_access_rw(&c, 384, 1, 0); /* evicts line 1, clean */
  assert_int_equal(c.evicted_dirty, 0);
  ws_prof_cache_free(&c);
}

/* The fast paths of sector and line counts (one pass when blocks only
 * grow from lane to lane) and of bank conflicts (one window; words bucketed
 * by bank) against the definitions, computed here the plain way: the
 * distinct 32-byte sectors and 128-byte lines of the bytes the lanes touch,
 * and per pass the most distinct words that share a bank.  Accesses of
 * every kind: contiguous, strided, reversed, broadcast, random within a
 * small range (conflicts) and a large one, partial masks, sizes 1 to 16. */
static uint32_t ref_distinct(const ws_warp_access *a, unsigned shift) {
  uint64_t v[128];
  uint32_t n = 0;
  for (int l = 0; l < 32; l++)
    if (a->mask >> l & 1)
      for (uint64_t b = a->addr[l] >> shift; b <= (a->addr[l] + a->size - 1) >> shift; b++) {
        uint32_t i = 0;
        while (i < n && v[i] != b) i++;
        if (i == n) v[n++] = b;
      }
  return n;
}

static uint32_t ref_degree(const ws_warp_access *a, uint32_t lanes, uint32_t banks) {
  uint32_t best = 0;
  for (uint32_t b = 0; b < banks; b++) { /* distinct words of bank b */
    uint64_t v[128];
    uint32_t n = 0;
    for (int l = 0; l < 32; l++)
      for (uint32_t k = 0; (lanes >> l & 1) && k < (a->size > 4 ? a->size / 4 : 1); k++) {
        uint64_t w = a->addr[l] / 4 + k, i = 0;
        if (w % banks != b) continue;
        while (i < n && v[i] != w) i++;
        if (i == n) v[n++] = w;
      }
    if (n > best) best = n;
  }
  return best;
}

/* Bank conflicts of a against the definition, on CC 1.x and CC 8.0. */
static void check_banks(const ws_warp_access *a) {
  for (int cc = 0; cc < 2; cc++) {
    ws_bank_config cfg = ws_prof_bank_config_for(cc ? 8 : 1, 0);
    ws_bank_result b;
    ws_prof_bank_conflicts(&b, a, &cfg);
    /* the passes' lane groups (memsim.c): half-warps on CC 1.x and for
     * 8-byte words, quarter-warps for 16-byte ones, else the warp */
    int group = cfg.half_warp || a->size == 8 ? 16 : a->size >= 16 ? 8 : 32;
    uint32_t passes = 0, degree = 0;
    for (int g = 0; g < 32; g += group) {
      uint32_t lanes = a->mask & (group == 32 ? 0xffffffffu : ((1u << group) - 1) << g);
      if (!lanes) continue;
      uint32_t d = ref_degree(a, lanes, (uint32_t)cfg.banks);
      passes += d;
      degree = d > degree ? d : degree;
    }
    if (b.passes != passes || b.degree != degree) {
      print_error("%u banks, size %u, mask %08x, lanes 0-2 at %#llx %#llx %#llx: passes %u degree %u, "
                  "expected %u and %u\n", (unsigned)cfg.banks, a->size, a->mask,
                  (unsigned long long)a->addr[0], (unsigned long long)a->addr[1],
                  (unsigned long long)a->addr[2], b.passes, b.degree, passes, degree);
      fail();
    }
  }
}

static void fast_paths_match_definitions(void **s) {
  (void)s;
  static const uint32_t sizes[] = {1, 2, 4, 8, 16};
  uint64_t st = 12345;
  for (int iter = 0; iter < 4000; iter++) {
    ws_warp_access a = {0, sizes[iter % 5], {0}};
    int kind = (iter / 5) % 6;
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    a.mask = (iter & 1) ? 0xffffffffu : (uint32_t)(st >> 32) | 1u;
    uint64_t base = 0x10000 + ((st >> 20) & 0xff) * a.size, stride = 1 + ((st >> 40) % 40);
    for (int l = 0; l < 32; l++) {
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t r = st >> 33;
      switch (kind) {
      case 0: a.addr[l] = base + (uint64_t)l * a.size; break;              /* contiguous */
      case 1: a.addr[l] = base + (uint64_t)l * stride * a.size; break;     /* strided */
      case 2: a.addr[l] = base + (uint64_t)(31 - l) * a.size; break;       /* reversed */
      case 3: a.addr[l] = base; break;                                     /* broadcast */
      case 4: a.addr[l] = base + (r % 64) * a.size; break;                 /* conflicts */
      default: a.addr[l] = base + (r % 100000) * a.size; break;            /* scattered */
      }
    }
    ws_coal_result r;
    ws_prof_coalesce(&r, &a, WS_COAL_SECTORS);
    assert_int_equal(r.sectors, ref_distinct(&a, 5));
    assert_int_equal(r.lines, ref_distinct(&a, 7));
    check_banks(&a);
  }
}

/* The bank-conflict fast paths (memsim.c, phase_degree: a window, a bank
 * per word, a uniform word stride in closed form, words that never fall
 * counted by their changes) on the shapes they take and the ones next to
 * them, against the definition: word strides -70 to 70 (negative ones
 * fall; 0 is a broadcast), a tiled matmul's half-warps reading one word
 * each at every row pitch, rows of eight lanes rotated (their words rise
 * in a circle back to the first), strides wrapped modulo a shared array
 * (bankconf), strides broken at one lane, addresses near 2^64 that
 * wrap, every access size, whole warps, half-warps, runs of lanes and
 * scattered masks. */
static void bank_fast_paths_crafted(void **s) {
  (void)s;
  static const uint32_t sizes[] = {1, 2, 4, 8, 16};
  static const uint32_t masks[] = {0xffffffffu, 0xffffu, 0xffff0000u, 0x00fff000u, 0x7u, 0x80000000u,
                                   0xfffffffeu, 0x55555555u, 0x0f0f00ffu};
  static const uint64_t bases[] = {0x400, 0x10000 + 4, 0x7ffffffc, UINT64_MAX - 300, 0x3ull << 62};
  for (size_t si = 0; si < 5; si++)
    for (size_t mi = 0; mi < sizeof masks / sizeof masks[0]; mi++)
      for (size_t bi = 0; bi < sizeof bases / sizeof bases[0]; bi++) {
        ws_warp_access a = {masks[mi], sizes[si], {0}};
        for (int64_t st = -70; st <= 70; st++) { /* a word stride */
          for (int l = 0; l < 32; l++) a.addr[l] = bases[bi] + (uint64_t)(st * l * 4);
          check_banks(&a);
          a.addr[17] += 4; /* the stride broken at one lane */
          check_banks(&a);
        }
        for (uint64_t pitch = 0; pitch <= 70; pitch++) { /* As[ty][k]: two rows per warp */
          for (int l = 0; l < 32; l++) a.addr[l] = bases[bi] + 4 * (pitch * (uint64_t)(l / 16) + 3);
          check_banks(&a);
          for (int l = 0; l < 32; l++) /* Bs[k][tx]: a row of 16 words, twice */
            a.addr[l] = bases[bi] + 4 * (pitch * (uint64_t)(l / 16) + (uint64_t)(l % 16));
          check_banks(&a);
        }
        for (uint64_t pitch = 1; pitch <= 64; pitch++) /* rows of 8 lanes, rotated */
          for (int off = 0; off < 8; off++) {
            for (int l = 0; l < 32; l++) a.addr[l] = bases[bi] + 4 * pitch * (uint64_t)(((l + off) / 8) % 4);
            check_banks(&a);
          }
        static const uint64_t ks[] = {0, 1, 2, 33, 63};
        for (uint64_t bank = 0; bank <= 66; bank++) /* s[(t * bank + k) mod 1024] */
          for (size_t ki = 0; ki < 5; ki++)
            for (uint64_t t0 = 0; t0 <= 32; t0 += 32) { /* warps 0 and 1 */
              for (int l = 0; l < 32; l++)
                a.addr[l] = bases[bi] + 4 * (((t0 + (uint64_t)l) * bank + ks[ki]) & 1023);
              check_banks(&a);
            }
      }
  /* Bytes as banks' words (no GPU's, but memsim takes any power of two):
   * lane i at byte i x 2^62 steps by one stride modulo 2^64, yet the words
   * repeat every four lanes: 4 distinct words, all in bank 0. */
  ws_bank_config bytes = {32, 1, 0};
  ws_warp_access a = {0xffffffffu, 1, {0}};
  for (int l = 0; l < 32; l++) a.addr[l] = (uint64_t)l << 62;
  ws_bank_result r;
  ws_prof_bank_conflicts(&r, &a, &bytes);
  assert_int_equal(r.degree, 4);
}

/* ws_prof_sectors against its definition (memsim.h), computed here the
 * plain way: lane by lane, each sector of the lane's bytes kept when not
 * yet listed (at most 128); the lines counted among those kept.  Whole
 * warps contiguous and not quite (one lane off, a partial mask), strides
 * up and down, broadcasts, gathers in a small range and a large one,
 * gathers of aligned words (each lane in one sector: from few lines or
 * many, and with one lane crossing a sector late in the warp), rows of a
 * CSR matrix (lanes 28 bytes apart, some a word further: sectors that
 * repeat and never fall), lane sizes 1 to 128 (past 96 bytes a gather can
 * touch more than 128 sectors), through one set reused from request to
 * request, whose generation counter wraps on the way.  Then the patterns
 * taken by runs (aligned words, so that no lane crosses a sector, and
 * unaligned ones, so that some do): two and four broadcast groups in
 * either order, a half-warp repeated (the same addresses, or a word
 * further: the same sectors or not; or all but its last lane), a second
 * half below the first,
 * runs of random lengths over a few sectors (about WS_RUNS_SMALL runs,
 * above and below it), each under whole, half-warp-paired, strided,
 * sparse and random masks. */
static uint32_t ref_sectors(uint32_t exec, const uint64_t *addr, uint32_t bytes, uint64_t *sec,
                            uint32_t *lines) {
  uint32_t n = 0, nl = 0;
  for (int l = 0; l < 32; l++)
    if (exec >> l & 1)
      for (uint64_t b = addr[l] >> 5; b <= (addr[l] + bytes - 1) >> 5; b++) {
        uint32_t i = 0;
        while (i < n && sec[i] != b << 5) i++;
        if (i == n && n < 128) sec[n++] = b << 5;
      }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t j = 0;
    while (j < i && sec[j] >> 7 != sec[i] >> 7) j++;
    nl += j == i;
  }
  *lines = nl;
  return n;
}

static void sectors_match_definition(void **s) {
  (void)s;
  static const uint32_t sizes[] = {1, 2, 4, 8, 16, 32, 3, 12, 24, 64, 100, 128};
  ws_sector_set *t = calloc(1, sizeof *t);
  assert_non_null(t);
  t->gen = UINT32_MAX - 1000; /* wraps during the test; the entries then stale */
  uint64_t st = 4242;
  static const uint32_t masks[] = {0xffffffffu, 0, 0x00ffff00u, 0x03ff03ffu, 0x20080201u, 0xfffefffeu, 0x00010001u};
  for (int iter = 0; iter < 40000; iter++) {
    const uint32_t size = sizes[iter % 12];
    const int kind = iter < 12000 ? (iter / 12) % 11 : 11 + (iter / 12) % 6;
    uint64_t addr[32];
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t exec = iter < 12000 ? ((iter / 96) % 3 == 0 ? 0xffffffffu : (iter / 96) % 3 == 1 ? (uint32_t)(st >> 32) : 0x00ffff00u)
                                 : masks[(iter / 72) % 7];
    if (!exec) exec = (uint32_t)(st >> 32) | 1u;
    const uint64_t base = 0x7f0000000000ull + ((st >> 20) & 0xfff), stride = 1 + ((st >> 40) % 70);
    /* for the runs' patterns: aligned to the size (3 of 4 requests), else as base */
    const uint64_t abase = (st >> 62) ? base & ~(uint64_t)((size & (size - 1)) ? 3 : size - 1) : base;
    const int64_t pitch = (int64_t)((st >> 8) % 5000) * ((st >> 61) & 1 ? -4 : 4); /* rows up or down */
    const uint32_t runlen = 1 + (uint32_t)((st >> 30) % 6), nsec = 2 + (uint32_t)((st >> 24) % 12);
    const uint32_t var = (uint32_t)(st >> 12) % 4; /* a pattern's variant */
    for (int l = 0; l < 32; l++) {
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t r = st >> 33;
      switch (kind) {
      case 0: addr[l] = base + (uint64_t)l * size; break;                  /* contiguous */
      case 1: addr[l] = base + (uint64_t)l * size + (l == 31 ? 1 : 0); break; /* one lane off */
      case 2: addr[l] = base + (uint64_t)l * stride * size; break;         /* strided */
      case 3: addr[l] = base + (uint64_t)(31 - l) * stride; break;         /* falling */
      case 4: addr[l] = base; break;                                        /* broadcast */
      case 5: addr[l] = base + (r % 512); break;                            /* a small range */
      case 6: addr[l] = base + (uint64_t)(l / 8) * 4096 + (uint64_t)(l % 8) * size; break; /* rows */
      case 7: addr[l] = base + (r % 100000000) * 4; break;                  /* scattered */
      case 8: /* aligned words gathered from a few lines (sectors repeated, lines shared) or many */
        addr[l] = (base & ~(uint64_t)127) + (r % ((st >> 50) % 2 ? 64 : 100000)) * size;
        break;
      case 9: /* aligned words gathered, one lane (not the first) crossing a sector */
        addr[l] = (base & ~(uint64_t)127) + (r % 4096) * size + (l == 17 + (int)(st >> 61) ? 30 : 0);
        break;
      case 10: addr[l] = (base & ~(uint64_t)3) + (uint64_t)l * 28 + (r % 4 == 0 ? 4 : 0); break; /* CSR rows */
      case 11: addr[l] = abase + (uint64_t)(l / 16) * (uint64_t)pitch; break; /* two broadcast groups */
      case 12: addr[l] = abase + (uint64_t)((l / 8) ^ var) * (uint64_t)pitch; break; /* four, in any order */
      case 13: /* a half-warp repeated, or a word further, or but for its last lane */
        addr[l] = abase + (uint64_t)(l % 16) * size + (l >= 16 ? (uint64_t)(var % 3) * 4 : 0) + (l == 31 && var == 3 ? 32 : 0);
        break;
      case 14: /* the second half below the first (or above) */
        addr[l] = abase + (uint64_t)(l % 16) * size + (l >= 16 ? (uint64_t)pitch : 0);
        break;
      case 15: /* a column per half-warp, the second a word to the right */
        addr[l] = abase + (uint64_t)(l % 16) * (uint64_t)(pitch < 0 ? -pitch : pitch) + (uint64_t)(l / 16) * 4;
        break;
      default: /* runs of random lengths over a few sectors */
        addr[l] = abase + 32 * (uint64_t)(((uint32_t)l / runlen * 7 + (uint32_t)iter) % nsec);
        break;
      }
    }
    uint64_t got[128], want[128];
    uint32_t gl, wl, gn = ws_prof_sectors(t, exec, addr, size, got, &gl), wn = ref_sectors(exec, addr, size, want, &wl);
    if (gn != wn || gl != wl || memcmp(got, want, gn * sizeof *got)) {
      print_error("iteration %d (kind %d, %u bytes, mask %08x): %u sectors %u lines, expected %u and %u\n", iter,
                  kind, size, exec, gn, gl, wn, wl);
      fail();
    }
  }
  assert_true(t->gen < 50000); /* it wrapped */
  /* a request in generation 1, then the same one when the counter wraps
   * back to 1: the old entries must not count as seen */
  uint64_t addr[32], got[128];
  for (int l = 0; l < 32; l++) addr[l] = 0x10000 + (uint64_t)((l * 7919) % 32) * 256;
  uint32_t gl;
  t->gen = 0;
  assert_int_equal(ws_prof_sectors(t, 0xffffffffu, addr, 4, got, &gl), 32);
  t->gen = UINT32_MAX;
  assert_int_equal(ws_prof_sectors(t, 0xffffffffu, addr, 4, got, &gl), 32);
  assert_int_equal(gl, 32);
  free(t);
}

/* ws_prof_cache_set computes its definition (memsim.h) without a
 * division: checked here with divisions, L = addr / line_bytes,
 * (L mod S + h(L div S)) mod S with h the splitmix64 finaliser (written
 * out below from its paper), for set counts that are powers of two and
 * others, over random and extreme addresses. */
static uint64_t ref_mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static void cache_set_matches_definition(void **s) {
  (void)s;
  static const uint64_t bytes[] = {1 << 20, 40ull << 20, 3 << 20, 16 * 128, 6 << 20, 48 * 16 * 128};
  uint64_t st = 987654321;
  for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++) {
    ws_cache c;
    assert_int_equal(ws_prof_cache_init(&c, bytes[k], 16, 128, 32), 0);
    for (int i = 0; i < 20000; i++) {
      st = st * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t a = i < 4 ? (i < 2 ? (uint64_t)i * 127 : UINT64_MAX - (uint64_t)(i - 2) * 4096) : st >> (i % 40);
      uint64_t L = a / 128, S = c.sets;
      assert_int_equal(ws_prof_cache_set(&c, a), (L % S + ref_mix(L / S) % S) % S);
    }
    ws_prof_cache_free(&c);
  }
}

/* A streaming read of N bytes in 4-byte words through a cold cache: every
 * 32-byte sector misses once (its first word) and hits for its other seven
 * words: N / 32 misses and 7 N / 32 hits, for a footprint below and above
 * the cache's size alike (each sector is read in one burst). */
static void cache_streaming(void **s) {
  (void)s;
  static const uint64_t sizes[] = {64 << 10, 3 << 20};
  for (size_t k = 0; k < 2; k++) {
    ws_cache c;
    assert_int_equal(ws_prof_cache_init(&c, 1 << 20, 16, 128, 32), 0); /* 1 MB */
    uint64_t n = sizes[k];
    for (uint64_t a = 0; a < n; a += 4) ws_prof_cache_access(&c, 0x10000000 + a, 1);
    assert_int_equal(c.misses, n / 32);
    assert_int_equal(c.hits, 7 * n / 32);
    ws_prof_cache_free(&c);
  }
}

/* The set function (memsim.h): an aligned run of S lines fills every set
 * exactly once, and any run of n lines puts at most ceil(n / S) + 1 lines
 * in a set, for a power-of-two S and for another (20480 = 40 MB / 16 ways
 * / 128 B, an A100's L2). */
static void cache_set_spread(void **s) {
  (void)s;
  static const uint64_t bytes[] = {1 << 20, 40ull << 20};
  for (size_t k = 0; k < 2; k++) {
    ws_cache c;
    assert_int_equal(ws_prof_cache_init(&c, bytes[k], 16, 128, 32), 0);
    uint32_t S = c.sets, *cnt = calloc(S, sizeof *cnt);
    assert_non_null(cnt);
    for (uint64_t q = 0; q < 3; q++) {
      memset(cnt, 0, S * sizeof *cnt);
      for (uint64_t l = 0; l < S; l++) cnt[ws_prof_cache_set(&c, (q * S + l) * 128)]++;
      for (uint32_t i = 0; i < S; i++) assert_int_equal(cnt[i], 1);
    }
    /* a run of 2.5 S lines starting mid-way through a run of S */
    uint64_t first = 7 * (uint64_t)S + S / 3, n = 5 * (uint64_t)S / 2;
    memset(cnt, 0, S * sizeof *cnt);
    for (uint64_t l = first; l < first + n; l++) cnt[ws_prof_cache_set(&c, l * 128)]++;
    for (uint32_t i = 0; i < S; i++) assert_true(cnt[i] <= (n + S - 1) / S + 1);
    free(cnt);
    ws_prof_cache_free(&c);
  }
}

/* A tile of `rows` rows of `row_bytes` bytes, `pitch` bytes apart, read
 * twice, one access per 32-byte sector; the second pass's hits and
 * accesses. */
static void tile_twice(ws_cache *c, uint64_t rows, uint64_t row_bytes, uint64_t pitch,
                       uint64_t *hits, uint64_t *acc) {
  for (int pass = 0; pass < 2; pass++) {
    uint64_t h0 = c->hits, m0 = c->misses;
    for (uint64_t r = 0; r < rows; r++)
      for (uint64_t b = 0; b < row_bytes; b += 32) ws_prof_cache_access(c, 0x40000000 + r * pitch + b, 1);
    *hits = c->hits - h0, *acc = c->hits - h0 + c->misses - m0;
  }
}

/* Reuse for every pitch (issue 20): a tile of a quarter of the cache's
 * size (a 128 KB L1 of 16 ways: 128 rows of 256 bytes; a 3 MB L2: 768 rows
 * of 1 KB) read twice hits on
 * every access of its second pass, whatever the rows' pitch: powers of two
 * (where line mod sets put all the rows 8 KB apart in 4 of 256 sets and a
 * 4-way L1 thrashed: conv2d's 0.19 % L1 hits at 2048 floats wide), near
 * powers (2080 floats) and others.  A tile of twice the cache's size
 * misses on at least 95 % of its second pass (LRU, read in the same
 * order): the cache holds less than it reads. */
static void cache_reuse_every_pitch(void **s) {
  (void)s;
  static const uint64_t pitch[] = {256,  512,   1024,  2048,  4096,      8192,     8192 - 128,
                                   8192 + 128, 2080 * 4, 3328 * 4, 6656 * 4, 65536, 65536 + 128,
                                   1 << 20, 3 << 12, 12288 + 32};
  /* an L1 (128 KB, a power-of-two number of sets) and an L2 (3 MB: 1536
   * sets, an RTX 3060's); rows of 256 B and 1 KB, a quarter of the cache,
   * then eight times as many rows (twice the cache) */
  static const struct { uint64_t bytes, row; } geo[] = {{128 << 10, 256}, {3 << 20, 1024}};
  for (size_t gi = 0; gi < 2; gi++)
    for (size_t k = 0; k < sizeof pitch / sizeof pitch[0]; k++) {
      ws_cache c;
      uint64_t h, a, row = geo[gi].row, rows = geo[gi].bytes / 4 / row;
      uint64_t p = pitch[k] < row ? row : pitch[k];
      assert_int_equal(ws_prof_cache_init(&c, geo[gi].bytes, 16, 128, 32), 0);
      tile_twice(&c, rows, row, p, &h, &a);
      if (h != a) print_message("cache %llu, pitch %llu: %llu of %llu hit\n",
                                (unsigned long long)geo[gi].bytes, (unsigned long long)p,
                                (unsigned long long)h, (unsigned long long)a);
      assert_int_equal(h, a);
      ws_prof_cache_free(&c);
      assert_int_equal(ws_prof_cache_init(&c, geo[gi].bytes, 16, 128, 32), 0);
      tile_twice(&c, 8 * rows, row, p, &h, &a);
      assert_true(h <= a / 20);
      ws_prof_cache_free(&c);
    }
}

/* ws_prof_cache_access_n (the replay's batched form, memsim.h) against
 * single accesses (the same code with n = 1, so the batch boundaries do not
 * matter), and both against a reference written here from the
 * definition (memsim.h: the set by ws_prof_cache_set, whole lines replaced
 * least recently used first, sectors filled and written one by one, a
 * write-back of the dirty sectors of an evicted line): the same hit or
 * miss for every access, the same evicted line and dirty sectors, the same
 * counts.  Random streams with locality (runs of sectors of one line; few
 * lines per set, so that sets fill and evict; far addresses), batches of 1
 * to 40 accesses of every kind (allocate or not, write or not), several
 * geometries (1 to 20 ways, 1 to 32 sectors a line), and the clock set
 * near its wrap so that the stamps are renumbered mid-stream.  Lines come
 * back after they were evicted and filled again in another way, and many
 * lines share an entry of the table of recent lines (ws_cache.recent,
 * direct-mapped by the line's low bits: a near line and a far one with the
 * same low bits), so a stale entry must be caught.  Sets fill, so victims
 * are chosen: four stamps at a time for 4, 16 and 20 ways, one by one for
 * the others (ws_cache_lru_way); before, every set's first line fills an
 * empty set (the run's path without a search).  The geometries of
 * 128-byte lines of 32-byte sectors take the run compiled with constant
 * shifts, the others the one reading them.  About half the others go
 * through ws_cache_access_run itself with its list of misses, which must
 * be the reference's misses in order. */
typedef struct ref_way {
  uint64_t line, used;
  uint32_t valid, dirty;
} ref_way;

static int ref_access(ref_way *w, uint32_t *fill, uint64_t *t, const ws_cache *c, uint64_t addr,
                      int allocate, int write, uint64_t *ev_line, uint32_t *ev_dirty) {
  uint64_t line = addr / c->line_bytes;
  uint32_t bit = 1u << (addr % c->line_bytes / c->sector_bytes), s = ws_prof_cache_set(c, addr);
  ref_way *set = w + (size_t)s * c->ways;
  *ev_dirty = 0;
  ++*t;
  for (uint32_t i = 0; i < fill[s]; i++) {
    if (set[i].line != line) continue;
    set[i].used = *t;
    int hit = (set[i].valid & bit) != 0;
    if (!hit && allocate) set[i].valid |= bit;
    if (write && (hit || allocate)) set[i].dirty |= bit;
    return hit;
  }
  if (!allocate) return 0;
  uint32_t v = fill[s];
  if (v == c->ways) {
    v = 0;
    for (uint32_t i = 1; i < c->ways; i++)
      if (set[i].used < set[v].used) v = i;
    *ev_line = set[v].line * c->line_bytes;
    *ev_dirty = set[v].dirty;
  } else {
    fill[s]++;
  }
  set[v] = (ref_way){line, *t, bit, write ? bit : 0};
  return 0;
}

static void cache_batch_matches_definition(void **st) {
  (void)st;
  static const struct { uint64_t bytes; uint32_t ways, line, sector; } geo[] = {
      {4096, 4, 128, 32},         {6 * 3 * 128, 3, 128, 32}, {2048, 16, 128, 32},
      {7 * 5 * 64, 5, 64, 16},    {8 * 20 * 128, 20, 128, 32}, {1024, 1, 128, 128},
      {4 * 2 * 128, 2, 128, 4},   {40 * 16 * 128, 16, 128, 32}};
  uint64_t rng = 424242;
  for (size_t gi = 0; gi < sizeof geo / sizeof geo[0]; gi++) {
    ws_cache one, batch;
    assert_int_equal(ws_prof_cache_init(&one, geo[gi].bytes, geo[gi].ways, geo[gi].line, geo[gi].sector), 0);
    assert_int_equal(ws_prof_cache_init(&batch, geo[gi].bytes, geo[gi].ways, geo[gi].line, geo[gi].sector), 0);
    ref_way *ref = calloc((size_t)one.sets * one.ways, sizeof *ref);
    uint32_t *fill = calloc(one.sets, sizeof *fill);
    assert_non_null(ref);
    assert_non_null(fill);
    uint64_t t = 0, lines = 2ull * one.sets * one.ways + 3, addr = 0;
    uint32_t spl = geo[gi].line / geo[gi].sector;
    for (int b = 0; b < 3000; b++) {
      if (b == 1500) one.clock = batch.clock = UINT32_MAX - 37; /* renumbered soon */
      uint64_t a[40], missed[40], ev_line = 0;
      uint32_t nmissed = 0;
      int listed = 0;
      uint8_t hit[40];
      ws_cache_evict ev[40];
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t n = 1 + (uint32_t)(rng >> 33) % 40, kind = (uint32_t)(rng >> 20) & 3;
      int allocate = kind != 1, write = kind >= 2, with_ev = (rng >> 40) & 1, single = (rng >> 41) % 8 == 0;
      for (uint32_t k = 0; k < n; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = rng >> 24;
        if (k == 0 || r % 3 == 0) { /* another line: near, or far (local memory's window) */
          addr = (r % 16 == 0 ? 0x7e0000000000ull : 0x100000000ull) + (r >> 8) % lines * geo[gi].line;
        }
        a[k] = addr + (r >> 30) % spl * geo[gi].sector + (r >> 40) % geo[gi].sector;
      }
      if (single) { /* the batched cache one by one too: the two forms share state */
        for (uint32_t k = 0; k < n; k++) {
          hit[k] = (uint8_t)ws_prof_cache_access_rw(&batch, a[k], allocate, write);
          ev[k].dirty = batch.evicted_dirty, ev[k].line = batch.evicted_line;
        }
      } else if ((rng >> 42) & 1) {
        ws_prof_cache_access_n(&batch, a, n, allocate, write, hit, with_ev ? ev : NULL);
      } else { /* the run itself, listing its misses as the replay's first level does */
        nmissed = ws_cache_access_run(&batch, a, n, allocate, write, hit, with_ev ? ev : NULL, missed);
        listed = 1;
      }
      uint32_t nm = 0; /* the misses, in order, against the list */
      for (uint32_t k = 0; k < n; k++) {
        uint32_t ev_dirty;
        int h1 = ws_prof_cache_access_rw(&one, a[k], allocate, write);
        int hr = ref_access(ref, fill, &t, &one, a[k], allocate, write, &ev_line, &ev_dirty);
        if (h1 != hr || hit[k] != hr) {
          print_error("geometry %zu, batch %d, access %u (%#llx, allocate %d, write %d): "
                      "reference %d, one by one %d, batched %d\n", gi, b, k, (unsigned long long)a[k],
                      allocate, write, hr, h1, hit[k]);
          fail();
        }
        if (listed && !hr) {
          assert_true(nm < nmissed);
          assert_int_equal(missed[nm], a[k]);
        }
        nm += !hr;
        assert_int_equal(one.evicted_dirty, ev_dirty);
        if (ev_dirty) assert_int_equal(one.evicted_line, ev_line);
        if (with_ev || single) {
          assert_int_equal(ev[k].dirty, ev_dirty);
          if (ev_dirty) assert_int_equal(ev[k].line, ev_line);
        }
      }
      if (listed) assert_int_equal(nmissed, nm);
      assert_int_equal(batch.evicted_dirty, one.evicted_dirty);
      assert_int_equal(batch.hits, one.hits);
      assert_int_equal(batch.misses, one.misses);
      assert_int_equal(batch.writebacks, one.writebacks);
      assert_int_equal(batch.ndirty, one.ndirty);
    }
    assert_true(one.clock < 1000000); /* the stamps were renumbered */
    assert_true(batch.clock < 1000000);
    free(ref);
    free(fill);
    ws_prof_cache_free(&one);
    ws_prof_cache_free(&batch);
  }
}

/* The cache run's inner loop (an access to the last line, or to one the
 * table of recent lines finds: memsim.h, ws_cache_access_run_shifts)
 * against its set path alone.  A cache whose places are forgotten before
 * every access (ws_prof_cache_forget_places: no last line, an empty table)
 * takes every access through its set's index and search; the same stream
 * in batches through the run takes most of them through the inner loop.
 * After every batch the two must be the same state, field for field:
 * every filled way's tag, stamp, valid and dirty sectors, each set's fill,
 * the clock, the counts, the last eviction, the last line and where it is;
 * and the same hit, miss list and eviction for every access (once the
 * stamps are renumbered, their order within each set, not their values).  Random
 * streams with locality (runs of sectors of one line, lines coming back
 * while the table still holds them, sets that fill and evict), every kind
 * of access, the clock renumbered mid-stream. */
static void cache_run_fast_path_matches_set_path(void **st) {
  (void)st;
  static const struct { uint64_t bytes; uint32_t ways, line, sector; } geo[] = {
      {4096, 4, 128, 32}, {8 * 20 * 128, 20, 128, 32}, {7 * 5 * 64, 5, 64, 16}, {40 * 16 * 128, 16, 128, 32}};
  uint64_t rng = 97531;
  for (size_t gi = 0; gi < sizeof geo / sizeof geo[0]; gi++) {
    ws_cache fast, slow;
    assert_int_equal(ws_prof_cache_init(&fast, geo[gi].bytes, geo[gi].ways, geo[gi].line, geo[gi].sector), 0);
    assert_int_equal(ws_prof_cache_init(&slow, geo[gi].bytes, geo[gi].ways, geo[gi].line, geo[gi].sector), 0);
    uint64_t lines = 2ull * fast.sets * fast.ways + 3, addr = 0;
    uint32_t spl = geo[gi].line / geo[gi].sector;
    for (int b = 0; b < 2000; b++) {
      if (b == 1000) fast.clock = slow.clock = UINT32_MAX - 41; /* renumbered soon */
      uint64_t a[40], missed[40];
      uint8_t hit[40];
      ws_cache_evict ev[40];
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t n = 1 + (uint32_t)(rng >> 33) % 40, kind = (uint32_t)(rng >> 20) & 3;
      int allocate = kind != 1, write = kind >= 2, listed = (rng >> 42) & 1;
      for (uint32_t k = 0; k < n; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = rng >> 24;
        if (k == 0 || r % 4 == 0) /* another line: near, or far */
          addr = (r % 16 == 0 ? 0x7e0000000000ull : 0x100000000ull) + (r >> 8) % lines * geo[gi].line;
        a[k] = addr + (r >> 30) % spl * geo[gi].sector + (r >> 40) % geo[gi].sector;
      }
      uint32_t nmissed = ws_cache_access_run(&fast, a, n, allocate, write, hit, ev, listed ? missed : NULL);
      uint32_t nm = 0;
      for (uint32_t k = 0; k < n; k++) {
        ws_prof_cache_forget_places(&slow);
        int h = ws_prof_cache_access_rw(&slow, a[k], allocate, write);
        assert_int_equal(hit[k], h);
        assert_int_equal(ev[k].dirty, slow.evicted_dirty);
        if (slow.evicted_dirty) assert_int_equal(ev[k].line, slow.evicted_line);
        if (listed && !h) {
          assert_true(nm < nmissed);
          assert_int_equal(missed[nm], a[k]);
        }
        nm += !h;
      }
      if (listed) assert_int_equal(nmissed, nm);
      /* a batch renumbers the stamps when its n accesses would pass the
       * wrap, one access at a time when the one would: from then on the
       * stamps agree in their order within each set, not in value */
      const int renumbered = b >= 1000;
      if (!renumbered) assert_int_equal(fast.clock, slow.clock);
      assert_int_equal(fast.hits, slow.hits);
      assert_int_equal(fast.misses, slow.misses);
      assert_int_equal(fast.writebacks, slow.writebacks);
      assert_int_equal(fast.ndirty, slow.ndirty);
      assert_int_equal(fast.evicted_dirty, slow.evicted_dirty);
      if (slow.evicted_dirty) assert_int_equal(fast.evicted_line, slow.evicted_line);
      assert_int_equal(fast.last_set, slow.last_set);
      if (slow.last_set != UINT32_MAX) {
        assert_int_equal(fast.last_line, slow.last_line);
        assert_int_equal(fast.last_way, slow.last_way);
      }
      for (uint32_t s = 0; s < fast.sets; s++) {
        assert_int_equal(fast.fill[s], slow.fill[s]);
        for (uint32_t w = 0; w < fast.fill[s]; w++) {
          const ws_cache_group *f = ws_cache_group_of(&fast, s, w), *g = ws_cache_group_of(&slow, s, w);
          assert_int_equal(f->tag[w % 4], g->tag[w % 4]);
          if (!renumbered) assert_int_equal(f->stamp[w % 4], g->stamp[w % 4]);
          for (uint32_t u = 0; u < w; u++) /* the LRU order */
            assert_int_equal(ws_cache_group_of(&fast, s, u)->stamp[u % 4] < f->stamp[w % 4],
                             ws_cache_group_of(&slow, s, u)->stamp[u % 4] < g->stamp[w % 4]);
          assert_int_equal(f->valid[w % 4], g->valid[w % 4]);
          assert_int_equal(ws_cache_dirty(&fast, s)[w], ws_cache_dirty(&slow, s)[w]);
        }
      }
    }
    assert_true(fast.clock < 1000000); /* the stamps were renumbered */
    ws_prof_cache_free(&fast);
    ws_prof_cache_free(&slow);
  }
}

/* A cache whose ways are replaced wholesale (here: every set emptied, as
 * copying in an empty cache's lines would leave it) forgets where it found
 * lines: with its places forgotten, lines it had found before miss, where
 * its last line and recent-lines table would otherwise still point at the
 * old ways' tags. */
static void cache_forgets_places(void **st) {
  (void)st;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 16 * 4 * 128, 4, 128, 32), 0);
  uint64_t a[3] = {0x1000, 0x9000, 0x1000}; /* two lines, the first again */
  uint8_t hit[3];
  ws_prof_cache_access_n(&c, a, 3, 1, 0, hit, NULL);
  assert_int_equal(hit[2], 1); /* found again: its place recorded */
  memset(c.fill, 0, c.sets * sizeof *c.fill); /* every way replaced by none */
  ws_prof_cache_forget_places(&c);
  ws_prof_cache_access_n(&c, a, 2, 1, 0, hit, NULL);
  assert_int_equal(hit[0], 0); /* not by the last line (0x1000) */
  assert_int_equal(hit[1], 0); /* not by the recent-lines table (0x9000) */
  ws_prof_cache_free(&c);
}

/* The least recently used way of a full set (ws_cache_lru_way: four
 * stamps at a time where the ways fill whole groups) against a scan of
 * the stamps one by one, the lowest stamp and among equal ones the lowest
 * way: 1 to 24 ways, the least at every way in turn, stamps over the whole
 * 32-bit range (unsigned compares) and, one time in four, from a range of
 * 4 (ties). */
static void cache_lru_way_matches_scan(void **st) {
  (void)st;
  ws_cache_group g[6];
  uint64_t rng = 977;
  for (uint32_t ways = 1; ways <= 24; ways++)
    for (uint32_t least = 0; least < ways; least++)
      for (int rep = 0; rep < 16; rep++) {
        memset(g, 0, sizeof g);
        int ties = rep % 4 == 0;
        for (uint32_t w = 0; w < ways; w++) {
          rng = rng * 6364136223846793005ull + 1442695040888963407ull;
          uint32_t v = (uint32_t)(rng >> 32);
          g[w / 4].stamp[w % 4] = ties ? 5 + v % 4 : (v > 16 ? v : 17);
        }
        g[least / 4].stamp[least % 4] = ties ? 5 : (uint32_t)rep; /* the least (ties: one of them) */
        uint32_t want = 0;
        for (uint32_t w = 1; w < ways; w++)
          if (g[w / 4].stamp[w % 4] < g[want / 4].stamp[want % 4]) want = w;
        assert_int_equal(ws_cache_lru_way(g, ways), want);
      }
}

/* The table of recently found lines is filled when a miss allocates: the
 * missed line's entry names its group and way at once, and its next lookup
 * after another line's goes through the entry, not the set's search
 * (shown by emptying the set's count of filled ways, which the search
 * reads and the entry does not).  A line evicted since (its way now holds
 * another line) misses, though its entry still names that way: the
 * entry's way's tag is compared. */
static void cache_recent_lines(void **st) {
  (void)st;
  ws_cache c;
  assert_int_equal(ws_prof_cache_init(&c, 8 * 1 * 128, 1, 128, 32), 0); /* 8 sets of one way */
  const uint64_t a = 0x10000, la = a >> 7;
  const uint32_t sa = ws_prof_cache_set(&c, a), ia = (uint32_t)la & (WS_CACHE_RECENT - 1);
  uint64_t b = 0, o = 0; /* b: another line of a's set; o: a line of another set */
  for (uint64_t l = la + 1; !b || !o; l++) {
    if ((l & (WS_CACHE_RECENT - 1)) == ia) continue; /* entries of their own */
    if (ws_prof_cache_set(&c, l << 7) == sa) {
      if (!b) b = l << 7;
    } else if (!o) {
      o = l << 7;
    }
  }
  assert_int_equal(ws_prof_cache_access(&c, a, 1), 0);
  assert_true(c.recent[ia].tag == la + 1); /* filled by the miss */
  assert_int_equal(c.recent[ia].group, sa * c.stride); /* way 0 of set sa: its first group */
  assert_int_equal(c.recent[ia].way, 0);
  assert_int_equal(ws_prof_cache_access(&c, o, 1), 0); /* a is not the last line now */
  c.fill[sa] = 0; /* a search of a's set finds nothing */
  assert_int_equal(ws_prof_cache_access(&c, a, 1), 1); /* found by its entry */
  c.fill[sa] = 1;
  assert_int_equal(ws_prof_cache_access(&c, b, 1), 0); /* evicts a */
  assert_int_equal(ws_prof_cache_access(&c, o, 1), 1);
  assert_true(c.recent[ia].tag == la + 1); /* still names a's old way */
  assert_int_equal(ws_prof_cache_access(&c, a, 1), 0); /* but a is gone */
  assert_int_equal(ws_prof_cache_access(&c, b, 1), 0); /* a took its way back */
  ws_prof_cache_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(coalescing_cc11), cmocka_unit_test(coalescing_cc13),
      cmocka_unit_test(coalescing_cc20), cmocka_unit_test(coalescing_cc80),
      cmocka_unit_test(coalescing_partial_and_empty), cmocka_unit_test(bank_conflicts),
      cmocka_unit_test(bank_doubles), cmocka_unit_test(cache_each_line_twice),
      cmocka_unit_test(cache_lru), cmocka_unit_test(cache_fresh_after_reuse),
      cmocka_unit_test(cache_sectors),
      cmocka_unit_test(cache_eviction_names_line), cmocka_unit_test(fast_paths_match_definitions),
      cmocka_unit_test(bank_fast_paths_crafted), cmocka_unit_test(sectors_match_definition),
      cmocka_unit_test(cache_streaming), cmocka_unit_test(cache_set_spread),
      cmocka_unit_test(cache_reuse_every_pitch), cmocka_unit_test(cache_set_matches_definition),
      cmocka_unit_test(cache_batch_matches_definition), cmocka_unit_test(cache_run_fast_path_matches_set_path),
      cmocka_unit_test(cache_forgets_places),
      cmocka_unit_test(cache_lru_way_matches_scan), cmocka_unit_test(cache_recent_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
