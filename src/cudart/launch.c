/*
 * launch.c — a kernel launch: pack the parameters from the kernel's .param
 * list (the generated code passes only pointers to the values), run the
 * grid in the emulator on the device, profile it with ws_prof_launch and
 * predict its time with the chosen models; then the run's report.
 *
 * Launch cache: launches with the same kernel, grid, block, dynamic shared
 * bytes and parameter image are profiled once; the later ones run in the
 * emulator without the profiler (their writes matter) and reuse the
 * prediction.  The predicted-time clock (events) advances by the primary
 * model's time (the first model of WARPSIGHT_MODEL) at every launch.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "util/demangle.h"
#include "util/strbuf.h"
#include "util/vec.h"
#include "warpsight/profiler.h"
#include "warpsight/report.h"

#define PARAM_BYTES 32768 /* CUDA 12.1+: up to 32764 bytes of kernel parameters */

static int same_key(const rt_kstat *k, size_t func, const ws_emu_launch_config *c) {
  return k->func == func && !memcmp(k->grid, c->grid, sizeof k->grid) &&
         !memcmp(k->block, c->block, sizeof k->block) && k->dyn_shared == c->dynamic_shared &&
         k->params_bytes == c->params_bytes && !memcmp(k->params, c->params, c->params_bytes);
}

static rt_kstat *find_or_add(ws_rt *rt, size_t func, const ws_emu_launch_config *c, int *fresh) {
  *fresh = 0;
  for (size_t i = 0; i < rt->nkstats; i++)
    if (same_key(&rt->kstats[i], func, c)) return &rt->kstats[i];
  rt_kstat k = {0};
  k.func = func;
  memcpy(k.grid, c->grid, sizeof k.grid);
  memcpy(k.block, c->block, sizeof k.block);
  k.dyn_shared = c->dynamic_shared;
  k.params = malloc(c->params_bytes ? c->params_bytes : 1);
  k.params_bytes = c->params_bytes;
  for (size_t m = 0; m < RT_MAX_MODELS; m++) k.pred.ms[m] = NAN;
  if (!k.params) return NULL;
  memcpy(k.params, c->params, c->params_bytes);
  if (WS_VEC_PUSH(rt->kstats, rt->nkstats, rt->cap_kstats, k)) {
    free(k.params);
    return NULL;
  }
  *fresh = 1;
  return &rt->kstats[rt->nkstats - 1];
}

/* WARPSIGHT_REPORT_DIR: the charts of the models that draw one. */
static void write_charts(ws_rt *rt, const rt_kstat *k, const ws_model_result *r) {
  const char *dir = getenv("WARPSIGHT_REPORT_DIR");
  if (!dir || !*dir) return;
  mkdir(dir, 0777);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%zu-%s", dir, rt->funcs[k->func].name,
           (size_t)(k - rt->kstats), r->model);
  ws_diag d = WS_DIAG_INIT;
  ws_report_chart_for_result(path, r, &d); /* models without a chart say so: ignored */
  ws_diag_free(&d);
}

/* Run the models on a fresh profile into k->pred. */
static void predict(ws_rt *rt, rt_kstat *k, const ws_profile *prof) {
  for (size_t i = 0; i < rt->nmodels; i++) {
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag d = WS_DIAG_INIT;
    int st = ws_model_predict(&r, rt->models[i], prof, rt->gpu, &d);
    if (st == WS_OK) {
      k->pred.ms[i] = r.time_ms;
      if (i == 0 && r.bound != WS_BOUND_NONE) k->pred.bottleneck = ws_strdup(ws_model_limiter(&r));
      write_charts(rt, k, &r);
    } else if (i == 0 && !rt->primary_warned) { /* once: the same reason for every kernel */
      fprintf(stderr, "warpsight: warning: the primary model %s cannot predict kernel %s "
              "(events and the clock get no time from it):\n", rt->models[i],
              rt->funcs[k->func].name);
      rt_print_diag(&d);
      rt->primary_warned = 1;
    }
    ws_model_result_free(&r);
    ws_diag_free(&d);
  }
  k->ok = 1;
}

/* The CUDA error for an emulator fault. */
static cudaError_t fault_error(const ws_emu_stats *s) {
  switch (s->fault_kind) {
  case WS_EMU_FAULT_MISALIGNED: return cudaErrorMisalignedAddress;
  case WS_EMU_FAULT_TRAP: return cudaErrorLaunchFailure;
  case WS_EMU_FAULT_ASSERT: return cudaErrorAssert;
  case WS_EMU_FAULT_LIMIT: /* either instruction limit: what a GPU's watchdog reports */
  case WS_EMU_FAULT_LAUNCH_LIMIT: return cudaErrorLaunchTimeout;
  case WS_EMU_FAULT_OOB: return cudaErrorIllegalAddress;
  default: return cudaErrorLaunchFailure;
  }
}

static cudaError_t check_config(const ws_gpu *g, const ws_emu_launch_config *c) {
  uint64_t threads = (uint64_t)c->block[0] * c->block[1] * c->block[2];
  for (int i = 0; i < 3; i++)
    if (!c->grid[i] || !c->block[i]) return cudaErrorInvalidConfiguration;
  if (threads > (uint64_t)g->limits.max_threads_per_block || c->block[2] > 64)
    return cudaErrorInvalidConfiguration;
  if (c->grid[1] > 65535 || c->grid[2] > 65535) return cudaErrorInvalidConfiguration;
  if (c->dynamic_shared > (uint64_t)g->limits.max_shared_per_block)
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

/* Run (profiling when fresh) one prepared launch; the emulator's status. */
static int run(ws_rt *rt, rt_func *f, ws_emu_launch *l, const ws_emu_launch_config *c,
               rt_kstat *k, int fresh, ws_emu_stats *stats, ws_diag *d) {
  fflush(stdout); /* the program's output before the kernel's printf */
  int st;
  if (fresh) {
    ws_prof_target t = {rt_module_ptx(rt, f->module), f->prog, l,
                        {c->grid[0], c->grid[1], c->grid[2]},
                        {c->block[0], c->block[1], c->block[2]}, c->dynamic_shared, NULL};
    ws_prof_options po = WS_PROF_OPTIONS_INIT;
    po.sample_blocks = rt->sample_blocks;
    po.functional_rest = 1; /* every block runs: the program needs its results */
    po.printf_out = stdout;
    po.max_warp_insts = rt->max_warp_insts;
    po.max_launch_insts = rt->max_launch_insts;
    /* back-to-back launches: this one starts from the L2 the previous one
     * left (docs/exec.md), and leaves its own for the next */
    ws_prof_l2 *left = NULL;
    po.l2_start = rt->l2 ? WS_PROF_L2_CARRIED : WS_PROF_L2_COLD;
    po.l2_carried = rt->l2;
    po.l2_end = &left;
    ws_profile *prof = NULL;
    st = ws_prof_launch(&prof, stats, &t, rt->gpu, &po, d);
    ws_prof_l2_free(rt->l2);
    rt->l2 = left;
    if (st == WS_OK) predict(rt, k, prof);
    ws_profile_free(prof);
  } else {
    ws_emu_options eo = WS_EMU_OPTIONS_INIT;
    eo.printf_out = stdout;
    eo.max_warp_insts = rt->max_warp_insts;
    eo.max_launch_insts = rt->max_launch_insts;
    uint64_t blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
    eo.threads = ws_prof_workers(0, blocks, 0, 1); /* the profiler's rule: no idle workers */
    st = ws_emu_run(l, &eo, stats, d);
    ws_prof_l2_free(rt->l2); /* not simulated: what it left in the L2 is unknown */
    rt->l2 = NULL;
  }
  fflush(stdout);
  return st;
}

cudaError_t rt_launch(ws_rt *rt, rt_func *f, dim3 grid, dim3 block, void **args,
                      size_t dyn_shared) {
  if (!rt->gpu) return cudaErrorInitializationError;
  cudaError_t e = cudaSuccess;
  ws_emu_program *p = rt_func_prog(rt, f, &e);
  ws_emu_device *dev = rt_device(rt);
  if (!p) return e;
  if (!dev) return cudaErrorInitializationError;
  static _Thread_local unsigned char params[PARAM_BYTES];
  ws_emu_launch_config c = {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                            dyn_shared, params, 0};
  if ((e = check_config(rt->gpu, &c))) return e;
  ws_diag d = WS_DIAG_INIT;
  ws_emu_launch *l = NULL;
  int st = ws_emu_params_pack(ws_emu_program_kernel(p), (void *const *)args, params,
                              sizeof params, &c.params_bytes, &d);
  int fresh = 0;
  rt_kstat *k = st ? NULL : find_or_add(rt, (size_t)(f - rt->funcs), &c, &fresh);
  if (!st && !k) st = WS_ENOMEM;
  if (!st) {
    rt_managed_sync(rt, 1);
    st = ws_emu_launch_raw(&l, dev, p, &c, &d);
  }
  ws_emu_stats stats = {0};
  if (!st) st = run(rt, f, l, &c, k, fresh, &stats, &d);
  if (l) rt_managed_sync(rt, 0);
  ws_emu_launch_free(l);
  rt_print_diag(&d);
  ws_diag_free(&d);
  if (st == WS_EFAULT) return rt->sticky = fault_error(&stats);
  if (st == WS_ENOMEM) return cudaErrorMemoryAllocation;
  if (st) return cudaErrorLaunchFailure;
  k->launches++;
  rt->launches++;
  if (k->ok && !isnan(k->pred.ms[0])) rt->clock_ms += k->pred.ms[0];
  return cudaSuccess;
}

/* --- the report ------------------------------------------------------------ */

/* Launch statistics summed over the cache entries of one (kernel, grid,
 * block, dynamic shared) configuration. */
typedef struct kgroup {
  size_t first;                 /* its first kstat */
  uint64_t launches;            /* launches */
  double total[RT_MAX_MODELS];  /* total predicted ms per model */
} kgroup;

static int same_group(const rt_kstat *a, const rt_kstat *b) {
  return a->func == b->func && !memcmp(a->grid, b->grid, sizeof a->grid) &&
         !memcmp(a->block, b->block, sizeof a->block) && a->dyn_shared == b->dyn_shared;
}

static cJSON *ms_object(const ws_rt *rt, const double *v, double div) {
  cJSON *o = cJSON_CreateObject();
  for (size_t m = 0; m < rt->nmodels; m++)
    if (!isnan(v[m])) cJSON_AddNumberToObject(o, rt->models[m], v[m] / div);
    else cJSON_AddNullToObject(o, rt->models[m]);
  return o;
}

static cJSON *dims(const uint32_t v[3]) {
  int iv[3] = {(int)v[0], (int)v[1], (int)v[2]};
  return cJSON_CreateIntArray(iv, 3);
}

static cJSON *kernel_json(const ws_rt *rt, const kgroup *g) {
  const rt_kstat *k = &rt->kstats[g->first];
  cJSON *o = cJSON_CreateObject();
  char *dm = ws_demangle(rt->funcs[k->func].name);
  cJSON_AddStringToObject(o, "name", rt->funcs[k->func].name);
  cJSON_AddStringToObject(o, "demangled", dm ? dm : rt->funcs[k->func].name);
  free(dm);
  cJSON_AddItemToObject(o, "grid", dims(k->grid));
  cJSON_AddItemToObject(o, "block", dims(k->block));
  cJSON_AddNumberToObject(o, "dynamic_shared", (double)k->dyn_shared);
  cJSON_AddNumberToObject(o, "launches", (double)g->launches);
  cJSON_AddItemToObject(o, "per_launch_ms", ms_object(rt, g->total, (double)g->launches));
  cJSON_AddItemToObject(o, "total_ms", ms_object(rt, g->total, 1));
  if (k->pred.bottleneck) cJSON_AddStringToObject(o, "bottleneck", k->pred.bottleneck);
  else cJSON_AddNullToObject(o, "bottleneck");
  return o;
}

/* The warpsight-exec/1 document (docs/exec.md, "Report"). */
static cJSON *report_json(const ws_rt *rt, double *total) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "schema", "warpsight-exec/1");
  cJSON_AddStringToObject(root, "gpu", rt->gpu ? rt->gpu->name : "");
  cJSON *ms = cJSON_AddArrayToObject(root, "models");
  for (size_t m = 0; m < rt->nmodels; m++) cJSON_AddItemToArray(ms, cJSON_CreateString(rt->models[m]));
  cJSON_AddStringToObject(root, "primary_model", rt->nmodels ? rt->models[0] : "");
  cJSON_AddNumberToObject(root, "launches", (double)rt->launches);
  cJSON_AddStringToObject(root, "sticky_error", cudaGetErrorName(rt->sticky));
  cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
  for (size_t m = 0; m < RT_MAX_MODELS; m++) total[m] = 0;
  for (size_t i = 0; i < rt->nkstats; i++) {
    size_t j = 0;
    while (j < i && !same_group(&rt->kstats[j], &rt->kstats[i])) j++;
    if (j < i || !rt->kstats[i].launches) continue; /* counted with its group */
    kgroup g = {i, 0, {0}};
    for (size_t t = i; t < rt->nkstats; t++) {
      const rt_kstat *k = &rt->kstats[t];
      if (!same_group(k, &rt->kstats[i])) continue;
      g.launches += k->launches;
      for (size_t m = 0; m < rt->nmodels; m++) g.total[m] += k->pred.ms[m] * (double)k->launches;
    }
    for (size_t m = 0; m < rt->nmodels; m++) total[m] += g.total[m];
    cJSON_AddItemToArray(ks, kernel_json(rt, &g));
  }
  cJSON_AddItemToObject(root, "total_ms", ms_object(rt, total, 1));
  return root;
}

void rt_report(ws_rt *rt) {
  double total[RT_MAX_MODELS];
  cJSON *root = report_json(rt, total);
  if (rt->json_out) {
    char *s = cJSON_Print(root);
    ws_diag d = WS_DIAG_INIT;
    ws_outfile o; /* a temporary file renamed into place (util/outfile.c) */
    if (!s) fprintf(stderr, "warpsight: error: cannot write %s: out of memory\n", rt->json_out);
    else if (ws_outfile_open(&o, rt->json_out, &d) == WS_OK) {
      fputs(s, o.f);
      fputc('\n', o.f);
      ws_outfile_commit(&o, &d);
    }
    for (size_t i = 0; i < d.count; i++)
      fprintf(stderr, "warpsight: error: %s: %s\n", d.items[i].file ? d.items[i].file : "", d.items[i].message);
    ws_diag_free(&d);
    free(s);
  } else if (!rt->quiet && rt->launches) {
    fprintf(stderr, "warpsight: %llu kernel launch%s on %s, predicted GPU time %.6g ms (%s); "
            "`warpsight exec` prints the table\n", (unsigned long long)rt->launches,
            rt->launches == 1 ? "" : "es", rt->gpu->name, total[0], rt->models[0]);
  }
  cJSON_Delete(root);
}
