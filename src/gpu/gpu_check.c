/*
 * gpu_check.c — range and consistency checks on a GPU file's values, run by
 * the loader after every field has been read (docs/gpu-schema.md, "Value
 * checks").  The point is that no model downstream can divide by zero, print
 * inf, nan or a negative time, or overflow an int: every count is a bounded
 * integer, every cache geometry is one the cache simulation accepts, and
 * every model parameter of the five paper models is a finite positive number.
 *
 * Every error names the file and the JSON path of the value.
 */
#include "gpu/gpu_check.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "util/bits.h"
#include "util/strbuf.h"
#include "util/json.h"
#include "util/suggest.h"

/* Bounds of the occupancy limits.  Large enough for any GPU (the largest
 * today: 2048 threads, 64 K registers, 228 KB shared per SM), small enough
 * that every product the occupancy calculator forms fits an int. */
static const struct {
  const char *key;
  size_t off;
  int lo, hi;
} lim_range[] = {
#define L(k, lo, hi) {#k, offsetof(ws_sm_limits, k), lo, hi}
  L(max_threads_per_sm, 1, 1 << 16),   L(max_warps_per_sm, 1, 1 << 12),
  L(max_blocks_per_sm, 1, 1 << 12),    L(max_threads_per_block, 1, 1 << 16),
  L(regs_per_sm, 1, 1 << 24),          L(max_regs_per_thread, 1, 1 << 16),
  L(max_regs_per_block, 1, 1 << 24),   L(reg_alloc_unit, 1, 1 << 16),
  L(reg_alloc_per_warp, 0, 1),         L(warp_alloc_granularity, 1, 1 << 12),
  L(reg_sub_partitions, 1, 64),        L(shared_per_sm, 1, 1 << 30),
  L(max_shared_per_block, 0, 1 << 30), L(shared_alloc_unit, 1, 1 << 20),
  L(shared_reserved_per_block, 0, 1 << 20),
#undef L
};

static int *lim_field(ws_sm_limits *L, size_t i) {
  return (int *)(void *)((char *)L + lim_range[i].off);
}

int ws_gpu_check_limits(ws_sm_limits *L, int warp_size, const char *origin, ws_diag *d) {
  int bad = 0;
  for (size_t i = 0; i < sizeof lim_range / sizeof lim_range[0]; i++) {
    int v = *lim_field(L, i);
    if (v < lim_range[i].lo || v > lim_range[i].hi)
      bad = ws_json_error(d, origin, "limits", lim_range[i].key,
                          "expected an integer from %d to %d, got %d",
                          lim_range[i].lo, lim_range[i].hi, v);
  }
  if (bad) return bad;
  if (L->max_threads_per_block > L->max_threads_per_sm)
    bad = ws_json_error(d, origin, "limits", "max_threads_per_block",
                        "%d is more than max_threads_per_sm (%d)",
                        L->max_threads_per_block, L->max_threads_per_sm);
  if ((long long)L->max_warps_per_sm * warp_size < L->max_threads_per_block)
    bad = ws_json_error(d, origin, "limits", "max_warps_per_sm",
                        "%d warps of %d threads cannot hold one block of max_threads_per_block (%d)",
                        L->max_warps_per_sm, warp_size, L->max_threads_per_block);
  if (L->max_regs_per_block > L->regs_per_sm)
    bad = ws_json_error(d, origin, "limits", "max_regs_per_block",
                        "%d is more than regs_per_sm (%d)", L->max_regs_per_block, L->regs_per_sm);
  if (L->max_shared_per_block + L->shared_reserved_per_block > L->shared_per_sm)
    bad = ws_json_error(d, origin, "limits", "max_shared_per_block",
                        "%d + shared_reserved_per_block (%d) is more than shared_per_sm (%d)",
                        L->max_shared_per_block, L->shared_reserved_per_block, L->shared_per_sm);
  return bad;
}

int ws_gpu_check_cache(const ws_cache_facts *C, const char *origin, ws_diag *d) {
  int bad = 0;
  const struct {
    const char *key;
    int v;
  } lines[] = {{"l1_line_bytes", C->l1_line_bytes}, {"l1_sector_bytes", C->l1_sector_bytes},
               {"l2_line_bytes", C->l2_line_bytes}, {"l2_sector_bytes", C->l2_sector_bytes}};
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
    if (lines[i].v != 0 && (!ws_is_pow2_u64((uint64_t)lines[i].v) || lines[i].v < 4 ||
                            lines[i].v > 4096))
      bad = ws_json_error(d, origin, "cache", lines[i].key,
                          "expected a power of two from 4 to 4096 bytes, got %d", lines[i].v);
  if (C->l1_caches_global > 1)
    bad = ws_json_error(d, origin, "cache", "l1_caches_global", "expected 0 or 1, got %d",
                        C->l1_caches_global);
  if (C->l1_assoc > 1024 || C->l2_assoc > 1024)
    bad = ws_json_error(d, origin, "cache", C->l1_assoc > 1024 ? "l1_assoc" : "l2_assoc",
                        "expected at most 1024 ways");
  if (bad) return bad;
  int sector = C->l2_sector_bytes;
  if (sector && C->l2_line_bytes && (sector > C->l2_line_bytes || C->l2_line_bytes / sector > 32))
    bad = ws_json_error(d, origin, "cache", "l2_sector_bytes",
                        "a sector of %d bytes does not divide an L2 line of %d bytes into 1 to 32 sectors",
                        sector, C->l2_line_bytes);
  if (C->l1_sector_bytes && C->l1_line_bytes && C->l1_sector_bytes > C->l1_line_bytes)
    bad = ws_json_error(d, origin, "cache", "l1_sector_bytes",
                        "a sector of %d bytes is larger than an L1 line of %d bytes",
                        C->l1_sector_bytes, C->l1_line_bytes);
  if (C->l1_shared_bytes && C->l1_bytes > C->l1_shared_bytes)
    bad = ws_json_error(d, origin, "cache", "l1_bytes",
                        "%d is more than the unified L1/shared array l1_shared_bytes (%d)",
                        C->l1_bytes, C->l1_shared_bytes);
  if (C->l2_slices > 4096)
    bad = ws_json_error(d, origin, "cache", "l2_slices", "expected at most 4096 slices, got %d",
                        C->l2_slices);
  if (C->l1_assoc && C->l1_line_bytes && C->l1_bytes % ((long long)C->l1_assoc * C->l1_line_bytes))
    bad = ws_json_error(d, origin, "cache", "l1_bytes",
                        "%d is not a whole number of sets of l1_assoc x l1_line_bytes (%d x %d)",
                        C->l1_bytes, C->l1_assoc, C->l1_line_bytes);
  if (C->l2_assoc && C->l2_line_bytes && C->l2_bytes % ((long long)C->l2_assoc * C->l2_line_bytes))
    bad = ws_json_error(d, origin, "cache", "l2_bytes",
                        "%d is not a whole number of sets of l2_assoc x l2_line_bytes (%d x %d)",
                        C->l2_bytes, C->l2_assoc, C->l2_line_bytes);
  return bad;
}

/* The models whose every numeric parameter must be positive: each is a
 * latency, a cycle count, a width, a size or a rate that a model divides by
 * or multiplies a time with (docs/gpu-schema.md).  Other models' tables
 * (one added later, a user's own) are only checked for finite, non-negative
 * numbers. */
static const char *const positive_models[] = {"hong-kim", "gpuperf", "kothapalli",
                                              "luo-suda", "transit"};

/* Parameters that count whole things (lanes, units, bytes, threads, warps):
 * WS_GP_INTEGER in gpu_params.def. */
static int is_integer_param(const char *model, const char *key) {
  int id = ws_gpu_param_find(model, key);
  return id >= 0 && ws_gpu_param_table[id].check == WS_GP_INTEGER;
}

/* 1 if gpu_params.def declares parameters of `model`. */
static int declared_model(const char *model) {
  for (int i = 0; i < WS_GP_COUNT; i++)
    if (strcmp(ws_gpu_param_table[i].model, model) == 0) return 1;
  return 0;
}

/* The declared parameter of `model` closest to `key` (ws_suggest), or NULL. */
static const char *param_suggest(const char *model, const char *key) {
  const char *known[WS_GP_COUNT + 1];
  size_t n = 0;
  for (int i = 0; i < WS_GP_COUNT; i++)
    if (strcmp(ws_gpu_param_table[i].model, model) == 0) known[n++] = ws_gpu_param_table[i].key;
  known[n] = NULL;
  return ws_suggest(key, known);
}

static int in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return 1;
  return 0;
}

/* The parameters of table obj of model M; path is its JSON path,
 * "models.M[.SUB...]", extended for a nested table and restored after. */
static int check_param_table(const cJSON *obj, ws_strbuf *path, const char *model,
                             int positive, const char *origin, ws_diag *d) {
  int bad = 0;
  for (const cJSON *it = obj->child; it; it = it->next) {
    const char *key = it->string ? it->string : "?";
    const cJSON *num = it;
    if (cJSON_IsObject(it) && !cJSON_GetObjectItemCaseSensitive(it, "value")) {
      size_t len = strlen(ws_sb_str(path));
      ws_sb_printf(path, ".%s", key);
      int r = check_param_table(it, path, model, positive, origin, d);
      if (r) bad = r;
      if (path->s) path->s[path->n = len] = '\0'; /* back to this table's path */
      continue;
    }
    if (cJSON_IsObject(it)) num = cJSON_GetObjectItemCaseSensitive(it, "value");
    if (!cJSON_IsNumber(num)) {
      if (cJSON_IsObject(it) || cJSON_IsNumber(it))
        bad = ws_json_error(d, origin, ws_sb_str(path), key, "expected a number");
      continue; /* strings and booleans are notes and flags */
    }
    double v = num->valuedouble;
    char full[160]; /* the key within the model's table: "SUB.key" under models.M.SUB */
    const char *p = ws_sb_str(path); /* "models.M[.SUB]"; "" after an allocation failure */
    size_t table = strlen("models.") + strlen(model);
    if (strlen(p) > table) snprintf(full, sizeof full, "%s.%s", p + table + 1, key);
    else snprintf(full, sizeof full, "%s", key);
    if (declared_model(model) && ws_gpu_param_find(model, full) < 0) {
      /* a typo must not leave the model without its value */
      const char *hint = param_suggest(model, full);
      if (hint)
        bad = ws_json_error(d, origin, ws_sb_str(path), key,
                            "unknown parameter of model '%s' (did you mean \"%s\"?)", model, hint);
      else
        bad = ws_json_error(d, origin, ws_sb_str(path), key,
                            "unknown parameter of model '%s' (include/warpsight/gpu_params.def, "
                            "docs/gpu-schema.md list them)", model);
      continue;
    }
    int integer = is_integer_param(model, full);
    if (!isfinite(v) || v < 0 || (positive && v <= 0) || v > 1e12)
      bad = ws_json_error(d, origin, ws_sb_str(path), key,
                          "expected a %s number up to 1e12, got %g",
                          positive ? "positive" : "non-negative", v);
    else if (integer && (v != floor(v) || v > 1e9))
      bad = ws_json_error(d, origin, ws_sb_str(path), key,
                          "expected a positive integer, got %g", v);
  }
  return bad;
}

int ws_gpu_check_models(const cJSON *models, const char *origin, ws_diag *d) {
  int bad = 0;
  if (!models) return WS_OK;
  for (const cJSON *m = models->child; m; m = m->next) {
    const char *name = m->string ? m->string : "?";
    if (!cJSON_IsObject(m)) {
      bad = ws_json_error(d, origin, "models", name, "expected an object of parameters");
      continue;
    }
    int positive = in_list(name, positive_models, sizeof positive_models / sizeof positive_models[0]);
    ws_strbuf path = WS_STRBUF_INIT;
    ws_sb_printf(&path, "models.%s", name);
    int r = check_param_table(m, &path, name, positive, origin, d);
    if (r) bad = r;
    ws_sb_free(&path);
  }
  return bad;
}

/* The keys of a GPU file (docs/gpu-schema.md), NULL-terminated: a key the
 * loader (gpu.c) learns to read must be added here too, or files using it
 * are refused (tests/cli/model_all_gpus.sh loads every bundled file). */
static const char *const top_keys[] = {
    "schema", "name", "full_name", "architecture", "compute_capability", "sms", "cores_per_sm",
    "sfu_per_sm", "warp_size", "clock_ghz", "mem_bandwidth_gbs", "sustained_clock_ghz",
    "launch_overhead_us", "hypothetical", "limits", "cache", "latencies", "memory", "tensor",
    "models", "derive", NULL};
static const char *const cache_keys[] = {"l1_bytes", "l1_shared_bytes", "l1_line_bytes",
                                         "l1_sector_bytes", "l1_assoc", "l1_caches_global",
                                         "readonly_bytes", "l2_bytes", "l2_line_bytes",
                                         "l2_sector_bytes", "l2_assoc", "l2_slices", NULL};
static const char *const latency_keys[] = {"dram", "l2", "l1", "smem", "fp32", NULL};
static const char *const memory_keys[] = {"bus_bits", "type", "clock_mhz", "dram_partitions",
                                          "interleave_bytes", NULL};
static const char *const tensor_keys[] = {"fp16_f32acc", "fp16_f16acc", "bf16", "tf32", "fp8",
                                          "int8", "fp64", NULL};
/* The parameter tables the models read (kothapalli: both of its variants). */
static const char *const model_tables[] = {"warpsight", "hong-kim", "gpuperf", "kothapalli",
                                           "luo-suda",  "transit",  "roofline", NULL};

/* One error per key of obj not in known; `open` lets a key that is no typo
 * of a known one pass. */
static int unknown_keys(const cJSON *obj, const char *path, const char *const *known, int open,
                        const char *origin, ws_diag *d) {
  int bad = 0;
  if (!cJSON_IsObject(obj)) return WS_OK; /* the loader says what it expected */
  for (const cJSON *it = obj->child; it; it = it->next) {
    const char *key = it->string ? it->string : "";
    int ok = 0;
    for (int i = 0; known[i] && !ok; i++) ok = strcmp(key, known[i]) == 0;
    if (ok) continue;
    const char *hint = ws_suggest(key, known);
    if (hint)
      bad = ws_json_error(d, origin, path, key, "unknown key (did you mean \"%s\"?)", hint);
    else if (!open)
      bad = ws_json_error(d, origin, path, key, "unknown key (docs/gpu-schema.md lists the keys)");
  }
  return bad;
}

int ws_gpu_check_keys(const cJSON *root, const char *origin, ws_diag *d) {
  if (!cJSON_IsObject(root)) return WS_OK;
  const char *lim_keys[sizeof lim_range / sizeof lim_range[0] + 1];
  for (size_t i = 0; i < sizeof lim_range / sizeof lim_range[0]; i++) lim_keys[i] = lim_range[i].key;
  lim_keys[sizeof lim_range / sizeof lim_range[0]] = NULL;
  int bad = 0, r;
  if ((r = unknown_keys(root, "", top_keys, 0, origin, d))) bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "limits"), "limits", lim_keys, 0, origin, d)))
    bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "cache"), "cache", cache_keys, 0, origin, d)))
    bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "latencies"), "latencies", latency_keys, 0,
                        origin, d)))
    bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "memory"), "memory", memory_keys, 0, origin,
                        d)))
    bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "tensor"), "tensor", tensor_keys, 0, origin,
                        d)))
    bad = r;
  if ((r = unknown_keys(cJSON_GetObjectItemCaseSensitive(root, "models"), "models", model_tables, 1, origin,
                        d)))
    bad = r;
  return bad;
}

/* The derived parameters against their gpu_params.def check (the rules
 * give finite positive numbers; a count must also be whole). */
int ws_gpu_check_derived(const ws_gpu *g, const char *origin, ws_diag *d) {
  int bad = 0;
  for (int i = 0; i < WS_GP_COUNT; i++) {
    const ws_gp_value *pv = &g->params[i];
    const ws_gp_info *in = &ws_gpu_param_table[i];
    if (pv->origin != WS_GP_DERIVED) continue;
    char path[96];
    /* the path of the key's table: "models.luo-suda.inst_costs" for the flat
     * "add.int_reg"; "models.kothapalli.op_cycles" for int_mul32 */
    const char *first = strchr(in->key, '.');
    if (first) snprintf(path, sizeof path, "models.%s.%.*s", in->model, (int)(first - in->key), in->key);
    else snprintf(path, sizeof path, "models.%s", in->model);
    const char *key = first ? first + 1 : in->key;
    double v = pv->value;
    int positive = in->check != WS_GP_NONNEG;
    if (!isfinite(v) || v < 0 || (positive && v <= 0) || v > 1e12)
      bad = ws_json_error(d, origin, path, key, "expected a %s number up to 1e12, got %g",
                          positive ? "positive" : "non-negative", v);
    else if (in->check == WS_GP_INTEGER && (v != floor(v) || v > 1e9))
      bad = ws_json_error(d, origin, path, key, "expected a positive integer, got %g", v);
  }
  return bad;
}

/* The DRAM technologies a file may name (docs/gpu-schema.md, "memory"). */
static const char *const memory_types[] = {"GDDR3", "GDDR5", "GDDR5X", "GDDR6", "GDDR6X", "GDDR7",
                                           "HBM2", "HBM2e", "HBM3", "HBM3e", NULL};

int ws_gpu_check_memory_type(const cJSON *mem, char *out, size_t n, const char *origin, ws_diag *d) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(mem, "type");
  if (!it) return WS_OK;
  const cJSON *v = cJSON_IsObject(it) ? cJSON_GetObjectItemCaseSensitive(it, "value") : it;
  if (cJSON_IsString(v))
    for (int i = 0; memory_types[i]; i++)
      if (strcmp(v->valuestring, memory_types[i]) == 0) {
        snprintf(out, n, "%s", memory_types[i]);
        return WS_OK;
      }
  const char *hint = cJSON_IsString(v) ? ws_suggest(v->valuestring, memory_types) : NULL;
  return ws_json_error(d, origin, "memory", "type",
                       "expected one of GDDR3, GDDR5, GDDR5X, GDDR6, GDDR6X, GDDR7, HBM2, HBM2e, "
                       "HBM3, HBM3e%s%s%s",
                       hint ? " (did you mean \"" : "", hint ? hint : "", hint ? "\"?)" : "");
}
