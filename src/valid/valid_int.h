/*
 * valid/valid_int.h — what the validation part's files share and a library
 * user does not need: the cJSON form of a launch spec, from which both the
 * --launches writer (ws_valid_launch_json) and the profile cache key
 * (ws_valid_cache_key) are made, so a key is the hash of exactly what
 * --launches writes.
 */
#ifndef WS_VALID_VALID_INT_H
#define WS_VALID_VALID_INT_H

#include "warpsight/emu.h"
#include "warpsight/util.h"

struct cJSON;

/* The spec as a cJSON object in DESIGN.md's format, keys in the order
 * kernel, grid, block, dynamic_shared_bytes, args (each argument: buffer or
 * scalar, type, then count, init, output or value).  Relative file paths
 * are written as resolved.  NULL on ENOMEM or for an f16/bf16 scalar, which
 * the format cannot hold.  The caller cJSON_Delete()s it. */
struct cJSON *ws_valid_launch_cjson(const ws_launch_spec *s);

struct ws_valid_data;

/* data.c: every row's database GPU name (rows[i].gpu; one error for unknown
 * names).  With allow_files, a name that is a path (holds '/' or ends in
 * .json) is a GPU file resolved against the data file's folder. */
int ws_valid_resolve_gpus(struct ws_valid_data *v, int col, const char *const *extra,
                          size_t nextra, int allow_files, ws_diag *d);
/* data.c: keep a malloc'd string in v (taken over, freed with v); returns
 * it, or NULL (and frees s) on ENOMEM. */
char *ws_valid_keep(struct ws_valid_data *v, char *s);
/* data.c: `path` resolved against the folder of `origin` (malloc'd). */
char *ws_valid_resolve_path(const char *origin, const char *path);
/* generic.c: fill v's rows from a CSV in the generic format. */
int ws_valid_load_generic(struct ws_valid_data *v, const char *const *extra, size_t nextra,
                          ws_diag *d);

#endif
