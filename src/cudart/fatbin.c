/*
 * fatbin.c — the fat-binary container (fatbin.h).  Layout, all little-endian,
 * as nvcc 13.0 writes it (docs/exec.md has the table):
 *   container: u32 magic 0xBA55ED50, u16 version, u16 header size, u64 bytes
 *              of entries that follow;
 *   entry:     u16 kind (1 PTX, 2 ELF) at +0, u32 header size at +4, u64
 *              payload size at +8, u32 compressed size at +0x10, u32 arch
 *              at +0x1c, u64 flags at +0x28 (0x8000 zstd, 0x2000 LZ4 block),
 *              u64 uncompressed size at +0x38; the payload follows the
 *              entry header.
 * The payload is read from the program's own memory: the container's
 * declared size bounds every read.
 */
#include "cudart/fatbin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "util/strbuf.h"

#define CONTAINER_MAGIC 0xBA55ED50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_ZSTD 0x8000u
#define FLAG_LZ4 0x2000u
#define MAX_PTX_BYTES (1ull << 30) /* refuse absurd sizes from a corrupt header */

static uint32_t rd32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* An LZ4 length continued past its 4-bit field: bytes of 255 and one below,
 * added to *len.  0, or -1 when the input ends inside it. */
static int lz4_more(size_t *len, const unsigned char *src, size_t n, size_t *i) {
  unsigned b;
  do {
    if (*i >= n) return -1;
    b = src[(*i)++];
    *len += b;
  } while (b == 255);
  return 0;
}

long ws_lz4_block_decode(unsigned char *dst, size_t cap, const unsigned char *src, size_t n) {
  size_t i = 0, o = 0;
  while (i < n) {
    unsigned tok = src[i++];
    size_t lit = tok >> 4;
    if (lit == 15 && lz4_more(&lit, src, n, &i)) return -1;
    if (lit > n - i || lit > cap - o) return -1;
    memcpy(dst + o, src + i, lit);
    i += lit;
    o += lit;
    if (i == n) break; /* the last sequence has literals only */
    if (n - i < 2) return -1;
    size_t off = (size_t)src[i] | (size_t)src[i + 1] << 8;
    i += 2;
    size_t len = (tok & 15u) + 4;
    if ((tok & 15u) == 15 && lz4_more(&len, src, n, &i)) return -1;
    if (off == 0 || off > o || len > cap - o) return -1;
    for (size_t k = 0; k < len; k++, o++) dst[o] = dst[o - off]; /* may overlap */
  }
  return (long)o;
}

/* The payload of one entry, decompressed, NUL-terminated (*len its bytes). */
static int entry_bytes(char **out, size_t *len, const unsigned char *e, uint32_t hsize, uint64_t psize,
                       ws_diag *d) {
  uint32_t csize = rd32(e + 0x10);
  uint64_t flags = rd64(e + 0x28), usize = rd64(e + 0x38);
  const unsigned char *pay = e + hsize;
  int z = (flags & FLAG_ZSTD) != 0, l4 = (flags & FLAG_LZ4) != 0;
  if (!z && !l4) {
    if (flags & 0xff00u)
      return ws_diag_error(d, "fat binary: entry compressed by an unknown method (flags 0x%llx)",
                           (unsigned long long)flags), WS_EUNSUP;
    ws_strbuf t = WS_STRBUF_INIT;
    ws_sb_putn(&t, (const char *)pay, psize);
    if (len) *len = t.n;
    return (*out = ws_sb_take(&t)) ? WS_OK : WS_ENOMEM;
  }
  if (csize > psize || usize == 0 || usize > MAX_PTX_BYTES)
    return ws_diag_error(d, "fat binary: bad compressed PTX entry (compressed %u of %llu bytes, "
                         "uncompressed %llu)", csize, (unsigned long long)psize,
                         (unsigned long long)usize);
  char *t = malloc(usize + 1);
  if (!t) return WS_ENOMEM;
  size_t got;
  if (z) {
    got = ZSTD_decompress(t, usize, pay, csize);
    if (ZSTD_isError(got)) {
      ws_diag_error(d, "fat binary: zstd: %s", ZSTD_getErrorName(got));
      free(t);
      return WS_EINVAL;
    }
  } else {
    long g = ws_lz4_block_decode((unsigned char *)t, usize, pay, csize);
    if (g < 0) {
      ws_diag_error(d, "fat binary: malformed LZ4 block in a PTX entry");
      free(t);
      return WS_EINVAL;
    }
    got = (size_t)g;
  }
  t[got] = 0;
  if (len) *len = got;
  *out = t;
  return WS_OK;
}

/* The best entry of `kind` (see ws_fatbin_ptx; exact: only an
 * architecture <= max_arch); 1, with no diagnostic, when there is none. */
static int find_entry(char **out, size_t *len, int *arch, const void *data, uint64_t avail, int max_arch,
                      int kind, int exact, ws_diag *d) {
  const unsigned char *c = data;
  *out = NULL;
  if (!c || avail < 16 || rd32(c) != CONTAINER_MAGIC)
    return ws_diag_error(d, "fat binary: not a fat-binary container (magic 0x%08x, expected 0x%08x)",
                         c && avail >= 4 ? rd32(c) : 0u, CONTAINER_MAGIC);
  /* every size is checked against what is left before it is added to an
   * offset, so no sum can wrap (issue 24, row 2) */
  uint64_t chdr = rd16(c + 6), total = rd64(c + 8);
  if (chdr < 16 || chdr > avail || total > avail - chdr)
    return ws_diag_error(d, "fat binary: the container's header (%llu bytes) and entries (%llu "
                         "bytes) run past its %llu bytes", (unsigned long long)chdr,
                         (unsigned long long)total, (unsigned long long)avail);
  uint64_t off = chdr, end = chdr + total, best = 0;
  int best_arch = 0, found = 0;
  while (end - off >= 0x40) {
    const unsigned char *e = c + off;
    uint64_t hsize = rd32(e + 4), psize = rd64(e + 8), left = end - off;
    if (hsize < 0x40 || hsize > left || psize > left - hsize)
      return ws_diag_error(d, "fat binary: truncated entry at offset %llu (header %llu and payload "
                           "%llu bytes, %llu left in the container)", (unsigned long long)off,
                           (unsigned long long)hsize, (unsigned long long)psize,
                           (unsigned long long)left);
    int a = (int)rd32(e + 0x1c);
    if (rd16(e) == kind && (!exact || a <= max_arch)) {
      int better = !found || (a <= max_arch && (best_arch > max_arch || a > best_arch)) ||
                   (a > max_arch && best_arch > max_arch && a < best_arch);
      if (better) best = off, best_arch = a, found = 1;
    }
    off += hsize + psize;
  }
  if (!found) return 1;
  *arch = best_arch;
  return entry_bytes(out, len, c + best, rd32(c + best + 4), rd64(c + best + 8), d);
}

int ws_fatbin_ptx(char **out, int *arch, const void *data, uint64_t avail, int max_arch,
                  ws_diag *d) {
  int st = find_entry(out, NULL, arch, data, avail, max_arch, KIND_PTX, 0, d);
  if (st != 1) return st;
  ws_diag_error(d, "fat binary: no PTX entry (build the program with PTX in it, e.g. "
                "nvcc -arch=sm_80, which embeds compute_80 PTX)");
  return WS_EUNSUP;
}

int ws_fatbin_elf(unsigned char **out, size_t *len, int *arch, const void *data, uint64_t avail, int max_arch,
                  ws_diag *d) {
  *len = 0;
  *out = NULL;
  int st = find_entry((char **)out, len, arch, data, avail, max_arch, KIND_ELF, 0, d);
  return st == 1 ? WS_EUNSUP : st;
}

uint64_t ws_fatbin_size(const void *data) {
  const unsigned char *c = data;
  if (!c || rd32(c) != CONTAINER_MAGIC) return 16; /* enough to read the magic and refuse it */
  uint64_t total = rd64(c + 8), chdr = rd16(c + 6);
  return total > UINT64_MAX - chdr ? UINT64_MAX : chdr + total;
}
