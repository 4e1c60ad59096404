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
#include "util/json.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/vec.h"

static const struct {
  const char *name;
  int size;
} elem_info[WS_ELEM_COUNT] = {
    {"u8", 1},  {"s8", 1},  {"u16", 2},  {"s16", 2}, {"u32", 4},  {"s32", 4},
    {"u64", 8}, {"s64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}};

const char *ws_emu_elem_type_name(ws_elem_type t) {
  return (unsigned)t < WS_ELEM_COUNT ? elem_info[t].name : "?";
}

int ws_emu_elem_type_size(ws_elem_type t) {
  return (unsigned)t < WS_ELEM_COUNT ? elem_info[t].size : 0;
}

static void free_arg(ws_launch_arg *a) {
  free(a->name);
  free(a->file);
  free(a->output);
  free(a->values);
  free(a->bytes);
}

void ws_emu_launch_spec_free(ws_launch_spec *s) {
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

/* ---- keys ---------------------------------------------------------------------
 * Every object of a spec has a fixed set of keys; anything else is a typo
 * ("ouput", "inti") that would otherwise be ignored in silence. */

static const char *const root_keys[] = {"kernel", "grid", "block", "dynamic_shared_bytes", "args", "variables", "sweep", "l2", NULL};
static const char *const sweep_keys[] = {"total_threads", NULL};
static const char *const buffer_keys[] = {"buffer", "type", "count", "init", "output", NULL};
static const char *const scalar_keys[] = {"scalar", "type", "value", NULL};
static const char *const aggregate_keys[] = {"aggregate", "fields", "bytes", NULL};
static const char *const field_keys[] = {"type", "value", "values", "offset", NULL};
static const char *const variable_keys[] = {"type", "count", "init", "values", NULL};
static const char *const init_keys[] = {"constant", "iota", "random", "file", "values", NULL};
static const char *const iota_keys[] = {"start", "step", NULL};
static const char *const random_keys[] = {"seed", "min", "max", NULL};

/* An error naming the first key of obj not in known. */
static int check_keys(const cJSON *obj, const char *path, const char *const *known, const char *origin,
                      ws_diag *d) {
  const cJSON *e;
  cJSON_ArrayForEach(e, obj) {
    int ok = 0;
    for (int i = 0; known[i] && !ok; i++) ok = strcmp(e->string, known[i]) == 0;
    if (ok) continue;
    const char *hint = ws_suggest(e->string, known);
    if (hint) return ws_json_error(d, origin, path, e->string, "unknown key (did you mean \"%s\"?)", hint);
    ws_strbuf list = WS_STRBUF_INIT;
    for (int i = 0; known[i]; i++) ws_sb_printf(&list, "%s%s", i ? ", " : "", known[i]);
    int st = ws_json_error(d, origin, path, e->string, "unknown key (expected one of %s)", ws_sb_str(&list));
    ws_sb_free(&list);
    return st;
  }
  return WS_OK;
}

/* ---- exact numbers ---------------------------------------------------------
 *
 * cJSON keeps a number only as a double, so an integer past 2^53 (a u64
 * 18446744073709551615, an s64 2^63-1) would lose its low bits.  Number
 * tokens appear in the text in the order a depth-first walk of the tree
 * visits number nodes, so each number node gets its token's text in
 * valuestring (cJSON_Delete frees it), and integers are read from it. */

/* The text of every number token, in order (spans into text). */
static int number_tokens(const char *text, const char ***start, size_t **len, size_t *n) {
  const char **st = NULL;
  size_t *ln = NULL, cap_st = 0, cap_ln = 0;
  *n = 0;
  for (const char *c = text; *c;) {
    if (*c == '"') { /* skip a string */
      for (c++; *c && *c != '"'; c++)
        if (*c == '\\' && c[1]) c++;
      if (*c) c++;
    } else if (*c == '-' || (*c >= '0' && *c <= '9')) {
      const char *b = c;
      while (*c && strchr("+-.eE0123456789", *c)) c++;
      if (WS_VEC_RESERVE(st, cap_st, *n + 1) || WS_VEC_RESERVE(ln, cap_ln, *n + 1)) {
        free(st);
        free(ln);
        return WS_ENOMEM;
      }
      st[*n] = b;
      ln[(*n)++] = (size_t)(c - b);
    } else {
      c++;
    }
  }
  *start = st;
  *len = ln;
  return WS_OK;
}

static void attach_walk(cJSON *e, const char **start, const size_t *len, size_t n, size_t *k) {
  for (; e; e = e->next) {
    if (cJSON_IsNumber(e) && *k < n && !e->valuestring) {
      e->valuestring = malloc(len[*k] + 1);
      if (e->valuestring) {
        memcpy(e->valuestring, start[*k], len[*k]);
        e->valuestring[len[*k]] = '\0';
      }
      (*k)++;
    }
    if (e->child) attach_walk(e->child, start, len, n, k);
  }
}

/* Give every number node of root (parsed from text) its text. */
static int attach_number_texts(cJSON *root, const char *text) {
  const char **start;
  size_t *len, n, k = 0;
  if (number_tokens(text, &start, &len, &n)) return WS_ENOMEM;
  attach_walk(root, start, len, n, &k);
  free(start);
  free(len);
  return WS_OK;
}

/* Integer value of number node e: 0 and (*neg, *mag) when it is an integer
 * of magnitude below 2^64 (read exactly from its text when written as a
 * plain integer, else from the double); 1 when it is not an integer; 2 when
 * out of that range. */
static int int_value(const cJSON *e, int *neg, uint64_t *mag) {
  const char *t = e->valuestring;
  if (t && t[t[0] == '-'] && strspn(t + (t[0] == '-'), "0123456789") == strlen(t + (t[0] == '-'))) {
    *neg = t[0] == '-';
    uint64_t m = 0;
    for (const char *c = t + *neg; *c; c++) {
      if (m > (UINT64_MAX - (uint64_t)(*c - '0')) / 10) return 2;
      m = m * 10 + (uint64_t)(*c - '0');
    }
    *mag = m;
    return 0;
  }
  double v = e->valuedouble;
  if (v != floor(v)) return 1;
  if (fabs(v) >= 18446744073709551616.0) return 2;
  *neg = v < 0;
  *mag = (uint64_t)fabs(v);
  return 0;
}

static const char *num_text(const cJSON *e, char *buf, size_t n) {
  if (e->valuestring) return e->valuestring;
  snprintf(buf, n, "%.17g", e->valuedouble);
  return buf;
}

static int is_float(ws_elem_type t) {
  return t == WS_ELEM_F16 || t == WS_ELEM_BF16 || t == WS_ELEM_F32 || t == WS_ELEM_F64;
}

/* The bits of number node e as an element of type t: floats rounded from the
 * double once (to nearest even), integers exact and in range for t.  *wide
 * (may be NULL) gets an integer's 64-bit two's complement value. */
static int num_bits(uint64_t *out, uint64_t *wide, ws_elem_type t, const cJSON *e, const char *path,
                    const char *key, const char *origin, ws_diag *d) {
  double v = e->valuedouble;
  uint64_t b;
  memcpy(&b, &v, 8);
  switch (t) {
  case WS_ELEM_F64: *out = b; return WS_OK;
  case WS_ELEM_F32: *out = ws_emu_num_cvt(b, WS_NUM_F64, WS_NUM_F32, WS_NUM_RN, 0, 0); return WS_OK;
  case WS_ELEM_F16: *out = ws_emu_num_cvt(b, WS_NUM_F64, WS_NUM_F16, WS_NUM_RN, 0, 0); return WS_OK;
  case WS_ELEM_BF16: *out = ws_emu_num_cvt(b, WS_NUM_F64, WS_NUM_BF16, WS_NUM_RN, 0, 0); return WS_OK;
  default: break;
  }
  int neg = 0, bits = 8 * ws_emu_elem_type_size(t);
  uint64_t mag = 0, top = bits == 64 ? UINT64_MAX : (1ull << bits) - 1; /* unsigned maximum */
  int r = int_value(e, &neg, &mag);
  if (!r) {
    if (t & 1) r = neg ? mag > top / 2 + 1 : mag > top / 2; /* signed: [-2^(b-1), 2^(b-1)-1] */
    else r = neg ? mag != 0 : mag > top;
  }
  if (r) {
    char buf[32];
    return ws_json_error(d, origin, path, key, "%s is not a %s value", num_text(e, buf, sizeof buf),
                         ws_emu_elem_type_name(t));
  }
  uint64_t w = neg ? 0 - mag : mag;
  if (wide) *wide = w;
  *out = w & top;
  return WS_OK;
}

/* obj[key] as a number node of type t (required). */
static int key_bits(uint64_t *out, uint64_t *wide, ws_elem_type t, const cJSON *obj, const char *path,
                    const char *key, const char *origin, ws_diag *d) {
  double dummy;
  if (ws_json_get_number(obj, path, key, 1, WS_JSON_ANY, &dummy, origin, d)) return WS_EINVAL;
  return num_bits(out, wide, t, cJSON_GetObjectItemCaseSensitive(obj, key), path, key, origin, d);
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
    if (num_bits(&v[i], NULL, t, e, path, k, origin, d)) {
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
    if (ws_json_get_number(init, p, "constant", 1, WS_JSON_ANY, &a->v0, origin, d)) return WS_EINVAL;
    if (is_float(a->type)) return WS_OK;
    uint64_t dummy;
    a->exact = 1;
    return key_bits(&dummy, &a->i0, a->type, init, p, "constant", origin, d);
  }
  if (strcmp(c->string, "iota") == 0) {
    char q[112];
    snprintf(q, sizeof q, "%s.iota", p);
    a->init = WS_INIT_IOTA;
    a->v0 = 0;
    a->v1 = 1;
    if (!cJSON_IsObject(c)) return ws_json_error(d, origin, p, "iota", "expected an object {start, step}");
    if (check_keys(c, q, iota_keys, origin, d)) return WS_EINVAL;
    if (ws_json_get_number(c, q, "start", 0, WS_JSON_ANY, &a->v0, origin, d) == WS_EINVAL) return WS_EINVAL;
    if (ws_json_get_number(c, q, "step", 0, WS_JSON_ANY, &a->v1, origin, d) == WS_EINVAL) return WS_EINVAL;
    if (is_float(a->type)) return WS_OK;
    /* integers: exact 64-bit two's complement start and step */
    a->exact = 1;
    a->i0 = 0;
    a->i1 = 1;
    for (int k = 0; k < 2; k++) {
      const cJSON *e = cJSON_GetObjectItemCaseSensitive(c, k ? "step" : "start");
      int neg;
      uint64_t mag;
      if (!e) continue;
      if (int_value(e, &neg, &mag) || (neg && mag > 0x8000000000000000ull))
        return ws_json_error(d, origin, p, "iota", "start and step must be integers for an integer buffer");
      *(k ? &a->i1 : &a->i0) = neg ? 0 - mag : mag;
    }
    return WS_OK;
  }
  if (strcmp(c->string, "random") == 0) {
    char q[112];
    snprintf(q, sizeof q, "%s.random", p);
    double seed;
    int neg;
    a->init = WS_INIT_RANDOM;
    if (!cJSON_IsObject(c)) return ws_json_error(d, origin, p, "random", "expected an object {seed, min, max}");
    if (check_keys(c, q, random_keys, origin, d)) return WS_EINVAL;
    if (ws_json_get_number(c, q, "seed", 1, WS_JSON_ANY, &seed, origin, d) ||
        ws_json_get_number(c, q, "min", 1, WS_JSON_ANY, &a->v0, origin, d) ||
        ws_json_get_number(c, q, "max", 1, WS_JSON_ANY, &a->v1, origin, d))
      return WS_EINVAL;
    if (int_value(cJSON_GetObjectItemCaseSensitive(c, "seed"), &neg, &a->seed) || (neg && a->seed))
      return ws_json_error(d, origin, q, "seed", "expected a non-negative integer below 2^64, got %.17g", seed);
    if (is_float(a->type)) {
      if (a->v1 < a->v0) return ws_json_error(d, origin, q, "max", "max %g is below min %g", a->v1, a->v0);
      return WS_OK;
    }
    uint64_t dummy;
    if (key_bits(&dummy, &a->i0, a->type, c, q, "min", origin, d) ||
        key_bits(&dummy, &a->i1, a->type, c, q, "max", origin, d))
      return WS_EINVAL;
    a->exact = 1;
    if ((a->type & 1) ? (int64_t)a->i1 < (int64_t)a->i0 : a->i1 < a->i0) {
      char b0[32], b1[32];
      return ws_json_error(d, origin, q, "max", "max %s is below min %s",
                           num_text(cJSON_GetObjectItemCaseSensitive(c, "max"), b1, sizeof b1),
                           num_text(cJSON_GetObjectItemCaseSensitive(c, "min"), b0, sizeof b0));
    }
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
  const char *hint = ws_suggest(c->string, init_keys);
  if (hint) return ws_json_error(d, origin, p, c->string, "unknown initialiser (did you mean \"%s\"?)", hint);
  return ws_json_error(d, origin, p, c->string, "unknown initialiser (expected constant, iota, random, file or values)");
}

/* "variables": {"name": {"type", "values" | "init", "count"}}: a module
 * .global or .const variable's contents before the launch (a __constant__
 * filter, a __device__ table); count 0 means the whole variable. */
static int parse_variable(ws_launch_arg *a, const cJSON *obj, const char *dir, const char *origin, ws_diag *d) {
  char path[300];
  snprintf(path, sizeof path, "variables.%s", obj->string);
  if (!cJSON_IsObject(obj)) return ws_json_error(d, origin, "variables", obj->string, "expected an object {type, values}");
  a->is_buffer = 1;
  if (!(a->name = ws_strdup(obj->string))) return WS_ENOMEM;
  if (check_keys(obj, path, variable_keys, origin, d)) return WS_EINVAL;
  if (parse_type(&a->type, obj, path, origin, d)) return WS_EINVAL;
  double count = 0;
  if (ws_json_get_number(obj, path, "count", 0, WS_JSON_UINT, &count, origin, d) == WS_EINVAL) return WS_EINVAL;
  if (count * ws_emu_elem_type_size(a->type) > 64.0 * 1024 * 1024 * 1024)
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
  return parse_init(a, obj, path, dir, origin, d);
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
  ws_elem_type t = WS_ELEM_U8; /* set by parse_type; GCC 12 -O3 cannot see it */
  if (!cJSON_IsObject(f)) return ws_json_error(d, origin, "", q, "expected an object {type, value}");
  if (check_keys(f, q, field_keys, origin, d)) return WS_EINVAL;
  if (parse_type(&t, f, q, origin, d)) return WS_EINVAL;
  uint64_t es = (uint64_t)ws_emu_elem_type_size(t), off = (*end + es - 1) / es * es, n = 1, one, *v = &one;
  double o;
  int st = ws_json_get_number(f, q, "offset", 0, WS_JSON_UINT, &o, origin, d);
  if (st == WS_EINVAL) return st;
  if (st == WS_OK) {
    if (o > MAX_AGGREGATE) return ws_json_error(d, origin, q, "offset", "past %d bytes", MAX_AGGREGATE);
    off = (uint64_t)o;
    if (off % es) return ws_json_error(d, origin, q, "offset", "%llu is not a multiple of %s's size %llu",
                                       (unsigned long long)off, ws_emu_elem_type_name(t), (unsigned long long)es);
    if (off < *end)
      return ws_json_error(d, origin, q, "offset", "%llu overlaps the previous field, which ends at byte %llu",
                           (unsigned long long)off, (unsigned long long)*end);
  }
  if (cJSON_GetObjectItemCaseSensitive(f, "values")) {
    v = NULL;
    if ((st = parse_values(&v, &n, t, f, q, "values", origin, d))) return st;
  } else {
    if (key_bits(&one, NULL, t, f, q, "value", origin, d)) return WS_EINVAL;
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
  if (check_keys(obj, path, aggregate_keys, origin, d)) return WS_EINVAL;
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
    a->bytes = realloc(buf, a->nbytes); /* a final shrink to the bytes used (>= 1), not growth */
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
  a->name = ws_strdup(nm->valuestring);
  if (!a->name) return WS_ENOMEM;
  if (ag) return parse_aggregate(a, obj, path, origin, d);
  if (parse_type(&a->type, obj, path, origin, d)) return WS_EINVAL;
  if (!a->is_buffer) {
    if (check_keys(obj, path, scalar_keys, origin, d)) return WS_EINVAL;
    if (a->type == WS_ELEM_F16 || a->type == WS_ELEM_BF16)
      return ws_json_error(d, origin, path, "type", "scalar arguments of type %s are not supported (give an aggregate)",
                           ws_emu_elem_type_name(a->type));
    return key_bits(&a->value, NULL, a->type, obj, path, "value", origin, d);
  }
  if (check_keys(obj, path, buffer_keys, origin, d)) return WS_EINVAL;
  double count;
  if (ws_json_get_number(obj, path, "count", 1, WS_JSON_UINT, &count, origin, d)) return WS_EINVAL;
  if (count * ws_emu_elem_type_size(a->type) > 64.0 * 1024 * 1024 * 1024)
    return ws_json_error(d, origin, path, "count", "buffer of %.0f elements is larger than 64 GiB", count);
  a->count = (uint64_t)count;
  if (parse_init(a, obj, path, dir, origin, d)) return WS_EINVAL;
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

/* "sweep": {"total_threads": N} -- the problem size `warpsight sweep` keeps
 * (docs/launch-spec.md, docs/sweep.md); the emulator ignores it. */
static int parse_sweep(ws_launch_spec *s, const cJSON *root, const char *origin, ws_diag *d) {
  const cJSON *sw = cJSON_GetObjectItemCaseSensitive(root, "sweep");
  if (!sw) return 0;
  if (!cJSON_IsObject(sw)) return ws_json_error(d, origin, "", "sweep", "expected an object");
  if (check_keys(sw, "sweep", sweep_keys, origin, d)) return WS_EINVAL;
  double n = 0;
  if (ws_json_get_number(sw, "sweep", "total_threads", 1, WS_JSON_UINT, &n, origin, d)) return WS_EINVAL;
  if (n < 1 || n > 2147483647.0 * 1024) /* grid.x at most 2^31 - 1 blocks of 1024 */
    return ws_json_error(d, origin, "sweep", "total_threads", "expected 1 to (2^31 - 1) x 1024, got %.0f", n);
  s->sweep_threads = (uint64_t)n;
  return 0;
}

static int spec_parse(ws_launch_spec **out, const char *text, size_t len, const char *origin,
                      const char *dir, ws_diag *d);

int ws_emu_launch_spec_parse(ws_launch_spec **out, const char *text, const char *origin,
                         const char *dir, ws_diag *d) {
  return spec_parse(out, text, strlen(text), origin, dir, d);
}

/* text[0..len) (a file's whole text: a NUL in it is an error). */
static int spec_parse(ws_launch_spec **out, const char *text, size_t len, const char *origin,
                      const char *dir, ws_diag *d) {
  *out = NULL;
  cJSON *root;
  if (!dir) dir = ".";
  int jst = ws_json_parse(&root, text, len, origin, d);
  if (jst) return jst;
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
  if ((st = attach_number_texts(root, text))) goto done;
  st = WS_EINVAL;
  if (check_keys(root, "", root_keys, origin, d)) goto done;
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
  if (parse_sweep(s, root, origin, d)) goto done;
  /* "l2": "cold" | "warm" -- the measurement's condition, for the profiler */
  const char *l2 = NULL;
  if (ws_json_get_string(root, "", "l2", 0, &l2, origin, d) == WS_EINVAL) goto done;
  if (l2 && strcmp(l2, "cold") && strcmp(l2, "warm")) {
    ws_json_error(d, origin, "", "l2", "expected \"cold\" or \"warm\", got \"%s\"", l2);
    goto done;
  }
  s->l2_warm = l2 && !strcmp(l2, "warm");
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
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (s->args[i].output && s->args[j].output && strcmp(s->args[i].output, s->args[j].output) == 0) {
        char p[32];
        snprintf(p, sizeof p, "args[%d]", i);
        ws_json_error(d, origin, p, "output", "'%s' is also the output of args[%d]", s->args[i].output, j);
        goto done;
      }
  if ((st = parse_variables(s, root, dir, origin, d))) goto done;
  st = WS_OK;
done:
  cJSON_Delete(root);
  if (st) {
    ws_emu_launch_spec_free(s);
    return st;
  }
  *out = s;
  return WS_OK;
}

/* A spec file's text: the files it names are relative to its directory. */
static int parse_spec_file(void *out, const char *text, size_t len, const char *path, ws_diag *d) {
  char *dir = ws_strdup(path);
  if (!dir) return WS_ENOMEM;
  char *slash = strrchr(dir, '/');
  if (slash)
    *(slash == dir ? slash + 1 : slash) = '\0';
  else
    strcpy(dir, "."); /* fits: ws_read_file opened a non-empty path */
  int st = spec_parse(out, text, len, path, dir, d);
  free(dir);
  return st;
}

int ws_emu_launch_spec_load(ws_launch_spec **out, const char *path, ws_diag *d) {
  *out = NULL;
  return ws_parse_file(out, path, d, parse_spec_file);
}
