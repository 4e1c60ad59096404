/*
 * cmd_model.c — `warpsight model`: run one model or all of them on a kernel
 * profile and a GPU; a table of the paper's terms, or JSON (DESIGN.md).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"

static const char help_text[] =
    "usage: warpsight model --profile P.json --gpu G [--model M|all] [--json]\n\n"
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
    "                 \"case\", \"limiter\", \"terms\": {...}}]}\n\n"
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

int cmd_model(int argc, char **argv) {
  const char *profile = NULL, *gpu = NULL, *model = "hong-kim", *json = NULL;
  cli_opt opts[] = {{"--profile", 1, &profile}, {"--gpu", 1, &gpu}, {"--model", 1, &model},
                    {"--json", 0, &json}, {NULL, 0, NULL}};
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
    ws_model_result_free(&r);
    ws_diag_free(&md);
  }
  if (all && ok_count == 0) rc = EXIT_USAGE;
  if (json) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "gpu", g->name);
    cJSON_AddStringToObject(root, "kernel", p->kernel);
    cJSON_AddItemToObject(root, "results", results);
    char *s = cJSON_Print(root);
    if (s) puts(s);
    cJSON_free(s);
    cJSON_Delete(root);
  }
  ws_profile_free(p);
  ws_gpu_free(g);
  ws_diag_free(&d);
  return rc;
}
