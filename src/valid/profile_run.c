/*
 * profile_run.c — the real prediction step of validation: parse the kernel's
 * PTX (once per file, kept in the predictor context), profile the row's
 * launch with block sampling (ws_prof_launch_spec) and run the models on the
 * profile (ws_valid_run_models).  docs/validation.md, "How a row is
 * predicted".
 *
 * Buffer contents: the nine validation kernels' control flow and addresses
 * depend on the scalar arguments only (no branch or index reads a buffer;
 * subSeqMax uses max, not branches), so the profile is the same whatever the
 * inputs hold.  The predictor therefore emulates them with zero-filled
 * buffers instead of the spec's random ones: the emulator allocates buffers
 * with calloc, so the pages sampled blocks never touch cost neither time nor
 * memory (vectorAdd at N = 268,435,456 would otherwise fill 3 GiB).  Kernels
 * with other names keep the spec's initialisers.  tests/unit/test_valid_predict.c
 * checks that random and zero inputs give the same profile.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/emu.h"
#include "warpsight/profiler.h"
#include "warpsight/ptx.h"
#include "warpsight/valid_predict.h"

#include "util/strbuf.h"
#include "util/tool.h"
#include "util/vec.h"

typedef struct module_slot {
  char *path;             /* PTX file (owned) */
  ws_ptx_module *module;  /* parsed once (owned) */
  int ptxas;              /* 0: ptxas -v not run yet; 1: its report is in pl; -1: none */
  ws_ptxas_list pl;       /* `ptxas -v` on the file for its own .target (owned) */
} module_slot;

struct ws_valid_predictor {
  module_slot *mods;      /* parsed modules (owned) */
  size_t nmods, cap;      /* used, allocated */
  int threads;            /* emulator workers, 0: the number of cores */
  int keep_inputs;        /* 1: never replace the spec's initialisers */
  uint64_t max_warp_insts;   /* emulator limits (ws_emu_options) */
  uint64_t max_launch_insts;
  uint64_t max_memory;       /* ws_prof_options.max_memory */
};

ws_valid_predictor *ws_valid_predictor_new(int threads) {
  ws_valid_predictor *p = calloc(1, sizeof *p);
  if (p) {
    p->threads = threads;
    p->max_warp_insts = WS_EMU_DEFAULT_MAX_WARP_INSTS;
    p->max_launch_insts = WS_EMU_DEFAULT_MAX_LAUNCH_INSTS;
  }
  return p;
}

void ws_valid_predictor_limits(ws_valid_predictor *p, uint64_t max_warp_insts, uint64_t max_launch_insts,
                               uint64_t max_memory) {
  if (!p) return;
  p->max_memory = max_memory;
  p->max_warp_insts = max_warp_insts;
  p->max_launch_insts = max_launch_insts;
}

void ws_valid_predictor_keep_inputs(ws_valid_predictor *p, int keep) {
  if (p) p->keep_inputs = keep;
}

void ws_valid_predictor_free(ws_valid_predictor *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nmods; i++) {
    free(p->mods[i].path);
    ws_ptx_module_free(p->mods[i].module);
    ws_tool_ptxas_free(&p->mods[i].pl);
  }
  free(p->mods);
  free(p);
}

/* The parsed module of `path`: from the context, else parsed (and kept in
 * the context when there is one; *tmp owns it otherwise). */
static int get_module(const ws_ptx_module **out, ws_ptx_module **tmp, module_slot **sl,
                      ws_valid_predictor *ctx, const char *path, ws_diag *d) {
  *tmp = NULL;
  *sl = NULL;
  if (ctx)
    for (size_t i = 0; i < ctx->nmods; i++)
      if (strcmp(ctx->mods[i].path, path) == 0) {
        *out = ctx->mods[i].module;
        *sl = &ctx->mods[i];
        return WS_OK;
      }
  ws_ptx_module *m = NULL;
  int st = ws_ptx_parse_file(&m, path, d);
  if (st) return st;
  if (!ctx) {
    *out = *tmp = m;
    return WS_OK;
  }
  module_slot slot = {ws_strdup(path), m, 0, WS_PTXAS_LIST_INIT};
  if (!slot.path || WS_VEC_PUSH(ctx->mods, ctx->nmods, ctx->cap, slot)) {
    free(slot.path);
    ws_ptx_module_free(m);
    return WS_ENOMEM;
  }
  *out = m;
  *sl = &ctx->mods[ctx->nmods - 1];
  return WS_OK;
}

/* `ptxas -v` of kernel kf of module m (file path) for the module's own
 * .target, as `predict` runs it on a .ptx (src/cli/prof_run.c): into *res
 * and note, 1; 0 when there is no report (no ptxas, a target ptxas does
 * not take, no line for the kernel).  The report is kept in the slot (run
 * once per file); without one (sl NULL) ptxas runs for this call. */
static int ptxas_resources(ws_prof_resources *res, char *note, size_t nnote, module_slot *sl,
                           const ws_ptx_module *m, const char *path, const ws_ptx_function *kf) {
  ws_ptxas_list own = WS_PTXAS_LIST_INIT, *pl = sl ? &sl->pl : &own;
  char t[32];
  ws_tool_ptx_target_arch(t, sizeof t, m->target);
  int have = sl ? sl->ptxas : 0;
  if (!have) {
    have = t[0] && !strncmp(t, "sm_", 3) && ws_tool_ptxas_on_ptx(path, t, pl) ? 1 : -1;
    if (sl) sl->ptxas = have;
  }
  const ws_ptxas_fn *pi = have == 1 && kf ? ws_tool_ptxas_lookup(pl, kf->name) : NULL;
  int ok = pi && pi->regs >= 0;
  if (ok) {
    res->registers_per_thread = (double)pi->regs;
    res->shared_bytes_per_block = (double)pi->smem;
    res->local_bytes_per_thread = (double)pi->stack;
    snprintf(note, nnote, "ptxas -v -arch=%s", t);
  }
  ws_tool_ptxas_free(&own);
  return ok;
}

static int profile_launch(ws_profile **out, ws_valid_predictor *ctx, const char *ptx_path,
                          const ws_launch_spec *launch, const ws_gpu *g, int sample_blocks,
                          int keep, int want_ptxas, ws_diag *d);

int ws_valid_profile_launch(ws_profile **out, ws_valid_predictor *ctx, const char *ptx_path,
                            const ws_launch_spec *launch, const ws_gpu *g, int sample_blocks,
                            ws_diag *d) {
  return profile_launch(out, ctx, ptx_path, launch, g, sample_blocks, 0, 0, d);
}

/* keep = 1: the spec's initialisers whatever the kernel's name (a generic
 * row's launch is the user's, not one of the nine validation kernels').
 * want_ptxas = 1: the profile's registers and shared memory from `ptxas -v`
 * where it reports the kernel (a generic row without measured registers). */
static int profile_launch(ws_profile **out, ws_valid_predictor *ctx, const char *ptx_path,
                          const ws_launch_spec *launch, const ws_gpu *g, int sample_blocks,
                          int keep, int want_ptxas, ws_diag *d) {
  *out = NULL;
  const ws_ptx_module *m = NULL;
  ws_ptx_module *own = NULL;
  module_slot *sl = NULL;
  int st = get_module(&m, &own, &sl, ctx, ptx_path, d);
  if (st) return st;
  /* Zero-filled inputs for the validation kernels: a copy of the spec that
   * borrows the names and owns only its argument array. */
  ws_launch_spec zspec = *launch;
  ws_launch_arg *zargs = NULL;
  /* a demangled kernel name (`array_add<float>`), as predict accepts it:
   * the PTX's own name (borrowed from the module) */
  const ws_ptx_function *kf = ws_ptx_find_kernel(m, launch->kernel);
  if (kf && strcmp(kf->name, launch->kernel)) zspec.kernel = (char *)kf->name;
  if (!keep && (!ctx || !ctx->keep_inputs) && ws_valid_kernel_known(launch->kernel)) {
    zargs = malloc((launch->nargs ? launch->nargs : 1) * sizeof *zargs);
    if (!zargs) {
      ws_ptx_module_free(own);
      return WS_ENOMEM;
    }
    memcpy(zargs, launch->args, launch->nargs * sizeof *zargs);
    for (uint32_t i = 0; i < launch->nargs; i++)
      if (zargs[i].is_buffer) zargs[i].init = WS_INIT_ZERO;
    zspec.args = zargs;
  }
  /* None of the validation kernels reads what another block wrote, so the
   * unsampled blocks are skipped (no functional rest).  The models run on
   * the measured build's registers and shared memory
   * (ws_valid_run_models); the profile keeps the PTX's. */
  ws_prof_options o = WS_PROF_OPTIONS_INIT;
  o.sample_blocks = sample_blocks > 0 ? (uint64_t)sample_blocks : 0;
  o.threads = ctx ? ctx->threads : 0;
  if (ctx) {
    o.max_warp_insts = ctx->max_warp_insts;
    o.max_launch_insts = ctx->max_launch_insts;
    o.max_memory = ctx->max_memory;
  }
  /* A row of the user's own (generic format) that gives no measured
   * registers: the registers and shared memory ptxas allocates, as
   * `predict` uses, not the PTX's virtual register declarations (an
   * unrolled kernel declares hundreds: Kernel Tuner's matmul at 32x32
   * declared 176 per thread, so no block of 1024 threads "fit" and no model
   * ran, where ptxas allocates 38) */
  ws_prof_resources res;
  char note[64];
  if (want_ptxas && ptxas_resources(&res, note, sizeof note, sl, m, ptx_path, kf)) {
    o.resources = &res;
    o.resources_source = note;
  }
  st = ws_prof_launch_spec(out, NULL, m, &zspec, g, &o, d);
  free(zargs);
  ws_ptx_module_free(own);
  return st;
}

/* The ws_valid_predict_fn: profile, then the models.  `user` is a
 * ws_valid_predictor (parsed modules, threads) or NULL. */
static int predict(ws_valid_result *out, const ws_valid_request *req, void *user, ws_diag *d) {
  memset(out, 0, sizeof *out);
  int keep = req->row && req->row->launch_file;
  int st = profile_launch(&out->profile, user, req->ptx_path, req->launch, req->gpu,
                          req->sample_blocks, keep, keep && req->row->regs < 0, d);
  if (!st) st = ws_valid_run_models(out, out->profile, req->gpu, req->models, req->nmodels,
                                    req->row, d);
  return st;
}

ws_valid_predict_fn ws_valid_default_predictor(void) { return predict; }
