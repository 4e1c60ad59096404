/*
 * report_analyze.c — the `analyze` report (warpsight/report.h,
 * report/report_json.h): per kernel its parameters, registers, static shared
 * and local bytes (ws_prof_kernel_resources), ptxas' figures when given, the
 * basic blocks with lines, successors, depth, ILP, MLP and classes, and the
 * natural loops; as text or as JSON (docs/static-analysis.md).
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "util/demangle.h"
#include "warpsight/profiler.h"

void ws_report_analyze_head(FILE *out, const char *file, const ws_ptx_module *m) {
  fprintf(out, "%s: PTX %u.%u, target %s, %u-bit addresses\n", file, m->version_major,
          m->version_minor, m->target ? m->target : "?", m->address_size);
}

cJSON *ws_report_analyze_json(const char *file, const ws_ptx_module *m) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "file", file);
  cJSON_AddStringToObject(root, "target", m->target ? m->target : "");
  char ver[32];
  snprintf(ver, sizeof ver, "%u.%u", m->version_major, m->version_minor);
  cJSON_AddStringToObject(root, "ptx_version", ver);
  cJSON_AddArrayToObject(root, "kernels");
  return root;
}

static void type_text(char *buf, size_t n, const ws_ptx_var *v) {
  if (v->ndims)
    snprintf(buf, n, "%s.%s[%llu]", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type), (unsigned long long)v->dims[0]);
  else
    snprintf(buf, n, "%s.%s", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type));
}

void ws_report_analyze_kernel(FILE *out, const ws_ptx_module *m, const ws_ptx_function *f,
                              const ws_cfg *c, const ws_report_ptxas *pi) {
  char label[1024];
  ws_report_kernel_label(label, sizeof label, f->name);
  fprintf(out, "%s %s (line %u)\n", f->is_entry ? "kernel" : "function", label, f->line);
  fprintf(out, "  parameters: %u (%llu bytes)\n", f->nparams, (unsigned long long)f->param_bytes);
  for (uint32_t i = 0; i < f->nparams; i++) {
    char t[64];
    type_text(t, sizeof t, &f->params[i]);
    fprintf(out, "    %-32s %-12s offset %-4llu size %llu\n", f->params[i].name, t,
           (unsigned long long)f->params[i].offset, (unsigned long long)f->params[i].size);
  }
  uint32_t bytype[WS_PTX_T_COUNT] = {0};
  for (uint32_t i = 0; i < f->nregs; i++) bytype[f->regs[i].type]++;
  fprintf(out, "  registers declared: %u (", f->nregs);
  int first = 1;
  for (int t = 1; t < WS_PTX_T_COUNT; t++)
    if (bytype[t]) {
      fprintf(out, "%s%s %u", first ? "" : ", ", ws_ptx_type_name((ws_ptx_type)t), bytype[t]);
      first = 0;
    }
  fprintf(out, ")\n");
  ws_prof_resources res;
  ws_prof_kernel_resources(&res, m, f, NULL);
  fprintf(out, "  static shared bytes: %.0f\n", res.shared_bytes_per_block);
  fprintf(out, "  local bytes: %.0f\n", res.local_bytes_per_thread);
  if (pi)
    fprintf(out, "  ptxas: %ld registers, %ld bytes shared, %ld bytes stack (local), "
           "%ld bytes spill stores, %ld bytes spill loads\n",
           pi->regs, pi->smem, pi->stack, pi->spill_st, pi->spill_ld);
  fprintf(out, "  instructions: %u, basic blocks: %u, loops: %u\n", f->ninsts, c->nblocks, c->nloops);
  fprintf(out, "  %-5s %-11s %5s %-9s %5s %5s %5s  %s\n", "block", "lines", "insts", "succ", "depth",
         "ILP", "MLP", "classes");
  for (uint32_t b = 0; b < c->nblocks; b++) {
    const ws_bb *bb = &c->blocks[b];
    char lines[32], succ[128];
    snprintf(lines, sizeof lines, "%u-%u", bb->line_first, bb->line_last);
    succ[0] = '\0';
    for (uint32_t k = 0; k < bb->nsucc; k++) {
      size_t len = strlen(succ);
      if (bb->succ[k] == c->nblocks)
        snprintf(succ + len, sizeof succ - len, "%sexit", k ? "," : "");
      else
        snprintf(succ + len, sizeof succ - len, "%s%u", k ? "," : "", bb->succ[k]);
    }
    fprintf(out, "  %-5u %-11s %5u %-9s %5u %5.2f %5.2f ", b, lines, bb->end - bb->first, succ,
           bb->loop_depth, bb->ilp, bb->mlp);
    for (int k = 0; k < WS_IC_COUNT; k++)
      if (bb->counts[k]) fprintf(out, " %s=%u", ws_analysis_class_name((ws_iclass)k), bb->counts[k]);
    fprintf(out, "\n");
  }
  for (uint32_t i = 0; i < c->nloops; i++) {
    const ws_loop *L = &c->loops[i];
    fprintf(out, "  loop %u: header block %u (line %u), depth %u, parent %s", i, L->header,
           c->blocks[L->header].line_first, L->depth, L->parent == WS_CFG_NONE ? "none" : "");
    if (L->parent != WS_CFG_NONE) fprintf(out, "%u", L->parent);
    fprintf(out, ", blocks");
    for (uint32_t k = 0; k < L->nblocks; k++) fprintf(out, " %u", L->blocks[k]);
    fprintf(out, "\n");
  }
}

cJSON *ws_report_analyze_kernel_json(const ws_ptx_module *m, const ws_ptx_function *f,
                                     const ws_cfg *c, const ws_report_ptxas *pi) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", f->name);
  char *dm = ws_demangle(f->name);
  cJSON_AddStringToObject(o, "demangled", dm ? dm : f->name);
  free(dm);
  cJSON_AddBoolToObject(o, "entry", f->is_entry);
  cJSON_AddNumberToObject(o, "line", f->line);
  cJSON *ps = cJSON_AddArrayToObject(o, "params");
  for (uint32_t i = 0; i < f->nparams; i++) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "name", f->params[i].name);
    cJSON_AddStringToObject(p, "type", ws_ptx_type_name((ws_ptx_type)f->params[i].type));
    cJSON_AddNumberToObject(p, "offset", (double)f->params[i].offset);
    cJSON_AddNumberToObject(p, "size", (double)f->params[i].size);
    cJSON_AddNumberToObject(p, "align", f->params[i].align);
    if (f->params[i].is_ptr)
      cJSON_AddStringToObject(p, "ptr_space",
                              f->params[i].ptr_space
                                  ? ws_ptx_space_name((ws_ptx_space)f->params[i].ptr_space)
                                  : "generic");
    cJSON_AddItemToArray(ps, p);
  }
  cJSON_AddNumberToObject(o, "param_bytes", (double)f->param_bytes);
  cJSON *regs = cJSON_AddObjectToObject(o, "registers");
  cJSON_AddNumberToObject(regs, "declared", f->nregs);
  uint32_t bytype[WS_PTX_T_COUNT] = {0};
  for (uint32_t i = 0; i < f->nregs; i++) bytype[f->regs[i].type]++;
  cJSON *bt = cJSON_AddObjectToObject(regs, "by_type");
  for (int t = 1; t < WS_PTX_T_COUNT; t++)
    if (bytype[t]) cJSON_AddNumberToObject(bt, ws_ptx_type_name((ws_ptx_type)t), bytype[t]);
  ws_prof_resources res;
  ws_prof_kernel_resources(&res, m, f, NULL);
  cJSON_AddNumberToObject(o, "shared_bytes", res.shared_bytes_per_block);
  cJSON_AddNumberToObject(o, "local_bytes", res.local_bytes_per_thread);
  if (pi) {
    cJSON *p = cJSON_AddObjectToObject(o, "ptxas");
    cJSON_AddNumberToObject(p, "registers", (double)pi->regs);
    cJSON_AddNumberToObject(p, "shared_bytes", (double)pi->smem);
    cJSON_AddNumberToObject(p, "stack_bytes", (double)pi->stack);
    cJSON_AddNumberToObject(p, "spill_store_bytes", (double)pi->spill_st);
    cJSON_AddNumberToObject(p, "spill_load_bytes", (double)pi->spill_ld);
  }
  cJSON_AddNumberToObject(o, "instructions", f->ninsts);
  cJSON *bs = cJSON_AddArrayToObject(o, "blocks");
  for (uint32_t b = 0; b < c->nblocks; b++) {
    const ws_bb *bb = &c->blocks[b];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "id", b);
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    cJSON_AddItemToArray(lines, cJSON_CreateNumber(bb->line_first));
    cJSON_AddItemToArray(lines, cJSON_CreateNumber(bb->line_last));
    cJSON_AddNumberToObject(j, "instructions", bb->end - bb->first);
    cJSON *cnt = cJSON_AddObjectToObject(j, "counts");
    for (int k = 0; k < WS_IC_COUNT; k++)
      if (bb->counts[k])
        cJSON_AddNumberToObject(cnt, ws_analysis_class_name((ws_iclass)k), bb->counts[k]);
    cJSON *su = cJSON_AddArrayToObject(j, "successors");
    for (uint32_t k = 0; k < bb->nsucc; k++)
      cJSON_AddItemToArray(su, bb->succ[k] == c->nblocks ? cJSON_CreateString("exit")
                                                         : cJSON_CreateNumber(bb->succ[k]));
    if (bb->idom == WS_CFG_NONE) cJSON_AddNullToObject(j, "idom");
    else cJSON_AddNumberToObject(j, "idom", bb->idom);
    if (bb->ipdom == c->nblocks) cJSON_AddStringToObject(j, "ipdom", "exit");
    else cJSON_AddNumberToObject(j, "ipdom", bb->ipdom);
    cJSON_AddNumberToObject(j, "loop_depth", bb->loop_depth);
    cJSON_AddNumberToObject(j, "ilp", bb->ilp);
    cJSON_AddNumberToObject(j, "mlp", bb->mlp);
    cJSON_AddNumberToObject(j, "loads", bb->nloads);
    cJSON_AddItemToArray(bs, j);
  }
  cJSON *ls = cJSON_AddArrayToObject(o, "loops");
  for (uint32_t i = 0; i < c->nloops; i++) {
    const ws_loop *L = &c->loops[i];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "header", L->header);
    cJSON_AddNumberToObject(j, "depth", L->depth);
    if (L->parent == WS_CFG_NONE) cJSON_AddNullToObject(j, "parent");
    else cJSON_AddNumberToObject(j, "parent", L->parent);
    cJSON *blk = cJSON_AddArrayToObject(j, "blocks");
    for (uint32_t k = 0; k < L->nblocks; k++)
      cJSON_AddItemToArray(blk, cJSON_CreateNumber(L->blocks[k]));
    cJSON_AddItemToArray(ls, j);
  }
  return o;
}

