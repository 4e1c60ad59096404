/*
 * cmd_analyze.c — `warpsight analyze FILE.ptx|FILE.cu`: static analysis of
 * each kernel (parameters, registers, shared/local bytes, basic blocks,
 * loops, per-block instruction classes, ILP and MLP), as text or JSON.
 * A .cu file is compiled with `nvcc -ptx` first, and `ptxas -v` adds the
 * register, shared, stack and spill figures of the real compiler.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/kernel_name.h"
#include "util/demangle.h"
#include "cli/toolchain.h"
#include "warpsight/analysis.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

static const char *const help =
    "usage: warpsight analyze FILE.ptx|FILE.cu [--arch sm_XX] [--kernel K] [--json]\n"
    "\n"
    "Static analysis of the kernels in a PTX file (or of a CUDA file, compiled\n"
    "with nvcc -ptx): parameters, declared registers, static shared and local\n"
    "bytes, basic blocks with PTX line ranges, instruction classes, successors,\n"
    "loop depth, natural loops, and per-block static ILP and MLP (Sim et al.,\n"
    "PPoPP'12, Sec. 5.3; rules in docs/static-analysis.md).\n"
    "\n"
    "options:\n"
    "  --arch sm_XX   target for nvcc/ptxas when FILE is .cu (default sm_80)\n"
    "  --kernel K     only the function named K (an entry or a .func); a C++ kernel\n"
    "                 by its mangled or demangled name (ns::k<float, 3>)\n"
    "  --json         machine-readable output\n"
    "  -h, --help     this text\n"
    "\n"
    "For .cu input nvcc must be in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin\n"
    "(when CUDA_HOME is unset); ptxas -v, found the same way, then\n"
    "adds registers, shared, stack (local) and spill bytes per kernel.\n"
    "Exit status: 0 success, 2 bad usage or input (errors as file:line:col).\n";

static void type_text(char *buf, size_t n, const ws_ptx_var *v) {
  if (v->ndims)
    snprintf(buf, n, "%s.%s[%llu]", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type), (unsigned long long)v->dims[0]);
  else
    snprintf(buf, n, "%s.%s", v->vec > 1 ? (v->vec == 2 ? ".v2" : ".v4") : "",
             ws_ptx_type_name((ws_ptx_type)v->type));
}

static void print_text(const ws_ptx_module *m, const ws_ptx_function *f, const ws_cfg *c,
                       const ptxas_info *pi) {
  char label[1024];
  cli_kernel_label(label, sizeof label, f->name);
  printf("%s %s (line %u)\n", f->is_entry ? "kernel" : "function", label, f->line);
  printf("  parameters: %u (%llu bytes)\n", f->nparams, (unsigned long long)f->param_bytes);
  for (uint32_t i = 0; i < f->nparams; i++) {
    char t[64];
    type_text(t, sizeof t, &f->params[i]);
    printf("    %-32s %-12s offset %-4llu size %llu\n", f->params[i].name, t,
           (unsigned long long)f->params[i].offset, (unsigned long long)f->params[i].size);
  }
  uint32_t bytype[WS_PTX_T_COUNT] = {0};
  for (uint32_t i = 0; i < f->nregs; i++) bytype[f->regs[i].type]++;
  printf("  registers declared: %u (", f->nregs);
  int first = 1;
  for (int t = 1; t < WS_PTX_T_COUNT; t++)
    if (bytype[t]) {
      printf("%s%s %u", first ? "" : ", ", ws_ptx_type_name((ws_ptx_type)t), bytype[t]);
      first = 0;
    }
  printf(")\n");
  ws_prof_resources res;
  ws_prof_kernel_resources(&res, m, f, NULL);
  printf("  static shared bytes: %.0f\n", res.shared_bytes_per_block);
  printf("  local bytes: %.0f\n", res.local_bytes_per_thread);
  if (pi)
    printf("  ptxas: %ld registers, %ld bytes shared, %ld bytes stack (local), "
           "%ld bytes spill stores, %ld bytes spill loads\n",
           pi->regs, pi->smem, pi->stack, pi->spill_st, pi->spill_ld);
  printf("  instructions: %u, basic blocks: %u, loops: %u\n", f->ninsts, c->nblocks, c->nloops);
  printf("  %-5s %-11s %5s %-9s %5s %5s %5s  %s\n", "block", "lines", "insts", "succ", "depth",
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
    printf("  %-5u %-11s %5u %-9s %5u %5.2f %5.2f ", b, lines, bb->end - bb->first, succ,
           bb->loop_depth, bb->ilp, bb->mlp);
    for (int k = 0; k < WS_IC_COUNT; k++)
      if (bb->counts[k]) printf(" %s=%u", ws_analysis_class_name((ws_iclass)k), bb->counts[k]);
    printf("\n");
  }
  for (uint32_t i = 0; i < c->nloops; i++) {
    const ws_loop *L = &c->loops[i];
    printf("  loop %u: header block %u (line %u), depth %u, parent %s", i, L->header,
           c->blocks[L->header].line_first, L->depth, L->parent == WS_CFG_NONE ? "none" : "");
    if (L->parent != WS_CFG_NONE) printf("%u", L->parent);
    printf(", blocks");
    for (uint32_t k = 0; k < L->nblocks; k++) printf(" %u", L->blocks[k]);
    printf("\n");
  }
}

static cJSON *json_function(const ws_ptx_module *m, const ws_ptx_function *f, const ws_cfg *c,
                            const ptxas_info *pi) {
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

int cmd_analyze(int argc, char **argv) {
  const char *arch = NULL, *kernel = NULL, *json = NULL;
  const cli_opt opts[] = {{"--arch", 1, &arch}, {"--kernel", 1, &kernel}, {"--json", 0, &json},
                          {NULL, 0, NULL}};
  const char *pos[1];
  int npos, want_help;
  int r = cli_parse("analyze", argc, argv, opts, pos, 1, &npos, help, &want_help);
  if (r || want_help) return r;
  if (npos != 1) return cli_usage_error("analyze", "expected one FILE.ptx or FILE.cu");
  const char *file = pos[0];
  if (arch && (strncmp(arch, "sm_", 3) != 0 || strlen(arch) < 5 || strlen(arch) > 16 ||
               strspn(arch + 3, "0123456789af") != strlen(arch + 3)))
    return cli_usage_error("analyze", "--arch expects sm_XX (like sm_80), got '%s'", arch);
  if (!arch) arch = "sm_80";

  char dir[4096] = "";
  ptxas_list pl = {NULL, 0};
  int have_ptxas = 0;
  const char *ptx_path = file;
  char ptx_buf[4200];
  if (cli_has_suffix(file, ".cu")) {
    if (access(file, R_OK) != 0) {
      fprintf(stderr, "warpsight analyze: error: cannot read %s: %s\n", file, strerror(errno));
      return EXIT_USAGE;
    }
    r = cli_compile_cu("analyze", file, arch, dir, sizeof dir, &pl, &have_ptxas);
    if (r) {
      if (dir[0]) cli_rm_tmp(dir);
      free(pl.v);
      return r;
    }
    snprintf(ptx_buf, sizeof ptx_buf, "%s/in.ptx", dir);
    ptx_path = ptx_buf;
  }
  ws_diag d = WS_DIAG_INIT;
  ws_ptx_module *m = NULL;
  char *src = NULL;
  size_t len = 0;
  r = ws_read_file(&src, &len, ptx_path, &d);
  char label[4200];
  snprintf(label, sizeof label, "%s%s", file, ptx_path == file ? "" : " (nvcc -ptx output)");
  if (!r) r = ws_ptx_parse(&m, src, len, label, &d);
  free(src);
  if (dir[0]) cli_rm_tmp(dir);
  if (r) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    free(pl.v);
    return cli_exit_for(r);
  }
  /* which functions */
  int nsel = 0;
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const ws_ptx_function *f = &m->funcs[i];
    if (!f->has_body) continue;
    if (kernel ? cli_kernel_same(f->name, kernel) : f->is_entry) nsel++;
  }
  if (kernel && nsel == 0) {
    fprintf(stderr, "warpsight analyze: error: no function named '%s' in %s; kernels:", kernel,
            file);
    for (uint32_t i = 0; i < m->nfuncs; i++)
      if (m->funcs[i].is_entry && m->funcs[i].has_body) fprintf(stderr, " %s", m->funcs[i].name);
    fprintf(stderr, "\n");
    ws_ptx_module_free(m);
    ws_diag_free(&d);
    free(pl.v);
    return EXIT_USAGE;
  }
  cJSON *root = NULL, *arr = NULL;
  if (json) {
    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", file);
    cJSON_AddStringToObject(root, "target", m->target ? m->target : "");
    char ver[32];
    snprintf(ver, sizeof ver, "%u.%u", m->version_major, m->version_minor);
    cJSON_AddStringToObject(root, "ptx_version", ver);
    arr = cJSON_AddArrayToObject(root, "kernels");
  } else {
    printf("%s: PTX %u.%u, target %s, %u-bit addresses\n", file, m->version_major,
           m->version_minor, m->target ? m->target : "?", m->address_size);
  }
  int status = EXIT_OK;
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const ws_ptx_function *f = &m->funcs[i];
    if (!f->has_body || !(kernel ? cli_kernel_same(f->name, kernel) : f->is_entry)) continue;
    ws_cfg *c = NULL;
    r = ws_analysis_build(&c, m, f, &d);
    if (r) {
      cli_print_diag(&d);
      status = cli_exit_for(r);
      break;
    }
    const ptxas_info *pi = NULL;
    if (have_ptxas)
      for (size_t k = 0; k < pl.n; k++)
        if (strcmp(pl.v[k].name, f->name) == 0) pi = &pl.v[k];
    if (json) cJSON_AddItemToArray(arr, json_function(m, f, c, pi));
    else {
      printf("\n");
      print_text(m, f, c, pi);
    }
    ws_analysis_free(c);
  }
  if (status == EXIT_OK && d.count) cli_print_diag(&d); /* warnings (e.g. cut def-use chains) */
  if (json && status == EXIT_OK) {
    cli_print_json(root);
  }
  cJSON_Delete(root);
  ws_ptx_module_free(m);
  ws_diag_free(&d);
  free(pl.v);
  return status;
}
