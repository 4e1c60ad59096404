/*
 * section.h — private helper for models that read a structured section of
 * the profile (kothapalli, luo_suda) through util/json.h, so their
 * errors read like the loader's: "ORIGIN: error: PATH: what was expected".
 *
 * A ws_profile does not keep the name of the document it came from, so the
 * origin names the profile by its kernel.
 */
#ifndef WS_MODEL_SECTION_H
#define WS_MODEL_SECTION_H

#include <stdio.h>

#include "warpsight/profile.h"

static inline const char *profile_origin(char *buf, size_t n,
                                         const ws_profile *p) {
  if (p->origin)
    snprintf(buf, n, "%s", p->origin);
  else
    snprintf(buf, n, "profile of kernel '%s'", p->kernel ? p->kernel : "?");
  return buf;
}

#endif
