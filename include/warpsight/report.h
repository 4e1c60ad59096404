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

#include <stdint.h>

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

/* A block-size sweep (`warpsight sweep`, docs/sweep.md): rows are block
 * sizes, each run on every GPU with every model.  Index [r * ngpus + k] for
 * a (row, GPU) figure, [(r * ngpus + k) * nmodels + m] for a time.  NaN
 * where the block cannot run on that GPU or the model could not run. */
typedef struct ws_sweep_table {
  const char *kernel;            /* kernel name (borrowed) */
  size_t nrows;                  /* block sizes */
  const uint64_t *threads;       /* threads per block of each row */
  const uint64_t *blocks;        /* blocks in the grid of each row */
  size_t ngpus;                  /* GPUs */
  const char *const *gpus;       /* their names */
  size_t nmodels;                /* models */
  const char *const *models;     /* their names */
  const double *blocks_per_sm;   /* [r * ngpus + k] resident blocks per SM */
  const double *warps_per_sm;    /* [r * ngpus + k] resident warps per SM */
  const double *occupancy;       /* [r * ngpus + k] warps / the GPU's max, in [0, 1] */
  const char *const *limiter;    /* [r * ngpus + k] what limits it (borrowed), or NULL */
  const double *time_ms;         /* [(r * ngpus + k) * nmodels + m] predicted ms */
} ws_sweep_table;

/* The sweep as a table: one line per (block size, GPU) with the grid,
 * blocks and warps per SM, occupancy and each model's ms.  NULL on ENOMEM. */
char *ws_report_sweep_text(const ws_sweep_table *t);

/* The sweep chart (Hong & Kim ISCA'09 figs. 15-20, Luo & Suda fig. 8):
 * predicted time against threads per block, a line per (GPU, model), and
 * below it occupancy against threads per block, a line per GPU. */
int ws_chart_sweep(const char *path_without_ext, const ws_sweep_table *t, ws_diag *d);

/* The chart for a result by its model's name ("gpuperf", "transit",
 * "roofline"); WS_EUNSUP (without a diagnostic) for models with none. */
int ws_chart_for_result(const char *path_without_ext,
                        const ws_model_result *r, ws_diag *d);

#ifdef __cplusplus
}
#endif
#endif
