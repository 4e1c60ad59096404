/*
 * warpsight/profile.h — the kernel profile, the seam between the front end
 * and the models (schema "warpsight-profile/1", docs/profile.md).
 *
 * A profile is either written by the profiler or by hand, as the papers did.
 * Scalar fields come from profile_fields.def; an absent field is NaN.  The
 * whole JSON document is kept in `root` so a model can read structured
 * sections of its own (documented in docs/profile.md) through the same
 * path-naming error reporting.
 *
 * Ownership: ws_profile_load*() give the caller a profile to release with
 * ws_profile_free(); `root` and `kernel` are owned by the profile.
 */
#ifndef WARPSIGHT_PROFILE_H
#define WARPSIGHT_PROFILE_H

#include <math.h>
#include <stdint.h>

#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

#define WS_PROFILE_SCHEMA "warpsight-profile/1"

typedef enum ws_pf_check {
  WS_PF_COUNT,    /* finite, >= 0 */
  WS_PF_POSITIVE, /* finite, > 0 */
  WS_PF_RATIO,    /* finite, in [0, 1] */
  WS_PF_ANY       /* finite */
} ws_pf_check;

typedef struct ws_profile_fields {
#define PF(section, key, check, doc) double key; /* section.key */
#include "warpsight/profile_fields.def"
#undef PF
} ws_profile_fields;

typedef struct ws_profile {
  char *kernel;              /* kernel name (owned) */
  char *origin;              /* where it was read from, for messages (owned; NULL if built in memory) */
  uint32_t grid[3];          /* launch grid, blocks in x, y, z */
  uint32_t block[3];         /* block dimensions, threads in x, y, z */
  uint64_t blocks;           /* grid[0] * grid[1] * grid[2] */
  uint64_t threads_per_block;/* block[0] * block[1] * block[2] */
  ws_profile_fields f;       /* scalar fields; NaN = absent */
  struct cJSON *root;        /* the parsed document (owned) */
} ws_profile;

/* One entry of the field table, for loaders, writers and docs. */
typedef struct ws_profile_field_info {
  const char *section;  /* JSON object */
  const char *key;      /* JSON key */
  size_t offset;        /* offset of the double in ws_profile_fields */
  ws_pf_check check;    /* validation rule */
  const char *doc;      /* one-line description with units */
} ws_profile_field_info;

extern const ws_profile_field_info ws_profile_field_table[];
extern const size_t ws_profile_field_count;

/* Parse and validate.  `origin` names the document in diagnostics; every
 * error names the offending field by its JSON path. */
int ws_profile_load_json(ws_profile **out, const char *json,
                         const char *origin, ws_diag *d);
int ws_profile_load_file(ws_profile **out, const char *path, ws_diag *d);
void ws_profile_free(ws_profile *p);

/* A new empty profile (all fields NaN) for writers such as the profiler. */
ws_profile *ws_profile_new(const char *kernel, const uint32_t grid[3],
                           const uint32_t block[3]);
/* Serialise to warpsight-profile/1 JSON (malloc'd string, caller frees). */
char *ws_profile_to_json(const ws_profile *p);

static inline int ws_pf_has(double v) { return !isnan(v); }

/* Derived counts used by several models. */
double ws_profile_mem_insts(const ws_profile *p);   /* coal + uncoal */
double ws_profile_total_insts(const ws_profile *p); /* comp + coal + uncoal */

#ifdef __cplusplus
}
#endif
#endif
