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
#include "cli/toolchain.h"
#include "warpsight/analysis.h"
#include "report/report_json.h"
#include "warpsight/report.h"
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
    "  --arch sm_XX   target for nvcc/ptxas when FILE is .cu (default sm_80);\n"
    "                 refused with PTX, which is analysed for its own .target\n"
    "  --kernel K     only the function named K (an entry or a .func); a C++ kernel\n"
    "                 by its mangled or demangled name (ns::k<float, 3>)\n"
    "  --json         machine-readable output\n"
    "  -h, --help     this text\n"
    "\n"
    "For .cu input nvcc must be in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin\n"
    "(when CUDA_HOME is unset); ptxas -v ($WARPSIGHT_PTXAS, else found the same\n"
    "way) then adds registers, shared, stack (local) and spill bytes per kernel.\n"
    "Exit status: 0 success, 2 bad usage or input (errors as file:line:col).\n";

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
  if (cli_check_arch("analyze", arch, file)) return EXIT_USAGE;
  if (!arch) arch = "sm_80";

  char dir[4096] = "";
  ws_ptxas_list pl = WS_PTXAS_LIST_INIT;
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
      ws_tool_ptxas_free(&pl);
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
    ws_tool_ptxas_free(&pl);
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
    ws_tool_ptxas_free(&pl);
    return EXIT_USAGE;
  }
  cJSON *root = NULL, *arr = NULL;
  if (json) {
    root = ws_report_analyze_json(file, m);
    arr = cJSON_GetObjectItemCaseSensitive(root, "kernels");
  } else {
    ws_report_analyze_head(stdout, file, m);
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
    const ws_ptxas_fn *pk = have_ptxas ? ws_tool_ptxas_lookup(&pl, f->name) : NULL;
    ws_report_ptxas fig = {-1, 0, 0, 0, 0};
    if (pk) fig = (ws_report_ptxas){pk->regs, pk->smem, pk->stack, pk->spill_st, pk->spill_ld};
    const ws_report_ptxas *pi = pk ? &fig : NULL;
    if (json) cJSON_AddItemToArray(arr, ws_report_analyze_kernel_json(m, f, c, pi));
    else {
      printf("\n");
      ws_report_analyze_kernel(stdout, m, f, c, pi);
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
  ws_tool_ptxas_free(&pl);
  return status;
}
