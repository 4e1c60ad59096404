/*
 * warpsight/valid_calib.h — calibration (docs/validation.md, `warpsight calibrate`):
 * fitting a model's machine parameters for one GPU to measured times.
 *
 * Ownership: every ws_*_load/_read/_new gives the caller an object to release
 * with the matching _free (NULL is a no-op).
 */
#ifndef WARPSIGHT_VALID_CALIB_H
#define WARPSIGHT_VALID_CALIB_H

#include <stddef.h>

#include "warpsight/gpu.h"
#include "warpsight/profile.h"
#include "warpsight/util.h"
#include "warpsight/valid_data.h"
#include "warpsight/valid_predict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Calibration ------------------------------------------------------------*/

/* The parameters of `model` that calibration fits (NULL-terminated list),
 * or NULL when the model has none. */
const char *const *ws_valid_fittable(const char *model);

/* Calibration of one model on one GPU's rows. */
#define WS_VALID_MAX_PARAMS 16
typedef struct ws_valid_calib {
  const char *const *params;          /* fitted parameter names (in name_buf) */
  const char *name_buf[WS_VALID_MAX_PARAMS]; /* their (static) names */
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

/* The same fit over several boards of one architecture at once: one set of
 * values (the architecture's per-unit constants) for every board, row i
 * predicted on gpus[row_gpu[i]] (its own SMs, L2 slices, bandwidth and
 * clock scale them in the model).  Every board must start from the same
 * values (they derive from the same constants).  ws_valid_calibrate is
 * this with one board. */
int ws_valid_calibrate_boards(ws_valid_calib *out, const ws_gpu *const *gpus, size_t ngpu,
                              const size_t *row_gpu, const char *model,
                              const ws_valid_row *rows, ws_profile *const *profiles, size_t n,
                              ws_diag *d);

/* ws_valid_calibrate_boards with fixed[0..nfixed) (fittable parameter
 * names) kept at the GPUs' values instead of fitted: a parameter the rows
 * cannot identify (no row bound by it, so the fit carries it to a bound of
 * its box) is stated from elsewhere and the others fitted around it.  A
 * name that is not fittable is an error naming the fittable ones. */
int ws_valid_calibrate_fixing(ws_valid_calib *out, const ws_gpu *const *gpus, size_t ngpu,
                              const size_t *row_gpu, const char *model,
                              const char *const *fixed, size_t nfixed,
                              const ws_valid_row *rows, ws_profile *const *profiles, size_t n,
                              ws_diag *d);

/* A new GPU: g with c's fitted values (ws_gpu_with_params); with a
 * `source`, each becomes {"value", "source", "estimate": true} when written
 * out (ws_gpu_to_json); without, the old entries keep their sources. */
int ws_valid_calibrated_gpu(ws_gpu **out, const ws_gpu *g, const char *model,
                            const ws_valid_calib *c, const char *source);

#ifdef __cplusplus
}
#endif
#endif
