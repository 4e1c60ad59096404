/*
 * sweep_text.c — a block-size sweep as a plain-text table (warpsight/report.h,
 * docs/sweep.md):
 *
 *   threads   blocks  gpu          blocks/SM  warps/SM  occupancy  warpsight ms  ...
 *        32     3125  a100                32        32     50.0 %     0.0123
 *
 * One line per (block size, GPU); "-" where the block cannot run on the GPU
 * or a model could not run.  The occupancy's limiter follows the times.
 * Also the same table as `sweep --json` (report/report_json.h).
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report_json.h"
#include "report/table.h"
#include "util/strbuf.h"

static void cell(ws_strbuf *b, double v, const char *fmt, int width) {
  if (isfinite(v)) ws_sb_printf(b, fmt, width, v);
  else ws_sb_printf(b, "%*s", width, "-");
}

char *ws_report_sweep_text(const ws_sweep_table *t) {
  ws_strbuf b = WS_STRBUF_INIT;
  int gw = 12; /* the gpu column: the longest name, never cut */
  for (size_t k = 0; k < t->ngpus; k++)
    if (ws_report_col_width(t->gpus[k]) > gw) gw = ws_report_col_width(t->gpus[k]);
  ws_sb_printf(&b, "%7s %9s  %-*s %9s %9s %10s", "threads", "blocks", gw, "gpu", "blocks/SM",
               "warps/SM", "occupancy");
  for (size_t m = 0; m < t->nmodels; m++) {
    char h[64];
    snprintf(h, sizeof h, "%.20s ms", t->models[m]);
    ws_sb_printf(&b, " %14s", h);
  }
  ws_sb_puts(&b, "  occupancy limited by\n");
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t k = 0; k < t->ngpus; k++) {
      size_t i = r * t->ngpus + k;
      ws_sb_printf(&b, "%7llu %9llu  %-*s", (unsigned long long)t->threads[r],
                   (unsigned long long)t->blocks[r], gw, t->gpus[k]);
      cell(&b, t->blocks_per_sm[i], " %*.0f", 9);
      cell(&b, t->warps_per_sm[i], " %*.0f", 9);
      if (isfinite(t->occupancy[i])) ws_sb_printf(&b, " %8.1f %%", 100 * t->occupancy[i]);
      else ws_sb_printf(&b, " %10s", "-");
      for (size_t m = 0; m < t->nmodels; m++) cell(&b, t->time_ms[i * t->nmodels + m], " %*.5g", 14);
      ws_sb_printf(&b, "  %s\n", t->limiter && t->limiter[i] ? t->limiter[i] : "-");
    }
  return ws_sb_take(&b);
}

static cJSON *dim3_json(const uint32_t v[3]) {
  cJSON *a = cJSON_CreateArray();
  for (int j = 0; j < 3; j++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[j]));
  return a;
}

cJSON *ws_report_sweep_json(const ws_sweep_table *t, uint64_t total_threads, const char *rule) {
  cJSON *root = cJSON_CreateObject(), *rows;
  cJSON_AddStringToObject(root, "schema", "warpsight-sweep/1");
  cJSON_AddStringToObject(root, "kernel", t->kernel);
  cJSON_AddNumberToObject(root, "total_threads", (double)total_threads);
  cJSON_AddStringToObject(root, "rule", rule);
  cJSON_AddItemToObject(root, "gpus", cJSON_CreateStringArray(t->gpus, (int)t->ngpus));
  cJSON_AddItemToObject(root, "models", cJSON_CreateStringArray(t->models, (int)t->nmodels));
  rows = cJSON_AddArrayToObject(root, "rows");
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t k = 0; k < t->ngpus; k++) {
      size_t i = r * t->ngpus + k;
      cJSON *o = cJSON_CreateObject(), *ms;
      cJSON_AddNumberToObject(o, "threads_per_block", (double)t->threads[r]);
      cJSON_AddItemToObject(o, "block", dim3_json(t->block[r]));
      cJSON_AddItemToObject(o, "grid", dim3_json(t->grid[r]));
      cJSON_AddStringToObject(o, "gpu", t->gpus[k]);
      ws_report_json_num_or_null(o, "active_blocks_per_sm", t->blocks_per_sm[i]);
      ws_report_json_num_or_null(o, "active_warps_per_sm", t->warps_per_sm[i]);
      ws_report_json_num_or_null(o, "occupancy", t->occupancy[i]);
      if (t->limiter[i]) cJSON_AddStringToObject(o, "limited_by", t->limiter[i]);
      else cJSON_AddNullToObject(o, "limited_by");
      ms = cJSON_AddObjectToObject(o, "time_ms");
      for (size_t m = 0; m < t->nmodels; m++)
        ws_report_json_num_or_null(ms, t->models[m], t->time_ms[i * t->nmodels + m]);
      cJSON_AddItemToArray(rows, o);
    }
  return root;
}
