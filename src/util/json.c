/*
 * json.c — cJSON access with path-naming errors (util/json.h).
 * Every message has the form "ORIGIN: error: PATH: what was expected".
 */
#include "util/json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

int ws_json_parse(cJSON **out, const char *text, const char *origin,
                  ws_diag *d) {
  const char *end = NULL;
  /* a UTF-8 byte-order mark (editors on Windows write one) is not JSON */
  if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    text += 3;
  *out = cJSON_ParseWithOpts(text, &end, 1);
  if (*out) return WS_OK;
  /* cJSON points at the first byte it could not take; turn it into line:col. */
  int line = 1, col = 1;
  const char *ls = text;
  if (!end) end = text;
  for (const char *p = text; p < end && *p; p++) {
    if (*p == '\n') {
      line++;
      col = 1;
      ls = p + 1;
    } else {
      col++;
    }
  }
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
