/*
 * valid/valid_int.h — what the validation part's files share and a library
 * user does not need: the cJSON form of a launch spec, from which both the
 * --launches writer (ws_valid_launch_json) and the profile cache key
 * (ws_valid_cache_key) are made, so a key is the hash of exactly what
 * --launches writes; the data set's loading helpers; the GPU-name table's
 * rows; the measured-resources profile; ranks; the least-squares fit and
 * the train/test split behind ws_valid_calibrate (the unit tests include
 * this header to check them).
 */
#ifndef WS_VALID_VALID_INT_H
#define WS_VALID_VALID_INT_H

#include "warpsight/emu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"
#include "warpsight/valid_data.h"

struct cJSON;

/* The spec as a cJSON object in DESIGN.md's format, keys in the order
 * kernel, grid, block, dynamic_shared_bytes, args (each argument: buffer or
 * scalar, type, then count, init, output or value).  Relative file paths
 * are written as resolved.  NULL on ENOMEM or for an f16/bf16 scalar, which
 * the format cannot hold.  The caller cJSON_Delete()s it. */
struct cJSON *ws_valid_launch_cjson(const ws_launch_spec *s);

struct ws_valid_data;

/* data.c: every row's database GPU name (rows[i].gpu; one error for unknown
 * names).  With allow_files, a name that is a path (holds '/' or ends in
 * .json) is a GPU file resolved against the data file's folder. */
int ws_valid_resolve_gpus(struct ws_valid_data *v, int col, const char *const *extra,
                          size_t nextra, int allow_files, ws_diag *d);
/* data.c: keep a malloc'd string in v (taken over, freed with v); returns
 * it, or NULL (and frees s) on ENOMEM. */
char *ws_valid_keep(struct ws_valid_data *v, char *s);
/* data.c: the file a generic row r names in column col (cell): refused
 * when it begins with '-' or (unless v->flags has WS_VALID_ALLOW_OUTSIDE)
 * lies outside the data file's folder; else *out = its path resolved
 * against that folder (kept in v).  Errors name the file, line and column. */
int ws_valid_data_file(const char **out, ws_valid_data *v, size_t r, int col, const char *cell,
                       ws_diag *d);
/* data.c: the check of ws_valid_data_file for a resolved `path` that row
 * r reaches through `what` ("column launch: the spec's args[0]"),
 * written `name` in the data. */
int ws_valid_confined(ws_valid_data *v, size_t r, const char *what, const char *name,
                      const char *path, ws_diag *d);
/* data.c: `path` resolved against the folder of `origin` (malloc'd). */
char *ws_valid_resolve_path(const char *origin, const char *path);
/* data.c: "FILE:LINE: error: column NAME: what, got 'CELL'"; WS_EINVAL. */
int ws_valid_bad_cell(ws_diag *d, const ws_csv *c, size_t r, int col, const char *what);
/* data.c: a measured time: a plain decimal number (no hex float, inf or
 * nan) from WS_VALID_MIN_SECONDS to WS_VALID_MAX_SECONDS, else an error
 * naming the file, line and column. */
int ws_valid_cell_seconds(double *out, ws_diag *d, const ws_csv *c, size_t r, int col);
/* generic.c: fill v's rows from a CSV in the generic format. */
int ws_valid_load_generic(struct ws_valid_data *v, const char *const *extra, size_t nextra,
                          ws_diag *d);

/* Moved from the public header: used by src/valid (and its tests) only. */

/* The table's rows: CSV spelling and database name (static strings). */
size_t ws_valid_gpu_table_count(void);
const char *ws_valid_gpu_table_csv(size_t i);
const char *ws_valid_gpu_table_db(size_t i);

/* The shallow copy ws_valid_run_models uses: *out = *p with the row's
 * registers and shared bytes and no occupancy fields.  `out` borrows p's
 * kernel name and JSON: never ws_profile_free() it. */
void ws_valid_measured_profile(ws_profile *out, const ws_profile *p,
                               const ws_valid_row *row);

/* Average ranks (1-based; ties share the mean of their positions). */
int ws_valid_ranks(double *out, const double *x, size_t n);

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

#endif
