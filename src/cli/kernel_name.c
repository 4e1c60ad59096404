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
  return ws_ptx_find_kernel(m, query);
}
