/*
 * warpsight/valid.h — validation against measured kernel times
 * (docs/validation.md): a CSV reader, the measured data set of Amarís et al.
 * (data/validation/), launch specs built from its rows, the prediction
 * interface, the profile cache, error statistics and the calibration fit.
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).  Strings inside a ws_valid_data
 * are borrowed from it until ws_valid_data_free().
 */
#ifndef WARPSIGHT_VALID_H
#define WARPSIGHT_VALID_H

#include <stddef.h>
#include <stdint.h>

#include "warpsight/emu.h"
#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CSV (RFC 4180: comma-separated, fields may be "quoted", "" is a quote
 * inside quotes, quoted fields may hold commas and newlines; CRLF or LF). ---*/

typedef struct ws_csv {
  char *origin;     /* file name for diagnostics (owned) */
  size_t ncols;     /* columns, from the header */
  size_t nrows;     /* data rows (header excluded) */
  char **header;    /* ncols names (owned) */
  char **cells;     /* nrows * ncols values, row-major (owned) */
  int *lines;       /* 1-based line where each data row starts (owned) */
} ws_csv;

/* Parse CSV text.  Errors ("origin:line:col: error: ...") for an unclosed
 * quote, text after a closing quote, a row with a different number of fields
 * than the header, an empty file. */
int ws_valid_csv_parse(ws_csv **out, const char *text, size_t len,
                 const char *origin, ws_diag *d);
int ws_valid_csv_read(ws_csv **out, const char *path, ws_diag *d);
void ws_valid_csv_free(ws_csv *c);
/* Index of a column by header name, or -1. */
int ws_valid_csv_column(const ws_csv *c, const char *name);
static inline const char *ws_valid_csv_cell(const ws_csv *c, size_t row, size_t col) {
  return c->cells[row * c->ncols + col];
}

/* The measured data set --------------------------------------------------*/

typedef struct ws_valid_row {
  int line;              /* line in the CSV file */
  const char *gpu_csv;   /* GPU as the CSV names it, e.g. "GTX-680" */
  const char *gpu;       /* warpsight database name, e.g. "gtx680" */
  const char *kernel;    /* AppName: the kernel variant = extern "C" name */
  const char *signature; /* the Kernel column, e.g. "dotProd(float*, float*, float*, int)" */
  int64_t input_size;    /* Input.Size */
  uint32_t grid[3];      /* Grid.X/Y/Z */
  uint32_t block[3];     /* Block.X/Y/Z */
  int regs;              /* Registers.Per.Thread */
  int static_smem;       /* Static.SMem, bytes */
  int dynamic_smem;      /* Dynamic.SMem, bytes */
  double measured_s;     /* Duration, seconds */
  int half;              /* WS_VALID_TRAIN or WS_VALID_TEST (ws_valid_split
                            over the whole file, set by ws_valid_load) */
  /* Generic format only (docs/validation.md, "Your own kernels"): the
   * launch comes from launch_file, the kernel from kernel_file (both NULL
   * for the Amarís rows).  There regs = -1 and static_smem = -1 mean "not
   * measured": the models see the profile's own registers and shared bytes;
   * the optional columns registers and shared_bytes (static + dynamic per
   * block, kept in static_smem with dynamic_smem 0) set them. */
  const char *kernel_file; /* the kernel's PTX (or .cu), resolved against the data file */
  const char *launch_file; /* the launch spec (DESIGN.md), resolved likewise */
} ws_valid_row;

/* The two halves of a data set (docs/validation.md, "Train and test"). */
enum { WS_VALID_TRAIN = 1, WS_VALID_TEST = 2 };

typedef struct ws_valid_data {
  ws_csv *csv;           /* the file (owned); rows borrow its strings */
  ws_valid_row *rows;    /* nrows rows in file order (owned) */
  size_t nrows;          /* rows */
  int generic;           /* 1: the generic format (kernel_file, launch, gpu, seconds) */
  char **strings;        /* resolved paths and names rows borrow (owned) */
  size_t nstrings, strings_cap; /* used, allocated */
  /* GPU files the generic rows name: rows of GPU gpu_file_names[i] (the
   * name inside the file) use gpu_file_paths[i] (strings borrowed from
   * `strings`; the arrays owned).  Options' gpu files take precedence. */
  const char **gpu_file_names, **gpu_file_paths;
  size_t ngpu_files;                /* entries in both */
  size_t gpu_names_cap, gpu_paths_cap; /* allocated */
} ws_valid_data;

/* Read a measured-times CSV: the Amarís et al. columns of
 * data/validation/README.md, or the generic format (a header with
 * kernel_file; docs/validation.md).  A missing column, a non-numeric cell,
 * an unknown kernel or a launch spec that does not load is an error naming
 * file:line and the column; unknown GPU names are one error. */
int ws_valid_load(ws_valid_data **out, const char *path, ws_diag *d);
int ws_valid_load_text(ws_valid_data **out, const char *text, size_t len,
                       const char *origin, ws_diag *d);
void ws_valid_data_free(ws_valid_data *v);

/* The same with extra accepted GPU names (`validate --gpu-file NAME=FILE`):
 * a row naming one of extra[0..nextra) keeps that name as its GPU. */
int ws_valid_load_ex(ws_valid_data **out, const char *path, const char *const *extra,
                     size_t nextra, ws_diag *d);
int ws_valid_load_text_ex(ws_valid_data **out, const char *text, size_t len,
                          const char *origin, const char *const *extra, size_t nextra,
                          ws_diag *d);

/* GPU names: the table data/validation/gpu-names.csv (embedded in the
 * library) maps the data set's spellings to database names ("GTX-680" ->
 * "gtx680", "Tesla-K40" -> "k40", "TitanBlack" -> "titan-black", ...); a
 * database name maps to itself.  NULL when unknown.  The result is static. */
const char *ws_valid_gpu_name(const char *name);
/* The table's rows: CSV spelling and database name (static strings). */
size_t ws_valid_gpu_table_count(void);
const char *ws_valid_gpu_table_csv(size_t i);
const char *ws_valid_gpu_table_db(size_t i);
/* "GTX-680 (gtx680), ...; or a database GPU: 8800gt ..." for error messages
 * (malloc'd, caller frees; NULL on ENOMEM). */
char *ws_valid_gpu_known(void);

/* The validation kernels (examples/validation/<name>.cu), in docs order. */
size_t ws_valid_kernel_count(void);
const char *ws_valid_kernel_name(size_t i);
/* 1 if `name` is one of them. */
int ws_valid_kernel_known(const char *name);

/* The launch spec (DESIGN.md "Launch spec") for one row: grid and block from
 * the row, buffers and scalars from Input.Size, random inputs.  Checks the
 * row's grid against Input.Size and the shared memory against the block; a
 * mismatch is an error naming origin:line.  The spec's path (for the
 * emulator's messages) is "origin:line".  The caller owns *out
 * (ws_emu_launch_spec_free). */
int ws_valid_launch(ws_launch_spec **out, const ws_valid_row *row,
                    const char *origin, ws_diag *d);
/* A launch spec as JSON text that ws_emu_launch_spec_parse() reads back to the
 * same spec (indented; `validate --launches DIR`).  Relative
 * init files are written as resolved.  malloc'd (caller frees); NULL on
 * ENOMEM or for an f16/bf16 scalar, which the format has no value for. */
char *ws_valid_launch_json(const ws_launch_spec *s);

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
/* The shallow copy ws_valid_run_models uses: *out = *p with the row's
 * registers and shared bytes and no occupancy fields.  `out` borrows p's
 * kernel name and JSON: never ws_profile_free() it. */
void ws_valid_measured_profile(ws_profile *out, const ws_profile *p,
                               const ws_valid_row *row);

/* Profile cache ----------------------------------------------------------
 * A profile depends on the kernel, its PTX, the launch and the compute
 * capability, not on the GPU model or the performance model: the key is a
 * hash of kernel name + PTX text + grid + block + args (with their init) +
 * dynamic shared bytes + CC major.minor + sample_blocks.  Entries are profile
 * JSON files DIR/<kernel>-<key>.json. */

/* The 16-hex-digit key (FNV-1a 64 over a canonical text of the inputs). */
int ws_valid_cache_key(char out[17], const char *kernel, const char *ptx_text,
                       const ws_launch_spec *launch, int cc_major, int cc_minor,
                       int sample_blocks);
/* The key validation uses: ws_valid_cache_key's inputs plus every GPU fact
 * the profiler reads besides the compute capability — the cache facts (L1
 * and L2 sizes, lines, sectors, ways, whether L1 caches global loads), the
 * number of SMs (one simulated L1 each), the per-thread register limit and
 * the Kothapalli op_cycles (the costliest-warp weights).  Two GPUs share a
 * profile exactly when the profiler would compute the same numbers; the
 * performance models' own parameters (what calibration changes) are not in
 * the key. */
int ws_valid_cache_key_gpu(char out[17], const char *kernel, const char *ptx_text,
                           const ws_launch_spec *launch, const ws_gpu *g,
                           int sample_blocks);
/* The default folder: $XDG_CACHE_HOME/warpsight, else $HOME/.cache/warpsight,
 * else ".warpsight-cache".  Writes into buf (size n). */
void ws_valid_cache_default_dir(char *buf, size_t n);
/* Look up: WS_OK with *out a profile, WS_EMISSING when absent or unreadable
 * (a warning then names the file). */
int ws_valid_cache_get(ws_profile **out, const char *dir, const char *kernel,
                       const char *key, ws_diag *d);
/* Store (creating dir; written to a temporary file then renamed). */
int ws_valid_cache_put(const char *dir, const char *kernel, const char *key,
                       const ws_profile *p, ws_diag *d);

/* Statistics -------------------------------------------------------------*/

typedef struct ws_valid_stats {
  size_t n;            /* pairs used (both finite, measured > 0) */
  double mape;         /* mean |pred - meas| / meas, percent */
  double median_ape;   /* median of the same, percent */
  double within20;     /* fraction (0..1) of pairs with |error| <= 20 % */
  double spearman;     /* Spearman rank correlation (average ranks for ties); NaN if n < 2 or a constant series */
} ws_valid_stats;

/* Statistics over the pairs; pairs with a non-finite value or measured <= 0
 * are skipped.  Returns WS_OK (n may be 0: all fields NaN) or WS_ENOMEM. */
int ws_valid_stats_compute(ws_valid_stats *out, const double *measured,
                           const double *predicted, size_t n);
/* Signed error in percent: 100 (pred - meas) / meas. */
double ws_valid_error_pct(double measured, double predicted);
/* Average ranks (1-based; ties share the mean of their positions). */
int ws_valid_ranks(double *out, const double *x, size_t n);

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
  const char *const *gpu_file_names; /* rows of gpu_file_names[i] use the GPU file */
  const char *const *gpu_file_paths; /* gpu_file_paths[i] instead of the database */
  size_t ngpu_files;                 /* entries in both (0: database only) */
  /* A generic row's .cu kernel file: *ptx_path = a malloc'd path of its PTX
   * (the caller's compiler, e.g. nvcc -ptx); NULL: a .cu file is an error. */
  int (*compile_cu)(char **ptx_path, const char *cu_path, void *user, ws_diag *d);
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
/* The statistics tables as text (malloc'd, caller frees; NULL on ENOMEM):
 * per model, the rows of each GPU and kernel, each GPU, and all rows, with
 * rows, MAPE, median error, fraction within 20 % and Spearman's rho; then,
 * marked "!", how many of the model's predictions fall below a physical
 * floor of their launch (DRAM or issue, docs/models/floors.md) and the
 * worst one with its reason. */
char *ws_valid_report_text(const ws_valid_report *r);
/* Per-row CSV: kernel,gpu,input_size,grid,block,measured_s, then
 * predicted_s_<model> and error_pct_<model> for each model. */
int ws_valid_report_csv(const ws_valid_report *r, const char *path, ws_diag *d);
/* Per-row floors CSV (docs/models/floors.md): line,kernel,gpu,floor_dram_s,
 * floor_issue_s, then below_floor_<model> (1 when that model's prediction
 * is below a floor, 0 when not, empty when it did not run). */
int ws_valid_report_floors_csv(const ws_valid_report *r, const char *path, ws_diag *d);
/* Log-log scatter of predicted against measured time for one model, one
 * colour and marker per kernel, the y = x line: writes PATH.png and PATH.svg
 * (ws_chart_scatter).  WS_EUNSUP when built without cairo. */
int ws_valid_report_chart(const ws_valid_report *r, size_t model,
                          const char *path_without_ext, ws_diag *d);

/* Calibration ------------------------------------------------------------*/

/* The parameters of `model` that calibration fits (NULL-terminated list),
 * or NULL when the model has none. */
const char *const *ws_valid_fittable(const char *model);

/* Predicted time in seconds for row i with parameter vector theta. */
typedef double (*ws_valid_time_fn)(size_t i, const double *theta, void *user);

typedef struct ws_valid_fit {
  double *theta;       /* fitted parameters (owned), np entries */
  size_t np;           /* parameters */
  double cost0, cost;  /* sum of squared log residuals before and after */
  size_t iterations;   /* solver iterations */
  int converged;       /* 1 if the solver met its tolerance */
} ws_valid_fit;

/* Minimise sum_i (log time(i, theta) - log measured[i])^2 over the rows
 * idx[0..nidx) with GSL's trust-region nonlinear least squares (Levenberg-
 * Marquardt), parameters kept positive by fitting log theta.  WS_EUNSUP when
 * built without GSL. */
int ws_valid_fit_run(ws_valid_fit *out, ws_valid_time_fn time, void *user,
                     const double *measured, const size_t *idx, size_t nidx,
                     const double *theta0, size_t np, ws_diag *d);
void ws_valid_fit_free(ws_valid_fit *f);

/* The train/test split, fixed before any result was looked at
 * (docs/validation.md, "Train and test"): for each (GPU, kernel) pair, its
 * rows sorted by input size (ties in file order) alternate train (even
 * positions, the smallest size first) / test (odd).  Fills train/test index
 * arrays (caller-allocated, nsubset entries each) and their counts. */
void ws_valid_split(size_t *train, size_t *ntrain, size_t *test,
                    size_t *ntest, const ws_valid_row *rows,
                    const size_t *subset, size_t nsubset);

/* Set every row's `half` by ws_valid_split over all rows of the file, so a
 * row's half never depends on the filters.  WS_OK or WS_ENOMEM. */
int ws_valid_assign_halves(ws_valid_data *v);

/* Calibration of one model on one GPU's rows. */
#define WS_VALID_MAX_PARAMS 12
typedef struct ws_valid_calib {
  const char *const *params;          /* fitted parameter names (static) */
  size_t np;                          /* entries in params */
  double theta0[WS_VALID_MAX_PARAMS]; /* values before (the GPU's) */
  double theta[WS_VALID_MAX_PARAMS];  /* values after */
  size_t ntrain, ntest;               /* rows in each half */
  ws_valid_stats train_before, train_after; /* errors on the training half */
  ws_valid_stats test_before, test_after;   /* errors on the held-out half */
  size_t iterations;                  /* solver iterations */
  int converged;                      /* the solver met its tolerance */
} ws_valid_calib;

/* Fit the fittable parameters of `model` on GPU g to rows[0..n) whose
 * profiles are profiles[0..n) (all rows of that GPU), training on the
 * ws_valid_split half and reporting both halves.  The fit starts from
 * every combination of {1/2, 1, 2} x the GPU's values and keeps the best.
 * g is not changed (the fit runs on a copy); ws_valid_calibrated_gpu makes
 * the calibrated GPU. */
int ws_valid_calibrate(ws_valid_calib *out, const ws_gpu *g, const char *model,
                       const ws_valid_row *rows, ws_profile *const *profiles,
                       size_t n, ws_diag *d);

/* A new GPU: g with c's fitted values (ws_gpu_with_params); with a
 * `source`, each becomes {"value", "source", "estimate": true} when written
 * out (ws_gpu_to_json); without, the old entries keep their sources. */
int ws_valid_calibrated_gpu(ws_gpu **out, const ws_gpu *g, const char *model,
                            const ws_valid_calib *c, const char *source);

#ifdef __cplusplus
}
#endif
#endif
