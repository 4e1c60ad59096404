/*
 * warpsight/model.h — the one interface every performance model implements.
 *
 * A model takes a kernel profile and a GPU and returns predicted cycles and
 * time with the paper's named intermediates ("terms", snake_case, in the
 * paper's order) and a case/bound label.  Models see only ws_profile and
 * ws_gpu, never the IR or the emulator (DESIGN.md).
 *
 * Ownership: a ws_model_result owns its terms and strings; release it with
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

typedef struct ws_model_term {
  char *name;      /* snake_case, e.g. "mwp_peak_bw" (owned) */
  double value;    /* in the unit below */
  char *equation;  /* the paper's equation number, e.g. "(6)", or "" (owned) */
  char *unit;      /* "cycles", "warps", "GB/s", "" ... (owned) */
} ws_model_term;

typedef struct ws_model_result {
  const char *model;  /* the model's name (static) */
  double cycles;      /* predicted SM cycles for the whole launch */
  double time_ms;     /* cycles / clock */
  char *case_label;   /* which case or bound applied, in words (owned) */
  char *limiter;      /* the limiting factor in a few words (owned) */
  ws_model_term *terms; /* owned array, in the paper's order */
  size_t nterms;        /* terms in use */
  size_t cap;           /* terms allocated */
  char **missing;       /* profile/GPU fields the model needed but lacked (owned) */
  size_t nmissing;      /* entries in missing */
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

/* Helpers for model implementations ------------------------------------- */

int ws_model_term_add(ws_model_result *r, const char *name, double value,
                      const char *equation, const char *unit);
/* A term to add, for models that list theirs in a table. */
typedef struct ws_model_term_def {
  const char *name;     /* snake_case name */
  double value;         /* value */
  const char *equation; /* equation number or source */
  const char *unit;     /* unit */
} ws_model_term_def;

/* Add n terms in order; WS_OK or WS_ENOMEM. */
int ws_model_terms_add(ws_model_result *r, const ws_model_term_def *t, size_t n);
/* The value of a term by name, or NaN. */
double ws_model_term_get(const ws_model_result *r, const char *name);
int ws_model_set_labels(ws_model_result *r, const char *case_label,
                        const char *limiter);
/* Record that `path` (e.g. "per_warp.fp_insts") is missing. */
int ws_model_missing(ws_model_result *r, const char *path, ws_diag *d);
/* Record that the GPU lacks models.<model>.<key> (the path says which GPU). */
int ws_model_missing_gpu(ws_model_result *r, const ws_gpu *g, const char *model,
                         const char *key, ws_diag *d);
/* The GPU parameter models.<model>.<key>, or NaN after recording it missing
 * and setting *missing. */
double ws_model_gpu_param(ws_model_result *r, const ws_gpu *g, const char *model,
                          const char *key, int *missing, ws_diag *d);
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
