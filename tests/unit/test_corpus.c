/*
 * test_corpus.c — consistency of the committed kernel corpus
 * (tests/corpus, examples/kernels), checked without nvcc:
 *  - every launch spec's arguments match its kernel's .param list in the
 *    committed PTX of every arch (count, pointer vs scalar, width, kind);
 *  - every .cu has PTX for the four archs and a ptxas -v entry per arch;
 *  - every corpus spec has a reference program tests/ref/<src>.c;
 *  - no PTX carries a .file directive (which would hold a machine path).
 * Expected values come from the files themselves: the tests fail when a
 * spec, a kernel signature or a regenerated PTX drift apart.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#define CORPUS WS_SOURCE_DIR "/tests/corpus"
#define EXAMPLES WS_SOURCE_DIR "/examples/kernels"

static const char *const archs[] = {"sm_75", "sm_80", "sm_86", "sm_90"};

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0, r;
  char *buf = malloc(cap + 1);
  while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
    len += r;
    if (len == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* Names in dir ending with suffix, sorted; returns the count (<= max). */
static int list_dir(const char *dir, const char *suffix, char names[][128], int max) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  size_t sl = strlen(suffix);
  assert_non_null(d);
  while ((e = readdir(d)) && n < max) {
    size_t l = strlen(e->d_name);
    if (l > sl && l < 128 && strcmp(e->d_name + l - sl, suffix) == 0)
      strcpy(names[n++], e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], cmp_name);
  return n;
}

/* The .param types of `.entry kernel(` in ptx, e.g. "u64", "f32"; count. */
static int entry_params(const char *ptx, const char *kernel, char types[][8], int max) {
  char pat[160];
  snprintf(pat, sizeof pat, ".entry %s(", kernel);
  const char *p = strstr(ptx, pat);
  if (!p)
    return -1;
  const char *end = strchr(p, ')');
  int n = 0;
  for (const char *q = strstr(p, ".param ."); q && q < end && n < max; q = strstr(q + 1, ".param .")) {
    q += strlen(".param .");
    size_t l = strcspn(q, " \t");
    if (l >= 8)
      return -1;
    memcpy(types[n], q, l);
    types[n++][l] = '\0';
  }
  return n;
}

/* Does a scalar of spec type t fit PTX parameter type p? Same width and the
 * same kind (integer letters s/u/b are interchangeable; f only with f). */
static int scalar_fits(const char *t, const char *p) {
  if (strcmp(t + 1, p + 1) != 0)
    return 0;
  int tf = t[0] == 'f', pf = p[0] == 'f';
  return tf == pf || (!tf && p[0] == 'b');
}

/* Checks one spec against ptx/<arch>/<src>.ptx (or an example's PTX). */
static void check_spec(const char *spec_path, const char *ptx_path) {
  char *text = slurp(spec_path), *ptx = slurp(ptx_path);
  char types[32][8];
  if (!text || !ptx)
    fail_msg("cannot read %s or %s", spec_path, ptx_path);
  cJSON *root = cJSON_Parse(text);
  if (!root)
    fail_msg("%s: not JSON", spec_path);
  cJSON *kernel = cJSON_GetObjectItem(root, "kernel"), *args = cJSON_GetObjectItem(root, "args"), *a;
  assert_true(cJSON_IsString(kernel));
  assert_true(cJSON_IsArray(args));
  int n = entry_params(ptx, kernel->valuestring, types, 32);
  if (n != cJSON_GetArraySize(args))
    fail_msg("%s: %d args, %s has %d params for %s", spec_path, cJSON_GetArraySize(args), ptx_path, n,
             kernel->valuestring);
  int i = 0;
  cJSON_ArrayForEach(a, args) {
    const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(a, "type"));
    assert_non_null(t);
    if (cJSON_GetObjectItem(a, "buffer")) {
      if (strcmp(types[i], "u64") != 0)
        fail_msg("%s: arg %d is a buffer, param is .%s", spec_path, i, types[i]);
      cJSON *count = cJSON_GetObjectItem(a, "count");
      assert_true(cJSON_IsNumber(count) && count->valuedouble >= 1);
      assert_non_null(cJSON_GetObjectItem(a, "init"));
    } else {
      assert_non_null(cJSON_GetObjectItem(a, "scalar"));
      assert_true(cJSON_IsNumber(cJSON_GetObjectItem(a, "value")));
      if (!scalar_fits(t, types[i]))
        fail_msg("%s: arg %d is %s, param is .%s", spec_path, i, t, types[i]);
    }
    i++;
  }
  for (const char *dim[] = {"grid", "block"}, **d = dim; d < dim + 2; d++) {
    cJSON *v = cJSON_GetObjectItem(root, *d);
    assert_true(cJSON_IsArray(v) && cJSON_GetArraySize(v) == 3);
  }
  cJSON_Delete(root);
  free(text);
  free(ptx);
}

static void specs_match_ptx_params(void **state) {
  (void)state;
  static char specs[128][128];
  int n = list_dir(CORPUS "/launch", ".json", specs, 128);
  assert_true(n >= 28);
  for (int i = 0; i < n; i++) {
    char src[128], spec[512], ptx[512];
    snprintf(src, sizeof src, "%.*s", (int)strcspn(specs[i], "."), specs[i]);
    if (snprintf(spec, sizeof spec, CORPUS "/launch/%s", specs[i]) >= (int)sizeof spec)
      fail_msg("path too long: %s", specs[i]);
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
      snprintf(ptx, sizeof ptx, CORPUS "/ptx/%s/%s.ptx", archs[a], src);
      check_spec(spec, ptx);
    }
  }
}

static void examples_match_ptx_params(void **state) {
  (void)state;
  check_spec(EXAMPLES "/vecadd.launch.json", EXAMPLES "/vecadd.sm_80.ptx");
  check_spec(EXAMPLES "/matmul_tiled.launch.json", EXAMPLES "/matmul_tiled.sm_80.ptx");
}

static void sources_have_ptx_and_resources(void **state) {
  (void)state;
  static char srcs[64][128];
  int n = list_dir(CORPUS, ".cu", srcs, 64);
  assert_true(n >= 20);
  for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
    char path[512], want[160];
    snprintf(path, sizeof path, CORPUS "/resources/%s.txt", archs[a]);
    char *res = slurp(path);
    assert_non_null(res);
    for (int i = 0; i < n; i++) {
      int l = (int)strlen(srcs[i]) - 3;
      snprintf(path, sizeof path, CORPUS "/ptx/%s/%.*s.ptx", archs[a], l, srcs[i]);
      char *ptx = slurp(path);
      if (!ptx)
        fail_msg("missing %s", path);
      if (strstr(ptx, ".file"))
        fail_msg("%s has a .file directive", path);
      free(ptx);
      snprintf(want, sizeof want, "## %.*s\n", l, srcs[i]);
      if (!strstr(res, want))
        fail_msg("resources/%s.txt has no entry for %.*s", archs[a], l, srcs[i]);
    }
    free(res);
  }
}

static void specs_have_references(void **state) {
  (void)state;
  static char specs[128][128];
  int n = list_dir(CORPUS "/launch", ".json", specs, 128);
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, WS_SOURCE_DIR "/tests/ref/%.*s.c", (int)strcspn(specs[i], "."), specs[i]);
    FILE *f = fopen(path, "r");
    if (!f)
      fail_msg("%s has no reference %s", specs[i], path);
    fclose(f);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(specs_match_ptx_params),
      cmocka_unit_test(examples_match_ptx_params),
      cmocka_unit_test(sources_have_ptx_and_resources),
      cmocka_unit_test(specs_have_references),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
