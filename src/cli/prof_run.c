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
#include "cli/launch_check.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "cli/toolchain.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"

void cli_cu_cache_free(cli_cu_cache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n; i++) {
    if (c->v[i].dir[0]) cli_rm_tmp(c->v[i].dir);
    ws_tool_ptxas_free(&c->v[i].pl);
  }
  free(c->v);
  memset(c, 0, sizeof *c);
}

void cli_cu_arch_for(char *buf, size_t n, cli_cu_cache *c, const ws_gpu *g, ws_diag *d) {
  int want = g->cc_major * 10 + g->cc_minor, use = want;
  if (!c->archs_known) {
    cli_nvcc_archs(&c->lo, &c->hi);
    c->archs_known = 1;
  }
  if (c->lo && use < c->lo) use = c->lo;
  if (c->hi && use > c->hi) use = c->hi;
  snprintf(buf, n, "sm_%d", use);
  if (use != want)
    ws_diag_add(d, WS_SEV_NOTE, NULL, 0, 0, "nvcc compiles for sm_%d to sm_%d: the kernel is compiled for sm_%d "
                "for %s (sm_%d); give --arch, or PTX, to choose", c->lo, c->hi, use, g->name, want);
}

int cli_cu_build_get(const cli_cu_build **out, cli_cu_cache *c, const char *cmd, const char *file,
                     const char *arch) {
  for (size_t i = 0; i < c->n; i++)
    if (!strcmp(c->v[i].arch, arch)) return *out = &c->v[i], 0;
  cli_cu_build b;
  memset(&b, 0, sizeof b);
  snprintf(b.arch, sizeof b.arch, "%s", arch);
  int rc = cli_compile_cu(cmd, file, arch, b.dir, sizeof b.dir, &b.pl, &b.have_ptxas);
  if (!rc && WS_VEC_PUSH(c->v, c->n, c->cap, b)) rc = cli_usage_error(cmd, "out of memory");
  if (rc) {
    if (b.dir[0]) cli_rm_tmp(b.dir);
    ws_tool_ptxas_free(&b.pl);
    return rc;
  }
  *out = &c->v[c->n - 1];
  return 0;
}

int cli_profile_run(const prof_request *rq, ws_profile **out, ws_gpu **gpu_out,
                    ws_emu_stats *stats) {
  *out = NULL;
  *gpu_out = NULL;
  if (rq->arch && !cli_arch_ok(rq->arch))
    return cli_usage_error(rq->cmd, "--arch expects sm_XX (like sm_80), got '%s'", rq->arch);
  const char *arch = rq->arch ? rq->arch : "sm_80";
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  ws_launch_spec *spec = NULL;
  ws_ptx_module *m = NULL;
  ws_profile *pr = NULL;
  ws_ptxas_list pl = WS_PTXAS_LIST_INIT;
  const ws_ptxas_list *plist = &pl;
  cli_cu_cache one = {0}, *cache = rq->cu ? rq->cu : &one;
  int have_ptxas = 0, rc = EXIT_OK;
  char ptx_buf[4200], label[4300], src_note[512], gpu_arch[16];
  const char *ptx_path = rq->file;

  int st = ws_gpu_load(&g, rq->gpu, &d);
  if (!st) st = ws_emu_launch_spec_load(&spec, rq->launch, &d);
  if (st) goto fail;
  if (rq->grid) memcpy(spec->grid, rq->grid, sizeof spec->grid);
  if (rq->block) memcpy(spec->block, rq->block, sizeof spec->block);
  if (cli_has_suffix(rq->file, ".cu")) {
    if (access(rq->file, R_OK) != 0) {
      ws_diag_error(&d, "cannot read %s", rq->file);
      st = WS_EIO;
      goto fail;
    }
    if (!rq->arch) cli_cu_arch_for(gpu_arch, sizeof gpu_arch, cache, g, &d), arch = gpu_arch;
    const cli_cu_build *b = NULL;
    rc = cli_cu_build_get(&b, cache, rq->cmd, rq->file, arch);
    if (rc) goto done;
    snprintf(ptx_buf, sizeof ptx_buf, "%s/in.ptx", b->dir);
    ptx_path = ptx_buf;
    plist = &b->pl;
    have_ptxas = b->have_ptxas;
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
    ws_tool_ptx_target_arch(t, sizeof t, m->target);
    if (cli_arch_ok(t)) {
      have_ptxas = ws_tool_ptxas_on_ptx(ptx_path, t, &pl);
      arch = m->target;
    }
  }
  /* --kernel selects from the module; the spec's arguments must fit it */
  const ws_ptx_function *k = cli_kernel_select(spec, m, rq->kernel, &d);
  if (!k) {
    st = WS_EINVAL;
    goto fail;
  }
  cli_warn_unset_vars(m, k, spec, &d);
  const ws_ptxas_fn *pi = have_ptxas && k ? ws_tool_ptxas_lookup(plist, k->name) : NULL;
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  ws_prof_resources res;
  int autos = rq->sample_blocks == CLI_SAMPLE_AUTO;
  o.sample_blocks = autos ? WS_PROF_AUTO_SAMPLE_BLOCKS : (uint64_t)rq->sample_blocks;
  o.sample_auto_budget = autos ? WS_PROF_AUTO_BUDGET_WARP_INSTS : 0;
  o.functional_rest = rq->functional_rest;
  o.threads = (int)rq->threads;
  o.max_warp_insts = rq->max_warp_insts;
  o.max_launch_insts = rq->max_launch_insts;
  o.max_memory = rq->max_memory;
  o.input = rq->file;
  if (pi && pi->regs >= 0) {
    res.registers_per_thread = (double)pi->regs;
    res.shared_bytes_per_block = (double)pi->smem;
    res.local_bytes_per_thread = (double)pi->stack;
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
  cli_cu_cache_free(&one);
  ws_tool_ptxas_free(&pl);
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
  if (cli_check_arch(cmd, a->arch, file)) return EXIT_USAGE;
  long ns = CLI_SAMPLE_AUTO, j = 0;
  if (a->sample && cli_parse_sample_blocks_auto(cmd, a->sample, &ns)) return EXIT_USAGE;
  if (a->jobs && cli_parse_int(cmd, "-j", a->jobs, &j)) return EXIT_USAGE;
  if (a->jobs && (j < 1 || j > 256)) return cli_usage_error(cmd, "-j must be between 1 and 256");
  if (a->frest && !ns)
    return cli_usage_error(cmd, "--functional-rest needs --sample-blocks N (N >= 1) or auto: with 'all' every block is profiled");
  *rq = (prof_request){cmd, file, a->kernel, a->launch, a->gpu ? a->gpu : PROF_DEFAULT_GPU, a->arch, NULL,
                       ns, a->frest != NULL, j, WS_EMU_DEFAULT_MAX_WARP_INSTS,
                       WS_EMU_DEFAULT_MAX_LAUNCH_INSTS, 0, NULL, NULL};
  if (cli_parse_limit(cmd, "--max-warp-insts", a->maxw, &rq->max_warp_insts) ||
      cli_parse_limit(cmd, "--max-launch-insts", a->maxl, &rq->max_launch_insts) ||
      cli_parse_bytes(cmd, "--max-memory", a->maxm, &rq->max_memory))
    return EXIT_USAGE;
  return 0;
}
