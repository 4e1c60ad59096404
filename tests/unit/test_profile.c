/* test_profile.c — profile loading, validation messages and the writer. */
#include <cjson/cJSON.h>
#include <string.h>

#include "testutil.h"
#include "warpsight/profile.h"
#include "profile/profile_doc.h"

static int load(ws_profile **p, const char *json, ws_diag *d) {
  return ws_profile_load_json(p, json, "p.json", d);
}

static void shorthand_launch(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  int r = load(&p, "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                   "\"launch\":{\"blocks\":80,\"threads_per_block\":128}}", &d);
  assert_ok_diag(r, &d);
  assert_int_equal(p->blocks, 80);
  assert_int_equal(p->threads_per_block, 128);
  assert_true(isnan(p->f.comp_insts)); /* absent fields are NaN */
  ws_profile_free(p);
  ws_diag_free(&d);
}

static void grid_3d(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  int r = load(&p, "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                   "\"launch\":{\"grid\":[4,3,2],\"block\":[8,8]}}", &d);
  assert_ok_diag(r, &d);
  assert_int_equal(p->blocks, 24);        /* 4 x 3 x 2 */
  assert_int_equal(p->threads_per_block, 64); /* 8 x 8 x 1 */
  ws_profile_free(p);
  ws_diag_free(&d);
}

/* Several errors are reported at once, each by its path. */
static void several_errors(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  int r = load(&p, "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                   "\"launch\":{\"blocks\":1,\"threads_per_block\":32},"
                   "\"per_warp\":{\"comp_insts\":-1,\"sfu_insts\":\"x\"},"
                   "\"memory\":{\"l1_hit_ratio\":2}}", &d);
  assert_int_equal(r, WS_EINVAL);
  assert_null(p);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "p.json: error: per_warp.comp_insts: expected a non-negative number, got -1"));
  assert_non_null(strstr(msg, "per_warp.sfu_insts: expected a non-negative number"));
  assert_non_null(strstr(msg, "memory.l1_hit_ratio: expected a number between 0 and 1, got 2"));
  assert_int_equal(d.errors, 3);
  free(msg);
  ws_diag_free(&d);
}

static void syntax_error_position(void **s) {
  (void)s;
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  assert_int_equal(load(&p, "{\n  \"schema\": \"warpsight-profile/1\",\n  \"kernel\" \"k\"\n}", &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  /* cJSON stops at the string after the missing ':' on line 3. */
  assert_non_null(strstr(msg, "p.json:3:"));
  assert_non_null(strstr(msg, "^")); /* the caret line */
  free(msg);
  ws_diag_free(&d);
}

/* Writer then loader gives back the same fields and extra sections. */
static void round_trip(void **s) {
  (void)s;
  uint32_t grid[3] = {10, 2, 1}, block[3] = {32, 4, 1};
  ws_profile *p = ws_profile_new("vecadd", grid, block);
  assert_non_null(p);
  p->f.comp_insts = 12.5;
  p->f.uncoal_mem_insts = 2;
  p->f.miss_ratio = 0.25;
  p->f.ilp = 1.75;
  /* a value cJSON's own 15-digit text gives back one unit in the last place
   * away (util/json.h, ws_json_print): a profile read back is the one written */
  p->f.mlp = 7830.9922375860588;
  char *json = ws_profile_to_json(p);
  ws_diag d = WS_DIAG_INIT;
  ws_profile *q;
  int r = load(&q, json, &d);
  assert_ok_diag(r, &d);
  assert_string_equal(q->kernel, "vecadd");
  assert_int_equal(q->blocks, 20);
  assert_int_equal(q->threads_per_block, 128);
  assert_close(q->f.comp_insts, 12.5, 0);
  assert_close(q->f.uncoal_mem_insts, 2, 0);
  assert_close(q->f.miss_ratio, 0.25, 0);
  assert_close(q->f.ilp, 1.75, 0);
  assert_true(q->f.mlp == 7830.9922375860588);
  assert_true(isnan(q->f.coal_mem_insts));
  /* Extra sections survive a second round trip, readable by name. */
  cJSON *tree = cJSON_Parse(json);
  cJSON_AddItemToObject(tree, "notes", cJSON_CreateObject());
  cJSON_AddStringToObject(cJSON_GetObjectItem(tree, "notes"), "text", "kept");
  char *with = cJSON_Print(tree);
  cJSON_Delete(tree);
  ws_profile *q2;
  assert_ok_diag(load(&q2, with, &d), &d);
  char *json2 = ws_profile_to_json(q2);
  assert_non_null(strstr(json2, "\"text\":\t\"kept\""));
  char *notes = ws_profile_section_json(q2, "notes");
  assert_string_equal(notes, "{\"text\":\"kept\"}");
  assert_null(ws_profile_section_json(q2, "no_such_section"));
  free(notes);
  ws_profile_free(q2);
  cJSON_free(with);
  free(json);
  free(json2);
  ws_profile_free(p);
  ws_profile_free(q);
  ws_diag_free(&d);
}

/* Every report section of profile_top.def loads (as an empty object), and
 * a key that is neither a field section nor in the table is an error that
 * names it, with the near key: the table is the loader's only list. */
static void top_keys(void **s) {
  (void)s;
  static const char head[] = "{\"schema\":\"warpsight-profile/1\",\"kernel\":\"k\","
                             "\"launch\":{\"blocks\":1,\"threads_per_block\":32}";
  size_t reports = 0;
  for (int i = 0; i < WS_PSEC_COUNT; i++) {
    const char *key = ws_profile_sec_key((ws_profile_sec)i);
    assert_non_null(key);
    /* identity and typed sections have their own tests */
    if (i == WS_PSEC_SCHEMA || i == WS_PSEC_KERNEL || i == WS_PSEC_LAUNCH || i == WS_PSEC_WARP_MIX ||
        i == WS_PSEC_KOTHAPALLI || i == WS_PSEC_LUO_SUDA || i == WS_PSEC_LINES)
      continue;
    char json[512];
    snprintf(json, sizeof json, "%s,\"%s\":{}}", head, key);
    ws_diag d = WS_DIAG_INIT;
    ws_profile *p;
    assert_ok_diag(load(&p, json, &d), &d);
    char *back = ws_profile_section_json(p, key);
    assert_string_equal(back, "{}");
    free(back);
    ws_profile_free(p);
    ws_diag_free(&d);
    reports++;
  }
  assert_int_equal(reports, 11); /* notes and the 10 sections docs/profile.md lists as the profiler's */
  assert_null(ws_profile_sec_key(WS_PSEC_COUNT));
  ws_diag d = WS_DIAG_INIT;
  ws_profile *p;
  char json[512];
  snprintf(json, sizeof json, "%s,\"cache\":{}}", head);
  assert_int_equal(load(&p, json, &d), WS_EINVAL);
  char *msg = ws_diag_format(&d);
  assert_non_null(strstr(msg, "p.json: error: cache: unknown section (did you mean \"caches\"?)"));
  free(msg);
  ws_diag_free(&d);
}

static void field_table(void **s) {
  (void)s;
  /* Every field has a section, a key, and a description with some words. */
  assert_true(ws_profile_field_count >= 25);
  for (size_t i = 0; i < ws_profile_field_count; i++) {
    assert_true(strlen(ws_profile_field_table[i].section) > 0);
    assert_true(strlen(ws_profile_field_table[i].doc) > 10);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shorthand_launch), cmocka_unit_test(grid_3d),
      cmocka_unit_test(several_errors), cmocka_unit_test(syntax_error_position),
      cmocka_unit_test(round_trip), cmocka_unit_test(field_table), cmocka_unit_test(top_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
