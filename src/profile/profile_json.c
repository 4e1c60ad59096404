/*
 * profile_json.c — reading, validating and writing warpsight-profile/1
 * documents (docs/profile.md).  The scalar fields come from
 * profile_fields.def; every error names the field by its JSON path.
 */
#include "warpsight/profile.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/lines.h"
#include "profile/profile_doc.h"
#include "profile/profile_mix.h"
#include "util/file.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/suggest.h"

const ws_profile_field_info ws_profile_field_table[] = {
#define PF(section, key, check, doc) \
  {#section, #key, offsetof(ws_profile_fields, key), check, doc},
#include "warpsight/profile_fields.def"
#undef PF
};
const size_t ws_profile_field_count =
    sizeof ws_profile_field_table / sizeof ws_profile_field_table[0];

static double *field_ptr(ws_profile_fields *f, size_t i) {
  return (double *)((char *)f + ws_profile_field_table[i].offset);
}
static double field_get(const ws_profile_fields *f, size_t i) {
  return *(const double *)((const char *)f + ws_profile_field_table[i].offset);
}

static void fields_clear(ws_profile_fields *f) {
  for (size_t i = 0; i < ws_profile_field_count; i++) *field_ptr(f, i) = NAN;
}

static int is_field_section(const char *name) {
  for (size_t i = 0; i < ws_profile_field_count; i++)
    if (strcmp(ws_profile_field_table[i].section, name) == 0) return 1;
  return 0;
}

static ws_json_check to_json_check(ws_pf_check c) {
  switch (c) {
  case WS_PF_COUNT: return WS_JSON_NONNEG;
  case WS_PF_POSITIVE: return WS_JSON_POSITIVE;
  case WS_PF_RATIO: return WS_JSON_RATIO;
  case WS_PF_ANY: return WS_JSON_ANY;
  }
  return WS_JSON_ANY;
}

void ws_profile_free(ws_profile *p) {
  if (!p) return;
  free(p->kernel);
  free(p->origin);
  ws_profile_mix_free(&p->mix);
  ws_profile_sections_free(p);
  ws_profile_lines_free(p->lines);
  if (p->doc) cJSON_Delete(p->doc->root);
  free(p->doc);
  free(p);
}

ws_profile *ws_profile_new(const char *kernel, const uint32_t grid[3],
                           const uint32_t block[3]) {
  ws_profile *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->kernel = ws_strdup(kernel);
  if (!p->kernel) {
    free(p);
    return NULL;
  }
  for (int i = 0; i < 3; i++) {
    p->grid[i] = grid[i];
    p->block[i] = block[i];
  }
  p->blocks = (uint64_t)grid[0] * grid[1] * grid[2];
  p->threads_per_block = (uint64_t)block[0] * block[1] * block[2];
  fields_clear(&p->f);
  return p;
}

/* dims: a positive integer or an array of 1-3 positive integers. */
static int read_dims(const cJSON *launch, const char *key, uint32_t dims[3],
                     const char *origin, ws_diag *d) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(launch, key);
  dims[0] = dims[1] = dims[2] = 1;
  if (!it) return ws_json_error(d, origin, "launch", key, "missing (expected [x, y, z])");
  if (cJSON_IsNumber(it)) {
    double v = it->valuedouble;
    if (!(v >= 1 && v == floor(v) && v <= 4294967295.0))
      return ws_json_error(d, origin, "launch", key, "expected a positive integer, got %g", v);
    dims[0] = (uint32_t)v;
    return WS_OK;
  }
  int n = cJSON_GetArraySize(it);
  if (!cJSON_IsArray(it) || n < 1 || n > 3)
    return ws_json_error(d, origin, "launch", key, "expected an array of 1 to 3 positive integers");
  for (int i = 0; i < n; i++) {
    const cJSON *e = cJSON_GetArrayItem(it, i);
    double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
    if (!(v >= 1 && v == floor(v) && v <= 4294967295.0)) {
      char path[32];
      snprintf(path, sizeof path, "%s[%d]", key, i);
      return ws_json_error(d, origin, "launch", path, "expected a positive integer");
    }
    dims[i] = (uint32_t)v;
  }
  return WS_OK;
}

static int read_launch(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d) {
  const cJSON *launch = NULL;
  int r = ws_json_get_object(root, "", "launch", 1, &launch, origin, d);
  if (r) return r;
  if (cJSON_GetObjectItemCaseSensitive(launch, "grid") ||
      cJSON_GetObjectItemCaseSensitive(launch, "block")) {
    int a = read_dims(launch, "grid", p->grid, origin, d);
    int b = read_dims(launch, "block", p->block, origin, d);
    if (a || b) return WS_EINVAL;
  } else {
    double blocks, tpb;
    int a = ws_json_get_number(launch, "launch", "blocks", 1, WS_JSON_UINT, &blocks, origin, d);
    int b = ws_json_get_number(launch, "launch", "threads_per_block", 1, WS_JSON_UINT, &tpb, origin, d);
    if (a || b) return WS_EINVAL;
    if (blocks < 1 || blocks > 4294967295.0)
      return ws_json_error(d, origin, "launch", "blocks", "expected a positive integer, got %g", blocks);
    if (tpb < 1 || tpb > 4294967295.0)
      return ws_json_error(d, origin, "launch", "threads_per_block", "expected a positive integer, got %g", tpb);
    p->grid[0] = (uint32_t)blocks;
    p->grid[1] = p->grid[2] = 1;
    p->block[0] = (uint32_t)tpb;
    p->block[1] = p->block[2] = 1;
  }
  p->blocks = (uint64_t)p->grid[0] * p->grid[1] * p->grid[2];
  p->threads_per_block = (uint64_t)p->block[0] * p->block[1] * p->block[2];
  return WS_OK;
}

/* The keys of `obj` that `known` (NULL-terminated) does not list are errors
 * at `path`, with a did-you-mean when a known key is close, else with the
 * list of known keys (`list_known`) or a pointer to docs/profile.md. */
static void refuse_unknown(const cJSON *obj, const char *const *known, const char *path,
                           const char *what, int list_known, const char *origin, ws_diag *d) {
  for (const cJSON *k = obj->child; k; k = k->next) {
    int ok = 0;
    for (size_t i = 0; known[i] && !ok; i++) ok = strcmp(known[i], k->string) == 0;
    if (ok) continue;
    const char *hint = ws_suggest(k->string, known);
    if (hint) {
      ws_json_error(d, origin, path, k->string, "unknown %s (did you mean \"%s\"?)", what, hint);
      continue;
    }
    if (!list_known) {
      ws_json_error(d, origin, path, k->string, "unknown %s (docs/profile.md lists them)", what);
      continue;
    }
    ws_strbuf list = WS_STRBUF_INIT;
    for (size_t i = 0; known[i]; i++) ws_sb_printf(&list, "%s%s", i ? ", " : "", known[i]);
    ws_json_error(d, origin, path, k->string, "unknown %s (known: %s)", what, ws_sb_str(&list));
    ws_sb_free(&list);
  }
}

/* Every key in a field section must be a known field: a typo is an error,
 * not a silently missing input. */
static void check_unknown_keys(const cJSON *sec, const char *section,
                               const char *origin, ws_diag *d) {
  const char *known[sizeof ws_profile_field_table / sizeof ws_profile_field_table[0] + 1];
  size_t n = 0;
  for (size_t i = 0; i < ws_profile_field_count; i++)
    if (strcmp(ws_profile_field_table[i].section, section) == 0) known[n++] = ws_profile_field_table[i].key;
  known[n] = NULL;
  refuse_unknown(sec, known, section, "field", 1, origin, d);
}

static const char *const sec_keys[WS_PSEC_COUNT + 1] = {
#define S(id, key) [WS_PSEC_##id] = key,
#include "profile/profile_top.def"
#undef S
    NULL};

const char *ws_profile_sec_key(ws_profile_sec id) { return id < WS_PSEC_COUNT ? sec_keys[id] : NULL; }

/* An unknown top-level key is an error with a did-you-mean ("per_wrap"
 * once left every per-warp count missing in silence). */
static void check_sections(const cJSON *root, const char *origin, ws_diag *d) {
  const char *known[sizeof ws_profile_field_table / sizeof ws_profile_field_table[0] + WS_PSEC_COUNT + 1];
  size_t n = 0;
  for (size_t i = 0; i < WS_PSEC_COUNT; i++) known[n++] = sec_keys[i];
  for (size_t i = 0; i < ws_profile_field_count; i++)
    if (!i || strcmp(ws_profile_field_table[i].section, ws_profile_field_table[i - 1].section))
      known[n++] = ws_profile_field_table[i].section;
  known[n] = NULL;
  refuse_unknown(root, known, "", "section", 0, origin, d);
}

static int load_json(ws_profile **out, const char *json, size_t len, const char *origin,
                     ws_diag *d);

int ws_profile_load_json(ws_profile **out, const char *json, const char *origin,
                         ws_diag *d) {
  return load_json(out, json, strlen(json), origin, d);
}

/* json[0..len): a file's whole text, so that a NUL in it is an error. */
static int load_json(ws_profile **out, const char *json, size_t len, const char *origin,
                     ws_diag *d) {
  *out = NULL;
  cJSON *root;
  int r = ws_json_parse(&root, json, len, origin, d);
  if (r) return r;
  size_t errors0 = d ? d->errors : 0;
  ws_profile *p = calloc(1, sizeof *p);
  if (!p) {
    cJSON_Delete(root);
    return WS_ENOMEM;
  }
  p->doc = calloc(1, sizeof *p->doc);
  if (!p->doc) {
    cJSON_Delete(root);
    free(p);
    return WS_ENOMEM;
  }
  p->doc->root = root;
  fields_clear(&p->f);
  if (!cJSON_IsObject(root)) {
    ws_json_error(d, origin, "", "", "expected a JSON object");
    goto fail;
  }
  const char *schema = NULL, *kernel = NULL;
  if (ws_json_get_string(root, "", "schema", 1, &schema, origin, d) == WS_OK &&
      strcmp(schema, WS_PROFILE_SCHEMA) != 0)
    ws_json_error(d, origin, "", "schema", "expected \"%s\", got \"%s\"", WS_PROFILE_SCHEMA, schema);
  ws_json_get_string(root, "", "kernel", 1, &kernel, origin, d);
  read_launch(p, root, origin, d);
  check_sections(root, origin, d);

  for (const cJSON *s = root->child; s; s = s->next) {
    if (!is_field_section(s->string)) continue;
    if (!cJSON_IsObject(s)) {
      ws_json_error(d, origin, "", s->string, "expected an object");
      continue;
    }
    check_unknown_keys(s, s->string, origin, d);
  }
  for (size_t i = 0; i < ws_profile_field_count; i++) {
    const ws_profile_field_info *fi = &ws_profile_field_table[i];
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, fi->section);
    if (!cJSON_IsObject(sec)) continue;
    ws_json_get_number(sec, fi->section, fi->key, 0, to_json_check(fi->check),
                       field_ptr(&p->f, i), origin, d);
  }
  int mr = ws_profile_mix_read(&p->mix, root, origin, d);
  int sr = ws_profile_sections_read(p, root, origin, d);
  int lr = ws_profile_lines_read(p, root, origin, d);
  if (mr == WS_ENOMEM || sr == WS_ENOMEM || lr == WS_ENOMEM) {
    ws_profile_free(p);
    return WS_ENOMEM;
  }
  if (mr || sr || lr) goto fail;
  /* Counts that must be whole numbers where the models use them as such. */
  if (ws_pf_has(p->f.active_blocks_per_sm) && p->f.active_blocks_per_sm != floor(p->f.active_blocks_per_sm))
    ws_json_error(d, origin, "occupancy", "active_blocks_per_sm", "expected a positive integer, got %g",
                  p->f.active_blocks_per_sm);
  if (ws_pf_has(p->f.active_sms) && p->f.active_sms != floor(p->f.active_sms))
    ws_json_error(d, origin, "occupancy", "active_sms", "expected a positive integer, got %g", p->f.active_sms);

  if (d && d->errors != errors0) goto fail;
  p->kernel = ws_strdup(kernel);
  p->origin = ws_strdup(origin); /* NULL when origin is */
  if (!p->kernel || (origin && !p->origin)) {
    ws_profile_free(p);
    return WS_ENOMEM;
  }
  *out = p;
  return WS_OK;
fail:
  ws_profile_free(p);
  return WS_EINVAL;
}

static int parse_profile(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  return load_json(out, text, len, path, d);
}

int ws_profile_load_file(ws_profile **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_parse_file(out, path, d, parse_profile);
}

char *ws_profile_to_json(const ws_profile *p) {
  cJSON *root = cJSON_CreateObject();
  if (!root) return NULL;
  cJSON_AddStringToObject(root, "schema", WS_PROFILE_SCHEMA);
  cJSON_AddStringToObject(root, "kernel", p->kernel ? p->kernel : "");
  cJSON *launch = cJSON_AddObjectToObject(root, "launch");
  int g[3] = {(int)p->grid[0], (int)p->grid[1], (int)p->grid[2]};
  int b[3] = {(int)p->block[0], (int)p->block[1], (int)p->block[2]};
  cJSON_AddItemToObject(launch, "grid", cJSON_CreateIntArray(g, 3));
  cJSON_AddItemToObject(launch, "block", cJSON_CreateIntArray(b, 3));
  for (size_t i = 0; i < ws_profile_field_count; i++) {
    double v = field_get(&p->f, i);
    if (!ws_pf_has(v)) continue;
    const char *sec = ws_profile_field_table[i].section;
    cJSON *s = cJSON_GetObjectItemCaseSensitive(root, sec);
    if (!s) s = cJSON_AddObjectToObject(root, sec);
    cJSON_AddNumberToObject(s, ws_profile_field_table[i].key, v);
  }
  if (ws_profile_mix_write(root, &p->mix) != WS_OK || ws_profile_lines_write(root, p->lines) != WS_OK) {
    cJSON_Delete(root);
    return NULL;
  }
  /* The other structured sections are carried over. */
  const cJSON *doc = ws_profile_doc_peek(p);
  for (const cJSON *s = doc ? doc->child : NULL; s; s = s->next) {
    if (!s->string || is_field_section(s->string) || strcmp(s->string, sec_keys[WS_PSEC_SCHEMA]) == 0 ||
        strcmp(s->string, sec_keys[WS_PSEC_KERNEL]) == 0 || strcmp(s->string, sec_keys[WS_PSEC_LAUNCH]) == 0 ||
        strcmp(s->string, sec_keys[WS_PSEC_WARP_MIX]) == 0 || strcmp(s->string, sec_keys[WS_PSEC_LINES]) == 0)
      continue;
    cJSON_AddItemToObject(root, s->string, cJSON_Duplicate(s, 1));
  }
  char *text = ws_json_print(root, 1);
  cJSON_Delete(root);
  return text;
}

double ws_profile_mem_insts(const ws_profile *p) {
  return p->f.coal_mem_insts + p->f.uncoal_mem_insts;
}

double ws_profile_total_insts(const ws_profile *p) {
  return p->f.comp_insts + p->f.coal_mem_insts + p->f.uncoal_mem_insts;
}

cJSON *ws_profile_doc_root(ws_profile *p) {
  if (!p->doc && !(p->doc = calloc(1, sizeof *p->doc))) return NULL;
  if (!p->doc->root) p->doc->root = cJSON_CreateObject();
  return p->doc->root;
}

const cJSON *ws_profile_doc_peek(const ws_profile *p) { return p->doc ? p->doc->root : NULL; }

char *ws_profile_section_json(const ws_profile *p, const char *name) {
  const cJSON *doc = ws_profile_doc_peek(p);
  const cJSON *s = doc && name ? cJSON_GetObjectItemCaseSensitive(doc, name) : NULL;
  if (!s) return NULL;
  char *t = ws_json_print(s, 0);
  char *out = t ? ws_strdup(t) : NULL; /* free() for the caller */
  cJSON_free(t);
  return out;
}

double ws_profile_dram_bytes(const ws_profile *p) {
  const ws_profile_fields *f = &p->f;
  if (!ws_pf_has(f->dram_read_bytes) && !ws_pf_has(f->dram_write_bytes)) return NAN;
  return (ws_pf_has(f->dram_read_bytes) ? f->dram_read_bytes : 0) +
         (ws_pf_has(f->dram_write_bytes) ? f->dram_write_bytes : 0);
}
