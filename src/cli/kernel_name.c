/* kernel_name.c — kernel names in the CLI (kernel_name.h). */
#include "cli/kernel_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"

int cli_kernel_same(const char *a, const char *b) {
  return ws_demangle_match(a, b) || ws_demangle_match(b, a);
}

const ws_ptx_function *cli_kernel_find(const ws_ptx_module *m, const char *query) {
  const ws_ptx_function *f = ws_ptx_find_function(m, query), *hit = NULL;
  if (f) return f;
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (m->funcs[i].is_entry && ws_demangle_match(m->funcs[i].name, query)) {
      if (hit) return NULL; /* ambiguous */
      hit = &m->funcs[i];
    }
  return hit;
}
