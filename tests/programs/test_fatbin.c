/*
 * test_fatbin.c — the fat-binary reader (src/cudart/fatbin.c) on containers
 * built here byte by byte after the layout nvcc 13.0 writes (docs/exec.md):
 * choice of the architecture, zstd (compressed here by libzstd itself) and
 * LZ4 block entries (hand-encoded), and the errors; the cubin reader
 * (src/cudart/cubin.c) on an ELF image laid out as nvcc 13 lays out a
 * cubin's sections, and the cubin entry of a container (ws_fatbin_elf).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <cmocka.h>

#include "cudart/cubin.h"
#include "cudart/fatbin.h"

static unsigned char buf[8192];
static size_t used;

static void put(size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) buf[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void begin(void) {
  memset(buf, 0, sizeof buf);
  put(0, 0xBA55ED50u, 4);
  put(4, 1, 2);
  put(6, 16, 2);
  used = 16;
}

/* Append an entry: kind, arch, flags, payload (as stored), uncompressed size. */
static void entry(int kind, int arch, uint64_t flags, const void *pay, size_t n, size_t usize) {
  size_t e = used, padded = (n + 7) & ~(size_t)7;
  put(e + 0, (uint64_t)kind, 2);
  put(e + 2, 0x0101, 2);
  put(e + 4, 0x50, 4);
  put(e + 8, padded, 8);
  put(e + 0x10, usize ? n : 0, 4);
  put(e + 0x1c, (uint64_t)arch, 4);
  put(e + 0x28, flags, 8);
  put(e + 0x38, usize, 8);
  memcpy(buf + e + 0x50, pay, n);
  used = e + 0x50 + padded;
  put(8, used - 16, 8);
}

static const char *ptx75 = ".version 7.5\n// 75\n";
static const char *ptx80 = ".version 9.0\n.target sm_80\n// the 80 entry, compressed\n";
static const char *ptx90 = ".version 9.0\n// 90\n";

static void build(void) {
  begin();
  entry(2, 80, 0x11, "\x7f" "ELF", 4, 0); /* a cubin: never chosen */
  entry(1, 75, 0x11, ptx75, strlen(ptx75) + 1, 0);
  unsigned char z[512];
  size_t zn = ZSTD_compress(z, sizeof z, ptx80, strlen(ptx80) + 1, 3);
  assert_false(ZSTD_isError(zn));
  entry(1, 80, 0x8011, z, zn, strlen(ptx80) + 1);
  entry(1, 90, 0x11, ptx90, strlen(ptx90) + 1, 0);
}

static void pick(int max_arch, int want_arch, const char *want) {
  char *t = NULL;
  int arch = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_fatbin_ptx(&t, &arch, buf, sizeof buf, max_arch, &d), WS_OK);
  assert_int_equal(arch, want_arch);
  assert_string_equal(t, want);
  free(t);
  ws_diag_free(&d);
}

static void test_best_arch(void **state) {
  (void)state;
  build();
  pick(80, 80, ptx80);  /* exact, zstd-compressed */
  pick(86, 80, ptx80);  /* the highest <= 8.6 */
  pick(100, 90, ptx90); /* the highest of all */
  pick(70, 75, ptx75);  /* none <= 7.0: the lowest above */
}

static void test_lz4(void **state) {
  (void)state;
  /* Hand-encoded block: token 0x35 = 3 literals "abc", then a match of
   * 4 + 5 = 9 bytes at offset 3 -> "abc" + "abcabcabc". */
  static const unsigned char blk[] = {0x35, 'a', 'b', 'c', 3, 0};
  unsigned char out[32];
  assert_int_equal(ws_lz4_block_decode(out, sizeof out, blk, sizeof blk), 12);
  assert_memory_equal(out, "abcabcabcabc", 12);
  assert_int_equal(ws_lz4_block_decode(out, 8, blk, sizeof blk), -1); /* no room */
  static const unsigned char bad[] = {0x35, 'a', 'b', 'c', 0, 0};     /* offset 0 */
  assert_int_equal(ws_lz4_block_decode(out, sizeof out, bad, sizeof bad), -1);
  /* The same block as a PTX entry with the LZ4 flag (0x2000). */
  static const unsigned char ptx[] = {0x35, 'a', 'b', 'c', 3, 0, 0x10, 0};
  begin();
  entry(1, 80, 0x2011, ptx, sizeof ptx, 13); /* + a literal-only NUL sequence */
  pick(80, 80, "abcabcabcabc");
}

static size_t avail = sizeof buf; /* bytes the reader may read */

static void expect_error(int want_status, const char *want_text) {
  char *t = NULL;
  int arch = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_fatbin_ptx(&t, &arch, buf, avail, 80, &d), want_status);
  assert_null(t);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, want_text));
  free(msg);
  ws_diag_free(&d);
}

static void test_errors(void **state) {
  (void)state;
  build();
  put(0, 0x12345678u, 4);
  expect_error(WS_EINVAL, "not a fat-binary container");
  begin();
  entry(2, 80, 0x11, "\x7f" "ELF", 4, 0);
  expect_error(WS_EUNSUP, "no PTX entry");
  begin();
  entry(1, 80, 0x4011, "xx", 2, 0);
  expect_error(WS_EUNSUP, "unknown method (flags 0x4011)");
  build();
  put(8, used, 8); /* the header claims more than there is */
  put(16 + 8, 4096, 8);
  expect_error(WS_EINVAL, "truncated entry");
}

/* Issue 24, row 2: a PTX entry whose header size runs past the container.
 * The old check subtracted the header size from what was left before
 * comparing, which wrapped, and the reader then read the payload 4 GiB
 * away (SIGSEGV, or an ASan heap-buffer-overflow).  Given exactly the
 * container's bytes, each size must be refused before it is used. */
static void test_sizes_past_the_container(void **state) {
  (void)state;
  begin();
  entry(1, 80, 0x11, ".version 9.0\n", 14, 0);
  put(16 + 4, 0xFFFFFFF0u, 4); /* header size */
  avail = used;
  expect_error(WS_EINVAL, "truncated entry at offset 16");
  begin();
  entry(1, 80, 0x11, ".version 9.0\n", 14, 0);
  put(16 + 8, UINT64_MAX - 8, 8); /* payload size */
  expect_error(WS_EINVAL, "truncated entry at offset 16");
  begin();
  entry(1, 80, 0x11, ".version 9.0\n", 14, 0);
  put(6, 0xFFFF, 2); /* container header size */
  expect_error(WS_EINVAL, "run past");
  begin();
  entry(1, 80, 0x11, ".version 9.0\n", 14, 0);
  put(8, UINT64_MAX - 4, 8); /* bytes of entries */
  expect_error(WS_EINVAL, "run past");
  avail = 8; /* not even a container header */
  expect_error(WS_EINVAL, "not a fat-binary container");
  avail = sizeof buf;
}

/* ---- cubins -------------------------------------------------------------------- */

static unsigned char elf[2048];
static size_t elf_n;

static void eput(size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) elf[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Append bytes at an 8-aligned offset; their offset. */
static size_t eappend(const void *p, size_t n) {
  size_t at = (elf_n + 7) & ~(size_t)7;
  memcpy(elf + at, p, n);
  elf_n = at + n;
  return at;
}

/* An ELF64 cubin with kernels k and other: sections
 *   0 null, 1 .shstrtab, 2 .strtab, 3 .symtab (null, k, other),
 *   4 .nv.info, 5 .text.k (sh_info 32 << 24), 6 .nv.shared.k (1024 bytes),
 *   7 .text.other (sh_info 40 << 24)
 * .nv.info: an attribute of another format first (format 0x03, no size),
 * then REGCOUNT(k) = 30, FRAME_SIZE(k) = 16, REGCOUNT(other) = 99 (format
 * 0x04: u16 size 8, u32 symbol, u32 value); with_info 0 leaves it empty,
 * and the registers come from the .text sections' sh_info. */
static void build_cubin(int with_info) {
  memset(elf, 0, sizeof elf);
  elf_n = 0x40;
  static const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0.text.k\0.nv.shared.k\0.text.other";
  static const char str[] = "\0k\0other";
  size_t shstr_at = eappend(shstr, sizeof shstr), str_at = eappend(str, sizeof str);
  unsigned char sym[3 * 24] = {0};
  sym[24] = 1;      /* "k" */
  sym[48] = 3;      /* "other" */
  size_t sym_at = eappend(sym, sizeof sym);
  unsigned char info[4 + 3 * 12];
  size_t ni = 0;
  info[ni++] = 0x03, info[ni++] = 0x1b, info[ni++] = 0x20, info[ni++] = 0; /* format 3: value in the u16 */
  const uint32_t rec[3][3] = {{0x2f, 1, 30}, {0x11, 1, 16}, {0x2f, 2, 99}};
  for (int r = 0; r < 3; r++) {
    info[ni++] = 0x04, info[ni++] = (unsigned char)rec[r][0], info[ni++] = 8, info[ni++] = 0;
    for (int b = 0; b < 4; b++) info[ni++] = (unsigned char)(rec[r][1] >> (8 * b));
    for (int b = 0; b < 4; b++) info[ni++] = (unsigned char)(rec[r][2] >> (8 * b));
  }
  size_t info_at = eappend(info, with_info ? ni : 0);
  static const unsigned char code[16] = {0};
  size_t text_at = eappend(code, sizeof code);
  /* section headers */
  const struct { uint32_t name, type; size_t off, size; uint32_t link, info; } sh[8] = {
      {0, 0, 0, 0, 0, 0},
      {1, 3, shstr_at, sizeof shstr, 0, 0},
      {11, 3, str_at, sizeof str, 0, 0},
      {19, 2, sym_at, sizeof sym, 2, 1},
      {27, 0x70000000, info_at, with_info ? ni : 0, 3, 0},
      {36, 1, text_at, sizeof code, 3, 32u << 24},
      {44, 8, 0, 1024, 0, 0},
      {57, 1, text_at, sizeof code, 3, 40u << 24},
  };
  size_t shoff = (elf_n + 7) & ~(size_t)7;
  for (int i = 0; i < 8; i++) {
    size_t h = shoff + (size_t)i * 0x40;
    eput(h, sh[i].name, 4);
    eput(h + 4, sh[i].type, 4);
    eput(h + 0x18, sh[i].off, 8);
    eput(h + 0x20, sh[i].size, 8);
    eput(h + 0x28, sh[i].link, 4);
    eput(h + 0x2c, sh[i].info, 4);
    eput(h + 0x38, 0x40, 8); /* entsize: unused */
  }
  elf_n = shoff + 8 * 0x40;
  memcpy(elf, "\x7f" "ELF", 4);
  elf[4] = 2, elf[5] = 1, elf[6] = 1;
  eput(0x10, 2, 2);     /* ET_EXEC */
  eput(0x12, 190, 2);   /* EM_CUDA */
  eput(0x28, shoff, 8);
  eput(0x34, 0x40, 2);  /* ehsize */
  eput(0x3a, 0x40, 2);  /* shentsize */
  eput(0x3c, 8, 2);     /* shnum */
  eput(0x3e, 1, 2);     /* shstrndx */
}

static void test_cubin_resources(void **state) {
  (void)state;
  ws_cubin_res r;
  build_cubin(1);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "k", &r), 0);
  assert_int_equal(r.registers, 30); /* .nv.info wins over sh_info's 32 */
  assert_int_equal(r.shared_bytes, 1024);
  assert_int_equal(r.local_bytes, 16);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "other", &r), 0);
  assert_int_equal(r.registers, 99);
  assert_int_equal(r.shared_bytes, 0);
  assert_int_equal(r.local_bytes, 0);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "nope", &r), 1);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "", &r), 1);
  build_cubin(0); /* no .nv.info records: sh_info's bits 24..31 */
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "k", &r), 0);
  assert_int_equal(r.registers, 32);
  assert_int_equal(r.local_bytes, 0);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "other", &r), 0);
  assert_int_equal(r.registers, 40);
}

/* Not a cubin, or one whose sizes run past the image: -1, never a read
 * outside it (the ASan build checks). */
static void test_cubin_bad(void **state) {
  (void)state;
  ws_cubin_res r;
  build_cubin(1);
  assert_int_equal(ws_cubin_kernel(elf, 0x30, "k", &r), -1);  /* shorter than the ELF header */
  assert_int_equal(ws_cubin_kernel((const unsigned char *)".version 9.0\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
                                   "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
                                   64, "k", &r), -1);
  assert_int_equal(ws_cubin_kernel(elf, elf_n - 1, "k", &r), -1); /* the last section header cut */
  build_cubin(1);
  eput(0x28, UINT64_MAX - 8, 8); /* section headers past the end */
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "k", &r), -1);
  build_cubin(1);
  /* .nv.info's size past the end: its records are ignored, the rest read */
  size_t shoff = elf_n - 8 * 0x40;
  eput(shoff + 4 * 0x40 + 0x20, 1u << 30, 8);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "k", &r), 0);
  assert_int_equal(r.registers, 32);
  build_cubin(1);
  /* a record whose size runs past the section: reading stops there */
  size_t info_off = (size_t)elf[shoff + 4 * 0x40 + 0x18] | (size_t)elf[shoff + 4 * 0x40 + 0x19] << 8;
  eput(info_off + 4 + 2, 0xffff, 2);
  assert_int_equal(ws_cubin_kernel(elf, elf_n, "k", &r), 0);
  assert_int_equal(r.registers, 32);
  assert_int_equal(r.local_bytes, 0);
}

/* ws_fatbin_elf: the cubin of the best architecture, as for PTX. */
static void test_fatbin_elf(void **state) {
  (void)state;
  build_cubin(1);
  begin();
  entry(2, 75, 0x11, "\x7f" "ELF-75", 7, 0);
  entry(1, 80, 0x11, ptx80, strlen(ptx80) + 1, 0);
  unsigned char z[2048];
  size_t zn = ZSTD_compress(z, sizeof z, elf, elf_n, 3);
  assert_false(ZSTD_isError(zn));
  entry(2, 80, 0x8011, z, zn, elf_n);
  unsigned char *out = NULL;
  size_t len = 0;
  int arch = 0;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_fatbin_elf(&out, &len, &arch, buf, sizeof buf, 86, &d), WS_OK);
  assert_int_equal(arch, 80);
  assert_int_equal(len, elf_n);
  assert_memory_equal(out, elf, elf_n);
  ws_cubin_res r;
  assert_int_equal(ws_cubin_kernel(out, len, "k", &r), 0);
  assert_int_equal(r.registers, 30);
  free(out);
  assert_int_equal(ws_fatbin_elf(&out, &len, &arch, buf, sizeof buf, 75, &d), WS_OK);
  assert_int_equal(arch, 75);
  assert_int_equal(len, 8); /* an uncompressed payload with its padding to 8 bytes */
  assert_memory_equal(out, "\x7f" "ELF-75", 7);
  free(out);
  begin();
  entry(1, 80, 0x11, ptx80, strlen(ptx80) + 1, 0);
  assert_int_equal(ws_fatbin_elf(&out, &len, &arch, buf, sizeof buf, 80, &d), WS_EUNSUP);
  ws_diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_best_arch),
      cmocka_unit_test(test_lz4),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_sizes_past_the_container),
      cmocka_unit_test(test_cubin_resources),
      cmocka_unit_test(test_cubin_bad),
      cmocka_unit_test(test_fatbin_elf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
