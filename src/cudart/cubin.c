/*
 * cubin.c — what a CUDA cubin (an ELF64 image of a fat binary) says of its
 * kernels' resources: registers per thread, static shared bytes per
 * block, local (stack frame) bytes per thread (cubin.h).  Every size and
 * offset read from the image is checked against its length first: the
 * bytes come from the program's own memory.
 *
 * Where each figure lives (as nvcc 13 writes a cubin):
 *   registers  EIATTR_REGCOUNT (0x2f) records of the .nv.info section
 *              (u32 symbol index, u32 count); else bits 24..31 of the
 *              sh_info of the kernel's .text.NAME section
 *   shared     the size of the kernel's .nv.shared.NAME section (absent:
 *              no static shared memory)
 *   local      EIATTR_FRAME_SIZE (0x11) records of .nv.info (u32 symbol,
 *              u32 bytes)
 * .nv.info records are u8 format, u8 attribute, then (format 0x04) a u16
 * size and that many bytes, or (formats 0x01..0x03) no more than a u16.
 */
#include "cudart/cubin.h"

#include <string.h>

#define EIATTR_FRAME_SIZE 0x11
#define EIATTR_REGCOUNT 0x2f
#define EIFMT_SVAL 0x04

static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

typedef struct shdr {
  uint32_t name, type, info, link;
  uint64_t off, size;
} shdr;

/* Section i's header; 0, or -1 when the image is too short for it. */
static int section(const unsigned char *e, size_t n, uint32_t i, shdr *s) {
  uint64_t shoff = le64(e + 0x28), ent = le16(e + 0x3a), off;
  if (ent < 0x40 || shoff > n || i > (n - shoff) / ent) return -1;
  off = shoff + (uint64_t)i * ent;
  if (n - off < 0x40) return -1;
  const unsigned char *h = e + off;
  s->name = le32(h);
  s->type = le32(h + 4);
  s->off = le64(h + 0x18);
  s->size = le64(h + 0x20);
  s->link = le32(h + 0x28);
  s->info = le32(h + 0x2c);
  return 0;
}

/* The NUL-terminated string at offset `at` of string-table section st, or
 * NULL when it is not inside the image. */
static const char *str_at(const unsigned char *e, size_t n, const shdr *st, uint32_t at) {
  if (st->off > n || st->size > n - st->off || at >= st->size) return NULL;
  const char *s = (const char *)e + st->off + at;
  return memchr(s, 0, st->size - at) ? s : NULL;
}

int ws_cubin_kernel(const unsigned char *e, size_t n, const char *kernel, ws_cubin_res *out) {
  memset(out, 0, sizeof *out);
  if (n < 0x40 || memcmp(e, "\x7f" "ELF", 4) || e[4] != 2 /* ELF64 */ || e[5] != 1 /* little-endian */) return -1;
  uint32_t nsec = le16(e + 0x3c), shstrndx = le16(e + 0x3e);
  shdr shstr, sym = {0}, strtab = {0}, info = {0};
  if (section(e, n, shstrndx, &shstr)) return -1;
  size_t klen = strlen(kernel);
  int have_text = 0, have_sym = 0, have_info = 0;
  for (uint32_t i = 0; i < nsec; i++) {
    shdr s;
    if (section(e, n, i, &s)) return -1;
    const char *nm = str_at(e, n, &shstr, s.name);
    if (!nm) continue;
    if (s.type == 2 /* SHT_SYMTAB */) {
      sym = s;
      have_sym = section(e, n, s.link, &strtab) == 0;
    } else if (strcmp(nm, ".nv.info") == 0) {
      info = s;
      have_info = 1;
    } else if (strncmp(nm, ".text.", 6) == 0 && strcmp(nm + 6, kernel) == 0) {
      out->registers = s.info >> 24;
      have_text = 1;
    } else if (strncmp(nm, ".nv.shared.", 11) == 0 && strcmp(nm + 11, kernel) == 0) {
      out->shared_bytes = s.size;
    }
  }
  if (!have_text) return 1; /* not a kernel of this image */
  /* the kernel's symbol index, for the .nv.info records */
  uint64_t ksym = UINT64_MAX;
  if (have_sym && sym.off <= n && sym.size <= n - sym.off)
    for (uint64_t k = 0; k < sym.size / 24; k++) {
      const char *nm = str_at(e, n, &strtab, le32(e + sym.off + k * 24));
      if (nm && strlen(nm) == klen && memcmp(nm, kernel, klen) == 0) {
        ksym = k;
        break;
      }
    }
  if (have_info && ksym != UINT64_MAX && info.off <= n && info.size <= n - info.off) {
    const unsigned char *p = e + info.off, *end = p + info.size;
    while (end - p >= 4) {
      unsigned fmt = p[0], attr = p[1];
      uint32_t len = fmt == EIFMT_SVAL ? le16(p + 2) : 0;
      if (len > (size_t)(end - p) - 4) break;
      if (fmt == EIFMT_SVAL && len >= 8 && le32(p + 4) == ksym) {
        if (attr == EIATTR_REGCOUNT) out->registers = le32(p + 8);
        if (attr == EIATTR_FRAME_SIZE) out->local_bytes = le32(p + 8);
      }
      p += 4 + len;
    }
  }
  return 0;
}
