/*
 * model_print.c — run models on a profile and print the results (text or
 * JSON); used by `warpsight model` and `warpsight predict`.
 */
#include "cli/model_print.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "warpsight/advise.h"
#include "warpsight/report.h"

void cli_model_list(char *buf, size_t size) {
  buf[0] = 0;
  for (size_t i = 0; i < ws_model_count(); i++) {
    const ws_model_info *m = ws_model_at(i);
    char line[512];
    snprintf(line, sizeof line, "                  %-15s %s\n", m->name, m->title);
    strncat(buf, line, size - strlen(buf) - 1);
  }
}

int cli_model_valid(const char *model) {
  if (!strcmp(model, "all") || ws_model_find(model)) return 1;
  ws_diag d = WS_DIAG_INIT;
  ws_model_result r = WS_MODEL_RESULT_INIT;
  ws_model_predict(&r, model, NULL, NULL, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  ws_model_result_free(&r);
  return 0;
}

static void add_num_or_null(cJSON *o, const char *key, double v) {
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
  else cJSON_AddNullToObject(o, key);
}

/* The JSON object for one result; `floors` judges its time (docs/models/floors.md). */
static cJSON *result_json(const ws_model_result *r, int status, const ws_floors *fl) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "model", r->model ? r->model : "");
  if (status == WS_OK) {
    char why[256];
    const char *below = ws_model_floors_check(why, sizeof why, fl, r->time_ms);
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNumberToObject(o, "cycles", r->cycles);
    cJSON_AddNumberToObject(o, "time_ms", r->time_ms);
    cJSON *fj = cJSON_AddObjectToObject(o, "floors");
    add_num_or_null(fj, "dram_ms", fl->dram_ms);
    add_num_or_null(fj, "issue_ms", fl->issue_ms);
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

static void print_terms(const ws_model_result *r, const ws_model_info *info, const ws_floors *fl) {
  printf("model %s — %s\n", r->model, info->title);
  printf("  %-24s %16s  %-12s %s\n", "term", "value", "unit", "equation or source");
  for (size_t i = 0; i < r->nterms; i++) {
    const ws_term_info *t = ws_model_term_info(r->terms[i].id);
    printf("  %-24s %16.6g  %-12s %s\n", t->name, r->terms[i].value, t->unit,
           r->terms[i].equation);
  }
  printf("  predicted: %.6g cycles = %.6g ms\n", r->cycles, r->time_ms);
  char why[256];
  const char *below = ws_model_floors_check(why, sizeof why, fl, r->time_ms);
  printf("  floors: DRAM %.6g ms, issue %.6g ms%s\n", fl->dram_ms, fl->issue_ms,
         below ? "" : " (the prediction is above both)");
  if (below) printf("  ! %s\n", below);
  printf("  case: %s\n", r->case_label ? r->case_label : "");
  if (*ws_model_limiter(r)) printf("  limiter: %s\n", ws_model_limiter(r));
}

int cli_run_models(const ws_profile *p, const ws_gpu *g, const char *model, cJSON *json_root,
                   ws_model_result **results, size_t *nresults) {
  int all = strcmp(model, "all") == 0;
  size_t first = 0, last = ws_model_count();
  if (!all) {
    for (size_t i = 0; i < ws_model_count(); i++)
      if (!strcmp(ws_model_at(i)->name, model)) first = i, last = i + 1;
  }
  if (results) {
    *results = calloc(last - first, sizeof **results);
    *nresults = 0;
  }
  ws_floors fl;
  ws_model_floors_compute(&fl, p, g);
  if (json_root) {
    cJSON *fj = cJSON_AddObjectToObject(json_root, "floors");
    add_num_or_null(fj, "dram_ms", fl.dram_ms);
    add_num_or_null(fj, "dram_bytes", fl.dram_bytes);
    add_num_or_null(fj, "issue_ms", fl.issue_ms);
    add_num_or_null(fj, "warp_insts", fl.warp_insts);
    add_num_or_null(fj, "issue_per_cycle", fl.issue_per_cycle);
  }
  cJSON *jres = json_root ? cJSON_AddArrayToObject(json_root, "results") : NULL;
  int ok_count = 0, rc = EXIT_OK;
  if (!json_root && all)
    printf("%-16s %14s %12s  %s\n", "model", "cycles", "time (ms)", "limiting factor / case");
  for (size_t i = first; i < last; i++) {
    const ws_model_info *info = ws_model_at(i);
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag md = WS_DIAG_INIT;
    int s = ws_model_predict(&r, info->name, p, g, &md);
    if (s == WS_OK) ok_count++;
    if (json_root) {
      cJSON_AddItemToArray(jres, result_json(&r, s, &fl));
      if (s != WS_EMISSING) cli_print_diag(&md); /* errors, or warnings of a model that ran */
    } else if (all) {
      if (s == WS_OK) {
        char why[256];
        const char *below = ws_model_floors_check(why, sizeof why, &fl, r.time_ms);
        printf("%-16s %14.6g %12.6g%s %s\n", info->name, r.cycles, r.time_ms, below ? " !" : "  ",
               *ws_model_limiter(&r) ? ws_model_limiter(&r) : (r.case_label ? r.case_label : ""));
        if (below) printf("%-16s ! %s\n", "", below);
      } else {
        printf("%-16s %14s %12s  cannot run: missing ", info->name, "-", "-");
        /* The first few; `--model NAME` lists them all. */
        size_t show = r.nmissing > 4 ? 3 : r.nmissing;
        for (size_t k = 0; k < show; k++) printf("%s%s", k ? ", " : "", r.missing[k]);
        if (show < r.nmissing) printf(" and %zu more", r.nmissing - show);
        if (!r.nmissing) printf("(error, see below)");
        printf("\n");
        if (s != WS_EMISSING) cli_print_diag(&md);
      }
    } else {
      cli_print_diag(&md);
      if (s == WS_OK) print_terms(&r, info, &fl);
    }
    if (!all && s != WS_OK) rc = cli_exit_for(s);
    if (s == WS_OK && results && *results) (*results)[(*nresults)++] = r;
    else ws_model_result_free(&r);
    ws_diag_free(&md);
  }
  if (all && ok_count == 0) rc = EXIT_USAGE;
  return rc;
}

/* --advise: the advisor over the results that ran (text, or into `extra`). */
int cli_finish_advice(const ws_model_result *res, const int *ok, size_t n,
                      cJSON *extra) {
  const ws_model_result **list = calloc(n ? n : 1, sizeof *list);
  if (!list) return EXIT_USAGE;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!ok || ok[i]) list[m++] = &res[i];
  ws_diag d = WS_DIAG_INIT;
  ws_advice a = WS_ADVICE_INIT;
  int st = ws_advise(&a, list, m, &d);
  free(list);
  if (st != WS_OK) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    return EXIT_USAGE;
  }
  if (extra) {
    cJSON *o = cJSON_AddObjectToObject(extra, "advice");
    if (a.bottleneck) cJSON_AddStringToObject(o, "bottleneck", a.bottleneck);
    else cJSON_AddNullToObject(o, "bottleneck");
    cJSON *items = cJSON_AddArrayToObject(o, "items");
    for (size_t i = 0; i < a.count; i++) {
      const ws_advice_item *it = &a.items[i];
      cJSON *j = cJSON_CreateObject();
      static const char *const kinds[] = {"benefit", "bound", "note"};
      cJSON_AddStringToObject(j, "kind", kinds[it->kind]);
      cJSON_AddStringToObject(j, "model", it->model ? it->model : "");
      cJSON_AddStringToObject(j, "topic", it->topic);
      if (isfinite(it->value)) cJSON_AddNumberToObject(j, "value", it->value);
      if (isfinite(it->share)) cJSON_AddNumberToObject(j, "share", it->share);
      cJSON_AddStringToObject(j, "finding", it->finding);
      cJSON_AddStringToObject(j, "action", it->action);
      cJSON_AddItemToArray(items, j);
    }
  } else {
    char *text = ws_report_advice_text(&a);
    printf("\nadvice\n%s", text ? text : "(out of memory)\n");
    free(text);
  }
  ws_advise_free(&a);
  ws_diag_free(&d);
  return EXIT_OK;
}

/* --charts DIR: one chart per result that has one. */
int cli_finish_charts(const char *cmd, const char *dir, const char *kernel,
                      const ws_model_result *res, const int *ok, size_t n,
                      cJSON *extra) {
  if (!ws_chart_available()) {
    fprintf(stderr, "warpsight %s: error: --charts needs cairo: this "
                    "warpsight was built without it\n", cmd);
    return EXIT_USAGE;
  }
  if (cli_make_dir(cmd, dir)) return EXIT_USAGE;
  char safe[128];
  size_t k = 0;
  for (const char *c = kernel ? kernel : "kernel"; *c && k + 1 < sizeof safe; c++)
    safe[k++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                        (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'
                    ? *c
                    : '_';
  safe[k] = '\0';
  cJSON *list = extra ? cJSON_AddArrayToObject(extra, "charts") : NULL;
  int rc = EXIT_OK, wrote = 0;
  for (size_t i = 0; i < n; i++) {
    if (ok && !ok[i]) continue;
    char base[4096];
    snprintf(base, sizeof base, "%s/%s-%s", dir, safe, res[i].model);
    ws_diag d = WS_DIAG_INIT;
    int st = ws_chart_for_result(base, &res[i], &d);
    if (st == WS_OK) {
      wrote++;
      if (list) {
        char f[4200];
        snprintf(f, sizeof f, "%s.png", base);
        cJSON_AddItemToArray(list, cJSON_CreateString(f));
        snprintf(f, sizeof f, "%s.svg", base);
        cJSON_AddItemToArray(list, cJSON_CreateString(f));
      } else {
        printf("%swrote %s.png and %s.svg\n", wrote == 1 ? "\n" : "", base, base);
      }
    } else if (st != WS_EUNSUP || d.count) {
      cli_print_diag(&d);
      rc = EXIT_USAGE;
    }
    ws_diag_free(&d);
  }
  if (!wrote && rc == EXIT_OK)
    fprintf(stderr, "warpsight %s: warning: no chart written: charts exist "
                    "for gpuperf, transit and roofline\n", cmd);
  return rc;
}


int cli_finish_sections(const char *cmd, int advise, const char *charts_dir,
                        const char *kernel, const ws_model_result *res, size_t n,
                        cJSON *root) {
  int rc = EXIT_OK;
  if (advise && cli_finish_advice(res, NULL, n, root) != EXIT_OK) rc = EXIT_USAGE;
  if (charts_dir) {
    if (cli_finish_charts(cmd, charts_dir, kernel, res, NULL, n, root) != EXIT_OK) rc = EXIT_USAGE;
    ws_chart_shutdown(); /* cairo's font caches, for leak checkers */
  }
  return rc;
}

int cli_finish_report(const char *cmd, int advise, const char *charts_dir,
                      const char *kernel, const ws_model_result *res, size_t n,
                      cJSON *root) {
  int rc = cli_finish_sections(cmd, advise, charts_dir, kernel, res, n, root);
  if (root) {
    cli_print_json(root);
    cJSON_Delete(root);
  }
  return rc;
}

size_t cli_split_gpus(const char *cmd, const char *arg, char *buf, size_t bufsize,
                      const char **names, size_t max) {
  if (strlen(arg) >= bufsize) {
    cli_usage_error(cmd, "--gpu: the list is too long");
    return 0;
  }
  strcpy(buf, arg);
  size_t n = 0;
  for (char *s = buf;;) {
    char *comma = strchr(s, ',');
    if (comma) *comma = '\0';
    if (!*s) {
      cli_usage_error(cmd, "--gpu %s: an empty GPU name in the list", arg);
      return 0;
    }
    if (n == max) {
      cli_usage_error(cmd, "--gpu: more than %zu GPUs in the list", max);
      return 0;
    }
    names[n++] = s;
    if (!comma) break;
    s = comma + 1;
  }
  return n;
}

void cli_gpu_times(double *times, const ws_model_result *res, size_t n) {
  for (size_t m = 0; m < ws_model_count(); m++) {
    times[m] = NAN;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(res[i].model, ws_model_at(m)->name)) times[m] = res[i].time_ms;
  }
}

/* The list's comparison: predicted ms, a row per model, a column per GPU. */
void cli_print_gpu_table(const char *const *gpus, size_t ngpu, const double *times) {
  printf("\npredicted time (ms) by GPU\n%-16s", "model");
  for (size_t k = 0; k < ngpu; k++) printf(" %12.12s", gpus[k]);
  printf("\n");
  for (size_t m = 0; m < ws_model_count(); m++) {
    int any = 0;
    for (size_t k = 0; k < ngpu; k++) any |= !isnan(times[k * ws_model_count() + m]);
    if (!any) continue;
    printf("%-16s", ws_model_at(m)->name);
    for (size_t k = 0; k < ngpu; k++) {
      double t = times[k * ws_model_count() + m];
      if (isnan(t)) printf(" %12s", "-");
      else printf(" %12.6g", t);
    }
    printf("\n");
  }
}


/* One counterfactual's savings (ms) per result; NAN where it was not run. */
static void cf_savings(double *sv, const ws_profile *p, const ws_gpu *g, ws_cf_kind k,
                       const ws_model_result *res, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double base, cf;
    ws_diag d = WS_DIAG_INIT;
    sv[i] = NAN;
    if (ws_advise_cf_saving(&base, &cf, res[i].model, p, g, k, &d) == WS_OK && base > 0)
      sv[i] = res[i].time_ms * (base - cf) / base;
    ws_diag_free(&d);
  }
}

/* Do the savings differ by more than 2x (or in sign)? */
static int cf_disagree(const double *sv, size_t n) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    if (isfinite(sv[i])) lo = fmin(lo, sv[i]), hi = fmax(hi, sv[i]);
  if (!isfinite(lo)) return 0;
  return (lo <= 0 && hi > 0) || (lo > 0 && hi > 2 * lo);
}

void cli_counterfactuals(const ws_profile *p, const ws_gpu *g, const ws_model_result *res,
                         size_t n, cJSON *root) {
  if (!n) return;
  size_t trusted = 0; /* warpsight: the lowest validated error (docs/validation.md) */
  for (size_t i = 0; i < n; i++)
    if (!strcmp(res[i].model, "warpsight")) trusted = i;
  double *sv = calloc(WS_CF_COUNT * n, sizeof *sv);
  if (!sv) return;
  size_t order[WS_CF_COUNT];
  for (size_t k = 0; k < WS_CF_COUNT; k++) {
    cf_savings(sv + k * n, p, g, (ws_cf_kind)k, res, n);
    order[k] = k;
  }
  for (size_t a = 1; a < WS_CF_COUNT; a++) /* by the trusted model's saving, largest first */
    for (size_t b = a; b > 0; b--) {
      double x = sv[order[b] * n + trusted], y = sv[order[b - 1] * n + trusted];
      if (!(isfinite(x) && (!isfinite(y) || x > y))) break;
      size_t t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
    }
  cJSON *cj = root ? cJSON_AddObjectToObject(root, "counterfactuals") : NULL, *items = NULL;
  if (cj) {
    cJSON_AddStringToObject(cj, "ranked_by", res[trusted].model);
    items = cJSON_AddArrayToObject(cj, "items");
  } else {
    printf("\ncounterfactuals: predicted saving (ms) with the inefficiency removed, ranked by %s%s\n%-20s",
           res[trusted].model, strcmp(res[trusted].model, "warpsight") ? " (warpsight did not run)" : "",
           "change");
    for (size_t i = 0; i < n; i++) printf(" %12.12s", res[i].model);
    printf("\n");
  }
  double lo = INFINITY, hi = 0; /* the base predictions' spread */
  for (size_t i = 0; i < n; i++)
    if (isfinite(res[i].time_ms) && res[i].time_ms > 0)
      lo = fmin(lo, res[i].time_ms), hi = fmax(hi, res[i].time_ms);
  if (cj) cJSON_AddBoolToObject(cj, "base_disagree", hi > 2 * lo);
  else if (hi > 2 * lo)
    printf("! the base predictions differ by more than 2x (%.4g to %.4g ms); validation favours %s\n",
           lo, hi, res[trusted].model);
  for (size_t o = 0; o < WS_CF_COUNT; o++) {
    const double *s = sv + order[o] * n;
    int dis = cf_disagree(s, n);
    if (cj) {
      cJSON *it = cJSON_CreateObject(), *m = NULL;
      cJSON_AddStringToObject(it, "change", ws_advise_cf_name((ws_cf_kind)order[o]));
      m = cJSON_AddObjectToObject(it, "saving_ms");
      for (size_t i = 0; i < n; i++)
        if (isfinite(s[i])) cJSON_AddNumberToObject(m, res[i].model, s[i]);
        else cJSON_AddNullToObject(m, res[i].model);
      cJSON_AddBoolToObject(it, "models_disagree", dis);
      cJSON_AddItemToArray(items, it);
      continue;
    }
    printf("%-20s", ws_advise_cf_name((ws_cf_kind)order[o]));
    for (size_t i = 0; i < n; i++)
      if (isfinite(s[i])) printf(" %12.4g", s[i]);
      else printf(" %12s", "-");
    printf("\n");
    if (dis)
      printf("%-20s ! models disagree by more than 2x; validation favours %s\n", "",
             res[trusted].model);
  }
  free(sv);
}
