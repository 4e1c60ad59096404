/*
 * model_print.c — run models on a profile and hand the results to the
 * renderers of report/ (text on stdout, or JSON sections); used by
 * `warpsight model` and `warpsight predict`.  Diagnostics and exit statuses
 * are decided here; the formats live in src/report/report_model.c.
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
#include "report/report_json.h"
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

/* The kernel's tensor-core operations of a type the GPU file gives no
 * throughput for (docs/gpu-schema.md, "tensor": absent means not
 * published): the warpsight model's tensor pipe [C6] prices them at 0
 * cycles, which its terms say but the one-line-per-model table did not, so
 * an H100 user with an mma kernel saw a prediction that left them out
 * without a word.  A warning per such type, when the warpsight model runs. */
static void warn_unrated_tensor(const ws_profile *p, const ws_gpu *g) {
  const struct { double ops, rate; const char *name; } t[] = {
      {p->f.tensor_fp16_f32acc_ops, g->tensor.fp16_f32acc, "fp16_f32acc"},
      {p->f.tensor_fp16_f16acc_ops, g->tensor.fp16_f16acc, "fp16_f16acc"},
      {p->f.tensor_bf16_ops, g->tensor.bf16, "bf16"},
      {p->f.tensor_tf32_ops, g->tensor.tf32, "tf32"},
      {p->f.tensor_fp8_ops, g->tensor.fp8, "fp8"},
      {p->f.tensor_int8_ops, g->tensor.int8, "int8"},
      {p->f.tensor_fp64_ops, g->tensor.fp64, "fp64"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (t[i].ops > 0 && !(t[i].rate > 0))
      fprintf(stderr,
              "warpsight: warning: %s %s tensor.%s%s: the warpsight model prices the kernel's %g %s "
              "tensor-core operations per warp at 0 cycles%s\n",
              g->name, t[i].rate == 0 ? "rates" : "gives no", t[i].name,
              t[i].rate == 0 ? " at 0 (no tensor cores)" : " throughput (not published for this board)",
              t[i].ops, t[i].name,
              t[i].rate == 0 ? "" : "; give it in a GPU file (docs/gpu-schema.md, \"tensor\")");
}

/* A model that failed (not for missing inputs, which "missing" lists)
 * says why in its JSON result too: "error", the first error's message.
 * Without it a --json user saw {"status": "error", "missing": []} and, on
 * stderr, one line per distinct message with no GPU named -- with --gpu
 * all, no way to tell which board refused a block of 66 registers
 * (issue 20, the kernel zoo). */
static void json_error_reason(cJSON *jr, const ws_diag *md) {
  for (size_t i = 0; i < md->count; i++)
    if (md->items[i].severity == WS_SEV_ERROR && md->items[i].message) {
      cJSON_AddStringToObject(jr, "error", md->items[i].message);
      return;
    }
  cJSON_AddStringToObject(jr, "error", "the model failed without a message");
}

int cli_run_models(const ws_profile *p, const ws_gpu *g, const char *const *models, size_t nmodels,
                   cJSON *json_root, ws_model_result **results, size_t *nresults) {
  int all = nmodels != 1; /* several: one line each; one: its terms */
  if (results) {
    *results = calloc(nmodels ? nmodels : 1, sizeof **results);
    *nresults = 0;
  }
  ws_floors fl;
  ws_model_floors_compute(&fl, p, g);
  if (json_root) ws_report_floors_json(json_root, &fl);
  cJSON *jres = json_root ? cJSON_AddArrayToObject(json_root, "results") : NULL;
  int ok_count = 0, rc = EXIT_OK;
  if (!json_root && all) ws_report_models_header(stdout);
  for (size_t i = 0; i < nmodels; i++) {
    const ws_model_info *info = ws_model_find(models[i]);
    if (!info) continue; /* cli_model_names checked them */
    ws_model_result r = WS_MODEL_RESULT_INIT;
    ws_diag md = WS_DIAG_INIT;
    int s = ws_model_predict(&r, info->name, p, g, &md);
    if (s == WS_OK) ok_count++;
    if (json_root) {
      cJSON *jr = ws_report_model_json(&r, s, &fl);
      if (s != WS_OK && s != WS_EMISSING) json_error_reason(jr, &md);
      cJSON_AddItemToArray(jres, jr);
      if (s != WS_EMISSING) cli_print_diag(&md); /* errors, or warnings of a model that ran */
    } else if (all) {
      ws_report_models_row(stdout, info, s, &r, &fl, &md);
      if (s != WS_OK && s != WS_EMISSING) cli_print_diag(&md);
    } else {
      cli_print_diag(&md);
      if (s == WS_OK) ws_report_model_terms(stdout, &r, info, &fl);
    }
    if (!all && s != WS_OK) rc = cli_exit_for(s);
    if (s == WS_OK && results && *results) (*results)[(*nresults)++] = r;
    else ws_model_result_free(&r);
    ws_diag_free(&md);
  }
  for (size_t i = 0; i < nmodels; i++)
    if (!strcmp(models[i], "warpsight")) warn_unrated_tensor(p, g);
  if (all && ok_count == 0) rc = EXIT_USAGE;
  return rc;
}

int cli_advise(ws_advice *a, const ws_profile *p, const ws_gpu *g, const ws_model_result *res,
               size_t n, const ws_profile *alt, ws_diag *d) {
  ws_advise_in in = {res, n, p, g, alt};
  return ws_advise(a, &in, d);
}

int cli_print_advice(int st, const ws_advice *a, const ws_diag *d, cJSON *extra) {
  if (st != WS_OK) {
    cli_print_diag(d);
    return EXIT_USAGE;
  }
  if (extra) {
    ws_report_advice_json(extra, a);
    ws_report_counterfactuals_json(extra, &a->cf);
  } else {
    ws_report_advice(stdout, a);
    ws_report_counterfactuals(stdout, &a->cf);
  }
  return EXIT_OK;
}

/* --charts DIR: one chart per result that has one. */
int cli_finish_charts(const char *cmd, const char *dir, const char *kernel,
                      const ws_model_result *res, size_t n, cJSON *extra) {
  if (!ws_report_chart_available()) {
    fprintf(stderr, "warpsight %s: error: --charts needs cairo: this "
                    "warpsight was built without it\n", cmd);
    return EXIT_USAGE;
  }
  ws_outdir od; /* every chart, or none */
  if (cli_outdir_begin(cmd, &od, dir)) return EXIT_USAGE;
  char safe[128];
  cli_file_safe(safe, sizeof safe, kernel ? kernel : "kernel");
  cJSON *list = extra ? cJSON_AddArrayToObject(extra, "charts") : NULL;
  int rc = EXIT_OK, wrote = 0;
  for (size_t i = 0; i < n; i++) {
    char base[4096], staged[4200];
    snprintf(base, sizeof base, "%s/%s-%s", dir, safe, res[i].model);
    snprintf(staged, sizeof staged, "%s/%s-%s", ws_outdir_path(&od), safe, res[i].model);
    ws_diag d = WS_DIAG_INIT;
    int st = ws_report_chart_for_result(staged, &res[i], &d);
    ws_outdir_names(&od, &d, 0);
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
  if (cli_outdir_end(&od, rc == EXIT_OK)) rc = EXIT_USAGE;
  if (!wrote && rc == EXIT_OK)
    fprintf(stderr, "warpsight %s: warning: no chart written: charts exist "
                    "for gpuperf, transit and roofline\n", cmd);
  return rc;
}


int cli_finish_sections(const char *cmd, const char *charts_dir, const char *kernel,
                        const ws_model_result *res, size_t n, cJSON *root) {
  int rc = EXIT_OK;
  if (charts_dir) {
    if (cli_finish_charts(cmd, charts_dir, kernel, res, n, root) != EXIT_OK) rc = EXIT_USAGE;
    ws_report_chart_shutdown(); /* cairo's font caches, for leak checkers */
  }
  return rc;
}

size_t cli_split_list(const char *cmd, const char *opt, const char *noun, const char *arg,
                      char *buf, size_t bufsize, const char **names, size_t max) {
  if (strlen(arg) >= bufsize) {
    cli_usage_error(cmd, "%s: the list is too long", opt);
    return 0;
  }
  strcpy(buf, arg);
  size_t n = 0;
  for (char *s = buf;;) {
    char *comma = strchr(s, ',');
    if (comma) *comma = '\0';
    if (!*s) {
      cli_usage_error(cmd, "%s %s: an empty %s name in the list", opt, arg, noun);
      return 0;
    }
    if (n == max) {
      cli_usage_error(cmd, "%s: more than %zu %ss in the list", opt, max, noun);
      return 0;
    }
    names[n++] = s;
    if (!comma) break;
    s = comma + 1;
  }
  return n;
}

/* "all" alone, or a list without 'all' and without a name twice. */
static size_t target_list(const char *cmd, const char *opt, const char *noun, const char *arg, char *buf,
                          size_t bufsize, const char **names, size_t max) {
  size_t n = cli_split_list(cmd, opt, noun, arg, buf, bufsize, names, max);
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(names[i], "all") && n > 1) {
      cli_usage_error(cmd, "%s: 'all' cannot be in a list", opt);
      return 0;
    }
    for (size_t j = 0; j < i; j++)
      if (!strcmp(names[i], names[j])) {
        cli_usage_error(cmd, "%s: %s '%s' given twice", opt, noun, names[i]);
        return 0;
      }
  }
  return n;
}

size_t cli_gpu_names(const char *cmd, const char *opt, const char *arg, char *buf, size_t bufsize,
                     const char **names, size_t max) {
  size_t n = target_list(cmd, opt, "GPU", arg, buf, bufsize, names, max);
  if (n != 1 || strcmp(names[0], "all")) return n;
  if (ws_gpu_db_count() > max) {
    cli_usage_error(cmd, "%s all: the database has %zu GPUs, more than %zu", opt, ws_gpu_db_count(), max);
    return 0;
  }
  for (n = 0; n < ws_gpu_db_count(); n++) names[n] = ws_gpu_db_name(n);
  return n;
}

size_t cli_model_names(const char *cmd, const char *opt, const char *arg, char *buf, size_t bufsize,
                       const char **names, size_t max) {
  size_t n = target_list(cmd, opt, "model", arg, buf, bufsize, names, max);
  if (n == 1 && !strcmp(names[0], "all")) {
    for (n = 0; n < ws_model_count() && n < max; n++) names[n] = ws_model_at(n)->name;
    return n;
  }
  for (size_t i = 0; i < n; i++)
    if (!cli_model_valid(names[i])) return 0;
  return n;
}

void cli_gpu_times(double *times, const ws_model_result *res, size_t n) {
  for (size_t m = 0; m < ws_model_count(); m++) {
    times[m] = NAN;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(res[i].model, ws_model_at(m)->name)) times[m] = res[i].time_ms;
  }
}
