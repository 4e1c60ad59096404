/*
 * warpsight/advise.h — the performance advisor: from the results of several
 * models, the bottleneck and a short ranked list of what to try.
 *
 * Sources, read by term id through ws_model_term_value() and from the
 * result's bound (model_terms.def, model_bounds.def):
 *   gpuperf   (Sim et al. PPoPP'12, Section 3): the potential benefits
 *             b_itilp, b_serial, b_fp, b_memlp, each as a share of t_exec;
 *             the zone (its bound: T_mem against T_comp).
 *   transit   (Li et al. HPDC'15, Section 2.4): the bound and its direction
 *             (the bound's advice).
 *   roofline  (Williams et al. CACM'09): memory- or compute-bound.
 *   any other model: its case label and limiter, as a note.
 * Results whose model is unknown or whose time is not finite are skipped.
 *
 * The library never prints: ws_report_advice_text() (warpsight/report.h)
 * turns a ws_advice into text.
 *
 * Ownership: ws_advise() fills a caller-owned ws_advice (zero-initialised
 * with WS_ADVICE_INIT); release its strings with ws_advise_free().
 */
#ifndef WARPSIGHT_ADVISE_H
#define WARPSIGHT_ADVISE_H

#include <stddef.h>

#include "warpsight/model.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ws_advice_kind {
  WS_ADVICE_BENEFIT, /* a quantified potential benefit (GPUPerf) */
  WS_ADVICE_BOUND,   /* a model's bound or case with its direction */
  WS_ADVICE_NOTE     /* context: another model's view */
} ws_advice_kind;

typedef struct ws_advice_item {
  ws_advice_kind kind; /* benefit, bound or note */
  const char *model;   /* the model that said it (borrowed from the result) */
  char *topic;         /* "B_memlp", "memory-bound", ... (owned) */
  double value;        /* the benefit in the model's unit, NaN for bounds */
  double share;        /* value / predicted run time, in [0, 1]; NaN if n/a */
  char *finding;       /* what the model found, one line (owned) */
  char *action;        /* what to try, one line (owned) */
} ws_advice_item;

typedef struct ws_advice {
  char *bottleneck;     /* one line: the main limiter, or NULL (owned) */
  const char *source;   /* the model the bottleneck line came from (borrowed) */
  ws_advice_item *items;/* owned, ranked: benefits by share, then bounds, notes */
  size_t count;         /* items in use */
  size_t cap;           /* items allocated */
} ws_advice;

#define WS_ADVICE_INIT {0}

/* Benefits below this share of run time are left out of the list. */
#define WS_ADVICE_MIN_SHARE 0.01

/* Build the advice from `n` results (NULL entries are skipped).  Returns
 * WS_OK (possibly with no items), WS_ENOMEM or WS_EINVAL. */
int ws_advise(ws_advice *out, const ws_model_result *const *results, size_t n,
              ws_diag *d);
void ws_advise_free(ws_advice *a); /* NULL is a no-op; leaves *a reusable */

/* Counterfactuals (issue 13 point 4; docs/advisor.md): the profile with one
 * inefficiency removed.  Perfect coalescing (uncoalesced -> coalesced
 * instructions; with the GPU, transactions per request at what the
 * request's bytes need in the GPU's transaction unit), no bank conflicts
 * (replays 0), no divergence (extra instructions 0, and out of comp_insts), no barriers
 * (#Synch_insts 0), maximum ILP (no dependency stalls: ILP = the warp's
 * instructions, the dependency path at most one issue slot per instruction
 * and one load latency), maximum occupancy (resident blocks per SM as the
 * GPU's warp and block limits allow, registers and shared memory not
 * limiting, block size unchanged; needs the GPU and the launch, so only
 * ws_advise_cf_apply_launch() and ws_advise_cf_saving() make it). */
typedef enum ws_cf_kind {
  WS_CF_COALESCING,
  WS_CF_BANK_CONFLICTS,
  WS_CF_DIVERGENCE,
  WS_CF_BARRIERS,
  WS_CF_ILP,
  WS_CF_OCCUPANCY,
  WS_CF_COUNT
} ws_cf_kind;

/* "perfect coalescing", ... */
const char *ws_advise_cf_name(ws_cf_kind k);

/* Remove inefficiency k from f.  Returns 1 if f changed, 0 when the profile
 * has none of it (or lacks the field); always 0 for WS_CF_OCCUPANCY, and
 * WS_CF_COALESCING leaves avg_trans_warp (its unit is the GPU's). */
int ws_advise_cf_apply(ws_profile_fields *f, ws_cf_kind k);

/* Remove inefficiency k from p's fields, any k: WS_CF_COALESCING lowers
 * avg_trans_warp in g's transaction unit (ws_model_transaction_bytes, as
 * Transit reads it), WS_CF_OCCUPANCY sets
 * occupancy.active_blocks_per_sm from g's limits with p's block size,
 * capped by the blocks the grid gives each SM.  Returns 1 if p changed, 0
 * if not, negative (with a diagnostic) when the block cannot run on g. */
int ws_advise_cf_apply_launch(ws_profile *p, const ws_gpu *g, ws_cf_kind k, ws_diag *d);

/* Run `model` on p and on p with k removed: *base_cycles and *cf_cycles
 * (NaN unless WS_OK); the saving is their difference.  base_cycles NULL:
 * only the changed profile runs (the caller has p's prediction).
 * WS_EMISSING when the profile has none of k to remove or the model lacks
 * inputs. */
int ws_advise_cf_saving(double *base_cycles, double *cf_cycles, const char *model, const ws_profile *p,
                 const ws_gpu *g, ws_cf_kind k, ws_diag *d);

/* --advise's check of the advice (docs/advisor.md): for each counterfactual,
 * the saving in ms each result's model predicts, ranked by warpsight's (the
 * lowest validated error; else the first result's), with the savings that
 * differ by more than 2x flagged.  Rendered by ws_report_counterfactuals. */
typedef struct ws_cf_table {
  const ws_model_result *res; /* the n results (borrowed) */
  size_t n;                   /* results: the table's columns */
  size_t trusted;             /* the result the rows are ranked by */
  double *saving_ms;          /* WS_CF_COUNT x n: row k = counterfactual k, NaN where not run (owned) */
  size_t order[WS_CF_COUNT];  /* counterfactuals by the trusted saving, largest first */
  int disagree[WS_CF_COUNT];  /* per counterfactual: savings differ by > 2x (or in sign) */
  double base_lo, base_hi;    /* smallest and largest positive base prediction, ms */
} ws_cf_table;

/* Fill *out for results res[0..n) of profile p on g (their cycles are the
 * bases: each model runs once more per counterfactual).  WS_OK, WS_EINVAL for
 * n = 0, WS_ENOMEM.  Free with ws_advise_cf_table_free (a zeroed table is fine). */
int ws_advise_cf_table_compute(ws_cf_table *out, const ws_profile *p, const ws_gpu *g,
                        const ws_model_result *res, size_t n);
void ws_advise_cf_table_free(ws_cf_table *t);

#ifdef __cplusplus
}
#endif
#endif
