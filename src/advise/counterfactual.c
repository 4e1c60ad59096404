/*
 * counterfactual.c — the advisor's check of its own advice (issue 13 point
 * 4): a copy of the profile with one inefficiency removed, re-run through a
 * model, and the saving that model then predicts (docs/advisor.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/advise.h"

static const char *const cf_names[WS_CF_COUNT] = {
    "perfect coalescing", "no bank conflicts", "no divergence", "no barriers"};

const char *ws_advise_cf_name(ws_cf_kind k) { return k < WS_CF_COUNT ? cf_names[k] : "?"; }

/* Uncoalesced global memory instructions become coalesced ones (Hong-Kim's
 * #Uncoal_Mem_insts -> #Coal_Mem_insts); transactions per request fall to
 * one per 128 bytes the request moves, never raised. */
static int cf_coalescing(ws_profile_fields *f) {
  int changed = 0;
  if (isfinite(f->uncoal_mem_insts) && f->uncoal_mem_insts > 0) {
    f->coal_mem_insts = (isfinite(f->coal_mem_insts) ? f->coal_mem_insts : 0) + f->uncoal_mem_insts;
    f->uncoal_mem_insts = 0;
    changed = 1;
  }
  if (isfinite(f->avg_trans_warp) && isfinite(f->load_bytes_per_warp)) {
    double min = fmax(1.0, ceil(f->load_bytes_per_warp / 128.0));
    if (f->avg_trans_warp > min) f->avg_trans_warp = min, changed = 1;
  }
  return changed;
}

/* Bank-conflict replays 0. */
static int cf_bank_conflicts(ws_profile_fields *f) {
  if (!isfinite(f->bank_conflict_replays) || f->bank_conflict_replays == 0) return 0;
  f->bank_conflict_replays = 0;
  return 1;
}

/* Divergence's extra warp instructions 0 (and no divergent branches). */
static int cf_divergence(ws_profile_fields *f) {
  if (!isfinite(f->divergent_extra_insts) || f->divergent_extra_insts == 0) return 0;
  f->divergent_extra_insts = 0;
  if (isfinite(f->divergent_branch_fraction)) f->divergent_branch_fraction = 0;
  return 1;
}

/* Barriers 0 (Hong-Kim #Synch_insts: eq. 26's cost goes). */
static int cf_barriers(ws_profile_fields *f) {
  if (!isfinite(f->synch_insts) || f->synch_insts == 0) return 0;
  f->synch_insts = 0;
  return 1;
}

int ws_advise_cf_apply(ws_profile_fields *f, ws_cf_kind k) {
  switch (k) {
  case WS_CF_COALESCING: return cf_coalescing(f);
  case WS_CF_BANK_CONFLICTS: return cf_bank_conflicts(f);
  case WS_CF_DIVERGENCE: return cf_divergence(f);
  case WS_CF_BARRIERS: return cf_barriers(f);
  default: return 0;
  }
}

int ws_advise_cf_saving(double *base_cycles, double *cf_cycles, const char *model, const ws_profile *p,
                 const ws_gpu *g, ws_cf_kind k, ws_diag *d) {
  *base_cycles = *cf_cycles = NAN;
  ws_profile cf = *p; /* shares p's owned pointers, read only; never freed */
  if (!ws_advise_cf_apply(&cf.f, k)) return WS_EMISSING;
  ws_model_result a = WS_MODEL_RESULT_INIT, b = WS_MODEL_RESULT_INIT;
  int st = ws_model_predict(&a, model, p, g, d);
  if (st == WS_OK) st = ws_model_predict(&b, model, &cf, g, d);
  if (st == WS_OK) *base_cycles = a.cycles, *cf_cycles = b.cycles;
  ws_model_result_free(&a);
  ws_model_result_free(&b);
  return st;
}

/* The table ------------------------------------------------------------- */

/* One counterfactual's savings (ms) per result; NAN where it was not run. */
static void cf_savings(double *sv, const ws_profile *p, const ws_gpu *g, ws_cf_kind k,
                       const ws_model_result *res, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double base, cf;
    ws_diag d = WS_DIAG_INIT;
    sv[i] = NAN;
    if (ws_advise_cf_saving(&base, &cf, res[i].model, p, g, k, &d) == WS_OK && base > 0)
      sv[i] = res[i].time_ms * (base - cf) / base;
    ws_diag_free(&d);
  }
}

/* Do the savings differ by more than 2x (or in sign)? */
static int cf_disagree(const double *sv, size_t n) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    if (isfinite(sv[i])) lo = fmin(lo, sv[i]), hi = fmax(hi, sv[i]);
  if (!isfinite(lo)) return 0;
  return (lo <= 0 && hi > 0) || (lo > 0 && hi > 2 * lo);
}

int ws_advise_cf_table_compute(ws_cf_table *out, const ws_profile *p, const ws_gpu *g,
                        const ws_model_result *res, size_t n) {
  memset(out, 0, sizeof *out);
  if (!n) return WS_EINVAL;
  out->res = res;
  out->n = n;
  for (size_t i = 0; i < n; i++) /* warpsight: the lowest validated error (docs/validation.md) */
    if (!strcmp(res[i].model, "warpsight")) out->trusted = i;
  double *sv = out->saving_ms = calloc(WS_CF_COUNT * n, sizeof *sv);
  if (!sv) return WS_ENOMEM;
  size_t *order = out->order, trusted = out->trusted;
  for (size_t k = 0; k < WS_CF_COUNT; k++) {
    cf_savings(sv + k * n, p, g, (ws_cf_kind)k, res, n);
    order[k] = k;
  }
  for (size_t a = 1; a < WS_CF_COUNT; a++) /* by the trusted model's saving, largest first */
    for (size_t b = a; b > 0; b--) {
      double x = sv[order[b] * n + trusted], y = sv[order[b - 1] * n + trusted];
      if (!(isfinite(x) && (!isfinite(y) || x > y))) break;
      size_t t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
    }
  for (size_t k = 0; k < WS_CF_COUNT; k++) out->disagree[k] = cf_disagree(sv + k * n, n);
  double lo = INFINITY, hi = 0; /* the base predictions' spread */
  for (size_t i = 0; i < n; i++)
    if (isfinite(res[i].time_ms) && res[i].time_ms > 0)
      lo = fmin(lo, res[i].time_ms), hi = fmax(hi, res[i].time_ms);
  out->base_lo = lo;
  out->base_hi = hi;
  return WS_OK;
}

void ws_advise_cf_table_free(ws_cf_table *t) {
  if (!t) return;
  free(t->saving_ms);
  t->saving_ms = NULL;
}
