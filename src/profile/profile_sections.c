/*
 * profile_sections.c — the hand-written model sections of a profile
 * ("kothapalli", "luo_suda"; docs/profile.md, "Model sections"), checked and
 * read into their typed forms when the profile is loaded, and written back.
 * Every error names the JSON path.  The profiler never writes them (it
 * writes the model-neutral mix, profile_mix.c).
 */
#include "profile/profile_mix.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/json.h"

static void counts_free(ws_pm_count *c, size_t n) {
  for (size_t i = 0; i < n; i++) free(c[i].name);
  free(c);
}

void ws_profile_sections_free(ws_profile *p) {
  if (p->kothapalli) {
    counts_free(p->kothapalli->ops, p->kothapalli->nops);
    free(p->kothapalli->global);
    free(p->kothapalli->shared);
    free(p->kothapalli);
    p->kothapalli = NULL;
  }
  if (p->luo_suda) {
    for (size_t i = 0; i < p->luo_suda->ntasks; i++)
      counts_free(p->luo_suda->tasks[i].ops, p->luo_suda->tasks[i].nops);
    free(p->luo_suda->tasks);
    free(p->luo_suda);
    p->luo_suda = NULL;
  }
}

/* An object of non-negative counts, keys kept in document order. */
static int read_counts(ws_pm_count **out, size_t *n, const cJSON *obj, const char *path,
                       const char *origin, ws_diag *d) {
  size_t m = (size_t)cJSON_GetArraySize(obj);
  *out = calloc(m ? m : 1, sizeof **out);
  *n = 0;
  if (!*out) return WS_ENOMEM;
  for (const cJSON *it = obj->child; it; it = it->next) {
    double v;
    int rc = ws_json_get_number(obj, path, it->string, 1, WS_JSON_NONNEG, &v, origin, d);
    if (rc != WS_OK) return rc;
    if (!((*out)[*n].name = ws_strdup(it->string))) return WS_ENOMEM;
    (*out)[(*n)++].count = v;
  }
  return WS_OK;
}

/* One entry of kothapalli.global_accesses / shared_accesses: {"count",
 * DEGREE_KEY} with ctx the degree key. */
static int read_group(void *elem, const cJSON *it, const char *ipath, const void *ctx,
                      const char *origin, ws_diag *d) {
  const char *degree_key = ctx;
  double count = 0, k = 1;
  int rc = ws_json_get_number(it, ipath, "count", 1, WS_JSON_NONNEG, &count, origin, d);
  if (rc != WS_OK) return rc;
  rc = ws_json_get_number(it, ipath, degree_key, 0, WS_JSON_POSITIVE, &k, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (k < 1) return ws_json_error(d, origin, ipath, degree_key, "expected a number >= 1, got %g", k);
  *(ws_pm_group *)elem = (ws_pm_group){count, k};
  return WS_OK;
}

/* kothapalli.global_accesses / shared_accesses: [{"count", DEGREE_KEY}]. */
static int read_groups(ws_pm_group **out, size_t *n, const cJSON *sec, const char *key,
                       const char *degree_key, const char *origin, ws_diag *d) {
  *out = NULL;
  *n = 0;
  const cJSON *list;
  size_t m;
  int st = ws_json_get_objects(sec, "kothapalli", key, 0, &list, &m, origin, d);
  if (st != WS_OK) return st == WS_EMISSING ? WS_OK : st;
  char prefix[96];
  snprintf(prefix, sizeof prefix, "kothapalli.%s", key);
  void *items;
  st = ws_prof_read_items(&items, n, sizeof **out, list, m, prefix, read_group, degree_key, origin, d);
  *out = items;
  return st;
}

static int read_kothapalli(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d) {
  const cJSON *sec = NULL;
  int rc = ws_json_get_object(root, "", "kothapalli", 0, &sec, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  ws_profile_kothapalli *k = calloc(1, sizeof *k);
  if (!(p->kothapalli = k)) return WS_ENOMEM;
  const cJSON *ops = NULL;
  rc = ws_json_get_object(sec, "kothapalli", "ops_per_thread", 0, &ops, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (ops && (rc = read_counts(&k->ops, &k->nops, ops, "kothapalli.ops_per_thread", origin, d)))
    return rc;
  rc = ws_json_get_number(sec, "kothapalli", "comp_cycles", 0, WS_JSON_NONNEG, &k->comp_cycles,
                          origin, d);
  if (rc == WS_EINVAL) return rc;
  rc = read_groups(&k->global, &k->nglobal, sec, "global_accesses", "threads_per_transaction",
                   origin, d);
  if (rc == WS_OK)
    rc = read_groups(&k->shared, &k->nshared, sec, "shared_accesses", "conflict_degree", origin, d);
  return rc;
}

/* One entry of luo_suda.tasks. */
static int read_task(void *elem, const cJSON *it, const char *path, const void *ctx,
                     const char *origin, ws_diag *d) {
  (void)ctx;
  ws_pl_task *t = elem;
  if (!cJSON_IsObject(it)) return ws_json_error(d, origin, path, NULL, "expected an object");
  const cJSON *ops = NULL;
  int rc = ws_json_get_object(it, path, "ops", 0, &ops, origin, d);
  if (rc == WS_EINVAL) return rc;
  rc = ws_json_get_number(it, path, "comp_cycles", !ops, WS_JSON_NONNEG, &t->comp_cycles, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (ops) {
    if (rc == WS_OK) return ws_json_error(d, origin, path, NULL, "give either comp_cycles or ops, not both");
    char opath[128];
    snprintf(opath, sizeof opath, "%s.ops", path);
    t->has_ops = 1;
    if ((rc = read_counts(&t->ops, &t->nops, ops, opath, origin, d))) return rc;
  }
  t->mem_insts = NAN;
  rc = ws_json_get_number(it, path, "mem_insts", 0, WS_JSON_NONNEG, &t->mem_insts, origin, d);
  if (rc == WS_EINVAL) return rc;
  int has_mi = rc == WS_OK;
  rc = ws_json_get_number(it, path, "mem_cycles", 0, WS_JSON_NONNEG, &t->mem_cycles, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (has_mi && rc == WS_OK)
    return ws_json_error(d, origin, path, NULL, "give either mem_cycles or mem_insts, not both");
  return ws_prof_read_repeat(&t->repeat, it, path, origin, d);
}

static int read_luo_suda(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d) {
  const cJSON *sec = NULL;
  int rc = ws_json_get_object(root, "", "luo_suda", 0, &sec, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  ws_profile_luo_suda *l = calloc(1, sizeof *l);
  if (!(p->luo_suda = l)) return WS_ENOMEM;
  l->computation_proportion = l->bytes_per_thread = l->transactions = NAN;
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(sec, "tasks");
  if (list) {
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
      return ws_json_error(d, origin, "luo_suda", "tasks", "expected a non-empty array of tasks");
    void *items;
    rc = ws_prof_read_items(&items, &l->ntasks, sizeof *l->tasks, list,
                            (size_t)cJSON_GetArraySize(list), "luo_suda.tasks", read_task, NULL,
                            origin, d);
    l->tasks = items;
    if (rc) return rc;
  }
  const cJSON *mem = NULL;
  if ((rc = ws_json_get_object(sec, "luo_suda", "mem", 0, &mem, origin, d)) == WS_EINVAL) return rc;
  if ((rc = ws_json_get_number(mem, "luo_suda.mem", "bytes_per_thread", 0, WS_JSON_POSITIVE,
                               &l->bytes_per_thread, origin, d)) == WS_EINVAL)
    return rc;
  if ((rc = ws_json_get_number(mem, "luo_suda.mem", "transactions", 0, WS_JSON_POSITIVE,
                               &l->transactions, origin, d)) == WS_EINVAL)
    return rc;
  rc = ws_json_get_number(sec, "luo_suda", "computation_proportion", 0, WS_JSON_RATIO,
                          &l->computation_proportion, origin, d);
  return rc == WS_EINVAL ? rc : WS_OK;
}

int ws_profile_sections_read(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d) {
  int rc = read_kothapalli(p, root, origin, d);
  if (rc == WS_EMISSING) rc = WS_OK;
  if (rc == WS_ENOMEM) return rc;
  int rc2 = read_luo_suda(p, root, origin, d);
  if (rc2 == WS_EMISSING) rc2 = WS_OK;
  return rc ? rc : rc2;
}
