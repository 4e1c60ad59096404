/*
 * counterfactual.c — the advisor's changes (docs/advisor.md): a copy of the
 * profile with one inefficiency removed (or, for the launch, the profile
 * of the same work at another block size), re-run through every model;
 * the saving each model then predicts, and where the models that see the
 * change disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/advise.h"

static const char *const cf_names[WS_CF_COUNT] = {
    "perfect coalescing", "no bank conflicts",   "no divergence",      "no barriers",
    "maximum ILP",        "more loads in flight", "maximum occupancy",  "distinct atomic addresses",
    "warp-aggregated atomics", "atomics privatised per block", "best block size"};

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

/* More loads in flight (docs/advisor.md): a line whose loads lie on a
 * block's longest path more than once (a load in a loop) issues
 * WS_ADVICE_MLP_FACTOR of them before the first is used, as unrolling its
 * loop by that factor does: its loads on the path fall to 1 / factor, at
 * least one.  Loads on the path once (straight-line code, a dependent
 * chain) stay, and so do those of a loop that already issues the factor's
 * loads per trip (an unrolled body) or runs fewer trips per entry than it
 * would be unrolled by (ws_advise_mlp_unroll).  Sim et al.'s MLP (GPUPerf's ITMLP) grows by the factor.
 * Needs the per-line table (profile section "lines"). */
static int cf_mlp(ws_profile *p) {
  ws_profile_fields *f = &p->f;
  if (!p->lines || !ws_pf_has(f->path_mem_loads) || !(f->path_mem_loads > 1)) return 0;
  double before = 0, after = 0;
  for (size_t i = 0; i < p->lines->nrows; i++) {
    double pl = p->lines->rows[i].path_mem_loads;
    before += pl;
    after += ws_advise_mlp_unroll(&p->lines->rows[i]) > 0 ? fmax(1.0, pl / WS_ADVICE_MLP_FACTOR) : pl;
  }
  if (!(before > 0) || !(after < before)) return 0;
  f->path_mem_loads *= after / before; /* the table's sum is the field (docs/profile.md) */
  if (ws_pf_has(f->mlp)) f->mlp *= WS_ADVICE_MLP_FACTOR;
  return 1;
}

/* The launch's most-updated address takes its operations in the same
 * proportion as the serialized operations per warp go from `from` to `to`
 * (docs/advisor.md): one lane per address per request leaves one update
 * per request, a per-block merge one per block. */
static void cf_hot_scale(ws_profile_fields *f, double from, double to) {
  if (ws_pf_has(f->global_atomic_max_address_ops) && from > 0 && to < from)
    f->global_atomic_max_address_ops = fmax(1, f->global_atomic_max_address_ops * to / from);
}

/* Global and shared atomics on distinct addresses: per request one lane
 * operation serializes (docs/advisor.md). */
static int cf_atomic_distinct(ws_profile_fields *f) {
  int changed = 0;
  if (ws_pf_has(f->global_atomic_serial) && ws_pf_has(f->global_atomic_insts) &&
      f->global_atomic_serial > f->global_atomic_insts) {
    cf_hot_scale(f, f->global_atomic_serial, f->global_atomic_insts);
    f->global_atomic_serial = f->global_atomic_insts, changed = 1;
  }
  if (ws_pf_has(f->shared_atomic_serial) && ws_pf_has(f->shared_atomic_insts) &&
      f->shared_atomic_serial > f->shared_atomic_insts)
    f->shared_atomic_serial = f->shared_atomic_insts, changed = 1;
  return changed;
}

/* Warp-aggregated atomics: the lanes of a request combine their values
 * first (a tree of WS_ADVICE_WARP_AGG_INSTS shuffles and operations, e.g.
 * __reduce_add_sync or five __shfl_down_sync steps), then one lane updates:
 * the conflicts of distinct addresses, plus those instructions per atomic
 * request that had conflicts. */
static int cf_atomic_warp(ws_profile_fields *f) {
  double g = ws_pf_has(f->global_atomic_insts) ? f->global_atomic_insts : 0;
  double s = ws_pf_has(f->shared_atomic_insts) ? f->shared_atomic_insts : 0;
  double gx = ws_pf_has(f->global_atomic_serial) && f->global_atomic_serial > g ? g : 0;
  double sx = ws_pf_has(f->shared_atomic_serial) && f->shared_atomic_serial > s ? s : 0;
  if (!cf_atomic_distinct(f)) return 0;
  if (ws_pf_has(f->comp_insts)) f->comp_insts += WS_ADVICE_WARP_AGG_INSTS * (gx + sx);
  return 1;
}

/* Atomics privatised per block: each block updates its own copy of the
 * targets in shared memory and merges it once (docs/advisor.md): the global
 * atomic requests and their conflicts become shared ones; the merge writes
 * the D distinct addresses a block's atomics update
 * (memory.atomic_addresses_per_block) in ceil(D / 32) global requests on
 * distinct addresses per block, shared by its warps (without D: one per
 * warp); two barriers per block (the copy cleared, then complete before the
 * merge).  Only when the merge is less than what the warps issue now. */
static int cf_atomic_private(ws_profile_fields *f, double warps_per_block) {
  if (!ws_pf_has(f->global_atomic_insts) || !ws_pf_has(f->global_atomic_serial)) return 0;
  double g = f->global_atomic_insts, gs = f->global_atomic_serial;
  double merge = ws_pf_has(f->atomic_addresses_per_block) && warps_per_block > 0
                     ? ceil(f->atomic_addresses_per_block / 32) / warps_per_block
                     : 1.0;
  merge = fmin(g, merge);
  if (!(g > merge || gs > merge)) return 0;
  f->shared_atomic_insts = (ws_pf_has(f->shared_atomic_insts) ? f->shared_atomic_insts : 0) + g;
  f->shared_atomic_serial = (ws_pf_has(f->shared_atomic_serial) ? f->shared_atomic_serial : 0) + gs;
  cf_hot_scale(f, gs, merge);
  f->global_atomic_insts = merge;
  f->global_atomic_serial = merge;
  f->synch_insts = (ws_pf_has(f->synch_insts) ? f->synch_insts : 0) + 2;
  return 1;
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
  if (k == WS_CF_MLP) return cf_mlp(p);
  if (k == WS_CF_ATOMIC_PRIVATE) return cf_atomic_private(&p->f, ceil((double)p->threads_per_block / 32));
  return ws_advise_cf_apply(&p->f, k);
}

int ws_advise_cf_apply(ws_profile_fields *f, ws_cf_kind k) {
  switch (k) {
  case WS_CF_COALESCING: return cf_coalescing(f, 0);
  case WS_CF_BANK_CONFLICTS: return cf_bank_conflicts(f);
  case WS_CF_DIVERGENCE: return cf_divergence(f);
  case WS_CF_BARRIERS: return cf_barriers(f);
  case WS_CF_ILP: return cf_ilp(f);
  case WS_CF_ATOMIC_DISTINCT: return cf_atomic_distinct(f);
  case WS_CF_ATOMIC_WARP: return cf_atomic_warp(f);
  case WS_CF_ATOMIC_PRIVATE: return cf_atomic_private(f, 0);
  default: return 0;
  }
}

int ws_advise_cf_saving(double *base_cycles, double *cf_cycles, const char *model, const ws_profile *p,
                        const ws_gpu *g, ws_cf_kind k, ws_diag *d) {
  if (base_cycles) *base_cycles = NAN;
  *cf_cycles = NAN;
  if (k == WS_CF_LAUNCH) return WS_EMISSING; /* another profile: ws_advise_cf_table_compute */
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

/* One change's predictions: the time (ms) each result's model predicts
 * with change k (NaN where not run), and the primary's limiting term after
 * it.  The bases are the results themselves (res are p's predictions on g),
 * so each model runs once per change, on the changed profile only. */
static void cf_times(double *ms, double *term, const ws_profile *p, const ws_gpu *g,
                     const ws_profile *alt, ws_cf_kind k, const ws_model_result *res, size_t n,
                     size_t primary, ws_term_id limit) {
  ws_profile cf = *p; /* shares p's owned pointers, read only; never freed */
  ws_diag d = WS_DIAG_INIT;
  const ws_profile *q = NULL;
  if (k == WS_CF_LAUNCH) q = alt;
  else if (ws_advise_cf_apply_launch(&cf, g, k, &d) == 1) q = &cf;
  ws_diag_free(&d);
  *term = NAN;
  for (size_t i = 0; i < n; i++) {
    ms[i] = NAN;
    if (!q || !(res[i].cycles > 0)) continue;
    ws_model_result r = WS_MODEL_RESULT_INIT;
    if (ws_model_predict(&r, res[i].model, q, g, &d) == WS_OK && r.cycles > 0) {
      ms[i] = r.time_ms;
      if (i == primary && limit != WS_TERM_COUNT) *term = ws_model_term_value(&r, limit);
    }
    ws_model_result_free(&r);
    ws_diag_free(&d);
  }
}

/* The primary's limiting term, by its bound (the largest of warpsight's
 * five overlapped times); WS_TERM_COUNT for a model without one. */
static ws_term_id limiting_term(const ws_model_result *r) {
  switch (r->bound) {
  case WS_BOUND_WARPSIGHT_SM: return WS_TERM_WARPSIGHT_T_SM;
  case WS_BOUND_WARPSIGHT_L2: return WS_TERM_WARPSIGHT_T_L2;
  case WS_BOUND_WARPSIGHT_DRAM: return WS_TERM_WARPSIGHT_T_DRAM;
  case WS_BOUND_WARPSIGHT_ATOMIC: return WS_TERM_WARPSIGHT_T_ATOMIC;
  case WS_BOUND_WARPSIGHT_LATENCY: return WS_TERM_WARPSIGHT_T_LATENCY;
  default: return WS_TERM_COUNT;
  }
}

int ws_advise_cf_stances(ws_cf_stance *out, const double *saving_ms, const double *base_ms, size_t n,
                         size_t primary) {
  int seen = 0, agree = 0;
  for (size_t i = 0; i < n; i++) {
    out[i] = WS_CF_NOT_RUN;
    double base = base_ms[i];
    if (i == primary || !(base > 0)) continue;
    if (!isfinite(saving_ms[i]) || fabs(saving_ms[i]) <= 1e-9 * base) {
      out[i] = WS_CF_BLIND;
      continue;
    }
    seen++;
    int a = saving_ms[i] >= WS_ADVICE_MIN_SHARE * base;
    agree += a;
    out[i] = a ? WS_CF_AGREES : WS_CF_NO_GAIN;
  }
  double own = primary < n ? saving_ms[primary] : NAN, base = primary < n ? base_ms[primary] : NAN;
  return isfinite(own) && base > 0 && own >= WS_ADVICE_MIN_SHARE * base && seen >= 2 && 2 * agree < seen;
}

int ws_advise_cf_table_compute(ws_cf_table *out, const ws_profile *p, const ws_gpu *g,
                               const ws_model_result *res, size_t n, const ws_profile *alt) {
  memset(out, 0, sizeof *out);
  if (!n) return WS_EINVAL;
  out->res = res;
  out->n = n;
  out->alt = alt;
  /* warpsight, the lowest validated error (docs/validation.md), else the
   * first model that ran */
  out->trusted = n;
  for (size_t i = 0; i < n; i++)
    if (res[i].cycles > 0 && (out->trusted == n || !strcmp(res[i].model, "warpsight"))) out->trusted = i;
  if (out->trusted == n) out->trusted = 0;
  double *sv = out->saving_ms = calloc(WS_CF_COUNT * n, sizeof *sv);
  out->stance = calloc(WS_CF_COUNT * n, sizeof *out->stance);
  if (!sv || !out->stance) {
    ws_advise_cf_table_free(out);
    return WS_ENOMEM;
  }
  size_t *order = out->order, trusted = out->trusted;
  ws_term_id limit = limiting_term(&res[trusted]);
  double term0 = limit == WS_TERM_COUNT ? NAN : ws_model_term_value(&res[trusted], limit);
  for (size_t k = 0; k < WS_CF_COUNT; k++) {
    double term;
    cf_times(sv + k * n, &term, p, g, alt, (ws_cf_kind)k, res, n, trusted, limit);
    for (size_t i = 0; i < n; i++) /* time -> saving */
      if (isfinite(sv[k * n + i])) sv[k * n + i] = res[i].time_ms - sv[k * n + i];
    /* it reduces the limiting term by at least 1 % of it */
    out->addresses[k] = isfinite(term) && term0 > 0 && term <= (1 - WS_ADVICE_MIN_SHARE) * term0;
    order[k] = k;
  }
  for (size_t a = 1; a < WS_CF_COUNT; a++) /* by the trusted model's saving, largest first */
    for (size_t b = a; b > 0; b--) {
      double x = sv[order[b] * n + trusted], y = sv[order[b - 1] * n + trusted];
      if (!(isfinite(x) && (!isfinite(y) || x > y))) break;
      size_t t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
    }
  double *base = calloc(n, sizeof *base);
  if (!base) {
    ws_advise_cf_table_free(out);
    return WS_ENOMEM;
  }
  for (size_t i = 0; i < n; i++) base[i] = res[i].cycles > 0 ? res[i].time_ms : NAN;
  for (size_t k = 0; k < WS_CF_COUNT; k++)
    out->disagree[k] = ws_advise_cf_stances(out->stance + k * n, sv + k * n, base, n, trusted);
  free(base);
  return WS_OK;
}

void ws_advise_cf_table_free(ws_cf_table *t) {
  if (!t) return;
  free(t->saving_ms);
  free(t->stance);
  t->saving_ms = NULL;
  t->stance = NULL;
}
