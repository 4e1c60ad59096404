/*
 * report_lines.c — the hot lines of a profile (`predict --lines`; docs/
 * cli-profile-predict.md): the rows of its line table ranked by the
 * primary model's bottleneck (ws_advise_lines_rank), with their counts and
 * source text, as text or as the "hot_lines" JSON array.
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"

/* What each metric is called in the heading (and the HTML report's). */
const char *ws_report_line_metric_name(ws_line_metric m) {
  switch (m) {
  case WS_LM_ISSUE: return "issue slots (instructions and replays)";
  case WS_LM_LSU: return "load/store unit passes";
  case WS_LM_SFU: return "special-function instructions";
  case WS_LM_FP64: return "FP64 instructions";
  case WS_LM_L2: return "L2 sectors";
  case WS_LM_DRAM: return "DRAM bytes weighted by scatter";
  case WS_LM_ATOMIC: return "serialized atomics";
  case WS_LM_LATENCY: return "dependency-path latency";
  default: return "?";
  }
}

/* The ranking: idx (caller frees), n rows, their total weight and metric;
 * with top 0 every row, those of no weight last in file and line order. */
static size_t *rank(size_t *n, double *total, ws_line_metric *m, double *lat, const ws_profile *p,
                    const ws_model_result *primary, size_t top) {
  *n = 0;
  *m = ws_advise_line_metric(primary);
  double l = primary ? ws_model_term_value(primary, WS_TERM_WARPSIGHT_LOAD_LATENCY) : NAN;
  *lat = isfinite(l) && l > 0 ? l : 400;
  if (!p->lines || !p->lines->nrows) return NULL;
  size_t *idx = calloc(p->lines->nrows, sizeof *idx);
  if (!idx) return NULL;
  ws_advise_lines_rank(idx, n, total, p, *m, *lat);
  for (size_t i = 0; !top && i < p->lines->nrows; i++)
    if (!(ws_advise_line_weight(&p->lines->rows[i], *m, *lat) > 0)) idx[(*n)++] = i;
  return idx;
}

void ws_report_lines(FILE *out, const ws_profile *p, const ws_model_result *primary, size_t top,
                     const char *const *source) {
  size_t n;
  double total, lat;
  ws_line_metric m;
  size_t *idx = rank(&n, &total, &m, &lat, p, primary, top);
  if (!p->lines) {
    fprintf(out, "\nhot lines: the profile has no line table\n");
    return;
  }
  const ws_profile_lines *l = p->lines;
  if (top && top < n) n = top;
  fprintf(out, "\nhot lines, by their share of %s%s (%s; counts per warp, DRAM for the launch, "
               "path per block):\n",
          ws_report_line_metric_name(m), primary ? ", the bottleneck" : "",
          l->ptx_lines ? "PTX lines: the PTX has no -lineinfo" : "source lines");
  fprintf(out, "  %-28s %7s %8s %12s %9s %8s %8s %9s %9s  %s\n", "line", "share", "insts",
          "trans/req", "DRAM MB", "replays", "div.br", "atom.ser", "path cyc", "source");
  for (size_t k = 0; k < n; k++) {
    const ws_profile_line *r = &l->rows[idx[k]];
    char name[512], tr[64];
    ws_advise_line_name(name, sizeof name, l, r);
    if (r->global_requests > 0)
      snprintf(tr, sizeof tr, "%.3g (%.3g)", r->sectors / r->global_requests,
               r->sectors_needed / r->global_requests);
    else
      snprintf(tr, sizeof tr, "-");
    fprintf(out, "  %-28s %6.1f%% %8.4g %12s %9.4g %8.4g %8.4g %9.4g %9.4g  %s\n", name,
            total > 0 ? 100 * ws_advise_line_weight(r, m, lat) / total : 0.0, r->warp_insts, tr, r->dram_bytes / 1e6,
            r->bank_conflict_replays, r->divergent_branches, r->atomic_serial,
            ws_advise_line_weight(r, WS_LM_LATENCY, lat),
            source && source[idx[k]] ? source[idx[k]] : "");
  }
  if (!n) fprintf(out, "  (no line has any)\n");
  fprintf(out, "  (trans/req: transactions per request and, in brackets, what coalesced access "
               "needs; path cyc: loads at %.0f cycles plus other cycles on a block's longest path)\n",
          lat);
  free(idx);
}

void ws_report_lines_json(cJSON *root, const ws_profile *p, const ws_model_result *primary,
                          size_t top, const char *const *source) {
  size_t n;
  double total, lat;
  ws_line_metric m;
  size_t *idx = rank(&n, &total, &m, &lat, p, primary, top);
  if (top && top < n) n = top;
  cJSON *arr = cJSON_AddArrayToObject(root, "hot_lines");
  for (size_t k = 0; k < n && arr; k++) {
    const ws_profile_line *r = &p->lines->rows[idx[k]];
    char name[512];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "line", ws_advise_line_name(name, sizeof name, p->lines, r));
    cJSON_AddStringToObject(o, "file", p->lines->files[r->file]);
    cJSON_AddNumberToObject(o, "line_number", r->line);
    cJSON_AddNumberToObject(o, "share", total > 0 ? ws_advise_line_weight(r, m, lat) / total : 0.0);
    cJSON_AddNumberToObject(o, "path_latency_cycles", ws_advise_line_weight(r, WS_LM_LATENCY, lat));
    if (source && source[idx[k]]) cJSON_AddStringToObject(o, "source", source[idx[k]]);
    else cJSON_AddNullToObject(o, "source");
    cJSON_AddItemToArray(arr, o);
  }
  free(idx);
}
