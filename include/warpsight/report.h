/*
 * warpsight/report.h — turning model results and advice into things people
 * read: the advisor's text and the charts.
 *
 * Charts (docs/charts.md) are written twice, as PATH.png and PATH.svg, from
 * the terms of one ws_model_result:
 *   ws_chart_benefit   GPUPerf's benefit X-Y chart (Sim et al. Figure 4)
 *   ws_chart_transit   the transit figure (Li et al. Figure 6)
 *   ws_chart_roofline  the roofline with the kernel's point (Williams et al.)
 *   ws_chart_scatter   points in series (validation: predicted vs measured)
 * cairo draws the text of an SVG as glyph outlines, so every label is also
 * written as a transparent SVG <text> element (and the title as <title>):
 * the SVG stays searchable and accessible.  Without cairo at build time
 * (WS_HAVE_CAIRO undefined) the chart functions return WS_EUNSUP with a
 * diagnostic saying so.
 *
 * Ownership: strings returned are malloc'd and the caller frees them; the
 * results and advice passed in are borrowed for the call.
 */
#ifndef WARPSIGHT_REPORT_H
#define WARPSIGHT_REPORT_H

#include "warpsight/advise.h"
#include "warpsight/model.h"
#include "warpsight/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The advice as text: the bottleneck line, then one numbered line per item
 * with its action indented below.  NULL on ENOMEM. */
char *ws_report_advice_text(const ws_advice *a);

/* 1 if this library was built with chart support (cairo). */
int ws_chart_available(void);
/* Release the font caches cairo keeps for the life of the process, so leak
 * checkers stay quiet.  Call at most once, at exit, when no other thread
 * uses cairo. */
void ws_chart_shutdown(void);

/* Each writes PATH.png and PATH.svg.  WS_EMISSING when the result lacks a
 * term the chart needs (the diagnostic names it), WS_EIO when a file cannot
 * be written, WS_EUNSUP without cairo. */
int ws_chart_benefit(const char *path_without_ext,
                     const ws_model_result *gpuperf, ws_diag *d);
int ws_chart_transit(const char *path_without_ext,
                     const ws_model_result *transit, ws_diag *d);
int ws_chart_roofline(const char *path_without_ext,
                      const ws_model_result *roofline, ws_diag *d);

/* A scatter chart (used by validation: predicted against measured time),
 * one colour and marker per series with a legend, optionally log-log and
 * with the y = x line.  Points with a non-finite coordinate, or a
 * non-positive one on log axes, are skipped. */
typedef struct ws_chart_series {
  const char *label;  /* legend text */
  const double *x;    /* n values (borrowed) */
  const double *y;    /* n values (borrowed) */
  size_t n;           /* points */
} ws_chart_series;

typedef struct ws_chart_scatter_spec {
  const char *title;  /* above the plot */
  const char *desc;   /* one line for the SVG's <desc> (may be NULL) */
  const char *xlabel; /* with units */
  const char *ylabel; /* with units */
  int loglog;         /* both axes logarithmic, whole decades */
  int diagonal;       /* same range on both axes and the y = x line */
} ws_chart_scatter_spec;

int ws_chart_scatter(const char *path_without_ext,
                     const ws_chart_scatter_spec *spec,
                     const ws_chart_series *series, size_t nseries,
                     ws_diag *d);

/* The chart for a result by its model's name ("gpuperf", "transit",
 * "roofline"); WS_EUNSUP (without a diagnostic) for models with none. */
int ws_chart_for_result(const char *path_without_ext,
                        const ws_model_result *r, ws_diag *d);

#ifdef __cplusplus
}
#endif
#endif
