/*
 * gpu/gpu_check.h — range and consistency checks of a loaded GPU's values
 * (gpu_check.c).  Internal to the library; called by the loader (gpu.c).
 * Each returns WS_OK, or WS_EINVAL after adding one diagnostic per bad
 * value, naming the file (origin) and the value's JSON path.
 */
#ifndef WS_GPU_CHECK_H
#define WS_GPU_CHECK_H

#include "warpsight/gpu.h"

struct cJSON;

/* Occupancy limits: each in its range, and consistent with each other. */
int ws_gpu_check_limits(ws_sm_limits *L, int warp_size, const char *origin, ws_diag *d);
/* Cache geometry: powers of two, sectors that divide lines, whole sets. */
int ws_gpu_check_cache(const ws_cache_facts *C, const char *origin, ws_diag *d);
/* Model parameters: finite; positive for the five paper models; integers
 * where they count whole things. */
int ws_gpu_check_models(const struct cJSON *models, const char *origin, ws_diag *d);
int ws_gpu_check_derived(const ws_gpu *g, const char *origin, ws_diag *d);

/* Unknown keys: at the top level and in "limits", "cache", "latencies", "memory"
 * an error naming the path, with a did-you-mean where a known key is close
 * (a typo once left a value at its default in silence); a "models" table
 * whose name is close to a model's ("hong_kim") is an error too, other
 * names stay allowed (a user's own model). */
int ws_gpu_check_keys(const struct cJSON *root, const char *origin, ws_diag *d);

/* memory.type, if present: one of the technologies docs/gpu-schema.md
 * lists, copied into out[n]; else an error with a did-you-mean. */
int ws_gpu_check_memory_type(const struct cJSON *mem, char *out, size_t n, const char *origin,
                             ws_diag *d);

/* The newest compute capability in cc_limits.def, e.g. "9.0" (static). */
const char *ws_gpu_sm_limits_newest_cc(void);

#endif
