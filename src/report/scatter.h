/*
 * scatter.h — a log-log (or linear) scatter chart with cairo, PNG or SVG by
 * the file extension.  Private to the library (src/report).
 */
#ifndef WS_REPORT_SCATTER_H
#define WS_REPORT_SCATTER_H

#include <stddef.h>

#include "warpsight/util.h"

typedef struct ws_scatter_series {
  const char *label;  /* legend text */
  const double *x;    /* n x values (borrowed) */
  const double *y;    /* n y values (borrowed) */
  size_t n;           /* points; non-finite or (log axes) non-positive ones are skipped */
} ws_scatter_series;

typedef struct ws_scatter_spec {
  const char *title;   /* above the plot */
  const char *xlabel;  /* with units */
  const char *ylabel;  /* with units */
  int loglog;          /* 1: both axes logarithmic (decade ticks) */
  int diagonal;        /* 1: draw y = x */
  int width, height;   /* pixels (PNG) or points (SVG); 0: 900 x 700 */
} ws_scatter_spec;

/* Write the chart to `path` (.png or .svg).  WS_EUNSUP without cairo or
 * for another extension; WS_EIO when the file cannot be written. */
int ws_scatter_write(const char *path, const ws_scatter_spec *spec,
                     const ws_scatter_series *series, size_t nseries, ws_diag *d);

#endif
