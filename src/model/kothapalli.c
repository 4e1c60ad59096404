/*
 * kothapalli.c — the BSP/PRAM/QRQW model of K. Kothapalli, R. Mukherjee,
 * M. S. Rehman, S. Patidar, P. J. Narayanan, K. Srinathan, "A Performance
 * Prediction Model for the CUDA GPGPU Platform", HiPC 2009.
 *
 * A thread's cost is its computation cycles N_comp (a per-operation cycle
 * table) and its memory cycles N_memory (global accesses at G cycles, or
 * (G + k)/k when k threads share a transaction; shared accesses at S cycles,
 * S·k under a k-way bank conflict).  The MAX model takes C_T = max of the two
 * (latency fully hidden), the SUM model their sum (nothing hidden).  The
 * kernel then costs N_B · N_w · N_t · C_T / (N_C · D) cycles (3), and
 * T = C / R (4).
 *
 * The inputs come from the profile's "kothapalli" section, which describes
 * the costliest thread (eq. (2) takes the maximum over threads); the format
 * is in docs/profile.md and the choices in docs/models/kothapalli.md.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "warpsight/gpu.h"
#include "util/json.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
#include "model/section.h"

int ws_model_kothapalli_max(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d);
int ws_model_kothapalli_sum(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d);

#define SECTION "kothapalli"

typedef struct kp_thread {
  double n_comp;      /* N_comp: computation cycles of the thread */
  double n_global;    /* global-memory part of N_memory */
  double n_shared;    /* shared-memory part of N_memory */
  double n_memory;    /* N_memory = n_global + n_shared */
} kp_thread;

/* models.kothapalli.KEY of the GPU, or recorded as missing. */
static int gpu_need(double *out, ws_model_result *r, const ws_gpu *g,
                    const char *key, ws_diag *d) {
  double v = ws_gpu_param_or(g, "kothapalli", key, NAN);
  if (isfinite(v) && v >= 0) {
    *out = v;
    return WS_OK;
  }
  ws_model_missing_gpu(r, g, "kothapalli", key, d);
  return WS_EMISSING;
}

/* Σ count × cost over one of the access lists.  `degree_key` is the field
 * naming k; `global` selects the cost rule. */
static int sum_accesses(double *out, const cJSON *list, const char *path,
                        const char *degree_key, int global, double unit,
                        const char *origin, ws_diag *d) {
  *out = 0.0;
  if (!list) return WS_OK;
  if (!cJSON_IsArray(list))
    return ws_json_error(d, origin, path, NULL, "expected an array of objects");
  int i = 0, rc;
  const cJSON *it;
  cJSON_ArrayForEach(it, list) {
    char ipath[96];
    snprintf(ipath, sizeof ipath, "%s[%d]", path, i++);
    if (!cJSON_IsObject(it))
      return ws_json_error(d, origin, ipath, NULL, "expected an object");
    double count = 0, k = 1;
    rc = ws_json_get_number(it, ipath, "count", 1, WS_JSON_NONNEG, &count, origin, d);
    if (rc != WS_OK) return rc;
    rc = ws_json_get_number(it, ipath, degree_key, 0, WS_JSON_POSITIVE, &k, origin, d);
    if (rc == WS_EINVAL) return rc;
    if (k < 1)
      return ws_json_error(d, origin, ipath, degree_key, "expected a number >= 1, got %g", k);
    double cost;
    if (global) /* 3.2.2: a lone access costs G; k sharing one costs (G+k)/k each */
      cost = k == 1 ? unit : (unit + k) / k;
    else        /* QRQW with a linear contention function: S·k */
      cost = unit * k;
    *out += count * cost;
  }
  return WS_OK;
}

static int read_thread(kp_thread *t, ws_model_result *r, const ws_profile *p,
                       const ws_gpu *g, ws_diag *d) {
  char origin[160];
  profile_origin(origin, sizeof origin, p);
  memset(t, 0, sizeof *t);
  const cJSON *sec = NULL;
  int rc = ws_json_get_object(p->root, "", SECTION, 0, &sec, origin, d);
  if (rc == WS_EINVAL) return rc;
  if (!sec) {
    ws_model_missing(r, SECTION, d);
    return WS_EMISSING;
  }

  /* N_comp: operations per thread times the GPU's cycles per operation. */
  const cJSON *ops = NULL;
  rc = ws_json_get_object(sec, SECTION, "ops_per_thread", 0, &ops, origin, d);
  if (rc == WS_EINVAL) return rc;
  int miss = 0;
  const cJSON *op;
  cJSON_ArrayForEach(op, ops) {
    double count;
    rc = ws_json_get_number(ops, SECTION ".ops_per_thread", op->string, 1,
                            WS_JSON_NONNEG, &count, origin, d);
    if (rc != WS_OK) return rc;
    char key[128];
    snprintf(key, sizeof key, "op_cycles.%s", op->string);
    double cyc;
    if (gpu_need(&cyc, r, g, key, d) != WS_OK) {
      miss++;
      continue;
    }
    t->n_comp += count * cyc;
  }
  double direct = 0.0;
  rc = ws_json_get_number(sec, SECTION, "comp_cycles", 0, WS_JSON_NONNEG, &direct, origin, d);
  if (rc == WS_EINVAL) return rc;
  t->n_comp += direct;

  /* N_memory: global and shared accesses. */
  const cJSON *gl = cJSON_GetObjectItemCaseSensitive(sec, "global_accesses");
  const cJSON *sh = cJSON_GetObjectItemCaseSensitive(sec, "shared_accesses");
  double gcyc = 0, scyc = 0;
  if (cJSON_GetArraySize(gl) > 0 && gpu_need(&gcyc, r, g, "global_cycles", d) != WS_OK) miss++;
  if (cJSON_GetArraySize(sh) > 0 && gpu_need(&scyc, r, g, "shared_cycles", d) != WS_OK) miss++;
  if (miss) return WS_EMISSING;
  rc = sum_accesses(&t->n_global, gl, SECTION ".global_accesses",
                    "threads_per_transaction", 1, gcyc, origin, d);
  if (rc != WS_OK) return rc;
  rc = sum_accesses(&t->n_shared, sh, SECTION ".shared_accesses",
                    "conflict_degree", 0, scyc, origin, d);
  if (rc != WS_OK) return rc;
  t->n_memory = t->n_global + t->n_shared;
  if (!(t->n_comp + t->n_memory > 0))
    return ws_json_error(d, origin, SECTION, NULL,
                         "the thread has no work (no operations, cycles or accesses)");
  return WS_OK;
}

static int predict(ws_model_result *out, const ws_profile *p, const ws_gpu *g,
                   ws_diag *d, int use_sum) {
  kp_thread t;
  int rc = read_thread(&t, out, p, g, d);
  double depth = 0;
  int rc2 = gpu_need(&depth, out, g, "pipeline_depth", d);
  if (rc != WS_OK) return rc;
  if (rc2 != WS_OK) return rc2;
  if (!(depth > 0) || g->cores_per_sm <= 0)
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "kothapalli: GPU '%s' needs positive cores_per_sm and models.kothapalli.pipeline_depth",
                       g->name);

  ws_model_launch_ctx ctx;
  rc = ws_model_launch_ctx_compute(&ctx, p, g, d);
  if (rc != WS_OK) return rc;

  double c_t = use_sum ? t.n_comp + t.n_memory                        /* SUM */
                       : fmax(t.n_comp, t.n_memory);                  /* MAX */
  double n_b = ceil(ctx.blocks / ctx.active_sms); /* blocks each SM runs in sequence */
  double n_w = ctx.warps_per_block;
  double n_t = g->warp_size;
  double n_c = g->cores_per_sm;
  double c_k = n_b * n_w * n_t * c_t / (n_c * depth);                 /* (3) */
  double t_k = c_k / (g->clock_ghz * 1e6);                            /* (4), ms */

  if (!isfinite(c_k))
    return ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0,
                       "kothapalli: the prediction is not a finite number (C(K) = %g cycles); "
                       "the kothapalli section's counts are out of range", c_k);

  const ws_model_term_def terms[] = {
    {"n_comp", t.n_comp, "3.2.1", "cycles"},
    {"n_memory_global", t.n_global, "3.2.2", "cycles"},
    {"n_memory_shared", t.n_shared, "3.2.2", "cycles"},
    {"n_memory", t.n_memory, "3.2.2", "cycles"},
    {"c_t", c_t, "(2)", "cycles"},
    {"n_b", n_b, "(3)", "blocks"},
    {"n_w", n_w, "(3)", "warps"},
    {"n_t", n_t, "(3)", "threads"},
    {"n_c", n_c, "(3)", "cores"},
    {"pipeline_depth", depth, "(3)", "stages"},
    {"c_k", c_k, "(3)", "cycles"},
    {"t_k", t_k, "(4)", "ms"},
  };
  rc = ws_model_terms_add(out, terms, sizeof terms / sizeof terms[0]);
  if (rc != WS_OK) return rc;
  const char *limiter = t.n_comp >= t.n_memory ? "computation" : "memory";
  rc = ws_model_set_labels(out,
                           use_sum ? "SUM: C_T = N_comp + N_memory (no latency hiding)"
                                   : "MAX: C_T = max(N_comp, N_memory) (latency hidden)",
                           limiter);
  if (rc != WS_OK) return rc;
  out->cycles = c_k;
  out->time_ms = t_k;
  return WS_OK;
}

int ws_model_kothapalli_max(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d) {
  return predict(out, p, g, d, 0);
}

int ws_model_kothapalli_sum(ws_model_result *out, const ws_profile *p,
                            const ws_gpu *g, ws_diag *d) {
  return predict(out, p, g, d, 1);
}
