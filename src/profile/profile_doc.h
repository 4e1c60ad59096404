/*
 * profile_doc.h — private to src/profile: the profile's other sections (the
 * profiler's report: instruction_mix, simd, caches, sampling, ...; and any
 * section a hand-written profile carries), kept as a JSON tree behind the
 * opaque ws_profile.doc so that no public header names cJSON.  Library
 * users read a section with ws_profile_section_json().
 */
#ifndef WS_PROFILE_DOC_H
#define WS_PROFILE_DOC_H

#include <cjson/cJSON.h>

#include "warpsight/profile.h"

struct ws_profile_doc {
  cJSON *root; /* owned; the typed parts (fields, mix, model sections) are in ws_profile */
};

/* The top-level keys besides the field sections (profile_top.def). */
typedef enum ws_profile_sec {
#define S(id, key) WS_PSEC_##id,
#include "profile/profile_top.def"
#undef S
  WS_PSEC_COUNT
} ws_profile_sec;

/* The key of section id. */
const char *ws_profile_sec_key(ws_profile_sec id);

/* The tree, created empty when the profile has none; NULL when out of memory. */
cJSON *ws_profile_doc_root(ws_profile *p);
/* The tree or NULL, read only. */
const cJSON *ws_profile_doc_peek(const ws_profile *p);

#endif
