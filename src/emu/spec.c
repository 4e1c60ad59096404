/*
 * spec.c — the launch spec (DESIGN.md "Launch spec", docs/launch-spec.md):
 * grid, block, dynamic shared bytes and the kernel's arguments in order.
 * Every error names the JSON path of the offending field.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu/num.h"
#include "warpsight/emu.h"
#include "warpsight/json.h"

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

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static void free_arg(ws_launch_arg *a) {
  free(a->name);
  free(a->file);
  free(a->output);
  free(a->values);
  free(a->bytes);
}

void ws_launch_spec_free(ws_launch_spec *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->nargs; i++) free_arg(&s->args[i]);
  free(s->args);
  for (uint32_t i = 0; i < s->nvars; i++) free_arg(&s->vars[i]);
  free(s->vars);
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

/* The raw bits of element value v of type t: scalar_bits, plus f16 and bf16
 * (rounded from the double once, to nearest even). */
static int elem_value_bits(uint64_t *out, ws_elem_type t, double v, const char *path, const char *key,
                           const char *origin, ws_diag *d) {
  if (t == WS_ELEM_F16 || t == WS_ELEM_BF16) {
    uint64_t b;
    memcpy(&b, &v, 8);
    *out = ws_num_cvt(b, WS_NUM_F64, t == WS_ELEM_F16 ? WS_NUM_F16 : WS_NUM_BF16, WS_NUM_RN, 0, 0);
    return WS_OK;
  }
  return scalar_bits(out, t, v, path, key, origin, d);
}

/* obj[key], an array of numbers, as count raw elements of type t into *out. */
static int parse_values(uint64_t **out, uint64_t *count, ws_elem_type t, const cJSON *obj, const char *path,
                        const char *key, const char *origin, ws_diag *d) {
  const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1)
    return ws_json_error(d, origin, path, key, "expected a non-empty array of numbers");
  int n = cJSON_GetArraySize(arr), i = 0;
  uint64_t *v = malloc((size_t)n * sizeof *v);
  if (!v) return WS_ENOMEM;
  const cJSON *e;
  cJSON_ArrayForEach(e, arr) {
    char k[64];
    snprintf(k, sizeof k, "%s[%d]", key, i);
    if (!cJSON_IsNumber(e)) {
      free(v);
      return ws_json_error(d, origin, path, k, "expected a number");
    }
    if (elem_value_bits(&v[i], t, e->valuedouble, path, k, origin, d)) {
      free(v);
      return WS_EINVAL;
    }
    i++;
  }
  free(*out);
  *out = v;
  *count = (uint64_t)n;
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
    return ws_json_error(d, origin, path, "init", "expected exactly one of constant, iota, random, file, values");
  if (strcmp(c->string, "values") == 0) {
    uint64_t n;
    a->init = WS_INIT_VALUES;
    if (parse_values(&a->values, &n, a->type, init, p, "values", origin, d)) return WS_EINVAL;
    if (a->count && n != a->count)
      return ws_json_error(d, origin, p, "values", "%llu values for %llu elements", (unsigned long long)n,
                           (unsigned long long)a->count);
    a->count = n;
    return WS_OK;
  }
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
  return ws_json_error(d, origin, p, c->string, "unknown initialiser (expected constant, iota, random, file or values)");
}

/* Integer initialisers must be exact integers of the element type. */
static int check_int_init(const ws_launch_arg *a, const char *path, const char *origin, ws_diag *d) {
  if (is_float(a->type)) return WS_OK;
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
  return WS_OK;
}

/* "variables": {"name": {"type", "values" | "init", "count"}}: a module
 * .global or .const variable's contents before the launch (a __constant__
 * filter, a __device__ table); count 0 means the whole variable. */
static int parse_variable(ws_launch_arg *a, const cJSON *obj, const char *dir, const char *origin, ws_diag *d) {
  char path[300];
  snprintf(path, sizeof path, "variables.%s", obj->string);
  if (!cJSON_IsObject(obj)) return ws_json_error(d, origin, "variables", obj->string, "expected an object {type, values}");
  a->is_buffer = 1;
  if (!(a->name = xstrdup(obj->string))) return WS_ENOMEM;
  if (parse_type(&a->type, obj, path, origin, d)) return WS_EINVAL;
  double count = 0;
  if (ws_json_get_number(obj, path, "count", 0, WS_JSON_UINT, &count, origin, d) == WS_EINVAL) return WS_EINVAL;
  if (count * ws_elem_type_size(a->type) > 64.0 * 1024 * 1024 * 1024)
    return ws_json_error(d, origin, path, "count", "%.0f elements are larger than 64 GiB", count);
  a->count = (uint64_t)count;
  if (cJSON_GetObjectItemCaseSensitive(obj, "values")) {
    uint64_t n;
    if (cJSON_GetObjectItemCaseSensitive(obj, "init"))
      return ws_json_error(d, origin, "", path, "give either \"values\" or \"init\", not both");
    if (parse_values(&a->values, &n, a->type, obj, path, "values", origin, d)) return WS_EINVAL;
    if (a->count && n != a->count)
      return ws_json_error(d, origin, path, "values", "%llu values for %llu elements", (unsigned long long)n,
                           (unsigned long long)a->count);
    a->count = n;
    a->init = WS_INIT_VALUES;
    return WS_OK;
  }
  return parse_init(a, obj, path, dir, origin, d) || check_int_init(a, path, origin, d) ? WS_EINVAL : WS_OK;
}

static int parse_variables(ws_launch_spec *s, const cJSON *root, const char *dir, const char *origin, ws_diag *d) {
  const cJSON *vars = cJSON_GetObjectItemCaseSensitive(root, "variables");
  if (!vars) return WS_OK;
  if (!cJSON_IsObject(vars))
    return ws_json_error(d, origin, "", "variables", "expected an object {\"name\": {type, values}, ...}");
  int n = cJSON_GetArraySize(vars);
  if (!(s->vars = calloc((size_t)n + 1, sizeof *s->vars))) return WS_ENOMEM;
  const cJSON *v;
  cJSON_ArrayForEach(v, vars) {
    for (uint32_t j = 0; j < s->nvars; j++)
      if (strcmp(s->vars[j].name, v->string) == 0)
        return ws_json_error(d, origin, "variables", v->string, "given twice");
    int st = parse_variable(&s->vars[s->nvars++], v, dir, origin, d);
    if (st) return st;
  }
  return WS_OK;
}

#define MAX_AGGREGATE 32768 /* bytes of one by-value parameter (CUDA 12.1+: 32764 in all) */

/* {"aggregate": name, "bytes": "hex"}: the parameter's bytes as written. */
static int parse_hex(ws_launch_arg *a, const cJSON *hex, const char *path, const char *origin, ws_diag *d) {
  size_t n = cJSON_IsString(hex) ? strlen(hex->valuestring) : 0;
  if (n == 0 || n % 2 || n / 2 > MAX_AGGREGATE)
    return ws_json_error(d, origin, path, "bytes", "expected a string of 2 to %d hex digits, two per byte",
                         2 * MAX_AGGREGATE);
  if (!(a->bytes = malloc(n / 2))) return WS_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    char c = hex->valuestring[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) return ws_json_error(d, origin, path, "bytes", "'%c' (character %zu) is not a hex digit", c, i + 1);
    if (i % 2 == 0) a->bytes[i / 2] = (uint8_t)(v << 4);
    else a->bytes[i / 2] |= (uint8_t)v;
  }
  a->nbytes = (uint32_t)(n / 2);
  a->align = 1;
  return WS_OK;
}

/* One field of an aggregate at *end (C layout: the next multiple of its
 * element size, or "offset"); writes its elements into buf. */
static int parse_field(uint8_t *buf, uint64_t *end, uint32_t *align, const cJSON *f, const char *q,
                       const char *origin, ws_diag *d) {
  ws_elem_type t;
  if (!cJSON_IsObject(f)) return ws_json_error(d, origin, "", q, "expected an object {type, value}");
  if (parse_type(&t, f, q, origin, d)) return WS_EINVAL;
  uint64_t es = (uint64_t)ws_elem_type_size(t), off = (*end + es - 1) / es * es, n = 1, one, *v = &one;
  double o;
  int st = ws_json_get_number(f, q, "offset", 0, WS_JSON_UINT, &o, origin, d);
  if (st == WS_EINVAL) return st;
  if (st == WS_OK) {
    if (o > MAX_AGGREGATE) return ws_json_error(d, origin, q, "offset", "past %d bytes", MAX_AGGREGATE);
    off = (uint64_t)o;
    if (off % es) return ws_json_error(d, origin, q, "offset", "%llu is not a multiple of %s's size %llu",
                                       (unsigned long long)off, ws_elem_type_name(t), (unsigned long long)es);
    if (off < *end)
      return ws_json_error(d, origin, q, "offset", "%llu overlaps the previous field, which ends at byte %llu",
                           (unsigned long long)off, (unsigned long long)*end);
  }
  if (cJSON_GetObjectItemCaseSensitive(f, "values")) {
    v = NULL;
    if ((st = parse_values(&v, &n, t, f, q, "values", origin, d))) return st;
  } else {
    double x;
    if (ws_json_get_number(f, q, "value", 1, WS_JSON_ANY, &x, origin, d)) return WS_EINVAL;
    if (elem_value_bits(&one, t, x, q, "value", origin, d)) return WS_EINVAL;
  }
  st = WS_OK;
  if (off + n * es > MAX_AGGREGATE)
    st = ws_json_error(d, origin, "", q, "the aggregate would be larger than %d bytes", MAX_AGGREGATE);
  for (uint64_t i = 0; !st && i < n; i++) memcpy(buf + off + i * es, &v[i], (size_t)es); /* little-endian host */
  if (v != &one) free(v);
  *end = off + n * es;
  if (es > *align) *align = (uint32_t)es;
  return st;
}

/* {"aggregate": name, "fields": [...]} or {"aggregate": name, "bytes": "hex"}:
 * the bytes of a .b8 array parameter (a struct passed by value). */
static int parse_aggregate(ws_launch_arg *a, const cJSON *obj, const char *path, const char *origin, ws_diag *d) {
  const cJSON *hex = cJSON_GetObjectItemCaseSensitive(obj, "bytes");
  const cJSON *fields = cJSON_GetObjectItemCaseSensitive(obj, "fields");
  a->is_aggregate = 1;
  a->type = WS_ELEM_U8;
  if ((hex != NULL) == (fields != NULL))
    return ws_json_error(d, origin, "", path, "an aggregate takes exactly one of \"fields\" or \"bytes\"");
  if (hex) return parse_hex(a, hex, path, origin, d);
  if (!cJSON_IsArray(fields) || cJSON_GetArraySize(fields) < 1)
    return ws_json_error(d, origin, path, "fields", "expected a non-empty array of {type, value} objects");
  uint8_t *buf = calloc(MAX_AGGREGATE, 1);
  if (!buf) return WS_ENOMEM;
  uint64_t end = 0;
  uint32_t align = 1;
  int i = 0, st = WS_OK;
  const cJSON *f;
  cJSON_ArrayForEach(f, fields) {
    char q[80];
    snprintf(q, sizeof q, "%s.fields[%d]", path, i++);
    if ((st = parse_field(buf, &end, &align, f, q, origin, d))) break;
  }
  if (!st) {
    a->align = align;
    a->nbytes = (uint32_t)((end + align - 1) / align * align);
    a->bytes = realloc(buf, a->nbytes);
    if (a->bytes) return WS_OK;
    st = WS_ENOMEM;
  }
  free(buf);
  return st;
}

static int parse_arg(ws_launch_arg *a, const cJSON *obj, int i, const char *dir,
                     const char *origin, ws_diag *d) {
  char path[48];
  snprintf(path, sizeof path, "args[%d]", i);
  if (!cJSON_IsObject(obj)) return ws_json_error(d, origin, "", path, "expected an object");
  const cJSON *buf = cJSON_GetObjectItemCaseSensitive(obj, "buffer");
  const cJSON *sc = cJSON_GetObjectItemCaseSensitive(obj, "scalar");
  const cJSON *ag = cJSON_GetObjectItemCaseSensitive(obj, "aggregate");
  if ((buf != NULL) + (sc != NULL) + (ag != NULL) != 1)
    return ws_json_error(d, origin, "", path, "expected exactly one of \"buffer\", \"scalar\" or \"aggregate\"");
  const cJSON *nm = buf ? buf : sc ? sc : ag;
  if (!cJSON_IsString(nm))
    return ws_json_error(d, origin, path, buf ? "buffer" : sc ? "scalar" : "aggregate", "expected a name");
  a->is_buffer = buf != NULL;
  a->name = xstrdup(nm->valuestring);
  if (!a->name) return WS_ENOMEM;
  if (ag) return parse_aggregate(a, obj, path, origin, d);
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
  if (parse_init(a, obj, path, dir, origin, d) || check_int_init(a, path, origin, d)) return WS_EINVAL;
  const char *out;
  int st = ws_json_get_string(obj, path, "output", 0, &out, origin, d);
  if (st == WS_EINVAL) return st;
  if (st == WS_OK) {
    if (!*out || strchr(out, '/'))
      return ws_json_error(d, origin, path, "output", "expected a plain file name, got '%s'", out);
    a->output = xstrdup(out);
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
  s->path = xstrdup(origin ? origin : "<spec>");
  if (!s->path) goto done;
  st = WS_EINVAL;
  if (!cJSON_IsObject(root)) {
    ws_json_error(d, origin, "", "", "expected a JSON object");
    goto done;
  }
  const char *k;
  if (ws_json_get_string(root, "", "kernel", 1, &k, origin, d)) goto done;
  s->kernel = xstrdup(k);
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
  if ((st = parse_variables(s, root, dir, origin, d))) goto done;
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

int ws_launch_spec_load(ws_launch_spec **out, const char *path, ws_diag *d) {
  char *text;
  size_t len;
  *out = NULL;
  int st = ws_read_file(&text, &len, path, d);
  if (st) return st;
  char *dir = xstrdup(path);
  if (!dir) {
    free(text);
    return WS_ENOMEM;
  }
  char *slash = strrchr(dir, '/');
  if (slash)
    *(slash == dir ? slash + 1 : slash) = '\0';
  else
    strcpy(dir, ".");
  st = ws_launch_spec_parse(out, text, path, dir, d);
  free(dir);
  free(text);
  return st;
}
