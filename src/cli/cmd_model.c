/*
 * cmd_model.c — `warpsight model`: run one model or all of them on a kernel
 * profile and a GPU; a table of the paper's terms, or JSON (DESIGN.md).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
#include "warpsight/advise.h"
#include "warpsight/report.h"

static const char help_text[] =
    "usage: warpsight model --profile P.json --gpu G [--model M|all] [--json]\n"
    "                       [--advise] [--charts DIR]\n\n"
    "Runs a performance model on a kernel profile (warpsight-profile/1, see\n"
    "docs/profile.md) for GPU G (a database name, see 'warpsight gpus', or a\n"
    "JSON file).  Prints every intermediate term the paper names, in the\n"
    "paper's order, with its equation number, then the predicted cycles, time\n"
    "and which case or bound applied.\n\n"
    "options:\n"
    "  --profile P   kernel profile (JSON)\n"
    "  --gpu G       GPU name or path to a GPU JSON file\n"
    "  --model M     a model name or 'all' (default hong-kim); models:\n"
    "%s"
    "  --json        machine-readable output:\n"
    "                {\"gpu\", \"kernel\", \"results\": [{\"model\", \"cycles\", \"time_ms\",\n"
    "                 \"case\", \"limiter\", \"terms\": {...}}]}\n"
    "  --advise      after the results, the advisor: the bottleneck and a ranked\n"
    "                list of what to try (GPUPerf benefits as shares of run time,\n"
    "                Transit and Roofline bounds; docs/advisor.md); with --json an\n"
    "                \"advice\" object\n"
    "  --charts DIR  write DIR/KERNEL-MODEL.png and .svg for the models that have\n"
    "                a chart: gpuperf (benefit X-Y chart), transit (transit\n"
    "                figure), roofline (docs/charts.md); DIR is created\n\n"
    "Exit status: 0 ok; 2 bad usage, a malformed profile or GPU, or a model that\n"
    "lacks inputs (with --model all, models lacking inputs are listed with the\n"
    "missing fields and the status stays 0 if any model ran).\n";

static void print_help(void) {
  char list[2048] = "";
  for (size_t i = 0; i < ws_model_count(); i++) {
    const ws_model_info *m = ws_model_at(i);
    char line[256];
    snprintf(line, sizeof line, "                  %-15s %s\n", m->name, m->title);
    strncat(list, line, sizeof list - strlen(list) - 1);
  }
  printf(help_text, list);
}

/* The JSON object for one result (also used by `predict`). */
static cJSON *result_json(const ws_model_result *r, int status) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "model", r->model ? r->model : "");
  if (status == WS_OK) {
    cJSON_AddStringToObject(o, "status", "ok");
    cJSON_AddNumberToObject(o, "cycles", r->cycles);
    cJSON_AddNumberToObject(o, "time_ms", r->time_ms);
    cJSON_AddStringToObject(o, "case", r->case_label ? r->case_label : "");
    cJSON_AddStringToObject(o, "limiter", r->limiter ? r->limiter : "");
    cJSON *t = cJSON_AddObjectToObject(o, "terms");
    for (size_t i = 0; i < r->nterms; i++) {
      if (isfinite(r->terms[i].value))
        cJSON_AddNumberToObject(t, r->terms[i].name, r->terms[i].value);
      else
        cJSON_AddNullToObject(t, r->terms[i].name);
    }
  } else {
    cJSON_AddStringToObject(o, "status", status == WS_EMISSING ? "missing-inputs" : "error");
    cJSON *m = cJSON_AddArrayToObject(o, "missing");
    for (size_t i = 0; i < r->nmissing; i++) cJSON_AddItemToArray(m, cJSON_CreateString(r->missing[i]));
  }
  return o;
}

static void print_terms(const ws_model_result *r, const ws_model_info *info) {
  printf("model %s — %s\n", r->model, info->title);
  printf("  %-24s %16s  %-12s %s\n", "term", "value", "unit", "equation or source");
  for (size_t i = 0; i < r->nterms; i++)
    printf("  %-24s %16.6g  %-12s %s\n", r->terms[i].name, r->terms[i].value, r->terms[i].unit,
           r->terms[i].equation);
  printf("  predicted: %.6g cycles = %.6g ms\n", r->cycles, r->time_ms);
  printf("  case: %s\n", r->case_label ? r->case_label : "");
  if (r->limiter && *r->limiter) printf("  limiter: %s\n", r->limiter);
}

/* --advise: the advisor over the results that ran (text, or into `extra`). */
static int finish_advice(const ws_model_result *res, const int *ok, size_t n,
                         cJSON *extra) {
  const ws_model_result **list = calloc(n ? n : 1, sizeof *list);
  if (!list) return EXIT_USAGE;
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (ok[i]) list[m++] = &res[i];
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
  ws_advice_free(&a);
  ws_diag_free(&d);
  return EXIT_OK;
}

/* --charts DIR: one chart per result that has one. */
static int finish_charts(const char *dir, const char *kernel,
                         const ws_model_result *res, const int *ok, size_t n,
                         cJSON *extra) {
  if (!ws_chart_available()) {
    fprintf(stderr, "warpsight model: error: --charts needs cairo: this "
                    "warpsight was built without it\n");
    return EXIT_USAGE;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "warpsight model: error: %s: cannot create: %s\n", dir,
            strerror(errno));
    return EXIT_USAGE;
  }
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
    if (!ok[i]) continue;
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
    fprintf(stderr, "warpsight model: warning: no chart written: charts exist "
                    "for gpuperf, transit and roofline\n");
  return rc;
}

int cmd_model(int argc, char **argv) {
  const char *profile = NULL, *gpu = NULL, *model = "hong-kim", *json = NULL;
  const char *advise = NULL, *charts = NULL;
  cli_opt opts[] = {{"--profile", 1, &profile}, {"--gpu", 1, &gpu}, {"--model", 1, &model},
                    {"--json", 0, &json}, {"--advise", 0, &advise},
                    {"--charts", 1, &charts}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      print_help();
      return EXIT_OK;
    }
  if (cli_parse("model", argc, argv, opts, pos, 0, &npos, "", &help)) return EXIT_USAGE;
  if (!profile) return cli_usage_error("model", "--profile is required");
  if (!gpu) return cli_usage_error("model", "--gpu is required");
  int all = strcmp(model, "all") == 0;
  if (!all && !ws_model_find(model)) {
    ws_diag d = WS_DIAG_INIT;
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_model_predict(&r, model, NULL, NULL, &d);
    cli_print_diag(&d);
    ws_diag_free(&d);
    return EXIT_USAGE;
  }

  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  ws_gpu *g = NULL;
  int st = ws_profile_load_file(&p, profile, &d);
  if (st == WS_OK) st = ws_gpu_load(&g, gpu, &d);
  if (st) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    ws_profile_free(p);
    return cli_exit_for(st);
  }

  size_t first = 0, last = ws_model_count();
  if (!all) {
    for (size_t i = 0; i < ws_model_count(); i++)
      if (!strcmp(ws_model_at(i)->name, model)) first = i, last = i + 1;
  }
  cJSON *results = json ? cJSON_CreateArray() : NULL;
  /* Kept until the end for --advise and --charts. */
  ws_model_result *kept = calloc(ws_model_count(), sizeof *kept);
  int *kept_ok = calloc(ws_model_count(), sizeof *kept_ok);
  if (!kept || !kept_ok) {
    free(kept);
    free(kept_ok);
    cJSON_Delete(results);
    ws_profile_free(p);
    ws_gpu_free(g);
    ws_diag_free(&d);
    fprintf(stderr, "warpsight model: error: out of memory\n");
    return EXIT_USAGE;
  }
  int ok_count = 0, rc = EXIT_OK;
  if (!json) {
    printf("kernel %s: grid %u x %u x %u, block %u x %u x %u on %s (%s)\n\n", p->kernel, p->grid[0],
           p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2], g->name, g->full_name);
    if (all)
      printf("%-16s %14s %12s  %s\n", "model", "cycles", "time (ms)", "limiting factor / case");
  }
  for (size_t i = first; i < last; i++) {
    const ws_model_info *info = ws_model_at(i);
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag md = WS_DIAG_INIT;
    int s = ws_model_predict(&r, info->name, p, g, &md);
    if (s == WS_OK) ok_count++;
    kept_ok[i] = s == WS_OK;
    if (json) {
      cJSON_AddItemToArray(results, result_json(&r, s));
      if (s != WS_OK && s != WS_EMISSING) cli_print_diag(&md);
      else if (s == WS_OK) cli_print_diag(&md); /* warnings */
    } else if (all) {
      if (s == WS_OK) {
        printf("%-16s %14.6g %12.6g  %s\n", info->name, r.cycles, r.time_ms,
               r.limiter && *r.limiter ? r.limiter : (r.case_label ? r.case_label : ""));
      } else {
        printf("%-16s %14s %12s  cannot run: missing ", info->name, "-", "-");
        for (size_t k = 0; k < r.nmissing; k++) printf("%s%s", k ? ", " : "", r.missing[k]);
        if (!r.nmissing) printf("(error, see below)");
        printf("\n");
        if (s != WS_EMISSING) cli_print_diag(&md);
      }
    } else {
      cli_print_diag(&md);
      if (s == WS_OK) print_terms(&r, info);
    }
    if (!all && s != WS_OK) rc = cli_exit_for(s);
    kept[i] = r; /* freed below */
    ws_diag_free(&md);
  }
  cJSON *extra = json ? cJSON_CreateObject() : NULL;
  if (advise && finish_advice(kept, kept_ok, ws_model_count(), extra) != EXIT_OK)
    rc = EXIT_USAGE;
  if (charts && finish_charts(charts, p->kernel, kept, kept_ok, ws_model_count(),
                              extra) != EXIT_OK)
    rc = EXIT_USAGE;
  if (charts) ws_chart_shutdown(); /* cairo's font caches, for leak checkers */
  if (all && ok_count == 0) rc = EXIT_USAGE;
  if (json) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "gpu", g->name);
    cJSON_AddStringToObject(root, "kernel", p->kernel);
    cJSON_AddItemToObject(root, "results", results);
    cJSON *it = extra ? extra->child : NULL;
    while (it) { /* move "advice" and "charts" over */
      cJSON *next = it->next;
      cJSON_AddItemToObject(root, it->string, cJSON_DetachItemViaPointer(extra, it));
      it = next;
    }
    char *s = cJSON_Print(root);
    if (s) puts(s);
    cJSON_free(s);
    cJSON_Delete(root);
  }
  cJSON_Delete(extra);
  for (size_t i = 0; i < ws_model_count(); i++) ws_model_result_free(&kept[i]);
  free(kept);
  free(kept_ok);
  ws_profile_free(p);
  ws_gpu_free(g);
  ws_diag_free(&d);
  return rc;
}
