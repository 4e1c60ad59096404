/*
 * cmd_predict.c — `warpsight predict`: profile a kernel launch in the
 * emulator, then run the models on it; prints the profile's key figures,
 * the predictions and the bottleneck (docs/cli-profile-predict.md).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/html_report.h"
#include "cli/model_print.h"
#include "cli/prof_run.h"
#include "cli/source_text.h"
#include "report/report_json.h"
#include "warpsight/advise.h"
#include "warpsight/model.h"
#include "warpsight/report.h"

static const char help_text[] =
    "usage: warpsight predict FILE.ptx|FILE.cu --launch L.json [--gpu G|G1,G2,...|all]\n"
    "                         [--kernel K] [--model M|M1,M2,...|all] [--json] [--advise]\n"
    "                         [--lines [N]] [--report DIR]\n"
    "                         [--charts DIR]\n"
    "                         [--sample-blocks N] [--functional-rest] [-j N] [--arch sm_XX]\n"
    "                         [--max-warp-insts N] [--max-launch-insts N] [--max-memory N]\n\n"
    "Profiles the kernel launch (as 'warpsight profile' does) and predicts its\n"
    "run time on GPU G with the performance models.  Prints the profile's key\n"
    "figures (occupancy and its limiter, instructions by class, transactions per\n"
    "request, hit ratios, bank conflicts, divergence), each model's prediction\n"
    "and the bottleneck.\n\n"
    "options:\n"
    "  --model M             a model name, names separated by commas, or 'all'\n"
    "                        (default all); one model prints its terms; models:\n"
    "%s"
    "  --json                machine-readable output: {\"schema\": \"warpsight-predict/1\",\n"
    "                        \"gpu\", \"kernel\", \"profile\": {...warpsight-profile/1...},\n"
    "                        \"results\": [...as 'warpsight model --json'...],\n"
    "                        \"bottleneck\"} (docs/cli-profile-predict.md)\n"
    "  --advise              the advisor: the bottleneck, the changes ranked by the\n"
    "                        warpsight model's predicted saving (coalescing, bank\n"
    "                        conflicts, divergence, barriers, ILP, loads in flight,\n"
    "                        occupancy, atomics, the best block size when the spec\n"
    "                        declares sweep.total_threads), each naming its line and\n"
    "                        the models that agree; the other models' views; every\n"
    "                        model's saving for every change (docs/advisor.md)\n"
    "  --lines [N]           the N source lines (default 10; 0: all) that weigh most\n"
    "                        in the bottleneck, with their instructions, transactions\n"
    "                        per request, DRAM bytes, bank-conflict replays, divergent\n"
    "                        branches, atomic conflicts and dependency-path latency,\n"
    "                        and the source text (a .cu is compiled with -lineinfo;\n"
    "                        PTX without it gives PTX lines); --json: \"hot_lines\"\n"
    "  --report DIR          write DIR/index.html: one self-contained page with the\n"
    "                        launch, the models side by side with their terms, the\n"
    "                        bottleneck and advice, the source lines with bars and\n"
    "                        the charts (inline SVG, no network; docs/charts.md);\n"
    "                        with a GPU list DIR/GPU/ holds each GPU's charts\n"
    "  --charts DIR          write DIR/KERNEL-MODEL.png and .svg for the models with a\n"
    "                        chart (gpuperf, transit, roofline); DIR is created\n"
    "  --gpu G1,G2,...|all   a comma-separated list, or every GPU of the database:\n"
    "                        profile and predict for each GPU\n"
    "                        in turn, then a table of predicted ms, a row per model\n"
    "                        and a column per GPU; --json gives {\"schema\", \"kernel\",\n"
    "                        \"gpus\": [one document as above per GPU]}; --charts\n"
    "                        DIR writes DIR/GPU/... (docs/cli-profile-predict.md)\n"
    PROF_RUN_OPTIONS_HELP
    "\nExit status: 0 ok; 1 the kernel faulted in the emulator; 2 bad usage or input,\n"
    "or no model could run.\n";

static void print_help(void) {
  char list[4096];
  cli_model_list(list, sizeof list);
  printf(help_text, list);
}

/* The primary result (warpsight, else the first), or NULL. */
static const ws_model_result *primary_of(const ws_model_result *res, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(res[i].model, "warpsight")) return &res[i];
  return n ? &res[0] : NULL;
}

/* --lines: the hot lines of p with their source text, as text or JSON. */
static void print_lines(const ws_profile *p, const char *input, const ws_model_result *res, size_t n,
                        long top, cJSON *root) {
  char **src = cli_source_text(p, input);
  if (root) ws_report_lines_json(root, p, primary_of(res, n), (size_t)top, (const char *const *)src);
  else ws_report_lines(stdout, p, primary_of(res, n), (size_t)top, (const char *const *)src);
  cli_source_text_free(src, p->lines ? p->lines->nrows : 0);
}

/* The advisor's launch change (docs/advisor.md, "The block size"): when
 * the spec declares the kernel's work by sweep.total_threads, the launch
 * profiled again at each power-of-two block size from 32 to the GPU's
 * limit (the grid recomputed as `warpsight sweep` does), and the profile
 * of the size the primary model predicts fastest, when it is faster than
 * base_ms, into *alt (the caller frees it); else *alt stays NULL. */
static void best_block(ws_profile **alt, const prof_request *rq, const ws_gpu *g, double base_ms) {
  *alt = NULL;
  ws_diag d = WS_DIAG_INIT;
  ws_launch_spec *spec = NULL;
  int st = ws_emu_launch_spec_load(&spec, rq->launch, &d);
  ws_diag_free(&d);
  if (st || !spec->sweep_threads || !(base_ms > 0)) {
    ws_emu_launch_spec_free(spec);
    return;
  }
  uint64_t yz = (uint64_t)spec->block[1] * spec->block[2];
  double best = base_ms;
  for (uint32_t bx = 32; bx <= 1024; bx *= 2) {
    if (bx == spec->block[0] || bx * yz > (uint64_t)g->limits.max_threads_per_block) continue;
    uint64_t gx = (spec->sweep_threads + bx - 1) / bx;
    if (gx > 2147483647u) continue;
    uint32_t grid[3] = {(uint32_t)gx, spec->grid[1], spec->grid[2]}, block[3] = {bx, spec->block[1], spec->block[2]};
    prof_request q = *rq;
    q.grid = grid, q.block = block;
    ws_profile *p = NULL;
    ws_gpu *g2 = NULL;
    int saved = dup(2), null = open("/dev/null", O_WRONLY); /* its warnings are the base run's */
    if (saved >= 0 && null >= 0) dup2(null, 2);
    int rc = cli_profile_run(&q, &p, &g2, NULL);
    if (saved >= 0) dup2(saved, 2), close(saved);
    if (null >= 0) close(null);
    ws_model_result r = WS_MODEL_RESULT_INIT;
    if (!rc && ws_model_predict(&r, "warpsight", p, g2, &d) == WS_OK && r.time_ms < best) {
      best = r.time_ms;
      ws_profile_free(*alt);
      *alt = p;
      p = NULL;
    }
    ws_diag_free(&d);
    ws_model_result_free(&r);
    ws_profile_free(p);
    ws_gpu_free(g2);
  }
  ws_emu_launch_spec_free(spec);
}

/* One GPU of the --gpu list (rq->gpu): profile, predict, print (text) or
 * build the JSON document (json); with out_doc the document is returned
 * instead of printed; with html, its sections (charts into html_dir).
 * times (model order) gets each model's ms. */
static int predict_one(const prof_request *rq, const char *const *models, size_t nmodels, int json,
                       int advise, long lines, const char *charts, double *times, cJSON **out_doc,
                       ws_html *html, const char *html_dir) {
  ws_profile *p = NULL, *alt = NULL;
  ws_gpu *g = NULL;
  int rc = cli_profile_run(rq, &p, &g, NULL);
  if (rc) return rc;

  cJSON *root = NULL;
  if (json) {
    root = ws_report_predict_json(p, g);
  } else {
    ws_report_predict_figures(stdout, p, g);
    printf("prediction:\n");
  }
  ws_model_result *res = NULL;
  size_t nres = 0;
  rc = cli_run_models(p, g, models, nmodels, root, &res, &nres);

  /* The advisor over the models that ran: the bottleneck, and --advise's
   * list (the bottleneck alone needs no changes). */
  int changes = advise || html;
  const ws_model_result *prim = primary_of(res, nres);
  if (changes && prim && !strcmp(prim->model, "warpsight")) best_block(&alt, rq, g, prim->time_ms);
  ws_advice adv = WS_ADVICE_INIT;
  ws_diag d = WS_DIAG_INIT;
  int ast = cli_advise(&adv, changes ? p : NULL, g, res, nres, alt, &d);
  const char *bottleneck = ast == WS_OK ? adv.bottleneck : NULL;
  if (json) {
    if (bottleneck) cJSON_AddStringToObject(root, "bottleneck", bottleneck);
    else cJSON_AddNullToObject(root, "bottleneck");
  } else if (!advise) { /* --advise prints it with the list */
    ws_report_predict_bottleneck(stdout, bottleneck, res, nres);
  }
  if (times) cli_gpu_times(times, res, nres);
  if (lines >= 0) print_lines(p, rq->file, res, nres, lines, root);
  if (advise && cli_print_advice(ast, &adv, &d, root) != EXIT_OK) rc = EXIT_USAGE;
  if (cli_finish_sections("predict", charts, p->kernel, res, nres, root) != EXIT_OK)
    rc = EXIT_USAGE;
  if (html && cli_html_result_set(html, p, g, res, nres, ast == WS_OK ? &adv : NULL, rq->file, html_dir))
    rc = EXIT_USAGE;
  if (out_doc) { /* one of a --gpu list's result sets: the caller prints it */
    *out_doc = root;
  } else if (root) {
    cli_print_json(root);
    cJSON_Delete(root);
  }
  ws_advise_free(&adv);
  ws_diag_free(&d);
  for (size_t i = 0; i < nres; i++) ws_model_result_free(&res[i]);
  free(res);
  ws_profile_free(p);
  ws_profile_free(alt);
  ws_gpu_free(g);
  return rc;
}

int cmd_predict(int argc, char **argv) {
  const char *model = "all", *json = NULL, *charts = NULL, *advise = NULL, *lines_s = NULL,
             *report = NULL;
  prof_args a = {0};
  cli_opt opts[] = {PROF_ARGS_OPTS(a),           {"--model", 1, &model},
                    {"--json", 0, &json},        {"--charts", 1, &charts},
                    {"--advise", 0, &advise},    {"--lines", 2, &lines_s},
                    {"--report", 1, &report},
                    {NULL, 0, NULL}};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      print_help();
      return EXIT_OK;
    }
  const char *pos[1] = {NULL};
  int npos, help;
  if (cli_parse("predict", argc, argv, opts, pos, 1, &npos, "", &help)) return EXIT_USAGE;
  prof_request rq;
  if (cli_prof_request(&rq, "predict", &a, npos, pos[0])) return EXIT_USAGE;
  char mbuf[4096];
  const char *models[CLI_MAX_TARGETS];
  size_t nmodels = cli_model_names("predict", "--model", model, mbuf, sizeof mbuf, models, CLI_MAX_TARGETS);
  if (!nmodels) return EXIT_USAGE;
  long lines = -1;
  if (lines_s && !*lines_s) lines = 10;
  else if (lines_s && cli_parse_int("predict", "--lines", lines_s, &lines)) return EXIT_USAGE;

  char gbuf[4096];
  const char *gpus[CLI_MAX_TARGETS];
  size_t ngpu = cli_gpu_names("predict", "--gpu", rq.gpu, gbuf, sizeof gbuf, gpus, CLI_MAX_TARGETS);
  if (!ngpu) return EXIT_USAGE;
  for (size_t k = 0; k < ngpu; k++) { /* every GPU loads before profiling */
    ws_diag d = WS_DIAG_INIT;
    ws_gpu *g = NULL;
    int st = ws_gpu_load(&g, gpus[k], &d);
    ws_gpu_free(g);
    if (st) {
      cli_print_diag(&d);
      ws_diag_free(&d);
      return cli_exit_for(st);
    }
    ws_diag_free(&d);
  }
  if (ngpu > 1 && charts && cli_make_dir("predict", charts)) return EXIT_USAGE;
  cJSON *list = NULL, *sets = NULL;
  if (json && ngpu > 1) {
    list = cJSON_CreateObject();
    cJSON_AddStringToObject(list, "schema", "warpsight-predict/1");
    sets = cJSON_AddArrayToObject(list, "gpus");
  }
  double *times = calloc(ngpu * ws_model_count() + 1, sizeof *times);
  if (!times) return EXIT_USAGE;
  /* a GPU never run (the loop stops at a kernel fault) has no prediction:
   * "-" in the table, never 0 */
  for (size_t i = 0; i < ngpu * ws_model_count(); i++) times[i] = NAN;
  size_t nrun = 0;
  cli_cu_cache cu = {0}; /* a .cu compiled once per distinct arch of the GPUs */
  rq.cu = &cu;
  int rc = EXIT_OK;
  ws_html *html = NULL;
  if (report) {
    char title[1024];
    snprintf(title, sizeof title, "warpsight predict: %s", rq.file);
    if (cli_make_dir("predict", report) || !(html = ws_report_html_new(title))) {
      free(times);
      return EXIT_USAGE;
    }
  }
  for (size_t k = 0; k < ngpu && rc != EXIT_KERNEL_FAULT; k++) {
    rq.gpu = gpus[k];
    char dir[4096];
    const char *cdir = cli_charts_dir(dir, sizeof dir, charts, gpus[k], ngpu);
    if (!json && k) printf("\n");
    cJSON *doc = NULL;
    char hdir[4096];
    const char *rdir = cli_charts_dir(hdir, sizeof hdir, report, gpus[k], ngpu);
    if (html && ngpu > 1) ws_report_html_heading(html, gpus[k]);
    int r = predict_one(&rq, models, nmodels, json != NULL, advise != NULL, lines, cdir, times + k * ws_model_count(),
                        sets ? &doc : NULL, html, rdir);
    if (doc) cJSON_AddItemToArray(sets, doc);
    if (r != EXIT_OK) rc = r;
    nrun = k + 1;
  }
  if (list) {
    cJSON *first = cJSON_GetArrayItem(sets, 0);
    const cJSON *kn = first ? cJSON_GetObjectItemCaseSensitive(first, "kernel") : NULL;
    if (cJSON_IsString(kn)) cJSON_AddStringToObject(list, "kernel", kn->valuestring);
    cli_print_json(list);
    cJSON_Delete(list);
  } else if (!json && ngpu > 1) {
    ws_report_gpu_table(stdout, gpus, ngpu, times);
    if (nrun < ngpu) { /* the kernel faulted: it would on every GPU, so the others were not run */
      printf("not run after the kernel fault on %s:", gpus[nrun - 1]);
      for (size_t k = nrun; k < ngpu; k++) printf(" %s", gpus[k]);
      printf("\n");
    }
  }
  free(times);
  cli_cu_cache_free(&cu);
  if (html && rc != EXIT_KERNEL_FAULT && cli_html_write(html, "predict", report, json != NULL)) rc = EXIT_USAGE;
  ws_report_html_free(html);
  return rc;
}
