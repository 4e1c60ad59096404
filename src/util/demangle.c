/* util/demangle.c — C++ kernel names through libiberty (demangle.h). */
#include "util/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

char *ws_demangle(const char *name) {
  if (!name) return NULL;
  char *d = strncmp(name, "_Z", 2) == 0 ? cplus_demangle(name, DMGL_ANSI) : NULL;
  return d ? d : ws_strdup(name);
}

/* a == b ignoring spaces */
static int same_nospace(const char *a, const char *b) {
  for (;;) {
    while (*a == ' ') a++;
    while (*b == ' ') b++;
    if (*a != *b) return 0;
    if (!*a) return 1;
    a++, b++;
  }
}

int ws_demangle_match(const char *mangled, const char *query) {
  if (!mangled || !query) return 0;
  if (strcmp(mangled, query) == 0) return 1;
  if (strncmp(mangled, "_Z", 2) != 0) return 0;
  int hit = 0;
  char *d = cplus_demangle(mangled, DMGL_ANSI);
  if (d && same_nospace(d, query)) hit = 1;
  free(d);
  if (!hit) {
    char *full = cplus_demangle(mangled, DMGL_ANSI | DMGL_PARAMS);
    /* "void k<float, 5>(float*, int)": also without the return type */
    const char *p = full;
    if (full && strncmp(full, "void ", 5) == 0) p = full + 5;
    if (full && (same_nospace(full, query) || same_nospace(p, query))) hit = 1;
    free(full);
  }
  return hit;
}
