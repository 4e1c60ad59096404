/*
 * counterfactual.c — the advisor's check of its own advice (issue 13 point
 * 4): a copy of the profile with one inefficiency removed, re-run through a
 * model, and the saving that model then predicts (docs/advisor.md).
 */
#include <math.h>

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
