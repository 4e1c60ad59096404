/*
 * model.c — the model registry (models.def), result helpers, and the launch
 * context every model shares (active blocks, active SMs, N, #Rep).
 */
#include "warpsight/model.h"

#include "util/strbuf.h"
#include "util/vec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL(fn, name, title) int fn(ws_model_result *, const ws_profile *, const ws_gpu *, ws_diag *);
#include "models.def"
#undef MODEL

static const ws_model_info registry[] = {
#define MODEL(fn, name, title) {name, title, fn},
#include "models.def"
#undef MODEL
    {NULL, NULL, NULL}};

size_t ws_model_count(void) { return sizeof registry / sizeof registry[0] - 1; }

const ws_model_info *ws_model_at(size_t i) {
  return i < ws_model_count() ? &registry[i] : NULL;
}

const ws_model_info *ws_model_find(const char *name) {
  for (size_t i = 0; i < ws_model_count(); i++)
    if (strcmp(registry[i].name, name) == 0) return &registry[i];
  return NULL;
}

int ws_model_predict(ws_model_result *out, const char *name, const ws_profile *p,
                     const ws_gpu *g, ws_diag *d) {
  const ws_model_info *m = ws_model_find(name);
  if (!m) {
    char list[512] = "";
    for (size_t i = 0; i < ws_model_count(); i++) {
      if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
      strncat(list, registry[i].name, sizeof list - strlen(list) - 1);
    }
    return ws_diag_error(d, "unknown model '%s' (known models: %s, or 'all')", name, list);
  }
  out->model = m->name;
  out->cycles = out->time_ms = NAN;
  int st = m->predict(out, p, g, d);
  /* A run time is a finite positive number: anything else (a zero
   * throughput parameter dividing, an overflow) is this model's failure,
   * never a NaN or an infinity printed as a prediction. */
  if (st == WS_OK && !(isfinite(out->cycles) && out->cycles > 0 && isfinite(out->time_ms) &&
                       out->time_ms > 0))
    st = ws_diag_error(d, "model %s: the prediction is not a finite positive number (%g cycles, "
                          "%g ms): an input it divides by is zero, or one is so large that "
                          "the arithmetic overflows; check the GPU's models.%s parameters and "
                          "the profile",
                       m->name, isnan(out->cycles) ? fabs(out->cycles) : out->cycles,
                       isnan(out->time_ms) ? fabs(out->time_ms) : out->time_ms, m->name);
  return st;
}

void ws_model_result_free(ws_model_result *r) {
  if (!r) return;
  free(r->terms);
  for (size_t i = 0; i < r->nmissing; i++) free(r->missing[i]);
  free(r->missing);
  free(r->case_label);
  *r = (ws_model_result)WS_MODEL_RESULT_INIT;
}

static const ws_term_info term_table[WS_TERM_COUNT] = {
#define TERM(model, id, name, unit, eq, meaning) {#model, name, unit, eq, meaning},
#include "warpsight/model_terms.def"
#undef TERM
};

static const ws_bound_info bound_table[WS_BOUND_COUNT] = {
    {"", "", "", ""},
#define BOUND(model, id, name, limiter, advice) {#model, name, limiter, advice},
#include "warpsight/model_bounds.def"
#undef BOUND
};

const ws_term_info *ws_model_term_info(ws_term_id id) {
  return (unsigned)id < WS_TERM_COUNT ? &term_table[id] : NULL;
}

const ws_bound_info *ws_model_bound_info(ws_model_bound b) {
  return (unsigned)b < WS_BOUND_COUNT ? &bound_table[b] : NULL;
}

int ws_model_family_of(const char *family, const char *model) {
  if (!family || !model) return 0;
  size_t i = 0;
  for (; family[i] && model[i]; i++) {
    char f = family[i] == '_' ? '-' : (char)tolower((unsigned char)family[i]);
    if (f != model[i]) return 0;
  }
  return !family[i] && (!model[i] || model[i] == '-');
}

const char *ws_model_limiter(const ws_model_result *r) {
  const ws_bound_info *b = r ? ws_model_bound_info(r->bound) : NULL;
  return b ? b->limiter : "";
}

int ws_model_term_add_eq(ws_model_result *r, ws_term_id id, double value,
                         const char *equation) {
  const ws_term_info *info = ws_model_term_info(id);
  if (!info) return WS_EINVAL;
  ws_model_term t = {id, value, equation ? equation : info->equation};
  return WS_VEC_PUSH(r->terms, r->nterms, r->cap, t);
}

int ws_model_term_add(ws_model_result *r, ws_term_id id, double value) {
  return ws_model_term_add_eq(r, id, value, NULL);
}

int ws_model_terms_add(ws_model_result *r, const ws_model_term_val *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int rc = ws_model_term_add_eq(r, t[i].id, t[i].value, t[i].equation);
    if (rc != WS_OK) return rc;
  }
  return WS_OK;
}

double ws_model_term_value(const ws_model_result *r, ws_term_id id) {
  for (size_t i = 0; r && i < r->nterms; i++)
    if (r->terms[i].id == id) return r->terms[i].value;
  return NAN;
}

int ws_model_set_case(ws_model_result *r, ws_model_bound bound,
                      const char *case_label) {
  free(r->case_label);
  r->bound = bound;
  r->case_label = ws_strdup(case_label ? case_label : "");
  return r->case_label ? WS_OK : WS_ENOMEM;
}

int ws_model_missing(ws_model_result *r, const char *path, ws_diag *d) {
  /* Each input once: a cost missing for every task is one missing key. */
  for (size_t i = 0; i < r->nmissing; i++)
    if (strcmp(r->missing[i], path) == 0) return WS_EMISSING;
  char *copy = ws_strdup(path);
  if (!copy || WS_VEC_PUSH(r->missing, r->nmissing, r->missing_cap, copy)) {
    free(copy);
    return WS_ENOMEM;
  }
  ws_diag_add(d, WS_SEV_ERROR, NULL, 0, 0, "%s: needs %s, which is missing",
              r->model ? r->model : "model", path);
  return WS_EMISSING;
}

int ws_model_missing_gpu(ws_model_result *r, const ws_gpu *g, const char *model,
                         const char *key, ws_diag *d) {
  char path[384];
  /* a parameter that does not exist on this GPU (a double-precision cost
   * without FP64 units) is missing for that reason: its note says it */
  int id = ws_gpu_param_find(model, key);
  const ws_gp_value *pv = id >= 0 ? &g->params[id] : NULL;
  const char *why = pv && pv->origin == WS_GP_ABSENT ? pv->note : NULL;
  snprintf(path, sizeof path, "gpu %s: models.%s.%s%s%s%s", g->name, model, key, why ? " (" : "", why ? why : "",
           why ? ")" : "");
  return ws_model_missing(r, path, d);
}

double ws_model_transaction_bytes(const ws_gpu *g) {
  double tb = ws_gpu_p(g, WS_GP_GPUPERF_TRANSACTION_BYTES);
  if (isfinite(tb)) return tb;
  return g->cache.l2_sector_bytes > 0 ? g->cache.l2_sector_bytes : 32.0;
}

int ws_model_missing_gp(ws_model_result *r, const ws_gpu *g, ws_gp_id id, ws_diag *d) {
  return ws_model_missing_gpu(r, g, ws_gpu_param_table[id].model, ws_gpu_param_table[id].key, d);
}

double ws_model_gpu_param(ws_model_result *r, const ws_gpu *g, ws_gp_id id,
                          int *missing, ws_diag *d) {
  double v = ws_gpu_p(g, id);
  if (isfinite(v)) return v;
  ws_model_missing_gp(r, g, id, d);
  *missing = 1;
  return NAN;
}

double ws_model_need(ws_model_result *r, double v, const char *path,
                     int *missing, ws_diag *d) {
  if (ws_pf_has(v)) return v;
  ws_model_missing(r, path, d);
  *missing = 1;
  return NAN;
}

int ws_model_launch_ctx_compute(ws_model_launch_ctx *out, const ws_profile *p,
                          const ws_gpu *g, ws_diag *d) {
  *out = (ws_model_launch_ctx){0};
  out->blocks = (double)p->blocks;
  out->threads_per_block = (double)p->threads_per_block;
  out->warps_per_block = ceil(out->threads_per_block / g->warp_size);
  out->total_warps = out->blocks * out->warps_per_block;

  if (ws_pf_has(p->f.active_sms)) {
    out->active_sms = p->f.active_sms;
  } else {
    out->active_sms = out->blocks < g->sms ? out->blocks : g->sms;
  }
  if (ws_pf_has(p->f.active_blocks_per_sm)) {
    out->active_blocks_per_sm = p->f.active_blocks_per_sm;
    out->occupancy_source = "profile";
  } else {
    ws_occupancy_in in = {
        .threads_per_block = p->threads_per_block > 0x7fffffff ? 0x7fffffff : (int)p->threads_per_block,
        .regs_per_thread = ws_pf_has(p->f.registers_per_thread) ? (int)p->f.registers_per_thread : 0,
        .shared_bytes_per_block = ws_pf_has(p->f.shared_bytes_per_block) ? (int)p->f.shared_bytes_per_block : 0};
    ws_occupancy occ;
    int r = ws_gpu_occupancy_compute(&occ, &g->limits, g->warp_size, &in, d);
    if (r) return r;
    /* A grid smaller than the machine leaves fewer blocks on each SM. */
    double per_sm = ceil(out->blocks / out->active_sms);
    out->active_blocks_per_sm = occ.active_blocks_per_sm < per_sm ? occ.active_blocks_per_sm : per_sm;
    switch (occ.limiter) {
    case WS_OCC_BLOCKS: out->occupancy_source = "computed (limited by blocks per SM)"; break;
    case WS_OCC_WARPS: out->occupancy_source = "computed (limited by warps per SM)"; break;
    case WS_OCC_REGISTERS: out->occupancy_source = "computed (limited by registers)"; break;
    case WS_OCC_SHARED: out->occupancy_source = "computed (limited by shared memory)"; break;
    }
    if (per_sm < occ.active_blocks_per_sm) out->occupancy_source = "computed (limited by the grid size)";
  }
  out->active_warps_per_sm = out->active_blocks_per_sm * out->warps_per_block;
  out->rep = out->blocks / (out->active_blocks_per_sm * out->active_sms); /* (21) */
  return WS_OK;
}
