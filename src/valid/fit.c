/*
 * fit.c — calibration of a model's machine parameters against measured
 * times (docs/validation.md, "Calibration").
 *
 * Residual of row i:  r_i(phi) = log time(i, exp(phi)) - log measured_i
 * minimised in the least-squares sense over phi = log theta with GSL's
 * trust-region solver (gsl_multifit_nlinear, Levenberg-Marquardt steps,
 * finite-difference Jacobian).  Fitting log theta keeps every parameter
 * positive (latencies and delays are) and makes the step sizes relative.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "valid/valid_int.h"
#include "warpsight/valid_calib.h"

#ifdef WS_HAVE_GSL
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#endif

/* The parameters calibration may fit, per model: the memory-system
 * parameters each paper measured with micro-benchmarks (Hong & Kim Table 6,
 * Sim et al. Table 3), not the architecture facts. */
static const char *const fit_hong_kim[] = {"mem_ld", "departure_del_uncoal",
                                           "departure_del_coal", NULL};
static const char *const fit_gpuperf[] = {"dram_lat", "delta", NULL};
/* warpsight: the per-architecture rates and scales that data sheets do not
 * give (docs/models/warpsight.md); barrier cycles and the FP64 lanes stay as
 * estimated (no data set has a kernel that exercises them). */
static const char *const fit_warpsight[] = {"issue_rate", "lsu_rate", "l2_bytes_per_slice",
                                            "dram_efficiency", "alu_latency_scale",
                                            "mem_latency_scale", "overlap_p", "launch_us",
                                            "block_cycles", "divergence_penalty",
                                            "partition_camping", "atomic_cycles",
                                            "atomic_lane_cycles", NULL};
static const struct {
  const char *model;          /* model name */
  const char *const *params;  /* NULL-terminated */
} fittable[] = {
    {"warpsight", fit_warpsight},
    {"hong-kim", fit_hong_kim},
    {"gpuperf", fit_gpuperf},
};

const char *const *ws_valid_fittable(const char *model) {
  for (size_t i = 0; i < sizeof fittable / sizeof fittable[0]; i++)
    if (strcmp(fittable[i].model, model) == 0) return fittable[i].params;
  return NULL;
}

void ws_valid_fit_free(ws_valid_fit *f) {
  if (!f) return;
  free(f->theta);
  f->theta = NULL;
  f->np = 0;
}

#ifdef WS_HAVE_GSL
typedef struct fit_ctx {
  ws_valid_time_fn time;   /* the model */
  void *user;              /* its context */
  const double *measured;  /* measured times, by row */
  const size_t *idx;       /* rows fitted */
  size_t np;               /* parameters */
  double *theta;           /* scratch: exp(phi) */
  const double *theta0;    /* the start */
} fit_ctx;

/* The solver's phi_j kept within e^+-PHI_BOX of the start (and a NaN step
 * back at the start): a parameter without effect on the rows (a term that
 * is 0 for every training row) has no gradient, and the trust-region
 * steps could otherwise carry it to an infinite or zero value that no GPU
 * file can state. */
#define PHI_BOX 30.0
static double theta_of(double phi, double theta0) {
  double p0 = log(theta0);
  if (!(phi == phi)) phi = p0;
  if (phi > p0 + PHI_BOX) phi = p0 + PHI_BOX;
  if (phi < p0 - PHI_BOX) phi = p0 - PHI_BOX;
  return exp(phi);
}

/* A residual for a non-positive or non-finite prediction: large, so the
 * solver backs away, but finite, so it can. */
#define BAD_RESIDUAL 50.0

static int residuals(const gsl_vector *phi, void *data, gsl_vector *f) {
  fit_ctx *c = data;
  for (size_t j = 0; j < c->np; j++) c->theta[j] = theta_of(gsl_vector_get(phi, j), c->theta0[j]);
  for (size_t k = 0; k < f->size; k++) {
    size_t i = c->idx[k];
    double t = c->time(i, c->theta, c->user);
    double r = t > 0 && isfinite(t) ? log(t) - log(c->measured[i]) : BAD_RESIDUAL;
    gsl_vector_set(f, k, r);
  }
  return GSL_SUCCESS;
}
#endif

int ws_valid_fit_run(ws_valid_fit *out, ws_valid_time_fn time, void *user,
                     const double *measured, const size_t *idx, size_t nidx,
                     const double *theta0, size_t np, ws_diag *d) {
  memset(out, 0, sizeof *out);
  if (np == 0 || nidx < np)
    return ws_diag_error(d, "calibration needs at least as many rows (%zu) as parameters (%zu)",
                         nidx, np);
  for (size_t j = 0; j < np; j++)
    if (!(theta0[j] > 0) || !isfinite(theta0[j]))
      return ws_diag_error(d, "calibration: starting value %zu (%g) must be positive", j,
                           theta0[j]);
  for (size_t k = 0; k < nidx; k++)
    if (!(measured[idx[k]] > 0))
      return ws_diag_error(d, "calibration: measured time of row %zu is not positive", idx[k]);
#ifndef WS_HAVE_GSL
  (void)time, (void)user;
  ws_diag_error(d, "calibration needs GSL; this build has none");
  return WS_EUNSUP;
#else
  int st = WS_OK;
  fit_ctx c = {time, user, measured, idx, np, malloc(np * sizeof(double)), theta0};
  out->theta = malloc(np * sizeof(double));
  gsl_vector *phi = gsl_vector_alloc(np);
  gsl_vector *f0 = gsl_vector_alloc(nidx);
  if (!c.theta || !out->theta || !phi || !f0) {
    st = WS_ENOMEM;
    goto done;
  }
  out->np = np;
  for (size_t j = 0; j < np; j++) gsl_vector_set(phi, j, log(theta0[j]));
  residuals(phi, &c, f0);
  gsl_blas_ddot(f0, f0, &out->cost0);

  gsl_multifit_nlinear_fdf fdf = {0};
  fdf.f = residuals;
  fdf.df = NULL; /* finite differences */
  fdf.fvv = NULL;
  fdf.n = nidx;
  fdf.p = np;
  fdf.params = &c;
  gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
  par.trs = gsl_multifit_nlinear_trs_lm;
  gsl_multifit_nlinear_workspace *w =
      gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, nidx, np);
  if (!w) {
    st = WS_ENOMEM;
    goto done;
  }
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  int info = 0;
  int gs = gsl_multifit_nlinear_init(phi, &fdf, w);
  if (gs == GSL_SUCCESS)
    gs = gsl_multifit_nlinear_driver(200, 1e-10, 1e-10, 1e-12, NULL, NULL, &info, w);
  gsl_set_error_handler(old);
  out->iterations = gsl_multifit_nlinear_niter(w);
  out->converged = gs == GSL_SUCCESS;
  if (gs != GSL_SUCCESS && gs != GSL_EMAXITER && gs != GSL_ENOPROG) {
    ws_diag_error(d, "calibration: the solver failed: %s", gsl_strerror(gs));
    st = WS_EINVAL;
  } else {
    gsl_vector *x = gsl_multifit_nlinear_position(w);
    for (size_t j = 0; j < np; j++) out->theta[j] = theta_of(gsl_vector_get(x, j), theta0[j]);
    gsl_vector *fr = gsl_multifit_nlinear_residual(w);
    gsl_blas_ddot(fr, fr, &out->cost);
  }
  gsl_multifit_nlinear_free(w);
done:
  gsl_vector_free(phi);
  gsl_vector_free(f0);
  free(c.theta);
  if (st) ws_valid_fit_free(out);
  return st;
#endif
}

/* Split ------------------------------------------------------------------*/

typedef struct split_key {
  const ws_valid_row *row;  /* the row */
  size_t index;             /* its index in the data */
} split_key;

/* A row built by hand may have no GPU name: all such rows are one GPU. */
static const char *gpu_of(const ws_valid_row *r) { return r->gpu ? r->gpu : ""; }

static int cmp_split(const void *a, const void *b) {
  const split_key *x = a, *y = b;
  int c = strcmp(gpu_of(x->row), gpu_of(y->row));
  if (c) return c;
  c = strcmp(x->row->kernel, y->row->kernel);
  if (c) return c;
  if (x->row->input_size != y->row->input_size)
    return x->row->input_size < y->row->input_size ? -1 : 1;
  /* same size (several block shapes): file order keeps it deterministic */
  return (x->index > y->index) - (x->index < y->index);
}

void ws_valid_split(size_t *train, size_t *ntrain, size_t *test, size_t *ntest,
                    const ws_valid_row *rows, const size_t *subset, size_t nsubset) {
  *ntrain = *ntest = 0;
  split_key *k = malloc((nsubset ? nsubset : 1) * sizeof *k);
  if (!k) return;
  for (size_t i = 0; i < nsubset; i++) k[i].row = &rows[subset[i]], k[i].index = subset[i];
  qsort(k, nsubset, sizeof *k, cmp_split);
  size_t pos = 0;
  for (size_t i = 0; i < nsubset; i++) {
    if (i > 0 && (strcmp(k[i].row->kernel, k[i - 1].row->kernel) ||
                  strcmp(gpu_of(k[i].row), gpu_of(k[i - 1].row))))
      pos = 0;
    if (pos++ % 2 == 0) train[(*ntrain)++] = k[i].index;
    else test[(*ntest)++] = k[i].index;
  }
  free(k);
}

int ws_valid_assign_halves(ws_valid_data *v) {
  size_t n = v->nrows;
  size_t *all = malloc((n ? n : 1) * sizeof *all), *tr = malloc((n ? n : 1) * sizeof *tr),
         *te = malloc((n ? n : 1) * sizeof *te);
  int st = WS_ENOMEM;
  if (all && tr && te) {
    size_t ntr, nte;
    for (size_t i = 0; i < n; i++) all[i] = i;
    ws_valid_split(tr, &ntr, te, &nte, v->rows, all, n);
    if (ntr + nte == n) {
      for (size_t i = 0; i < ntr; i++) v->rows[tr[i]].half = WS_VALID_TRAIN;
      for (size_t i = 0; i < nte; i++) v->rows[te[i]].half = WS_VALID_TEST;
      st = WS_OK;
    }
  }
  free(all), free(tr), free(te);
  return st;
}
