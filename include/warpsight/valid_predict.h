/*
 * warpsight/valid_predict.h — predicting measured launches and comparing
 * (docs/validation.md): the prediction step and its default predictor,
 * error statistics, and a validation run over a data set's rows (whose
 * tables, CSVs and charts warpsight/report.h renders).
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).
 */
#ifndef WARPSIGHT_VALID_PREDICT_H
#define WARPSIGHT_VALID_PREDICT_H

#include <stddef.h>

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"
#include "warpsight/valid_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prediction ------------------------------------------------------------*/

/* What to predict for one row. */
typedef struct ws_valid_request {
  const ws_valid_row *row;       /* the measured row */
  const ws_launch_spec *launch;  /* its launch spec (borrowed) */
  const char *ptx_path;          /* the kernel's PTX file */
  const ws_gpu *gpu;             /* the GPU of the row */
  int sample_blocks;             /* emulate at most this many blocks (0: all) */
  const char *const *models;     /* model names to run */
  size_t nmodels;                /* entries in models */
} ws_valid_request;

typedef struct ws_valid_result {
  ws_profile *profile;           /* the kernel profile used (owned) */
  double *time_s;                /* per requested model, seconds; NaN if it could not run (owned) */
  size_t nmodels;                /* entries in time_s */
  double floor_dram_s;           /* the launch's DRAM floor, seconds (ws_model_floors_compute; NaN: unknown) */
  double floor_issue_s;          /* its issue floor, seconds */
  char *reason;                  /* why models could not run ("luo-suda:
                                    missing luo_suda.tasks; ..."), or NULL
                                    when every model ran (owned) */
} ws_valid_result;

/* THE prediction step: profile the launch and run the models.  Returns
 * WS_OK, or an error with diagnostics (the row is then reported as failed).
 * `user` is the pointer given with it.  The real implementation (emulate +
 * profile + ws_valid_run_models) is ws_valid_default_predictor(). */
typedef int (*ws_valid_predict_fn)(ws_valid_result *out,
                                   const ws_valid_request *req, void *user,
                                   ws_diag *d);

/* The real prediction function (src/valid/profile_run.c): profile the
 * launch (ws_valid_profile_launch) and run the models on it.  Its `user` is a
 * ws_valid_predictor or NULL (then each call parses the PTX again). */
ws_valid_predict_fn ws_valid_default_predictor(void);

/* Predictor context: keeps each PTX file parsed once, for every row of its
 * kernel.  threads = emulator workers (0: the number of cores; never more
 * than the sampled blocks); the profile does not depend on it. */
typedef struct ws_valid_predictor ws_valid_predictor;
ws_valid_predictor *ws_valid_predictor_new(int threads);
/* keep = 1: emulate with the spec's initialisers even for the validation
 * kernels (by default their buffers are zero-filled: their profiles do not
 * depend on the values, and untouched pages of huge buffers then cost
 * nothing; docs/validation.md). */
void ws_valid_predictor_keep_inputs(ws_valid_predictor *p, int keep);
/* The emulator's limits on work (ws_emu_options.max_warp_insts and
 * max_launch_insts; 0 lifts one; the defaults are WS_EMU_DEFAULT_*) and
 * on a launch's global memory (ws_prof_options.max_memory: 0 the default,
 * UINT64_MAX none). */
void ws_valid_predictor_limits(ws_valid_predictor *p, uint64_t max_warp_insts,
                               uint64_t max_launch_insts, uint64_t max_memory);
void ws_valid_predictor_free(ws_valid_predictor *p);

/* Profile `launch` of the kernel in ptx_path on g (ws_prof_launch_spec),
 * profiling sample_blocks blocks spread evenly over the grid (0: all) and
 * skipping the others.  ctx may be NULL.  The caller owns *out. */
int ws_valid_profile_launch(ws_profile **out, ws_valid_predictor *ctx,
                            const char *ptx_path, const ws_launch_spec *launch,
                            const ws_gpu *g, int sample_blocks, ws_diag *d);

/* Run the named models on a profile and a GPU: out->time_s[i] = the time of
 * models[i] in seconds, NaN where the model could not run.  With a row, the
 * models see the MEASURED build's resources: registers_per_thread =
 * Registers.Per.Thread, shared_bytes_per_block = Static.SMem + Dynamic.SMem,
 * and occupancy recomputed from them for g (the PTX here is compiled for
 * sm_75, whose register counts differ from the measured builds'); a
 * generic row replaces only what it measured (regs, static_smem >= 0); the
 * profile itself is not changed (it is what the cache keeps).  Takes
 * ownership of nothing; fills time_s/nmodels of *out.  Every predictor
 * computes its times with this function, so cached and fresh profiles give
 * the same numbers. */
int ws_valid_run_models(ws_valid_result *out, const ws_profile *p,
                        const ws_gpu *g, const char *const *models,
                        size_t nmodels, const ws_valid_row *row, ws_diag *d);
void ws_valid_result_free(ws_valid_result *r);
/* Statistics -------------------------------------------------------------*/

typedef struct ws_valid_stats {
  size_t n;            /* pairs used (both finite, measured > 0) */
  double mape;         /* mean |pred - meas| / meas, percent */
  double median_ape;   /* median of the same, percent */
  double within20;     /* fraction (0..1) of pairs with |error| <= 20 % */
  double spearman;     /* Spearman rank correlation (average ranks for ties); NaN if n < 3 (two pairs always rank +-1) or a constant series */
} ws_valid_stats;

/* Statistics over the pairs; pairs with a non-finite value or measured <= 0
 * are skipped.  Returns WS_OK (n may be 0: all fields NaN) or WS_ENOMEM. */
int ws_valid_stats_compute(ws_valid_stats *out, const double *measured,
                           const double *predicted, size_t n);
/* Signed error in percent: 100 (pred - meas) / meas. */
double ws_valid_error_pct(double measured, double predicted);
/* Running a validation --------------------------------------------------*/

struct ws_valid_outcome;

typedef struct ws_valid_options {
  const char *const *models;   /* model names to run */
  size_t nmodels;              /* entries in models */
  const char *const *gpus;     /* keep rows of these database GPUs (NULL: all) */
  size_t ngpus;                /* entries in gpus */
  const char *const *kernels;  /* keep rows of these kernels (NULL: all) */
  size_t nkernels;             /* entries in kernels */
  size_t limit;                /* at most this many rows after filtering (0: all) */
  int sample_blocks;           /* passed to the predictor (0: all blocks) */
  const char *ptx_dir;         /* folder with <kernel>.sm_75.ptx */
  const char *cache_dir;       /* profile cache folder, NULL: no cache */
  ws_valid_predict_fn predict; /* the prediction step (required) */
  void *user;                  /* passed to predict */
  void (*progress)(size_t done, size_t total, void *user); /* or NULL */
  void *progress_user;         /* passed to progress */
  int keep_profiles;           /* 1: keep each row's profile in its outcome */
  int half;                    /* 0: all rows; WS_VALID_TRAIN or WS_VALID_TEST:
                                  only that half (row->half) */
  double min_measured_s;       /* 0: all rows; else only rows measured at least
                                  this long */
  const char *const *gpu_file_names; /* rows of gpu_file_names[i] use the GPU file */
  const char *const *gpu_file_paths; /* gpu_file_paths[i] instead of the database */
  size_t ngpu_files;                 /* entries in both (0: database only) */
  /* A generic row's .cu kernel file: *ptx_path = a malloc'd path of its PTX
   * for the row's GPU g (the caller's compiler, e.g. nvcc -ptx for g's
   * arch); called once per file and compute capability.  NULL: a .cu file
   * is an error. */
  int (*compile_cu)(char **ptx_path, const char *cu_path, const ws_gpu *g, void *user,
                    ws_diag *d);
  void *compile_user;                /* passed to compile_cu */
  /* Called once per predicted row, in file order, with its profile while
   * it still exists (a row whose prediction failed is not passed): what a
   * caller needs from each profile without keep_profiles, so memory stays
   * bounded by one profile at a time.  NULL: none. */
  void (*on_row)(const struct ws_valid_outcome *oc, const ws_profile *p, void *user);
  void *on_row_user;                 /* passed to on_row */
} ws_valid_options;

typedef struct ws_valid_outcome {
  const ws_valid_row *row;  /* borrowed from the data */
  int status;               /* WS_OK or the prediction's error status */
  int cached;               /* 1 if the profile came from the cache */
  double *time_s;           /* per model, seconds, NaN where it could not run (owned) */
  ws_profile *profile;      /* the profile, with keep_profiles (owned), else NULL */
  double floor_dram_s;      /* the launch's DRAM floor, seconds (NaN: unknown) */
  double floor_issue_s;     /* its issue floor, seconds */
  char *reason;             /* why the row failed (its first error), or why
                               some model could not run; NULL when all went
                               well (owned) */
} ws_valid_outcome;

typedef struct ws_valid_report {
  const char *const *models; /* borrowed from the options */
  size_t nmodels;            /* entries in models */
  ws_valid_outcome *rows;    /* selected rows, in file order (owned) */
  size_t nrows;              /* entries in rows */
  size_t failed;             /* rows whose prediction failed */
  size_t cached;             /* rows whose profile came from the cache */
} ws_valid_report;

/* Select rows, build launches, predict each (through the cache when
 * cache_dir is set).  A failed row is recorded (status, diagnostics) and
 * the run goes on; WS_EINVAL only for bad options or launches. */
int ws_valid_run(ws_valid_report **out, const ws_valid_data *data,
                 const ws_valid_options *o, ws_diag *d);
void ws_valid_report_free(ws_valid_report *r);
/* Statistics of model index `model` over the rows of `gpu` and `kernel`
 * (NULL: any). */
int ws_valid_report_stats(ws_valid_stats *out, const ws_valid_report *r,
                          size_t model, const char *gpu, const char *kernel);

#ifdef __cplusplus
}
#endif
#endif
