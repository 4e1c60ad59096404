/*
 * report_exec.c — the warpsight-exec/1 report of a program run on
 * warpsight's CUDA runtime (docs/exec.md, "The report").  One builder for
 * both writers: the runtime at the program's exit (src/cudart/report.c),
 * and `exec` rebuilding it from the runtime's launch log when the program
 * died without exiting (src/cli/cmd_exec.c).
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"
#include "util/json.h"

static int same_config(const ws_exec_kernel *a, const ws_exec_kernel *b) {
  return strcmp(a->name, b->name) == 0 && !memcmp(a->grid, b->grid, sizeof a->grid) &&
         !memcmp(a->block, b->block, sizeof a->block) && a->dynamic_shared == b->dynamic_shared;
}

/* {model: ms / div | null} */
static cJSON *ms_object(const ws_exec_run *r, const double *v, double div) {
  cJSON *o = cJSON_CreateObject();
  for (size_t m = 0; o && m < r->nmodels; m++)
    if (!isnan(v[m])) cJSON_AddNumberToObject(o, r->models[m], v[m] / div);
    else cJSON_AddNullToObject(o, r->models[m]);
  return o;
}

static cJSON *dims(const uint32_t v[3]) {
  int d[3] = {(int)v[0], (int)v[1], (int)v[2]}; /* CUDA's limits fit an int */
  return cJSON_CreateIntArray(d, 3);
}

/* The launches and per-model totals of the configuration of key `first`
 * (the keys from `first` on with the same configuration). */
static uint64_t config_totals(const ws_exec_run *r, size_t first, double *total) {
  const ws_exec_kernel *k = &r->kernels[first];
  uint64_t launches = 0;
  for (size_t m = 0; m < r->nmodels; m++) total[m] = 0;
  for (size_t t = first; t < r->nkernels; t++) {
    const ws_exec_kernel *x = &r->kernels[t];
    if (!same_config(x, k) || !x->launches) continue;
    launches += x->launches;
    for (size_t m = 0; m < r->nmodels; m++) total[m] += x->per_launch_ms[m] * (double)x->launches;
  }
  return launches;
}

static cJSON *kernel_json(const ws_exec_run *r, size_t first, const double *total,
                          uint64_t launches) {
  const ws_exec_kernel *k = &r->kernels[first];
  cJSON *o = cJSON_CreateObject();
  char *dm = ws_demangle(k->name);
  cJSON_AddStringToObject(o, "name", k->name);
  cJSON_AddStringToObject(o, "demangled", dm ? dm : k->name);
  free(dm);
  cJSON_AddItemToObject(o, "grid", dims(k->grid));
  cJSON_AddItemToObject(o, "block", dims(k->block));
  cJSON_AddNumberToObject(o, "dynamic_shared", (double)k->dynamic_shared);
  cJSON_AddNumberToObject(o, "launches", (double)launches);
  cJSON_AddItemToObject(o, "per_launch_ms", ms_object(r, total, (double)launches));
  cJSON_AddItemToObject(o, "total_ms", ms_object(r, total, 1));
  if (k->bottleneck) cJSON_AddStringToObject(o, "bottleneck", k->bottleneck);
  else cJSON_AddNullToObject(o, "bottleneck");
  return o;
}

char *ws_report_exec_json(const ws_exec_run *r, double *total_ms) {
  double *total = calloc(r->nmodels + 1, sizeof *total), *kt = calloc(r->nmodels + 1, sizeof *kt);
  cJSON *root = cJSON_CreateObject();
  char *s = NULL;
  if (total && kt && root) {
    cJSON_AddStringToObject(root, "schema", "warpsight-exec/1");
    cJSON_AddStringToObject(root, "gpu", r->gpu ? r->gpu : "");
    cJSON *ms = cJSON_AddArrayToObject(root, "models");
    for (size_t m = 0; m < r->nmodels; m++) cJSON_AddItemToArray(ms, cJSON_CreateString(r->models[m]));
    cJSON_AddStringToObject(root, "primary_model", r->nmodels ? r->models[0] : "");
    cJSON_AddNumberToObject(root, "launches", (double)r->launches);
    cJSON_AddStringToObject(root, "sticky_error", r->sticky_error ? r->sticky_error : "cudaSuccess");
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (size_t i = 0; i < r->nkernels; i++) {
      size_t j = 0;
      while (j < i && !same_config(&r->kernels[j], &r->kernels[i])) j++;
      if (j < i) continue; /* counted with its configuration */
      uint64_t n = config_totals(r, i, kt);
      if (n) cJSON_AddItemToArray(ks, kernel_json(r, i, kt, n));
      else continue;
      for (size_t m = 0; m < r->nmodels; m++) total[m] += kt[m];
    }
    cJSON_AddItemToObject(root, "total_ms", ms_object(r, total, 1));
    s = ws_json_print(root, 1);
    if (total_ms) memcpy(total_ms, total, r->nmodels * sizeof *total);
  }
  cJSON_Delete(root);
  free(total);
  free(kt);
  return s;
}
