/*
 * run.c — a validation run: select the measured rows, build each launch,
 * predict it through the one prediction function (with the profile cache in
 * front), collect the times; statistics per group (rendered by
 * src/report/report_validate.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "valid/valid_int.h"
#include "warpsight/valid_cache.h"
#include "warpsight/valid_launch.h"
#include "warpsight/valid_predict.h"

#include "util/strbuf.h"

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
    free(r->rows[i].reason);
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
  char *key;          /* the kernel file as the rows name it, and for a .cu the
                         GPU's compute capability after a newline (owned) */
  char *path;         /* PTX file (owned): key, or nvcc's output for a .cu */
  char *text;         /* its content (owned), for the cache key */
} ptx_slot;

/* The PTX of kernel file `path`: the file itself, or for a .cu file what
 * the options' compile_cu hook makes of it. */
static int kernel_ptx(char **out, const ws_valid_options *o, const ws_valid_data *data,
                      const ws_valid_row *row, const char *path, const ws_gpu *g,
                      ws_diag *d) {
  size_t n = strlen(path);
  *out = NULL;
  if (n < 3 || strcmp(path + n - 3, ".cu")) return (*out = ws_strdup(path)) ? WS_OK : WS_ENOMEM;
  if (!o->compile_cu)
    return ws_diag_add(d, WS_SEV_ERROR, data->csv->origin, row->line, 0,
                       "kernel file '%s': a .cu file needs a compiler (give its PTX, from "
                       "nvcc -ptx, or run 'warpsight validate', which compiles it)", path);
  return o->compile_cu(out, path, g, o->compile_user, d);
}

/* Stores row's profile in the cache; a folder that cannot be written is a
 * warning, once, and the run goes on without the cache (*cache = NULL). */
static int cache_store(const char **cache, const ws_valid_row *row, const char *key,
                       const ws_profile *p, ws_diag *d) {
  ws_diag pd = WS_DIAG_INIT;
  int st = ws_valid_cache_put(*cache, row->kernel, key, p, &pd);
  if (st && st != WS_ENOMEM) {
    ws_diag_add(d, WS_SEV_WARNING, *cache, 0, 0,
                "the profile cache cannot be written (%s); going on without it",
                pd.count ? pd.items[pd.count - 1].message : "?");
    *cache = NULL;
    st = WS_OK;
  }
  ws_diag_free(&pd);
  return st;
}

/* One row: launch, cache lookup, prediction, cache store.  *cache is the
 * cache folder, NULL once it proved unwritable. */
static int predict_row(ws_valid_outcome *oc, const ws_valid_data *data,
                       const ws_valid_options *o, const char **cache, const ws_gpu *g,
                       const ptx_slot *px, ws_diag *d) {
  const ws_valid_row *row = oc->row;
  ws_launch_spec *launch;
  int st = ws_valid_launch(&launch, row, data->csv->origin, d);
  if (st) return st;
  ws_valid_result res = {0};
  res.floor_dram_s = res.floor_issue_s = NAN;
  char key[17] = "";
  if (*cache) {
    st = ws_valid_cache_key_gpu(key, row->kernel, px->text, launch, g, o->sample_blocks);
    ws_profile *p = NULL;
    if (!st && ws_valid_cache_get(&p, *cache, row->kernel, key, d) == WS_OK) {
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
  if (!st && *cache && res.profile) st = cache_store(cache, row, key, res.profile, d);
out:
  if (!st) {
    oc->time_s = res.time_s;
    oc->floor_dram_s = res.floor_dram_s;
    oc->floor_issue_s = res.floor_issue_s;
    oc->reason = res.reason;
    res.time_s = NULL;
    res.reason = NULL;
    oc->status = WS_OK;
    if (o->on_row) o->on_row(oc, res.profile, o->on_row_user);
    if (o->keep_profiles) {
      oc->profile = res.profile;
      res.profile = NULL;
    }
  } else if (res.reason && !oc->reason) {
    /* no model could run: each one's reason (ws_valid_run_models) */
    oc->reason = res.reason;
    res.reason = NULL;
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
  const char *cache = o->cache_dir; /* NULL once it proved unwritable */
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
    if (row->measured_s < o->min_measured_s) continue;
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
    char path[4096], key[4200];
    if (row->kernel_file)
      snprintf(path, sizeof path, "%s", row->kernel_file);
    else
      snprintf(path, sizeof path, "%s/%s.sm_75.ptx", o->ptx_dir ? o->ptx_dir : ".", row->kernel);
    /* A .cu file is compiled for each compute capability of its rows (the
     * caller chooses the arch from the GPU, as predict does); a PTX file is
     * itself. */
    size_t pl = strlen(path);
    if (pl >= 3 && !strcmp(path + pl - 3, ".cu"))
      snprintf(key, sizeof key, "%s\n%d.%d", path, gs[gi].gpu->cc_major, gs[gi].gpu->cc_minor);
    else
      snprintf(key, sizeof key, "%s", path);
    while (pi < nps && strcmp(ps[pi].key, key)) pi++;
    if (pi == nps) {
      ps[nps].kernel = row->kernel;
      if (!(ps[nps].key = ws_strdup(key))) {
        st = WS_ENOMEM;
        goto done;
      }
      nps++;
      if ((st = kernel_ptx(&ps[pi].path, o, data, row, path, gs[gi].gpu, d)) ||
          (st = ws_read_file(&ps[pi].text, NULL, ps[pi].path, d)))
        goto done;
    }
    size_t before = d ? d->count : 0;
    oc->status = predict_row(oc, data, o, &cache, gs[gi].gpu, &ps[pi], d);
    if (oc->status == WS_ENOMEM) {
      st = WS_ENOMEM;
      goto done;
    }
    /* a failed row keeps its first error for the report (rows.csv, text) */
    for (size_t k = before; oc->status && d && k < d->count && !oc->reason; k++)
      if (d->items[k].severity == WS_SEV_ERROR && !(oc->reason = ws_strdup(d->items[k].message))) {
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
