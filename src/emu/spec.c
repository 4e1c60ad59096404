/*
 * spec.c — the launch spec (DESIGN.md "Launch spec", docs/launch-spec.md):
 * grid, block, dynamic shared bytes and the kernel's arguments in order.
 * Every error names the JSON path of the offending field.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/json.h"
#include "util/file.h"
#include "util/strbuf.h"

static const struct {
  const char *name;
  int size;
} elem_info[WS_ELEM_COUNT] = {
    {"u8", 1},  {"s8", 1},  {"u16", 2},  {"s16", 2}, {"u32", 4},  {"s32", 4},
    {"u64", 8}, {"s64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}};

const char *ws_elem_type_name(ws_elem_type t) {
  return (unsigned)t < WS_ELEM_COUNT ? elem_info[t].name : "?";
}

int ws_elem_type_size(ws_elem_type t) {
  return (unsigned)t < WS_ELEM_COUNT ? elem_info[t].size : 0;
}

void ws_launch_spec_free(ws_launch_spec *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->nargs; i++) {
    free(s->args[i].name);
    free(s->args[i].file);
    free(s->args[i].output);
  }
  free(s->args);
  free(s->kernel);
  free(s->path);
  free(s);
}

/* Reads a [x, y, z] array (1 to 3 positive integers; missing ones are 1). */
static int get_dim3(uint32_t out[3], const cJSON *root, const char *key,
                    const char *origin, ws_diag *d) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
  out[0] = out[1] = out[2] = 1;
  if (!a) return ws_json_error(d, origin, "", key, "missing (expected [x, y, z])");
  if (cJSON_IsNumber(a)) a = NULL; /* fall through to the error below */
  if (!a || !cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > 3)
    return ws_json_error(d, origin, "", key, "expected an array of 1 to 3 positive integers");
  int i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, a) {
    double v = e->valuedouble;
    if (!cJSON_IsNumber(e) || v < 1 || v > 2147483647.0 || v != floor(v)) {
      char p[32];
      snprintf(p, sizeof p, "%s[%d]", key, i);
      return ws_json_error(d, origin, "", p, "expected a positive integer");
    }
    out[i++] = (uint32_t)v;
  }
  return WS_OK;
}

static int parse_type(ws_elem_type *out, const cJSON *obj, const char *path,
                      const char *origin, ws_diag *d) {
  const char *t;
  if (ws_json_get_string(obj, path, "type", 1, &t, origin, d)) return WS_EINVAL;
  for (int i = 0; i < WS_ELEM_COUNT; i++)
    if (strcmp(t, elem_info[i].name) == 0) {
      *out = (ws_elem_type)i;
      return WS_OK;
    }
  return ws_json_error(d, origin, path, "type",
                       "unknown element type '%s' (expected u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)", t);
}

static int is_float(ws_elem_type t) {
  return t == WS_ELEM_F16 || t == WS_ELEM_BF16 || t == WS_ELEM_F32 || t == WS_ELEM_F64;
}

/* The raw bits of scalar value v of type t; integers must be exact and in range. */
static int scalar_bits(uint64_t *out, ws_elem_type t, double v, const char *path, const char *key,
                       const char *origin, ws_diag *d) {
  if (is_float(t)) {
    if (t == WS_ELEM_F64) {
      memcpy(out, &v, 8);
    } else if (t == WS_ELEM_F32) {
      float f = (float)v;
      uint32_t b;
      memcpy(&b, &f, 4);
      *out = b;
    } else {
      return ws_json_error(d, origin, path, key, "scalar arguments of type %s are not supported",
                           ws_elem_type_name(t));
    }
    return WS_OK;
  }
  static const double lo[] = {0, -128, 0, -32768, 0, -2147483648.0, 0, -9223372036854775808.0};
  static const double hi[] = {255, 127, 65535, 32767, 4294967295.0, 2147483647.0,
                              18446744073709551615.0, 9223372036854775807.0};
  if (v != floor(v) || v < lo[t] || v > hi[t])
    return ws_json_error(d, origin, path, key, "%.17g is not a %s value", v, ws_elem_type_name(t));
  int size = ws_elem_type_size(t);
  uint64_t bits = (t & 1) ? (uint64_t)(int64_t)v : (v >= 9223372036854775808.0 ? (uint64_t)(v - 9223372036854775808.0) + 0x8000000000000000ull : (uint64_t)v);
  if (size < 8) bits &= (1ull << (size * 8)) - 1;
  *out = bits;
  return WS_OK;
}

static int parse_init(ws_launch_arg *a, const cJSON *obj, const char *path, const char *dir,
                      const char *origin, ws_diag *d) {
  const cJSON *init = cJSON_GetObjectItemCaseSensitive(obj, "init");
  char p[96];
  snprintf(p, sizeof p, "%s.init", path);
  a->init = WS_INIT_ZERO;
  if (!init) return WS_OK;
  if (cJSON_IsString(init)) {
    if (strcmp(init->valuestring, "zero") == 0) return WS_OK;
    return ws_json_error(d, origin, path, "init", "unknown initialiser '%s' (expected \"zero\" or an object)",
                         init->valuestring);
  }
  if (!cJSON_IsObject(init))
    return ws_json_error(d, origin, path, "init", "expected \"zero\" or an object");
  const cJSON *c = init->child;
  if (!c || c->next)
    return ws_json_error(d, origin, path, "init", "expected exactly one of constant, iota, random, file");
  if (strcmp(c->string, "constant") == 0) {
    a->init = WS_INIT_CONSTANT;
    return ws_json_get_number(init, p, "constant", 1, WS_JSON_ANY, &a->v0, origin, d);
  }
  if (strcmp(c->string, "iota") == 0) {
    char q[112];
    snprintf(q, sizeof q, "%s.iota", p);
    a->init = WS_INIT_IOTA;
    a->v0 = 0;
    a->v1 = 1;
    if (!cJSON_IsObject(c)) return ws_json_error(d, origin, p, "iota", "expected an object {start, step}");
    if (ws_json_get_number(c, q, "start", 0, WS_JSON_ANY, &a->v0, origin, d) == WS_EINVAL) return WS_EINVAL;
    if (ws_json_get_number(c, q, "step", 0, WS_JSON_ANY, &a->v1, origin, d) == WS_EINVAL) return WS_EINVAL;
    return WS_OK;
  }
  if (strcmp(c->string, "random") == 0) {
    char q[112];
    snprintf(q, sizeof q, "%s.random", p);
    double seed;
    a->init = WS_INIT_RANDOM;
    if (!cJSON_IsObject(c)) return ws_json_error(d, origin, p, "random", "expected an object {seed, min, max}");
    if (ws_json_get_number(c, q, "seed", 1, WS_JSON_UINT, &seed, origin, d) ||
        ws_json_get_number(c, q, "min", 1, WS_JSON_ANY, &a->v0, origin, d) ||
        ws_json_get_number(c, q, "max", 1, WS_JSON_ANY, &a->v1, origin, d))
      return WS_EINVAL;
    if (a->v1 < a->v0)
      return ws_json_error(d, origin, q, "max", "max %g is below min %g", a->v1, a->v0);
    a->seed = (uint64_t)seed;
    return WS_OK;
  }
  if (strcmp(c->string, "file") == 0) {
    if (!cJSON_IsString(c)) return ws_json_error(d, origin, p, "file", "expected a file name");
    const char *f = c->valuestring;
    a->init = WS_INIT_FILE;
    size_t n = strlen(dir) + strlen(f) + 2;
    a->file = malloc(n);
    if (!a->file) return WS_ENOMEM;
    if (f[0] == '/')
      snprintf(a->file, n, "%s", f);
    else
      snprintf(a->file, n, "%s/%s", dir, f);
    return WS_OK;
  }
  return ws_json_error(d, origin, p, c->string, "unknown initialiser (expected constant, iota, random or file)");
}

static int parse_arg(ws_launch_arg *a, const cJSON *obj, int i, const char *dir,
                     const char *origin, ws_diag *d) {
  char path[48];
  snprintf(path, sizeof path, "args[%d]", i);
  if (!cJSON_IsObject(obj)) return ws_json_error(d, origin, "", path, "expected an object");
  const cJSON *buf = cJSON_GetObjectItemCaseSensitive(obj, "buffer");
  const cJSON *sc = cJSON_GetObjectItemCaseSensitive(obj, "scalar");
  if ((buf != NULL) == (sc != NULL))
    return ws_json_error(d, origin, "", path, "expected exactly one of \"buffer\" or \"scalar\"");
  const cJSON *nm = buf ? buf : sc;
  if (!cJSON_IsString(nm))
    return ws_json_error(d, origin, path, buf ? "buffer" : "scalar", "expected a name");
  a->is_buffer = buf != NULL;
  a->name = ws_strdup(nm->valuestring);
  if (!a->name) return WS_ENOMEM;
  if (parse_type(&a->type, obj, path, origin, d)) return WS_EINVAL;
  if (!a->is_buffer) {
    double v;
    if (ws_json_get_number(obj, path, "value", 1, WS_JSON_ANY, &v, origin, d)) return WS_EINVAL;
    return scalar_bits(&a->value, a->type, v, path, "value", origin, d);
  }
  double count;
  if (ws_json_get_number(obj, path, "count", 1, WS_JSON_UINT, &count, origin, d)) return WS_EINVAL;
  if (count * ws_elem_type_size(a->type) > 64.0 * 1024 * 1024 * 1024)
    return ws_json_error(d, origin, path, "count", "buffer of %.0f elements is larger than 64 GiB", count);
  a->count = (uint64_t)count;
  if (parse_init(a, obj, path, dir, origin, d)) return WS_EINVAL;
  if (!is_float(a->type)) { /* integer initialisers must be exact integers of the type */
    char p[96];
    uint64_t dummy;
    snprintf(p, sizeof p, "%s.init", path);
    if (a->init == WS_INIT_CONSTANT && scalar_bits(&dummy, a->type, a->v0, p, "constant", origin, d)) return WS_EINVAL;
    if (a->init == WS_INIT_RANDOM &&
        (scalar_bits(&dummy, a->type, a->v0, p, "random.min", origin, d) ||
         scalar_bits(&dummy, a->type, a->v1, p, "random.max", origin, d)))
      return WS_EINVAL;
    if (a->init == WS_INIT_IOTA && (a->v0 != floor(a->v0) || a->v1 != floor(a->v1) || fabs(a->v0) > 9.2e18 ||
                                    fabs(a->v1) > 9.2e18))
      return ws_json_error(d, origin, p, "iota", "start and step must be integers for an integer buffer");
  }
  const char *out;
  int st = ws_json_get_string(obj, path, "output", 0, &out, origin, d);
  if (st == WS_EINVAL) return st;
  if (st == WS_OK) {
    if (!*out || strchr(out, '/'))
      return ws_json_error(d, origin, path, "output", "expected a plain file name, got '%s'", out);
    a->output = ws_strdup(out);
    if (!a->output) return WS_ENOMEM;
  }
  return WS_OK;
}

int ws_launch_spec_parse(ws_launch_spec **out, const char *text, const char *origin,
                         const char *dir, ws_diag *d) {
  *out = NULL;
  cJSON *root;
  if (!dir) dir = ".";
  if (ws_json_parse(&root, text, origin, d)) return WS_EINVAL;
  ws_launch_spec *s = calloc(1, sizeof *s);
  int st = WS_ENOMEM;
  if (!s) goto done;
  s->path = ws_strdup(origin ? origin : "<spec>");
  if (!s->path) goto done;
  st = WS_EINVAL;
  if (!cJSON_IsObject(root)) {
    ws_json_error(d, origin, "", "", "expected a JSON object");
    goto done;
  }
  const char *k;
  if (ws_json_get_string(root, "", "kernel", 1, &k, origin, d)) goto done;
  s->kernel = ws_strdup(k);
  if (!s->kernel) {
    st = WS_ENOMEM;
    goto done;
  }
  if (get_dim3(s->grid, root, "grid", origin, d) || get_dim3(s->block, root, "block", origin, d))
    goto done;
  if ((uint64_t)s->block[0] * s->block[1] * s->block[2] > 1024) {
    ws_json_error(d, origin, "", "block", "%u x %u x %u threads is more than 1024 per block",
                  s->block[0], s->block[1], s->block[2]);
    goto done;
  }
  if (s->block[2] > 64) {
    ws_json_error(d, origin, "", "block[2]", "at most 64 (CUDA limit)");
    goto done;
  }
  if (s->grid[1] > 65535 || s->grid[2] > 65535) {
    ws_json_error(d, origin, "", "grid", "y and z are at most 65535 (CUDA limit)");
    goto done;
  }
  double dyn = 0;
  if (ws_json_get_number(root, "", "dynamic_shared_bytes", 0, WS_JSON_UINT, &dyn, origin, d) == WS_EINVAL)
    goto done;
  if (dyn > 1024.0 * 1024) {
    ws_json_error(d, origin, "", "dynamic_shared_bytes", "%.0f bytes is more than 1 MiB", dyn);
    goto done;
  }
  s->dynamic_shared = (uint64_t)dyn;
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
  if (!args) args = NULL;
  if (args && !cJSON_IsArray(args)) {
    ws_json_error(d, origin, "", "args", "expected an array");
    goto done;
  }
  int n = args ? cJSON_GetArraySize(args) : 0;
  s->args = calloc(n ? (size_t)n : 1, sizeof *s->args);
  if (!s->args) {
    st = WS_ENOMEM;
    goto done;
  }
  s->nargs = (uint32_t)n;
  for (int i = 0; i < n; i++) {
    int r = parse_arg(&s->args[i], cJSON_GetArrayItem(args, i), i, dir, origin, d);
    if (r) {
      st = r;
      goto done;
    }
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (strcmp(s->args[i].name, s->args[j].name) == 0) {
        char p[32];
        snprintf(p, sizeof p, "args[%d]", i);
        ws_json_error(d, origin, "", p, "name '%s' is also used by args[%d]", s->args[i].name, j);
        goto done;
      }
  st = WS_OK;
done:
  cJSON_Delete(root);
  if (st) {
    ws_launch_spec_free(s);
    return st;
  }
  *out = s;
  return WS_OK;
}

/* A spec file's text: the files it names are relative to its directory. */
static int parse_spec_file(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  (void)len;
  char *dir = ws_strdup(path);
  if (!dir) return WS_ENOMEM;
  char *slash = strrchr(dir, '/');
  if (slash)
    *(slash == dir ? slash + 1 : slash) = '\0';
  else
    strcpy(dir, "."); /* fits: ws_read_file opened a non-empty path */
  int st = ws_launch_spec_parse(out, text, path, dir, d);
  free(dir);
  return st;
}

int ws_launch_spec_load(ws_launch_spec **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_parse_file(out, path, d, parse_spec_file);
}
