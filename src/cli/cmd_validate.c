/*
 * cmd_validate.c — `warpsight validate`: predict every measured launch of a
 * data set (data/validation/amaris-measured-dev.csv) and compare with the
 * measured times: statistics per model, GPU and kernel, a per-row CSV and
 * charts (docs/validation.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/valid_cli.h"
#include "warpsight/model.h"
#include "warpsight/report.h"
#include "warpsight/valid.h"

static const char help[] =
    "usage: warpsight validate DATA.csv [--models all|M,M] [--gpus G,G] [--kernels K,K]\n"
    "                          [--sample-blocks N] [--limit N] [--report DIR]\n"
    "                          [--ptx-dir DIR] [--cache DIR | --no-cache] [--launches DIR]\n\n"
    "Predicts each measured kernel launch of DATA.csv (the columns of\n"
    "data/validation/amaris-measured-dev.csv: GPU, kernel, input size, grid, block,\n"
    "Duration in seconds) with the performance models and compares the\n"
    "predictions with the measured times.  Each row's launch is built from its\n"
    "input size (docs/validation.md), the kernel's PTX is read from --ptx-dir, the\n"
    "kernel is emulated and profiled, and the models run on the profile.\n\n"
    "options:\n"
    "  --models L         'all' (default) or model names separated by commas\n"
    "  --gpus L           keep rows of these GPUs (gtx680, gtx970, k20 or the CSV names)\n"
    "  --kernels L        keep rows of these kernels (the CSV's AppName)\n"
    "  --sample-blocks N  profile N blocks per launch, spread over every grid\n"
    "                     dimension (default 2; 0: all); the others are skipped and\n"
    "                     DRAM bytes are estimated per buffer (docs/profile.md)\n"
    "  --limit N          at most N rows (after the filters)\n"
    "  --report DIR       write DIR/rows.csv (per row: kernel, gpu, input size, grid,\n"
    "                     block, measured s, predicted s and error %% per model),\n"
    "                     DIR/summary.txt, DIR/<model>.png/.svg (log-log scatter)\n"
    "                     and DIR/counters.csv (nvprof's counters beside the profile's)\n"
    "  --ptx-dir DIR      the kernels' PTX (default examples/validation/ptx)\n"
    "  --cache DIR        profile cache (default $XDG_CACHE_HOME/warpsight, else\n"
    "                     ~/.cache/warpsight, else .warpsight-cache)\n"
    "  --no-cache         neither read nor write the profile cache\n"
    "  --launches DIR     write each selected row's launch spec to DIR/L<line>-<kernel>.json\n"
    "                     (for 'warpsight run') and stop without predicting\n\n"
    "Prints, per model, the rows, mean and median absolute percentage error, the\n"
    "fraction within 20 %% and Spearman's rank correlation per GPU and kernel.\n"
    "Progress goes to stderr.\n\n"
    "Exit status: 0 ok; 2 bad usage or input, or no row could be predicted.\n";

/* Sum over a profile's memory instructions of requests per warp x
 * transactions (global) or passes (shared) per request, for one class. */
static double per_warp_sum(const ws_profile *p, const char *section, const char *cls,
                           const char *per_request) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(p->root, section), "insts");
  const cJSON *it;
  double s = 0;
  cJSON_ArrayForEach(it, v) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(it, "class");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "per_warp");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, per_request);
    if (cJSON_IsString(c) && !strcmp(c->valuestring, cls) && cJSON_IsNumber(n) &&
        cJSON_IsNumber(t))
      s += n->valuedouble * t->valuedouble;
  }
  return s;
}

/* DIR/counters.csv: per row, nvprof's counters from the data file beside the
 * same counts from warpsight's profile, for the whole launch (per-warp
 * figures x warps of the launch; docs/validation.md, "Counters"). */
static int write_counters(const ws_valid_report *rep, const ws_valid_data *data,
                          const char *path) {
  static const char *const meas[] = {"inst_executed", "Global.Load.Transactions",
                                     "Global.Store.Transactions", "Shared.Load.Transactions",
                                     "Shared.Store.Transactions"};
  static const char *const names[] = {"warp_insts", "global_load_trans", "global_store_trans",
                                      "shared_load_trans", "shared_store_trans"};
  int col[5];
  for (int i = 0; i < 5; i++)
    if ((col[i] = ws_csv_column(data->csv, meas[i])) < 0) return 0; /* not in this file */
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "warpsight validate: error: cannot write '%s'\n", path);
    return EXIT_USAGE;
  }
  fprintf(f, "line,kernel,gpu,input_size,grid,block,warps");
  for (int i = 0; i < 5; i++) fprintf(f, ",%s_nvprof,%s_warpsight", names[i], names[i]);
  fputc('\n', f);
  for (size_t i = 0; i < rep->nrows; i++) {
    const ws_valid_outcome *oc = &rep->rows[i];
    const ws_valid_row *r = oc->row;
    const ws_profile *p = oc->profile;
    if (oc->status || !p) continue;
    size_t ri = (size_t)(r - data->rows);
    double tpb = (double)r->block[0] * r->block[1] * r->block[2];
    double warps = (double)r->grid[0] * r->grid[1] * r->grid[2] * ceil(tpb / 32.0);
    const cJSON *mix = cJSON_GetObjectItemCaseSensitive(p->root, "instruction_mix");
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(mix, "total_per_warp");
    double ws[5] = {cJSON_IsNumber(tot) ? tot->valuedouble : NAN,
                    per_warp_sum(p, "global_memory_insts", "ld.global", "avg_transactions"),
                    per_warp_sum(p, "global_memory_insts", "st.global", "avg_transactions"),
                    per_warp_sum(p, "shared_memory_insts", "ld.shared", "avg_passes"),
                    per_warp_sum(p, "shared_memory_insts", "st.shared", "avg_passes")};
    fprintf(f, "%d,%s,%s,%lld,%ux%ux%u,%ux%ux%u,%.0f", r->line, r->kernel, r->gpu,
            (long long)r->input_size, r->grid[0], r->grid[1], r->grid[2], r->block[0],
            r->block[1], r->block[2], warps);
    for (int k = 0; k < 5; k++)
      fprintf(f, ",%s,%.6g", ws_csv_cell(data->csv, ri, (size_t)col[k]), ws[k] * warps);
    fputc('\n', f);
  }
  if (fclose(f)) {
    fprintf(stderr, "warpsight validate: error: cannot write '%s'\n", path);
    return EXIT_USAGE;
  }
  return 0;
}

static int known_gpu(const char *g) {
  return !strcmp(g, "gtx680") || !strcmp(g, "gtx970") || !strcmp(g, "k20");
}

static int make_dir(const char *dir) {
  if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
  fprintf(stderr, "warpsight validate: error: cannot create '%s': %s\n", dir, strerror(errno));
  return EXIT_USAGE;
}

int cmd_validate(int argc, char **argv) {
  const char *models_s = "all", *gpus_s = NULL, *kernels_s = NULL, *sample_s = NULL,
             *limit_s = NULL, *report = NULL, *ptx_s = NULL, *cache_s = NULL,
             *no_cache = NULL, *launches = NULL;
  cli_opt opts[] = {{"--launches", 1, &launches},{"--models", 1, &models_s},   {"--gpus", 1, &gpus_s},
                    {"--kernels", 1, &kernels_s}, {"--sample-blocks", 1, &sample_s},
                    {"--limit", 1, &limit_s},     {"--report", 1, &report},
                    {"--ptx-dir", 1, &ptx_s},     {"--cache", 1, &cache_s},
                    {"--no-cache", 0, &no_cache}, {NULL, 0, NULL}};
  const char *pos[1];
  int npos, want_help;
  if (cli_parse("validate", argc, argv, opts, pos, 1, &npos, help, &want_help)) return EXIT_USAGE;
  if (want_help) return EXIT_OK;
  if (npos != 1) return cli_usage_error("validate", "expected one DATA.csv");
  if (cache_s && no_cache) return cli_usage_error("validate", "--cache and --no-cache conflict");
  long sample = VCLI_DEFAULT_SAMPLE_BLOCKS, limit = 0;
  if (sample_s && cli_parse_int("validate", "--sample-blocks", sample_s, &sample)) return EXIT_USAGE;
  if (limit_s && cli_parse_int("validate", "--limit", limit_s, &limit)) return EXIT_USAGE;
  if (sample > 1 << 30) return cli_usage_error("validate", "--sample-blocks is too large");

  int rc = EXIT_USAGE;
  ws_valid_predictor *pctx = NULL;
  vcli_list models = {0}, gpus = {0}, kernels = {0};
  const char *all_models[64];
  const char *const *mv;
  size_t nm;
  ws_diag d = WS_DIAG_INIT;
  ws_valid_data *data = NULL;
  ws_valid_report *rep = NULL;
  if (strcmp(models_s, "all") == 0) {
    nm = ws_model_count() < 64 ? ws_model_count() : 64;
    for (size_t i = 0; i < nm; i++) all_models[i] = ws_model_at(i)->name;
    mv = all_models;
  } else {
    if (vcli_split(&models, "validate", "--models", models_s)) goto out;
    for (size_t i = 0; i < models.n; i++)
      if (!ws_model_find(models.v[i])) {
        ws_model_result r = WS_MODEL_RESULT_INIT;
        ws_model_predict(&r, models.v[i], NULL, NULL, &d); /* lists the known models */
        cli_print_diag(&d);
        goto out;
      }
    mv = models.v;
    nm = models.n;
  }
  if (gpus_s) {
    if (vcli_split(&gpus, "validate", "--gpus", gpus_s)) goto out;
    for (size_t i = 0; i < gpus.n; i++) {
      const char *db = ws_valid_gpu_name(gpus.v[i]);
      if (db) gpus.v[i] = db;
      if (!known_gpu(gpus.v[i])) {
        cli_usage_error("validate", "--gpus: unknown GPU '%s' (the data set has gtx680, "
                                    "gtx970, k20)", gpus.v[i]);
        goto out;
      }
    }
  }
  if (kernels_s) {
    if (vcli_split(&kernels, "validate", "--kernels", kernels_s)) goto out;
    for (size_t i = 0; i < kernels.n; i++)
      if (!ws_valid_kernel_known(kernels.v[i])) {
        fprintf(stderr, "warpsight validate: error: --kernels: unknown kernel '%s'; known:",
                kernels.v[i]);
        for (size_t k = 0; k < ws_valid_kernel_count(); k++)
          fprintf(stderr, " %s", ws_valid_kernel_name(k));
        fputc('\n', stderr);
        goto out;
      }
  }
  char ptx_dir[4096], cache_buf[4096];
  if (vcli_ptx_dir(ptx_dir, sizeof ptx_dir, "validate", ptx_s, pos[0])) goto out;
  int st = ws_valid_load(&data, pos[0], &d);
  if (st) {
    cli_print_diag(&d);
    rc = cli_exit_for(st);
    goto out;
  }

  /* Select and check every launch before predicting anything. */
  size_t nsel = 0;
  for (size_t i = 0; i < data->nrows; i++) {
    const ws_valid_row *r = &data->rows[i];
    int keep = 1;
    if (gpus.n) {
      keep = 0;
      for (size_t j = 0; j < gpus.n; j++) keep |= !strcmp(gpus.v[j], r->gpu);
    }
    if (keep && kernels.n) {
      keep = 0;
      for (size_t j = 0; j < kernels.n; j++) keep |= !strcmp(kernels.v[j], r->kernel);
    }
    if (!keep || (limit && nsel >= (size_t)limit)) continue;
    ws_launch_spec *l = NULL;
    if ((st = ws_valid_launch(&l, r, pos[0], &d)) != WS_OK) {
      cli_print_diag(&d);
      rc = cli_exit_for(st);
      goto out;
    }
    if (launches) {
      char path[4200];
      if (nsel == 0 && make_dir(launches)) {
        ws_launch_spec_free(l);
        goto out;
      }
      snprintf(path, sizeof path, "%s/L%d-%s.json", launches, r->line, r->kernel);
      char *json = ws_valid_launch_json(l);
      FILE *f = json ? fopen(path, "w") : NULL;
      int ok = f && fputs(json, f) >= 0 && fputc('\n', f) != EOF;
      if (f && fclose(f)) ok = 0;
      free(json);
      if (!ok) {
        fprintf(stderr, "warpsight validate: error: cannot write '%s'\n", path);
        ws_launch_spec_free(l);
        goto out;
      }
    }
    ws_launch_spec_free(l);
    nsel++;
  }
  if (nsel == 0) {
    cli_usage_error("validate", "no rows left after --gpus/--kernels/--limit");
    goto out;
  }
  if (launches) {
    printf("wrote %zu launch specs to %s\n", nsel, launches);
    rc = EXIT_OK;
    goto out;
  }

  ws_valid_options o = {0};
  o.models = mv;
  o.nmodels = nm;
  o.gpus = gpus.n ? gpus.v : NULL;
  o.ngpus = gpus.n;
  o.kernels = kernels.n ? kernels.v : NULL;
  o.nkernels = kernels.n;
  o.limit = (size_t)limit;
  o.sample_blocks = (int)sample;
  o.ptx_dir = ptx_dir;
  o.cache_dir = vcli_cache_dir(cache_buf, sizeof cache_buf, cache_s, no_cache);
  o.predict = ws_valid_default_predictor();
  if (!(pctx = ws_valid_predictor_new(0))) goto out;
  o.user = pctx;
  o.progress = vcli_progress;
  o.progress_user = "validate";
  o.keep_profiles = report != NULL; /* for DIR/counters.csv */
  st = ws_valid_run(&rep, data, &o, &d);
  cli_print_diag(&d);
  if (st) {
    rc = cli_exit_for(st);
    goto out;
  }
  char *text = ws_valid_report_text(rep);
  if (text) fputs(text, stdout);
  if (report) {
    char path[4200];
    if (make_dir(report)) {
      free(text);
      goto out;
    }
    ws_diag_clear(&d);
    snprintf(path, sizeof path, "%s/rows.csv", report);
    st = ws_valid_report_csv(rep, path, &d);
    snprintf(path, sizeof path, "%s/counters.csv", report);
    if (!st && write_counters(rep, data, path)) {
      free(text);
      goto out;
    }
    snprintf(path, sizeof path, "%s/summary.txt", report);
    FILE *f = fopen(path, "w");
    if (f) {
      if (text) fputs(text, f);
      fclose(f);
    }
    for (size_t m = 0; m < nm && !st; m++) {
      snprintf(path, sizeof path, "%s/%s", report, mv[m]); /* .png and .svg */
      st = ws_valid_report_chart(rep, m, path, &d);
    }
    cli_print_diag(&d);
    if (!st) ws_chart_shutdown(); /* cairo's font caches, for leak checkers */
    if (st) {
      free(text);
      rc = cli_exit_for(st);
      goto out;
    }
  }
  free(text);
  rc = rep->failed == rep->nrows ? EXIT_USAGE : EXIT_OK;
out:
  ws_valid_predictor_free(pctx);
  ws_valid_report_free(rep);
  ws_valid_data_free(data);
  ws_diag_free(&d);
  vcli_list_free(&models);
  vcli_list_free(&gpus);
  vcli_list_free(&kernels);
  return rc;
}
