/*
 * stats.c — error statistics of predicted against measured times
 * (docs/validation.md, "Statistics"):
 *   APE_i      = 100 |p_i - m_i| / m_i
 *   MAPE       = mean of APE_i;  median APE (mean of the two middle values
 *                for an even count);  within 20 % = #(APE_i <= 20) / n
 *   Spearman   = Pearson correlation of the average ranks of m and p
 *                (from 3 pairs on; NaN for fewer or a constant series).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "valid/valid_int.h"
#include "warpsight/valid_predict.h"

double ws_valid_error_pct(double measured, double predicted) {
  return 100.0 * (predicted - measured) / measured;
}

typedef struct keyed {
  double v;   /* value */
  size_t i;   /* original position */
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  double x = ((const keyed *)a)->v, y = ((const keyed *)b)->v;
  return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int ws_valid_ranks(double *out, const double *x, size_t n) {
  keyed *k = malloc((n ? n : 1) * sizeof *k);
  if (!k) return WS_ENOMEM;
  for (size_t i = 0; i < n; i++) k[i].v = x[i], k[i].i = i;
  qsort(k, n, sizeof *k, cmp_keyed);
  for (size_t a = 0; a < n;) {
    size_t b = a + 1;
    while (b < n && k[b].v == k[a].v) b++;
    /* positions a..b-1 (0-based) tie: each gets the mean 1-based rank */
    double r = (double)(a + 1 + b) / 2.0;
    for (size_t j = a; j < b; j++) out[k[j].i] = r;
    a = b;
  }
  free(k);
  return WS_OK;
}

static double pearson(const double *x, const double *y, size_t n) {
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++) mx += x[i], my += y[i];
  mx /= (double)n, my /= (double)n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0 || syy == 0) return NAN;
  return sxy / sqrt(sxx * syy);
}

int ws_valid_stats_compute(ws_valid_stats *out, const double *measured,
                           const double *predicted, size_t n) {
  out->n = 0;
  out->mape = out->median_ape = out->within20 = out->spearman = NAN;
  size_t cap = n ? n : 1;
  double *m = malloc(cap * sizeof *m), *p = malloc(cap * sizeof *p);
  double *ape = malloc(cap * sizeof *ape);
  double *rm = malloc(cap * sizeof *rm), *rp = malloc(cap * sizeof *rp);
  int st = WS_OK;
  if (!m || !p || !ape || !rm || !rp) {
    st = WS_ENOMEM;
    goto done;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(measured[i]) || !isfinite(predicted[i]) || measured[i] <= 0) continue;
    m[k] = measured[i], p[k] = predicted[i];
    ape[k] = fabs(ws_valid_error_pct(m[k], p[k]));
    k++;
  }
  out->n = k;
  if (k == 0) goto done;
  double sum = 0;
  size_t in20 = 0;
  for (size_t i = 0; i < k; i++) {
    sum += ape[i];
    if (ape[i] <= 20.0) in20++;
  }
  out->mape = sum / (double)k;
  out->within20 = (double)in20 / (double)k;
  qsort(ape, k, sizeof *ape, cmp_double);
  out->median_ape = k % 2 ? ape[k / 2] : (ape[k / 2 - 1] + ape[k / 2]) / 2.0;
  /* Two pairs are always ranked 1.000 or -1.000 and one has no ranks: a rank
   * correlation says something from three pairs on (NaN below, printed '-'). */
  if (k >= 3) {
    if ((st = ws_valid_ranks(rm, m, k)) || (st = ws_valid_ranks(rp, p, k))) goto done;
    out->spearman = pearson(rm, rp, k);
  }
done:
  free(m), free(p), free(ape), free(rm), free(rp);
  return st;
}
