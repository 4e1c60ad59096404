/*
 * cmd_model.c — `warpsight model`: run one model or all of them on a kernel
 * profile and a GPU; a table of the paper's terms, or JSON (DESIGN.md).
 * Running and printing the models is shared with `predict`
 * (cli/model_print.c).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/model_print.h"
#include "report/report_json.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
#include "warpsight/report.h"

static const char help_text[] =
    "usage: warpsight model --profile P.json --gpu G|G1,G2,...|all [--model M|M1,M2,...|all]\n"
    "                       [--json] [--advise] [--charts DIR]\n"
    "       warpsight model --terms [--model M|M1,M2,...|all] [--json]\n\n"
    "Runs a performance model on a kernel profile (warpsight-profile/1, see\n"
    "docs/profile.md) for GPU G (a database name, see 'warpsight gpus', or a\n"
    "JSON file).  Prints every intermediate term the paper names, in the\n"
    "paper's order, with its equation number, then the predicted cycles, time\n"
    "and which case or bound applied.\n\n"
    "options:\n"
    "  --profile P   kernel profile (JSON)\n"
    "  --gpu G       GPU name or path to a GPU JSON file, a comma-separated list\n"
    "                (a100,h100-sxm,t4) or 'all' (the database): for each in turn,\n"
    "                then a table of predicted ms, a row per model and a column\n"
    "                per GPU; with --json {\"kernel\", \"gpus\": [one document as\n"
    "                below per GPU]}; --charts DIR then writes DIR/GPU/...\n"
    "  --model M     a model name, names separated by commas, or 'all' (default\n"
    "                hong-kim); one model prints its terms, several a line each;\n"
    "                models:\n"
    "%s"
    "  --json        machine-readable output:\n"
    "                {\"gpu\", \"kernel\", \"results\": [{\"model\", \"cycles\", \"time_ms\",\n"
    "                 \"case\", \"limiter\", \"terms\": {...}}]}\n"
    "  --advise      after the results, the advisor: the bottleneck, the changes\n"
    "                ranked by the warpsight model's predicted saving with the\n"
    "                models that agree, the other models' views (GPUPerf's\n"
    "                benefits, Transit and Roofline bounds), every model's saving\n"
    "                for every change (docs/advisor.md); with --json \"advice\"\n"
    "                and \"counterfactuals\"\n"
    "  --charts DIR  write DIR/KERNEL-MODEL.png and .svg for the models that have\n"
    "                a chart: gpuperf (benefit X-Y chart), transit (transit\n"
    "                figure), roofline (docs/charts.md); DIR is created\n"
    "  --terms       no profile or GPU: list the terms each model reports (name,\n"
    "                unit, meaning, equation or source, from model_terms.def)\n"
    "                and its cases or bounds with their limiter (model_bounds.def);\n"
    "                every model unless --model names one; with --json\n"
    "                {\"models\": [{\"model\", \"terms\": [{\"name\", \"unit\",\n"
    "                \"equation\", \"meaning\"}], \"bounds\": [{\"name\", \"limiter\",\n"
    "                \"advice\"}]}]}\n\n"
    "Exit status: 0 ok; 2 bad usage, a malformed profile or GPU, or a model that\n"
    "lacks inputs (with --model all, models lacking inputs are listed with the\n"
    "missing fields and the status stays 0 if any model ran).\n";

static void print_help(void) {
  char list[4096];
  cli_model_list(list, sizeof list);
  printf(help_text, list);
}


/* --terms: the declared terms and bounds of `model` (or every model) from
 * the tables, as text or JSON; no model runs. */
static int list_terms(const char *model, int json) {
  if (!json) {
    ws_report_model_declarations(stdout, model);
    return EXIT_OK;
  }
  cJSON *root = ws_report_model_declarations_json(model);
  cli_print_json(root);
  cJSON_Delete(root);
  return EXIT_OK;
}

/* One GPU of the --gpu list: runs the models, prints (text) or adds a result
 * set to `set` (JSON), then the advice and charts; times[m] gets model m's
 * predicted ms (NAN when it did not run).  Returns the exit status. */
static int model_one(const ws_profile *p, const char *gpu, const char *const *models, size_t nmodels,
                     cJSON *set, int advise, const char *charts, double *times) {
  ws_diag d = WS_DIAG_INIT;
  ws_gpu *g = NULL;
  int st = ws_gpu_load(&g, gpu, &d);
  if (st) {
    cli_print_diag(&d);
    ws_diag_free(&d);
    return cli_exit_for(st);
  }
  if (set) ws_report_model_set_json(set, p, g);
  else ws_report_model_launch(stdout, p, g);
  /* The results that ran are kept for --advise, --charts and the table. */
  ws_model_result *res = NULL;
  size_t nres = 0;
  int rc = cli_run_models(p, g, models, nmodels, set, &res, &nres);
  if (advise) {
    ws_advice a = WS_ADVICE_INIT;
    ws_diag ad = WS_DIAG_INIT;
    if (cli_print_advice(cli_advise(&a, p, g, res, nres, NULL, &ad), &a, &ad, set) != EXIT_OK)
      rc = EXIT_USAGE;
    ws_advise_free(&a);
    ws_diag_free(&ad);
  }
  if (cli_finish_sections("model", charts, p->kernel, res, nres, set) != EXIT_OK) rc = EXIT_USAGE;
  if (times) cli_gpu_times(times, res, nres);
  for (size_t i = 0; i < nres; i++) ws_model_result_free(&res[i]);
  free(res);
  ws_gpu_free(g);
  ws_diag_free(&d);
  return rc;
}

int cmd_model(int argc, char **argv) {
  const char *profile = NULL, *gpu = NULL, *model = NULL, *json = NULL;
  const char *advise = NULL, *charts = NULL, *terms = NULL;
  cli_opt opts[] = {{"--profile", 1, &profile}, {"--gpu", 1, &gpu}, {"--model", 1, &model},
                    {"--json", 0, &json}, {"--advise", 0, &advise},
                    {"--charts", 1, &charts}, {"--terms", 0, &terms}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, help;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      print_help();
      return EXIT_OK;
    }
  if (cli_parse("model", argc, argv, opts, pos, 0, &npos, "", &help)) return EXIT_USAGE;
  char mbuf[4096], gbuf[4096];
  const char *models[CLI_MAX_TARGETS], *gpus[CLI_MAX_TARGETS];
  if (terms) {
    if (profile || gpu || advise || charts)
      return cli_usage_error("model", "--terms takes no --profile, --gpu, --advise or --charts");
    if (!model || !strcmp(model, "all")) return list_terms("all", json != NULL);
    size_t nm = cli_model_names("model", "--model", model, mbuf, sizeof mbuf, models, CLI_MAX_TARGETS);
    if (!nm) return EXIT_USAGE;
    if (nm == 1) return list_terms(models[0], json != NULL);
    return cli_usage_error("model", "--terms takes one model or 'all'");
  }
  if (!model) model = "hong-kim";
  if (!profile) return cli_usage_error("model", "--profile is required");
  if (!gpu) return cli_usage_error("model", "--gpu is required");
  size_t nmodels = cli_model_names("model", "--model", model, mbuf, sizeof mbuf, models, CLI_MAX_TARGETS);
  if (!nmodels) return EXIT_USAGE;
  size_t ngpu = cli_gpu_names("model", "--gpu", gpu, gbuf, sizeof gbuf, gpus, CLI_MAX_TARGETS);
  if (!ngpu) return EXIT_USAGE;
  if (ngpu > 1 && charts && cli_make_dir("model", charts)) return EXIT_USAGE;

  ws_diag d = WS_DIAG_INIT;
  ws_profile *p = NULL;
  int st = ws_profile_load_file(&p, profile, &d);
  for (size_t k = 0; st == WS_OK && k < ngpu; k++) { /* every GPU loads before any output */
    ws_gpu *g = NULL;
    st = ws_gpu_load(&g, gpus[k], &d);
    ws_gpu_free(g);
  }
  if (st) {
    ws_profile_free(p);
    cli_print_diag(&d);
    ws_diag_free(&d);
    return cli_exit_for(st);
  }
  ws_diag_free(&d);
  cJSON *root = json ? cJSON_CreateObject() : NULL, *sets = NULL;
  if (root && ngpu > 1) {
    cJSON_AddStringToObject(root, "kernel", p->kernel);
    sets = cJSON_AddArrayToObject(root, "gpus");
  }
  double *times = calloc(ngpu * ws_model_count() + 1, sizeof *times);
  int rc = times ? EXIT_OK : EXIT_USAGE;
  for (size_t k = 0; times && k < ngpu; k++) {
    cJSON *set = root;
    if (sets) cJSON_AddItemToArray(sets, set = cJSON_CreateObject());
    char dir[4096];
    const char *cdir = cli_charts_dir(dir, sizeof dir, charts, gpus[k], ngpu);
    if (!root && k) printf("\n");
    int r = model_one(p, gpus[k], models, nmodels, set, advise != NULL, cdir, times + k * ws_model_count());
    if (r != EXIT_OK) rc = r;
  }
  if (times && !root && ngpu > 1) ws_report_gpu_table(stdout, gpus, ngpu, times);
  if (root) {
    cli_print_json(root);
    cJSON_Delete(root);
  }
  free(times);
  ws_profile_free(p);
  return rc;
}
