/* kernel_name.c — kernel names in the CLI (kernel_name.h). */
#include "cli/kernel_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "util/strbuf.h"
#include "warpsight/emu.h"

int cli_kernel_same(const char *a, const char *b) {
  return ws_demangle_match(a, b) || ws_demangle_match(b, a);
}

const ws_ptx_function *cli_kernel_find(const ws_ptx_module *m, const char *query) {
  return ws_ptx_find_kernel(m, query);
}

const ws_ptx_function *cli_kernel_select(ws_launch_spec *spec, const ws_ptx_module *m,
                                         const char *kernel, ws_diag *d) {
  const char *want = kernel ? kernel : spec->kernel;
  const ws_ptx_function *k = cli_kernel_find(m, want);
  if (!k || !k->is_entry) {
    ws_strbuf list = WS_STRBUF_INIT;
    for (uint32_t i = 0; i < m->nfuncs; i++)
      if (m->funcs[i].is_entry) ws_sb_printf(&list, "%s%s", list.n ? ", " : "", m->funcs[i].name);
    ws_diag_add(d, WS_SEV_ERROR, kernel ? NULL : spec->path, 0, 0,
                "no kernel named '%s' in %s (%s; its kernels: %s)", want, m->path ? m->path : "the module",
                kernel ? "--kernel" : "the launch spec's \"kernel\"", list.n ? ws_sb_str(&list) : "none");
    ws_sb_free(&list);
    return NULL;
  }
  if (strcmp(k->name, spec->kernel) != 0) {
    char *name = ws_strdup(k->name);
    if (!name) {
      ws_diag_error(d, "out of memory");
      return NULL;
    }
    free(spec->kernel);
    spec->kernel = name;
  }
  return k;
}
