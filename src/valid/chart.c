/*
 * chart.c — the validation chart: predicted against measured time for one
 * model, log-log, one series per kernel (in the kernel table's order), with
 * the y = x line, drawn by ws_chart_scatter (src/report/charts.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/report.h"
#include "warpsight/valid.h"

int ws_valid_report_chart(const ws_valid_report *r, size_t model, const char *path,
                          ws_diag *d) {
  if (model >= r->nmodels) return ws_diag_error(d, "chart: no model %zu", model);
  size_t nk = ws_valid_kernel_count(), n = r->nrows ? r->nrows : 1;
  ws_chart_series *s = calloc(nk, sizeof *s);
  double *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
  if (!s || !xs || !ys) {
    free(s), free(xs), free(ys);
    return WS_ENOMEM;
  }
  /* points grouped by kernel, each group contiguous in xs/ys */
  size_t k0 = 0;
  for (size_t k = 0; k < nk; k++) {
    const char *name = ws_valid_kernel_name(k);
    s[k].label = name;
    s[k].x = xs + k0;
    s[k].y = ys + k0;
    for (size_t i = 0; i < r->nrows; i++) {
      const ws_valid_outcome *oc = &r->rows[i];
      if (oc->status || strcmp(oc->row->kernel, name)) continue;
      if (!isfinite(oc->time_s[model])) continue;
      xs[k0 + s[k].n] = oc->row->measured_s;
      ys[k0 + s[k].n] = oc->time_s[model];
      s[k].n++;
    }
    k0 += s[k].n;
  }
  char title[256], desc[512];
  snprintf(title, sizeof title, "%s: predicted vs measured kernel time (%zu launches)",
           r->models[model], k0);
  snprintf(desc, sizeof desc,
           "Log-log scatter of the time model %s predicts against the measured time, one "
           "series per kernel; points on the dashed line y = x are exact.",
           r->models[model]);
  ws_chart_scatter_spec spec = {title, desc, "measured time (s)", "predicted time (s)", 1, 1};
  int st = ws_chart_scatter(path, &spec, s, nk, d);
  free(s), free(xs), free(ys);
  return st;
}
