/*
 * test_fatbin.c — the fat-binary reader (src/cudart/fatbin.c) on containers
 * built here byte by byte after the layout nvcc 13.0 writes (docs/exec.md):
 * choice of the architecture, zstd (compressed here by libzstd itself) and
 * LZ4 block entries (hand-encoded), and the errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <cmocka.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_best_arch),
      cmocka_unit_test(test_lz4),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_sizes_past_the_container),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
