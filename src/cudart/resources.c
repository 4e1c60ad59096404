/*
 * resources.c — a kernel's registers, shared and local memory
 * (rt_func_resources): what occupancy, cudaFuncGetAttributes,
 * cudaLaunchCooperativeKernel's limit and the profiler's resources are
 * computed from (docs/exec.md, "Kernel resources").  In order of
 * preference:
 *   1. the cubin the fat binary carries for the GPU's architecture (the
 *      highest one not above it, else the lowest above it): its .nv.info,
 *      as ptxas allocated them;
 *   2. ptxas (ws_tool_find_ptxas: WARPSIGHT_PTXAS, else `ptxas` on PATH,
 *      else $CUDA_HOME/bin/ptxas or /usr/local/cuda/bin/ptxas) run once
 *      per module on its PTX for the GPU's architecture, read from its -v
 *      report (ws_tool_ptxas_on_ptx: the CLI's way to run it and read it,
 *      no shell);
 *   3. the PTX itself (ws_prof_kernel_resources: the declared virtual
 *      registers, more than ptxas allocates).
 * Each module's figures are found once, for all its kernels.
 */
#define _GNU_SOURCE /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart/cubin.h"
#include "cudart/fatbin.h"
#include "cudart/rt.h"
#include "util/strbuf.h"
#include "util/tool.h"
#include "util/vec.h"

/* One kernel's figures from the compiler. */
typedef struct rt_kres {
  char *name;
  ws_cubin_res r;
} rt_kres;

/* A module's figures and where they came from. */
typedef struct rt_modres {
  rt_kres *k;
  size_t n, cap;
  char source[160];  /* "cubin sm_80 (.nv.info)", "ptxas -arch=sm_80 -v", "" (none) */
} rt_modres;

static int add_kernel(rt_modres *mr, const char *name, const ws_cubin_res *r) {
  rt_kres k = {ws_strdup(name), *r};
  if (!k.name || WS_VEC_PUSH(mr->k, mr->n, mr->cap, k)) {
    free(k.name);
    return -1;
  }
  return 0;
}

/* 1: the cubin of the module's fat binary (the linked image of an
 * -rdc=true program) for the GPU's architecture. */
static void from_cubin(rt_modres *mr, const rt_module *m, const ws_ptx_module *pm, int cc) {
  const ws_fatbin_wrapper *w = m->wrapper;
  unsigned char *elf = NULL;
  size_t len = 0;
  int arch = 0;
  ws_diag d = WS_DIAG_INIT;
  if (w && ws_fatbin_elf(&elf, &len, &arch, w->data, ws_fatbin_size(w->data), cc, &d) == WS_OK) {
    size_t found = 0;
    for (uint32_t i = 0; i < pm->nfuncs; i++) {
      ws_cubin_res r;
      if (!pm->funcs[i].is_entry || !pm->funcs[i].has_body) continue;
      if (ws_cubin_kernel(elf, len, pm->funcs[i].name, &r) == 0 && !add_kernel(mr, pm->funcs[i].name, &r)) found++;
    }
    if (found)
      snprintf(mr->source, sizeof mr->source, "the fat binary's cubin for sm_%d (.nv.info)%s", arch,
               arch > cc ? ", the closest to the GPU's architecture" : "");
  }
  free(elf);
  ws_diag_free(&d);
}

/* 2: ptxas on the module's PTX (one text: not an -rdc=true program), for
 * the GPU's architecture or, when the PTX targets a later one, for that:
 * each kernel ptxas gave registers for (util/tool.h runs ptxas and reads
 * its report, as the CLI does). */
static void from_ptxas(rt_modres *mr, const rt_module *m, int cc) {
  if (m->m && (int)m->m->sm > cc) cc = (int)m->m->sm;
  char pbuf[4096];
  if (!m->ptx || !ws_tool_find_ptxas(pbuf, sizeof pbuf)) return; /* no PTX file written for nothing */
  const char *tmpdir = getenv("TMPDIR");
  char tmp[4200], arch[32];
  if (snprintf(tmp, sizeof tmp, "%s/warpsight-XXXXXX.ptx", tmpdir && *tmpdir ? tmpdir : "/tmp") >= (int)sizeof tmp)
    return;
  int fd = mkstemps(tmp, 4);
  if (fd < 0) return;
  size_t len = strlen(m->ptx);
  int ok = write(fd, m->ptx, len) == (ssize_t)len;
  close(fd);
  snprintf(arch, sizeof arch, "sm_%d", cc);
  ws_ptxas_list l = WS_PTXAS_LIST_INIT;
  if (ok && ws_tool_ptxas_on_ptx(tmp, arch, &l)) /* a failed compile says nothing reliable */
    for (size_t i = 0; i < l.n; i++) {
      const ws_ptxas_fn *k = &l.v[i];
      if (k->regs < 0) continue; /* a device function, or no "Used" line */
      ws_cubin_res r = {(uint32_t)k->regs, (uint64_t)k->smem, (uint64_t)k->stack};
      if (add_kernel(mr, k->name, &r)) break;
    }
  if (mr->n) snprintf(mr->source, sizeof mr->source, "ptxas -arch=sm_%d -v", cc);
  ws_tool_ptxas_free(&l);
  unlink(tmp);
}

/* The figures of module i, found once (kept in the module). */
static rt_modres *module_res(ws_rt *rt, size_t i, const ws_ptx_module *pm) {
  rt_module *m = &rt->modules[i];
  if (m->res) return m->res;
  rt_modres *mr = calloc(1, sizeof *mr);
  if (!mr) return NULL;
  int cc = rt->gpu->cc_major * 10 + rt->gpu->cc_minor;
  from_cubin(mr, m, pm, cc);
  if (!mr->n && !m->nparts) from_ptxas(mr, m, cc);
  m->res = mr;
  return mr;
}

void rt_module_res_free(rt_module *m) {
  rt_modres *mr = m->res;
  if (!mr) return;
  for (size_t k = 0; k < mr->n; k++) free(mr->k[k].name);
  free(mr->k);
  free(mr);
  m->res = NULL;
}

cudaError_t rt_func_resources(ws_rt *rt, rt_func *f, ws_prof_resources *r, const char **source) {
  cudaError_t e = cudaSuccess;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  if (!p) return e;
  const ws_ptx_module *pm = rt_module_ptx(rt, f->module);
  ws_prof_kernel_resources(r, pm, ws_emu_program_kernel(p), rt->gpu); /* 3: the PTX */
  if (source) *source = NULL;
  rt_modres *mr = module_res(rt, f->module, pm);
  for (size_t k = 0; mr && k < mr->n; k++)
    if (strcmp(mr->k[k].name, f->name) == 0) {
      r->registers_per_thread = mr->k[k].r.registers;
      r->shared_bytes_per_block = (double)mr->k[k].r.shared_bytes;
      r->local_bytes_per_thread = (double)mr->k[k].r.local_bytes;
      if (source) *source = mr->source;
      break;
    }
  return cudaSuccess;
}
