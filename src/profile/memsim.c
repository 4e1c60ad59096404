/*
 * memsim.c — global-memory coalescing per compute capability, shared-memory
 * bank conflicts, and a sectored set-associative LRU cache (memsim.h).
 *
 * Coalescing rules (CUDA C Programming Guide, Appendix "Compute
 * Capabilities", global memory sections for 1.x, 2.x and 3.x+):
 *  1.0/1.1  per half-warp: one transaction (64 B for 4-byte words, 128 B for
 *           8-byte, two of 128 B for 16-byte) when the k-th active lane reads
 *           the k-th word of a segment aligned to 16 words; otherwise one
 *           32-byte transaction per active lane.  1- and 2-byte words never
 *           coalesce.
 *  1.2/1.3  per half-warp: take the lowest pending lane, its segment (32 B
 *           for 1-byte words, 64 B for 2-byte, 128 B for larger), serve every
 *           pending lane in it with one transaction shrunk to 64 or 32 B when
 *           only one half is used, repeat.
 *  2.x      loads cached in L1: one transaction per distinct 128-byte line.
 *  2.x uncached, stores, 3.x and later: one per distinct 32-byte sector.
 */
#include "profile/memsim.h"

#include <stdlib.h>
#include <string.h>

#include "util/bits.h"

ws_coal_rule ws_prof_coal_rule_for(int cc_major, int cc_minor, int cached_in_l1,
                              int is_store) {
  if (cc_major == 1) return cc_minor <= 1 ? WS_COAL_CC1X_STRICT : WS_COAL_CC1X_RELAXED;
  if (cc_major == 2 && cached_in_l1 && !is_store) return WS_COAL_CC2X_L1;
  return WS_COAL_SECTORS;
}

const char *ws_prof_coal_rule_name(ws_coal_rule r) {
  switch (r) {
  case WS_COAL_CC1X_STRICT: return "CC 1.0/1.1 half-warp, strict";
  case WS_COAL_CC1X_RELAXED: return "CC 1.2/1.3 half-warp segments";
  case WS_COAL_CC2X_L1: return "CC 2.x 128-byte L1 lines";
  case WS_COAL_SECTORS: return "32-byte sectors";
  }
  return "?";
}

/* Number of distinct values of (addr >> shift) over the bytes the active
 * lanes touch (first and last byte of each access), at most 64.  Lanes
 * whose blocks only grow from lane to lane (every contiguous or strided
 * access) are counted in one pass; others by a search of the blocks seen. */
static uint32_t distinct_blocks(const ws_warp_access *a, unsigned shift) {
  uint32_t n = 0, mask = a->mask;
  uint64_t prev = 0;
  int any = 0;
  for (uint32_t m = mask; m; m &= m - 1) { /* blocks that only grow */
    int l = __builtin_ctz(m);
    uint64_t first = a->addr[l] >> shift, last = (a->addr[l] + a->size - 1) >> shift;
    if (any && first < prev) goto search;
    n += (uint32_t)(last - first + 1) - (any && first == prev);
    prev = last;
    any = 1;
  }
  return n < 64 ? n : 64;
search:;
  uint64_t seen[64];
  n = 0;
  for (int l = 0; l < 32; l++) {
    if (!(mask >> l & 1)) continue;
    uint64_t first = a->addr[l] >> shift, last = (a->addr[l] + a->size - 1) >> shift;
    for (uint64_t b = first; b <= last; b++) {
      if (n && seen[n - 1] == b) continue; /* neighbouring lanes usually share one */
      uint32_t i = 0;
      while (i < n && seen[i] != b) i++;
      if (i == n && n < 64) seen[n++] = b;
    }
  }
  return n;
}

/* Sector s into the set t (generation t->gen) and, when new, onto
 * sec[*ns] (while *ns < 128), a new line counted in *nl. */
static inline void set_add(ws_sector_set *t, uint64_t s, uint64_t *sec, uint32_t *ns, uint32_t *nl) {
  const uint64_t line = s >> 7;
  const uint32_t bit = 1u << (uint32_t)(s >> 5 & 3);
  uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 56);
  while (t->e[h].gen == t->gen && t->e[h].line != line) h = (h + 1) & 255;
  if (*ns == 128) return; /* beyond the first 128: dropped */
  if (t->e[h].gen != t->gen) { /* a new line */
    t->e[h].gen = t->gen, t->e[h].line = line, t->e[h].mask = bit;
    ++*nl;
  } else if (!(t->e[h].mask & bit)) {
    t->e[h].mask |= bit;
  } else {
    return; /* a sector seen */
  }
  sec[(*ns)++] = s;
}

/* ws_prof_sectors' gather of lanes that each touch one sector (bytes <=
 * 32, no lane's bytes crossing a sector: aligned words), the lanes in m:
 * at most 32 sectors in at most 32 lines, found through a table of 64
 * slots whose occupancy is a register (no stamps to read, none to
 * clear), linear probing (always a free slot).  Their number in *ns, the
 * lines in *nl; 0 (sec clobbered) when some lane crosses a sector. */
static inline __attribute__((always_inline)) int gather_one_sector(uint32_t m, const uint64_t *addr,
                                                                 uint64_t b1, uint64_t *sec,
                                                                 uint32_t *ns_out, uint32_t *nl_out) {
  uint64_t keys[64], occ = 0, last = UINT64_MAX; /* no sector's address */
  uint8_t mask[64];
  uint32_t ns = 0, nl = 0;
  for (; m; m &= m - 1) {
    const uint64_t a = addr[ws_ctz32(m)], s = a & ~(uint64_t)31;
    if (((a & 31) + b1) >> 5) return 0;
    if (s == last) continue; /* neighbouring lanes often share one */
    last = s;
    const uint64_t line = s >> 7;
    const uint8_t bit = (uint8_t)(1u << (uint32_t)(s >> 5 & 3));
    uint32_t h = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 58);
    while ((occ >> h & 1) && keys[h] != line) h = (h + 1) & 63;
    if (!(occ >> h & 1)) { /* a new line */
      occ |= (uint64_t)1 << h, keys[h] = line, mask[h] = bit;
      nl++;
      sec[ns++] = s;
    } else if (!(mask[h] & bit)) {
      mask[h] |= bit;
      sec[ns++] = s;
    }
  }
  *ns_out = ns, *nl_out = nl;
  return 1;
}

WS_CLONES_V3
uint32_t ws_prof_sectors(ws_sector_set *t, uint32_t exec, const uint64_t *restrict addr, uint32_t bytes,
                         uint64_t *restrict sec, uint32_t *lines) {
  uint32_t ns = 0, nl = 0, m = exec;
  const uint64_t b1 = bytes ? bytes - 1 : 0;
  *lines = 0;
  if (!exec) return 0;
  /* A whole warp at contiguous addresses (from its ends) or at one address
   * (a broadcast: that lane's sectors) */
  const uint64_t a0 = addr[0], st = addr[1] - a0;
  if (exec == 0xffffffffu && bytes && (st == bytes || st == 0)) {
    uint64_t d = 0;
    for (uint32_t l = 0; l < 32; l++) d |= addr[l] - (a0 + (uint64_t)l * st); /* vectorised in the v3 clone */
    if (!d) {
      const uint64_t lo = a0 >> 5, n = ((a0 + 31 * st + b1) >> 5) - lo + 1; /* the last lane's last byte */
      for (uint64_t k = 0; k < n && ns < 128; k++) sec[ns++] = (lo + k) << 5;
      *lines = (uint32_t)(((sec[ns - 1] >> 7) - (sec[0] >> 7)) + 1);
      return ns;
    }
  }
  /* A whole warp whose lanes each touch one sector, the sectors never
   * falling from lane to lane (strides, the rows of a CSR matrix): the
   * lanes' sectors themselves, a new line wherever the line changes (lines
   * only grow), a lane in the sector of the one before it dropped.  The
   * test is one pass without an early exit or a branch, vectorised in the
   * x86-64-v3 clone; only a warp with repeated sectors takes the second
   * (a branch-free packing).  Others go on below. */
  if (exec == 0xffffffffu && bytes && bytes <= 32) {
    uint64_t bad = ((a0 & 31) + b1) >> 5, nl64 = 1, same = 0;
    for (uint32_t l = 1; l < 32; l++) {
      const uint64_t lo = addr[l] >> 5, prev = addr[l - 1] >> 5;
      bad |= (((addr[l] & 31) + b1) >> 5) | (prev > lo);
      nl64 += (lo >> 2) != (prev >> 2);
      same += lo == prev;
    }
    if (!bad) {
      *lines = (uint32_t)nl64;
      if (!same) {
        for (uint32_t l = 0; l < 32; l++) sec[l] = addr[l] & ~(uint64_t)31;
        return 32;
      }
      /* a lane's sector kept where it differs from the lane before (the
       * last one kept): compared in registers, not read back from sec,
       * which would chain each lane's store to the next one's load */
      uint64_t prev = a0 & ~(uint64_t)31;
      uint32_t k = 1;
      sec[0] = prev;
      for (uint32_t l = 1; l < 32; l++) {
        const uint64_t x = addr[l] & ~(uint64_t)31;
        sec[k] = x;
        k += x != prev;
        prev = x;
      }
      return k;
    }
  }
  /* Sectors that only grow from lane to lane (strides), in one pass: a
   * sector is new when it differs from the last, its line when the line
   * does.  A lane's one or two sectors (of 32 bytes or fewer) without a
   * loop. */
  uint64_t last = 0;
  if (bytes <= 32) {
    { /* the first lane: its one or two sectors, one or two lines */
      const uint64_t a = addr[ws_ctz32(m)], lo = a & ~(uint64_t)31, hi = (a + b1) & ~(uint64_t)31;
      sec[0] = lo, sec[1] = hi, ns = 1 + (hi != lo), nl = 1 + ((hi ^ lo) >> 7 != 0), last = hi;
    }
    for (m &= m - 1; m; m &= m - 1) {
      const uint64_t a = addr[ws_ctz32(m)], lo = a & ~(uint64_t)31, hi = (a + b1) & ~(uint64_t)31;
      if (lo < last) goto gather;
      if (lo != last) {
        nl += (lo ^ last) >> 7 != 0;
        sec[ns++] = last = lo;
      }
      if (hi != lo) {
        nl += (hi ^ lo) >> 7 != 0;
        sec[ns++] = last = hi;
      }
    }
  } else {
    for (; m; m &= m - 1) {
      const uint64_t a = addr[ws_ctz32(m)], lo = a & ~(uint64_t)31, n = (((a + b1) & ~(uint64_t)31) - lo) / 32 + 1;
      if (ns && lo < last) goto gather;
      for (uint64_t k = 0; k < n && ns < 128; k++) {
        const uint64_t s = lo + 32 * k;
        if (ns && s == last) continue;
        nl += !ns || s >> 7 != last >> 7;
        sec[ns++] = last = s;
      }
    }
  }
  *lines = nl;
  return ns;
gather:;
  /* a gather from lane ctz(m) on: of one sector per lane, all lanes
   * through gather_one_sector; else the sectors so far (distinct, rising)
   * into a new generation of the set, then the others through it */
  if (bytes <= 32) {
    if (gather_one_sector(exec, addr, b1, sec, &ns, &nl)) {
      *lines = nl;
      return ns;
    }
    m = exec, ns = 0; /* a lane crosses a sector: every lane through the set */
  }
  if (++t->gen == 0) { /* every entry is stale; generation 0 is none's */
    for (uint32_t i = 0; i < 256; i++) t->e[i].gen = 0;
    t->gen = 1;
  }
  const uint32_t kept = ns;
  ns = nl = 0;
  for (uint32_t i = 0; i < kept; i++) set_add(t, sec[i], sec, &ns, &nl);
  for (; m; m &= m - 1) {
    const uint64_t a = addr[ws_ctz32(m)], lo = a & ~(uint64_t)31, hi = (a + b1) & ~(uint64_t)31;
    if (!ns || sec[ns - 1] != lo) set_add(t, lo, sec, &ns, &nl); /* neighbours usually share one */
    for (uint64_t s = lo + 32, n = (hi - lo) / 32; n; n--, s += 32) set_add(t, s, sec, &ns, &nl);
  }
  *lines = nl;
  return ns;
}

static void strict_half(ws_coal_result *r, uint32_t mask, uint32_t size, const uint64_t *addr, int h) {
  uint32_t s = size;
  int active = 0, first = -1;
  for (int k = 0; k < 16; k++)
    if (mask >> (16 * h + k) & 1) {
      active++;
      if (first < 0) first = k;
    }
  if (!active) return;
  int ok = s == 4 || s == 8 || s == 16;
  uint64_t base = addr[16 * h + first] - (uint64_t)first * s;
  if (ok && base % (16ull * s) != 0) ok = 0;
  for (int k = 0; ok && k < 16; k++)
    if ((mask >> (16 * h + k) & 1) && addr[16 * h + k] != base + (uint64_t)k * s) ok = 0;
  if (ok) {
    uint32_t t = s == 16 ? 2 : 1;
    r->transactions += t;
    r->bytes_moved += s == 4 ? 64 : 128 * t;
  } else {
    r->transactions += (uint32_t)active;
    r->bytes_moved += 32u * (uint32_t)active * (s > 32 ? s / 32 : 1);
  }
}

static void relaxed_half(ws_coal_result *r, uint32_t mask, uint32_t size, const uint64_t *addr, int h) {
  uint32_t seg = size == 1 ? 32 : size == 2 ? 64 : 128;
  uint32_t pending = (mask >> (16 * h)) & 0xffffu;
  while (pending) {
    int l = __builtin_ctz(pending);
    uint64_t start = addr[16 * h + l] & ~(uint64_t)(seg - 1);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int k = 0; k < 16; k++) {
      if (!(pending >> k & 1)) continue;
      uint64_t ad = addr[16 * h + k];
      if (ad >= start && ad < start + seg) {
        if (ad < lo) lo = ad;
        if (ad + size > hi) hi = ad + size;
        pending &= ~(1u << k);
      }
    }
    if (hi > start + seg) hi = start + seg;
    uint32_t tsize = seg; /* the transaction's */
    while (tsize > 32) {
      uint32_t half = tsize / 2;
      if (hi <= start + half) {
        tsize = half;
      } else if (lo >= start + half) {
        start += half;
        tsize = half;
      } else {
        break;
      }
    }
    r->transactions++;
    r->bytes_moved += tsize;
  }
}

void ws_prof_coalesce(ws_coal_result *out, const ws_warp_access *a, ws_coal_rule rule) {
  if (!a->mask) {
    memset(out, 0, sizeof *out);
    return;
  }
  ws_prof_coalesce_counted(out, a, rule, distinct_blocks(a, 5), distinct_blocks(a, 7));
}

void ws_prof_coalesce_counted(ws_coal_result *out, const ws_warp_access *a, ws_coal_rule rule,
                              uint32_t sectors, uint32_t lines) {
  ws_prof_coalesce_counted_at(out, a->mask, a->size, a->addr, rule, sectors, lines);
}

void ws_prof_coalesce_counted_at(ws_coal_result *out, uint32_t mask, uint32_t size,
                                 const uint64_t *addr, ws_coal_rule rule, uint32_t sectors,
                                 uint32_t lines) {
  memset(out, 0, sizeof *out);
  if (!mask) return;
  out->bytes_requested = ws_popc32(mask) * size;
  out->sectors = sectors;
  out->lines = lines;
  switch (rule) {
  case WS_COAL_CC1X_STRICT:
    strict_half(out, mask, size, addr, 0);
    strict_half(out, mask, size, addr, 1);
    break;
  case WS_COAL_CC1X_RELAXED:
    relaxed_half(out, mask, size, addr, 0);
    relaxed_half(out, mask, size, addr, 1);
    break;
  case WS_COAL_CC2X_L1:
    out->transactions = out->lines;
    out->bytes_moved = 128 * out->lines;
    break;
  case WS_COAL_SECTORS:
    out->transactions = out->sectors;
    out->bytes_moved = 32 * out->sectors;
    break;
  }
}

ws_bank_config ws_prof_bank_config_for(int cc_major, int cc_minor) {
  (void)cc_minor;
  if (cc_major == 1) return (ws_bank_config){16, 4, 1};
  return (ws_bank_config){32, 4, 0};
}

/* Conflict degree of the lanes in `lanes` (a mask): the most distinct words
 * that map to one bank.  Bank counts and widths are powers of two on every
 * GPU (ws_prof_bank_config_for): shifts and masks, no divisions.  The
 * lanes' first words are gathered once (a run of lanes by a plain loop),
 * then, exactly, the first that applies:
 *  - within one window of `banks` consecutive words (contiguous and most
 *    strided accesses, broadcasts, a tiled matmul's rows; one vectorised
 *    pass: one_window): no bank serves two distinct words: 1;
 *  then for one word per lane (one more vectorised pass: word_steps):
 *  - words w_i = w_0 + i s of the i-th active lane (mod 2^64), s != 0
 *    with at most 58 trailing zero bits (any stride of real addresses):
 *    lanes i != j (|i - j| < 32, so at most 4 trailing zeros) have
 *    (i - j) s != 0 mod 2^64, distinct words; they share a bank (a bank is
 *    w mod nb, nb = 2^k dividing 2^64) when nb divides (i - j) s, that is
 *    when p = nb / gcd(s, nb) = 2^(k - min(ctz s, k)) divides i - j.  The
 *    banks' words are the lanes of one residue of i mod p: the most is
 *    ceil(n / p) (residue 0), the degree;
 *  - every word in a bank of its own: 1;
 *  - words that rise in a circle (never fall, or fall once and end at or
 *    below the first: strides, strides wrapped once modulo an array as
 *    bankconf's s[(t * bank + k) mod 1024], half-warps reading one word
 *    each as a tiled matmul's As[ty][k]) are a rotation of words that
 *    never fall, where equal words are neighbours: each word that differs
 *    from the one before it in the circle is a new distinct word, counted
 *    in its bank (if none differs, every lane has one word: a window);
 *  - others: the distinct words found through a small hash set (a bucket
 *    per bank was quadratic when every word is in one bank), each counted
 *    in its bank. */

/* phase_degree is compiled twice, for baseline x86-64 and x86-64-v3 (the
 * passes' 64-bit compares four lanes at a time), as the emulator's warp
 * loop (WS_CLONES_V3, util/bits.h). */

/* Whether the words x[i] >> sh of i < n (n >= 1), each the first of
 * `per_lane`, lie in one window of nb consecutive words modulo 2^64: their
 * offsets from the first (two's complement) span less than nb - per_lane
 * + 1.  Then the words touched are distinct modulo nb (nb divides 2^64): a
 * bank per word. */
static inline __attribute__((always_inline)) int one_window(const uint64_t *x, unsigned sh, uint32_t n,
                                                          uint32_t per_lane, uint32_t nb) {
  int64_t lo = 0, hi = 0;
  for (uint32_t i = 0; i < n; i++) { /* no early exit: one vectorised pass */
    int64_t d = (int64_t)((x[i] >> sh) - (x[0] >> sh));
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  return (uint64_t)hi - (uint64_t)lo + per_lane <= nb;
}

/* Whether words w[0 .. n) (n >= 1) rise in a circle (*rising: they never
 * fall, or fall once and end at or below where they start: a rotation of
 * words that never fall) and whether they step by one stride w[1] - w[0]
 * modulo 2^64 (*uniform; returned: the stride). */
static inline __attribute__((always_inline)) uint64_t word_steps(const uint64_t *w, uint32_t n, int *rising,
                                                               int *uniform) {
  const uint64_t s = n > 1 ? w[1] - w[0] : 0;
  uint64_t falls = 0, off = 0;
  for (uint32_t i = 1; i < n; i++) { /* vectorised, as one_window */
    falls += w[i] < w[i - 1];
    off |= (w[i] - w[i - 1]) ^ s;
  }
  *rising = falls == 0 || (falls == 1 && w[n - 1] <= w[0]), *uniform = !off;
  return s;
}

/* Word x into pow2_degree's set of distinct words (words[], and slot[h]:
 * 1 + its index, 0: empty; 256 slots for at most 128 words), counted in
 * its bank when new (a word seen again is a broadcast). */
static inline __attribute__((always_inline)) void word_add(uint64_t x, uint64_t *words, uint8_t *slot,
                                                         uint8_t *count, uint32_t *nw, uint32_t nb) {
  uint32_t h = (uint32_t)((x * 0x9e3779b97f4a7c15ull) >> 56);
  while (slot[h] && words[slot[h] - 1] != x) h = (h + 1) & 255;
  if (slot[h]) return;
  words[(*nw)++] = x;
  slot[h] = (uint8_t)*nw;
  count[(uint32_t)x & (nb - 1)]++;
}

/* phase_degree for power-of-two banks and bank widths: the n = ws_lanes32(lanes)
 * active lanes from l0 on, sh = log2(bank bytes), nb banks (<= 64);
 * inline so that a whole warp (n = 32, l0 = 0) gets loops of a known
 * count. */
static inline __attribute__((always_inline)) uint32_t pow2_degree(const uint64_t *addr, uint32_t lanes,
                                                                uint32_t l0, uint32_t n,
                                                                uint32_t per_lane, unsigned sh,
                                                                uint32_t nb) {
  /* the active lanes' (first) words, in lane order; a run of lanes
   * l0 .. l0 + n - 1 is tested for a window on its addresses, and its
   * words listed only when that fails */
  uint64_t w[32];
  const uint32_t run = lanes >> l0;
  w[0] = addr[l0] >> sh;
  if (!(run & (run + 1))) {
    if (one_window(addr + l0, sh, n, per_lane, nb)) return 1;
    for (uint32_t i = 1; i < n; i++) w[i] = addr[l0 + i] >> sh;
  } else {
    uint32_t i = 1;
    for (uint32_t m = lanes & (lanes - 1); m; m &= m - 1) w[i++] = addr[ws_ctz32(m)] >> sh;
    if (one_window(w, 0, n, per_lane, nb)) return 1;
  }
  if (per_lane == 1) {
    int rising, uniform;
    const uint64_t st = word_steps(w, n, &rising, &uniform);
    if (uniform && st && __builtin_ctzll(st) <= 58) {
      const uint32_t k = ws_ctz32(nb), z = (uint32_t)__builtin_ctzll(st) < k ? (uint32_t)__builtin_ctzll(st) : k;
      return (n + (1u << (k - z)) - 1) >> (k - z); /* ceil(n / p), p = 2^(k - z) */
    }
    uint64_t banks = 0; /* (a variable shift: not in the vectorised pass) */
    for (uint32_t i = 0; i < n; i++) banks |= 1ull << (w[i] & (nb - 1));
    if (ws_popc64(banks) == n) return 1; /* a bank per word */
    if (rising) { /* a new word where it differs from the one before, in the circle */
      uint8_t count[64] = {0};
      uint32_t best = 1;
      for (uint32_t i = 0; i < n; i++) {
        if (w[i] == w[i ? i - 1 : n - 1]) continue; /* the same word: a broadcast */
        uint32_t b = (uint32_t)w[i] & (nb - 1);
        if (++count[b] > best) best = count[b];
      }
      return best;
    }
  }
  /* the distinct words in a small open-addressing set (1 + the index in
   * words[], 0: empty; at most 128 words in 256 slots), each new one
   * counted in its bank */
  uint64_t words[128];
  uint8_t slot[256], count[64] = {0};
  uint32_t nw = 0, best = 0;
  memset(slot, 0, sizeof slot);
  if (per_lane == 1) { /* one word a lane (n <= 32 words): no inner loop */
    for (uint32_t i = 0; i < n; i++) word_add(w[i], words, slot, count, &nw, nb);
  } else {
    for (uint32_t i = 0; i < n; i++)
      for (uint32_t k = 0; k < per_lane && nw < 128; k++) word_add(w[i] + k, words, slot, count, &nw, nb);
  }
  for (uint32_t b = 0; b < 64; b++) best = count[b] > best ? count[b] : best; /* one vectorised pass */
  return best;
}

WS_CLONES_V3
static uint32_t phase_degree(const uint64_t *addr, uint32_t size, uint32_t lanes,
                             const ws_bank_config *cfg) {
  uint32_t bb = (uint32_t)cfg->bank_bytes, nb = (uint32_t)cfg->banks;
  uint32_t per_lane = size > bb ? size / bb : 1;
  if (!lanes) return 0;
  if (bb && !(bb & (bb - 1)) && nb && !(nb & (nb - 1)) && nb <= 64) {
    const unsigned sh = ws_ctz32(bb);
    if (lanes == 0xffffffffu) return pow2_degree(addr, lanes, 0, 32, per_lane, sh, nb);
    return pow2_degree(addr, lanes, ws_ctz32(lanes), ws_lanes32(lanes), per_lane, sh, nb);
  }
  uint64_t words[128];
  uint32_t n = 0;
  for (int l = 0; l < 32; l++) {
    if (!(lanes >> l & 1)) continue;
    for (uint32_t k = 0; k < per_lane; k++) {
      uint64_t w = addr[l] / (uint64_t)cfg->bank_bytes + k;
      uint32_t i = 0;
      while (i < n && words[i] != w) i++;
      if (i == n && n < 128) words[n++] = w;
    }
  }
  uint32_t count[64] = {0}, best = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t b = (uint32_t)(words[i] % (uint64_t)cfg->banks);
    if (++count[b] > best) best = count[b];
  }
  return best;
}

void ws_prof_bank_conflicts(ws_bank_result *out, const ws_warp_access *a,
                       const ws_bank_config *cfg) {
  ws_prof_bank_conflicts_at(out, a->mask, a->size, a->addr, cfg);
}

void ws_prof_bank_conflicts_at(ws_bank_result *out, uint32_t mask, uint32_t size,
                               const uint64_t *addr, const ws_bank_config *cfg) {
  memset(out, 0, sizeof *out);
  if (!mask) return;
  /* Lanes served together: a half-warp on CC 1.x; on later GPUs the whole
   * warp for 4-byte words, half-warps for 8-byte, quarter-warps for 16-byte. */
  int group = 32;
  if (cfg->half_warp) group = 16;
  else if (size == 8 && cfg->bank_bytes == 4) group = 16;
  else if (size >= 16) group = 8;
  for (int g = 0; g < 32; g += group) {
    uint32_t lanes = mask & (group == 32 ? 0xffffffffu : ((1u << group) - 1) << g);
    if (!lanes) continue;
    uint32_t deg = phase_degree(addr, size, lanes, cfg);
    out->passes += deg;
    out->min_passes++;
    if (deg > out->degree) out->degree = deg;
  }
}


/* The set of line `line` (ws_prof_cache_set's definition, without a
 * division). */
static inline uint32_t set_of_line(const ws_cache *c, uint64_t line) {
  uint64_t q, h, r = ws_cache_divmod_sets(c, line, &q);
  r += ws_cache_divmod_sets(c, ws_cache_mix64(q), &h); /* < 2 sets */
  return (uint32_t)(r >= c->sets ? r - c->sets : r);
}

void ws_prof_cache_renumber(ws_cache *c) {
  for (uint32_t s = 0; s < c->sets; s++) {
    const ws_cache_group *g = c->grp + (size_t)s * c->stride;
    uint32_t f = c->fill[s];
    for (uint32_t i = 0; i < f; i++) {
      uint32_t k = 1;
      for (uint32_t w = 0; w < f; w++) k += g[w / 4].stamp[w % 4] < g[i / 4].stamp[i % 4];
      c->rank[i] = k;
    }
    for (uint32_t i = 0; i < f; i++) c->grp[(size_t)s * c->stride + i / 4].stamp[i % 4] = c->rank[i];
  }
  c->clock = c->ways;
}

void ws_prof_cache_access_n(ws_cache *c, const uint64_t *addr, uint32_t n, int allocate, int write,
                            uint8_t *hit, ws_cache_evict *evicted) {
  for (uint32_t k = 0; k < n; k += WS_CACHE_RUN_MAX) {
    uint32_t m = n - k < WS_CACHE_RUN_MAX ? n - k : WS_CACHE_RUN_MAX;
    ws_cache_evict *ev = evicted ? evicted + k : NULL;
    if (allocate && write) ws_cache_access_run(c, addr + k, m, 1, 1, hit + k, ev, NULL);
    else if (allocate) ws_cache_access_run(c, addr + k, m, 1, 0, hit + k, ev, NULL);
    else if (write) ws_cache_access_run(c, addr + k, m, 0, 1, hit + k, ev, NULL);
    else ws_cache_access_run(c, addr + k, m, 0, 0, hit + k, ev, NULL);
  }
}

int ws_prof_cache_init(ws_cache *c, uint64_t size_bytes, uint32_t ways,
                  uint32_t line_bytes, uint32_t sector_bytes) {
  memset(c, 0, sizeof *c);
  ws_prof_cache_forget_places(c);
  if (size_bytes == 0) return 0;
  /* lines of 2 bytes or more: no line address + 1 (a tag) is 0, the tag
   * of no line */
  if (!ws_is_pow2_u64(line_bytes) || line_bytes < 2 || !ws_is_pow2_u64(sector_bytes) || sector_bytes > line_bytes ||
      line_bytes / sector_bytes > 32 || ways == 0 || size_bytes % ((uint64_t)ways * line_bytes))
    return -1;
  /* stamps renumbered up to `ways` must leave the clock room to run */
  if (ways > UINT32_MAX / 4) return -1;
  c->sets = (uint32_t)(size_bytes / ((uint64_t)ways * line_bytes));
  c->ways = ways;
  c->line_bytes = line_bytes;
  c->sector_bytes = sector_bytes;
  c->line_shift = ws_log2_u64(line_bytes);
  c->sector_shift = ws_log2_u64(sector_bytes);
  c->sets_magic = UINT64_MAX / c->sets;
  c->groups = (ways + 3) / 4;
  c->stride = c->groups + (ways + 15) / 16; /* the dirty masks: 16 to a group's bytes */
  /* Only the filled ways' entries are ever read (fill), so the entries
   * are not cleared: a launch pays for the sets it touches, not for the
   * whole cache (6.25 MiB of entries for an A100's L2). */
  if (c->sets > (SIZE_MAX - sizeof *c->grp) / sizeof *c->grp / c->stride) {
    ws_prof_cache_free(c);
    return -1;
  }
  /* aligned by hand: aligned_alloc of an L2's megabytes took fresh pages
   * from the kernel at each launch, where malloc reuses freed ones */
  c->grp_mem = malloc((size_t)c->sets * c->stride * sizeof *c->grp + sizeof *c->grp - 1);
  if (c->grp_mem)
    c->grp = (ws_cache_group *)(((uintptr_t)c->grp_mem + sizeof *c->grp - 1) &
                                ~(uintptr_t)(sizeof *c->grp - 1));
  c->fill = calloc(c->sets, sizeof *c->fill);
  c->rank = malloc(ways * sizeof *c->rank);
  if (!c->grp || !c->fill || !c->rank) {
    ws_prof_cache_free(c);
    return -1;
  }
  return 0;
}

void ws_prof_cache_forget_places(ws_cache *c) {
  c->last_set = UINT32_MAX;
  memset(c->recent, 0, sizeof c->recent);
}

void ws_prof_cache_free(ws_cache *c) {
  free(c->grp_mem);
  free(c->fill);
  free(c->rank);
  memset(c, 0, sizeof *c);
}


int ws_prof_cache_access(ws_cache *c, uint64_t addr, int allocate) {
  return ws_prof_cache_access_rw(c, addr, allocate, 0);
}

uint64_t ws_prof_cache_dirty_sectors(const ws_cache *c) { return c->ndirty; }

uint32_t ws_prof_cache_set(const ws_cache *c, uint64_t addr) {
  if (!c->sets) return 0;
  return set_of_line(c, addr >> c->line_shift);
}

int ws_prof_cache_access_rw(ws_cache *c, uint64_t addr, int allocate, int write) {
  uint8_t hit;
  ws_prof_cache_access_n(c, &addr, 1, allocate, write, &hit, NULL);
  return hit;
}
