/*
 * util/json.h — reading JSON documents (cJSON) with errors that name
 * the offending field by its path ("per_warp.uncoal_mem_insts: expected a
 * non-negative number").  Used by the GPU database, profiles and launch specs.
 *
 * Numbers may be written bare or as {"value": N, "source": "..."}; both read
 * the same.  Nothing here prints; every error goes to the ws_diag.
 * Internal to the library (src/), not public: no public header names cJSON.
 */
#ifndef WS_UTIL_JSON_H
#define WS_UTIL_JSON_H

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/* What a number must satisfy. */
typedef enum ws_json_check {
  WS_JSON_ANY,      /* any finite number */
  WS_JSON_NONNEG,   /* >= 0 */
  WS_JSON_POSITIVE, /* > 0 */
  WS_JSON_RATIO,    /* in [0, 1] */
  WS_JSON_UINT      /* integer >= 0 */
} ws_json_check;

/* Most values (arrays, objects, numbers, strings, literals) one JSON input
 * may hold: 2^20, far above any GPU file, profile or launch spec (the
 * largest bundled one has under 10,000), and few enough that its nodes
 * (about 130 bytes each with a launch spec's exact number texts) stay
 * near 130 MB.  The environment variable WARPSIGHT_MAX_JSON_VALUES=N
 * raises it (ws_json_max_values: the limit in effect). */
#define WS_JSON_MAX_VALUES (1ull << 20)
uint64_t ws_json_max_values(void);

/* Parse text[0..len); a syntax error is reported as origin:line:col.  A
 * NUL byte before len, a text that does not begin with '{' or '[' (its
 * content is then not quoted), more than ws_json_max_values() values and
 * a key given twice in one object ("PATH.KEY: duplicate key") are errors. */
int ws_json_parse(struct cJSON **out, const char *text, size_t len, const char *origin,
                  ws_diag *d);

/* The numeric value of a bare number or of {"value": N}; 0 if neither. */
int ws_json_number(const struct cJSON *item, double *out);

/* Read obj[key] as a number.  `path` is the JSON path of obj ("" for the
 * root) used in messages.  Returns WS_OK, WS_EMISSING when absent and not
 * required (out untouched), or WS_EINVAL with a diagnostic. */
int ws_json_get_number(const struct cJSON *obj, const char *path,
                       const char *key, int required, ws_json_check check,
                       double *out, const char *origin, ws_diag *d);
/* Read obj[key] as a string (borrowed from the document). */
int ws_json_get_string(const struct cJSON *obj, const char *path,
                       const char *key, int required, const char **out,
                       const char *origin, ws_diag *d);
/* Check that obj[key], if present, is an object; *out = NULL when absent. */
int ws_json_get_object(const struct cJSON *obj, const char *path,
                       const char *key, int required,
                       const struct cJSON **out, const char *origin,
                       ws_diag *d);
/* Check that obj[key], if present, is an array whose elements are all
 * objects ("PATH.KEY: expected an array of objects", "PATH.KEY[i]: expected
 * an object"); *out = the array and *n its length, NULL and 0 when absent. */
int ws_json_get_objects(const struct cJSON *obj, const char *path,
                        const char *key, int required,
                        const struct cJSON **out, size_t *n,
                        const char *origin, ws_diag *d);
/* Report an error at a JSON path: "origin: error: path: message". */
int ws_json_error(ws_diag *d, const char *origin, const char *path,
                  const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The text of a JSON tree, every number exact: cJSON 1.7 prints a double
 * with 15 significant digits whenever they read back within about one unit
 * in the last place (its compare_double), so 17.7 % of random doubles came
 * back different in the last bit, and a profile or calibrated GPU file read
 * back gave models results that differ in the 16th digit from the run that
 * wrote it (a Spearman rho over tied predictions moved).  Here a number
 * whose 15-digit text does not read back exactly is written with the
 * fewest of 16 or 17 digits that do; every other number is written as
 * cJSON writes it.  `formatted`: as cJSON_Print, else cJSON_PrintUnformatted.
 * The tree is not changed.  Free the text with cJSON_free; NULL when out of
 * memory. */
char *ws_json_print(const struct cJSON *root, int formatted);

#ifdef __cplusplus
}
#endif
#endif
