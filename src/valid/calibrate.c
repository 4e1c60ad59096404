/*
 * calibrate.c — fit a model's machine parameters for one GPU to measured
 * times (docs/validation.md, "Calibration"): split the rows, fit on the
 * training half with ws_valid_fit_run, report the error of both halves
 * before and after.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "warpsight/model.h"
#include "valid/valid_int.h"
#include "warpsight/valid_calib.h"

typedef struct calib_ctx {
  ws_gpu **gpu;                 /* working copies, one per board: their typed
                                   parameters are overwritten per evaluation */
  size_t ngpu;                  /* entries in gpu */
  const size_t *row_gpu;        /* by row: its board in gpu (NULL: all 0) */
  const char *model;            /* model name */
  ws_gp_id ids[WS_VALID_MAX_PARAMS]; /* the fitted parameters */
  size_t np;                    /* entries in ids */
  ws_profile *const *profiles;  /* by row */
  const ws_valid_row *rows;     /* the measured rows (their builds' resources) */
} calib_ctx;

static double model_time(size_t i, const double *theta, void *user) {
  calib_ctx *c = user;
  /* one set of per-unit constants for every board: each board's own facts
   * (SMs, L2 slices, bandwidth, clock) scale them in the model */
  ws_gpu *g = c->gpu[c->row_gpu ? c->row_gpu[i] : 0];
  for (size_t j = 0; j < c->np; j++) g->params[c->ids[j]].value = theta[j];
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_profile p; /* as ws_valid_run_models sees it */
  ws_valid_measured_profile(&p, c->profiles[i], &c->rows[i]);
  double t = ws_model_predict(&r, c->model, &p, g, NULL) == WS_OK
                 ? r.time_ms / 1000.0
                 : NAN;
  ws_model_result_free(&r);
  return t;
}

static int half_stats(ws_valid_stats *out, calib_ctx *c, const double *theta,
                      const ws_valid_row *rows, const size_t *idx, size_t n) {
  double *m = malloc((n ? n : 1) * sizeof *m), *p = malloc((n ? n : 1) * sizeof *p);
  if (!m || !p) {
    free(m), free(p);
    return WS_ENOMEM;
  }
  for (size_t k = 0; k < n; k++) {
    m[k] = rows[idx[k]].measured_s;
    p[k] = model_time(idx[k], theta, c);
  }
  int st = ws_valid_stats_compute(out, m, p, n);
  free(m), free(p);
  return st;
}

int ws_valid_calibrated_gpu(ws_gpu **out, const ws_gpu *g, const char *model,
                            const ws_valid_calib *c, const char *source) {
  ws_gp_change ch[WS_VALID_MAX_PARAMS];
  for (size_t j = 0; j < c->np; j++) {
    int id = ws_gpu_param_find(model, c->params[j]);
    if (id < 0) return WS_EINVAL;
    ch[j] = (ws_gp_change){(ws_gp_id)id, c->theta[j], source, source != NULL};
  }
  return ws_gpu_with_params(out, g, ch, c->np);
}

/* The fitted values must stay in the range a GPU file may hold: the GPU
 * they make is written out and read back with the loader's checks
 * (docs/gpu-schema.md, "Value checks").  A fit to absurd measured times
 * (1e300 s) leaves it; then no file that the loader refuses is written. */
static int check_fit(const ws_gpu *g, const char *model, const ws_valid_calib *c, ws_diag *d) {
  ws_gpu *cal = NULL, *back = NULL;
  int st = ws_valid_calibrated_gpu(&cal, g, model, c, NULL);
  if (st) return st;
  char *json = ws_gpu_to_json(cal);
  ws_gpu_free(cal);
  if (!json) return WS_ENOMEM;
  ws_diag ld = WS_DIAG_INIT;
  st = ws_gpu_load_json(&back, json, "calibrated GPU", &ld);
  free(json);
  ws_gpu_free(back);
  if (st == WS_OK || st == WS_ENOMEM) {
    ws_diag_free(&ld);
    return st;
  }
  ws_strbuf fit = WS_STRBUF_INIT;
  for (size_t j = 0; j < c->np; j++)
    ws_sb_printf(&fit, "%s%s = %.6g", j ? ", " : "", c->params[j], c->theta[j]);
  ws_diag_error(d, "calibrate: the fit leaves the physical range (%s): the GPU file it makes "
                   "would not load, so none is written; check the measured times",
                ws_sb_str(&fit));
  for (size_t k = 0; k < ld.count; k++)
    if (ld.items[k].severity == WS_SEV_ERROR)
      ws_diag_add(d, WS_SEV_NOTE, NULL, 0, 0, "%s", ld.items[k].message);
  ws_sb_free(&fit);
  ws_diag_free(&ld);
  return WS_EINVAL;
}

int ws_valid_calibrate(ws_valid_calib *out, const ws_gpu *g, const char *model,
                       const ws_valid_row *rows, ws_profile *const *profiles, size_t n,
                       ws_diag *d) {
  return ws_valid_calibrate_boards(out, &g, 1, NULL, model, rows, profiles, n, d);
}

int ws_valid_calibrate_boards(ws_valid_calib *out, const ws_gpu *const *gpus, size_t ngpu,
                              const size_t *row_gpu, const char *model,
                              const ws_valid_row *rows, ws_profile *const *profiles, size_t n,
                              ws_diag *d) {
  return ws_valid_calibrate_fixing(out, gpus, ngpu, row_gpu, model, NULL, 0, rows, profiles, n,
                                   d);
}

int ws_valid_calibrate_fixing(ws_valid_calib *out, const ws_gpu *const *gpus, size_t ngpu,
                              const size_t *row_gpu, const char *model,
                              const char *const *fixed, size_t nfixed,
                              const ws_valid_row *rows, ws_profile *const *profiles, size_t n,
                              ws_diag *d) {
  memset(out, 0, sizeof *out);
  if (!gpus || ngpu == 0) return WS_EINVAL;
  for (size_t i = 0; row_gpu && i < n; i++)
    if (row_gpu[i] >= ngpu) return WS_EINVAL;
  const ws_gpu *g = gpus[0]; /* the starting values and the range check */
  const char *const *params = ws_valid_fittable(model);
  if (!params)
    return ws_diag_error(d, "calibrate: model '%s' has no fittable parameters (warpsight: "
                            "docs/models/warpsight.md; hong-kim: mem_ld, departure_del_uncoal, departure_del_coal; gpuperf: "
                            "dram_lat, delta)", model);
  size_t np = 0, nall = 0;
  while (params[nall]) nall++;
  for (size_t k = 0; k < nfixed; k++) {
    size_t j = 0;
    while (j < nall && strcmp(params[j], fixed[k])) j++;
    if (j == nall) {
      ws_strbuf all = WS_STRBUF_INIT;
      for (j = 0; j < nall; j++) ws_sb_printf(&all, "%s%s", j ? ", " : "", params[j]);
      int st = ws_diag_error(d, "calibrate: '%s' is not a fitted parameter of %s (%s)", fixed[k],
                             model, ws_sb_str(&all));
      ws_sb_free(&all);
      return st;
    }
  }
  for (size_t j = 0; j < nall; j++) {
    int keep = 1;
    for (size_t k = 0; k < nfixed; k++) keep &= strcmp(params[j], fixed[k]) != 0;
    if (!keep) continue;
    if (np == WS_VALID_MAX_PARAMS) return WS_EINVAL;
    out->name_buf[np++] = params[j];
  }
  if (np == 0) return ws_diag_error(d, "calibrate: every parameter of %s is fixed: nothing to fit",
                                    model);
  params = out->name_buf;
  out->params = out->name_buf;
  out->np = np;
  calib_ctx c = {NULL, ngpu, row_gpu, model, {0}, np, profiles, rows};
  for (size_t j = 0; j < np; j++) {
    int id = ws_gpu_param_find(model, params[j]);
    if (id < 0 || !isfinite(out->theta0[j] = ws_gpu_p(g, (ws_gp_id)id)))
      return ws_diag_error(d, "calibrate: GPU '%s' needs a starting value for models.%s.%s",
                           g->name, model, params[j]);
    c.ids[j] = (ws_gp_id)id;
    /* the boards share the constants: they must start from the same ones */
    for (size_t b = 1; b < ngpu; b++)
      if (!(ws_gpu_p(gpus[b], (ws_gp_id)id) == out->theta0[j]))
        return ws_diag_error(d, "calibrate: GPUs '%s' and '%s' start from different values of "
                                "models.%s.%s (%g, %g): boards fitted together share their "
                                "architecture's constants",
                             g->name, gpus[b]->name, model, params[j], out->theta0[j],
                             ws_gpu_p(gpus[b], (ws_gp_id)id));
  }
  size_t *all = malloc((n ? n : 1) * sizeof *all);
  size_t *train = malloc((n ? n : 1) * sizeof *train);
  size_t *test = malloc((n ? n : 1) * sizeof *test);
  double *meas = malloc((n ? n : 1) * sizeof *meas);
  int st = WS_OK;
  c.gpu = calloc(ngpu, sizeof *c.gpu);
  int copied = c.gpu != NULL;
  for (size_t b = 0; copied && b < ngpu; b++)
    copied = ws_gpu_with_params(&c.gpu[b], gpus[b], NULL, 0) == WS_OK;
  if (!all || !train || !test || !meas || !copied) {
    st = WS_ENOMEM;
    goto done;
  }
  for (size_t i = 0; i < n; i++) all[i] = i, meas[i] = rows[i].measured_s;
  /* The file's fixed halves (ws_valid_assign_halves); rows built by hand
   * without them are split here the same way. */
  int halves = n > 0;
  for (size_t i = 0; i < n; i++) halves &= rows[i].half == WS_VALID_TRAIN || rows[i].half == WS_VALID_TEST;
  if (halves) {
    out->ntrain = out->ntest = 0;
    for (size_t i = 0; i < n; i++) {
      if (rows[i].half == WS_VALID_TRAIN) train[out->ntrain++] = i;
      else test[out->ntest++] = i;
    }
  } else {
    ws_valid_split(train, &out->ntrain, test, &out->ntest, rows, all, n);
  }
  if ((st = half_stats(&out->train_before, &c, out->theta0, rows, train, out->ntrain)) ||
      (st = half_stats(&out->test_before, &c, out->theta0, rows, test, out->ntest)))
    goto done;
  /* Multi-start: the models are piecewise (min/max of cases), and in some
   * cases a parameter has no effect at all (e.g. GPUPerf's DRAM_lat when
   * CWP > MWP), so a local solver started there cannot move it.  Start from
   * every combination of {1/2, 1, 2} x the GPU's values (3^np starts, the
   * GPU's own values first) and keep the lowest training cost. */
  double best = INFINITY, start[WS_VALID_MAX_PARAMS];
  size_t nstarts = 1;
  for (size_t j = 0; j < np; j++) nstarts *= 3;
  /* Beyond 3 parameters 3^np starts cost too much (6,561 for warpsight's
   * 8): start from the GPU's values, all halved and all doubled. */
  int few = np > 3;
  if (few) nstarts = 3;
  static const double scale[3] = {1.0, 0.5, 2.0};
  ws_diag first = WS_DIAG_INIT; /* the first start's errors, or a fatal one's */
  for (size_t s = 0; s < nstarts; s++) {
    size_t code = s;
    for (size_t j = 0; j < np; j++, code /= 3)
      start[j] = out->theta0[j] * scale[few ? s : code % 3];
    ws_valid_fit f;
    ws_diag fd = WS_DIAG_INIT;
    st = ws_valid_fit_run(&f, model_time, &c, meas, train, out->ntrain, start, np, &fd);
    if (st == WS_OK && f.cost < best) {
      best = f.cost;
      memcpy(out->theta, f.theta, np * sizeof *f.theta);
      out->iterations = f.iterations;
      out->converged = f.converged;
    }
    ws_valid_fit_free(&f);
    /* ENOMEM or EUNSUP stop at once; the first start's errors are kept in
     * case every start fails (too few rows, a bad value). */
    int stop = st != WS_OK && st != WS_EINVAL;
    if (stop || (s == 0 && st != WS_OK)) {
      ws_diag_free(&first);
      first = fd;
    } else {
      ws_diag_free(&fd);
    }
    if (stop) break;
  }
  if (!isfinite(best)) {
    for (size_t k = 0; k < first.count; k++)
      ws_diag_add(d, first.items[k].severity, NULL, 0, 0, "%s", first.items[k].message);
    ws_diag_free(&first);
    if (st == WS_OK || st == WS_EINVAL)
      st = ws_diag_error(d, "calibrate: the fit failed from every starting point");
    goto done;
  }
  ws_diag_free(&first);
  if ((st = check_fit(g, model, out, d)) ||
      (st = half_stats(&out->train_after, &c, out->theta, rows, train, out->ntrain)) ||
      (st = half_stats(&out->test_after, &c, out->theta, rows, test, out->ntest)))
    goto done;
done:
  for (size_t b = 0; c.gpu && b < ngpu; b++) ws_gpu_free(c.gpu[b]);
  free(c.gpu);
  free(all), free(train), free(test), free(meas);
  return st;
}
