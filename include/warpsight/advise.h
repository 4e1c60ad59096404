/*
 * warpsight/advise.h — the performance advisor: from the results of the
 * models on a profile, the bottleneck and a ranked list of changes a CUDA
 * programmer can make, each with its predicted saving (docs/advisor.md).
 *
 * One source of truth: the list is the primary model's counterfactuals
 * (the `warpsight` model, the lowest validated error, docs/validation.md;
 * the first model that ran when it did not).  Each change is applied to a
 * copy of the profile and every model predicts it again; the primary's
 * saving ranks the list, and the other models are reported as agreeing,
 * seeing no gain or not modelling the change.  The line a change concerns
 * comes from the profile's per-line table (section "lines").
 *
 * The seed models' own metrics stay, in their own section, as that model's
 * view: GPUPerf's potential benefits (Sim et al. PPoPP'12, Section 3), the
 * bounds and cases of Transit (Li et al. HPDC'15), Roofline, Hong & Kim,
 * Kothapalli et al. and Luo & Suda.  A view that contradicts the primary
 * says so once.  Terms are read by id (ws_model_term_value, model_terms.def)
 * and bounds from the result (model_bounds.def), never by a string.
 *
 * The library never prints: ws_report_advice() and ws_report_advice_text()
 * (warpsight/report.h) turn a ws_advice into text.
 *
 * Ownership: ws_advise() fills a caller-owned ws_advice (zero-initialised
 * with WS_ADVICE_INIT); release it with ws_advise_free().  It borrows the
 * results and the profile's line table (files, rows) until freed.
 */
#ifndef WARPSIGHT_ADVISE_H
#define WARPSIGHT_ADVISE_H

#include <stddef.h>

#include "warpsight/model.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Changes below this share of the primary's run time are not listed; a
 * model "agrees" with a change when it predicts at least this share of its
 * own time. */
#define WS_ADVICE_MIN_SHARE 0.01
/* "More loads in flight": loads a thread issues before using the first,
 * as unrolling a loop by 4 gives (docs/advisor.md). */
#define WS_ADVICE_MLP_FACTOR 4.0
/* Warp-aggregated atomics: warp instructions per aggregated request (five
 * shuffle steps, each a shuffle and an operation). */
#define WS_ADVICE_WARP_AGG_INSTS 10.0

/* The changes (counterfactuals).  Perfect coalescing (uncoalesced ->
 * coalesced instructions; with the GPU, transactions per request at what
 * the request's bytes need in the GPU's transaction unit), no bank
 * conflicts (replays 0), no divergence (extra instructions 0, and out of
 * comp_insts), no barriers (#Synch_insts 0), maximum ILP (no dependency
 * stalls), more loads in flight (a looped load's path loads / 4; needs the
 * line table), maximum occupancy (registers and shared memory not
 * limiting), distinct atomic addresses (serialization 1 per request),
 * warp-aggregated atomics (the same, plus the aggregation's instructions),
 * atomics privatised per block (global atomics become shared ones, one
 * merge request per warp, two barriers), the best block size (another
 * profile: the same work launched with the sweep's best block size).
 * docs/advisor.md gives each one's fields. */
typedef enum ws_cf_kind {
  WS_CF_COALESCING,
  WS_CF_BANK_CONFLICTS,
  WS_CF_DIVERGENCE,
  WS_CF_BARRIERS,
  WS_CF_ILP,
  WS_CF_MLP,
  WS_CF_OCCUPANCY,
  WS_CF_ATOMIC_DISTINCT,
  WS_CF_ATOMIC_WARP,
  WS_CF_ATOMIC_PRIVATE,
  WS_CF_LAUNCH,
  WS_CF_COUNT
} ws_cf_kind;

/* "perfect coalescing", ... */
const char *ws_advise_cf_name(ws_cf_kind k);

/* Remove inefficiency k from f.  Returns 1 if f changed, 0 when the profile
 * has none of it (or lacks the field); always 0 for the kinds that need
 * more than the fields (occupancy, more loads in flight, the block size),
 * and WS_CF_COALESCING leaves avg_trans_warp (its unit is the GPU's). */
int ws_advise_cf_apply(ws_profile_fields *f, ws_cf_kind k);

/* Remove inefficiency k from p's fields, any k but WS_CF_LAUNCH:
 * WS_CF_COALESCING lowers avg_trans_warp in g's transaction unit
 * (ws_model_transaction_bytes, as Transit reads it), WS_CF_OCCUPANCY sets
 * occupancy.active_blocks_per_sm from g's limits with p's block size,
 * capped by the blocks the grid gives each SM, WS_CF_MLP reads p's line
 * table.  Returns 1 if p changed, 0 if not, negative (with a diagnostic)
 * when the block cannot run on g.  p's pointers are only read. */
int ws_advise_cf_apply_launch(ws_profile *p, const ws_gpu *g, ws_cf_kind k, ws_diag *d);

/* Run `model` on p and on p with k removed: *base_cycles and *cf_cycles
 * (NaN unless WS_OK); the saving is their difference.  base_cycles NULL:
 * only the changed profile runs (the caller has p's prediction).
 * WS_EMISSING when the profile has none of k to remove, the model lacks
 * inputs, or k is WS_CF_LAUNCH. */
int ws_advise_cf_saving(double *base_cycles, double *cf_cycles, const char *model, const ws_profile *p,
                        const ws_gpu *g, ws_cf_kind k, ws_diag *d);

/* How another model stands on a change (docs/advisor.md, "Agreement"). */
typedef enum ws_cf_stance {
  WS_CF_NOT_RUN,  /* the model did not run (or is the primary) */
  WS_CF_BLIND,    /* its prediction does not move: it does not model the change */
  WS_CF_AGREES,   /* it predicts a saving of at least WS_ADVICE_MIN_SHARE of its time */
  WS_CF_NO_GAIN   /* it sees the change and predicts less, or a loss */
} ws_cf_stance;

/* The rule of the stances and of the flag (docs/advisor.md, "Agreement"),
 * for one change: saving_ms[i] and base_ms[i] are model i's saving and
 * predicted time (NaN: not run), `primary` the ranking model.  Each other
 * model that ran is blind when its prediction does not move (|saving| <=
 * 1e-9 of its time), else agrees when it saves at least
 * WS_ADVICE_MIN_SHARE of its time, else sees no gain; out[i] gets it
 * (WS_CF_NOT_RUN for the primary and models that did not run).  Returns
 * the flag: 1 when the primary saves at least WS_ADVICE_MIN_SHARE, two or
 * more other models see the change and fewer than half of those agree. */
int ws_advise_cf_stances(ws_cf_stance *out, const double *saving_ms, const double *base_ms, size_t n,
                         size_t primary);

/* Every model's saving for every change.  Rendered by
 * ws_report_counterfactuals. */
typedef struct ws_cf_table {
  const ws_model_result *res;  /* the n results (borrowed) */
  size_t n;                    /* results: the table's columns */
  size_t trusted;              /* the primary: the result the rows are ranked by */
  double *saving_ms;           /* WS_CF_COUNT x n: row k = change k, NaN where not run (owned) */
  ws_cf_stance *stance;        /* WS_CF_COUNT x n: each model's stance on each change (owned) */
  size_t order[WS_CF_COUNT];   /* changes by the primary's saving, largest first */
  int addresses[WS_CF_COUNT];  /* change k lowers the primary's limiting term by >= 1 % */
  int disagree[WS_CF_COUNT];   /* the flag: the primary recommends k (saving >= 1 %), two or
                                  more other models see it and most of those predict no gain */
  const ws_profile *alt;       /* WS_CF_LAUNCH's profile: the best block size's (borrowed), or
                                  NULL */
} ws_cf_table;

/* Fill *out for results res[0..n) of profile p on g (their times are the
 * bases: each model runs once more per change).  alt: the same work at the
 * sweep's best block size (WS_CF_LAUNCH), or NULL.  WS_OK, WS_EINVAL for
 * n = 0, WS_ENOMEM.  Free with ws_advise_cf_table_free (a zeroed table is
 * fine). */
int ws_advise_cf_table_compute(ws_cf_table *out, const ws_profile *p, const ws_gpu *g,
                               const ws_model_result *res, size_t n, const ws_profile *alt);
void ws_advise_cf_table_free(ws_cf_table *t);

/* --- per-line costs --------------------------------------------------------- */

/* What a line is ranked by (docs/advisor.md, "Lines"). */
typedef enum ws_line_metric {
  WS_LM_ISSUE,     /* issue slots: warp instructions + bank-conflict replays */
  WS_LM_LSU,       /* load/store unit passes: sectors / 4 + shared requests + replays */
  WS_LM_SFU,       /* warp instructions of lines with SFU instructions */
  WS_LM_FP64,      /* warp instructions of lines with FP64 instructions */
  WS_LM_L2,        /* global sectors */
  WS_LM_DRAM,      /* DRAM bytes x (1 + the line's scatter), warpsight's [M2, M3] */
  WS_LM_ATOMIC,    /* global atomic lane operations that serialize */
  WS_LM_LATENCY,   /* path loads x load latency + path cycles */
  WS_LM_EXCESS,    /* sectors beyond what the bytes need */
  WS_LM_REPLAYS,   /* bank-conflict replays */
  WS_LM_DIVERGENT, /* divergent branches */
  WS_LM_BARRIER,   /* path cycles of lines with a barrier */
  WS_LM_PATH_CYC,  /* path cycles that are not loads */
  WS_LM_PATH_MEM,  /* path loads of lines whose loads repeat on the path */
  WS_LM_SATOMIC,   /* atomic lane operations that serialize beyond one per request (global
                      and shared) */
  WS_LM_GATOMIC,   /* global atomic requests */
  WS_LM_COUNT
} ws_line_metric;

/* Line r's weight under metric m; load_latency (cycles) prices a path load
 * for WS_LM_LATENCY. */
double ws_advise_line_weight(const ws_profile_line *r, ws_line_metric m, double load_latency);
/* The factor "more loads in flight" unrolls row r's loop by
 * (docs/advisor.md, "Unrolling"): WS_ADVICE_MLP_FACTOR over the loads the
 * loop issues per trip now (r->loop_loads_per_trip rounded to the
 * nearest whole number, at least 1; 1 when unknown), rounded up; 0 (the row takes no part in the change) when its
 * loads do not repeat on the path, when its loop already issues
 * WS_ADVICE_MLP_FACTOR loads per trip or more (an unrolled body: nothing
 * left to unroll for), or when it runs fewer than WS_ADVICE_MLP_FACTOR
 * trips per entry (r->loop_trips_per_entry, when known; the remainder loop
 * of a body nvcc unrolled by 4 runs at most 3). */
double ws_advise_mlp_unroll(const ws_profile_line *r);
/* The metric of the primary result's limiting term (warpsight's bound, and
 * for the SM its slowest pipe); WS_LM_ISSUE for a result without one. */
ws_line_metric ws_advise_line_metric(const ws_model_result *primary);
/* The rows of p's line table ordered by metric m, heaviest first, lines of
 * zero weight left out: idx[0 .. *n) (idx has p->lines->nrows entries).
 * *total: the sum of all weights (shares are weight / total). */
void ws_advise_lines_rank(size_t *idx, size_t *n, double *total, const ws_profile *p,
                          ws_line_metric m, double load_latency);
/* "transpose.cu:16" (or "PTX line 657 of k.ptx") for row r of l into buf. */
const char *ws_advise_line_name(char *buf, size_t size, const ws_profile_lines *l,
                                const ws_profile_line *r);

/* --- the advice --------------------------------------------------------------- */

typedef enum ws_advice_kind {
  WS_ADVICE_CHANGE, /* one of the primary's changes, with its saving */
  WS_ADVICE_BOUND,  /* the primary's bottleneck, where no change reduces it */
  WS_ADVICE_VIEW    /* another model's own metric or bound, in its own section */
} ws_advice_kind;

typedef struct ws_advice_item {
  ws_advice_kind kind;  /* change, bound or view */
  const char *model;    /* the model it comes from (borrowed from the result) */
  char *topic;          /* the change ("perfect coalescing"), the benefit ("B_serial") or the
                           case (owned) */
  int change;           /* the ws_cf_kind of a change (for a view: the change the primary's
                           check used, or -1) */
  double saving_ms;     /* a change: the primary's predicted saving, ms; else NaN */
  double value;         /* a view's benefit in the model's cycles; else NaN */
  double share;         /* a change: saving / the primary's time; a benefit: / T_exec, in
                           [0, 1]; else NaN */
  char *finding;        /* what the model found, one line (owned) */
  char *action;         /* what to change, in words, naming the line (owned; "" for a view
                           that gives no direction) */
  char *agree;          /* a change: the other models that agree, comma-separated, "" for
                           none (owned; NULL otherwise) */
  char *no_gain;        /* ... those that see it and predict no gain (owned) */
  char *blind;          /* ... those that do not model it (owned) */
  char *flag;           /* a change: the disagreement flag's line; a view: the one line
                           where it contradicts the primary; else NULL (owned) */
  int addresses;        /* a change: it lowers the primary's limiting term */
  long line;            /* the row of the profile's line table the action names, or -1 */
  char *where;          /* that line's name ("transpose.cu:16"), or NULL (owned) */
} ws_advice_item;

typedef struct ws_advice {
  char *bottleneck;     /* one line: the main limiter, or NULL (owned) */
  const char *source;   /* the model the bottleneck line came from (borrowed) */
  const char *primary;  /* the model the changes are ranked by (borrowed), or NULL */
  ws_advice_item *items;/* owned: items[0 .. nchanges) the ranked list (a bound first when
                           no change reduces the bottleneck, then the changes by saving),
                           then the views */
  size_t nchanges;      /* the ranked list's length */
  size_t count;         /* items in use */
  size_t cap;           /* items allocated */
  size_t ran;           /* the given results that ran (a finite, positive time) */
  ws_cf_table cf;       /* every model's saving for every change (owned; n = 0 without a
                           profile) */
} ws_advice;

#define WS_ADVICE_INIT {0}

/* What the advisor reads. */
typedef struct ws_advise_in {
  const ws_model_result *results; /* every model's result on profile, gpu (those that did
                                     not run are skipped) */
  size_t nresults;
  const ws_profile *profile;      /* the profile they predicted; NULL: the views only */
  const ws_gpu *gpu;              /* its GPU (with profile) */
  const ws_profile *launch_alt;   /* the same work at the sweep's best block size, or NULL */
} ws_advise_in;

/* Build the advice.  Returns WS_OK (possibly with no items), WS_ENOMEM or
 * WS_EINVAL. */
int ws_advise(ws_advice *out, const ws_advise_in *in, ws_diag *d);
void ws_advise_free(ws_advice *a); /* NULL is a no-op; leaves *a reusable */

#ifdef __cplusplus
}
#endif
#endif
