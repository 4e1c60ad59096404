/* launch_check.c — checks of a launch spec against its kernel
 * (cli/launch_check.h). */
#include "cli/launch_check.h"

#include <stdlib.h>
#include <string.h>

/* Marks in reach[] the functions k calls, directly or not. */
static void reachable(const ws_ptx_module *m, uint32_t k, unsigned char *reach) {
  if (reach[k]) return;
  reach[k] = 1;
  const ws_ptx_function *f = &m->funcs[k];
  for (uint32_t i = 0; i < f->ninsts; i++)
    for (int o = 0; o < f->insts[i].nops; o++) {
      const ws_ptx_operand *op = &f->insts[i].ops[o];
      if (op->kind == WS_PTX_O_SYM && op->symkind == WS_PTX_S_FUNC && op->reg < m->nfuncs)
        reachable(m, op->reg, reach);
    }
}

void cli_warn_unset_vars(const ws_ptx_module *m, const ws_ptx_function *k, const ws_launch_spec *spec,
                         ws_diag *d) {
  if (!m || !k || k < m->funcs || k >= m->funcs + m->nfuncs) return;
  unsigned char *reach = calloc(m->nfuncs, 1), *read = calloc(m->nvars + 1, 1);
  if (!reach || !read) goto done;
  reachable(m, (uint32_t)(k - m->funcs), reach);
  for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
    if (!reach[fi]) continue;
    const ws_ptx_function *f = &m->funcs[fi];
    for (uint32_t i = 0; i < f->ninsts; i++) {
      const ws_ptx_inst *in = &f->insts[i];
      int store = ws_ptx_opcode_kind((ws_ptx_opcode)in->op) == WS_PTX_K_STORE;
      for (int o = 0; o < in->nops; o++) {
        const ws_ptx_operand *op = &in->ops[o];
        int named = (op->kind == WS_PTX_O_ADDR && !store) || op->kind == WS_PTX_O_SYM;
        if (named && op->symkind == WS_PTX_S_GLOBAL && op->reg < m->nvars) read[op->reg] = 1;
      }
    }
  }
  for (uint32_t v = 0; v < m->nvars; v++) {
    const ws_ptx_var *var = &m->vars[v];
    if (!read[v] || var->ninit || (var->space != WS_PTX_SP_CONST && var->space != WS_PTX_SP_GLOBAL))
      continue;
    int set = 0;
    for (uint32_t s = 0; s < spec->nvars && !set; s++) set = !strcmp(spec->vars[s].name, var->name);
    if (set) continue;
    ws_diag_add(d, WS_SEV_WARNING, spec->path, 0, 0,
                "kernel '%s' reads %s variable '%s', which the launch spec never sets: it reads "
                "zeros (set it with \"variables\": {\"%s\": {\"type\", \"values\"}}, "
                "docs/launch-spec.md)",
                k->name, var->space == WS_PTX_SP_CONST ? "__constant__" : "__device__", var->name,
                var->name);
  }
done:
  free(reach);
  free(read);
}
