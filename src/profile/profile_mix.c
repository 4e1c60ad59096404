/*
 * profile_mix.c — the model-neutral instruction mix of a profile
 * (profile_mix.def; docs/profile.md, "Instruction mix"): key names, and the
 * "warp_mix" section read into ws_profile_mix and written back.  Every
 * error names the JSON path.
 */
#include "profile/profile_mix.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"
#include "util/json.h"
#include "profile/profile_doc.h"

static const char *const unit_names[WS_MIX_NUNITS] = {
#define MIX_UNIT(id, name, doc) name,
#include "warpsight/profile_mix.def"
#undef MIX_UNIT
};
static const char *const op_names[WS_MIX_NOPS] = {
#define MIX_OP(id, name, doc) name,
#include "warpsight/profile_mix.def"
#undef MIX_OP
};

const char *ws_profile_mix_key_name(unsigned key, char *buf, size_t n) {
  if (key >= WS_MIX_NKEYS) {
    snprintf(buf, n, "?");
    return buf;
  }
  snprintf(buf, n, "%s.%s.%s.%s", unit_names[ws_mix_key_unit(key)], op_names[ws_mix_key_op(key)],
           ws_mix_key_float(key) ? "float" : "int", ws_mix_key_imm(key) ? "imm" : "reg");
  return buf;
}

/* The index of the n characters at s in names, or -1. */
static int name_index(const char *s, size_t n, const char *const *names, int count) {
  for (int i = 0; i < count; i++)
    if (strlen(names[i]) == n && strncmp(names[i], s, n) == 0) return i;
  return -1;
}

/* Part by part, not by writing out every key's name to compare. */
int ws_profile_mix_key_parse(const char *name) {
  static const char *const types[] = {"int", "float"}, *const operands[] = {"reg", "imm"};
  const char *const *lists[4] = {unit_names, op_names, types, operands};
  const int counts[4] = {WS_MIX_NUNITS, WS_MIX_NOPS, 2, 2};
  int part[4];
  const char *s = name;
  for (int i = 0; i < 4; i++) {
    /* no name has a dot, so a fifth part makes the last one unknown */
    const char *end = i < 3 ? strchr(s, '.') : s + strlen(s);
    if (!end || (part[i] = name_index(s, (size_t)(end - s), lists[i], counts[i])) < 0) return -1;
    s = end + 1;
  }
  return (int)ws_mix_key((unsigned)part[0], (unsigned)part[1], part[2], part[3]);
}

void ws_profile_mix_free(ws_profile_mix *m) {
  for (size_t i = 0; i < m->nwarps; i++) free(m->warps[i].ops);
  for (size_t i = 0; i < m->nperiods; i++) free(m->periods[i].ops);
  free(m->warps);
  free(m->periods);
  memset(m, 0, sizeof *m);
}

static int cmp_count(const void *a, const void *b) {
  unsigned x = ((const ws_mix_count *)a)->key, y = ((const ws_mix_count *)b)->key;
  return x < y ? -1 : x > y;
}

void ws_prof_mix_sort(ws_mix_count *c, size_t n) {
  if (n > 1) qsort(c, n, sizeof *c, cmp_count);
}

/* obj "ops": {"UNIT.OP.TYPE.OPERAND": count, ...} into a key-ordered list. */
static int read_ops(ws_mix_count **out, size_t *n, const cJSON *obj, const char *path,
                    const char *origin, ws_diag *d) {
  *out = NULL;
  *n = 0;
  const cJSON *ops = NULL;
  int rc = ws_json_get_object(obj, path, "ops", 0, &ops, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  char opath[160];
  snprintf(opath, sizeof opath, "%s.ops", path);
  size_t cap = 0;
  for (const cJSON *it = ops->child; it; it = it->next) {
    int key = ws_profile_mix_key_parse(it->string);
    if (key < 0)
      return ws_json_error(d, origin, opath, it->string,
                           "unknown key (expected UNIT.OP.TYPE.OPERAND, e.g. int.add.int.reg; docs/profile.md)");
    double v;
    rc = ws_json_get_number(ops, opath, it->string, 1, WS_JSON_NONNEG, &v, origin, d);
    if (rc != WS_OK) return rc;
    if (WS_VEC_RESERVE(*out, cap, *n + 1)) return WS_ENOMEM;
    (*out)[(*n)++] = (ws_mix_count){(unsigned)key, v};
  }
  ws_prof_mix_sort(*out, *n);
  return WS_OK;
}

/* {"K": count} with K an integer 1..32 into h[K]. */
static int read_hist(double h[33], const cJSON *obj, const char *path, const char *key,
                     const char *origin, ws_diag *d) {
  const cJSON *o = NULL;
  int rc = ws_json_get_object(obj, path, key, 0, &o, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  char hpath[160];
  snprintf(hpath, sizeof hpath, "%s.%s", path, key);
  for (const cJSON *it = o->child; it; it = it->next) {
    char *end;
    long k = strtol(it->string, &end, 10);
    if (*end || k < 1 || k > 32)
      return ws_json_error(d, origin, hpath, it->string, "expected a key from 1 to 32");
    rc = ws_json_get_number(o, hpath, it->string, 1, WS_JSON_NONNEG, &h[k], origin, d);
    if (rc != WS_OK) return rc;
  }
  return WS_OK;
}

int ws_prof_read_items(void **out, size_t *count, size_t size, const cJSON *arr, size_t n,
                       const char *prefix, ws_prof_item_fn read_one, const void *ctx,
                       const char *origin, ws_diag *d) {
  *count = 0;
  if (!(*out = calloc(n ? n : 1, size))) return WS_ENOMEM;
  const cJSON *it;
  cJSON_ArrayForEach(it, arr) {
    char path[160];
    snprintf(path, sizeof path, "%s[%zu]", prefix, *count);
    int rc = read_one((char *)*out + *count * size, it, path, ctx, origin, d);
    ++*count; /* read or partly read: the caller's free sees it */
    if (rc) return rc;
  }
  return WS_OK;
}

int ws_prof_read_repeat(double *out, const cJSON *obj, const char *path, const char *origin,
                        ws_diag *d) {
  *out = 1;
  int rc = ws_json_get_number(obj, path, "repeat", 0, WS_JSON_UINT, out, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (*out < 1) return ws_json_error(d, origin, path, "repeat", "expected an integer >= 1, got %g", *out);
  return WS_OK;
}

/* One entry of warp_mix.heaviest_warps. */
static int read_warp(void *elem, const cJSON *it, const char *path, const void *ctx,
                     const char *origin, ws_diag *d) {
  (void)ctx;
  ws_warp_mix *w = elem;
  double b = 0, wp = 0;
  int rc = ws_json_get_number(it, path, "block", 1, WS_JSON_UINT, &b, origin, d);
  if (!rc) rc = ws_json_get_number(it, path, "warp", 1, WS_JSON_UINT, &wp, origin, d);
  if (!rc) rc = read_ops(&w->ops, &w->nops, it, path, origin, d);
  if (!rc) rc = read_hist(w->global_by_tpt, it, path, "global_requests", origin, d);
  if (!rc) rc = read_hist(w->shared_by_degree, it, path, "shared_requests", origin, d);
  if (rc) return rc;
  w->block = (uint64_t)b;
  w->warp = (uint32_t)wp;
  return WS_OK;
}

static int read_warps(ws_profile_mix *m, const cJSON *sec, const char *origin, ws_diag *d) {
  const cJSON *arr;
  size_t n;
  int st = ws_json_get_objects(sec, "warp_mix", "heaviest_warps", 0, &arr, &n, origin, d);
  if (st != WS_OK) return st == WS_EMISSING ? WS_OK : st;
  void *items;
  st = ws_prof_read_items(&items, &m->nwarps, sizeof *m->warps, arr, n, "warp_mix.heaviest_warps",
                          read_warp, NULL, origin, d);
  m->warps = items;
  return st;
}

/* One entry of warp_mix.representative_warp.periods. */
static int read_period(void *elem, const cJSON *it, const char *path, const void *ctx,
                       const char *origin, ws_diag *d) {
  (void)ctx;
  ws_mix_period *pe = elem;
  pe->mem_insts = 0;
  pe->repeat = 1;
  int rc = read_ops(&pe->ops, &pe->nops, it, path, origin, d);
  if (!rc) rc = ws_json_get_number(it, path, "mem_insts", 0, WS_JSON_NONNEG, &pe->mem_insts, origin, d);
  if (rc == WS_EMISSING) rc = WS_OK;
  return rc ? rc : ws_prof_read_repeat(&pe->repeat, it, path, origin, d);
}

static int read_periods(ws_profile_mix *m, const cJSON *sec, const char *origin, ws_diag *d) {
  const cJSON *rep = NULL;
  int rc = ws_json_get_object(sec, "warp_mix", "representative_warp", 0, &rep, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  const cJSON *arr;
  size_t n;
  rc = ws_json_get_objects(rep, "warp_mix.representative_warp", "periods", 1, &arr, &n, origin, d);
  if (rc != WS_OK) return rc;
  void *items;
  rc = ws_prof_read_items(&items, &m->nperiods, sizeof *m->periods, arr, n,
                          "warp_mix.representative_warp.periods", read_period, NULL, origin, d);
  m->periods = items;
  return rc;
}

int ws_profile_mix_read(ws_profile_mix *m, const cJSON *root, const char *origin, ws_diag *d) {
  memset(m, 0, sizeof *m);
  const cJSON *sec = NULL;
  int rc = ws_json_get_object(root, "", ws_profile_sec_key(WS_PSEC_WARP_MIX), 0, &sec, origin, d);
  if (rc != WS_OK) return rc == WS_EMISSING ? WS_OK : rc;
  rc = read_warps(m, sec, origin, d);
  if (!rc) rc = read_periods(m, sec, origin, d);
  return rc;
}

static cJSON *ops_json(const ws_mix_count *ops, size_t n) {
  cJSON *o = cJSON_CreateObject();
  char buf[48];
  for (size_t i = 0; o && i < n; i++)
    cJSON_AddNumberToObject(o, ws_profile_mix_key_name(ops[i].key, buf, sizeof buf), ops[i].n);
  return o;
}

static cJSON *hist_json(const double h[33]) {
  cJSON *o = cJSON_CreateObject();
  for (int k = 1; o && k <= 32; k++) {
    if (!(h[k] > 0)) continue;
    char key[8];
    snprintf(key, sizeof key, "%d", k);
    cJSON_AddNumberToObject(o, key, h[k]);
  }
  return o;
}

int ws_profile_mix_write(cJSON *root, const ws_profile_mix *m) {
  if (!m->nwarps && !m->nperiods) return WS_OK;
  cJSON *sec = cJSON_AddObjectToObject(root, ws_profile_sec_key(WS_PSEC_WARP_MIX));
  if (!sec) return WS_ENOMEM;
  if (m->nwarps) {
    cJSON *arr = cJSON_AddArrayToObject(sec, "heaviest_warps");
    for (size_t i = 0; arr && i < m->nwarps; i++) {
      const ws_warp_mix *w = &m->warps[i];
      cJSON *o = cJSON_CreateObject();
      if (!o) return WS_ENOMEM;
      cJSON_AddNumberToObject(o, "block", (double)w->block);
      cJSON_AddNumberToObject(o, "warp", w->warp);
      cJSON_AddItemToObject(o, "ops", ops_json(w->ops, w->nops));
      cJSON_AddItemToObject(o, "global_requests", hist_json(w->global_by_tpt));
      cJSON_AddItemToObject(o, "shared_requests", hist_json(w->shared_by_degree));
      cJSON_AddItemToArray(arr, o);
    }
  }
  if (m->nperiods) {
    cJSON *rep = cJSON_AddObjectToObject(sec, "representative_warp");
    cJSON_AddNumberToObject(rep, "block", 0);
    cJSON_AddNumberToObject(rep, "warp", 0);
    cJSON *arr = cJSON_AddArrayToObject(rep, "periods");
    for (size_t i = 0; arr && i < m->nperiods; i++) {
      const ws_mix_period *pe = &m->periods[i];
      cJSON *o = cJSON_CreateObject();
      if (!o) return WS_ENOMEM;
      cJSON_AddItemToObject(o, "ops", ops_json(pe->ops, pe->nops));
      if (pe->mem_insts > 0) cJSON_AddNumberToObject(o, "mem_insts", pe->mem_insts);
      if (pe->repeat > 1) cJSON_AddNumberToObject(o, "repeat", pe->repeat);
      cJSON_AddItemToArray(arr, o);
    }
  }
  return WS_OK;
}
