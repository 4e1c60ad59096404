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
    "perfect coalescing", "no bank conflicts", "no divergence", "no barriers", "maximum ILP",
    "maximum occupancy"};

const char *ws_advise_cf_name(ws_cf_kind k) { return k < WS_CF_COUNT ? cf_names[k] : "?"; }

/* Uncoalesced global memory instructions become coalesced ones (Hong-Kim's
 * #Uncoal_Mem_insts -> #Coal_Mem_insts).  With the GPU's transaction size
 * (unit > 0: the profile counts transactions in the GPU's own unit, 128-B
 * lines on Fermi, 32-B sectors from CC 3.0, docs/profile.md), transactions
 * per request fall to what the bytes a request moves need,
 * max(1, ceil(load_bytes_per_warp / unit)); never raised.  Without it
 * (unit 0) they are left alone: 128 bytes in 32-B sectors are 4, not 1. */
static int cf_coalescing(ws_profile_fields *f, double unit) {
  int changed = 0;
  if (isfinite(f->uncoal_mem_insts) && f->uncoal_mem_insts > 0) {
    f->coal_mem_insts = (isfinite(f->coal_mem_insts) ? f->coal_mem_insts : 0) + f->uncoal_mem_insts;
    f->uncoal_mem_insts = 0;
    changed = 1;
  }
  if (unit > 0 && isfinite(f->avg_trans_warp) && isfinite(f->load_bytes_per_warp)) {
    double min = fmax(1.0, ceil(f->load_bytes_per_warp / unit));
    if (f->avg_trans_warp > min) {
      /* L2 sees the requests' sectors (L1 misses, stores, atomics): fewer
       * in the same proportion.  L1 sectors count loads only and the
       * profile does not say how much of the excess is theirs: kept. */
      if (ws_pf_has(f->l2_sectors_per_warp)) f->l2_sectors_per_warp *= min / f->avg_trans_warp;
      f->avg_trans_warp = min, changed = 1;
    }
  }
  return changed;
}

/* Bank-conflict replays 0. */
static int cf_bank_conflicts(ws_profile_fields *f) {
  if (!isfinite(f->bank_conflict_replays) || f->bank_conflict_replays == 0) return 0;
  f->bank_conflict_replays = 0;
  return 1;
}

/* Divergence's extra warp instructions 0 (and no divergent branches).
 * divergent_extra_insts counts the issue slots lost to inactive lanes
 * (docs/profile.md) and they are part of comp_insts (GPUPerf subtracts them
 * from #insts to charge them once, as O_CFdiv): without divergence the same
 * lane work takes that many fewer warp instructions, so comp_insts falls by
 * them too (at most to 0).  Left in comp_insts, the saving would be 0 for
 * Hong-Kim and warpsight and negative for GPUPerf. */
static int cf_divergence(ws_profile_fields *f) {
  if (!isfinite(f->divergent_extra_insts) || f->divergent_extra_insts == 0) return 0;
  if (isfinite(f->comp_insts)) f->comp_insts = fmax(0.0, f->comp_insts - f->divergent_extra_insts);
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

/* No dependency stalls (docs/advisor.md): a warp issues its instructions
 * back to back and waits on at most one load latency.  Sim et al.'s ILP
 * (5.3, instructions over the critical path of a basic block) becomes the
 * warp's instruction count I, a path of one instruction.  The dependency
 * path (warpsight [L2]) is lowered to the warp's own issue slots -- I plus
 * the bank-conflict replays and the serialized shared atomics' extra
 * passes, which take slots whatever the dependencies (warpsight [C1]) --
 * and to one load.  Never raised. */
static int cf_ilp(ws_profile_fields *f) {
  double insts = 0;
  if (ws_pf_has(f->comp_insts)) insts += f->comp_insts;
  if (ws_pf_has(f->coal_mem_insts)) insts += f->coal_mem_insts;
  if (ws_pf_has(f->uncoal_mem_insts)) insts += f->uncoal_mem_insts;
  if (!(insts >= 1)) return 0;
  double slots = insts + (ws_pf_has(f->bank_conflict_replays) ? f->bank_conflict_replays : 0);
  if (ws_pf_has(f->shared_atomic_serial) && ws_pf_has(f->shared_atomic_insts))
    slots += fmax(0.0, f->shared_atomic_serial - f->shared_atomic_insts);
  int changed = 0;
  if (!ws_pf_has(f->ilp) || f->ilp < insts) f->ilp = insts, changed = 1;
  if (ws_pf_has(f->path_cycles) && f->path_cycles > slots) f->path_cycles = slots, changed = 1;
  if (ws_pf_has(f->path_mem_loads) && f->path_mem_loads > 1) f->path_mem_loads = 1, changed = 1;
  return changed;
}

/* The most blocks of this size an SM holds when registers and shared memory
 * do not limit (the block and warp limits of g's compute capability), and
 * no more than the grid gives each SM (as ws_launch_ctx_compute caps). */
static int cf_occupancy(ws_profile *p, const ws_gpu *g, ws_diag *d) {
  ws_model_launch_ctx lc;
  int st = ws_model_launch_ctx_compute(&lc, p, g, d);
  if (st) return st;
  ws_occupancy_in in = {.threads_per_block = p->threads_per_block > 0x7fffffff
                                                 ? 0x7fffffff
                                                 : (int)p->threads_per_block};
  ws_occupancy occ;
  if ((st = ws_gpu_occupancy_compute(&occ, &g->limits, g->warp_size, &in, d))) return st;
  double most = fmin(occ.active_blocks_per_sm, ceil(lc.blocks / lc.active_sms));
  if (!(most > lc.active_blocks_per_sm)) return 0;
  p->f.active_blocks_per_sm = most;
  return 1;
}

int ws_advise_cf_apply_launch(ws_profile *p, const ws_gpu *g, ws_cf_kind k, ws_diag *d) {
  if (k == WS_CF_OCCUPANCY) return cf_occupancy(p, g, d);
  if (k == WS_CF_COALESCING) return cf_coalescing(&p->f, ws_model_transaction_bytes(g));
  return ws_advise_cf_apply(&p->f, k);
}

int ws_advise_cf_apply(ws_profile_fields *f, ws_cf_kind k) {
  switch (k) {
  case WS_CF_COALESCING: return cf_coalescing(f, 0);
  case WS_CF_BANK_CONFLICTS: return cf_bank_conflicts(f);
  case WS_CF_DIVERGENCE: return cf_divergence(f);
  case WS_CF_BARRIERS: return cf_barriers(f);
  case WS_CF_ILP: return cf_ilp(f);
  default: return 0;
  }
}

int ws_advise_cf_saving(double *base_cycles, double *cf_cycles, const char *model, const ws_profile *p,
                 const ws_gpu *g, ws_cf_kind k, ws_diag *d) {
  if (base_cycles) *base_cycles = NAN;
  *cf_cycles = NAN;
  ws_profile cf = *p; /* shares p's owned pointers, read only; never freed */
  int ch = ws_advise_cf_apply_launch(&cf, g, k, d);
  if (ch < 0) return ch;
  if (!ch) return WS_EMISSING;
  ws_model_result a = WS_MODEL_RESULT_INIT, b = WS_MODEL_RESULT_INIT;
  int st = base_cycles ? ws_model_predict(&a, model, p, g, d) : WS_OK;
  if (st == WS_OK) st = ws_model_predict(&b, model, &cf, g, d);
  if (st == WS_OK) {
    if (base_cycles) *base_cycles = a.cycles;
    *cf_cycles = b.cycles;
  }
  ws_model_result_free(&a);
  ws_model_result_free(&b);
  return st;
}

/* The table ------------------------------------------------------------- */

/* One counterfactual's savings (ms) per result; NAN where it was not run.
 * The base is the result itself (res are p's predictions on g), so each
 * model runs once per counterfactual, on the changed profile only. */
static void cf_savings(double *sv, const ws_profile *p, const ws_gpu *g, ws_cf_kind k,
                       const ws_model_result *res, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double base = res[i].cycles, cf;
    ws_diag d = WS_DIAG_INIT;
    sv[i] = NAN;
    if (base > 0 && ws_advise_cf_saving(NULL, &cf, res[i].model, p, g, k, &d) == WS_OK)
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
