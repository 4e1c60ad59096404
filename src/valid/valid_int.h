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

struct cJSON;

/* The spec as a cJSON object in DESIGN.md's format, keys in the order
 * kernel, grid, block, dynamic_shared_bytes, args (each argument: buffer or
 * scalar, type, then count, init, output or value).  Relative file paths
 * are written as resolved.  NULL on ENOMEM or for an f16/bf16 scalar, which
 * the format cannot hold.  The caller cJSON_Delete()s it. */
struct cJSON *ws_valid_launch_cjson(const ws_launch_spec *s);

#endif
