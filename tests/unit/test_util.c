/*
 * test_util.c — the small toolkit under src/util: growable arrays (vec.h),
 * string buffers (strbuf.h), bit helpers (bits.h), checked arithmetic
 * (checked.h), the diagnostics' text (ws_diag_format, ws_diag_print), and
 * finding, running the toolkit and reading `ptxas -v` (tool.h).  Expected values are worked out by hand in the comments.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/bits.h"
#include "util/file.h"
#include "util/number.h"
#include "util/json.h"
#include "util/checked.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/tool.h"
#include "util/vec.h"

static void test_vec_push_and_reserve(void **state) {
  (void)state;
  int *v = NULL;
  size_t n = 0, cap = 0;
  for (int i = 0; i < 1000; i++) assert_int_equal(WS_VEC_PUSH(v, n, cap, i * 3), WS_OK);
  assert_int_equal(n, 1000);
  /* Doubling from 16: 16, 32, ..., 1024 is the first capacity >= 1000. */
  assert_int_equal(cap, 1024);
  for (int i = 0; i < 1000; i++) assert_int_equal(v[i], i * 3);
  /* Reserving less than the capacity changes nothing. */
  int *before = v;
  assert_int_equal(WS_VEC_RESERVE(v, cap, 10), WS_OK);
  assert_ptr_equal(v, before);
  assert_int_equal(cap, 1024);
  free(v);
}

static void test_vec_overflow_leaves_array(void **state) {
  (void)state;
  uint64_t *v = NULL;
  size_t n = 0, cap = 0;
  assert_int_equal(WS_VEC_PUSH(v, n, cap, 7), WS_OK);
  uint64_t *before = v;
  /* SIZE_MAX / 4 elements of 8 bytes overflow size_t: refused, untouched. */
  assert_int_equal(WS_VEC_RESERVE(v, cap, SIZE_MAX / 4), WS_ENOMEM);
  assert_ptr_equal(v, before);
  assert_int_equal(cap, 16);
  assert_int_equal(n, 1);
  assert_int_equal(v[0], 7);
  free(v);
}

static void test_strbuf(void **state) {
  (void)state;
  ws_strbuf b = WS_STRBUF_INIT;
  assert_string_equal(ws_sb_str(&b), "");
  ws_sb_puts(&b, "block ");
  ws_sb_printf(&b, "(%d, %d)", 3, 14);
  ws_sb_putc(&b, '!');
  assert_string_equal(ws_sb_str(&b), "block (3, 14)!");
  assert_int_equal(b.n, strlen("block (3, 14)!"));
  /* A long append crosses several doublings. */
  for (int i = 0; i < 500; i++) ws_sb_puts(&b, "0123456789");
  assert_int_equal(b.n, 14 + 5000);
  char *s = ws_sb_take(&b);
  assert_non_null(s);
  assert_int_equal(strlen(s), 5014);
  assert_memory_equal(s + 14, "0123456789", 10);
  assert_null(b.s);
  free(s);
  /* Taking an empty buffer gives "", not NULL. */
  s = ws_sb_take(&b);
  assert_string_equal(s, "");
  free(s);
  char *d = ws_strdup("abc");
  assert_string_equal(d, "abc");
  free(d);
  assert_null(ws_strdup(NULL));
}

/* Counts as the CLI and the WARPSIGHT_* variables take them; the values are
 * written by hand (2^10 = 1024, 3 x 2^30 = 3221225472, 2^64 - 1). */
static void test_parse_count(void **state) {
  (void)state;
  uint64_t v = 7;
  assert_int_equal(ws_parse_count("0", 0, &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(ws_parse_count("18446744073709551615", 0, &v), 0);
  assert_true(v == 18446744073709551615ull);
  assert_int_equal(ws_parse_count("1K", 1, &v), 0);
  assert_int_equal(v, 1024);
  assert_int_equal(ws_parse_count("3G", 1, &v), 0);
  assert_true(v == 3221225472ull);
  assert_int_equal(ws_parse_count("16777215T", 1, &v), 0);
  assert_true(v == 16777215ull << 40);
  v = 7;
  assert_int_equal(ws_parse_count("16777216T", 1, &v), -1); /* 2^64: too large */
  assert_int_equal(ws_parse_count("1K", 0, &v), -1);         /* no suffix for counts */
  assert_int_equal(ws_parse_count("-1", 0, &v), -1);
  assert_int_equal(ws_parse_count(" -1", 0, &v), -1);
  assert_int_equal(ws_parse_count("", 0, &v), -1);
  assert_int_equal(ws_parse_count(" 5", 0, &v), -1);          /* not all digits */
  assert_int_equal(ws_parse_count("+5", 0, &v), -1);
  assert_int_equal(ws_parse_count("12x", 0, &v), -1);
  assert_int_equal(ws_parse_count("18446744073709551616", 0, &v), -1);
  assert_int_equal(v, 7); /* left alone on every failure */
  /* blocks to profile: a count, or "all" (0: every block) */
  assert_int_equal(ws_parse_sample_blocks("all", &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(ws_parse_sample_blocks("64", &v), 0);
  assert_int_equal(v, 64);
  v = 7;
  assert_int_equal(ws_parse_sample_blocks("ALL", &v), -1);
  assert_int_equal(ws_parse_sample_blocks("all ", &v), -1);
  assert_int_equal(ws_parse_sample_blocks("1K", &v), -1);
  assert_int_equal(v, 7);
}

static void test_bits(void **state) {
  (void)state;
  assert_int_equal(ws_popc32(0), 0);
  assert_int_equal(ws_popc32(0xffffffffu), 32);
  assert_int_equal(ws_popc32(0x80000001u), 2);
  assert_int_equal(ws_popc64(0xffffffffffffffffull), 64);
  assert_int_equal(ws_ctz32(0x10u), 4);
  assert_true(ws_is_pow2_u64(1));
  assert_true(ws_is_pow2_u64(1ull << 63));
  assert_false(ws_is_pow2_u64(0));
  assert_false(ws_is_pow2_u64(96));
  assert_int_equal(ws_log2_u64(1), 0);
  assert_int_equal(ws_log2_u64(1023), 9);
  assert_int_equal(ws_log2_u64(1024), 10);
}

/* ws_diag_oom names the operation once: only for WS_ENOMEM, and only when
 * nothing more precise was recorded since the count it is given. */
static void test_diag_oom(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_diag_oom(&d, WS_EINVAL, 0, "f.ptx", "parsing"), WS_EINVAL);
  assert_int_equal(d.count, 0);
  assert_int_equal(ws_diag_oom(&d, WS_ENOMEM, 0, "f.ptx", "running kernel '%s'", "k"), WS_ENOMEM);
  assert_int_equal(d.count, 1);
  char *s = ws_diag_format(&d);
  assert_string_equal(s, "f.ptx: error: out of memory while running kernel 'k'\n");
  free(s);
  /* an error already recorded since (d.errors is 1, the caller counted 0) */
  assert_int_equal(ws_diag_oom(&d, WS_ENOMEM, 0, NULL, "outer"), WS_ENOMEM);
  assert_int_equal(d.count, 1);
  ws_diag_free(&d);
}

/* ws_json_get_objects: an array of objects, its length, and the path of
 * what is wrong (written here by hand from the documents below). */
static void objects_case(const char *doc, int required, int want_st, size_t want_n,
                         const char *want_msg) {
  cJSON *root = cJSON_Parse(doc);
  assert_non_null(root);
  ws_diag d = WS_DIAG_INIT;
  const cJSON *arr;
  size_t n = 99;
  assert_int_equal(ws_json_get_objects(root, "sec", "list", required, &arr, &n, "t.json", &d), want_st);
  assert_int_equal(n, want_n);
  assert_int_equal(arr != NULL, want_st == WS_OK);
  char *s = ws_diag_format(&d);
  assert_string_equal(s, want_msg);
  free(s);
  ws_diag_free(&d);
  cJSON_Delete(root);
}

static void test_json_objects(void **state) {
  (void)state;
  objects_case("{\"list\":[{},{\"a\":1}]}", 0, WS_OK, 2, "");
  objects_case("{\"list\":[]}", 1, WS_OK, 0, "");
  objects_case("{}", 0, WS_EMISSING, 0, "");
  objects_case("{}", 1, WS_EINVAL, 0, "t.json: error: sec.list: missing (expected an array of objects)\n");
  objects_case("{\"list\":{}}", 0, WS_EINVAL, 0, "t.json: error: sec.list: expected an array of objects\n");
  objects_case("{\"list\":[{},3]}", 0, WS_EINVAL, 0, "t.json: error: sec.list[1]: expected an object\n");
}

/* Distances by hand: one substitution, one transposition, one deletion. */
static void test_suggest(void **state) {
  (void)state;
  assert_int_equal(ws_suggest_distance("sms", "sms"), 0);
  assert_int_equal(ws_suggest_distance("smss", "sms"), 1);     /* one deletion */
  assert_int_equal(ws_suggest_distance("ouput", "output"), 1); /* one insertion */
  assert_int_equal(ws_suggest_distance("inti", "init"), 1);    /* one transposition */
  assert_int_equal(ws_suggest_distance("hong_kim", "hong-kim"), 1);
  assert_int_equal(ws_suggest_distance("abc", "xyzw"), 3);     /* capped */
  static const char *const keys[] = {"sms", "cores_per_sm", "clock_ghz", "limits", NULL};
  assert_string_equal(ws_suggest("smss", keys), "sms");
  assert_string_equal(ws_suggest("limts", keys), "limits");   /* 2 would do too: 6 letters */
  assert_string_equal(ws_suggest("clck_gz", keys), "clock_ghz"); /* 2 away, 9 letters */
  assert_null(ws_suggest("s", keys));                         /* "sms" is 2 away: too short */
  assert_null(ws_suggest("colour", keys));
}

static void test_checked(void **state) {
  (void)state;
  uint64_t r = 99;
  /* 641 * 6700417 = 2^32 + 1, so (2^32 - 1) * 641 * 6700417 = 2^64 - 1: the
   * largest product that fits (the extents of issue 14's crafted PTX array);
   * one more in the last factor overflows. */
  assert_int_equal(ws_mul3_u64(&r, 4294967295u, 641, 6700417), 0);
  assert_true(r == UINT64_MAX);
  assert_int_equal(ws_mul3_u64(&r, 4294967295u, 641, 6700418), 1);
  assert_true(r == UINT64_MAX); /* untouched on overflow */
  assert_int_equal(ws_mul_u64(&r, 1ull << 32, 1ull << 32), 1);
  assert_int_equal(ws_mul_u64(&r, 1ull << 31, 1ull << 32), 0);
  assert_true(r == 1ull << 63);
  assert_int_equal(ws_add_u64(&r, UINT64_MAX, 1), 1);
  assert_int_equal(ws_add_u64(&r, UINT64_MAX - 1, 1), 0);
  assert_true(r == UINT64_MAX);
}

/* The diagnostics' text, written out by hand: location, severity, message,
 * the source line and a caret under column 3; a bare entry (no file) gets
 * the speaker's name from ws_diag_print only. */
static void test_diag_text(void **state) {
  (void)state;
  ws_diag d = WS_DIAG_INIT;
  ws_diag_add(&d, WS_SEV_ERROR, "k.ptx", 2, 3, "bad %s", "token");
  ws_diag_set_source(&d, "\tab cd", 6);
  ws_diag_add(&d, WS_SEV_WARNING, NULL, 0, 0, "odd");
  ws_diag_add(&d, WS_SEV_NOTE, "k.ptx", 7, 0, "here");
  assert_int_equal(d.errors, 1);
  char *s = ws_diag_format(&d);
  assert_non_null(s);
  assert_string_equal(s, "k.ptx:2:3: error: bad token\n  \tab cd\n  \t ^\n"
                         "warning: odd\nk.ptx:7: note: here\n");
  free(s);
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(ws_diag_print(f, &d, "warpsight"), WS_OK);
  char buf[256] = {0};
  rewind(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  assert_string_equal(buf, "k.ptx:2:3: error: bad token\n  \tab cd\n  \t ^\n"
                           "warpsight: warning: odd\nk.ptx:7: note: here\n");
  assert_true(n > 0);
  ws_diag_free(&d);
  s = ws_diag_format(&d); /* an empty list is "" */
  assert_string_equal(s, "");
  free(s);
}

/* Issue 24, row 16: a kernel name past 255 bytes as a file-name part:
 * cut to 100 bytes with a hash of the whole name, so two names that share
 * their first 100 bytes stay apart; short names unchanged but for bytes no
 * file name should hold. */
static void test_name_part(void **state) {
  (void)state;
  char a[WS_NAME_PART_MAX + 1], b[WS_NAME_PART_MAX + 1], name[400];
  assert_int_equal(ws_name_part(a, "vecadd", 0), 6);
  assert_string_equal(a, "vecadd");
  ws_name_part(a, "zip<float, ops::Saxpy>", 0);
  assert_string_equal(a, "zip_float__ops__Saxpy_");
  ws_name_part(a, ".hidden.v2", 0);
  assert_string_equal(a, "_hidden_v2");
  ws_name_part(a, ".hidden.v2", 1);
  assert_string_equal(a, "_hidden.v2");
  memset(name, 'k', 300);
  name[300] = '\0';
  size_t n = ws_name_part(a, name, 0);
  assert_int_equal(n, WS_NAME_PART_MAX);
  name[299] = 'j';
  ws_name_part(b, name, 0);
  assert_int_equal(strlen(b), WS_NAME_PART_MAX);
  assert_memory_equal(a, b, 83); /* the same 83 bytes of the name ... */
  assert_int_equal(a[83], '-');
  assert_string_not_equal(a + 84, b + 84); /* ... and different hashes */
  assert_int_equal(strspn(a + 84, "0123456789abcdef"), 16);
}

/* What cJSON takes in silence and ws_json_parse refuses (issue 24, rows 6,
 * 12 and 18), each with its path or place. */
static void json_refused(const char *text, size_t len, const char *want) {
  cJSON *root = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_json_parse(&root, text, len, "t.json", &d), WS_EINVAL);
  assert_null(root);
  assert_diag_has(&d, want);
  ws_diag_free(&d);
}

static void test_json_parse_refusals(void **state) {
  (void)state;
  const char *t = "{\"a\": [1, {\"b\": 2, \"c\": {\"b\": 3}, \"b\": 4}]}";
  json_refused(t, strlen(t), "t.json: error: a[1].b: duplicate key: given twice in the same object");
  t = "[{}, {\"x\": 1, \"x\": 1}]";
  json_refused(t, strlen(t), "t.json: error: [1].x: duplicate key");
  /* 8 + 1 bytes, the NUL (byte 10), 8 more: 18 */
  static const char nul[] = "{\"a\": 1}\n\0{\"a\": 2}";
  json_refused(nul, sizeof nul - 1, "t.json:2:1: error: a NUL byte (byte 10 of 18)");
  t = "root:x:0:0:root:/root:/bin/bash\n";
  json_refused(t, strlen(t), "t.json:1:1: error: not a JSON document: it does not begin with '{' (its text is not shown)");
  setenv("WARPSIGHT_MAX_JSON_VALUES", "4", 1);
  t = "{\"a\": [1, 2, 3, 4]}";
  json_refused(t, strlen(t), "t.json: error: more than 4 JSON values");
  t = "{\"a\": [1, \",,,,,\"]}"; /* commas in a string are not values */
  cJSON *root = NULL;
  ws_diag d = WS_DIAG_INIT;
  assert_int_equal(ws_json_parse(&root, t, strlen(t), "t.json", &d), WS_OK);
  cJSON_Delete(root);
  unsetenv("WARPSIGHT_MAX_JSON_VALUES");
  assert_int_equal(ws_json_max_values(), WS_JSON_MAX_VALUES);
  /* the same key in two objects is no duplicate */
  t = "{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}, \"k\": 3}";
  assert_int_equal(ws_json_parse(&root, t, strlen(t), "t.json", &d), WS_OK);
  cJSON_Delete(root);
  ws_diag_free(&d);
}

/* ws_json_print writes every number so that it reads back exactly.  The
 * values below are ones cJSON 1.7's 15-digit text does not give back
 * (7830.9922375860588 printed "7830.99223758606", which reads back one unit
 * in the last place away); 0.1, 0.5 and 3 keep cJSON's own short text. */
static void test_json_print_exact(void **state) {
  (void)state;
  static const double hard[] = {7830.9922375860588, 0.00033522275571488903, 9522297.2517471276,
                                1.0 / 3.0, 934243.70951977279, 2.0000000000000001e-300};
  cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "a");
  cJSON *inner = cJSON_AddObjectToObject(root, "o");
  for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) cJSON_AddItemToArray(arr, cJSON_CreateNumber(hard[i]));
  cJSON_AddNumberToObject(inner, "deep", hard[0]);
  cJSON_AddNumberToObject(inner, "tenth", 0.1);
  cJSON_AddNumberToObject(inner, "half", 0.5);
  cJSON_AddNumberToObject(inner, "three", 3);
  for (int formatted = 0; formatted <= 1; formatted++) {
    char *text = ws_json_print(root, formatted);
    assert_non_null(text);
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    const cJSON *ba = cJSON_GetObjectItem(back, "a");
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
      assert_true(cJSON_GetArrayItem(ba, (int)i)->valuedouble == hard[i]);
    const cJSON *bo = cJSON_GetObjectItem(back, "o");
    assert_true(cJSON_GetObjectItem(bo, "deep")->valuedouble == hard[0]);
    assert_non_null(strstr(text, formatted ? "\"tenth\":\t0.1" : "\"tenth\":0.1,"));
    assert_non_null(strstr(text, formatted ? "\"three\":\t3" : "\"three\":3}"));
    cJSON_Delete(back);
    cJSON_free(text);
  }
  /* The caller's tree is not changed: its numbers are still numbers. */
  assert_true(cJSON_IsNumber(cJSON_GetArrayItem(arr, 0)));
  /* cJSON alone loses the first value (what the function is for). */
  char *plain = cJSON_PrintUnformatted(cJSON_GetArrayItem(arr, 0));
  assert_false(strtod(plain, NULL) == hard[0]);
  cJSON_free(plain);
  cJSON_Delete(root);
}

/* ws_parse_decimal takes plain decimals only (issue 24, row 14). */
static void test_parse_decimal(void **state) {
  (void)state;
  double v = 0;
  assert_int_equal(ws_parse_decimal("1.5e-6", &v), 0);
  assert_true(v == 1.5e-6);
  assert_int_equal(ws_parse_decimal("-.25", &v), 0);
  assert_true(v == -0.25);
  assert_int_equal(ws_parse_decimal("7", &v), 0);
  assert_true(v == 7);
  static const char *const bad[] = {"0x1p-3", "inf", "nan", " 1", "1 ", "1e", ".", "", "1e+", "+", "1.2.3", "1e999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    v = 42;
    assert_int_equal(ws_parse_decimal(bad[i], &v), -1);
    assert_true(v == 42);
  }
}

/* A `ptxas -v -arch=sm_80` report as CUDA 13's ptxas writes it (the form of
 * a real run: an entry's "Function properties" after its "Compiling entry
 * function", a device function's after every entry), with figures written
 * in by hand: k2 8 registers and nothing else; k1 24 registers, 1024 bytes
 * smem, 256 bytes stack, 40/44 bytes spill stores/loads; helper (a device
 * function: no "Used" line) 64 bytes stack, 8/12 bytes of spills. */
static const char ptxas_report[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z2k2Pf' for 'sm_80'\n"
    "ptxas info    : Function properties for _Z2k2Pf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers, 360 bytes cmem[0]\n"
    "ptxas info    : Compile time = 3.348 ms\n"
    "ptxas info    : Compiling entry function '_Z2k1Pfi' for 'sm_80'\r\n"
    "ptxas info    : Function properties for _Z2k1Pfi\r\n"
    "    256 bytes stack frame, 40 bytes spill stores, 44 bytes spill loads\r\n"
    "ptxas info    : Used 24 registers, used 1 barriers, 256 bytes cumulative stack size, "
    "1024 bytes smem, 364 bytes cmem[0]\r\n"
    "ptxas info    : Compile time = 16.772 ms\n"
    "ptxas info    : Function properties for _Z6helperPfi\n"
    "    64 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads"; /* no final newline */

static void test_ptxas_report(void **state) {
  (void)state;
  ws_ptxas_list l = WS_PTXAS_LIST_INIT;
  assert_int_equal(ws_tool_ptxas_parse(&l, ptxas_report), WS_OK);
  assert_int_equal(l.n, 3);
  static const struct {
    const char *name;
    long regs, smem, stack, st, ld;
  } want[] = {{"_Z2k2Pf", 8, 0, 0, 0, 0},
              {"_Z2k1Pfi", 24, 1024, 256, 40, 44},
              {"_Z6helperPfi", -1, 0, 64, 8, 12}};
  for (size_t i = 0; i < 3; i++) {
    const ws_ptxas_fn *f = ws_tool_ptxas_lookup(&l, want[i].name);
    assert_non_null(f);
    assert_ptr_equal(f, &l.v[i]); /* in the order first named */
    assert_int_equal(f->regs, want[i].regs);
    assert_int_equal(f->smem, want[i].smem);
    assert_int_equal(f->stack, want[i].stack);
    assert_int_equal(f->spill_st, want[i].st);
    assert_int_equal(f->spill_ld, want[i].ld);
  }
  assert_null(ws_tool_ptxas_lookup(&l, "_Z2k1Pf"));
  ws_tool_ptxas_free(&l);
  assert_int_equal(l.n, 0);
  /* a line of any length: a 5000-byte name whole */
  ws_strbuf b = WS_STRBUF_INIT, name = WS_STRBUF_INIT;
  for (int i = 0; i < 5000; i++) ws_sb_putc(&name, (char)('a' + i % 26));
  ws_sb_printf(&b, "ptxas info    : Compiling entry function '%s' for 'sm_80'\n"
                   "ptxas info    : Used 17 registers, 8 bytes smem\n", ws_sb_str(&name));
  assert_int_equal(ws_tool_ptxas_parse(&l, ws_sb_str(&b)), WS_OK);
  assert_int_equal(l.n, 1);
  assert_string_equal(l.v[0].name, ws_sb_str(&name));
  assert_int_equal(l.v[0].regs, 17);
  assert_int_equal(l.v[0].smem, 8);
  ws_tool_ptxas_free(&l);
  ws_sb_free(&b);
  ws_sb_free(&name);
}

/* ptxas found as the CLI and the runtime find it: WARPSIGHT_PTXAS alone
 * when set, else PATH, else $CUDA_HOME/bin. */
static void test_tool_find(void **state) {
  (void)state;
  char dir[] = "/tmp/ws-tool-XXXXXX", a[64], bin[64], ptxas[96], plain[96], buf[256];
  assert_non_null(mkdtemp(dir));
  snprintf(a, sizeof a, "%s/a", dir);
  snprintf(bin, sizeof bin, "%s/bin", dir);
  snprintf(ptxas, sizeof ptxas, "%s/ptxas", a);
  snprintf(plain, sizeof plain, "%s/ptxas", bin);
  assert_int_equal(mkdir(a, 0700), 0);
  assert_int_equal(mkdir(bin, 0700), 0);
  FILE *f = fopen(ptxas, "w");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(chmod(ptxas, 0700), 0);
  f = fopen(plain, "w");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(chmod(plain, 0700), 0);
  char *old_path = getenv("PATH") ? ws_strdup(getenv("PATH")) : NULL;
  char *old_home = getenv("CUDA_HOME") ? ws_strdup(getenv("CUDA_HOME")) : NULL;
  char *old_ws = getenv("WARPSIGHT_PTXAS") ? ws_strdup(getenv("WARPSIGHT_PTXAS")) : NULL;
  unsetenv("WARPSIGHT_PTXAS");
  setenv("CUDA_HOME", dir, 1); /* $CUDA_HOME/bin/ptxas = plain */
  char path[256];
  snprintf(path, sizeof path, "/nonexistent:%s", a);
  setenv("PATH", path, 1);
  assert_string_equal(ws_tool_find_ptxas(buf, sizeof buf), ptxas); /* PATH first */
  assert_null(ws_tool_find_ptxas(buf, 8));                         /* does not fit: none */
  setenv("PATH", "/nonexistent", 1);
  assert_string_equal(ws_tool_find_ptxas(buf, sizeof buf), plain);  /* then $CUDA_HOME/bin */
  assert_null(ws_tool_find("nvcc", buf, sizeof buf));
  setenv("WARPSIGHT_PTXAS", ptxas, 1);
  assert_string_equal(ws_tool_find_ptxas(buf, sizeof buf), ptxas);  /* the variable */
  assert_int_equal(chmod(ptxas, 0600), 0); /* not executable: no other is tried */
  assert_null(ws_tool_find_ptxas(buf, sizeof buf));
  if (old_path) setenv("PATH", old_path, 1);
  if (old_home) setenv("CUDA_HOME", old_home, 1);
  else unsetenv("CUDA_HOME");
  if (old_ws) setenv("WARPSIGHT_PTXAS", old_ws, 1);
  else unsetenv("WARPSIGHT_PTXAS");
  free(old_path);
  free(old_home);
  free(old_ws);
  unlink(ptxas);
  unlink(plain);
  rmdir(a);
  rmdir(bin);
  rmdir(dir);
}

/* A file `dir/name` holding text, executable when exec. */
static void put_file(const char *dir, const char *name, const char *text, int exec) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  assert_int_equal(chmod(p, exec ? 0700 : 0600), 0);
}

/* The text of file `dir/name` (NULL when it cannot be read). */
static char *file_text(const char *dir, const char *name) {
  char p[256], *text = NULL;
  size_t len = 0;
  ws_diag d = WS_DIAG_INIT;
  snprintf(p, sizeof p, "%s/%s", dir, name);
  int st = ws_read_file(&text, &len, p, &d);
  ws_diag_free(&d);
  return st == WS_OK ? text : NULL;
}

/* Entries of folder dir other than . and .. */
static int entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  if (d) closedir(d);
  return n;
}

/* ws_tool_run: no shell reads the paths (a folder with a space and a
 * quote), stdout then stderr into the log, which replaces what the file
 * held; the program's exit status; -1 when it cannot start. */
static void test_tool_run(void **state) {
  (void)state;
  char dir[] = "/tmp/ws-run 'q-XXXXXX", prog[96], log[96], missing[96];
  assert_non_null(mkdtemp(dir));
  put_file(dir, "prog", "#!/bin/sh\necho \"out $1\"\necho err >&2\nexit 3\n", 1);
  put_file(dir, "log", "an older, longer text than the program writes\n", 0);
  snprintf(prog, sizeof prog, "%s/prog", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(missing, sizeof missing, "%s/none/log", dir);
  char *argv[] = {prog, "a'b c", NULL};
  assert_int_equal(ws_tool_run(argv, log), 3);
  char *text = file_text(dir, "log");
  assert_string_equal(text, "out a'b c\nerr\n"); /* the argument as one word, unquoted */
  free(text);
  struct stat sb;
  assert_int_equal(stat(log, &sb), 0);
  assert_int_equal(sb.st_mode & 0777, 0600);
  assert_int_equal(ws_tool_run(argv, missing), -1); /* the log cannot be made */
  char *nothing[] = {missing, NULL};
  assert_int_equal(ws_tool_run(nothing, log), -1); /* no such program */
  unlink(prog);
  unlink(log);
  rmdir(dir);
}

/* ws_tool_capture: a name looked up in PATH (ws_tool_which finds the
 * same file), stdout and stderr into the buffer, cut at n - 1 bytes while
 * the rest is still read (a program writing 64 KiB, more than a pipe holds,
 * ends); the exit status; -1 for no such program.  And LD_PRELOAD does not
 * reach the child, in either way of running it. */
static void test_tool_capture(void **state) {
  (void)state;
  char dir[] = "/tmp/ws-cap-XXXXXX", buf[4096], log[64];
  assert_non_null(mkdtemp(dir));
  put_file(dir, "talk", "#!/bin/sh\necho \"out $1\"\necho err >&2\nexit 4\n", 1);
  put_file(dir, "big", "#!/bin/sh\nhead -c 65536 /dev/zero | tr '\\0' x\necho \"[${LD_PRELOAD-unset}]\"\n", 1);
  put_file(dir, "plain", "not a program\n", 0);
  char *old_path = getenv("PATH") ? ws_strdup(getenv("PATH")) : NULL;
  char path[128];
  snprintf(path, sizeof path, "/nonexistent:%s:/bin:/usr/bin", dir);
  setenv("PATH", path, 1);
  char want[64];
  snprintf(want, sizeof want, "%s/talk", dir);
  assert_string_equal(ws_tool_which("talk", buf, sizeof buf), want);
  assert_string_equal(ws_tool_which(want, buf, sizeof buf), want); /* a path: itself */
  assert_null(ws_tool_which("plain", buf, sizeof buf));            /* not executable */
  assert_null(ws_tool_which("talk", buf, 8));                      /* does not fit */
  char out[64];
  char *talk[] = {"talk", "a b", NULL};
  assert_int_equal(ws_tool_capture(talk, out, sizeof out), 4);
  assert_string_equal(out, "out a b\nerr\n");
  assert_int_equal(ws_tool_capture(talk, out, 5), 4);
  assert_string_equal(out, "out ");
  setenv("LD_PRELOAD", "", 1); /* empty: the loader ignores it, the child would print [] */
  char *big[] = {"big", NULL};
  assert_int_equal(ws_tool_capture(big, out, sizeof out), 0);
  assert_int_equal(strlen(out), sizeof out - 1);
  assert_int_equal(out[0], 'x');
  snprintf(log, sizeof log, "%s/log", dir);
  assert_int_equal(ws_tool_run(big, log), 0);
  char *text = file_text(dir, "log");
  assert_non_null(text);
  assert_non_null(strstr(text, "x[unset]\n")); /* no LD_PRELOAD in the child */
  free(text);
  unsetenv("LD_PRELOAD");
  char *none[] = {"no-such-program-here", NULL};
  assert_int_equal(ws_tool_capture(none, out, sizeof out), -1);
  if (old_path) setenv("PATH", old_path, 1);
  free(old_path);
  for (const char *f = "talk\0big\0plain\0log\0"; *f; f += strlen(f) + 1) {
    snprintf(buf, sizeof buf, "%s/%s", dir, f);
    unlink(buf);
  }
  rmdir(dir);
}

/* ws_tool_ptxas_on_ptx with a stand-in ptxas (WARPSIGHT_PTXAS) that refuses
 * any command line but `-v -arch=sm_80 -o /dev/null ./-k.ptx` (the file
 * name begins with '-', so it is passed as ./-k.ptx) and writes a report,
 * part on stdout and part on stderr; TMPDIR a folder with a quote and a
 * space, left as it was (the report removed).  The figures are the
 * stand-in's: 42 registers, 16 bytes smem, 8 bytes stack.  A failing
 * ptxas: 0 and nothing read. */
static void test_tool_ptxas_on_ptx(void **state) {
  (void)state;
  char dir[] = "/tmp/ws-ptxas 'q-XXXXXX", script[96], cwd[4096];
  assert_non_null(mkdtemp(dir));
  assert_non_null(getcwd(cwd, sizeof cwd));
  put_file(dir, "ptxas",
           "#!/bin/sh\n"
           "[ $# = 5 ] && [ \"$1 $2 $3 $4 $5\" = \"-v -arch=sm_80 -o /dev/null ./-k.ptx\" ] && [ -f \"$5\" ] ||"
           " { echo \"bad command line: $*\" >&2; exit 2; }\n"
           "echo \"ptxas info    : Compiling entry function 'k' for 'sm_80'\"\n"
           "echo \"ptxas info    : Function properties for k\"\n"
           "echo \"    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\" >&2\n"
           "echo \"ptxas info    : Used 42 registers, 16 bytes smem, 360 bytes cmem[0]\" >&2\n"
           "[ -f fail ] && exit 1\n"
           "exit 0\n",
           1);
  put_file(dir, "-k.ptx", ".version 9.0\n", 0);
  snprintf(script, sizeof script, "%s/ptxas", dir);
  char *old_ws = getenv("WARPSIGHT_PTXAS") ? ws_strdup(getenv("WARPSIGHT_PTXAS")) : NULL;
  char *old_tmp = getenv("TMPDIR") ? ws_strdup(getenv("TMPDIR")) : NULL;
  setenv("WARPSIGHT_PTXAS", script, 1);
  setenv("TMPDIR", dir, 1);
  assert_int_equal(chdir(dir), 0);
  ws_ptxas_list l = WS_PTXAS_LIST_INIT;
  assert_int_equal(ws_tool_ptxas_on_ptx("-k.ptx", "sm_80", &l), 1);
  assert_int_equal(l.n, 1);
  const ws_ptxas_fn *k = ws_tool_ptxas_lookup(&l, "k");
  assert_non_null(k);
  assert_int_equal(k->regs, 42);
  assert_int_equal(k->smem, 16);
  assert_int_equal(k->stack, 8);
  assert_int_equal(entries(dir), 2); /* ptxas and -k.ptx: the report is gone */
  assert_int_equal(ws_tool_ptxas_on_ptx("-k.ptx", "sm_90", &l), 0); /* refused command line */
  put_file(dir, "fail", "", 0);
  assert_int_equal(ws_tool_ptxas_on_ptx("-k.ptx", "sm_80", &l), 0); /* ptxas failed */
  assert_int_equal(l.n, 1); /* nothing more read */
  assert_int_equal(entries(dir), 3);
  ws_tool_ptxas_free(&l);
  unsetenv("TMPDIR");
  setenv("WARPSIGHT_PTXAS", "/nonexistent/ptxas", 1);
  assert_int_equal(ws_tool_ptxas_on_ptx("-k.ptx", "sm_80", &l), 0); /* no ptxas */
  assert_int_equal(chdir(cwd), 0);
  if (old_ws) setenv("WARPSIGHT_PTXAS", old_ws, 1);
  else unsetenv("WARPSIGHT_PTXAS");
  if (old_tmp) setenv("TMPDIR", old_tmp, 1);
  free(old_ws);
  free(old_tmp);
  const char *names[] = {"ptxas", "-k.ptx", "fail"};
  for (size_t i = 0; i < 3; i++) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vec_push_and_reserve),
      cmocka_unit_test(test_vec_overflow_leaves_array),
      cmocka_unit_test(test_strbuf),
      cmocka_unit_test(test_bits),
      cmocka_unit_test(test_parse_count),
      cmocka_unit_test(test_checked),
      cmocka_unit_test(test_diag_oom),
      cmocka_unit_test(test_suggest),
      cmocka_unit_test(test_json_objects),
      cmocka_unit_test(test_diag_text),
      cmocka_unit_test(test_name_part),
      cmocka_unit_test(test_json_parse_refusals),
      cmocka_unit_test(test_parse_decimal),
      cmocka_unit_test(test_ptxas_report),
      cmocka_unit_test(test_tool_find),
      cmocka_unit_test(test_json_print_exact),
      cmocka_unit_test(test_tool_run),
      cmocka_unit_test(test_tool_capture),
      cmocka_unit_test(test_tool_ptxas_on_ptx),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
