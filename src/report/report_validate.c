/*
 * report_validate.c — the `validate` report (warpsight/report.h;
 * docs/validation.md): the statistics tables (also DIR/summary.txt), the
 * per-row CSV (DIR/rows.csv), the floors CSV (DIR/floors.csv) and the
 * validation chart: predicted against measured time for one model, log-log,
 * one series per kernel (in the kernel table's order), with the y = x line,
 * drawn by ws_report_chart_scatter (charts.c).  The run and its statistics
 * are computed by src/valid; nothing here predicts.
 */
#include "warpsight/report.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/report_json.h"
#include "util/strbuf.h"

/* 1 when time t of a row is below its DRAM floor, 2 below its issue floor
 * (the lower ratio wins), 0 when above both (docs/models/floors.md). */
static int below_floor(const ws_valid_outcome *oc, double t) {
  double rd = oc->floor_dram_s > 0 ? t / oc->floor_dram_s : INFINITY;
  double ri = oc->floor_issue_s > 0 ? t / oc->floor_issue_s : INFINITY;
  const double slack = 1 - 1e-9;
  if (rd >= slack && ri >= slack) return 0;
  return rd <= ri ? 1 : 2;
}

/* CSV files --------------------------------------------------------------*/

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* The header's column per model: ",PREFIX<model>" each. */
static void model_columns(FILE *f, const char *prefix, const ws_valid_report *r) {
  for (size_t m = 0; m < r->nmodels; m++) {
    fputs(prefix, f);
    csv_field(f, r->models[m]);
  }
}

/* One row's per-model columns: the predicted seconds, or (`as_error`) the
 * error in percent of the measured time; empty where there is no prediction. */
static void model_values(FILE *f, const ws_valid_outcome *oc, size_t nmodels, int as_error) {
  for (size_t m = 0; m < nmodels; m++) {
    double t = oc->status ? NAN : oc->time_s[m];
    if (!isfinite(t)) fputs(",", f);
    else if (as_error) fprintf(f, ",%.4f", ws_valid_error_pct(oc->row->measured_s, t));
    else fprintf(f, ",%.9g", t);
  }
}

/* Opens `path` for writing and prints the header: `head`, then a column per
 * model for each prefix of `per_model` (NULL-terminated), then `tail`.
 * NULL on error. */
static FILE *csv_begin(ws_outfile *o, const char *path, const char *head,
                       const char *const *per_model, const char *tail,
                       const ws_valid_report *r, ws_diag *d) {
  if (ws_outfile_open(o, path, d)) return NULL;
  fputs(head, o->f);
  for (size_t i = 0; per_model[i]; i++) model_columns(o->f, per_model[i], r);
  fputs(tail, o->f);
  fputc('\n', o->f);
  return o->f;
}

int ws_report_validate_csv(const ws_valid_report *r, const char *path, ws_diag *d) {
  ws_outfile o;
  static const char *const per_model[] = {",predicted_s_", ",error_pct_", NULL};
  FILE *f = csv_begin(&o, path, "kernel,gpu,input_size,grid,block,measured_s", per_model,
                      ",line,status,reason", r, d);
  if (!f) return WS_EIO;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    const ws_valid_row *w = oc->row;
    csv_field(f, w->kernel);
    fprintf(f, ",%s,%lld,%ux%ux%u,%ux%ux%u,%.9g", w->gpu, (long long)w->input_size,
            w->grid[0], w->grid[1], w->grid[2], w->block[0], w->block[1], w->block[2],
            w->measured_s);
    model_values(f, oc, r->nmodels, 0);
    model_values(f, oc, r->nmodels, 1);
    /* the data file's line, and why the row (or a model) gave no time */
    fprintf(f, ",%d,%s,", w->line, oc->status ? "failed" : oc->reason ? "partial" : "ok");
    csv_field(f, oc->reason ? oc->reason : "");
    fputc('\n', f);
  }
  return ws_outfile_commit(&o, d);
}

int ws_report_validate_floors_csv(const ws_valid_report *r, const char *path, ws_diag *d) {
  ws_outfile o;
  static const char *const per_model[] = {",below_floor_", NULL};
  FILE *f = csv_begin(&o, path, "line,kernel,gpu,floor_dram_s,floor_issue_s", per_model, "", r, d);
  if (!f) return WS_EIO;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    fprintf(f, "%d,", oc->row->line);
    csv_field(f, oc->row->kernel);
    fprintf(f, ",%s", oc->row->gpu);
    for (int k = 0; k < 2; k++) {
      double fl = oc->status ? NAN : k ? oc->floor_issue_s : oc->floor_dram_s;
      if (isfinite(fl)) fprintf(f, ",%.9g", fl);
      else fputs(",", f);
    }
    for (size_t m = 0; m < r->nmodels; m++) {
      double t = oc->status ? NAN : oc->time_s[m];
      if (isfinite(t)) fprintf(f, ",%d", below_floor(oc, t) != 0);
      else fputs(",", f);
    }
    fputc('\n', f);
  }
  return ws_outfile_commit(&o, d);
}

/* Text tables ------------------------------------------------------------*/

/* Column widths of the tables: at least 8 and 34, wider for longer names
 * (database GPUs such as titan-x-maxwell, the generic format's kernels). */
typedef struct widths {
  int gpu, kernel;
} widths;

/* A percentage with sane precision: one decimal up to a million percent,
 * three significant digits beyond ("1.23e+302%", never 300 digits). */
typedef struct pct_text {
  char s[32]; /* the text, '%' included */
} pct_text;

static pct_text pct(double v) {
  pct_text t;
  if (!isfinite(v)) snprintf(t.s, sizeof t.s, "-");
  else if (fabs(v) < 1e6) snprintf(t.s, sizeof t.s, "%.1f%%", v);
  else snprintf(t.s, sizeof t.s, "%.3g%%", v);
  return t;
}

static void stats_line(ws_strbuf *b, const widths *w, const char *gpu, const char *kernel,
                       const ws_valid_stats *s) {
  ws_sb_printf(b, "  %-*s %-*s %6zu", w->gpu, gpu, w->kernel, kernel, s->n);
  if (s->n == 0) {
    ws_sb_printf(b, " %10s %10s %8s %9s\n", "-", "-", "-", "-");
    return;
  }
  ws_sb_printf(b, " %10s %10s %7.0f%%", pct(s->mape).s, pct(s->median_ape).s, 100 * s->within20);
  if (isnan(s->spearman)) ws_sb_printf(b, " %9s\n", "-");
  else ws_sb_printf(b, " %9.3f\n", s->spearman);
}

static void floor_lines(ws_strbuf *b, const ws_valid_report *r, size_t m) {
  size_t n = 0, nd = 0, ni = 0, worst = SIZE_MAX;
  double worst_ratio = INFINITY;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    if (oc->status || m >= r->nmodels || !isfinite(oc->time_s[m])) continue;
    int k = below_floor(oc, oc->time_s[m]);
    if (!k) continue;
    n++;
    if (k == 1) nd++;
    else ni++;
    double ratio = oc->time_s[m] / (k == 1 ? oc->floor_dram_s : oc->floor_issue_s);
    if (ratio < worst_ratio) worst_ratio = ratio, worst = i;
  }
  if (!n) return;
  const ws_valid_outcome *w = &r->rows[worst];
  int k = below_floor(w, w->time_s[m]);
  ws_sb_printf(b, "  ! %zu predictions below a physical floor (%zu DRAM, %zu issue); worst: line %d "
               "(%s, %s) %.4g s = %.2fx the %s floor %.4g s\n",
            n, nd, ni, w->row->line, w->row->kernel, w->row->gpu, w->time_s[m], worst_ratio,
            k == 1 ? "DRAM" : "issue", k == 1 ? w->floor_dram_s : w->floor_issue_s);
}

/* The kernels of a report: the validation kernels in docs order, then
 * others (the generic format's) in first-appearance order; NULL when out
 * of memory. */
static const char **kernel_list(const ws_valid_report *r, size_t *nk) {
  const char **kernels = calloc(r->nrows + ws_valid_kernel_count() + 1, sizeof *kernels);
  *nk = 0;
  if (!kernels) return NULL;
  for (size_t k = 0; k < ws_valid_kernel_count(); k++) kernels[(*nk)++] = ws_valid_kernel_name(k);
  for (size_t i = 0; i < r->nrows; i++) {
    size_t j = 0;
    while (j < *nk && strcmp(kernels[j], r->rows[i].row->kernel)) j++;
    if (j == *nk) kernels[(*nk)++] = r->rows[i].row->kernel;
  }
  return kernels;
}

/* Why rows failed and why models could not run, from the outcomes'
 * reasons: every failed row by its data line, and per distinct reason of
 * rows that ran, its count and first line. */
static void reason_lines(ws_strbuf *b, const ws_valid_report *r) {
  int head = 0;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    if (!oc->status) continue;
    if (!head++) ws_sb_printf(b, "failed rows:\n");
    ws_sb_printf(b, "  line %d (%s, %s): %s\n", oc->row->line, oc->row->kernel, oc->row->gpu,
                 oc->reason ? oc->reason : "failed");
  }
  head = 0;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    if (oc->status || !oc->reason) continue;
    size_t j = 0, n = 0;
    while (j < i && (r->rows[j].status || !r->rows[j].reason || strcmp(r->rows[j].reason, oc->reason)))
      j++;
    if (j < i) continue; /* said with its first row */
    for (size_t k = i; k < r->nrows; k++)
      n += !r->rows[k].status && r->rows[k].reason && !strcmp(r->rows[k].reason, oc->reason);
    if (!head++) ws_sb_printf(b, "models that could not run:\n");
    ws_sb_printf(b, "  %zu row%s (first: line %d): %s\n", n, n == 1 ? "" : "s", oc->row->line,
                 oc->reason);
  }
}

char *ws_report_validate_text(const ws_valid_report *r) {
  ws_strbuf b = WS_STRBUF_INIT;
  /* the GPUs and kernels present, in first-appearance order */
  const char **gpus = calloc(r->nrows + 1, sizeof *gpus);
  size_t ng = 0;
  if (!gpus) return NULL;
  for (size_t i = 0; i < r->nrows; i++) {
    size_t j = 0;
    while (j < ng && strcmp(gpus[j], r->rows[i].row->gpu)) j++;
    if (j == ng) gpus[ng++] = r->rows[i].row->gpu;
  }
  size_t nk;
  const char **kernels = kernel_list(r, &nk);
  if (!kernels) {
    free(gpus);
    return NULL;
  }
  widths w = {8, 34};
  for (size_t i = 0; i < ng; i++)
    if ((int)strlen(gpus[i]) > w.gpu) w.gpu = (int)strlen(gpus[i]);
  for (size_t i = 0; i < nk; i++)
    if ((int)strlen(kernels[i]) > w.kernel) w.kernel = (int)strlen(kernels[i]);
  for (size_t m = 0; m < r->nmodels; m++) {
    ws_valid_stats s;
    ws_sb_printf(&b, "model %s\n", r->models[m]);
    ws_sb_printf(&b, "  %-*s %-*s %6s %10s %10s %8s %9s\n", w.gpu, "gpu", w.kernel, "kernel",
              "rows", "MAPE", "median", "<=20%", "spearman");
    for (size_t g = 0; g < ng; g++) {
      for (size_t k = 0; k < nk; k++) {
        const char *kn = kernels[k];
        size_t present = 0;
        for (size_t i = 0; i < r->nrows && !present; i++)
          present = !strcmp(r->rows[i].row->gpu, gpus[g]) && !strcmp(r->rows[i].row->kernel, kn);
        if (!present) continue;
        if (ws_valid_report_stats(&s, r, m, gpus[g], kn)) b.oom = 1;
        stats_line(&b, &w, gpus[g], kn, &s);
      }
      if (ws_valid_report_stats(&s, r, m, gpus[g], NULL)) b.oom = 1;
      stats_line(&b, &w, gpus[g], "(all kernels)", &s);
    }
    if (ws_valid_report_stats(&s, r, m, NULL, NULL)) b.oom = 1;
    stats_line(&b, &w, "all", "(all kernels)", &s);
    floor_lines(&b, r, m);
    ws_sb_printf(&b, "\n");
  }
  reason_lines(&b, r);
  ws_sb_printf(&b, "%zu rows, %zu failed, %zu profiles from the cache\n", r->nrows, r->failed,
            r->cached);
  free(gpus);
  free(kernels);
  return ws_sb_take(&b);
}

/* The chart --------------------------------------------------------------*/

int ws_report_validate_chart(const ws_valid_report *r, size_t model, const char *path,
                              ws_diag *d) {
  if (model >= r->nmodels) return ws_diag_error(d, "chart: no model %zu", model);
  size_t nk, n = r->nrows ? r->nrows : 1;
  const char **kernels = kernel_list(r, &nk); /* generic kernels too */
  ws_report_chart_series *s = kernels ? calloc(nk + 1, sizeof *s) : NULL;
  double *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
  if (!s || !xs || !ys) {
    free(kernels), free(s), free(xs), free(ys);
    return WS_ENOMEM;
  }
  /* points grouped by kernel, each group contiguous in xs/ys */
  size_t k0 = 0;
  for (size_t k = 0; k < nk; k++) {
    const char *name = kernels[k];
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
  ws_report_chart_scatter_spec spec = {title, desc, "measured time (s)", "predicted time (s)", 1, 1};
  /* the series with points (a kernel list has every validation kernel) */
  size_t ns = 0;
  for (size_t k = 0; k < nk; k++)
    if (s[k].n) s[ns++] = s[k];
  int st = ws_report_chart_scatter(path, &spec, s, ns, d);
  free(kernels), free(s), free(xs), free(ys);
  return st;
}

/* Calibration (`calibrate`) ----------------------------------------------*/

static void stats_row(FILE *out, const char *what, const ws_valid_stats *b,
                      const ws_valid_stats *a) {
  fprintf(out, "  %-10s %5zu rows  MAPE %9s -> %9s   median %9s -> %9s   "
               "within 20%% %4.0f%% -> %4.0f%%\n",
          what, a->n, pct(b->mape).s, pct(a->mape).s, pct(b->median_ape).s, pct(a->median_ape).s,
          100 * b->within20, 100 * a->within20);
}

void ws_report_calibration(FILE *out, const char *model, const char *gpu, const ws_valid_calib *c) {
  fprintf(out, "calibrated %s on %s: %zu training rows, %zu held-out rows, %zu iterations%s\n",
          model, gpu, c->ntrain, c->ntest, c->iterations, c->converged ? "" : " (did not converge)");
  for (size_t j = 0; j < c->np; j++)
    fprintf(out, "  %-22s %12.6g -> %12.6g\n", c->params[j], c->theta0[j], c->theta[j]);
  stats_row(out, "training", &c->train_before, &c->train_after);
  stats_row(out, "held out", &c->test_before, &c->test_after);
}

/* nvprof's counters (DIR/counters.csv) -----------------------------------*/

/* Sum over a profile's memory instructions of requests per warp x
 * transactions (global) or passes (shared) per request, for one class. */
static double per_warp_sum(const cJSON *root, const char *section, const char *cls,
                           const char *per_request) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(root, section), "insts");
  const cJSON *it;
  double s = 0;
  cJSON_ArrayForEach(it, v) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "class");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "per_warp");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, per_request);
    if (cJSON_IsString(c) && !strcmp(c->valuestring, cls) && cJSON_IsNumber(n) &&
        cJSON_IsNumber(t))
      s += n->valuedouble * t->valuedouble;
  }
  return s;
}

struct ws_report_counters {
  ws_outfile o;                /* the temporary file, renamed into place at the end */
  const ws_valid_data *data;   /* the rows' CSV */
  int col[5];                  /* nvprof columns */
};

int ws_report_counters_open(ws_report_counters **out, const ws_valid_data *data,
                            const char *path, ws_diag *d) {
  static const char *const meas[] = {"inst_executed", "Global.Load.Transactions",
                                     "Global.Store.Transactions", "Shared.Load.Transactions",
                                     "Shared.Store.Transactions"};
  static const char *const names[] = {"warp_insts", "global_load_trans", "global_store_trans",
                                      "shared_load_trans", "shared_store_trans"};
  *out = NULL;
  int col[5];
  for (int i = 0; i < 5; i++)
    if ((col[i] = ws_valid_csv_column(data->csv, meas[i])) < 0) return WS_OK; /* not in this file */
  ws_report_counters *co = calloc(1, sizeof *co);
  if (!co) return ws_diag_error(d, "out of memory"), WS_ENOMEM;
  co->data = data;
  memcpy(co->col, col, sizeof col);
  if (ws_outfile_open(&co->o, path, d)) {
    free(co);
    return WS_EIO;
  }
  FILE *f = co->o.f;
  fprintf(f, "line,kernel,gpu,input_size,grid,block,warps");
  for (int i = 0; i < 5; i++) fprintf(f, ",%s_nvprof,%s_warpsight", names[i], names[i]);
  fputc('\n', f);
  *out = co;
  return WS_OK;
}

void ws_report_counters_row(const ws_valid_outcome *oc, const ws_profile *p, void *user) {
  ws_report_counters *co = user;
  const ws_valid_row *r = oc->row;
  if (!co || !p) return;
  FILE *f = co->o.f;
  size_t ri = (size_t)(r - co->data->rows);
  double tpb = (double)r->block[0] * r->block[1] * r->block[2];
  double warps = (double)r->grid[0] * r->grid[1] * r->grid[2] * ceil(tpb / 32.0);
  static const char *const secs[] = {"instruction_mix", "global_memory_insts",
                                     "shared_memory_insts"};
  cJSON *root = ws_report_profile_sections(p, secs, 3);
  const cJSON *mix = cJSON_GetObjectItemCaseSensitive(root, "instruction_mix");
  const cJSON *tot = cJSON_GetObjectItemCaseSensitive(mix, "total_per_warp");
  double ws[5] = {cJSON_IsNumber(tot) ? tot->valuedouble : NAN,
                  per_warp_sum(root, "global_memory_insts", "ld.global", "avg_transactions"),
                  per_warp_sum(root, "global_memory_insts", "st.global", "avg_transactions"),
                  per_warp_sum(root, "shared_memory_insts", "ld.shared", "avg_passes"),
                  per_warp_sum(root, "shared_memory_insts", "st.shared", "avg_passes")};
  fprintf(f, "%d,%s,%s,%lld,%ux%ux%u,%ux%ux%u,%.0f", r->line, r->kernel, r->gpu,
          (long long)r->input_size, r->grid[0], r->grid[1], r->grid[2], r->block[0],
          r->block[1], r->block[2], warps);
  for (int k = 0; k < 5; k++)
    fprintf(f, ",%s,%.6g", ws_valid_csv_cell(co->data->csv, ri, (size_t)co->col[k]), ws[k] * warps);
  fputc('\n', f);
  cJSON_Delete(root);
}

int ws_report_counters_close(ws_report_counters *co, ws_diag *d) {
  if (!co) return WS_OK;
  int st = ws_outfile_commit(&co->o, d);
  free(co);
  return st;
}

void ws_report_counters_discard(ws_report_counters *co) {
  if (!co) return;
  ws_outfile_discard(&co->o);
  free(co);
}
