/*
 * profile_mix.h — private to src/profile: the "warp_mix" section of a
 * profile read into ws_profile_mix and written back (profile_mix.c), and
 * the hand-written model sections (profile_sections.c).
 */
#ifndef WS_PROFILE_MIX_H
#define WS_PROFILE_MIX_H

#include <cjson/cJSON.h>

#include "warpsight/profile.h"

/* Reads root["warp_mix"] (absent: an empty mix).  Errors name the path. */
int ws_profile_mix_read(ws_profile_mix *m, const cJSON *root, const char *origin, ws_diag *d);
/* Adds "warp_mix" to root (nothing when the mix is empty). */
int ws_profile_mix_write(cJSON *root, const ws_profile_mix *m);
void ws_profile_mix_free(ws_profile_mix *m);
/* Sorts counts into key order. */
void ws_prof_mix_sort(ws_mix_count *c, size_t n);

/* Reads the n items of the JSON array arr into a new array of n elements
 * of `size` bytes (*out, the caller's to free, also on error):
 * read_one(element, item, "PREFIX[i]", ctx, origin, d) for each, up to the
 * first error.  *count counts the elements read, the one that failed
 * included, so that freeing *count elements frees what was read. */
typedef int (*ws_prof_item_fn)(void *elem, const cJSON *item, const char *path, const void *ctx,
                               const char *origin, ws_diag *d);
int ws_prof_read_items(void **out, size_t *count, size_t size, const cJSON *arr, size_t n,
                       const char *prefix, ws_prof_item_fn read_one, const void *ctx,
                       const char *origin, ws_diag *d);

/* obj.repeat (a period's or a task's): an integer >= 1, 1 when absent. */
int ws_prof_read_repeat(double *out, const cJSON *obj, const char *path, const char *origin,
                        ws_diag *d);

/* The hand-written "kothapalli" and "luo_suda" sections of root into
 * p->kothapalli and p->luo_suda (profile_sections.c).  Errors name the path. */
int ws_profile_sections_read(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d);
void ws_profile_sections_free(ws_profile *p);

#endif
