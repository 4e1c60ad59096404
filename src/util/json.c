/*
 * json.c — cJSON access with path-naming errors (util/json.h).
 * Every message has the form "ORIGIN: error: PATH: what was expected".
 * ws_json_parse refuses what cJSON would take in silence: a key given
 * twice (cJSON's lookups see the first), bytes after a NUL, and more
 * values than a JSON input may hold (WS_JSON_MAX_VALUES).
 */
#include "util/json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/number.h"
#include "util/strbuf.h"

int ws_json_error(ws_diag *d, const char *origin, const char *path,
                  const char *key, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *sep = (path && *path && key && *key) ? "." : "";
  ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0, "%s%s%s: %s", path ? path : "",
              sep, key ? key : "", msg);
  return WS_EINVAL;
}

/* Line and column (1-based) of byte `at` of text. */
static void line_col(const char *text, size_t at, int *line, int *col, const char **ls) {
  *line = 1, *col = 1, *ls = text;
  for (size_t i = 0; i < at; i++) {
    if (text[i] == '\n') {
      (*line)++;
      *col = 1;
      *ls = text + i + 1;
    } else {
      (*col)++;
    }
  }
}

uint64_t ws_json_max_values(void) {
  return ws_env_limit("WARPSIGHT_MAX_JSON_VALUES", WS_JSON_MAX_VALUES);
}

/* More values than max in text (an upper bound that needs no parse: every
 * value but the first follows a ',' or opens an array or object)? */
static int too_many_values(const char *text, size_t len, uint64_t max) {
  uint64_t n = 1;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c == '"') { /* a string: its commas and brackets are text */
      for (i++; i < len && text[i] != '"'; i++)
        if (text[i] == '\\') i++;
    } else if (c == ',' || c == '[' || c == '{') {
      if (++n > max) return 1;
    }
  }
  return 0;
}

static int cmp_key(const void *a, const void *b) {
  return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The first key given twice in one object of the tree under `node` (whose
 * path is `path`): an error naming it, or WS_OK.  Keys are sorted, so an
 * object of n keys costs n log n. */
static int check_duplicates(const cJSON *node, ws_strbuf *path, const char *origin, ws_diag *d) {
  size_t n = 0, i = 0;
  for (const cJSON *c = node->child; c; c = c->next) n++;
  if (cJSON_IsObject(node) && n > 1) {
    const cJSON **keys = malloc(n * sizeof *keys);
    if (!keys) return WS_ENOMEM;
    for (const cJSON *c = node->child; c; c = c->next) keys[i++] = c;
    qsort(keys, n, sizeof *keys, cmp_key);
    for (i = 1; i < n && strcmp(keys[i - 1]->string, keys[i]->string); i++) {}
    if (i < n) {
      int st = ws_json_error(d, origin, ws_sb_str(path), keys[i]->string,
                             "duplicate key: given twice in the same object");
      free(keys);
      return st;
    }
    free(keys);
  }
  i = 0;
  for (const cJSON *c = node->child; c; c = c->next, i++) {
    if (!c->child) continue;
    size_t keep = path->n;
    if (cJSON_IsObject(node)) ws_sb_printf(path, "%s%s", keep ? "." : "", c->string);
    else ws_sb_printf(path, "[%zu]", i);
    if (path->oom) return WS_ENOMEM;
    int st = check_duplicates(c, path, origin, d);
    path->n = keep;
    path->s[keep] = '\0';
    if (st) return st;
  }
  return WS_OK;
}

int ws_json_parse(cJSON **out, const char *text, size_t len, const char *origin,
                  ws_diag *d) {
  const char *end = NULL;
  int line, col;
  const char *ls;
  *out = NULL;
  /* a UTF-8 byte-order mark (editors on Windows write one) is not JSON */
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
      (unsigned char)text[2] == 0xBF)
    text += 3, len -= 3;
  /* cJSON stops at a NUL: what follows would be dropped in silence */
  const char *nul = memchr(text, '\0', len);
  if (nul) {
    line_col(text, (size_t)(nul - text), &line, &col, &ls);
    ws_diag_add(d, WS_SEV_ERROR, origin, line, col,
                "a NUL byte (byte %zu of %zu): JSON is text and holds none", (size_t)(nul - text) + 1,
                len);
    return WS_EINVAL;
  }
  /* A file that is not JSON at all (a binary, a password file named where
   * a GPU file was expected) is said to be so without quoting its text. */
  size_t first = strspn(text, " \t\r\n");
  if (first < len && text[first] != '{' && text[first] != '[') {
    line_col(text, first, &line, &col, &ls);
    ws_diag_add(d, WS_SEV_ERROR, origin, line, col,
                "not a JSON document: it does not begin with '{' (its text is not shown)");
    return WS_EINVAL;
  }
  /* Each value costs a cJSON node (64 bytes) and more: bounded before the
   * parse, so a file of "[0,0,0,...]" cannot take gigabytes. */
  uint64_t max = ws_json_max_values();
  if (too_many_values(text, len, max))
    return ws_diag_add(d, WS_SEV_ERROR, origin, 0, 0,
                       "more than %llu JSON values (arrays, objects, numbers, strings): the "
                       "limit for a JSON input (raise it with the environment variable "
                       "WARPSIGHT_MAX_JSON_VALUES=N; give long arrays of buffer values as a "
                       "binary file, \"init\": {\"file\": ...})",
                       (unsigned long long)max);
  *out = cJSON_ParseWithOpts(text, &end, 1);
  if (*out) {
    ws_strbuf path = WS_STRBUF_INIT;
    int st = check_duplicates(*out, &path, origin, d);
    ws_sb_free(&path);
    if (st) {
      cJSON_Delete(*out);
      *out = NULL;
    }
    return st;
  }
  /* cJSON points at the first byte it could not take; turn it into line:col. */
  if (!end) end = text;
  line_col(text, (size_t)(end - text), &line, &col, &ls);
  ws_diag_add(d, WS_SEV_ERROR, origin, line, col,
              *end ? "invalid JSON near '%.12s'" : "invalid JSON: unexpected end of input",
              end);
  size_t n = strcspn(ls, "\n");
  ws_diag_set_source(d, ls, n > 200 ? 200 : n);
  return WS_EINVAL;
}

int ws_json_number(const cJSON *item, double *out) {
  if (cJSON_IsNumber(item)) {
    *out = item->valuedouble;
    return 1;
  }
  if (cJSON_IsObject(item)) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(item, "value");
    if (cJSON_IsNumber(v)) {
      *out = v->valuedouble;
      return 1;
    }
  }
  return 0;
}

static const char *check_text(ws_json_check c) {
  switch (c) {
  case WS_JSON_ANY: return "a number";
  case WS_JSON_NONNEG: return "a non-negative number";
  case WS_JSON_POSITIVE: return "a positive number";
  case WS_JSON_RATIO: return "a number between 0 and 1";
  case WS_JSON_UINT: return "a non-negative integer";
  }
  return "a number";
}

/* obj's member `key` in *it: WS_OK, WS_EMISSING when absent and optional,
 * or an error naming the path and what was expected. */
static int member(const cJSON **it, const cJSON *obj, const char *path, const char *key,
                  int required, const char *what, const char *origin, ws_diag *d) {
  *it = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
  if (*it) return WS_OK;
  if (required) return ws_json_error(d, origin, path, key, "missing (expected %s)", what);
  return WS_EMISSING;
}

int ws_json_get_number(const cJSON *obj, const char *path, const char *key,
                       int required, ws_json_check check, double *out,
                       const char *origin, ws_diag *d) {
  const cJSON *it;
  int st = member(&it, obj, path, key, required, check_text(check), origin, d);
  if (st != WS_OK) return st;
  double v;
  if (!ws_json_number(it, &v) || !isfinite(v))
    return ws_json_error(d, origin, path, key, "expected %s", check_text(check));
  int ok = 1;
  switch (check) {
  case WS_JSON_ANY: break;
  case WS_JSON_NONNEG: ok = v >= 0; break;
  case WS_JSON_POSITIVE: ok = v > 0; break;
  case WS_JSON_RATIO: ok = v >= 0 && v <= 1; break;
  case WS_JSON_UINT: ok = v >= 0 && v == floor(v) && v < 9.007199254740992e15; break;
  }
  if (!ok)
    return ws_json_error(d, origin, path, key, "expected %s, got %g", check_text(check), v);
  *out = v;
  return WS_OK;
}

int ws_json_get_string(const cJSON *obj, const char *path, const char *key,
                       int required, const char **out, const char *origin,
                       ws_diag *d) {
  const cJSON *it;
  int st = member(&it, obj, path, key, required, "a string", origin, d);
  if (st != WS_OK) return st;
  if (cJSON_IsObject(it)) it = cJSON_GetObjectItemCaseSensitive(it, "value");
  if (!cJSON_IsString(it) || !it->valuestring)
    return ws_json_error(d, origin, path, key, "expected a string");
  *out = it->valuestring;
  return WS_OK;
}

int ws_json_get_objects(const cJSON *obj, const char *path, const char *key,
                        int required, const cJSON **out, size_t *n, const char *origin,
                        ws_diag *d) {
  *out = NULL;
  *n = 0;
  const cJSON *arr;
  int st = member(&arr, obj, path, key, required, "an array of objects", origin, d);
  if (st != WS_OK) return st;
  if (!cJSON_IsArray(arr)) return ws_json_error(d, origin, path, key, "expected an array of objects");
  size_t i = 0;
  for (const cJSON *it = arr->child; it; it = it->next, i++) {
    if (cJSON_IsObject(it)) continue;
    char ipath[256];
    snprintf(ipath, sizeof ipath, "%s%s%s[%zu]", path ? path : "", path && *path ? "." : "", key, i);
    return ws_json_error(d, origin, ipath, NULL, "expected an object");
  }
  *out = arr;
  *n = i;
  return WS_OK;
}

int ws_json_get_object(const cJSON *obj, const char *path, const char *key,
                       int required, const cJSON **out, const char *origin,
                       ws_diag *d) {
  *out = NULL;
  const cJSON *it;
  int st = member(&it, obj, path, key, required, "an object", origin, d);
  if (st != WS_OK) return st;
  if (!cJSON_IsObject(it)) return ws_json_error(d, origin, path, key, "expected an object");
  *out = it;
  return WS_OK;
}

/* A number whose text cJSON would write inexactly, made a raw node with an
 * exact text (util/json.h, ws_json_print). */
static int exact_numbers(cJSON *node) {
  for (cJSON *it = node ? node->child : NULL, *next; it; it = next) {
    next = it->next;
    if (!cJSON_IsNumber(it)) {
      if (exact_numbers(it)) return 1;
      continue;
    }
    double v = it->valuedouble;
    if (!isfinite(v) || (v == (double)it->valueint)) continue; /* cJSON: null or "%d" */
    char buf[40];
    int digits = 15;
    for (; digits <= 17; digits++) {
      snprintf(buf, sizeof buf, "%1.*g", digits, v);
      if (strtod(buf, NULL) == v) break;
    }
    if (digits == 15) continue; /* cJSON writes these same digits */
    /* the node itself becomes raw text: it keeps its key and its place */
    size_t n = strlen(buf) + 1;
    char *text = cJSON_malloc(n);
    if (!text) return 1;
    memcpy(text, buf, n);
    it->type = cJSON_Raw | (it->type & cJSON_StringIsConst);
    it->valuestring = text;
  }
  return 0;
}

char *ws_json_print(const cJSON *root, int formatted) {
  cJSON *copy = root ? cJSON_Duplicate(root, 1) : NULL;
  if (!copy || exact_numbers(copy)) {
    cJSON_Delete(copy);
    return NULL;
  }
  char *s = formatted ? cJSON_Print(copy) : cJSON_PrintUnformatted(copy);
  cJSON_Delete(copy);
  return s;
}
