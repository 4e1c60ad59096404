/*
 * gpu.c — loading GPUs from the built-in database or a JSON file
 * (schema "warpsight-gpu/1", docs/gpu-schema.md) and reading per-model
 * parameters.  Every number may be bare or {"value": N, "source": "..."}.
 */
#include "warpsight/gpu.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/derive.h"
#include "gpu/facts.h"
#include "gpu/gpu_check.h"
#include "gpu/gpu_doc.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"

const ws_gp_info ws_gpu_param_table[WS_GP_COUNT] = {
#define GP(id, model, key, check, unit, doc) {model, key, check, unit, doc},
#include "warpsight/gpu_params.def"
#undef GP
};

int ws_gpu_param_find(const char *model, const char *key) {
  if (!model || !key) return -1;
  for (int i = 0; i < WS_GP_COUNT; i++)
    if (strcmp(ws_gpu_param_table[i].model, model) == 0 && strcmp(ws_gpu_param_table[i].key, key) == 0) return i;
  return -1;
}

/* Generated from data/gpus by cmake/embed_gpus.cmake. */
typedef struct ws_gpu_embedded_entry {
  const char *name;
  const char *json;
} ws_gpu_embedded_entry;
extern const ws_gpu_embedded_entry ws_gpu_embedded_entries[];
extern const size_t ws_gpu_embedded_count;

size_t ws_gpu_db_count(void) { return ws_gpu_embedded_count; }
const char *ws_gpu_db_name(size_t i) { return i < ws_gpu_embedded_count ? ws_gpu_embedded_entries[i].name : NULL; }

static void doc_free(struct ws_gpu_doc *doc) {
  if (!doc) return;
  cJSON_Delete(doc->root);
  free(doc);
}

void ws_gpu_free(ws_gpu *g) {
  if (!g) return;
  free(g->name);
  free(g->full_name);
  free(g->architecture);
  for (int i = 0; i < WS_GP_COUNT; i++) free(g->params[i].source), free(g->params[i].note);
  ws_gpu_facts_free(g);
  doc_free(g->doc);
  free(g);
}

/* Reads obj[key] as an integer in [lo, hi] into *dst (untouched when absent
 * and not required). */
static int get_int(const cJSON *obj, const char *path, const char *key, int required,
                   double lo, double hi, int *dst, const char *origin, ws_diag *d) {
  double v;
  int r = ws_json_get_number(obj, path, key, required, WS_JSON_ANY, &v, origin, d);
  if (r != WS_OK) return r == WS_EMISSING ? WS_OK : r;
  if (v != floor(v) || v < lo || v > hi)
    return ws_json_error(d, origin, path, key, "expected an integer from %.0f to %.0f, got %g",
                         lo, hi, v);
  *dst = (int)v;
  return WS_OK;
}

/* Reads obj[key] as a number in (0, hi]. */
static int get_pos(const cJSON *obj, const char *path, const char *key, int required,
                   double hi, double *dst, const char *origin, ws_diag *d) {
  double v;
  int r = ws_json_get_number(obj, path, key, required, WS_JSON_POSITIVE, &v, origin, d);
  if (r != WS_OK) return r == WS_EMISSING ? WS_OK : r;
  if (v > hi) return ws_json_error(d, origin, path, key, "expected at most %g, got %g", hi, v);
  *dst = v;
  return WS_OK;
}

/* Reads obj[key] as a number in [0, hi]. */
static int get_nonneg(const cJSON *obj, const char *path, const char *key, double hi, double *dst,
                      const char *origin, ws_diag *d) {
  double v;
  int r = ws_json_get_number(obj, path, key, 0, WS_JSON_ANY, &v, origin, d);
  if (r != WS_OK) return r == WS_EMISSING ? WS_OK : r;
  if (!(v >= 0) || v > hi)
    return ws_json_error(d, origin, path, key, "expected a number from 0 to %g, got %g", hi, v);
  *dst = v;
  return WS_OK;
}

static int parse_cc(const cJSON *root, int *major, int *minor, const char *origin,
                    ws_diag *d) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, "compute_capability");
  if (cJSON_IsObject(it)) it = cJSON_GetObjectItemCaseSensitive(it, "value");
  const char *s = NULL;
  char buf[32];
  if (cJSON_IsString(it)) {
    s = it->valuestring;
  } else if (cJSON_IsNumber(it)) {
    snprintf(buf, sizeof buf, "%.1f", it->valuedouble);
    s = buf;
  } else {
    return ws_json_error(d, origin, "", "compute_capability",
                         it ? "expected a string such as \"8.0\"" : "missing (expected a string such as \"8.0\")");
  }
  /* exactly MAJOR.MINOR, one or two digits each: "8.0.1", "8.0x" or " 8.0"
   * is refused (sscanf would read 8.0 from each), as is 8.05 written as a
   * number, which is no compute capability */
  size_t a = strspn(s, "0123456789"), b = 0;
  if (a >= 1 && a <= 2 && s[a] == '.') b = strspn(s + a + 1, "0123456789");
  if (cJSON_IsNumber(it) && it->valuedouble * 10 != floor(it->valuedouble * 10))
    return ws_json_error(d, origin, "", "compute_capability", "expected MAJOR.MINOR such as \"8.0\", got %.17g",
                         it->valuedouble);
  if (b < 1 || b > 2 || s[a + 1 + b])
    return ws_json_error(d, origin, "", "compute_capability", "expected MAJOR.MINOR such as \"8.0\", got \"%s\"", s);
  *major = atoi(s);
  *minor = atoi(s + a + 1);
  return WS_OK;
}

static int load_json(ws_gpu **out, const char *json, size_t len, const char *origin, ws_diag *d);

/* json[0..len) (a file's whole text: a NUL in it is an error). */
static int load_text(ws_gpu **out, const char *json, size_t len, const char *origin,
                     ws_diag *d) {
  if (d) return load_json(out, json, len, origin, d);
  ws_diag local = WS_DIAG_INIT; /* the checks count errors in a diag */
  int r = load_json(out, json, len, origin, &local);
  ws_diag_free(&local);
  return r;
}

int ws_gpu_load_json(ws_gpu **out, const char *json, const char *origin,
                     ws_diag *d) {
  return load_text(out, json, strlen(json), origin, d);
}

static int load_json(ws_gpu **out, const char *json, size_t len, const char *origin, ws_diag *d) {
  *out = NULL;
  cJSON *root;
  int r = ws_json_parse(&root, json, len, origin, d);
  if (r) return r;
  ws_gpu *g = calloc(1, sizeof *g);
  if (g) g->doc = calloc(1, sizeof *g->doc);
  if (!g || !g->doc) {
    free(g);
    cJSON_Delete(root);
    return WS_ENOMEM;
  }
  g->doc->root = root;
  for (int i = 0; i < WS_GP_COUNT; i++) g->params[i].value = NAN;
  ws_gpu_facts_init(g);
  /* A serialised GPU carries its derived facts marked: drop them, so they
   * are derived again from this file's own facts (never stale). */
  if (cJSON_IsObject(root)) ws_gpu_facts_strip(root);
  size_t errors = d->errors;
  const char *schema = NULL, *name = NULL, *full = NULL, *arch = NULL;
  if (!cJSON_IsObject(root)) {
    ws_json_error(d, origin, "", "", "expected a JSON object");
    goto fail;
  }
  if (ws_json_get_string(root, "", "schema", 1, &schema, origin, d) == WS_OK &&
      strcmp(schema, "warpsight-gpu/1") != 0)
    ws_json_error(d, origin, "", "schema", "expected \"warpsight-gpu/1\", got \"%s\"", schema);
  else
    ws_gpu_check_keys(root, origin, d); /* a typo is an error, not a default in silence */
  ws_json_get_string(root, "", "name", 1, &name, origin, d);
  ws_json_get_string(root, "", "full_name", 0, &full, origin, d);
  ws_json_get_string(root, "", "architecture", 0, &arch, origin, d);
  parse_cc(root, &g->cc_major, &g->cc_minor, origin, d);

  g->warp_size = 32;
  get_int(root, "", "sms", 1, 1, 1 << 20, &g->sms, origin, d);
  get_int(root, "", "cores_per_sm", 1, 1, 1 << 16, &g->cores_per_sm, origin, d);
  get_int(root, "", "sfu_per_sm", 0, 0, 1 << 16, &g->sfu_per_sm, origin, d);
  if (get_int(root, "", "warp_size", 0, 1, 64, &g->warp_size, origin, d) == WS_OK &&
      (g->warp_size & (g->warp_size - 1)) != 0)
    ws_json_error(d, origin, "", "warp_size", "expected a power of two up to 64 (32 on every NVIDIA GPU), got %d",
                  g->warp_size);
  get_pos(root, "", "clock_ghz", 1, 100, &g->clock_ghz, origin, d);
  get_pos(root, "", "mem_bandwidth_gbs", 1, 1e7, &g->mem_bandwidth_gbs, origin, d);
  get_pos(root, "", "sustained_clock_ghz", 0, 100, &g->sustained_clock_ghz, origin, d);
  get_pos(root, "", "launch_overhead_us", 0, 1e6, &g->launch_overhead_us, origin, d);
  const cJSON *hyp = cJSON_GetObjectItemCaseSensitive(root, "hypothetical");
  g->is_hypothetical = cJSON_IsTrue(hyp);

  /* The occupancy table must know the CC even when "limits" overrides some
   * of its rows: the overrides start from the CC's row. */
  if (d->errors == errors &&
      ws_gpu_sm_limits_for_cc(&g->limits, g->cc_major, g->cc_minor) != WS_OK)
    ws_json_error(d, origin, "", "compute_capability",
                  "no built-in limits for compute capability %d.%d (src/gpu/cc_limits.def knows 1.0 to %s)",
                  g->cc_major, g->cc_minor, ws_gpu_sm_limits_newest_cc());
  const cJSON *lim = NULL;
  if (ws_json_get_object(root, "", "limits", 0, &lim, origin, d) == WS_OK) {
    ws_sm_limits *L = &g->limits;
#define LIM(k) get_int(lim, "limits", #k, 0, 0, 2147483647.0, &L->k, origin, d);
    LIM(max_threads_per_sm) LIM(max_warps_per_sm) LIM(max_blocks_per_sm)
    LIM(max_threads_per_block) LIM(regs_per_sm) LIM(max_regs_per_thread)
    LIM(max_regs_per_block) LIM(reg_alloc_unit) LIM(reg_alloc_per_warp)
    LIM(warp_alloc_granularity) LIM(reg_sub_partitions) LIM(shared_per_sm)
    LIM(max_shared_per_block) LIM(shared_alloc_unit) LIM(shared_reserved_per_block)
#undef LIM
  }
  if (d->errors == errors) ws_gpu_check_limits(&g->limits, g->warp_size, origin, d);
  const cJSON *cache = NULL;
  if (ws_json_get_object(root, "", "cache", 0, &cache, origin, d) == WS_OK) {
    ws_cache_facts *C = &g->cache;
#define CF(k) get_int(cache, "cache", #k, 0, 0, 2147483647.0, &C->k, origin, d);
    CF(l1_bytes) CF(l1_shared_bytes) CF(l1_line_bytes) CF(l1_sector_bytes) CF(l1_assoc)
    CF(l1_caches_global) CF(readonly_bytes) CF(l2_bytes) CF(l2_line_bytes) CF(l2_sector_bytes)
    CF(l2_assoc) CF(l2_slices)
#undef CF
    ws_gpu_check_cache(&g->cache, origin, d);
  }
  g->lat = (ws_latencies){NAN, NAN, NAN, NAN, NAN};
  const cJSON *lat = NULL;
  if (ws_json_get_object(root, "", "latencies", 0, &lat, origin, d) == WS_OK) {
    get_pos(lat, "latencies", "dram", 0, 1e7, &g->lat.dram, origin, d);
    get_pos(lat, "latencies", "l2", 0, 1e7, &g->lat.l2, origin, d);
    get_pos(lat, "latencies", "l1", 0, 1e7, &g->lat.l1, origin, d);
    get_pos(lat, "latencies", "smem", 0, 1e7, &g->lat.smem, origin, d);
    get_pos(lat, "latencies", "fp32", 0, 1e7, &g->lat.fp32, origin, d);
  }
  const cJSON *mem = NULL;
  if (ws_json_get_object(root, "", "memory", 0, &mem, origin, d) == WS_OK) {
    ws_dram_facts *M = &g->dram;
    get_int(mem, "memory", "bus_bits", 0, 1, 1 << 16, &M->bus_bits, origin, d);
    get_int(mem, "memory", "dram_partitions", 0, 1, 4096, &M->partitions, origin, d);
    get_int(mem, "memory", "interleave_bytes", 0, 32, 1 << 20, &M->interleave_bytes, origin, d);
    get_pos(mem, "memory", "clock_mhz", 0, 1e6, &M->clock_mhz, origin, d);
    ws_gpu_check_memory_type(mem, M->type, sizeof M->type, origin, d);
  }
  const cJSON *tensor = NULL;
  if (ws_json_get_object(root, "", "tensor", 0, &tensor, origin, d) == WS_OK && tensor) {
    ws_tensor_facts *T = &g->tensor;
#define TF(k) get_nonneg(tensor, "tensor", #k, 1e9, &T->k, origin, d);
    TF(fp16_f32acc) TF(fp16_f16acc) TF(bf16) TF(tf32) TF(fp8) TF(int8) TF(fp64)
#undef TF
  }
  const cJSON *models = NULL;
  ws_json_get_object(root, "", "models", 0, &models, origin, d);
  g->doc->models = models;
  if (d->errors == errors) {
    /* The file's parameters into the typed table, then the derived ones,
     * checked like given ones.  "derive": false keeps the file's parameters
     * alone (a strict file, or a test of a model's missing-parameter path). */
    ws_gpu_check_models(models, origin, d);
    const cJSON *der = cJSON_GetObjectItemCaseSensitive(root, "derive");
    /* The facts first (the parameters' rules read them): given, derived,
     * or absent with a warning naming what reads them. */
    ws_gpu_facts_mark(g, root);
    if (der && !cJSON_IsBool(der))
      ws_json_error(d, origin, "", "derive", "expected true or false");
    else if (ws_gpu_params_read(g) != WS_OK ||
             (!cJSON_IsFalse(der) && ws_gpu_facts_derive(g) != WS_OK) ||
             (!cJSON_IsFalse(der) && ws_gpu_derive(g) != WS_OK)) {
      ws_gpu_free(g);
      return WS_ENOMEM;
    }
    if (d->errors == errors) ws_gpu_facts_warn(g, origin, d);
    ws_gpu_check_derived(g, origin, d);
  }

  if (d->errors != errors) goto fail;
  g->name = ws_strdup(name ? name : "unnamed");
  g->full_name = ws_strdup(full ? full : name);
  g->architecture = ws_strdup(arch ? arch : "unknown");
  if (!g->name || !g->full_name || !g->architecture) {
    ws_gpu_free(g);
    return WS_ENOMEM;
  }
  *out = g;
  return WS_OK;
fail:
  ws_gpu_free(g);
  return WS_EINVAL;
}

static int looks_like_path(const char *s) {
  size_t n = strlen(s);
  return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

/* A GPU file's whole text (ws_parse_file). */
static int parse_gpu(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  return load_text(out, text, len, path, d);
}

int ws_gpu_load(ws_gpu **out, const char *name_or_path, ws_diag *d) {
  *out = NULL;
  if (looks_like_path(name_or_path)) return ws_parse_file(out, name_or_path, d, parse_gpu);
  for (size_t i = 0; i < ws_gpu_embedded_count; i++)
    if (strcmp(ws_gpu_embedded_entries[i].name, name_or_path) == 0) {
      char origin[96];
      snprintf(origin, sizeof origin, "data/gpus/%s.json", ws_gpu_embedded_entries[i].name);
      size_t before = d ? d->errors : 0;
      int r = ws_gpu_load_json(out, ws_gpu_embedded_entries[i].json, origin, d);
      return ws_diag_oom(d, r, before, origin, "loading the GPU");
    }
  /* List the known names so the user can pick one. */
  ws_strbuf list = WS_STRBUF_INIT;
  for (size_t i = 0; i < ws_gpu_embedded_count; i++) {
    if (i) ws_sb_puts(&list, ", ");
    ws_sb_puts(&list, ws_gpu_embedded_entries[i].name);
  }
  if (list.oom) return WS_ENOMEM;
  ws_diag_error(d, "unknown GPU '%s' (known GPUs: %s; or give a path to a JSON file)",
                name_or_path, ws_gpu_embedded_count ? ws_sb_str(&list) : "none");
  ws_sb_free(&list);
  return WS_EINVAL;
}

/* The item models.MODEL.KEY of the file: at each level the rest of the key
 * as one flat key first ("add.int_reg" in inst_costs), else its first
 * dotted part ("op_cycles" of "op_cycles.int_mul32"). */
static const cJSON *doc_item(const cJSON *models, const char *model, const char *key) {
  const cJSON *m = models ? cJSON_GetObjectItemCaseSensitive(models, model) : NULL;
  const char *k = key;
  while (cJSON_IsObject(m) && k) {
    const cJSON *flat = cJSON_GetObjectItemCaseSensitive(m, k);
    if (flat) return flat;
    const char *dot = strchr(k, '.');
    if (!dot) return NULL;
    char part[128];
    size_t n = (size_t)(dot - k);
    if (n >= sizeof part) return NULL;
    memcpy(part, k, n);
    part[n] = '\0';
    m = cJSON_GetObjectItemCaseSensitive(m, part);
    k = dot + 1;
  }
  return NULL;
}

int ws_gpu_params_read(ws_gpu *g) {
  const cJSON *models = g->doc->models;
  for (int i = 0; i < WS_GP_COUNT; i++) {
    const cJSON *it = doc_item(models, ws_gpu_param_table[i].model, ws_gpu_param_table[i].key);
    if (!it) continue;
    ws_gp_value *pv = &g->params[i];
    pv->origin = WS_GP_GIVEN;
    double v;
    if (ws_json_number(it, &v) && isfinite(v)) pv->value = v;
    const cJSON *src = cJSON_IsObject(it) ? cJSON_GetObjectItemCaseSensitive(it, "source") : NULL;
    if (cJSON_IsString(src) && !(pv->source = ws_strdup(src->valuestring))) return WS_ENOMEM;
  }
  return WS_OK;
}

/* Copies src's strings into dst (a struct copy of src). */
static int copy_strings(ws_gpu *dst, const ws_gpu *src) {
  dst->name = dst->full_name = dst->architecture = NULL;
  dst->doc = NULL;
  for (int i = 0; i < WS_GP_COUNT; i++) dst->params[i].source = dst->params[i].note = NULL;
  int bad = ws_gpu_facts_copy(dst, src) != WS_OK;
  bad = bad || !(dst->name = ws_strdup(src->name)) || !(dst->full_name = ws_strdup(src->full_name)) ||
        !(dst->architecture = ws_strdup(src->architecture));
  for (int i = 0; i < WS_GP_COUNT && !bad; i++) {
    const ws_gp_value *s = &src->params[i];
    ws_gp_value *t = &dst->params[i];
    if ((s->source && !(t->source = ws_strdup(s->source))) || (s->note && !(t->note = ws_strdup(s->note))))
      bad = 1;
  }
  if (!bad && src->doc) {
    dst->doc = calloc(1, sizeof *dst->doc);
    if (!dst->doc || !(dst->doc->root = cJSON_Duplicate(src->doc->root, 1))) bad = 1;
    else dst->doc->models = cJSON_GetObjectItemCaseSensitive(dst->doc->root, "models");
  }
  return bad ? WS_ENOMEM : WS_OK;
}

int ws_gpu_with_params(ws_gpu **out, const ws_gpu *g, const ws_gp_change *changes, size_t n) {
  *out = NULL;
  ws_gpu *c = malloc(sizeof *c);
  if (!c) return WS_ENOMEM;
  *c = *g;
  if (copy_strings(c, g) != WS_OK) {
    ws_gpu_free(c);
    return WS_ENOMEM;
  }
  for (size_t k = 0; k < n; k++) {
    if ((unsigned)changes[k].id >= WS_GP_COUNT) {
      ws_gpu_free(c);
      return WS_EINVAL;
    }
    ws_gp_value *pv = &c->params[changes[k].id];
    pv->value = changes[k].value;
    if (changes[k].source) {
      free(pv->source);
      if (!(pv->source = ws_strdup(changes[k].source))) {
        ws_gpu_free(c);
        return WS_ENOMEM;
      }
      pv->changed = 2;
      pv->estimate = changes[k].estimate != 0;
    } else if (pv->changed == 0) {
      pv->changed = 1;
    }
  }
  *out = c;
  return WS_OK;
}

/* A replaced parameter in the serialised document: with a new source, a
 * new {"value", "source"[, "estimate"]} entry in place of the old; without,
 * the old entry's value changed (a bare number when it had none). */
static int write_change(cJSON *root, ws_gp_id id, const ws_gp_value *pv) {
  const ws_gp_info *in = &ws_gpu_param_table[id];
  const char *dot = strchr(in->key, '.');
  char table[64];
  if (dot) snprintf(table, sizeof table, "%.*s", (int)(dot - in->key), in->key);
  const char *key = dot ? dot + 1 : in->key;
  cJSON *m = ws_gpu_doc_parent(root, in->model, dot ? table : NULL);
  if (!m) return WS_ENOMEM;
  cJSON *item, *old = cJSON_GetObjectItemCaseSensitive(m, key);
  if (pv->changed == 2) {
    item = cJSON_CreateObject();
    if (!item || !cJSON_AddNumberToObject(item, "value", pv->value) ||
        !cJSON_AddStringToObject(item, "source", pv->source) ||
        (pv->estimate && !cJSON_AddBoolToObject(item, "estimate", 1))) {
      cJSON_Delete(item);
      return WS_ENOMEM;
    }
  } else {
    cJSON *val = cJSON_IsObject(old) ? cJSON_GetObjectItemCaseSensitive(old, "value") : NULL;
    if (cJSON_IsNumber(val)) {
      cJSON_SetNumberValue(val, pv->value);
      return WS_OK;
    }
    if (!(item = cJSON_CreateNumber(pv->value))) return WS_ENOMEM;
  }
  if (old) cJSON_ReplaceItemInObjectCaseSensitive(m, key, item);
  else cJSON_AddItemToObject(m, key, item);
  return WS_OK;
}

char *ws_gpu_to_json(const ws_gpu *g) {
  if (!g || !g->doc) return NULL;
  cJSON *root = cJSON_Duplicate(g->doc->root, 1);
  int st = root ? ws_gpu_facts_decorate(root, g) : WS_ENOMEM;
  if (st == WS_OK) st = ws_gpu_derive_decorate(root, g);
  for (int i = 0; i < WS_GP_COUNT && st == WS_OK; i++)
    if (g->params[i].changed) st = write_change(root, (ws_gp_id)i, &g->params[i]);
  char *s = st == WS_OK ? ws_json_print(root, 1) : NULL;
  cJSON_Delete(root);
  if (!s) return NULL;
  char *out = ws_strdup(s); /* free() for the caller, whatever cJSON's allocator */
  cJSON_free(s);
  return out;
}

int ws_gpu_param(const ws_gpu *g, const char *model, const char *key,
                 double *out, ws_diag *d) {
  int id = ws_gpu_param_find(model, key);
  if (g && id >= 0 && g->params[id].origin != WS_GP_ABSENT) {
    *out = g->params[id].value;
    if (isfinite(*out)) return WS_OK;
    ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                "GPU '%s': models.%s.%s: expected a number", g->name, model, key);
    return WS_EINVAL;
  }
  const cJSON *it = g && id < 0 ? doc_item(g->doc->models, model, key) : NULL;
  if (!it) {
    ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                "GPU '%s' has no parameter models.%s.%s", g ? g->name : "?", model, key);
    return WS_EMISSING;
  }
  if (!ws_json_number(it, out) || !isfinite(*out)) {
    ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                "GPU '%s': models.%s.%s: expected a number", g->name, model, key);
    return WS_EINVAL;
  }
  return WS_OK;
}

double ws_gpu_param_or(const ws_gpu *g, const char *model, const char *key,
                       double dflt) {
  double v;
  return ws_gpu_param(g, model, key, &v, NULL) == WS_OK ? v : dflt;
}

const char *ws_gpu_param_source(const ws_gpu *g, const char *model,
                                const char *key) {
  int id = ws_gpu_param_find(model, key);
  if (!g) return NULL;
  if (id >= 0) return g->params[id].source;
  const cJSON *it = doc_item(g->doc->models, model, key);
  const cJSON *s = it ? cJSON_GetObjectItemCaseSensitive(it, "source") : NULL;
  return cJSON_IsString(s) ? s->valuestring : NULL;
}
