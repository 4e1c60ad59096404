/*
 * report_model.c — the reports of `model` and `predict` (warpsight/report.h,
 * report/report_json.h): a model's terms table, the one-line-per-model table
 * of --model all, the floors, the advice, the counterfactuals and the
 * comparison table of a --gpu list, as text on a FILE* or as JSON objects.
 * Nothing here runs a model: the results come in, the text goes out.
 */
#include "warpsight/report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_json.h"
#include "report/table.h"

void ws_report_json_num_or_null(cJSON *o, const char *key, double v) {
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

/* Results ----------------------------------------------------------------*/

cJSON *ws_report_model_json(const ws_model_result *r, int status, const ws_floors *fl) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "model", r->model ? r->model : "");
  if (status == WS_OK) {
    char why[256];
    const char *below = ws_model_floors_check(why, sizeof why, fl, r->time_ms);
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNumberToObject(o, "cycles", r->cycles);
    cJSON_AddNumberToObject(o, "time_ms", r->time_ms);
    cJSON *fj = cJSON_AddObjectToObject(o, "floors");
    ws_report_json_num_or_null(fj, "dram_ms", fl->dram_ms);
    ws_report_json_num_or_null(fj, "issue_ms", fl->issue_ms);
    if (below) cJSON_AddStringToObject(o, "below_floor", below);
    else cJSON_AddNullToObject(o, "below_floor");
    cJSON_AddStringToObject(o, "case", r->case_label ? r->case_label : "");
    cJSON_AddStringToObject(o, "limiter", ws_model_limiter(r));
    cJSON *t = cJSON_AddObjectToObject(o, "terms");
    for (size_t i = 0; i < r->nterms; i++) {
      const char *name = ws_model_term_info(r->terms[i].id)->name;
      if (isfinite(r->terms[i].value))
        cJSON_AddNumberToObject(t, name, r->terms[i].value);
      else
        cJSON_AddNullToObject(t, name);
    }
  } else {
    cJSON_AddStringToObject(o, "status", status == WS_EMISSING ? "missing-inputs" : "error");
    cJSON *m = cJSON_AddArrayToObject(o, "missing");
    for (size_t i = 0; i < r->nmissing; i++) cJSON_AddItemToArray(m, cJSON_CreateString(r->missing[i]));
  }
  return o;
}

void ws_report_floors_json(cJSON *root, const ws_floors *fl) {
  cJSON *fj = cJSON_AddObjectToObject(root, "floors");
  ws_report_json_num_or_null(fj, "dram_ms", fl->dram_ms);
  ws_report_json_num_or_null(fj, "dram_bytes", fl->dram_bytes);
  ws_report_json_num_or_null(fj, "issue_ms", fl->issue_ms);
  ws_report_json_num_or_null(fj, "warp_insts", fl->warp_insts);
  ws_report_json_num_or_null(fj, "issue_per_cycle", fl->issue_per_cycle);
}

void ws_report_model_terms(FILE *out, const ws_model_result *r, const ws_model_info *info,
                           const ws_floors *fl) {
  fprintf(out, "model %s — %s\n", r->model, info->title);
  fprintf(out, "  %-24s %16s  %-12s %s\n", "term", "value", "unit", "equation or source");
  for (size_t i = 0; i < r->nterms; i++) {
    const ws_term_info *t = ws_model_term_info(r->terms[i].id);
    fprintf(out, "  %-24s %16.6g  %-12s %s\n", t->name, r->terms[i].value, t->unit,
            r->terms[i].equation);
  }
  fprintf(out, "  predicted: %.6g cycles = %.6g ms\n", r->cycles, r->time_ms);
  char why[256];
  const char *below = ws_model_floors_check(why, sizeof why, fl, r->time_ms);
  fprintf(out, "  floors: DRAM %.6g ms, issue %.6g ms%s\n", fl->dram_ms, fl->issue_ms,
          below ? "" : " (the prediction is above both)");
  if (below) fprintf(out, "  ! %s\n", below);
  fprintf(out, "  case: %s\n", r->case_label ? r->case_label : "");
  if (*ws_model_limiter(r)) fprintf(out, "  limiter: %s\n", ws_model_limiter(r));
}

void ws_report_models_header(FILE *out) {
  fprintf(out, "%-16s %14s %12s  %s\n", "model", "cycles", "time (ms)", "limiting factor / case");
}

void ws_report_models_row(FILE *out, const ws_model_info *info, int status,
                          const ws_model_result *r, const ws_floors *fl, const ws_diag *md) {
  if (status == WS_OK) {
    char why[256];
    const char *below = ws_model_floors_check(why, sizeof why, fl, r->time_ms);
    fprintf(out, "%-16s %14.6g %12.6g%s %s\n", info->name, r->cycles, r->time_ms,
            below ? " !" : "  ",
            *ws_model_limiter(r) ? ws_model_limiter(r) : (r->case_label ? r->case_label : ""));
    if (below) fprintf(out, "%-16s ! %s\n", "", below);
    return;
  }
  fprintf(out, "%-16s %14s %12s  cannot run: ", info->name, "-", "-");
  if (!r->nmissing) {
    const char *msg = NULL;
    for (size_t k = 0; md && k < md->count && !msg; k++)
      if (md->items[k].severity == WS_SEV_ERROR) msg = md->items[k].message;
    fprintf(out, "%s\n", msg ? msg : "the model failed");
    return;
  }
  /* The first few; `--model NAME` lists them all. */
  fprintf(out, "missing ");
  size_t show = r->nmissing > 4 ? 3 : r->nmissing;
  for (size_t k = 0; k < show; k++) fprintf(out, "%s%s", k ? ", " : "", r->missing[k]);
  if (show < r->nmissing) fprintf(out, " and %zu more", r->nmissing - show);
  fprintf(out, "\n");
}

/* The comparison of a --gpu list: predicted ms, a row per model, a column per GPU. */
void ws_report_gpu_table(FILE *out, const char *const *gpus, size_t ngpu, const double *times) {
  fprintf(out, "\npredicted time (ms) by GPU\n%-16s", "model");
  for (size_t k = 0; k < ngpu; k++) fprintf(out, " %*s", ws_report_col_width(gpus[k]), gpus[k]);
  fprintf(out, "\n");
  for (size_t m = 0; m < ws_model_count(); m++) {
    int any = 0;
    for (size_t k = 0; k < ngpu; k++) any |= !isnan(times[k * ws_model_count() + m]);
    if (!any) continue;
    fprintf(out, "%-16s", ws_model_at(m)->name);
    for (size_t k = 0; k < ngpu; k++) {
      double t = times[k * ws_model_count() + m];
      if (isnan(t)) fprintf(out, " %*s", ws_report_col_width(gpus[k]), "-");
      else fprintf(out, " %*.6g", ws_report_col_width(gpus[k]), t);
    }
    fprintf(out, "\n");
  }
}

/* Advice -----------------------------------------------------------------*/

void ws_report_advice(FILE *out, const ws_advice *a) {
  char *text = ws_report_advice_text(a);
  fprintf(out, "\nadvice\n%s", text ? text : "(out of memory)\n");
  free(text);
}

/* A comma-separated list as a JSON array of strings. */
static cJSON *name_list(const char *s) {
  cJSON *arr = cJSON_CreateArray();
  while (s && *s) {
    size_t n = strcspn(s, ",");
    char buf[128];
    snprintf(buf, sizeof buf, "%.*s", (int)n, s);
    cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
    s += n;
    while (*s == ',' || *s == ' ') s++;
  }
  return arr;
}

static void str_or_null(cJSON *o, const char *key, const char *v) {
  if (v) cJSON_AddStringToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

void ws_report_advice_json(cJSON *root, const ws_advice *a) {
  cJSON *o = cJSON_AddObjectToObject(root, "advice");
  str_or_null(o, "bottleneck", a->bottleneck);
  str_or_null(o, "primary", a->primary);
  cJSON *changes = cJSON_AddArrayToObject(o, "changes");
  cJSON *views = cJSON_AddArrayToObject(o, "views");
  for (size_t i = 0; i < a->count; i++) {
    const ws_advice_item *it = &a->items[i];
    cJSON *j = cJSON_CreateObject();
    if (i < a->nchanges) {
      cJSON_AddStringToObject(j, "kind", it->kind == WS_ADVICE_BOUND ? "bound" : "change");
      cJSON_AddStringToObject(j, "topic", it->topic);
      cJSON_AddStringToObject(j, "action", it->action);
      cJSON_AddStringToObject(j, "finding", it->finding);
      str_or_null(j, "line", it->where);
      if (it->kind == WS_ADVICE_CHANGE) {
        cJSON_AddNumberToObject(j, "saving_ms", it->saving_ms);
        cJSON_AddNumberToObject(j, "share", it->share);
        cJSON_AddBoolToObject(j, "addresses_bottleneck", it->addresses);
        cJSON_AddItemToObject(j, "agree", name_list(it->agree));
        cJSON_AddItemToObject(j, "no_gain", name_list(it->no_gain));
        cJSON_AddItemToObject(j, "not_modelled", name_list(it->blind));
        str_or_null(j, "flag", it->flag);
      }
      cJSON_AddItemToArray(changes, j);
    } else {
      cJSON_AddStringToObject(j, "model", it->model ? it->model : "");
      cJSON_AddStringToObject(j, "topic", it->topic);
      cJSON_AddStringToObject(j, "finding", it->finding);
      cJSON_AddStringToObject(j, "direction", it->action);
      ws_report_json_num_or_null(j, "value", it->value);
      ws_report_json_num_or_null(j, "share", it->share);
      str_or_null(j, "contradiction", it->flag);
      cJSON_AddItemToArray(views, j);
    }
  }
}

/* Counterfactuals --------------------------------------------------------*/

void ws_report_counterfactuals(FILE *out, const ws_cf_table *t) {
  const ws_model_result *res = t->res;
  size_t n = t->n;
  if (!n) return;
  const char *trusted = res[t->trusted].model;
  fprintf(out, "\ncounterfactuals: predicted saving (ms) of each change, ranked by %s%s\n%-29s",
          trusted, strcmp(trusted, "warpsight") ? " (warpsight did not run)" : "", "change");
  for (size_t i = 0; i < n; i++) fprintf(out, " %*s", ws_report_col_width(res[i].model), res[i].model);
  fprintf(out, "\n");
  for (size_t o = 0; o < WS_CF_COUNT; o++) {
    const double *s = t->saving_ms + t->order[o] * n;
    fprintf(out, "%-29s", ws_advise_cf_name((ws_cf_kind)t->order[o]));
    for (size_t i = 0; i < n; i++)
      if (isfinite(s[i])) fprintf(out, " %*.4g", ws_report_col_width(res[i].model), s[i]);
      else fprintf(out, " %*s", ws_report_col_width(res[i].model), "-");
    fprintf(out, "%s\n", t->disagree[t->order[o]] ? "  !" : "");
  }
  fprintf(out, "(-: nothing to change, or the model could not run; !: %s recommends it and most other "
               "models that see it predict no saving of 1 %% or more)\n", trusted);
}

void ws_report_counterfactuals_json(cJSON *root, const ws_cf_table *t) {
  const ws_model_result *res = t->res;
  if (!t->n) return;
  static const char *const stances[] = {"not-run", "not-modelled", "agrees", "no-gain"};
  cJSON *cj = cJSON_AddObjectToObject(root, "counterfactuals");
  cJSON_AddStringToObject(cj, "ranked_by", res[t->trusted].model);
  cJSON *items = cJSON_AddArrayToObject(cj, "items");
  for (size_t o = 0; o < WS_CF_COUNT; o++) {
    size_t k = t->order[o];
    const double *s = t->saving_ms + k * t->n;
    cJSON *it = cJSON_CreateObject();
    cJSON_AddStringToObject(it, "change", ws_advise_cf_name((ws_cf_kind)k));
    cJSON *m = cJSON_AddObjectToObject(it, "saving_ms");
    cJSON *sj = cJSON_AddObjectToObject(it, "stance");
    for (size_t i = 0; i < t->n; i++) {
      ws_report_json_num_or_null(m, res[i].model, s[i]);
      if (i != t->trusted) cJSON_AddStringToObject(sj, res[i].model, stances[t->stance[k * t->n + i]]);
    }
    cJSON_AddBoolToObject(it, "addresses_bottleneck", t->addresses[k]);
    cJSON_AddBoolToObject(it, "models_disagree", t->disagree[k]);
    if (k == WS_CF_LAUNCH && t->alt) { /* the launch it predicts */
      int b[3] = {(int)t->alt->block[0], (int)t->alt->block[1], (int)t->alt->block[2]};
      int g[3] = {(int)t->alt->grid[0], (int)t->alt->grid[1], (int)t->alt->grid[2]};
      cJSON_AddItemToObject(it, "block", cJSON_CreateIntArray(b, 3));
      cJSON_AddItemToObject(it, "grid", cJSON_CreateIntArray(g, 3));
    }
    cJSON_AddItemToArray(items, it);
  }
}

/* Declarations (`model --terms`) -----------------------------------------*/

/* Text (out != NULL) or else JSON (into models) of the declared terms and
 * bounds of `model` ("all": every model).  Which one is decided by `out`
 * alone, so no path reaches fprintf with a NULL stream. */
static void declarations(FILE *out, cJSON *models, const char *model) {
  int json = out == NULL;
  int first = 1;
  for (size_t m = 0; m < ws_model_count(); m++) {
    const ws_model_info *mi = ws_model_at(m);
    if (strcmp(model, "all") && strcmp(model, mi->name)) continue;
    cJSON *o = NULL, *terms = NULL, *bounds = NULL;
    if (json) {
      cJSON_AddItemToArray(models, o = cJSON_CreateObject());
      cJSON_AddStringToObject(o, "model", mi->name);
      terms = cJSON_AddArrayToObject(o, "terms");
      bounds = cJSON_AddArrayToObject(o, "bounds");
    } else {
      fprintf(out, "%smodel %s — %s\n", first ? "" : "\n", mi->name, mi->title);
      fprintf(out, "  %-24s %-14s %s\n", "term", "unit", "meaning — equation or source");
    }
    first = 0;
    for (int i = 0; i < WS_TERM_COUNT; i++) {
      const ws_term_info *t = ws_model_term_info((ws_term_id)i);
      if (!ws_model_family_of(t->family, mi->name)) continue;
      if (!json) {
        fprintf(out, "  %-24s %-14s %s%s%s\n", t->name, t->unit, t->meaning,
                *t->equation ? " — " : "", t->equation);
        continue;
      }
      cJSON *tj = cJSON_CreateObject();
      cJSON_AddStringToObject(tj, "name", t->name);
      cJSON_AddStringToObject(tj, "unit", t->unit);
      cJSON_AddStringToObject(tj, "equation", t->equation);
      cJSON_AddStringToObject(tj, "meaning", t->meaning);
      cJSON_AddItemToArray(terms, tj);
    }
    if (!json) fprintf(out, "  %-24s %s\n", "case or bound", "limiter");
    for (int i = 1; i < WS_BOUND_COUNT; i++) {
      const ws_bound_info *b = ws_model_bound_info((ws_model_bound)i);
      if (!ws_model_family_of(b->family, mi->name)) continue;
      if (!json) {
        fprintf(out, "  %-24s %s\n", b->name, b->limiter);
        continue;
      }
      cJSON *bj = cJSON_CreateObject();
      cJSON_AddStringToObject(bj, "name", b->name);
      cJSON_AddStringToObject(bj, "limiter", b->limiter);
      cJSON_AddStringToObject(bj, "advice", b->advice);
      cJSON_AddItemToArray(bounds, bj);
    }
  }
}

void ws_report_model_declarations(FILE *out, const char *model) {
  declarations(out, NULL, model);
}

cJSON *ws_report_model_declarations_json(const char *model) {
  cJSON *root = cJSON_CreateObject();
  cJSON *models = cJSON_AddArrayToObject(root, "models");
  if (models) declarations(NULL, models, model);
  return root;
}
