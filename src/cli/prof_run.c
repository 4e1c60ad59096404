/*
 * prof_run.c — profile one kernel launch for `profile` and `predict`.
 */
#include "cli/prof_run.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
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
  ws_emu_program *prog = NULL;
  ws_emu_launch *L = NULL;
  ws_prof *prof = NULL;
  ws_profile *pr = NULL;
  ptxas_list pl = {NULL, 0};
  int have_ptxas = 0, rc = EXIT_OK;
  char dir[4096] = "", ptx_buf[4200], label[4300], src_note[512];
  const char *ptx_path = rq->file;

  int st = ws_gpu_load(&g, rq->gpu, &d);
  if (!st) st = ws_launch_spec_load(&spec, rq->launch, &d);
  if (st) goto fail;
  if (rq->kernel && strcmp(rq->kernel, spec->kernel) != 0) {
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
  st = ws_emu_load(&prog, m, spec->kernel, &d);
  if (!st) st = ws_emu_launch_new(&L, prog, spec, &d);
  if (st) goto fail;

  const ws_ptx_function *k = ws_emu_program_kernel(prog);
  ws_prof_config c;
  memset(&c, 0, sizeof c);
  c.module = m;
  c.kernel = k;
  c.gpu = g;
  memcpy(c.grid, spec->grid, sizeof c.grid);
  memcpy(c.block, spec->block, sizeof c.block);
  long nt = rq->threads;
  if (nt <= 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    nt = cores > 0 ? cores : 1;
  }
  if (nt > 256) nt = 256;
  c.workers = (int)nt;
  c.sample_blocks = (uint64_t)rq->sample_blocks;
  c.functional_rest = rq->functional_rest;
  const ptxas_info *pi = have_ptxas ? cli_ptxas_find(&pl, k->name) : NULL;
  if (pi && pi->regs >= 0) {
    c.registers_per_thread = (double)pi->regs;
    c.shared_bytes_per_block = (double)pi->smem + (double)spec->dynamic_shared;
    c.local_bytes_per_thread = (double)pi->stack;
    snprintf(src_note, sizeof src_note, "ptxas -v -arch=%.40s", arch);
  } else {
    ws_prof_resources_from_ptx(m, k, g, &c.registers_per_thread, &c.shared_bytes_per_block,
                               &c.local_bytes_per_thread);
    c.shared_bytes_per_block += (double)spec->dynamic_shared;
    snprintf(src_note, sizeof src_note,
             "PTX declarations (ptxas %s): registers declared, capped at %d; static .shared "
             "bytes + the launch's dynamic shared bytes",
             have_ptxas ? "gave no report for the kernel" : "not found", g->limits.max_regs_per_thread);
  }
  c.resources_source = src_note;
  st = ws_prof_new(&prof, &c, &d);
  if (st) goto fail;
  ws_prof_emu_state h = {prof, (uint64_t)spec->grid[0] * spec->grid[1] * spec->grid[2],
                         (uint64_t)rq->sample_blocks, rq->functional_rest};
  ws_emu_hooks hooks;
  ws_prof_emu_hooks(&hooks, &h);
  ws_emu_options o = WS_EMU_OPTIONS_INIT;
  o.threads = (int)nt;
  o.hooks = &hooks;
  ws_emu_stats sx;
  memset(&sx, 0, sizeof sx);
  st = ws_emu_run(L, &o, &sx, &d);
  if (stats) *stats = sx;
  if (st) goto fail;
  st = ws_prof_finish(prof, &pr, &d);
  if (st) goto fail;
  cJSON *pj = cJSON_GetObjectItemCaseSensitive(pr->root, "profiler");
  if (pj) cJSON_AddStringToObject(pj, "input", rq->file);
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
  ws_prof_free(prof);
  ws_emu_launch_free(L);
  ws_emu_program_free(prog);
  ws_ptx_module_free(m);
  ws_launch_spec_free(spec);
  ws_gpu_free(g);
  if (rc == EXIT_OK) cli_print_diag(&d); /* warnings */
  ws_diag_free(&d);
  return rc;
}
