/*
 * run.c — a validation run: select the measured rows, build each launch,
 * predict it through the one prediction function (with the profile cache in
 * front), collect the times; statistics per group and the per-row CSV.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsight/valid.h"

static int in_list(const char *s, const char *const *list, size_t n) {
  if (!list) return 1;
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0) return 1;
  return 0;
}

void ws_valid_report_free(ws_valid_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nrows; i++) {
    free(r->rows[i].time_s);
    ws_profile_free(r->rows[i].profile);
  }
  free(r->rows);
  free(r);
}

typedef struct gpu_slot {
  const char *name;  /* database name (borrowed) */
  ws_gpu *gpu;       /* loaded once (owned) */
} gpu_slot;

typedef struct ptx_slot {
  const char *kernel; /* kernel name (borrowed) */
  char *key;          /* the kernel file as the rows name it (owned) */
  char *path;         /* PTX file (owned): key, or nvcc's output for a .cu */
  char *text;         /* its content (owned), for the cache key */
} ptx_slot;

/* The PTX of kernel file `path`: the file itself, or for a .cu file what
 * the options' compile_cu hook makes of it. */
static int kernel_ptx(char **out, const ws_valid_options *o, const ws_valid_data *data,
                      const ws_valid_row *row, const char *path, ws_diag *d) {
  size_t n = strlen(path);
  *out = NULL;
  if (n < 3 || strcmp(path + n - 3, ".cu")) return (*out = strdup(path)) ? WS_OK : WS_ENOMEM;
  if (!o->compile_cu)
    return ws_diag_add(d, WS_SEV_ERROR, data->csv->origin, row->line, 0,
                       "kernel file '%s': a .cu file needs a compiler (give its PTX, from "
                       "nvcc -ptx, or run 'warpsight validate', which compiles it)", path);
  return o->compile_cu(out, path, o->compile_user, d);
}

/* One row: launch, cache lookup, prediction, cache store. */
static int predict_row(ws_valid_outcome *oc, const ws_valid_data *data,
                       const ws_valid_options *o, const ws_gpu *g, const ptx_slot *px,
                       ws_diag *d) {
  const ws_valid_row *row = oc->row;
  ws_launch_spec *launch;
  int st = ws_valid_launch(&launch, row, data->csv->origin, d);
  if (st) return st;
  ws_valid_result res = {0};
  res.floor_dram_s = res.floor_issue_s = NAN;
  char key[17] = "";
  if (o->cache_dir) {
    st = ws_valid_cache_key_gpu(key, row->kernel, px->text, launch, g, o->sample_blocks);
    ws_profile *p = NULL;
    if (!st && ws_valid_cache_get(&p, o->cache_dir, row->kernel, key, d) == WS_OK) {
      res.profile = p;
      st = ws_valid_run_models(&res, p, g, o->models, o->nmodels, row, d);
      oc->cached = 1;
      goto out;
    }
    ws_profile_free(p);
  }
  ws_valid_request req = {row, launch, px->path, g, o->sample_blocks, o->models, o->nmodels};
  st = o->predict(&res, &req, o->user, d);
  if (!st && res.nmodels != o->nmodels)
    st = ws_diag_error(d, "the predictor returned %zu times for %zu models", res.nmodels,
                       o->nmodels);
  if (!st && o->cache_dir && res.profile)
    st = ws_valid_cache_put(o->cache_dir, row->kernel, key, res.profile, d);
out:
  if (!st) {
    oc->time_s = res.time_s;
    oc->floor_dram_s = res.floor_dram_s;
    oc->floor_issue_s = res.floor_issue_s;
    res.time_s = NULL;
    oc->status = WS_OK;
    if (o->on_row) o->on_row(oc, res.profile, o->on_row_user);
    if (o->keep_profiles) {
      oc->profile = res.profile;
      res.profile = NULL;
    }
  }
  ws_valid_result_free(&res);
  ws_emu_launch_spec_free(launch);
  return st;
}

int ws_valid_run(ws_valid_report **out, const ws_valid_data *data, const ws_valid_options *o,
                 ws_diag *d) {
  *out = NULL;
  if (!o->predict) return ws_diag_error(d, "no prediction function");
  if (!o->nmodels) return ws_diag_error(d, "no models to run");
  ws_valid_report *r = calloc(1, sizeof *r);
  gpu_slot *gs = calloc(data->nrows + 1, sizeof *gs);
  ptx_slot *ps = calloc(data->nrows + 1, sizeof *ps);
  size_t ngs = 0, nps = 0;
  int st = WS_OK;
  if (!r || !gs || !ps || !(r->rows = calloc(data->nrows + 1, sizeof *r->rows))) {
    st = WS_ENOMEM;
    goto done;
  }
  r->models = o->models;
  r->nmodels = o->nmodels;
  for (size_t i = 0; i < data->nrows; i++) {
    const ws_valid_row *row = &data->rows[i];
    if (!in_list(row->gpu, o->gpus, o->ngpus) || !in_list(row->kernel, o->kernels, o->nkernels))
      continue;
    if (o->half && row->half != o->half) continue;
    if (o->limit && r->nrows >= o->limit) break;
    r->rows[r->nrows++].row = row;
  }
  for (size_t i = 0; i < r->nrows; i++) {
    ws_valid_outcome *oc = &r->rows[i];
    const ws_valid_row *row = oc->row;
    size_t gi = 0, pi = 0;
    while (gi < ngs && strcmp(gs[gi].name, row->gpu)) gi++;
    if (gi == ngs) {
      const char *src = row->gpu;
      for (size_t k = 0; k < data->ngpu_files; k++)
        if (!strcmp(data->gpu_file_names[k], row->gpu)) src = data->gpu_file_paths[k];
      for (size_t k = 0; k < o->ngpu_files; k++)
        if (!strcmp(o->gpu_file_names[k], row->gpu)) src = o->gpu_file_paths[k];
      gs[ngs].name = row->gpu;
      if ((st = ws_gpu_load(&gs[ngs].gpu, src, d))) goto done;
      ngs++;
    }
    char path[4096];
    if (row->kernel_file)
      snprintf(path, sizeof path, "%s", row->kernel_file);
    else
      snprintf(path, sizeof path, "%s/%s.sm_75.ptx", o->ptx_dir ? o->ptx_dir : ".", row->kernel);
    while (pi < nps && strcmp(ps[pi].key, path)) pi++;
    if (pi == nps) {
      ps[nps].kernel = row->kernel;
      if (!(ps[nps].key = strdup(path))) {
        st = WS_ENOMEM;
        goto done;
      }
      nps++;
      if ((st = kernel_ptx(&ps[pi].path, o, data, row, path, d)) ||
          (st = ws_read_file(&ps[pi].text, NULL, ps[pi].path, d)))
        goto done;
    }
    oc->status = predict_row(oc, data, o, gs[gi].gpu, &ps[pi], d);
    if (oc->status == WS_ENOMEM) {
      st = WS_ENOMEM;
      goto done;
    }
    if (oc->status) r->failed++;
    if (oc->cached) r->cached++;
    if (o->progress) o->progress(i + 1, r->nrows, o->progress_user);
  }
done:
  for (size_t i = 0; i < ngs; i++) ws_gpu_free(gs[i].gpu);
  for (size_t i = 0; i < nps; i++) free(ps[i].key), free(ps[i].path), free(ps[i].text);
  free(gs);
  free(ps);
  if (st) {
    ws_valid_report_free(r);
    return st;
  }
  *out = r;
  return WS_OK;
}

/* 0 when t (seconds) is at or above both floors of the row, 1 below the
 * DRAM floor, 2 below the issue floor (the larger shortfall). */
static int below_floor(const ws_valid_outcome *oc, double t) {
  double rd = oc->floor_dram_s > 0 ? t / oc->floor_dram_s : INFINITY;
  double ri = oc->floor_issue_s > 0 ? t / oc->floor_issue_s : INFINITY;
  const double slack = 1 - 1e-9;
  if (rd >= slack && ri >= slack) return 0;
  return rd <= ri ? 1 : 2;
}

int ws_valid_report_stats(ws_valid_stats *out, const ws_valid_report *r, size_t model,
                          const char *gpu, const char *kernel) {
  size_t n = r->nrows ? r->nrows : 1;
  double *m = malloc(n * sizeof *m), *p = malloc(n * sizeof *p);
  if (!m || !p) {
    free(m), free(p);
    return WS_ENOMEM;
  }
  size_t k = 0;
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    if (oc->status || model >= r->nmodels) continue;
    if (gpu && strcmp(gpu, oc->row->gpu)) continue;
    if (kernel && strcmp(kernel, oc->row->kernel)) continue;
    m[k] = oc->row->measured_s;
    p[k] = oc->time_s[model];
    k++;
  }
  int st = ws_valid_stats_compute(out, m, p, k);
  free(m), free(p);
  return st;
}

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

int ws_valid_report_csv(const ws_valid_report *r, const char *path, ws_diag *d) {
  ws_outfile o;
  if (ws_outfile_open(&o, path, d)) return WS_EIO;
  FILE *f = o.f;
  fputs("kernel,gpu,input_size,grid,block,measured_s", f);
  for (size_t m = 0; m < r->nmodels; m++) {
    fputs(",predicted_s_", f);
    csv_field(f, r->models[m]);
  }
  for (size_t m = 0; m < r->nmodels; m++) {
    fputs(",error_pct_", f);
    csv_field(f, r->models[m]);
  }
  fputc('\n', f);
  for (size_t i = 0; i < r->nrows; i++) {
    const ws_valid_outcome *oc = &r->rows[i];
    const ws_valid_row *w = oc->row;
    csv_field(f, w->kernel);
    fprintf(f, ",%s,%lld,%ux%ux%u,%ux%ux%u,%.9g", w->gpu, (long long)w->input_size,
            w->grid[0], w->grid[1], w->grid[2], w->block[0], w->block[1], w->block[2],
            w->measured_s);
    for (size_t m = 0; m < r->nmodels; m++) {
      double t = oc->status ? NAN : oc->time_s[m];
      if (isfinite(t)) fprintf(f, ",%.9g", t);
      else fputs(",", f);
    }
    for (size_t m = 0; m < r->nmodels; m++) {
      double t = oc->status ? NAN : oc->time_s[m];
      if (isfinite(t)) fprintf(f, ",%.4f", ws_valid_error_pct(w->measured_s, t));
      else fputs(",", f);
    }
    fputc('\n', f);
  }
  return ws_outfile_commit(&o, d);
}

int ws_valid_report_floors_csv(const ws_valid_report *r, const char *path, ws_diag *d) {
  ws_outfile o;
  if (ws_outfile_open(&o, path, d)) return WS_EIO;
  FILE *f = o.f;
  fputs("line,kernel,gpu,floor_dram_s,floor_issue_s", f);
  for (size_t m = 0; m < r->nmodels; m++) {
    fputs(",below_floor_", f);
    csv_field(f, r->models[m]);
  }
  fputc('\n', f);
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

typedef struct sbuf {
  char *s;     /* text (owned) */
  size_t n;    /* length */
  size_t cap;  /* allocated */
  int oom;     /* an allocation failed */
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->s && b->n + (size_t)k < b->cap) {
      b->n += (size_t)k;
      return;
    }
    size_t nc = (b->cap ? b->cap * 2 : 4096) + (size_t)k;
    char *q = realloc(b->s, nc);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->s = q;
    b->cap = nc;
  }
}

/* Column widths of the tables: at least 8 and 34, wider for longer names
 * (database GPUs such as titan-x-maxwell, the generic format's kernels). */
typedef struct widths {
  int gpu, kernel;
} widths;

static void stats_line(sbuf *b, const widths *w, const char *gpu, const char *kernel,
                       const ws_valid_stats *s) {
  sb_printf(b, "  %-*s %-*s %6zu", w->gpu, gpu, w->kernel, kernel, s->n);
  if (s->n == 0) {
    sb_printf(b, " %10s %10s %8s %9s\n", "-", "-", "-", "-");
    return;
  }
  sb_printf(b, " %9.1f%% %9.1f%% %7.0f%%", s->mape, s->median_ape, 100 * s->within20);
  if (isnan(s->spearman)) sb_printf(b, " %9s\n", "-");
  else sb_printf(b, " %9.3f\n", s->spearman);
}

static void floor_lines(sbuf *b, const ws_valid_report *r, size_t m) {
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
  sb_printf(b, "  ! %zu predictions below a physical floor (%zu DRAM, %zu issue); worst: line %d "
               "(%s, %s) %.4g s = %.2fx the %s floor %.4g s\n",
            n, nd, ni, w->row->line, w->row->kernel, w->row->gpu, w->time_s[m], worst_ratio,
            k == 1 ? "DRAM" : "issue", k == 1 ? w->floor_dram_s : w->floor_issue_s);
}

char *ws_valid_report_text(const ws_valid_report *r) {
  sbuf b = {0};
  /* the GPUs and kernels present, in first-appearance order */
  const char **gpus = calloc(r->nrows + 1, sizeof *gpus);
  size_t ng = 0;
  if (!gpus) return NULL;
  for (size_t i = 0; i < r->nrows; i++) {
    size_t j = 0;
    while (j < ng && strcmp(gpus[j], r->rows[i].row->gpu)) j++;
    if (j == ng) gpus[ng++] = r->rows[i].row->gpu;
  }
  /* the kernels: the validation kernels in docs order, then others (the
   * generic format's) in first-appearance order */
  const char **kernels = calloc(r->nrows + ws_valid_kernel_count() + 1, sizeof *kernels);
  size_t nk = 0;
  if (!kernels) {
    free(gpus);
    return NULL;
  }
  for (size_t k = 0; k < ws_valid_kernel_count(); k++) kernels[nk++] = ws_valid_kernel_name(k);
  for (size_t i = 0; i < r->nrows; i++) {
    size_t j = 0;
    while (j < nk && strcmp(kernels[j], r->rows[i].row->kernel)) j++;
    if (j == nk) kernels[nk++] = r->rows[i].row->kernel;
  }
  widths w = {8, 34};
  for (size_t i = 0; i < ng; i++)
    if ((int)strlen(gpus[i]) > w.gpu) w.gpu = (int)strlen(gpus[i]);
  for (size_t i = 0; i < nk; i++)
    if ((int)strlen(kernels[i]) > w.kernel) w.kernel = (int)strlen(kernels[i]);
  for (size_t m = 0; m < r->nmodels; m++) {
    ws_valid_stats s;
    sb_printf(&b, "model %s\n", r->models[m]);
    sb_printf(&b, "  %-*s %-*s %6s %10s %10s %8s %9s\n", w.gpu, "gpu", w.kernel, "kernel",
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
    sb_printf(&b, "\n");
  }
  sb_printf(&b, "%zu rows, %zu failed, %zu profiles from the cache\n", r->nrows, r->failed,
            r->cached);
  free(gpus);
  free(kernels);
  if (b.oom) {
    free(b.s);
    return NULL;
  }
  return b.s;
}
