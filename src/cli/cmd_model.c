/*
 * cmd_model.c — `warpsight model`: run one model or all of them on a kernel
 * profile and a GPU; a table of the paper's terms, or JSON (DESIGN.md).
 * Running and printing the models is shared with `predict`
 * (cli/model_print.c).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/kernel_name.h"
#include "cli/model_print.h"
#include "warpsight/gpu.h"
#include "warpsight/model.h"
#include "warpsight/profile.h"
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
  char list[4096];
  cli_model_list(list, sizeof list);
  printf(help_text, list);
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
  if (!cli_model_valid(model)) return EXIT_USAGE;

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

  cJSON *root = json ? cJSON_CreateObject() : NULL;
  if (root) {
    cJSON_AddStringToObject(root, "gpu", g->name);
    cJSON_AddStringToObject(root, "kernel", p->kernel);
  } else {
    char label[1024];
    cli_kernel_label(label, sizeof label, p->kernel);
    printf("kernel %s: grid %u x %u x %u, block %u x %u x %u on %s (%s)\n\n", label, p->grid[0],
           p->grid[1], p->grid[2], p->block[0], p->block[1], p->block[2], g->name, g->full_name);
  }
  /* The results that ran are kept for --advise and --charts. */
  ws_model_result *res = NULL;
  size_t nres = 0;
  int rc = cli_run_models(p, g, model, root, &res, &nres);
  if (cli_finish_report("model", advise != NULL, charts, p->kernel, res, nres, root) != EXIT_OK)
    rc = EXIT_USAGE;
  for (size_t i = 0; i < nres; i++) ws_model_result_free(&res[i]);
  free(res);
  ws_profile_free(p);
  ws_gpu_free(g);
  ws_diag_free(&d);
  return rc;
}
