/*
 * prof_run.c — profile one kernel launch for `profile` and `predict`: the
 * command-line side (input files, nvcc/ptxas, the GPU) around the one
 * library call, ws_prof_launch_spec().
 */
#include "cli/prof_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/kernel_name.h"
#include "util/strbuf.h"
#include "cli/toolchain.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

static int arch_ok(const char *a) {
  return strncmp(a, "sm_", 3) == 0 && strlen(a) >= 5 && strlen(a) <= 16 &&
         strspn(a + 3, "0123456789af") == strlen(a + 3);
}

int cli_profile_run(const prof_request *rq, ws_profile **out, ws_gpu **gpu_out,
                    ws_emu_stats *stats) {
  *out = NULL;
  *gpu_out = NULL;
  const char *arch = rq->arch ? rq->arch : "sm_80";
  if (!arch_ok(arch)) return cli_usage_error(rq->cmd, "--arch expects sm_XX (like sm_80), got '%s'", arch);
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  ws_launch_spec *spec = NULL;
  ws_ptx_module *m = NULL;
  ws_profile *pr = NULL;
  ptxas_list pl = {NULL, 0, 0};
  int have_ptxas = 0, rc = EXIT_OK;
  char dir[4096] = "", ptx_buf[4200], label[4300], src_note[512];
  const char *ptx_path = rq->file;

  int st = ws_gpu_load(&g, rq->gpu, &d);
  if (!st) st = ws_emu_launch_spec_load(&spec, rq->launch, &d);
  if (st) goto fail;
  if (rq->grid) memcpy(spec->grid, rq->grid, sizeof spec->grid);
  if (rq->block) memcpy(spec->block, rq->block, sizeof spec->block);
  if (rq->kernel && !cli_kernel_same(rq->kernel, spec->kernel)) {
    ws_diag_add(&d, WS_SEV_ERROR, rq->launch, 0, 0, "the spec is for kernel '%s', --kernel names '%s'",
                spec->kernel, rq->kernel);
    st = WS_EINVAL;
    goto fail;
  }
  if (cli_has_suffix(rq->file, ".cu")) {
    if (access(rq->file, R_OK) != 0) {
      ws_diag_error(&d, "cannot read %s", rq->file);
      st = WS_EIO;
      goto fail;
    }
    rc = cli_compile_cu(rq->cmd, rq->file, arch, dir, sizeof dir, &pl, &have_ptxas);
    if (rc) goto done;
    snprintf(ptx_buf, sizeof ptx_buf, "%s/in.ptx", dir);
    ptx_path = ptx_buf;
  }
  {
    char *text = NULL;
    size_t len = 0;
    snprintf(label, sizeof label, "%s%s", rq->file, ptx_path == rq->file ? "" : " (nvcc -ptx output)");
    st = ws_read_file(&text, &len, ptx_path, &d);
    if (!st) st = ws_ptx_parse(&m, text, len, label, &d);
    free(text);
    if (st) goto fail;
  }
  if (ptx_path == rq->file && m->target) {
    /* .ptx input: ptxas -v for the module's own target. */
    char t[32];
    snprintf(t, sizeof t, "%.*s", (int)strcspn(m->target, ", \t"), m->target);
    if (arch_ok(t)) {
      have_ptxas = cli_ptxas_on_ptx(ptx_path, t, &pl);
      arch = m->target;
    }
  }
  const ws_ptx_function *k = cli_kernel_find(m, spec->kernel);
  if (k && strcmp(k->name, spec->kernel) != 0) { /* a demangled name: use the PTX's */
    char *mangled = ws_strdup(k->name);
    if (mangled) free(spec->kernel), spec->kernel = mangled;
  }
  const ptxas_info *pi = have_ptxas && k ? cli_ptxas_find(&pl, k->name) : NULL;
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  ws_prof_resources res;
  o.sample_blocks = (uint64_t)rq->sample_blocks;
  o.functional_rest = rq->functional_rest;
  o.threads = (int)rq->threads;
  o.max_warp_insts = rq->max_warp_insts;
  o.max_launch_insts = rq->max_launch_insts;
  o.max_memory = rq->max_memory;
  o.input = rq->file;
  if (pi && pi->fig.regs >= 0) {
    res.registers_per_thread = (double)pi->fig.regs;
    res.shared_bytes_per_block = (double)pi->fig.smem;
    res.local_bytes_per_thread = (double)pi->fig.stack;
    snprintf(src_note, sizeof src_note, "ptxas -v -arch=%.40s", arch);
    o.resources = &res;
  } else {
    snprintf(src_note, sizeof src_note, "ptxas %s",
             have_ptxas ? "gave no report for the kernel" : "not found");
  }
  o.resources_source = src_note;
  ws_emu_stats sx;
  memset(&sx, 0, sizeof sx);
  st = ws_prof_launch_spec(&pr, &sx, m, spec, g, &o, &d);
  if (stats) *stats = sx;
  if (st) goto fail;
  *out = pr;
  *gpu_out = g;
  g = NULL;
  goto done;
fail:
  cli_print_diag(&d);
  rc = cli_exit_for(st);
done:
  if (dir[0]) cli_rm_tmp(dir);
  free(pl.v);
  ws_ptx_module_free(m);
  ws_emu_launch_spec_free(spec);
  ws_gpu_free(g);
  if (rc == EXIT_OK) cli_print_diag(&d); /* warnings */
  ws_diag_free(&d);
  return rc;
}

int cli_prof_request(prof_request *rq, const char *cmd, const prof_args *a, int npos,
                     const char *file) {
  if (npos != 1) return cli_usage_error(cmd, "expected one FILE.ptx or FILE.cu (see --help)");
  if (!a->launch) return cli_usage_error(cmd, "--launch is required");
  long ns = 0, j = 0;
  if (a->sample && cli_parse_int(cmd, "--sample-blocks", a->sample, &ns)) return EXIT_USAGE;
  if (a->sample && ns < 1) return cli_usage_error(cmd, "--sample-blocks must be at least 1");
  if (a->jobs && cli_parse_int(cmd, "-j", a->jobs, &j)) return EXIT_USAGE;
  if (a->jobs && (j < 1 || j > 256)) return cli_usage_error(cmd, "-j must be between 1 and 256");
  if (a->frest && !a->sample) return cli_usage_error(cmd, "--functional-rest needs --sample-blocks");
  *rq = (prof_request){cmd, file, a->kernel, a->launch, a->gpu ? a->gpu : PROF_DEFAULT_GPU, a->arch,
                       ns, a->frest != NULL, j, WS_EMU_DEFAULT_MAX_WARP_INSTS,
                       WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, 0, NULL, NULL};
  if (cli_parse_limit(cmd, "--max-warp-insts", a->maxw, &rq->max_warp_insts) ||
      cli_parse_limit(cmd, "--max-launch-insts", a->maxl, &rq->max_launch_insts) ||
      cli_parse_bytes(cmd, "--max-memory", a->maxm, &rq->max_memory))
    return EXIT_USAGE;
  return 0;
}
