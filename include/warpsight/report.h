/*
 * warpsight/report.h — turning results into things people read: the
 * reports of the commands as text on a FILE* (their JSON forms are in the
 * internal report/report_json.h), the advisor's text and the charts.  The
 * renderers only format: the results come from the library, and the CLI
 * decides where they go.
 *
 * Charts (docs/charts.md) are written twice, as PATH.png and PATH.svg, from
 * the terms of one ws_model_result:
 *   ws_report_chart_benefit   GPUPerf's benefit X-Y chart (Sim et al. Figure 4)
 *   ws_report_chart_transit   the transit figure (Li et al. Figure 6)
 *   ws_report_chart_roofline  the roofline with the kernel's point (Williams et al.)
 *   ws_report_chart_scatter   points in series (validation: predicted vs measured)
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
#include <stdio.h>

#include "warpsight/advise.h"
#include "warpsight/analysis.h"
#include "warpsight/model.h"
#include "warpsight/util.h"
#include "warpsight/valid_calib.h"
#include "warpsight/valid_predict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Static analysis (`analyze`) --------------------------------------------*/

/* What `ptxas -v` reported for a function (the CLI runs the tool). */
typedef struct ws_report_ptxas {
  long regs;     /* registers per thread, -1 if not reported */
  long smem;     /* static shared bytes */
  long stack;    /* stack frame (local) bytes */
  long spill_st; /* spill store bytes */
  long spill_ld; /* spill load bytes */
} ws_report_ptxas;

/* The module's line: file, PTX version, target, address size. */
void ws_report_analyze_head(FILE *out, const char *file, const ws_ptx_module *m);
/* One function of m with its analysis c: parameters, registers, static
 * shared and local bytes (ws_prof_kernel_resources), ptxas' figures (pi, or
 * NULL), the basic blocks and the loops. */
void ws_report_analyze_kernel(FILE *out, const ws_ptx_module *m, const ws_ptx_function *f,
                              const ws_cfg *c, const ws_report_ptxas *pi);

/* Launches and profiles (`model`, `predict`) -----------------------------*/

/* A kernel's name for people: "demangled [mangled]" for a C++ name, else
 * the name (written into buf, size bytes). */
void ws_report_kernel_label(char *buf, size_t size, const char *name);
/* `model`'s first line: the kernel, grid, block and GPU, then a blank line. */
void ws_report_model_launch(FILE *out, const ws_profile *p, const ws_gpu *g);
/* `predict`'s key figures of a profile (docs/cli-profile-predict.md): the
 * launch, occupancy and its limiter, resources, instructions by class,
 * transactions per request, hit ratios, bank conflicts, divergence, ILP
 * and MLP, sampling; then a blank line. */
void ws_report_predict_figures(FILE *out, const ws_profile *p, const ws_gpu *g);
/* "bottleneck: ..." after a blank line: the advisor's line when given, else
 * the first result's limiter; nothing when neither exists. */
void ws_report_predict_bottleneck(FILE *out, const char *bottleneck, const ws_model_result *res,
                                  size_t nres);

/* `predict --lines` (docs/cli-profile-predict.md): the `top` heaviest rows
 * of p's line table (every one with top 0) under the primary result's
 * bottleneck (ws_advise_line_metric; NULL: issue slots), with each one's
 * share, counts, path latency and source[i], row i's text (source or an
 * entry NULL: none).  A profile without a line table says so. */
void ws_report_lines(FILE *out, const ws_profile *p, const ws_model_result *primary, size_t top,
                     const char *const *source);

/* Model results (`model`, `predict`) -------------------------------------*/

/* One model's terms in the paper's order with unit and equation, the
 * predicted cycles and time, the floors fl (docs/models/floors.md), the case
 * and the limiter. */
void ws_report_model_terms(FILE *out, const ws_model_result *r, const ws_model_info *info,
                           const ws_floors *fl);
/* --model all: the header, then one row per model (status WS_OK: cycles, ms,
 * the limiter or case, a '!' line below a floor; else why it cannot run:
 * the first missing inputs, or the first error of `md`, the model's
 * diagnostics (may be NULL)). */
void ws_report_models_header(FILE *out);
void ws_report_models_row(FILE *out, const ws_model_info *info, int status,
                          const ws_model_result *r, const ws_floors *fl, const ws_diag *md);
/* `model --terms`: each model's declared terms (name, unit, meaning,
 * equation; model_terms.def) and its cases or bounds with their limiter
 * (model_bounds.def); `model` is a model name or "all". */
void ws_report_model_declarations(FILE *out, const char *model);
/* A --gpu list's comparison: predicted ms, a row per model (those that ran
 * on some GPU), a column per GPU; times[k * ws_model_count() + m] is model
 * m's time on GPU k, NAN where it did not run. */
void ws_report_gpu_table(FILE *out, const char *const *gpus, size_t ngpu, const double *times);
/* "advice" and the advice text (ws_report_advice_text). */
void ws_report_advice(FILE *out, const ws_advice *a);
/* The counterfactual table: a row per change, a column per model. */
void ws_report_counterfactuals(FILE *out, const ws_cf_table *t);

/* GPUs (`gpus`, `gpu`) ---------------------------------------------------*/

/* `gpus`: the header, then a row per GPU (name, CC, SMs, clock, bandwidth,
 * architecture, product name). */
void ws_report_gpus_header(FILE *out);
void ws_report_gpus_row(FILE *out, const ws_gpu *g);
/* `gpu NAME`: every fact, the per-SM limits, the cache, latencies and model
 * parameters, each with its source ([derived] with the rule's arithmetic,
 * [given], [estimate]), as ws_gpu_to_json writes the document.  WS_OK, or
 * WS_ENOMEM before anything is printed. */
int ws_report_gpu(FILE *out, const ws_gpu *g);

/* Validation (`validate`) -----------------------------------------------*/

/* The statistics tables as text (malloc'd, caller frees; NULL on ENOMEM):
 * per model, the rows of each GPU and kernel, each GPU, and all rows, with
 * rows, MAPE, median error, fraction within 20 % and Spearman's rho; then,
 * marked "!", how many of the model's predictions fall below a physical
 * floor of their launch (DRAM or issue, docs/models/floors.md) and the
 * worst one with its reason. */
char *ws_report_validate_text(const ws_valid_report *r);
/* Per-row CSV: kernel,gpu,input_size,grid,block,measured_s, then
 * predicted_s_<model> and error_pct_<model> for each model. */
int ws_report_validate_csv(const ws_valid_report *r, const char *path, ws_diag *d);
/* Per-row floors CSV (docs/models/floors.md): line,kernel,gpu,floor_dram_s,
 * floor_issue_s, then below_floor_<model> (1 when that model's prediction
 * is below a floor, 0 when not, empty when it did not run). */
int ws_report_validate_floors_csv(const ws_valid_report *r, const char *path, ws_diag *d);
/* Log-log scatter of predicted against measured time for one model, one
 * colour and marker per kernel, the y = x line: writes PATH.png and PATH.svg
 * (ws_report_chart_scatter).  WS_EUNSUP when built without cairo. */
int ws_report_validate_chart(const ws_valid_report *r, size_t model,
                          const char *path_without_ext, ws_diag *d);

/* DIR/counters.csv (docs/validation.md, "Counters"): per row, nvprof's
 * counters from the data file beside the same counts from warpsight's
 * profile, for the whole launch.  Written row by row while the run goes
 * (ws_report_counters_row is a ws_valid_options.on_row, its user the
 * ws_report_counters), so no profile is kept.  _open gives *out = NULL (and
 * WS_OK) when the data file has no nvprof counters; _close renames the file
 * into place and frees, _discard removes it and frees (NULL: no-op). */
typedef struct ws_report_counters ws_report_counters;
int ws_report_counters_open(ws_report_counters **out, const ws_valid_data *data,
                            const char *path, ws_diag *d);
void ws_report_counters_row(const ws_valid_outcome *oc, const ws_profile *p, void *user);
int ws_report_counters_close(ws_report_counters *co, ws_diag *d);
void ws_report_counters_discard(ws_report_counters *co);

/* `calibrate`'s result: the fit (rows, iterations, convergence), each
 * parameter before -> after, and the errors on the training and held-out
 * halves before -> after. */
void ws_report_calibration(FILE *out, const char *model, const char *gpu, const ws_valid_calib *c);

/* The advice as text: the bottleneck line, then one numbered line per item
 * with its action indented below.  NULL on ENOMEM. */
char *ws_report_advice_text(const ws_advice *a);
/* The bottleneck line's text: a->bottleneck, else why there is none (no
 * model could run: each model's reason is in the prediction; or none of
 * those that ran names one). */
const char *ws_report_advice_bottleneck(const ws_advice *a);

/* The HTML report (`--report DIR` of predict, exec, validate and sweep;
 * docs/charts.md, "The HTML report"): one self-contained page, built
 * section by section and written at once.  Sections have fixed ids:
 * "launch", "models", "advice", "lines" (the _launch .. _lines calls),
 * and those opened with ws_report_html_open ("charts", "sweep",
 * "validation", "exec").  Charts are inlined from the SVG files the chart
 * functions write.  The page's script adds #ws-script-ok when it ran, or
 * #ws-script-error with the error. */
typedef struct ws_html ws_html;
ws_html *ws_report_html_new(const char *title); /* NULL: out of memory */
void ws_report_html_free(ws_html *h);           /* NULL is a no-op */
/* A heading for one result set (a GPU, a kernel) of a page with several. */
void ws_report_html_heading(ws_html *h, const char *text);
/* The launch: kernel, grid and block, GPU, occupancy, resources, the
 * profile's key figures. */
void ws_report_html_launch(ws_html *h, const ws_profile *p, const ws_gpu *g);
/* The models side by side: time (with a bar), cycles, limiter, floors (fl
 * may be NULL), then each model's terms. */
void ws_report_html_models(ws_html *h, const ws_model_result *res, size_t n, const ws_floors *fl);
/* The bottleneck and the advice (a may be NULL). */
void ws_report_html_advice(ws_html *h, const ws_advice *a);
/* Every line of p's line table with a bar of its share of the primary's
 * bottleneck (ws_advise_line_metric), its counts and source[i] (or NULL). */
void ws_report_html_lines(ws_html *h, const ws_profile *p, const ws_model_result *primary,
                          const char *const *source);
/* Open a section with id and heading; close it. */
void ws_report_html_open(ws_html *h, const char *id, const char *heading);
void ws_report_html_close(ws_html *h);
/* The SVG file at svg_path inline, as a figure with a caption (id may be
 * NULL).  WS_OK, or the error reading it. */
int ws_report_html_svg(ws_html *h, const char *id, const char *heading, const char *svg_path, ws_diag *d);
/* Preformatted text (a table the text report prints), a note. */
void ws_report_html_pre(ws_html *h, const char *text);
void ws_report_html_note(ws_html *h, const char *text);
/* Write the page to path (a temporary file renamed into place). */
int ws_report_html_write(const ws_html *h, const char *path, ws_diag *d);

/* 1 if this library was built with chart support (cairo). */
int ws_report_chart_available(void);
/* Release the font caches cairo keeps for the life of the process, so leak
 * checkers stay quiet.  Call at most once, at exit, when no other thread
 * uses cairo. */
void ws_report_chart_shutdown(void);

/* Each writes PATH.png and PATH.svg.  WS_EMISSING when the result lacks a
 * term the chart needs (the diagnostic names it), WS_EIO when a file cannot
 * be written, WS_EUNSUP without cairo. */
int ws_report_chart_benefit(const char *path_without_ext,
                     const ws_model_result *gpuperf, ws_diag *d);
int ws_report_chart_transit(const char *path_without_ext,
                     const ws_model_result *transit, ws_diag *d);
int ws_report_chart_roofline(const char *path_without_ext,
                      const ws_model_result *roofline, ws_diag *d);

/* A scatter chart (used by validation: predicted against measured time),
 * one colour and marker per series with a legend, optionally log-log and
 * with the y = x line.  Points with a non-finite coordinate, or a
 * non-positive one on log axes, are skipped. */
typedef struct ws_report_chart_series {
  const char *label;  /* legend text */
  const double *x;    /* n values (borrowed) */
  const double *y;    /* n values (borrowed) */
  size_t n;           /* points */
} ws_report_chart_series;

typedef struct ws_report_chart_scatter_spec {
  const char *title;  /* above the plot */
  const char *desc;   /* one line for the SVG's <desc> (may be NULL) */
  const char *xlabel; /* with units */
  const char *ylabel; /* with units */
  int loglog;         /* both axes logarithmic, whole decades */
  int diagonal;       /* same range on both axes and the y = x line */
} ws_report_chart_scatter_spec;

int ws_report_chart_scatter(const char *path_without_ext,
                     const ws_report_chart_scatter_spec *spec,
                     const ws_report_chart_series *series, size_t nseries,
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
  const uint32_t (*block)[3];    /* each row's block (x, y, z), or NULL */
  const uint32_t (*grid)[3];     /* each row's grid (x, y, z), or NULL */
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
int ws_report_chart_sweep(const char *path_without_ext, const ws_sweep_table *t, ws_diag *d);

/* The chart for a result by its model's name ("gpuperf", "transit",
 * "roofline"); WS_EUNSUP (without a diagnostic) for models with none. */
int ws_report_chart_for_result(const char *path_without_ext,
                        const ws_model_result *r, ws_diag *d);

/* A run of a CUDA program under warpsight's runtime (`exec`, docs/exec.md):
 * one entry per profiled launch key; the report groups them by kernel,
 * grid, block and dynamic shared bytes.  Everything is borrowed. */
typedef struct ws_exec_kernel {
  const char *name;              /* mangled kernel name */
  uint32_t grid[3], block[3];    /* geometry */
  uint64_t dynamic_shared;       /* dynamic shared bytes */
  uint64_t launches;             /* launches with this key */
  const double *per_launch_ms;   /* one per model, NaN where it could not predict */
  const char *bottleneck;        /* the primary model's limiter, or NULL */
} ws_exec_kernel;

typedef struct ws_exec_run {
  const char *gpu;               /* database name */
  const char *const *models;     /* models, the primary first */
  size_t nmodels;
  uint64_t launches;             /* launches in all */
  const char *sticky_error;      /* "cudaSuccess" or the fault's error name */
  const ws_exec_kernel *kernels; /* nkernels entries */
  size_t nkernels;
} ws_exec_run;

/* The warpsight-exec/1 report of a run (JSON text, the caller frees it;
 * NULL when out of memory); total_ms (nmodels entries, may be NULL)
 * receives the program's predicted time per model. */
char *ws_report_exec_json(const ws_exec_run *r, double *total_ms);

#ifdef __cplusplus
}
#endif
#endif
