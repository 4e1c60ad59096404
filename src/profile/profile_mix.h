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

/* The hand-written "kothapalli" and "luo_suda" sections of root into
 * p->kothapalli and p->luo_suda (profile_sections.c).  Errors name the path. */
int ws_profile_sections_read(ws_profile *p, const cJSON *root, const char *origin, ws_diag *d);
void ws_profile_sections_free(ws_profile *p);

#endif
