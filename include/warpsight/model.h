/*
 * warpsight/model.h — the one interface every performance model implements.
 *
 * A model takes a kernel profile and a GPU and returns predicted cycles and
 * time with the paper's named intermediates ("terms", declared once with
 * their name, unit, equation and meaning in model_terms.def, reported in the
 * paper's order) and its case or bound (an enum from model_bounds.def, with
 * a label in words).  Readers get a term by id: ws_model_term_value(r,
 * WS_TERM_GPUPERF_T_MEM).  Models see only ws_profile and
 * ws_gpu, never the IR or the emulator (DESIGN.md).
 *
 * Ownership: a ws_model_result owns its term array and strings (the term
 * and bound tables are static); release it with
 * ws_model_result_free().  Zero-initialise (WS_MODEL_RESULT_INIT) before use.
 */
#ifndef WARPSIGHT_MODEL_H
#define WARPSIGHT_MODEL_H

#include <stddef.h>

#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every term of every model, declared once in model_terms.def. */
typedef enum ws_term_id {
#define TERM(model, id, name, unit, eq, meaning) WS_TERM_##model##_##id,
#include "warpsight/model_terms.def"
#undef TERM
  WS_TERM_COUNT
} ws_term_id;

/* The static facts of a term (model_terms.def). */
typedef struct ws_term_info {
  const char *family;   /* model family, e.g. "HONG_KIM", "KOTHAPALLI" */
  const char *name;     /* snake_case, e.g. "mwp_peak_bw" */
  const char *unit;     /* "cycles", "warps", "GB/s", "" ... */
  const char *equation; /* the paper's equation number or the value's source */
  const char *meaning;  /* one line: what the term is */
} ws_term_info;

/* Every case or bound of every model, declared once in model_bounds.def;
 * WS_BOUND_NONE (0) until a model sets one. */
typedef enum ws_model_bound {
  WS_BOUND_NONE,
#define BOUND(model, id, name, limiter, advice) WS_BOUND_##model##_##id,
#include "warpsight/model_bounds.def"
#undef BOUND
  WS_BOUND_COUNT
} ws_model_bound;

typedef struct ws_bound_info {
  const char *family;  /* model family, as in ws_term_info */
  const char *name;    /* a short word, e.g. "memory" ("" for WS_BOUND_NONE) */
  const char *limiter; /* the limiting factor in a few words ("" for NONE) */
  const char *advice;  /* the paper's full direction, or "" */
} ws_bound_info;

typedef struct ws_model_term {
  ws_term_id id;        /* which term: ws_model_term_info() has its name, unit, meaning */
  double value;         /* in the term's unit */
  const char *equation; /* the table's equation, or a case-specific source (static) */
} ws_model_term;

typedef struct ws_model_result {
  const char *model;    /* the model's name (static) */
  double cycles;        /* predicted SM cycles for the whole launch */
  double time_ms;       /* cycles / clock */
  ws_model_bound bound; /* which case or bound applied (limiter: ws_model_bound_info) */
  char *case_label;     /* the case in words, with the figures behind it (owned) */
  ws_model_term *terms; /* owned array, in the paper's order */
  size_t nterms;        /* terms in use */
  size_t cap;           /* terms allocated */
  char **missing;       /* profile/GPU fields the model needed but lacked (owned) */
  size_t nmissing;      /* entries in missing */
  size_t missing_cap;   /* entries allocated */
} ws_model_result;

#define WS_MODEL_RESULT_INIT {0}

/* A model entry point.  Returns WS_OK, WS_EMISSING (with out->missing filled
 * and a diagnostic per missing field) or WS_EINVAL. */
typedef int (*ws_model_fn)(ws_model_result *out, const ws_profile *p,
                           const ws_gpu *g, ws_diag *d);

typedef struct ws_model_info {
  const char *name;      /* CLI name, e.g. "hong-kim" */
  const char *title;     /* one line: paper and what the model is */
  ws_model_fn predict;   /* entry point */
} ws_model_info;

size_t ws_model_count(void);
const ws_model_info *ws_model_at(size_t i);
const ws_model_info *ws_model_find(const char *name);

/* Run one model by name; an unknown name lists the known ones. */
int ws_model_predict(ws_model_result *out, const char *name,
                     const ws_profile *p, const ws_gpu *g, ws_diag *d);
void ws_model_result_free(ws_model_result *r);

/* Terms and bounds ------------------------------------------------------- */

/* The static facts of a term or a bound; NULL for an id out of range. */
const ws_term_info *ws_model_term_info(ws_term_id id);
const ws_bound_info *ws_model_bound_info(ws_model_bound b);
/* Whether a term or bound family (e.g. "KOTHAPALLI") serves the model named
 * `model` (e.g. "kothapalli-max"): the family lower-cased with '_' as '-'
 * is the name, or the name up to a variant's '-'. */
int ws_model_family_of(const char *family, const char *model);
/* The value of a term the result carries, or NaN (not reported). */
double ws_model_term_value(const ws_model_result *r, ws_term_id id);
/* The result's limiter in words: its bound's limiter, "" when none. */
const char *ws_model_limiter(const ws_model_result *r);

/* Helpers for model implementations ------------------------------------- */

/* Append a term with the table's equation; WS_OK, WS_ENOMEM, or WS_EINVAL
 * for an id out of range. */
int ws_model_term_add(ws_model_result *r, ws_term_id id, double value);
/* The same with a case-specific source in place of the table's equation
 * (static; NULL: the table's). */
int ws_model_term_add_eq(ws_model_result *r, ws_term_id id, double value,
                         const char *equation);
/* A term to add, for models that list theirs in a table. */
typedef struct ws_model_term_val {
  ws_term_id id;        /* which term */
  double value;         /* its value */
  const char *equation; /* NULL: the table's; else a case-specific source (static) */
} ws_model_term_val;

/* Add n terms in order; WS_OK or WS_ENOMEM. */
int ws_model_terms_add(ws_model_result *r, const ws_model_term_val *t, size_t n);
/* Set the bound and the case label (copied); WS_OK or WS_ENOMEM. */
int ws_model_set_case(ws_model_result *r, ws_model_bound bound,
                      const char *case_label);
/* Record that `path` (e.g. "per_warp.fp_insts") is missing. */
int ws_model_missing(ws_model_result *r, const char *path, ws_diag *d);
/* Record that the GPU lacks models.<model>.<key> (the path says which GPU). */
int ws_model_missing_gpu(ws_model_result *r, const ws_gpu *g, const char *model,
                         const char *key, ws_diag *d);
/* The GPU's memory transaction in bytes, the unit of a profile's
 * avg_trans_warp (docs/profile.md): gpuperf.transaction_bytes (derived per
 * CC when the file does not give it), else the L2 sector, else 32. */
double ws_model_transaction_bytes(const ws_gpu *g);
/* Record that the GPU lacks parameter `id` (gpu_params.def's
 * models.<model>.<key>). */
int ws_model_missing_gp(ws_model_result *r, const ws_gpu *g, ws_gp_id id, ws_diag *d);
/* The GPU parameter `id` (gpu_params.def), or NaN after recording
 * models.<model>.<key> missing and setting *missing. */
double ws_model_gpu_param(ws_model_result *r, const ws_gpu *g, ws_gp_id id,
                          int *missing, ws_diag *d);
/* A profile field's value, or NaN after recording `path` missing and
 * setting *missing. */
double ws_model_need(ws_model_result *r, double v, const char *path,
                     int *missing, ws_diag *d);

/* What every model needs to know about the launch on this GPU. */
typedef struct ws_model_launch_ctx {
  double blocks;               /* #Blocks */
  double threads_per_block;    /* #Threads_per_block */
  double warps_per_block;      /* ceil(threads / warp size) */
  double total_warps;          /* blocks x warps per block */
  double active_blocks_per_sm; /* from the profile or the occupancy calculator */
  double active_sms;           /* from the profile or min(SMs, blocks) */
  double active_warps_per_sm;  /* N = active blocks x warps per block */
  double rep;                  /* #Rep = blocks / (active blocks x active SMs) */
  const char *occupancy_source;/* "profile" or "computed (limited by ...)" */
} ws_model_launch_ctx;

int ws_model_launch_ctx_compute(ws_model_launch_ctx *out, const ws_profile *p,
                          const ws_gpu *g, ws_diag *d);

/* Physical floors of a launch (docs/models/floors.md) ------------------- */

typedef struct ws_floors {
  double dram_ms;          /* DRAM bytes / peak bandwidth, ms (NaN: unknown) */
  double issue_ms;         /* warp instructions / (SMs x peak dispatch x clock), ms */
  double dram_bytes;       /* the profile's DRAM read + write bytes */
  double warp_insts;       /* warp instructions of the launch */
  double issue_per_cycle;  /* peak warp instructions dispatched per SM per cycle */
} ws_floors;

/* Peak warp instructions dispatched per SM per cycle for a compute
 * capability (schedulers x dispatch units). */
double ws_model_floor_issue_rate(int cc_major, int cc_minor);
/* The floors of profile p on GPU g; a floor whose inputs are absent is
 * NaN.  WS_OK, or WS_EINVAL for a NULL argument. */
int ws_model_floors_compute(ws_floors *out, const ws_profile *p, const ws_gpu *g);
/* NULL when time_ms is at or above both floors, else a one-line reason
 * written into buf (size n) naming the floor, its value and the ratio. */
const char *ws_model_floors_check(char *buf, size_t n, const ws_floors *fl, double time_ms);

/* GPUPerf's zone (Sim et al. PPoPP'12, Figure 4): the application point
 * A = (T_mem, T_comp) against the diagonal y = x.  1 (memory-bound) when
 * T_mem > T_comp, else 0 (compute-bound).  The one rule that the gpuperf
 * model's limiter and the advisor's bottleneck line both use. */
int ws_model_gpuperf_memory_bound(double t_comp, double t_mem);

#ifdef __cplusplus
}
#endif
#endif
