/*
 * report.c — what the runtime tells about a run: the warpsight-exec/1
 * report at exit (WARPSIGHT_EXEC_JSON, built by ws_report_exec_json) with
 * the one-line summary on stderr, and the launch log (WARPSIGHT_EXEC_LOG,
 * docs/exec.md "When the program dies"): one JSON line per event, written
 * with write(2) as it happens, so that a program that aborts, faults, is
 * killed or dies in the dynamic linker still leaves every kernel that ran
 * to `exec`, which rebuilds the report from it.
 *
 *   {"start": {"gpu": G, "models": [M...]}}          at the first launch
 *   {"kstat": I, "name", "grid", "block", "dynamic_shared",
 *    "per_launch_ms": [ms|null per model], "bottleneck"}   a new profile
 *   {"launch": I}                                     each launch of key I
 *   {"sticky_error": NAME}                            a kernel faulted
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart/exports.h"
#include "cudart/rt.h"
#include "util/json.h"
#include "warpsight/report.h"

void rt_report(ws_rt *rt) {
  ws_exec_kernel *ks = calloc(rt->nkstats + 1, sizeof *ks);
  double total[RT_MAX_MODELS + 1] = {0};
  char *s = NULL;
  if (ks) {
    for (size_t i = 0; i < rt->nkstats; i++) {
      const rt_kstat *k = &rt->kstats[i];
      ks[i] = (ws_exec_kernel){rt->funcs[k->func].name,
                               {k->grid[0], k->grid[1], k->grid[2]},
                               {k->block[0], k->block[1], k->block[2]},
                               k->dyn_shared, k->launches, k->pred.ms, k->pred.bottleneck};
    }
    ws_exec_run run = {rt->gpu ? rt->gpu->name : "", rt->models, rt->nmodels, rt->launches,
                       cudaGetErrorName(rt->sticky), ks, rt->nkstats};
    s = ws_report_exec_json(&run, total);
  }
  if (rt->json_out) {
    ws_diag d = WS_DIAG_INIT;
    ws_outfile o; /* a temporary file renamed into place (util/outfile.c) */
    if (!s) fprintf(stderr, "warpsight: error: cannot write %s: out of memory\n", rt->json_out);
    else if (ws_outfile_open(&o, rt->json_out, &d) == WS_OK) {
      fputs(s, o.f);
      fputc('\n', o.f);
      ws_outfile_commit(&o, &d);
    }
    for (size_t i = 0; i < d.count; i++)
      fprintf(stderr, "warpsight: error: %s: %s\n", d.items[i].file ? d.items[i].file : "",
              d.items[i].message);
    ws_diag_free(&d);
  } else if (!rt->quiet && rt->launches) {
    fprintf(stderr, "warpsight: %llu kernel launch%s on %s, predicted GPU time %.6g ms (%s); "
            "`warpsight exec` prints the table\n", (unsigned long long)rt->launches,
            rt->launches == 1 ? "" : "es", rt->gpu->name, total[0], rt->models[0]);
  }
  free(s);
  free(ks);
}

/* --- the launch log ----------------------------------------------------------- */

/* One line, whole (a short write is retried; a failing log is dropped
 * with one warning: the run goes on). */
static void log_line(ws_rt *rt, const char *text, size_t n) {
  while (n && rt->log_fd >= 0) {
    ssize_t w = write(rt->log_fd, text, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      fprintf(stderr, "warpsight: warning: WARPSIGHT_EXEC_LOG: %s; the launch log stops here\n",
              strerror(errno));
      close(rt->log_fd);
      rt->log_fd = -1;
      return;
    }
    text += w;
    n -= (size_t)w;
  }
}

static void log_json(ws_rt *rt, cJSON *o) {
  char *s = o ? ws_json_print(o, 0) : NULL;
  if (s) {
    size_t n = strlen(s);
    s[n] = '\n'; /* replaces the NUL: the line is written by length */
    log_line(rt, s, n + 1);
  }
  free(s);
  cJSON_Delete(o);
}

static void log_start(ws_rt *rt) {
  static int started; /* under the runtime's lock */
  if (started || rt->log_fd < 0) return;
  started = 1;
  cJSON *o = cJSON_CreateObject(), *st = cJSON_AddObjectToObject(o, "start");
  cJSON_AddStringToObject(st, "gpu", rt->gpu ? rt->gpu->name : "");
  cJSON_AddItemToObject(st, "models", cJSON_CreateStringArray(rt->models, (int)rt->nmodels));
  log_json(rt, o);
}

void rt_log_kstat(ws_rt *rt, size_t i) {
  if (rt->log_fd < 0) return;
  log_start(rt);
  const rt_kstat *k = &rt->kstats[i];
  int g[3] = {(int)k->grid[0], (int)k->grid[1], (int)k->grid[2]};
  int b[3] = {(int)k->block[0], (int)k->block[1], (int)k->block[2]};
  cJSON *o = cJSON_CreateObject(), *ms = cJSON_CreateArray();
  cJSON_AddNumberToObject(o, "kstat", (double)i);
  cJSON_AddStringToObject(o, "name", rt->funcs[k->func].name);
  cJSON_AddItemToObject(o, "grid", cJSON_CreateIntArray(g, 3));
  cJSON_AddItemToObject(o, "block", cJSON_CreateIntArray(b, 3));
  cJSON_AddNumberToObject(o, "dynamic_shared", (double)k->dyn_shared);
  for (size_t m = 0; m < rt->nmodels; m++)
    cJSON_AddItemToArray(ms, isnan(k->pred.ms[m]) ? cJSON_CreateNull() : cJSON_CreateNumber(k->pred.ms[m]));
  cJSON_AddItemToObject(o, "per_launch_ms", ms);
  if (k->pred.bottleneck) cJSON_AddStringToObject(o, "bottleneck", k->pred.bottleneck);
  else cJSON_AddNullToObject(o, "bottleneck");
  log_json(rt, o);
}

void rt_log_launch(ws_rt *rt, size_t i) {
  if (rt->log_fd < 0) return;
  char line[48];
  int n = snprintf(line, sizeof line, "{\"launch\":%zu}\n", i);
  log_line(rt, line, (size_t)n);
}

void rt_log_fault(ws_rt *rt) {
  if (rt->log_fd < 0) return;
  log_start(rt);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "sticky_error", cudaGetErrorName(rt->sticky));
  log_json(rt, o);
}
